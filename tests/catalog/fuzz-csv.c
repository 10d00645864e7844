/* fuzz-csv.c: libFuzzer target for the CSV reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "procura-csv.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraCsv) csv = procura_csv_parse ("fuzz.csv", (const char *) data, size, ',', &error);

  if (csv == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }
  /* touch every field: ASan checks the reads */
  for (guint r = 0; r < procura_csv_n_rows (csv); r++)
    {
      guint n = procura_csv_n_fields (csv, r);
      for (guint c = 0; c < n; c++)
        {
          const char *f = procura_csv_get (csv, r, c);
          g_assert_nonnull (f);
          (void) strlen (f);
        }
      g_assert_null (procura_csv_get (csv, r, n));
      g_assert_cmpuint (procura_csv_row_line (csv, r), >=, 1);
    }
  (void) procura_csv_column (csv, "Price");
  return 0;
}

/* procura-csv.h: a small RFC 4180 CSV reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Quoted fields, "" escapes, separators and newlines inside quotes, LF/CRLF/CR line
 * ends, a UTF-8 BOM at the start. Blank lines are skipped. Errors
 * (PROCURA_IMPORT_ERROR_SYNTAX) name the file and the line:column where the problem is.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct ProcuraCsv ProcuraCsv;

/* Reads @data (@len bytes; need not be NUL-terminated). @name is put in errors. */
ProcuraCsv *procura_csv_parse        (const char  *name,
                                      const char  *data,
                                      gsize        len,
                                      char         separator,
                                      GError     **error);
void        procura_csv_free         (ProcuraCsv  *csv);
/* Number of records, including the header record. */
guint       procura_csv_n_rows       (const ProcuraCsv *csv);
guint       procura_csv_n_fields     (const ProcuraCsv *csv,
                                      guint             row);
/* Field @col of record @row, NULL when out of range. */
const char *procura_csv_get          (const ProcuraCsv *csv,
                                      guint             row,
                                      guint             col);
/* 1-based line of the file where record @row starts (for messages). */
guint       procura_csv_row_line     (const ProcuraCsv *csv,
                                      guint             row);
/* Index of the header (row 0) field equal to @name (case-insensitive, trimmed), -1
 * when absent. */
int         procura_csv_column       (const ProcuraCsv *csv,
                                      const char       *name);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraCsv, procura_csv_free)

G_END_DECLS

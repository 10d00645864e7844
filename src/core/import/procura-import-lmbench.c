/* procura-import-lmbench.c: the llm-d LMBench per-request CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Columns: prompt_tokens, generation_tokens, ttft (s), generation_time (s, first token
 * to the end), user_id, question_id, launch_time, finish_time (unix seconds).
 * e2e = ttft + generation_time; tpot = generation_time / (generation_tokens - 1).
 * The load (QPS) is only in the file name: Procura asks for it.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-csv.h"
#include "procura-import-private.h"

static const char * const required[] = { "prompt_tokens", "generation_tokens", "ttft", "generation_time", NULL };

static gboolean
field_number (const char       *name,
              const ProcuraCsv *csv,
              guint             row,
              int               col,
              const char       *column,
              double           *out,
              GError          **error)
{
  const char *s = col >= 0 ? procura_csv_get (csv, row, (guint) col) : NULL;
  char *end = NULL;

  if (s == NULL || *s == '\0')
    {
      *out = NAN;
      return TRUE;
    }
  *out = g_ascii_strtod (s, &end);
  if (end == s || *end != '\0' || !isfinite (*out))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s:%u: column “%s”: expected a number, found “%.40s”"), name,
                   procura_csv_row_line (csv, row), column, s);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_lmbench (const char          *name,
               const char          *data,
               gsize                len,
               ProcuraImportResult *result,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autoptr (ProcuraCsv) csv = procura_csv_parse (name, data, len, ',', error);
  g_autoptr (ProcuraRun) run = NULL;
  int col_in, col_out, col_ttft, col_gen, col_launch, col_finish;
  guint rows;
  double *ttft, *e2e, *tpot, *in, *out;
  gsize k = 0, kt = 0;
  double t_min = INFINITY, t_max = -INFINITY, sum_in = 0, sum_out = 0;

  if (csv == NULL)
    return FALSE;
  for (const char * const *r = required; *r; r++)
    if (procura_csv_column (csv, *r) < 0)
      {
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                     _("%s:1: no “%s” column; expected the LMBench columns prompt_tokens, generation_tokens, ttft, generation_time"),
                     name, *r);
        return FALSE;
      }
  col_in = procura_csv_column (csv, "prompt_tokens");
  col_out = procura_csv_column (csv, "generation_tokens");
  col_ttft = procura_csv_column (csv, "ttft");
  col_gen = procura_csv_column (csv, "generation_time");
  col_launch = procura_csv_column (csv, "launch_time");
  col_finish = procura_csv_column (csv, "finish_time");
  rows = procura_csv_n_rows (csv);
  if (rows < 2)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                   _("%s: the CSV has a header but no request rows"), name);
      return FALSE;
    }
  run = procura_run_new ();
  ttft = g_new (double, rows);
  e2e = g_new (double, rows);
  tpot = g_new (double, rows);
  in = g_new (double, rows);
  out = g_new (double, rows);
  for (guint r = 1; r < rows; r++)
    {
      double vi, vo, vt, vg, vl, vf;

      if (!field_number (name, csv, r, col_in, "prompt_tokens", &vi, error)
          || !field_number (name, csv, r, col_out, "generation_tokens", &vo, error)
          || !field_number (name, csv, r, col_ttft, "ttft", &vt, error)
          || !field_number (name, csv, r, col_gen, "generation_time", &vg, error)
          || !field_number (name, csv, r, col_launch, "launch_time", &vl, error)
          || !field_number (name, csv, r, col_finish, "finish_time", &vf, error))
        {
          g_free (ttft);
          g_free (e2e);
          g_free (tpot);
          g_free (in);
          g_free (out);
          return FALSE;
        }
      ttft[k] = vt * 1000.0;
      e2e[k] = (vt + vg) * 1000.0;
      in[k] = vi;
      out[k] = vo;
      if (vo > 1 && !isnan (vg))
        tpot[kt++] = vg / (vo - 1) * 1000.0;
      if (!isnan (vi))
        sum_in += vi;
      if (!isnan (vo))
        sum_out += vo;
      if (!isnan (vl))
        t_min = MIN (t_min, vl);
      if (!isnan (vf))
        t_max = MAX (t_max, vf);
      k++;
    }
  run->completed = (gint64) k;
  run->input_tokens_mean = sum_in / (double) k;
  run->output_tokens_mean = sum_out / (double) k;
  run->scenario.input_len = run->input_tokens_mean;
  run->scenario.output_len = run->output_tokens_mean;
  if (t_max > t_min)
    {
      run->duration_s = t_max - t_min;
      run->request_throughput = (double) k / run->duration_s;
      run->output_throughput = sum_out / run->duration_s;
      run->total_throughput = (sum_in + sum_out) / run->duration_s;
      procura_run_add_warning (run, "throughputs are computed from launch_time and finish_time (first launch to last finish)");
    }
  procura_run_take_samples (run, "ttft", ttft, k);
  procura_run_take_samples (run, "e2e", e2e, k);
  procura_run_take_samples (run, "tpot", tpot, kt);
  procura_run_take_samples (run, "input_len", in, k);
  procura_run_take_samples (run, "output_len", out, k);
  run->label = g_strdup ("LMBench run");
  result->format_version = g_strdup ("lmbench-csv");
  g_ptr_array_add (result->runs, g_steal_pointer (&run));
  return TRUE;
}

static int
sniff_lmbench (const char *data,
               gsize       len)
{
  gsize n = MIN (len, 512);
  const char *nl = memchr (data, '\n', n);
  g_autofree char *first = g_strndup (data, nl ? (gsize) (nl - data) : n);

  if (strstr (first, "prompt_tokens") && strstr (first, "generation_tokens") && strstr (first, "ttft")
      && strstr (first, "generation_time"))
    return 90;
  return 0;
}

const ProcuraImporter procura_importer_lmbench_csv = {
  "lmbench-csv",
  "llm-d LMBench per-request CSV",
  sniff_lmbench,
  parse_lmbench,
};

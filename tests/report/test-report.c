/* test-report.c: the decision record as PDF, Markdown and CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "procura-analysis.h"
#include "procura-demo.h"
#include "procura-report.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-units.h"

/* A small, complete project built by hand. */
static ProcuraProject *
make_project (void)
{
  ProcuraProject *p = procura_project_new ();
  ProcuraCandidate *c;
  ProcuraQuote *q;
  ProcuraProvenance *prov;
  ProcuraOpsTest *t;

  p->title = g_strdup ("Chat assistant GPUs, 2027");
  p->created = g_strdup ("2026-11-01T09:00:00Z");
  p->brief->workload_type = g_strdup ("online-inference");
  p->brief->model_shape = g_strdup ("meta-llama/Llama-3.1-8B-Instruct");
  p->brief->input_tokens = 1000;
  p->brief->output_tokens = 250;
  p->brief->success_unit = g_strdup ("accepted response");
  p->brief->slo_metric = g_strdup ("ttft");
  p->brief->slo_percentile = 99;
  p->brief->slo_threshold_ms = 500;
  p->brief->duty_cycle = g_strdup ("always-on");
  p->brief->operating_boundary = g_strdup ("EU cloud regions");
  p->brief->tooling = g_strdup ("vLLM 0.11");
  p->brief->demand_average = 20;
  p->brief->demand_peak = 30;
  p->assumptions.acceptance_rate = 0.9;

  c = procura_candidate_new ();
  c->id = 1;
  c->name = g_strdup ("8xH100 on-demand");
  c->gpu_name = g_strdup ("H100-SXM");
  c->gpus_per_replica = 8;
  c->price_per_gpu_hour = 2.5;
  c->provider = g_strdup ("Lambda");
  g_ptr_array_add (p->candidates, c);

  c = procura_candidate_new ();
  c->id = 2;
  c->name = g_strdup ("Hosted API | flagship");
  c->kind = PROCURA_CANDIDATE_API;
  c->api_provider = g_strdup ("Example AI");
  c->price_input_per_mtok = 0.5;
  c->price_output_per_mtok = 1.5;
  g_ptr_array_add (p->candidates, c);

  q = procura_quote_new ();
  q->provider = g_strdup ("Lambda");
  q->sku = g_strdup ("gpu_8x_h100_sxm5");
  q->gpu_name = g_strdup ("H100 SXM");
  q->gpu_count = 8;
  q->price_per_hour = 23.92;
  q->seen_date = g_strdup ("2026-11-20");
  g_ptr_array_add (p->quotes, q);

  t = procura_ops_test_new ();
  t->candidate_id = 1;
  t->kind = g_strdup ("kill-worker");
  t->result = g_strdup ("pass");
  t->recovery_s = 42;
  g_ptr_array_add (p->ops_tests, t);

  prov = procura_provenance_new ();
  prov->file_name = g_strdup ("sweep, \"rate 8\".json");
  prov->size = 1234;
  prov->sha256 = g_strdup ("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
  prov->importer = g_strdup ("vllm-bench-serve");
  prov->imported_at = g_strdup ("2026-11-21T10:00:00Z");
  g_ptr_array_add (p->provenance, prov);

  p->decision.candidate_id = 1;
  p->decision.approver = g_strdup ("Dana Finance");
  p->decision.rationale = g_strdup ("Lowest cost per accepted response at the p99 target.");
  p->decision.date = g_strdup ("2026-11-29");
  return p;
}

static char *
pdf_text (const char *pdf)
{
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "pdftotext", "-layout", pdf, "-", NULL };
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    return NULL;
  return g_steal_pointer (&out);
}

static int
pdf_pages (const char *pdf)
{
  g_autofree char *contents = NULL;
  gsize len = 0;
  int pages = 0;

  g_assert_true (g_file_get_contents (pdf, &contents, &len, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  /* count page objects: "/Type /Page" not followed by "s" (the file holds NULs) */
  for (gsize i = 0; i + 12 <= len; i++)
    if (memcmp (contents + i, "/Type /Page", 11) == 0 && contents[i + 11] != 's')
      pages++;
  return pages;
}

static void
test_pdf (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *pdf = g_build_filename (dir, "record.pdf", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  int n_pages = 0;

  g_assert_true (procura_report_doc_write_pdf (doc, pdf, &n_pages, &error));
  g_assert_no_error (error);
  g_assert_cmpint (n_pages, >=, 2);   /* a title page and the body */
  g_assert_cmpint (pdf_pages (pdf), ==, n_pages);

  text = pdf_text (pdf);
  if (text == NULL)
    {
      g_test_skip ("pdftotext (poppler-utils) not installed: PDF text not checked");
      procura_test_rmtree (dir);
      return;
    }
  /* the brief, every candidate, the decision and the file hashes */
  g_assert_nonnull (strstr (text, "Workload brief"));
  g_assert_nonnull (strstr (text, "online-inference"));
  g_assert_nonnull (strstr (text, "p99 ttft"));
  g_assert_nonnull (strstr (text, "8xH100 on-demand"));
  g_assert_nonnull (strstr (text, "Dana Finance"));
  g_assert_nonnull (strstr (text, "Lowest cost per accepted response"));
  /* a long hash may wrap in its cell: look for its two halves */
  g_assert_nonnull (strstr (text, "9f86d081884c7d65"));
  g_assert_nonnull (strstr (text, "b0f00a08"));
  {
    g_autofree char *last = g_strdup_printf ("page %d of %d", n_pages, n_pages);
    g_assert_nonnull (strstr (text, last));
  }
  procura_test_rmtree (dir);
}

static void
test_markdown (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  g_autofree char *md = procura_report_doc_to_markdown (doc, "record-");
  g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
  gboolean found_hash_row = FALSE;

  g_assert_nonnull (strstr (md, "# Chat assistant GPUs, 2027"));
  g_assert_nonnull (strstr (md, "## Workload brief"));
  /* a '|' inside a cell is escaped, so the table keeps its columns */
  g_assert_nonnull (strstr (md, "Hosted API \\| flagship"));
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08") != NULL)
      {
        /* File | Size | SHA-256 | Importer | Format version | Imported: 6 cells, 7 pipes */
        guint pipes = 0;
        for (const char *c = lines[i]; *c; c++)
          if (*c == '|' && (c == lines[i] || c[-1] != '\\'))
            pipes++;
        g_assert_cmpuint (pipes, ==, 7);
        found_hash_row = TRUE;
      }
  g_assert_true (found_hash_row);
}

static void
test_csv (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  const ProcuraBlock *prov = procura_report_doc_find_table (doc, "provenance");
  g_autofree char *csv = NULL;

  g_assert_nonnull (prov);
  csv = procura_report_table_to_csv (prov);
  /* RFC 4180: a field with a comma or quote is quoted, quotes doubled, CRLF rows */
  g_assert_nonnull (strstr (csv, "\"sweep, \"\"rate 8\"\".json\",1234,"));
  g_assert_true (g_str_has_prefix (csv, "File,Size (bytes),SHA-256,"));
  g_assert_nonnull (strstr (csv, "\r\n"));
}

/* The record says how each warning was answered, and how many were. */
static void
test_warning_answers (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (p, NULL);
  g_autoptr (ProcuraReportDoc) doc = NULL;
  g_autofree char *md = NULL;
  g_autofree char *counts = NULL;
  ProcuraWarningAnswer *a;
  const ProcuraWarning *w;
  guint n;

  g_assert_nonnull (analysis);
  n = analysis->warnings->len;
  g_assert_cmpuint (n, >=, 1);
  w = g_ptr_array_index (analysis->warnings, 0);

  /* none answered yet */
  doc = procura_report_build (p);
  md = procura_report_doc_to_markdown (doc, "record-");
  g_assert_nonnull (strstr (md, "| How it was answered |"));
  g_assert_nonnull (strstr (md, "not answered"));
  counts = g_strdup_printf ("0 of %u warnings answered; %u not answered.", n, n);
  g_assert_nonnull (strstr (md, counts));
  g_clear_pointer (&md, g_free);
  g_clear_pointer (&counts, g_free);
  g_clear_pointer (&doc, procura_report_doc_free);

  a = procura_warning_answer_new ();
  a->warning_id = g_strdup (w->id);
  a->candidate_id = w->candidate_id;
  a->answer = g_strdup ("Accepted by Dana Finance: re-checked on the quote");
  a->answered_at = g_strdup ("2026-11-28T15:04:05Z");
  g_ptr_array_add (p->warning_answers, a);

  doc = procura_report_build (p);
  md = procura_report_doc_to_markdown (doc, "record-");
  g_assert_nonnull (strstr (md, "Accepted by Dana Finance: re-checked on the quote (2026-11-28)"));
  if (n == 1)
    counts = g_strdup ("Every warning was answered (1 of 1).");
  else
    counts = g_strdup_printf ("1 of %u warnings answered; %u not answered.", n, n - 1);
  g_assert_nonnull (strstr (md, counts));
}

/* The checklist table gives each answer's evidence and the file behind it. */
static void
test_checklist_evidence_file (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autoptr (ProcuraReportDoc) doc = NULL;
  g_autofree char *md = NULL;
  ProcuraChecklistItem *with_file = procura_checklist_item_new ();
  ProcuraChecklistItem *file_only = procura_checklist_item_new ();

  with_file->section = g_strdup ("security");
  with_file->item = g_strdup ("SOC 2 report received");
  with_file->answer = g_strdup ("yes");
  with_file->evidence = g_strdup ("type II, 2026");
  with_file->evidence_file = g_strdup ("/srv/evidence/soc2.pdf");
  g_ptr_array_add (p->checklist, with_file);
  file_only->section = g_strdup ("commercial");
  file_only->item = g_strdup ("Signed order form");
  file_only->answer = g_strdup ("yes");
  file_only->evidence_file = g_strdup ("https://example.com/order-form.pdf");
  g_ptr_array_add (p->checklist, file_only);

  doc = procura_report_build (p);
  g_assert_nonnull (procura_report_doc_find_table (doc, "checklist"));
  md = procura_report_doc_to_markdown (doc, "record-");
  g_assert_nonnull (strstr (md, "| type II, 2026; file: /srv/evidence/soc2.pdf |"));
  g_assert_nonnull (strstr (md, "| file: https://example.com/order-form.pdf |"));
}

static void
test_missing_parts (void)
{
  g_autoptr (ProcuraProject) p = procura_project_new ();
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *pdf = g_build_filename (dir, "empty.pdf", NULL);
  g_autofree char *csv = g_build_filename (dir, "empty.csv", NULL);
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  g_autofree char *md = procura_report_doc_to_markdown (doc, "");
  g_autoptr (GError) error = NULL;

  /* an empty project gives a report that says what is missing */
  g_assert_nonnull (strstr (md, "**Missing:** the brief lacks workload_type"));
  g_assert_nonnull (strstr (md, "**Missing:** no candidates"));
  g_assert_nonnull (strstr (md, "**Missing:** no candidate has been chosen yet"));
  g_assert_true (procura_report_write (p, pdf, PROCURA_REPORT_PDF, &error));
  g_assert_no_error (error);
  /* the CSV of an empty project is the finance table's header and no rows */
  g_assert_true (procura_report_write (p, csv, PROCURA_REPORT_CSV, &error));
  g_assert_no_error (error);
  {
    g_autofree char *contents = NULL;
    g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
    g_assert_true (g_str_has_prefix (contents, "rank,candidate,kind,"));
    g_assert_cmpint (strlen (strchr (contents, '\n')), ==, 1);
  }
  procura_test_rmtree (dir);
}

static void
test_deterministic (void)
{
  g_autoptr (ProcuraProject) p = make_project ();
  g_autofree char *a = NULL, *b = NULL;
  ProcuraReportDoc *doc;

  g_setenv ("SOURCE_DATE_EPOCH", "1700000000", TRUE);
  doc = procura_report_build (p);
  a = procura_report_doc_to_markdown (doc, "x-");
  procura_report_doc_free (doc);
  doc = procura_report_build (p);
  b = procura_report_doc_to_markdown (doc, "x-");
  procura_report_doc_free (doc);
  g_unsetenv ("SOURCE_DATE_EPOCH");
  g_assert_cmpstr (a, ==, b);
  g_assert_nonnull (strstr (a, "2023-11-14T22:13:20Z"));
}

/* Whitespace removed, so a cell that wrapped in the PDF still matches. */
static char *
squeeze (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* Splits one CSV record (RFC 4180 quoting) into fields. */
static GStrv
csv_fields (const char *line)
{
  GStrvBuilder *b = g_strv_builder_new ();
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;
  GStrv out;

  for (const char *p = line; *p != '\0' && *p != '\r' && *p != '\n'; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (field, *p++);
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        {
          g_strv_builder_add (b, field->str);
          g_string_truncate (field, 0);
        }
      else
        g_string_append_c (field, *p);
    }
  g_strv_builder_add (b, field->str);
  g_string_free (field, TRUE);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

static void
test_demo_cli (void)
{
  g_autofree char *dir = procura_test_mkdtemp ();
  g_autofree char *project = g_build_filename (dir, "demo.procura", NULL);
  g_autofree char *pdf = g_build_filename (dir, "record.pdf", NULL);
  g_autofree char *md = g_build_filename (dir, "record.md", NULL);
  g_autofree char *csv = g_build_filename (dir, "record.csv", NULL);
  g_autofree char *out = NULL, *err = NULL, *csv_text = NULL, *md_text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  JsonArray *candidates;
  const char *demo_argv[] = { "demo", project, NULL };
  const char *pdf_argv[] = { "report", project, "--output", pdf, NULL };
  const char *md_argv[] = { "report", project, "--output", md, NULL };
  const char *csv_argv[] = { "report", project, "--output", csv, NULL };
  const char *summary_argv[] = { "summary", project, "--json", NULL };
  const char *bad_argv[] = { "report", project, "--output", "record.docx", NULL };
  guint matched = 0;

  g_assert_cmpint (procura_test_run_cli (demo_argv, NULL, NULL), ==, 0);
  g_assert_cmpint (procura_test_run_cli (pdf_argv, NULL, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (md_argv, NULL, NULL), ==, 0);
  g_assert_cmpint (procura_test_run_cli (csv_argv, NULL, NULL), ==, 0);
  g_assert_cmpint (procura_test_run_cli (bad_argv, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, ".pdf, .md or .csv"));
  g_assert_cmpint (procura_test_run_cli (summary_argv, &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  candidates = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                             "candidates");
  g_assert_cmpuint (json_array_get_length (candidates), >=, 4);

  /* the PDF holds every candidate and every imported file's hash */
  {
    const char *argv[] = { "pdftotext", "-raw", pdf, "-", NULL };
    g_autofree char *text = NULL, *flat = NULL;

    if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, &text, NULL, NULL, NULL) && text != NULL)
      {
        g_autoptr (ProcuraStore) store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
        g_autoptr (ProcuraProject) p = NULL;

        g_assert_no_error (error);
        p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
        g_assert_no_error (error);
        flat = squeeze (text);
        g_assert_nonnull (strstr (flat, "online-inference"));
        for (guint i = 0; i < p->candidates->len; i++)
          {
            ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
            g_autofree char *name = squeeze (c->name);
            g_assert_nonnull (strstr (flat, name));
          }
        g_assert_cmpuint (p->provenance->len, >, 0);
        for (guint i = 0; i < p->provenance->len; i++)
          {
            ProcuraProvenance *prov = g_ptr_array_index (p->provenance, i);
            g_assert_nonnull (strstr (flat, prov->sha256));
          }
      }
  }

  /* the CSV finance table matches the summary's cost per accepted output */
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  lines = g_strsplit (csv_text, "\r\n", -1);
  {
    g_auto (GStrv) header = csv_fields (lines[0]);
    guint col_name = 0, col_cpa = 0;

    for (guint c = 0; header[c] != NULL; c++)
      {
        if (g_str_equal (header[c], "candidate"))
          col_name = c;
        if (g_str_equal (header[c], "cost_per_accepted"))
          col_cpa = c;
      }
    g_assert_cmpuint (col_cpa, >, 0);
    for (guint r = 1; lines[r] != NULL && lines[r][0] != '\0'; r++)
      {
        g_auto (GStrv) f = csv_fields (lines[r]);
        g_assert_cmpuint (g_strv_length (f), ==, g_strv_length (header));
        for (guint i = 0; i < json_array_get_length (candidates); i++)
          {
            JsonObject *c = json_array_get_object_element (candidates, i);
            JsonNode *cost = json_object_get_member (c, "cost");
            double expected, got;

            if (!g_str_equal (json_object_get_string_member (c, "name"), f[col_name]))
              continue;
            if (cost == NULL || JSON_NODE_HOLDS_NULL (cost))
              {
                g_assert_cmpstr (f[col_cpa], ==, "");
                matched++;
                continue;
              }
            expected = json_object_get_double_member (json_node_get_object (cost), "cost_per_accepted");
            got = g_ascii_strtod (f[col_cpa], NULL);
            g_assert_cmpfloat_with_epsilon (got, expected, expected * 1e-8);
            matched++;
          }
      }
    g_assert_cmpuint (matched, ==, json_array_get_length (candidates));
  }

  /* the Markdown has the finance table and its figures beside it */
  g_assert_true (g_file_get_contents (md, &md_text, NULL, NULL));
  g_assert_nonnull (strstr (md_text, "## Finance normalisation"));
  /* the ranking's uncertainty at this sample size, as the summary states it */
  {
    JsonObject *ranking = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                                         "ranking");
    g_autofree char *said = g_strdup_printf ("Uncertainty: %s.",
                                             json_object_get_string_member (ranking, "uncertainty"));
    g_assert_nonnull (strstr (md_text, said));
  }
  for (guint i = 0; procura_figure_names[i] != NULL; i++)
    {
      g_autofree char *svg = g_strdup_printf ("%s/record-%s.svg", dir, procura_figure_names[i]);
      g_autofree char *png = g_strdup_printf ("%s/record-%s.png", dir, procura_figure_names[i]);
      g_autofree char *ref = g_strdup_printf ("(record-%s.svg)", procura_figure_names[i]);
      g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
      g_assert_nonnull (strstr (md_text, ref));
    }
  for (guint i = 0; i < json_array_get_length (candidates); i++)
    {
      JsonObject *c = json_array_get_object_element (candidates, i);
      g_autofree char *cell = g_strdup_printf ("| %s |", json_object_get_string_member (c, "name"));
      g_assert_nonnull (strstr (md_text, cell));
    }
  procura_test_rmtree (dir);
}

/* issue 17: the report's memory fit uses the demo's engine log and probe figures and says
 * they are measured */
static void
test_memory_fit_measured (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  g_autofree char *md = procura_report_doc_to_markdown (doc, "record-");
  const ProcuraEngineLog *log = p->engine_logs->pdata[0];
  const ProcuraCandidate *lc = procura_project_find_candidate (p, log->candidate_id);
  const ProcuraCandidate *pc = procura_project_find_candidate (p, ((ProcuraProbeResult *) p->probe_results->pdata[0])->candidate_id);
  g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
  g_autofree char *weights = g_strdup_printf ("| %.1f GiB |", log->weights_gib);
  g_autofree char *pool = g_strdup_printf ("| %.1f GiB |", log->kv_available_gib);
  gboolean in_fit = FALSE, log_row = FALSE, probe_row = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "#"))
        in_fit = strstr (lines[i], "Memory fit") != NULL;
      if (!in_fit || !g_str_has_prefix (lines[i], "| "))
        continue;
      if (g_str_has_prefix (lines[i] + 2, lc->name))
        {
          /* the log's weights and pool in the table, the source named */
          g_assert_nonnull (strstr (lines[i], weights));
          g_assert_nonnull (strstr (lines[i], pool));
          g_assert_nonnull (strstr (lines[i], "measured by the engine"));
          g_assert_nonnull (strstr (lines[i], "demo-vllm-h100.log"));
          log_row = TRUE;
        }
      if (g_str_has_prefix (lines[i] + 2, pc->name))
        {
          g_assert_nonnull (strstr (lines[i], "measured by the probe"));
          probe_row = TRUE;
        }
    }
  g_assert_true (log_row);
  g_assert_true (probe_row);
  g_assert_nonnull (strstr (md, "Measured"));
}


/* issue 21: the finance table shows ONE cost per output, in the project's unit, said in
 * its header (per 1,000 for responses, per image for images); the CSV keeps both. */
static void
check_one_cost_column (ProcuraProject *p)
{
  g_autoptr (ProcuraAnalysis) analysis = procura_analysis_run (p, NULL);
  g_autoptr (ProcuraReportDoc) doc = procura_report_build (p);
  g_autofree char *md = procura_report_doc_to_markdown (doc, "record-");
  g_autofree char *per = procura_units_per_label (analysis->unit_factor, analysis->unit_label);
  g_autofree char *title = g_strdup_printf ("Cost %s", per);
  g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
  guint n_headers = 0, n_rows = 0;
  int cost_col = -1;

  /* the cells between the bars: drop each row's closing " |" */
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_suffix (lines[i], " |"))
      lines[i][strlen (lines[i]) - 2] = '\0';

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) cells = NULL;
      guint n_cost = 0;

      if (!g_str_has_prefix (lines[i], "| Rank | Candidate |"))
        continue;
      n_headers++;
      cells = g_strsplit (lines[i], " | ", -1);
      for (guint c = 0; cells[c] != NULL; c++)
        {
          /* "All-in cost per window" is the window's cost, not one per output */
          if (g_str_has_prefix (cells[c], "Cost ")
              || (strstr (cells[c], "accepted") != NULL && !g_str_has_prefix (cells[c], "Accepted outputs")))
            {
              n_cost++;
              cost_col = c;
              g_assert_cmpstr (g_strstrip (cells[c]), ==, title);
            }
        }
      g_assert_cmpuint (n_cost, ==, 1);
      /* the rows: the ranked ones show their cost at that scale */
      for (guint r = i + 2; lines[r] != NULL && g_str_has_prefix (lines[r], "| "); r++)
        {
          g_auto (GStrv) row = g_strsplit (lines[r], " | ", -1);

          g_assert_cmpuint (g_strv_length (row), ==, g_strv_length (cells));
          for (guint k = 0; k < analysis->candidates->len; k++)
            {
              const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, k);
              g_autofree char *want = NULL;

              if (ca->cost == NULL || g_strcmp0 (row[1], ca->name) != 0)
                continue;
              want = procura_units_cost_scaled (ca->cost->cost_per_accepted, analysis->unit_factor,
                                                analysis->currency);
              g_assert_cmpstr (g_strstrip (row[cost_col]), ==, want);
              n_rows++;
            }
        }
    }
  g_assert_cmpuint (n_headers, ==, 1);
  g_assert_cmpuint (n_rows, >, 0);
}

static void
test_one_cost_column (void)
{
  g_autoptr (ProcuraProject) p = procura_demo_project_new ();
  g_autoptr (ProcuraAnalysis) before = procura_analysis_run (p, NULL);
  g_autoptr (ProcuraAnalysis) after = NULL;

  g_assert_cmpfloat (before->unit_factor, ==, 1e3);
  check_one_cost_column (p);
  /* the same project counting images: per image, not per 1,000 */
  g_free (p->brief->success_unit);
  p->brief->success_unit = g_strdup ("accepted image");
  after = procura_analysis_run (p, NULL);
  g_assert_cmpfloat (after->unit_factor, ==, 1);
  check_one_cost_column (p);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/pdf", test_pdf);
  g_test_add_func ("/report/one-cost-column", test_one_cost_column);
  g_test_add_func ("/report/markdown", test_markdown);
  g_test_add_func ("/report/checklist-evidence-file", test_checklist_evidence_file);
  g_test_add_func ("/report/csv", test_csv);
  g_test_add_func ("/report/warning-answers", test_warning_answers);
  g_test_add_func ("/report/missing-parts", test_missing_parts);
  g_test_add_func ("/report/deterministic", test_deterministic);
  g_test_add_func ("/report/demo-cli", test_demo_cli);
  g_test_add_func ("/report/memory-fit-measured", test_memory_fit_measured);
  return g_test_run ();
}

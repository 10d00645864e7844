/* test-store-hostile-cli.c: a corpus of hostile project files opened by `summary`,
 * `report`, `render` and the app's open path: nothing crashes, every refusal names
 * what it refuses, every output is valid, no file changes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The corpus (about 100 files) is built here from the demo project with plain SQLite:
 * per table, every text column made invalid UTF-8 carrying HTML, a spreadsheet formula
 * and a terminal escape; every column given a value of the wrong type; every REAL
 * +Inf/-Inf and every INTEGER at the ends of int64; JSON columns 100,000 brackets deep,
 * not JSON, or JSON of the wrong shape; huge values; each table missing; future schema
 * versions; SQLite files of another application. This suite runs under ASan and UBSan
 * (build-aux/procura-dev), where a crash in the CLI shows as a sanitizer report.
 *
 * Each command runs the CLI's own code (procura_cli_main(), what `procura CMD` runs
 * after main()) in a forked child of this process, not a new `procura` process: the
 * same isolation (a crash, a sanitizer report or an exit ends only the child, which
 * has its own stdout and stderr), without loading and initialising the program, its
 * libraries, fonts and the sanitizer runtime 300 times — under ASan that start-up
 * was most of this test's 461 s.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <pango/pangocairo.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procura-cli.h"

#include "procura-demo.h"
#include "procura-json.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

typedef enum {
  LOADS,          /* opens and loads (with values read as unknown or replaced) */
  REFUSED_JSON,   /* loading refuses it: the message names table and column */
  REFUSED_SAMPLES,/* loading the samples refuses it (the CLI); the app, which loads
                   * them later, opens it */
  REFUSED_OPEN,   /* opening refuses it: the message contains the needle */
} Expect;

typedef struct {
  char   *name;
  char   *sql;
  Expect  expect;
  char   *needle;
} Variant;

static char *dir;
static char *base_path;
static char *base_data;
static gsize base_len;
static GPtrArray *variants;

/* The text put into every text column: invalid UTF-8, HTML, a formula, an escape. */
#define HOSTILE_TEXT "x'c328ff' || '=HYPERLINK(\"http://x\")<script>alert(1)</script>' || x'1b5d303b68690721'"

static const char * const tables[] = {
  "project", "brief", "assumptions", "provenance", "quotes", "candidates", "decision", "runs",
  "run_stats", "run_samples", "model_shapes", "engine_logs", "probe_results", "ops_tests",
  "checklist", "warning_answers", "undo_log", NULL
};

static const char * const json_columns[] = {
  "runs.warnings", "runs.extras_json", "engine_logs.errors", "probe_results.json", NULL
};

static void
add (const char *name,
     char       *sql,
     Expect      expect,
     const char *needle)
{
  Variant *v = g_new0 (Variant, 1);

  v->name = g_strdup (name);
  v->sql = sql;
  v->expect = expect;
  v->needle = g_strdup (needle);
  g_ptr_array_add (variants, v);
}

static void
variant_free (Variant *v)
{
  g_free (v->name);
  g_free (v->sql);
  g_free (v->needle);
  g_free (v);
}

static gboolean
is_json_column (const char *table,
                const char *column)
{
  g_autofree char *full = g_strdup_printf ("%s.%s", table, column);

  return g_strv_contains (json_columns, full);
}

/* One UPDATE per table and kind, from the declared types of its columns. */
static void
add_table_variants (sqlite3    *db,
                    const char *table)
{
  g_autofree char *pragma = g_strdup_printf ("PRAGMA table_info(%s)", table);
  GString *text = g_string_new (NULL), *types = g_string_new (NULL);
  GString *inf = g_string_new (NULL), *ninf = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, pragma, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *col = (const char *) sqlite3_column_text (stmt, 1);
      const char *type = (const char *) sqlite3_column_text (stmt, 2);
      gboolean pk = sqlite3_column_int (stmt, 5) > 0;
      /* parts of UNIQUE keys: spoiled by appending, not replaced */
      gboolean key = pk || g_str_equal (col, "metric") || g_str_equal (col, "stat")
                     || (g_str_equal (table, "run_samples") && g_str_equal (col, "run_id"));
#define SEP(s) ((s)->len ? ", " : "")

      if (pk || is_json_column (table, col))
        continue;
      if (g_str_equal (type, "TEXT"))
        {
          /* appended, so that unique names stay unique */
          g_string_append_printf (text, "%s%s = CAST(coalesce(%s, '') || " HOSTILE_TEXT " AS TEXT)",
                                  SEP (text), col, col);
          if (!key)
            g_string_append_printf (types, "%s%s = CAST(%s AS BLOB)", SEP (types), col, col);
        }
      else if (g_str_equal (type, "INTEGER"))
        {
          if (key)
            continue;
          g_string_append_printf (types, "%s%s = 'many'", SEP (types), col);
          g_string_append_printf (inf, "%s%s = 9223372036854775807", SEP (inf), col);
          g_string_append_printf (ninf, "%s%s = -9223372036854775808", SEP (ninf), col);
        }
      else if (g_str_equal (type, "REAL"))
        {
          g_string_append_printf (types, "%s%s = x'00ff'", SEP (types), col);
          g_string_append_printf (inf, "%s%s = 9e999", SEP (inf), col);
          g_string_append_printf (ninf, "%s%s = -9e999", SEP (ninf), col);
        }
      else if (g_str_equal (type, "BLOB"))
        g_string_append_printf (types, "%s%s = 'not a blob'", SEP (types), col);
#undef SEP
    }
  sqlite3_finalize (stmt);

#define ADD(kind, s)                                                             \
  if ((s)->len > 0)                                                              \
    {                                                                            \
      g_autofree char *name_ = g_strdup_printf ("%s-%s", kind, table);           \
      add (name_, g_strdup_printf ("UPDATE %s SET %s;", table, (s)->str), LOADS, NULL); \
    }
  ADD ("text", text);
  ADD ("types", types);
  ADD ("inf", inf);
  ADD ("ninf", ninf);
#undef ADD
  if (g_str_equal (table, "run_samples"))
    /* a BLOB that is not 8 × n bytes is damage */
    for (guint i = 0; i < variants->len; i++)
      {
        Variant *v = g_ptr_array_index (variants, i);

        if (g_str_has_suffix (v->name, "-run_samples") && !g_str_has_prefix (v->name, "text-"))
          {
            v->expect = REFUSED_SAMPLES;
            v->needle = g_strdup ("table “run_samples”, column “data”");
          }
      }
  g_string_free (text, TRUE);
  g_string_free (types, TRUE);
  g_string_free (inf, TRUE);
  g_string_free (ninf, TRUE);

  {
    g_autofree char *name = g_strdup_printf ("missing-%s", table);
    /* "missing table “checklist”", or one of its indexes first: "missing index
     * “sqlite_autoindex_run_samples_1” of table “run_samples”" */
    g_autofree char *needle = g_strdup_printf ("table “%s”", table);

    add (name, g_strdup_printf ("DROP TABLE %s;", table), REFUSED_OPEN, needle);
  }
}

static void
build_variants (void)
{
  sqlite3 *db = NULL;

  variants = g_ptr_array_new_with_free_func ((GDestroyNotify) variant_free);
  g_assert_cmpint (sqlite3_open_v2 (base_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  for (guint i = 0; tables[i] != NULL; i++)
    add_table_variants (db, tables[i]);
  sqlite3_close (db);

  /* JSON columns: too deep, not JSON, the wrong shape, NaN */
  for (guint i = 0; json_columns[i] != NULL; i++)
    {
      g_auto (GStrv) tc = g_strsplit (json_columns[i], ".", 2);
      g_autofree char *needle = g_strdup_printf ("table “%s”, column “%s”", tc[0], tc[1]);
      g_autofree char *deep = g_strdup_printf ("deep-%s-%s", tc[0], tc[1]);
      g_autofree char *broken = g_strdup_printf ("broken-%s-%s", tc[0], tc[1]);

      add (deep, g_strdup_printf ("UPDATE %s SET %s = printf('%%.*c', 100000, '[');", tc[0], tc[1]),
           REFUSED_JSON, needle);
      add (broken, g_strdup_printf ("UPDATE %s SET %s = '{\"a\": NaN, ' || x'c328';", tc[0], tc[1]),
           REFUSED_JSON, needle);
    }
  add ("shape-runs-warnings", g_strdup ("UPDATE runs SET warnings = '{\"not\": \"an array\"}';"),
       REFUSED_JSON, "table “runs”, column “warnings”");
  add ("shape-engine-logs-errors", g_strdup ("UPDATE engine_logs SET errors = '[1, [2], {}]';"),
       REFUSED_JSON, "table “engine_logs”, column “errors”");

  /* huge values */
  add ("huge-title", g_strdup ("UPDATE project SET title = printf('%.*c', 2000000, 'T');"), LOADS, NULL);
  add ("huge-notes", g_strdup ("UPDATE candidates SET notes = printf('%.*c', 4000000, '<');"), LOADS, NULL);
  add ("huge-samples", g_strdup ("UPDATE run_samples SET data = zeroblob(8 * 200000), n = 200000 "
                                 "WHERE id = (SELECT min(id) FROM run_samples);"), LOADS, NULL);
  add ("huge-warnings", g_strdup ("UPDATE runs SET warnings = '[' || rtrim(replace(printf('%.*c', 20000, 'x'), "
                                  "'x', '\"<b>=1+2</b>\",'), ',') || ']';"), LOADS, NULL);

  /* versions and other applications */
  add ("version-next", g_strdup_printf ("PRAGMA user_version = %d;", PROCURA_STORE_SCHEMA_VERSION + 1),
       REFUSED_OPEN, "newer version of Procura");
  add ("version-max", g_strdup ("PRAGMA user_version = 2147483647;"), REFUSED_OPEN, "newer version of Procura");
  add ("version-negative", g_strdup ("PRAGMA user_version = -1;"), REFUSED_OPEN, "no schema version");
  add ("foreign-app", g_strdup ("PRAGMA application_id = 1234;"), REFUSED_OPEN, "another application");
  add ("foreign-tables", g_strdup ("DROP TABLE checklist; CREATE TABLE checklist (x BLOB);"),
       REFUSED_OPEN, "table “checklist”");
}

/* Runs `procura ARGV…` as procura_cli_main() in a forked child, its stdout and stderr
 * captured; returns the exit status (128 + the signal for a crash). */
static int
run_cli_child (const char * const *argv,
               char              **out,
               char              **err)
{
  g_autofree char *out_path = g_build_filename (dir, "child-stdout.txt", NULL);
  g_autofree char *err_path = g_build_filename (dir, "child-stderr.txt", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  int status = 0;
  pid_t pid;

  g_ptr_array_add (args, (gpointer) "procura");
  for (gsize i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);
  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      int o = open (out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      int e = open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      int rc;

      if (o < 0 || e < 0 || dup2 (o, STDOUT_FILENO) < 0 || dup2 (e, STDERR_FILENO) < 0)
        _exit (120);
      rc = procura_cli_main ((int) args->len - 1, (char **) args->pdata);
      fflush (stdout);
      fflush (stderr);
      /* exit(), not _exit(): a leak check at exit still runs, as for the program */
      exit (rc);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (g_file_get_contents (out_path, out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

/* What the program's start does once (fonts found, text shaped), done here once for
 * every child, as the program does it once per run. */
static void
warm_up_text (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 64, 16);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = pango_cairo_create_layout (cr);

  pango_layout_set_text (layout, "Procura 0123456789 $ € ×", -1);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static char *
file_sha256 (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return g_strdup ("(unreadable)");
  return procura_sha256_hex (data, len);
}

static char *
make_file (const Variant *v)
{
  char *path = g_strdup_printf ("%s/%s.procura", dir, v->name);
  sqlite3 *db = NULL;
  char *msg = NULL;

  g_assert_true (g_file_set_contents (path, base_data, base_len, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  /* the corpus is made, not kept: no waiting for the disk (fsync) per file */
  sqlite3_exec (db, "PRAGMA synchronous = OFF", NULL, NULL, NULL);
  if (sqlite3_exec (db, v->sql, NULL, NULL, &msg) != SQLITE_OK)
    g_error ("%s: %s: %s", v->name, v->sql, msg);
  sqlite3_exec (db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
  sqlite3_close (db);
  return path;
}

/* No sanitizer report, no crash; refusals name the file. */
static void
assert_clean_run (const Variant *v,
                  const char    *path,
                  const char    *what,
                  int            rc,
                  const char    *out,
                  const char    *err)
{
  if (strstr (err, "Sanitizer") != NULL || strstr (err, "runtime error:") != NULL || rc >= 128)
    g_error ("%s: %s crashed (status %d): %s", v->name, what, rc, err);
  if (rc != 0 && rc != 1)
    g_error ("%s: %s exited %d: %s", v->name, what, rc, err);
  if (!g_utf8_validate (out, -1, NULL) || !g_utf8_validate (err, -1, NULL))
    g_error ("%s: %s wrote invalid UTF-8", v->name, what);
  if (rc == 1)
    {
      if (strstr (err, path) == NULL)
        g_error ("%s: %s: the message does not name the file: %s", v->name, what, err);
      if (v->expect == LOADS)
        g_error ("%s: %s refused a project that loads: %s", v->name, what, err);
      if (v->needle != NULL && strstr (err, v->needle) == NULL)
        g_error ("%s: %s: the message lacks “%s”: %s", v->name, what, v->needle, err);
      /* one mention of the path, not two */
      if (strstr (strstr (err, path) + strlen (path), path) != NULL)
        g_error ("%s: %s names the file twice: %s", v->name, what, err);
    }
  else if (v->expect != LOADS)
    g_error ("%s: %s accepted a project it must refuse", v->name, what);
}

static void
assert_strict_json (const Variant *v,
                    const char    *what,
                    const char    *text)
{
  g_autoptr (GError) error = NULL;
  char *rewritten = NULL;
  gsize rewritten_len = 0;

  if (!procura_json_check (what, text, strlen (text), 0, PROCURA_JSON_STRICT, &rewritten,
                           &rewritten_len, &error))
    g_error ("%s: %s printed invalid JSON: %s", v->name, what, error->message);
  g_free (rewritten);
}

static void
assert_safe_markdown (const Variant *v,
                      const char    *path)
{
  g_autofree char *md = NULL;

  if (!g_file_get_contents (path, &md, NULL, NULL))
    g_error ("%s: no Markdown written", v->name);
  g_assert_true (g_utf8_validate (md, -1, NULL));
  if (strstr (md, "<script") != NULL || strstr (md, "\x1b") != NULL)
    g_error ("%s: project text reached the Markdown unescaped", v->name);
}

static void
assert_safe_csv (const Variant *v,
                 const char    *path)
{
  g_autofree char *csv = NULL;

  if (!g_file_get_contents (path, &csv, NULL, NULL))
    return;  /* a project without candidates has no finance table */
  g_assert_true (g_utf8_validate (csv, -1, NULL));
  if (csv[0] == '=' || strstr (csv, ",=") != NULL || strstr (csv, "\n=") != NULL
      || strstr (csv, ",\"=") != NULL || strstr (csv, "\n\"=") != NULL)
    g_error ("%s: a formula reached the CSV", v->name);
}

/* What the app does on open (ProcuraDocument): open, load; then every text the window
 * shows must be UTF-8. On a copy: opening for writing may switch the journal mode. */
static void
app_open (const Variant *v,
          const char    *path)
{
  g_autofree char *copy = g_strdup_printf ("%s.app.procura", path);
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraProject *p;

  {
    g_autofree char *data = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (path, &data, &len, NULL));
    g_assert_true (g_file_set_contents (copy, data, len, NULL));
  }
  store = procura_store_open (copy, PROCURA_STORE_OPEN_DEFAULT, &error);
  if (store == NULL)
    {
      g_assert_cmpint (v->expect, ==, REFUSED_OPEN);
      g_assert_nonnull (strstr (error->message, copy));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }
  g_assert_cmpint (v->expect, !=, REFUSED_OPEN);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  if (p == NULL)
    {
      g_assert_cmpint (v->expect, ==, REFUSED_JSON);
      g_assert_nonnull (strstr (error->message, v->needle));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
  else
    {
      g_assert_true (v->expect == LOADS || v->expect == REFUSED_SAMPLES);
      g_assert_true (p->title == NULL || g_utf8_validate (p->title, -1, NULL));
      for (guint i = 0; i < p->candidates->len; i++)
        {
          ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
          g_assert_true (c->name == NULL || g_utf8_validate (c->name, -1, NULL));
          g_assert_true (c->notes == NULL || g_utf8_validate (c->notes, -1, NULL));
        }
      for (guint i = 0; i < p->runs->len; i++)
        {
          ProcuraRun *r = g_ptr_array_index (p->runs, i);
          g_assert_true (r->label == NULL || g_utf8_validate (r->label, -1, NULL));
          for (guint k = 0; k < r->warnings->len; k++)
            g_assert_true (g_utf8_validate (g_ptr_array_index (r->warnings, k), -1, NULL));
        }
      procura_project_free (p);
    }
  procura_store_close (store);
}

static const char * const figures[] = {
  "cost-curve", "latency", "breakdown", "memory", "pareto", "break-even", "cdf", "sensitivity",
  "fit-map", NULL
};

static void
test_corpus (void)
{
  guint loaded = 0, refused = 0;

  g_assert_cmpuint (variants->len, >=, 50);
  for (guint i = 0; i < variants->len; i++)
    {
      const Variant *v = g_ptr_array_index (variants, i);
      g_autofree char *path = make_file (v);
      g_autofree char *before = file_sha256 (path);
      g_autofree char *after = NULL;
      g_autofree char *report = g_strdup_printf ("%s/%s.%s", dir, v->name, i % 3 == 0 ? "md" : i % 3 == 1 ? "csv" : "pdf");
      g_autofree char *figure = g_strdup_printf ("%s/%s.%s", dir, v->name, i % 2 ? "svg" : "png");
      const char *summary_argv[] = { "summary", path, "--json", "--no-bootstrap", NULL };
      const char *report_argv[] = { "report", path, "--output", report, "--json", NULL };
      const char *render_argv[] = { "render", path, figures[i % 9], "--output", figure, "--json", NULL };
      g_autofree char *out = NULL, *err = NULL;
      int rc;

      if (g_getenv ("PROCURA_TEST_VARIANT") != NULL
          && !g_str_has_prefix (v->name, g_getenv ("PROCURA_TEST_VARIANT")))
        continue;
      g_test_message ("%s", v->name);
      rc = run_cli_child (summary_argv, &out, &err);
      assert_clean_run (v, path, "summary", rc, out, err);
      if (rc == 0)
        assert_strict_json (v, "summary --json", out);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);

      rc = run_cli_child (report_argv, &out, &err);
      assert_clean_run (v, path, "report", rc, out, err);
      if (rc == 0)
        {
          assert_strict_json (v, "report --json", out);
          if (g_str_has_suffix (report, ".md"))
            assert_safe_markdown (v, report);
          else if (g_str_has_suffix (report, ".csv"))
            assert_safe_csv (v, report);
        }
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);

      rc = run_cli_child (render_argv, &out, &err);
      /* a figure the project has no data for is a usage error (exit 2), not a refusal */
      if (rc == 2 && v->expect == LOADS)
        g_assert_nonnull (strstr (err, "procura render"));
      else
        assert_clean_run (v, path, "render", rc, out, err);
      if (rc == 0)
        assert_strict_json (v, "render --json", out);

      app_open (v, path);

      after = file_sha256 (path);
      if (!g_str_equal (before, after))
        g_error ("%s: the project file changed", v->name);
      {
        g_autofree char *wal = g_strconcat (path, "-wal", NULL);
        g_autofree char *journal = g_strconcat (path, "-journal", NULL);
        g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
        g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
      }
      if (v->expect == LOADS)
        loaded++;
      else
        refused++;
    }
  g_test_message ("%u hostile projects: %u loaded safely, %u refused with a reason",
                  variants->len, loaded, refused);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  /* what main() does before procura_cli_main() */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  warm_up_text ();
  dir = procura_test_mkdtemp ();
  base_path = g_build_filename (dir, "base.procura", NULL);
  g_assert_true (procura_demo_write (base_path, &error));
  g_assert_no_error (error);
  {
    /* an answered warning, so that warning_answers has a row to spoil */
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open (base_path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "INSERT INTO warning_answers (warning_id, candidate_id, answer, "
                                       "answered_at) VALUES ('stale-quote', 0, 'checked', '2026-11-30T00:00:00Z');"
                                       "PRAGMA journal_mode = DELETE;", NULL, NULL, NULL), ==, SQLITE_OK);
#ifdef PROCURA_TEST_SANITIZED
    /* one run keeps its samples (every sample variant still has rows to spoil); the
     * others read their reported percentiles: the same code paths at a fifth of the cost */
    g_assert_cmpint (sqlite3_exec (db, "DELETE FROM run_samples WHERE run_id <> "
                                       "(SELECT min(run_id) FROM run_samples); VACUUM;",
                                   NULL, NULL, NULL), ==, SQLITE_OK);
#endif
    sqlite3_close (db);
  }
  g_assert_true (g_file_get_contents (base_path, &base_data, &base_len, NULL));
  build_variants ();

  g_test_add_func ("/store/hostile-cli/corpus", test_corpus);

  rc = g_test_run ();
  g_ptr_array_unref (variants);
  procura_test_rmtree (dir);
  g_free (dir);
  g_free (base_path);
  g_free (base_data);
  return rc;
}

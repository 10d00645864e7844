/* test-store-kill.c: `procura import --candidate`, `report` and `render` killed at random
 * moments leave no partial state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each command is first timed once, uninterrupted; then, many times, it is started and sent SIGKILL after a random (seeded) delay between 0 and 1.2 times that
 * duration. After each kill:
 * - import: the project passes its integrity check and has either the new candidate
 *   with the imported run assigned to it, or neither;
 * - report and render: the output file is either the previous complete file (same
 *   bytes) or a complete new one (a PDF ending in %%EOF, a PNG ending in its IEND
 *   chunk, an SVG ending in </svg>); the folder holds at most one stale temporary
 *   file, and none once a write finished.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procura-atomic-file.h"
#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

/* 45 + 15 + 2 × 21 = 102 kills */
#define IMPORT_KILLS      45
#define REPORT_KILLS      15
#define RENDER_KILLS      21
#define SAMPLES           400

static char *dir;
static char *project;
static char *input;

static void
make_project (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  ProcuraStore *store;
  ProcuraRun *run = procura_run_new ();
  double *v = g_new (double, SAMPLES);

  project = g_build_filename (dir, "kill.procura", NULL);
  store = procura_store_create (project, "Kill test", &error);
  g_assert_no_error (error);
  c->name = g_strdup ("base");
  c->gpu_name = g_strdup ("H100 80GB");
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = 2.5;
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);
  for (int i = 0; i < SAMPLES; i++)
    v[i] = 20 + i * 0.1;
  run->label = g_strdup ("base run");
  run->candidate_id = 1;
  procura_run_take_samples (run, "ttft", v, SAMPLES);
  g_ptr_array_add (res->runs, run);
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("base.json");
  g_assert_true (procura_store_import (store, res, 1, &error));
  procura_store_close (store);

  /* a vLLM `benchmark_serving` result with per-request samples */
  {
    GString *s = g_string_new ("{\"backend\": \"vllm\", \"model_id\": \"m/x\", \"request_rate\": 4.0, "
                               "\"completed\": 400, \"failed\": 0, \"duration\": 100.0, "
                               "\"mean_ttft_ms\": 24, \"mean_tpot_ms\": 10, \"ttfts\": [");

    for (int i = 0; i < SAMPLES; i++)
      g_string_append_printf (s, "%s%.4f", i ? "," : "", 0.02 + i * 1e-5);
    g_string_append (s, "]}");
    input = g_build_filename (dir, "input.json", NULL);
    g_assert_true (g_file_set_contents (input, s->str, -1, NULL));
    g_string_free (s, TRUE);
  }
}

/* Starts the procura binary with @argv (NULL-terminated, without "procura"). */
static GPid
start (const char * const *argv)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  GPid pid = 0;

  g_ptr_array_add (args, (gpointer) g_getenv ("PROCURA_BINARY"));
  for (gsize i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);
  g_spawn_async (NULL, (char **) args->pdata, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

/* Runs @argv, killing it after @delay_us unless it finished; returns the wait status. */
static int
run_and_kill (const char * const *argv,
              gint64              delay_us)
{
  GPid pid = start (argv);
  gint64 deadline = g_get_monotonic_time () + delay_us;
  int status = 0;

  for (;;)
    {
      pid_t got = waitpid (pid, &status, WNOHANG);

      g_assert_cmpint (got, >=, 0);
      if (got == pid)
        return status;
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (500);
    }
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  return status;
}

static gint64
time_command (const char * const *argv)
{
  gint64 t0 = g_get_monotonic_time ();
  int status = run_and_kill (argv, G_GINT64_CONSTANT (120000000));

  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  return MAX (g_get_monotonic_time () - t0, 1000);
}

static gboolean
complete (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  static const guint8 iend[] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82 };

  if (!g_file_get_contents (path, &data, &len, NULL))
    return FALSE;
  if (g_str_has_suffix (path, ".png"))
    return len > sizeof iend && memcmp (data + len - sizeof iend, iend, sizeof iend) == 0
           && memcmp (data, "\x89PNG", 4) == 0;
  if (g_str_has_suffix (path, ".pdf"))
    return g_str_has_prefix (data, "%PDF-") && g_strrstr (data + (len > 64 ? len - 64 : 0), "%%EOF") != NULL;
  if (g_str_has_suffix (path, ".svg"))
    return g_str_has_prefix (data, "<?xml") && g_str_has_suffix (g_strchomp (data), "</svg>");
  g_assert_not_reached ();
}

static char *
sha_of (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  return procura_sha256_hex (data, len);
}

/* Counts the temporary files left in the folder: src/common's (".NAME.procura-tmp-XXXXXX")
 * and GLib's (g_file_set_contents: "NAME.XXXXXX"); anything else but the files of the
 * test is an error. */
static guint
count_temporary (void)
{
  static const char * const known[] = { "kill.procura", "kill.procura-wal", "kill.procura-shm",
                                        "kill.procura-journal", "input.json", "bulk.json", "record.pdf",
                                        "cdf.png", "cdf.svg", NULL };
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint temporary = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      if (g_strv_contains (known, name))
        continue;
      if (procura_atomic_file_is_temporary (name))
        {
          temporary++;
          continue;
        }
      g_error ("a kill left %s in the output folder", name);
    }
  return temporary;
}

/* SIGKILL during writes of @output: always the previous file or a complete new one; at
 * most one stale temporary file at any time, none after a write that finished. */
static void
kill_output (const char * const *argv,
             const char * const *argv_other,
             const char         *output,
             int                 kills,
             GRand              *rand)
{
  gint64 duration = time_command (argv);
  guint whole_new = 0, stale = 0;

  g_assert_true (complete (output));
  for (int i = 0; i < kills; i++)
    {
      g_autofree char *before = sha_of (output);
      g_autofree char *after = NULL;
      gint64 delay = g_rand_int_range (rand, 0, (gint32) MIN (duration * 6 / 5, G_MAXINT32));

      /* alternate two variants, so that a new complete file differs from the previous */
      run_and_kill (i % 2 == 0 ? argv_other : argv, delay);
      stale = MAX (stale, count_temporary ());
      g_assert_cmpuint (count_temporary (), <=, 1);
      after = sha_of (output);
      g_assert_nonnull (after);
      if (!g_str_equal (before, after))
        {
          if (!complete (output))
            g_error ("%s: a kill after %" G_GINT64_FORMAT " µs left a partial file", output, delay);
          whole_new++;
        }
    }
  /* a write that finishes removes what a killed one left */
  time_command (argv);
  g_assert_true (complete (output));
  g_assert_cmpuint (count_temporary (), ==, 0);
  g_test_message ("%s: %d kills within %.2f s; %u left a new complete file, the others the "
                  "previous one; at most %u stale temporary file at a time, none after a "
                  "finished write", output, kills, duration * 1.2e-6, whole_new, stale);
}

static void
test_report (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026120101);
  g_autofree char *pdf = g_build_filename (dir, "record.pdf", NULL);
  /* the report says when it was generated: each new file differs from the previous */
  const char *argv[] = { "report", project, "--output", pdf, NULL };
  kill_output (argv, argv, pdf, REPORT_KILLS, rand);
}

static void
test_render (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026120102);
  g_autofree char *png = g_build_filename (dir, "cdf.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "cdf.svg", NULL);
  const char *png_argv[] = { "render", project, "cdf", "--output", png, NULL };
  const char *png_dark[] = { "render", project, "cdf", "--theme", "dark", "--output", png, NULL };
  const char *svg_argv[] = { "render", project, "cdf", "--output", svg, NULL };
  const char *svg_dark[] = { "render", project, "cdf", "--theme", "dark", "--output", svg, NULL };

  kill_output (png_argv, png_dark, png, RENDER_KILLS, rand);
  kill_output (svg_argv, svg_dark, svg, RENDER_KILLS, rand);
}

/* Whole or nothing: the candidate @name exists iff a run was added and assigned to it. */
static void
check_import (const char *name,
              guint       runs_before,
              gboolean   *imported)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
  ProcuraProject *p;
  gint64 id;
  guint assigned = 0;

  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  id = procura_store_find_candidate_by_name (store, name);
  for (guint i = 0; i < p->runs->len; i++)
    if (id > 0 && ((ProcuraRun *) g_ptr_array_index (p->runs, i))->candidate_id == id)
      assigned++;
  if (id > 0)
    {
      g_assert_cmpuint (p->runs->len, ==, runs_before + 1);
      g_assert_cmpuint (assigned, ==, 1);
    }
  else
    g_assert_cmpuint (p->runs->len, ==, runs_before);
  *imported = id > 0;
  procura_project_free (p);
  procura_store_close (store);
}

static guint
count_runs (void)
{
  g_autoptr (GError) error = NULL;
  ProcuraStore *store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
  ProcuraProject *p;
  guint n;

  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  n = p->runs->len;
  procura_project_free (p);
  procura_store_close (store);
  return n;
}

static void
test_import (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026120103);
  const char *first[] = { "import", project, input, "--candidate", "timed", NULL };
  gint64 duration = time_command (first);
  guint imports = 0;
  gboolean imported = FALSE;

  check_import ("timed", count_runs () - 1, &imported);
  g_assert_true (imported);
  for (int i = 0; i < IMPORT_KILLS; i++)
    {
      g_autofree char *name = g_strdup_printf ("new %d", i);
      const char *argv[] = { "import", project, input, "--candidate", name, NULL };
      guint before = count_runs ();
      gint64 delay = g_rand_int_range (rand, 0, (gint32) MIN (duration * 6 / 5, G_MAXINT32));

      run_and_kill (argv, delay);
      check_import (name, before, &imported);
      imports += imported;
    }
  g_test_message ("import --candidate: %d kills within %.2f s, %u whole imports, the others "
                  "nothing", IMPORT_KILLS, duration * 1.2e-6, imports);
}

/* A vLLM result whose inter-token gaps (2.2 M values, 17.6 MB as doubles) make the
 * import a bulk write: a rollback journal instead of the WAL (store_begin_bulk()). */
static char *
write_bulk_input (void)
{
  char *path = g_build_filename (dir, "bulk.json", NULL);
  GString *s = g_string_new ("{\"backend\": \"vllm\", \"model_id\": \"m/x\", \"request_rate\": 4.0, "
                             "\"completed\": 2200, \"failed\": 0, \"duration\": 100.0, \"ttfts\": [");

  for (int i = 0; i < 2200; i++)
    g_string_append_printf (s, "%s%.4f", i ? "," : "", 0.02 + i * 1e-5);
  g_string_append (s, "], \"itls\": [");
  for (int i = 0; i < 2200; i++)
    {
      g_string_append (s, i ? ",[" : "[");
      for (int j = 0; j < 1000; j++)
        g_string_append_printf (s, "%s0.0%d", j ? "," : "", 100 + (i * 7 + j * 13) % 900);
      g_string_append_c (s, ']');
    }
  g_string_append (s, "]}");
  g_assert_true (g_file_set_contents (path, s->str, -1, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* Whether @journal is a hot rollback journal: present, and synced (SQLite writes its
 * header's magic number only once the journal is on disk, before it changes the file). */
static gboolean
journal_is_hot (const char *journal)
{
  static const guint8 magic[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };
  guint8 head[8] = { 0 };
  int fd = open (journal, O_RDONLY | O_CLOEXEC);
  gboolean hot;

  if (fd < 0)
    return FALSE;
  hot = read (fd, head, sizeof head) == (ssize_t) sizeof head && memcmp (head, magic, sizeof magic) == 0;
  close (fd);
  return hot;
}

/* Starts the import of @argv and returns when its rollback journal appears. */
static GPid
start_until_journal (const char * const *argv,
                     const char         *journal)
{
  GPid pid = start (argv);
  gint64 deadline = g_get_monotonic_time () + G_GINT64_CONSTANT (120000000);
  int status = 0;
  struct stat st;

  while (stat (journal, &st) != 0 || st.st_size == 0)
    {
      g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (50);
    }
  return pid;
}

/* The size of @journal (0 when absent). */
static gint64
journal_size (const char *journal)
{
  struct stat st;

  return stat (journal, &st) == 0 ? (gint64) st.st_size : 0;
}

/* A hot journal that holds more than page 1: the import's own (the switches of the
 * journal mode before and after it change page 1 only). */
#define ONE_PAGE_JOURNAL (2 * 65536)

/* Waits until the import's own journal is hot (see above); FALSE when the process ended
 * first. */
static gboolean
wait_import_journal (GPid        pid,
                     const char *journal)
{
  int status = 0;

  for (;;)
    {
      if (journal_is_hot (journal) && journal_size (journal) > ONE_PAGE_JOURNAL)
        return TRUE;
      if (waitpid (pid, &status, WNOHANG) == pid)
        return FALSE;
      g_usleep (50);
    }
}

/* SIGKILL while a bulk import writes. A bulk import is three rollback-journal
 * transactions: the switch to that journal mode, the import, the switch back to WAL
 * (each of the two changes only page 1). A kill while the import's own journal is hot
 * (synced: SQLite has begun to change the file) must leave nothing imported once the
 * next open has rolled it back; any other kill leaves the import whole or absent. Half
 * the kills come at random from the first journal's appearance, half at random within
 * the write once the import's journal is hot. The project then takes the same import
 * whole, back in WAL mode. */
static void
test_bulk_import (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026120201);
  g_autofree char *bulk = write_bulk_input ();
  g_autofree char *journal = g_strconcat (project, "-journal", NULL);
  gint64 write_us, import_us = 1000;
  guint hot = 0, import_hot = 0, kills = 0;

  /* the write's duration, uninterrupted: from the first journal, and from the import's */
  {
    const char *argv[] = { "import", project, bulk, "--candidate", "bulk timed", NULL };
    GPid pid = start_until_journal (argv, journal);
    gint64 t0 = g_get_monotonic_time (), t1 = 0;
    int status = 0;

    if (wait_import_journal (pid, journal))
      t1 = g_get_monotonic_time ();
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    write_us = MAX (g_get_monotonic_time () - t0, 1000);
    if (t1 > 0)
      import_us = MAX (g_get_monotonic_time () - t1, 1000);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
  }

  for (int i = 0; i < 12 && (import_hot < 3 || i < 6); i++)
    {
      g_autofree char *name = g_strdup_printf ("bulk %d", i);
      const char *argv[] = { "import", project, bulk, "--candidate", name, NULL };
      guint before = count_runs ();
      gboolean imported = TRUE, was_hot, was_import_hot;
      GPid pid = start_until_journal (argv, journal);
      int status = 0;

      if (i % 2 == 1 && wait_import_journal (pid, journal))
        g_usleep (g_rand_int_range (rand, 0, (gint32) MIN (import_us / 2, G_MAXINT32)));
      else
        g_usleep (g_rand_int_range (rand, 0, (gint32) MIN (write_us, G_MAXINT32)));
      kill (pid, SIGKILL);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      kills++;
      was_hot = journal_is_hot (journal);
      was_import_hot = was_hot && journal_size (journal) > ONE_PAGE_JOURNAL;
      hot += was_hot;
      import_hot += was_import_hot;

      /* a writable open (the next command's) rolls a hot journal back */
      {
        g_autoptr (GError) error = NULL;
        ProcuraStore *store = procura_store_open (project, PROCURA_STORE_OPEN_DEFAULT, &error);

        g_assert_no_error (error);
        g_assert_false (procura_store_is_read_only (store));
        procura_store_close (store);
      }
      if (was_hot)
        g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
      check_import (name, before, &imported);   /* whole or nothing */
      if (was_import_hot)
        g_assert_false (imported);
    }
  g_assert_cmpuint (import_hot, >=, 1);

  {
    const char *argv[] = { "import", project, bulk, "--candidate", "bulk whole", NULL };
    guint before = count_runs ();
    gboolean imported = FALSE;
    g_autofree char *out = NULL;

    time_command (argv);
    check_import ("bulk whole", before, &imported);
    g_assert_true (imported);
    g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
    /* the file is left in WAL mode (header bytes 18 and 19 are 2) */
    g_assert_true (g_file_get_contents (project, &out, NULL, NULL));
    g_assert_cmpint (out[18], ==, 2);
    g_assert_cmpint (out[19], ==, 2);
  }
  g_test_message ("bulk import: %u kills during a %.0f ms write, %u left a hot journal that the "
                  "next open rolled back (%u the import's own)", kills, write_us / 1000.0, hot,
                  import_hot);
}

static guint
count_in (const char *folder,
          const char *name)
{
  g_autoptr (GDir) d = g_dir_open (folder, 0, NULL);
  const char *entry;
  guint n = 0;

  while ((entry = g_dir_read_name (d)) != NULL)
    n += name == NULL ? procura_atomic_file_is_temporary (entry) : g_str_equal (entry, name);
  return n;
}

/* What a killed writer leaves (its temporary file, its lock gone) is removed by the next
 * write of the same file; a writer still at work (its lock held) is left alone. */
static void
test_stale_temporary (void)
{
  g_autofree char *sub = g_build_filename (dir, "stale", NULL);
  g_autofree char *path = g_build_filename (sub, "figure.svg", NULL);
  g_autofree char *killed = g_build_filename (sub, ".figure.svg" PROCURA_ATOMIC_FILE_TAG "Ab12Cd", NULL);
  g_autofree char *live = g_build_filename (sub, ".figure.svg" PROCURA_ATOMIC_FILE_TAG "Ef34Gh", NULL);
  g_autofree char *other = g_build_filename (sub, ".other.svg" PROCURA_ATOMIC_FILE_TAG "Ij56Kl", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  int fd;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (procura_atomic_file_write (path, "<svg>one</svg>", 14, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in (sub, NULL), ==, 0);

  g_assert_true (g_file_set_contents (killed, "<svg>half", -1, NULL));
  g_assert_true (g_file_set_contents (other, "<svg>other", -1, NULL));
  g_assert_true (g_file_set_contents (live, "<svg>in progress", -1, NULL));
  fd = open (live, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);

  g_assert_true (procura_atomic_file_write (path, "<svg>two</svg>", 14, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "<svg>two</svg>");
  g_assert_false (g_file_test (killed, G_FILE_TEST_EXISTS));   /* the killed writer's */
  g_assert_true (g_file_test (live, G_FILE_TEST_EXISTS));      /* a writer at work */
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));     /* another file's */
  g_assert_cmpuint (count_in (sub, NULL), ==, 2);

  /* its writer gone, the next write removes it too */
  close (fd);
  g_assert_true (procura_atomic_file_write (path, "<svg>three</svg>", 16, &error));
  g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_in (sub, NULL), ==, 1);
  g_assert_cmpuint (count_in (sub, "figure.svg"), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("PROCURA_BINARY") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_BINARY is unset");
      return g_test_run ();
    }
  dir = procura_test_mkdtemp ();
  make_project ();

  g_test_add_func ("/store/kill/import-candidate", test_import);
  g_test_add_func ("/store/kill/report", test_report);
  g_test_add_func ("/store/kill/render", test_render);
  g_test_add_func ("/store/kill/stale-temporary", test_stale_temporary);
  g_test_add_func ("/store/kill/bulk-import", test_bulk_import);

  rc = g_test_run ();
  procura_test_rmtree (dir);
  g_free (dir);
  g_free (project);
  g_free (input);
  return rc;
}

/* test-store-hostile.c: files that are not (good) Procura projects are refused, with a
 * message saying which, or opened safely; none crashes us or is changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The corpus is built here, in a temporary folder, with the SQLite API and random
 * bytes: no binary files are committed.
 */
/* F_OFD_GETLK */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procura-store.h"
#include "procura-test-util.h"
#include "procura-util.h"

static char *dir;

static char *
file_sha256 (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return g_strdup ("(unreadable)");
  return procura_sha256_hex (data, len);
}

/* A good project with a candidate and an imported run, closed (checkpointed, no WAL). */
static char *
make_project (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  char *path = g_build_filename (dir, name, NULL);
  ProcuraStore *store;
  ProcuraRun *run = procura_run_new ();
  double *v = g_new (double, 100);

  store = procura_store_create (path, "Hostile base", &error);
  g_assert_no_error (error);
  c->name = g_strdup ("gpu");
  g_assert_cmpint (procura_store_add_candidate (store, c, &error), >, 0);
  for (int i = 0; i < 100; i++)
    v[i] = i;
  run->label = g_strdup ("r");
  procura_run_take_samples (run, "ttft", v, 100);
  g_ptr_array_add (res->runs, run);
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("x.json");
  g_assert_true (procura_store_import (store, res, 0, &error));
  g_assert_no_error (error);
  procura_store_close (store);
  return path;
}

/* Runs SQL on a file with plain SQLite (no Procura checks). */
static void
tamper (const char *path,
        const char *sql)
{
  sqlite3 *db = NULL;
  char *msg = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    g_error ("tamper: %s: %s", sql, msg);
  /* back to a plain rollback journal so that the corpus is one self-contained file */
  sqlite3_exec (db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
  sqlite3_close (db);
}

static gboolean
side_files_exist (const char *path)
{
  const char *suffixes[] = { "-wal", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *side = g_strconcat (path, suffixes[i], NULL);
      if (g_file_test (side, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  return FALSE;
}

/* Opens @path with every flag combination; each must fail with @code and a message
 * naming the file and containing @needle; the file must not change. */
static void
assert_refused (const char *path,
                int         code,
                const char *needle)
{
  g_autofree char *before = file_sha256 (path);
  const ProcuraStoreFlags flags[] = {
    PROCURA_STORE_OPEN_DEFAULT, PROCURA_STORE_OPEN_READ_ONLY, PROCURA_STORE_OPEN_NO_CHECK,
  };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *after = NULL;
      ProcuraStore *store = procura_store_open (path, flags[i], &error);

      if (store != NULL)
        g_error ("%s was opened (flags %d) but should be refused", path, flags[i]);
      g_assert_error (error, PROCURA_STORE_ERROR, code);
      g_test_message ("%s: %s", path, error->message);
      g_assert_nonnull (strstr (error->message, path));
      if (strstr (error->message, needle) == NULL)
        g_error ("message “%s” lacks “%s”", error->message, needle);
      after = file_sha256 (path);
      g_assert_cmpstr (before, ==, after);
      g_assert_false (side_files_exist (path));
    }
}

static void
test_random_bytes (void)
{
  g_autofree char *path = g_build_filename (dir, "random.procura", NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (12345);
  guint8 buf[8192];

  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_assert_true (g_file_set_contents (path, (const char *) buf, sizeof buf, NULL));
  assert_refused (path, PROCURA_STORE_ERROR_NOT_A_PROJECT, "not an SQLite database");
}

static void
test_empty_and_text (void)
{
  g_autofree char *empty = g_build_filename (dir, "empty.procura", NULL);
  g_autofree char *text = g_build_filename (dir, "text.procura", NULL);
  g_autofree char *folder = g_build_filename (dir, "folder.procura", NULL);

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  assert_refused (empty, PROCURA_STORE_ERROR_NOT_A_PROJECT, "not a Procura project");
  g_assert_true (g_file_set_contents (text, "title = \"not a database\"\n", -1, NULL));
  assert_refused (text, PROCURA_STORE_ERROR_NOT_A_PROJECT, "not an SQLite database");
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  assert_refused (folder, PROCURA_STORE_ERROR_NOT_A_PROJECT, "not a regular file");
}

/* The SQLite magic followed by garbage. */
static void
test_magic_then_garbage (void)
{
  g_autofree char *path = g_build_filename (dir, "magic.procura", NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (777);
  guint8 buf[4096 * 3];

  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = (guint8) g_rand_int_range (rand, 0, 256);
  memcpy (buf, "SQLite format 3", 16);
  g_assert_true (g_file_set_contents (path, (const char *) buf, sizeof buf, NULL));
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *before = file_sha256 (path);
    g_autofree char *after = NULL;
    ProcuraStore *store = procura_store_open (path, 0, &error);

    g_assert_null (store);
    g_assert_true (g_error_matches (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT)
                   || g_error_matches (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED));
    g_assert_nonnull (strstr (error->message, path));
    after = file_sha256 (path);
    g_assert_cmpstr (before, ==, after);
  }
}

static void
test_other_application (void)
{
  g_autofree char *path = g_build_filename (dir, "places.procura", NULL);

  tamper (path, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);"
                "INSERT INTO moz_places (url) VALUES ('https://example.com');");
  assert_refused (path, PROCURA_STORE_ERROR_NOT_A_PROJECT, "another application");
}

static void
test_newer_schema (void)
{
  g_autofree char *path = make_project ("newer.procura");
  g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d", PROCURA_STORE_SCHEMA_VERSION + 1);

  tamper (path, sql);
  assert_refused (path, PROCURA_STORE_ERROR_NEWER_SCHEMA, "newer version of Procura");
}

static void
test_no_version (void)
{
  g_autofree char *path = make_project ("noversion.procura");

  tamper (path, "PRAGMA user_version = 0");
  assert_refused (path, PROCURA_STORE_ERROR_DAMAGED, "no schema version");
}

static void
test_trigger (void)
{
  g_autofree char *path = make_project ("trigger.procura");

  /* would wipe the runs on every import */
  tamper (path, "CREATE TRIGGER wipe AFTER INSERT ON provenance BEGIN DELETE FROM runs; END;");
  assert_refused (path, PROCURA_STORE_ERROR_DAMAGED, "trigger “wipe”");
}

static void
test_view (void)
{
  g_autofree char *path = make_project ("view.procura");

  tamper (path, "CREATE VIEW v AS SELECT * FROM runs;");
  assert_refused (path, PROCURA_STORE_ERROR_DAMAGED, "view “v”");
}

static void
test_extra_table_and_index (void)
{
  g_autofree char *table = make_project ("extra-table.procura");
  g_autofree char *index = make_project ("extra-index.procura");

  tamper (table, "CREATE TABLE payload (x BLOB);");
  assert_refused (table, PROCURA_STORE_ERROR_DAMAGED, "table “payload”");
  tamper (index, "CREATE INDEX sneaky ON runs (abs(id));");
  assert_refused (index, PROCURA_STORE_ERROR_DAMAGED, "index “sneaky”");
}

static void
test_missing_and_altered_table (void)
{
  g_autofree char *missing = make_project ("missing-table.procura");
  g_autofree char *altered = make_project ("altered-table.procura");

  tamper (missing, "DROP TABLE checklist;");
  assert_refused (missing, PROCURA_STORE_ERROR_DAMAGED, "missing table “checklist”");
  tamper (altered, "ALTER TABLE quotes ADD COLUMN extra TEXT DEFAULT 'x';");
  assert_refused (altered, PROCURA_STORE_ERROR_DAMAGED, "table “quotes”");
}

static void
test_truncated (void)
{
  g_autofree char *path = make_project ("truncated.procura");
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 8192);
  g_assert_true (g_file_set_contents (path, data, len / 2, NULL));
  assert_refused (path, PROCURA_STORE_ERROR_DAMAGED, "truncated");
}

/* Garbage written over a b-tree page: the integrity check catches it. */
static void
test_corrupt_page (void)
{
  g_autofree char *path = make_project ("corrupt.procura");
  g_autofree char *data = NULL;
  gsize len;
  int page_size;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  page_size = ((guint8) data[16] << 8) | (guint8) data[17];
  if (page_size == 1)  /* how the header writes 65536 */
    page_size = 65536;
  /* page 2 holds the first table's root (project); scribble over its cell area */
  g_assert_cmpuint (len, >=, (gsize) page_size * 3);
  for (int i = 0; i < 64; i++)
    data[page_size + 8 + i] = (char) (0xA5 ^ i);
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  assert_refused (path, PROCURA_STORE_ERROR_DAMAGED, "damaged");
}

/* A project with a huge BLOB and a long title opens safely; the inconsistent sample
 * BLOB is reported as damage when read, not trusted; opening read-only changes nothing. */
static void
test_huge_blob (void)
{
  g_autofree char *path = make_project ("huge.procura");
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  ProcuraStore *store;
  ProcuraProject *p;

  tamper (path, "UPDATE run_samples SET data = zeroblob(16 * 1024 * 1024), n = 3;"
                "UPDATE project SET title = printf('%.*c', 2000000, 'T');");
  before = file_sha256 (path);

  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (p->title), ==, 2000000);
  g_assert_cmpuint (p->runs->len, ==, 1);
  procura_project_free (p);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_null (p);
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "samples of “ttft”"));
  g_clear_error (&error);
  procura_store_close (store);
  after = file_sha256 (path);
  g_assert_cmpstr (before, ==, after);
}

/* A sample BLOB whose length is not a multiple of 8. */
static void
test_ragged_blob (void)
{
  g_autofree char *path = make_project ("ragged.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraRun *run = procura_run_new ();

  tamper (path, "UPDATE run_samples SET data = x'0102030405', n = 0;");
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_false (procura_store_load_samples (store, 1, run, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
  g_assert_cmpuint (run->samples->len, ==, 0);
  procura_run_free (run);
  procura_store_close (store);
}

/* Values of the wrong type where numbers and text are expected load without crashing. */
static void
test_wrong_types (void)
{
  g_autofree char *path = make_project ("types.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraProject *p;

  tamper (path, "UPDATE candidates SET gpus_per_replica = 'many', price_per_gpu_hour = x'00ff', "
                "name = 42, notes = x'c3', tp = 9223372036854775807, kind = 77;"
                "UPDATE runs SET completed = 1e308, gpu_count = -5;");
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->candidates->len, ==, 1);
  {
    ProcuraCandidate *c = g_ptr_array_index (p->candidates, 0);
    ProcuraRun *r = g_ptr_array_index (p->runs, 0);

    g_assert_cmpstr (c->name, ==, "42");
    /* a lone 0xC3 byte is not UTF-8: replaced, never passed on */
    g_assert_cmpstr (c->notes, ==, "\xef\xbf\xbd");
    /* values no real project holds read as unknown, not as huge ints */
    g_assert_cmpint (c->tp, ==, 1);
    g_assert_cmpint (c->gpus_per_replica, ==, 1);
    g_assert_cmpint (c->kind, ==, PROCURA_CANDIDATE_GPU);
    g_assert_cmpint (r->completed, ==, -1);
    g_assert_cmpint (r->scenario.gpu_count, ==, -1);
  }
  procura_project_free (p);
  procura_store_close (store);
}

/* Extras written by earlier versions with json-glib's "1e+20.0" still load, repaired. */
static void
test_old_extras (void)
{
  g_autofree char *path = make_project ("oldextras.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  ProcuraProject *p;

  tamper (path, "UPDATE runs SET extras_json = '{\"n\":1e+20.0,\"s\":\"1e+20.0\"}';");
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((ProcuraRun *) g_ptr_array_index (p->runs, 0))->extras_json, ==,
                   "{\"n\":1e+20,\"s\":\"1e+20.0\"}");
  procura_project_free (p);
  procura_store_close (store);
}

/* A JSON column that is not JSON (or too deep) is refused, naming table, column, row. */
static void
test_bad_json_column (void)
{
  g_autofree char *path = make_project ("badjson.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;

  tamper (path, "UPDATE runs SET warnings = '{not json';");
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_null (procura_store_load_project (store, 0, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "table “runs”, column “warnings”, row 1"));
  procura_store_close (store);
}

/* Special files named .procura: a FIFO (must not hang) and a link to /dev/zero. */
static void
test_special_files (void)
{
  g_autofree char *fifo = g_build_filename (dir, "fifo.procura", NULL);
  g_autofree char *zero = g_build_filename (dir, "zero.procura", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_null (procura_store_open (fifo, 0, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  g_assert_null (procura_store_open (zero, 0, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT);
  g_clear_error (&error);
}

/* The right schema but no project record: opens, and loading says it is damaged. */
static void
test_no_project_row (void)
{
  g_autofree char *path = make_project ("norow.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;

  tamper (path, "DELETE FROM project;");
  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_null (procura_store_load_project (store, 0, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "no project record"));
  procura_store_close (store);
}

/* A project in a folder the user cannot write (but in a file they could) opens
 * read-only with that reason, and reads, instead of failing as "damaged": SQLite
 * cannot create the -wal/-shm/-journal it needs there. The tests run as root, who may
 * write anywhere (access() says so, and SQLite would succeed), so the check is run in
 * a child that drops to the user nobody first; as another user the folder alone is
 * made read-only. */
static void
test_read_only_folder (void)
{
  g_autofree char *sub = g_build_filename (dir, "ro", NULL);
  g_autofree char *path = g_build_filename (sub, "project.procura", NULL);
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  int status = 0;
  pid_t pid;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  store = procura_store_create (path, "In a read-only folder", &error);
  g_assert_no_error (error);
  procura_store_close (store);
  g_assert_cmpint (g_chmod (path, 0666), ==, 0);
  g_assert_cmpint (g_chmod (sub, 0555), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      ProcuraProject *p;

      if (geteuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
        _exit (10);
      if (access (sub, W_OK) == 0)
        _exit (11);  /* still privileged: the test would prove nothing */
      store = procura_store_open (path, PROCURA_STORE_OPEN_DEFAULT, &error);
      if (store == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          _exit (12);
        }
      if (!procura_store_is_read_only (store)
          || strstr (procura_store_get_read_only_reason (store), "folder") == NULL)
        _exit (13);
      p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
      if (p == NULL || g_strcmp0 (p->title, "In a read-only folder") != 0)
        _exit (14);
      procura_project_free (p);
      procura_store_close (store);
      store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, &error);
      if (store == NULL)
        _exit (15);
      procura_store_close (store);
      store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
      if (store != NULL || !g_error_matches (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY))
        _exit (16);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpint (g_chmod (sub, 0755), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_false (side_files_exist (path));
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
  g_assert_cmpint (g_chmod (to, 0666), ==, 0);
}

/* A project left with its -wal (a writer that died before its last checkpoint, or a
 * copy taken while it was open) in a folder the user cannot write: it opens read-only
 * and reads what the -wal holds (a candidate committed only there), with or without
 * the -shm beside it, and changes nothing. Run as nobody, as above. */
static void
test_read_only_folder_wal (gconstpointer data)
{
  gboolean with_shm = GPOINTER_TO_INT (data);
  g_autofree char *src_dir = g_build_filename (dir, with_shm ? "walsrc-shm" : "walsrc", NULL);
  g_autofree char *sub = g_build_filename (dir, with_shm ? "rowal-shm" : "rowal", NULL);
  g_autofree char *src = g_build_filename (src_dir, "project.procura", NULL);
  g_autofree char *path = g_build_filename (sub, "project.procura", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *src_wal = g_strconcat (src, "-wal", NULL);
  g_autofree char *src_shm = g_strconcat (src, "-shm", NULL);
  g_autofree char *sha_main = NULL, *sha_wal = NULL, *after_main = NULL, *after_wal = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  ProcuraStore *store, *writer;
  int status = 0;
  pid_t pid;

  g_assert_cmpint (g_mkdir (src_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  store = procura_store_create (src, "Left with its WAL", &error);
  g_assert_no_error (error);
  procura_store_close (store);
  /* a writer commits a candidate and is still open: the commit is in the -wal only */
  writer = procura_store_open (src, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  c->name = g_strdup ("only in the wal");
  c->gpu_name = g_strdup ("H100 80GB");
  c->gpus_per_replica = 1;
  c->price_per_gpu_hour = 2.0;
  g_assert_cmpint (procura_store_add_candidate (writer, c, &error), >, 0);
  g_assert_no_error (error);
  g_assert_true (g_file_test (src_wal, G_FILE_TEST_EXISTS));
  copy_file (src, path);
  copy_file (src_wal, wal);
  if (with_shm)
    copy_file (src_shm, shm);
  procura_store_close (writer);
  sha_main = file_sha256 (path);
  sha_wal = file_sha256 (wal);
  g_assert_cmpint (g_chmod (sub, 0555), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      ProcuraProject *p;
      gboolean found = FALSE;
      ProcuraStoreFlags modes[] = { PROCURA_STORE_OPEN_DEFAULT, PROCURA_STORE_OPEN_READ_ONLY };

      if (geteuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
        _exit (10);
      if (access (sub, W_OK) == 0)
        _exit (11);
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          store = procura_store_open (path, modes[m], &error);
          if (store == NULL)
            {
              fprintf (stderr, "%s\n", error->message);
              _exit (12);
            }
          if (!procura_store_is_read_only (store))
            _exit (13);
          p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, &error);
          if (p == NULL)
            {
              fprintf (stderr, "%s\n", error->message);
              _exit (14);
            }
          for (guint i = 0; i < p->candidates->len; i++)
            found |= g_strcmp0 (((ProcuraCandidate *) g_ptr_array_index (p->candidates, i))->name,
                                "only in the wal") == 0;
          if (!found)
            _exit (15);
          procura_project_free (p);
          procura_store_close (store);
        }
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpint (g_chmod (sub, 0755), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  after_main = file_sha256 (path);
  after_wal = file_sha256 (wal);
  g_assert_cmpstr (sha_main, ==, after_main);
  g_assert_cmpstr (sha_wal, ==, after_wal);
}

/* The writer's lock holds across processes, and it is an open-file-description lock
 * (F_GETLK sees it; a flock() lock it would not). */
static void
test_lock_across_processes (void)
{
  g_autofree char *path = make_project ("locked.procura");
  g_autoptr (GError) error = NULL;
  ProcuraStore *store;
  int to_child[2], to_parent[2];
  int status = 0;
  char c = 0;
  pid_t pid;

  g_assert_cmpint (pipe (to_child), ==, 0);
  g_assert_cmpint (pipe (to_parent), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
      if (store == NULL || procura_store_is_read_only (store))
        _exit (2);
      if (write (to_parent[1], "l", 1) != 1 || read (to_child[0], &c, 1) != 1)
        _exit (3);
      procura_store_close (store);
      _exit (0);
    }
  g_assert_cmpint (read (to_parent[0], &c, 1), ==, 1);

  store = procura_store_open (path, PROCURA_STORE_OPEN_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_true (procura_store_is_read_only (store));
  g_assert_nonnull (strstr (procura_store_get_read_only_reason (store), "another Procura"));
  procura_store_close (store);
  g_assert_null (procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error));
  g_assert_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_LOCKED);
  g_clear_error (&error);
#ifdef F_OFD_GETLK
  {
    int fd = open (path, O_RDWR | O_CLOEXEC);
    struct flock fl = { 0 };

    g_assert_cmpint (fd, >=, 0);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = G_GINT64_CONSTANT (0x40000000) - 4096;
    fl.l_len = 1;
    g_assert_cmpint (fcntl (fd, F_OFD_GETLK, &fl), ==, 0);
    g_assert_cmpint (fl.l_type, ==, F_WRLCK);
    close (fd);
  }
#else
  g_test_message ("no F_OFD_GETLK here: the store falls back to flock()");
#endif

  g_assert_cmpint (write (to_child[1], "g", 1), ==, 1);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  store = procura_store_open (path, PROCURA_STORE_OPEN_WRITABLE, &error);
  g_assert_no_error (error);
  g_assert_false (procura_store_is_read_only (store));
  procura_store_close (store);
  for (int i = 0; i < 2; i++)
    {
      close (to_child[i]);
      close (to_parent[i]);
    }
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  dir = procura_test_mkdtemp ();

  g_test_add_func ("/store/hostile/random-bytes", test_random_bytes);
  g_test_add_func ("/store/hostile/empty-and-text", test_empty_and_text);
  g_test_add_func ("/store/hostile/magic-then-garbage", test_magic_then_garbage);
  g_test_add_func ("/store/hostile/other-application", test_other_application);
  g_test_add_func ("/store/hostile/newer-schema", test_newer_schema);
  g_test_add_func ("/store/hostile/no-version", test_no_version);
  g_test_add_func ("/store/hostile/trigger", test_trigger);
  g_test_add_func ("/store/hostile/view", test_view);
  g_test_add_func ("/store/hostile/extra-table-and-index", test_extra_table_and_index);
  g_test_add_func ("/store/hostile/missing-and-altered-table", test_missing_and_altered_table);
  g_test_add_func ("/store/hostile/truncated", test_truncated);
  g_test_add_func ("/store/hostile/corrupt-page", test_corrupt_page);
  g_test_add_func ("/store/hostile/huge-blob", test_huge_blob);
  g_test_add_func ("/store/hostile/ragged-blob", test_ragged_blob);
  g_test_add_func ("/store/hostile/wrong-types", test_wrong_types);
  g_test_add_func ("/store/hostile/bad-json-column", test_bad_json_column);
  g_test_add_func ("/store/hostile/old-extras", test_old_extras);
  g_test_add_func ("/store/hostile/special-files", test_special_files);
  g_test_add_func ("/store/hostile/no-project-row", test_no_project_row);
  g_test_add_func ("/store/hostile/read-only-folder", test_read_only_folder);
  g_test_add_data_func ("/store/hostile/read-only-folder-wal", GINT_TO_POINTER (FALSE),
                        test_read_only_folder_wal);
  g_test_add_data_func ("/store/hostile/read-only-folder-wal-shm", GINT_TO_POINTER (TRUE),
                        test_read_only_folder_wal);
  g_test_add_func ("/store/hostile/lock-across-processes", test_lock_across_processes);

  rc = g_test_run ();
  procura_test_rmtree (dir);
  g_free (dir);
  return rc;
}

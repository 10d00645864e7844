/* fuzz-store-json.c: the store's readers of the JSON columns of a project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A received project may hold anything in runs.warnings, runs.extras_json,
 * engine_logs.errors and probe_results.json. The first byte of the input chooses the
 * column (modulo 4), the rest is written there, as text, in a copy of a valid project
 * built once at start-up; the copy is then opened read-only and loaded, and a run's
 * extras are written out as JSON (what `inspect --json` and `summary --json` do).
 * Loading may refuse; nothing may crash, leak or hang, and what loads must be valid
 * UTF-8 and produce JSON that the strict front door accepts.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procura-import-json.h"
#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store.h"

static char *work_dir;
static char *base_image;
static gsize base_len;

static const char * const updates[] = {
  "UPDATE runs SET warnings = ?1",
  "UPDATE runs SET extras_json = ?1",
  "UPDATE engine_logs SET errors = ?1",
  "UPDATE probe_results SET json = ?1",
};

static void
build_base (void)
{
  g_autofree char *path = g_build_filename (work_dir, "base.procura", NULL);
  g_autoptr (ProcuraImportResult) res = procura_import_result_new ();
  ProcuraRun *run = procura_run_new ();
  ProcuraEngineLog *l = procura_engine_log_new ();
  ProcuraProbeResult *pr = procura_probe_result_new ();
  ProcuraStore *store;

  run->label = g_strdup ("fuzz run");
  run->extras_json = g_strdup ("{}");
  procura_run_add_warning (run, "a warning");
  g_ptr_array_add (res->runs, run);
  l->engine = g_strdup ("vllm");
  g_ptr_array_add (l->errors, g_strdup ("an error"));
  g_ptr_array_add (res->engine_logs, l);
  pr->device_name = g_strdup ("GPU");
  pr->test = g_strdup ("fit");
  pr->json = g_strdup ("{\"event\":\"hello\"}\n");
  g_ptr_array_add (res->probe_results, pr);
  store = procura_store_create (path, "fuzz base", NULL);
  g_assert (store != NULL);
  g_assert (procura_store_import (store, res, 0, NULL));
  procura_store_close (store);
  g_assert (g_file_get_contents (path, &base_image, &base_len, NULL));
  g_unlink (path);
}

static void
cleanup (void)
{
  if (work_dir == NULL)
    return;
  g_rmdir (work_dir);
  g_clear_pointer (&work_dir, g_free);
  g_clear_pointer (&base_image, g_free);
}

static void
remove_project (const char *path)
{
  const char *suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);
      g_unlink (p);
    }
}

static void
check_loaded (ProcuraProject *p)
{
  for (guint i = 0; i < p->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (p->runs, i);
      g_autoptr (JsonNode) node = procura_run_to_json (r);
      g_autofree char *text = procura_json_to_data (node, FALSE);
      char *rewritten = NULL;
      gsize rewritten_len = 0;

      for (guint k = 0; k < r->warnings->len; k++)
        g_assert (g_utf8_validate (g_ptr_array_index (r->warnings, k), -1, NULL));
      g_assert (procura_json_check ("run", text, strlen (text), 0, PROCURA_JSON_STRICT,
                                    &rewritten, &rewritten_len, NULL));
      g_free (rewritten);
    }
  for (guint i = 0; i < p->engine_logs->len; i++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (p->engine_logs, i);

      for (guint k = 0; k < l->errors->len; k++)
        g_assert (g_utf8_validate (g_ptr_array_index (l->errors, k), -1, NULL));
    }
  for (guint i = 0; i < p->probe_results->len; i++)
    {
      ProcuraProbeResult *r = g_ptr_array_index (p->probe_results, i);

      g_assert (r->json == NULL || g_utf8_validate (r->json, -1, NULL));
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  ProcuraStore *store;

  if (size < 1)
    return 0;
  if (work_dir == NULL)
    {
      work_dir = g_dir_make_tmp ("procura-fuzz-store-json-XXXXXX", NULL);
      g_assert (work_dir != NULL);
      build_base ();
      atexit (cleanup);
    }
  path = g_build_filename (work_dir, "input.procura", NULL);
  remove_project (path);
  if (!g_file_set_contents (path, base_image, (gssize) base_len, NULL))
    return 0;

  g_assert (sqlite3_open (path, &db) == SQLITE_OK);
  g_assert (sqlite3_prepare_v2 (db, updates[data[0] % G_N_ELEMENTS (updates)], -1, &stmt, NULL) == SQLITE_OK);
  sqlite3_bind_text (stmt, 1, (const char *) data + 1, (int) (size - 1), SQLITE_TRANSIENT);
  g_assert (sqlite3_step (stmt) == SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_exec (db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
  sqlite3_close (db);

  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, NULL);
  g_assert (store != NULL);
  {
    ProcuraProject *p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, NULL);

    if (p != NULL)
      check_loaded (p);
    procura_project_free (p);
  }
  procura_store_close (store);
  remove_project (path);
  return 0;
}

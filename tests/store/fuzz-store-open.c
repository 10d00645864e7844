/* fuzz-store-open.c: opening hostile project files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is either a whole file (first byte odd) or, more usefully (first byte
 * even), a list of byte patches applied to a valid project built once at start-up:
 * each 4-byte record is a 24-bit offset (modulo the file size) and the byte to write
 * there. Either way the result is written to a temporary *.procura file, opened
 * read-only and loaded with its samples, then opened for writing and given an import,
 * a deletion and an undo. Anything may be refused; nothing may crash, leak or hang.
 * The seeds are text, so the corpus needs no binary files.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procura-store.h"

static char *work_dir;
static char *base_image;
static gsize base_len;

static ProcuraImportResult *
small_import (void)
{
  ProcuraImportResult *res = procura_import_result_new ();
  ProcuraRun *run = procura_run_new ();
  ProcuraQuote *q = procura_quote_new ();
  ProcuraEngineLog *l = procura_engine_log_new ();
  double *v = g_new (double, 64);

  for (int i = 0; i < 64; i++)
    v[i] = i * 1.5;
  run->label = g_strdup ("fuzz run");
  procura_run_add_stat (run, "ttft", "p99", 99.0, PROCURA_SOURCE_AS_REPORTED, -1);
  procura_run_take_samples (run, "ttft", v, 64);
  procura_run_add_warning (run, "a warning");
  g_ptr_array_add (res->runs, run);
  q->provider = g_strdup ("P");
  q->price_per_hour = 10;
  g_ptr_array_add (res->quotes, q);
  l->engine = g_strdup ("vllm");
  g_ptr_array_add (l->errors, g_strdup ("an error"));
  g_ptr_array_add (res->engine_logs, l);
  res->provenance = procura_provenance_new ();
  res->provenance->file_name = g_strdup ("fuzz.json");
  return res;
}

static void
build_base (void)
{
  g_autofree char *path = g_build_filename (work_dir, "base.procura", NULL);
  g_autoptr (ProcuraImportResult) res = small_import ();
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();
  ProcuraOpsTest *t = procura_ops_test_new ();
  ProcuraChecklistItem *it = procura_checklist_item_new ();
  ProcuraStore *store;
  gint64 id;

  store = procura_store_create (path, "fuzz base", NULL);
  g_assert (store != NULL);
  c->name = g_strdup ("cand");
  id = procura_store_add_candidate (store, c, NULL);
  procura_store_import (store, res, id, NULL);
  t->candidate_id = id;
  t->kind = g_strdup ("cold-start");
  procura_store_add_ops_test (store, t, NULL);
  it->item = g_strdup ("question");
  procura_store_add_checklist_item (store, it, NULL);
  procura_store_close (store);
  procura_ops_test_free (t);
  procura_checklist_item_free (it);
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

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  g_autofree char *image = NULL;
  gsize len;
  ProcuraStore *store;

  if (work_dir == NULL)
    {
      work_dir = g_dir_make_tmp ("procura-fuzz-store-XXXXXX", NULL);
      g_assert (work_dir != NULL);
      build_base ();
      atexit (cleanup);
    }
  path = g_build_filename (work_dir, "input.procura", NULL);
  remove_project (path);

  if (size > 0 && (data[0] & 1))
    {
      image = g_memdup2 (data + 1, size - 1);
      len = size - 1;
    }
  else
    {
      image = g_memdup2 (base_image, base_len);
      len = base_len;
      for (size_t i = 1; i + 4 <= size; i += 4)
        {
          gsize off = ((gsize) data[i] << 16 | (gsize) data[i + 1] << 8 | data[i + 2]) % len;
          image[off] = (char) data[i + 3];
        }
    }
  if (!g_file_set_contents (path, image, (gssize) len, NULL))
    return 0;

  store = procura_store_open (path, PROCURA_STORE_OPEN_READ_ONLY, NULL);
  if (store != NULL)
    {
      ProcuraProject *p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, NULL);
      procura_project_free (p);
      procura_store_close (store);
    }

  store = procura_store_open (path, PROCURA_STORE_OPEN_DEFAULT, NULL);
  if (store != NULL)
    {
      g_autoptr (ProcuraImportResult) res = small_import ();
      ProcuraProject *p;
      gint64 token = 0;

      procura_store_import (store, res, 0, NULL);
      if (procura_store_delete_candidate (store, 1, &token, NULL))
        procura_store_undo (store, token, NULL);
      procura_store_set_title (store, "fuzzed", NULL);
      p = procura_store_load_project (store, PROCURA_STORE_LOAD_WITH_SAMPLES, NULL);
      procura_project_free (p);
      procura_store_close (store);
    }
  remove_project (path);
  return 0;
}

/* procura-import-registry.c: every importer, format sniffing, provenance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "procura-import-private.h"
#include "procura-json-stream.h"
#include "procura-json-bulk.h"
#include "procura-model-catalog.h"
#include "procura-probe-import.h"
#include "procura-quotes.h"
#include "procura-util.h"


static const ProcuraImporter * const importers[] = {
  &procura_importer_vllm_serve,
  &procura_importer_vllm_latency,
  &procura_importer_vllm_throughput,
  &procura_importer_sglang_serve,
  &procura_importer_guidellm,
  &procura_importer_guidellm_csv,
  &procura_importer_guidellm_yaml,
  &procura_importer_genai_perf,
  &procura_importer_aiperf,
  &procura_importer_aiperf_jsonl,
  &procura_importer_aiperf_csv,
  &procura_importer_aiperf_aggregate,
  &procura_importer_llmperf_summary,
  &procura_importer_llmperf_individual,
  &procura_importer_mlperf_summary,
  &procura_importer_mlperf_detail,
  &procura_importer_lmbench_csv,
  &procura_importer_vllm_log,
  &procura_importer_sglang_log,
  &procura_importer_inferencex,
  &procura_importer_mlperf_results,
  &procura_importer_llmd_report,
  /* other areas: quotes and price catalogs, model config.json, probe output */
  &procura_importer_quote_json,
  &procura_importer_skypilot_csv,
  &procura_importer_gpuhunt_csv,
  &procura_importer_hf_config,
  &procura_importer_probe_jsonl,
  NULL
};

const ProcuraImporter * const *
procura_importers (void)
{
  return importers;
}

const ProcuraImporter *
procura_importer_find (const char *id)
{
  for (gsize i = 0; importers[i] != NULL; i++)
    if (g_str_equal (importers[i]->id, id))
      return importers[i];
  return NULL;
}

static char *
list_ids (void)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; importers[i] != NULL; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", importers[i]->id);
  return g_string_free (s, FALSE);
}

static gboolean
all_space (const char *data,
           gsize       len)
{
  gsize i = 0;

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    i = 3;
  for (; i < len; i++)
    if (!g_ascii_isspace (data[i]))
      return FALSE;
  return TRUE;
}

static const ProcuraImporter *
pick (const char  *name,
      const char  *data,
      gsize        len,
      const char  *format,
      GError     **error)
{
  const ProcuraImporter *best = NULL;
  int best_score = 0;
  char first;
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();

  if (format != NULL)
    {
      const ProcuraImporter *imp = procura_importer_find (format);
      if (imp == NULL)
        {
          g_autofree char *ids = list_ids ();
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_UNKNOWN,
                       _("%s: unknown format “%s”; expected one of: %s"), name, format, ids);
        }
      return imp;
    }

  /* Sniffers see at most the first PROCURA_SNIFF_WINDOW bytes, and never nesting deep
   * enough to overflow a recursive parser that one of them might run */
  first = procura_sniff_first_char (data, len);
  if ((first == '{' || first == '[')
      && !procura_json_check_depth (name, data, MIN (len, PROCURA_SNIFF_WINDOW), error))
    return NULL;
  for (gsize i = 0; importers[i] != NULL; i++)
    {
      int score = importers[i]->sniff (data, MIN (len, PROCURA_SNIFF_WINDOW));

      if (score <= 0)
        continue;
      if (score > best_score)
        {
          best_score = score;
          best = importers[i];
          g_ptr_array_set_size (tied, 0);
          g_ptr_array_add (tied, (gpointer) importers[i]);
        }
      else if (score == best_score)
        g_ptr_array_add (tied, (gpointer) importers[i]);
    }
  if (best == NULL && first == '\0' && all_space (data, len))
    {
      /* Saying "no importer recognises it" would send the analyst looking for a format */
      if (len == 0)
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                     _("%s: the file is empty; expected a benchmark result, an engine log or a price list"),
                     name);
      else
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SYNTAX,
                     _("%s: the file holds only white space (%zu bytes); expected a benchmark result, "
                       "an engine log or a price list"), name, len);
      return NULL;
    }
  if (best == NULL && (first == '{' || first == '['))
    {
      g_autoptr (GError) broken = NULL;
      char *rewritten = NULL;
      gsize rewritten_len = 0;

      /* Damaged JSON is a broken file, not an unknown format: say where it broke */
      if (!procura_json_check (name, data, len, 0, PROCURA_JSON_ALLOW_NONFINITE, &rewritten,
                               &rewritten_len, &broken))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&broken),
                                      _("no importer recognises this content, which is not valid JSON: "));
          return NULL;
        }
      g_free (rewritten);
    }
  if (best == NULL)
    {
      g_autofree char *ids = list_ids ();
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_UNKNOWN,
                   _("%s: no importer recognises this content; name the format with --format (one of: %s)"),
                   name, ids);
      return NULL;
    }
  if (tied->len > 1)
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; i < tied->len; i++)
        {
          const ProcuraImporter *imp = g_ptr_array_index (tied, i);
          g_string_append_printf (s, "%s%s (%s)", i ? ", " : "", imp->id, imp->description);
        }
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_AMBIGUOUS,
                   _("%s: the content could be any of: %s; choose one with --format"), name, s->str);
      g_string_free (s, TRUE);
      return NULL;
    }
  return best;
}

typedef struct {
  const char *data;
  gsize       len;
} HashJob;

static gpointer
hash_thread (gpointer user_data)
{
  HashJob *job = user_data;

  return procura_import_sha256_hex (job->data, job->len);
}

typedef struct {
  char  *malloced;   /* g_free () it */
} Owned;

static void
owned_release (Owned *o)
{
  if (o == NULL)
    return;
  g_clear_pointer (&o->malloced, g_free);
}

/* After a successful parse: empty runs dropped, duplicate-key notes, formats and
 * provenance handed down to every run. */
static ProcuraImportResult *
finish_import (const char            *name,
               const ProcuraImporter *imp,
               ProcuraImportResult   *result_in,
               GPtrArray             *notes,
               ProcuraImportFlags     flags,
               GError               **error)
{
  g_autoptr (ProcuraImportResult) result = result_in;
  ProcuraProvenance *prov = result->provenance;

  if (!procura_import_drop_empty_runs (name, imp->id, result, error))
    return NULL;
  /* Duplicate keys: the file's own warning, and each run's, since any of its figures
   * may be the one the tool overwrote */
  for (guint i = 0; i < notes->len; i++)
    {
      for (guint r = 0; r < result->runs->len; r++)
        procura_run_add_warning (g_ptr_array_index (result->runs, r), "%s",
                                 (const char *) g_ptr_array_index (notes, i));
      g_ptr_array_add (result->warnings, g_strdup (g_ptr_array_index (notes, i)));
    }

  if (result->format == NULL)
    result->format = g_strdup (imp->id);
  if (prov->format_version == NULL && result->format_version != NULL)
    prov->format_version = g_strdup (result->format_version);
  if ((flags & PROCURA_IMPORT_NO_FINALIZE) == 0)
    procura_import_finalize (result, flags);

  for (guint i = 0; i < result->runs->len; i++)
    {
      ProcuraRun *run = g_ptr_array_index (result->runs, i);

      if (run->format == NULL)
        run->format = g_strdup (result->format);
      if (run->format_version == NULL && result->format_version != NULL)
        run->format_version = g_strdup (result->format_version);
      if (run->provenance == NULL)
        run->provenance = procura_provenance_copy (prov);
    }
  return g_steal_pointer (&result);
}

static ProcuraImportResult *
import_data (const char    *path_or_name,
             Owned         *owned,
             const char    *data,
             gsize          len,
             const char    *format,
             ProcuraImportFlags flags,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autofree char *name = g_path_get_basename (path_or_name);
  g_autoptr (ProcuraImportResult) result = procura_import_result_new ();
  const ProcuraImporter *imp;
  ProcuraProvenance *prov;
  GThread *hasher = NULL;
  HashJob job = { NULL, 0 };
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  gboolean ok;

  imp = pick (name, data, len, format, error);
  if (imp == NULL)
    {
      owned_release (owned);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      owned_release (owned);
      return NULL;
    }

  prov = procura_provenance_new ();
  prov->file_name = g_strdup (name);
  prov->size = (gint64) len;
  /* Big files: the SHA-256 runs on a second core while the file is parsed */
  if (len >= 4 * 1024 * 1024)
    {
      job.data = data;
      job.len = len;
      hasher = g_thread_try_new ("procura-sha256", hash_thread, &job, NULL);
    }
  if (hasher == NULL)
    prov->sha256 = procura_import_sha256_hex (data, len);
  prov->importer = g_strdup (imp->id);
  prov->imported_at = procura_now_iso8601 ();
  result->provenance = prov;

  if (owned != NULL)
    procura_json_bulk_set_padding (data, len + PROCURA_JSON_BULK_PADDING);
  procura_json_set_notes (notes);
  ok = imp->parse (name, data, len, result, cancellable, error);
  procura_json_set_notes (NULL);
  procura_json_bulk_set_padding (NULL, 0);
  if (hasher != NULL)
    prov->sha256 = g_thread_join (hasher);
  if (!ok)
    {
      owned_release (owned);
      return NULL;
    }
  /* The bytes are no longer needed: free them before the (memory-hungry) statistics */
  owned_release (owned);
  return finish_import (name, imp, g_steal_pointer (&result), notes, flags, error);
}

ProcuraImportResult *
procura_import_data (const char    *name,
                     const char    *data,
                     gsize          len,
                     const char    *format,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (data != NULL || len == 0, NULL);

  return import_data (name, NULL, data ? data : "", len, format, PROCURA_IMPORT_DEFAULT, cancellable, error);
}

/* The SHA-256 of a file read in chunks, on a second core: each chunk is hashed where the
 * reader left it while the next one is parsed (the reader keeps a chunk unchanged until
 * it has handed over PROCURA_JSON_CHUNKS_KEPT - 1 more: hash_chunk() waits there for the
 * hasher to be done with it). */
typedef struct {
  const char *data;
  gsize       len;
} Piece;

typedef struct {
  ProcuraSha256Stream sha;
  GThread            *thread;
  GAsyncQueue        *todo;
  GMutex              lock;
  GCond               done;
  guint64             pushed;
  guint64             hashed;
} Hasher;

static gpointer
hasher_thread (gpointer user_data)
{
  Hasher *h = user_data;

  for (;;)
    {
      Piece *piece = g_async_queue_pop (h->todo);
      gsize len = piece->len;

      if (len > 0)
        procura_import_sha256_update (&h->sha, piece->data, len);
      g_free (piece);
      g_mutex_lock (&h->lock);
      h->hashed++;
      g_cond_signal (&h->done);
      g_mutex_unlock (&h->lock);
      if (len == 0)
        return NULL;
    }
}

static void
hasher_start (Hasher *h)
{
  memset (h, 0, sizeof *h);
  procura_import_sha256_begin (&h->sha);
  g_mutex_init (&h->lock);
  g_cond_init (&h->done);
  h->todo = g_async_queue_new ();
  h->thread = g_thread_try_new ("procura-sha256", hasher_thread, h, NULL);
}

static void
hash_chunk (const char *data,
            gsize       len,
            gpointer    user_data)
{
  Hasher *h = user_data;
  Piece *piece;

  guint64 behind;

  if (h->thread == NULL)
    {
      if (len > 0)
        procura_import_sha256_update (&h->sha, data, len);
      return;
    }
  /* NULL: the reader frees its buffers next, so every chunk must be hashed; else the
   * chunk PROCURA_JSON_CHUNKS_KEPT - 1 before this one is read over next */
  behind = data == NULL ? 0 : PROCURA_JSON_CHUNKS_KEPT - 1;
  if (data != NULL && len > 0)
    {
      piece = g_new (Piece, 1);
      piece->data = data;
      piece->len = len;
      h->pushed++;
      g_async_queue_push (h->todo, piece);
    }
  g_mutex_lock (&h->lock);
  while (h->hashed + behind < h->pushed)
    g_cond_wait (&h->done, &h->lock);
  g_mutex_unlock (&h->lock);
}

static char *
hasher_finish (Hasher *h)
{
  if (h->thread != NULL)
    {
      Piece *piece = g_new0 (Piece, 1);   /* a zero length ends the hasher */

      g_async_queue_push (h->todo, piece);
      g_thread_join (h->thread);
    }
  g_async_queue_unref (h->todo);
  g_mutex_clear (&h->lock);
  g_cond_clear (&h->done);
  return procura_import_sha256_end (&h->sha);
}

/* A big vLLM bench serve object, read in bounded chunks and hashed as they are read,
 * never whole in memory. *handled FALSE: not such a file, or the chunked reader
 * declined; the caller reads the file whole and takes the usual path (which words
 * any error the same way). */
static ProcuraImportResult *
import_fd (const char    *path,
           int            fd,
           gsize          size,
           const char    *format,
           ProcuraImportFlags flags,
           GCancellable  *cancellable,
           gboolean      *handled,
           GError       **error)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *window = NULL;
  g_autoptr (ProcuraImportResult) result = NULL;
  g_autoptr (GPtrArray) notes = NULL;
  g_autoptr (GError) local = NULL;
  gsize wlen = MIN (size, (gsize) PROCURA_SNIFF_WINDOW), got = 0;
  const ProcuraImporter *imp;
  ProcuraProvenance *prov;
  Hasher hasher;
  char *hex;
  gboolean ok;

  *handled = FALSE;
  if (size < 1024 * 1024)
    return NULL;
  window = g_malloc (wlen + 1);
  while (got < wlen)
    {
      gssize n = pread (fd, window + got, wlen - got, (off_t) got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return NULL;
      got += (gsize) n;
    }
  window[wlen] = '\0';
  /* the sniffers see the same first 64 KiB as from a whole read */
  imp = pick (name, window, wlen, format, &local);
  if (imp != &procura_importer_vllm_serve || procura_sniff_first_char (window, wlen) != '{'
      || g_cancellable_is_cancelled (cancellable) || lseek (fd, 0, SEEK_SET) != 0)
    return NULL;

  result = procura_import_result_new ();
  notes = g_ptr_array_new_with_free_func (g_free);
  prov = procura_provenance_new ();
  prov->file_name = g_strdup (name);
  prov->size = (gint64) size;
  prov->importer = g_strdup (imp->id);
  prov->imported_at = procura_now_iso8601 ();
  result->provenance = prov;

  hasher_start (&hasher);
  procura_json_set_notes (notes);
  ok = procura_import_vllm_serve_parse_fd (name, fd, size, hash_chunk, &hasher, result,
                                           cancellable, handled, error);
  procura_json_set_notes (NULL);
  hex = hasher_finish (&hasher);
  if (!*handled)
    {
      g_free (hex);
      return NULL;
    }
  prov->sha256 = hex;
  if (!ok)
    return NULL;
  return finish_import (name, imp, g_steal_pointer (&result), notes, flags, error);
}

ProcuraImportResult *
procura_import_file (const char    *path,
                     const char    *format,
                     GCancellable  *cancellable,
                     GError       **error)
{
  return procura_import_file_with_flags (path, format, PROCURA_IMPORT_DEFAULT, cancellable, error);
}

ProcuraImportResult *
procura_import_file_with_flags (const char          *path,
                                const char          *format,
                                ProcuraImportFlags   flags,
                                GCancellable        *cancellable,
                                GError             **error)
{
  gsize got = 0, size = 0;
  char *buf;
  int fd;

  fd = procura_import_open_file (path, "a benchmark result, an engine log or a price list",
                                 &size, error);
  if (fd < 0)
    return NULL;
  {
    gboolean handled = FALSE;
    ProcuraImportResult *r = import_fd (path, fd, size, format, flags, cancellable, &handled, error);

    close (fd);
    if (handled)
      return r;
  }
  buf = procura_import_read_file (path, "a benchmark result, an engine log or a price list",
                                  &got, error);
  if (buf == NULL)
    return NULL;
  {
    Owned owned = { buf };
    return import_data (path, &owned, buf, got, format, flags, cancellable, error);
  }
}

/* procura-store-snapshot.c: reading a WAL project in a folder we cannot write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-store.h"
#include "procura-store-snapshot.h"

gboolean
procura_store_snapshot_needed (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  GStatBuf st;

  return g_stat (wal, &st) == 0 && g_stat (shm, &st) != 0 && errno == ENOENT;
}

static gboolean
copy_file (const char  *from,
           const char  *to,
           const char  *path,
           GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize len = 0;

  if (!g_file_get_contents (from, &data, &len, &local)
      || !g_file_set_contents_full (to, data, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0600, &local))
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_IO,
                   _("%s: cannot read the project with its write-ahead log (the folder is not "
                     "writable, so it is read from a private copy): %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}

char *
procura_store_snapshot_make (const char  *path,
                             char       **dir,
                             GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *folder = g_dir_make_tmp ("procura-read-XXXXXX", &local);
  g_autofree char *copy = NULL;
  g_autofree char *wal = NULL;
  g_autofree char *copy_wal = NULL;

  if (folder == NULL)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_IO,
                   _("%s: cannot make a private copy to read the project with its write-ahead "
                     "log: %s"), path, local->message);
      return NULL;
    }
  copy = g_build_filename (folder, "project.procura", NULL);
  wal = g_strconcat (path, "-wal", NULL);
  copy_wal = g_strconcat (copy, "-wal", NULL);
  /* the -wal first: a checkpoint between the two copies would only move frames into a
   * main file copied after it */
  if (!copy_file (wal, copy_wal, path, error) || !copy_file (path, copy, path, error))
    {
      procura_store_snapshot_remove (folder);
      return NULL;
    }
  *dir = g_steal_pointer (&folder);
  return g_steal_pointer (&copy);
}

void
procura_store_snapshot_remove (const char *dir)
{
  g_autoptr (GDir) d = NULL;
  const char *name;

  if (dir == NULL)
    return;
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}

void
procura_store_snapshot_rename_error (GError     *error,
                                     const char *snapshot,
                                     const char *path)
{
  GString *message;

  if (error == NULL || strstr (error->message, snapshot) == NULL)
    return;
  message = g_string_new (error->message);
  g_string_replace (message, snapshot, path, 0);
  g_free (error->message);
  error->message = g_string_free (message, FALSE);
}

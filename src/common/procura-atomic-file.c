/* procura-atomic-file.c: replace a file whole, or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procura-atomic-file.h"

/* The temporary name keeps at most this much of the target's name, so that it stays
 * within NAME_MAX (255) with the dot, the tag and the six random characters. */
#define KEEP_NAME_BYTES 200

/* ".NAME.procura-tmp-" for @path's base name (truncated to KEEP_NAME_BYTES). */
static char *
temp_prefix (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  if (strlen (base) > KEEP_NAME_BYTES)
    base[KEEP_NAME_BYTES] = '\0';
  return g_strconcat (".", base, PROCURA_ATOMIC_FILE_TAG, NULL);
}

gboolean
procura_atomic_file_is_temporary (const char *name)
{
  const char *tag = strstr (name, PROCURA_ATOMIC_FILE_TAG);

  return name[0] == '.' && tag != NULL && tag != name
         && strlen (tag) == strlen (PROCURA_ATOMIC_FILE_TAG) + 6;
}

guint
procura_atomic_file_remove_stale (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *prefix = temp_prefix (path);
  gsize prefix_len = strlen (prefix);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint removed = 0;

  if (d == NULL)
    return 0;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *full = NULL;
      struct stat st, now;
      int fd;

      if (strncmp (name, prefix, prefix_len) != 0 || strlen (name) != prefix_len + 6)
        continue;
      full = g_build_filename (dir, name, NULL);
      fd = g_open (full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
      if (fd < 0)
        continue;
      /* a free lock: its writer is gone (a live writer holds it until the rename);
       * the same inode still under the name: nobody replaced it meanwhile */
      if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
          && flock (fd, LOCK_EX | LOCK_NB) == 0
          && g_lstat (full, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino
          && g_unlink (full) == 0)
        removed++;
      close (fd);
    }
  return removed;
}

static gboolean
fail (const char  *path,
      const char  *what,
      int          saved_errno,
      GError     **error)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               "%s: cannot %s: %s", display, what, g_strerror (saved_errno));
  return FALSE;
}

gboolean
procura_atomic_file_write (const char  *path,
                           const void  *data,
                           gsize        len,
                           GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *prefix = temp_prefix (path);
  g_autofree char *temp = NULL;
  const char *p = data;
  gboolean existed;
  struct stat st;
  int fd = -1;
  int e;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  procura_atomic_file_remove_stale (path);
  existed = g_stat (path, &st) == 0;

  /* create and lock; a cleaner of another writer could remove the file between the
   * two: then the name no longer holds our inode, and we start again */
  for (int attempt = 0; attempt < 5 && fd < 0; attempt++)
    {
      struct stat mine, named;

      g_free (temp);
      temp = g_strconcat (dir, G_DIR_SEPARATOR_S, prefix, "XXXXXX", NULL);
      fd = g_mkstemp_full (temp, O_RDWR | O_CLOEXEC, 0666);
      if (fd < 0)
        return fail (path, "create a temporary file beside it", errno, error);
      if (flock (fd, LOCK_EX) != 0 || fstat (fd, &mine) != 0
          || g_lstat (temp, &named) != 0 || mine.st_ino != named.st_ino || mine.st_dev != named.st_dev)
        {
          close (fd);
          fd = -1;
        }
    }
  if (fd < 0)
    return fail (path, "create a temporary file beside it", EAGAIN, error);

  while (len > 0)
    {
      gssize n = write (fd, p, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        goto failed;
      p += n;
      len -= (gsize) n;
    }
  /* synced before it replaces a file that held data, like g_file_set_contents_full() */
  if (existed && fsync (fd) != 0)
    goto failed;
  if (g_rename (temp, path) != 0)
    goto failed;
  close (fd);
  return TRUE;

failed:
  e = errno;
  g_unlink (temp);
  close (fd);
  return fail (path, "write", e, error);
}

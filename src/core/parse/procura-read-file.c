/* SPDX-License-Identifier: GPL-3.0-or-later */
/* procura-read-file.c: reading a file the user named, as every reader of Procura does:
 * never blocking on a FIFO or a device, bounded in size, read (not mapped) and padded
 * for the bulk JSON reader. Declared in procura-import.h (core's shared header). */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "procura-import.h"
#include "procura-json-bulk.h"

int
procura_import_open_file (const char  *path,
                          const char  *expected,
                          gsize       *size,
                          GError     **error)
{
  struct stat st;
  int fd;

  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever;
   * the check below refuses anything but a regular file before a byte is read */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_IO,
                   _("%s: cannot open: %s"), path, g_strerror (e));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_IO,
                   _("%s: not a regular file; expected %s"), path, expected);
      close (fd);
      return -1;
    }
  (void) fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (st.st_size > PROCURA_IMPORT_MAX_BYTES)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT,
                   _("%s: the file is %lld bytes; the limit is %lld"),
                   path, (long long) ((gint64) st.st_size), (long long) PROCURA_IMPORT_MAX_BYTES);
      close (fd);
      return -1;
    }
  *size = (gsize) st.st_size;
  return fd;
}

char *
procura_import_read_file (const char  *path,
                          const char  *expected,
                          gsize       *len,
                          GError     **error)
{
  gsize size = 0;
  char *buf;
  gsize got = 0;
  int fd;

  fd = procura_import_open_file (path, expected, &size, error);
  if (fd < 0)
    return NULL;
  /* Read, not mapped: a mapped file that another process truncates while it is parsed
   * would kill the app with SIGBUS; a read copy costs the same resident memory as a
   * populated mapping. The zeroed tail is simdjson's padding. */
  buf = g_try_malloc (size + PROCURA_JSON_BULK_PADDING + 1);
  if (buf == NULL)
    {
      g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_LIMIT,
                   _("%s: not enough memory to read %lld bytes"), path, (long long) size);
      close (fd);
      return NULL;
    }
  while (got < size)
    {
      gssize n = read (fd, buf + got, size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_IO,
                       _("%s: cannot read: %s"), path, g_strerror (e));
          close (fd);
          g_free (buf);
          return NULL;
        }
      if (n == 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  memset (buf + got, 0, PROCURA_JSON_BULK_PADDING + 1);
  *len = got;
  return buf;
}

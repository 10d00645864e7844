/* procura-atomic-file.h: replace a file whole, or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Procura writes for the user (reports, figures, exports, saved probe
 * output) goes through procura_atomic_file_write(): the bytes go to a temporary file in
 * the same folder, named ".NAME.procura-tmp-XXXXXX" and locked (flock) while it is
 * written, which is then renamed over NAME. A kill or a full disk leaves the previous
 * NAME, never half of a new one. A writer that was killed leaves its temporary file;
 * the next write of the same NAME removes every such file whose lock is free (its
 * writer is gone), so at most one stale temporary file per NAME ever exists.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PROCURA_ATOMIC_FILE_TAG ".procura-tmp-"

/* Writes @len bytes of @data to @path as described above (mode 0666 less the umask;
 * synced before the rename when @path already exists). Errors are G_FILE_ERROR and
 * name @path. */
gboolean procura_atomic_file_write            (const char  *path,
                                               const void  *data,
                                               gsize        len,
                                               GError     **error);

/* Removes the stale temporary files of @path (see above); returns how many. Called by
 * procura_atomic_file_write(); exported for tests. */
guint    procura_atomic_file_remove_stale     (const char  *path);

/* TRUE when @name (a base name) is one of the temporary files of any target. */
gboolean procura_atomic_file_is_temporary     (const char  *name);

G_END_DECLS

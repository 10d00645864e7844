/* procura-store-snapshot.h: reading a WAL project in a folder we cannot write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQLite reads a database in WAL mode only through its -shm file, which it creates
 * beside the database when absent. A project left with its -wal (a writer that died
 * before its last checkpoint, or a copy taken while it was open) in a folder the user
 * cannot write has no -shm and cannot get one: the store then reads a private copy of
 * the file and its -wal, made in a new temporary folder, and removes it on close. The
 * project itself is never written.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when @path has a -wal but no -shm beside it (the caller knows the folder is not
 * writable). */
gboolean procura_store_snapshot_needed (const char  *path);

/* Copies @path and its -wal into a new private folder (*@dir, for
 * procura_store_snapshot_remove()); returns the copy's path, or NULL with @error (naming
 * @path) set. */
char    *procura_store_snapshot_make   (const char  *path,
                                        char       **dir,
                                        GError     **error);

/* Removes the folder and everything SQLite made in it. */
void     procura_store_snapshot_remove (const char  *dir);

/* @error's message names @snapshot where it means @path: says @path instead. */
void     procura_store_snapshot_rename_error (GError     *error,
                                              const char *snapshot,
                                              const char *path);

G_END_DECLS

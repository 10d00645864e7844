/* procura-test-util.h: shared helpers for the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A fresh temporary directory, removed (with its content) by procura_test_rmtree(). */
char     *procura_test_mkdtemp       (void);
void      procura_test_rmtree        (const char *path);
/* Path of a file in tests/fixtures (the project's own small fixtures). */
char     *procura_test_fixture       (const char *name);
/* Path of a real fixture (shared/fixtures/real/...), or NULL when the folder is absent:
 * the caller then calls g_test_skip() with procura_test_real_fixtures_missing(). */
char     *procura_test_real_fixture  (const char *relative);
const char *procura_test_real_fixtures_missing (void);
/* Runs the procura binary with @argv (NULL-terminated, without "procura"), capturing
 * stdout and stderr; returns the exit status. */
int       procura_test_run_cli       (const char * const *argv,
                                      char              **out,
                                      char              **err);

G_END_DECLS

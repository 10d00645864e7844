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

/* Binds the text domain to the catalogues built in the build tree (build/po), for a test
 * run with $LANGUAGE set. */
void      procura_test_bind_build_catalogues (void);
/* The path of the built catalogue of @lang (build/po/LANG/LC_MESSAGES/procura.mo). */
char     *procura_test_catalogue_path (const char *lang);
/* A sentence of the GNU .mo catalogue at @mo_path left in English in @text: a piece of
 * an msgid (cut at its printf conversions and line breaks) of two words or more, that
 * the translation changes and that no translation contains, found in @text. NULL when
 * none is; @pieces (if not NULL) gets how many pieces were looked for. Fails the test
 * when the catalogue cannot be read. */
char     *procura_test_english_left  (const char *mo_path,
                                      const char *text,
                                      guint      *pieces);

G_END_DECLS

/* procura-util.h: small shared helpers of the core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Lower-case hex SHA-256 of a buffer. */
char  *procura_sha256_hex   (const void *data,
                             gsize       len);
/* Current UTC time as ISO 8601 ("2026-11-30T06:12:00Z"). Honours SOURCE_DATE_EPOCH
 * so that reports and tests can be reproducible. */
char  *procura_now_iso8601  (void);
/* Days between an ISO date (YYYY-MM-DD…) and today; -1 when unparsable. */
int    procura_days_since   (const char *iso_date);
/* A helper program of Procura's: @beside (a path relative to the running binary's folder:
 * the build tree) when executable there, else @name in PKGLIBEXECDIR when executable
 * there, else NULL. */
char  *procura_find_helper  (const char *beside,
                             const char *name);

G_END_DECLS

/* procura-store-schema.h: the SQL of every schema version (private to the store and
 * its tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project file of version N holds the v1 schema with migrations 2..N applied.
 * A new file is created the same way (v1, then every migration), so the migrations
 * run on every create and never rot.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The schema of the first released version: never edit it. */
const char *procura_store_schema_v1_sql (void);
/* The migration from version @to - 1 to @to (2 <= @to <= PROCURA_STORE_SCHEMA_VERSION),
 * NULL otherwise. Runs inside the caller's transaction. */
const char *procura_store_migration_sql (int to);

G_END_DECLS

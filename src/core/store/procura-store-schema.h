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
#include <sqlite3.h>

G_BEGIN_DECLS

/* The schema of the first released version: never edit it. */
const char *procura_store_schema_v1_sql (void);
/* The migration from version @to - 1 to @to (2 <= @to <= PROCURA_STORE_SCHEMA_VERSION),
 * NULL otherwise. Runs inside the caller's transaction. */
const char *procura_store_migration_sql (int to);

/* The list of @db's schema objects, one "type\x1fname\x1ftbl_name\x1fsql\x1e" record each,
 * sorted: what a project file of a version must hold exactly. NULL on a read error. */
char       *procura_store_schema_signature (sqlite3 *db);
/* Runs in @db the first schema (when @from < 1) and the migrations after @from up to
 * @to; FALSE at the first statement SQLite refuses (its message is @db's). */
gboolean    procura_store_schema_apply     (sqlite3 *db,
                                            int      from,
                                            int      to);
/* The signature of a file of @version, made by running v1 and the migrations in memory. */
char       *procura_store_schema_expected  (int      version);

G_END_DECLS

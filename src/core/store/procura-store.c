/* procura-store.c: the project file (SQLite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening a file is done in two steps so that a file we refuse is never written to:
 * 1. a read-only connection with every dangerous feature off (defensive mode, no
 *    triggers, no views, untrusted schema, no extensions, bounded lengths) checks the
 *    header, the application_id, the user_version, that sqlite_master holds exactly the
 *    objects of that schema version (same SQL text) and the integrity check;
 * 2. only then, and only when the advisory lock is ours, a read-write connection
 *    switches to WAL, turns foreign keys on and migrates the schema forward.
 * A second store on the same file (this or another process) cannot take the lock and
 * gets a read-only connection instead.
 */
/* F_OFD_SETLK (open-file-description locks) is declared only with _GNU_SOURCE. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store.h"
#include "procura-store-probe.h"
#include "procura-store-snapshot.h"
#include "procura-store-schema.h"
#include "procura-util.h"

/* Bounds on what a (possibly hostile) file can make us allocate. */
#define STORE_MAX_LENGTH     (1024 * 1024 * 1024 - 1)  /* bytes in one string or BLOB */
#define STORE_MAX_SQL_LENGTH (1024 * 1024)
#define STORE_MAX_COLUMNS    200
#define STORE_BUSY_TIMEOUT_MS 5000

/* A byte range of the database file that SQLite never locks (its own locks live at
 * 0x40000000..0x400001FF); an open-file-description lock there marks the writer. */
#define STORE_LOCK_OFFSET    (G_GINT64_CONSTANT (0x40000000) - 4096)

struct _ProcuraStore {
  sqlite3  *db;
  char     *path;
  gboolean  read_only;
  char     *read_only_reason;
  int       lock_fd;
  int       file_version;
  gboolean  in_batch;   /* procura_store_begin_batch(): writes nest as savepoints */
  char     *snapshot_dir; /* a private copy read instead (procura-store-snapshot.h), or NULL */
};

G_DEFINE_QUARK (procura-store-error-quark, procura_store_error)

/* ------------------------------------------------------------------------- */
/* Small helpers                                                              */

static void
set_db_error (GError      **error,
              sqlite3      *db,
              const char   *path,
              const char   *what)
{
  int code = db != NULL ? sqlite3_errcode (db) : SQLITE_ERROR;
  int primary = code & 0xff;
  int domain_code;

  switch (primary)
    {
    case SQLITE_CORRUPT:
      domain_code = PROCURA_STORE_ERROR_DAMAGED;
      break;
    case SQLITE_NOTADB:
      domain_code = PROCURA_STORE_ERROR_NOT_A_PROJECT;
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      domain_code = PROCURA_STORE_ERROR_LOCKED;
      break;
    case SQLITE_READONLY:
      domain_code = PROCURA_STORE_ERROR_READ_ONLY;
      break;
    case SQLITE_CONSTRAINT:
    case SQLITE_TOOBIG:
    case SQLITE_MISMATCH:
      domain_code = PROCURA_STORE_ERROR_INVALID;
      break;
    default:
      domain_code = PROCURA_STORE_ERROR_IO;
      break;
    }
  g_set_error (error, PROCURA_STORE_ERROR, domain_code,
               "%s: %s: %s", path != NULL ? path : "project", what,
               db != NULL ? sqlite3_errmsg (db) : "out of memory");
}

static void
store_error (ProcuraStore  *store,
             GError       **error,
             const char    *what)
{
  set_db_error (error, store->db, store->path, what);
}

static gboolean
exec_sql (sqlite3     *db,
          const char  *path,
          const char  *sql,
          GError     **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      set_db_error (error, db, path, "cannot run SQL");
      return FALSE;
    }
  return TRUE;
}

static sqlite3_stmt *
prepare (ProcuraStore  *store,
         const char    *sql,
         GError       **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      store_error (store, error, "cannot prepare a statement");
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

static void
finalize_stmt (sqlite3_stmt *stmt)
{
  sqlite3_finalize (stmt);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, finalize_stmt)

static int
param (sqlite3_stmt *stmt,
       const char   *name)
{
  char key[64];

  g_snprintf (key, sizeof key, ":%s", name);
  return sqlite3_bind_parameter_index (stmt, key);
}

static void
bind_text (sqlite3_stmt *stmt,
           const char   *name,
           const char   *value)
{
  int i = param (stmt, name);

  g_return_if_fail (i > 0);
  if (value == NULL)
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_text (stmt, i, value, -1, SQLITE_TRANSIENT);
}

static void
bind_double (sqlite3_stmt *stmt,
             const char   *name,
             double        value)
{
  int i = param (stmt, name);

  g_return_if_fail (i > 0);
  /* NAN is "unknown": NULL in the file */
  if (isnan (value))
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_double (stmt, i, value);
}

static void
bind_int (sqlite3_stmt *stmt,
          const char   *name,
          gint64        value)
{
  int i = param (stmt, name);

  g_return_if_fail (i > 0);
  sqlite3_bind_int64 (stmt, i, value);
}

/* 0 means "none": NULL in the file (a foreign key). */
static void
bind_id (sqlite3_stmt *stmt,
         const char   *name,
         gint64        id)
{
  int i = param (stmt, name);

  g_return_if_fail (i > 0);
  if (id <= 0)
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_int64 (stmt, i, id);
}

static int
col (sqlite3_stmt *stmt,
     const char   *name)
{
  int n = sqlite3_column_count (stmt);

  for (int i = 0; i < n; i++)
    if (g_str_equal (sqlite3_column_name (stmt, i), name))
      return i;
  g_critical ("no column %s", name);
  return 0;
}

/* Text from the file, never trusted to be UTF-8 (a received project may hold any
 * bytes, or a BLOB, where text belongs): invalid sequences become U+FFFD, so that
 * window titles, --json and reports only ever see valid UTF-8. */
static char *
valid_text (const char *text,
            gssize      len)
{
  if (text == NULL)
    return NULL;
  if (len < 0)
    len = (gssize) strlen (text);
  else
    len = (gssize) strnlen (text, (gsize) len);
  if (g_utf8_validate_len (text, (gsize) len, NULL))
    return g_strndup (text, (gsize) len);
  return g_utf8_make_valid (text, len);
}

static char *
col_text (sqlite3_stmt *stmt,
          const char   *name)
{
  int i = col (stmt, name);
  const char *text;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NULL;
  text = (const char *) sqlite3_column_text (stmt, i);
  return valid_text (text, text != NULL ? sqlite3_column_bytes (stmt, i) : 0);
}

/* Largest magnitude read from a REAL column: more than any real figure (bytes, tokens,
 * dollars), and small enough that the analysis may round any of them to a gint64. A
 * received file may hold ±Inf or 1e308: read as unknown. */
#define STORE_MAX_REAL PROCURA_STORE_MAX_REAL

static double
col_double (sqlite3_stmt *stmt,
            const char   *name)
{
  int i = col (stmt, name);
  double v;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NAN;
  v = sqlite3_column_double (stmt, i);
  return isfinite (v) && fabs (v) <= STORE_MAX_REAL ? v : NAN;
}

/* A load value: +Inf is a real one (all requests at once, "rate unlimited"). */
static double
col_load_value (sqlite3_stmt *stmt,
                const char   *name)
{
  int i = col (stmt, name);

  if (sqlite3_column_type (stmt, i) != SQLITE_NULL && isinf (sqlite3_column_double (stmt, i))
      && sqlite3_column_double (stmt, i) > 0)
    return INFINITY;
  return col_double (stmt, name);
}

static gint64
col_int (sqlite3_stmt *stmt,
         const char   *name,
         gint64        if_null)
{
  int i = col (stmt, name);

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return if_null;
  return sqlite3_column_int64 (stmt, i);
}

/* A small count or size (layers, GPUs, tp...): a value no real project holds (below -1,
 * above 2^24, or not an integer at all) is read as unknown (@if_null), so that a hostile
 * file cannot make later arithmetic on ints overflow. */
static int
col_small (sqlite3_stmt *stmt,
           const char   *name,
           int           if_null)
{
  int i = col (stmt, name);
  gint64 v;

  if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    return if_null;
  v = sqlite3_column_int64 (stmt, i);
  if (v < -1 || v > (1 << 24))
    return if_null;
  return (int) v;
}

/* A count that may be large (requests, tokens, bytes): outside -1..2^53 it is unknown. */
static gint64
col_count (sqlite3_stmt *stmt,
           const char   *name)
{
  int i = col (stmt, name);
  gint64 v;

  if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    return -1;
  v = sqlite3_column_int64 (stmt, i);
  return v >= -1 && v <= (G_GINT64_CONSTANT (1) << 53) ? v : -1;
}

/* An enumeration stored as an integer: out of 0..@n_values - 1 reads as 0. */
static int
col_enum (sqlite3_stmt *stmt,
          const char   *name,
          int           n_values)
{
  gint64 v = col_int (stmt, name, 0);

  return v >= 0 && v < n_values ? (int) v : 0;
}

static gboolean
step_done (ProcuraStore  *store,
           sqlite3_stmt  *stmt,
           GError       **error,
           const char    *what)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      store_error (store, error, what);
      return FALSE;
    }
  return TRUE;
}

static char *
strv_to_json (GPtrArray *strings)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  if (strings == NULL || strings->len == 0)
    return NULL;
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* JSON stored in the project goes through the importers' strict front door (bounded
 * depth, UTF-8, RFC 8259) before json-glib sees it: a received file is untrusted. The
 * error names the file, the table, the column and the row. */
static JsonNode *
column_json (ProcuraStore  *store,
             const char    *table,
             const char    *column,
             gint64         row_id,
             const char    *json,
             GError       **error)
{
  g_autofree char *name = g_strdup_printf ("table “%s”, column “%s”, row %" G_GINT64_FORMAT ", JSON",
                                           table, column, row_id);
  g_autoptr (GError) local = NULL;
  JsonNode *root = procura_json_parse (name, json, strlen (json), 0, PROCURA_JSON_STRICT, &local);

  if (root == NULL)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: %s", store->path, local->message);
      return NULL;
    }
  return root;
}

static gboolean
json_to_strv (ProcuraStore  *store,
              const char    *table,
              const char    *column,
              gint64         row_id,
              const char    *json,
              GPtrArray     *into,
              GError       **error)
{
  g_autoptr (JsonNode) root = NULL;
  JsonArray *array;

  if (json == NULL || *json == '\0')
    return TRUE;
  root = column_json (store, table, column, row_id, json, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    goto wrong;
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        goto wrong;
      g_ptr_array_add (into, g_strdup (json_node_get_string (node)));
    }
  return TRUE;

wrong:
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
               "%s: the project file is damaged: table “%s”, column “%s”, row %" G_GINT64_FORMAT
               ": expected a JSON array of strings", store->path, table, column, row_id);
  return FALSE;
}

/* A JSON column kept as text (runs.extras_json) or JSON Lines (probe_results.json):
 * checked now so that whoever parses it later gets a document the front door passed. */
static gboolean
check_json_column (ProcuraStore  *store,
                   const char    *table,
                   const char    *column,
                   gint64         row_id,
                   const char    *json,
                   gboolean       lines,
                   GError       **error)
{
  g_autofree char *name = NULL;
  const char *p = json;
  guint line = 0;

  if (json == NULL)
    return TRUE;
  name = g_strdup_printf ("table “%s”, column “%s”, row %" G_GINT64_FORMAT ", JSON",
                          table, column, row_id);
  while (*p != '\0')
    {
      const char *end = lines ? strchr (p, '\n') : NULL;
      gsize len = end != NULL ? (gsize) (end - p) : strlen (p);
      g_autoptr (GError) local = NULL;
      char *rewritten = NULL;
      gsize rewritten_len = 0;

      if (!lines || len > 0)
        {
          if (!procura_json_check (name, p, len, line, PROCURA_JSON_STRICT, &rewritten,
                                   &rewritten_len, &local))
            {
              g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                           "%s: the project file is damaged: %s", store->path, local->message);
              return FALSE;
            }
          g_free (rewritten);
        }
      line++;
      p += len;
      if (*p == '\n')
        p++;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Sample BLOBs: little-endian float64, 8 bytes a value, no header            */

GBytes *
procura_samples_encode (const double *values,
                        gsize         n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  return g_bytes_new (values, n * sizeof (double));
#else
  guint64 *out = g_new (guint64, n);

  for (gsize i = 0; i < n; i++)
    {
      guint64 bits;
      memcpy (&bits, &values[i], 8);
      out[i] = GUINT64_TO_LE (bits);
    }
  return g_bytes_new_take (out, n * sizeof (double));
#endif
}

gboolean
procura_samples_decode (const void  *data,
                        gsize        len,
                        double     **values,
                        gsize       *n)
{
  double *out;
  gsize count;

  if (len % 8 != 0)
    return FALSE;
  count = len / 8;
  out = g_new (double, count > 0 ? count : 1);
  if (count > 0)
    memcpy (out, data, len);
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  for (gsize i = 0; i < count; i++)
    {
      guint64 bits;
      memcpy (&bits, &out[i], 8);
      bits = GUINT64_FROM_LE (bits);
      memcpy (&out[i], &bits, 8);
    }
#endif
  *values = out;
  *n = count;
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Connections                                                                */

static void
harden_connection (sqlite3 *db)
{
  int ignored;

  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_FKEY, 1, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_DQS_DDL, 0, &ignored);
  sqlite3_db_config (db, SQLITE_DBCONFIG_DQS_DML, 0, &ignored);
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, STORE_MAX_LENGTH);
  sqlite3_limit (db, SQLITE_LIMIT_SQL_LENGTH, STORE_MAX_SQL_LENGTH);
  sqlite3_limit (db, SQLITE_LIMIT_COLUMN, STORE_MAX_COLUMNS);
  sqlite3_limit (db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit (db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
  sqlite3_busy_timeout (db, STORE_BUSY_TIMEOUT_MS);
}

static sqlite3 *
open_connection (const char  *path,
                 int          flags,
                 GError     **error)
{
  sqlite3 *db = NULL;
  int rc;

  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      set_db_error (error, db, path, "cannot open");
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_extended_result_codes (db, 1);
  harden_connection (db);
  return db;
}

static gboolean
query_int (sqlite3     *db,
           const char  *sql,
           gint64      *out)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    {
      *out = sqlite3_column_int64 (stmt, 0);
      ok = TRUE;
    }
  sqlite3_finalize (stmt);
  return ok;
}

/* The list of schema objects, one "type|name|tbl_name|sql" line each, sorted. */
static char *
schema_signature (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  GString *out;
  int rc;

  if (sqlite3_prepare_v2 (db,
                          "SELECT type, name, tbl_name, sql FROM sqlite_schema "
                          "ORDER BY type, name", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  out = g_string_new (NULL);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int i = 0; i < 4; i++)
        {
          const char *t = (const char *) sqlite3_column_text (stmt, i);
          g_string_append (out, t != NULL ? t : "");
          g_string_append_c (out, i < 3 ? '\x1f' : '\x1e');
        }
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

static gboolean
apply_schema (sqlite3     *db,
              const char  *path,
              int          from,
              int          to,
              GError     **error)
{
  if (from < 1)
    {
      if (!exec_sql (db, path, procura_store_schema_v1_sql (), error))
        return FALSE;
      from = 1;
    }
  for (int v = from + 1; v <= to; v++)
    if (!exec_sql (db, path, procura_store_migration_sql (v), error))
      return FALSE;
  return TRUE;
}

/* What sqlite_schema must hold in a file of @version. */
static char *
expected_signature (int version)
{
  sqlite3 *mem = NULL;
  char *sig = NULL;

  if (sqlite3_open_v2 (":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) == SQLITE_OK
      && apply_schema (mem, ":memory:", 0, version, NULL))
    sig = schema_signature (mem);
  sqlite3_close (mem);
  return sig;
}

/* "missing index “runs_candidate” of table “runs”": names from the file made UTF-8. */
static char *
describe_object (const char  *what,
                 char       **f)
{
  g_autofree char *type = valid_text (f[0], -1);
  g_autofree char *name = valid_text (f[1], -1);
  g_autofree char *table = valid_text (f[2], -1);

  if (g_str_equal (type, "table"))
    return g_strdup_printf ("%s table “%s”", what, name);
  return g_strdup_printf ("%s %s “%s” of table “%s”", what, type, name, table);
}

/* Describes the first difference between two signatures. */
static char *
describe_schema_difference (const char *expected,
                            const char *actual)
{
  g_auto (GStrv) e = g_strsplit (expected, "\x1e", -1);
  g_auto (GStrv) a = g_strsplit (actual, "\x1e", -1);
  g_autoptr (GHashTable) known = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; e[i] != NULL; i++)
    g_hash_table_add (known, e[i]);
  for (int i = 0; a[i] != NULL; i++)
    if (*a[i] != '\0' && !g_hash_table_contains (known, a[i]))
      {
        g_auto (GStrv) f = g_strsplit (a[i], "\x1f", 4);
        if (g_strv_length (f) >= 3)
          return describe_object ("unexpected or altered", f);
      }
  g_hash_table_remove_all (known);
  for (int i = 0; a[i] != NULL; i++)
    g_hash_table_add (known, a[i]);
  for (int i = 0; e[i] != NULL; i++)
    if (*e[i] != '\0' && !g_hash_table_contains (known, e[i]))
      {
        g_auto (GStrv) f = g_strsplit (e[i], "\x1f", 4);
        if (g_strv_length (f) >= 3)
          return describe_object ("missing", f);
      }
  return g_strdup ("schema differs");
}

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* Reads the first 100 bytes: the SQLite header. */
static gboolean
check_header (const char  *path,
              GError     **error)
{
  static const char magic[16] = "SQLite format 3";
  guint8 header[100];
  struct stat st;
  ssize_t got;
  int fd;

  /* O_NONBLOCK: a FIFO must not hang us */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, PROCURA_STORE_ERROR,
                   saved == ENOENT ? PROCURA_STORE_ERROR_NOT_FOUND : PROCURA_STORE_ERROR_IO,
                   "%s: cannot open: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT,
                   "%s: not a Procura project: not a regular file", path);
      return FALSE;
    }
  got = read (fd, header, sizeof header);
  close (fd);
  if (got < (ssize_t) sizeof header || memcmp (header, magic, 16) != 0)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT,
                   "%s: not a Procura project: not an SQLite database (%s)", path,
                   got < (ssize_t) sizeof header ? "shorter than a database header"
                                                 : "wrong file signature");
      return FALSE;
    }

  /* A file shorter than the page count its header states was truncated. The count
   * is only valid when the "version-valid-for" number equals the change counter,
   * and only meaningful without a WAL (a checkpoint writes page 1 first). */
  {
    guint32 page_size = ((guint32) header[16] << 8) | header[17];
    guint32 change = read_be32 (header + 24);
    guint32 pages = read_be32 (header + 28);
    guint32 valid_for = read_be32 (header + 92);
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);
    struct stat wst;
    gboolean wal_present = stat (wal, &wst) == 0 && wst.st_size > 0;

    if (page_size == 1)
      page_size = 65536;
    if (!wal_present && change == valid_for && pages > 0
        && (guint64) st.st_size < (guint64) pages * page_size)
      {
        g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                     "%s: the project file is damaged: it is truncated (%" G_GINT64_FORMAT
                     " bytes, its header says %" G_GUINT64_FORMAT ")", path,
                     (gint64) st.st_size, (guint64) pages * page_size);
        return FALSE;
      }
  }
  return TRUE;
}

/* Step 1: every check, on a read-only connection. Returns the file's schema version,
 * or 0 with @error set. */
static sqlite3 *
open_immutable (const char  *path,
                GError     **error)
{
  g_autofree char *abs = g_canonicalize_filename (path, NULL);
  g_autofree char *uri = g_filename_to_uri (abs, NULL, NULL);
  g_autofree char *full = NULL;
  sqlite3 *db;

  if (uri == NULL)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_IO,
                   "%s: cannot open: the name cannot be written as a URI", path);
      return NULL;
    }
  full = g_strconcat (uri, "?immutable=1", NULL);
  db = open_connection (full, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
  if (db == NULL)
    /* the message names the file, not its URI */
    return open_connection (path, SQLITE_OPEN_READONLY, error);
  return db;
}

/* Whether SQLite may create its side files (-wal, -shm, -journal) beside @path: it
 * cannot write the project without them. access() asks the kernel with the real
 * ids, so root (who may write anywhere but a read-only file system) gets TRUE; the
 * tests drop to another user to see the FALSE case. */
static gboolean
folder_writable (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  return access (dir, W_OK) == 0;
}

static int
check_file (const char  *path,
            gboolean     immutable,
            gboolean     full_check,
            GError     **error)
{
  sqlite3 *db;
  gint64 app_id = 0, version = 0;
  g_autofree char *expected = NULL;
  g_autofree char *actual = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (immutable)
    /* Nobody else writes (the lock is ours) and there is no WAL: read the file
     * as immutable, so that SQLite creates no -wal or -shm beside a file that
     * we may refuse. */
    db = open_immutable (path, error);
  else
    db = open_connection (path, SQLITE_OPEN_READONLY, error);
  if (db == NULL)
    return 0;

  if (!query_int (db, "PRAGMA application_id", &app_id)
      || !query_int (db, "PRAGMA user_version", &version))
    {
      int primary = sqlite3_errcode (db) & 0xff;
      g_set_error (error, PROCURA_STORE_ERROR,
                   primary == SQLITE_NOTADB ? PROCURA_STORE_ERROR_NOT_A_PROJECT
                                            : PROCURA_STORE_ERROR_DAMAGED,
                   "%s: %s: %s", path,
                   primary == SQLITE_NOTADB ? "not a Procura project"
                                            : "the project file is damaged",
                   sqlite3_errmsg (db));
      sqlite3_close (db);
      return 0;
    }

  if (app_id != PROCURA_STORE_APPLICATION_ID)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT,
                   "%s: not a Procura project: an SQLite database of another application "
                   "(application_id 0x%08x, expected 0x%08x)", path,
                   (guint) (app_id & 0xffffffff), (guint) PROCURA_STORE_APPLICATION_ID);
      sqlite3_close (db);
      return 0;
    }
  if (version > PROCURA_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NEWER_SCHEMA,
                   "%s: written by a newer version of Procura (project file version %"
                   G_GINT64_FORMAT ", this Procura reads up to %d): update Procura to open it",
                   path, version, PROCURA_STORE_SCHEMA_VERSION);
      sqlite3_close (db);
      return 0;
    }
  if (version < 1)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: it has no schema version "
                   "(PRAGMA user_version is %" G_GINT64_FORMAT ")", path, version);
      sqlite3_close (db);
      return 0;
    }

  expected = expected_signature ((int) version);
  actual = schema_signature (db);
  if (actual == NULL)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: cannot read its schema: %s",
                   path, sqlite3_errmsg (db));
      sqlite3_close (db);
      return 0;
    }
  if (expected == NULL || !g_str_equal (expected, actual))
    {
      g_autofree char *diff = describe_schema_difference (expected != NULL ? expected : "",
                                                          actual);
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged or was altered: its schema is not "
                   "that of a version %" G_GINT64_FORMAT " project (%s)", path, version, diff);
      sqlite3_close (db);
      return 0;
    }

  rc = sqlite3_prepare_v2 (db, full_check ? "PRAGMA integrity_check(20)" : "PRAGMA quick_check(20)",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      GString *problems = g_string_new (NULL);

      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          const char *line = (const char *) sqlite3_column_text (stmt, 0);
          if (line != NULL && !g_str_equal (line, "ok"))
            g_string_append_printf (problems, "%s%s", problems->len > 0 ? "; " : "", line);
        }
      sqlite3_finalize (stmt);
      if (rc == SQLITE_DONE && problems->len == 0)
        {
          g_string_free (problems, TRUE);
          sqlite3_close (db);
          return (int) version;
        }
      if (problems->len == 0)
        g_string_append (problems, sqlite3_errmsg (db));
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: integrity check failed: %s",
                   path, problems->str);
      g_string_free (problems, TRUE);
      sqlite3_close (db);
      return 0;
    }

  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
               "%s: the project file is damaged: %s", path, sqlite3_errmsg (db));
  sqlite3_close (db);
  return 0;
}

typedef enum {
  LOCK_OURS,
  LOCK_HELD,          /* another store holds it */
  LOCK_NOT_WRITABLE,  /* we may not write the file */
} LockState;

/* The advisory writer lock: an fd holding it, or -1. */
static int
take_lock (const char *path,
           LockState  *state)
{
  int fd = open (path, O_RDWR | O_CLOEXEC);

  if (fd < 0)
    {
      *state = LOCK_NOT_WRITABLE;
      return -1;
    }
  *state = LOCK_OURS;
#ifdef F_OFD_SETLK
  {
    struct flock fl = { 0 };

    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = STORE_LOCK_OFFSET;
    fl.l_len = 1;
    if (fcntl (fd, F_OFD_SETLK, &fl) == 0)
      return fd;
    if (errno != EINVAL)
      {
        close (fd);
        *state = LOCK_HELD;
        return -1;
      }
  }
#endif
  if (flock (fd, LOCK_EX | LOCK_NB) == 0)
    return fd;
  close (fd);
  *state = LOCK_HELD;
  return -1;
}

static gboolean
wal_present (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  struct stat st;

  return stat (wal, &st) == 0;
}

static ProcuraStore *
store_new (const char *path)
{
  ProcuraStore *store = g_new0 (ProcuraStore, 1);

  store->path = g_strdup (path);
  store->lock_fd = -1;
  return store;
}

void
procura_store_close (ProcuraStore *store)
{
  if (store == NULL)
    return;
  if (store->db != NULL)
    sqlite3_close (store->db);
  if (store->lock_fd >= 0)
    close (store->lock_fd);
  procura_store_snapshot_remove (store->snapshot_dir);
  g_free (store->snapshot_dir);
  g_free (store->path);
  g_free (store->read_only_reason);
  g_free (store);
}

static gboolean begin (ProcuraStore *store, GError **error);
static gboolean commit (ProcuraStore *store, GError **error);
static void     rollback (ProcuraStore *store);

ProcuraStore *
procura_store_open (const char         *path,
                    ProcuraStoreFlags   flags,
                    GError            **error)
{
  g_autoptr (ProcuraStore) store = NULL;
  LockState lock = LOCK_NOT_WRITABLE;
  gboolean folder_ok;
  int version;
  g_autofree char *snapshot = NULL;
  const char *open_path = path;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_header (path, error))
    return NULL;

  store = store_new (path);
  /* Held during the checks even for READ_ONLY (then released): while we hold it no
   * other Procura writes, which makes the immutable read of the checks safe. */
  store->lock_fd = take_lock (path, &lock);
  folder_ok = folder_writable (path);
  if (!folder_ok && procura_store_snapshot_needed (path))
    {
      /* a -wal and no -shm, which SQLite cannot make here: read a private copy */
      snapshot = procura_store_snapshot_make (path, &store->snapshot_dir, error);
      if (snapshot == NULL)
        return NULL;
      open_path = snapshot;
    }
  version = check_file (open_path, lock == LOCK_OURS && !wal_present (path),
                        (flags & PROCURA_STORE_OPEN_NO_CHECK) == 0, error);
  if (version == 0)
    {
      if (snapshot != NULL && error != NULL)
        procura_store_snapshot_rename_error (*error, snapshot, path);
      return NULL;
    }
  store->file_version = version;

  if (flags & PROCURA_STORE_OPEN_READ_ONLY)
    {
      if (store->lock_fd >= 0)
        close (store->lock_fd);
      store->lock_fd = -1;
      store->read_only = TRUE;
      store->read_only_reason = g_strdup ("Opened read-only on request");
    }
  else if (lock == LOCK_HELD)
    {
      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_LOCKED,
                       "%s: the project is open in another Procura window or process",
                       path);
          return NULL;
        }
      store->read_only = TRUE;
      store->read_only_reason =
        g_strdup ("The project is open in another Procura window or process; "
                  "it was opened read-only");
    }
  else if (lock == LOCK_NOT_WRITABLE)
    {
      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY,
                       "%s: the file is not writable", path);
          return NULL;
        }
      store->read_only = TRUE;
      store->read_only_reason = g_strdup ("The file is not writable; it was opened read-only");
    }
  else if (!folder_ok)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY,
                       "%s: the folder %s is not writable (saving needs a journal beside the file)",
                       path, dir);
          return NULL;
        }
      /* the lock stays ours while the store is open: no other Procura writes under
       * our immutable reads */
      store->read_only = TRUE;
      store->read_only_reason =
        g_strdup_printf ("The folder %s is not writable (saving needs a journal beside the "
                         "file); the project was opened read-only", dir);
    }

  if (store->read_only)
    {
      /* Read-only on request of a file we may write: a read-write connection that
       * never writes (query_only), so that, being the last one, it removes the -wal
       * and -shm files SQLite makes for reading a WAL database when it closes.
       * Otherwise (another writer, or no write access) a read-only connection. */
      if ((flags & PROCURA_STORE_OPEN_READ_ONLY) && lock == LOCK_OURS && folder_ok)
        {
          store->db = open_connection (path, SQLITE_OPEN_READWRITE, error);
          if (store->db != NULL
              && !exec_sql (store->db, path, "PRAGMA query_only = 1", error))
            return NULL;
        }
      else if (!folder_ok && !wal_present (path))
        /* SQLite cannot make the -shm it reads a WAL database with there: read the
         * file as it is (a Procura writer would need that folder too) */
        store->db = open_immutable (path, error);
      else
        store->db = open_connection (open_path, SQLITE_OPEN_READONLY, error);
      if (store->db == NULL)
        {
          if (snapshot != NULL && error != NULL)
            procura_store_snapshot_rename_error (*error, snapshot, path);
          return NULL;
        }

      /* An older project read without write access: upgraded in memory only. */
      if (version < PROCURA_STORE_SCHEMA_VERSION)
        {
          sqlite3 *mem = open_connection (":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error);
          sqlite3_backup *backup;
          g_autofree char *pragma = NULL;
          int rc;

          if (mem == NULL)
            return NULL;
          backup = sqlite3_backup_init (mem, "main", store->db, "main");
          rc = backup != NULL ? sqlite3_backup_step (backup, -1) : SQLITE_ERROR;
          sqlite3_backup_finish (backup);
          pragma = g_strdup_printf ("PRAGMA user_version = %d", PROCURA_STORE_SCHEMA_VERSION);
          if (rc != SQLITE_DONE
              || !exec_sql (mem, path, "BEGIN", error)
              || !apply_schema (mem, path, version, PROCURA_STORE_SCHEMA_VERSION, error)
              || !exec_sql (mem, path, pragma, error)
              || !exec_sql (mem, path, "COMMIT; PRAGMA query_only = 1", error))
            {
              if (rc != SQLITE_DONE)
                set_db_error (error, mem, path, "cannot read the project into memory");
              g_prefix_error (error, "cannot upgrade the project from version %d in memory: ", version);
              sqlite3_close (mem);
              return NULL;
            }
          sqlite3_close (store->db);
          store->db = mem;
          {
            char *reason = g_strdup_printf ("%s; the project was written by an older Procura "
                                            "(file version %d) and is shown upgraded in memory, "
                                            "without changing the file",
                                            store->read_only_reason, version);
            g_free (store->read_only_reason);
            store->read_only_reason = reason;
          }
        }
      return g_steal_pointer (&store);
    }

  store->db = open_connection (path, SQLITE_OPEN_READWRITE, error);
  if (store->db == NULL)
    return NULL;
  if (!exec_sql (store->db, path, "PRAGMA journal_mode = WAL", error)
      || !exec_sql (store->db, path, "PRAGMA synchronous = FULL", error)
      || !exec_sql (store->db, path, "PRAGMA foreign_keys = ON", error))
    return NULL;

  if (version < PROCURA_STORE_SCHEMA_VERSION)
    {
      g_autofree char *pragma = NULL;

      if (!begin (store, error))
        return NULL;
      pragma = g_strdup_printf ("PRAGMA user_version = %d", PROCURA_STORE_SCHEMA_VERSION);
      if (!apply_schema (store->db, path, version, PROCURA_STORE_SCHEMA_VERSION, error)
          || !exec_sql (store->db, path, pragma, error)
          || !commit (store, error))
        {
          rollback (store);
          g_prefix_error (error, "cannot upgrade the project from version %d: ", version);
          return NULL;
        }
    }

  return g_steal_pointer (&store);
}

ProcuraStore *
procura_store_create (const char  *path,
                      const char  *title,
                      GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *now = NULL;
  g_autofree char *pragma = NULL;
  sqlite3 *db;
  sqlite3_stmt *stmt = NULL;
  int fd;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: a file of that name exists; Procura does not overwrite it", path);
      return NULL;
    }

  /* Build the file under a temporary name, then link it into place: the project
   * appears whole or not at all, and an existing file is never replaced. */
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmp = g_build_filename (dir, ".procura-new-XXXXXX", NULL);
  fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_IO,
                   "%s: cannot create a file in “%s”: %s", path, dir, g_strerror (saved));
      return NULL;
    }
  close (fd);

  db = open_connection (tmp, SQLITE_OPEN_READWRITE, error);
  if (db == NULL)
    {
      g_unlink (tmp);
      return NULL;
    }
  pragma = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %d;",
                            PROCURA_STORE_APPLICATION_ID, PROCURA_STORE_SCHEMA_VERSION);
  now = procura_now_iso8601 ();
  if (!exec_sql (db, path, "PRAGMA journal_mode = DELETE; PRAGMA foreign_keys = ON; BEGIN", error)
      || !apply_schema (db, path, 0, PROCURA_STORE_SCHEMA_VERSION, error)
      || !exec_sql (db, path, pragma, error))
    goto fail;

  rc = sqlite3_prepare_v2 (db,
                           "INSERT INTO project (id, title, created, modified) VALUES (1, ?1, ?2, ?2);"
                           , -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      g_autofree char *default_title = NULL;

      if (title == NULL || *title == '\0')
        {
          default_title = g_strdup (base);
          if (g_str_has_suffix (default_title, ".procura"))
            default_title[strlen (default_title) - strlen (".procura")] = '\0';
        }
      sqlite3_bind_text (stmt, 1, default_title != NULL ? default_title : title, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 2, now, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (stmt) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_OK)
    {
      set_db_error (error, db, path, "cannot write the project");
      goto fail;
    }
  if (!exec_sql (db, path,
                 "INSERT INTO brief (id, window_hours) VALUES (1, 730);"
                 "INSERT INTO assumptions (id, retry_rate, failure_rate, headroom, stale_days, currency)"
                 " VALUES (1, 0, 0, 1, 30, 'USD');"
                 "INSERT INTO decision (id) VALUES (1);"
                 "COMMIT", error))
    goto fail;
  sqlite3_close (db);
  db = NULL;

  if (link (tmp, path) != 0)
    {
      int saved = errno;

      g_unlink (tmp);
      g_set_error (error, PROCURA_STORE_ERROR,
                   saved == EEXIST ? PROCURA_STORE_ERROR_INVALID : PROCURA_STORE_ERROR_IO,
                   saved == EEXIST ? "%s: a file of that name exists; Procura does not overwrite it"
                                   : "%s: cannot create the project: %s",
                   path, g_strerror (saved));
      return NULL;
    }
  g_unlink (tmp);
  return procura_store_open (path, PROCURA_STORE_OPEN_DEFAULT, error);

fail:
  sqlite3_close (db);
  g_unlink (tmp);
  return NULL;
}

const char *
procura_store_get_path (ProcuraStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return store->path;
}

gboolean
procura_store_is_read_only (ProcuraStore *store)
{
  g_return_val_if_fail (store != NULL, TRUE);
  return store->read_only;
}

const char *
procura_store_get_read_only_reason (ProcuraStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return store->read_only ? store->read_only_reason : NULL;
}

int
procura_store_get_file_schema_version (ProcuraStore *store)
{
  g_return_val_if_fail (store != NULL, 0);
  return store->file_version;
}

/* ------------------------------------------------------------------------- */
/* Transactions                                                               */

static gboolean
check_writable (ProcuraStore  *store,
                GError       **error)
{
  if (store->read_only)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY,
                   "%s: cannot change a project opened read-only (%s)", store->path,
                   store->read_only_reason);
      return FALSE;
    }
  return TRUE;
}

static gboolean
begin (ProcuraStore  *store,
       GError       **error)
{
  if (!check_writable (store, error))
    return FALSE;
  if (sqlite3_exec (store->db, store->in_batch ? "SAVEPOINT procura_write" : "BEGIN IMMEDIATE",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, "cannot start a transaction");
      return FALSE;
    }
  return TRUE;
}

static gboolean
touch_modified (ProcuraStore  *store,
                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store, "UPDATE project SET modified = :now WHERE id = 1", error);
  g_autofree char *now = procura_now_iso8601 ();

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "now", now);
  return step_done (store, stmt, error, "cannot update the project");
}

static gboolean
commit (ProcuraStore  *store,
        GError       **error)
{
  if (sqlite3_exec (store->db, store->in_batch ? "RELEASE procura_write" : "COMMIT",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, "cannot commit");
      return FALSE;
    }
  return TRUE;
}

static void
rollback (ProcuraStore *store)
{
  if (store->in_batch)
    sqlite3_exec (store->db, "ROLLBACK TO procura_write; RELEASE procura_write", NULL, NULL, NULL);
  else if (!sqlite3_get_autocommit (store->db))
    sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
}

gboolean
procura_store_begin_batch (ProcuraStore  *store,
                           GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (!store->in_batch, FALSE);
  if (!begin (store, error))
    return FALSE;
  store->in_batch = TRUE;
  return TRUE;
}

gboolean
procura_store_end_batch (ProcuraStore  *store,
                         gboolean       keep,
                         GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (store->in_batch, FALSE);
  store->in_batch = FALSE;
  if (keep && commit (store, error))
    return TRUE;
  rollback (store);
  return FALSE;
}

/* Commits after touching `modified`, or rolls back. */
static gboolean
finish (ProcuraStore  *store,
        gboolean       ok,
        GError       **error)
{
  if (ok && touch_modified (store, error) && commit (store, error))
    return TRUE;
  rollback (store);
  return FALSE;
}

static gboolean
candidate_is_live (ProcuraStore *store,
                   gint64        id)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "SELECT 1 FROM candidates WHERE id = :id AND deleted_by IS NULL", NULL);

  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", id);
  return sqlite3_step (stmt) == SQLITE_ROW;
}

static gboolean
check_candidate (ProcuraStore  *store,
                 gint64         id,
                 GError       **error)
{
  if (id == 0 || candidate_is_live (store, id))
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               "%s: no candidate with id %" G_GINT64_FORMAT, store->path, id);
  return FALSE;
}

/* ------------------------------------------------------------------------- */
/* Project-level fields                                                       */

gboolean
procura_store_set_title (ProcuraStore  *store,
                         const char    *title,
                         GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, FALSE);
  if (title == NULL || *title == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: the title must not be empty", store->path);
      return FALSE;
    }
  if (!begin (store, error))
    return FALSE;
  stmt = prepare (store, "UPDATE project SET title = :title WHERE id = 1", error);
  if (stmt != NULL)
    bind_text (stmt, "title", title);
  return finish (store, stmt != NULL && step_done (store, stmt, error, "cannot save the title"), error);
}

gboolean
procura_store_set_illustrative (ProcuraStore  *store,
                                gboolean       illustrative,
                                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  stmt = prepare (store, "UPDATE project SET illustrative = :v WHERE id = 1", error);
  if (stmt != NULL)
    bind_int (stmt, "v", illustrative ? 1 : 0);
  return finish (store, stmt != NULL && step_done (store, stmt, error, "cannot save the project"), error);
}

static gboolean
write_brief (ProcuraStore        *store,
             const ProcuraBrief  *b,
             GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT OR REPLACE INTO brief (id, workload_type, model_shape, input_tokens, output_tokens,"
    " context_tokens, concurrency, success_unit, slo_metric, slo_percentile, slo_threshold_ms,"
    " duty_cycle, operating_boundary, tooling, demand_average, demand_peak, window_hours,"
    " input_tokens_mean, output_tokens_mean, storage_gb, egress_gb)"
    " VALUES (1, :workload_type, :model_shape, :input_tokens, :output_tokens, :context_tokens,"
    " :concurrency, :success_unit, :slo_metric, :slo_percentile, :slo_threshold_ms, :duty_cycle,"
    " :operating_boundary, :tooling, :demand_average, :demand_peak, :window_hours,"
    " :input_tokens_mean, :output_tokens_mean, :storage_gb, :egress_gb)", error);

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "workload_type", b->workload_type);
  bind_text (stmt, "model_shape", b->model_shape);
  bind_double (stmt, "input_tokens", b->input_tokens);
  bind_double (stmt, "output_tokens", b->output_tokens);
  bind_double (stmt, "context_tokens", b->context_tokens);
  bind_double (stmt, "concurrency", b->concurrency);
  bind_text (stmt, "success_unit", b->success_unit);
  bind_text (stmt, "slo_metric", b->slo_metric);
  bind_double (stmt, "slo_percentile", b->slo_percentile);
  bind_double (stmt, "slo_threshold_ms", b->slo_threshold_ms);
  bind_text (stmt, "duty_cycle", b->duty_cycle);
  bind_text (stmt, "operating_boundary", b->operating_boundary);
  bind_text (stmt, "tooling", b->tooling);
  bind_double (stmt, "demand_average", b->demand_average);
  bind_double (stmt, "demand_peak", b->demand_peak);
  bind_double (stmt, "window_hours", b->window_hours);
  bind_double (stmt, "input_tokens_mean", b->input_tokens_mean);
  bind_double (stmt, "output_tokens_mean", b->output_tokens_mean);
  bind_double (stmt, "storage_gb", b->storage_gb);
  bind_double (stmt, "egress_gb", b->egress_gb);
  return step_done (store, stmt, error, "cannot save the brief");
}

gboolean
procura_store_save_brief (ProcuraStore        *store,
                          const ProcuraBrief  *brief,
                          GError             **error)
{
  g_return_val_if_fail (store != NULL && brief != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_brief (store, brief, error), error);
}

static gboolean
write_assumptions (ProcuraStore              *store,
                   const ProcuraAssumptions  *a,
                   GError                   **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT OR REPLACE INTO assumptions (id, acceptance_rate, retry_rate, failure_rate, headroom,"
    " stale_days, currency) VALUES (1, :acceptance_rate, :retry_rate, :failure_rate, :headroom,"
    " :stale_days, :currency)", error);

  if (stmt == NULL)
    return FALSE;
  bind_double (stmt, "acceptance_rate", a->acceptance_rate);
  bind_double (stmt, "retry_rate", a->retry_rate);
  bind_double (stmt, "failure_rate", a->failure_rate);
  bind_double (stmt, "headroom", a->headroom);
  bind_double (stmt, "stale_days", a->stale_days);
  bind_text (stmt, "currency", a->currency);
  return step_done (store, stmt, error, "cannot save the assumptions");
}

gboolean
procura_store_save_assumptions (ProcuraStore              *store,
                                const ProcuraAssumptions  *assumptions,
                                GError                   **error)
{
  g_return_val_if_fail (store != NULL && assumptions != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_assumptions (store, assumptions, error), error);
}

static gboolean
write_decision (ProcuraStore           *store,
                const ProcuraDecision  *d,
                GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!check_candidate (store, d->candidate_id, error)
      || !check_candidate (store, d->overflow_candidate_id, error))
    return FALSE;
  stmt = prepare (store,
    "INSERT OR REPLACE INTO decision (id, candidate_id, overflow_candidate_id, rationale, approver, date)"
    " VALUES (1, :candidate_id, :overflow_candidate_id, :rationale, :approver, :date)", error);
  if (stmt == NULL)
    return FALSE;
  bind_id (stmt, "candidate_id", d->candidate_id);
  bind_id (stmt, "overflow_candidate_id", d->overflow_candidate_id);
  bind_text (stmt, "rationale", d->rationale);
  bind_text (stmt, "approver", d->approver);
  bind_text (stmt, "date", d->date);
  return step_done (store, stmt, error, "cannot save the decision");
}

gboolean
procura_store_save_decision (ProcuraStore           *store,
                             const ProcuraDecision  *decision,
                             GError                **error)
{
  g_return_val_if_fail (store != NULL && decision != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_decision (store, decision, error), error);
}

/* ------------------------------------------------------------------------- */
/* Answers to the analysis warnings                                           */

/* Stores (or, @answer NULL or empty, removes) one answer; @candidate_id is a stored id
 * or 0. */
static gboolean
write_warning_answer (ProcuraStore  *store,
                      const char    *warning_id,
                      gint64         candidate_id,
                      const char    *answer,
                      const char    *answered_at,
                      GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean remove = answer == NULL || *answer == '\0';

  if (warning_id == NULL || *warning_id == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: an answer needs the id of the warning it answers", store->path);
      return FALSE;
    }
  if (!check_candidate (store, candidate_id, error))
    return FALSE;
  stmt = prepare (store, remove
    ? "DELETE FROM warning_answers WHERE warning_id = :warning_id AND candidate_id = :candidate_id"
    : "INSERT INTO warning_answers (warning_id, candidate_id, answer, answered_at)"
      " VALUES (:warning_id, :candidate_id, :answer, :answered_at)"
      " ON CONFLICT (warning_id, candidate_id) DO UPDATE SET answer = excluded.answer,"
      " answered_at = excluded.answered_at", error);
  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "warning_id", warning_id);
  bind_int (stmt, "candidate_id", candidate_id);
  if (!remove)
    {
      g_autofree char *now = answered_at == NULL ? procura_now_iso8601 () : NULL;

      bind_text (stmt, "answer", answer);
      bind_text (stmt, "answered_at", answered_at != NULL ? answered_at : now);
    }
  return step_done (store, stmt, error, "cannot save the answer");
}

gboolean
procura_store_answer_warning (ProcuraStore  *store,
                              const char    *warning_id,
                              gint64         candidate_id,
                              const char    *answer,
                              GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_warning_answer (store, warning_id, candidate_id, answer, NULL, error),
                 error);
}

/* ------------------------------------------------------------------------- */
/* Candidates                                                                 */

#define CANDIDATE_COLUMNS \
  "name, kind, gpu_name, gpus_per_replica, provider, pricing_model, region, engine, tp, pp," \
  " quote_id, price_per_gpu_hour, price_date, provisioning, billed_hours, target_utilization," \
  " capacity_override, interconnect, storage, network, serving_stack, observability," \
  " labor_hours, labor_rate, api_provider, api_model, input_tokens, cached_input_tokens," \
  " output_tokens, price_input_per_mtok, price_cached_per_mtok, price_output_per_mtok," \
  " gateway, rate_limit_rpm, notes, purchase_price_per_gpu, depreciation_years," \
  " power_per_gpu_hour, hosting_per_gpu_month"
#define CANDIDATE_VALUES \
  ":name, :kind, :gpu_name, :gpus_per_replica, :provider, :pricing_model, :region, :engine," \
  " :tp, :pp, :quote_id, :price_per_gpu_hour, :price_date, :provisioning, :billed_hours," \
  " :target_utilization, :capacity_override, :interconnect, :storage, :network," \
  " :serving_stack, :observability, :labor_hours, :labor_rate, :api_provider, :api_model," \
  " :input_tokens, :cached_input_tokens, :output_tokens, :price_input_per_mtok," \
  " :price_cached_per_mtok, :price_output_per_mtok, :gateway, :rate_limit_rpm, :notes," \
  " :purchase_price_per_gpu, :depreciation_years, :power_per_gpu_hour, :hosting_per_gpu_month"

static gboolean
validate_candidate (ProcuraStore            *store,
                    const ProcuraCandidate  *c,
                    GError                 **error)
{
  if (c->name == NULL || *c->name == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: a candidate needs a name", store->path);
      return FALSE;
    }
  if (c->kind < PROCURA_CANDIDATE_GPU || c->kind > PROCURA_CANDIDATE_HYBRID)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: candidate “%s”: unknown kind %d", store->path, c->name, (int) c->kind);
      return FALSE;
    }
  return TRUE;
}

static void
bind_candidate (sqlite3_stmt           *stmt,
                const ProcuraCandidate *c,
                gint64                  quote_id)
{
  bind_text (stmt, "name", c->name);
  bind_int (stmt, "kind", c->kind);
  bind_text (stmt, "gpu_name", c->gpu_name);
  bind_int (stmt, "gpus_per_replica", c->gpus_per_replica);
  bind_text (stmt, "provider", c->provider);
  bind_text (stmt, "pricing_model", c->pricing_model);
  bind_text (stmt, "region", c->region);
  bind_text (stmt, "engine", c->engine);
  bind_int (stmt, "tp", c->tp);
  bind_int (stmt, "pp", c->pp);
  bind_id (stmt, "quote_id", quote_id);
  bind_double (stmt, "price_per_gpu_hour", c->price_per_gpu_hour);
  bind_text (stmt, "price_date", c->price_date);
  bind_int (stmt, "provisioning", c->provisioning);
  bind_double (stmt, "billed_hours", c->billed_hours);
  bind_double (stmt, "target_utilization", c->target_utilization);
  bind_double (stmt, "capacity_override", c->capacity_override);
  bind_text (stmt, "interconnect", c->interconnect);
  bind_double (stmt, "storage", c->storage);
  bind_double (stmt, "network", c->network);
  bind_double (stmt, "serving_stack", c->serving_stack);
  bind_double (stmt, "observability", c->observability);
  bind_double (stmt, "labor_hours", c->labor_hours);
  bind_double (stmt, "labor_rate", c->labor_rate);
  bind_text (stmt, "api_provider", c->api_provider);
  bind_text (stmt, "api_model", c->api_model);
  bind_double (stmt, "input_tokens", c->input_tokens);
  bind_double (stmt, "cached_input_tokens", c->cached_input_tokens);
  bind_double (stmt, "output_tokens", c->output_tokens);
  bind_double (stmt, "price_input_per_mtok", c->price_input_per_mtok);
  bind_double (stmt, "price_cached_per_mtok", c->price_cached_per_mtok);
  bind_double (stmt, "price_output_per_mtok", c->price_output_per_mtok);
  bind_double (stmt, "gateway", c->gateway);
  bind_double (stmt, "rate_limit_rpm", c->rate_limit_rpm);
  bind_text (stmt, "notes", c->notes);
  bind_double (stmt, "purchase_price_per_gpu", c->purchase_price_per_gpu);
  bind_double (stmt, "depreciation_years", c->depreciation_years);
  bind_double (stmt, "power_per_gpu_hour", c->power_per_gpu_hour);
  bind_double (stmt, "hosting_per_gpu_month", c->hosting_per_gpu_month);
}

static gboolean
check_quote (ProcuraStore  *store,
             gint64         quote_id,
             GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (quote_id <= 0)
    return TRUE;
  stmt = prepare (store, "SELECT 1 FROM quotes WHERE id = :id", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", quote_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               "%s: no quote with id %" G_GINT64_FORMAT, store->path, quote_id);
  return FALSE;
}

static gboolean
name_taken (ProcuraStore  *store,
            const char    *name,
            gint64         except_id,
            GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "SELECT 1 FROM candidates WHERE name = :name AND deleted_by IS NULL AND id != :id", NULL);

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "name", name);
  bind_int (stmt, "id", except_id);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return FALSE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
               "%s: there is already a candidate called “%s”", store->path, name);
  return TRUE;
}

static gint64
insert_candidate (ProcuraStore            *store,
                  const ProcuraCandidate  *c,
                  gint64                   quote_id,
                  GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!validate_candidate (store, c, error)
      || name_taken (store, c->name, 0, error)
      || !check_quote (store, quote_id, error))
    return 0;
  stmt = prepare (store, "INSERT INTO candidates (" CANDIDATE_COLUMNS ") VALUES (" CANDIDATE_VALUES ")",
                  error);
  if (stmt == NULL)
    return 0;
  bind_candidate (stmt, c, quote_id);
  if (!step_done (store, stmt, error, "cannot add the candidate"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_candidate (ProcuraStore            *store,
                             const ProcuraCandidate  *candidate,
                             GError                 **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && candidate != NULL, 0);
  if (!begin (store, error))
    return 0;
  id = insert_candidate (store, candidate, candidate->quote_id, error);
  if (!finish (store, id > 0, error))
    return 0;
  return id;
}

gboolean
procura_store_update_candidate (ProcuraStore            *store,
                                const ProcuraCandidate  *c,
                                GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL && c != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  ok = check_candidate (store, c->id > 0 ? c->id : -1, error)
       && validate_candidate (store, c, error)
       && !name_taken (store, c->name, c->id, error)
       && check_quote (store, c->quote_id, error);
  if (ok)
    {
      stmt = prepare (store,
        "UPDATE candidates SET (" CANDIDATE_COLUMNS ") = (" CANDIDATE_VALUES ") WHERE id = :id",
        error);
      ok = stmt != NULL;
    }
  if (ok)
    {
      bind_candidate (stmt, c, c->quote_id);
      bind_int (stmt, "id", c->id);
      ok = step_done (store, stmt, error, "cannot save the candidate");
    }
  return finish (store, ok, error);
}

gint64
procura_store_find_candidate_by_name (ProcuraStore *store,
                                      const char   *name)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (store != NULL, 0);
  if (name == NULL)
    return 0;
  stmt = prepare (store, "SELECT id FROM candidates WHERE name = :name AND deleted_by IS NULL", NULL);
  if (stmt == NULL)
    return 0;
  bind_text (stmt, "name", name);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return 0;
  return sqlite3_column_int64 (stmt, 0);
}

static ProcuraCandidate *
read_candidate (sqlite3_stmt *stmt)
{
  ProcuraCandidate *c = procura_candidate_new ();

  c->id = col_int (stmt, "id", 0);
  c->name = col_text (stmt, "name");
  c->kind = (ProcuraCandidateKind) col_enum (stmt, "kind", PROCURA_CANDIDATE_HYBRID + 1);
  c->gpu_name = col_text (stmt, "gpu_name");
  c->gpus_per_replica = col_small (stmt, "gpus_per_replica", 1);
  c->provider = col_text (stmt, "provider");
  c->pricing_model = col_text (stmt, "pricing_model");
  c->region = col_text (stmt, "region");
  c->engine = col_text (stmt, "engine");
  c->tp = col_small (stmt, "tp", 1);
  c->pp = col_small (stmt, "pp", 1);
  c->quote_id = col_int (stmt, "quote_id", 0);
  c->price_per_gpu_hour = col_double (stmt, "price_per_gpu_hour");
  c->price_date = col_text (stmt, "price_date");
  c->provisioning = (ProcuraProvisioning) col_enum (stmt, "provisioning", PROCURA_PROVISION_AUTOSCALED + 1);
  c->billed_hours = col_double (stmt, "billed_hours");
  c->target_utilization = col_double (stmt, "target_utilization");
  c->capacity_override = col_double (stmt, "capacity_override");
  c->interconnect = col_text (stmt, "interconnect");
  c->storage = col_double (stmt, "storage");
  c->network = col_double (stmt, "network");
  c->serving_stack = col_double (stmt, "serving_stack");
  c->observability = col_double (stmt, "observability");
  c->labor_hours = col_double (stmt, "labor_hours");
  c->labor_rate = col_double (stmt, "labor_rate");
  c->api_provider = col_text (stmt, "api_provider");
  c->api_model = col_text (stmt, "api_model");
  c->input_tokens = col_double (stmt, "input_tokens");
  c->cached_input_tokens = col_double (stmt, "cached_input_tokens");
  c->output_tokens = col_double (stmt, "output_tokens");
  c->price_input_per_mtok = col_double (stmt, "price_input_per_mtok");
  c->price_cached_per_mtok = col_double (stmt, "price_cached_per_mtok");
  c->price_output_per_mtok = col_double (stmt, "price_output_per_mtok");
  c->gateway = col_double (stmt, "gateway");
  c->rate_limit_rpm = col_double (stmt, "rate_limit_rpm");
  c->notes = col_text (stmt, "notes");
  c->purchase_price_per_gpu = col_double (stmt, "purchase_price_per_gpu");
  c->depreciation_years = col_double (stmt, "depreciation_years");
  c->power_per_gpu_hour = col_double (stmt, "power_per_gpu_hour");
  c->hosting_per_gpu_month = col_double (stmt, "hosting_per_gpu_month");
  return c;
}

GPtrArray *
procura_store_list_candidates (ProcuraStore  *store,
                               GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_candidate_free);
  int rc;

  g_return_val_if_fail (store != NULL, NULL);
  stmt = prepare (store, "SELECT id, " CANDIDATE_COLUMNS " FROM candidates WHERE deleted_by IS NULL ORDER BY id",
                  error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (out, read_candidate (stmt));
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, "cannot read the candidates");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* ------------------------------------------------------------------------- */
/* Undoable deletion                                                          */

static gint64
new_undo_entry (ProcuraStore  *store,
                const char    *kind,
                gint64         target,
                gint64         decision_candidate,
                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT INTO undo_log (kind, target_id, decision_candidate_id, created)"
    " VALUES (:kind, :target, :decision, :created)", error);
  g_autofree char *now = procura_now_iso8601 ();

  if (stmt == NULL)
    return 0;
  bind_text (stmt, "kind", kind);
  bind_int (stmt, "target", target);
  bind_id (stmt, "decision", decision_candidate);
  bind_text (stmt, "created", now);
  if (!step_done (store, stmt, error, "cannot record the deletion"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
exec_with_ids (ProcuraStore  *store,
               const char    *sql,
               gint64         token,
               gint64         id,
               GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store, sql, error);

  if (stmt == NULL)
    return FALSE;
  if (param (stmt, "token") > 0)
    bind_int (stmt, "token", token);
  if (param (stmt, "id") > 0)
    bind_int (stmt, "id", id);
  return step_done (store, stmt, error, "cannot update the project");
}

gboolean
procura_store_delete_candidate (ProcuraStore  *store,
                                gint64         candidate_id,
                                gint64        *undo_token,
                                GError       **error)
{
  gint64 decided = 0, token = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  ok = check_candidate (store, candidate_id > 0 ? candidate_id : -1, error);
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = prepare (store, "SELECT candidate_id FROM decision WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_int64 (stmt, 0) == candidate_id)
        decided = candidate_id;
    }
  if (ok)
    ok = (token = new_undo_entry (store, "candidate", candidate_id, decided, error)) > 0;
  ok = ok
       && exec_with_ids (store, "UPDATE candidates SET deleted_by = :token WHERE id = :id", token, candidate_id, error)
       && exec_with_ids (store, "UPDATE runs SET deleted_by = :token WHERE candidate_id = :id AND deleted_by IS NULL",
                         token, candidate_id, error)
       /* a hybrid decision whose API route goes is no decision any more */
       && exec_with_ids (store, "UPDATE decision SET candidate_id = NULL, overflow_candidate_id = NULL"
                         " WHERE overflow_candidate_id = :id", 0, candidate_id, error)
       && exec_with_ids (store, "UPDATE decision SET candidate_id = NULL, overflow_candidate_id = NULL"
                         " WHERE candidate_id = :id", 0, candidate_id, error);
  if (!finish (store, ok, error))
    return FALSE;
  if (undo_token != NULL)
    *undo_token = token;
  return TRUE;
}

gboolean
procura_store_delete_run (ProcuraStore  *store,
                          gint64         run_id,
                          gint64        *undo_token,
                          GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 token = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  stmt = prepare (store, "SELECT 1 FROM runs WHERE id = :id AND deleted_by IS NULL", error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_int (stmt, "id", run_id);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
                       "%s: no run with id %" G_GINT64_FORMAT, store->path, run_id);
          ok = FALSE;
        }
    }
  if (ok)
    ok = (token = new_undo_entry (store, "run", run_id, 0, error)) > 0;
  ok = ok && exec_with_ids (store, "UPDATE runs SET deleted_by = :token WHERE id = :id", token, run_id, error);
  if (!finish (store, ok, error))
    return FALSE;
  if (undo_token != NULL)
    *undo_token = token;
  return TRUE;
}

gboolean
procura_store_undo (ProcuraStore  *store,
                    gint64         undo_token,
                    GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *kind = NULL;
  gint64 target = 0, decided = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  stmt = prepare (store, "SELECT kind, target_id, decision_candidate_id FROM undo_log WHERE id = :id", error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_int (stmt, "id", undo_token);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          kind = col_text (stmt, "kind");
          target = col_int (stmt, "target_id", 0);
          decided = col_int (stmt, "decision_candidate_id", 0);
        }
      else
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
                       "%s: nothing to undo (token %" G_GINT64_FORMAT " is unknown or was purged)",
                       store->path, undo_token);
          ok = FALSE;
        }
    }
  if (ok && g_strcmp0 (kind, "candidate") == 0)
    {
      g_autoptr (sqlite3_stmt) name = prepare (store, "SELECT name FROM candidates WHERE id = :id", error);

      ok = name != NULL;
      if (ok)
        {
          g_autofree char *n = NULL;

          bind_int (name, "id", target);
          if (sqlite3_step (name) == SQLITE_ROW)
            n = col_text (name, "name");
          if (n != NULL && name_taken (store, n, target, error))
            {
              g_prefix_error (error, "cannot undo the deletion: ");
              ok = FALSE;
            }
        }
    }
  ok = ok
       && exec_with_ids (store, "UPDATE candidates SET deleted_by = NULL WHERE deleted_by = :token", undo_token, 0, error)
       && exec_with_ids (store, "UPDATE runs SET deleted_by = NULL WHERE deleted_by = :token", undo_token, 0, error);
  if (ok && decided > 0)
    ok = exec_with_ids (store, "UPDATE decision SET candidate_id = :id WHERE id = 1 AND candidate_id IS NULL",
                        0, decided, error);
  ok = ok && exec_with_ids (store, "DELETE FROM undo_log WHERE id = :token", undo_token, 0, error);
  return finish (store, ok, error);
}

gboolean
procura_store_purge_deleted (ProcuraStore  *store,
                             GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store,
                 exec_sql (store->db, store->path,
                           "DELETE FROM runs WHERE deleted_by IS NOT NULL;"
                           "DELETE FROM warning_answers WHERE candidate_id IN"
                           " (SELECT id FROM candidates WHERE deleted_by IS NOT NULL);"
                           "DELETE FROM candidates WHERE deleted_by IS NOT NULL;"
                           "DELETE FROM undo_log;", error),
                 error);
}

/* ------------------------------------------------------------------------- */
/* Quotes                                                                     */

#define QUOTE_COLUMNS \
  "provenance_id, kind, provider, sku, gpu_name, gpu_id, gpu_count, price_per_hour, currency," \
  " pricing_model, term_months, min_commitment, region, seen_date, source, storage_per_gb_month," \
  " egress_per_gb, support_pct, setup_fee, notes, api_model, price_input_per_mtok," \
  " price_cached_per_mtok, price_output_per_mtok, rate_limit_rpm, rate_limit_tpm"
#define QUOTE_VALUES \
  ":provenance_id, :kind, :provider, :sku, :gpu_name, :gpu_id, :gpu_count, :price_per_hour," \
  " :currency, :pricing_model, :term_months, :min_commitment, :region, :seen_date, :source," \
  " :storage_per_gb_month, :egress_per_gb, :support_pct, :setup_fee, :notes, :api_model," \
  " :price_input_per_mtok, :price_cached_per_mtok, :price_output_per_mtok, :rate_limit_rpm," \
  " :rate_limit_tpm"

static void
bind_quote (sqlite3_stmt        *stmt,
            const ProcuraQuote  *q,
            gint64               provenance_id)
{
  bind_id (stmt, "provenance_id", provenance_id);
  bind_int (stmt, "kind", q->kind);
  bind_text (stmt, "provider", q->provider);
  bind_text (stmt, "sku", q->sku);
  bind_text (stmt, "gpu_name", q->gpu_name);
  bind_text (stmt, "gpu_id", q->gpu_id);
  bind_int (stmt, "gpu_count", q->gpu_count);
  bind_double (stmt, "price_per_hour", q->price_per_hour);
  bind_text (stmt, "currency", q->currency);
  bind_text (stmt, "pricing_model", q->pricing_model);
  bind_double (stmt, "term_months", q->term_months);
  bind_double (stmt, "min_commitment", q->min_commitment);
  bind_text (stmt, "region", q->region);
  bind_text (stmt, "seen_date", q->seen_date);
  bind_text (stmt, "source", q->source);
  bind_double (stmt, "storage_per_gb_month", q->storage_per_gb_month);
  bind_double (stmt, "egress_per_gb", q->egress_per_gb);
  bind_double (stmt, "support_pct", q->support_pct);
  bind_double (stmt, "setup_fee", q->setup_fee);
  bind_text (stmt, "notes", q->notes);
  bind_text (stmt, "api_model", q->api_model);
  bind_double (stmt, "price_input_per_mtok", q->price_input_per_mtok);
  bind_double (stmt, "price_cached_per_mtok", q->price_cached_per_mtok);
  bind_double (stmt, "price_output_per_mtok", q->price_output_per_mtok);
  bind_double (stmt, "rate_limit_rpm", q->rate_limit_rpm);
  bind_double (stmt, "rate_limit_tpm", q->rate_limit_tpm);
}

static gboolean
validate_quote (ProcuraStore        *store,
                const ProcuraQuote  *q,
                GError             **error)
{
  if (q->kind != PROCURA_QUOTE_GPU && q->kind != PROCURA_QUOTE_API)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: quote: unknown kind %d", store->path, (int) q->kind);
      return FALSE;
    }
  return TRUE;
}

static gint64
insert_quote (ProcuraStore        *store,
              const ProcuraQuote  *q,
              gint64               provenance_id,
              GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!validate_quote (store, q, error))
    return 0;
  stmt = prepare (store, "INSERT INTO quotes (" QUOTE_COLUMNS ") VALUES (" QUOTE_VALUES ")", error);
  if (stmt == NULL)
    return 0;
  bind_quote (stmt, q, provenance_id);
  if (!step_done (store, stmt, error, "cannot add the quote"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
check_provenance (ProcuraStore  *store,
                  gint64         id,
                  GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (id <= 0)
    return TRUE;
  stmt = prepare (store, "SELECT 1 FROM provenance WHERE id = :id", error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               "%s: no provenance record with id %" G_GINT64_FORMAT, store->path, id);
  return FALSE;
}

gint64
procura_store_add_quote (ProcuraStore        *store,
                         const ProcuraQuote  *quote,
                         GError             **error)
{
  gint64 id = 0;

  g_return_val_if_fail (store != NULL && quote != NULL, 0);
  if (!begin (store, error))
    return 0;
  if (check_provenance (store, quote->provenance_id, error))
    id = insert_quote (store, quote, quote->provenance_id, error);
  if (!finish (store, id > 0, error))
    return 0;
  return id;
}

static gboolean
check_changed_one (ProcuraStore  *store,
                   const char    *what,
                   gint64         id,
                   GError       **error)
{
  if (sqlite3_changes (store->db) == 1)
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               "%s: no %s with id %" G_GINT64_FORMAT, store->path, what, id);
  return FALSE;
}

gboolean
procura_store_update_quote (ProcuraStore        *store,
                            const ProcuraQuote  *q,
                            GError             **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL && q != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  ok = validate_quote (store, q, error) && check_provenance (store, q->provenance_id, error);
  if (ok)
    ok = (stmt = prepare (store, "UPDATE quotes SET (" QUOTE_COLUMNS ") = (" QUOTE_VALUES ") WHERE id = :id",
                          error)) != NULL;
  if (ok)
    {
      bind_quote (stmt, q, q->provenance_id);
      bind_int (stmt, "id", q->id);
      ok = step_done (store, stmt, error, "cannot save the quote")
           && check_changed_one (store, "quote", q->id, error);
    }
  return finish (store, ok, error);
}

static gboolean
delete_row (ProcuraStore  *store,
            const char    *table,
            const char    *what,
            gint64         id,
            GError       **error)
{
  g_autofree char *sql = g_strdup_printf ("DELETE FROM %s WHERE id = :id", table);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  if (!begin (store, error))
    return FALSE;
  ok = (stmt = prepare (store, sql, error)) != NULL;
  if (ok)
    {
      bind_int (stmt, "id", id);
      ok = step_done (store, stmt, error, "cannot delete")
           && check_changed_one (store, what, id, error);
    }
  return finish (store, ok, error);
}

gboolean
procura_store_delete_quote (ProcuraStore  *store,
                            gint64         quote_id,
                            GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return delete_row (store, "quotes", "quote", quote_id, error);
}

/* ------------------------------------------------------------------------- */
/* Ops tests and checklist                                                    */

static gboolean check_ops_test_values (ProcuraStore          *store,
                                       const ProcuraOpsTest  *t,
                                       GError               **error);

static gint64
write_ops_test (ProcuraStore          *store,
                const ProcuraOpsTest  *t,
                gint64                 candidate_id,
                gboolean               update,
                GError               **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (t->kind == NULL || *t->kind == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: an operations test needs a kind (e.g. “kill-worker”)", store->path);
      return 0;
    }
  if (!check_ops_test_values (store, t, error) || !check_candidate (store, candidate_id, error))
    return 0;
  stmt = prepare (store, update
    ? "UPDATE ops_tests SET candidate_id = :candidate_id, kind = :kind, result = :result,"
      " recovery_s = :recovery_s, failed_requests = :failed_requests, per_month = :per_month,"
      " notes = :notes WHERE id = :id"
    : "INSERT INTO ops_tests (candidate_id, kind, result, recovery_s, failed_requests, per_month, notes)"
      " VALUES (:candidate_id, :kind, :result, :recovery_s, :failed_requests, :per_month, :notes)",
    error);
  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_text (stmt, "kind", t->kind);
  bind_text (stmt, "result", t->result);
  bind_double (stmt, "recovery_s", t->recovery_s);
  bind_double (stmt, "failed_requests", t->failed_requests);
  bind_double (stmt, "per_month", t->per_month);
  bind_text (stmt, "notes", t->notes);
  if (update)
    bind_int (stmt, "id", t->id);
  if (!step_done (store, stmt, error, "cannot save the operations test"))
    return 0;
  if (update)
    return check_changed_one (store, "operations test", t->id, error) ? t->id : 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_ops_test (ProcuraStore          *store,
                            const ProcuraOpsTest  *test,
                            GError               **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && test != NULL, 0);
  if (!begin (store, error))
    return 0;
  id = write_ops_test (store, test, test->candidate_id, FALSE, error);
  return finish (store, id > 0, error) ? id : 0;
}

gboolean
procura_store_update_ops_test (ProcuraStore          *store,
                               const ProcuraOpsTest  *test,
                               GError               **error)
{
  g_return_val_if_fail (store != NULL && test != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_ops_test (store, test, test->candidate_id, TRUE, error) > 0, error);
}

gboolean
procura_store_delete_ops_test (ProcuraStore  *store,
                               gint64         id,
                               GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return delete_row (store, "ops_tests", "operations test", id, error);
}

static gint64
write_checklist_item (ProcuraStore                *store,
                      const ProcuraChecklistItem  *i,
                      gint64                       candidate_id,
                      gboolean                     update,
                      GError                     **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (i->item == NULL || *i->item == '\0')
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: a checklist answer needs the question (item)", store->path);
      return 0;
    }
  if (!check_candidate (store, candidate_id, error))
    return 0;
  stmt = prepare (store, update
    ? "UPDATE checklist SET candidate_id = :candidate_id, section = :section, item = :item,"
      " answer = :answer, evidence = :evidence, evidence_file = :evidence_file WHERE id = :id"
    : "INSERT INTO checklist (candidate_id, section, item, answer, evidence, evidence_file)"
      " VALUES (:candidate_id, :section, :item, :answer, :evidence, :evidence_file)",
    error);
  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_text (stmt, "section", i->section);
  bind_text (stmt, "item", i->item);
  bind_text (stmt, "answer", i->answer);
  bind_text (stmt, "evidence", i->evidence);
  bind_text (stmt, "evidence_file", i->evidence_file);
  if (update)
    bind_int (stmt, "id", i->id);
  if (!step_done (store, stmt, error, "cannot save the checklist answer"))
    return 0;
  if (update)
    return check_changed_one (store, "checklist answer", i->id, error) ? i->id : 0;
  return sqlite3_last_insert_rowid (store->db);
}

gint64
procura_store_add_checklist_item (ProcuraStore                *store,
                                  const ProcuraChecklistItem  *item,
                                  GError                     **error)
{
  gint64 id;

  g_return_val_if_fail (store != NULL && item != NULL, 0);
  if (!begin (store, error))
    return 0;
  id = write_checklist_item (store, item, item->candidate_id, FALSE, error);
  return finish (store, id > 0, error) ? id : 0;
}

gboolean
procura_store_update_checklist_item (ProcuraStore                *store,
                                     const ProcuraChecklistItem  *item,
                                     GError                     **error)
{
  g_return_val_if_fail (store != NULL && item != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  return finish (store, write_checklist_item (store, item, item->candidate_id, TRUE, error) > 0, error);
}

gboolean
procura_store_delete_checklist_item (ProcuraStore  *store,
                                     gint64         id,
                                     GError       **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return delete_row (store, "checklist", "checklist answer", id, error);
}

/* ------------------------------------------------------------------------- */
/* Imports                                                                    */

static gint64
insert_provenance (ProcuraStore             *store,
                   const ProcuraProvenance  *p,
                   GError                  **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT INTO provenance (file_name, size, sha256, importer, format_version, imported_at)"
    " VALUES (:file_name, :size, :sha256, :importer, :format_version, :imported_at)", error);
  g_autofree char *now = NULL;

  if (stmt == NULL)
    return 0;
  if (p->imported_at == NULL)
    now = procura_now_iso8601 ();
  bind_text (stmt, "file_name", p->file_name);
  bind_int (stmt, "size", p->size);
  bind_text (stmt, "sha256", p->sha256);
  bind_text (stmt, "importer", p->importer);
  bind_text (stmt, "format_version", p->format_version);
  bind_text (stmt, "imported_at", p->imported_at != NULL ? p->imported_at : now);
  if (!step_done (store, stmt, error, "cannot record the provenance"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gboolean
insert_samples (ProcuraStore          *store,
                gint64                 run_id,
                const ProcuraSamples  *s,
                GError               **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  g_autoptr (GBytes) bytes = NULL;
#endif
  gsize len;
  gconstpointer data;

  if (s->metric == NULL || (s->values == NULL && s->n > 0))
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: samples without a metric name or values", store->path);
      return FALSE;
    }
  if (s->n > (gsize) STORE_MAX_LENGTH / 8)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: too many samples of “%s” in one run (%" G_GSIZE_FORMAT ", at most %d)",
                   store->path, s->metric, s->n, STORE_MAX_LENGTH / 8);
      return FALSE;
    }
  stmt = prepare (store, "INSERT INTO run_samples (run_id, metric, n, data) VALUES (:run, :metric, :n, :data)",
                  error);
  if (stmt == NULL)
    return FALSE;
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  data = s->n > 0 ? (gconstpointer) s->values : (gconstpointer) "";
  len = s->n * sizeof (double);
#else
  bytes = procura_samples_encode (s->values, s->n);
  data = g_bytes_get_data (bytes, &len);
  if (data == NULL)
    data = "";
#endif
  bind_int (stmt, "run", run_id);
  bind_text (stmt, "metric", s->metric);
  bind_int (stmt, "n", (gint64) s->n);
  sqlite3_bind_blob64 (stmt, param (stmt, "data"), data, len, SQLITE_STATIC);
  return step_done (store, stmt, error, "cannot store the samples");
}

#define RUN_COLUMNS \
  "candidate_id, provenance_id, label, format, format_version, model, engine, engine_version," \
  " gpu_name, gpu_count, tp, pp, dp, load_type, load_value, input_len, output_len, duration_s," \
  " completed, failed, request_throughput, output_throughput, total_throughput," \
  " input_tokens_mean, output_tokens_mean, warnings, extras_json"
#define RUN_VALUES \
  ":candidate_id, :provenance_id, :label, :format, :format_version, :model, :engine," \
  " :engine_version, :gpu_name, :gpu_count, :tp, :pp, :dp, :load_type, :load_value, :input_len," \
  " :output_len, :duration_s, :completed, :failed, :request_throughput, :output_throughput," \
  " :total_throughput, :input_tokens_mean, :output_tokens_mean, :warnings, :extras_json"

static gint64
insert_run (ProcuraStore      *store,
            const ProcuraRun  *r,
            gint64             candidate_id,
            gint64             provenance_id,
            GError           **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (sqlite3_stmt) stat = NULL;
  g_autofree char *warnings = NULL;
  gint64 id;

  stmt = prepare (store, "INSERT INTO runs (" RUN_COLUMNS ") VALUES (" RUN_VALUES ")", error);
  if (stmt == NULL)
    return 0;
  warnings = strv_to_json (r->warnings);
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "label", r->label);
  bind_text (stmt, "format", r->format);
  bind_text (stmt, "format_version", r->format_version);
  bind_text (stmt, "model", r->scenario.model);
  bind_text (stmt, "engine", r->scenario.engine);
  bind_text (stmt, "engine_version", r->scenario.engine_version);
  bind_text (stmt, "gpu_name", r->scenario.gpu_name);
  bind_int (stmt, "gpu_count", r->scenario.gpu_count);
  bind_int (stmt, "tp", r->scenario.tp);
  bind_int (stmt, "pp", r->scenario.pp);
  bind_int (stmt, "dp", r->scenario.dp);
  bind_text (stmt, "load_type", r->scenario.load_type);
  bind_double (stmt, "load_value", r->scenario.load_value);
  bind_double (stmt, "input_len", r->scenario.input_len);
  bind_double (stmt, "output_len", r->scenario.output_len);
  bind_double (stmt, "duration_s", r->duration_s);
  bind_int (stmt, "completed", r->completed);
  bind_int (stmt, "failed", r->failed);
  bind_double (stmt, "request_throughput", r->request_throughput);
  bind_double (stmt, "output_throughput", r->output_throughput);
  bind_double (stmt, "total_throughput", r->total_throughput);
  bind_double (stmt, "input_tokens_mean", r->input_tokens_mean);
  bind_double (stmt, "output_tokens_mean", r->output_tokens_mean);
  bind_text (stmt, "warnings", warnings);
  bind_text (stmt, "extras_json", r->extras_json);
  if (!step_done (store, stmt, error, "cannot store the run"))
    return 0;
  id = sqlite3_last_insert_rowid (store->db);

  if (r->stats->len > 0)
    {
      stat = prepare (store,
        "INSERT OR REPLACE INTO run_stats (run_id, metric, stat, source, value, samples)"
        " VALUES (:run, :metric, :stat, :source, :value, :samples)", error);
      if (stat == NULL)
        return 0;
      for (guint i = 0; i < r->stats->len; i++)
        {
          const ProcuraStat *s = g_ptr_array_index (r->stats, i);

          if (s->metric == NULL || s->stat == NULL)
            continue;
          sqlite3_reset (stat);
          bind_int (stat, "run", id);
          bind_text (stat, "metric", s->metric);
          bind_text (stat, "stat", s->stat);
          bind_int (stat, "source", s->source);
          bind_double (stat, "value", s->value);
          bind_int (stat, "samples", s->samples);
          if (!step_done (store, stat, error, "cannot store a statistic"))
            return 0;
        }
    }
  for (guint i = 0; i < r->samples->len; i++)
    if (!insert_samples (store, id, g_ptr_array_index (r->samples, i), error))
      return 0;
  return id;
}

static gint64
insert_model_shape (ProcuraStore             *store,
                    const ProcuraModelShape  *m,
                    gint64                    provenance_id,
                    GError                  **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT INTO model_shapes (provenance_id, model_id, architecture, num_layers, hidden_size,"
    " intermediate_size, moe_intermediate_size, num_experts, num_shared_experts, experts_per_token,"
    " first_dense_layers, num_attention_heads, num_kv_heads, head_dim, vocab_size,"
    " tie_word_embeddings, sliding_window, layer_is_sliding, kv_lora_rank, q_lora_rank,"
    " qk_rope_head_dim, qk_nope_head_dim, v_head_dim, weights_dtype, quant_group_size,"
    " published_params) VALUES (:provenance_id, :model_id, :architecture, :num_layers,"
    " :hidden_size, :intermediate_size, :moe_intermediate_size, :num_experts,"
    " :num_shared_experts, :experts_per_token, :first_dense_layers, :num_attention_heads,"
    " :num_kv_heads, :head_dim, :vocab_size, :tie_word_embeddings, :sliding_window,"
    " :layer_is_sliding, :kv_lora_rank, :q_lora_rank, :qk_rope_head_dim, :qk_nope_head_dim,"
    " :v_head_dim, :weights_dtype, :quant_group_size, :published_params)", error);

  if (stmt == NULL)
    return 0;
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "model_id", m->id);
  bind_text (stmt, "architecture", m->architecture);
  bind_int (stmt, "num_layers", m->num_layers);
  bind_int (stmt, "hidden_size", m->hidden_size);
  bind_int (stmt, "intermediate_size", m->intermediate_size);
  bind_int (stmt, "moe_intermediate_size", m->moe_intermediate_size);
  bind_int (stmt, "num_experts", m->num_experts);
  bind_int (stmt, "num_shared_experts", m->num_shared_experts);
  bind_int (stmt, "experts_per_token", m->experts_per_token);
  bind_int (stmt, "first_dense_layers", m->first_dense_layers);
  bind_int (stmt, "num_attention_heads", m->num_attention_heads);
  bind_int (stmt, "num_kv_heads", m->num_kv_heads);
  bind_int (stmt, "head_dim", m->head_dim);
  bind_int (stmt, "vocab_size", m->vocab_size);
  bind_int (stmt, "tie_word_embeddings", m->tie_word_embeddings ? 1 : 0);
  bind_int (stmt, "sliding_window", m->sliding_window);
  if (m->layer_is_sliding != NULL && m->num_layers > 0)
    sqlite3_bind_blob (stmt, param (stmt, "layer_is_sliding"), m->layer_is_sliding, m->num_layers,
                       SQLITE_STATIC);
  bind_int (stmt, "kv_lora_rank", m->kv_lora_rank);
  bind_int (stmt, "q_lora_rank", m->q_lora_rank);
  bind_int (stmt, "qk_rope_head_dim", m->qk_rope_head_dim);
  bind_int (stmt, "qk_nope_head_dim", m->qk_nope_head_dim);
  bind_int (stmt, "v_head_dim", m->v_head_dim);
  bind_text (stmt, "weights_dtype", m->weights_dtype);
  bind_int (stmt, "quant_group_size", m->quant_group_size);
  bind_double (stmt, "published_params", m->published_params);
  if (!step_done (store, stmt, error, "cannot store the model shape"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gint64
insert_engine_log (ProcuraStore            *store,
                   const ProcuraEngineLog  *l,
                   gint64                   candidate_id,
                   gint64                   provenance_id,
                   GError                 **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT INTO engine_logs (candidate_id, provenance_id, engine, engine_version, model, gpu_name,"
    " tp, pp, gpu_memory_utilization, mem_fraction_static, max_model_len, block_size, kv_dtype,"
    " weights_gib, kv_available_gib, kv_tokens, max_concurrency, cuda_graph_gib, errors)"
    " VALUES (:candidate_id, :provenance_id, :engine, :engine_version, :model, :gpu_name, :tp,"
    " :pp, :gpu_memory_utilization, :mem_fraction_static, :max_model_len, :block_size,"
    " :kv_dtype, :weights_gib, :kv_available_gib, :kv_tokens, :max_concurrency,"
    " :cuda_graph_gib, :errors)", error);
  g_autofree char *errors = NULL;

  if (stmt == NULL)
    return 0;
  errors = strv_to_json (l->errors);
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "engine", l->engine);
  bind_text (stmt, "engine_version", l->engine_version);
  bind_text (stmt, "model", l->model);
  bind_text (stmt, "gpu_name", l->gpu_name);
  bind_int (stmt, "tp", l->tp);
  bind_int (stmt, "pp", l->pp);
  bind_double (stmt, "gpu_memory_utilization", l->gpu_memory_utilization);
  bind_double (stmt, "mem_fraction_static", l->mem_fraction_static);
  bind_int (stmt, "max_model_len", l->max_model_len);
  bind_int (stmt, "block_size", l->block_size);
  bind_text (stmt, "kv_dtype", l->kv_dtype);
  bind_double (stmt, "weights_gib", l->weights_gib);
  bind_double (stmt, "kv_available_gib", l->kv_available_gib);
  bind_int (stmt, "kv_tokens", l->kv_tokens);
  bind_double (stmt, "max_concurrency", l->max_concurrency);
  bind_double (stmt, "cuda_graph_gib", l->cuda_graph_gib);
  bind_text (stmt, "errors", errors);
  if (!step_done (store, stmt, error, "cannot store the engine log"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

static gint64
insert_probe_result (ProcuraStore              *store,
                     const ProcuraProbeResult  *r,
                     gint64                     candidate_id,
                     gint64                     provenance_id,
                     GError                   **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store,
    "INSERT INTO probe_results (candidate_id, provenance_id, device_name, test, fits, total_bytes,"
    " free_bytes, headroom_bytes, bandwidth_gbps, json, measured_at) VALUES (:candidate_id,"
    " :provenance_id, :device_name, :test, :fits, :total_bytes, :free_bytes, :headroom_bytes,"
    " :bandwidth_gbps, :json, :measured_at)", error);

  if (stmt == NULL)
    return 0;
  bind_id (stmt, "candidate_id", candidate_id);
  bind_id (stmt, "provenance_id", provenance_id);
  bind_text (stmt, "device_name", r->device_name);
  bind_text (stmt, "test", r->test);
  bind_int (stmt, "fits", r->fits ? 1 : 0);
  bind_double (stmt, "total_bytes", r->total_bytes);
  bind_double (stmt, "free_bytes", r->free_bytes);
  bind_double (stmt, "headroom_bytes", r->headroom_bytes);
  bind_double (stmt, "bandwidth_gbps", r->bandwidth_gbps);
  bind_text (stmt, "json", r->json);
  bind_text (stmt, "measured_at", r->measured_at);
  if (!step_done (store, stmt, error, "cannot store the probe result"))
    return 0;
  return sqlite3_last_insert_rowid (store->db);
}

/* The rows of one import result, inside the caller's transaction; the new ids are
 * appended to @ids (written back by import_write_back() after the commit). */
static gboolean
import_rows (ProcuraStore         *store,
             ProcuraImportResult  *result,
             gint64                candidate_id,
             GArray               *ids,
             gint64               *prov_out,
             GError              **error)
{
  gint64 prov = 0;
  gboolean ok;

  ok = check_candidate (store, candidate_id, error);
  if (ok && result->provenance != NULL)
    ok = (prov = insert_provenance (store, result->provenance, error)) > 0;
  *prov_out = prov;

#define STORE_ALL(array, expr)                                  \
  for (guint i = 0; ok && (array) != NULL && i < (array)->len; i++) \
    {                                                           \
      gint64 id_ = (expr);                                      \
      ok = id_ > 0;                                             \
      g_array_append_val (ids, id_);                            \
    }
  STORE_ALL (result->quotes, insert_quote (store, g_ptr_array_index (result->quotes, i), prov, error));
  STORE_ALL (result->model_shapes, insert_model_shape (store, g_ptr_array_index (result->model_shapes, i), prov, error));
  STORE_ALL (result->engine_logs, insert_engine_log (store, g_ptr_array_index (result->engine_logs, i), candidate_id, prov, error));
  STORE_ALL (result->probe_results, insert_probe_result (store, g_ptr_array_index (result->probe_results, i), candidate_id, prov, error));
  STORE_ALL (result->runs, insert_run (store, g_ptr_array_index (result->runs, i), candidate_id, prov, error));
#undef STORE_ALL
  return ok;
}

static void
import_write_back (ProcuraImportResult *result,
                   gint64               candidate_id,
                   GArray              *ids,
                   gint64               prov)
{
  guint k = 0;

  if (result->provenance != NULL)
    result->provenance->id = prov;
  for (guint i = 0; result->quotes != NULL && i < result->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (result->quotes, i);
      q->id = g_array_index (ids, gint64, k++);
      q->provenance_id = prov;
    }
  k += result->model_shapes != NULL ? result->model_shapes->len : 0;
  for (guint i = 0; result->engine_logs != NULL && i < result->engine_logs->len; i++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (result->engine_logs, i);
      l->id = g_array_index (ids, gint64, k++);
      l->candidate_id = candidate_id;
      l->provenance_id = prov;
    }
  for (guint i = 0; result->probe_results != NULL && i < result->probe_results->len; i++)
    {
      ProcuraProbeResult *r = g_ptr_array_index (result->probe_results, i);
      r->id = g_array_index (ids, gint64, k++);
      r->candidate_id = candidate_id;
      r->provenance_id = prov;
    }
  for (guint i = 0; result->runs != NULL && i < result->runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (result->runs, i);
      r->id = g_array_index (ids, gint64, k++);
      r->candidate_id = candidate_id;
    }
}

gboolean
procura_store_import (ProcuraStore         *store,
                      ProcuraImportResult  *result,
                      gint64                candidate_id,
                      GError              **error)
{
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 prov = 0;
  gboolean ok;

  g_return_val_if_fail (store != NULL && result != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;

  /* Ids are written back only after the commit: collect them first. */
  ok = import_rows (store, result, candidate_id, ids, &prov, error);
  if (!finish (store, ok, error))
    {
      g_prefix_error (error, "nothing was imported: ");
      return FALSE;
    }
  import_write_back (result, candidate_id, ids, prov);
  return TRUE;
}

gboolean
procura_store_assign_run (ProcuraStore  *store,
                          gint64         run_id,
                          gint64         candidate_id,
                          GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (store != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;
  ok = check_candidate (store, candidate_id, error)
       && (stmt = prepare (store, "UPDATE runs SET candidate_id = :candidate WHERE id = :id AND deleted_by IS NULL",
                           error)) != NULL;
  if (ok)
    {
      bind_id (stmt, "candidate", candidate_id);
      bind_int (stmt, "id", run_id);
      ok = step_done (store, stmt, error, "cannot assign the run")
           && check_changed_one (store, "run", run_id, error);
    }
  return finish (store, ok, error);
}

/* ------------------------------------------------------------------------- */
/* Loading                                                                    */

typedef gpointer (*ReadRow) (ProcuraStore *store, sqlite3_stmt *stmt, GError **error);

static gboolean
load_rows (ProcuraStore  *store,
           const char    *sql,
           ReadRow        read,
           GPtrArray     *into,
           GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = prepare (store, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gpointer row = read (store, stmt, error);
      if (row == NULL)
        return FALSE;
      g_ptr_array_add (into, row);
    }
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, "cannot read the project");
      return FALSE;
    }
  return TRUE;
}

static gpointer
read_candidate_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  return read_candidate (stmt);
}

static gpointer
read_quote_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraQuote *q = procura_quote_new ();

  q->id = col_int (stmt, "id", 0);
  q->provenance_id = col_int (stmt, "provenance_id", 0);
  q->kind = (ProcuraQuoteKind) col_enum (stmt, "kind", PROCURA_QUOTE_API + 1);
  q->provider = col_text (stmt, "provider");
  q->sku = col_text (stmt, "sku");
  q->gpu_name = col_text (stmt, "gpu_name");
  q->gpu_id = col_text (stmt, "gpu_id");
  q->gpu_count = col_small (stmt, "gpu_count", 1);
  q->price_per_hour = col_double (stmt, "price_per_hour");
  g_free (q->currency);
  q->currency = col_text (stmt, "currency");
  q->pricing_model = col_text (stmt, "pricing_model");
  q->term_months = col_double (stmt, "term_months");
  q->min_commitment = col_double (stmt, "min_commitment");
  q->region = col_text (stmt, "region");
  q->seen_date = col_text (stmt, "seen_date");
  q->source = col_text (stmt, "source");
  q->storage_per_gb_month = col_double (stmt, "storage_per_gb_month");
  q->egress_per_gb = col_double (stmt, "egress_per_gb");
  q->support_pct = col_double (stmt, "support_pct");
  q->setup_fee = col_double (stmt, "setup_fee");
  q->notes = col_text (stmt, "notes");
  q->api_model = col_text (stmt, "api_model");
  q->price_input_per_mtok = col_double (stmt, "price_input_per_mtok");
  q->price_cached_per_mtok = col_double (stmt, "price_cached_per_mtok");
  q->price_output_per_mtok = col_double (stmt, "price_output_per_mtok");
  q->rate_limit_rpm = col_double (stmt, "rate_limit_rpm");
  q->rate_limit_tpm = col_double (stmt, "rate_limit_tpm");
  return q;
}

static gpointer
read_provenance_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraProvenance *p = procura_provenance_new ();

  p->id = col_int (stmt, "id", 0);
  p->file_name = col_text (stmt, "file_name");
  p->size = col_count (stmt, "size");
  p->sha256 = col_text (stmt, "sha256");
  p->importer = col_text (stmt, "importer");
  p->format_version = col_text (stmt, "format_version");
  p->imported_at = col_text (stmt, "imported_at");
  return p;
}

static gpointer
read_run_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraRun *r = procura_run_new ();
  g_autofree char *warnings = NULL;

  r->id = col_int (stmt, "id", 0);
  r->candidate_id = col_int (stmt, "candidate_id", 0);
  r->label = col_text (stmt, "label");
  r->format = col_text (stmt, "format");
  r->format_version = col_text (stmt, "format_version");
  r->scenario.model = col_text (stmt, "model");
  r->scenario.engine = col_text (stmt, "engine");
  r->scenario.engine_version = col_text (stmt, "engine_version");
  r->scenario.gpu_name = col_text (stmt, "gpu_name");
  r->scenario.gpu_count = col_small (stmt, "gpu_count", -1);
  r->scenario.tp = col_small (stmt, "tp", -1);
  r->scenario.pp = col_small (stmt, "pp", -1);
  r->scenario.dp = col_small (stmt, "dp", -1);
  r->scenario.load_type = col_text (stmt, "load_type");
  r->scenario.load_value = col_load_value (stmt, "load_value");
  r->scenario.input_len = col_double (stmt, "input_len");
  r->scenario.output_len = col_double (stmt, "output_len");
  r->duration_s = col_double (stmt, "duration_s");
  r->completed = col_count (stmt, "completed");
  r->failed = col_count (stmt, "failed");
  r->request_throughput = col_double (stmt, "request_throughput");
  r->output_throughput = col_double (stmt, "output_throughput");
  r->total_throughput = col_double (stmt, "total_throughput");
  r->input_tokens_mean = col_double (stmt, "input_tokens_mean");
  r->output_tokens_mean = col_double (stmt, "output_tokens_mean");
  warnings = col_text (stmt, "warnings");
  r->extras_json = col_text (stmt, "extras_json");
  /* earlier versions stored json-glib's "1e+20.0" here */
  if (r->extras_json != NULL)
    procura_json_fix_numbers (r->extras_json);
  if (!json_to_strv (store, "runs", "warnings", r->id, warnings, r->warnings, error)
      || !check_json_column (store, "runs", "extras_json", r->id, r->extras_json, FALSE, error))
    {
      procura_run_free (r);
      return NULL;
    }
  if (col_int (stmt, "provenance_id", 0) > 0)
    {
      r->provenance = procura_provenance_new ();
      r->provenance->id = col_int (stmt, "provenance_id", 0);
      r->provenance->file_name = col_text (stmt, "p_file_name");
      r->provenance->size = col_count (stmt, "p_size");
      r->provenance->sha256 = col_text (stmt, "p_sha256");
      r->provenance->importer = col_text (stmt, "p_importer");
      r->provenance->format_version = col_text (stmt, "p_format_version");
      r->provenance->imported_at = col_text (stmt, "p_imported_at");
    }
  return r;
}

static gpointer
read_model_shape_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraModelShape *m = procura_model_shape_new ();
  int blob = col (stmt, "layer_is_sliding");

  m->id = col_text (stmt, "model_id");
  m->architecture = col_text (stmt, "architecture");
  m->num_layers = col_small (stmt, "num_layers", 0);
  m->hidden_size = col_small (stmt, "hidden_size", 0);
  m->intermediate_size = col_small (stmt, "intermediate_size", 0);
  m->moe_intermediate_size = col_small (stmt, "moe_intermediate_size", 0);
  m->num_experts = col_small (stmt, "num_experts", 0);
  m->num_shared_experts = col_small (stmt, "num_shared_experts", 0);
  m->experts_per_token = col_small (stmt, "experts_per_token", 0);
  m->first_dense_layers = col_small (stmt, "first_dense_layers", 0);
  m->num_attention_heads = col_small (stmt, "num_attention_heads", 0);
  m->num_kv_heads = col_small (stmt, "num_kv_heads", 0);
  m->head_dim = col_small (stmt, "head_dim", 0);
  m->vocab_size = col_small (stmt, "vocab_size", 0);
  m->tie_word_embeddings = col_int (stmt, "tie_word_embeddings", 0) != 0;
  m->sliding_window = col_small (stmt, "sliding_window", 0);
  if (sqlite3_column_type (stmt, blob) == SQLITE_BLOB)
    {
      const void *data = sqlite3_column_blob (stmt, blob);
      int len = sqlite3_column_bytes (stmt, blob);

      if (m->num_layers < 0 || len != m->num_layers)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                       "%s: the project file is damaged: model shape “%s”: the sliding-window "
                       "layer pattern has %d entries for %d layers", store->path,
                       m->id != NULL ? m->id : "?", len, m->num_layers);
          procura_model_shape_free (m);
          return NULL;
        }
      if (len > 0)
        m->layer_is_sliding = g_memdup2 (data, (gsize) len);
    }
  m->kv_lora_rank = col_small (stmt, "kv_lora_rank", 0);
  m->q_lora_rank = col_small (stmt, "q_lora_rank", 0);
  m->qk_rope_head_dim = col_small (stmt, "qk_rope_head_dim", 0);
  m->qk_nope_head_dim = col_small (stmt, "qk_nope_head_dim", 0);
  m->v_head_dim = col_small (stmt, "v_head_dim", 0);
  m->weights_dtype = col_text (stmt, "weights_dtype");
  m->quant_group_size = col_small (stmt, "quant_group_size", 0);
  m->published_params = col_double (stmt, "published_params");
  return m;
}

static gpointer
read_engine_log_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraEngineLog *l = procura_engine_log_new ();
  g_autofree char *errors = NULL;

  l->id = col_int (stmt, "id", 0);
  l->candidate_id = col_int (stmt, "candidate_id", 0);
  l->provenance_id = col_int (stmt, "provenance_id", 0);
  l->engine = col_text (stmt, "engine");
  l->engine_version = col_text (stmt, "engine_version");
  l->model = col_text (stmt, "model");
  l->gpu_name = col_text (stmt, "gpu_name");
  l->tp = col_small (stmt, "tp", -1);
  l->pp = col_small (stmt, "pp", -1);
  l->gpu_memory_utilization = col_double (stmt, "gpu_memory_utilization");
  l->mem_fraction_static = col_double (stmt, "mem_fraction_static");
  l->max_model_len = col_count (stmt, "max_model_len");
  l->block_size = col_small (stmt, "block_size", -1);
  l->kv_dtype = col_text (stmt, "kv_dtype");
  l->weights_gib = col_double (stmt, "weights_gib");
  l->kv_available_gib = col_double (stmt, "kv_available_gib");
  l->kv_tokens = col_count (stmt, "kv_tokens");
  l->max_concurrency = col_double (stmt, "max_concurrency");
  l->cuda_graph_gib = col_double (stmt, "cuda_graph_gib");
  errors = col_text (stmt, "errors");
  if (!json_to_strv (store, "engine_logs", "errors", l->id, errors, l->errors, error))
    {
      procura_engine_log_free (l);
      return NULL;
    }
  return l;
}

static gpointer
read_probe_result_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraProbeResult *r = procura_probe_result_new ();

  r->id = col_int (stmt, "id", 0);
  r->candidate_id = col_int (stmt, "candidate_id", 0);
  r->provenance_id = col_int (stmt, "provenance_id", 0);
  r->device_name = col_text (stmt, "device_name");
  r->test = col_text (stmt, "test");
  r->fits = col_int (stmt, "fits", 0) != 0;
  r->total_bytes = col_double (stmt, "total_bytes");
  r->free_bytes = col_double (stmt, "free_bytes");
  r->headroom_bytes = col_double (stmt, "headroom_bytes");
  r->bandwidth_gbps = col_double (stmt, "bandwidth_gbps");
  r->json = col_text (stmt, "json");
  r->measured_at = col_text (stmt, "measured_at");
  if (!check_json_column (store, "probe_results", "json", r->id, r->json, TRUE, error))
    {
      procura_probe_result_free (r);
      return NULL;
    }
  return r;
}

static gpointer
read_ops_test_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraOpsTest *t = procura_ops_test_new ();

  t->id = col_int (stmt, "id", 0);
  t->candidate_id = col_int (stmt, "candidate_id", 0);
  t->kind = col_text (stmt, "kind");
  t->result = col_text (stmt, "result");
  t->recovery_s = col_double (stmt, "recovery_s");
  t->failed_requests = col_double (stmt, "failed_requests");
  t->per_month = col_double (stmt, "per_month");
  t->notes = col_text (stmt, "notes");
  return t;
}

static gpointer
read_warning_answer_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraWarningAnswer *a = procura_warning_answer_new ();

  a->id = col_int (stmt, "id", 0);
  a->warning_id = col_text (stmt, "warning_id");
  a->candidate_id = col_int (stmt, "candidate_id", 0);
  a->answer = col_text (stmt, "answer");
  a->answered_at = col_text (stmt, "answered_at");
  return a;
}

static gpointer
read_checklist_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraChecklistItem *i = procura_checklist_item_new ();

  i->id = col_int (stmt, "id", 0);
  i->candidate_id = col_int (stmt, "candidate_id", 0);
  i->section = col_text (stmt, "section");
  i->item = col_text (stmt, "item");
  i->answer = col_text (stmt, "answer");
  i->evidence = col_text (stmt, "evidence");
  i->evidence_file = col_text (stmt, "evidence_file");
  return i;
}

/* Rows of a live candidate, or of none. */
#define LIVE_CANDIDATE \
  " (candidate_id IS NULL OR candidate_id IN (SELECT id FROM candidates WHERE deleted_by IS NULL))"

#define RUN_SELECT \
  "SELECT r.*, p.file_name AS p_file_name, p.size AS p_size, p.sha256 AS p_sha256," \
  " p.importer AS p_importer, p.format_version AS p_format_version," \
  " p.imported_at AS p_imported_at" \
  " FROM runs r LEFT JOIN provenance p ON p.id = r.provenance_id"

static gboolean
load_stats (ProcuraStore  *store,
            GPtrArray     *runs,
            GError       **error)
{
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  if (runs->len == 0)
    return TRUE;
  for (guint i = 0; i < runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (runs, i);
      g_hash_table_insert (by_id, &r->id, r);
    }
  stmt = prepare (store, "SELECT run_id, metric, stat, source, value, samples FROM run_stats"
                         " ORDER BY run_id, metric, stat, source", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 run_id = sqlite3_column_int64 (stmt, 0);
      ProcuraRun *r = g_hash_table_lookup (by_id, &run_id);
      g_autofree char *metric = valid_text ((const char *) sqlite3_column_text (stmt, 1),
                                            sqlite3_column_bytes (stmt, 1));
      g_autofree char *stat = valid_text ((const char *) sqlite3_column_text (stmt, 2),
                                          sqlite3_column_bytes (stmt, 2));
      gint64 source = sqlite3_column_int64 (stmt, 3);

      if (r == NULL || metric == NULL || stat == NULL)
        continue;
      procura_run_add_stat (r, metric, stat, col_double (stmt, "value"),
                            source == PROCURA_SOURCE_RECOMPUTED ? PROCURA_SOURCE_RECOMPUTED
                                                                : PROCURA_SOURCE_AS_REPORTED,
                            col_count (stmt, "samples"));
    }
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, "cannot read the statistics");
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_samples_row (ProcuraStore  *store,
                  sqlite3_stmt  *stmt,
                  ProcuraRun    *run,
                  GError       **error)
{
  g_autofree char *metric = valid_text ((const char *) sqlite3_column_text (stmt, 1),
                                        sqlite3_column_bytes (stmt, 1));
  gint64 n = sqlite3_column_int64 (stmt, 2);
  const void *data = sqlite3_column_blob (stmt, 3);
  gint64 len = sqlite3_column_bytes (stmt, 3);
  double *values = NULL;
  gsize count = 0;

  if (metric == NULL || sqlite3_column_type (stmt, 3) != SQLITE_BLOB
      || n < 0 || n > G_MAXINT64 / 8 || len != n * 8
      || !procura_samples_decode (data, (gsize) len, &values, &count))
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: table “run_samples”, column “data”, run %"
                   G_GINT64_FORMAT ": samples of “%s” "
                   "hold %" G_GINT64_FORMAT " bytes for %" G_GINT64_FORMAT " values (8 bytes each "
                   "expected)", store->path, (gint64) sqlite3_column_int64 (stmt, 0),
                   metric != NULL ? metric : "?", len, n);
      return FALSE;
    }
  procura_run_take_samples (run, metric, values, count);
  return TRUE;
}

static gboolean
load_all_samples (ProcuraStore  *store,
                  GPtrArray     *runs,
                  GError       **error)
{
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  for (guint i = 0; i < runs->len; i++)
    {
      ProcuraRun *r = g_ptr_array_index (runs, i);
      g_hash_table_insert (by_id, &r->id, r);
    }
  stmt = prepare (store, "SELECT run_id, metric, n, data FROM run_samples ORDER BY run_id, id", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 run_id = sqlite3_column_int64 (stmt, 0);
      ProcuraRun *r = g_hash_table_lookup (by_id, &run_id);

      if (r != NULL && !read_samples_row (store, stmt, r, error))
        return FALSE;
    }
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, "cannot read the samples");
      return FALSE;
    }
  return TRUE;
}

gboolean
procura_store_load_samples (ProcuraStore  *store,
                            gint64         run_id,
                            ProcuraRun    *run,
                            GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (store != NULL && run != NULL, FALSE);
  stmt = prepare (store, "SELECT run_id, metric, n, data FROM run_samples WHERE run_id = :id ORDER BY id",
                  error);
  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", run_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (!read_samples_row (store, stmt, run, error))
      return FALSE;
  if (rc != SQLITE_DONE)
    {
      store_error (store, error, "cannot read the samples");
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
procura_store_list_runs (ProcuraStore      *store,
                         ProcuraStoreLoad   flags,
                         GError           **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_run_free);

  g_return_val_if_fail (store != NULL, NULL);
  if (!load_rows (store, RUN_SELECT " WHERE r.deleted_by IS NULL AND" LIVE_CANDIDATE " ORDER BY r.id",
                  read_run_row, runs, error)
      || !load_stats (store, runs, error)
      || ((flags & PROCURA_STORE_LOAD_WITH_SAMPLES) && !load_all_samples (store, runs, error)))
    return NULL;
  return g_steal_pointer (&runs);
}

ProcuraProject *
procura_store_load_project (ProcuraStore      *store,
                            ProcuraStoreLoad   flags,
                            GError           **error)
{
  g_autoptr (ProcuraProject) p = procura_project_new ();
  g_autoptr (GPtrArray) runs = NULL;
  gboolean ok = TRUE;
  gboolean found = FALSE;

  g_return_val_if_fail (store != NULL, NULL);

  /* One read transaction: a consistent snapshot even while another process writes. */
  if (sqlite3_exec (store->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, "cannot read the project");
      return NULL;
    }

  {
    g_autoptr (sqlite3_stmt) stmt = prepare (store, "SELECT * FROM project WHERE id = 1", error);
    ok = stmt != NULL;
    if (ok && sqlite3_step (stmt) == SQLITE_ROW)
      {
        found = TRUE;
        g_free (p->title);
        p->title = col_text (stmt, "title");
        p->created = col_text (stmt, "created");
        p->modified = col_text (stmt, "modified");
        p->illustrative = col_int (stmt, "illustrative", 0) != 0;
      }
  }
  if (ok && !found)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   "%s: the project file is damaged: it has no project record", store->path);
      ok = FALSE;
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = prepare (store, "SELECT * FROM brief WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraBrief *b = p->brief;
          g_free (b->workload_type);
          b->workload_type = col_text (stmt, "workload_type");
          g_free (b->model_shape);
          b->model_shape = col_text (stmt, "model_shape");
          b->input_tokens = col_double (stmt, "input_tokens");
          b->output_tokens = col_double (stmt, "output_tokens");
          b->context_tokens = col_double (stmt, "context_tokens");
          b->concurrency = col_double (stmt, "concurrency");
          g_free (b->success_unit);
          b->success_unit = col_text (stmt, "success_unit");
          g_free (b->slo_metric);
          b->slo_metric = col_text (stmt, "slo_metric");
          b->slo_percentile = col_double (stmt, "slo_percentile");
          b->slo_threshold_ms = col_double (stmt, "slo_threshold_ms");
          g_free (b->duty_cycle);
          b->duty_cycle = col_text (stmt, "duty_cycle");
          g_free (b->operating_boundary);
          b->operating_boundary = col_text (stmt, "operating_boundary");
          g_free (b->tooling);
          b->tooling = col_text (stmt, "tooling");
          b->demand_average = col_double (stmt, "demand_average");
          b->demand_peak = col_double (stmt, "demand_peak");
          b->window_hours = col_double (stmt, "window_hours");
          b->input_tokens_mean = col_double (stmt, "input_tokens_mean");
          b->output_tokens_mean = col_double (stmt, "output_tokens_mean");
          b->storage_gb = col_double (stmt, "storage_gb");
          b->egress_gb = col_double (stmt, "egress_gb");
        }
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = prepare (store, "SELECT * FROM assumptions WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraAssumptions *a = &p->assumptions;
          a->acceptance_rate = col_double (stmt, "acceptance_rate");
          a->retry_rate = col_double (stmt, "retry_rate");
          a->failure_rate = col_double (stmt, "failure_rate");
          a->headroom = col_double (stmt, "headroom");
          a->stale_days = col_double (stmt, "stale_days");
          if (sqlite3_column_type (stmt, col (stmt, "currency")) != SQLITE_NULL)
            {
              g_free (a->currency);
              a->currency = col_text (stmt, "currency");
            }
        }
    }
  if (ok)
    {
      g_autoptr (sqlite3_stmt) stmt = prepare (store, "SELECT * FROM decision WHERE id = 1", error);
      ok = stmt != NULL;
      if (ok && sqlite3_step (stmt) == SQLITE_ROW)
        {
          ProcuraDecision *d = &p->decision;
          procura_decision_clear (d);
          d->candidate_id = col_int (stmt, "candidate_id", 0);
          d->overflow_candidate_id = col_int (stmt, "overflow_candidate_id", 0);
          d->rationale = col_text (stmt, "rationale");
          d->approver = col_text (stmt, "approver");
          d->date = col_text (stmt, "date");
        }
    }

  ok = ok
    && load_rows (store, "SELECT * FROM candidates WHERE deleted_by IS NULL ORDER BY id",
                  read_candidate_row, p->candidates, error)
    && load_rows (store, "SELECT * FROM quotes ORDER BY id", read_quote_row, p->quotes, error)
    && load_rows (store, "SELECT * FROM provenance ORDER BY id", read_provenance_row, p->provenance, error)
    && load_rows (store, "SELECT * FROM model_shapes ORDER BY id", read_model_shape_row, p->model_shapes, error)
    && load_rows (store, "SELECT * FROM engine_logs WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_engine_log_row, p->engine_logs, error)
    && load_rows (store, "SELECT * FROM probe_results WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_probe_result_row, p->probe_results, error)
    && load_rows (store, "SELECT * FROM ops_tests WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_ops_test_row, p->ops_tests, error)
    && load_rows (store, "SELECT * FROM checklist WHERE" LIVE_CANDIDATE " ORDER BY id",
                  read_checklist_row, p->checklist, error)
    && load_rows (store, "SELECT * FROM warning_answers WHERE (candidate_id = 0 OR candidate_id IN"
                         " (SELECT id FROM candidates WHERE deleted_by IS NULL)) ORDER BY id",
                  read_warning_answer_row, p->warning_answers, error);
  if (ok)
    {
      runs = procura_store_list_runs (store, flags, error);
      ok = runs != NULL;
    }

  sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  if (!ok)
    return NULL;

  procura_store_probe_split_failures (p);
  g_ptr_array_extend_and_steal (p->runs, g_steal_pointer (&runs));
  return g_steal_pointer (&p);
}

/* ------------------------------------------------------------------------- */
/* Saving a whole project (the demo)                                          */

static gint64
map_id (GHashTable *map,
        gint64      old_id)
{
  gpointer v;

  if (old_id <= 0)
    return 0;
  v = g_hash_table_lookup (map, &old_id);
  return v != NULL ? *(gint64 *) v : -1;
}

static void
map_put (GHashTable *map,
         gint64      old_id,
         gint64      new_id)
{
  gint64 *k = g_new (gint64, 1);
  gint64 *v = g_new (gint64, 1);

  *k = old_id;
  *v = new_id;
  g_hash_table_replace (map, k, v);
}

static gboolean
mapped (ProcuraStore  *store,
        GHashTable    *map,
        gint64         old_id,
        const char    *what,
        gint64        *out,
        GError       **error)
{
  gint64 id = map_id (map, old_id);

  if (id < 0)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                   "%s: the project refers to %s %" G_GINT64_FORMAT " that it does not hold",
                   store->path, what, old_id);
      return FALSE;
    }
  *out = id;
  return TRUE;
}

gboolean
procura_store_save_project (ProcuraStore          *store,
                            const ProcuraProject  *p,
                            GError               **error)
{
  g_autoptr (GHashTable) cands = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) quotes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) provs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  ProcuraDecision decision = { 0 };
  gboolean ok;

  g_return_val_if_fail (store != NULL && p != NULL, FALSE);
  if (!begin (store, error))
    return FALSE;

  ok = (stmt = prepare (store, "UPDATE project SET title = :title, created = :created,"
                               " illustrative = :illustrative WHERE id = 1", error)) != NULL;
  if (ok)
    {
      g_autofree char *now = procura_now_iso8601 ();

      bind_text (stmt, "title", p->title != NULL ? p->title : "Untitled");
      bind_text (stmt, "created", p->created != NULL ? p->created : now);
      bind_int (stmt, "illustrative", p->illustrative ? 1 : 0);
      ok = step_done (store, stmt, error, "cannot save the project");
    }
  if (ok && p->brief != NULL)
    ok = write_brief (store, p->brief, error);
  ok = ok && write_assumptions (store, &p->assumptions, error);

  for (guint i = 0; ok && i < p->provenance->len; i++)
    {
      const ProcuraProvenance *pr = g_ptr_array_index (p->provenance, i);
      gint64 id = insert_provenance (store, pr, error);
      ok = id > 0;
      if (ok && pr->id > 0)
        map_put (provs, pr->id, id);
    }
  for (guint i = 0; ok && i < p->quotes->len; i++)
    {
      const ProcuraQuote *q = g_ptr_array_index (p->quotes, i);
      gint64 prov = 0, id = 0;

      ok = mapped (store, provs, q->provenance_id, "provenance record", &prov, error)
           && (id = insert_quote (store, q, prov, error)) > 0;
      if (ok && q->id > 0)
        map_put (quotes, q->id, id);
    }
  for (guint i = 0; ok && i < p->candidates->len; i++)
    {
      const ProcuraCandidate *c = g_ptr_array_index (p->candidates, i);
      gint64 quote = 0, id = 0;

      ok = mapped (store, quotes, c->quote_id, "quote", &quote, error)
           && (id = insert_candidate (store, c, quote, error)) > 0;
      if (ok && c->id > 0)
        map_put (cands, c->id, id);
    }
  for (guint i = 0; ok && i < p->model_shapes->len; i++)
    ok = insert_model_shape (store, g_ptr_array_index (p->model_shapes, i), 0, error) > 0;
  for (guint i = 0; ok && i < p->engine_logs->len; i++)
    {
      const ProcuraEngineLog *l = g_ptr_array_index (p->engine_logs, i);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, l->candidate_id, "candidate", &cand, error)
           && mapped (store, provs, l->provenance_id, "provenance record", &prov, error)
           && insert_engine_log (store, l, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->probe_results->len + p->probe_failures->len; i++)
    {
      /* the fleet's failed nodes are rows of probe_results too */
      const ProcuraProbeResult *r = i < p->probe_results->len
        ? g_ptr_array_index (p->probe_results, i)
        : g_ptr_array_index (p->probe_failures, i - p->probe_results->len);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, r->candidate_id, "candidate", &cand, error)
           && mapped (store, provs, r->provenance_id, "provenance record", &prov, error)
           && insert_probe_result (store, r, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->runs->len; i++)
    {
      const ProcuraRun *r = g_ptr_array_index (p->runs, i);
      gint64 cand = 0, prov = 0;

      ok = mapped (store, cands, r->candidate_id, "candidate", &cand, error);
      if (ok && r->provenance != NULL)
        {
          prov = map_id (provs, r->provenance->id);
          if (prov < 0 || r->provenance->id <= 0)
            {
              ok = (prov = insert_provenance (store, r->provenance, error)) > 0;
              if (ok && r->provenance->id > 0)
                map_put (provs, r->provenance->id, prov);
            }
        }
      ok = ok && insert_run (store, r, cand, prov, error) > 0;
    }
  for (guint i = 0; ok && i < p->ops_tests->len; i++)
    {
      const ProcuraOpsTest *t = g_ptr_array_index (p->ops_tests, i);
      gint64 cand = 0;

      ok = mapped (store, cands, t->candidate_id, "candidate", &cand, error)
           && write_ops_test (store, t, cand, FALSE, error) > 0;
    }
  for (guint i = 0; ok && i < p->checklist->len; i++)
    {
      const ProcuraChecklistItem *it = g_ptr_array_index (p->checklist, i);
      gint64 cand = 0;

      ok = mapped (store, cands, it->candidate_id, "candidate", &cand, error)
           && write_checklist_item (store, it, cand, FALSE, error) > 0;
    }
  for (guint i = 0; ok && p->warning_answers != NULL && i < p->warning_answers->len; i++)
    {
      const ProcuraWarningAnswer *a = g_ptr_array_index (p->warning_answers, i);
      gint64 cand = 0;

      ok = mapped (store, cands, a->candidate_id, "candidate", &cand, error)
           && write_warning_answer (store, a->warning_id, cand, a->answer, a->answered_at, error);
    }
  if (ok)
    {
      decision = p->decision;
      ok = mapped (store, cands, p->decision.candidate_id, "candidate", &decision.candidate_id, error)
           && mapped (store, cands, p->decision.overflow_candidate_id, "candidate",
                      &decision.overflow_candidate_id, error)
           && write_decision (store, &decision, error);
    }

  if (!ok)
    {
      rollback (store);
      return FALSE;
    }
  /* `modified` is the project's own (the demo is reproducible). */
  {
    g_autoptr (sqlite3_stmt) mod = prepare (store, "UPDATE project SET modified = :m WHERE id = 1", error);
    g_autofree char *now = procura_now_iso8601 ();

    ok = mod != NULL;
    if (ok)
      {
        bind_text (mod, "m", p->modified != NULL ? p->modified : now);
        ok = step_done (store, mod, error, "cannot save the project");
      }
  }
  if (!ok || !commit (store, error))
    {
      rollback (store);
      return FALSE;
    }
  return TRUE;
}

gboolean
procura_store_replace_project (ProcuraStore          *store,
                               const ProcuraProject  *project,
                               GError               **error)
{
  gboolean ok;

  g_return_val_if_fail (store != NULL && project != NULL, FALSE);
  if (!procura_store_begin_batch (store, error))
    return FALSE;
  ok = exec_sql (store->db, store->path,
                 "DELETE FROM decision; DELETE FROM warning_answers; DELETE FROM run_samples;"
                 " DELETE FROM run_stats; DELETE FROM runs; DELETE FROM engine_logs;"
                 " DELETE FROM probe_results; DELETE FROM ops_tests; DELETE FROM checklist;"
                 " DELETE FROM candidates; DELETE FROM quotes;"
                 " DELETE FROM provenance; DELETE FROM undo_log; DELETE FROM brief;"
                 " DELETE FROM assumptions", error)
       && procura_store_save_project (store, project, error);
  return procura_store_end_batch (store, ok, error) && ok;
}

/* ------------------------------------------------------------------------- */
/* Operations test values                                                     */

static gboolean
check_ops_test_values (ProcuraStore          *store,
                       const ProcuraOpsTest  *t,
                       GError               **error)
{
  const struct { const char *column; double value; } values[] = {
    { "recovery_s", t->recovery_s },
    { "failed_requests", t->failed_requests },
    { "per_month", t->per_month },
  };

  /* NAN is "not measured"; anything else is a measurement: finite and not negative. */
  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    if (!isnan (values[i].value) && (!isfinite (values[i].value) || values[i].value < 0))
      {
        g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_INVALID,
                     "%s: ops_tests.%s of the “%s” test must be a finite number ≥ 0 (or unknown), not %g",
                     store->path, values[i].column, t->kind, values[i].value);
        return FALSE;
      }
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Pending deletions                                                          */

void
procura_undo_entry_free (ProcuraUndoEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->kind);
  g_free (entry->name);
  g_free (entry->created);
  g_free (entry);
}

static gpointer
read_undo_entry_row (ProcuraStore *store, sqlite3_stmt *stmt, GError **error)
{
  ProcuraUndoEntry *e = g_new0 (ProcuraUndoEntry, 1);

  e->token = col_int (stmt, "id", 0);
  e->kind = col_text (stmt, "kind");
  e->target_id = col_int (stmt, "target_id", 0);
  e->name = col_text (stmt, "name");
  e->created = col_text (stmt, "created");
  e->n_runs = (guint) CLAMP (col_int (stmt, "n_runs", 0), 0, G_MAXUINT);
  return e;
}

GPtrArray *
procura_store_list_undo_entries (ProcuraStore  *store,
                                 GError       **error)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_undo_entry_free);

  g_return_val_if_fail (store != NULL, NULL);
  /* Only entries whose rows are still deleted by them: those an undo brings back. */
  if (!load_rows (store,
                  "SELECT u.id, u.kind, u.target_id, u.created,"
                  " CASE u.kind WHEN 'candidate' THEN (SELECT name FROM candidates WHERE id = u.target_id)"
                  "  ELSE (SELECT label FROM runs WHERE id = u.target_id) END AS name,"
                  " (SELECT count(*) FROM runs WHERE deleted_by = u.id) AS n_runs"
                  " FROM undo_log u"
                  " WHERE (u.kind = 'candidate' AND EXISTS"
                  "   (SELECT 1 FROM candidates c WHERE c.id = u.target_id AND c.deleted_by = u.id))"
                  "  OR (u.kind = 'run' AND EXISTS"
                  "   (SELECT 1 FROM runs r WHERE r.id = u.target_id AND r.deleted_by = u.id))"
                  " ORDER BY u.id",
                  read_undo_entry_row, entries, error))
    return NULL;
  return g_steal_pointer (&entries);
}

gboolean
procura_store_import_all (ProcuraStore            *store,
                          GPtrArray               *results,
                          gint64                   candidate_id,
                          const ProcuraCandidate  *new_candidate,
                          gint64                  *out_candidate_id,
                          GError                 **error)
{
  g_autoptr (GPtrArray) all_ids = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GArray) provs = g_array_new (FALSE, TRUE, sizeof (gint64));
  gboolean ok = TRUE;

  g_return_val_if_fail (store != NULL && results != NULL, FALSE);
  g_return_val_if_fail (new_candidate == NULL || candidate_id == 0, FALSE);
  if (!begin (store, error))
    return FALSE;
  if (new_candidate != NULL)
    {
      candidate_id = insert_candidate (store, new_candidate, new_candidate->quote_id, error);
      ok = candidate_id > 0;
    }
  for (guint f = 0; ok && f < results->len; f++)
    {
      ProcuraImportResult *result = g_ptr_array_index (results, f);
      GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      gint64 prov = 0;

      g_ptr_array_add (all_ids, ids);
      ok = import_rows (store, result, candidate_id, ids, &prov, error);
      g_array_append_val (provs, prov);
      if (!ok && result->provenance != NULL && result->provenance->file_name != NULL)
        g_prefix_error (error, "%s: ", result->provenance->file_name);
    }
  if (!finish (store, ok, error))
    {
      g_prefix_error (error, "nothing was imported: ");
      return FALSE;
    }
  for (guint f = 0; f < results->len; f++)
    import_write_back (g_ptr_array_index (results, f), candidate_id,
                       g_ptr_array_index (all_ids, f), g_array_index (provs, gint64, f));
  if (out_candidate_id != NULL)
    *out_candidate_id = candidate_id;
  return TRUE;
}

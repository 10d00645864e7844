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
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "procura-json.h"
#include "procura-json-out.h"
#include "procura-store-private.h"
#include "procura-store-probe.h"
#include "procura-store-snapshot.h"
#include "procura-store-schema.h"
#include "procura-store-signature.h"
#include "procura-util.h"

/* Bounds on what a (possibly hostile) file can make us allocate (and STORE_MAX_LENGTH in
 * procura-store-private.h). */
#define STORE_MAX_SQL_LENGTH (1024 * 1024)
#define STORE_MAX_COLUMNS    200
#define STORE_BUSY_TIMEOUT_MS 5000
#define STORE_PAGE_SIZE      65536  /* of new projects */
#define STORE_BULK_BYTES     (1 << 20)   /* writes from this size go through a rollback journal */

/* A byte range of the database file that SQLite never locks (its own locks live at
 * 0x40000000..0x400001FF); an open-file-description lock there marks the writer. */
#define STORE_LOCK_OFFSET    (G_GINT64_CONSTANT (0x40000000) - 4096)

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
               "%s: %s: %s", path != NULL ? path : _("project"), what,
               db != NULL ? sqlite3_errmsg (db) : _("out of memory"));
}

void
store_error (ProcuraStore  *store,
             GError       **error,
             const char    *what)
{
  set_db_error (error, store->db, store->path, what);
}

gboolean
store_exec_sql (sqlite3     *db,
                const char  *path,
                const char  *sql,
                GError     **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      set_db_error (error, db, path, _("cannot run SQL"));
      return FALSE;
    }
  return TRUE;
}

sqlite3_stmt *
store_prepare (ProcuraStore  *store,
               const char    *sql,
               GError       **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      store_error (store, error, _("cannot prepare a statement"));
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

int
store_param (sqlite3_stmt *stmt,
             const char   *name)
{
  char key[64];

  g_snprintf (key, sizeof key, ":%s", name);
  return sqlite3_bind_parameter_index (stmt, key);
}

void
bind_text (sqlite3_stmt *stmt,
           const char   *name,
           const char   *value)
{
  int i = store_param (stmt, name);

  g_return_if_fail (i > 0);
  if (value == NULL)
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_text (stmt, i, value, -1, SQLITE_TRANSIENT);
}

void
bind_double (sqlite3_stmt *stmt,
             const char   *name,
             double        value)
{
  int i = store_param (stmt, name);

  g_return_if_fail (i > 0);
  /* NAN is "unknown": NULL in the file */
  if (isnan (value))
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_double (stmt, i, value);
}

void
bind_int (sqlite3_stmt *stmt,
          const char   *name,
          gint64        value)
{
  int i = store_param (stmt, name);

  g_return_if_fail (i > 0);
  sqlite3_bind_int64 (stmt, i, value);
}

/* 0 means "none": NULL in the file (a foreign key). */
void
bind_id (sqlite3_stmt *stmt,
         const char   *name,
         gint64        id)
{
  int i = store_param (stmt, name);

  g_return_if_fail (i > 0);
  if (id <= 0)
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_int64 (stmt, i, id);
}

int
store_col (sqlite3_stmt *stmt,
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
char *
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

char *
col_text (sqlite3_stmt *stmt,
          const char   *name)
{
  int i = store_col (stmt, name);
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

double
col_double (sqlite3_stmt *stmt,
            const char   *name)
{
  int i = store_col (stmt, name);
  double v;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NAN;
  v = sqlite3_column_double (stmt, i);
  return isfinite (v) && fabs (v) <= STORE_MAX_REAL ? v : NAN;
}

/* A load value: +Inf is a real one (all requests at once, "rate unlimited"). */
double
col_load_value (sqlite3_stmt *stmt,
                const char   *name)
{
  int i = store_col (stmt, name);

  if (sqlite3_column_type (stmt, i) != SQLITE_NULL && isinf (sqlite3_column_double (stmt, i))
      && sqlite3_column_double (stmt, i) > 0)
    return INFINITY;
  return col_double (stmt, name);
}

gint64
col_int (sqlite3_stmt *stmt,
         const char   *name,
         gint64        if_null)
{
  int i = store_col (stmt, name);

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return if_null;
  return sqlite3_column_int64 (stmt, i);
}

/* A small count or size (layers, GPUs, tp...): a value no real project holds (below -1,
 * above 2^24, or not an integer at all) is read as unknown (@if_null), so that a hostile
 * file cannot make later arithmetic on ints overflow. */
int
col_small (sqlite3_stmt *stmt,
           const char   *name,
           int           if_null)
{
  int i = store_col (stmt, name);
  gint64 v;

  if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    return if_null;
  v = sqlite3_column_int64 (stmt, i);
  if (v < -1 || v > (1 << 24))
    return if_null;
  return (int) v;
}

/* A count that may be large (requests, tokens, bytes): outside -1..2^53 it is unknown. */
gint64
col_count (sqlite3_stmt *stmt,
           const char   *name)
{
  int i = store_col (stmt, name);
  gint64 v;

  if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    return -1;
  v = sqlite3_column_int64 (stmt, i);
  return v >= -1 && v <= (G_GINT64_CONSTANT (1) << 53) ? v : -1;
}

/* An enumeration stored as an integer: out of 0..@n_values - 1 reads as 0. */
int
col_enum (sqlite3_stmt *stmt,
          const char   *name,
          int           n_values)
{
  gint64 v = col_int (stmt, name, 0);

  return v >= 0 && v < n_values ? (int) v : 0;
}

gboolean
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

char *
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
                   _("%s: the project file is damaged: %s"), store->path, local->message);
      return NULL;
    }
  return root;
}

gboolean
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
               _("%s: the project file is damaged: table “%s”, column “%s”, row %lld: expected a "
                 "JSON array of strings"), store->path, table, column, (long long) row_id);
  return FALSE;
}

/* A JSON column kept as text (runs.extras_json) or JSON Lines (probe_results.json):
 * checked now so that whoever parses it later gets a document the front door passed. */
gboolean
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
                           _("%s: the project file is damaged: %s"), store->path, local->message);
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

/* SQLite's memory: the C library's, with a header for the size SQLite asks back, and
 * large blocks advised onto huge pages (the record SQLite builds of a row holds a copy
 * of its sample BLOB: 200 MB for 25 M inter-token gaps). */
#define SQLITE_HEADER 16   /* keeps malloc's 16-byte alignment */

static void *
sqlite_malloc (int n)
{
  size_t size = (size_t) n + SQLITE_HEADER;
  /* from 4 MiB: a sample BLOB's record, not SQLite's page cache (20 pages in one block) */
  char *p = size >= (4 << 20) ? procura_memory_try_alloc_large (size) : malloc (size);

  if (p == NULL)
    return NULL;
  *(size_t *) p = (size_t) n;
  return p + SQLITE_HEADER;
}

static void
sqlite_free (void *mem)
{
  if (mem != NULL)
    free ((char *) mem - SQLITE_HEADER);
}

static int
sqlite_size (void *mem)
{
  return mem != NULL ? (int) *(size_t *) ((char *) mem - SQLITE_HEADER) : 0;
}

static void *
sqlite_realloc (void *mem,
                int   n)
{
  char *p;

  if (mem == NULL)
    return sqlite_malloc (n);
  p = realloc ((char *) mem - SQLITE_HEADER, (size_t) n + SQLITE_HEADER);
  if (p == NULL)
    return NULL;
  *(size_t *) p = (size_t) n;
  return p + SQLITE_HEADER;
}

static int
sqlite_roundup (int n)
{
  return (n + 7) & ~7;
}

static int
sqlite_init (void *data)
{
  return SQLITE_OK;
}

static void
sqlite_shutdown (void *data)
{
}

void
store_sqlite_setup (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      static const sqlite3_mem_methods methods = {
        sqlite_malloc, sqlite_free, sqlite_realloc, sqlite_size, sqlite_roundup,
        sqlite_init, sqlite_shutdown, NULL
      };

      /* SQLITE_MISUSE when SQLite is already in use in this process: its own then */
      (void) sqlite3_config (SQLITE_CONFIG_MALLOC, &methods);
      g_once_init_leave (&done, 1);
    }
}

static sqlite3 *
open_connection (const char  *path,
                 int          flags,
                 GError     **error)
{
  sqlite3 *db = NULL;
  int rc;

  store_sqlite_setup ();
  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      set_db_error (error, db, path, _("cannot open"));
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

static gboolean
apply_schema (sqlite3     *db,
              const char  *path,
              int          from,
              int          to,
              GError     **error)
{
  if (procura_store_schema_apply (db, from, to))
    return TRUE;
  set_db_error (error, db, path, _("cannot run SQL"));
  return FALSE;
}

/* The migrations end at the version this Procura writes. */
G_STATIC_ASSERT (PROCURA_STORE_SCHEMA_SIGNATURE_VERSION == PROCURA_STORE_SCHEMA_VERSION);

/* "missing index “runs_candidate” of table “runs”": names from the file made UTF-8. */
static char *
describe_object (gboolean     missing,
                 char       **f)
{
  g_autofree char *type = valid_text (f[0], -1);
  g_autofree char *name = valid_text (f[1], -1);
  g_autofree char *table = valid_text (f[2], -1);

  /* the type (index, trigger, view) is SQLite's word */
  if (g_str_equal (type, "table"))
    return missing ? g_strdup_printf (_("missing table “%s”"), name)
                   : g_strdup_printf (_("unexpected or altered table “%s”"), name);
  return missing ? g_strdup_printf (_("missing %s “%s” of table “%s”"), type, name, table)
                 /* TRANSLATORS: the first %s is SQLite's type of the object (index, trigger) */
                 : g_strdup_printf (_("unexpected or altered %s “%s” of table “%s”"), type, name, table);
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
          return describe_object (FALSE, f);
      }
  g_hash_table_remove_all (known);
  for (int i = 0; a[i] != NULL; i++)
    g_hash_table_add (known, a[i]);
  for (int i = 0; e[i] != NULL; i++)
    if (*e[i] != '\0' && !g_hash_table_contains (known, e[i]))
      {
        g_auto (GStrv) f = g_strsplit (e[i], "\x1f", 4);
        if (g_strv_length (f) >= 3)
          return describe_object (TRUE, f);
      }
  return g_strdup (_("schema differs"));
}

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* Reads the first 100 bytes: the SQLite header. */
/* The first 100 bytes of @path (its SQLite header) and its stat: how many were read,
 * or -1 with @error set where it cannot be opened or is no regular file. Opened without
 * blocking: a FIFO must not hang us. */
static ssize_t
read_header (const char  *path,
             guint8       header[100],
             struct stat *st,
             GError     **error)
{
  ssize_t got;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, PROCURA_STORE_ERROR,
                   saved == ENOENT ? PROCURA_STORE_ERROR_NOT_FOUND : PROCURA_STORE_ERROR_IO,
                   _("%s: cannot open: %s"), path, g_strerror (saved));
      return -1;
    }
  if (fstat (fd, st) != 0 || !S_ISREG (st->st_mode))
    {
      close (fd);
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT,
                   _("%s: not a Procura project: not a regular file"), path);
      return -1;
    }
  do
    got = pread (fd, header, 100, 0);
  while (got < 0 && errno == EINTR);
  close (fd);
  return MAX (got, 0);
}

static gboolean
check_header (const char  *path,
              GError     **error)
{
  static const char magic[16] = "SQLite format 3";
  guint8 header[100];
  struct stat st;
  ssize_t got = read_header (path, header, &st, error);

  if (got < 0)
    return FALSE;
  if (got < (ssize_t) sizeof header || memcmp (header, magic, 16) != 0)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_A_PROJECT,
                   _("%s: not a Procura project: not an SQLite database (%s)"), path,
                   got < (ssize_t) sizeof header ? _("shorter than a database header")
                                                 : _("wrong file signature"));
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
                     _("%s: the project file is damaged: it is truncated (%lld bytes, its header says %llu)"), path,
                     (long long) ((gint64) st.st_size), (unsigned long long) ((guint64) pages * page_size));
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
                   _("%s: cannot open: the name cannot be written as a URI"), path);
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
                   _("%s: not a Procura project: an SQLite database of another application "
                     "(application_id 0x%08x, expected 0x%08x)"), path,
                   (guint) (app_id & 0xffffffff), (guint) PROCURA_STORE_APPLICATION_ID);
      sqlite3_close (db);
      return 0;
    }
  if (version > PROCURA_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NEWER_SCHEMA,
                   _("%s: written by a newer version of Procura (project file version %lld, this "
                     "Procura reads up to %d): update Procura to open it"),
                   path, (long long) version, PROCURA_STORE_SCHEMA_VERSION);
      sqlite3_close (db);
      return 0;
    }
  if (version < 1)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   _("%s: the project file is damaged: it has no schema version (PRAGMA user_version is %lld)"),
                   path, (long long) version);
      sqlite3_close (db);
      return 0;
    }

  actual = procura_store_schema_signature (db);
  if (actual == NULL)
    {
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   _("%s: the project file is damaged: cannot read its schema: %s"),
                   path, sqlite3_errmsg (db));
      sqlite3_close (db);
      return 0;
    }
  /* The latest version's signature is made at build time (gen-schema-signature.c) from
   * the same SQL: a file that matches it needs no schema run in memory (about a third of
   * a short command's time). Any other file, or an SQLite that writes its schema's text
   * differently from the one of the build, is compared with the run in memory. */
  if (version != PROCURA_STORE_SCHEMA_SIGNATURE_VERSION
      || !g_str_equal (actual, PROCURA_STORE_SCHEMA_SIGNATURE))
    expected = procura_store_schema_expected ((int) version);
  else
    expected = g_strdup (PROCURA_STORE_SCHEMA_SIGNATURE);
  if (expected == NULL || !g_str_equal (expected, actual))
    {
      g_autofree char *diff = describe_schema_difference (expected != NULL ? expected : "",
                                                          actual);
      g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
                   _("%s: the project file is damaged or was altered: its schema is not that of a "
                     "version %lld project (%s)"), path, (long long) version, diff);
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
                   _("%s: the project file is damaged: integrity check failed: %s"),
                   path, problems->str);
      g_string_free (problems, TRUE);
      sqlite3_close (db);
      return 0;
    }

  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_DAMAGED,
               _("%s: the project file is damaged: %s"), path, sqlite3_errmsg (db));
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

static char *journal_mode_after (ProcuraStore *store,
                                 const char   *pragma);

void
procura_store_close (ProcuraStore *store)
{
  if (store == NULL)
    return;
  if (store->bulk_ready)
    g_free (journal_mode_after (store, "PRAGMA journal_mode = WAL"));   /* no write came */
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


gboolean
procura_store_open_writes_nothing (const char *path)
{
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  guint8 header[100];
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);
  if (stat (journal, &st) == 0 && st.st_size > 0)
    return FALSE;   /* a hot journal would be rolled back */
  /* SQLite's header: WAL mode (read and write versions 2), the schema version this
   * Procura writes as user_version (offset 60): nothing to switch or migrate */
  return read_header (path, header, &st, NULL) == (ssize_t) sizeof header
         && memcmp (header, "SQLite format 3", 16) == 0
         && header[18] == 2 && header[19] == 2
         && read_be32 (header + 60) == PROCURA_STORE_SCHEMA_VERSION;
}

/* A bulk write (store_begin_bulk(): a rollback journal) cut short by a crash or a kill
 * leaves a hot journal beside the file, and the file half written. SQLite rolls it back on
 * the first read of a read-write connection; the checks below read the file as immutable,
 * which ignores journals, so the rollback is done first, under the writer lock (without
 * it another Procura is writing and its journal is live, not hot). */
static void
roll_back_hot_journal (const char *path)
{
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  struct stat st;
  LockState lock;
  sqlite3 *db;
  int fd;

  if (stat (journal, &st) != 0 || st.st_size == 0 || !folder_writable (path))
    return;
  fd = take_lock (path, &lock);
  if (fd < 0)
    return;
  db = open_connection (path, SQLITE_OPEN_READWRITE, NULL);
  if (db != NULL)
    {
      sqlite3_exec (db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
      sqlite3_close (db);
    }
  close (fd);
}

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

  roll_back_hot_journal (path);
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
      store->read_only_reason = g_strdup (_("Opened read-only on request"));
    }
  else if (lock == LOCK_HELD)
    {
      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_LOCKED,
                       _("%s: the project is open in another Procura window or process"),
                       path);
          return NULL;
        }
      store->read_only = TRUE;
      store->read_only_reason =
        g_strdup (_("The project is open in another Procura window or process; "
                    "it was opened read-only"));
    }
  else if (lock == LOCK_NOT_WRITABLE)
    {
      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY,
                       _("%s: the file is not writable"), path);
          return NULL;
        }
      store->read_only = TRUE;
      store->read_only_reason = g_strdup (_("The file is not writable; it was opened read-only"));
    }
  else if (!folder_ok)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      if (flags & PROCURA_STORE_OPEN_WRITABLE)
        {
          g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_READ_ONLY,
                       _("%s: the folder %s is not writable (saving needs a journal beside the file)"),
                       path, dir);
          return NULL;
        }
      /* the lock stays ours while the store is open: no other Procura writes under
       * our immutable reads */
      store->read_only = TRUE;
      store->read_only_reason =
        g_strdup_printf (_("The folder %s is not writable (saving needs a journal beside the "
                           "file); the project was opened read-only"), dir);
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
              && !store_exec_sql (store->db, path, "PRAGMA query_only = 1", error))
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
              || !store_exec_sql (mem, path, "BEGIN", error)
              || !apply_schema (mem, path, version, PROCURA_STORE_SCHEMA_VERSION, error)
              || !store_exec_sql (mem, path, pragma, error)
              || !store_exec_sql (mem, path, "COMMIT; PRAGMA query_only = 1", error))
            {
              if (rc != SQLITE_DONE)
                set_db_error (error, mem, path, _("cannot read the project into memory"));
              g_prefix_error (error, _("cannot upgrade the project from version %d in memory: "), version);
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
  if (!store_exec_sql (store->db, path, "PRAGMA journal_mode = WAL", error)
      || !store_exec_sql (store->db, path, "PRAGMA synchronous = FULL", error)
      || !store_exec_sql (store->db, path, "PRAGMA foreign_keys = ON", error))
    return NULL;

  if (version < PROCURA_STORE_SCHEMA_VERSION)
    {
      g_autofree char *pragma = NULL;

      if (!store_begin (store, error))
        return NULL;
      pragma = g_strdup_printf ("PRAGMA user_version = %d", PROCURA_STORE_SCHEMA_VERSION);
      if (!apply_schema (store->db, path, version, PROCURA_STORE_SCHEMA_VERSION, error)
          || !store_exec_sql (store->db, path, pragma, error)
          || !store_commit (store, error))
        {
          store_rollback (store);
          g_prefix_error (error, _("cannot upgrade the project from version %d: "), version);
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
                   _("%s: a file of that name exists; Procura does not overwrite it"), path);
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
                   _("%s: cannot create a file in “%s”: %s"), path, dir, g_strerror (saved));
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
  /* 64 KiB pages (SQLite's largest; set before the first table): a run's sample BLOBs,
   * hundreds of MB for a large benchmark, go to the WAL and then into the file in large
   * sequential writes, a sixteenth of the system calls of 4 KiB pages (bench/import). The
   * price is an empty project of about 1.5 MB. Files made with other page sizes read the
   * same. */
  if (!store_exec_sql (db, path, "PRAGMA page_size = " G_STRINGIFY (STORE_PAGE_SIZE) ";"
                       " PRAGMA journal_mode = DELETE; PRAGMA foreign_keys = ON; BEGIN", error)
      || !apply_schema (db, path, 0, PROCURA_STORE_SCHEMA_VERSION, error)
      || !store_exec_sql (db, path, pragma, error))
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
      set_db_error (error, db, path, _("cannot write the project"));
      goto fail;
    }
  if (!store_exec_sql (db, path,
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
      g_autofree char *msg = saved == EEXIST
        ? g_strdup_printf (_("%s: a file of that name exists; Procura does not overwrite it"), path)
        : g_strdup_printf (_("%s: cannot create the project: %s"), path, g_strerror (saved));

      g_unlink (tmp);
      g_set_error (error, PROCURA_STORE_ERROR,
                   saved == EEXIST ? PROCURA_STORE_ERROR_INVALID : PROCURA_STORE_ERROR_IO,
                   "%s", msg);
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
                   _("%s: cannot change a project opened read-only (%s)"), store->path,
                   store->read_only_reason);
      return FALSE;
    }
  return TRUE;
}

gboolean
store_begin (ProcuraStore  *store,
             GError       **error)
{
  if (!check_writable (store, error))
    return FALSE;
  if (sqlite3_exec (store->db, store->in_batch ? "SAVEPOINT procura_write" : "BEGIN IMMEDIATE",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, _("cannot start a transaction"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
touch_modified (ProcuraStore  *store,
                GError       **error)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store, "UPDATE project SET modified = :now WHERE id = 1", error);
  g_autofree char *now = procura_now_iso8601 ();

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, "now", now);
  return step_done (store, stmt, error, _("cannot update the project"));
}

/* The journal mode the connection is in after running @pragma ("delete", "wal"), or NULL. */
static char *
journal_mode_after (ProcuraStore *store,
                    const char   *pragma)
{
  sqlite3_stmt *stmt = NULL;
  char *mode = NULL;

  if (sqlite3_prepare_v2 (store->db, pragma, -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_text (stmt, 0) != NULL)
    mode = g_ascii_strdown ((const char *) sqlite3_column_text (stmt, 0), -1);
  sqlite3_finalize (stmt);
  return mode;
}

/* A large write (a run's sample BLOBs, hundreds of MB) goes to the WAL and then again
 * into the file at the checkpoint. With a rollback journal the pages it appends are
 * written once, straight into the file: only the pages it changes are journaled
 * (bench/import). The switch needs the only connection to the file (SQLite refuses it
 * otherwise, and the write then goes through the WAL as any other); a crash leaves a
 * hot journal, which procura_store_open() rolls back before its checks. TRUE where the
 * connection is now in rollback mode. */
static gboolean
switch_to_rollback (ProcuraStore *store)
{
  g_autofree char *mode = journal_mode_after (store, "PRAGMA journal_mode = DELETE");
  gboolean done = mode != NULL && g_str_equal (mode, "delete");

  if (!done && mode != NULL && !g_str_equal (mode, "wal"))
    g_free (journal_mode_after (store, "PRAGMA journal_mode = WAL"));
  return done;
}

void
store_prepare_bulk (ProcuraStore *store,
                    guint64       bytes)
{
  if (store->read_only || store->in_batch || store->bulk_ready || bytes < STORE_BULK_BYTES)
    return;
  store->bulk_ready = switch_to_rollback (store);
}

gboolean
store_begin_bulk (ProcuraStore  *store,
                  guint64        bytes,
                  gboolean      *bulk,
                  GError       **error)
{
  *bulk = FALSE;
  if (!check_writable (store, error))
    return FALSE;
  if (store->bulk_ready && !store->in_batch)
    {
      /* procura_store_prepare_import_all () made the switch: this write ends it */
      store->bulk_ready = FALSE;
      *bulk = TRUE;
    }
  else if (!store->in_batch && bytes >= STORE_BULK_BYTES)
    *bulk = switch_to_rollback (store);
  if (store_begin (store, error))
    return TRUE;
  if (*bulk)
    g_free (journal_mode_after (store, "PRAGMA journal_mode = WAL"));
  *bulk = FALSE;
  return FALSE;
}

void
store_end_bulk (ProcuraStore *store,
                gboolean      bulk)
{
  /* back to the WAL the project is kept in; should that fail, the next open sets it */
  if (bulk)
    g_free (journal_mode_after (store, "PRAGMA journal_mode = WAL"));
}

gboolean
store_commit (ProcuraStore  *store,
              GError       **error)
{
  if (sqlite3_exec (store->db, store->in_batch ? "RELEASE procura_write" : "COMMIT",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      store_error (store, error, _("cannot commit"));
      return FALSE;
    }
  return TRUE;
}

void
store_rollback (ProcuraStore *store)
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
  if (!store_begin (store, error))
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
  if (keep && store_commit (store, error))
    return TRUE;
  store_rollback (store);
  return FALSE;
}

/* Commits after touching `modified`, or rolls back. */
gboolean
store_finish (ProcuraStore  *store,
              gboolean       ok,
              GError       **error)
{
  if (ok && touch_modified (store, error) && store_commit (store, error))
    return TRUE;
  store_rollback (store);
  return FALSE;
}

static gboolean
candidate_is_live (ProcuraStore *store,
                   gint64        id)
{
  g_autoptr (sqlite3_stmt) stmt = store_prepare (store,
    "SELECT 1 FROM candidates WHERE id = :id AND deleted_by IS NULL", NULL);

  if (stmt == NULL)
    return FALSE;
  bind_int (stmt, "id", id);
  return sqlite3_step (stmt) == SQLITE_ROW;
}

gboolean
check_candidate (ProcuraStore  *store,
                 gint64         id,
                 GError       **error)
{
  if (id == 0 || candidate_is_live (store, id))
    return TRUE;
  g_set_error (error, PROCURA_STORE_ERROR, PROCURA_STORE_ERROR_NOT_FOUND,
               _("%s: no candidate with id %lld"), store->path, (long long) id);
  return FALSE;
}


/* procura-fields.h: the settable fields of a project, one table-driven registry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every column of the project file that an analyst may set (in the app, with
 * `procura set`, or through `procura apply`) is one ProcuraField: the table and column
 * name as the project file spells them (docs/project-file.md), the type, the check of a
 * new value (range, choices, date), and where the value lives in the model structs of
 * procura-model.h. Adding a settable column is one line in procura-fields.c.
 *
 * Tables: the one-row tables `project` (ProcuraProject), `brief` (ProcuraBrief),
 * `assumptions` (ProcuraAssumptions), `decision` (ProcuraDecision), and the row tables
 * `candidate` (ProcuraCandidate), `quote` (ProcuraQuote), `checklist`
 * (ProcuraChecklistItem), `ops_test` (ProcuraOpsTest). The registry's table names are
 * singular, as keys spell them; procura_field_table_sql_name() gives the SQL table.
 *
 * Keys: `TABLE.COLUMN` for one-row tables, `TABLE.NAME.COLUMN` for row tables, where
 * NAME is the row's name (a candidate's name, a quote's SKU, a checklist item's text,
 * an ops test's kind) or its numeric id. Names may contain dots: the column is the text
 * after the last dot. A name shared by several rows is refused as ambiguous.
 *
 * Values are text as typed: numbers in the C locale, `null` (or an empty text) clears
 * a field that may be unknown. Plain C with GLib and json-glib; no store access.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_FIELD_TABLE_PROJECT = 0,
  PROCURA_FIELD_TABLE_BRIEF,
  PROCURA_FIELD_TABLE_ASSUMPTIONS,
  PROCURA_FIELD_TABLE_DECISION,
  PROCURA_FIELD_TABLE_CANDIDATE,
  PROCURA_FIELD_TABLE_QUOTE,
  PROCURA_FIELD_TABLE_CHECKLIST,
  PROCURA_FIELD_TABLE_OPS_TEST,
  PROCURA_FIELD_N_TABLES
} ProcuraFieldTable;

typedef enum {
  PROCURA_FIELD_TEXT,       /* char *; stripped; empty clears (NULL) */
  PROCURA_FIELD_CHOICE,     /* char *, one of @choices */
  PROCURA_FIELD_DATE,       /* char *, YYYY-MM-DD (a valid date, year >= 1900) */
  PROCURA_FIELD_CURRENCY,   /* char *, ISO 4217 code: three upper-case letters */
  PROCURA_FIELD_NUMBER,     /* double, NAN unknown */
  PROCURA_FIELD_INT,        /* int, -1 unknown; whole numbers only */
  PROCURA_FIELD_BOOL,       /* gboolean: true/false (also 1/0, yes/no) */
  PROCURA_FIELD_ENUM,       /* an int-sized C enum, spelled as @choices[value] */
  PROCURA_FIELD_CANDIDATE,  /* gint64 candidate id, 0 none; set by name or id */
  PROCURA_FIELD_QUOTE,      /* gint64 quote id, 0 none; set by id */
} ProcuraFieldType;

typedef enum {
  PROCURA_FIELD_REQUIRED = 1 << 0,  /* cannot be cleared (null) */
  PROCURA_FIELD_MIN_OPEN = 1 << 1,  /* value > min instead of >= min */
  PROCURA_FIELD_MAX_OPEN = 1 << 2,  /* value < max instead of <= max */
} ProcuraFieldFlags;

typedef struct {
  ProcuraFieldTable    table;
  const char          *column;    /* the column in the project file */
  ProcuraFieldType     type;
  gsize                offset;    /* of the member in the table's struct */
  double               min, max;  /* NUMBER and INT ranges (NAN: no bound) */
  guint                flags;     /* ProcuraFieldFlags */
  const char * const  *choices;   /* CHOICE and ENUM: NULL-terminated */
} ProcuraField;

/* The unit a NUMBER or INT field's value is in, for showing it (money: the project's
 * or the quote's currency). */
typedef enum {
  PROCURA_FIELD_UNIT_NONE = 0,
  PROCURA_FIELD_UNIT_MS,
  PROCURA_FIELD_UNIT_SECONDS,
  PROCURA_FIELD_UNIT_TOKENS,
  PROCURA_FIELD_UNIT_RPS,
  PROCURA_FIELD_UNIT_HOURS,
  PROCURA_FIELD_UNIT_DAYS,
  PROCURA_FIELD_UNIT_MONTHS,
  PROCURA_FIELD_UNIT_YEARS,
  PROCURA_FIELD_UNIT_GB,
  PROCURA_FIELD_UNIT_PERCENT,     /* already in percent (support_pct) */
  PROCURA_FIELD_UNIT_MONEY,
  PROCURA_FIELD_UNIT_PER_MINUTE,
} ProcuraFieldUnit;

/* Every settable field, in table order, then in the order of the table's columns. */
const ProcuraField *procura_fields                 (gsize *n_fields);
/* NULL when @table has no settable @column. */
const ProcuraField *procura_field_lookup           (ProcuraFieldTable  table,
                                                    const char        *column);

/* The unit of @field's value; PROCURA_FIELD_UNIT_NONE for plain numbers, ratios and
 * fields that are not numbers. */
ProcuraFieldUnit    procura_field_unit             (const ProcuraField *field);

/* "project", "brief", ..., "ops_test" (as keys spell them) and back (-1 unknown). */
const char         *procura_field_table_name       (ProcuraFieldTable  table);
int                 procura_field_table_from_name  (const char        *name);
/* The table in the project file: "project", "brief", ..., "candidates", "quotes",
 * "checklist", "ops_tests". */
const char         *procura_field_table_sql_name   (ProcuraFieldTable  table);
/* TRUE for candidate, quote, checklist and ops_test. */
gboolean            procura_field_table_has_rows   (ProcuraFieldTable  table);

/* The rows of a row table (borrowed: @project's own array), NULL for one-row tables. */
GPtrArray          *procura_field_table_rows       (ProcuraProject    *project,
                                                    ProcuraFieldTable  table);
/* The struct that holds the fields of a one-row table (e.g. project->brief), or @row
 * itself for a row table. NULL when @project has no brief. */
gpointer            procura_field_record           (ProcuraProject    *project,
                                                    ProcuraFieldTable  table,
                                                    gpointer           row);
/* A row's id and name (the NAME of keys; may be NULL). */
gint64              procura_field_row_id           (ProcuraFieldTable  table,
                                                    gconstpointer      row);
const char         *procura_field_row_name         (ProcuraFieldTable  table,
                                                    gconstpointer      row);
/* The NAME that addresses @row in keys: its name when no other row has it and it is
 * not a number, else its id. Free with g_free(). */
char               *procura_field_row_key_name     (ProcuraProject    *project,
                                                    ProcuraFieldTable  table,
                                                    gconstpointer      row);

/* Resolves a key to its field and record (see procura_field_record()). On failure sets
 * a G_IO_ERROR_INVALID_ARGUMENT error naming the key and what was expected. */
gboolean            procura_field_resolve          (ProcuraProject      *project,
                                                    const char          *key,
                                                    const ProcuraField **field,
                                                    gpointer            *record,
                                                    GError             **error);

/* What @field accepts, as one phrase: "a number >= 0", "one of ttft, tpot, itl, e2e".
 * Free with g_free(). */
char               *procura_field_describe         (const ProcuraField *field);

/* Checks @text (NULL or "null": clear) against @field and, when it passes, writes it into
 * @record. References resolve in @project. On failure sets an error "expected …, got …"
 * (the caller prefixes the key) and leaves @record as it was. */
gboolean            procura_field_set              (const ProcuraField  *field,
                                                    ProcuraProject      *project,
                                                    gpointer             record,
                                                    const char          *text,
                                                    GError             **error);
/* Same for a JSON value (as procura apply reads it): null clears, numbers for NUMBER and
 * INT, booleans for BOOL, strings for the others (a CANDIDATE by name or id). */
gboolean            procura_field_set_json         (const ProcuraField  *field,
                                                    ProcuraProject      *project,
                                                    gpointer             record,
                                                    JsonNode            *value,
                                                    GError             **error);

/* TRUE when the field of @record holds no value (NULL, NAN, -1, id 0). */
gboolean            procura_field_is_unset         (const ProcuraField  *field,
                                                    gconstpointer        record);
/* The value as `procura set` would take it back ("null" when unset; a candidate by its
 * key name). Free with g_free(). */
char               *procura_field_format           (const ProcuraField  *field,
                                                    ProcuraProject      *project,
                                                    gconstpointer        record);
/* Adds the value as member @member (NULL: @field->column) to @b (null when unset; a
 * candidate reference by name, a quote reference by id, an ENUM by its choice). */
void                procura_field_add_json         (const ProcuraField  *field,
                                                    ProcuraProject      *project,
                                                    gconstpointer        record,
                                                    const char          *member,
                                                    JsonBuilder         *b);

/* What choosing quote @q for candidate @c does (the app's quote row does the same):
 * links it and takes its price per GPU-hour, date, provider, pricing model, region and
 * GPU where the quote has them. */
void                procura_candidate_take_quote   (ProcuraCandidate   *c,
                                                    const ProcuraQuote *q);

G_END_DECLS

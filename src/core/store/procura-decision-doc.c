/* procura-decision-doc.c: the whole decision as one JSON document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "procura-decision-doc.h"
#include "procura-fields.h"
#include "procura-import.h"
#include "procura-json.h"
#include "procura-json-out.h"

/* ------------------------------------------------------------------------- */
/* Plain members of the imported tables (not settable, so not in the registry) */

typedef enum { P_STR, P_DBL, P_INT, P_I64, P_BOOL } PlainType;

typedef struct {
  const char *name;
  PlainType   type;
  gsize       offset;
} Plain;

#define RUN(m, t)  { #m, t, G_STRUCT_OFFSET (ProcuraRun, m) }
#define SCEN(m, t) { #m, t, G_STRUCT_OFFSET (ProcuraScenario, m) }
#define LOG(m, t)  { #m, t, G_STRUCT_OFFSET (ProcuraEngineLog, m) }
#define PROBE(m, t) { #m, t, G_STRUCT_OFFSET (ProcuraProbeResult, m) }
#define PROV(m, t) { #m, t, G_STRUCT_OFFSET (ProcuraProvenance, m) }
#define ANSWER(m, t) { #m, t, G_STRUCT_OFFSET (ProcuraWarningAnswer, m) }

static const Plain run_plain[] = {
  RUN (label, P_STR), RUN (format, P_STR), RUN (format_version, P_STR),
  RUN (duration_s, P_DBL), RUN (completed, P_I64), RUN (failed, P_I64),
  RUN (request_throughput, P_DBL), RUN (output_throughput, P_DBL), RUN (total_throughput, P_DBL),
  RUN (input_tokens_mean, P_DBL), RUN (output_tokens_mean, P_DBL), RUN (extras_json, P_STR),
  { NULL, 0, 0 }
};
static const Plain scenario_plain[] = {
  SCEN (model, P_STR), SCEN (engine, P_STR), SCEN (engine_version, P_STR), SCEN (gpu_name, P_STR),
  SCEN (gpu_count, P_INT), SCEN (tp, P_INT), SCEN (pp, P_INT), SCEN (dp, P_INT),
  SCEN (load_type, P_STR), SCEN (load_value, P_DBL), SCEN (input_len, P_DBL), SCEN (output_len, P_DBL),
  { NULL, 0, 0 }
};
static const Plain log_plain[] = {
  LOG (engine, P_STR), LOG (engine_version, P_STR), LOG (model, P_STR), LOG (gpu_name, P_STR),
  LOG (tp, P_INT), LOG (pp, P_INT), LOG (gpu_memory_utilization, P_DBL),
  LOG (mem_fraction_static, P_DBL), LOG (max_model_len, P_I64), LOG (block_size, P_INT),
  LOG (kv_dtype, P_STR), LOG (weights_gib, P_DBL), LOG (kv_available_gib, P_DBL),
  LOG (kv_tokens, P_I64), LOG (max_concurrency, P_DBL), LOG (cuda_graph_gib, P_DBL),
  { NULL, 0, 0 }
};
static const Plain probe_plain[] = {
  PROBE (device_name, P_STR), PROBE (test, P_STR), PROBE (fits, P_BOOL), PROBE (total_bytes, P_DBL),
  PROBE (free_bytes, P_DBL), PROBE (headroom_bytes, P_DBL), PROBE (bandwidth_gbps, P_DBL),
  PROBE (json, P_STR), PROBE (measured_at, P_STR),
  { NULL, 0, 0 }
};
static const Plain provenance_plain[] = {
  PROV (file_name, P_STR), PROV (size, P_I64), PROV (sha256, P_STR), PROV (importer, P_STR),
  PROV (format_version, P_STR), PROV (imported_at, P_STR),
  { NULL, 0, 0 }
};
static const Plain answer_plain[] = {
  ANSWER (warning_id, P_STR), ANSWER (answer, P_STR), ANSWER (answered_at, P_STR),
  { NULL, 0, 0 }
};

static const char * const source_names[] = { "as-reported", "recomputed", NULL };

/* ------------------------------------------------------------------------- */
/* Writing                                                                    */

/* A double as JSON: a number, null (NAN), or the strings "Infinity" / "-Infinity"
 * (a run's unlimited request rate). */
static void
add_double (JsonBuilder *b,
            double       v)
{
  if (isinf (v))
    json_builder_add_string_value (b, v > 0 ? "Infinity" : "-Infinity");
  else if (isnan (v))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, v);
}

static void
add_plain (JsonBuilder   *b,
           const Plain   *plain,
           gconstpointer  record)
{
  for (const Plain *p = plain; p->name != NULL; p++)
    {
      gconstpointer slot = G_STRUCT_MEMBER_P (record, p->offset);

      json_builder_set_member_name (b, p->name);
      switch (p->type)
        {
        case P_STR:
          if (*(char * const *) slot != NULL)
            json_builder_add_string_value (b, *(char * const *) slot);
          else
            json_builder_add_null_value (b);
          break;
        case P_DBL:
          add_double (b, *(const double *) slot);
          break;
        case P_INT:
          if (*(const int *) slot >= 0)
            json_builder_add_int_value (b, *(const int *) slot);
          else
            json_builder_add_null_value (b);
          break;
        case P_I64:
          if (*(const gint64 *) slot >= 0)
            json_builder_add_int_value (b, *(const gint64 *) slot);
          else
            json_builder_add_null_value (b);
          break;
        case P_BOOL:
          json_builder_add_boolean_value (b, *(const gboolean *) slot);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
add_fields (JsonBuilder       *b,
            ProcuraProject    *project,
            ProcuraFieldTable  table,
            gconstpointer      record)
{
  gsize n;
  const ProcuraField *fields = procura_fields (&n);

  for (gsize i = 0; i < n; i++)
    if (fields[i].table == table)
      procura_field_add_json (&fields[i], project, record, NULL, b);
}

static void
add_strings (JsonBuilder *b,
             const char  *member,
             GPtrArray   *strings)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; strings != NULL && i < strings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (strings, i));
  json_builder_end_array (b);
}

static void
add_candidate_ref (JsonBuilder    *b,
                   ProcuraProject *project,
                   gint64          candidate_id)
{
  ProcuraCandidate *c = candidate_id > 0 ? procura_project_find_candidate (project, candidate_id) : NULL;

  procura_json_add_string (b, "candidate_id", c != NULL ? c->name : NULL);
}

static void
add_provenance (JsonBuilder             *b,
                const ProcuraProvenance *pr)
{
  json_builder_set_member_name (b, "provenance");
  if (pr == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  add_plain (b, provenance_plain, pr);
  json_builder_end_object (b);
}

static const ProcuraProvenance *
find_provenance (ProcuraProject *project,
                 gint64          id)
{
  for (guint i = 0; id > 0 && i < project->provenance->len; i++)
    if (((ProcuraProvenance *) g_ptr_array_index (project->provenance, i))->id == id)
      return g_ptr_array_index (project->provenance, i);
  return NULL;
}

static void
add_run (JsonBuilder    *b,
         ProcuraProject *project,
         ProcuraRun     *r,
         gboolean        with_samples)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, r->id);
  add_candidate_ref (b, project, r->candidate_id);
  add_plain (b, run_plain, r);
  json_builder_set_member_name (b, "scenario");
  json_builder_begin_object (b);
  add_plain (b, scenario_plain, &r->scenario);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "stats");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->stats->len; i++)
    {
      const ProcuraStat *s = g_ptr_array_index (r->stats, i);

      json_builder_begin_object (b);
      procura_json_add_string (b, "metric", s->metric);
      procura_json_add_string (b, "stat", s->stat);
      json_builder_set_member_name (b, "value");
      add_double (b, s->value);
      procura_json_add_string (b, "source", source_names[s->source == PROCURA_SOURCE_RECOMPUTED]);
      procura_json_add_count (b, "samples", s->samples);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_strings (b, "warnings", r->warnings);
  add_provenance (b, r->provenance);
  if (with_samples)
    {
      json_builder_set_member_name (b, "samples");
      json_builder_begin_object (b);
      for (guint i = 0; i < r->samples->len; i++)
        {
          const ProcuraSamples *s = g_ptr_array_index (r->samples, i);

          json_builder_set_member_name (b, s->metric);
          json_builder_begin_array (b);
          for (gsize k = 0; k < s->n; k++)
            add_double (b, s->values[k]);
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

JsonNode *
procura_decision_doc_build (ProcuraProject *project,
                            gboolean        with_samples)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  struct { const char *member; ProcuraFieldTable table; GPtrArray *rows; } row_tables[] = {
    { "quotes", PROCURA_FIELD_TABLE_QUOTE, project->quotes },
    { "candidates", PROCURA_FIELD_TABLE_CANDIDATE, project->candidates },
  };
  struct { const char *member; ProcuraFieldTable table; } one_row[] = {
    { "brief", PROCURA_FIELD_TABLE_BRIEF },
    { "assumptions", PROCURA_FIELD_TABLE_ASSUMPTIONS },
    { "decision", PROCURA_FIELD_TABLE_DECISION },
  };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "procura_decision");
  json_builder_add_int_value (b, PROCURA_DECISION_DOC_VERSION);

  json_builder_set_member_name (b, "project");
  json_builder_begin_object (b);
  add_fields (b, project, PROCURA_FIELD_TABLE_PROJECT, project);
  procura_json_add_string (b, "created", project->created);
  procura_json_add_string (b, "modified", project->modified);
  json_builder_end_object (b);

  for (gsize t = 0; t < G_N_ELEMENTS (one_row); t++)
    {
      gpointer record = procura_field_record (project, one_row[t].table, NULL);

      json_builder_set_member_name (b, one_row[t].member);
      if (record == NULL)
        {
          json_builder_add_null_value (b);
          continue;
        }
      json_builder_begin_object (b);
      add_fields (b, project, one_row[t].table, record);
      json_builder_end_object (b);
    }

  for (gsize t = 0; t < G_N_ELEMENTS (row_tables); t++)
    {
      json_builder_set_member_name (b, row_tables[t].member);
      json_builder_begin_array (b);
      for (guint i = 0; i < row_tables[t].rows->len; i++)
        {
          gpointer row = g_ptr_array_index (row_tables[t].rows, i);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "id");
          json_builder_add_int_value (b, procura_field_row_id (row_tables[t].table, row));
          add_fields (b, project, row_tables[t].table, row);
          if (row_tables[t].table == PROCURA_FIELD_TABLE_QUOTE)
            add_provenance (b, find_provenance (project, ((ProcuraQuote *) row)->provenance_id));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < project->runs->len; i++)
    add_run (b, project, g_ptr_array_index (project->runs, i), with_samples);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "engine_logs");
  json_builder_begin_array (b);
  for (guint i = 0; i < project->engine_logs->len; i++)
    {
      ProcuraEngineLog *l = g_ptr_array_index (project->engine_logs, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, l->id);
      add_candidate_ref (b, project, l->candidate_id);
      add_plain (b, log_plain, l);
      add_strings (b, "errors", l->errors);
      add_provenance (b, find_provenance (project, l->provenance_id));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "probe_results");
  json_builder_begin_array (b);
  for (guint i = 0; i < project->probe_results->len; i++)
    {
      ProcuraProbeResult *r = g_ptr_array_index (project->probe_results, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, r->id);
      add_candidate_ref (b, project, r->candidate_id);
      add_plain (b, probe_plain, r);
      add_provenance (b, find_provenance (project, r->provenance_id));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  {
    struct { const char *member; ProcuraFieldTable table; GPtrArray *rows; } tail[] = {
      { "checklist", PROCURA_FIELD_TABLE_CHECKLIST, project->checklist },
      { "ops_tests", PROCURA_FIELD_TABLE_OPS_TEST, project->ops_tests },
    };

    for (gsize t = 0; t < G_N_ELEMENTS (tail); t++)
      {
        json_builder_set_member_name (b, tail[t].member);
        json_builder_begin_array (b);
        for (guint i = 0; i < tail[t].rows->len; i++)
          {
            gpointer row = g_ptr_array_index (tail[t].rows, i);

            json_builder_begin_object (b);
            json_builder_set_member_name (b, "id");
            json_builder_add_int_value (b, procura_field_row_id (tail[t].table, row));
            add_fields (b, project, tail[t].table, row);
            json_builder_end_object (b);
          }
        json_builder_end_array (b);
      }
  }

  json_builder_set_member_name (b, "warning_answers");
  json_builder_begin_array (b);
  for (guint i = 0; project->warning_answers != NULL && i < project->warning_answers->len; i++)
    {
      ProcuraWarningAnswer *a = g_ptr_array_index (project->warning_answers, i);

      json_builder_begin_object (b);
      add_candidate_ref (b, project, a->candidate_id);
      add_plain (b, answer_plain, a);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------------- */
/* Reading                                                                    */

typedef struct {
  GString        *errors;
  guint           n_errors;
  ProcuraProject *project;
  GHashTable     *provenance;   /* canonical text → ProcuraProvenance* (borrowed) */
} Reader;

#define MAX_ERRORS 50

static void G_GNUC_PRINTF (3, 4)
fail (Reader     *rd,
      const char *path,
      const char *format,
      ...)
{
  va_list args;

  rd->n_errors++;
  if (rd->n_errors > MAX_ERRORS)
    return;
  if (rd->errors->len > 0)
    g_string_append_c (rd->errors, '\n');
  g_string_append_printf (rd->errors, "%s: ", path);
  va_start (args, format);
  g_string_append_vprintf (rd->errors, format, args);
  va_end (args);
}

static const char *
node_kind (JsonNode *node)
{
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return "a string";
  if (type == G_TYPE_BOOLEAN)
    return "a boolean";
  return "a number";
}

static gboolean
is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

/* A double member: number, null or "Infinity"/"-Infinity". */
static gboolean
read_double (Reader     *rd,
             const char *path,
             JsonNode   *node,
             double     *out)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = NAN;
      return TRUE;
    }
  if (is_number (node))
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);

      if (g_str_equal (s, "Infinity") || g_str_equal (s, "-Infinity"))
        {
          *out = s[0] == '-' ? -INFINITY : INFINITY;
          return TRUE;
        }
    }
  fail (rd, path, _("expected a number or null, got %s"), node_kind (node));
  return FALSE;
}

static char *
member_path (const char *path,
             const char *member)
{
  return g_strdup_printf ("%s.%s", path, member);
}

static gboolean
in_list (const char * const *names,
         const char         *name)
{
  for (gsize i = 0; names != NULL && names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      return TRUE;
  return FALSE;
}

static const Plain *
find_plain (const Plain *plain,
            const char  *name)
{
  for (const Plain *p = plain; plain != NULL && p->name != NULL; p++)
    if (g_str_equal (p->name, name))
      return p;
  return NULL;
}

static void
read_plain_member (Reader      *rd,
                   const char  *path,
                   const Plain *p,
                   JsonNode    *node,
                   gpointer     record)
{
  gpointer slot = G_STRUCT_MEMBER_P (record, p->offset);
  gboolean null = JSON_NODE_HOLDS_NULL (node);

  switch (p->type)
    {
    case P_STR:
      if (null)
        g_clear_pointer ((char **) slot, g_free);
      else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_free (*(char **) slot);
          *(char **) slot = g_strdup (json_node_get_string (node));
        }
      else
        fail (rd, path, _("expected a string or null, got %s"), node_kind (node));
      break;
    case P_DBL:
      read_double (rd, path, node, slot);
      break;
    case P_INT:
    case P_I64:
      if (null)
        {
          if (p->type == P_INT)
            *(int *) slot = -1;
          else
            *(gint64 *) slot = -1;
        }
      else if (is_number (node) && json_node_get_double (node) >= 0
               && json_node_get_double (node) == floor (json_node_get_double (node))
               && json_node_get_double (node) <= (p->type == P_INT ? G_MAXINT : 9007199254740992.0))
        {
          if (p->type == P_INT)
            *(int *) slot = (int) json_node_get_double (node);
          else
            *(gint64 *) slot = json_node_get_int (node);
        }
      else
        fail (rd, path, _("expected an integer >= 0 or null, got %s"), node_kind (node));
      break;
    case P_BOOL:
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        *(gboolean *) slot = json_node_get_boolean (node);
      else
        fail (rd, path, _("expected true or false, got %s"), node_kind (node));
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Reads the members of @o into @record: registry fields of @table (when >= 0), plain
 * members, and skips @special (read by the caller). Unknown members are errors. */
static void
read_members (Reader             *rd,
              const char         *path,
              JsonObject         *o,
              int                 table,
              const Plain        *plain,
              gpointer            record,
              const char * const *special)
{
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (o, name);
      g_autofree char *mpath = member_path (path, name);
      const ProcuraField *field = table >= 0 ? procura_field_lookup (table, name) : NULL;
      const Plain *p = find_plain (plain, name);

      if (in_list (special, name))
        continue;
      if (field != NULL)
        {
          g_autoptr (GError) error = NULL;

          if (!procura_field_set_json (field, rd->project, record, node, &error))
            fail (rd, mpath, "%s", error->message);
        }
      else if (p != NULL)
        read_plain_member (rd, mpath, p, node, record);
      else
        fail (rd, mpath, _("unknown member"));
    }
}

static JsonObject *
get_object (Reader     *rd,
            const char *path,
            JsonNode   *node)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);
  fail (rd, path, _("expected an object, got %s"), node_kind (node));
  return NULL;
}

static JsonArray *
get_array (Reader     *rd,
           JsonObject *root,
           const char *member)
{
  JsonNode *node = json_object_get_member (root, member);

  if (node == NULL)
    return NULL;   /* an absent table is an empty one */
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  fail (rd, member, _("expected an array, got %s"), node_kind (node));
  return NULL;
}

/* The candidate named by member "candidate_id" of @o (by name; null = none). */
static gint64
read_candidate_ref (Reader     *rd,
                    const char *path,
                    JsonObject *o)
{
  JsonNode *node = json_object_get_member (o, "candidate_id");
  g_autofree char *mpath = member_path (path, "candidate_id");

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return 0;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    for (guint i = 0; i < rd->project->candidates->len; i++)
      {
        ProcuraCandidate *c = g_ptr_array_index (rd->project->candidates, i);

        if (g_strcmp0 (c->name, json_node_get_string (node)) == 0)
          return c->id;
      }
  fail (rd, mpath, _("expected the name of a candidate of the document or null, got %s%s%s%s"),
        node_kind (node), JSON_NODE_HOLDS_VALUE (node) ? " “" : "",
        JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
          ? json_node_get_string (node) : "",
        JSON_NODE_HOLDS_VALUE (node) ? "”" : "");
  return 0;
}

/* The provenance object of @o (or NULL): one row per distinct record. */
static ProcuraProvenance *
read_provenance (Reader     *rd,
                 const char *path,
                 JsonObject *o)
{
  JsonNode *node = json_object_get_member (o, "provenance");
  g_autofree char *mpath = member_path (path, "provenance");
  g_autoptr (ProcuraProvenance) pr = NULL;
  g_autofree char *canon = NULL;
  ProcuraProvenance *known;
  JsonObject *po;
  guint before = rd->n_errors;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  po = get_object (rd, mpath, node);
  if (po == NULL)
    return NULL;
  pr = procura_provenance_new ();
  read_members (rd, mpath, po, -1, provenance_plain, pr, NULL);
  if (rd->n_errors > before)
    return NULL;
  canon = g_strdup_printf ("%s\x1f%" G_GINT64_FORMAT "\x1f%s\x1f%s\x1f%s\x1f%s", pr->file_name ? pr->file_name : "",
                           pr->size, pr->sha256 ? pr->sha256 : "", pr->importer ? pr->importer : "",
                           pr->format_version ? pr->format_version : "", pr->imported_at ? pr->imported_at : "");
  known = g_hash_table_lookup (rd->provenance, canon);
  if (known != NULL)
    return known;
  pr->id = rd->project->provenance->len + 1;
  known = g_steal_pointer (&pr);
  g_ptr_array_add (rd->project->provenance, known);
  g_hash_table_insert (rd->provenance, g_steal_pointer (&canon), known);
  return known;
}

static void
read_one_row (Reader            *rd,
              JsonObject        *root,
              const char        *member,
              ProcuraFieldTable  table,
              gpointer           record,
              const char * const *special)
{
  JsonNode *node = json_object_get_member (root, member);
  JsonObject *o;

  if (node == NULL || (JSON_NODE_HOLDS_NULL (node) && table == PROCURA_FIELD_TABLE_BRIEF))
    return;
  o = get_object (rd, member, node);
  if (o != NULL)
    read_members (rd, member, o, table, NULL, record, special);
}

static void
read_samples (Reader     *rd,
              const char *path,
              JsonNode   *node,
              ProcuraRun *r)
{
  JsonObject *o;
  g_autoptr (GList) members = NULL;

  if (JSON_NODE_HOLDS_NULL (node))
    return;
  o = get_object (rd, path, node);
  if (o == NULL)
    return;
  members = json_object_get_members (o);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *mpath = member_path (path, l->data);
      JsonNode *arr = json_object_get_member (o, l->data);
      JsonArray *a;
      double *values;
      guint n;

      if (!JSON_NODE_HOLDS_ARRAY (arr))
        {
          fail (rd, mpath, _("expected an array of numbers, got %s"), node_kind (arr));
          continue;
        }
      a = json_node_get_array (arr);
      n = json_array_get_length (a);
      values = g_new (double, MAX (n, 1));
      for (guint k = 0; k < n; k++)
        {
          g_autofree char *kpath = g_strdup_printf ("%s[%u]", mpath, k);

          if (!read_double (rd, kpath, json_array_get_element (a, k), &values[k]))
            break;
        }
      procura_run_take_samples (r, l->data, values, n);
    }
}

static void
read_run (Reader     *rd,
          const char *path,
          JsonObject *o)
{
  static const char * const special[] = { "id", "candidate_id", "scenario", "stats", "warnings", "provenance",
                                          "samples", NULL };
  ProcuraRun *r = procura_run_new ();
  JsonNode *node;
  ProcuraProvenance *pr;

  g_ptr_array_add (rd->project->runs, r);
  r->id = rd->project->runs->len;
  r->candidate_id = read_candidate_ref (rd, path, o);
  read_members (rd, path, o, -1, run_plain, r, special);
  if ((node = json_object_get_member (o, "scenario")) != NULL)
    {
      g_autofree char *mpath = member_path (path, "scenario");
      JsonObject *so = get_object (rd, mpath, node);

      if (so != NULL)
        read_members (rd, mpath, so, -1, scenario_plain, &r->scenario, NULL);
    }
  if ((node = json_object_get_member (o, "stats")) != NULL)
    {
      g_autofree char *mpath = member_path (path, "stats");

      if (!JSON_NODE_HOLDS_ARRAY (node))
        fail (rd, mpath, _("expected an array, got %s"), node_kind (node));
      else
        for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
          {
            g_autofree char *spath = g_strdup_printf ("%s[%u]", mpath, i);
            JsonObject *so = get_object (rd, spath, json_array_get_element (json_node_get_array (node), i));
            const char *metric, *stat, *source;
            double value = NAN;
            JsonNode *count;

            if (so == NULL)
              continue;
            metric = json_object_get_string_member_with_default (so, "metric", NULL);
            stat = json_object_get_string_member_with_default (so, "stat", NULL);
            source = json_object_get_string_member_with_default (so, "source", "as-reported");
            count = json_object_get_member (so, "samples");
            if (metric == NULL || stat == NULL)
              {
                fail (rd, spath, _("expected an object with the strings metric and stat"));
                continue;
              }
            if (!g_str_equal (source, "as-reported") && !g_str_equal (source, "recomputed"))
              {
                g_autofree char *p = member_path (spath, "source");

                fail (rd, p, _("expected as-reported or recomputed, got “%s”"), source);
                continue;
              }
            if (count != NULL && !JSON_NODE_HOLDS_NULL (count) && !is_number (count))
              {
                g_autofree char *p = member_path (spath, "samples");

                fail (rd, p, _("expected an integer or null, got %s"), node_kind (count));
                continue;
              }
            {
              g_autofree char *p = member_path (spath, "value");

              if (!read_double (rd, p, json_object_get_member (so, "value"), &value))
                continue;
            }
            procura_run_add_stat (r, metric, stat, value,
                                  g_str_equal (source, "recomputed") ? PROCURA_SOURCE_RECOMPUTED
                                                                     : PROCURA_SOURCE_AS_REPORTED,
                                  count != NULL && is_number (count) ? json_node_get_int (count) : -1);
          }
    }
  if ((node = json_object_get_member (o, "warnings")) != NULL)
    {
      g_autofree char *mpath = member_path (path, "warnings");

      if (!JSON_NODE_HOLDS_ARRAY (node))
        fail (rd, mpath, _("expected an array of strings, got %s"), node_kind (node));
      else
        for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
          {
            JsonNode *w = json_array_get_element (json_node_get_array (node), i);

            if (JSON_NODE_HOLDS_VALUE (w) && json_node_get_value_type (w) == G_TYPE_STRING)
              g_ptr_array_add (r->warnings, g_strdup (json_node_get_string (w)));
            else
              fail (rd, mpath, _("expected an array of strings"));
          }
    }
  if ((node = json_object_get_member (o, "samples")) != NULL)
    {
      g_autofree char *mpath = member_path (path, "samples");

      read_samples (rd, mpath, node, r);
    }
  pr = read_provenance (rd, path, o);
  if (pr != NULL)
    r->provenance = procura_provenance_copy (pr);
}

static void
read_strings (Reader     *rd,
              const char *path,
              JsonObject *o,
              const char *member,
              GPtrArray  *into)
{
  JsonNode *node = json_object_get_member (o, member);
  g_autofree char *mpath = member_path (path, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fail (rd, mpath, _("expected an array of strings, got %s"), node_kind (node));
      return;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      JsonNode *w = json_array_get_element (json_node_get_array (node), i);

      if (JSON_NODE_HOLDS_VALUE (w) && json_node_get_value_type (w) == G_TYPE_STRING)
        g_ptr_array_add (into, g_strdup (json_node_get_string (w)));
      else
        fail (rd, mpath, _("expected an array of strings"));
    }
}

typedef gpointer (*RowNew) (void);

static gpointer new_quote (void) { return procura_quote_new (); }
static gpointer new_candidate (void) { return procura_candidate_new (); }
static gpointer new_checklist (void) { return procura_checklist_item_new (); }
static gpointer new_ops_test (void) { return procura_ops_test_new (); }

ProcuraProject *
procura_decision_doc_parse (JsonNode  *root_node,
                            GError   **error)
{
  static const char * const project_special[] = { "created", "modified", NULL };
  static const char * const row_special[] = { "id", "provenance", NULL };
  static const char * const top[] = {
    "procura_decision", "project", "brief", "assumptions", "decision", "quotes", "candidates", "runs",
    "engine_logs", "probe_results", "checklist", "ops_tests", "warning_answers", NULL
  };
  g_autoptr (ProcuraProject) p = procura_project_new ();
  g_autoptr (GHashTable) provenance = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) errors = g_string_new (NULL);
  g_autoptr (GHashTable) quote_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  Reader rd = { errors, 0, p, provenance };
  JsonObject *root;
  JsonNode *version;
  JsonArray *a;

  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT (root_node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("(top level): expected an object with \"procura_decision\": 1"));
      return NULL;
    }
  root = json_node_get_object (root_node);
  version = json_object_get_member (root, "procura_decision");
  if (version == NULL || !is_number (version) || json_node_get_double (version) != PROCURA_DECISION_DOC_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("procura_decision: expected the document version 1%s"),
                   version == NULL ? _(" (is this a Procura decision document?)") : "");
      return NULL;
    }
  {
    g_autoptr (GList) members = json_object_get_members (root);

    for (GList *l = members; l != NULL; l = l->next)
      if (!in_list (top, l->data))
        fail (&rd, l->data, _("unknown member"));
  }

  /* The project's own fields; the title may not be missing. */
  g_free (p->title);
  p->title = g_strdup ("Untitled");
  read_one_row (&rd, root, "project", PROCURA_FIELD_TABLE_PROJECT, p, project_special);
  {
    JsonNode *node = json_object_get_member (root, "project");

    if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
      {
        const char *created = json_object_get_string_member_with_default (json_node_get_object (node),
                                                                          "created", NULL);
        g_free (p->created);
        p->created = g_strdup (created);
      }
  }
  read_one_row (&rd, root, "brief", PROCURA_FIELD_TABLE_BRIEF, p->brief, NULL);
  read_one_row (&rd, root, "assumptions", PROCURA_FIELD_TABLE_ASSUMPTIONS, &p->assumptions, NULL);

  /* Quotes, then candidates (they name quotes by the document's ids), then the rest. */
  {
    struct { const char *member; ProcuraFieldTable table; GPtrArray *rows; RowNew make; } tables[] = {
      { "quotes", PROCURA_FIELD_TABLE_QUOTE, p->quotes, new_quote },
      { "candidates", PROCURA_FIELD_TABLE_CANDIDATE, p->candidates, new_candidate },
    };

    for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
      {
        a = get_array (&rd, root, tables[t].member);
        for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
          {
            g_autofree char *path = g_strdup_printf ("%s[%u]", tables[t].member, i);
            JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));
            gpointer row;

            if (o == NULL)
              continue;
            row = tables[t].make ();
            g_ptr_array_add (tables[t].rows, row);
            if (tables[t].table == PROCURA_FIELD_TABLE_QUOTE)
              {
                ProcuraQuote *q = row;
                JsonNode *id = json_object_get_member (o, "id");
                ProcuraProvenance *pr;

                if (id == NULL || !is_number (id) || json_node_get_double (id) < 1
                    || json_node_get_double (id) != floor (json_node_get_double (id)))
                  {
                    g_autofree char *ipath = member_path (path, "id");

                    fail (&rd, ipath, _("expected an integer >= 1 (the quote's id, which candidates' quote_id name)"));
                  }
                else if (!g_hash_table_add (quote_ids, g_memdup2 (&(gint64) { json_node_get_int (id) }, sizeof (gint64))))
                  {
                    g_autofree char *ipath = member_path (path, "id");

                    fail (&rd, ipath, _("expected an id no other quote has, got %lld"),
                          (long long) (json_node_get_int (id)));
                  }
                else
                  q->id = json_node_get_int (id);
                pr = read_provenance (&rd, path, o);
                q->provenance_id = pr != NULL ? pr->id : 0;
              }
            else
              {
                ProcuraCandidate *c = row;

                c->id = p->candidates->len;
              }
            read_members (&rd, path, o, tables[t].table, NULL, row, row_special);
            if (tables[t].table == PROCURA_FIELD_TABLE_CANDIDATE)
              {
                ProcuraCandidate *c = row;

                if (c->name == NULL)
                  {
                    g_autofree char *npath = member_path (path, "name");

                    fail (&rd, npath, _("expected a non-empty text"));
                  }
                else if (!g_hash_table_add (names, c->name))
                  {
                    g_autofree char *npath = member_path (path, "name");

                    fail (&rd, npath, _("expected a name no other candidate has, got “%s”"), c->name);
                  }
              }
          }
      }
  }

  read_one_row (&rd, root, "decision", PROCURA_FIELD_TABLE_DECISION, &p->decision, NULL);

  a = get_array (&rd, root, "runs");
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      g_autofree char *path = g_strdup_printf ("runs[%u]", i);
      JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));

      if (o != NULL)
        read_run (&rd, path, o);
    }

  a = get_array (&rd, root, "engine_logs");
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      static const char * const special[] = { "id", "candidate_id", "errors", "provenance", NULL };
      g_autofree char *path = g_strdup_printf ("engine_logs[%u]", i);
      JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));
      ProcuraEngineLog *l;
      ProcuraProvenance *pr;

      if (o == NULL)
        continue;
      l = procura_engine_log_new ();
      g_ptr_array_add (p->engine_logs, l);
      l->candidate_id = read_candidate_ref (&rd, path, o);
      read_members (&rd, path, o, -1, log_plain, l, special);
      read_strings (&rd, path, o, "errors", l->errors);
      pr = read_provenance (&rd, path, o);
      l->provenance_id = pr != NULL ? pr->id : 0;
    }

  a = get_array (&rd, root, "probe_results");
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      static const char * const special[] = { "id", "candidate_id", "provenance", NULL };
      g_autofree char *path = g_strdup_printf ("probe_results[%u]", i);
      JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));
      ProcuraProbeResult *r;
      ProcuraProvenance *pr;

      if (o == NULL)
        continue;
      r = procura_probe_result_new ();
      g_ptr_array_add (p->probe_results, r);
      r->candidate_id = read_candidate_ref (&rd, path, o);
      read_members (&rd, path, o, -1, probe_plain, r, special);
      pr = read_provenance (&rd, path, o);
      r->provenance_id = pr != NULL ? pr->id : 0;
    }

  {
    struct { const char *member; ProcuraFieldTable table; GPtrArray *rows; RowNew make; } tables[] = {
      { "checklist", PROCURA_FIELD_TABLE_CHECKLIST, p->checklist, new_checklist },
      { "ops_tests", PROCURA_FIELD_TABLE_OPS_TEST, p->ops_tests, new_ops_test },
    };

    for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
      {
        a = get_array (&rd, root, tables[t].member);
        for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
          {
            g_autofree char *path = g_strdup_printf ("%s[%u]", tables[t].member, i);
            JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));
            gpointer row;
            const ProcuraField *required;

            if (o == NULL)
              continue;
            row = tables[t].make ();
            g_ptr_array_add (tables[t].rows, row);
            read_members (&rd, path, o, tables[t].table, NULL, row, row_special);
            required = procura_field_lookup (tables[t].table,
                                             tables[t].table == PROCURA_FIELD_TABLE_CHECKLIST ? "item" : "kind");
            if (procura_field_is_unset (required, row))
              {
                g_autofree char *rpath = member_path (path, required->column);
                g_autofree char *expected = procura_field_describe (required);

                fail (&rd, rpath, _("expected %s"), expected);
              }
          }
      }
  }

  a = get_array (&rd, root, "warning_answers");
  for (guint i = 0; a != NULL && i < json_array_get_length (a); i++)
    {
      static const char * const special[] = { "candidate_id", NULL };
      g_autofree char *path = g_strdup_printf ("warning_answers[%u]", i);
      JsonObject *o = get_object (&rd, path, json_array_get_element (a, i));
      ProcuraWarningAnswer *w;

      if (o == NULL)
        continue;
      w = procura_warning_answer_new ();
      g_ptr_array_add (p->warning_answers, w);
      w->candidate_id = read_candidate_ref (&rd, path, o);
      read_members (&rd, path, o, -1, answer_plain, w, special);
      if (w->warning_id == NULL || *w->warning_id == '\0' || w->answer == NULL || *w->answer == '\0')
        fail (&rd, path, _("expected the non-empty strings warning_id and answer"));
    }

  if (rd.n_errors > 0)
    {
      if (rd.n_errors > MAX_ERRORS)
        g_string_append_printf (errors, "\n… and %u more", rd.n_errors - MAX_ERRORS);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, errors->str);
      return NULL;
    }
  return g_steal_pointer (&p);
}

ProcuraProject *
procura_decision_doc_load (const char  *path,
                           GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;
  ProcuraProject *p;

  /* a FIFO or a device is refused before a byte is read (it would hang) */
  data = procura_import_read_file (path, _("a decision document (JSON)"), &len, &local);
  if (data == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", local->message);
      return NULL;
    }
  /* the strict front door: depth, UTF-8, huge integers, line:column in messages */
  root = procura_json_parse (path, data, len, 0, PROCURA_JSON_STRICT, &local);
  if (root == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", local->message);
      return NULL;
    }
  p = procura_decision_doc_parse (root, &local);
  if (p == NULL)
    {
      g_autofree char *indented = NULL;
      g_auto (GStrv) lines = g_strsplit (local->message, "\n", -1);

      indented = g_strjoinv ("\n  ", lines);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:\n  %s", path, indented);
    }
  return p;
}

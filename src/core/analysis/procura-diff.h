/* procura-diff.h: what changed between two versions of a decision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura_diff_projects() compares two projects (typically the file of the last review
 * and the current one): the project title, the brief, the assumptions and the decision
 * field by field; candidates (matched by name), quotes (matched by kind, provider, SKU,
 * GPU, count, pricing model, term, region and API model) and runs (matched by the
 * SHA-256 of the file they came from and their label, never by store ids) added,
 * removed or changed, each changed column named as in the project file
 * (docs/project-file.md) with its old and new value. Then it runs the analysis on both
 * and gives the consequences: per candidate the capacity at the latency target, the
 * cost per accepted output and the rank, and the recommendation, old → new.
 *
 * Values come twice: as stored (numbers, strings; unknown = NAN / NULL) and as text for
 * people, in the decision record's units ("$2.49", "800 ms", "12 req/s", "—").
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "procura-model.h"

G_BEGIN_DECLS

typedef enum {
  PROCURA_DIFF_ADDED,
  PROCURA_DIFF_REMOVED,
  PROCURA_DIFF_CHANGED,
} ProcuraDiffKind;

/* "added", "removed", "changed" */
const char *procura_diff_kind_name (ProcuraDiffKind kind);

/* One changed column. */
typedef struct {
  char     *column;       /* the project-file column, e.g. "slo_threshold_ms" */
  gboolean  numeric;      /* TRUE: old_number / new_number; FALSE: old_string / new_string */
  double    old_number;   /* NAN = not set */
  double    new_number;
  char     *old_string;   /* NULL = not set */
  char     *new_string;
  char     *old_text;     /* for people, with units; "—" when not set */
  char     *new_text;
} ProcuraDiffField;

/* A candidate, quote or run that was added, removed or changed. */
typedef struct {
  ProcuraDiffKind  kind;
  char            *name;       /* candidate name; quote "provider · SKU · pricing · region"; run label */
  char            *date;       /* quotes: seen_date (the new one, or the old one when removed) */
  char            *candidate;  /* runs: the candidate it is assigned to (new, or old when removed) */
  char            *file_name;  /* runs: the file it was imported from */
  char            *sha256;     /* runs: that file's SHA-256 */
  GPtrArray       *fields;     /* ProcuraDiffField*: CHANGED items only, empty otherwise */
} ProcuraDiffItem;

/* The analysis of one candidate in both projects (matched by name). */
typedef struct {
  char     *name;
  gboolean  derived;          /* the analysis' derived hybrid */
  gboolean  in_old, in_new;
  gboolean  changed;          /* any figure below differs, or it is only on one side */
  double    old_capacity;     /* req/s per replica at the latency target as used for cost */
  double    new_capacity;
  char     *old_capacity_status; /* "ok", "not-saturated", "misses", ... NULL without capacity */
  char     *new_capacity_status;
  double    old_cost;         /* cost per accepted output, NAN when not costed */
  double    new_cost;
  int       old_rank;         /* 1 = cheapest; 0 = not ranked */
  int       new_rank;
  char     *old_capacity_text, *new_capacity_text;
  char     *old_cost_text, *new_cost_text;
} ProcuraDiffOutcome;

typedef struct {
  char      *old_title, *new_title;
  char      *old_modified, *new_modified;  /* ISO 8601 */
  char      *old_target, *new_target;      /* "p99 ttft ≤ 800 ms" as analysed */

  GPtrArray *project;      /* ProcuraDiffField*: the project table (title) */
  GPtrArray *brief;        /* ProcuraDiffField* */
  GPtrArray *assumptions;  /* ProcuraDiffField* */
  GPtrArray *decision;     /* ProcuraDiffField*; candidate_id compared by the candidate's name */
  GPtrArray *candidates;   /* ProcuraDiffItem* */
  GPtrArray *quotes;       /* ProcuraDiffItem* */
  GPtrArray *runs;         /* ProcuraDiffItem* */

  GPtrArray *outcomes;     /* ProcuraDiffOutcome*: every candidate of either side, old order then new */
  char      *old_choice, *new_choice;         /* procura_choice_name() */
  char      *old_recommended, *new_recommended; /* the candidate it rests on, may be NULL */
  GPtrArray *old_reasons, *new_reasons;       /* char* */
  gboolean   recommendation_changed;
} ProcuraDiff;

ProcuraDiff *procura_diff_projects (const ProcuraProject *old_project,
                                    const ProcuraProject *new_project);
void         procura_diff_free     (ProcuraDiff *diff);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraDiff, procura_diff_free)

/* Opens both files read-only (with samples, as `procura summary` does) and compares
 * them. The error names the file that could not be read. */
ProcuraDiff *procura_diff_files    (const char  *old_path,
                                    const char  *new_path,
                                    GError     **error);

/* TRUE when no input differs and no consequence changed. */
gboolean     procura_diff_is_empty (const ProcuraDiff *diff);
/* The number of changed outcomes (candidates whose capacity, cost or rank moved). */
guint        procura_diff_n_changed_outcomes (const ProcuraDiff *diff);

/* `procura diff --json` (members in docs/diff.md). */
JsonNode    *procura_diff_to_json  (const ProcuraDiff *diff);
/* `procura diff` for people; "no changes" when empty. */
char        *procura_diff_to_text  (const ProcuraDiff *diff);
/* "old → new" of a field or of two texts. */
char        *procura_diff_field_arrow (const ProcuraDiffField *field);

G_END_DECLS

/* procura-candidates-page.c: GPU candidates and API routes, their costs, checklist
 * and operations tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-candidates-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stddef.h>

#include "procura-candidates-page.h"
#include "procura-candidate-row.h"
#include "procura-candidate-section.h"
#include "procura-choice-row.h"
#include "procura-cost-row.h"
#include "procura-item-button.h"
#include "procura-layout.h"
#include "procura-format.h"
#include "procura-units.h"
#include "procura-util.h"

#include "procura-gpu-catalog.h"

struct _ProcuraCandidatesPage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;

  ProcuraDocument *document;
  gulong           changed_id;
  GHashTable      *expanded;      /* "kind:id" keys of the sections left open, kept across rebuilds */
  guint            next_row;      /* the next candidate whose row to build (idle batches) */
  GtkWidget       *tail;          /* the whole project's group: the rows go before it */
};

/* A closed candidate's height in pixels, a little less (271 px in Adwaita): the rows
 * that fill the window are built with the page, the others in idle batches after the
 * first frame. */
#define ROW_HEIGHT 240

G_DEFINE_FINAL_TYPE (ProcuraCandidatesPage, procura_candidates_page, PROCURA_TYPE_PAGE)

typedef struct {
  const char *title;
  gsize       offset;
  int         is_int;   /* 0 double, 1 int, 2 string */
  gboolean    api;     /* shown for API routes (and hybrids) */
  gboolean    gpu;     /* shown for GPU candidates (and hybrids) */
  gboolean    money;   /* in the project's currency: the title says which */
} CostField;

#define CAND(f) offsetof (ProcuraCandidate, f)

static const CostField cost_fields[] = {
  { N_("Name"), CAND (name), 2, TRUE, TRUE },
  { N_("GPU (catalog id or name)"), CAND (gpu_name), 2, FALSE, TRUE },
  { N_("Provider"), CAND (provider), 2, FALSE, TRUE },
  { N_("Pricing model (on-demand, spot, reserved…)"), CAND (pricing_model), 2, FALSE, TRUE },
  { N_("Price seen on (YYYY-MM-DD)"), CAND (price_date), 2, FALSE, TRUE },
  { N_("API provider"), CAND (api_provider), 2, TRUE, FALSE },
  { N_("API model"), CAND (api_model), 2, TRUE, FALSE },
  { N_("Price per GPU-hour"), CAND (price_per_gpu_hour), FALSE, FALSE, TRUE, TRUE },
  { N_("GPUs per replica"), CAND (gpus_per_replica), TRUE, FALSE, TRUE },
  { N_("Billed hours per window (scheduled)"), CAND (billed_hours), FALSE, FALSE, TRUE },
  { N_("Target utilisation (autoscaled)"), CAND (target_utilization), FALSE, FALSE, TRUE },
  { N_("Capacity override (requests/s per replica)"), CAND (capacity_override), FALSE, FALSE, TRUE },
  { N_("Storage per window"), CAND (storage), FALSE, TRUE, TRUE, TRUE },
  { N_("Network per window"), CAND (network), FALSE, TRUE, TRUE, TRUE },
  { N_("Serving stack per window"), CAND (serving_stack), FALSE, FALSE, TRUE, TRUE },
  { N_("Observability per window"), CAND (observability), FALSE, TRUE, TRUE, TRUE },
  { N_("Platform labour hours per window"), CAND (labor_hours), FALSE, TRUE, TRUE },
  { N_("Labour rate per hour"), CAND (labor_rate), FALSE, TRUE, TRUE, TRUE },
  { N_("Input tokens per request"), CAND (input_tokens), FALSE, TRUE, FALSE },
  { N_("Cached input tokens per request"), CAND (cached_input_tokens), FALSE, TRUE, FALSE },
  { N_("Output tokens per request"), CAND (output_tokens), FALSE, TRUE, FALSE },
  { N_("Price per million input tokens"), CAND (price_input_per_mtok), FALSE, TRUE, FALSE, TRUE },
  { N_("Price per million cached tokens"), CAND (price_cached_per_mtok), FALSE, TRUE, FALSE, TRUE },
  { N_("Price per million output tokens"), CAND (price_output_per_mtok), FALSE, TRUE, FALSE, TRUE },
  { N_("Gateway and operations per window"), CAND (gateway), FALSE, TRUE, FALSE, TRUE },
  { N_("Rate limit (requests/min)"), CAND (rate_limit_rpm), FALSE, TRUE, FALSE },
  { N_("Purchase price per GPU (to buy)"), CAND (purchase_price_per_gpu), FALSE, FALSE, TRUE, TRUE },
  { N_("Depreciation (years)"), CAND (depreciation_years), FALSE, FALSE, TRUE },
  { N_("Power per GPU-hour (owned)"), CAND (power_per_gpu_hour), FALSE, FALSE, TRUE, TRUE },
  { N_("Hosting per GPU-month (owned)"), CAND (hosting_per_gpu_month), FALSE, FALSE, TRUE, TRUE },
};

static const char * const ops_kinds[] = {
  "kill-worker", "drain-node", "restart-stack", "bad-deploy", "cold-start", "checkpoint-recovery", NULL
};
static const char * const ops_results[] = { "not-run", "pass", "fail", NULL };
static const char * const checklist_sections[] = { "hardware", "software", "commercial", "security", NULL };
static const char * const checklist_answers[] = { "unknown", "yes", "partial", "no", NULL };

static void rebuild (ProcuraCandidatesPage *self);

static ProcuraCandidate *
find_candidate (ProcuraCandidatesPage *self,
                gint64                 id)
{
  return procura_project_find_candidate (procura_document_get_project (self->document), id);
}

static void
cost_apply_cb (ProcuraCostRow        *row,
               ProcuraCandidatesPage *self)
{
  ProcuraCandidate *current = find_candidate (self, procura_cost_row_get_candidate_id (row));
  const CostField *field = &cost_fields[procura_cost_row_get_field (row)];
  g_autoptr (ProcuraCandidate) copy = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  char *end = NULL;
  double value;

  if (current == NULL)
    return;
  if (field->is_int == 2)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (text));
      char **slot;

      if (field->offset == CAND (name) && *stripped == '\0')
        {
          gtk_widget_add_css_class (GTK_WIDGET (row), "error");
          return;
        }
      gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
      copy = procura_candidate_copy (current);
      slot = &G_STRUCT_MEMBER (char *, copy, field->offset);
      g_free (*slot);
      *slot = *stripped != '\0' ? g_steal_pointer (&stripped) : NULL;
      procura_document_update_candidate (self->document, copy);
      return;
    }
  while (g_ascii_isspace (*text))
    text++;
  value = *text == '\0' ? NAN : g_ascii_strtod (text, &end);
  if (*text != '\0' && (end == text || *end != '\0' || value < 0 || !isfinite (value)))
    {
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
  copy = procura_candidate_copy (current);
  if (field->is_int)
    G_STRUCT_MEMBER (int, copy, field->offset) = isnan (value) ? -1 : (int) value;
  else
    G_STRUCT_MEMBER (double, copy, field->offset) = value;
  procura_document_update_candidate (self->document, copy);
}

static void
delete_requested_cb (ProcuraCandidateRow   *row,
                     ProcuraCandidatesPage *self)
{
  procura_document_delete_candidate (self->document, procura_candidate_row_get_candidate_id (row));
}

static ProcuraChecklistItem *find_checklist_item (ProcuraCandidatesPage *self,
                                                  gint64                 id);

static const ProcuraOpsTest *
find_ops_test (ProcuraProject *project,
               gint64          candidate_id,
               const char     *kind)
{
  for (guint i = 0; i < project->ops_tests->len; i++)
    {
      const ProcuraOpsTest *t = g_ptr_array_index (project->ops_tests, i);

      if (t->candidate_id == candidate_id && g_strcmp0 (t->kind, kind) == 0)
        return t;
    }
  return NULL;
}

static void
ops_selected_cb (ProcuraChoiceRow      *row,
                 GParamSpec            *pspec,
                 ProcuraCandidatesPage *self)
{
  gint64 candidate_id = procura_choice_row_get_candidate_id (row);
  const char *kind = procura_choice_row_get_kind (row);
  const ProcuraOpsTest *existing = NULL;
  ProcuraOpsTest test = { 0 };
  guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (row));

  if (selected == GTK_INVALID_LIST_POSITION || self->document == NULL)
    return;
  /* Looked up in the current snapshot, never kept on the row: the row can outlive the
   * snapshot it was built from (a reload replaces and frees it). */
  existing = find_ops_test (procura_document_get_project (self->document), candidate_id, kind);
  if (existing != NULL)
    test = *existing;
  else
    {
      test.candidate_id = candidate_id;
      test.kind = (char *) kind;
      test.recovery_s = test.failed_requests = test.per_month = NAN;
    }
  test.result = (char *) ops_results[selected];
  procura_document_update_ops_test (self->document, &test);
}

static void
checklist_selected_cb (ProcuraChoiceRow      *row,
                       GParamSpec            *pspec,
                       ProcuraCandidatesPage *self)
{
  ProcuraChecklistItem *existing;
  ProcuraChecklistItem item;
  guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (row));

  if (self->document == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  /* By id in the current snapshot: the row may outlive the one it was built from. */
  existing = find_checklist_item (self, procura_choice_row_get_item_id (row));
  if (existing == NULL)
    return;
  item = *existing;
  item.answer = (char *) checklist_answers[selected];
  procura_document_update_checklist_item (self->document, &item);
}

static GtkStringList *
label_list (const char * const *ids)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    gtk_string_list_append (list, procura_format_id (ids[i]));
  return list;
}

static guint
index_of (const char * const *ids,
          const char         *id)
{
  for (guint i = 0; id != NULL && ids[i] != NULL; i++)
    if (g_str_equal (ids[i], id))
      return i;
  return 0;
}

static char *
candidate_summary (ProcuraProject   *project,
                   ProcuraCandidate *c)
{
  const char *currency = project->assumptions.currency;
  g_autoptr (GString) s = g_string_new (NULL);

  if (c->kind == PROCURA_CANDIDATE_API)
    {
      g_autofree char *in = procura_units_money (c->price_input_per_mtok, currency);
      g_autofree char *out = procura_units_money (c->price_output_per_mtok, currency);

      /* Translators: API route summary: provider · model · input and output price per million tokens */
      g_string_append_printf (s, _("API route · %s %s · %s in, %s out per million tokens"),
                              c->api_provider != NULL ? c->api_provider : "",
                              c->api_model != NULL ? c->api_model : "", in, out);
    }
  else
    {
      g_autofree char *price = procura_units_money (c->price_per_gpu_hour, currency);
      const char *gpu = c->gpu_name;
      const ProcuraGpuSpec *spec = gpu != NULL ? procura_gpu_catalog_lookup (gpu) : NULL;

      /* The catalog's display name rather than its id. */
      if (spec != NULL)
        gpu = spec->name;

      /* Translators: GPU candidate summary: GPUs per replica × GPU · provider · price per GPU-hour */
      g_string_append_printf (s, _("%d × %s · %s · %s per GPU-hour"),
                              c->gpus_per_replica > 0 ? c->gpus_per_replica : 1,
                              gpu != NULL ? gpu : _("unknown GPU"),
                              c->provider != NULL ? c->provider : _("no provider"), price);
      if (c->kind == PROCURA_CANDIDATE_HYBRID)
        g_string_append (s, _(" · API overflow"));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
fill_price_date_row (ProcuraProject   *project,
                     ProcuraCandidate *c,
                     AdwActionRow     *row,
                     GtkLabel         *badge)
{
  const char *date = c->price_date;
  ProcuraQuote *quote = NULL;
  g_autofree char *subtitle = NULL;
  int days;
  double stale = procura_is_set (project->assumptions.stale_days) ? project->assumptions.stale_days : 30;

  for (guint i = 0; c->quote_id > 0 && i < project->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (project->quotes, i);
      if (q->id == c->quote_id)
        quote = q;
    }
  if (date == NULL && quote != NULL)
    date = quote->seen_date;
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 quote != NULL ? _("Price quoted") : _("Price typed in"));
  days = procura_days_since (date);
  if (date == NULL || days < 0)
    subtitle = g_strdup (_("The date the price was seen is unknown"));
  else
    /* Translators: price date: "seen 2026-10-01, 60 days ago" */
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "seen %s, %d day ago", "seen %s, %d days ago", days),
                                date, days);
  if (quote != NULL)
    {
      char *with_source = g_strdup_printf ("%s · %s %s", subtitle,
                                           quote->provider != NULL ? quote->provider : "",
                                           quote->sku != NULL ? quote->sku : "");
      g_free (subtitle);
      subtitle = with_source;
    }
  adw_action_row_set_subtitle (row, subtitle);
  if (date == NULL || days < 0 || days > stale)
    {
      gtk_label_set_text (badge, date == NULL || days < 0 ? _("Undated") : _("Stale"));
      gtk_widget_set_visible (GTK_WIDGET (badge), TRUE);
    }
}

static void
catalog_selected_cb (ProcuraChoiceRow      *row,
                     GParamSpec            *pspec,
                     ProcuraCandidatesPage *self)
{
  ProcuraCandidate *current = find_candidate (self, procura_choice_row_get_candidate_id (row));
  guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (row));
  const ProcuraGpuSpec * const *all;
  g_autoptr (ProcuraCandidate) copy = NULL;
  gsize n = 0;

  if (current == NULL || selected == GTK_INVALID_LIST_POSITION || selected == 0)
    return;
  all = procura_gpu_catalog_all (&n);
  if (selected - 1 >= n)
    return;
  copy = procura_candidate_copy (current);
  g_free (copy->gpu_name);
  copy->gpu_name = g_strdup (all[selected - 1]->id);
  procura_document_update_candidate (self->document, copy);
}

static GtkWidget *
catalog_row (ProcuraCandidatesPage *self,
             ProcuraCandidate      *c)
{
  GtkWidget *row = procura_choice_row_new (c->id, 0, NULL);
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  const ProcuraGpuSpec *current = c->gpu_name != NULL ? procura_gpu_catalog_lookup (c->gpu_name) : NULL;
  const ProcuraGpuSpec * const *all;
  gsize n = 0;
  guint selected = 0;

  all = procura_gpu_catalog_all (&n);
  gtk_string_list_append (names, _("Not from the catalog"));
  for (gsize i = 0; i < n; i++)
    {
      gtk_string_list_append (names, all[i]->name);
      if (all[i] == current)
        selected = i + 1;
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (names));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("GPU from the catalog"));
  /* Chosen before the handler is connected: setting up is not choosing. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  gtk_widget_set_sensitive (row, !procura_document_get_read_only (self->document));
  g_signal_connect (row, "notify::selected", G_CALLBACK (catalog_selected_cb), self);
  return row;
}

static void
quote_selected_cb (ProcuraChoiceRow      *row,
                   GParamSpec            *pspec,
                   ProcuraCandidatesPage *self)
{
  ProcuraCandidate *current = find_candidate (self, procura_choice_row_get_candidate_id (row));
  guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (row));
  g_autoptr (ProcuraCandidate) copy = NULL;
  ProcuraQuote *q;

  if (current == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  copy = procura_candidate_copy (current);
  q = procura_choice_row_get_quote (row, selected);
  if (q == NULL)
    copy->quote_id = 0;   /* typed in: keep the figures, drop the link */
  else
    {
      copy->quote_id = q->id;
      if (procura_is_set (procura_quote_price_per_gpu_hour (q)))
        copy->price_per_gpu_hour = procura_quote_price_per_gpu_hour (q);
#define TAKE(field, value) G_STMT_START { if ((value) != NULL) { g_free (copy->field); copy->field = g_strdup (value); } } G_STMT_END
      TAKE (price_date, q->seen_date);
      TAKE (provider, q->provider);
      TAKE (pricing_model, q->pricing_model);
      TAKE (region, q->region);
      TAKE (gpu_name, q->gpu_id != NULL ? q->gpu_id : q->gpu_name);
#undef TAKE
    }
  procura_document_update_candidate (self->document, copy);
}

static GtkWidget *
quote_row (ProcuraCandidatesPage *self,
           ProcuraProject        *project,
           ProcuraCandidate      *c)
{
  GtkWidget *row = procura_choice_row_new (c->id, 0, NULL);
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  /* Copies: the row can outlive this snapshot of the project (a reload frees it). */
  GPtrArray *quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quote_free);
  guint selected = 0;

  gtk_string_list_append (names, _("Typed in"));
  for (guint i = 0; i < project->quotes->len; i++)
    {
      ProcuraQuote *q = g_ptr_array_index (project->quotes, i);
      g_autofree char *price = NULL;
      g_autofree char *label = NULL;

      if (q->kind != PROCURA_QUOTE_GPU)
        continue;
      price = procura_units_money (procura_quote_price_per_gpu_hour (q), project->assumptions.currency);
      /* Translators: a quote: provider SKU · price per GPU-hour · date seen */
      label = g_strdup_printf (_("%s %s · %s per GPU-hour · %s"), q->provider != NULL ? q->provider : "",
                               q->sku != NULL ? q->sku : "", price, q->seen_date != NULL ? q->seen_date : "—");
      gtk_string_list_append (names, label);
      g_ptr_array_add (quotes, procura_quote_copy (q));
      if (q->id == c->quote_id)
        selected = quotes->len;
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (names));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Quote"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  gtk_widget_set_sensitive (row, !procura_document_get_read_only (self->document) && quotes->len > 0);
  procura_choice_row_set_quotes (PROCURA_CHOICE_ROW (row), quotes);
  g_signal_connect (row, "notify::selected", G_CALLBACK (quote_selected_cb), self);
  return row;
}

/* The cost inputs, built when the section is first expanded, from the project as it is
 * then. */
static void
fill_cost (ProcuraCandidateSection *expander,
           gpointer                 data)
{
  ProcuraCandidatesPage *self = data;
  ProcuraProject *project;
  ProcuraCandidate *c;
  gboolean read_only;

  if (self->document == NULL)
    return;
  project = procura_document_get_project (self->document);
  c = procura_project_find_candidate (project, procura_candidate_section_get_candidate_id (expander));
  if (c == NULL)
    return;
  read_only = procura_document_get_read_only (self->document);
  if (c->kind != PROCURA_CANDIDATE_API)
    {
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), catalog_row (self, c));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), quote_row (self, project, c));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cost_fields); i++)
    {
      const CostField *field = &cost_fields[i];
      gboolean is_api = c->kind == PROCURA_CANDIDATE_API;
      gboolean is_gpu = c->kind == PROCURA_CANDIDATE_GPU;
      GtkWidget *row;
      g_autofree char *text = NULL;

      if ((is_api && !field->api) || (is_gpu && !field->gpu))
        continue;
      if (field->is_int == 2)
        {
          const char *v = G_STRUCT_MEMBER (char *, c, field->offset);
          text = g_strdup (v != NULL ? v : "");
        }
      else if (field->is_int)
        {
          int v = G_STRUCT_MEMBER (int, c, field->offset);
          text = v >= 0 ? g_strdup_printf ("%d", v) : g_strdup ("");
        }
      else
        {
          double v = G_STRUCT_MEMBER (double, c, field->offset);
          text = isnan (v) ? g_strdup ("") : g_strdup_printf ("%g", v);
        }
      row = procura_cost_row_new (c->id, (guint) i);
      if (field->money)
        {
          /* Translators: a cost input and the currency it is in, e.g. "Price per GPU-hour (USD)" */
          g_autofree char *title = g_strdup_printf (_("%s (%s)"), _(field->title),
                                                    project->assumptions.currency != NULL
                                                    ? project->assumptions.currency : "USD");
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
        }
      else
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(field->title));
      adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (row), TRUE);
      if (field->is_int != 2)
        adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_NUMBER);
      gtk_editable_set_text (GTK_EDITABLE (row), text);
      gtk_widget_set_sensitive (row, !read_only);
      g_signal_connect (row, "apply", G_CALLBACK (cost_apply_cb), self);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }
}

/* ------------------------------------------------------------------------- */
/* Dialogs: a checklist item, an operations test's measurements               */

static GtkWidget *
dialog_new (ProcuraCandidatesPage *self,
            const char            *heading,
            const char            *body,
            GtkWidget            **list)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                              heading, body);

  *list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (*list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (*list, "boxed-list");
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), *list);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"), "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  return dialog;
}

static GtkWidget *
dialog_entry (GtkWidget  *list,
              const char *title,
              const char *text,
              gboolean    number)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  /* Enter saves (when Save is enabled) */
  adw_entry_row_set_activates_default (ADW_ENTRY_ROW (row), TRUE);
  if (number)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_NUMBER);
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  return row;
}

static GtkWidget *
dialog_combo (GtkWidget          *list,
              const char         *title,
              const char * const *ids,
              const char         *id)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr (GtkStringList) labels = label_list (ids);

  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (labels));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), index_of (ids, id));
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  return row;
}

static char *
entry_text (GtkWidget *row)
{
  char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  if (*text == '\0')
    g_clear_pointer (&text, g_free);
  return text;
}

/* A measured value: empty is unknown (NAN); otherwise a finite number ≥ 0, as the cost
 * inputs are checked. */
static gboolean
parse_measure (const char *text,
               double     *value)
{
  char *end = NULL;

  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    {
      *value = NAN;
      return TRUE;
    }
  *value = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  return end != text && *end == '\0' && isfinite (*value) && *value >= 0;
}

static char *
format_measure (double value)
{
  return isnan (value) ? g_strdup ("") : g_strdup_printf ("%g", value);
}

typedef struct {
  ProcuraCandidatesPage *self;
  gint64                 id;            /* the row's id; 0 for a new one */
  gint64                 candidate_id;
  char                  *kind;          /* ops test kind */
  GtkWidget             *dialog;
  GtkWidget             *question;
  GtkWidget             *section;
  GtkWidget             *answer;
  GtkWidget             *evidence;
  GtkWidget             *file;
  GtkWidget             *result;
  GtkWidget             *measures[3];   /* failed requests, recovery, per month */
  GtkWidget             *notes;
} EditDialog;

static void
edit_dialog_free (gpointer  data,
                  GClosure *closure)
{
  EditDialog *d = data;

  g_object_unref (d->self);
  g_free (d->kind);
  g_free (d);
}

static void
checklist_validate (EditDialog *d)
{
  g_autofree char *question = entry_text (d->question);

  if (question == NULL)
    gtk_widget_add_css_class (d->question, "error");
  else
    gtk_widget_remove_css_class (d->question, "error");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (d->dialog), "save", question != NULL);
}

static void
checklist_changed_cb (GtkEditable *editable,
                      EditDialog  *d)
{
  checklist_validate (d);
}

static void
checklist_response_cb (AdwMessageDialog *dialog,
                       const char       *response,
                       EditDialog       *d)
{
  ProcuraChecklistItem item = { 0 };
  g_autofree char *question = NULL, *evidence = NULL, *file = NULL;
  guint section, answer;

  if (!g_str_equal (response, "save") || d->self->document == NULL)
    return;
  question = entry_text (d->question);
  if (question == NULL)
    return;
  evidence = entry_text (d->evidence);
  file = entry_text (d->file);
  section = adw_combo_row_get_selected (ADW_COMBO_ROW (d->section));
  answer = adw_combo_row_get_selected (ADW_COMBO_ROW (d->answer));
  item.id = d->id;
  item.candidate_id = d->candidate_id;
  item.section = (char *) checklist_sections[MIN (section, G_N_ELEMENTS (checklist_sections) - 2)];
  item.item = question;
  item.answer = (char *) checklist_answers[MIN (answer, G_N_ELEMENTS (checklist_answers) - 2)];
  item.evidence = evidence;
  item.evidence_file = file;
  procura_document_update_checklist_item (d->self->document, &item);
}

static void
evidence_file_response_cb (GtkNativeDialog *chooser,
                           int              response,
                           GtkWidget       *row)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autofree char *uri = file != NULL && path == NULL ? g_file_get_uri (file) : NULL;

      if (path != NULL || uri != NULL)
        gtk_editable_set_text (GTK_EDITABLE (row), path != NULL ? path : uri);
    }
  g_object_unref (row);
  g_object_unref (chooser);
}

static void
choose_evidence_file_cb (GtkButton *button,
                         GtkWidget *row)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Choose the Evidence File"),
                                         GTK_WINDOW (gtk_widget_get_root (row)),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (evidence_file_response_cb), g_object_ref (row));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_checklist_dialog (ProcuraCandidatesPage      *self,
                       gint64                      candidate_id,
                       const ProcuraChecklistItem *item)
{
  EditDialog *d = g_new0 (EditDialog, 1);
  GtkWidget *list, *choose;

  d->self = g_object_ref (self);
  d->id = item != NULL ? item->id : 0;
  d->candidate_id = candidate_id;
  d->dialog = dialog_new (self, item != NULL ? _("Edit Checklist Item") : _("New Checklist Item"),
                          _("The question, its answer and the evidence behind it: a note and, if there is one, the file (a path or a web address)."),
                          &list);
  d->question = dialog_entry (list, _("Question"), item != NULL ? item->item : NULL, FALSE);
  d->section = dialog_combo (list, _("Section"), checklist_sections, item != NULL ? item->section : NULL);
  d->answer = dialog_combo (list, _("Answer"), checklist_answers, item != NULL ? item->answer : NULL);
  d->evidence = dialog_entry (list, _("Evidence"), item != NULL ? item->evidence : NULL, FALSE);
  d->file = dialog_entry (list, _("Evidence file (path or URL)"), item != NULL ? item->evidence_file : NULL, FALSE);
  choose = gtk_button_new_from_icon_name ("document-open-symbolic");
  gtk_widget_add_css_class (choose, "flat");
  gtk_widget_set_valign (choose, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (choose, _("Choose a File…"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (choose), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Choose the evidence file"), -1);
  g_signal_connect (choose, "clicked", G_CALLBACK (choose_evidence_file_cb), d->file);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (d->file), choose);
  g_signal_connect (d->question, "changed", G_CALLBACK (checklist_changed_cb), d);
  checklist_validate (d);
  g_signal_connect_data (d->dialog, "response", G_CALLBACK (checklist_response_cb), d,
                         edit_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (d->dialog));
  gtk_widget_grab_focus (d->question);
}

static ProcuraChecklistItem *
find_checklist_item (ProcuraCandidatesPage *self,
                     gint64                 id)
{
  ProcuraProject *project = procura_document_get_project (self->document);

  for (guint i = 0; i < project->checklist->len; i++)
    {
      ProcuraChecklistItem *item = g_ptr_array_index (project->checklist, i);
      if (item->id == id)
        return item;
    }
  return NULL;
}

static void
checklist_edit_clicked_cb (ProcuraItemButton     *button,
                           ProcuraCandidatesPage *self)
{
  ProcuraChecklistItem *item = find_checklist_item (self, procura_item_button_get_item_id (button));

  if (item != NULL)
    open_checklist_dialog (self, item->candidate_id, item);
}

static void
checklist_remove_clicked_cb (ProcuraItemButton     *button,
                             ProcuraCandidatesPage *self)
{
  ProcuraChecklistItem *item = find_checklist_item (self, procura_item_button_get_item_id (button));

  if (item != NULL)
    procura_document_delete_checklist_item (self->document, item->id);
}

static void
checklist_add_activated_cb (AdwActionRow          *row,
                            ProcuraCandidatesPage *self)
{
  GtkWidget *section = gtk_widget_get_ancestor (GTK_WIDGET (row), PROCURA_TYPE_CANDIDATE_SECTION);

  if (section != NULL)
    open_checklist_dialog (self, procura_candidate_section_get_candidate_id (PROCURA_CANDIDATE_SECTION (section)), NULL);
}

static gboolean
known_section (const char *section)
{
  return section != NULL && g_strv_contains (checklist_sections, section);
}

/* The checklist items of @candidate_id (0: project-wide) in the order shown: the
 * sections in order, then any other section the file holds. The items belong to
 * @project: use the array at once. */
static GPtrArray *
checklist_items (ProcuraProject *project,
                 gint64          candidate_id)
{
  GPtrArray *items = g_ptr_array_new ();

  for (guint s = 0; s <= g_strv_length ((char **) checklist_sections); s++)
    for (guint i = 0; i < project->checklist->len; i++)
      {
        ProcuraChecklistItem *item = g_ptr_array_index (project->checklist, i);

        if (item->candidate_id != candidate_id)
          continue;
        if (checklist_sections[s] != NULL ? g_strcmp0 (item->section, checklist_sections[s]) != 0
                                          : known_section (item->section))
          continue;
        g_ptr_array_add (items, item);
      }
  return items;
}

/* The rows of a checklist, built when the section is first expanded. */
static void
fill_checklist (ProcuraCandidateSection *expander,
                gpointer                 data)
{
  ProcuraCandidatesPage *self = data;
  gint64 candidate_id = procura_candidate_section_get_candidate_id (expander);
  g_autoptr (GPtrArray) items = NULL;
  GtkWidget *add;
  gboolean read_only;

  if (self->document == NULL)
    return;
  read_only = procura_document_get_read_only (self->document);
  items = checklist_items (procura_document_get_project (self->document), candidate_id);
  for (guint i = 0; i < items->len; i++)
    {
      ProcuraChecklistItem *item = g_ptr_array_index (items, i);
      g_autoptr (GtkStringList) answers = label_list (checklist_answers);
      g_autoptr (GString) row_subtitle = g_string_new (NULL);
      g_autofree char *edit_label = NULL, *remove_label = NULL;
      GtkWidget *row, *edit, *remove;

      row = procura_choice_row_new (candidate_id, item->id, NULL);
      adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (answers));
      /* The analyst's text, not markup. */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), item->item != NULL ? item->item : "");
      /* Translators: checklist row subtitle: section — evidence */
      g_string_printf (row_subtitle, _("%s — evidence: %s"),
                       item->section != NULL ? procura_format_id (item->section) : _("no section"),
                       item->evidence != NULL && *item->evidence ? item->evidence : _("none recorded"));
      if (item->evidence_file != NULL && *item->evidence_file)
        /* Translators: appended to a checklist row's subtitle: the evidence file */
        g_string_append_printf (row_subtitle, _(" · file: %s"), item->evidence_file);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), row_subtitle->str);
      /* Chosen before the handler is connected: setting up is not choosing. */
      adw_combo_row_set_selected (ADW_COMBO_ROW (row), index_of (checklist_answers, item->answer));
      gtk_widget_set_sensitive (row, !read_only);
      g_signal_connect (row, "notify::selected", G_CALLBACK (checklist_selected_cb), self);

      /* Translators: button of a checklist row */
      edit_label = g_strdup_printf (_("Edit “%s”"), item->item != NULL ? item->item : "");
      edit = procura_item_button_new ("document-edit-symbolic", edit_label, candidate_id, item->id, NULL);
      g_signal_connect (edit, "clicked", G_CALLBACK (checklist_edit_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), edit);
      /* Translators: button of a checklist row */
      remove_label = g_strdup_printf (_("Remove “%s”"), item->item != NULL ? item->item : "");
      remove = procura_item_button_new ("user-trash-symbolic", remove_label, candidate_id, item->id, NULL);
      g_signal_connect (remove, "clicked", G_CALLBACK (checklist_remove_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }
  add = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (add), _("_Add Checklist Item…"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (add), TRUE);
  adw_action_row_add_prefix (ADW_ACTION_ROW (add), gtk_image_new_from_icon_name ("list-add-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (add), TRUE);
  gtk_widget_set_sensitive (add, !read_only);
  g_signal_connect (add, "activated", G_CALLBACK (checklist_add_activated_cb), self);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), add);
}

/* Sets up a checklist section: its summary now, its rows when first expanded. */
static void
setup_checklist (ProcuraCandidatesPage   *self,
                 ProcuraProject          *project,
                 ProcuraCandidateSection *expander,
                 gint64                   candidate_id)   /* 0: project-wide */
{
  g_autoptr (GPtrArray) items = checklist_items (project, candidate_id);
  g_autofree char *subtitle = NULL;
  guint answered = 0;

  for (guint i = 0; i < items->len; i++)
    {
      ProcuraChecklistItem *item = g_ptr_array_index (items, i);

      if (item->answer != NULL && !g_str_equal (item->answer, "unknown"))
        answered++;
    }
  if (items->len == 0)
    subtitle = g_strdup (_("No checklist answers recorded: hardware and topology, software stack, commercial model, security and governance"));
  else
    /* Translators: "5 of 12 answered" */
    subtitle = g_strdup_printf (_("%u of %u answered"), answered, items->len);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle);
  procura_candidate_section_setup (expander, "checklist", candidate_id, fill_checklist, self);
  procura_candidate_section_remember (expander, self->expanded);
}

static void
ops_validate (EditDialog *d)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (d->measures); i++)
    {
      double value;

      if (parse_measure (gtk_editable_get_text (GTK_EDITABLE (d->measures[i])), &value))
        gtk_widget_remove_css_class (d->measures[i], "error");
      else
        {
          gtk_widget_add_css_class (d->measures[i], "error");
          ok = FALSE;
        }
    }
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (d->dialog), "save", ok);
}

static void
ops_changed_cb (GtkEditable *editable,
                EditDialog  *d)
{
  ops_validate (d);
}

static void
ops_response_cb (AdwMessageDialog *dialog,
                 const char       *response,
                 EditDialog       *d)
{
  ProcuraOpsTest test = { 0 };
  double values[3];
  g_autofree char *notes = NULL;
  guint result;

  if (!g_str_equal (response, "save") || d->self->document == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    if (!parse_measure (gtk_editable_get_text (GTK_EDITABLE (d->measures[i])), &values[i]))
      return;
  notes = entry_text (d->notes);
  result = adw_combo_row_get_selected (ADW_COMBO_ROW (d->result));
  test.id = d->id;
  test.candidate_id = d->candidate_id;
  test.kind = d->kind;
  test.result = (char *) ops_results[MIN (result, G_N_ELEMENTS (ops_results) - 2)];
  test.failed_requests = values[0];
  test.recovery_s = values[1];
  test.per_month = values[2];
  test.notes = notes;
  procura_document_update_ops_test (d->self->document, &test);
}

static void
open_ops_dialog (ProcuraCandidatesPage *self,
                 gint64                 candidate_id,
                 const char            *kind,
                 const ProcuraOpsTest  *test)
{
  static const char *titles[] = {
    N_("Failed requests"), N_("Recovery time (s)"), N_("Occurrences per planning window"),
  };
  EditDialog *d = g_new0 (EditDialog, 1);
  GtkWidget *list;
  g_autofree char *heading = NULL;

  d->self = g_object_ref (self);
  d->id = test != NULL ? test->id : 0;
  d->candidate_id = candidate_id;
  d->kind = g_strdup (kind);
  /* Translators: heading of the dialog of one operations test, e.g. "Test: Kill a worker" */
  heading = g_strdup_printf (_("Test: %s"), procura_format_id (kind));
  d->dialog = dialog_new (self, heading,
                          _("What the test measured. Leave a value empty when it was not measured; measured values are numbers of 0 or more."),
                          &list);
  d->result = dialog_combo (list, _("Result"), ops_results, test != NULL ? test->result : NULL);
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      double v = test == NULL ? NAN : i == 0 ? test->failed_requests : i == 1 ? test->recovery_s : test->per_month;
      g_autofree char *text = format_measure (v);

      d->measures[i] = dialog_entry (list, _(titles[i]), text, TRUE);
      g_signal_connect (d->measures[i], "changed", G_CALLBACK (ops_changed_cb), d);
    }
  d->notes = dialog_entry (list, _("Notes"), test != NULL ? test->notes : NULL, FALSE);
  ops_validate (d);
  g_signal_connect_data (d->dialog, "response", G_CALLBACK (ops_response_cb), d,
                         edit_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (d->dialog));
  gtk_widget_grab_focus (d->measures[0]);
}

/* The test of @kind recorded for @candidate_id (the last one), or NULL. */
static ProcuraOpsTest *
ops_test_of (ProcuraProject *project,
             gint64          candidate_id,
             const char     *kind)
{
  ProcuraOpsTest *test = NULL;

  for (guint i = 0; i < project->ops_tests->len; i++)
    {
      ProcuraOpsTest *t = g_ptr_array_index (project->ops_tests, i);
      if (t->candidate_id == candidate_id && g_strcmp0 (t->kind, kind) == 0)
        test = t;
    }
  return test;
}

static void
ops_edit_clicked_cb (ProcuraItemButton     *button,
                     ProcuraCandidatesPage *self)
{
  gint64 candidate_id = procura_item_button_get_candidate_id (button);
  const char *kind = procura_item_button_get_kind (button);

  open_ops_dialog (self, candidate_id, kind,
                   ops_test_of (procura_document_get_project (self->document), candidate_id, kind));
}

/* The rows of the operations tests, built when the section is first expanded. */
static void
fill_ops (ProcuraCandidateSection *expander,
          gpointer                 data)
{
  ProcuraCandidatesPage *self = data;
  gint64 candidate_id = procura_candidate_section_get_candidate_id (expander);
  ProcuraProject *project;

  if (self->document == NULL)
    return;
  project = procura_document_get_project (self->document);
  for (guint k = 0; ops_kinds[k] != NULL; k++)
    {
      ProcuraOpsTest *test = ops_test_of (project, candidate_id, ops_kinds[k]);
      g_autoptr (GtkStringList) results = label_list (ops_results);
      GtkWidget *row = procura_choice_row_new (candidate_id, 0, ops_kinds[k]);
      g_autoptr (GString) detail = g_string_new (NULL);

      adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (results));
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), procura_format_id (ops_kinds[k]));
      if (test != NULL && procura_is_set (test->recovery_s))
        /* Translators: seconds to recover */
        g_string_append_printf (detail, _("recovered in %.0f s"), test->recovery_s);
      if (test != NULL && procura_is_set (test->failed_requests))
        g_string_append_printf (detail, "%s%s", detail->len ? " · " : "",
                                /* Translators: requests lost in an operations test */
                                _("requests lost:"));
      if (test != NULL && procura_is_set (test->failed_requests))
        g_string_append_printf (detail, " %.0f", test->failed_requests);
      if (test != NULL && procura_is_set (test->per_month))
        {
          g_string_append (detail, detail->len ? " · " : "");
          /* Translators: expected occurrences per planning window */
          g_string_append_printf (detail, _("%g per window"), test->per_month);
        }
      if (test != NULL && test->notes != NULL && *test->notes)
        g_string_append_printf (detail, "%s%s", detail->len ? " · " : "", test->notes);
      if (detail->len == 0)
        g_string_append (detail, _("No measurement; priced as failure waste once measured"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), detail->str);
      /* Chosen before the handler is connected: setting up is not choosing. */
      adw_combo_row_set_selected (ADW_COMBO_ROW (row), test != NULL ? index_of (ops_results, test->result) : 0);
      gtk_widget_set_sensitive (row, !procura_document_get_read_only (self->document));
      g_signal_connect (row, "notify::selected", G_CALLBACK (ops_selected_cb), self);
      {
        /* Translators: button of an operations test row, e.g. "Edit the measurements of “Kill a worker”" */
        g_autofree char *label = g_strdup_printf (_("Edit the measurements of “%s”"),
                                                  procura_format_id (ops_kinds[k]));
        GtkWidget *edit = procura_item_button_new ("document-edit-symbolic", label, candidate_id,
                                                   test != NULL ? test->id : 0, ops_kinds[k]);

        g_signal_connect (edit, "clicked", G_CALLBACK (ops_edit_clicked_cb), self);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), edit);
      }
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }
}

/* Sets up the operations tests' section: its summary now, its rows when first expanded. */
static void
setup_ops (ProcuraCandidatesPage   *self,
           ProcuraProject          *project,
           ProcuraCandidateSection *expander,
           gint64                   candidate_id)
{
  guint passed = 0, failed = 0;
  g_autofree char *subtitle = NULL;

  for (guint k = 0; ops_kinds[k] != NULL; k++)
    {
      ProcuraOpsTest *test = ops_test_of (project, candidate_id, ops_kinds[k]);

      if (test != NULL && g_strcmp0 (test->result, "pass") == 0)
        passed++;
      if (test != NULL && g_strcmp0 (test->result, "fail") == 0)
        failed++;
    }
  /* Translators: operations tests summary */
  subtitle = g_strdup_printf (_("%u passed, %u failed, %u not run"), passed, failed,
                              (guint) (g_strv_length ((char **) ops_kinds) - passed - failed));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle);
  procura_candidate_section_setup (expander, "ops", candidate_id, fill_ops, self);
  procura_candidate_section_remember (expander, self->expanded);
}

static void
add_candidate (ProcuraCandidatesPage *self,
               ProcuraCandidateKind   kind)
{
  ProcuraProject *project = procura_document_get_project (self->document);
  g_autoptr (ProcuraCandidate) c = procura_candidate_new ();

  c->kind = kind;
  /* Names are unique: number new ones past the existing candidates. */
  for (guint n = project->candidates->len + 1; ; n++)
    {
      gboolean taken = FALSE;

      g_free (c->name);
      c->name = kind == PROCURA_CANDIDATE_API
                ? g_strdup_printf (_("New API route %u"), n)
                : g_strdup_printf (_("New GPU candidate %u"), n);
      for (guint i = 0; i < project->candidates->len; i++)
        if (g_strcmp0 (((ProcuraCandidate *) g_ptr_array_index (project->candidates, i))->name, c->name) == 0)
          taken = TRUE;
      if (!taken)
        break;
    }
  procura_document_add_candidate (self->document, c);
}

static void
add_gpu_clicked_cb (GtkButton             *button,
                    ProcuraCandidatesPage *self)
{
  add_candidate (self, PROCURA_CANDIDATE_GPU);
}

static void
add_api_clicked_cb (GtkButton             *button,
                    ProcuraCandidatesPage *self)
{
  add_candidate (self, PROCURA_CANDIDATE_API);
}

static GtkWidget *
add_buttons (ProcuraCandidatesPage *self)
{
  GtkWidget *box = procura_wrap_box_new (12, 3);   /* one column when narrow */
  GtkWidget *gpu = gtk_button_new_with_mnemonic (_("Add _GPU Candidate"));
  GtkWidget *api = gtk_button_new_with_mnemonic (_("Add _API Route"));
  GtkWidget *quotes = gtk_button_new_with_mnemonic (_("_Import Quotes…"));
  gboolean read_only = procura_document_get_read_only (self->document);

  for (GtkWidget *b = gpu; b != NULL; b = b == gpu ? api : b == api ? quotes : NULL)
    {
      gtk_widget_add_css_class (b, "pill");
      gtk_widget_set_sensitive (b, !read_only);
      procura_wrap_box_append (box, b);
    }
  g_signal_connect (gpu, "clicked", G_CALLBACK (add_gpu_clicked_cb), self);
  g_signal_connect (api, "clicked", G_CALLBACK (add_api_clicked_cb), self);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (quotes), "win.import");
  return box;
}

static void
restore_clicked_cb (ProcuraItemButton     *button,
                    ProcuraCandidatesPage *self)
{
  procura_document_undo (self->document, procura_item_button_get_item_id (button));
}

/* Deletions made outside this window (`procura candidate remove`, another Procura), with
 * a Restore button each: they are purged with the others when the window closes. */
static GtkWidget *
removals_group (ProcuraCandidatesPage *self,
                GPtrArray             *removals)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Removed Outside This Window"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
    _("Removed from the command line or by another Procura. Restore what should stay: the rest is deleted for good when this window closes."));
  for (guint i = 0; i < removals->len; i++)
    {
      ProcuraRemoval *r = g_ptr_array_index (removals, i);
      gboolean is_run = g_strcmp0 (r->kind, "run") == 0;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button;
      const char *name = r->name != NULL && *r->name ? r->name : (is_run ? _("Unnamed run") : _("Unnamed candidate"));
      g_autofree char *label = NULL;
      g_autoptr (GString) subtitle = g_string_new (NULL);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      g_string_append (subtitle, is_run ? _("Benchmark run") : _("Candidate"));
      if (r->created != NULL)
        {
          g_autoptr (GDateTime) utc = g_date_time_new_from_iso8601 (r->created, NULL);
          g_autoptr (GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
          g_autofree char *when = local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M") : NULL;

          /* Translators: when a candidate was removed, e.g. "removed 2026-12-01 22:10" */
          g_string_append_printf (subtitle, _(" · removed %s"), when != NULL ? when : r->created);
        }
      if (!is_run && r->n_runs > 0)
        g_string_append_printf (subtitle,
                                g_dngettext (GETTEXT_PACKAGE, " · with %u benchmark run", " · with %u benchmark runs", r->n_runs),
                                r->n_runs);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle->str);
      /* Translators: accessible label of the Restore button of a removed candidate */
      label = g_strdup_printf (_("Restore “%s”"), name);
      /* The button keeps the undo token. */
      button = procura_item_button_new (NULL, label, 0, r->token, NULL);
      gtk_button_set_label (GTK_BUTTON (button), _("_Restore"));
      gtk_button_set_use_underline (GTK_BUTTON (button), TRUE);
      gtk_widget_set_sensitive (button, !procura_document_get_read_only (self->document));
      g_signal_connect (button, "clicked", G_CALLBACK (restore_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  return group;
}

/* A candidate's group: its name, summary and price date now, its sections' rows when
 * they are opened. */
static GtkWidget *
candidate_row (ProcuraCandidatesPage *self,
               ProcuraProject        *project,
               ProcuraCandidate      *c)
{
  GtkWidget *row = procura_candidate_row_new (c->id);
  ProcuraCandidateRow *crow = PROCURA_CANDIDATE_ROW (row);
  GtkWidget *delete_button = procura_candidate_row_get_delete_button (crow);
  g_autofree char *summary = candidate_summary (project, c);
  g_autofree char *delete_label = NULL;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (row), c->name != NULL ? c->name : "");
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (row), summary);
  /* Translators: tooltip of the delete button of a candidate */
  delete_label = g_strdup_printf (_("Delete “%s”"), c->name != NULL ? c->name : "");
  gtk_widget_set_tooltip_text (delete_button, delete_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (delete_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, delete_label, -1);
  gtk_widget_set_sensitive (delete_button, !procura_document_get_read_only (self->document));
  g_signal_connect (row, "delete-requested", G_CALLBACK (delete_requested_cb), self);

  if (c->kind != PROCURA_CANDIDATE_API)
    fill_price_date_row (project, c, procura_candidate_row_get_price_row (crow),
                         procura_candidate_row_get_price_badge (crow));
  else
    gtk_widget_set_visible (GTK_WIDGET (procura_candidate_row_get_price_row (crow)), FALSE);
  /* The sections' rows are built when they are first expanded. */
  {
    ProcuraCandidateSection *cost = procura_candidate_row_get_section (crow, "cost");

    procura_candidate_section_setup (cost, "cost", c->id, fill_cost, self);
    procura_candidate_section_remember (cost, self->expanded);
  }
  setup_checklist (self, project, procura_candidate_row_get_section (crow, "checklist"), c->id);
  setup_ops (self, project, procura_candidate_row_get_section (crow, "ops"), c->id);
  return row;
}

/* Builds the next candidate's row, in the project's order, before the whole project's
 * group; FALSE when every candidate has its row. The project is the one the page was
 * built from: a change queues a rebuild, which cancels the batches. */
static gboolean
build_next_row (ProcuraPage *page)
{
  ProcuraCandidatesPage *self = PROCURA_CANDIDATES_PAGE (page);
  ProcuraProject *project;

  if (self->document == NULL || self->tail == NULL)
    return FALSE;
  project = procura_document_get_project (self->document);
  if (self->next_row >= project->candidates->len)
    return FALSE;
  gtk_box_insert_child_after (self->box,
                              candidate_row (self, project,
                                             g_ptr_array_index (project->candidates, self->next_row++)),
                              gtk_widget_get_prev_sibling (self->tail));
  return self->next_row < project->candidates->len;
}

static void
rebuild (ProcuraCandidatesPage *self)
{
  ProcuraProject *project;
  GPtrArray *removals;
  guint first;

  procura_page_clear_box (self->box);
  self->tail = NULL;
  self->next_row = 0;
  if (self->document == NULL)
    {
      adw_status_page_set_child (self->status, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  project = procura_document_get_project (self->document);
  removals = procura_document_get_outside_removals (self->document);
  if (project->candidates->len == 0 && removals->len == 0)
    {
      adw_status_page_set_child (self->status, add_buttons (self));
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  adw_status_page_set_child (self->status, NULL);
  if (removals->len > 0)
    gtk_box_append (self->box, removals_group (self, removals));
  {
    /* Answers that hold for every candidate (data residency, security review...); the
     * candidates' rows go before it. */
    GtkWidget *group = adw_preferences_group_new ();
    GtkWidget *checklist = procura_candidate_section_new ();

    adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Whole Project"));
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                           _("Checklist answers that hold whichever candidate is chosen"));
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (checklist), _("Procurement checklist"));
    setup_checklist (self, project, PROCURA_CANDIDATE_SECTION (checklist), 0);
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), checklist);
    gtk_box_append (self->box, group);
    self->tail = group;
  }
  gtk_box_append (self->box, add_buttons (self));
  gtk_stack_set_visible_child_name (self->stack, "content");

  /* The first screenful now, for the first frame; the others in idle batches. */
  first = procura_page_rows_to_fill (PROCURA_PAGE (self), ROW_HEIGHT);
  for (guint i = 0; i < first && build_next_row (PROCURA_PAGE (self)); i++)
    ;
  if (self->next_row < project->candidates->len)
    procura_page_build_in_idle (PROCURA_PAGE (self), build_next_row);
}

static void
document_changed_cb (ProcuraDocument       *document,
                     ProcuraCandidatesPage *self)
{
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_candidates_page_set_document (ProcuraCandidatesPage *self,
                                      ProcuraDocument       *document)
{
  g_return_if_fail (PROCURA_IS_CANDIDATES_PAGE (self));

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

static void
procura_candidates_page_dispose (GObject *object)
{
  ProcuraCandidatesPage *self = PROCURA_CANDIDATES_PAGE (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  self->tail = NULL;
  G_OBJECT_CLASS (procura_candidates_page_parent_class)->dispose (object);
}

static void
procura_candidates_page_finalize (GObject *object)
{
  ProcuraCandidatesPage *self = PROCURA_CANDIDATES_PAGE (object);

  /* In finalize: the rows point at the table until the child is gone. */
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  G_OBJECT_CLASS (procura_candidates_page_parent_class)->finalize (object);
}

static void
page_rebuild (ProcuraPage *page)
{
  rebuild (PROCURA_CANDIDATES_PAGE (page));
}

static void
procura_candidates_page_class_init (ProcuraCandidatesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = procura_candidates_page_dispose;
  object_class->finalize = procura_candidates_page_finalize;
  PROCURA_PAGE_CLASS (klass)->rebuild = page_rebuild;
}

static void
procura_candidates_page_init (ProcuraCandidatesPage *self)
{
  self->stack = procura_page_get_stack (PROCURA_PAGE (self));
  self->status = procura_page_get_status (PROCURA_PAGE (self));
  self->box = procura_page_get_box (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "view-list-bullet-symbolic", _("No Candidates"),
                      _("Add GPU offers from the catalog or a price quote, and hosted model APIs, to compare them by the cost of accepted work. Drop a quote file onto this window to import it."),
                      800, 600);
  self->expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

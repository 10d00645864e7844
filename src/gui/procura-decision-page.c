/* procura-decision-page.c: the finance table, the warnings, the recommendation and
 * the decision form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-decision-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "procura-decision-page.h"
#include "procura-layout.h"
#include "procura-format.h"
#include "procura-units.h"

#include "procura-analysis.h"

struct _ProcuraDecisionPage
{
  ProcuraPage      parent_instance;

  GtkStack        *stack;
  AdwStatusPage   *status;
  GtkBox          *box;
  GtkWidget       *complete_brief_button;   /* of the empty state */

  GtkWidget       *candidate_row;
  GtkWidget       *rationale_row;
  GtkWidget       *approver_row;
  GtkWidget       *date_row;

  GtkWidget       *analysis_box;
  GtkWidget       *finance_box;
  GtkWidget       *finance_scroller;
  GtkWidget       *what_if_banner;
  GtkWidget       *what_if_label;
  gulong           what_if_id;
  /* what each row of candidate_row stands for (Choice), parallel to its model */
  GArray          *choices;
  GtkStringList   *choice_names;

  ProcuraDocument *document;
  gulong           changed_id;
  GCancellable    *cancellable;
  ProcuraAnalysis *analysis;
  gboolean         pending;
  guint            running;
};

G_DEFINE_FINAL_TYPE (ProcuraDecisionPage, procura_decision_page, PROCURA_TYPE_PAGE)

/* One choice of the "Chosen candidate" row: a candidate of the project, or the analysis'
 * hybrid (its GPU candidate and the API route taking the overflow, docs/project-file.md) */
typedef struct {
  gint64 candidate_id;
  gint64 overflow_candidate_id;
} Choice;

static void
add_choice (ProcuraDecisionPage *self,
            const char          *name,
            gint64               candidate_id,
            gint64               overflow_candidate_id)
{
  Choice c = { candidate_id, overflow_candidate_id };

  g_array_append_val (self->choices, c);
  gtk_string_list_append (self->choice_names, name != NULL ? name : "");
}

static guint
find_choice (ProcuraDecisionPage *self,
             gint64               candidate_id,
             gint64               overflow_candidate_id)
{
  for (guint i = 0; i < self->choices->len; i++)
    {
      const Choice *c = &g_array_index (self->choices, Choice, i);

      if (c->candidate_id == candidate_id && c->overflow_candidate_id == overflow_candidate_id)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The hybrid's name as the analysis writes it, from its two constituents. */
static char *
hybrid_name (ProcuraProject *project,
             gint64          gpu_id,
             gint64          api_id)
{
  ProcuraCandidate *g = procura_project_find_candidate (project, gpu_id);
  ProcuraCandidate *a = procura_project_find_candidate (project, api_id);

  /* Translators: the GPU candidate for the base load, then the API route for the overflow */
  return g_strdup_printf (_("Hybrid: %s + %s"), g != NULL && g->name != NULL ? g->name : "?",
                          a != NULL && a->name != NULL ? a->name : "?");
}

static void
save_clicked_cb (GtkButton           *button,
                 ProcuraDecisionPage *self)
{
  ProcuraDecision decision = { 0 };
  guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (self->candidate_row));
  const Choice *choice = selected < self->choices->len ? &g_array_index (self->choices, Choice, selected) : NULL;
  const char *date = gtk_editable_get_text (GTK_EDITABLE (self->date_row));
  GDate parsed;

  if (*date != '\0')
    {
      g_date_clear (&parsed, 1);
      g_date_set_parse (&parsed, date);
      if (!g_date_valid (&parsed) || strlen (date) != 10 || date[4] != '-' || date[7] != '-')
        {
          gtk_widget_add_css_class (self->date_row, "error");
          return;
        }
    }
  gtk_widget_remove_css_class (self->date_row, "error");
  if (choice != NULL)
    {
      decision.candidate_id = choice->candidate_id;
      decision.overflow_candidate_id = choice->overflow_candidate_id;
    }
  decision.rationale = (char *) gtk_editable_get_text (GTK_EDITABLE (self->rationale_row));
  decision.approver = (char *) gtk_editable_get_text (GTK_EDITABLE (self->approver_row));
  decision.date = (char *) date;
  if (*decision.rationale == '\0')
    decision.rationale = NULL;
  if (*decision.approver == '\0')
    decision.approver = NULL;
  if (*date == '\0')
    decision.date = NULL;
  procura_document_save_decision (self->document, &decision);
}

static GtkWidget *
decision_group (ProcuraDecisionPage *self,
                ProcuraProject      *project)
{
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *save = gtk_button_new_with_mnemonic (_("_Save Decision"));
  GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export Record…"));
  GtkWidget *buttons = procura_wrap_box_new (12, 2);   /* one column when narrow */
  guint selected;
  gboolean read_only = procura_document_get_read_only (self->document);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Decision"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The record finance, platform and product sign off on."));
  g_array_set_size (self->choices, 0);
  g_clear_object (&self->choice_names);
  self->choice_names = gtk_string_list_new (NULL);
  add_choice (self, _("Not decided"), 0, 0);
  for (guint i = 0; i < project->candidates->len; i++)
    {
      ProcuraCandidate *c = g_ptr_array_index (project->candidates, i);
      add_choice (self, c->name, c->id, 0);
    }
  if (project->decision.candidate_id != 0 && project->decision.overflow_candidate_id != 0)
    {
      /* a hybrid decided before: shown before the analysis gives its own hybrid */
      g_autofree char *name = hybrid_name (project, project->decision.candidate_id,
                                           project->decision.overflow_candidate_id);
      add_choice (self, name, project->decision.candidate_id, project->decision.overflow_candidate_id);
    }
  selected = find_choice (self, project->decision.candidate_id, project->decision.overflow_candidate_id);
  self->candidate_row = adw_combo_row_new ();
  procura_combo_row_show_names (self->candidate_row);
  adw_combo_row_set_model (ADW_COMBO_ROW (self->candidate_row), G_LIST_MODEL (self->choice_names));
  adw_combo_row_set_selected (ADW_COMBO_ROW (self->candidate_row),
                              selected != GTK_INVALID_LIST_POSITION ? selected : 0);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->candidate_row), _("Chosen candidate"));

  self->rationale_row = adw_entry_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->rationale_row), _("Rationale"));
  gtk_editable_set_text (GTK_EDITABLE (self->rationale_row),
                         project->decision.rationale != NULL ? project->decision.rationale : "");
  self->approver_row = adw_entry_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->approver_row), _("Approver"));
  gtk_editable_set_text (GTK_EDITABLE (self->approver_row),
                         project->decision.approver != NULL ? project->decision.approver : "");
  self->date_row = adw_entry_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->date_row), _("Date (YYYY-MM-DD)"));
  gtk_editable_set_text (GTK_EDITABLE (self->date_row),
                         project->decision.date != NULL ? project->decision.date : "");

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->candidate_row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->rationale_row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->approver_row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), self->date_row);
  gtk_widget_set_sensitive (self->candidate_row, !read_only);
  gtk_widget_set_sensitive (self->rationale_row, !read_only);
  gtk_widget_set_sensitive (self->approver_row, !read_only);
  gtk_widget_set_sensitive (self->date_row, !read_only);

  gtk_widget_add_css_class (save, "suggested-action");
  gtk_widget_add_css_class (save, "pill");
  gtk_widget_add_css_class (export, "pill");
  gtk_widget_set_sensitive (save, !read_only);
  g_signal_connect (save, "clicked", G_CALLBACK (save_clicked_cb), self);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (export), "win.export-record");
  gtk_widget_set_margin_top (buttons, 12);
  procura_wrap_box_append (buttons, export);
  procura_wrap_box_append (buttons, save);
  gtk_box_append (self->box, group);
  return buttons;
}

/* Wraps @label at @chars whatever width it is given: its minimum width is its natural
 * width, so that its height does not depend on the allocation (a table in a scroller
 * is measured for one width and may be given another). */
static void
fixed_wrap (GtkWidget *label,
            int        chars)
{
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), chars);
  gtk_label_set_max_width_chars (GTK_LABEL (label), chars);
}

static GtkWidget *
cell (const char *text,
      gboolean    header,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (header)
    {
      /* headers wrap so that a long title does not widen its column of short figures */
      gtk_widget_add_css_class (label, "heading");
      gtk_label_set_justify (GTK_LABEL (label), numeric ? GTK_JUSTIFY_RIGHT : GTK_JUSTIFY_LEFT);
      gtk_widget_set_valign (label, GTK_ALIGN_END);
    }
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  /* figures never shrink below their text: the table scrolls instead */
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_NONE);
  return label;
}

/* A candidate's name: wraps at 17 characters so that the figures keep their room. */
static GtkWidget *
name_cell (const char *text)
{
  GtkWidget *label = cell (text, FALSE, FALSE);

  fixed_wrap (label, 17);
  return label;
}

/* The analysis' derived hybrids become choices once the analysis is there. */
static void
add_derived_choices (ProcuraDecisionPage *self,
                     ProcuraProject      *project,
                     ProcuraAnalysis     *analysis)
{
  for (guint i = 0; analysis != NULL && self->choices != NULL && i < analysis->candidates->len; i++)
    {
      const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);

      if (!ca->derived || ca->derived_from[0] <= 0 || ca->derived_from[1] <= 0)
        continue;
      if (find_choice (self, ca->derived_from[0], ca->derived_from[1]) != GTK_INVALID_LIST_POSITION)
        continue;
      add_choice (self, ca->name, ca->derived_from[0], ca->derived_from[1]);
    }
}

/* The fixed costs per window of a project candidate's own lines. */
static double
fixed_costs (const ProcuraCandidate *c)
{
  double fixed_sum = 0;
  double lines[] = { c->storage, c->network, c->serving_stack, c->observability, c->gateway };

  for (guint j = 0; j < G_N_ELEMENTS (lines); j++)
    if (procura_is_set (lines[j]))
      fixed_sum += lines[j];
  if (procura_is_set (c->labor_hours) && procura_is_set (c->labor_rate))
    fixed_sum += c->labor_hours * c->labor_rate;
  return fixed_sum;
}

static char *
unit_price (const ProcuraCandidate *c,
            const char             *currency)
{
  if (c == NULL)
    return g_strdup ("—");
  if (c->kind == PROCURA_CANDIDATE_API)
    {
      g_autofree char *out = procura_units_money (c->price_output_per_mtok, currency);
      /* Translators: price per million output tokens */
      return g_strdup_printf (_("%s / M out"), out);
    }
  else
    {
      g_autofree char *p = procura_units_money (c->price_per_gpu_hour, currency);
      /* Translators: price per GPU-hour */
      return g_strdup_printf (_("%s / GPU-h"), p);
    }
}

/* The table's own scroll bar shows only when there is something to scroll to. */
static void
finance_adjustment_changed_cb (GtkAdjustment *h,
                               GtkWidget     *bar)
{
  gtk_widget_set_visible (bar, gtk_adjustment_get_upper (h) > gtk_adjustment_get_page_size (h) + 0.5);
}

enum {
  COL_RANK, COL_NAME, COL_PER_OUTPUT, COL_ALL_IN, COL_PRICING, COL_UNIT_PRICE, COL_GPUS, COL_FIXED,
  COL_PRICE_SEEN, N_COLS
};

/* The finance normalisation table: what each candidate costs per window, from its own
 * inputs. The effective cost per accepted output comes from the analysis engine. The
 * rank, the name and the two costs come first, so that a narrow window still shows
 * them; the rest scrolls sideways (with a visible scroll bar) rather than being cut. */
static void
finance_group (ProcuraDecisionPage *self,
               ProcuraProject      *project,
               ProcuraAnalysis     *analysis)
{
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *grid = gtk_grid_new ();
  const char *currency = project->assumptions.currency;
  g_autofree char *per_header = NULL;
  g_autofree char *description = NULL;
  double unit_factor = 1;
  guint row = 1;
  GPtrArray *rows = g_ptr_array_new ();   /* ProcuraCandidate* or NULL for a derived one */
  GPtrArray *derived = g_ptr_array_new ();
  static const char *headers[N_COLS] = {
    /* Translators: table headers, on two lines to keep their columns narrow */
    N_("Rank"), N_("Candidate"), NULL, N_("All-in\nper window"), N_("Pricing"), N_("Unit\nprice"),
    N_("GPUs"), N_("Fixed\nper window"), N_("Price\nseen"),
  };

  if (analysis != NULL)
    {
      g_autofree char *per = procura_units_per_label (analysis->unit_factor, analysis->unit_label);
      const char *symbol = procura_units_currency_symbol (currency);

      unit_factor = analysis->unit_factor;
      /* Translators: "Cost per 1,000 accepted responses (€)" */
      per_header = g_strdup_printf (_("Cost %s (%s)"), per, symbol != NULL ? symbol : currency);
      for (guint i = 0; i < analysis->candidates->len; i++)
        {
          const ProcuraCandidateAnalysis *ca = g_ptr_array_index (analysis->candidates, i);
          if (ca->derived)
            g_ptr_array_add (derived, (gpointer) ca);
        }
    }
  if (per_header == NULL)
    per_header = g_strdup (_("Cost per accepted output"));

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Finance Normalisation"));
  /* Translators: %s is the project's currency code */
  description = g_strdup_printf (_("Every candidate on the same footing: unit prices, commitments and fixed costs per planning window, in %s."),
                                 currency != NULL ? currency : "USD");
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 12);
  gtk_widget_set_margin_start (grid, 10);
  gtk_widget_set_margin_end (grid, 10);
  for (guint i = 0; i < N_COLS; i++)
    {
      gboolean numeric = i != COL_NAME && i != COL_PRICING && i != COL_PRICE_SEEN;
      GtkWidget *h = cell (i == COL_PER_OUTPUT ? per_header : _(headers[i]), TRUE, numeric);

      if (i == COL_PER_OUTPUT || i == COL_NAME)
        fixed_wrap (h, i == COL_NAME ? 17 : 12);
      gtk_grid_attach (GTK_GRID (grid), h, i, 0, 1, 1);
    }
  for (guint i = 0; i < project->candidates->len; i++)
    g_ptr_array_add (rows, g_ptr_array_index (project->candidates, i));
  for (guint i = 0; i < derived->len; i++)
    g_ptr_array_add (rows, NULL);

  for (guint i = 0; i < rows->len; i++, row++)
    {
      ProcuraCandidate *c = g_ptr_array_index (rows, i);
      const ProcuraCandidateAnalysis *ca = NULL;
      g_autofree char *name = NULL;
      g_autofree char *pricing = NULL;
      g_autofree char *price = NULL;
      g_autofree char *gpus = NULL;
      g_autofree char *fixed = NULL;
      g_autofree char *all_in = NULL;
      g_autofree char *per = NULL;
      g_autofree char *rank = NULL;
      GtkWidget *per_cell;

      if (c == NULL)
        ca = g_ptr_array_index (derived, i - project->candidates->len);
      else if (analysis != NULL)
        ca = procura_analysis_find (analysis, c->id);
      if (c != NULL)
        {
          name = g_strdup (c->name);
          pricing = g_strdup (c->kind == PROCURA_CANDIDATE_API ? _("Per token")
                              : procura_format_id (c->pricing_model != NULL ? c->pricing_model : "on-demand"));
          price = unit_price (c, currency);
          gpus = c->kind != PROCURA_CANDIDATE_API && c->gpus_per_replica > 0
                 ? g_strdup_printf ("%d", c->gpus_per_replica) : g_strdup ("—");
          fixed = procura_units_money (fixed_costs (c), currency);
        }
      else
        {
          /* the hybrid: its GPUs' prices and the API's, as the analysis combines them */
          ProcuraCandidate *g = procura_project_find_candidate (project, ca->derived_from[0]);
          ProcuraCandidate *a = procura_project_find_candidate (project, ca->derived_from[1]);
          g_autofree char *gp = unit_price (g, currency);
          g_autofree char *ap = unit_price (a, currency);

          name = g_strdup (ca->name);
          pricing = g_strdup (_("GPUs with API overflow"));
          price = g_strdup_printf ("%s\n+ %s", gp, ap);
          gpus = g != NULL && g->gpus_per_replica > 0 ? g_strdup_printf ("%d", g->gpus_per_replica) : g_strdup ("—");
          fixed = procura_units_money ((g != NULL ? fixed_costs (g) : 0) + (a != NULL ? fixed_costs (a) : 0), currency);
        }
      if (ca != NULL && ca->cost != NULL)
        {
          all_in = procura_units_money (ca->cost->all_in_cost, currency);
          per = procura_units_cost_scaled (ca->cost->cost_per_accepted, unit_factor, currency);
        }
      if (ca != NULL && ca->rank > 0)
        rank = g_strdup_printf ("%d", ca->rank);
      gtk_grid_attach (GTK_GRID (grid), cell (rank != NULL ? rank : "—", FALSE, TRUE), COL_RANK, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), name_cell (name), COL_NAME, row, 1, 1);
      per_cell = cell (per != NULL ? per : (analysis == NULL ? "…" : "—"), FALSE, TRUE);
      if (ca != NULL && ca->cost == NULL && ca->cost_reason != NULL)
        gtk_widget_set_tooltip_text (per_cell, ca->cost_reason);
      gtk_grid_attach (GTK_GRID (grid), per_cell, COL_PER_OUTPUT, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (all_in != NULL ? all_in : (analysis == NULL ? "…" : "—"), FALSE, TRUE),
                       COL_ALL_IN, row, 1, 1);
      {
        GtkWidget *p = cell (pricing, FALSE, FALSE);

        fixed_wrap (p, 11);
        gtk_grid_attach (GTK_GRID (grid), p, COL_PRICING, row, 1, 1);
      }
      gtk_grid_attach (GTK_GRID (grid), cell (price, FALSE, TRUE), COL_UNIT_PRICE, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (gpus, FALSE, TRUE), COL_GPUS, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (fixed, FALSE, TRUE), COL_FIXED, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (c != NULL && c->price_date != NULL ? c->price_date : "—", FALSE, FALSE),
                       COL_PRICE_SEEN, row, 1, 1);
    }
  g_ptr_array_unref (rows);
  g_ptr_array_unref (derived);
  gtk_widget_set_name (grid, "finance-table");
  {
    /* Nine columns: scroll sideways in a narrow window instead of widening the page or
     * cutting figures; the scroll bar stays visible so that the hidden columns show. */
    GtkWidget *scroller = gtk_scrolled_window_new ();
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    GtkAdjustment *h;
    GtkWidget *bar;

    /* the bar is a widget of its own under the table (EXTERNAL policy): a scroll bar
     * inside the scroller would take its height from the last row */
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), grid);
    h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
    bar = gtk_scrollbar_new (GTK_ORIENTATION_HORIZONTAL, h);
    gtk_widget_set_name (bar, "finance-scrollbar");
    gtk_widget_set_visible (bar, FALSE);
    g_signal_connect_object (h, "changed", G_CALLBACK (finance_adjustment_changed_cb), bar, 0);
    gtk_box_append (GTK_BOX (box), scroller);
    gtk_box_append (GTK_BOX (box), bar);
    gtk_frame_set_child (GTK_FRAME (frame), box);
    self->finance_scroller = scroller;
  }
  gtk_widget_add_css_class (frame, "view");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), frame);
  gtk_box_append (GTK_BOX (self->finance_box), group);
}

/* The ranking's uncertainty without its "#1 A and #2 B are not distinguishable at this
 * sample size: " lead (the row's title says it): why, starting with a capital. */
static char *
uncertainty_detail (const char *uncertainty)
{
  static const char *leads[] = { "sample size: ", "is unknown: " };
  const char *detail = uncertainty != NULL ? uncertainty : "";

  for (gsize i = 0; i < G_N_ELEMENTS (leads); i++)
    {
      const char *at = strstr (detail, leads[i]);

      if (at != NULL)
        {
          detail = at + strlen (leads[i]);
          break;
        }
    }
  if (*detail == '\0')
    return g_strdup ("");
  return g_strdup_printf ("%c%s.", g_ascii_toupper (*detail), detail + 1);
}

/* The recommendation's reasons repeat the ranking's uncertainty and what to measure
 * next (for the report and the CLI); the page says them once, in their own row. */
static gboolean
is_uncertainty_reason (ProcuraAnalysis *analysis,
                       const char      *reason)
{
  /* the row is shown in these cases only */
  if (analysis->ranking_withheld
      || (analysis->ranking_separation != PROCURA_SEPARATION_OVERLAP
          && analysis->ranking_separation != PROCURA_SEPARATION_UNKNOWN))
    return FALSE;
  if (analysis->measure_next != NULL && g_strcmp0 (reason, analysis->measure_next) == 0)
    return TRUE;
  if (analysis->ranking_uncertainty != NULL && analysis->ranking_uncertainty[0] != '\0'
      && g_ascii_toupper (analysis->ranking_uncertainty[0]) == reason[0]
      && g_str_has_prefix (reason + 1, analysis->ranking_uncertainty + 1))
    return TRUE;
  return FALSE;
}

static GtkWidget *
icon_row (const char *icon_name,
          const char *style,
          const char *title,
          const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);

  if (style != NULL)
    gtk_widget_add_css_class (icon, style);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

/* The warning an answer row answers: copies of its ids (never pointers into the
 * snapshot, which a reload frees), owned by the row's "apply" handler. */
typedef struct {
  ProcuraDecisionPage *page;        /* holds the row */
  char                *warning_id;
  gint64               candidate_id;
} AnswerTarget;

static void
answer_target_free (gpointer  data,
                    GClosure *closure)
{
  AnswerTarget *target = data;

  g_free (target->warning_id);
  g_free (target);
}

static void
answer_apply_cb (AdwEntryRow  *row,
                 AnswerTarget *target)
{
  ProcuraDecisionPage *self = target->page;
  g_autofree char *answer = NULL;

  if (self->document == NULL || target->warning_id == NULL)
    return;
  answer = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  procura_document_answer_warning (self->document, target->warning_id, target->candidate_id, answer);
}

/* One warning: what is wrong, what to do, and the analyst's answer to it (written in
 * the row inside; an answered warning shows the answer and a check mark). */
static GtkWidget *
warning_row (ProcuraDecisionPage  *self,
             ProcuraProject       *project,
             const ProcuraWarning *w)
{
  const ProcuraWarningAnswer *answer = procura_project_find_answer (project, w->id, w->candidate_id);
  gboolean answered = answer != NULL && answer->answer != NULL && *answer->answer != '\0';
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (w->severity == PROCURA_SEVERITY_ERROR ? "dialog-error-symbolic"
                                                  : w->severity == PROCURA_SEVERITY_WARNING ? "dialog-warning-symbolic"
                                                  : "dialog-information-symbolic");
  GtkWidget *entry = adw_entry_row_new ();

  if (w->severity == PROCURA_SEVERITY_ERROR)
    gtk_widget_add_css_class (icon, "error");
  else if (w->severity == PROCURA_SEVERITY_WARNING)
    gtk_widget_add_css_class (icon, "warning");
  adw_expander_row_add_prefix (ADW_EXPANDER_ROW (expander), icon);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (expander), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), w->message);
  /* the advice is said once for all the warnings it answers (advice_group) */
  if (answered)
    adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), answer->answer);

  if (answered)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
      g_autofree char *date = answer->answered_at != NULL ? g_strndup (answer->answered_at, 10) : NULL;
      /* Translators: tooltip of the check mark of an answered warning; %s is a date */
      g_autofree char *tooltip = date != NULL ? g_strdup_printf (_("Answered on %s"), date)
                                              : g_strdup (_("Answered"));

      gtk_widget_add_css_class (check, "success");
      gtk_widget_set_tooltip_text (check, tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
      adw_expander_row_add_action (ADW_EXPANDER_ROW (expander), check);
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (entry), _("How it was answered"));
  gtk_widget_set_tooltip_text (entry, _("What was done about this warning, or why it was accepted; empty removes the answer"));
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (entry), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (entry), answered ? answer->answer : "");
  gtk_widget_set_sensitive (entry, !procura_document_get_read_only (self->document));
  {
    AnswerTarget *target = g_new0 (AnswerTarget, 1);

    target->page = self;
    target->warning_id = g_strdup (w->id);
    target->candidate_id = w->candidate_id;
    g_signal_connect_data (entry, "apply", G_CALLBACK (answer_apply_cb), target, answer_target_free, 0);
  }
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), entry);
  return expander;
}

/* "What to do": each distinct advice of the warnings once, naming the candidates it
 * concerns ("the whole project" for the project's own warnings), in the order the
 * warnings come. */
static GtkWidget *
advice_group (const ProcuraAnalysis *analysis)
{
  GtkWidget *group;
  g_autoptr (GPtrArray) advice = g_ptr_array_new ();                    /* const char* */
  g_autoptr (GPtrArray) whom = g_ptr_array_new_with_free_func (g_free); /* char*: the names */

  for (guint i = 0; i < analysis->warnings->len; i++)
    {
      const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
      const ProcuraCandidateAnalysis *ca = w->candidate_id != 0 ? procura_analysis_find (analysis, w->candidate_id)
                                                                : NULL;
      const char *name = ca != NULL ? ca->name : _("the whole project");
      guint k;

      if (w->what_to_do == NULL || *w->what_to_do == '\0')
        continue;
      for (k = 0; k < advice->len; k++)
        if (g_str_equal (advice->pdata[k], w->what_to_do))
          break;
      if (k == advice->len)
        {
          g_ptr_array_add (advice, w->what_to_do);
          g_ptr_array_add (whom, g_strdup (name));
        }
      else
        {
          g_auto (GStrv) names = g_strsplit (whom->pdata[k], "\n", -1);

          if (!g_strv_contains ((const char * const *) names, name))
            {
              char *joined = g_strconcat (whom->pdata[k], "\n", name, NULL);

              g_free (whom->pdata[k]);
              whom->pdata[k] = joined;
            }
        }
    }
  if (advice->len == 0)
    return NULL;
  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("What to do"));
  for (guint k = 0; k < advice->len; k++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_auto (GStrv) names = g_strsplit (whom->pdata[k], "\n", -1);
      g_autofree char *list = g_strjoinv (", ", names);
      /* Translators: under an advice, the candidates whose warnings it answers */
      g_autofree char *subtitle = g_strdup_printf (_("For %s"), list);

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), advice->pdata[k]);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  return group;
}

static void
analysis_group (ProcuraDecisionPage *self,
                ProcuraProject      *project,
                ProcuraAnalysis     *analysis)
{
  GtkWidget *group = adw_preferences_group_new ();

  procura_page_clear_box (GTK_BOX (self->analysis_box));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Recommendation"));
  gtk_box_append (GTK_BOX (self->analysis_box), group);
  if (analysis == NULL)
    {
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                 icon_row ("content-loading-symbolic", NULL, _("Analysing…"), NULL));
      return;
    }
  {
    g_auto (GStrv) missing = project->brief != NULL ? procura_brief_missing (project->brief) : NULL;
    gboolean no_target = !isfinite (analysis->slo_threshold_ms) || analysis->slo_metric == NULL;
    gboolean brief_incomplete = no_target || (missing != NULL && missing[0] != NULL);
    GtkWidget *row = NULL;

    if (analysis->ranking_withheld)
      row = icon_row ("dialog-information-symbolic", NULL, _("Ranking withheld"), analysis->ranking_withheld_reason);
    else if (no_target && project->runs->len > 0)
      row = icon_row ("dialog-warning-symbolic", "warning", _("No latency target in the brief"),
                      _("The runs are imported, but without a target their capacity and cost per accepted output are unknown."));
    if (row != NULL && brief_incomplete)
      {
        /* what is missing is a field of the brief: one click to it */
        GtkWidget *open = gtk_button_new_with_mnemonic (_("Open _Brief"));

        gtk_widget_set_name (open, "open-brief");
        gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
        gtk_widget_set_tooltip_text (open, _("Set the latency target and the other missing fields on the Brief page"));
        gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "win.page");
        gtk_actionable_set_action_target (GTK_ACTIONABLE (open), "i", 0);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), open);
      }
    if (row != NULL)
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  }
  if (!analysis->ranking_withheld
      && (analysis->ranking_separation == PROCURA_SEPARATION_OVERLAP ||
          analysis->ranking_separation == PROCURA_SEPARATION_UNKNOWN))
    {
      /* the two best candidates' cost intervals overlap (or one has none): said here
       * once, the title says what, the subtitle why and what to measure */
      g_autofree char *detail = uncertainty_detail (analysis->ranking_uncertainty);
      g_autofree char *text = analysis->measure_next != NULL
                              ? g_strdup_printf ("%s\n%s", detail, analysis->measure_next)
                              : g_steal_pointer (&detail);
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                 icon_row ("dialog-warning-symbolic", "warning",
                                           analysis->ranking_separation == PROCURA_SEPARATION_OVERLAP
                                           ? _("Not distinguishable at this sample size")
                                           : _("Ranking uncertainty unknown"),
                                           escaped));
    }
  if (analysis->recommendation != NULL)
    {
      ProcuraRecommendation *r = analysis->recommendation;
      g_autofree char *title = NULL;
      GtkWidget *expander = adw_expander_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("emblem-ok-symbolic");

      title = g_strdup (procura_choice_label (r->choice));
      gtk_widget_add_css_class (icon, r->choice == PROCURA_CHOICE_UNDECIDED ? "dim-label" : "success");
      adw_expander_row_add_prefix (ADW_EXPANDER_ROW (expander), icon);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), title);
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), r->candidate_name);
      for (guint i = 0; r->reasons != NULL && i < r->reasons->len; i++)
        {
          GtkWidget *row;

          if (is_uncertainty_reason (analysis, g_ptr_array_index (r->reasons, i)))
            continue;
          row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (r->reasons, i));
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
        }
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (expander), TRUE);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), expander);
    }
  if (analysis->tipping_points != NULL && analysis->tipping_points->len > 0)
    {
      /* where #1 and #2 change places: one row per input */
      GtkWidget *expander = adw_expander_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), _("Tipping points"));
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander),
                                     _("The value of each input at which the first two candidates change places"));
      for (guint i = 0; i < analysis->tipping_points->len; i++)
        {
          const ProcuraTippingPoint *t = g_ptr_array_index (analysis->tipping_points, i);
          GtkWidget *row = adw_action_row_new ();
          const char *label = procura_tipping_input_label (t->input);
          g_autofree char *title = NULL;

          /* Translators: an input, then the candidate it belongs to */
          title = t->candidate_name != NULL ? g_strdup_printf (_("%s of %s"), label, t->candidate_name)
                                            : g_strdup (label);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), t->note);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), expander);
    }
  if (analysis->warnings != NULL && analysis->warnings->len > 0)
    {
      GtkWidget *warnings = adw_preferences_group_new ();
      GtkWidget *advice;
      g_autofree char *description = NULL;
      guint answered = 0;

      for (guint i = 0; i < analysis->warnings->len; i++)
        {
          const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
          if (procura_project_find_answer (project, w->id, w->candidate_id) != NULL)
            answered++;
        }
      if (answered == 0)
        description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thing to check before deciding",
                                                    "%u things to check before deciding",
                                                    analysis->warnings->len),
                                       analysis->warnings->len);
      else
        /* Translators: the first %u counts the warnings, the second the answered ones */
        description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thing to check before deciding, %u answered",
                                                    "%u things to check before deciding, %u answered",
                                                    analysis->warnings->len),
                                       analysis->warnings->len, answered);

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (warnings), _("Warnings"));
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (warnings), description);
      for (guint i = 0; i < analysis->warnings->len; i++)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (warnings),
                                   warning_row (self, project, g_ptr_array_index (analysis->warnings, i)));
      gtk_box_append (GTK_BOX (self->analysis_box), warnings);
      advice = advice_group (analysis);
      if (advice != NULL)
        gtk_box_append (GTK_BOX (self->analysis_box), advice);
    }
}

typedef struct {
  ProcuraDocument *document;
  ProcuraProject  *project;   /* held */
  ProcuraAnalysis *analysis;
} AnalysisData;

static void
analysis_data_free (AnalysisData *data)
{
  procura_document_release_project (data->document);
  g_clear_pointer (&data->analysis, procura_analysis_free);
  g_free (data);
}

static void
analysis_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  AnalysisData *data = task_data;
  ProcuraAnalysisOptions options;

  procura_analysis_options_init (&options);
  data->analysis = procura_analysis_run (data->project, &options);
  g_task_return_boolean (task, TRUE);
}

static void
analysis_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  AnalysisData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr (ProcuraDecisionPage) self = PROCURA_DECISION_PAGE (user_data);

  self->running--;
  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;
  g_clear_pointer (&self->analysis, procura_analysis_free);
  self->analysis = g_steal_pointer (&data->analysis);
  if (self->document != NULL)
    {
      ProcuraProject *project = procura_document_get_project (self->document);

      analysis_group (self, project, self->analysis);
      add_derived_choices (self, project, self->analysis);
      procura_page_clear_box (GTK_BOX (self->finance_box));
      finance_group (self, project, self->analysis);
    }
}

static void
start_analysis (ProcuraDecisionPage *self)
{
  g_autoptr (GTask) task = NULL;
  AnalysisData *data;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      /* A result for the replaced snapshot is never shown */
      g_cancellable_cancel (self->cancellable);
      self->pending = TRUE;
      return;
    }
  self->pending = FALSE;
  data = g_new0 (AnalysisData, 1);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  data->document = self->document;
  data->project = procura_document_hold_project (self->document);
  task = g_task_new (NULL, self->cancellable, analysis_done_cb, g_object_ref (self));
  g_task_set_task_data (task, data, (GDestroyNotify) analysis_data_free);
  self->running++;
  g_task_run_in_thread (task, analysis_thread);
}

static void
map_cb (GtkWidget           *widget,
        ProcuraDecisionPage *self)
{
  if (self->pending && self->document != NULL)
    start_analysis (self);
}

gboolean
procura_decision_page_get_busy (ProcuraDecisionPage *self)
{
  g_return_val_if_fail (PROCURA_IS_DECISION_PAGE (self), FALSE);
  return self->running > 0 || (self->pending && gtk_widget_get_mapped (GTK_WIDGET (self)));
}

/* The Compare page's what-if is not what this page shows: said, with the way back. */
static void
update_what_if (ProcuraDecisionPage *self)
{
  const char *what_if;

  if (self->what_if_banner == NULL || self->document == NULL)
    return;
  what_if = procura_document_get_what_if (self->document);
  gtk_label_set_text (GTK_LABEL (self->what_if_label), what_if != NULL ? what_if : "");
  gtk_widget_set_visible (self->what_if_banner, what_if != NULL);
}

static void
what_if_changed_cb (ProcuraDocument     *document,
                    ProcuraDecisionPage *self)
{
  update_what_if (self);
}

static GtkWidget *
what_if_banner (ProcuraDecisionPage *self)
{
  GtkWidget *banner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply to Brief"));
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset"));

  gtk_widget_set_name (banner, "what-if-banner");
  gtk_widget_add_css_class (banner, "what-if-banner");
  gtk_widget_add_css_class (icon, "warning");
  self->what_if_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->what_if_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->what_if_label), 0);
  gtk_widget_set_hexpand (self->what_if_label, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (apply), "win.apply-what-if");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (reset), "win.reset-what-if");
  gtk_widget_set_valign (apply, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (reset, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (apply, !procura_document_get_read_only (self->document));
  gtk_box_append (GTK_BOX (banner), icon);
  gtk_box_append (GTK_BOX (banner), self->what_if_label);
  gtk_box_append (GTK_BOX (banner), reset);
  gtk_box_append (GTK_BOX (banner), apply);
  self->what_if_banner = banner;
  return banner;
}

/* The empty state asks for the brief only while something of it is missing. */
static gboolean
brief_is_complete (ProcuraProject *project)
{
  g_auto (GStrv) missing = NULL;

  if (project->brief == NULL)
    return FALSE;
  missing = procura_brief_missing (project->brief);
  return missing[0] == NULL;
}

static void
rebuild (ProcuraDecisionPage *self)
{
  ProcuraProject *project;
  GtkWidget *buttons;

  procura_page_clear_box (self->box);
  self->what_if_banner = NULL;
  if (self->document == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  project = procura_document_get_project (self->document);
  if (project->candidates->len == 0)
    {
      procura_page_show_empty_action (self->complete_brief_button, !brief_is_complete (project));
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  gtk_box_append (self->box, what_if_banner (self));
  update_what_if (self);
  self->analysis_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  self->finance_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (self->box, self->analysis_box);
  gtk_box_append (self->box, self->finance_box);
  g_clear_pointer (&self->analysis, procura_analysis_free);
  analysis_group (self, project, NULL);
  finance_group (self, project, NULL);
  start_analysis (self);
  buttons = decision_group (self, project);
  gtk_box_append (self->box, buttons);
  gtk_stack_set_visible_child_name (self->stack, "content");
}

static void
document_changed_cb (ProcuraDocument     *document,
                     ProcuraDecisionPage *self)
{
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

void
procura_decision_page_set_document (ProcuraDecisionPage *self,
                                    ProcuraDocument     *document)
{
  g_return_if_fail (PROCURA_IS_DECISION_PAGE (self));

  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_signal_handler (&self->what_if_id, self->document);
    }
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
      self->what_if_id = g_signal_connect (document, "what-if-changed", G_CALLBACK (what_if_changed_cb), self);
    }
  procura_page_queue_rebuild (PROCURA_PAGE (self));
}

static void
procura_decision_page_dispose (GObject *object)
{
  ProcuraDecisionPage *self = PROCURA_DECISION_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->analysis, procura_analysis_free);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_signal_handler (&self->what_if_id, self->document);
    }
  g_clear_object (&self->document);
  g_clear_pointer (&self->choices, g_array_unref);
  g_clear_object (&self->choice_names);
  G_OBJECT_CLASS (procura_decision_page_parent_class)->dispose (object);
}

static void
page_rebuild (ProcuraPage *page)
{
  rebuild (PROCURA_DECISION_PAGE (page));
}

static void
procura_decision_page_class_init (ProcuraDecisionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = procura_decision_page_dispose;
  PROCURA_PAGE_CLASS (klass)->rebuild = page_rebuild;
}

static void
procura_decision_page_init (ProcuraDecisionPage *self)
{
  self->stack = procura_page_get_stack (PROCURA_PAGE (self));
  self->status = procura_page_get_status (PROCURA_PAGE (self));
  self->box = procura_page_get_box (PROCURA_PAGE (self));
  procura_page_setup (PROCURA_PAGE (self), "emblem-ok-symbolic", _("No Decision Yet"),
                      _("Record the chosen candidate, the rationale and the approver, and export the decision record for finance, platform and product."),
                      1000, 600);
  self->complete_brief_button =
    procura_page_add_empty_action (PROCURA_PAGE (self), _("Complete the _Brief"), "win.complete-brief", NULL);
  procura_page_add_empty_action (PROCURA_PAGE (self), _("Add _Candidates"), "win.page", "i", 1);
  self->cancellable = g_cancellable_new ();
  self->choices = g_array_new (FALSE, TRUE, sizeof (Choice));
  g_signal_connect (self, "map", G_CALLBACK (map_cb), self);
}

/* procura-presentation.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-presentation"

#include "config.h"

#include <glib/gi18n.h>

#include "procura-presentation.h"

#include <math.h>
#include <string.h>
#include "procura-analysis.h"
#include "procura-warnings.h"
#include "procura-units.h"

struct _ProcuraPresentation
{
  AdwWindow  parent_instance;

  GtkStack  *slides;
  GtkLabel  *counter;
  GtkLabel  *hint;

  guint      n_slides;
  guint      current;
};

G_DEFINE_FINAL_TYPE (ProcuraPresentation, procura_presentation, ADW_TYPE_WINDOW)

static void
show_slide (ProcuraPresentation *self)
{
  g_autofree char *name = g_strdup_printf ("slide-%u", self->current);
  g_autofree char *counter = g_strdup_printf ("%u / %u", self->current + 1, self->n_slides);

  gtk_stack_set_visible_child_name (self->slides, name);
  gtk_label_set_text (self->counter, counter);
}

void
procura_presentation_move (ProcuraPresentation *self,
                           int                  delta)
{
  int target;

  g_return_if_fail (PROCURA_IS_PRESENTATION (self));
  target = CLAMP ((int) self->current + delta, 0, (int) self->n_slides - 1);
  if ((guint) target != self->current)
    {
      self->current = target;
      show_slide (self);
    }
}

guint
procura_presentation_get_n_slides (ProcuraPresentation *self)
{
  g_return_val_if_fail (PROCURA_IS_PRESENTATION (self), 0);
  return self->n_slides;
}

guint
procura_presentation_get_slide (ProcuraPresentation *self)
{
  g_return_val_if_fail (PROCURA_IS_PRESENTATION (self), 0);
  return self->current;
}

static void
next_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), +1);
}

static void
previous_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), -1);
}

static void
first_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), G_MININT / 2);
}

static void
last_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  procura_presentation_move (PROCURA_PRESENTATION (widget), G_MAXINT / 2);
}

static void
leave_action (GtkWidget *widget, const char *name, GVariant *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static GtkWidget *
title_slide (const char *title,
             const char *subtitle)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *sub = gtk_label_new (subtitle);

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (heading, "presentation-title");
  gtk_widget_add_css_class (sub, "presentation-subtitle");
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
  gtk_label_set_justify (GTK_LABEL (sub), GTK_JUSTIFY_CENTER);
  gtk_box_append (GTK_BOX (box), heading);
  if (subtitle != NULL && *subtitle != '\0')
    gtk_box_append (GTK_BOX (box), sub);
  gtk_widget_set_focusable (box, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  return box;
}

static GtkWidget *
slide_line (GtkWidget  *box,
            const char *text,
            const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 90);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  gtk_box_append (GTK_BOX (box), label);
  return label;
}

/* Whose input a tipping point moves, said without a name the slide already gave: the
 * recommended option (a part of it included: a hybrid's GPU or API route), the
 * runner-up, or else the candidate's name; NULL for the project's own input. */
static const char *
tipping_whose (const ProcuraAnalysis      *analysis,
               const ProcuraTippingPoint *t)
{
  const ProcuraRecommendation *r = analysis->recommendation;

  if (t->candidate_id == 0)
    return NULL;
  if (t->candidate_id == r->candidate_id)
    /* Translators: on the recommendation slide, "GPU price (recommended): …" */
    return _("recommended");
  if (t->candidate_id == analysis->tipping_runner_up)
    /* Translators: on the recommendation slide, "GPU price (runner-up): …" */
    return _("runner-up");
  if (t->candidate_name != NULL && r->candidate_name != NULL && strstr (r->candidate_name, t->candidate_name) != NULL)
    return _("recommended");
  return t->candidate_name;
}

/* Whom a warning concerns: the option the slide named, or its name. */
static const char *
warning_whom (const ProcuraAnalysis *analysis,
              const ProcuraWarning  *w)
{
  const ProcuraCandidateAnalysis *wc = w->candidate_id != 0 ? procura_analysis_find (analysis, w->candidate_id)
                                                            : NULL;

  if (w->candidate_id == 0)
    /* Translators: on the recommendation slide, warnings about the whole project */
    return _("The project");
  if (w->candidate_id == analysis->recommendation->candidate_id)
    return _("The recommended option");
  if (w->candidate_id == analysis->tipping_runner_up)
    return _("The runner-up");
  return wc != NULL ? wc->name : "?";
}

/* The slide reads at a glance: one idea per line, each name once; the long sentences
 * (the interval's reason, the tipping points' notes) are the lines' tooltips. */
GtkWidget *
procura_presentation_recommendation_slide (ProcuraProject                *project,
                                           const struct _ProcuraAnalysis *analysis)
{
  GtkWidget *box;
  const ProcuraRecommendation *r;
  const ProcuraCandidateAnalysis *ca, *runner;
  guint shown;

  if (analysis == NULL || analysis->recommendation == NULL)
    return NULL;
  r = analysis->recommendation;
  ca = r->candidate_id != 0 ? procura_analysis_find (analysis, r->candidate_id) : NULL;
  runner = analysis->tipping_runner_up != 0 && analysis->tipping_runner_up != r->candidate_id
           ? procura_analysis_find (analysis, analysis->tipping_runner_up) : NULL;
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 14);
  gtk_widget_set_name (box, "recommendation-slide");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (box, 64);
  gtk_widget_set_margin_end (box, 64);
  slide_line (box, _("Recommendation"), "presentation-subtitle");
  slide_line (box, procura_choice_label (r->choice), "title-1");
  if (r->candidate_name != NULL)
    slide_line (box, r->candidate_name, "title-3");
  if (project != NULL && project->decision.candidate_id != 0)
    {
      ProcuraCandidate *c = procura_project_find_candidate (project, project->decision.candidate_id);
      ProcuraCandidate *o = project->decision.overflow_candidate_id != 0
        ? procura_project_find_candidate (project, project->decision.overflow_candidate_id) : NULL;
      g_autofree char *name = o != NULL ? g_strdup_printf (_("Hybrid: %s + %s"), c != NULL ? c->name : "?", o->name)
                                        : g_strdup (c != NULL ? c->name : "?");
      /* Translators: the candidate the decision record names */
      g_autofree char *line = g_strcmp0 (name, r->candidate_name) == 0 ? g_strdup (_("Decided: the recommended option"))
                                                                       : g_strdup_printf (_("Decided: %s"), name);

      slide_line (box, line, "title-3");
    }
  if (ca != NULL && ca->cost != NULL)
    {
      g_autofree char *cost = procura_units_cost_with_unit (ca->cost->cost_per_accepted, analysis->unit_factor,
                                                            analysis->unit_label, analysis->currency);
      g_autofree char *line = NULL;

      /* Translators: the recommended option's cost per accepted output */
      line = g_strdup_printf (_("Cost: %s"), cost);
      slide_line (box, line, "title-2");
      if (isfinite (ca->cost_lo) && !isnan (ca->cost_hi))
        {
          g_autofree char *lo = procura_units_cost_scaled (ca->cost_lo, analysis->unit_factor, analysis->currency);
          g_autofree char *hi = procura_units_cost_scaled (ca->cost_hi, analysis->unit_factor, analysis->currency);
          g_autofree char *interval = g_strdup_printf (_("Interval: %s to %s"), lo, hi);

          slide_line (box, interval, NULL);
        }
      else if (ca->cost_interval_reason != NULL)
        /* Translators: the cost has no interval; the reason is the line's tooltip */
        gtk_widget_set_tooltip_text (slide_line (box, _("Interval: none"), "dim-label"),
                                     ca->cost_interval_reason);
    }
  if (runner != NULL)
    {
      /* Translators: the second-ranked candidate */
      g_autofree char *line = g_strdup_printf (_("Runner-up: %s"), runner->name);
      const char *apart = NULL;

      slide_line (box, line, NULL);
      switch (analysis->ranking_separation)
        {
        case PROCURA_SEPARATION_DISTINCT:
          apart = _("Told apart from the runner-up at this sample size.");
          break;
        case PROCURA_SEPARATION_OVERLAP:
          apart = _("Not told apart from the runner-up: the cost intervals overlap.");
          break;
        case PROCURA_SEPARATION_UNKNOWN:
          apart = _("Not known whether it beats the runner-up: a cost has no interval.");
          break;
        case PROCURA_SEPARATION_NONE:
        default:
          break;
        }
      if (apart != NULL)
        gtk_widget_set_tooltip_text (slide_line (box, apart, "dim-label"), analysis->ranking_uncertainty);
    }
  if (analysis->tipping_points != NULL && analysis->tipping_points->len > 0)
    {
      slide_line (box, _("Tipping points"), "heading");
      for (guint i = 0; i < analysis->tipping_points->len && i < 3; i++)
        {
          const ProcuraTippingPoint *t = g_ptr_array_index (analysis->tipping_points, i);
          const char *who = tipping_whose (analysis, t);
          g_autofree char *input = who != NULL ? g_strdup_printf ("%s (%s)", procura_tipping_input_label (t->input), who)
                                               : g_strdup (procura_tipping_input_label (t->input));
          g_autofree char *line = NULL;

          if (isfinite (t->value))
            {
              g_autofree char *now = procura_tipping_value_text (analysis, t->input, t->current);
              g_autofree char *at = procura_tipping_value_text (analysis, t->input, t->value);

              /* Translators: a tipping point: the input, its value now → where the ranking flips, the change */
              line = g_strdup_printf (_("• %s: %s → %s (%+.1f %%)"), input, now, at,
                                      100.0 * (t->value / t->current - 1.0));
            }
          else
            /* Translators: a tipping point that was not found in the range tried */
            line = g_strdup_printf (_("• %s: no flip in the range tried"), input);
          gtk_widget_set_tooltip_text (slide_line (box, line, NULL), t->note);
        }
    }
  /* the top warnings, one line per candidate: its name once, then what is wrong */
  shown = 0;
  {
    g_autoptr (GPtrArray) who_order = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GPtrArray) what = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

    for (int severity = PROCURA_SEVERITY_ERROR; severity >= PROCURA_SEVERITY_WARNING && shown < 3; severity--)
      for (guint i = 0; analysis->warnings != NULL && i < analysis->warnings->len && shown < 3; i++)
        {
          const ProcuraWarning *w = g_ptr_array_index (analysis->warnings, i);
          const char *who = warning_whom (analysis, w);
          const char *title = procura_warning_title (w->id);
          guint k;

          if ((int) w->severity != severity)
            continue;
          for (k = 0; k < who_order->len; k++)
            if (g_str_equal (who_order->pdata[k], who))
              break;
          if (k == who_order->len)
            {
              g_ptr_array_add (who_order, g_strdup (who));
              g_ptr_array_add (what, g_ptr_array_new ());
            }
          g_ptr_array_add (what->pdata[k], (gpointer) (title != NULL ? title : w->message));
          shown++;
        }
    if (shown > 0)
      slide_line (box, _("Top warnings"), "heading");
    for (guint k = 0; k < who_order->len; k++)
      {
        GPtrArray *titles = what->pdata[k];
        g_autoptr (GString) line = g_string_new (NULL);
        g_autofree char *first = NULL;

        for (guint j = 0; j < titles->len; j++)
          g_string_append_printf (line, "%s%s", j > 0 ? "; " : "", (const char *) titles->pdata[j]);
        /* Translators: a line of the top warnings: whom they concern, then what is wrong */
        first = g_strdup_printf (_("⚠ %s: %s"), (const char *) who_order->pdata[k], line->str);
        slide_line (box, first, NULL);
      }
  }
  gtk_widget_set_focusable (box, TRUE);
  {
    g_autofree char *label = r->candidate_name != NULL
      ? g_strdup_printf ("%s: %s", procura_choice_label (r->choice), r->candidate_name)
      : g_strdup (procura_choice_label (r->choice));

    gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  }
  return box;
}

ProcuraPresentation *
procura_presentation_new (GtkWindow  *parent,
                          const char *title,
                          const char *subtitle,
                          GPtrArray  *charts)
{
  return procura_presentation_new_full (parent, title, subtitle, NULL, NULL, charts);
}

ProcuraPresentation *
procura_presentation_new_full (GtkWindow  *parent,
                               const char *title,
                               const char *subtitle,
                               GtkWidget  *recommendation,
                               const char *what_if,
                               GPtrArray  *charts)
{
  ProcuraPresentation *self = g_object_new (PROCURA_TYPE_PRESENTATION, NULL);

  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
    }
  gtk_stack_add_named (self->slides, title_slide (title, subtitle), "slide-0");
  self->n_slides = 1;
  if (recommendation != NULL)
    {
      gtk_stack_add_named (self->slides, recommendation, "slide-1");
      self->n_slides++;
    }
  if (what_if != NULL)
    {
      /* the figures are a what-if, not the brief: said on every slide */
      GtkWidget *banner = gtk_label_new (what_if);

      gtk_widget_set_name (banner, "what-if-banner");
      gtk_widget_add_css_class (banner, "what-if-banner");
      gtk_label_set_wrap (GTK_LABEL (banner), TRUE);
      gtk_widget_set_halign (banner, GTK_ALIGN_CENTER);
      gtk_widget_set_valign (banner, GTK_ALIGN_START);
      gtk_widget_set_margin_top (banner, 8);
      gtk_overlay_add_overlay (GTK_OVERLAY (gtk_widget_get_parent (GTK_WIDGET (self->slides))), banner);
    }
  for (guint i = 0; charts != NULL && i < charts->len; i++)
    {
      GtkWidget *view = procura_chart_view_new ();
      g_autofree char *name = g_strdup_printf ("slide-%u", self->n_slides);

      procura_chart_view_set_scale (PROCURA_CHART_VIEW (view), 2.0);
      /* Arrows move between slides here, not between points. */
      gtk_widget_set_focusable (view, FALSE);
      procura_chart_view_set_chart (PROCURA_CHART_VIEW (view), g_ptr_array_index (charts, i));
      gtk_widget_set_margin_start (view, 48);
      gtk_widget_set_margin_end (view, 48);
      gtk_widget_set_margin_top (view, 36);
      gtk_widget_set_margin_bottom (view, 56);
      gtk_stack_add_named (self->slides, view, name);
      self->n_slides++;
    }
  show_slide (self);
  return self;
}

ProcuraChartView *
procura_presentation_get_chart_view (ProcuraPresentation *self,
                                     ProcuraChart        *chart)
{
  g_return_val_if_fail (PROCURA_IS_PRESENTATION (self), NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->slides));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (PROCURA_IS_CHART_VIEW (child) && procura_chart_view_get_chart (PROCURA_CHART_VIEW (child)) == chart)
      return PROCURA_CHART_VIEW (child);
  return NULL;
}

static void
procura_presentation_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PROCURA_TYPE_PRESENTATION);
  G_OBJECT_CLASS (procura_presentation_parent_class)->dispose (object);
}

static void
procura_presentation_class_init (ProcuraPresentationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_presentation_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-presentation.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, counter);
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, hint);
  gtk_widget_class_bind_template_child (widget_class, ProcuraPresentation, slides);

  gtk_widget_class_install_action (widget_class, "presentation.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "presentation.previous", NULL, previous_action);
  gtk_widget_class_install_action (widget_class, "presentation.first", NULL, first_action);
  gtk_widget_class_install_action (widget_class, "presentation.last", NULL, last_action);
  gtk_widget_class_install_action (widget_class, "presentation.leave", NULL, leave_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "presentation.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "presentation.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "presentation.first", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, 0, "presentation.last", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "presentation.leave", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "presentation.leave", NULL);
}

static void
procura_presentation_init (ProcuraPresentation *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
}

/* procura-brief-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-brief-page"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stddef.h>

#include "procura-brief-page.h"
#include "procura-format.h"

typedef enum {
  FIELD_TEXT,
  FIELD_NUMBER,
  FIELD_CHOICE,
} FieldKind;

typedef struct {
  const char        *group;     /* workload, shape, slo, demand */
  const char        *title;
  const char        *subtitle;
  FieldKind          kind;
  gsize              offset;
  const char * const *choices;  /* FIELD_CHOICE: stored ids */
} Field;

static const char * const workload_types[] = {
  "online-inference", "batch-inference", "embeddings", "code-agents", "image-generation",
  "video-generation", "training", "fine-tuning", "evaluation", NULL
};
static const char * const slo_metrics[] = { "ttft", "tpot", "itl", "e2e", NULL };
static const char * const duty_cycles[] = {
  "always-on", "business-hours", "batch-window", "bursty", NULL
};

#define BRIEF_STR(f) offsetof (ProcuraBrief, f)

static const Field fields[] = {
  { "workload", N_("Workload type"), NULL, FIELD_CHOICE, BRIEF_STR (workload_type), workload_types },
  { "workload", N_("Model"), N_("A catalog id such as meta-llama/Llama-3.1-70B-Instruct"), FIELD_TEXT, BRIEF_STR (model_shape), NULL },
  { "workload", N_("Success unit"), NULL, FIELD_TEXT, BRIEF_STR (success_unit), NULL },
  { "workload", N_("Duty cycle"), NULL, FIELD_CHOICE, BRIEF_STR (duty_cycle), duty_cycles },
  { "workload", N_("Operating boundary"), N_("Where it may run: cloud, on-premises, sovereign…"), FIELD_TEXT, BRIEF_STR (operating_boundary), NULL },
  { "workload", N_("Tooling"), N_("The serving engine and stack: vLLM, SGLang, TensorRT-LLM…"), FIELD_TEXT, BRIEF_STR (tooling), NULL },
  { "shape", N_("Input tokens"), NULL, FIELD_NUMBER, BRIEF_STR (input_tokens), NULL },
  { "shape", N_("Output tokens"), NULL, FIELD_NUMBER, BRIEF_STR (output_tokens), NULL },
  { "shape", N_("Mean input tokens"), N_("The average request: what an API bills (the tokens above are the p95 shape)"), FIELD_NUMBER, BRIEF_STR (input_tokens_mean), NULL },
  { "shape", N_("Mean output tokens"), N_("The average response: what an API bills"), FIELD_NUMBER, BRIEF_STR (output_tokens_mean), NULL },
  { "shape", N_("Context tokens"), N_("Empty: input plus output"), FIELD_NUMBER, BRIEF_STR (context_tokens), NULL },
  { "shape", N_("Concurrent sequences per replica"), NULL, FIELD_NUMBER, BRIEF_STR (concurrency), NULL },
  { "slo", N_("Metric"), NULL, FIELD_CHOICE, BRIEF_STR (slo_metric), slo_metrics },
  { "slo", N_("Percentile"), N_("For example 99 for p99"), FIELD_NUMBER, BRIEF_STR (slo_percentile), NULL },
  { "slo", N_("Threshold (ms)"), NULL, FIELD_NUMBER, BRIEF_STR (slo_threshold_ms), NULL },
  { "demand", N_("Average demand (requests/s)"), NULL, FIELD_NUMBER, BRIEF_STR (demand_average), NULL },
  { "demand", N_("Peak demand (requests/s)"), NULL, FIELD_NUMBER, BRIEF_STR (demand_peak), NULL },
  { "demand", N_("Planning window (hours)"), N_("730 hours is one month"), FIELD_NUMBER, BRIEF_STR (window_hours), NULL },
  { "demand", N_("Stored data (GB)"), N_("Priced with the quote's storage per GB-month"), FIELD_NUMBER, BRIEF_STR (storage_gb), NULL },
  { "demand", N_("Egress per window (GB)"), N_("Priced with the quote's egress per GB"), FIELD_NUMBER, BRIEF_STR (egress_gb), NULL },
};

#define N_BRIEF_PARTS 9

struct _ProcuraBriefPage
{
  AdwBin                parent_instance;

  GtkStack             *stack;
  AdwStatusPage        *status;
  AdwPreferencesGroup  *workload_group;
  AdwPreferencesGroup  *shape_group;
  AdwPreferencesGroup  *slo_group;
  AdwPreferencesGroup  *demand_group;
  GtkLabel             *complete_label;
  GtkLevelBar          *complete_bar;
  GtkLabel             *withheld_label;

  GtkWidget            *rows[G_N_ELEMENTS (fields)];
  ProcuraDocument      *document;
  gulong                changed_id;
  gboolean              updating;
};

G_DEFINE_FINAL_TYPE (ProcuraBriefPage, procura_brief_page, ADW_TYPE_BIN)

const char *
procura_brief_propose_success_unit (const char *workload_type)
{
  static const struct { const char *type; const char *unit; } units[] = {
    /* the units of docs/cost-model.md (procura_success_unit_default () in the core) */
    { "online-inference", N_("accepted response") },
    { "batch-inference", N_("accepted record") },
    { "embeddings", N_("accepted record") },
    { "code-agents", N_("accepted task") },
    { "image-generation", N_("accepted image") },
    { "video-generation", N_("accepted clip") },
    { "training", N_("completed training run at the target evaluation") },
    { "fine-tuning", N_("accepted fine-tuned checkpoint") },
    { "evaluation", N_("completed evaluation suite") },
  };

  if (workload_type == NULL)
    return NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (units[i].type, workload_type))
      return _(units[i].unit);
  return NULL;
}

static char **
field_str (ProcuraBrief *brief,
           const Field  *field)
{
  return (char **) G_STRUCT_MEMBER_P (brief, field->offset);
}

static double *
field_double (ProcuraBrief *brief,
              const Field  *field)
{
  return (double *) G_STRUCT_MEMBER_P (brief, field->offset);
}

static const char *
missing_label (const char *name)
{
  static const struct { const char *name; const char *label; } labels[] = {
    { "workload_type", N_("workload type") },
    { "model_shape", N_("model") },
    { "request_shape", N_("request shape") },
    { "success_unit", N_("success unit") },
    { "latency_target", N_("latency target") },
    { "duty_cycle", N_("duty cycle") },
    { "operating_boundary", N_("operating boundary") },
    { "tooling", N_("tooling") },
    { "demand", N_("demand") },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (labels[i].name, name))
      return _(labels[i].label);
  return name;
}

static void
update_completeness (ProcuraBriefPage   *self,
                     const ProcuraBrief *brief)
{
  g_auto (GStrv) missing = procura_brief_missing (brief);
  guint n_missing = g_strv_length (missing);
  guint complete = N_BRIEF_PARTS - MIN (n_missing, N_BRIEF_PARTS);
  g_autofree char *text = NULL;

  /* Translators: the completeness of the workload brief, e.g. "7 of 9 complete" */
  text = g_strdup_printf (_("%u of %u complete"), complete, N_BRIEF_PARTS);
  gtk_label_set_text (self->complete_label, text);
  gtk_level_bar_set_value (self->complete_bar, complete);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->complete_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  if (n_missing == 0)
    gtk_label_set_text (self->withheld_label,
                        _("The brief is complete: candidates are ranked by the cost of accepted work."));
  else
    {
      g_autoptr (GString) list = g_string_new (NULL);
      g_autofree char *reason = NULL;

      for (guint i = 0; i < n_missing; i++)
        {
          if (i > 0)
            g_string_append (list, _(", "));
          g_string_append (list, missing_label (missing[i]));
        }
      /* Translators: %s is a list of missing parts of the brief */
      reason = g_strdup_printf (_("Ranking is withheld until the brief is complete. Missing: %s."),
                                list->str);
      gtk_label_set_text (self->withheld_label, reason);
    }
}

static void
update_success_unit_subtitle (ProcuraBriefPage   *self,
                              const ProcuraBrief *brief)
{
  const char *proposal = procura_brief_propose_success_unit (brief->workload_type);
  g_autofree char *subtitle = NULL;

  if (proposal != NULL)
    /* Translators: %s is a success unit such as "accepted response" */
    subtitle = g_strdup_printf (_("Proposed for this workload: %s"), proposal);
  /* The success unit is field 2; an AdwEntryRow has no subtitle, so use the tooltip. */
  gtk_widget_set_tooltip_text (self->rows[2], subtitle);
}

static void
fill (ProcuraBriefPage *self)
{
  ProcuraProject *project = procura_document_get_project (self->document);
  ProcuraBrief *brief = project->brief;
  g_autoptr (ProcuraBrief) empty = NULL;
  gboolean read_only = procura_document_get_read_only (self->document);

  if (brief == NULL)
    brief = empty = procura_brief_new ();
  self->updating = TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const Field *field = &fields[i];

      gtk_widget_set_sensitive (self->rows[i], !read_only);
      switch (field->kind)
        {
        case FIELD_TEXT:
          {
            const char *value = *field_str (brief, field);
            gtk_editable_set_text (GTK_EDITABLE (self->rows[i]), value != NULL ? value : "");
          }
          break;
        case FIELD_NUMBER:
          {
            double value = *field_double (brief, field);
            g_autofree char *text = isnan (value) ? g_strdup ("") : g_strdup_printf ("%g", value);
            gtk_editable_set_text (GTK_EDITABLE (self->rows[i]), text);
          }
          break;
        case FIELD_CHOICE:
          {
            const char *value = *field_str (brief, field);
            guint selected = 0;

            for (guint j = 0; field->choices[j] != NULL; j++)
              if (value != NULL && g_str_equal (value, field->choices[j]))
                selected = j + 1;
            adw_combo_row_set_selected (ADW_COMBO_ROW (self->rows[i]), selected);
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
  update_completeness (self, brief);
  update_success_unit_subtitle (self, brief);
  self->updating = FALSE;
}

static void
save_field (ProcuraBriefPage *self,
            gsize             index)
{
  ProcuraProject *project;
  g_autoptr (ProcuraBrief) brief = NULL;
  const Field *field = &fields[index];

  if (self->updating || self->document == NULL)
    return;
  project = procura_document_get_project (self->document);
  brief = project->brief != NULL ? procura_brief_copy (project->brief) : procura_brief_new ();
  switch (field->kind)
    {
    case FIELD_TEXT:
      {
        const char *text = gtk_editable_get_text (GTK_EDITABLE (self->rows[index]));
        char **slot = field_str (brief, field);
        g_autofree char *stripped = g_strstrip (g_strdup (text));

        g_free (*slot);
        *slot = *stripped != '\0' ? g_steal_pointer (&stripped) : NULL;
      }
      break;
    case FIELD_NUMBER:
      {
        const char *text = gtk_editable_get_text (GTK_EDITABLE (self->rows[index]));
        char *end = NULL;
        double value;

        while (g_ascii_isspace (*text))
          text++;
        if (*text == '\0')
          value = NAN;
        else
          {
            value = g_ascii_strtod (text, &end);
            if (end == text || *end != '\0' || value < 0 || !isfinite (value))
              {
                gtk_widget_add_css_class (self->rows[index], "error");
                return;
              }
          }
        gtk_widget_remove_css_class (self->rows[index], "error");
        *field_double (brief, field) = value;
      }
      break;
    case FIELD_CHOICE:
      {
        guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (self->rows[index]));
        char **slot = field_str (brief, field);

        g_free (*slot);
        *slot = selected > 0 ? g_strdup (field->choices[selected - 1]) : NULL;
        /* Choosing a workload type proposes its success unit when none is set yet. */
        if (field->offset == BRIEF_STR (workload_type) && brief->success_unit == NULL)
          brief->success_unit = g_strdup (procura_brief_propose_success_unit (brief->workload_type));
      }
      break;
    default:
      g_assert_not_reached ();
    }
  update_completeness (self, brief);
  procura_document_save_brief (self->document, brief);
}

/* The field a row edits: its place in self->rows, which build_rows() filled in the
 * order of the fields table. */
static void
save_row (ProcuraBriefPage *self,
          gpointer          row)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    if (self->rows[i] == row)
      {
        save_field (self, i);
        return;
      }
  g_return_if_reached ();
}

static void
entry_apply_cb (AdwEntryRow *row,
                gpointer     user_data)
{
  save_row (PROCURA_BRIEF_PAGE (user_data), row);
}

static void
combo_selected_cb (AdwComboRow *row,
                   GParamSpec  *pspec,
                   gpointer     user_data)
{
  save_row (PROCURA_BRIEF_PAGE (user_data), row);
}

static AdwPreferencesGroup *
group_for (ProcuraBriefPage *self,
           const char       *name)
{
  if (g_str_equal (name, "workload"))
    return self->workload_group;
  if (g_str_equal (name, "shape"))
    return self->shape_group;
  if (g_str_equal (name, "slo"))
    return self->slo_group;
  return self->demand_group;
}

static void
build_rows (ProcuraBriefPage *self)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const Field *field = &fields[i];
      GtkWidget *row;

      if (field->kind == FIELD_CHOICE)
        {
          g_autoptr (GtkStringList) model = gtk_string_list_new (NULL);

          gtk_string_list_append (model, _("Not set"));
          for (guint j = 0; field->choices[j] != NULL; j++)
            gtk_string_list_append (model, procura_format_id (field->choices[j]));
          row = adw_combo_row_new ();
          adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
          if (field->subtitle != NULL)
            adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _(field->subtitle));
          g_signal_connect (row, "notify::selected", G_CALLBACK (combo_selected_cb), self);
        }
      else
        {
          row = adw_entry_row_new ();
          adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (row), TRUE);
          if (field->kind == FIELD_NUMBER)
            adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_NUMBER);
          if (field->subtitle != NULL)
            gtk_widget_set_tooltip_text (row, _(field->subtitle));
          g_signal_connect (row, "apply", G_CALLBACK (entry_apply_cb), self);
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(field->title));
      adw_preferences_group_add (group_for (self, field->group), row);
      self->rows[i] = row;
    }
}

static void
document_changed_cb (ProcuraDocument  *document,
                     ProcuraBriefPage *self)
{
  fill (self);
}

void
procura_brief_page_set_document (ProcuraBriefPage *self,
                                 ProcuraDocument  *document)
{
  g_return_if_fail (PROCURA_IS_BRIEF_PAGE (self));

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
  fill (self);
  gtk_stack_set_visible_child_name (self->stack, "content");
}

/* The fields of each part of the brief that procura_brief_missing () names. */
static const struct
{
  const char *part;
  gsize       offset;
} part_fields[] = {
  { "workload_type", BRIEF_STR (workload_type) },
  { "model_shape", BRIEF_STR (model_shape) },
  { "request_shape", BRIEF_STR (input_tokens) },
  { "request_shape", BRIEF_STR (output_tokens) },
  { "success_unit", BRIEF_STR (success_unit) },
  { "latency_target", BRIEF_STR (slo_metric) },
  { "latency_target", BRIEF_STR (slo_percentile) },
  { "latency_target", BRIEF_STR (slo_threshold_ms) },
  { "duty_cycle", BRIEF_STR (duty_cycle) },
  { "operating_boundary", BRIEF_STR (operating_boundary) },
  { "tooling", BRIEF_STR (tooling) },
  { "demand", BRIEF_STR (demand_average) },
  { "demand", BRIEF_STR (demand_peak) },
};

static gboolean
field_is_set (ProcuraBrief *brief,
              const Field  *field)
{
  if (field->kind == FIELD_NUMBER)
    return !isnan (*field_double (brief, field));
  return *field_str (brief, field) != NULL && **field_str (brief, field) != '\0';
}

/* The row of the first empty field of @part, or -1. */
static int
empty_field_of (ProcuraBrief *brief,
                const char   *part)
{
  for (gsize k = 0; k < G_N_ELEMENTS (part_fields); k++)
    {
      if (!g_str_equal (part_fields[k].part, part))
        continue;
      for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
        if (fields[i].offset == part_fields[k].offset && !field_is_set (brief, &fields[i]))
          return (int) i;
    }
  return -1;
}

const char *
procura_brief_page_focus_missing (ProcuraBriefPage *self,
                                  const char       *part)
{
  g_autoptr (ProcuraBrief) empty = NULL;
  g_auto (GStrv) missing = NULL;
  ProcuraBrief *brief;
  int row = -1;

  g_return_val_if_fail (PROCURA_IS_BRIEF_PAGE (self), NULL);
  if (self->document == NULL)
    return NULL;
  brief = procura_document_get_project (self->document)->brief;
  if (brief == NULL)
    brief = empty = procura_brief_new ();
  if (part != NULL)
    row = empty_field_of (brief, part);
  else
    {
      missing = procura_brief_missing (brief);
      for (guint i = 0; missing[i] != NULL && row < 0; i++)
        row = empty_field_of (brief, missing[i]);
    }
  if (row < 0)
    return NULL;
  gtk_widget_grab_focus (self->rows[row]);
  return _(fields[row].title);
}

const char *
procura_brief_page_get_completeness (ProcuraBriefPage *self)
{
  g_return_val_if_fail (PROCURA_IS_BRIEF_PAGE (self), NULL);
  return gtk_label_get_text (self->complete_label);
}

static void
procura_brief_page_dispose (GObject *object)
{
  ProcuraBriefPage *self = PROCURA_BRIEF_PAGE (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  /* The stack is the bin's child: the bin lets go of it first, so that the template's
   * teardown does not unparent it a second time. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PROCURA_TYPE_BRIEF_PAGE);
  G_OBJECT_CLASS (procura_brief_page_parent_class)->dispose (object);
}

static void
procura_brief_page_class_init (ProcuraBriefPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_brief_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-brief-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, complete_bar);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, complete_label);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, demand_group);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, shape_group);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, slo_group);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, stack);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, status);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, withheld_label);
  gtk_widget_class_bind_template_child (widget_class, ProcuraBriefPage, workload_group);
}

static void
procura_brief_page_init (ProcuraBriefPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  build_rows (self);
}

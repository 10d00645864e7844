/* procura-published-row.c: one row of a published data set, to be picked for import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "procura-published-row.h"

struct _ProcuraPublishedRow
{
  AdwActionRow  parent_instance;

  GtkWidget    *check;      /* template child */
  char         *haystack;   /* owned: what the filter looks in, lower case */
  guint         index;      /* the run's place in the file's result */
};

G_DEFINE_FINAL_TYPE (ProcuraPublishedRow, procura_published_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_PICKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The figure an analyst sorts a published row by: the throughput it states, and the
 * latency at p99 when it has one */
static char *
key_metric (const ProcuraRun *run)
{
  const ProcuraStat *ttft = procura_run_get_stat (run, "ttft", "p99");
  g_autoptr (GString) s = g_string_new (NULL);

  if (!isnan (run->output_throughput))
    /* Translators: a benchmark's output throughput */
    g_string_append_printf (s, _("%.0f output tok/s"), run->output_throughput);
  else if (!isnan (run->total_throughput))
    g_string_append_printf (s, _("%.0f total tok/s"), run->total_throughput);
  else if (!isnan (run->request_throughput))
    g_string_append_printf (s, _("%.2f req/s"), run->request_throughput);
  if (ttft != NULL)
    {
      if (s->len > 0)
        g_string_append (s, " · ");
      g_string_append_printf (s, _("TTFT p99 %.0f ms"), ttft->value);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
scenario_text (const ProcuraScenario *sc)
{
  if (sc->load_type == NULL)
    return g_strdup (_("load not stated"));
  if (isinf (sc->load_value))
    return g_strdup_printf ("%s", sc->load_type);
  if (!isnan (sc->load_value))
    return g_strdup_printf ("%s %g", sc->load_type, sc->load_value);
  return g_strdup (sc->load_type);
}

static char *
gpu_text (const ProcuraScenario *sc)
{
  const char *gpu = sc->gpu_name != NULL ? sc->gpu_name : _("GPU not stated");

  if (sc->gpu_count > 0)
    return g_strdup_printf ("%d × %s", sc->gpu_count, gpu);
  return g_strdup (gpu);
}

static void
check_toggled_cb (ProcuraPublishedRow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICKED]);
}

static void
procura_published_row_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  ProcuraPublishedRow *self = PROCURA_PUBLISHED_ROW (object);

  switch (prop_id)
    {
    case PROP_PICKED:
      g_value_set_boolean (value, procura_published_row_get_picked (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
procura_published_row_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  ProcuraPublishedRow *self = PROCURA_PUBLISHED_ROW (object);

  switch (prop_id)
    {
    case PROP_PICKED:
      procura_published_row_set_picked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
procura_published_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PROCURA_TYPE_PUBLISHED_ROW);
  G_OBJECT_CLASS (procura_published_row_parent_class)->dispose (object);
}

static void
procura_published_row_finalize (GObject *object)
{
  ProcuraPublishedRow *self = PROCURA_PUBLISHED_ROW (object);

  g_free (self->haystack);
  G_OBJECT_CLASS (procura_published_row_parent_class)->finalize (object);
}

static void
procura_published_row_class_init (ProcuraPublishedRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = procura_published_row_get_property;
  object_class->set_property = procura_published_row_set_property;
  object_class->dispose = procura_published_row_dispose;
  object_class->finalize = procura_published_row_finalize;

  properties[PROP_PICKED] =
    g_param_spec_boolean ("picked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-published-row.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraPublishedRow, check);
  gtk_widget_class_bind_template_callback (widget_class, check_toggled_cb);
}

static void
procura_published_row_init (ProcuraPublishedRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
procura_published_row_new (const ProcuraRun *run,
                           guint             index)
{
  ProcuraPublishedRow *self;
  const ProcuraScenario *sc;
  g_autofree char *gpu = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *metric = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *hay = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (run != NULL, NULL);
  self = g_object_new (PROCURA_TYPE_PUBLISHED_ROW, NULL);
  sc = &run->scenario;
  gpu = gpu_text (sc);
  scenario = scenario_text (sc);
  metric = key_metric (run);
  title = g_markup_escape_text (run->label != NULL ? run->label : _("run"), -1);
  /* Translators: a published row: GPU · model · scenario · key figure */
  subtitle = g_strdup_printf (_("%s · %s · %s · %s"), gpu,
                              sc->model != NULL ? sc->model : _("model not stated"), scenario, metric);
  escaped = g_markup_escape_text (subtitle, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), escaped);

  hay = g_strdup_printf ("%s %s %s %s %s", run->label != NULL ? run->label : "", gpu,
                         sc->model != NULL ? sc->model : "", scenario, sc->engine != NULL ? sc->engine : "");
  self->haystack = g_utf8_strdown (hay, -1);
  self->index = index;
  return GTK_WIDGET (self);
}

guint
procura_published_row_get_index (ProcuraPublishedRow *self)
{
  g_return_val_if_fail (PROCURA_IS_PUBLISHED_ROW (self), 0);
  return self->index;
}

gboolean
procura_published_row_get_picked (ProcuraPublishedRow *self)
{
  g_return_val_if_fail (PROCURA_IS_PUBLISHED_ROW (self), FALSE);
  return gtk_check_button_get_active (GTK_CHECK_BUTTON (self->check));
}

void
procura_published_row_set_picked (ProcuraPublishedRow *self,
                                  gboolean             picked)
{
  g_return_if_fail (PROCURA_IS_PUBLISHED_ROW (self));
  /* "toggled" notifies "picked", only when it changes */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->check), picked);
}

gboolean
procura_published_row_matches (ProcuraPublishedRow *self,
                               const char * const  *needles)
{
  g_return_val_if_fail (PROCURA_IS_PUBLISHED_ROW (self), FALSE);
  for (const char * const *n = needles; n != NULL && *n != NULL; n++)
    if (**n != '\0' && strstr (self->haystack, *n) == NULL)
      return FALSE;
  return TRUE;
}

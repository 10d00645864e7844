/* procura-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-chart-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "procura-chart-view.h"

#ifdef PROCURA_GUI_HAVE_CHART
# include "procura-chart.h"
#endif

struct _ProcuraChartView
{
  GtkWidget      parent_instance;

  ProcuraChart  *chart;
  GskRenderNode *cache;        /* the chart drawn at cache_width x cache_height */
  int            cache_width;
  int            cache_height;
  double         scale;
  char          *summary;

  GHashTable    *hidden;       /* names of series toggled off in the legend */

  gboolean       has_cursor;   /* keyboard or pointer selection */
  guint          cursor_series;
  gsize          cursor_index;
};

G_DEFINE_FINAL_TYPE (ProcuraChartView, procura_chart_view, GTK_TYPE_WIDGET)

GtkWidget *
procura_chart_view_new (void)
{
  return g_object_new (PROCURA_TYPE_CHART_VIEW, NULL);
}

static void
invalidate (ProcuraChartView *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

#ifdef PROCURA_GUI_HAVE_CHART
static void
rgba_to_chart (const GdkRGBA     *rgba,
               ProcuraChartColor *color)
{
  color->r = rgba->red;
  color->g = rgba->green;
  color->b = rgba->blue;
  color->a = rgba->alpha;
}

/* The theme from the widget's style: the base palette for light, dark or high
 * contrast, the foreground and accent from the CSS. */
static void
current_theme (ProcuraChartView  *self,
               ProcuraChartTheme *theme)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkStyleContext *context;
  GdkRGBA color;

  if (adw_style_manager_get_high_contrast (manager))
    *theme = *procura_chart_theme_high_contrast ();
  else if (adw_style_manager_get_dark (manager))
    *theme = *procura_chart_theme_dark ();
  else
    *theme = *procura_chart_theme_light ();

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_color (context, &color);
  rgba_to_chart (&color, &theme->foreground);
  color.alpha *= adw_style_manager_get_high_contrast (manager) ? 0.35 : 0.15;
  rgba_to_chart (&color, &theme->grid);
  if (gtk_style_context_lookup_color (context, "accent_color", &color))
    rgba_to_chart (&color, &theme->accent);
  if (gtk_style_context_lookup_color (context, "warning_color", &color))
    rgba_to_chart (&color, &theme->warning);
  G_GNUC_END_IGNORE_DEPRECATIONS
  theme->draw_background = FALSE;
  theme->font_size *= self->scale;
  theme->line_width *= MAX (1.0, self->scale * 0.75);
}
#endif

static void
procura_chart_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  ProcuraChartView *self = PROCURA_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (self->chart == NULL || width <= 0 || height <= 0)
    return;
#ifdef PROCURA_GUI_HAVE_CHART
  if (self->cache == NULL || self->cache_width != width || self->cache_height != height)
    {
      GtkSnapshot *sub = gtk_snapshot_new ();
      ProcuraChartTheme theme;
      cairo_t *cr;

      current_theme (self, &theme);
      cr = gtk_snapshot_append_cairo (sub, &GRAPHENE_RECT_INIT (0, 0, width, height));
      procura_chart_draw (self->chart, cr, width, height, &theme);
      cairo_destroy (cr);
      g_clear_pointer (&self->cache, gsk_render_node_unref);
      self->cache = gtk_snapshot_free_to_node (sub);
      self->cache_width = width;
      self->cache_height = height;
    }
  if (self->cache != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);

  /* The selected point, drawn on top of the cached chart. */
  if (self->has_cursor)
    {
      double x, y, px, py;

      if (procura_chart_series_get_point (self->chart, self->cursor_series, self->cursor_index, &x, &y)
          && procura_chart_data_to_pixel (self->chart, x, y, &px, &py))
        {
          ProcuraChartTheme theme;
          cairo_t *cr;

          current_theme (self, &theme);
          cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (px - 12, py - 12, 24, 24));
          cairo_set_line_width (cr, 2.5);
          cairo_set_source_rgba (cr, theme.accent.r, theme.accent.g, theme.accent.b, 1.0);
          cairo_arc (cr, px, py, 7 * self->scale, 0, 2 * G_PI);
          cairo_stroke (cr);
          cairo_destroy (cr);
        }
    }
#endif
}

static void
procura_chart_view_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      /* two charts a line on the Compare page at 1280 px (its flow box puts as many on
       * a line as their natural widths allow) */
      *natural = 480;
    }
  else
    {
      *minimum = 200;
      *natural = for_size > 0 ? MAX (200, for_size * 5 / 8) : 340;
    }
}

static void
procura_chart_view_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (procura_chart_view_parent_class)->css_changed (widget, change);
  invalidate (PROCURA_CHART_VIEW (widget));
}

static void
style_changed_cb (AdwStyleManager  *manager,
                  GParamSpec       *pspec,
                  ProcuraChartView *self)
{
  invalidate (self);
}

static gboolean
query_tooltip_cb (GtkWidget        *widget,
                  int               x,
                  int               y,
                  gboolean          keyboard,
                  GtkTooltip       *tooltip,
                  ProcuraChartView *self)
{
#ifdef PROCURA_GUI_HAVE_CHART
  g_autofree char *text = NULL;
  guint series;
  gsize index;

  if (self->chart == NULL)
    return FALSE;
  if (keyboard && self->has_cursor)
    {
      series = self->cursor_series;
      index = self->cursor_index;
    }
  else if (!procura_chart_nearest_point (self->chart, x, y, 24, &series, &index))
    return FALSE;
  text = procura_chart_describe_point (self->chart, series, index);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
#else
  return FALSE;
#endif
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ProcuraChartView         *self)
{
#ifdef PROCURA_GUI_HAVE_CHART
  guint series;
  gsize index;
  gboolean found;

  if (self->chart == NULL)
    return;
  found = procura_chart_nearest_point (self->chart, x, y, 24, &series, &index);
  if (found != self->has_cursor || (found && (series != self->cursor_series || index != self->cursor_index)))
    {
      self->has_cursor = found;
      if (found)
        {
          self->cursor_series = series;
          self->cursor_index = index;
        }
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
#endif
}

static void
update_cursor_description (ProcuraChartView *self)
{
  g_autofree char *text = procura_chart_view_describe_cursor (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                ProcuraChartView      *self)
{
#ifdef PROCURA_GUI_HAVE_CHART
  int delta = 0, delta_series = 0;

  if (self->chart == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      delta = -1;
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      delta = 1;
      break;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      delta_series = -1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      delta_series = 1;
      break;
    case GDK_KEY_Home:
      delta = G_MININT / 2;
      break;
    case GDK_KEY_End:
      delta = G_MAXINT / 2;
      break;
    case GDK_KEY_Escape:
      if (!self->has_cursor)
        return FALSE;
      self->has_cursor = FALSE;
      gtk_widget_set_tooltip_text (GTK_WIDGET (self), NULL);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    default:
      return FALSE;
    }
  if (!self->has_cursor)
    {
      self->cursor_series = 0;
      self->cursor_index = 0;
      if (!procura_chart_step_point (self->chart, &self->cursor_series, &self->cursor_index, 0, 0))
        return FALSE;
      self->has_cursor = TRUE;
    }
  else if (!procura_chart_step_point (self->chart, &self->cursor_series, &self->cursor_index,
                                      delta, delta_series))
    return FALSE;
  update_cursor_description (self);
  return TRUE;
#else
  return FALSE;
#endif
}

char *
procura_chart_view_describe_cursor (ProcuraChartView *self)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), NULL);
#ifdef PROCURA_GUI_HAVE_CHART
  if (self->chart != NULL && self->has_cursor)
    return procura_chart_describe_point (self->chart, self->cursor_series, self->cursor_index);
#endif
  return NULL;
}

#ifdef PROCURA_GUI_HAVE_CHART
static void
apply_hidden (ProcuraChartView *self)
{
  if (self->chart == NULL)
    return;
  for (guint i = 0; i < procura_chart_get_n_series (self->chart); i++)
    {
      const char *name = procura_chart_series_get_name (self->chart, i);

      if (procura_chart_series_get_in_legend (self->chart, i))
        procura_chart_set_series_hidden (self->chart, i,
                                         name != NULL && g_hash_table_contains (self->hidden, name));
    }
}
#endif

void
procura_chart_view_set_series_hidden (ProcuraChartView *self,
                                      const char       *name,
                                      gboolean          hidden)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));
  g_return_if_fail (name != NULL);

  if (hidden)
    g_hash_table_add (self->hidden, g_strdup (name));
  else
    g_hash_table_remove (self->hidden, name);
#ifdef PROCURA_GUI_HAVE_CHART
  apply_hidden (self);
#endif
  self->has_cursor = FALSE;
  invalidate (self);
}

gboolean
procura_chart_view_get_series_hidden (ProcuraChartView *self,
                                      const char       *name)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), FALSE);
  return name != NULL && g_hash_table_contains (self->hidden, name);
}

void
procura_chart_view_set_chart (ProcuraChartView *self,
                              ProcuraChart     *chart)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));

#ifdef PROCURA_GUI_HAVE_CHART
  if (chart != NULL)
    procura_chart_ref (chart);
  g_clear_pointer (&self->chart, procura_chart_unref);
  self->chart = chart;
  g_clear_pointer (&self->summary, g_free);
  apply_hidden (self);
  if (chart != NULL)
    self->summary = procura_chart_summary (chart);
#endif
  self->has_cursor = FALSE;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->summary != NULL ? self->summary : _("Empty chart"), -1);
  invalidate (self);
}

ProcuraChart *
procura_chart_view_get_chart (ProcuraChartView *self)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

void
procura_chart_view_set_scale (ProcuraChartView *self,
                              double            scale)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));
  self->scale = scale > 0 ? scale : 1.0;
  invalidate (self);
}

const char *
procura_chart_view_get_summary (ProcuraChartView *self)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), NULL);
  return self->summary;
}

gboolean
procura_chart_view_export (ProcuraChartView *self,
                           const char       *path,
                           GError          **error)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), FALSE);
#ifdef PROCURA_GUI_HAVE_CHART
  if (self->chart != NULL)
    {
      gboolean ok = procura_chart_write_file (self->chart, path, 960, 600,
                                              procura_chart_theme_light (), error);
      /* The export drew the chart at another size: redraw to restore the layout. */
      invalidate (self);
      return ok;
    }
#endif
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("There is no chart to export"));
  return FALSE;
}

static void
procura_chart_view_dispose (GObject *object)
{
  ProcuraChartView *self = PROCURA_CHART_VIEW (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->cache, gsk_render_node_unref);
#ifdef PROCURA_GUI_HAVE_CHART
  g_clear_pointer (&self->chart, procura_chart_unref);
#endif
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->hidden, g_hash_table_unref);
  G_OBJECT_CLASS (procura_chart_view_parent_class)->dispose (object);
}

static void
procura_chart_view_class_init (ProcuraChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_chart_view_dispose;
  widget_class->snapshot = procura_chart_view_snapshot;
  widget_class->measure = procura_chart_view_measure;
  widget_class->css_changed = procura_chart_view_css_changed;
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
procura_chart_view_init (ProcuraChartView *self)
{
  GtkEventController *controller;
  AdwStyleManager *manager = adw_style_manager_get_default ();

  self->scale = 1.0;
  self->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  g_signal_connect (manager, "notify::dark", G_CALLBACK (style_changed_cb), self);
  g_signal_connect (manager, "notify::high-contrast", G_CALLBACK (style_changed_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Empty chart"), -1);
}

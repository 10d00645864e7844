/* procura-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-chart-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "procura-chart-view.h"

#include "procura-chart.h"

struct _ProcuraChartView
{
  GtkWidget      parent_instance;

  ProcuraChart  *chart;
  /* this view's own geometry and legend choices: a slide and a page showing the same
   * spec each hit-test with what they drew and hide their own series */
  ProcuraChartLayout *layout;
  GtkWidget     *overlay;        /* weak: buttons laid over the chart, kept free of text */
  graphene_rect_t reserved;      /* where they were at the last draw */
  GskRenderNode *cache;        /* the chart drawn at cache_width x cache_height */
  int            cache_width;
  int            cache_height;
  double         scale;
  char          *summary;

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

static void
procura_chart_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  ProcuraChartView *self = PROCURA_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  graphene_rect_t reserved = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (self->chart == NULL || width <= 0 || height <= 0)
    return;
  /* the chart's title and labels stay clear of the buttons over it */
  if (self->overlay != NULL && gtk_widget_get_visible (self->overlay)
      && !gtk_widget_compute_bounds (self->overlay, widget, &reserved))
    reserved = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  if (self->cache == NULL || self->cache_width != width || self->cache_height != height
      || !graphene_rect_equal (&reserved, &self->reserved))
    {
      GtkSnapshot *sub = gtk_snapshot_new ();
      ProcuraChartTheme theme;
      cairo_t *cr;

      current_theme (self, &theme);
      cr = gtk_snapshot_append_cairo (sub, &GRAPHENE_RECT_INIT (0, 0, width, height));
      self->reserved = reserved;
      procura_chart_layout_set_reserved (self->layout, reserved.origin.x, reserved.origin.y,
                                         reserved.size.width, reserved.size.height);
      procura_chart_draw (self->chart, self->layout, cr, width, height, &theme);
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
          && procura_chart_data_to_pixel (self->layout, x, y, &px, &py))
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
  g_autofree char *text = NULL;
  const char *whole;
  guint series;
  gsize index;

  if (self->chart == NULL)
    return FALSE;
  if (keyboard && self->has_cursor)
    {
      series = self->cursor_series;
      index = self->cursor_index;
    }
  else if (!procura_chart_nearest_point (self->chart, self->layout, x, y, 24, &series, &index))
    {
      /* an ellipsized title or label: its whole text */
      whole = procura_chart_layout_truncated_text_at (self->layout, x, y);
      if (whole == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, whole);
      return TRUE;
    }
  text = procura_chart_describe_point (self->chart, series, index);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ProcuraChartView         *self)
{
  guint series;
  gsize index;
  gboolean found;

  if (self->chart == NULL)
    return;
  found = procura_chart_nearest_point (self->chart, self->layout, x, y, 24, &series, &index);
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
      if (!procura_chart_step_point (self->chart, self->layout, &self->cursor_series, &self->cursor_index, 0, 0))
        return FALSE;
      self->has_cursor = TRUE;
    }
  else if (!procura_chart_step_point (self->chart, self->layout, &self->cursor_series, &self->cursor_index,
                                      delta, delta_series))
    return FALSE;
  update_cursor_description (self);
  return TRUE;
}

char *
procura_chart_view_describe_cursor (ProcuraChartView *self)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), NULL);
  if (self->chart != NULL && self->has_cursor)
    return procura_chart_describe_point (self->chart, self->cursor_series, self->cursor_index);
  return NULL;
}

void
procura_chart_view_set_series_hidden (ProcuraChartView *self,
                                      const char       *name,
                                      gboolean          hidden)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));
  g_return_if_fail (name != NULL);

  /* kept in this view's layout, never in the spec another view may show */
  procura_chart_layout_set_series_hidden (self->layout, name, hidden);
  self->has_cursor = FALSE;
  invalidate (self);
}

gboolean
procura_chart_view_get_series_hidden (ProcuraChartView *self,
                                      const char       *name)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), FALSE);
  return procura_chart_layout_get_series_hidden (self->layout, name);
}

void
procura_chart_view_set_chart (ProcuraChartView *self,
                              ProcuraChart     *chart)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));

  if (chart != NULL)
    procura_chart_ref (chart);
  g_clear_pointer (&self->chart, procura_chart_unref);
  self->chart = chart;
  g_clear_pointer (&self->summary, g_free);
  if (chart != NULL)
    self->summary = procura_chart_summary (chart);
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

const ProcuraChartLayout *
procura_chart_view_get_layout (ProcuraChartView *self)
{
  g_return_val_if_fail (PROCURA_IS_CHART_VIEW (self), NULL);
  return self->layout;
}

void
procura_chart_view_set_overlay (ProcuraChartView *self,
                                GtkWidget        *overlay)
{
  g_return_if_fail (PROCURA_IS_CHART_VIEW (self));
  g_return_if_fail (overlay == NULL || GTK_IS_WIDGET (overlay));

  if (self->overlay != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->overlay), (gpointer *) &self->overlay);
  self->overlay = overlay;
  if (overlay != NULL)
    g_object_add_weak_pointer (G_OBJECT (overlay), (gpointer *) &self->overlay);
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
  if (self->chart != NULL)
    {
      /* what this view shows (its hidden series left out), laid out on its own: this
       * view's layout stays as drawn */
      return procura_chart_write_file_as_shown (self->chart, self->layout, path, 960, 600,
                                                procura_chart_theme_light (), error);
    }
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("There is no chart to export"));
  return FALSE;
}

static void
procura_chart_view_dispose (GObject *object)
{
  ProcuraChartView *self = PROCURA_CHART_VIEW (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->overlay != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->overlay), (gpointer *) &self->overlay);
  self->overlay = NULL;
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  g_clear_pointer (&self->chart, procura_chart_unref);
  g_clear_pointer (&self->layout, procura_chart_layout_free);
  g_clear_pointer (&self->summary, g_free);
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
  self->layout = procura_chart_layout_new ();
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

/* procura-gui-test.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-gui-test.h"

void
procura_gui_test_disable_animations (void)
{
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

void
procura_gui_test_wait_mapped (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (!(gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0)
         && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  procura_gui_test_settle ();
}

/* Quiet for this long (more than two frames at 60 Hz): the pending redraws, relayouts
 * and idles have run. */
#define SETTLE_QUIET_US (G_USEC_PER_SEC * 40 / 1000)

void
procura_gui_test_settle (void)
{
  gint64 now = g_get_monotonic_time ();
  gint64 end = now + G_USEC_PER_SEC / 5;
  gint64 last_busy = now;

  /* Not a fixed sleep: at most 200 ms (an animation keeps the loop busy), but done as
   * soon as the loop has had nothing to dispatch for SETTLE_QUIET_US. */
  while ((now = g_get_monotonic_time ()) < end && now - last_busy < SETTLE_QUIET_US)
    {
      if (g_main_context_iteration (NULL, FALSE))
        last_busy = g_get_monotonic_time ();
      else
        g_usleep (2000);
    }
}

gboolean
procura_gui_test_wait_idle (ProcuraWindow *window,
                            double         timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < end)
    {
      if (procura_window_get_document (window) != NULL && !procura_window_is_loading (window))
        {
          procura_gui_test_settle ();
          if (!procura_window_is_loading (window))
            {
              /* Hidden pages are built when shown: bring them up to date, as the tests
               * read them without showing them. */
              for (guint i = 0; procura_window_page_names[i] != NULL; i++)
                procura_window_get_page (window, procura_window_page_names[i]);
              return TRUE;
            }
        }
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  return FALSE;
}

GdkTexture *
procura_gui_test_render (GtkWidget  *widget,
                         GError    **error)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
  GdkTexture *texture;

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "nothing drawn");
      return NULL;
    }
  if (!gsk_renderer_realize (renderer, NULL, error))
    return NULL;
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_renderer_unrealize (renderer);
  return texture;
}

GtkWidget *
procura_gui_test_find (GtkWidget *widget,
                       GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = procura_gui_test_find (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
procura_gui_test_find_label (GtkWidget  *widget,
                             const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = procura_gui_test_find_label (child, text);
      if (found != NULL)
        return found;
    }
  return NULL;
}

void
procura_gui_test_expand_all (GtkWidget *widget)
{
  if (ADW_IS_EXPANDER_ROW (widget))
    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), TRUE);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    procura_gui_test_expand_all (child);
}

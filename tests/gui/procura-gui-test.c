/* procura-gui-test.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-gui-test.h"
#include "procura-test-util.h"

static char               *test_data_home;   /* the private $XDG_DATA_HOME */
static ProcuraApplication *test_app;

gboolean
procura_gui_test_init (int    *argc,
                       char ***argv)
{
  g_test_init (argc, argv, NULL);
  test_data_home = procura_test_mkdtemp ();
  g_setenv ("XDG_DATA_HOME", test_data_home, TRUE);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display (run the suite under xvfb-run)\n");
      procura_test_rmtree (test_data_home);
      g_clear_pointer (&test_data_home, g_free);
      return FALSE;
    }
  adw_init ();
  procura_gui_test_disable_animations ();
  return TRUE;
}

ProcuraApplication *
procura_gui_test_application (void)
{
  g_return_val_if_fail (test_app == NULL, test_app);
  test_app = procura_application_new ();
  g_application_register (G_APPLICATION (test_app), NULL, NULL);
  return test_app;
}

int
procura_gui_test_run (void)
{
  int status = g_test_run ();

  g_clear_object (&test_app);
  if (test_data_home != NULL)
    procura_test_rmtree (test_data_home);
  g_clear_pointer (&test_data_home, g_free);
  return status;
}

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

/* Depth first from @widget; with @all, adds every YES to it and returns NULL, else
 * returns the first YES. */
static GtkWidget *
walk (GtkWidget          *widget,
      ProcuraGuiTestFunc  match,
      gconstpointer       data,
      GPtrArray          *all)
{
  switch (match (widget, data))
    {
    case PROCURA_GUI_TEST_PRUNE:
      return NULL;
    case PROCURA_GUI_TEST_YES:
      if (all == NULL)
        return widget;
      g_ptr_array_add (all, widget);
      break;
    case PROCURA_GUI_TEST_NO:
    default:
      break;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = walk (child, match, data, all);
      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
procura_gui_test_find_first (GtkWidget          *widget,
                             ProcuraGuiTestFunc  match,
                             gconstpointer       data)
{
  return walk (widget, match, data, NULL);
}

GPtrArray *
procura_gui_test_find_all (GtkWidget          *widget,
                           ProcuraGuiTestFunc  match,
                           gconstpointer       data)
{
  GPtrArray *all = g_ptr_array_new ();

  walk (widget, match, data, all);
  return all;
}

static ProcuraGuiTestMatch
is_type (GtkWidget     *widget,
         gconstpointer  data)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, *(const GType *) data) ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find (GtkWidget *widget,
                       GType      type)
{
  return procura_gui_test_find_first (widget, is_type, &type);
}

static ProcuraGuiTestMatch
label_contains (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find_label (GtkWidget  *widget,
                             const char *text)
{
  return procura_gui_test_find_first (widget, label_contains, text);
}

static ProcuraGuiTestMatch
is_named (GtkWidget     *widget,
          gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0 ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find_named (GtkWidget  *widget,
                             const char *name)
{
  return procura_gui_test_find_first (widget, is_named, name);
}

static ProcuraGuiTestMatch
is_button_tipped (GtkWidget     *widget,
                  gconstpointer  tooltip)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find_button (GtkWidget  *widget,
                              const char *tooltip)
{
  return procura_gui_test_find_first (widget, is_button_tipped, tooltip);
}

static ProcuraGuiTestMatch
is_button_labelled (GtkWidget     *widget,
                    gconstpointer  label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find_button_labelled (GtkWidget  *widget,
                                       const char *label)
{
  return procura_gui_test_find_first (widget, is_button_labelled, label);
}

typedef struct {
  GType       type;
  const char *title;
} RowWanted;

static ProcuraGuiTestMatch
is_row (GtkWidget     *widget,
        gconstpointer  data)
{
  const RowWanted *want = data;

  return G_TYPE_CHECK_INSTANCE_TYPE (widget, want->type) && ADW_IS_PREFERENCES_ROW (widget)
         && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), want->title) == 0
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

GtkWidget *
procura_gui_test_find_row (GtkWidget  *widget,
                           GType       type,
                           const char *title)
{
  RowWanted want = { type, title };

  return procura_gui_test_find_first (widget, is_row, &want);
}

static ProcuraGuiTestMatch
is_visible_label (GtkWidget     *widget,
                  gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

void
procura_gui_test_collect_labels (GtkWidget *widget,
                                 GString   *out)
{
  g_autoptr (GPtrArray) labels = procura_gui_test_find_all (widget, is_visible_label, NULL);

  for (guint i = 0; i < labels->len; i++)
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (labels->pdata[i])));
}

/* Expands each expander row as it is reached, so that rows its details hold (built on
 * expansion) are reached too. */
static ProcuraGuiTestMatch
expand_row (GtkWidget     *widget,
            gconstpointer  data)
{
  if (ADW_IS_EXPANDER_ROW (widget))
    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), TRUE);
  return PROCURA_GUI_TEST_NO;
}

void
procura_gui_test_expand_all (GtkWidget *widget)
{
  walk (widget, expand_row, NULL, NULL);
}

/* test-polish.c: the shortcuts window shows the keys the application sets; every
 * icon-only button has a tooltip and an accessible name; the project's name is in the
 * header; the Decision page says each sentence once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "procura-gui-test.h"
#include "procura-application.h"
#include "procura-document.h"

static ProcuraApplication *app;

static ProcuraWindow *
open_demo_window (void)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  return window;
}

static ProcuraGuiTestMatch
is_shortcut (GtkWidget     *widget,
             gconstpointer  data)
{
  return GTK_IS_SHORTCUTS_SHORTCUT (widget) ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

static void
test_shortcuts (void)
{
  ProcuraWindow *window = procura_window_new (app);
  GtkShortcutsWindow *overlay;
  g_autoptr (GPtrArray) shortcuts = NULL;
  guint with_action = 0;

  /* built after the window's first frame, not with the window */
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  for (gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
       gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == NULL
       && g_get_monotonic_time () < end;)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  /* not shown: GTK 4.8 warns about its own labels' sizes there; the accels are set on
   * the shortcuts when the window takes the overlay */
  shortcuts = procura_gui_test_find_all (GTK_WIDGET (overlay), is_shortcut, NULL);
  g_assert_cmpuint (shortcuts->len, >, 0);
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *action = NULL, *accel = NULL, *title = NULL;
      g_auto (GStrv) app_accels = NULL;
      g_autofree char *expected = NULL;

      g_object_get (shortcuts->pdata[i], "action-name", &action, "accelerator", &accel,
                    "title", &title, NULL);
      g_test_message ("%s: %s = %s", title, action, accel);
      g_assert_nonnull (accel);
      g_assert_cmpstr (accel, !=, "");
      if (action == NULL)
        continue;
      with_action++;
      app_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);
      g_assert_nonnull (app_accels);
      g_assert_nonnull (app_accels[0]);
      expected = g_strjoinv (" ", app_accels);
      g_assert_cmpstr (accel, ==, expected);
    }
  /* New, Open, Save As, Import, Export, Undo, Present, the shortcuts, Quit */
  g_assert_cmpuint (with_action, >=, 9);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* An icon-only button: a GtkButton whose child is an image (a GtkMenuButton's own
 * toggle button is checked through the menu button). */
static ProcuraGuiTestMatch
is_icon_only (GtkWidget     *widget,
              gconstpointer  data)
{
  if (GTK_IS_MENU_BUTTON (widget))
    return gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)) != NULL ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
  if (!GTK_IS_BUTTON (widget))
    return PROCURA_GUI_TEST_NO;
  if (gtk_widget_get_ancestor (widget, GTK_TYPE_MENU_BUTTON) != NULL
      || gtk_widget_get_ancestor (widget, ADW_TYPE_SPLIT_BUTTON) != NULL
      || gtk_widget_get_ancestor (widget, GTK_TYPE_WINDOW_CONTROLS) != NULL
      /* libadwaita's own Apply button (tooltip, no accessible label in 1.2) */
      || gtk_widget_get_ancestor (widget, ADW_TYPE_ENTRY_ROW) != NULL
      /* a spin button's − and + (the spin button is the accessible control) */
      || gtk_widget_get_ancestor (widget, GTK_TYPE_SPIN_BUTTON) != NULL)
    return PROCURA_GUI_TEST_NO;
  return GTK_IS_IMAGE (gtk_button_get_child (GTK_BUTTON (widget))) ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

static void
check_icon_buttons (GtkWidget *root,
                    guint     *n_checked)
{
  g_autoptr (GPtrArray) buttons = procura_gui_test_find_all (root, is_icon_only, NULL);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *widget = buttons->pdata[i];
      const char *tooltip = gtk_widget_get_tooltip_text (widget);

      g_test_message ("icon-only %s (%s) in %s: %s", G_OBJECT_TYPE_NAME (widget),
                      GTK_IS_BUTTON (widget) ? gtk_button_get_icon_name (GTK_BUTTON (widget)) : "",
                      G_OBJECT_TYPE_NAME (gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW)
                                          ? gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW)
                                          : gtk_widget_get_parent (widget)),
                      tooltip);
      g_assert_nonnull (tooltip);
      g_assert_cmpstr (tooltip, !=, "");
      g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget),
                                                       GTK_ACCESSIBLE_PROPERTY_LABEL));
      (*n_checked)++;
    }
}

static void
test_icon_buttons (void)
{
  ProcuraWindow *window = open_demo_window ();
  guint n_checked = 0;

  for (int i = 0; procura_window_page_names[i] != NULL; i++)
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
      g_assert_true (procura_gui_test_wait_idle (window, 60));
      procura_gui_test_settle ();
    }
  check_icon_buttons (GTK_WIDGET (window), &n_checked);
  /* the header's Import, Present and menu; the demo's delete buttons; chart cards */
  g_assert_cmpuint (n_checked, >=, 4);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A label showing @text, not in a popover (the recent list has it too). */
static ProcuraGuiTestMatch
is_shown_label (GtkWidget     *widget,
                gconstpointer  text)
{
  if (GTK_IS_POPOVER (widget) || !gtk_widget_is_drawable (widget))
    return PROCURA_GUI_TEST_PRUNE;
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

static void
test_project_name (void)
{
  ProcuraWindow *window = open_demo_window ();
  GtkWidget *header = procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  const char *title = gtk_window_get_title (GTK_WINDOW (window));
  GtkWidget *label;

  g_assert_nonnull (header);
  g_assert_nonnull (title);
  g_assert_cmpstr (title, !=, "Procura");
  /* wide: the switcher is in the header, the name beside it */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  procura_gui_test_settle ();
  label = procura_gui_test_find_first (header, is_shown_label, title);
  g_assert_nonnull (label);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Visible labels, none under a hidden widget */
static ProcuraGuiTestMatch
is_shown_text (GtkWidget     *widget,
               gconstpointer  data)
{
  if (!gtk_widget_get_visible (widget))
    return PROCURA_GUI_TEST_PRUNE;
  return GTK_IS_LABEL (widget) ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

static void
test_decision_says_once (void)
{
  ProcuraWindow *window = open_demo_window ();
  GtkWidget *page = procura_window_get_page (window, "decision");
  g_autoptr (GPtrArray) labels = NULL;
  guint n_distinguishable = 0;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 5);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  procura_gui_test_settle ();
  labels = procura_gui_test_find_all (page, is_shown_text, NULL);
  for (guint i = 0; i < labels->len; i++)
    labels->pdata[i] = (gpointer) gtk_label_get_text (GTK_LABEL (labels->pdata[i]));
  g_assert_cmpuint (labels->len, >, 0);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *a = labels->pdata[i];

      if (strstr (a, "distinguishable") != NULL || strstr (a, "overlap") != NULL)
        {
          g_test_message ("uncertainty: %s", a);
          n_distinguishable++;
        }
      /* no sentence said again inside a longer text (names and figures repeat in the
       * table; the same advice for two candidates' warnings is two rows of its own) */
      if (strlen (a) < 40 || !g_str_has_suffix (a, "."))
        continue;
      for (guint j = 0; j < labels->len; j++)
        if (j != i && strlen (labels->pdata[j]) > strlen (a))
          {
            if (strstr (labels->pdata[j], a) != NULL)
              g_error ("said twice on the Decision page: %s", a);
          }
    }
  g_assert_cmpuint (n_distinguishable, <=, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_present_nothing (void)
{
  ProcuraWindow *window = procura_window_new (app);
  g_autoptr (GList) before = NULL, after = NULL;

  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  g_assert_null (procura_window_get_document (window));
  before = gtk_window_list_toplevels ();
  g_assert_null (procura_gui_test_find_label (GTK_WIDGET (window), "Nothing to present"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.present", NULL);
  procura_gui_test_settle ();
  after = gtk_window_list_toplevels ();
  /* no presentation window, and a toast that says why */
  g_assert_cmpuint (g_list_length (after), ==, g_list_length (before));
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (window), "Nothing to present"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widest minimum under @widget, for the message when too wide. */
static void
widest (GtkWidget  *widget,
        int         depth,
        GString    *out)
{
  int min = 0;

  if (!gtk_widget_get_visible (widget))
    return;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  if (min <= 80)
    return;
  g_string_append_printf (out, "%*s%s %s %d\n", depth, "", G_OBJECT_TYPE_NAME (widget),
                          GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget))
                          : gtk_widget_get_name (widget), min);
  if (min <= 360)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    widest (child, depth + 1, out);
}

/* When the window goes narrow, libadwaita 1.2 reveals the AdwViewSwitcherBar, and
 * GTK 4.8's GtkRevealer allocates the bar's contents with a height of -1 on its first
 * frame and then snapshots them: GTK warns about its own widgets. Only those two
 * warnings, and only while narrow_gtk_bug is set, are dropped. */
static gboolean narrow_gtk_bug;

static GLogWriterOutput
log_writer (GLogLevelFlags   log_level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN") && fields[i].length < 0)
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
        message = fields[i].value;
    }
  if (narrow_gtk_bug && g_strcmp0 (domain, "Gtk") == 0 && message != NULL
      && ((g_str_has_prefix (message, "gtk_widget_size_allocate(): attempt to allocate ")
           && g_str_has_suffix (message, " and height -1"))
          || (g_str_has_prefix (message, "Trying to snapshot ")
              && g_str_has_suffix (message, " without a current allocation"))))
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

static void
test_narrow (void)
{
  ProcuraWindow *window = open_demo_window ();

  /* every page built and shown once, at the default 1280 px */
  for (int i = 0; procura_window_page_names[i] != NULL; i++)
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
      g_assert_true (procura_gui_test_wait_idle (window, 60));
      procura_gui_test_settle ();
    }
  /* made 360 px wide (the header goes compact), no page needs more */
  narrow_gtk_bug = TRUE;
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 700);
  /* the header goes compact in an idle after the resize: a loaded machine is slow */
  for (int k = 0; k < 25; k++)
    {
      int min = 0;

      procura_gui_test_settle ();
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min <= 360)
        break;
    }
  for (int i = 0; procura_window_page_names[i] != NULL; i++)
    {
      int min = 0;

      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min > 360)
        {
          g_autoptr (GString) tree = g_string_new (NULL);

          widest (GTK_WIDGET (window), 0, tree);
          g_test_message ("%s", tree->str);
        }
      g_test_message ("%s: minimum width %d", procura_window_page_names[i], min);
      g_assert_cmpint (min, <=, 360);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
  narrow_gtk_bug = FALSE;
}

static void
test_recent_titles (void)
{
  ProcuraWindow *window = open_demo_window ();
  GtkWidget *split = procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_SPLIT_BUTTON);
  GMenuModel *menu, *section;
  const char *title = gtk_window_get_title (GTK_WINDOW (window));
  g_autofree char *dir = g_path_get_dirname (procura_document_get_path (procura_window_get_document (window)));
  g_autofree char *folder = g_path_get_basename (dir);
  gboolean found = FALSE;

  if (procura_application_get_settings (app) == NULL)
    {
      g_test_skip ("no GSettings schema: no recent list");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_assert_nonnull (split);
  menu = adw_split_button_get_menu_model (ADW_SPLIT_BUTTON (split));
  g_assert_nonnull (menu);
  section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_nonnull (section);
  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      g_autofree char *label = NULL;

      g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_test_message ("recent: %s", label);
      /* the project's title and its folder */
      if (label != NULL && g_str_has_prefix (label, title) && strstr (label, folder) != NULL)
        found = TRUE;
    }
  g_object_unref (section);
  g_assert_true (found);
  gtk_window_destroy (GTK_WINDOW (window));
}

static ProcuraGuiTestMatch
is_name_label (GtkWidget     *widget,
               gconstpointer  data)
{
  return GTK_IS_LABEL (widget)
         && gtk_label_get_ellipsize (GTK_LABEL (widget)) == PANGO_ELLIPSIZE_MIDDLE
         && g_strcmp0 (gtk_widget_get_tooltip_text (widget), gtk_label_get_text (GTK_LABEL (widget))) == 0
         ? PROCURA_GUI_TEST_YES : PROCURA_GUI_TEST_NO;
}

static void
test_candidate_chooser (void)
{
  ProcuraWindow *window = open_demo_window ();
  GtkWidget *row;
  GListModel *model;
  g_autoptr (GPtrArray) labels = NULL;
  guint n_long = 0;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", 5);
  g_assert_true (procura_gui_test_wait_idle (window, 60));
  procura_gui_test_settle ();
  row = procura_gui_test_find_row (procura_window_get_page (window, "decision"), ADW_TYPE_COMBO_ROW,
                                   "Chosen candidate");
  g_assert_nonnull (row);
  model = adw_combo_row_get_model (ADW_COMBO_ROW (row));
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 2);
  /* the list it opens has one row per choice: the whole name in its tooltip, cut in
   * the middle if at all (drawn here by its own list factory: a popover cannot be
   * placed under Xvfb without a monitor) */
  {
    GtkWidget *list_window = gtk_window_new ();
    GtkListItemFactory *factory = adw_combo_row_get_list_factory (ADW_COMBO_ROW (row));
    GtkWidget *list;

    g_assert_nonnull (factory);
    list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (model))),
                              g_object_ref (factory));
    gtk_window_set_child (GTK_WINDOW (list_window), list);
    gtk_window_set_default_size (GTK_WINDOW (list_window), 400, 600);
    gtk_window_present (GTK_WINDOW (list_window));
    procura_gui_test_wait_mapped (list);
    labels = procura_gui_test_find_all (list, is_name_label, NULL);
    g_assert_cmpuint (labels->len, >=, g_list_model_get_n_items (model));
    for (guint i = 0; i < labels->len; i++)
      if (g_utf8_strlen (gtk_label_get_text (labels->pdata[i]), -1) > 28)
        n_long++;
    gtk_window_destroy (GTK_WINDOW (list_window));
  }
  /* the demo's hybrid and its offers have long names */
  g_assert_cmpuint (n_long, >, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_undo_edit (void)
{
  ProcuraWindow *window = open_demo_window ();
  ProcuraDocument *document = procura_window_get_document (window);
  g_autoptr (ProcuraBrief) edited = NULL;
  double before = procura_document_get_project (document)->brief->slo_threshold_ms;

  g_assert_false (procura_document_can_undo_edit (document));
  /* an edit of the brief, as its page makes it */
  edited = procura_brief_copy (procura_document_get_project (document)->brief);
  edited->slo_threshold_ms = before + 250;
  procura_document_save_brief (document, edited);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpfloat (procura_document_get_project (document)->brief->slo_threshold_ms, ==, before + 250);
  g_assert_true (procura_document_can_undo_edit (document));
  /* Ctrl+Z */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-edit", NULL);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpfloat (procura_document_get_project (document)->brief->slo_threshold_ms, ==, before);
  g_assert_false (procura_document_can_undo_edit (document));
  /* nothing more to undo: said so */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-edit", NULL);
  procura_gui_test_settle ();
  g_assert_nonnull (procura_gui_test_find_label (GTK_WIDGET (window), "Nothing to undo"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  /* the accessible names are read back from GTK's test context (the suite's
   * GTK_A11Y=none keeps none) */
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_log_set_writer_func (log_writer, NULL, NULL);
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/polish/shortcuts", test_shortcuts);
  g_test_add_func ("/polish/icon-buttons", test_icon_buttons);
  g_test_add_func ("/polish/project-name", test_project_name);
  g_test_add_func ("/polish/decision-says-once", test_decision_says_once);
  g_test_add_func ("/polish/present-nothing", test_present_nothing);
  g_test_add_func ("/polish/narrow", test_narrow);
  g_test_add_func ("/polish/recent-titles", test_recent_titles);
  g_test_add_func ("/polish/candidate-chooser", test_candidate_chooser);
  g_test_add_func ("/polish/undo-edit", test_undo_edit);
  return procura_gui_test_run ();
}

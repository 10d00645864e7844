/* test-welcome.c: the first start shows the welcome page (the demo one click away, a
 * new project, one to open, the recent ones); every empty state of an empty project has
 * a button that does the next step; at 1280×800 the header shows the project's whole name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "procura-gui-test.h"
#include "procura-application.h"
#include "procura-brief-page.h"
#include "procura-document.h"
#include "procura-page.h"
#include "procura-welcome.h"

static ProcuraApplication *app;

/* With PROCURA_TEST_SHOTS set to a folder, the window as each check sees it is saved
 * there as NAME.png, for a person to look at. */
static void
shot (ProcuraWindow *window,
      const char    *name)
{
  const char *dir = g_getenv ("PROCURA_TEST_SHOTS");
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *file = NULL, *path = NULL;

  if (dir == NULL)
    return;
  procura_gui_test_settle ();
  texture = procura_gui_test_render (GTK_WIDGET (window), &error);
  g_assert_no_error (error);
  file = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static ProcuraWindow *
new_window (void)
{
  ProcuraWindow *window = procura_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  procura_gui_test_wait_mapped (GTK_WIDGET (window));
  return window;
}

/* The buttons under @widget whose action is @action_name, in @out. */
static void
collect_buttons (GtkWidget  *widget,
                 const char *action_name,
                 GPtrArray  *out)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_BUTTON (widget)
      && (action_name == NULL
          || g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_buttons (child, action_name, out);
}

/* The one shown button for @action_name under @widget: there, drawn and sensitive (its
 * action enabled). */
static GtkWidget *
shown_button (GtkWidget  *widget,
              const char *action_name)
{
  g_autoptr (GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *button;

  collect_buttons (widget, action_name, buttons);
  g_test_message ("%u button(s) for %s", buttons->len, action_name);
  g_assert_cmpuint (buttons->len, ==, 1);
  button = buttons->pdata[0];
  g_assert_true (gtk_widget_is_drawable (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  return button;
}

static GtkWidget *
find_welcome (ProcuraWindow *window)
{
  GtkWidget *welcome = procura_gui_test_find (GTK_WIDGET (window), PROCURA_TYPE_WELCOME);

  g_assert_nonnull (welcome);
  return welcome;
}

static GList *
list_toplevels (void)
{
  GList *toplevels = NULL;
  GListModel *model = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (model, i);

      if (gtk_widget_get_visible (GTK_WIDGET (w)))
        toplevels = g_list_prepend (toplevels, w);
    }
  return toplevels;
}

/* Runs @button and returns the window it opened (a file chooser), asserting there is one. */
static GtkWindow *
click_opens_window (GtkWidget *button)
{
  g_autoptr (GList) before = list_toplevels ();
  g_autoptr (GList) after = NULL;
  GtkWindow *opened = NULL;

  g_signal_emit_by_name (button, "clicked");
  for (int k = 0; k < 50 && opened == NULL; k++)
    {
      procura_gui_test_settle ();
      g_clear_pointer (&after, g_list_free);
      after = list_toplevels ();
      for (GList *l = after; l != NULL; l = l->next)
        if (g_list_find (before, l->data) == NULL)
          opened = l->data;
    }
  g_assert_nonnull (opened);
  g_test_message ("opened %s “%s”", G_OBJECT_TYPE_NAME (opened), gtk_window_get_title (opened));
  return opened;
}

static void
close_window (GtkWindow *window)
{
  if (GTK_IS_DIALOG (window))
    gtk_dialog_response (GTK_DIALOG (window), GTK_RESPONSE_CANCEL);
  else
    gtk_window_destroy (window);
  procura_gui_test_settle ();
}

static void
test_first_start (void)
{
  GSettings *settings = procura_application_get_settings (app);
  ProcuraWindow *window;
  GtkWidget *welcome, *demo;
  g_autofree char *demo_path = procura_window_get_demo_path ();
  g_auto (GStrv) new_accels = NULL, open_accels = NULL;

  g_assert_nonnull (settings);
  g_settings_reset (settings, "last-project");
  g_settings_reset (settings, "recent-projects");
  window = new_window ();
  procura_window_open_default (window);
  procura_gui_test_settle ();

  /* no project: the welcome page, no document, nothing loading */
  g_assert_null (procura_window_get_document (window));
  g_assert_false (procura_window_is_loading (window));
  welcome = find_welcome (window);
  g_assert_true (gtk_widget_is_drawable (welcome));
  g_assert_nonnull (procura_gui_test_find_label (welcome, "Welcome to Procura"));
  /* the three ways in, each enabled */
  demo = shown_button (welcome, "win.open-demo");
  shown_button (welcome, "win.new");
  shown_button (welcome, "win.open");
  shot (window, "welcome");

  /* Ctrl+N and Ctrl+O are the welcome page's New and Open, and they open their dialog
   * from it */
  new_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.new");
  open_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open");
  g_assert_true (g_strv_contains ((const char * const *) new_accels, "<Control>n"));
  g_assert_true (g_strv_contains ((const char * const *) open_accels, "<Control>o"));
  close_window (click_opens_window (shown_button (welcome, "win.new")));
  close_window (click_opens_window (shown_button (welcome, "win.open")));
  g_assert_true (gtk_widget_is_drawable (welcome));

  /* the demo: written, opened, its pages shown instead of the welcome page */
  g_signal_emit_by_name (demo, "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpstr (procura_document_get_path (procura_window_get_document (window)), ==, demo_path);
  g_assert_true (procura_document_get_project (procura_window_get_document (window))->illustrative);
  g_assert_false (gtk_widget_get_mapped (welcome));
  g_assert_true (gtk_widget_is_drawable (procura_window_get_page (window, "brief")));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

/* A later start with no last project (it was moved away) lists the recent ones. */
static void
test_recent (void)
{
  GSettings *settings = procura_application_get_settings (app);
  g_autofree char *demo_path = procura_window_get_demo_path ();
  ProcuraWindow *window = new_window ();
  const char *title;
  g_autofree char *demo_title = NULL;
  GtkWidget *welcome;
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *row = NULL;

  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  demo_title = g_strdup (gtk_window_get_title (GTK_WINDOW (window)));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();

  g_settings_set_string (settings, "last-project", "");
  window = new_window ();
  procura_window_open_default (window);
  procura_gui_test_settle ();
  welcome = find_welcome (window);
  g_assert_true (gtk_widget_is_drawable (welcome));
  /* the demo is listed by its title, and a click opens it */
  for (GtkWidget *w = procura_gui_test_find (welcome, ADW_TYPE_ACTION_ROW); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (ADW_IS_ACTION_ROW (w))
      g_ptr_array_add (rows, w);
  g_assert_cmpuint (rows->len, >=, 1);
  for (guint i = 0; i < rows->len; i++)
    {
      title = adw_preferences_row_get_title (rows->pdata[i]);
      g_test_message ("recent: %s", title);
      if (g_str_has_prefix (title, demo_title))
        row = rows->pdata[i];
    }
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_is_drawable (row));
  shot (window, "welcome-recent");
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (row)), ==, "win.open-recent");
  g_signal_emit_by_name (row, "activate");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpstr (procura_document_get_path (procura_window_get_document (window)), ==, demo_path);
  g_assert_false (gtk_widget_get_mapped (welcome));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

static void
created_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  ProcuraDocument **document = user_data;
  g_autoptr (GError) error = NULL;

  *document = procura_document_open_finish (result, &error);
  g_assert_no_error (error);
}

/* A new, empty project file in a fresh folder. */
static char *
create_empty_project (void)
{
  g_autofree char *dir = g_dir_make_tmp ("procura-welcome-XXXXXX", NULL);
  char *path = g_build_filename (dir, "empty.procura", NULL);
  ProcuraDocument *document = NULL;

  g_assert_nonnull (dir);
  procura_document_open_async (path, TRUE, NULL, created_cb, &document);
  while (document == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (document);
  return path;
}

static const char *
visible_page (ProcuraWindow *window)
{
  GtkWidget *brief = procura_window_get_page (window, "brief");
  AdwViewStack *stack = ADW_VIEW_STACK (gtk_widget_get_parent (brief));

  g_assert_true (ADW_IS_VIEW_STACK (stack));
  return adw_view_stack_get_visible_child_name (stack);
}

static void
show_page (ProcuraWindow *window,
           const char    *name)
{
  for (int i = 0; procura_window_page_names[i] != NULL; i++)
    if (g_str_equal (procura_window_page_names[i], name))
      gtk_widget_activate_action (GTK_WIDGET (window), "win.page", "i", i);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  procura_gui_test_settle ();
  g_assert_cmpstr (visible_page (window), ==, name);
}

/* The empty state of @name: shown, with its buttons. */
static GtkWidget *
empty_state (ProcuraWindow *window,
             const char    *name)
{
  GtkWidget *page;
  AdwStatusPage *status;

  show_page (window, name);
  page = procura_window_get_page (window, name);
  status = procura_page_get_status (PROCURA_PAGE (page));
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (status)));
  return GTK_WIDGET (status);
}

/* The button for @action_name on @page's empty state switches to the page @expected. */
static void
assert_goes_to (ProcuraWindow *window,
                const char    *page,
                const char    *action_name,
                const char    *expected)
{
  GtkWidget *button = shown_button (empty_state (window, page), action_name);

  g_signal_emit_by_name (button, "clicked");
  procura_gui_test_settle ();
  g_test_message ("%s: “%s” shows %s", page, gtk_button_get_label (GTK_BUTTON (button)), visible_page (window));
  g_assert_cmpstr (visible_page (window), ==, expected);
}

/* The button for @action_name on @page's empty state shows the Brief page with the
 * focus in the field titled @field. */
static void
assert_goes_to_field (ProcuraWindow *window,
                      const char    *page,
                      const char    *action_name,
                      const char    *field)
{
  GtkWidget *button = shown_button (empty_state (window, page), action_name);
  GtkWidget *focus, *row;

  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  g_signal_emit_by_name (button, "clicked");
  procura_gui_test_settle ();
  g_assert_cmpstr (visible_page (window), ==, "brief");
  focus = gtk_window_get_focus (GTK_WINDOW (window));
  g_assert_nonnull (focus);
  row = gtk_widget_get_ancestor (focus, ADW_TYPE_PREFERENCES_ROW);
  g_assert_nonnull (row);
  g_test_message ("%s: “%s” focuses %s", page, gtk_button_get_label (GTK_BUTTON (button)),
                  adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, field);
  g_assert_true (gtk_widget_is_drawable (row));
}

static void
assert_opens_dialog (ProcuraWindow *window,
                     const char    *page,
                     const char    *action_name)
{
  GtkWidget *button = shown_button (empty_state (window, page), action_name);

  close_window (click_opens_window (button));
}

static void
test_empty_states (void)
{
  g_autofree char *path = create_empty_project ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  ProcuraWindow *window = new_window ();
  ProcuraProject *project;
  GtkWidget *status;
  g_autoptr (GPtrArray) buttons = g_ptr_array_new ();

  procura_window_open_file (window, file);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_false (gtk_widget_get_mapped (find_welcome (window)));

  /* every page but the brief has an empty state with at least one enabled button */
  for (int i = 1; procura_window_page_names[i] != NULL; i++)
    {
      g_ptr_array_set_size (buttons, 0);
      status = empty_state (window, procura_window_page_names[i]);
      collect_buttons (status, NULL, buttons);
      shot (window, procura_window_page_names[i]);
      g_test_message ("%s: %u buttons", procura_window_page_names[i], buttons->len);
      g_assert_cmpuint (buttons->len, >=, 1);
      for (guint j = 0; j < buttons->len; j++)
        g_assert_true (gtk_widget_is_sensitive (buttons->pdata[j]));
    }

  /* each does what it says */
  assert_opens_dialog (window, "candidates", "win.import");          /* Import Quotes… */
  assert_opens_dialog (window, "benchmarks", "win.import");          /* Import Results… */
  assert_opens_dialog (window, "benchmarks", "win.import-published");
  assert_goes_to (window, "compare", "win.page", "candidates");      /* Add Candidates */
  assert_goes_to (window, "fit", "win.page", "candidates");
  assert_goes_to (window, "decision", "win.page", "candidates");
  /* Complete the Brief: the first missing field of an empty brief */
  assert_goes_to_field (window, "compare", "win.complete-brief", "Workload type");
  assert_goes_to_field (window, "decision", "win.complete-brief", "Workload type");
  /* Choose the Model */
  assert_goes_to_field (window, "fit", "win.brief-field", "Model");

  /* the Candidates page's own buttons add a candidate */
  status = empty_state (window, "candidates");
  g_ptr_array_set_size (buttons, 0);
  collect_buttons (status, NULL, buttons);
  for (guint j = 0; j < buttons->len; j++)
    if (g_strcmp0 (gtk_button_get_label (buttons->pdata[j]), "Add _GPU Candidate") == 0)
      g_signal_emit_by_name (buttons->pdata[j], "clicked");
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  project = procura_document_get_project (procura_window_get_document (window));
  g_assert_cmpuint (project->candidates->len, ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

/* A label showing exactly @text, drawn, not in a popover. */
static GtkWidget *
find_shown_label (GtkWidget  *widget,
                  const char *text)
{
  if (GTK_IS_POPOVER (widget) || !gtk_widget_is_drawable (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_shown_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
assert_name_readable (ProcuraWindow *window,
                      int            width,
                      int            height)
{
  GtkWidget *header = procura_gui_test_find (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  const char *title = gtk_window_get_title (GTK_WINDOW (window));
  GtkWidget *label = NULL;
  int text_width = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  /* the header rearranges in an idle after the resize: a loaded machine is slow */
  for (int k = 0; k < 25; k++)
    {
      procura_gui_test_settle ();
      label = find_shown_label (header, title);
      if (label != NULL && gtk_widget_get_width (GTK_WIDGET (window)) == width
          && !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
        break;
    }
  g_assert_nonnull (label);
  pango_layout_get_pixel_size (gtk_label_get_layout (GTK_LABEL (label)), &text_width, NULL);
  g_test_message ("%d×%d: “%s” %d px wide, allocated %d px", width, height, title,
                  text_width, gtk_widget_get_width (label));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  g_assert_cmpint (gtk_widget_get_width (label), >=, text_width);
}

/* Whether a view switcher with all six pages is drawn under @widget. */
static gboolean
shown_switcher (GtkWidget *widget)
{
  if (!gtk_widget_is_drawable (widget) || gtk_widget_get_width (widget) <= 0)
    return FALSE;
  if (ADW_IS_VIEW_SWITCHER (widget))
    {
      AdwViewStack *stack = adw_view_switcher_get_stack (ADW_VIEW_SWITCHER (widget));
      g_autoptr (GtkSelectionModel) pages = stack != NULL ? adw_view_stack_get_pages (stack) : NULL;

      return pages != NULL && g_list_model_get_n_items (G_LIST_MODEL (pages)) == 6;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shown_switcher (child))
      return TRUE;
  return FALSE;
}

static void
test_header_name (void)
{
  ProcuraWindow *window = new_window ();

  procura_window_open_demo (window);
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), !=, "Procura");
  assert_name_readable (window, 1280, 800);
  shot (window, "header-1280");
  /* the pages stay one click away: a view switcher shown, in the header or below */
  g_assert_true (shown_switcher (GTK_WIDGET (window)));
  /* and the bar below does not stop the window from going narrower (where the header
   * goes compact) */
  {
    int min = 0;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
    g_test_message ("minimum width at 1280 px: %d", min);
    g_assert_cmpint (min, <, 720);
  }
  g_assert_true (shown_switcher (GTK_WIDGET (window)));
  assert_name_readable (window, 1024, 768);
  shot (window, "header-1024");
  g_assert_true (shown_switcher (GTK_WIDGET (window)));
  gtk_window_destroy (GTK_WINDOW (window));
  procura_gui_test_settle ();
}

/* A project that takes long to open shows "Opening the project…" with a spinner after
 * a moment, not at once, and neither once it is open. The open is held up by another
 * connection that keeps the file locked (SQLite's busy wait) until it lets go. */
static void
test_opening_spinner (void)
{
  g_autofree char *path = create_empty_project ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  ProcuraWindow *window = new_window ();
  GtkWidget *label = procura_gui_test_find_label (GTK_WIDGET (window), "Opening the project…");
  GtkWidget *content, *spinner;
  sqlite3 *db = NULL;
  gint64 until;

  g_assert_nonnull (label);
  content = gtk_widget_get_parent (label);
  spinner = procura_gui_test_find (content, GTK_TYPE_SPINNER);
  g_assert_nonnull (spinner);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT",
                                 NULL, NULL, NULL), ==, SQLITE_OK);

  procura_window_open_file (window, file);
  g_assert_false (gtk_widget_get_visible (content));
  until = g_get_monotonic_time () + 900 * G_TIME_SPAN_MILLISECOND;
  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  g_assert_null (procura_window_get_document (window));
  g_assert_false (gtk_widget_get_mapped (find_welcome (window)));
  g_assert_true (gtk_widget_get_mapped (content));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  shot (window, "opening");

  sqlite3_close (db);
  /* waits for the document */
  g_assert_true (procura_gui_test_wait_idle (window, 30));
  g_assert_nonnull (procura_window_get_document (window));
  g_assert_false (gtk_widget_get_visible (content));
  g_assert_false (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  close_window (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  if (!procura_gui_test_init (&argc, &argv))
    return 0;
  app = procura_gui_test_application ();

  g_test_add_func ("/welcome/first-start", test_first_start);
  g_test_add_func ("/welcome/recent", test_recent);
  g_test_add_func ("/welcome/empty-states", test_empty_states);
  g_test_add_func ("/welcome/header-name", test_header_name);
  g_test_add_func ("/welcome/opening-spinner", test_opening_spinner);
  return procura_gui_test_run ();
}

/* procura-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <glib/gstdio.h>
#include <time.h>

#include "procura-benchmarks-page.h"
#include "procura-brief-page.h"
#include "procura-candidates-page.h"
#include "procura-chart-view.h"
#include "procura-compare-page.h"
#include "procura-decision-page.h"
#include "procura-diff-dialog.h"
#include "procura-document.h"
#include "procura-fit-page.h"
#include "procura-presentation.h"
#include "procura-published-dialog.h"
#include "procura-welcome.h"
#include "procura-window.h"

#include "procura-analysis.h"

#include "procura-report.h"

struct _ProcuraWindow
{
  AdwApplicationWindow   parent_instance;

  AdwHeaderBar          *header_bar;
  AdwViewSwitcherTitle  *switcher_title;
  AdwToastOverlay       *toast_overlay;
  AdwViewStack          *stack;
  GtkWidget             *illustrative_badge;
  GtkWidget             *read_only_badge;
  GtkWidget             *busy_spinner;
  GtkWidget             *project_label;     /* the project name, when wide */
  GtkWidget             *open_button;
  GtkWidget             *switcher_bar;      /* narrow: the switcher at the bottom */
  GtkWidget             *wide_switcher_bar; /* wide, the name in the title: the same */
  AdwViewSwitcher       *wide_bar_switcher; /* ... its two switchers */
  AdwViewSwitcher       *narrow_bar_switcher;
  GtkStack              *main_stack;        /* the welcome page, the project's pages, or
                                               "opening" (empty) while the first opens */
  ProcuraWelcome        *welcome;
  gboolean               narrow;            /* under NARROW_WIDTH: a compact header */
  guint                  compact_idle;
  guint                  help_overlay_idle;
  gulong                 help_overlay_paint_id;  /* the first frame's after-paint */
  guint                  project_label_idle;
  GtkRevealer           *import_revealer;
  GtkLabel              *import_label;
  GtkProgressBar        *import_progress;
  GMenu                 *recent_section;

  ProcuraBriefPage      *brief_page;
  ProcuraCandidatesPage *candidates_page;
  ProcuraBenchmarksPage *benchmarks_page;
  ProcuraComparePage    *compare_page;
  ProcuraFitPage        *fit_page;
  ProcuraDecisionPage   *decision_page;

  ProcuraDocument       *document;
  GCancellable          *cancellable;        /* window-scoped */
  GCancellable          *import_cancellable;
  gboolean               opening;
  guint                  opening_timeout;   /* shows "Opening the project…" if it takes long */
  GtkWidget             *opening_content;
  GtkSpinner            *opening_spinner;
  gint64                 bench_first_paint;  /* PROCURA_BENCH_FIRST_FRAME: the first frame, µs */
  gboolean               bench_document;     /* ... and the document is shown */
};

G_DEFINE_FINAL_TYPE (ProcuraWindow, procura_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  SIGNAL_DOCUMENT_CHANGED,
  SIGNAL_IMPORT_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char * const procura_window_page_names[] = {
  "brief", "candidates", "benchmarks", "compare", "fit", "decision", NULL
};

ProcuraWindow *
procura_window_new (ProcuraApplication *application)
{
  return g_object_new (PROCURA_TYPE_WINDOW, "application", application, NULL);
}

static GSettings *
get_settings (ProcuraWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL)
    return NULL;
  return procura_application_get_settings (PROCURA_APPLICATION (app));
}

static void
show_toast (ProcuraWindow *self,
            const char    *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

char *
procura_window_get_demo_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "procura", "demo.procura", NULL);
}

/* ------------------------------------------------------------------------- */
/* Recent projects                                                            */

static void update_recent_menu (ProcuraWindow *self);
static void update_compact_header (ProcuraWindow *self);

/* A recent project as "Title — ~/folder" (the file's name when it had no title). */
static char *
recent_label (GSettings  *settings,
              const char *path)
{
  g_autoptr (GVariant) titles = g_settings_get_value (settings, "recent-titles");
  g_autofree char *title = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *folder = g_filename_display_name (dir);
  const char *home = g_get_home_dir ();

  if (!g_variant_lookup (titles, path, "s", &title) || *title == '\0')
    {
      g_free (title);
      title = g_filename_display_basename (path);
    }
  if (home != NULL && g_str_has_prefix (folder, home)
      && (folder[strlen (home)] == '/' || folder[strlen (home)] == '\0'))
    {
      g_autofree char *short_folder = g_strconcat ("~", folder + strlen (home), NULL);
      /* Translators: a recent project: its title and its folder */
      return g_strdup_printf (_("%s — %s"), title, short_folder);
    }
  return g_strdup_printf (_("%s — %s"), title, folder);
}

/* Keeps the open project's title for the recent list; only the recent ones are kept. */
static void
remember_title (ProcuraWindow *self)
{
  GSettings *settings = get_settings (self);
  g_autoptr (GVariant) old = NULL;
  g_auto (GStrv) recent = NULL;
  g_auto (GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  ProcuraProject *project;
  const char *path;
  gboolean changed = FALSE;

  if (settings == NULL || self->document == NULL)
    return;
  project = procura_document_get_project (self->document);
  path = procura_document_get_path (self->document);
  if (project == NULL || path == NULL)
    return;
  old = g_settings_get_value (settings, "recent-titles");
  recent = g_settings_get_strv (settings, "recent-projects");
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autofree char *title = NULL;

      if (g_str_equal (recent[i], path))
        {
          const char *now = project->title != NULL ? project->title : "";

          if (!g_variant_lookup (old, path, "s", &title) || !g_str_equal (title, now))
            changed = TRUE;
          g_variant_builder_add (&builder, "{ss}", path, now);
        }
      else if (g_variant_lookup (old, recent[i], "s", &title))
        g_variant_builder_add (&builder, "{ss}", recent[i], title);
    }
  if (changed)
    {
      g_settings_set_value (settings, "recent-titles", g_variant_builder_end (&builder));
      update_recent_menu (self);
    }
}

/* The welcome page lists the recent projects that are still there, labelled as in the
 * Open button's menu. */
static void
update_welcome_recent (ProcuraWindow      *self,
                       GSettings          *settings,
                       const char * const *recent)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; recent != NULL && recent[i] != NULL; i++)
    if (g_file_test (recent[i], G_FILE_TEST_IS_REGULAR))
      {
        g_ptr_array_add (paths, (gpointer) recent[i]);
        g_ptr_array_add (labels, recent_label (settings, recent[i]));
      }
  g_ptr_array_add (paths, NULL);
  g_ptr_array_add (labels, NULL);
  procura_welcome_set_recent (self->welcome, (const char * const *) paths->pdata,
                              (const char * const *) labels->pdata);
}

static void
update_recent_menu (ProcuraWindow *self)
{
  GSettings *settings = get_settings (self);
  g_auto (GStrv) recent = NULL;

  g_menu_remove_all (self->recent_section);
  if (settings == NULL)
    return;
  recent = g_settings_get_strv (settings, "recent-projects");
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autofree char *label = recent_label (settings, recent[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_section, item);
    }
  if (recent[0] == NULL)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_("No Recent Projects"), "win.no-recent");
      g_menu_append_item (self->recent_section, item);
    }
  update_welcome_recent (self, settings, (const char * const *) recent);
}

static void
remember_project (ProcuraWindow *self,
                  const char    *path)
{
  GSettings *settings = get_settings (self);
  g_auto (GStrv) recent = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) updated = NULL;
  guint n = 1;

  if (settings == NULL)
    return;
  g_settings_set_string (settings, "last-project", path);
  recent = g_settings_get_strv (settings, "recent-projects");
  g_strv_builder_add (builder, path);
  for (guint i = 0; recent[i] != NULL && n < 10; i++)
    if (!g_str_equal (recent[i], path))
      {
        g_strv_builder_add (builder, recent[i]);
        n++;
      }
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (settings, "recent-projects", (const char * const *) updated);
  update_recent_menu (self);
  remember_title (self);
}

/* ------------------------------------------------------------------------- */
/* The document                                                               */

static void
document_error_cb (ProcuraDocument *document,
                   const char      *message,
                   ProcuraWindow   *self)
{
  show_toast (self, message);
}

static void
document_deleted_cb (ProcuraDocument *document,
                     const char      *message,
                     gint64           token,
                     ProcuraWindow   *self)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "win.undo");
  adw_toast_set_action_target_value (toast, g_variant_new_int64 (token));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The view switcher at the bottom when the header shows the title instead: with the
 * icons above the names when narrow, beside them when wide (a plain bar: GTK 4.8's
 * revealer draws a bar it reveals before allocating it, see tests/gui/test-polish.c). */
static void
update_bottom_bars (ProcuraWindow *self)
{
  gboolean welcome = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "welcome") == 0;
  gboolean moved = !welcome && adw_view_switcher_title_get_title_visible (self->switcher_title);

  /* The bars' switchers get the stack (and build their buttons) when first shown: most
   * windows never show them, and the first frame need not build them. */
  if (moved && self->narrow && adw_view_switcher_bar_get_stack (ADW_VIEW_SWITCHER_BAR (self->switcher_bar)) == NULL)
    adw_view_switcher_bar_set_stack (ADW_VIEW_SWITCHER_BAR (self->switcher_bar), self->stack);
  if (moved && !self->narrow && adw_view_switcher_get_stack (self->wide_bar_switcher) == NULL)
    {
      adw_view_switcher_set_stack (self->wide_bar_switcher, self->stack);
      adw_view_switcher_set_stack (self->narrow_bar_switcher, self->stack);
    }
  adw_view_switcher_bar_set_reveal (ADW_VIEW_SWITCHER_BAR (self->switcher_bar), moved && self->narrow);
  gtk_widget_set_visible (self->wide_switcher_bar, moved && !self->narrow);
}

/* The project's name in the header: the switcher title shows it (as its subtitle) when
 * the view switcher moved to the bottom (narrow, or a name too long to sit beside it);
 * beside the switcher, this label. */
static void
update_project_label (ProcuraWindow *self)
{
  const char *title = adw_view_switcher_title_get_subtitle (self->switcher_title);
  gboolean wide = !adw_view_switcher_title_get_title_visible (self->switcher_title) && !self->narrow;

  gtk_label_set_label (GTK_LABEL (self->project_label), title != NULL ? title : "");
  gtk_widget_set_tooltip_text (self->project_label, title);
  gtk_widget_set_visible (self->project_label, wide && title != NULL && *title != '\0');
  update_bottom_bars (self);
}

static void update_title (ProcuraWindow *self);

/* The view switcher with the icons beside the names (the one the header shows when
 * there is room), or NULL. */
static GtkWidget *
find_wide_switcher (GtkWidget *widget)
{
  if (ADW_IS_VIEW_SWITCHER (widget)
      && adw_view_switcher_get_policy (ADW_VIEW_SWITCHER (widget)) == ADW_VIEW_SWITCHER_POLICY_WIDE)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_wide_switcher (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* What the header's box takes besides its sides and middle (its padding), with room to spare. */
#define HEADER_SLACK 36

/* Whether a header @width px wide holds the view switcher in its middle and the project's
 * whole name beside it. The middle is centred (strict centring): each side gets half of
 * what the switcher leaves, so the wider side counts twice. */
static gboolean
switcher_fits_beside_name (ProcuraWindow *self,
                           int            width)
{
  const char *name = adw_view_switcher_title_get_subtitle (self->switcher_title);
  GtkWidget *wide = find_wide_switcher (GTK_WIDGET (self->switcher_title));
  GtkWidget *start_side = self->project_label, *end_side;
  int start = 0, end = 0, middle = 0;

  if (name == NULL || *name == '\0' || wide == NULL)
    return TRUE;
  /* the header's sides: the children of its centre box (GTK's or libadwaita's) */
  while (gtk_widget_get_parent (start_side) != NULL && !GTK_IS_CENTER_BOX (gtk_widget_get_parent (start_side)))
    start_side = gtk_widget_get_parent (start_side);
  if (gtk_widget_get_parent (start_side) == NULL)
    return TRUE;
  end_side = gtk_widget_get_last_child (gtk_widget_get_parent (start_side));
  gtk_widget_measure (start_side, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &start, NULL, NULL);
  gtk_widget_measure (end_side, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &end, NULL, NULL);
  gtk_widget_measure (wide, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &middle, NULL, NULL);
  if (!gtk_widget_get_visible (self->project_label))
    {
      /* hidden: what it takes once shown, the name unshortened, and the box's spacing */
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (self->project_label, name);
      GtkWidget *box = gtk_widget_get_parent (self->project_label);
      int text_width = 0;

      pango_layout_get_pixel_size (layout, &text_width, NULL);
      start += text_width + (GTK_IS_BOX (box) ? gtk_box_get_spacing (GTK_BOX (box)) : 0);
    }
  return width >= 2 * MAX (start, end) + middle + HEADER_SLACK;
}

/* The header's middle: the view switcher when it fits beside the project's name, else
 * the name as the title (AdwViewSwitcherTitle's subtitle) with the switcher in the bar
 * at the bottom; on the welcome page neither (there are no pages to switch). */
static void
update_switcher_place (ProcuraWindow *self)
{
  gboolean welcome = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "welcome") == 0;
  int width = 0, height = 0;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if ((gtk_window_is_maximized (GTK_WINDOW (self)) || gtk_window_is_fullscreen (GTK_WINDOW (self))
       || width <= 0) && gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    width = gtk_widget_get_width (GTK_WIDGET (self));
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title,
                                                     !welcome && switcher_fits_beside_name (self, width));
}

/* Most projects open within a frame or two: the spinner shows only for one that takes
 * longer (a network folder, a cold disk), so the others do not flash it. */
#define OPENING_SPINNER_DELAY_MS 400

static gboolean
show_opening_cb (gpointer data)
{
  ProcuraWindow *self = PROCURA_WINDOW (data);

  self->opening_timeout = 0;
  gtk_widget_set_visible (self->opening_content, TRUE);
  gtk_spinner_start (self->opening_spinner);
  return G_SOURCE_REMOVE;
}

/* The welcome page when there is no project and none is being opened; while the first
 * project opens, an empty page: the window's first layout then measures neither the
 * welcome page nor the pages still without a project, and the project's pages are laid
 * out once, with their content. */
static void
update_welcome (ProcuraWindow *self)
{
  gboolean welcome = self->document == NULL && !self->opening;
  gboolean opening = self->document == NULL && self->opening;

  /* the recent projects as they are now (the window may have had no application and
   * so no settings when it was built) */
  if (welcome)
    update_recent_menu (self);
  gtk_stack_set_visible_child_name (self->main_stack,
                                    welcome ? "welcome" : opening ? "opening" : "project");
  if (opening && self->opening_timeout == 0 && !gtk_widget_get_visible (self->opening_content))
    self->opening_timeout = g_timeout_add (OPENING_SPINNER_DELAY_MS, show_opening_cb, self);
  else if (!opening)
    {
      g_clear_handle_id (&self->opening_timeout, g_source_remove);
      gtk_spinner_stop (self->opening_spinner);
      gtk_widget_set_visible (self->opening_content, FALSE);
    }
  update_compact_header (self);
}

/* Below this width the header keeps only Import, the title and the menus (Open is in
 * the main menu and Ctrl+O), so that the window goes down to 360 px; above it the
 * header's full minimum fits. */
#define NARROW_WIDTH 720

static gboolean
update_compact_header_idle (gpointer user_data)
{
  ProcuraWindow *self = user_data;
  int width = 0, height = 0;
  gboolean narrow;

  self->compact_idle = 0;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  narrow = width > 0 && width < NARROW_WIDTH
           && !gtk_window_is_maximized (GTK_WINDOW (self))
           && !gtk_window_is_fullscreen (GTK_WINDOW (self));
  if (narrow != self->narrow)
    {
      self->narrow = narrow;
      gtk_widget_set_visible (self->open_button, !narrow);
      /* strict centring needs twice the wider side: only when there is room */
      adw_header_bar_set_centering_policy (self->header_bar, narrow ? ADW_CENTERING_POLICY_LOOSE
                                                                    : ADW_CENTERING_POLICY_STRICT);
      update_title (self);
    }
  update_switcher_place (self);
  update_project_label (self);
  return G_SOURCE_REMOVE;
}

/* The size changes during a layout: the header changes after it, not inside it. */
static void
update_compact_header (ProcuraWindow *self)
{
  if (self->compact_idle == 0)
    self->compact_idle = g_idle_add (update_compact_header_idle, self);
}


static gboolean
project_label_idle (gpointer user_data)
{
  ProcuraWindow *self = user_data;

  self->project_label_idle = 0;
  update_project_label (self);
  return G_SOURCE_REMOVE;
}

/* The switcher title changes during a layout: the label changes after it, not inside
 * it (a widget shown there is drawn before it has a size). */
static void
switcher_title_visible_cb (ProcuraWindow *self)
{
  if (self->project_label_idle == 0)
    self->project_label_idle = g_idle_add (project_label_idle, self);
}

static void
update_title (ProcuraWindow *self)
{
  ProcuraProject *project;
  g_autofree char *base = NULL;
  const char *title;

  if (self->document == NULL)
    {
      adw_view_switcher_title_set_subtitle (self->switcher_title, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _("Procura"));
      gtk_widget_set_visible (self->illustrative_badge, FALSE);
      gtk_widget_set_visible (self->read_only_badge, FALSE);
      update_project_label (self);
      return;
    }
  project = procura_document_get_project (self->document);
  /* the name may be in any encoding; the title must be UTF-8 */
  base = g_filename_display_basename (procura_document_get_path (self->document));
  title = project->title != NULL && *project->title ? project->title : base;
  adw_view_switcher_title_set_subtitle (self->switcher_title, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_widget_set_visible (self->illustrative_badge, project->illustrative && !self->narrow);
  gtk_widget_set_visible (self->read_only_badge, procura_document_get_read_only (self->document)
                                                 && !self->narrow);
  gtk_widget_set_tooltip_text (self->read_only_badge, procura_document_get_read_only_reason (self->document));
  update_project_label (self);
  remember_title (self);
  update_compact_header (self);   /* the name's length decides where the switcher goes */
}

static void
document_changed_cb (ProcuraDocument *document,
                     ProcuraWindow   *self)
{
  update_title (self);
}

/* ------------------------------------------------------------------------- */
/* First-frame benchmark (bench/gui)                                           */

/* With PROCURA_BENCH_FIRST_FRAME set, prints the monotonic time of the first frame and of
 * the first frame that shows the opened project, and the process's CPU time then, and quits. */
static void
bench_after_paint_cb (GdkFrameClock *clock,
                      ProcuraWindow *self)
{
  struct timespec cpu = { 0, 0 };
  GtkApplication *app;

  if (self->bench_first_paint == 0)
    self->bench_first_paint = g_get_monotonic_time ();
  if (!self->bench_document)
    return;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
  g_print ("procura-bench first-paint-us %" G_GINT64_FORMAT " document-paint-us %" G_GINT64_FORMAT
           " cpu-us %" G_GINT64_FORMAT "\n",
           self->bench_first_paint, g_get_monotonic_time (),
           (gint64) cpu.tv_sec * G_USEC_PER_SEC + cpu.tv_nsec / 1000);
  g_signal_handlers_disconnect_by_data (clock, self);
  app = gtk_window_get_application (GTK_WINDOW (self));
  if (app != NULL)
    g_application_quit (G_APPLICATION (app));
}

static void
bench_realize_cb (GtkWidget *widget,
                  gpointer   user_data)
{
  g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                           G_CALLBACK (bench_after_paint_cb), widget, 0);
}

/* The shortcuts window (Ctrl+?, the main menu's Keyboard Shortcuts) is built after the
 * window's first frame, not with the window: GtkApplication would build it when the
 * window is added (its template is not at gtk/help-overlay.ui for that reason). */
static gboolean
help_overlay_idle (gpointer user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);
  g_autoptr (GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/procura/Procura/help-overlay.ui");

  self->help_overlay_idle = 0;
  gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (self),
                                           GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  return G_SOURCE_REMOVE;
}

static void
help_overlay_after_paint_cb (GdkFrameClock *clock,
                             ProcuraWindow *self)
{
  g_clear_signal_handler (&self->help_overlay_paint_id, clock);
  if (self->help_overlay_idle == 0
      && gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self)) == NULL)
    self->help_overlay_idle = g_idle_add_full (G_PRIORITY_LOW, help_overlay_idle, self, NULL);
}

static void
realize_cb (GtkWidget *widget,
            gpointer   user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  if (self->help_overlay_paint_id == 0)
    self->help_overlay_paint_id =
      g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                               G_CALLBACK (help_overlay_after_paint_cb), self, 0);
}

/* hidden before its first frame: the next realize waits for the new clock's */
static void
unrealize_cb (GtkWidget *widget,
              gpointer   user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  g_clear_signal_handler (&self->help_overlay_paint_id, gtk_widget_get_frame_clock (widget));
}

static void
set_document (ProcuraWindow   *self,
              ProcuraDocument *document)
{
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect (document, "error", G_CALLBACK (document_error_cb), self);
      g_signal_connect (document, "deleted", G_CALLBACK (document_deleted_cb), self);
      g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb), self);
      g_object_bind_property (document, "busy", self->busy_spinner, "spinning", G_BINDING_SYNC_CREATE);
      g_object_bind_property (document, "busy", self->busy_spinner, "visible", G_BINDING_SYNC_CREATE);
    }
  procura_brief_page_set_document (self->brief_page, document);
  procura_candidates_page_set_document (self->candidates_page, document);
  procura_benchmarks_page_set_document (self->benchmarks_page, document);
  procura_compare_page_set_document (self->compare_page, document);
  procura_fit_page_set_document (self->fit_page, document);
  procura_decision_page_set_document (self->decision_page, document);
  update_title (self);
  update_welcome (self);
  if (document != NULL && g_getenv ("PROCURA_BENCH_FIRST_FRAME") != NULL)
    {
      /* PROCURA_BENCH_PAGE: the page the project opens on (bench/gui) */
      if (g_getenv ("PROCURA_BENCH_PAGE") != NULL
          && adw_view_stack_get_child_by_name (self->stack, g_getenv ("PROCURA_BENCH_PAGE")) != NULL)
        adw_view_stack_set_visible_child_name (self->stack, g_getenv ("PROCURA_BENCH_PAGE"));
      self->bench_document = TRUE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  if (document != NULL && procura_document_get_outside_removals (document)->len > 0)
    {
      guint n = procura_document_get_outside_removals (document)->len;
      g_autofree char *message =
        /* Translators: a toast on opening a project; the button shows the Candidates page */
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u removal made outside this window can be undone",
                                      "%u removals made outside this window can be undone", n), n);
      AdwToast *toast = adw_toast_new (message);

      adw_toast_set_button_label (toast, _("_Review"));
      adw_toast_set_action_name (toast, "win.page");
      adw_toast_set_action_target_value (toast, g_variant_new_int32 (1));
      adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
      adw_toast_set_timeout (toast, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
  if (document != NULL && procura_document_get_read_only (document))
    {
      g_autofree char *message =
        g_strdup_printf (_("Opened read-only: %s"),
                         procura_document_get_read_only_reason (document) != NULL
                           ? procura_document_get_read_only_reason (document) : _("the file cannot be written"));
      show_toast (self, message);
    }
  g_signal_emit (self, signals[SIGNAL_DOCUMENT_CHANGED], 0);
}

typedef struct {
  ProcuraWindow *self;
  char          *path;
  gboolean       remember;
} OpenRequest;

static void
open_request_free (OpenRequest *request)
{
  g_object_unref (request->self);
  g_free (request->path);
  g_free (request);
}

static void
open_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  OpenRequest *request = user_data;
  ProcuraWindow *self = request->self;
  g_autoptr (ProcuraDocument) document = NULL;
  g_autoptr (GError) error = NULL;

  self->opening = FALSE;
  document = procura_document_open_finish (result, &error);
  if (document == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *base = g_path_get_basename (request->path);
          /* Translators: "Cannot open “file”: reason" */
          g_autofree char *message = g_strdup_printf (_("Cannot open “%s”: %s"), base, error->message);
          show_toast (self, message);
        }
      update_welcome (self);
      g_signal_emit (self, signals[SIGNAL_DOCUMENT_CHANGED], 0);
      open_request_free (request);
      return;
    }
  set_document (self, document);
  if (request->remember)
    remember_project (self, request->path);
  open_request_free (request);
}

static void
open_path (ProcuraWindow *self,
           const char    *path,
           gboolean       create,
           gboolean       remember)
{
  OpenRequest *request = g_new0 (OpenRequest, 1);

  request->self = g_object_ref (self);
  request->path = g_strdup (path);
  request->remember = remember;
  self->opening = TRUE;
  update_welcome (self);
  procura_document_open_async (path, create, self->cancellable, open_done_cb, request);
}

void
procura_window_open_file (ProcuraWindow *self,
                          GFile         *file)
{
  g_autofree char *path = NULL;

  g_return_if_fail (PROCURA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  path = g_file_get_path (file);
  if (path == NULL)
    {
      show_toast (self, _("Only local project files can be opened"));
      return;
    }
  open_path (self, path, FALSE, TRUE);
}

static void
demo_written_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = procura_window_get_demo_path ();

  if (!procura_document_write_demo_finish (result, &error))
    {
      self->opening = FALSE;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, error->message);
      update_welcome (self);
      g_signal_emit (self, signals[SIGNAL_DOCUMENT_CHANGED], 0);
      g_object_unref (self);
      return;
    }
  open_path (self, path, FALSE, TRUE);
  g_object_unref (self);
}

void
procura_window_open_demo (ProcuraWindow *self)
{
  g_autofree char *path = procura_window_get_demo_path ();

  g_return_if_fail (PROCURA_IS_WINDOW (self));
  self->opening = TRUE;
  update_welcome (self);
  procura_document_write_demo_async (path, self->cancellable, demo_written_cb, g_object_ref (self));
}

void
procura_window_open_default (ProcuraWindow *self)
{
  GSettings *settings = get_settings (self);
  g_autofree char *last = settings != NULL ? g_settings_get_string (settings, "last-project") : NULL;

  g_return_if_fail (PROCURA_IS_WINDOW (self));
  /* no project yet: the welcome page stays (the demo is one click there) */
  if (last != NULL && *last != '\0' && g_file_test (last, G_FILE_TEST_IS_REGULAR))
    open_path (self, last, FALSE, TRUE);
  else
    update_welcome (self);
}

ProcuraDocument *
procura_window_get_document (ProcuraWindow *self)
{
  g_return_val_if_fail (PROCURA_IS_WINDOW (self), NULL);
  return self->document;
}

gboolean
procura_window_is_loading (ProcuraWindow *self)
{
  g_return_val_if_fail (PROCURA_IS_WINDOW (self), FALSE);
  return self->opening || (self->document != NULL && procura_document_get_busy (self->document))
         || self->import_cancellable != NULL
         || procura_compare_page_get_busy (self->compare_page)
         || procura_decision_page_get_busy (self->decision_page)
         || procura_fit_page_get_busy (self->fit_page);
}

GtkWidget *
procura_window_get_page (ProcuraWindow *self,
                         const char    *name)
{
  GtkWidget *page;

  g_return_val_if_fail (PROCURA_IS_WINDOW (self), NULL);
  page = adw_view_stack_get_child_by_name (self->stack, name);
  /* A page is built when first shown: one asked for is built (and brought up to date) now. */
  if (page != NULL && PROCURA_IS_PAGE (page))
    procura_page_ensure_built (PROCURA_PAGE (page));
  return page;
}

/* ------------------------------------------------------------------------- */
/* Imports                                                                    */

static void
import_progress_cb (double      fraction,
                    const char *file_name,
                    gpointer    user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (self->import_progress == NULL)
    return;   /* closed during the import */
  gtk_progress_bar_set_fraction (self->import_progress, fraction);
  if (file_name != NULL)
    {
      /* Translators: %s is a file name */
      g_autofree char *text = g_strdup_printf (_("Importing “%s”…"), file_name);
      gtk_label_set_text (self->import_label, text);
    }
}

static void
import_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) errors = NULL;
  guint imported;

  imported = procura_document_import_finish (PROCURA_DOCUMENT (object), result, &errors, &error);
  g_clear_object (&self->import_cancellable);
  if (self->import_revealer == NULL)
    {
      /* The window was closed during the import: its template children are gone. */
      g_signal_emit (self, signals[SIGNAL_IMPORT_FINISHED], 0, imported);
      g_object_unref (self);
      return;
    }
  gtk_revealer_set_reveal_child (self->import_revealer, FALSE);
  if (error != NULL)
    {
      show_toast (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                          ? _("Import cancelled") : error->message);
    }
  else
    {
      g_autofree char *message = NULL;
      guint n_errors = errors != NULL ? g_strv_length (errors) : 0;

      procura_benchmarks_page_set_import_errors (self->benchmarks_page, (const char * const *) errors);
      if (n_errors > 0)
        {
          AdwToast *toast;

          /* Translators: after an import */
          message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file imported, %u failed",
                                                  "%u files imported, %u failed", imported),
                                     imported, n_errors);
          toast = adw_toast_new (message);
          adw_toast_set_button_label (toast, _("_Show"));
          adw_toast_set_action_name (toast, "win.page");
          adw_toast_set_action_target_value (toast, g_variant_new_int32 (2));
          adw_toast_overlay_add_toast (self->toast_overlay, toast);
        }
      else
        {
          message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file imported",
                                                  "%u files imported", imported), imported);
          show_toast (self, message);
        }
    }
  g_signal_emit (self, signals[SIGNAL_IMPORT_FINISHED], 0, imported);
  g_object_unref (self);
}

void
procura_window_import_files (ProcuraWindow *self,
                             GPtrArray     *files)
{
  g_return_if_fail (PROCURA_IS_WINDOW (self));

  if (self->document == NULL)
    {
      show_toast (self, _("Open or create a project before importing files"));
      return;
    }
  if (self->import_cancellable != NULL)
    {
      show_toast (self, _("An import is already running"));
      return;
    }
  self->import_cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (self->import_progress, 0);
  gtk_label_set_text (self->import_label, _("Importing…"));
  gtk_revealer_set_reveal_child (self->import_revealer, TRUE);
  procura_document_import_async (self->document, files, self->import_cancellable,
                                 import_progress_cb, import_done_cb, g_object_ref (self));
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         ProcuraWindow *self)
{
  GdkFileList *list;
  GSList *files;
  g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  list = g_value_get_boxed (value);
  files = gdk_file_list_get_files (list);
  for (GSList *l = files; l != NULL; l = l->next)
    g_ptr_array_add (array, g_object_ref (l->data));
  g_slist_free (files);
  if (array->len == 0)
    return FALSE;
  if (array->len == 1)
    {
      g_autofree char *name = g_file_get_basename (g_ptr_array_index (array, 0));

      if (g_str_has_suffix (name, ".procura"))
        {
          procura_window_open_file (self, g_ptr_array_index (array, 0));
          return TRUE;
        }
    }
  procura_window_import_files (self, array);
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Actions                                                                    */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      procura_window_open_file (self, file);
    }
  g_object_unref (dialog);
}

static void
add_project_filter (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Procura projects"));
  gtk_file_filter_add_mime_type (filter, "application/x-procura-project");
  gtk_file_filter_add_suffix (filter, "procura");
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open Project"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_project_filter (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  open_path (PROCURA_WINDOW (widget), g_variant_get_string (parameter, NULL), FALSE, TRUE);
}

static void
new_response_cb (GtkNativeDialog *dialog,
                 int              response,
                 gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        {
          g_autofree char *with_suffix = g_str_has_suffix (path, ".procura")
                                         ? g_strdup (path) : g_strconcat (path, ".procura", NULL);
          /* The file chooser already asked before replacing an existing file. */
          g_unlink (with_suffix);
          open_path (self, with_suffix, TRUE, TRUE);
        }
    }
  g_object_unref (dialog);
}

static void
new_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("New Project"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Create"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), _("Untitled.procura"));
  add_project_filter (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (new_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

typedef struct {
  ProcuraWindow *self;
  char          *path;
} CopyRequest;

static void
copy_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  CopyRequest *request = user_data;
  g_autoptr (GError) error = NULL;

  if (!procura_document_save_copy_finish (PROCURA_DOCUMENT (object), result, &error))
    show_toast (request->self, error->message);
  else
    open_path (request->self, request->path, FALSE, TRUE);
  g_object_unref (request->self);
  g_free (request->path);
  g_free (request);
}

static void
save_as_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr (GFile) destination = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      CopyRequest *request = g_new0 (CopyRequest, 1);

      request->self = g_object_ref (self);
      request->path = g_file_get_path (destination);
      if (request->path == NULL || g_strcmp0 (request->path, procura_document_get_path (self->document)) == 0)
        {
          show_toast (self, _("Choose another file to save a copy of the project"));
          g_object_unref (request->self);
          g_free (request->path);
          g_free (request);
        }
      else
        procura_document_save_copy_async (self->document, request->path, self->cancellable,
                                          copy_done_cb, request);
    }
  g_object_unref (dialog);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *base = NULL;

  if (self->document == NULL)
    return;
  /* the name may be in any encoding; the title must be UTF-8 */
  base = g_filename_display_basename (procura_document_get_path (self->document));
  chooser = gtk_file_chooser_native_new (_("Save Project As"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), base);
  add_project_filter (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (save_as_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
compare_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path == NULL)
        show_toast (self, _("Only local project files can be compared"));
      else
        procura_diff_dialog_present (GTK_WINDOW (self), path, procura_document_get_path (self->document));
    }
  g_object_unref (dialog);
}

/* "Compare With…": what changed since another version of this project (the file of the
 * last review), opened read-only. */
static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  if (self->document == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Compare With Project"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  add_project_filter (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (compare_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_demo_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  procura_window_open_demo (PROCURA_WINDOW (widget));
}

static void
import_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      GListModel *files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
      g_object_unref (files);
      if (array->len > 0)
        procura_window_import_files (self, array);
    }
  g_object_unref (dialog);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Import Files"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (import_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Import Published Results…: one data set file, then its rows picked in a dialog */
static void
import_published_response_cb (GtkNativeDialog *dialog,
                              int              response,
                              gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        procura_published_dialog_present (GTK_WINDOW (self), self->document, path);
    }
  g_object_unref (dialog);
}

static void
import_published_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  if (self->document == NULL)
    {
      show_toast (self, _("Open or create a project before importing files"));
      return;
    }
  chooser = gtk_file_chooser_native_new (_("Import Published Results"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (import_published_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
cancel_import_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  if (self->document != NULL)
    procura_document_undo (self->document, g_variant_get_int64 (parameter));
}

static void
undo_edit_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  if (self->document == NULL || !procura_document_undo_edit (self->document))
    show_toast (self, _("Nothing to undo"));
}

static void
redo_edit_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);

  if (self->document == NULL || !procura_document_redo_edit (self->document))
    show_toast (self, _("Nothing to redo"));
}

static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  show_toast (PROCURA_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

typedef struct {
  ProcuraDocument *document;
  ProcuraProject  *project;   /* held */
  char            *path;
} ExportData;

static void
export_data_free (ExportData *data)
{
  procura_document_release_project (data->document);
  g_free (data->path);
  g_free (data);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *data = task_data;
  ProcuraReportFormat format = PROCURA_REPORT_PDF;
  GError *error = NULL;

  procura_report_format_from_path (data->path, &format);
  if (procura_report_write (data->project, data->path, format, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (ProcuraWindow) self = PROCURA_WINDOW (user_data);
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Cancelled: the window is closed (its template children are gone). */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, error->message);
    }
  else
    show_toast (self, _("Decision record exported"));
}

void
procura_window_export_record (ProcuraWindow *self,
                              const char    *path)
{
  g_return_if_fail (PROCURA_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->document != NULL)
    {
      /* No source object: the task may be finalized in its worker thread, which must
       * never drop the last reference of a widget. The callback drops this one. */
      g_autoptr (GTask) task = g_task_new (NULL, self->cancellable, export_done_cb, g_object_ref (self));
      ExportData *data = g_new0 (ExportData, 1);

      data->document = self->document;
      data->project = procura_document_hold_project (self->document);
      data->path = g_strdup (path);
      g_task_set_task_data (task, data, (GDestroyNotify) export_data_free);
      g_task_run_in_thread (task, export_thread);
    }
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  ProcuraWindow *self = PROCURA_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        procura_window_export_record (self, path);
    }
  g_object_unref (dialog);
}

static void
export_record_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;

  if (self->document == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Export Decision Record"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), _("decision-record.pdf"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

ProcuraPresentation *
procura_window_present_slides (ProcuraWindow *self)
{
  g_autoptr (GPtrArray) charts = NULL;
  ProcuraPresentation *presentation;
  ProcuraProject *project = self->document != NULL ? procura_document_get_project (self->document) : NULL;
  g_autofree char *subtitle = NULL;

  charts = procura_compare_page_get_slide_charts (self->compare_page);
  if (project != NULL && project->illustrative)
    subtitle = g_strdup (_("Illustrative data: not measurements, not real prices"));
  else if (project != NULL && project->brief != NULL && project->brief->model_shape != NULL)
    subtitle = g_strdup (project->brief->model_shape);
  {
    GtkWidget *recommendation = NULL;
    const char *what_if = self->document != NULL ? procura_document_get_what_if (self->document) : NULL;
    const ProcuraAnalysis *analysis = procura_compare_page_get_analysis (self->compare_page);
    g_autoptr (ProcuraAnalysis) own = NULL;

    if (analysis == NULL && project != NULL)
      {
        /* the Compare page has not run yet: the brief's analysis */
        ProcuraAnalysisOptions options;

        procura_analysis_options_init (&options);
        own = procura_analysis_run (project, &options);
        analysis = own;
        what_if = NULL;
      }
    recommendation = procura_presentation_recommendation_slide (project, analysis);
    presentation = procura_presentation_new_full (GTK_WINDOW (self),
                                                  project != NULL && project->title != NULL ? project->title : _("Procura"),
                                                  subtitle, recommendation, what_if, charts);
  }
  gtk_window_fullscreen (GTK_WINDOW (presentation));
  gtk_window_present (GTK_WINDOW (presentation));
  return presentation;
}

/* Why there is nothing to present (F5), or NULL when there is something. */
static const char *
nothing_to_present (ProcuraWindow *self)
{
  ProcuraProject *project;

  if (self->document == NULL)
    return _("Nothing to present: open a project first");
  project = procura_document_get_project (self->document);
  if (project == NULL || project->candidates == NULL || project->candidates->len == 0)
    return _("Nothing to present yet: add candidates and import benchmark runs first");
  return NULL;
}

static void
present_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  const char *why = nothing_to_present (self);

  if (why != NULL)
    {
      show_toast (self, why);
      return;
    }
  procura_window_present_slides (self);
}

static void
apply_what_if_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  procura_compare_page_apply_what_if (PROCURA_WINDOW (widget)->compare_page);
}

static void
reset_what_if_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  procura_compare_page_reset_what_if (PROCURA_WINDOW (widget)->compare_page);
}

/* "Complete the Brief" (no parameter: the first missing part) and "Choose the Model"
 * ("model_shape") of the empty states: the Brief page, the focus on the empty field. */
static void
brief_field_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  const char *part = parameter != NULL ? g_variant_get_string (parameter, NULL) : NULL;

  adw_view_stack_set_visible_child_name (self->stack, "brief");
  if (procura_brief_page_focus_missing (self->brief_page, part) == NULL
      && self->document != NULL && part == NULL)
    show_toast (self, _("The brief is complete"));
}

static void
page_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  int index = g_variant_get_int32 (parameter);

  if (index >= 0 && index < (int) g_strv_length ((char **) procura_window_page_names))
    adw_view_stack_set_visible_child_name (self->stack, procura_window_page_names[index]);
}

/* ------------------------------------------------------------------------- */

static void
load_window_state (ProcuraWindow *self)
{
  GSettings *settings = get_settings (self);

  if (settings == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  update_recent_menu (self);
}

static gboolean
procura_window_close_request (GtkWindow *window)
{
  ProcuraWindow *self = PROCURA_WINDOW (window);
  GSettings *settings = get_settings (self);

  if (settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
      g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
    }
  g_cancellable_cancel (self->cancellable);
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  return GTK_WINDOW_CLASS (procura_window_parent_class)->close_request (window);
}

static void
procura_window_constructed (GObject *object)
{
  G_OBJECT_CLASS (procura_window_parent_class)->constructed (object);
  load_window_state (PROCURA_WINDOW (object));
}

static void
procura_window_dispose (GObject *object)
{
  ProcuraWindow *self = PROCURA_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->compact_idle, g_source_remove);
  g_clear_handle_id (&self->help_overlay_idle, g_source_remove);
  g_clear_handle_id (&self->opening_timeout, g_source_remove);
  g_clear_handle_id (&self->project_label_idle, g_source_remove);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->import_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PROCURA_TYPE_WINDOW);
  G_OBJECT_CLASS (procura_window_parent_class)->dispose (object);
}

static void
procura_window_class_init (ProcuraWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = procura_window_constructed;
  object_class->dispose = procura_window_dispose;
  window_class->close_request = procura_window_close_request;

  signals[SIGNAL_DOCUMENT_CHANGED] =
    g_signal_new ("document-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_IMPORT_FINISHED] =
    g_signal_new ("import-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  g_type_ensure (PROCURA_TYPE_BRIEF_PAGE);
  g_type_ensure (PROCURA_TYPE_CANDIDATES_PAGE);
  g_type_ensure (PROCURA_TYPE_BENCHMARKS_PAGE);
  g_type_ensure (PROCURA_TYPE_COMPARE_PAGE);
  g_type_ensure (PROCURA_TYPE_FIT_PAGE);
  g_type_ensure (PROCURA_TYPE_DECISION_PAGE);
  g_type_ensure (PROCURA_TYPE_WELCOME);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, benchmarks_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, brief_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, candidates_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, compare_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, decision_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, fit_page);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, illustrative_badge);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, import_label);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, import_progress);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, import_revealer);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, opening_content);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, opening_spinner);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, project_label);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, read_only_badge);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, welcome);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, wide_switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, wide_bar_switcher);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, narrow_bar_switcher);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.import-published", NULL, import_published_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-import", NULL, cancel_import_action);
  gtk_widget_class_install_action (widget_class, "win.export-record", NULL, export_record_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "win.present", NULL, present_action);
  gtk_widget_class_install_action (widget_class, "win.undo", "x", undo_action);
  gtk_widget_class_install_action (widget_class, "win.undo-edit", NULL, undo_edit_action);
  gtk_widget_class_install_action (widget_class, "win.redo-edit", NULL, redo_edit_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.page", "i", page_action);
  gtk_widget_class_install_action (widget_class, "win.complete-brief", NULL, brief_field_action);
  gtk_widget_class_install_action (widget_class, "win.brief-field", "s", brief_field_action);
  /* the Compare page's what-if, from the Decision page's banner too */
  gtk_widget_class_install_action (widget_class, "win.apply-what-if", NULL, apply_what_if_action);
  gtk_widget_class_install_action (widget_class, "win.reset-what-if", NULL, reset_what_if_action);

  /* New, Open, Save As, Import, Export and Present are the application's accels
   * (procura-application.c), which the shortcuts window reads. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  for (int i = 0; i < 6; i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK, "win.page", "i", i);
}

static void
procura_window_init (ProcuraWindow *self)
{
  GtkDropTarget *target;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
  gtk_widget_set_visible (self->busy_spinner, FALSE);
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);
  g_signal_connect (self, "unrealize", G_CALLBACK (unrealize_cb), NULL);
  if (g_getenv ("PROCURA_BENCH_FIRST_FRAME") != NULL)
    g_signal_connect (self, "realize", G_CALLBACK (bench_realize_cb), NULL);
  g_signal_connect_swapped (self->switcher_title, "notify::title-visible",
                            G_CALLBACK (switcher_title_visible_cb), self);
  g_signal_connect_swapped (self, "notify::default-width", G_CALLBACK (update_compact_header), self);
  g_signal_connect_swapped (self, "notify::maximized", G_CALLBACK (update_compact_header), self);
  g_signal_connect_swapped (self, "notify::fullscreened", G_CALLBACK (update_compact_header), self);
  update_welcome (self);
}

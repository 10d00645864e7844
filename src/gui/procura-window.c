/* procura-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "procura-window.h"

struct _ProcuraWindow
{
  AdwApplicationWindow  parent_instance;

  AdwHeaderBar         *header_bar;
  AdwViewSwitcherTitle *switcher_title;
  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;

  GFile                *file;
};

G_DEFINE_FINAL_TYPE (ProcuraWindow, procura_window, ADW_TYPE_APPLICATION_WINDOW)

const char * const procura_window_page_names[] = {
  "brief", "candidates", "benchmarks", "compare", "fit", "decision", NULL
};

ProcuraWindow *
procura_window_new (ProcuraApplication *application)
{
  return g_object_new (PROCURA_TYPE_WINDOW, "application", application, NULL);
}

static void
show_toast (ProcuraWindow *self,
            const char    *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
procura_window_open_file (ProcuraWindow *self,
                          GFile         *file)
{
  g_autofree char *name = NULL;

  g_return_if_fail (PROCURA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_set_object (&self->file, file);
  name = g_file_get_basename (file);
  adw_view_switcher_title_set_subtitle (self->switcher_title, name);
  gtk_window_set_title (GTK_WINDOW (self), name);
}

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
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Open Project"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Procura projects"));
  gtk_file_filter_add_mime_type (filter, "application/x-procura-project");
  gtk_file_filter_add_suffix (filter, "procura");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
new_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  ProcuraWindow *self = PROCURA_WINDOW (widget);
  ProcuraApplication *app = PROCURA_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  gtk_window_present (GTK_WINDOW (procura_window_new (app)));
}

static void
open_demo_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  /* The demo project arrives with the store; until then say so plainly. */
  show_toast (PROCURA_WINDOW (widget), _("The demo project is not available in this build yet"));
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

static void
load_window_state (ProcuraWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings;

  if (app == NULL || (settings = procura_application_get_settings (PROCURA_APPLICATION (app))) == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static gboolean
procura_window_close_request (GtkWindow *window)
{
  ProcuraWindow *self = PROCURA_WINDOW (window);
  GtkApplication *app = gtk_window_get_application (window);
  GSettings *settings;

  if (app != NULL && (settings = procura_application_get_settings (PROCURA_APPLICATION (app))) != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
      g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
    }
  (void) self;
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

  g_clear_object (&self->file);
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

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/procura/Procura/procura-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, ProcuraWindow, stack);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.page", "i", page_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  for (int i = 0; i < 6; i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK, "win.page", "i", i);
}

static void
procura_window_init (ProcuraWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* procura-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "procura-application.h"
#include "procura-window.h"

struct _ProcuraApplication
{
  AdwApplication  parent_instance;
  GSettings      *settings;
};

G_DEFINE_FINAL_TYPE (ProcuraApplication, procura_application, ADW_TYPE_APPLICATION)

ProcuraApplication *
procura_application_new (void)
{
  return g_object_new (PROCURA_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/procura/Procura",
                       NULL);
}

GSettings *
procura_application_get_settings (ProcuraApplication *self)
{
  g_return_val_if_fail (PROCURA_IS_APPLICATION (self), NULL);
  return self->settings;
}

static ProcuraWindow *
get_window (ProcuraApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (procura_window_new (self));
  return PROCURA_WINDOW (window);
}

static void
procura_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (procura_window_new (PROCURA_APPLICATION (app)));
      /* The first start shows the welcome page, later ones open the last project. */
      procura_window_open_default (PROCURA_WINDOW (window));
    }
  gtk_window_present (window);
}

static void
procura_application_open (GApplication  *app,
                          GFile        **files,
                          int            n_files,
                          const char    *hint)
{
  ProcuraWindow *window = get_window (PROCURA_APPLICATION (app));

  if (n_files > 0)
    procura_window_open_file (window, files[0]);
  gtk_window_present (GTK_WINDOW (window));
}

static void
procura_application_startup (GApplication *app)
{
  ProcuraApplication *self = PROCURA_APPLICATION (app);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (procura_application_parent_class)->startup (app);

  /* An uninstalled run may lack the schema: keep going without saved state. */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL)
    self->settings = g_settings_new (APP_ID);

  g_set_application_name (_("Procura"));
  gtk_window_set_default_icon_name (APP_ID);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GApplication *app = G_APPLICATION (user_data);
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_application_quit (app);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (app);
  static const char *developers[] = { "The Procura developers", NULL };
  AdwAboutWindow *about;

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  adw_about_window_set_application_name (about, _("Procura"));
  adw_about_window_set_application_icon (about, APP_ID);
  adw_about_window_set_developer_name (about, _("The Procura developers"));
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about,
    _("Choose GPUs by the cost of accepted work at your latency target."));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_website (about, "https://github.com/procura/procura");
  adw_about_window_set_issue_url (about, "https://github.com/procura/procura/issues");
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  gtk_window_set_modal (GTK_WINDOW (about), TRUE);
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { .name = "quit",  .activate = quit_activated },
  { .name = "about", .activate = about_activated },
};

static void
procura_application_dispose (GObject *object)
{
  ProcuraApplication *self = PROCURA_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (procura_application_parent_class)->dispose (object);
}

static void
procura_application_class_init (ProcuraApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = procura_application_dispose;
  app_class->activate = procura_application_activate;
  app_class->open = procura_application_open;
  app_class->startup = procura_application_startup;
}

/* The window's actions with a key: set on the application, so that the shortcuts
 * window (ui/help-overlay.ui, by action name) shows the keys that work. */
static const struct
{
  const char *action;
  const char *accel;
} procura_accels[] = {
  { "app.quit",          "<Control>q" },
  { "win.new",           "<Control>n" },
  { "win.open",          "<Control>o" },
  { "win.save-as",       "<Control><Shift>s" },
  { "win.import",        "<Control>i" },
  { "win.export-record", "<Control>e" },
  { "win.present",       "F5" },
  { "win.undo-edit",     "<Control>z" },
  { "win.redo-edit",     "<Control><Shift>z" },
  /* GtkApplication sets this one only for a help overlay of its own (gtk/help-overlay.ui);
   * the window builds its overlay itself (procura-window.c) */
  { "win.show-help-overlay", "<Control>question" },
};

static void
procura_application_set_accels (ProcuraApplication *self)
{
  for (gsize i = 0; i < G_N_ELEMENTS (procura_accels); i++)
    {
      const char *accels[] = { procura_accels[i].accel, NULL };

      gtk_application_set_accels_for_action (GTK_APPLICATION (self),
                                             procura_accels[i].action, accels);
    }
}

static void
procura_application_init (ProcuraApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  procura_application_set_accels (self);
}

int
procura_application_run (int    argc,
                         char **argv)
{
  g_autoptr (ProcuraApplication) app = procura_application_new ();

  /* "procura open FILE" is "procura FILE" */
  if (argc >= 2 && g_str_equal (argv[1], "open"))
    {
      argv[1] = argv[0];
      return g_application_run (G_APPLICATION (app), argc - 1, argv + 1);
    }
  return g_application_run (G_APPLICATION (app), argc, argv);
}

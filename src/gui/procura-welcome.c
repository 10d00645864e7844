/* procura-welcome.c: the first start's page
 *
 * Shown when the app starts with no project (no file given and none opened before):
 * the bundled demo one click away, a new project, a project to open, and the recent
 * projects. Every button is a window action (win.open-demo, win.new, win.open,
 * win.open-recent), so Ctrl+N and Ctrl+O do the same from the keyboard.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-welcome"

#include "config.h"

#include <glib/gi18n.h>

#include "procura-layout.h"
#include "procura-welcome.h"

struct _ProcuraWelcome
{
  AdwBin     parent_instance;

  GtkWidget *recent_group;
  GtkWidget *recent_list;
};

G_DEFINE_FINAL_TYPE (ProcuraWelcome, procura_welcome, ADW_TYPE_BIN)

GtkWidget *
procura_welcome_new (void)
{
  return g_object_new (PROCURA_TYPE_WELCOME, NULL);
}

void
procura_welcome_set_recent (ProcuraWelcome     *self,
                            const char * const *paths,
                            const char * const *labels)
{
  GtkWidget *row;
  guint n = 0;

  g_return_if_fail (PROCURA_IS_WELCOME (self));
  while ((row = gtk_widget_get_first_child (self->recent_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->recent_list), row);
  for (; paths != NULL && labels != NULL && paths[n] != NULL && labels[n] != NULL; n++)
    {
      GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), labels[n]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-recent");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (row), g_variant_new_string (paths[n]));
      gtk_widget_set_tooltip_text (row, labels[n]);
      gtk_list_box_append (GTK_LIST_BOX (self->recent_list), row);
    }
  gtk_widget_set_visible (self->recent_group, n > 0);
}

static GtkWidget *
action_button (const char *label,
               const char *action_name,
               const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "pill");
  return button;
}

static void
procura_welcome_init (ProcuraWelcome *self)
{
  GtkWidget *status = adw_status_page_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 36);
  GtkWidget *buttons = procura_wrap_box_new (12, 3);   /* one column when narrow */
  GtkWidget *demo, *clamp, *title;

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), APP_ID);
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("Welcome to Procura"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
    _("Choose GPUs and model APIs by the cost of accepted work at your latency target. Start with the demo project, or describe your own workload."));

  demo = action_button (_("Open the _Demo Project"), "win.open-demo",
                        _("The bundled demo project, with illustrative data"));
  gtk_widget_add_css_class (demo, "suggested-action");
  procura_wrap_box_append (buttons, demo);
  procura_wrap_box_append (buttons, action_button (_("_New Project"), "win.new",
                                                   _("Create an empty project (Ctrl+N)")));
  procura_wrap_box_append (buttons, action_button (_("_Open…"), "win.open",
                                                   _("Open a project file (Ctrl+O)")));
  /* the three side by side in the middle, one above the other when narrow */
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 720);
  adw_clamp_set_child (ADW_CLAMP (clamp), buttons);
  gtk_box_append (GTK_BOX (box), clamp);

  /* the recent projects, when there are any */
  self->recent_group = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  title = gtk_label_new (_("Recent Projects"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  self->recent_list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->recent_list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->recent_list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->recent_list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Recent Projects"), -1);
  gtk_box_append (GTK_BOX (self->recent_group), title);
  gtk_box_append (GTK_BOX (self->recent_group), self->recent_list);
  gtk_widget_set_visible (self->recent_group, FALSE);
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 600);
  adw_clamp_set_child (ADW_CLAMP (clamp), self->recent_group);
  gtk_box_append (GTK_BOX (box), clamp);

  adw_status_page_set_child (ADW_STATUS_PAGE (status), box);
  /* the status page scrolls when the window is short */
  adw_bin_set_child (ADW_BIN (self), status);
}

static void
procura_welcome_class_init (ProcuraWelcomeClass *klass)
{
}

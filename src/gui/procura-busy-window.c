/* procura-busy-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared frame of the dialogs that read files in a thread (Compare Projects,
 * Import Published Results): a spinner until the work ends, then its result or an
 * error page. The window (a ProcuraBusyWindow) holds a reference on its spinner: it is
 * looked at when the work ends, even if the window was closed (and its content
 * destroyed) meanwhile.
 */
#include "config.h"

#include "procura-busy-window.h"

struct _ProcuraBusyWindow
{
  AdwWindow  parent_instance;

  GtkWidget *spinner;   /* owned reference: outlives the content when closed */
};

G_DEFINE_FINAL_TYPE (ProcuraBusyWindow, procura_busy_window, ADW_TYPE_WINDOW)

static void
procura_busy_window_dispose (GObject *object)
{
  ProcuraBusyWindow *self = PROCURA_BUSY_WINDOW (object);

  g_clear_object (&self->spinner);
  G_OBJECT_CLASS (procura_busy_window_parent_class)->dispose (object);
}

static void
procura_busy_window_class_init (ProcuraBusyWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = procura_busy_window_dispose;
}

static void
procura_busy_window_init (ProcuraBusyWindow *self)
{
}

GtkWindow *
procura_busy_window_present (GtkWindow  *parent,
                             const char *title,
                             int         width,
                             int         height)
{
  ProcuraBusyWindow *self = g_object_new (PROCURA_TYPE_BUSY_WINDOW, NULL);
  GtkWidget *window = GTK_WIDGET (self);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *spinner = gtk_spinner_new ();

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_vexpand (spinner, TRUE);
  gtk_widget_set_size_request (spinner, 32, 32);
  gtk_widget_set_halign (spinner, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), spinner);
  self->spinner = g_object_ref (spinner);
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

gboolean
procura_busy_window_is_waiting (GtkWindow *window)
{
  GtkWidget *box, *spinner;

  g_return_val_if_fail (PROCURA_IS_BUSY_WINDOW (window), FALSE);
  box = adw_window_get_content (ADW_WINDOW (window));
  spinner = PROCURA_BUSY_WINDOW (window)->spinner;
  return box != NULL && spinner != NULL && gtk_widget_get_parent (spinner) == box;
}

void
procura_busy_window_set_content (GtkWindow *window,
                                 GtkWidget *content)
{
  GtkWidget *box = adw_window_get_content (ADW_WINDOW (window));

  g_return_if_fail (procura_busy_window_is_waiting (window));
  gtk_box_remove (GTK_BOX (box), PROCURA_BUSY_WINDOW (window)->spinner);
  gtk_widget_set_vexpand (content, TRUE);
  gtk_box_append (GTK_BOX (box), content);
}

GtkWidget *
procura_busy_window_error_page (const char *title,
                                const char *description)
{
  GtkWidget *page = adw_status_page_new ();

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (page), "dialog-error-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (page), title);
  adw_status_page_set_description (ADW_STATUS_PAGE (page), description);
  return page;
}

/* bench-empty-window.c: the peer of the first-frame benchmark
 *
 * An empty libadwaita window (a header bar and nothing else) that prints the monotonic
 * time of its first frame and the process's CPU time then, in the format the app prints
 * with PROCURA_BENCH_FIRST_FRAME, and quits. Built only for bench/gui.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <time.h>

#include <adwaita.h>

static void
after_paint_cb (GdkFrameClock  *clock,
                GApplication   *app)
{
  struct timespec cpu = { 0, 0 };
  gint64 now = g_get_monotonic_time ();

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
  g_print ("procura-bench first-paint-us %" G_GINT64_FORMAT " document-paint-us %" G_GINT64_FORMAT
           " cpu-us %" G_GINT64_FORMAT "\n",
           now, now, (gint64) cpu.tv_sec * G_USEC_PER_SEC + cpu.tv_nsec / 1000);
  g_signal_handlers_disconnect_by_data (clock, app);
  g_application_quit (app);
}

static void
realize_cb (GtkWidget    *window,
            GApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), app);
}

static void
activate_cb (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect (window, "realize", G_CALLBACK (realize_cb), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (AdwApplication) app =
    adw_application_new ("io.github.procura.BenchEmptyWindow", G_APPLICATION_NON_UNIQUE);

  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

/* procura-page.h: the base of the pages that share one shell and one lifecycle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PROCURA_TYPE_PAGE (procura_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (ProcuraPage, procura_page, PROCURA, PAGE, AdwBin)

struct _ProcuraPageClass
{
  AdwBinClass parent_class;

  /* Builds the page's content from its document; called only when the page is shown
   * (or asked for with procura_page_ensure_built()), never for a hidden page. */
  void (*rebuild) (ProcuraPage *self);
};

/* The shell: an empty state (status) and a scrolled, clamped vertical box. */
GtkStack      *procura_page_get_stack  (ProcuraPage *self);
AdwStatusPage *procura_page_get_status (ProcuraPage *self);
GtkBox        *procura_page_get_box    (ProcuraPage *self);
void           procura_page_setup      (ProcuraPage *self,
                                        const char  *icon_name,
                                        const char  *title,
                                        const char  *description,
                                        int          maximum_width,
                                        int          tightening_threshold);

/* The empty state's next steps: a pill button for @action_name (with @target, a GVariant
 * format string and its value, or NULL) under the status page's text, the first one
 * the suggested action. */
GtkWidget     *procura_page_add_empty_action (ProcuraPage *self,
                                              const char  *label,
                                              const char  *action_name,
                                              const char  *target_format,
                                              ...);
/* Shows or hides a button that procura_page_add_empty_action() returned. */
void           procura_page_show_empty_action (GtkWidget  *button,
                                               gboolean    visible);
/* Puts @scrollable (a GtkScrollable, e.g. a GtkListView in an AdwClampScrollable) in
 * place of the clamped box as the scrolled window's own child, where a list view
 * recycles its rows; the page has no box then (procura_page_get_box() returns NULL). */
void           procura_page_set_scrollable (ProcuraPage *self,
                                            GtkWidget   *scrollable);

/* The lifecycle: the content is out of date. A shown page rebuilds now, a hidden one
 * when it is next shown. */
void           procura_page_queue_rebuild (ProcuraPage *self);
/* Rebuilds now if the content is out of date (tests, presentation mode), and finishes
 * the rows it builds in idle batches. */
void           procura_page_ensure_built  (ProcuraPage *self);
/* TRUE once the content was built and is up to date. */
gboolean       procura_page_is_built      (ProcuraPage *self);

/* Long lists: a page builds the first screenful of its rows in its rebuild and the rest
 * in idle batches at low priority, @step building one more piece each call (a row, a
 * few list items) and returning FALSE when nothing is left. The batches are time-sliced
 * (about 8 ms a callback), replace any that were pending, and are cancelled by a rebuild,
 * by procura_page_queue_rebuild() (the content they add is out of date) and on dispose.
 * procura_page_ensure_built() finishes them: whoever reads a page's rows sees them all. */
typedef gboolean (*ProcuraPageStep) (ProcuraPage *self);

void           procura_page_build_in_idle (ProcuraPage     *self,
                                           ProcuraPageStep  step);
/* How many rows about @row_height pixels high fill the window's height (the page is not
 * allocated before its first frame), and one more: the rows to build with the page. */
guint          procura_page_rows_to_fill  (ProcuraPage     *self,
                                           int              row_height);
/* Runs the pending batches to the end now (nothing if none). */
void           procura_page_finish_idle   (ProcuraPage     *self);
/* TRUE once the content is built, its idle batches included, and up to date. */
gboolean       procura_page_is_complete   (ProcuraPage     *self);

/* Removes every child of @box. */
void           procura_page_clear_box     (GtkBox *box);

G_END_DECLS

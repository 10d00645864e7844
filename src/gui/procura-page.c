/* procura-page.c: the base of the pages that share one shell and one lifecycle
 *
 * A page's content is built when the page is first shown, and rebuilt when the document
 * changes only while it is shown (otherwise when it is shown next): hidden pages cost
 * nothing at start-up and the first frame paints only the visible page. A long page builds
 * its first screenful in its rebuild and the rest in idle batches (procura_page_build_in_idle).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "procura-page"

#include "config.h"

#include "procura-layout.h"
#include "procura-page.h"

typedef struct
{
  GtkStack      *stack;
  AdwStatusPage *status;
  AdwClamp      *clamp;
  GtkBox        *box;
  GtkWidget     *empty_actions;   /* the empty state's buttons, or NULL */
  AdwClamp      *empty_clamp;     /* ... kept together in the middle */
  guint          n_empty_actions;
  gboolean       dirty;     /* the content is out of date (or was never built) */
  gboolean       building;
  guint          idle_id;   /* the pending idle batches, or 0 */
  ProcuraPageStep step;     /* ... what each builds */
  gboolean       shown;     /* mapped once: measured from then on */
} ProcuraPagePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (ProcuraPage, procura_page, ADW_TYPE_BIN)

GtkStack *
procura_page_get_stack (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_val_if_fail (PROCURA_IS_PAGE (self), NULL);
  return priv->stack;
}

AdwStatusPage *
procura_page_get_status (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_val_if_fail (PROCURA_IS_PAGE (self), NULL);
  return priv->status;
}

GtkBox *
procura_page_get_box (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_val_if_fail (PROCURA_IS_PAGE (self), NULL);
  return priv->box;
}

void
procura_page_setup (ProcuraPage *self,
                    const char  *icon_name,
                    const char  *title,
                    const char  *description,
                    int          maximum_width,
                    int          tightening_threshold)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_if_fail (PROCURA_IS_PAGE (self));
  adw_status_page_set_icon_name (priv->status, icon_name);
  adw_status_page_set_title (priv->status, title);
  adw_status_page_set_description (priv->status, description);
  if (priv->clamp != NULL)
    {
      adw_clamp_set_maximum_size (priv->clamp, maximum_width);
      adw_clamp_set_tightening_threshold (priv->clamp, tightening_threshold);
    }
}

void
procura_page_set_scrollable (ProcuraPage *self,
                             GtkWidget   *scrollable)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);
  GtkWidget *scroller;

  g_return_if_fail (PROCURA_IS_PAGE (self));
  g_return_if_fail (GTK_IS_SCROLLABLE (scrollable));
  g_return_if_fail (priv->box != NULL);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (priv->box), GTK_TYPE_SCROLLED_WINDOW);
  /* The clamp and the box go with the scrolled window's old child. */
  priv->clamp = NULL;
  priv->box = NULL;
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), scrollable);
}

#define EMPTY_ACTION_WIDTH 260

GtkWidget *
procura_page_add_empty_action (ProcuraPage *self,
                               const char  *label,
                               const char  *action_name,
                               const char  *target_format,
                               ...)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);
  GtkWidget *button;

  g_return_val_if_fail (PROCURA_IS_PAGE (self), NULL);
  if (priv->empty_actions == NULL)
    {
      priv->empty_actions = procura_wrap_box_new (12, 3);   /* one column when narrow */
      priv->empty_clamp = ADW_CLAMP (adw_clamp_new ());
      adw_clamp_set_child (priv->empty_clamp, priv->empty_actions);
      adw_status_page_set_child (priv->status, GTK_WIDGET (priv->empty_clamp));
    }
  button = gtk_button_new_with_mnemonic (label);
  gtk_widget_add_css_class (button, "pill");
  if (gtk_widget_get_first_child (priv->empty_actions) == NULL)
    gtk_widget_add_css_class (button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  if (target_format != NULL)
    {
      va_list args;

      va_start (args, target_format);
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                              g_variant_new_va (target_format, NULL, &args));
      va_end (args);
    }
  procura_wrap_box_append (priv->empty_actions, button);
  /* about a button's width each, side by side when there is room */
  adw_clamp_set_maximum_size (priv->empty_clamp,
                              EMPTY_ACTION_WIDTH * MIN (3, ++priv->n_empty_actions));
  adw_clamp_set_tightening_threshold (priv->empty_clamp,
                                      EMPTY_ACTION_WIDTH * MIN (3, priv->n_empty_actions));
  return button;
}

void
procura_page_show_empty_action (GtkWidget *button,
                                gboolean   visible)
{
  GtkWidget *parent;

  g_return_if_fail (GTK_IS_BUTTON (button));
  /* the wrap box's cell, so that a hidden button leaves no gap */
  parent = gtk_widget_get_parent (button);
  gtk_widget_set_visible (GTK_IS_FLOW_BOX_CHILD (parent) ? parent : button, visible);
}

void
procura_page_clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

/* About half a frame at 60 Hz: a batch leaves the frame clock room to draw. */
#define IDLE_SLICE_US (8 * 1000)

static void
stop_idle (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_clear_handle_id (&priv->idle_id, g_source_remove);
  priv->step = NULL;
}

static gboolean
idle_cb (gpointer data)
{
  ProcuraPage *self = PROCURA_PAGE (data);
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);
  gint64 end = g_get_monotonic_time () + IDLE_SLICE_US;

  do
    {
      if (!priv->step (self))
        {
          priv->idle_id = 0;
          priv->step = NULL;
          return G_SOURCE_REMOVE;
        }
    }
  while (g_get_monotonic_time () < end);
  return G_SOURCE_CONTINUE;
}

void
procura_page_build_in_idle (ProcuraPage     *self,
                            ProcuraPageStep  step)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_if_fail (PROCURA_IS_PAGE (self));
  g_return_if_fail (step != NULL);
  stop_idle (self);
  priv->step = step;
  /* Below the frame clock's layout and paint (GDK_PRIORITY_REDRAW): the first screenful
   * is drawn first, and each batch leaves room for a frame. */
  priv->idle_id = g_idle_add_full (G_PRIORITY_LOW, idle_cb, self, NULL);
  g_source_set_name_by_id (priv->idle_id, "[procura] page rows");
}

/* The height a window without one yet is given (its default size's). */
#define FALLBACK_HEIGHT 800

guint
procura_page_rows_to_fill (ProcuraPage *self,
                           int          row_height)
{
  GtkRoot *root;
  int height = 0;

  g_return_val_if_fail (PROCURA_IS_PAGE (self), 1);
  g_return_val_if_fail (row_height > 0, 1);
  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (root != NULL)
    height = gtk_widget_get_height (GTK_WIDGET (root));
  if (height <= 0)
    height = FALLBACK_HEIGHT;
  return (guint) (height / row_height) + 1;
}

void
procura_page_finish_idle (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);
  ProcuraPageStep step;

  g_return_if_fail (PROCURA_IS_PAGE (self));
  if (priv->idle_id == 0)
    return;
  step = priv->step;
  g_clear_handle_id (&priv->idle_id, g_source_remove);
  priv->step = NULL;
  while (step (self))
    ;
}

gboolean
procura_page_is_complete (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_val_if_fail (PROCURA_IS_PAGE (self), FALSE);
  return !priv->dirty && priv->idle_id == 0;
}

static void
build (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  if (priv->building)
    return;   /* a rebuild that asks for itself: the current one shows the latest */
  /* What the batches would still add belongs to the content being replaced. */
  stop_idle (self);
  priv->building = TRUE;
  priv->dirty = FALSE;
  if (PROCURA_PAGE_GET_CLASS (self)->rebuild != NULL)
    PROCURA_PAGE_GET_CLASS (self)->rebuild (self);
  priv->building = FALSE;
}

void
procura_page_queue_rebuild (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_if_fail (PROCURA_IS_PAGE (self));
  priv->dirty = TRUE;
  /* Out of date: the batches would add rows of the old project to a page rebuilt anyway. */
  if (!priv->building)
    stop_idle (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    build (self);
}

void
procura_page_ensure_built (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_if_fail (PROCURA_IS_PAGE (self));
  if (priv->dirty)
    build (self);
  procura_page_finish_idle (self);
}

gboolean
procura_page_is_built (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  g_return_val_if_fail (PROCURA_IS_PAGE (self), FALSE);
  return !priv->dirty;
}

/* A page never shown asks for no room: the view stack measures every page, and the
 * window's first frame would shape the text of the hidden pages' empty states. Once
 * shown, a page counts as before (the window's minimum size is the largest page's).
 * The page lays out its child itself (no layout manager: a bin's would measure it). */
static GtkSizeRequestMode
procura_page_get_request_mode (GtkWidget *widget)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (PROCURA_PAGE (widget));
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (!priv->shown || child == NULL)
    return GTK_SIZE_REQUEST_CONSTANT_SIZE;
  return gtk_widget_get_request_mode (child);
}

static void
procura_page_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (PROCURA_PAGE (widget));
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (priv->shown && child != NULL && gtk_widget_should_layout (child))
    gtk_widget_measure (child, orientation, for_size, minimum, natural,
                        minimum_baseline, natural_baseline);
}

static void
procura_page_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (child != NULL && gtk_widget_should_layout (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static void
procura_page_map (GtkWidget *widget)
{
  ProcuraPage *self = PROCURA_PAGE (widget);
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  if (!priv->shown)
    {
      priv->shown = TRUE;
      gtk_widget_queue_resize (widget);   /* measured as empty until now */
    }
  /* Built before the children are mapped: they are mapped once, with their content. */
  if (priv->dirty)
    build (self);
  GTK_WIDGET_CLASS (procura_page_parent_class)->map (widget);
}

static void
procura_page_dispose (GObject *object)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (PROCURA_PAGE (object));

  stop_idle (PROCURA_PAGE (object));
  /* What gtk_widget_dispose_template() does, for every page: GTK 4.8 looks the template
   * up on the instance's own class, which for a page is the subclass (it has none). The
   * stack is the bin's child and holds the rest of the template. */
  adw_bin_set_child (ADW_BIN (object), NULL);
  priv->stack = NULL;
  priv->status = NULL;
  priv->clamp = NULL;
  priv->box = NULL;
  priv->empty_actions = NULL;
  priv->empty_clamp = NULL;
  G_OBJECT_CLASS (procura_page_parent_class)->dispose (object);
}

static void
procura_page_class_init (ProcuraPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = procura_page_dispose;
  widget_class->map = procura_page_map;
  widget_class->get_request_mode = procura_page_get_request_mode;
  widget_class->measure = procura_page_measure;
  widget_class->size_allocate = procura_page_size_allocate;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/procura/Procura/procura-page.ui");
  gtk_widget_class_bind_template_child_private (widget_class, ProcuraPage, stack);
  gtk_widget_class_bind_template_child_private (widget_class, ProcuraPage, status);
  gtk_widget_class_bind_template_child_private (widget_class, ProcuraPage, clamp);
  gtk_widget_class_bind_template_child_private (widget_class, ProcuraPage, box);
}

static void
procura_page_init (ProcuraPage *self)
{
  ProcuraPagePrivate *priv = procura_page_get_instance_private (self);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_layout_manager (GTK_WIDGET (self), NULL);   /* see procura_page_measure */
  priv->dirty = TRUE;
}

/* procura-chart-output.c: PNG, SVG and PDF files of charts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "procura-atomic-file.h"
#include "procura-chart.h"
#include "procura-chart-png.h"

G_DEFINE_QUARK (procura-chart-error-quark, procura_chart_error)

static gboolean
check_status (cairo_status_t  status,
              const char     *path,
              GError        **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_WRITE, "%s: cannot write the chart: %s",
               path, cairo_status_to_string (status));
  return FALSE;
}

/* Every file is drawn into memory first and then written with
 * procura_atomic_file_write(): a temporary file in the same folder, renamed over the old
 * one (synced first when there is an old one to keep). A kill or a full disk leaves the
 * previous file, never half of one, and no stale temporary file outlives the next write. */
static cairo_status_t
append_cb (void                *closure,
           const unsigned char *data,
           unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
save_bytes (GByteArray  *bytes,
            const char  *path,
            GError     **error)
{
  g_autoptr (GError) local = NULL;

  if (procura_atomic_file_write (path, bytes->data, bytes->len, &local))
    return TRUE;
  g_set_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_WRITE, "%s: cannot write the chart: %s",
               path, local->message);
  return FALSE;
}

static gboolean
check_size (double   width,
            double   height,
            double   scale,
            GError **error)
{
  if (width >= 20 && height >= 20 && width <= 20000 && height <= 20000 && scale > 0 && scale <= 8
      && width * scale <= 32767 && height * scale <= 32767)
    return TRUE;
  g_set_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_SIZE,
               "a chart of %g × %g at scale %g cannot be drawn (20 to 20000 px, scale up to 8)",
               width, height, scale);
  return FALSE;
}

/* Draws @chart as a view whose layout is @shown would (its hidden series left out),
 * on a layout of its own: @shown keeps the geometry it was drawn with. */
static void
draw_as_shown (ProcuraChart             *chart,
               const ProcuraChartLayout *shown,
               cairo_t                  *cr,
               double                    width,
               double                    height,
               const ProcuraChartTheme  *theme)
{
  g_autoptr (ProcuraChartLayout) own = NULL;

  if (shown != NULL)
    {
      own = procura_chart_layout_new ();
      procura_chart_layout_copy_hidden (own, shown);
    }
  procura_chart_draw (chart, own, cr, width, height, theme);
}

/* The chart drawn into a new image surface, or NULL with @error set. */
static cairo_surface_t *
draw_png_surface (ProcuraChart             *chart,
                  const ProcuraChartLayout *shown,
                  const char               *path,
                  double                    width,
                  double                    height,
                  double                    scale,
                  const ProcuraChartTheme  *theme,
                  GError                  **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  if (!check_size (width, height, scale, error))
    return NULL;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                        (int) ceil (height * scale));
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  draw_as_shown (chart, shown, cr, width, height, theme);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      check_status (status, path, error);
      return NULL;
    }
  return surface;
}

/* Encodes @surface and writes it to @path. */
static gboolean
save_png_surface (cairo_surface_t  *surface,
                  const char       *path,
                  GError          **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();

  if (!procura_chart_png_encode (surface, bytes))
    return check_status (CAIRO_STATUS_PNG_ERROR, path, error);
  return save_bytes (bytes, path, error);
}

static gboolean
write_png (ProcuraChart             *chart,
           const ProcuraChartLayout *shown,
           const char               *path,
           double                    width,
           double                    height,
           double                    scale,
           const ProcuraChartTheme  *theme,
           GError                  **error)
{
  cairo_surface_t *surface = draw_png_surface (chart, shown, path, width, height, scale, theme, error);
  gboolean ok;

  if (surface == NULL)
    return FALSE;
  ok = save_png_surface (surface, path, error);
  cairo_surface_destroy (surface);
  return ok;
}

/* ---- PNG files encoded beside the drawing ----------------------------------- */

/* Deflating a chart's pixels takes about as long as drawing it: a report of nine
 * figures draws the next chart (and its SVG) on this thread while a worker encodes and
 * writes the previous one. At most PNG_QUEUE_DEPTH drawn images wait (3.5 MB each at
 * 1200 × 720). */
#define PNG_QUEUE_DEPTH 2

struct _ProcuraChartPngQueue
{
  GThreadPool *pool;      /* NULL: no worker could be started, each file is written at once */
  GMutex       lock;
  GCond        done;
  guint        pending;
  GError      *error;     /* the first failure */
};

typedef struct {
  cairo_surface_t *surface;
  char            *path;
} PngJob;

static void
png_job_run (gpointer data,
             gpointer user_data)
{
  PngJob *job = data;
  ProcuraChartPngQueue *queue = user_data;
  GError *error = NULL;

  save_png_surface (job->surface, job->path, &error);
  cairo_surface_destroy (job->surface);
  g_free (job->path);
  g_free (job);
  g_mutex_lock (&queue->lock);
  if (error != NULL && queue->error == NULL)
    queue->error = error;
  else
    g_clear_error (&error);
  queue->pending--;
  g_cond_signal (&queue->done);
  g_mutex_unlock (&queue->lock);
}

ProcuraChartPngQueue *
procura_chart_png_queue_new (void)
{
  ProcuraChartPngQueue *queue = g_new0 (ProcuraChartPngQueue, 1);

  g_mutex_init (&queue->lock);
  g_cond_init (&queue->done);
  /* exclusive: its one thread is started here, so that a push never has to start one
   * (and never leaves a job queued with no thread to run it) */
  queue->pool = g_thread_pool_new (png_job_run, queue, 1, TRUE, NULL);
  return queue;
}

gboolean
procura_chart_png_queue_add (ProcuraChartPngQueue    *queue,
                             ProcuraChart            *chart,
                             const char              *path,
                             double                   width,
                             double                   height,
                             double                   scale,
                             const ProcuraChartTheme *theme,
                             GError                 **error)
{
  cairo_surface_t *surface;
  PngJob *job;

  g_return_val_if_fail (queue != NULL && chart != NULL && path != NULL, FALSE);
  surface = draw_png_surface (chart, NULL, path, width, height, scale, theme, error);
  if (surface == NULL)
    return FALSE;
  if (queue->pool == NULL)
    {
      gboolean ok = save_png_surface (surface, path, error);

      cairo_surface_destroy (surface);
      return ok;
    }
  job = g_new (PngJob, 1);
  job->surface = surface;
  job->path = g_strdup (path);
  g_mutex_lock (&queue->lock);
  while (queue->pending >= PNG_QUEUE_DEPTH)
    g_cond_wait (&queue->done, &queue->lock);
  queue->pending++;
  g_mutex_unlock (&queue->lock);
  g_thread_pool_push (queue->pool, job, NULL);
  return TRUE;
}

gboolean
procura_chart_png_queue_finish (ProcuraChartPngQueue  *queue,
                                GError               **error)
{
  GError *first;

  g_return_val_if_fail (queue != NULL, FALSE);
  g_mutex_lock (&queue->lock);
  while (queue->pending > 0)
    g_cond_wait (&queue->done, &queue->lock);
  first = g_steal_pointer (&queue->error);
  g_mutex_unlock (&queue->lock);
  if (first == NULL)
    return TRUE;
  g_propagate_error (error, first);
  return FALSE;
}

void
procura_chart_png_queue_free (ProcuraChartPngQueue *queue)
{
  if (queue == NULL)
    return;
  procura_chart_png_queue_finish (queue, NULL);
  if (queue->pool != NULL)
    g_thread_pool_free (queue->pool, FALSE, TRUE);
  g_mutex_clear (&queue->lock);
  g_cond_clear (&queue->done);
  g_free (queue);
}

static gboolean
write_svg (ProcuraChart             *chart,
           const ProcuraChartLayout *shown,
           const char               *path,
           double                    width,
           double                    height,
           const ProcuraChartTheme  *theme,
           GError                  **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  if (!check_size (width, height, 1, error))
    return FALSE;
  surface = cairo_svg_surface_create_for_stream (append_cb, bytes, width, height);
  status = cairo_surface_status (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return check_status (status, path, error);
    }
  cr = cairo_create (surface);
  draw_as_shown (chart, shown, cr, width, height, theme);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    return check_status (status, path, error);
  return save_bytes (bytes, path, error);
}

static gboolean
write_pdf_pages (ProcuraChart * const      *charts,
                 const ProcuraChartLayout  *shown,
                 guint                      n_charts,
                 const char                *path,
                 double                     width,
                 double                     height,
                 const ProcuraChartTheme   *theme,
                 GError                   **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  if (!check_size (width, height, 1, error))
    return FALSE;
  surface = cairo_pdf_surface_create_for_stream (append_cb, bytes, width, height);
  status = cairo_surface_status (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return check_status (status, path, error);
    }
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Procura");
  if (n_charts > 0 && procura_chart_get_title (charts[0]))
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, procura_chart_get_title (charts[0]));
  cr = cairo_create (surface);
  for (guint i = 0; i < n_charts; i++)
    {
      draw_as_shown (charts[i], shown, cr, width, height, theme);
      cairo_show_page (cr);
    }
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    return check_status (status, path, error);
  return save_bytes (bytes, path, error);
}

gboolean
procura_chart_write_png (ProcuraChart            *chart,
                         const char              *path,
                         double                   width,
                         double                   height,
                         double                   scale,
                         const ProcuraChartTheme *theme,
                         GError                 **error)
{
  return write_png (chart, NULL, path, width, height, scale, theme, error);
}

gboolean
procura_chart_write_svg (ProcuraChart            *chart,
                         const char              *path,
                         double                   width,
                         double                   height,
                         const ProcuraChartTheme *theme,
                         GError                 **error)
{
  return write_svg (chart, NULL, path, width, height, theme, error);
}

gboolean
procura_chart_write_pdf_pages (ProcuraChart * const    *charts,
                               guint                    n_charts,
                               const char              *path,
                               double                   width,
                               double                   height,
                               const ProcuraChartTheme *theme,
                               GError                 **error)
{
  return write_pdf_pages (charts, NULL, n_charts, path, width, height, theme, error);
}

gboolean
procura_chart_write_pdf (ProcuraChart            *chart,
                         const char              *path,
                         double                   width,
                         double                   height,
                         const ProcuraChartTheme *theme,
                         GError                 **error)
{
  return write_pdf_pages (&chart, NULL, 1, path, width, height, theme, error);
}

gboolean
procura_chart_write_file_as_shown (ProcuraChart             *chart,
                                   const ProcuraChartLayout *shown,
                                   const char               *path,
                                   double                    width,
                                   double                    height,
                                   const ProcuraChartTheme  *theme,
                                   GError                  **error)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    return write_png (chart, shown, path, width, height, 1, theme, error);
  if (g_str_has_suffix (lower, ".svg"))
    return write_svg (chart, shown, path, width, height, theme, error);
  if (g_str_has_suffix (lower, ".pdf"))
    return write_pdf_pages (&chart, shown, 1, path, width, height, theme, error);
  g_set_error (error, PROCURA_CHART_ERROR, PROCURA_CHART_ERROR_FORMAT,
               "%s: the file name must end in .png, .svg or .pdf", path);
  return FALSE;
}

gboolean
procura_chart_write_file (ProcuraChart            *chart,
                          const char              *path,
                          double                   width,
                          double                   height,
                          const ProcuraChartTheme *theme,
                          GError                 **error)
{
  return procura_chart_write_file_as_shown (chart, NULL, path, width, height, theme, error);
}

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
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  if (!check_size (width, height, scale, error))
    return FALSE;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                        (int) ceil (height * scale));
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  draw_as_shown (chart, shown, cr, width, height, theme);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      g_autoptr (GByteArray) bytes = g_byte_array_new ();

      gboolean encoded = procura_chart_png_encode (surface, bytes);

      cairo_surface_destroy (surface);
      if (!encoded)
        return check_status (CAIRO_STATUS_PNG_ERROR, path, error);
      return save_bytes (bytes, path, error);
    }
  cairo_surface_destroy (surface);
  return check_status (status, path, error);
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

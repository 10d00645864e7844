/* procura-chart-png.c: a drawn chart as PNG bytes, with libpng
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cairo_surface_write_to_png_stream() leaves libpng's defaults: every row tried with all
 * five filters, and zlib's level 6. On a 1200 × 720 chart that is most of the time of a
 * `procura render` (bench/project). This writer asks for one filter (Up) and zlib's
 * level 2: a report's nine charts deflate in about a third less time than at level 4,
 * for files about 30 % larger (277 → 361 KB for the nine; Z_RLE was faster still, but
 * 2.4 times as large).
 */
#include "config.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

#include "procura-chart-png.h"

#define PNG_LEVEL 2

static void
on_error (png_structp  png,
          png_const_charp message)
{
  (void) message;
  png_longjmp (png, 1);
}

static void
on_warning (png_structp     png,
            png_const_charp message)
{
  (void) png;
  (void) message;
}

static void
on_write (png_structp png,
          png_bytep   data,
          size_t      length)
{
  g_byte_array_append (png_get_io_ptr (png), data, (guint) length);
}

static void
on_flush (png_structp png)
{
  (void) png;
}

static gboolean
all_opaque (const guint8 *data,
            int           width,
            int           height,
            int           stride)
{
  for (int y = 0; y < height; y++)
    {
      const guint32 *row = (const guint32 *) (const void *) (data + (gsize) y * (gsize) stride);

      for (int x = 0; x < width; x++)
        if ((row[x] >> 24) != 0xff)
          return FALSE;
    }
  return TRUE;
}

/* One row of native-endian premultiplied ARGB32 pixels as RGB or RGBA bytes */
static void
convert_row (const guint32 *src,
             int            width,
             gboolean       opaque,
             guint8        *dst)
{
  for (int x = 0; x < width; x++)
    {
      guint32 p = src[x];
      guint a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

      if (opaque)
        {
          dst[0] = (guint8) r;
          dst[1] = (guint8) g;
          dst[2] = (guint8) b;
          dst += 3;
          continue;
        }
      if (a == 0)
        r = g = b = 0;
      else if (a != 0xff)
        {
          /* the inverse of the premultiplication, rounded as cairo's writer rounds */
          r = (r * 255 + a / 2) / a;
          g = (g * 255 + a / 2) / a;
          b = (b * 255 + a / 2) / a;
        }
      dst[0] = (guint8) r;
      dst[1] = (guint8) g;
      dst[2] = (guint8) b;
      dst[3] = (guint8) a;
      dst += 4;
    }
}

gboolean
procura_chart_png_encode (cairo_surface_t *surface,
                          GByteArray      *out)
{
  png_structp png;
  png_infop info;
  const guint8 *data;
  guint8 *row;
  int width, height, stride;
  gboolean opaque;
  guint before;

  g_return_val_if_fail (surface != NULL && out != NULL, FALSE);
  if (cairo_surface_get_type (surface) != CAIRO_SURFACE_TYPE_IMAGE
      || cairo_image_surface_get_format (surface) != CAIRO_FORMAT_ARGB32
      || cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  if (data == NULL || width <= 0 || height <= 0)
    return FALSE;
  opaque = all_opaque (data, width, height, stride);

  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
  if (png == NULL)
    return FALSE;
  info = png_create_info_struct (png);
  if (info == NULL)
    {
      png_destroy_write_struct (&png, NULL);
      return FALSE;
    }
  /* neither changes after setjmp(): safe to read after a longjmp() */
  row = g_malloc ((gsize) width * 4);
  before = out->len;
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      g_free (row);
      g_byte_array_set_size (out, before);
      return FALSE;
    }
  png_set_write_fn (png, out, on_write, on_flush);
  png_set_compression_level (png, PNG_LEVEL);
  png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_IHDR (png, info, (png_uint_32) width, (png_uint_32) height, 8,
                opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info (png, info);
  for (int y = 0; y < height; y++)
    {
      convert_row ((const guint32 *) (const void *) (data + (gsize) y * (gsize) stride), width,
                   opaque, row);
      png_write_row (png, row);
    }
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  g_free (row);
  return TRUE;
}

/* procura-chart-png.h: a drawn chart as PNG bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* Appends the PNG of @surface (an ARGB32 image surface) to @out: 8-bit RGB when every
 * pixel is opaque, as a chart is, else RGBA with the colours divided back out of their
 * premultiplied form; the pixels those bytes decode to are exactly those of cairo's own
 * PNG writer. Each row is filtered by "Up" and deflated at zlib level 4: a chart's flat
 * areas and straight lines compress about as well as with libpng's trial of every filter
 * on every row (what cairo asks for), in about a third of the time (bench/project). FALSE (and
 * @out as it was) when libpng fails or the surface is not such an image. */
gboolean procura_chart_png_encode (cairo_surface_t *surface,
                                   GByteArray      *out);

G_END_DECLS

/* procura-report-pdf.c: the report document as a paginated PDF (cairo + Pango)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two passes: the first lays the document out on a PDF surface that writes nowhere
 * (same font metrics as the real one) to count the pages, the second draws it onto the PDF with "page N of M" footers. Everything is
 * black, white and greys so that a black-and-white print reads the same.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "procura-atomic-file.h"
#include "procura-report-doc.h"

#define PAGE_W   841.890   /* A4 landscape, in points: wide tables stay readable */
#define PAGE_H   595.276
#define MARGIN_X 48.0
#define MARGIN_T 44.0
#define MARGIN_B 48.0
#define CONTENT_W (PAGE_W - 2 * MARGIN_X)
#define FONT_FAMILY "DejaVu Sans, Cantarell, Sans"

typedef struct {
  cairo_surface_t *surface;
  cairo_t         *cr;
  const char      *title;
  double           y;
  int              page;
  int              total_pages;   /* 0 in the measuring pass */
} Pen;

static PangoLayout *
make_layout (Pen        *pen,
             const char *text,
             double      size,
             gboolean    bold,
             gboolean    italic,
             double      width)
{
  PangoLayout *layout = pango_cairo_create_layout (pen->cr);
  PangoFontDescription *font = pango_font_description_from_string (FONT_FAMILY);

  pango_font_description_set_size (font, (int) (size * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  if (italic)
    pango_font_description_set_style (font, PANGO_STYLE_ITALIC);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);  /* words only break when one is wider than its column */
    }
  {
    /* a hash or an id broken across lines must not gain a hyphen that is not in it */
    PangoAttrList *attrs = pango_attr_list_new ();
    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    pango_layout_set_attributes (layout, attrs);
    pango_attr_list_unref (attrs);
  }
  pango_layout_set_text (layout, text != NULL ? text : "", -1);
  return layout;
}

static double
layout_height (PangoLayout *layout)
{
  int w, h;
  pango_layout_get_size (layout, &w, &h);
  return (double) h / PANGO_SCALE;
}

static double
layout_width (PangoLayout *layout)
{
  int w, h;
  pango_layout_get_size (layout, &w, &h);
  return (double) w / PANGO_SCALE;
}

static void
draw_layout (Pen         *pen,
             PangoLayout *layout,
             double       x,
             double       y,
             double       grey)
{
  cairo_save (pen->cr);
  cairo_set_source_rgb (pen->cr, grey, grey, grey);
  cairo_move_to (pen->cr, x, y);
  pango_cairo_show_layout (pen->cr, layout);
  cairo_restore (pen->cr);
}

static void
footer (Pen *pen)
{
  g_autofree char *text = NULL;
  PangoLayout *layout;

  if (pen->total_pages > 0)
    /* TRANSLATORS: the footer: the title, the page, the pages */
    text = g_strdup_printf (_("%s — page %d of %d"), pen->title, pen->page, pen->total_pages);
  else
    text = g_strdup_printf (_("%s — page %d"), pen->title, pen->page);
  layout = make_layout (pen, text, 7.5, FALSE, FALSE, CONTENT_W);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  cairo_save (pen->cr);
  cairo_set_source_rgb (pen->cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (pen->cr, 0.5);
  cairo_move_to (pen->cr, MARGIN_X, PAGE_H - MARGIN_B + 18);
  cairo_line_to (pen->cr, PAGE_W - MARGIN_X, PAGE_H - MARGIN_B + 18);
  cairo_stroke (pen->cr);
  cairo_restore (pen->cr);
  draw_layout (pen, layout, MARGIN_X, PAGE_H - MARGIN_B + 24, 0.35);
  g_object_unref (layout);
}

static void
new_page (Pen *pen)
{
  footer (pen);
  cairo_show_page (pen->cr);
  pen->page++;
  pen->y = MARGIN_T;
}

/* Starts a new page unless @height fits below the pen. */
static void
ensure_room (Pen    *pen,
             double  height)
{
  if (pen->y + height > PAGE_H - MARGIN_B && pen->y > MARGIN_T + 0.5)
    new_page (pen);
}

static void
text_block (Pen        *pen,
            const char *text,
            double      size,
            gboolean    bold,
            gboolean    italic,
            double      space_before,
            double      space_after,
            gboolean    keep_with_next)
{
  PangoLayout *layout = make_layout (pen, text, size, bold, italic, CONTENT_W);
  double h = layout_height (layout);

  /* a heading is not left alone at the bottom of a page */
  ensure_room (pen, space_before + h + (keep_with_next ? 110 : 0));
  if (pen->y > MARGIN_T + 0.5)
    pen->y += space_before;
  draw_layout (pen, layout, MARGIN_X, pen->y, 0.0);
  pen->y += h + space_after;
  g_object_unref (layout);
}

static void
missing_block (Pen        *pen,
               const char *text)
{
  g_autofree char *full = g_strdup_printf (_("Missing: %s"), text);
  PangoLayout *layout = make_layout (pen, full, 9.5, FALSE, TRUE, CONTENT_W - 16);
  double h = layout_height (layout);

  ensure_room (pen, h + 12);
  cairo_save (pen->cr);
  cairo_set_source_rgb (pen->cr, 0.3, 0.3, 0.3);
  cairo_rectangle (pen->cr, MARGIN_X, pen->y, 2.5, h + 6);
  cairo_fill (pen->cr);
  cairo_restore (pen->cr);
  draw_layout (pen, layout, MARGIN_X + 12, pen->y + 3, 0.15);
  pen->y += h + 14;
  g_object_unref (layout);
}

static double
longest_word_width (Pen        *pen,
                    const char *text,
                    double      font_size,
                    gboolean    bold)
{
  g_auto (GStrv) words = g_strsplit_set (text != NULL ? text : "", " \n\t", -1);
  double widest = 0;

  for (guint i = 0; words[i] != NULL; i++)
    {
      PangoLayout *l;

      if (words[i][0] == '\0')
        continue;
      l = make_layout (pen, words[i], font_size, bold, FALSE, -1);
      widest = MAX (widest, layout_width (l));
      g_object_unref (l);
    }
  return widest;
}

/* Column widths: every column gets at least its longest word (so words are not
 * broken), the room left goes to the columns whose text is longer, in proportion. */
static double *
column_widths (Pen          *pen,
               GStrv         header,
               GPtrArray    *rows,
               guint         n,
               double        font_size,
               gboolean      first_bold)
{
  double *natural = g_new0 (double, n);
  double *minimum = g_new0 (double, n);
  double *width = g_new0 (double, n);
  double total_nat = 0, total_min = 0, pad = 9;

  for (guint c = 0; c < n; c++)
    {
      if (header != NULL && c < g_strv_length (header))
        {
          PangoLayout *l = make_layout (pen, header[c], font_size, TRUE, FALSE, -1);
          natural[c] = MAX (natural[c], layout_width (l) + pad);
          minimum[c] = MAX (minimum[c], longest_word_width (pen, header[c], font_size, TRUE) + pad);
          g_object_unref (l);
        }
      for (guint r = 0; r < rows->len; r++)
        {
          char **cells = g_ptr_array_index (rows, r);
          if (c < g_strv_length (cells))
            {
              gboolean bold = first_bold && c == 0;
              PangoLayout *l = make_layout (pen, cells[c], font_size, bold, FALSE, -1);
              natural[c] = MAX (natural[c], layout_width (l) + pad);
              minimum[c] = MAX (minimum[c], longest_word_width (pen, cells[c], font_size, bold) + pad);
              g_object_unref (l);
            }
        }
      minimum[c] = MIN (minimum[c], CONTENT_W * 0.35);
      natural[c] = MAX (natural[c], minimum[c]);
      total_nat += natural[c];
      total_min += minimum[c];
    }

  if (total_nat <= CONTENT_W)
    {
      for (guint c = 0; c < n; c++)
        width[c] = natural[c];
    }
  else if (total_min >= CONTENT_W)
    {
      /* too many long words: short columns keep their width, the widest ones are
       * cut down to a common cap (found by bisection) so that the table fits */
      double lo = 0, hi = CONTENT_W;

      for (int it = 0; it < 40; it++)
        {
          double cap = (lo + hi) / 2, sum = 0;
          for (guint c = 0; c < n; c++)
            sum += MIN (minimum[c], cap);
          if (sum > CONTENT_W)
            hi = cap;
          else
            lo = cap;
        }
      for (guint c = 0; c < n; c++)
        width[c] = MIN (minimum[c], lo);
    }
  else
    {
      double rest = CONTENT_W - total_min, extra = total_nat - total_min;
      for (guint c = 0; c < n; c++)
        width[c] = minimum[c] + rest * (natural[c] - minimum[c]) / extra;
    }
  g_free (natural);
  g_free (minimum);
  return width;
}

static double
draw_row (Pen                *pen,
          const char * const *cells,
          guint               n,
          const double       *widths,
          double              font_size,
          gboolean            bold,
          gboolean            shaded,
          gboolean            measure_only)
{
  PangoLayout **layouts = g_new0 (PangoLayout *, n);
  guint have = cells != NULL ? g_strv_length ((char **) cells) : 0;
  double h = 0, x = MARGIN_X, pad = 4;

  for (guint c = 0; c < n; c++)
    {
      layouts[c] = make_layout (pen, c < have ? cells[c] : "", font_size, bold, FALSE,
                                widths[c] - 2 * pad);
      h = MAX (h, layout_height (layouts[c]));
    }
  h += 2 * pad;

  if (!measure_only)
    {
      double total_w = 0;

      for (guint c = 0; c < n; c++)
        total_w += widths[c];
      cairo_save (pen->cr);
      if (shaded)
        {
          cairo_set_source_rgb (pen->cr, 0.9, 0.9, 0.9);
          cairo_rectangle (pen->cr, MARGIN_X, pen->y, total_w, h);
          cairo_fill (pen->cr);
        }
      cairo_set_source_rgb (pen->cr, 0.55, 0.55, 0.55);
      cairo_set_line_width (pen->cr, 0.4);
      cairo_move_to (pen->cr, MARGIN_X, pen->y + h);
      cairo_line_to (pen->cr, MARGIN_X + total_w, pen->y + h);
      cairo_stroke (pen->cr);
      cairo_restore (pen->cr);
      for (guint c = 0; c < n; c++)
        {
          draw_layout (pen, layouts[c], x + pad, pen->y + pad, 0.0);
          x += widths[c];
        }
    }
  for (guint c = 0; c < n; c++)
    g_object_unref (layouts[c]);
  g_free (layouts);
  return h;
}

static void
table_block (Pen                *pen,
             const ProcuraBlock *b,
             gboolean            keyvalue)
{
  guint n = keyvalue ? 2 : g_strv_length (b->header);
  double font_size = keyvalue ? 9.5 : (n > 6 ? 7.5 : 8.5);
  g_autofree double *widths = NULL;
  double header_h = 0;

  if (n == 0)
    return;
  widths = column_widths (pen, keyvalue ? NULL : b->header, b->rows, n, font_size, keyvalue);

  if (b->text != NULL && !keyvalue)
    text_block (pen, b->text, 9, FALSE, TRUE, 4, 4, TRUE);

  if (!keyvalue)
    {
      double first_h = 0;

      header_h = draw_row (pen, (const char * const *) b->header, n, widths, font_size, TRUE,
                           TRUE, TRUE);
      if (b->rows->len > 0)
        first_h = draw_row (pen, g_ptr_array_index (b->rows, 0), n, widths, font_size, FALSE,
                            FALSE, TRUE);
      /* never a header alone at the bottom of a page */
      ensure_room (pen, header_h + first_h);
      pen->y += draw_row (pen, (const char * const *) b->header, n, widths, font_size, TRUE,
                          TRUE, FALSE);
    }

  for (guint r = 0; r < b->rows->len; r++)
    {
      const char * const *cells = g_ptr_array_index (b->rows, r);
      double h = draw_row (pen, cells, n, widths, font_size, FALSE, FALSE, TRUE);

      if (keyvalue)
        {
          const char *key_only[] = { cells[0], "", NULL };
          h = MAX (h, draw_row (pen, key_only, n, widths, font_size, TRUE, FALSE, TRUE));
        }

      if (pen->y + h > PAGE_H - MARGIN_B)
        {
          new_page (pen);
          if (!keyvalue)
            pen->y += draw_row (pen, (const char * const *) b->header, n, widths, font_size,
                                TRUE, TRUE, FALSE);
        }
      if (keyvalue)
        {
          /* keys in bold: draw the two cells separately */
          const char *key[] = { cells[0], "", NULL };
          const char *value[] = { "", cells[1], NULL };
          double y = pen->y;
          draw_row (pen, key, n, widths, font_size, TRUE, FALSE, FALSE);
          pen->y = y;
          draw_row (pen, value, n, widths, font_size, FALSE, FALSE, FALSE);
          pen->y = y + h;
        }
      else
        pen->y += draw_row (pen, cells, n, widths, font_size, FALSE, FALSE, FALSE);
    }
  pen->y += 12;
}

/* One figure per page, as large as the page allows beside its caption. */
static void
figure_block (Pen                *pen,
              const ProcuraBlock *b)
{
  PangoLayout *caption = make_layout (pen, b->text, 8.5, FALSE, TRUE, CONTENT_W);
  double caption_h = layout_height (caption);
  double w = CONTENT_W;
  double h = MIN (CONTENT_W * 0.6, PAGE_H - MARGIN_T - MARGIN_B - caption_h - 18);

  /* after a heading, a shorter figure rather than the heading alone on a page */
  if (pen->y > MARGIN_T + 0.5 && pen->y < MARGIN_T + 120)
    h = MIN (h, PAGE_H - MARGIN_B - pen->y - caption_h - 18);

  g_object_unref (caption);
  if (pen->y + h + caption_h + 18 > PAGE_H - MARGIN_B)
    {
      new_page (pen);
      h = MIN (CONTENT_W * 0.6, PAGE_H - MARGIN_T - MARGIN_B - caption_h - 18);
    }
  if (b->figure != NULL && b->figure_draw != NULL)
    {
      cairo_save (pen->cr);
      cairo_translate (pen->cr, MARGIN_X, pen->y);
      cairo_rectangle (pen->cr, 0, 0, w, h);
      cairo_clip (pen->cr);
      b->figure_draw (b->figure, pen->cr, w, h);
      cairo_restore (pen->cr);
      pen->y += h + 6;
    }
  text_block (pen, b->text, 8.5, FALSE, TRUE, 0, 12, FALSE);
}

static void
title_block (Pen                *pen,
             const ProcuraBlock *b)
{
  pen->y = MARGIN_T + 150;
  text_block (pen, _("Decision record"), 12, FALSE, FALSE, 0, 6, FALSE);
  text_block (pen, b->text, 26, TRUE, FALSE, 0, 28, FALSE);
  if (b->rows != NULL)
    table_block (pen, b, TRUE);
  new_page (pen);
}

static void
layout_doc (Pen                    *pen,
            const ProcuraReportDoc *doc)
{
  pen->page = 1;
  pen->y = MARGIN_T;

  for (guint i = 0; i < doc->blocks->len; i++)
    {
      const ProcuraBlock *b = g_ptr_array_index (doc->blocks, i);

      switch (b->kind)
        {
        case PROCURA_BLOCK_TITLE:
          title_block (pen, b);
          break;
        case PROCURA_BLOCK_HEADING:
          if (b->level <= 1)
            text_block (pen, b->text, 16, TRUE, FALSE, 18, 8, TRUE);
          else
            text_block (pen, b->text, 12, TRUE, FALSE, 10, 5, TRUE);
          break;
        case PROCURA_BLOCK_PARAGRAPH:
          text_block (pen, b->text, 10, FALSE, FALSE, 0, 8, FALSE);
          break;
        case PROCURA_BLOCK_MISSING:
          missing_block (pen, b->text);
          break;
        case PROCURA_BLOCK_KEYVALUE:
          table_block (pen, b, TRUE);
          break;
        case PROCURA_BLOCK_TABLE:
          table_block (pen, b, FALSE);
          break;
        case PROCURA_BLOCK_FIGURE:
          figure_block (pen, b);
          break;
        case PROCURA_BLOCK_PAGE_BREAK:
          if (pen->y > MARGIN_T + 0.5)
            new_page (pen);
          break;
        default:
          break;
        }
    }
  footer (pen);
  cairo_show_page (pen->cr);
}

static cairo_status_t
discard_cb (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t
append_cb (void                *closure,
           const unsigned char *data,
           unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
procura_report_doc_write_pdf (const ProcuraReportDoc *doc,
                              const char             *path,
                              int                    *n_pages,
                              GError                **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  Pen pen = { 0 };
  cairo_status_t status;
  int pages;

  pen.title = doc->title;

  /* pass 1: count pages */
  pen.surface = cairo_pdf_surface_create_for_stream (discard_cb, NULL, PAGE_W, PAGE_H);
  pen.cr = cairo_create (pen.surface);
  layout_doc (&pen, doc);
  pages = pen.page;
  cairo_destroy (pen.cr);
  cairo_surface_destroy (pen.surface);

  /* pass 2: draw, into memory; the file is replaced whole (temporary file in the same
   * folder, synced, renamed), so that a kill or a full disk leaves the previous one */
  pen.surface = cairo_pdf_surface_create_for_stream (append_cb, bytes, PAGE_W, PAGE_H);
  cairo_pdf_surface_set_metadata (pen.surface, CAIRO_PDF_METADATA_TITLE, doc->title);
  cairo_pdf_surface_set_metadata (pen.surface, CAIRO_PDF_METADATA_CREATOR, "Procura " PACKAGE_VERSION);
  pen.cr = cairo_create (pen.surface);
  pen.total_pages = pages;
  layout_doc (&pen, doc);
  cairo_destroy (pen.cr);
  cairo_surface_finish (pen.surface);
  status = cairo_surface_status (pen.surface);
  cairo_surface_destroy (pen.surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot write the PDF: %s"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  if (!procura_atomic_file_write (path, bytes->data, bytes->len, error))
    return FALSE;
  if (n_pages != NULL)
    *n_pages = pages;
  return TRUE;
}

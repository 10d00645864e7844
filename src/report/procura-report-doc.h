/* procura-report-doc.h: a small document model for the decision record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report is built once as a list of blocks (headings, paragraphs, tables,
 * key/value lists, figures, "missing" notes) and then written by one renderer per
 * format: PDF (cairo + Pango, paginated), Markdown, CSV. Renderers never look at the
 * project; the builder never draws.
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  PROCURA_BLOCK_TITLE,      /* the title page: text = title, rows = key/value pairs */
  PROCURA_BLOCK_HEADING,    /* level 1 or 2 */
  PROCURA_BLOCK_PARAGRAPH,
  PROCURA_BLOCK_MISSING,    /* what the project lacks for this section, shown in italics */
  PROCURA_BLOCK_KEYVALUE,   /* rows of 2 cells */
  PROCURA_BLOCK_TABLE,      /* header + rows; id names it for CSV export */
  PROCURA_BLOCK_FIGURE,     /* id = figure name; text = caption */
  PROCURA_BLOCK_PAGE_BREAK,
} ProcuraBlockKind;

typedef struct {
  ProcuraBlockKind  kind;
  int               level;
  char             *id;       /* table or figure id, may be NULL */
  char             *text;
  GStrv             header;   /* tables */
  GPtrArray        *rows;     /* of GStrv, formatted for reading */
  GStrv             csv_header; /* optional: the same table with plain numbers for CSV */
  GPtrArray        *csv_rows;   /* of GStrv */
  gpointer          figure;   /* a chart, drawn with figure_draw, freed with figure_free */
  void            (*figure_draw) (gpointer figure,
                                  cairo_t *cr,
                                  double   width,
                                  double   height);
  GDestroyNotify    figure_free;
} ProcuraBlock;

typedef struct {
  char      *title;
  char      *generated_at;   /* ISO 8601; the only thing that differs between two runs */
  GPtrArray *blocks;         /* of ProcuraBlock* */
} ProcuraReportDoc;

ProcuraReportDoc *procura_report_doc_new        (const char *title);
void              procura_report_doc_free       (ProcuraReportDoc *doc);
ProcuraBlock     *procura_report_doc_add        (ProcuraReportDoc *doc,
                                                 ProcuraBlockKind  kind,
                                                 const char       *text);
void              procura_report_doc_heading    (ProcuraReportDoc *doc,
                                                 int               level,
                                                 const char       *text);
void              procura_report_doc_paragraph  (ProcuraReportDoc *doc,
                                                 const char       *format,
                                                 ...) G_GNUC_PRINTF (2, 3);
void              procura_report_doc_missing    (ProcuraReportDoc *doc,
                                                 const char       *format,
                                                 ...) G_GNUC_PRINTF (2, 3);
/* A table with @header (NULL-terminated); add rows with procura_block_add_row. */
ProcuraBlock     *procura_report_doc_table      (ProcuraReportDoc   *doc,
                                                 const char         *id,
                                                 const char         *caption,
                                                 const char * const *header);
ProcuraBlock     *procura_report_doc_keyvalue   (ProcuraReportDoc *doc);
void              procura_block_add_row         (ProcuraBlock       *block,
                                                 const char * const *cells);
/* Plain-number columns for the CSV export of a table (header, then rows). */
void              procura_block_set_csv_header  (ProcuraBlock       *block,
                                                 const char * const *header);
void              procura_block_add_csv_row     (ProcuraBlock       *block,
                                                 const char * const *cells);
void              procura_block_add_pair        (ProcuraBlock *block,
                                                 const char   *key,
                                                 const char   *value);
const ProcuraBlock *procura_report_doc_find_table (const ProcuraReportDoc *doc,
                                                   const char             *id);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcuraReportDoc, procura_report_doc_free)

/* Renderers (procura-report-pdf.c, procura-report-text.c) */
gboolean procura_report_doc_write_pdf      (const ProcuraReportDoc *doc,
                                            const char             *path,
                                            int                    *n_pages,
                                            GError                **error);
char    *procura_report_doc_to_markdown    (const ProcuraReportDoc *doc,
                                            const char             *figure_prefix);
char    *procura_report_table_to_csv       (const ProcuraBlock *table);

G_END_DECLS

/* procura-report-doc.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <stdarg.h>

#include "procura-report-doc.h"

static void
block_free (ProcuraBlock *b)
{
  g_free (b->id);
  g_free (b->text);
  g_strfreev (b->header);
  g_strfreev (b->csv_header);
  if (b->rows != NULL)
    g_ptr_array_unref (b->rows);
  if (b->csv_rows != NULL)
    g_ptr_array_unref (b->csv_rows);
  if (b->figure != NULL && b->figure_free != NULL)
    b->figure_free (b->figure);
  g_free (b);
}

ProcuraReportDoc *
procura_report_doc_new (const char *title)
{
  ProcuraReportDoc *doc = g_new0 (ProcuraReportDoc, 1);

  doc->title = g_strdup (title);
  doc->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
  return doc;
}

void
procura_report_doc_free (ProcuraReportDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->title);
  g_free (doc->generated_at);
  g_ptr_array_unref (doc->blocks);
  g_free (doc);
}

ProcuraBlock *
procura_report_doc_add (ProcuraReportDoc *doc,
                        ProcuraBlockKind  kind,
                        const char       *text)
{
  ProcuraBlock *b = g_new0 (ProcuraBlock, 1);

  b->kind = kind;
  b->level = 1;
  b->text = g_strdup (text);
  g_ptr_array_add (doc->blocks, b);
  return b;
}

void
procura_report_doc_heading (ProcuraReportDoc *doc,
                            int               level,
                            const char       *text)
{
  procura_report_doc_add (doc, PROCURA_BLOCK_HEADING, text)->level = level;
}

void
procura_report_doc_paragraph (ProcuraReportDoc *doc,
                              const char       *format,
                              ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  procura_report_doc_add (doc, PROCURA_BLOCK_PARAGRAPH, text);
}

void
procura_report_doc_missing (ProcuraReportDoc *doc,
                            const char       *format,
                            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  procura_report_doc_add (doc, PROCURA_BLOCK_MISSING, text);
}

ProcuraBlock *
procura_report_doc_table (ProcuraReportDoc   *doc,
                          const char         *id,
                          const char         *caption,
                          const char * const *header)
{
  ProcuraBlock *b = procura_report_doc_add (doc, PROCURA_BLOCK_TABLE, caption);

  b->id = g_strdup (id);
  /* the headings are marked with N_() where they are written: translated here */
  b->header = g_new0 (char *, g_strv_length ((char **) header) + 1);
  for (guint i = 0; header[i] != NULL; i++)
    b->header[i] = g_strdup (_(header[i]));
  b->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  return b;
}

ProcuraBlock *
procura_report_doc_keyvalue (ProcuraReportDoc *doc)
{
  ProcuraBlock *b = procura_report_doc_add (doc, PROCURA_BLOCK_KEYVALUE, NULL);

  b->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  return b;
}

void
procura_block_add_row (ProcuraBlock       *block,
                       const char * const *cells)
{
  g_return_if_fail (block->rows != NULL);
  g_ptr_array_add (block->rows, g_strdupv ((char **) cells));
}

void
procura_block_set_csv_header (ProcuraBlock       *block,
                              const char * const *header)
{
  g_strfreev (block->csv_header);
  block->csv_header = g_strdupv ((char **) header);
  if (block->csv_rows == NULL)
    block->csv_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

void
procura_block_add_csv_row (ProcuraBlock       *block,
                           const char * const *cells)
{
  g_return_if_fail (block->csv_rows != NULL);
  g_ptr_array_add (block->csv_rows, g_strdupv ((char **) cells));
}

void
procura_block_add_pair (ProcuraBlock *block,
                        const char   *key,
                        const char   *value)
{
  const char *cells[] = { key, value != NULL ? value : "", NULL };
  procura_block_add_row (block, cells);
}

const ProcuraBlock *
procura_report_doc_find_table (const ProcuraReportDoc *doc,
                               const char             *id)
{
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      const ProcuraBlock *b = g_ptr_array_index (doc->blocks, i);
      if (b->kind == PROCURA_BLOCK_TABLE && g_strcmp0 (b->id, id) == 0)
        return b;
    }
  return NULL;
}

/* procura-report-text.c: Markdown and CSV renderers of the report document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "procura-report-doc.h"

/* Project text is data, never markup: HTML specials become entities, Markdown
 * specials are escaped with a backslash (CommonMark allows it before any ASCII
 * punctuation), and what would start a heading, a list or a quote at the start of a
 * line is escaped too. Control characters become spaces. In a table cell a newline is
 * a <br>; elsewhere it stays a newline. */
static void
append_md_text (GString    *out,
                const char *text,
                gboolean    in_cell)
{
  gboolean line_start = !in_cell;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      char c = *p;

      if (c == '\n')
        {
          g_string_append (out, in_cell ? "<br>" : "\n");
          line_start = !in_cell;
          continue;
        }
      if (line_start)
        {
          const char *q = p;

          /* "1. " or "1) " would start an ordered list */
          while (g_ascii_isdigit (*q))
            q++;
          if (q > p && (*q == '.' || *q == ')'))
            {
              g_string_append_len (out, p, q - p);
              g_string_append_c (out, '\\');
              g_string_append_c (out, *q);
              p = q;
              line_start = FALSE;
              continue;
            }
          if (c == '#' || c == '+' || c == '-' || c == '=' || c == ' ' || c == '\t')
            {
              if (c == ' ' || c == '\t')
                g_string_append (out, "&#32;");  /* indentation would make a code block */
              else
                {
                  g_string_append_c (out, '\\');
                  g_string_append_c (out, c);
                }
              line_start = FALSE;
              continue;
            }
        }
      line_start = FALSE;
      switch (c)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '\\': case '`': case '*': case '[': case ']': case '|': case '~': case '!':
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
          break;
        case '_':
          /* inside a word (workload_type) an underscore is no emphasis */
          if (p > text && g_ascii_isalnum (p[-1]) && g_ascii_isalnum (p[1]))
            g_string_append_c (out, c);
          else
            g_string_append (out, "\\_");
          break;
        default:
          if ((guchar) c < 0x20 || c == 0x7f)
            g_string_append_c (out, ' ');
          else
            g_string_append_c (out, c);
          break;
        }
    }
}

static void
append_md_cell (GString    *out,
                const char *cell)
{
  append_md_text (out, cell, TRUE);
}

/* A file name in a link: percent-encoded, so that it cannot end the link. */
static void
append_md_link (GString    *out,
                const char *prefix,
                const char *id,
                const char *extension)
{
  g_autofree char *name = g_strconcat (prefix != NULL ? prefix : "", id, extension, NULL);
  g_autofree char *escaped = g_uri_escape_string (name, NULL, TRUE);

  g_string_append (out, escaped);
}

static void
append_md_row (GString            *out,
               const char * const *cells,
               guint               n)
{
  g_string_append (out, "|");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_c (out, ' ');
      append_md_cell (out, cells != NULL && i < g_strv_length ((char **) cells) ? cells[i] : "");
      g_string_append (out, " |");
    }
  g_string_append_c (out, '\n');
}

char *
procura_report_doc_to_markdown (const ProcuraReportDoc *doc,
                                const char             *figure_prefix)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < doc->blocks->len; i++)
    {
      const ProcuraBlock *b = g_ptr_array_index (doc->blocks, i);

      switch (b->kind)
        {
        case PROCURA_BLOCK_TITLE:
          g_string_append (out, "# ");
          append_md_cell (out, b->text);
          g_string_append (out, "\n\n");
          for (guint r = 0; b->rows != NULL && r < b->rows->len; r++)
            {
              char **cells = g_ptr_array_index (b->rows, r);
              g_string_append (out, "- **");
              append_md_cell (out, cells[0]);
              g_string_append (out, ":** ");
              append_md_cell (out, cells[1]);
              g_string_append_c (out, '\n');
            }
          g_string_append_c (out, '\n');
          break;

        case PROCURA_BLOCK_HEADING:
          g_string_append_printf (out, "%s ", b->level <= 1 ? "##" : "###");
          append_md_cell (out, b->text);
          g_string_append (out, "\n\n");
          break;

        case PROCURA_BLOCK_PARAGRAPH:
          append_md_text (out, b->text, FALSE);
          g_string_append (out, "\n\n");
          break;

        case PROCURA_BLOCK_MISSING:
          /* TRANSLATORS: Markdown: keep the "> **" and ":**" around the word */
          g_string_append (out, _("> **Missing:** "));
          append_md_cell (out, b->text);
          g_string_append (out, "\n\n");
          break;

        case PROCURA_BLOCK_KEYVALUE:
          {
            const char *header[] = { _("Item"), _("Value"), NULL };
            append_md_row (out, header, 2);
            g_string_append (out, "| --- | --- |\n");
            for (guint r = 0; r < b->rows->len; r++)
              append_md_row (out, g_ptr_array_index (b->rows, r), 2);
            g_string_append_c (out, '\n');
          }
          break;

        case PROCURA_BLOCK_TABLE:
          {
            guint n = g_strv_length (b->header);

            if (b->text != NULL)
              {
                g_string_append_c (out, '*');
                append_md_cell (out, b->text);
                g_string_append (out, "*\n\n");
              }
            append_md_row (out, (const char * const *) b->header, n);
            g_string_append (out, "|");
            for (guint c = 0; c < n; c++)
              g_string_append (out, " --- |");
            g_string_append_c (out, '\n');
            for (guint r = 0; r < b->rows->len; r++)
              append_md_row (out, g_ptr_array_index (b->rows, r), n);
            g_string_append_c (out, '\n');
          }
          break;

        case PROCURA_BLOCK_FIGURE:
          g_string_append (out, "![");
          append_md_cell (out, b->text);
          g_string_append (out, "](");
          append_md_link (out, figure_prefix, b->id, ".svg");
          g_string_append (out, ")\n\n*");
          append_md_cell (out, b->text);
          g_string_append (out, "* ([PNG](");
          append_md_link (out, figure_prefix, b->id, ".png");
          g_string_append (out, "))\n\n");
          break;

        case PROCURA_BLOCK_PAGE_BREAK:
        default:
          break;
        }
    }

  if (doc->generated_at != NULL)
    {
      g_string_append (out, "---\n\n");
      /* TRANSLATORS: the version of Procura, then the date and time */
      g_string_append_printf (out, _("Generated by Procura %s at %s."), PACKAGE_VERSION,
                              doc->generated_at);
      g_string_append (out, "\n");
    }
  return g_string_free (out, FALSE);
}

/* A cell a spreadsheet would run as a formula: one starting with = + - @, a tab or a
 * carriage return, unless it is a plain number (-12.5). */
static gboolean
is_formula (const char *cell)
{
  char *end = NULL;

  if (cell == NULL || strchr ("=+-@\t\r", cell[0]) == NULL || cell[0] == '\0')
    return FALSE;
  if (cell[0] == '-' || cell[0] == '+')
    {
      g_ascii_strtod (cell, &end);
      if (end != cell && *end == '\0' && (g_ascii_isdigit (cell[1]) || cell[1] == '.'))
        return FALSE;
    }
  return TRUE;
}

static void
append_csv_cell (GString    *out,
                 const char *cell)
{
  gboolean formula = is_formula (cell);
  gboolean quote = cell != NULL && (formula || strpbrk (cell, ",\"\r\n") != NULL);

  if (!quote)
    {
      g_string_append (out, cell != NULL ? cell : "");
      return;
    }
  g_string_append_c (out, '"');
  /* neutralised: the apostrophe makes the cell text (OWASP's advice) */
  if (formula)
    g_string_append_c (out, '\'');
  for (const char *p = cell; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_csv_row (GString            *out,
                const char * const *cells,
                guint               n)
{
  guint have = cells != NULL ? g_strv_length ((char **) cells) : 0;

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_csv_cell (out, i < have ? cells[i] : "");
    }
  g_string_append (out, "\r\n");
}

char *
procura_report_table_to_csv (const ProcuraBlock *table)
{
  GString *out = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (table->kind == PROCURA_BLOCK_TABLE, NULL);
  if (table->csv_header != NULL)
    {
      /* plain numbers for spreadsheets */
      n = g_strv_length (table->csv_header);
      append_csv_row (out, (const char * const *) table->csv_header, n);
      for (guint r = 0; r < table->csv_rows->len; r++)
        append_csv_row (out, g_ptr_array_index (table->csv_rows, r), n);
      return g_string_free (out, FALSE);
    }
  n = g_strv_length (table->header);
  append_csv_row (out, (const char * const *) table->header, n);
  for (guint r = 0; r < table->rows->len; r++)
    append_csv_row (out, g_ptr_array_index (table->rows, r), n);
  return g_string_free (out, FALSE);
}

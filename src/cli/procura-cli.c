/* procura-cli.c: subcommand dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "procura-cli.h"
#include "procura-util.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *synopsis;
} Command;

static const Command commands[] = {
  { "new",     procura_cli_new,     N_("PROJECT.procura [--title T] [--json]") },
  { "import",  procura_cli_import,  N_("PROJECT.procura INPUT… [--candidate NAME] [--format FMT]") },
  { "inspect", procura_cli_inspect, N_("INPUT [--format FMT] --json") },
  { "summary", procura_cli_summary, N_("PROJECT.procura --json") },
  { "diff",    procura_cli_diff,    N_("OLD.procura NEW.procura [--json]") },
  { "fit",     procura_cli_fit,     N_("--model CONFIG.json|NAME --gpu NAME [options] --json") },
  { "render",  procura_cli_render,  N_("PROJECT.procura FIGURE --output OUT.png|.svg|.pdf") },
  { "report",  procura_cli_report,  N_("PROJECT.procura --output OUT.pdf|.md|.csv [--since OLD.procura]") },
  { "cost",    procura_cli_cost,    N_("INPUTS.json --json") },
  { "demo",    procura_cli_demo,    N_("PROJECT.procura") },
  { "probe",   procura_cli_probe,   N_("[--device N] [--plan FILE] [--into PROJECT.procura] [--ssh HOST | --hosts FILE | --kubectl | --slurm]") },
  { "set",     procura_cli_set,     N_("PROJECT.procura KEY=VALUE…") },
  { "get",     procura_cli_get,     N_("PROJECT.procura [KEY…] [--json]") },
  { "candidate", procura_cli_candidate, N_("add|remove PROJECT.procura NAME [options]") },
  { "export",  procura_cli_export,  N_("PROJECT.procura [--output FILE.json] [--with-samples]") },
  { "apply",   procura_cli_apply,   N_("PROJECT.procura FILE.json") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: procura [open PROJECT.procura]   (the app)"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "       procura %s %s\n", commands[i].name, _(commands[i].synopsis));
  fprintf (out, "\n%s\n", _("Run “procura COMMAND --help” for the options of a command."));
}

gboolean
procura_cli_wants (int    argc,
                   char **argv)
{
  if (argc < 2)
    return FALSE;
  if (g_str_equal (argv[1], "open") || argv[1][0] != '-')
    {
      for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
        if (g_str_equal (argv[1], commands[i].name))
          return TRUE;
      /* "open FILE" and a bare file name go to the GUI; unknown words are usage errors */
      return !g_str_equal (argv[1], "open") && !g_str_has_suffix (argv[1], ".procura");
    }
  return g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")
         || g_str_equal (argv[1], "--version");
}

int
procura_cli_main (int    argc,
                  char **argv)
{
  const char *name = argv[1];

  if (g_str_equal (name, "--help") || g_str_equal (name, "-h"))
    {
      print_usage (stdout);
      return PROCURA_EXIT_OK;
    }
  if (g_str_equal (name, "--version"))
    {
      g_print ("procura %s\n", PACKAGE_VERSION);
      return PROCURA_EXIT_OK;
    }

  /* one command, then exit: freed memory is kept for the next allocation */
  procura_memory_tune_for_batch ();
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (name, commands[i].name))
      return commands[i].run (argc - 1, argv + 1);

  procura_cli_printerr (_("procura: unknown command “%s”\n"), name);
  print_usage (stderr);
  return PROCURA_EXIT_USAGE;
}

gboolean
procura_cli_parse (GOptionContext *context,
                   int            *argc,
                   char         ***argv)
{
  g_autoptr (GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      procura_cli_printerr ("procura %s: %s\n", (*argv)[0], error->message);
      return FALSE;
    }
  return TRUE;
}

int
procura_cli_fail (const char *command,
                  int         code,
                  const char *format,
                  ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* messages quote file names and project text: safe for the terminal too */
  procura_cli_printerr ("procura %s: %s\n", command, message);
  return code;
}

char *
procura_cli_term_safe (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return NULL;
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\r' && p[1] == '\n')
        continue;  /* a CRLF line end (ssh writes them) */
      /* C0 but newline and tab, DEL and C1 (ESC and CSI start the sequences that move
       * the cursor, rewrite the screen or the window title) */
      if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0))
        g_string_append_c (out, '?');
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

static void print_safe (FILE       *out,
                        const char *format,
                        va_list     args) G_GNUC_PRINTF (2, 0);

static void
print_safe (FILE       *out,
            const char *format,
            va_list     args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  g_autofree char *safe = procura_cli_term_safe (text);

  fputs (safe, out);
}

void
procura_cli_print (const char *format,
                   ...)
{
  va_list args;

  va_start (args, format);
  print_safe (stdout, format, args);
  va_end (args);
}

void
procura_cli_printerr (const char *format,
                      ...)
{
  va_list args;

  fflush (stdout);
  va_start (args, format);
  print_safe (stderr, format, args);
  va_end (args);
}

int
procura_cli_check_output (const char *command,
                          const char *output,
                          const char *input)
{
  struct stat out_st, in_st;

  /* an output that does not exist yet cannot be the input */
  if (g_stat (output, &out_st) != 0 || g_stat (input, &in_st) != 0)
    return PROCURA_EXIT_OK;
  if (out_st.st_dev == in_st.st_dev && out_st.st_ino == in_st.st_ino)
    return procura_cli_fail (command, PROCURA_EXIT_USAGE,
                             _("--output %s is the input file %s; choose another output file"),
                             output, input);
  return PROCURA_EXIT_OK;
}

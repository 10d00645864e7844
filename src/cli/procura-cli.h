/* procura-cli.h: the subcommands of `procura` that need no display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exit codes: 0 success, 1 bad input (a file, a project, a value), 2 usage error.
 * Errors go to stderr; `--json` output goes to stdout.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum {
  PROCURA_EXIT_OK = 0,
  PROCURA_EXIT_BAD_INPUT = 1,
  PROCURA_EXIT_USAGE = 2,
};

/* TRUE when argv names a subcommand (or --help/--version) rather than the GUI. */
gboolean procura_cli_wants (int    argc,
                            char **argv);
int      procura_cli_main  (int    argc,
                            char **argv);

/* Each command gets argv starting at the subcommand's name. */
int procura_cli_new     (int argc, char **argv);
int procura_cli_import  (int argc, char **argv);
int procura_cli_inspect (int argc, char **argv);
int procura_cli_summary (int argc, char **argv);
int procura_cli_diff    (int argc, char **argv);
int procura_cli_fit     (int argc, char **argv);
int procura_cli_render  (int argc, char **argv);
int procura_cli_report  (int argc, char **argv);
int procura_cli_cost    (int argc, char **argv);
int procura_cli_demo    (int argc, char **argv);
int procura_cli_probe   (int argc, char **argv);
int procura_cli_set     (int argc, char **argv);
int procura_cli_get     (int argc, char **argv);
int procura_cli_candidate (int argc, char **argv);
int procura_cli_export  (int argc, char **argv);
int procura_cli_apply   (int argc, char **argv);

/* Shared helpers for commands */
/* Parses options with GOptionContext; on failure prints the error and returns FALSE. */
gboolean procura_cli_parse (GOptionContext *context,
                            int            *argc,
                            char         ***argv);
/* Prints "procura CMD: message" to stderr and returns @code. */
int      procura_cli_fail  (const char *command,
                            int         code,
                            const char *format,
                            ...) G_GNUC_PRINTF (3, 4);

/* The one terminal sanitiser. Text from a project, an imported file or the probe (maybe
 * from another machine) before it reaches a terminal: made valid UTF-8, and every
 * control character but newline and tab (C0, DEL, C1: ESC and CSI start escape
 * sequences that rewrite the screen or the window title) becomes '?'. JSON output needs
 * none of this (the generator escapes control characters). */
char    *procura_cli_term_safe (const char *text);
/* printf to stdout / stderr through procura_cli_term_safe(): every text-mode output. */
void     procura_cli_print     (const char *format,
                                ...) G_GNUC_PRINTF (1, 2);
void     procura_cli_printerr  (const char *format,
                                ...) G_GNUC_PRINTF (1, 2);

/* PROCURA_EXIT_OK, or (having said why) PROCURA_EXIT_USAGE when @output is the same
 * file as @input (same device and inode, whatever the names): an output never
 * overwrites what is read. */
int      procura_cli_check_output (const char *command,
                                   const char *output,
                                   const char *input);

G_END_DECLS

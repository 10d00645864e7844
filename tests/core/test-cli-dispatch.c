/* test-cli-dispatch.c: the command line contract (exit codes, help, unknown commands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "procura-test-util.h"

static void
test_help (void)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { "--help", NULL };
  static const char *commands[] = { "new", "import", "inspect", "summary", "fit", "render",
                                    "report", "cost", "demo", "probe", "diff", NULL };

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  for (int i = 0; commands[i] != NULL; i++)
    {
      g_autofree char *needle = g_strdup_printf ("procura %s ", commands[i]);
      g_assert_nonnull (strstr (out, needle));
    }
}

static void
test_version (void)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { "--version", NULL };

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_true (g_str_has_prefix (out, "procura " PACKAGE_VERSION));
}

static void
test_unknown (void)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { "frobnicate", NULL };

  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "unknown command"));
  g_assert_cmpstr (out, ==, "");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/version", test_version);
  g_test_add_func ("/cli/unknown", test_unknown);
  return g_test_run ();
}

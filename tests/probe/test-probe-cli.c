/* test-probe-cli.c: `procura probe` against the real probe and the fake driver
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "procura-probe-import.h"
#include "procura-store.h"
#include "procura-test-util.h"

static const char *plan_small =
  "{\"name\":\"small\",\"kv_block_bytes\":4194304,\"gpus\":[{\"allocations\":["
  "{\"name\":\"layer\",\"kind\":\"weights\",\"bytes\":300000000,\"count\":4},"
  "{\"name\":\"kv\",\"kind\":\"kv\",\"bytes\":536870912,\"count\":4}]}]}";

static char *tmp;

static void
fake_driver (void)
{
  g_setenv ("PROCURA_PROBE_LIBCUDA", g_getenv ("PROCURA_TEST_FAKE_CUDA"), TRUE);
  g_setenv ("PROCURA_PROBE_LIBNVML", g_getenv ("PROCURA_TEST_FAKE_NVML"), TRUE);
  g_setenv ("FAKE_CUDA_MEMORY_MIB", "8192", TRUE);
}

static char *
write_file (const char *name,
            const char *content,
            int         mode)
{
  char *path = g_build_filename (tmp, name, NULL);

  g_assert_true (g_file_set_contents (path, content, -1, NULL));
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
  return path;
}

static void
test_json (void)
{
  const char *argv[] = { "probe", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  guint i;

  fake_driver ();
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);   /* hello, device, done */
  for (i = 0; lines[i] != NULL; i++)
    g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
  g_assert_true (g_str_has_prefix (lines[0], "{\"event\":\"hello\""));
  g_assert_nonnull (strstr (lines[1], "\"NVIDIA H100 80GB HBM3\""));
  g_assert_nonnull (strstr (lines[2], "\"done\""));
}

static void
test_table_and_save (void)
{
  g_autofree char *plan = write_file ("plan.json", plan_small, 0644);
  g_autofree char *save = g_build_filename (tmp, "saved.jsonl", NULL);
  const char *argv[] = { "probe", "--plan", plan, "--bandwidth", "--save", save, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(ProcuraImportResult) result = procura_import_result_new ();
  g_autoptr(GError) error = NULL;

  fake_driver ();
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "GPU 0  NVIDIA H100 80GB HBM3  cc 9.0"));
  g_assert_nonnull (strstr (out, "fit        GPU 0: fits, headroom"));
  g_assert_nonnull (strstr (out, "bandwidth  GPU 0: 3000.0 GB/s"));
  g_assert_true (g_file_get_contents (save, &saved, NULL, NULL));
  g_assert_true (procura_probe_parse_jsonl ("saved.jsonl", saved, strlen (saved), result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result->probe_results->len, >=, 5);
}

static void
test_does_not_fit (void)
{
  g_autofree char *plan = write_file ("plan.json", plan_small, 0644);
  const char *argv[] = { "probe", "--plan", plan, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  fake_driver ();
  g_setenv ("FAKE_CUDA_MEMORY_MIB", "2048", TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "does not fit: kv."));
}

static void
test_no_driver (void)
{
  const char *argv[] = { "probe", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  fake_driver ();
  g_setenv ("PROCURA_PROBE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 1);
  /* a calm sentence, not an error message */
  g_assert_nonnull (strstr (err, "No NVIDIA driver was found"));
  g_assert_null (strstr (err, "procura probe:"));
}

static void
test_failures (void)
{
  g_autofree char *bad = write_file ("bad.json", "{\"gpus\":[]}", 0644);
  const char *bad_plan[] = { "probe", "--plan", bad, NULL };
  const char *missing[] = { "probe", "--plan", "/nonexistent/plan.json", NULL };
  const char *extra[] = { "probe", "extra", NULL };
  const char *cand[] = { "probe", "--candidate", "x", NULL };
  const char *bogus[] = { "probe", "--bogus", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  fake_driver ();
  g_assert_cmpint (procura_test_run_cli (bad_plan, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "gpus: expected a non-empty array"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (missing, &out, &err), ==, 1);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (extra, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (cand, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (procura_test_run_cli (bogus, &out, &err), ==, 2);
}

static void
test_into (void)
{
  g_autofree char *plan = write_file ("plan.json", plan_small, 0644);
  g_autofree char *project = g_build_filename (tmp, "decision.procura", NULL);
  const char *argv[] = { "probe", "--plan", plan, "--into", project, "--candidate", "H100 x1", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = NULL;
  ProcuraProject *p;
  ProcuraProbeResult *fit = NULL;
  guint i;

  store = procura_store_create (project, "probe test", &error);
  g_assert_no_error (error);
  g_clear_pointer (&store, procura_store_close);

  fake_driver ();
  if (procura_test_run_cli (argv, &out, &err) != 0)
    g_error ("procura probe --into failed: %s", err);
  g_assert_nonnull (strstr (err, "Stored 2 probe result(s)"));

  store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->probe_results->len, ==, 2);
  g_assert_nonnull (procura_project_find_candidate (p, ((ProcuraProbeResult *) p->probe_results->pdata[0])->candidate_id));
  g_assert_cmpstr (procura_project_find_candidate (p, ((ProcuraProbeResult *) p->probe_results->pdata[0])->candidate_id)->name, ==, "H100 x1");
  for (i = 0; i < p->probe_results->len; i++)
    {
      ProcuraProbeResult *r = p->probe_results->pdata[i];

      if (g_strcmp0 (r->test, "fit") == 0)
        fit = r;
      g_assert_cmpint (r->provenance_id, >, 0);
    }
  g_assert_nonnull (fit);
  g_assert_true (fit->fits);
  g_assert_cmpstr (fit->device_name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpfloat (fit->headroom_bytes, >, 0);
  g_assert_nonnull (strstr (fit->json, "\"test\":\"fit\""));
  procura_project_free (p);
}

static void
test_import_saved (void)
{
  g_autofree char *save = g_build_filename (tmp, "probe-output.jsonl", NULL);
  g_autofree char *project = g_build_filename (tmp, "imported.procura", NULL);
  const char *probe_argv[] = { "probe", "--bandwidth", "--save", save, NULL };
  const char *import_argv[] = { "import", project, save, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ProcuraStore) store = NULL;
  ProcuraProject *p;

  store = procura_store_create (project, "import test", &error);
  g_assert_no_error (error);
  g_clear_pointer (&store, procura_store_close);
  fake_driver ();
  g_assert_cmpint (procura_test_run_cli (probe_argv, &out, &err), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* the registry sniffs the file as probe output */
  if (procura_test_run_cli (import_argv, &out, &err) != 0)
    g_error ("procura import of probe output failed: %s", err);
  store = procura_store_open (project, PROCURA_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  p = procura_store_load_project (store, PROCURA_STORE_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  /* inventory, bandwidth, d2d, h2d, d2h */
  g_assert_cmpuint (p->probe_results->len, ==, 5);
  procura_project_free (p);
}

static void
test_ssh (void)
{
  g_autofree char *bin = g_build_filename (tmp, "bin", NULL);
  g_autofree char *ssh = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { "probe", "--ssh", "gpu-box", "--json", NULL };
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  ssh = write_file ("bin/ssh",
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -*) shift;; *) break;; esac; done\n"
    "[ \"$1\" = gpu-box ] || exit 255\n"
    "shift\n"
    "exec sh -c \"$*\"\n", 0755);
  path = g_strdup_printf ("%s:%s", bin, old_path);
  g_setenv ("PATH", path, TRUE);
  fake_driver ();
  g_assert_cmpint (procura_test_run_cli (argv, &out, &err), ==, 0);
  g_setenv ("PATH", old_path, TRUE);
  g_assert_true (g_str_has_prefix (out, "{\"event\":\"hello\""));
  g_assert_nonnull (strstr (out, "\"event\":\"device\""));
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("PROCURA_BINARY") == NULL || g_getenv ("PROCURA_TEST_FAKE_CUDA") == NULL)
    {
      g_test_skip ("run through meson test: PROCURA_BINARY and PROCURA_TEST_FAKE_CUDA are unset");
      return g_test_run ();
    }
  tmp = procura_test_mkdtemp ();

  g_test_add_func ("/probe-cli/json", test_json);
  g_test_add_func ("/probe-cli/table-and-save", test_table_and_save);
  g_test_add_func ("/probe-cli/does-not-fit", test_does_not_fit);
  g_test_add_func ("/probe-cli/no-driver", test_no_driver);
  g_test_add_func ("/probe-cli/failures", test_failures);
  g_test_add_func ("/probe-cli/into", test_into);
  g_test_add_func ("/probe-cli/import-saved", test_import_saved);
  g_test_add_func ("/probe-cli/ssh", test_ssh);

  rc = g_test_run ();
  procura_test_rmtree (tmp);
  g_free (tmp);
  return rc;
}

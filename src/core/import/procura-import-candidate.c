/* procura-import-candidate.c: the deployment an imported file states, for a candidate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark file often says on what it ran: the GPU, how many, TP, PP, DP (vLLM and
 * SGLang arguments, published rows, llm-d stacks, engine-log startup arguments). A new
 * candidate created by an import takes those figures; an existing candidate that says
 * otherwise gets a warning on each run (or file) naming both values, since its cost is
 * then computed for another deployment than the one measured.
 *
 * One "replica" of the candidate is the unit the file measured: its GPU count when the
 * file states one (llm-d reports count every engine replica), else TP × PP × DP.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "procura-import.h"
#include "procura-gpu-catalog.h"

/* What one run or engine log states; -1 / NULL for what it does not say */
typedef struct {
  const char *gpu_name;
  const char *engine;
  int         gpus;
  int         tp, pp, dp;
  gboolean    partial;   /* an engine log: one data-parallel rank, no GPU count */
} Stated;

static int
positive_or_unknown (int v)
{
  return v >= 1 ? v : -1;
}

static Stated
stated_of_run (const ProcuraRun *run)
{
  const ProcuraScenario *sc = &run->scenario;
  Stated s = { NULL, NULL, -1, -1, -1, -1, FALSE };

  s.gpu_name = sc->gpu_name != NULL && *sc->gpu_name ? sc->gpu_name : NULL;
  s.engine = sc->engine != NULL && *sc->engine ? sc->engine : NULL;
  s.tp = positive_or_unknown (sc->tp);
  s.pp = positive_or_unknown (sc->pp);
  s.dp = positive_or_unknown (sc->dp);
  s.gpus = positive_or_unknown (sc->gpu_count);
  return s;
}

/* @partial: TP × PP is one data-parallel rank's GPUs, not the deployment's (the runs
 * beside the log state their own count) */
static Stated
stated_of_log (const ProcuraEngineLog *l,
               gboolean                partial)
{
  Stated s = { NULL, NULL, -1, -1, -1, -1, partial };

  s.gpu_name = l->gpu_name != NULL && *l->gpu_name ? l->gpu_name : NULL;
  s.engine = l->engine != NULL && *l->engine ? l->engine : NULL;
  s.tp = positive_or_unknown (l->tp);
  s.pp = positive_or_unknown (l->pp);
  return s;
}

/* GPUs of the measured unit: the stated count, else the product of the stated
 * parallel sizes (-1 when neither says anything) */
static int
stated_gpus (const Stated *s)
{
  gint64 product = 1;

  if (s->gpus >= 1)
    return s->gpus;
  if (s->partial)
    return -1;   /* TP × PP of one rank: the log does not say how many ranks */
  if (s->tp < 1 && s->pp < 1 && s->dp < 1)
    return -1;
  product = (gint64) MAX (s->tp, 1) * MAX (s->pp, 1) * MAX (s->dp, 1);
  return product <= 65536 ? (int) product : -1;
}

/* Same GPU: the same catalog entry when both names are in the catalog, else the same
 * spelling (case-insensitive) */
static gboolean
same_gpu (const char *a,
          const char *b)
{
  const ProcuraGpuSpec *sa = procura_gpu_catalog_lookup (a);
  const ProcuraGpuSpec *sb = procura_gpu_catalog_lookup (b);

  if (sa != NULL && sb != NULL)
    return sa == sb;
  if (sa == NULL && sb != NULL && procura_gpu_catalog_get (a) == sb)
    return TRUE;
  return g_ascii_strcasecmp (a, b) == 0;
}

/* One figure over every run and log: the first value stated, a second one when
 * they disagree (mixed) */
typedef struct {
  int      value;   /* -1 when none states it */
  int      other;
  gboolean mixed;
} Agreed;

static void
agree_int (Agreed *a,
           int     v)
{
  if (v < 1 || a->mixed)
    return;
  if (a->value == -1)
    a->value = v;
  else if (a->value != v)
    {
      a->other = v;
      a->mixed = TRUE;
    }
}

typedef struct {
  const char *value;
  const char *other;
  gboolean    mixed;
} AgreedName;

static void
agree_name (AgreedName *a,
            const char *v,
            gboolean    gpu)
{
  if (v == NULL || a->mixed)
    return;
  if (a->value == NULL)
    a->value = v;
  else if (gpu ? !same_gpu (a->value, v) : g_ascii_strcasecmp (a->value, v) != 0)
    {
      a->other = v;
      a->mixed = TRUE;
    }
}

static void
file_warning (GPtrArray  *results,
              const char *what,
              const char *first,
              const char *second,
              const char *kept)
{
  ProcuraImportResult *r;

  if (results->len == 0)
    return;
  r = g_ptr_array_index (results, 0);
  g_ptr_array_add (r->warnings,
                   g_strdup_printf (_("the imported runs state different %s (%s, %s…); the new candidate keeps %s: set it on the candidate"),
                                    what, first, second, kept));
}

static void
mixed_int (GPtrArray  *results,
           const char *what,
           Agreed     *a,
           int         kept)
{
  g_autofree char *first = NULL, *second = NULL, *k = NULL;

  if (!a->mixed)
    return;
  first = g_strdup_printf ("%d", a->value);
  second = g_strdup_printf ("%d", a->other);
  k = g_strdup_printf ("%d", kept);
  file_warning (results, what, first, second, k);
}

ProcuraCandidate *
procura_import_candidate_new (const char *name,
                              GPtrArray  *results)
{
  ProcuraCandidate *c;
  Agreed gpus = { -1, -1, FALSE }, tp = { -1, -1, FALSE }, pp = { -1, -1, FALSE }, dp = { -1, -1, FALSE };
  AgreedName gpu = { NULL, NULL, FALSE }, engine = { NULL, NULL, FALSE };
  g_autoptr (GString) notes = g_string_new (NULL);
  gboolean runs_count = FALSE;

  g_return_val_if_fail (name != NULL && results != NULL, NULL);
  c = procura_candidate_new ();
  c->name = g_strdup (name);
  c->kind = PROCURA_CANDIDATE_GPU;

  /* Engine logs alone (a server log imported): their TP × PP is the deployment; beside
   * runs that state a GPU count or DP, only the runs count */
  for (guint f = 0; f < results->len && !runs_count; f++)
    {
      ProcuraImportResult *r = g_ptr_array_index (results, f);
      for (guint i = 0; i < r->runs->len && !runs_count; i++)
        {
          Stated s = stated_of_run (g_ptr_array_index (r->runs, i));
          runs_count = stated_gpus (&s) >= 1;
        }
    }
  for (guint f = 0; f < results->len; f++)
    {
      ProcuraImportResult *r = g_ptr_array_index (results, f);
      for (guint i = 0; i < r->runs->len + r->engine_logs->len; i++)
        {
          Stated s = i < r->runs->len ? stated_of_run (g_ptr_array_index (r->runs, i))
                                      : stated_of_log (g_ptr_array_index (r->engine_logs, i - r->runs->len),
                                                       runs_count);
          agree_name (&gpu, s.gpu_name, TRUE);
          agree_name (&engine, s.engine, FALSE);
          agree_int (&gpus, stated_gpus (&s));
          agree_int (&tp, s.tp);
          agree_int (&pp, s.pp);
          agree_int (&dp, s.dp);
        }
    }

  if (gpu.value != NULL && !gpu.mixed)
    {
      const ProcuraGpuSpec *spec = procura_gpu_catalog_lookup (gpu.value);
      c->gpu_name = g_strdup (spec != NULL ? spec->id : gpu.value);
    }
  else if (gpu.mixed)
    file_warning (results, _("GPUs"), gpu.value, gpu.other, _("no GPU"));
  if (engine.value != NULL && !engine.mixed)
    c->engine = g_strdup (engine.value);
  if (tp.value >= 1 && !tp.mixed)
    c->tp = tp.value;
  if (pp.value >= 1 && !pp.mixed)
    c->pp = pp.value;
  if (gpus.value >= 1 && !gpus.mixed)
    c->gpus_per_replica = gpus.value;
  mixed_int (results, _("TP"), &tp, c->tp);
  mixed_int (results, _("PP"), &pp, c->pp);
  mixed_int (results, _("DP"), &dp, 1);
  mixed_int (results, _("GPU counts"), &gpus, c->gpus_per_replica);

  /* Say where the figures came from: the candidate has no DP of its own */
  if ((gpus.value >= 1 && !gpus.mixed) || (tp.value >= 1 && !tp.mixed) || (pp.value >= 1 && !pp.mixed))
    {
      g_string_append_printf (notes, _("From the imported file: %d GPU(s) per replica, TP %d, PP %d"),
                              c->gpus_per_replica, c->tp, c->pp);
      if (dp.value >= 1 && !dp.mixed)
        g_string_append_printf (notes, _(", DP %d (one replica here is the whole data-parallel group measured)"),
                                dp.value);
      g_string_append (notes, ".");
      c->notes = g_string_free (g_steal_pointer (&notes), FALSE);
    }
  return c;
}

static void
warn (ProcuraImportResult *r,
      ProcuraRun          *run,
      const char          *message)
{
  if (run != NULL)
    procura_run_add_warning (run, "%s", message);
  else
    g_ptr_array_add (r->warnings, g_strdup (message));
}

static guint
check_one (const ProcuraCandidate *c,
           ProcuraImportResult    *r,
           ProcuraRun             *run,
           const Stated           *s,
           const char             *what)
{
  const char *file = r->provenance != NULL && r->provenance->file_name != NULL ? r->provenance->file_name : "";
  int gpus = stated_gpus (s);
  guint n = 0;

  if (s->gpu_name != NULL && c->gpu_name != NULL && *c->gpu_name && !same_gpu (s->gpu_name, c->gpu_name))
    {
      g_autofree char *m = g_strdup_printf (_("%s%s states the GPU “%s”, candidate “%s” has “%s”"),
                                            file, what, s->gpu_name, c->name, c->gpu_name);
      warn (r, run, m);
      n++;
    }
  if (s->tp >= 1 && c->tp >= 1 && s->tp != c->tp)
    {
      g_autofree char *m = g_strdup_printf (_("%s%s states TP %d, candidate “%s” has TP %d"),
                                            file, what, s->tp, c->name, c->tp);
      warn (r, run, m);
      n++;
    }
  if (s->pp >= 1 && c->pp >= 1 && s->pp != c->pp)
    {
      g_autofree char *m = g_strdup_printf (_("%s%s states PP %d, candidate “%s” has PP %d"),
                                            file, what, s->pp, c->name, c->pp);
      warn (r, run, m);
      n++;
    }
  if (gpus >= 1 && c->gpus_per_replica >= 1 && gpus != c->gpus_per_replica)
    {
      g_autofree char *m = NULL;
      if (s->gpus >= 1)
        m = g_strdup_printf (_("%s%s measured %d GPU(s), candidate “%s” has %d GPU(s) per replica: its cost is for another deployment"),
                             file, what, gpus, c->name, c->gpus_per_replica);
      else
        m = g_strdup_printf (_("%s%s states TP %d × PP %d × DP %d = %d GPU(s), candidate “%s” has %d GPU(s) per replica: its cost is for another deployment"),
                             file, what, MAX (s->tp, 1), MAX (s->pp, 1), MAX (s->dp, 1), gpus,
                             c->name, c->gpus_per_replica);
      warn (r, run, m);
      n++;
    }
  return n;
}

guint
procura_import_check_candidate (const ProcuraCandidate *candidate,
                                GPtrArray              *results)
{
  guint n = 0;

  g_return_val_if_fail (candidate != NULL && results != NULL, 0);
  if (candidate->kind == PROCURA_CANDIDATE_API)
    return 0;
  for (guint f = 0; f < results->len; f++)
    {
      ProcuraImportResult *r = g_ptr_array_index (results, f);
      for (guint i = 0; i < r->runs->len; i++)
        {
          ProcuraRun *run = g_ptr_array_index (r->runs, i);
          Stated s = stated_of_run (run);
          n += check_one (candidate, r, run, &s, "");
        }
      for (guint i = 0; i < r->engine_logs->len; i++)
        {
          Stated s = stated_of_log (g_ptr_array_index (r->engine_logs, i), TRUE);
          g_autofree char *what = g_strdup_printf (_(" (engine start %u)"), i + 1);
          n += check_one (candidate, r, NULL, &s, what);
        }
    }
  return n;
}

/* procura-demo.c: the bundled demo project (illustrative data)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The benchmark sweeps come from a small queueing-like model, not from real hardware:
 * each candidate has a prefill time t0 (ms), a decode time per token and a capacity mu
 * (req/s per replica). At a request rate r the utilisation is rho = r / mu and a
 * request's TTFT is t0 * U(0.8, 1.2) plus an exponential wait of mean
 * t0 * 0.5 * rho / (1 - rho), so the p99 TTFT rises with load and crosses the 800 ms
 * target at a different rate per candidate (about 6.5 req/s for the H100s, 4.0 for the
 * A100s, 2.4 for the L40S); the H200s never cross it within their sweep.
 * Random numbers: GRand (Mersenne Twister) with fixed seeds.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "procura-demo.h"
#include "procura-stats.h"
#include "procura-store.h"
#include "procura-util.h"

#define DEMO_REQUESTS 300
#define DEMO_IMPORTER "procura demo (illustrative)"

typedef struct {
  const char *name;
  const char *gpu;            /* catalog id */
  const char *gpu_display;    /* as an engine would print it */
  int         gpus;
  int         tp, pp;
  const char *provider;
  const char *sku;
  const char *pricing;
  double      term_months;
  const char *region;
  double      price_per_gpu_hour;
  int         seen_days_ago;  /* the quote's date, relative to today */
  const char *interconnect;
  double      t0_ms;          /* prefill at no load */
  double      tpot_ms;        /* decode per output token at no load */
  double      mu;             /* req/s per replica */
  double      rate_step;      /* sweep: rate_step * 1..7 */
  guint32     seed;
} DemoGpu;

static const DemoGpu demo_gpus[] = {
  { "4× H100 SXM · TP4 · on-demand", "h100-sxm-80gb", "NVIDIA H100 80GB HBM3", 4, 4, 1,
    "Example Cloud A", "gpu-h100x4.on-demand", "on-demand", NAN, "us-east",
    2.99, 6, "NVLink 900 GB/s",
    110, 24, 9.0, 1.0, 1101 },
  { "8× A100 80GB SXM · TP8 · on-demand", "a100-sxm-80gb", "NVIDIA A100-SXM4-80GB", 8, 8, 1,
    "Example Cloud B", "a100-80g-x8", "on-demand", NAN, "us-central",
    1.79, 108, "NVLink 600 GB/s",
    160, 30, 6.5, 0.75, 2202 },
  { "4× H200 SXM · TP4 · reserved 12 mo", "h200-sxm-141gb", "NVIDIA H200", 4, 4, 1,
    "Example Cloud A", "gpu-h200x4.reserved-1y", "reserved", 12, "us-east",
    3.10, 12, "NVLink 900 GB/s",
    85, 17, 16.0, 1.5, 3303 },
  { "8× L40S · TP4 PP2 · on-demand", "l40s-48gb", "NVIDIA L40S", 8, 4, 2,
    "Example Cloud C", "l40s-x8", "on-demand", NAN, "us-west",
    1.05, 9, "PCIe Gen4 x16",
    240, 42, 5.0, 0.5, 4404 },
};

#define DEMO_RUNS_PER_SWEEP 7

/* YYYY-MM-DD @days before @now (an ISO 8601 time). */
static char *
days_ago (const char *now,
          int         days)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_iso8601 (now, NULL);
  g_autoptr (GDateTime) then = NULL;

  if (t == NULL)
    t = g_date_time_new_now_utc ();
  then = g_date_time_add_days (t, -days);
  return g_date_time_format (then, "%Y-%m-%d");
}

static double
uniform (GRand  *rand,
         double  lo,
         double  hi)
{
  return lo + (hi - lo) * g_rand_double (rand);
}

static double
exponential (GRand  *rand,
             double  mean)
{
  return -mean * log (1.0 - g_rand_double (rand));
}

static void
add_recomputed_stats (ProcuraRun   *run,
                      const char   *metric,
                      const double *values,
                      gsize         n)
{
  static const struct { const char *name; double q; } pcts[] = {
    { "p50", 0.50 }, { "p90", 0.90 }, { "p95", 0.95 }, { "p99", 0.99 },
  };
  g_autofree double *sorted = g_memdup2 (values, n * sizeof (double));

  procura_stats_sort (sorted, n);
  procura_run_add_stat (run, metric, "mean", procura_stats_mean (values, n),
                        PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_add_stat (run, metric, "min", sorted[0], PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  procura_run_add_stat (run, metric, "max", sorted[n - 1], PROCURA_SOURCE_RECOMPUTED, (gint64) n);
  for (gsize i = 0; i < G_N_ELEMENTS (pcts); i++)
    procura_run_add_stat (run, metric, pcts[i].name,
                          procura_stats_percentile (sorted, n, pcts[i].q),
                          PROCURA_SOURCE_RECOMPUTED, (gint64) n);
}

static ProcuraRun *
make_run (const DemoGpu *g,
          gint64         candidate_id,
          int            step,
          GRand         *rand)
{
  ProcuraRun *run = procura_run_new ();
  double rate = g->rate_step * step;
  double rho = MIN (rate / g->mu, 0.97);
  double wait_mean = g->t0_ms * 0.5 * rho / (1.0 - rho);
  gsize n = DEMO_REQUESTS;
  double *ttft = g_new (double, n);
  double *tpot = g_new (double, n);
  double *e2e = g_new (double, n);
  double *in_len = g_new (double, n);
  double *out_len = g_new (double, n);
  double sum_in = 0, sum_out = 0;

  for (gsize i = 0; i < n; i++)
    {
      in_len[i] = floor (uniform (rand, 800, 1200));
      out_len[i] = floor (uniform (rand, 200, 300));
      ttft[i] = g->t0_ms * uniform (rand, 0.8, 1.2) * (in_len[i] / 1000.0) + exponential (rand, wait_mean);
      tpot[i] = g->tpot_ms * (1.0 + 0.35 * rho) * uniform (rand, 0.9, 1.1);
      e2e[i] = ttft[i] + tpot[i] * (out_len[i] - 1);
      sum_in += in_len[i];
      sum_out += out_len[i];
    }

  run->candidate_id = candidate_id;
  run->label = g_strdup_printf ("rate %g req/s", rate);
  run->format = g_strdup ("procura-demo");
  run->format_version = g_strdup ("1");
  run->scenario.model = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
  run->scenario.engine = g_strdup ("vllm");
  run->scenario.engine_version = g_strdup ("0.11.0");
  run->scenario.gpu_name = g_strdup (g->gpu_display);
  run->scenario.gpu_count = g->gpus;
  run->scenario.tp = g->tp;
  run->scenario.pp = g->pp;
  run->scenario.dp = 1;
  run->scenario.load_type = g_strdup ("rate");
  run->scenario.load_value = rate;
  run->scenario.input_len = 1000;
  run->scenario.output_len = 250;
  /* requests arrive at @rate; the run lasts until the last one finishes */
  run->duration_s = n / rate + e2e[n - 1] / 1000.0;
  run->completed = (gint64) n;
  run->failed = 0;
  run->request_throughput = n / run->duration_s;
  run->output_throughput = sum_out / run->duration_s;
  run->total_throughput = (sum_in + sum_out) / run->duration_s;
  run->input_tokens_mean = sum_in / n;
  run->output_tokens_mean = sum_out / n;

  add_recomputed_stats (run, "ttft", ttft, n);
  add_recomputed_stats (run, "tpot", tpot, n);
  add_recomputed_stats (run, "e2e", e2e, n);
  procura_run_take_samples (run, "ttft", ttft, n);
  procura_run_take_samples (run, "tpot", tpot, n);
  procura_run_take_samples (run, "e2e", e2e, n);
  procura_run_take_samples (run, "input_len", in_len, n);
  procura_run_take_samples (run, "output_len", out_len, n);
  return run;
}

static void
add_ops_test (ProcuraProject *p,
              gint64          candidate_id,
              const char     *kind,
              const char     *result,
              double          recovery_s,
              double          failed,
              double          per_month,
              const char     *notes)
{
  ProcuraOpsTest *t = procura_ops_test_new ();

  t->candidate_id = candidate_id;
  t->kind = g_strdup (kind);
  t->result = g_strdup (result);
  t->recovery_s = recovery_s;
  t->failed_requests = failed;
  t->per_month = per_month;
  t->notes = g_strdup (notes);
  g_ptr_array_add (p->ops_tests, t);
}

static void
add_check (ProcuraProject *p,
           gint64          candidate_id,
           const char     *section,
           const char     *item,
           const char     *answer,
           const char     *evidence)
{
  ProcuraChecklistItem *i = procura_checklist_item_new ();

  i->candidate_id = candidate_id;
  i->section = g_strdup (section);
  i->item = g_strdup (item);
  i->answer = g_strdup (answer);
  i->evidence = g_strdup (evidence);
  g_ptr_array_add (p->checklist, i);
}

/* The file (path or URI) behind the evidence of the last checklist answer added. */
static void
set_check_file (ProcuraProject *p,
                const char     *file)
{
  ProcuraChecklistItem *i = g_ptr_array_index (p->checklist, p->checklist->len - 1);

  g_free (i->evidence_file);
  i->evidence_file = g_strdup (file);
}

static ProcuraProvenance *
demo_provenance (gint64      id,
                 const char *file_name,
                 const char *now)
{
  ProcuraProvenance *pv = procura_provenance_new ();

  pv->id = id;
  pv->file_name = g_strdup (file_name);
  pv->importer = g_strdup (DEMO_IMPORTER);
  pv->format_version = g_strdup ("1");
  pv->sha256 = procura_sha256_hex (file_name, strlen (file_name));
  pv->imported_at = g_strdup (now);
  return pv;
}

ProcuraProject *
procura_demo_project_new (void)
{
  ProcuraProject *p = procura_project_new ();
  g_autofree char *now = procura_now_iso8601 ();
  ProcuraBrief *b = p->brief;
  gint64 prov_id = 0;

  p->title = g_strdup (PROCURA_DEMO_TITLE);
  p->created = g_strdup (now);
  p->modified = g_strdup (now);
  p->illustrative = TRUE;

  b->workload_type = g_strdup ("online-inference");
  b->model_shape = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
  b->input_tokens = 1000;
  b->output_tokens = 250;
  b->context_tokens = 8192;
  b->success_unit = g_strdup ("accepted response");
  b->slo_metric = g_strdup ("ttft");
  b->slo_percentile = 99;
  b->slo_threshold_ms = 800;
  b->duty_cycle = g_strdup ("always-on");
  b->operating_boundary = g_strdup ("public cloud, US regions");
  b->tooling = g_strdup ("vllm");
  b->demand_average = 12;
  b->demand_peak = 30;
  b->window_hours = 730;

  p->assumptions.acceptance_rate = 0.92;
  p->assumptions.retry_rate = 0.04;
  p->assumptions.failure_rate = 0.01;
  p->assumptions.headroom = 1.0;
  p->assumptions.stale_days = 30;

  /* GPU candidates: quote, candidate, sweep */
  for (gsize k = 0; k < G_N_ELEMENTS (demo_gpus); k++)
    {
      const DemoGpu *g = &demo_gpus[k];
      gint64 id = (gint64) k + 1;
      ProcuraQuote *q = procura_quote_new ();
      ProcuraCandidate *c = procura_candidate_new ();
      g_autoptr (GRand) rand = g_rand_new_with_seed (g->seed);
      g_autofree char *quote_file = g_strdup_printf ("demo-quote-%s.json", g->gpu);
      g_autofree char *sweep_file = g_strdup_printf ("demo-sweep-%s.json", g->gpu);
      ProcuraProvenance *quote_prov = demo_provenance (++prov_id, quote_file, now);
      ProcuraProvenance *sweep_prov = demo_provenance (++prov_id, sweep_file, now);
      g_autofree char *seen = days_ago (now, g->seen_days_ago);

      g_ptr_array_add (p->provenance, quote_prov);
      g_ptr_array_add (p->provenance, sweep_prov);

      q->id = id;
      q->kind = PROCURA_QUOTE_GPU;
      q->provider = g_strdup (g->provider);
      q->sku = g_strdup (g->sku);
      q->gpu_name = g_strdup (g->gpu_display);
      q->gpu_id = g_strdup (g->gpu);
      q->gpu_count = g->gpus;
      q->price_per_hour = g->price_per_gpu_hour * g->gpus;
      q->pricing_model = g_strdup (g->pricing);
      q->term_months = g->term_months;
      if (!isnan (g->term_months))
        q->min_commitment = q->price_per_hour * 730 * g->term_months;
      q->region = g_strdup (g->region);
      q->seen_date = g_strdup (seen);
      q->source = g_strdup ("illustrative price, not a real offer");
      q->storage_per_gb_month = 0.08;
      q->egress_per_gb = 0.05;
      q->provenance_id = quote_prov->id;
      g_ptr_array_add (p->quotes, q);

      c->id = id;
      c->name = g_strdup (g->name);
      c->kind = PROCURA_CANDIDATE_GPU;
      c->gpu_name = g_strdup (g->gpu);
      c->gpus_per_replica = g->gpus;
      c->provider = g_strdup (g->provider);
      c->pricing_model = g_strdup (g->pricing);
      c->region = g_strdup (g->region);
      c->engine = g_strdup ("vllm");
      c->tp = g->tp;
      c->pp = g->pp;
      c->quote_id = q->id;
      c->price_per_gpu_hour = g->price_per_gpu_hour;
      c->price_date = g_strdup (seen);
      c->provisioning = PROCURA_PROVISION_ALWAYS_ON;
      c->interconnect = g_strdup (g->interconnect);
      c->storage = 150;          /* model weights, images, logs */
      c->network = 220;          /* egress of responses */
      c->serving_stack = 0;      /* vLLM is free software */
      c->observability = 300;
      c->labor_hours = 20;
      c->labor_rate = 110;
      c->notes = g_strdup ("Illustrative candidate of the demo project.");
      g_ptr_array_add (p->candidates, c);

      for (int step = 1; step <= DEMO_RUNS_PER_SWEEP; step++)
        {
          ProcuraRun *run = make_run (g, id, step, rand);
          run->provenance = procura_provenance_copy (sweep_prov);
          g_ptr_array_add (p->runs, run);
        }
    }

  /* The API route */
  {
    ProcuraQuote *q = procura_quote_new ();
    ProcuraCandidate *c = procura_candidate_new ();
    ProcuraProvenance *pv = demo_provenance (++prov_id, "demo-quote-api.json", now);
    g_autofree char *seen = days_ago (now, 4);

    g_ptr_array_add (p->provenance, pv);
    q->id = (gint64) G_N_ELEMENTS (demo_gpus) + 1;
    q->kind = PROCURA_QUOTE_API;
    q->provider = g_strdup ("Example Inference API");
    q->api_model = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
    q->gpu_count = 0;
    q->price_input_per_mtok = 0.60;
    q->price_cached_per_mtok = 0.30;
    q->price_output_per_mtok = 1.80;
    q->rate_limit_rpm = 6000;
    q->rate_limit_tpm = 2000000;
    q->seen_date = g_strdup (seen);
    q->source = g_strdup ("illustrative price, not a real offer");
    q->provenance_id = pv->id;
    g_ptr_array_add (p->quotes, q);

    c->id = (gint64) G_N_ELEMENTS (demo_gpus) + 1;
    c->name = g_strdup ("Hosted API · Llama 3.1 70B");
    c->kind = PROCURA_CANDIDATE_API;
    c->gpus_per_replica = 0;
    c->tp = c->pp = 0;
    c->provider = g_strdup ("Example Inference API");
    c->pricing_model = g_strdup ("per-token");
    c->region = g_strdup ("us");
    c->quote_id = q->id;
    c->price_date = g_strdup (seen);
    c->api_provider = g_strdup ("Example Inference API");
    c->api_model = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
    c->input_tokens = 1000;
    c->cached_input_tokens = 0;
    c->output_tokens = 250;
    c->price_input_per_mtok = 0.60;
    c->price_cached_per_mtok = 0.30;
    c->price_output_per_mtok = 1.80;
    c->gateway = 50;
    c->rate_limit_rpm = 6000;
    c->storage = 0;
    c->network = 0;
    c->serving_stack = 0;
    c->observability = 100;
    c->labor_hours = 4;
    c->labor_rate = 110;
    c->notes = g_strdup ("Illustrative API route of the demo project.");
    g_ptr_array_add (p->candidates, c);
  }

  /* Model shape of the brief's model (its public config.json) */
  {
    ProcuraModelShape *m = procura_model_shape_new ();

    m->id = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
    m->architecture = g_strdup ("LlamaForCausalLM");
    m->num_layers = 80;
    m->hidden_size = 8192;
    m->intermediate_size = 28672;
    m->num_attention_heads = 64;
    m->num_kv_heads = 8;
    m->head_dim = 128;
    m->vocab_size = 128256;
    m->tie_word_embeddings = FALSE;
    m->weights_dtype = g_strdup ("bf16");
    m->published_params = 70.6e9;
    /* vLLM's rotary table of 131,072 x 128 (max_position_embeddings; llama3 rope scaling
     * keeps it), as the catalog reads the same config.json; the window itself is left
     * unset as before (the demo's caveats stay as they were) */
    m->rope_cache_elements = 131072.0 * 128;
    g_ptr_array_add (p->model_shapes, m);
  }

  /* A vLLM startup log of the H100 candidate. KV per token: 80 layers x 8 KV heads x
   * 128 x 2 (K and V) x 2 bytes = 327,680 B, a quarter per GPU at TP4 = 81,920 B. */
  {
    ProcuraEngineLog *l = procura_engine_log_new ();
    ProcuraProvenance *pv = demo_provenance (++prov_id, "demo-vllm-h100.log", now);
    double kv_gib = 34.6;

    g_ptr_array_add (p->provenance, pv);
    l->candidate_id = 1;
    l->engine = g_strdup ("vllm");
    l->engine_version = g_strdup ("0.11.0");
    l->model = g_strdup ("meta-llama/Llama-3.1-70B-Instruct");
    l->gpu_name = g_strdup ("NVIDIA H100 80GB HBM3");
    l->tp = 4;
    l->pp = 1;
    l->gpu_memory_utilization = 0.90;
    l->max_model_len = 8192;
    l->block_size = 16;
    l->kv_dtype = g_strdup ("auto");
    l->weights_gib = 32.88;
    l->kv_available_gib = kv_gib;
    l->kv_tokens = (gint64) floor (kv_gib * 1024 * 1024 * 1024 / 81920);
    l->max_concurrency = (double) l->kv_tokens / 8192;
    l->cuda_graph_gib = 0.62;
    l->provenance_id = pv->id;
    g_ptr_array_add (p->engine_logs, l);
  }

  /* A probe fit test on the H200 candidate's machine */
  {
    ProcuraProbeResult *r = procura_probe_result_new ();
    ProcuraProvenance *pv = demo_provenance (++prov_id, "demo-probe-h200.jsonl", now);

    g_ptr_array_add (p->provenance, pv);
    r->candidate_id = 3;
    r->device_name = g_strdup ("NVIDIA H200");
    r->test = g_strdup ("fit");
    r->fits = TRUE;
    r->total_bytes = 150754820096.0;
    r->free_bytes = 150200123392.0;
    r->headroom_bytes = 12884901888.0;
    r->json = g_strdup ("{\"event\":\"hello\",\"protocol\":1,\"probe_version\":\"demo\"}\n"
                        "{\"event\":\"result\",\"test\":\"fit\",\"fits\":true}\n"
                        "{\"event\":\"done\",\"status\":\"ok\"}\n");
    r->measured_at = g_strdup (now);
    r->provenance_id = pv->id;
    g_ptr_array_add (p->probe_results, r);
  }

  /* Operations tests */
  add_ops_test (p, 1, "kill-worker", "pass", 38, 12, 1, "one replica restarted by the orchestrator");
  add_ops_test (p, 1, "drain-node", "pass", 95, 0, 0.5, "traffic moved before the drain");
  add_ops_test (p, 1, "restart-stack", "pass", 240, 30, 0.25, NULL);
  add_ops_test (p, 1, "cold-start", "pass", 410, NAN, 2, "model load from object storage");
  add_ops_test (p, 1, "checkpoint-recovery", "not-run", NAN, NAN, NAN, NULL);
  add_ops_test (p, 2, "kill-worker", "pass", 52, 18, 1, NULL);
  add_ops_test (p, 2, "cold-start", "pass", 520, NAN, 2, NULL);
  add_ops_test (p, 3, "kill-worker", "pass", 35, 9, 1, NULL);
  add_ops_test (p, 3, "drain-node", "pass", 88, 0, 0.5, NULL);
  add_ops_test (p, 3, "cold-start", "pass", 380, NAN, 2, "weights cached on local NVMe");
  add_ops_test (p, 4, "kill-worker", "fail", 180, 140, 1, "pipeline stage restart took the whole replica down");
  add_ops_test (p, 4, "cold-start", "pass", 610, NAN, 2, NULL);

  /* Procurement checklist */
  add_check (p, 0, "security", "Prompts and responses stay in US regions", "yes",
             "data processing addendum, section 4 (illustrative)");
  set_check_file (p, "https://example.com/legal/data-processing-addendum.pdf");
  add_check (p, 1, "hardware", "GPU model, count and interconnect confirmed in writing", "yes",
             "quote gpu-h100x4.on-demand (illustrative)");
  set_check_file (p, "quotes/gpu-h100x4.json");
  add_check (p, 1, "commercial", "Capacity guaranteed for the planning window", "no",
             "on-demand: no capacity reservation");
  {
    g_autofree char *seen = days_ago (now, demo_gpus[1].seen_days_ago);
    g_autofree char *evidence = g_strdup_printf ("quote seen %s, %d days ago: stale", seen,
                                                 demo_gpus[1].seen_days_ago);
    add_check (p, 2, "commercial", "Price still valid", "unknown", evidence);
  }
  add_check (p, 3, "commercial", "Capacity guaranteed for the planning window", "yes",
             "12-month reservation (illustrative)");
  add_check (p, 3, "software", "vLLM version pinned and tested", "yes", "runs of vLLM 0.11.0");
  add_check (p, 4, "hardware", "Interconnect adequate for pipeline parallelism", "partial",
             "PCIe only; see the kill-worker test");
  add_check (p, 5, "security", "Provider does not train on our prompts", "yes",
             "terms of service, illustrative");
  add_check (p, 5, "commercial", "Rate limit covers the peak (30 req/s = 1,800 rpm)", "yes",
             "6,000 rpm limit in the quote");

  return p;
}

gboolean
procura_demo_write (const char  *path,
                    GError     **error)
{
  g_autoptr (ProcuraProject) project = procura_demo_project_new ();
  g_autoptr (ProcuraStore) store = NULL;

  store = procura_store_create (path, project->title, error);
  if (store == NULL)
    return FALSE;
  if (!procura_store_save_project (store, project, error))
    {
      /* nothing half-written stays behind */
      g_clear_pointer (&store, procura_store_close);
      g_unlink (path);
      return FALSE;
    }
  return TRUE;
}

/* procura-quotes-csv.c: SkyPilot vms.csv and dstack gpuhunt price catalogs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SkyPilot (catalog v7/v8, also the anycloud-sh catalogs in the same format):
 * columns are found by header name; GpuInfo is a Python literal; prices are USD per
 * hour for the whole instance; an empty SpotPrice means no spot offer. GCP lists
 * host VMs and GPUs on separate rows (a GPU row has no InstanceType): a GPU VM's
 * price is its host row plus the GPU row of the same zone and GPU count.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "procura-csv.h"
#include "procura-gpu-catalog.h"
#include "procura-pyliteral.h"
#include "procura-quotes.h"
#include "procura-util.h"

#define MIB_TO_GB (1048576.0 / 1e9)

/* ------------------------------------------------------------------------- */
/* Shared helpers                                                             */

static gboolean
parse_double (const char *s,
              double     *out)
{
  char *end = NULL;
  double v;

  if (s == NULL)
    return FALSE;
  while (g_ascii_isspace (*s))
    s++;
  if (*s == '\0')
    return FALSE;
  v = g_ascii_strtod (s, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == NULL || *end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

static char *
today_utc (void)
{
  g_autofree char *now = procura_now_iso8601 ();

  return g_strndup (now, 10);
}

/* The provider from the file name ("catalogs/v7/lambda/vms.csv",
 * "anycloud__gcp_vms_gpu_only.csv"), NULL when it names none we know. */
static char *
provider_from_name (const char *name)
{
  static const char * const clouds[] = {
    "aws", "gcp", "azure", "lambda", "nebius", "vast", "runpod", "oci", "ibm", "paperspace",
    "fluidstack", "cudo", "do", "hyperbolic", "scp", "vsphere", "kubernetes", "coreweave",
    "datacrunch", "verda", "tensordock", "vultr", "seeweb", "primeintellect", "shadeform", NULL
  };
  g_autofree char *lower = NULL;
  g_auto(GStrv) words = NULL;

  if (name == NULL)
    return NULL;
  lower = g_ascii_strdown (name, -1);
  for (char *p = lower; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      *p = ' ';
  words = g_strsplit (lower, " ", -1);
  for (gsize i = 0; words[i] != NULL; i++)
    if (g_strv_contains (clouds, words[i]))
      return g_strdup (words[i]);
  return NULL;
}

typedef struct {
  char  *gpu;
  double gib_per_gpu;
  double host_gib;
  guint  rows;
  guint  first_line;
  gboolean host_ram;
  const ProcuraGpuSpec *spec;
} MemoryIssue;

static void
memory_issue_free (MemoryIssue *m)
{
  g_free (m->gpu);
  g_free (m);
}

typedef struct {
  const char          *file;
  char                *provider;
  char                *seen;
  char                *source;
  GPtrArray           *quotes;      /* ProcuraQuote* */
  GHashTable          *seen_keys;   /* dedup of identical offers */
  GHashTable          *issues;      /* "gpu|gib" → MemoryIssue* */
  GHashTable          *unknown;     /* gpu name → row count */
  guint                skipped_no_price;
  guint                skipped_tpu;
  guint                skipped_cpu;
  guint                gpu_only;    /* GCP GPU rows priced without a host */
  guint                duplicates;
} Sink;

static void
sink_clear (Sink *s)
{
  g_free (s->provider);
  g_free (s->seen);
  g_free (s->source);
  g_clear_pointer (&s->quotes, g_ptr_array_unref);
  g_clear_pointer (&s->seen_keys, g_hash_table_unref);
  g_clear_pointer (&s->issues, g_hash_table_unref);
  g_clear_pointer (&s->unknown, g_hash_table_unref);
}

static void
sink_init (Sink       *s,
           const char *file,
           const char *provider,
           const char *kind)
{
  memset (s, 0, sizeof *s);
  s->file = file;
  s->provider = g_strdup (provider);
  s->seen = today_utc ();
  s->source = g_strdup_printf ("%s %s", kind, file);
  s->quotes = g_ptr_array_new_with_free_func ((GDestroyNotify) procura_quote_free);
  s->seen_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->issues = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) memory_issue_free);
  s->unknown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* Checks the per-GPU memory the file states against the catalog and the host RAM.
 * Returns the memory hint (GB) for the catalog lookup, NAN when the file's figure is
 * wrong and is recorded as an issue. */
static gboolean
close_to (double a,
          double b)
{
  return fabs (a - b) <= 0.01 * b;
}

static double
check_memory (Sink       *s,
              const char *gpu,
              int         count,
              double      gib_per_gpu,
              double      host_gib,
              guint       line)
{
  const ProcuraGpuSpec *spec;
  gboolean host_ram, wrong;
  double gb = gib_per_gpu * 1024 * MIB_TO_GB;

  if (isnan (gib_per_gpu) || gib_per_gpu <= 0)
    return NAN;
  /* the hint only picks between sizes of a family when it is close to one of them */
  spec = procura_gpu_catalog_lookup_full (gpu, gb);
  host_ram = !isnan (host_gib) && host_gib > 0 &&
             (close_to (gib_per_gpu, host_gib) || (count > 1 && close_to (gib_per_gpu, host_gib / count)));
  if (spec != NULL)
    wrong = fabs (gb - spec->memory_gb_marketed) > 0.25 * spec->memory_gb_marketed;
  else
    wrong = gb > 1000;   /* no GPU has more than 1 TB */
  /* some catalogs (Vast) give the instance's total GPU memory: fine when it divides */
  if (wrong && count > 1)
    {
      const ProcuraGpuSpec *per = procura_gpu_catalog_lookup_full (gpu, gb / count);
      if (per != NULL && fabs (gb / count - per->memory_gb_marketed) <= 0.25 * per->memory_gb_marketed)
        return gb / count;
      if (per == NULL && gb / count <= 1000)
        return gb / count;
    }
  if (wrong)
    {
      g_autofree char *key = g_strdup_printf ("%s|%g", gpu, gib_per_gpu);
      MemoryIssue *m = g_hash_table_lookup (s->issues, key);

      if (m == NULL)
        {
          m = g_new0 (MemoryIssue, 1);
          m->gpu = g_strdup (gpu);
          m->gib_per_gpu = gib_per_gpu;
          m->host_gib = host_gib;
          m->first_line = line;
          m->host_ram = host_ram;
          m->spec = spec;
          g_hash_table_insert (s->issues, g_steal_pointer (&key), m);
        }
      m->rows++;
      return NAN;
    }
  return gb;
}

static const char *
variant_hint (const char *sku)
{
  g_autofree char *lower = NULL;
  g_auto(GStrv) words = NULL;

  if (sku == NULL)
    return "";
  lower = g_ascii_strdown (sku, -1);
  /* Azure: the NC-series carry PCIe cards (NCads H100 v5: H100 NVL; NC A100 v4:
   * A100 PCIe), the ND-series SXM boards */
  if (g_str_has_prefix (lower, "standard_nc") && strstr (lower, "h100") != NULL)
    return " NVL";
  if (g_str_has_prefix (lower, "standard_nc") && strstr (lower, "a100") != NULL)
    return " PCIe";
  for (char *p = lower; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      *p = ' ';
  words = g_strsplit (lower, " ", -1);
  for (gsize i = 0; words[i] != NULL; i++)
    {
      if (g_str_equal (words[i], "pcie"))
        return " PCIe";
      if (g_str_has_prefix (words[i], "sxm"))
        return " SXM";
      if (g_str_equal (words[i], "nvl"))
        return " NVL";
    }
  return "";
}

static void
add_quote (Sink       *s,
           const char *sku,
           const char *gpu,
           int         count,
           double      price,
           const char *pricing,
           const char *region,
           double      memory_hint_gb,
           const char *notes)
{
  g_autofree char *key = NULL;
  const ProcuraGpuSpec *spec;
  ProcuraQuote *q;

  key = g_strdup_printf ("%s|%s|%d|%.6f|%s|%s", sku ? sku : "", gpu, count, price, pricing, region ? region : "");
  if (!g_hash_table_add (s->seen_keys, g_steal_pointer (&key)))
    {
      s->duplicates++;
      return;
    }
  q = procura_quote_new ();
  q->kind = PROCURA_QUOTE_GPU;
  q->provider = g_strdup (s->provider);
  q->sku = g_strdup (sku);
  q->gpu_name = g_strdup (gpu);
  {
    /* the instance type often says the form the accelerator name leaves out
     * (Lambda's "gpu_1x_h100_pcie" lists its GPU as plain "H100") */
    g_autofree char *full = g_strconcat (gpu, variant_hint (sku), NULL);
    const char *hint = variant_hint (sku);

    /* the provider's own name first, unless the instance type says the form */
    spec = *hint == '\0' ? procura_gpu_catalog_lookup_provider (s->provider, gpu, memory_hint_gb)
                          : procura_gpu_catalog_lookup_full (full, memory_hint_gb);
  }
  if (spec != NULL)
    q->gpu_id = g_strdup (spec->id);
  else
    {
      gpointer n = g_hash_table_lookup (s->unknown, gpu);
      g_hash_table_insert (s->unknown, g_strdup (gpu), GUINT_TO_POINTER (GPOINTER_TO_UINT (n) + 1));
    }
  q->gpu_count = count;
  q->price_per_hour = price;
  q->pricing_model = g_strdup (pricing);
  q->region = g_strdup (region);
  q->seen_date = g_strdup (s->seen);
  q->source = g_strdup (s->source);
  q->notes = g_strdup (notes);
  g_ptr_array_add (s->quotes, q);
}

static void
add_offers (Sink       *s,
            const char *sku,
            const char *gpu,
            int         count,
            const char *price,
            const char *spot,
            const char *region,
            double      memory_hint_gb,
            const char *notes)
{
  double p, sp;
  gboolean any = FALSE;

  if (parse_double (price, &p) && p > 0)
    {
      add_quote (s, sku, gpu, count, p, "on-demand", region, memory_hint_gb, notes);
      any = TRUE;
    }
  if (parse_double (spot, &sp) && sp > 0)
    {
      add_quote (s, sku, gpu, count, sp, "spot", region, memory_hint_gb, notes);
      any = TRUE;
    }
  if (!any)
    s->skipped_no_price++;
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
sink_finish (Sink                *s,
             ProcuraImportResult *result)
{
  GHashTableIter it;
  gpointer k, v;
  g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func (g_free);

  g_hash_table_iter_init (&it, s->issues);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      MemoryIssue *m = v;
      g_autofree char *what = NULL;
      g_autofree char *why = NULL;

      if (m->spec != NULL)
        /* TRANSLATORS: completes "but …": a GPU's name and its marketed memory */
        what = g_strdup_printf (_("a %s has %g GB"), m->spec->name, m->spec->memory_gb_marketed);
      else
        /* TRANSLATORS: completes "but …" */
        what = g_strdup (_("no GPU has that much"));
      if (m->host_ram)
        why = g_strdup_printf (_("; it is the host RAM (MemoryGiB %g, per GPU or in all): the "
                                 "known catalog bug of GPU memory holding host RAM"), m->host_gib);
      g_ptr_array_add (msgs, g_strdup_printf (
        _("%s:%u: GpuInfo gives %s %g GiB of memory per GPU (%u rows), but %s%s; "
          "the file's GPU memory is ignored%s"),
        s->file, m->first_line, m->gpu, m->gib_per_gpu, m->rows, what,
        why != NULL ? why : "",
        m->spec != NULL ? _(" and the catalog's figure is used") : ""));
    }
  g_hash_table_iter_init (&it, s->unknown);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_ptr_array_add (msgs, g_strdup_printf (_("%s: GPU \"%s\" (%u quotes) is not in the GPU catalog: "
                                              "its quotes are kept without specs"),
                                            s->file, (const char *) k, GPOINTER_TO_UINT (v)));
  g_ptr_array_sort (msgs, compare_strings);
  if (s->gpu_only > 0)
    g_ptr_array_add (msgs, g_strdup_printf (_("%s: %u GPU prices have no host VM row of their own "
                                              "(GPUs attached to a VM you choose): they exclude the "
                                              "host VM's price, as their notes say"), s->file, s->gpu_only));
  if (s->skipped_cpu > 0)
    g_ptr_array_add (msgs, g_strdup_printf (_("%s: %u CPU-only rows skipped (no GPU)"), s->file, s->skipped_cpu));
  if (s->skipped_tpu > 0)
    g_ptr_array_add (msgs, g_strdup_printf (_("%s: %u TPU rows skipped (not GPUs)"), s->file, s->skipped_tpu));
  if (s->skipped_no_price > 0)
    g_ptr_array_add (msgs, g_strdup_printf (_("%s: %u GPU rows skipped: no price"), s->file, s->skipped_no_price));
  g_ptr_array_add (msgs, g_strdup_printf (_("%s: the file carries no date: its %u prices are dated %s, "
                                            "the day of the import"), s->file, s->quotes->len, s->seen));

  for (guint i = 0; i < s->quotes->len; i++)
    g_ptr_array_add (result->quotes, g_ptr_array_steal_index (s->quotes, i--));
  for (guint i = 0; i < msgs->len; i++)
    g_ptr_array_add (result->warnings, g_ptr_array_steal_index (msgs, i--));
}

/* ------------------------------------------------------------------------- */
/* SkyPilot                                                                   */

static int
skypilot_sniff (const char *data,
                gsize       len)
{
  const char *nl = memchr (data, '\n', MIN (len, 4096));
  g_autofree char *header = g_strndup (data, nl != NULL ? (gsize) (nl - data) : MIN (len, 4096));

  if (strstr (header, "InstanceType") != NULL && strstr (header, "AcceleratorName") != NULL &&
      strstr (header, "Price") != NULL)
    return 95;
  return 0;
}

typedef struct {
  int instance, acc, count, vcpus, mem, gpuinfo, region, zone, price, spot;
} SkyCols;

static const char *
cell (const ProcuraCsv *csv,
      guint             row,
      int               col)
{
  const char *v;

  if (col < 0)
    return NULL;
  v = procura_csv_get (csv, row, (guint) col);
  return (v != NULL && *v != '\0') ? v : NULL;
}

/* Name and per-GPU memory (GiB) from GpuInfo; the value may also be a plain name
 * (Azure). */
static void
read_gpuinfo (const char *text,
              char      **name,
              double     *gib)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o, *g0;
  JsonArray *gpus;

  *gib = NAN;
  *name = NULL;
  if (text == NULL)
    return;
  if (text[0] != '{')
    {
      *name = g_strdup (text);
      return;
    }
  node = procura_pyliteral_parse (text, -1, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  o = json_node_get_object (node);
  if (!json_object_has_member (o, "Gpus") || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "Gpus")))
    return;
  gpus = json_object_get_array_member (o, "Gpus");
  if (json_array_get_length (gpus) == 0 || !JSON_NODE_HOLDS_OBJECT (json_array_get_element (gpus, 0)))
    return;
  g0 = json_array_get_object_element (gpus, 0);
  if (json_object_has_member (g0, "Name") && JSON_NODE_HOLDS_VALUE (json_object_get_member (g0, "Name")) &&
      json_node_get_value_type (json_object_get_member (g0, "Name")) == G_TYPE_STRING)
    *name = g_strdup (json_object_get_string_member (g0, "Name"));
  if (json_object_has_member (g0, "MemoryInfo") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (g0, "MemoryInfo")))
    {
      JsonObject *mi = json_object_get_object_member (g0, "MemoryInfo");
      JsonNode *sz = json_object_get_member (mi, "SizeInMiB");
      if (sz != NULL && JSON_NODE_HOLDS_VALUE (sz) &&
          (json_node_get_value_type (sz) == G_TYPE_INT64 || json_node_get_value_type (sz) == G_TYPE_DOUBLE))
        *gib = json_node_get_double (sz) / 1024.0;
    }
}

/* GCP host VM families with built-in GPUs → accelerator name and count. */
static gboolean
gcp_host_gpus (const char  *instance,
               const char **acc,
               int         *count)
{
  static const struct { const char *prefix, *acc; } families[] = {
    { "a2-highgpu-", "A100" }, { "a2-megagpu-", "A100" }, { "a2-ultragpu-", "A100-80GB" },
    { "a3-highgpu-", "H100" }, { "a3-edgegpu-", "H100" }, { "a3-megagpu-", "H100-MEGA" },
    { "a3-ultragpu-", "H200" }, { "a4-highgpu-", "B200" }, { "a4x-highgpu-", "GB200" },
  };
  int n;

  for (gsize i = 0; i < G_N_ELEMENTS (families); i++)
    if (g_str_has_prefix (instance, families[i].prefix))
      {
        if (sscanf (instance + strlen (families[i].prefix), "%dg", &n) != 1 || n <= 0)
          return FALSE;
        *acc = families[i].acc;
        *count = n;
        return TRUE;
      }
  if (g_str_has_prefix (instance, "g2-standard-") &&
      sscanf (instance + strlen ("g2-standard-"), "%d", &n) == 1)
    {
      *acc = "L4";
      *count = n <= 32 ? 1 : n == 48 ? 4 : n == 96 ? 8 : 2;
      return n == 4 || n == 8 || n == 12 || n == 16 || n == 32 || n == 24 || n == 48 || n == 96;
    }
  return FALSE;
}

/* The cloud from its instance-type naming, when the file name does not say */
static const char *
provider_from_instances (const ProcuraCsv *csv,
                         int               col)
{
  guint n = procura_csv_n_rows (csv);

  for (guint r = 1; r < n && r < 200; r++)
    {
      const char *t = procura_csv_get (csv, r, (guint) col);
      const char *dot;

      if (t == NULL || *t == '\0')
        continue;
      if (g_str_has_prefix (t, "Standard_"))
        return "azure";
      if ((dot = strchr (t, '.')) != NULL && g_str_has_suffix (dot, "large"))
        return "aws";
      if (g_str_has_prefix (t, "gpu_") && strstr (t, "x_") != NULL)
        return "lambda";
      if (g_str_has_prefix (t, "gpu-") && strstr (t, "vcpu") != NULL)
        return "nebius";
      if (g_ascii_isdigit (t[0]) && strstr (t, "x-") != NULL)
        return "vast";
    }
  return "unknown";
}

typedef struct {
  const char *price, *spot;
  double      gib;
  guint       line;
  gboolean    used;
} GcpGpuRow;

static gboolean
skypilot_parse (const char          *name,
                const char          *data,
                gsize                len,
                ProcuraImportResult *result,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autoptr(ProcuraCsv) csv = NULL;
  g_autofree char *provider = NULL;
  g_autoptr(GHashTable) gcp_gpus = NULL;  /* "acc|count|region|zone" → GcpGpuRow* */
  SkyCols c;
  Sink s;
  guint n;
  gboolean split = FALSE;
  const char *file = name != NULL ? name : "vms.csv";

  csv = procura_csv_parse (file, data, len, ',', error);
  if (csv == NULL)
    return FALSE;
  c.instance = procura_csv_column (csv, "InstanceType");
  c.acc = procura_csv_column (csv, "AcceleratorName");
  c.count = procura_csv_column (csv, "AcceleratorCount");
  c.vcpus = procura_csv_column (csv, "vCPUs");
  c.mem = procura_csv_column (csv, "MemoryGiB");
  c.gpuinfo = procura_csv_column (csv, "GpuInfo");
  if (c.gpuinfo < 0)
    c.gpuinfo = procura_csv_column (csv, "GPUInfo");
  c.region = procura_csv_column (csv, "Region");
  c.zone = procura_csv_column (csv, "AvailabilityZone");
  c.price = procura_csv_column (csv, "Price");
  c.spot = procura_csv_column (csv, "SpotPrice");
  {
    const char *missing = c.instance < 0 ? "InstanceType" : c.acc < 0 ? "AcceleratorName" :
                          c.count < 0 ? "AcceleratorCount" : c.price < 0 ? "Price" : NULL;
    if (missing != NULL)
      {
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                     _("%s:1: header has no column \"%s\" (expected a SkyPilot vms.csv header)"),
                     file, missing);
        return FALSE;
      }
  }
  n = procura_csv_n_rows (csv);

  provider = provider_from_name (name);
  /* GCP's split: GPU rows without an InstanceType */
  gcp_gpus = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint r = 1; r < n; r++)
    if (cell (csv, r, c.instance) == NULL && cell (csv, r, c.acc) != NULL)
      {
        g_autofree char *gname = NULL;
        GcpGpuRow *g = g_new0 (GcpGpuRow, 1);
        double cnt = 0;

        split = TRUE;
        if (!parse_double (cell (csv, r, c.count), &cnt) || cnt < 0 || cnt > 1e6)
          cnt = 0;   /* not a GPU count: never matches a host */
        g->price = cell (csv, r, c.price);
        g->spot = cell (csv, r, c.spot);
        g->line = procura_csv_row_line (csv, r);
        read_gpuinfo (cell (csv, r, c.gpuinfo), &gname, &g->gib);
        g_hash_table_insert (gcp_gpus,
                             g_strdup_printf ("%s|%d|%s|%s", cell (csv, r, c.acc), (int) cnt,
                                              cell (csv, r, c.region) ? cell (csv, r, c.region) : "",
                                              cell (csv, r, c.zone) ? cell (csv, r, c.zone) : ""),
                             g);
      }
  if (provider == NULL)
    provider = g_strdup (split ? "gcp" : provider_from_instances (csv, c.instance));
  sink_init (&s, file, provider, "SkyPilot catalog");

  for (guint r = 1; r < n; r++)
    {
      const char *instance = cell (csv, r, c.instance);
      const char *acc = cell (csv, r, c.acc);
      const char *region = cell (csv, r, c.region);
      g_autofree char *info_name = NULL;
      double count = 0, host_gib = NAN, gib = NAN, hint;
      guint line = procura_csv_row_line (csv, r);

      if ((r & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          sink_clear (&s);
          return FALSE;
        }
      if (instance == NULL)
        continue;   /* GCP GPU rows: priced with their host below */
      if (acc == NULL)
        {
          const char *gpu_acc;
          int gpu_count;
          GcpGpuRow *g;
          g_autofree char *key = NULL;
          g_autofree char *sum = NULL, *spot_sum = NULL;
          double hp, gp, hs, gs;

          /* a GCP host VM with built-in GPUs? */
          if (!split || !gcp_host_gpus (instance, &gpu_acc, &gpu_count))
            {
              s.skipped_cpu++;
              continue;   /* CPU-only */
            }
          key = g_strdup_printf ("%s|%d|%s|%s", gpu_acc, gpu_count, region ? region : "",
                                 cell (csv, r, c.zone) ? cell (csv, r, c.zone) : "");
          g = g_hash_table_lookup (gcp_gpus, key);
          if (g == NULL)
            continue;   /* the GPUs are not offered in that zone */
          g->used = TRUE;
          parse_double (cell (csv, r, c.mem), &host_gib);
          hint = check_memory (&s, gpu_acc, gpu_count, g->gib, host_gib, g->line);
          if (parse_double (cell (csv, r, c.price), &hp) && parse_double (g->price, &gp))
            sum = g_strdup_printf ("%.6f", hp + gp);
          if (parse_double (cell (csv, r, c.spot), &hs) && hs > 0 && parse_double (g->spot, &gs) && gs > 0)
            spot_sum = g_strdup_printf ("%.6f", hs + gs);
          add_offers (&s, instance, gpu_acc, gpu_count, sum, spot_sum, region, hint,
                      "host VM price plus its GPUs' price (GCP lists them apart)");
          continue;
        }
      if (g_str_has_prefix (acc, "tpu-"))
        {
          s.skipped_tpu++;
          continue;
        }
      if (!parse_double (cell (csv, r, c.count), &count) || count < 1 || count != floor (count) || count > 1e6)
        {
          s.skipped_no_price++;
          continue;
        }
      parse_double (cell (csv, r, c.mem), &host_gib);
      read_gpuinfo (cell (csv, r, c.gpuinfo), &info_name, &gib);
      hint = check_memory (&s, acc, (int) count, gib, host_gib, line);
      add_offers (&s, instance, acc, (int) count, cell (csv, r, c.price), cell (csv, r, c.spot),
                  region, hint, NULL);
    }

  /* GCP GPU rows no host took: GPUs attached to a VM of the user's choice (n1-…),
   * in a stable (sorted) order */
  {
    g_autofree gpointer *keys = NULL;
    guint nk = 0;

    keys = g_hash_table_get_keys_as_array (gcp_gpus, &nk);
    qsort (keys, nk, sizeof (gpointer), compare_strings);
    for (guint i = 0; i < nk; i++)
      {
        GcpGpuRow *g = g_hash_table_lookup (gcp_gpus, keys[i]);
        g_auto(GStrv) parts = NULL;
        double hint;

        if (g->used)
          continue;
        parts = g_strsplit (keys[i], "|", 4);
        if (g_strv_length (parts) != 4 || atoi (parts[1]) < 1)
          continue;
        if (g_str_has_prefix (parts[0], "tpu-"))
          {
            s.skipped_tpu++;
            continue;
          }
        hint = check_memory (&s, parts[0], atoi (parts[1]), g->gib, NAN, g->line);
        s.gpu_only++;
        add_offers (&s, NULL, parts[0], atoi (parts[1]), g->price, g->spot,
                    *parts[2] != '\0' ? parts[2] : NULL, hint,
                    "GPUs only: add the price of the host VM they attach to");
      }
  }
  result->format_version = g_strdup (c.zone >= 0 ? "skypilot-vms (with AvailabilityZone)" : "skypilot-vms");
  sink_finish (&s, result);
  sink_clear (&s);
  return TRUE;
}

const ProcuraImporter procura_importer_skypilot_csv = {
  .id = "skypilot-vms-csv",
  .description = "SkyPilot catalog vms.csv (GPU prices)",
  .sniff = skypilot_sniff,
  .parse = skypilot_parse,
};

/* ------------------------------------------------------------------------- */
/* dstack gpuhunt                                                             */

static int
gpuhunt_sniff (const char *data,
               gsize       len)
{
  const char *nl = memchr (data, '\n', MIN (len, 4096));
  g_autofree char *header = g_strndup (data, nl != NULL ? (gsize) (nl - data) : MIN (len, 4096));

  if (strstr (header, "instance_name") != NULL && strstr (header, "gpu_name") != NULL &&
      strstr (header, "price") != NULL)
    return 95;
  return 0;
}

static int
column_prefix (const ProcuraCsv *csv,
               const char       *prefix)
{
  int col = procura_csv_column (csv, prefix);
  guint n;

  if (col >= 0)
    return col;
  /* "price ($/hr)", "gpu_memory (GB)" */
  n = procura_csv_n_fields (csv, 0);
  for (guint i = 0; i < n; i++)
    {
      const char *h = procura_csv_get (csv, 0, i);
      gsize pl = strlen (prefix);
      if (g_ascii_strncasecmp (h, prefix, pl) == 0 && (h[pl] == ' ' || h[pl] == '('))
        return (int) i;
    }
  return -1;
}

static gboolean
gpuhunt_parse (const char          *name,
               const char          *data,
               gsize                len,
               ProcuraImportResult *result,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autoptr(ProcuraCsv) csv = NULL;
  g_autofree char *provider = NULL;
  const char *file = name != NULL ? name : "catalog.csv";
  int ci, cl, cp, cm, ccount, cname, cgmem, cspot, cprov;
  Sink s;
  guint n;

  csv = procura_csv_parse (file, data, len, ',', error);
  if (csv == NULL)
    return FALSE;
  ci = column_prefix (csv, "instance_name");
  cl = column_prefix (csv, "location");
  cp = column_prefix (csv, "price");
  cm = column_prefix (csv, "memory");
  ccount = column_prefix (csv, "gpu_count");
  cname = column_prefix (csv, "gpu_name");
  cgmem = column_prefix (csv, "gpu_memory");
  cspot = column_prefix (csv, "spot");
  cprov = column_prefix (csv, "provider");
  {
    const char *missing = ci < 0 ? "instance_name" : cp < 0 ? "price" : ccount < 0 ? "gpu_count" :
                          cname < 0 ? "gpu_name" : NULL;
    if (missing != NULL)
      {
        g_set_error (error, PROCURA_IMPORT_ERROR, PROCURA_IMPORT_ERROR_SCHEMA,
                     _("%s:1: header has no column \"%s\" (expected a gpuhunt catalog header)"),
                     file, missing);
        return FALSE;
      }
  }
  provider = provider_from_name (name);
  sink_init (&s, file, provider != NULL ? provider : "unknown", "gpuhunt catalog");
  n = procura_csv_n_rows (csv);
  for (guint r = 1; r < n; r++)
    {
      const char *gpu = cell (csv, r, cname);
      const char *spot = cell (csv, r, cspot);
      const char *prov = cell (csv, r, cprov);
      double count = 0, gb = NAN, host = NAN, hint;
      gboolean is_spot;

      if ((r & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          sink_clear (&s);
          return FALSE;
        }
      if (gpu == NULL || !parse_double (cell (csv, r, ccount), &count) || count < 1)
        {
          s.skipped_cpu++;
          continue;   /* CPU-only */
        }
      if (count != floor (count) || count > 1e6)
        {
          s.skipped_no_price++;
          continue;
        }
      parse_double (cell (csv, r, cgmem), &gb);
      parse_double (cell (csv, r, cm), &host);
      /* gpuhunt states GB per GPU; check_memory takes GiB */
      hint = check_memory (&s, gpu, (int) count, gb * 1e9 / 1073741824.0, host * 1e9 / 1073741824.0, procura_csv_row_line (csv, r));
      is_spot = spot != NULL && (g_ascii_strcasecmp (spot, "true") == 0 || g_str_equal (spot, "1"));
      if (prov != NULL && provider == NULL)
        {
          g_free (s.provider);
          s.provider = g_strdup (prov);
        }
      add_offers (&s, cell (csv, r, ci), gpu, (int) count,
                  is_spot ? NULL : cell (csv, r, cp), is_spot ? cell (csv, r, cp) : NULL,
                  cell (csv, r, cl), hint, NULL);
    }
  result->format_version = g_strdup ("gpuhunt");
  sink_finish (&s, result);
  sink_clear (&s);
  return TRUE;
}

const ProcuraImporter procura_importer_gpuhunt_csv = {
  .id = "gpuhunt-csv",
  .description = "dstack gpuhunt catalog CSV (GPU prices)",
  .sniff = gpuhunt_sniff,
  .parse = gpuhunt_parse,
};

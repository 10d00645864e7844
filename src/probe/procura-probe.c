/* procura-probe.c: the bundled CUDA fit probe (plain C11 + libc + dlopen)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * procura-probe [--device N[,M...]] [--plan FILE|-] [--inventory] [--bandwidth]
 *               [--time-limit S] [--json]
 *
 * Speaks JSON Lines on stdout (docs/probe.md): hello, device, progress, result, error,
 * done. Diagnostics go to stderr only. It dlopens libcuda.so.1 and libnvidia-ml.so.1
 * at run time (PROCURA_PROBE_LIBCUDA / PROCURA_PROBE_LIBNVML name other paths), loads
 * its kernels from embedded PTX, frees everything before it exits, and never changes
 * clocks, power limits, MIG or persistence settings.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe-driver.h"
#include "probe-json.h"
#include "procura-probe-protocol.h"
#include "procura-kernels-ptx.h"

#define PROBE_VERSION      "0.1.0"
#define MAX_DEVICES        64
#define MAX_ALLOCS         100000
#define MAX_EXTRA_BLOCKS   (1u << 20)
#define MAX_PLAN_BYTES     (16u << 20)
#define GRANULARITY        ((size_t) 2 << 20)   /* 2 MiB, cuMemAlloc's large-page size */
#define BW_ITERATIONS      5
#define HOST_BUFFER_BYTES  ((size_t) 256 << 20)
#define SCRATCH_MAX_BYTES  ((size_t) 1 << 30)

/* ------------------------------------------------------------------------- */
/* State                                                                      */

typedef struct {
  char       *name;
  char        kind[16];      /* weights, kv, activation, other */
  size_t      bytes;
  CUdeviceptr ptr;
} ProbeAlloc;

typedef struct {
  size_t       kv_block_bytes;
  double       kv_read_bytes;   /* NAN: the whole KV pool */
  ProbeAlloc  *allocs;
  size_t       n_allocs;
} PlanGpu;

typedef struct {
  char    *name;
  size_t   kv_block_bytes;
  long     block_size;       /* tokens per block, -1 unknown */
  long     sequences;        /* -1 unknown */
  PlanGpu *gpus;
  size_t   n_gpus;
} Plan;

typedef struct {
  int          ordinal;
  CUdevice     dev;
  CUcontext    ctx;
  bool         retained;
  char         name[256];
  int          sms;
  CUdeviceptr *extra;
  size_t       n_extra;
  CUdeviceptr  scratch;
  size_t       scratch_bytes;
  CUdeviceptr  out_word;
  CUmodule     module;
  CUfunction   fn_read;
  CUevent      ev[2];
  double       read_gbps;
  bool         fit_ran;
  bool         fits;
} Gpu;

static ProbeCuda cuda;
static ProbeNvml nvml;
static bool have_nvml;
static Gpu gpus[MAX_DEVICES];
static int n_gpus;
static Plan plan;
static bool have_plan;
static void *host_buffer;
static size_t host_bytes;
static PjWriter writer;

static volatile sig_atomic_t stop_signal;
static double deadline;          /* CLOCK_MONOTONIC seconds */
static int time_limit = PROCURA_PROBE_DEFAULT_TIME_LIMIT;
static int exit_code = PROCURA_PROBE_EXIT_OK;
static bool stdout_broken;

/* ------------------------------------------------------------------------- */
/* Output                                                                     */

static void
write_all (const char *s,
           size_t      n)
{
  while (n > 0 && !stdout_broken)
    {
      ssize_t w = write (STDOUT_FILENO, s, n);

      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          stdout_broken = true;
          return;
        }
      s += w;
      n -= (size_t) w;
    }
}

static void
emit (void)
{
  const char *line = pj_end (&writer);

  write_all (line, strlen (line));
}

static void
emit_error (const char *kind,
            const char *detail_format,
            ...) __attribute__ ((format (printf, 2, 3)));

static void
emit_error (const char *kind,
            const char *detail_format,
            ...)
{
  char detail[1024];
  va_list ap;

  va_start (ap, detail_format);
  vsnprintf (detail, sizeof detail, detail_format, ap);
  va_end (ap);
  fprintf (stderr, "procura-probe: %s: %s\n", kind, detail);
  pj_begin (&writer, "error");
  pj_key_str (&writer, "kind", kind);
  pj_key_str (&writer, "detail", detail);
  emit ();
}

static void
emit_progress (const char *step,
               int         device,
               size_t      done,
               size_t      total)
{
  /* at most ~20 lines per step: the first, every 5 %, the last */
  if (done != 1 && done != total && total > 20
      && (done * 20) / total == ((done - 1) * 20) / total)
    return;
  pj_begin (&writer, "progress");
  pj_key_str (&writer, "step", step);
  pj_key_int (&writer, "device", device);
  pj_key_uint (&writer, "done", done);
  pj_key_uint (&writer, "total", total);
  emit ();
}

static void
emit_done (void)
{
  pj_begin (&writer, "done");
  pj_key_str (&writer, "status", exit_code == PROCURA_PROBE_EXIT_OK ? "ok" : "failed");
  pj_key_int (&writer, "exit_code", exit_code);
  emit ();
}

/* ------------------------------------------------------------------------- */
/* Signals and the time limit                                                 */

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void
on_stop_signal (int sig)
{
  if (stop_signal == 0)
    {
      stop_signal = sig;
      /* if a driver call does not return within 2 s, the alarm ends the process */
      alarm (2);
    }
}

/* The lines the alarm writes while a driver call of the start (loading the library,
 * nvmlInit, cuInit) runs: nothing has been said yet, so a hello first, then what did
 * not answer. Prepared outside the handler (which only write()s), empty otherwise. */
static char start_alarm_lines[1024];
static volatile sig_atomic_t start_alarm_len;

/* Arms the start's watchdog for @step: when it does not return within @seconds, the
 * probe says that the driver did not answer in @step and exits with the time limit's
 * code (PROCURA_PROBE_EXIT_TIMEOUT). */
static void
start_step (const char *step,
            int         seconds)
{
  int n;

  start_alarm_len = 0;
  n = snprintf (start_alarm_lines, sizeof start_alarm_lines,
                "{\"event\":\"hello\",\"protocol\":%d,\"probe_version\":\"%s\","
                "\"driver_version\":null,\"cuda_version\":null,\"time_limit_s\":%d,\"pid\":%lld}\n"
                "{\"event\":\"error\",\"kind\":\"timeout\",\"step\":\"%s\","
                "\"detail\":\"the NVIDIA driver did not answer: %s did not return within %d s\"}\n"
                "{\"event\":\"done\",\"status\":\"failed\",\"exit_code\":%d}\n",
                PROCURA_PROBE_PROTOCOL, PROBE_VERSION, time_limit, (long long) getpid (),
                step, step, seconds, PROCURA_PROBE_EXIT_TIMEOUT);
  if (n > 0 && (size_t) n < sizeof start_alarm_lines)
    start_alarm_len = n;
  alarm ((unsigned) seconds);
}

static int
start_timeout (void)
{
  return time_limit < PROCURA_PROBE_START_TIMEOUT ? time_limit : PROCURA_PROBE_START_TIMEOUT;
}

/* The start is over: the hard time limit's alarm again. */
static void
start_done (void)
{
  double left = deadline - now_s ();

  start_alarm_len = 0;
  alarm ((unsigned) (left > 0 ? left : 0) + 2);
}

static void
on_alarm (int sig)
{
  static const char timeout_lines[] =
    "{\"event\":\"error\",\"kind\":\"timeout\",\"detail\":\"a driver call did not return before the time limit\"}\n"
    "{\"event\":\"done\",\"status\":\"failed\",\"exit_code\":5}\n";
  static const char interrupted_lines[] =
    "{\"event\":\"error\",\"kind\":\"interrupted\",\"detail\":\"a driver call did not return within 2 s of the signal\"}\n"
    "{\"event\":\"done\",\"status\":\"failed\",\"exit_code\":6}\n";
  ssize_t ignored;

  (void) sig;
  if (start_alarm_len > 0 && stop_signal == 0)
    {
      ignored = write (STDOUT_FILENO, start_alarm_lines, (size_t) start_alarm_len);
      (void) ignored;
      _exit (PROCURA_PROBE_EXIT_TIMEOUT);
    }
  /* the driver releases a dead process's memory; the process must not hang */
  if (stop_signal != 0)
    {
      ignored = write (STDOUT_FILENO, interrupted_lines, sizeof interrupted_lines - 1);
      (void) ignored;
      _exit (PROCURA_PROBE_EXIT_INTERRUPTED);
    }
  ignored = write (STDOUT_FILENO, timeout_lines, sizeof timeout_lines - 1);
  (void) ignored;
  _exit (PROCURA_PROBE_EXIT_TIMEOUT);
}

static void
install_signals (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_handler = on_stop_signal;
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  sa.sa_handler = SIG_IGN;
  sigaction (SIGPIPE, &sa, NULL);
}

/* Returns true (and reports once) when the probe must stop: a signal, the time
 * limit, or a closed stdout. */
static bool
must_stop (void)
{
  static bool reported;

  if (stop_signal != 0 || stdout_broken)
    {
      if (!reported)
        {
          reported = true;
          exit_code = stdout_broken ? PROCURA_PROBE_EXIT_INTERNAL : PROCURA_PROBE_EXIT_INTERRUPTED;
          if (!stdout_broken)
            emit_error ("interrupted", "stopped by signal %d; freeing everything", (int) stop_signal);
        }
      return true;
    }
  if (now_s () > deadline)
    {
      if (!reported)
        {
          reported = true;
          exit_code = PROCURA_PROBE_EXIT_TIMEOUT;
          emit_error ("timeout", "the time limit of %d s was reached; freeing everything", time_limit);
        }
      return true;
    }
  return false;
}

/* ------------------------------------------------------------------------- */
/* Plan                                                                       */

static bool
plan_size (const PjValue *v,
           size_t        *out)
{
  if (v == NULL || v->type != PJ_NUMBER || v->number < 0 || v->number > 1e18
      || v->number != floor (v->number))
    return false;
  *out = (size_t) v->number;
  return true;
}

static void
plan_clear (Plan *p)
{
  size_t i, j;

  for (i = 0; i < p->n_gpus; i++)
    {
      for (j = 0; j < p->gpus[i].n_allocs; j++)
        free (p->gpus[i].allocs[j].name);
      free (p->gpus[i].allocs);
    }
  free (p->gpus);
  free (p->name);
  memset (p, 0, sizeof *p);
}

/* Fills @p from the plan document; on error writes "key path: problem" to @err. */
static bool
plan_from_json (Plan          *p,
                const PjValue *root,
                char          *err,
                size_t         err_len)
{
  const PjValue *v, *list;
  size_t default_block = 0, i;

  memset (p, 0, sizeof *p);
  p->block_size = -1;
  p->sequences = -1;
  if (root->type != PJ_OBJECT)
    {
      snprintf (err, err_len, "the plan must be a JSON object");
      return false;
    }
  v = pj_get (root, "name");
  if (v != NULL && v->type == PJ_STRING)
    p->name = strdup (v->string);
  v = pj_get (root, "kv_block_bytes");
  if (v != NULL && !plan_size (v, &default_block))
    {
      snprintf (err, err_len, "kv_block_bytes: expected a non-negative integer");
      return false;
    }
  p->kv_block_bytes = default_block;
  v = pj_get (root, "block_size");
  if (v != NULL && v->type == PJ_NUMBER && v->number >= 1)
    p->block_size = (long) v->number;
  v = pj_get (root, "sequences");
  if (v != NULL && v->type == PJ_NUMBER && v->number >= 1)
    p->sequences = (long) v->number;

  list = pj_get (root, "gpus");
  if (list == NULL || list->type != PJ_ARRAY || list->n == 0)
    {
      snprintf (err, err_len, "gpus: expected a non-empty array (one entry per GPU)");
      return false;
    }
  if (list->n > MAX_DEVICES)
    {
      snprintf (err, err_len, "gpus: at most %d GPUs", MAX_DEVICES);
      return false;
    }
  p->gpus = calloc (list->n, sizeof *p->gpus);
  if (p->gpus == NULL)
    return false;
  p->n_gpus = list->n;

  for (i = 0; i < list->n; i++)
    {
      const PjValue *g = list->items[i], *allocs;
      PlanGpu *pg = &p->gpus[i];
      size_t j, total = 0;

      if (g->type != PJ_OBJECT)
        {
          snprintf (err, err_len, "gpus[%zu]: expected an object", i);
          return false;
        }
      pg->kv_block_bytes = default_block;
      v = pj_get (g, "kv_block_bytes");
      if (v != NULL && !plan_size (v, &pg->kv_block_bytes))
        {
          snprintf (err, err_len, "gpus[%zu].kv_block_bytes: expected a non-negative integer", i);
          return false;
        }
      pg->kv_read_bytes = NAN;
      v = pj_get (g, "kv_read_bytes_per_step");
      if (v != NULL)
        {
          if (v->type != PJ_NUMBER || v->number < 0)
            {
              snprintf (err, err_len, "gpus[%zu].kv_read_bytes_per_step: expected a non-negative number", i);
              return false;
            }
          pg->kv_read_bytes = v->number;
        }
      allocs = pj_get (g, "allocations");
      if (allocs == NULL || allocs->type != PJ_ARRAY)
        {
          snprintf (err, err_len, "gpus[%zu].allocations: expected an array", i);
          return false;
        }
      /* count first (each entry may repeat with "count") */
      for (j = 0; j < allocs->n; j++)
        {
          const PjValue *c = pj_get (allocs->items[j], "count");
          size_t count = 1;

          if (c != NULL && (!plan_size (c, &count) || count < 1))
            {
              snprintf (err, err_len, "gpus[%zu].allocations[%zu].count: expected a positive integer", i, j);
              return false;
            }
          total += count;
          if (total > MAX_ALLOCS)
            {
              snprintf (err, err_len, "gpus[%zu].allocations: more than %d allocations", i, MAX_ALLOCS);
              return false;
            }
        }
      pg->allocs = calloc (total ? total : 1, sizeof *pg->allocs);
      if (pg->allocs == NULL)
        return false;
      for (j = 0; j < allocs->n; j++)
        {
          const PjValue *a = allocs->items[j];
          const PjValue *name = pj_get (a, "name"), *kind = pj_get (a, "kind"), *c = pj_get (a, "count");
          size_t bytes, count = 1, k;

          if (a->type != PJ_OBJECT)
            {
              snprintf (err, err_len, "gpus[%zu].allocations[%zu]: expected an object", i, j);
              return false;
            }
          if (!plan_size (pj_get (a, "bytes"), &bytes) || bytes == 0)
            {
              snprintf (err, err_len, "gpus[%zu].allocations[%zu].bytes: expected a positive integer", i, j);
              return false;
            }
          if (kind == NULL || kind->type != PJ_STRING
              || (strcmp (kind->string, "weights") != 0 && strcmp (kind->string, "kv") != 0
                  && strcmp (kind->string, "activation") != 0 && strcmp (kind->string, "other") != 0))
            {
              snprintf (err, err_len, "gpus[%zu].allocations[%zu].kind: expected \"weights\", \"kv\", \"activation\" or \"other\"", i, j);
              return false;
            }
          if (name != NULL && name->type != PJ_STRING)
            {
              snprintf (err, err_len, "gpus[%zu].allocations[%zu].name: expected a string", i, j);
              return false;
            }
          if (c != NULL)
            plan_size (c, &count);
          for (k = 0; k < count; k++)
            {
              ProbeAlloc *pa = &pg->allocs[pg->n_allocs++];
              char buf[320];

              if (count > 1)
                snprintf (buf, sizeof buf, "%.256s.%zu", name ? name->string : kind->string, k);
              else
                snprintf (buf, sizeof buf, "%.256s", name ? name->string : kind->string);
              pa->name = strdup (buf);
              if (pa->name == NULL)
                return false;
              snprintf (pa->kind, sizeof pa->kind, "%s", kind->string);
              pa->bytes = bytes;
            }
        }
    }
  return true;
}

static char *
read_all (FILE   *f,
          size_t *len)
{
  size_t cap = 65536, n = 0;
  char *buf = malloc (cap + 1);

  if (buf == NULL)
    return NULL;
  for (;;)
    {
      size_t r;

      if (n == cap)
        {
          char *nb;

          if (cap >= MAX_PLAN_BYTES)
            {
              free (buf);
              errno = EFBIG;
              return NULL;
            }
          cap *= 2;
          nb = realloc (buf, cap + 1);
          if (nb == NULL)
            {
              free (buf);
              return NULL;
            }
          buf = nb;
        }
      r = fread (buf + n, 1, cap - n, f);
      n += r;
      if (r == 0)
        break;
    }
  if (ferror (f))
    {
      free (buf);
      return NULL;
    }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Returns true when the plan loaded; otherwise has emitted a bad-plan error. */
static bool
load_plan (const char *path)
{
  FILE *f;
  char *text, err[512];
  size_t len = 0;
  PjValue *root;
  bool ok;

  f = strcmp (path, "-") == 0 ? stdin : fopen (path, "rb");
  if (f == NULL)
    {
      emit_error ("bad-plan", "%s: %s", path, strerror (errno));
      return false;
    }
  text = read_all (f, &len);
  if (f != stdin)
    fclose (f);
  if (text == NULL)
    {
      emit_error ("bad-plan", "%s: cannot read: %s", path, strerror (errno));
      return false;
    }
  if (strlen (text) != len)
    {
      emit_error ("bad-plan", "%s: the plan contains a NUL byte", path);
      free (text);
      return false;
    }
  root = pj_parse (text, err, sizeof err);
  free (text);
  if (root == NULL)
    {
      emit_error ("bad-plan", "%s: %s", strcmp (path, "-") == 0 ? "stdin" : path, err);
      return false;
    }
  err[0] = '\0';
  ok = plan_from_json (&plan, root, err, sizeof err);
  pj_free (root);
  if (!ok)
    {
      emit_error ("bad-plan", "%s: %s", strcmp (path, "-") == 0 ? "stdin" : path,
                  err[0] ? err : "out of memory");
      plan_clear (&plan);
      return false;
    }
  return true;
}

/* ------------------------------------------------------------------------- */
/* Driver helpers                                                             */

static const char *
cu_name (CUresult r)
{
  static char buf[32];

  return probe_cuda_error_name (&cuda, r, buf, sizeof buf);
}

static bool
gpu_activate (Gpu *g)
{
  CUresult r;

  if (!g->retained)
    {
      r = cuda.DevicePrimaryCtxRetain (&g->ctx, g->dev);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: cuDevicePrimaryCtxRetain: %s", g->ordinal, cu_name (r));
          return false;
        }
      g->retained = true;
    }
  r = cuda.CtxSetCurrent (g->ctx);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: cuCtxSetCurrent: %s", g->ordinal, cu_name (r));
      return false;
    }
  return true;
}

static void
gpu_free_extra (Gpu *g)
{
  while (g->n_extra > 0)
    cuda.MemFree (g->extra[--g->n_extra]);
  free (g->extra);
  g->extra = NULL;
}

static void
cleanup (void)
{
  int i;
  size_t j;

  for (i = 0; i < n_gpus; i++)
    {
      Gpu *g = &gpus[i];

      if (!g->retained)
        continue;
      cuda.CtxSetCurrent (g->ctx);
      cuda.CtxSynchronize ();
      gpu_free_extra (g);
      if ((size_t) i < plan.n_gpus)
        for (j = plan.gpus[i].n_allocs; j > 0; j--)
          if (plan.gpus[i].allocs[j - 1].ptr != 0)
            {
              cuda.MemFree (plan.gpus[i].allocs[j - 1].ptr);
              plan.gpus[i].allocs[j - 1].ptr = 0;
            }
      if (g->scratch != 0)
        cuda.MemFree (g->scratch);
      if (g->out_word != 0)
        cuda.MemFree (g->out_word);
      g->scratch = g->out_word = 0;
      if (g->ev[0] != NULL)
        cuda.EventDestroy (g->ev[0]);
      if (g->ev[1] != NULL)
        cuda.EventDestroy (g->ev[1]);
      g->ev[0] = g->ev[1] = NULL;
      if (g->module != NULL)
        cuda.ModuleUnload (g->module);
      g->module = NULL;
      if (host_buffer != NULL && i == 0)
        {
          cuda.MemFreeHost (host_buffer);
          host_buffer = NULL;
        }
      cuda.CtxSetCurrent (NULL);
      cuda.DevicePrimaryCtxRelease (g->dev);
      g->retained = false;
    }
  /* a pinned buffer is freed in the first context's loop above */
  plan_clear (&plan);
}

/* ------------------------------------------------------------------------- */
/* Inventory                                                                  */

static nvmlDevice_t
nvml_handle (Gpu *g)
{
  int domain = 0, bus = 0, slot = 0;
  nvmlDevice_t h = NULL;
  char bus_id[32];

  if (!have_nvml || nvml.DeviceGetHandleByPciBusId == NULL)
    return NULL;
  if (cuda.DeviceGetAttribute (&domain, CU_ATTR_PCI_DOMAIN_ID, g->dev) != CUDA_SUCCESS
      || cuda.DeviceGetAttribute (&bus, CU_ATTR_PCI_BUS_ID, g->dev) != CUDA_SUCCESS
      || cuda.DeviceGetAttribute (&slot, CU_ATTR_PCI_DEVICE_ID, g->dev) != CUDA_SUCCESS)
    return NULL;
  /* the form of nvmlPciInfo_t.busId */
  snprintf (bus_id, sizeof bus_id, "%08X:%02X:%02X.0", (unsigned) domain, (unsigned) bus, (unsigned) slot);
  if (nvml.DeviceGetHandleByPciBusId (bus_id, &h) != NVML_SUCCESS)
    return NULL;
  return h;
}

static void
key_attr (PjWriter   *w,
          const char *key,
          Gpu        *g,
          int         attribute,
          double      scale)
{
  int value = 0;

  if (cuda.DeviceGetAttribute (&value, attribute, g->dev) == CUDA_SUCCESS)
    pj_key_double (w, key, value * scale);
  else
    pj_key_null (w, key);
}

static void
key_nvml_uint (PjWriter     *w,
               const char   *key,
               nvmlDevice_t  h,
               nvmlReturn_t (*fn) (nvmlDevice_t, unsigned int *))
{
  unsigned int v = 0;

  if (h != NULL && fn != NULL && fn (h, &v) == NVML_SUCCESS)
    pj_key_uint (w, key, v);
  else
    pj_key_null (w, key);
}

static void
key_nvml_clock (PjWriter     *w,
                const char   *key,
                nvmlDevice_t  h,
                nvmlReturn_t (*fn) (nvmlDevice_t, int, unsigned int *),
                int           type)
{
  unsigned int v = 0;

  if (h != NULL && fn != NULL && fn (h, type, &v) == NVML_SUCCESS)
    pj_key_uint (w, key, v);
  else
    pj_key_null (w, key);
}

static void
format_uuid (const CUuuid *u,
             char         *out,
             size_t        len)
{
  const unsigned char *b = (const unsigned char *) u->bytes;

  snprintf (out, len,
            "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
            b[12], b[13], b[14], b[15]);
}

static bool
inventory_device (Gpu *g)
{
  size_t total = 0;
  int major = -1, minor = -1, domain = -1, bus = -1, slot = -1;
  char text[256], cc[32];
  nvmlDevice_t h = nvml_handle (g);
  nvmlMemory_t mem;
  CUuuid uuid;
  CUresult r;

  r = cuda.DeviceTotalMem (&total, g->dev);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: cuDeviceTotalMem: %s", g->ordinal, cu_name (r));
      return false;
    }
  pj_begin (&writer, "device");
  pj_key_int (&writer, "index", g->ordinal);
  pj_key_str (&writer, "name", g->name);

  text[0] = '\0';
  if (h != NULL && nvml.DeviceGetUUID != NULL && nvml.DeviceGetUUID (h, text, sizeof text) == NVML_SUCCESS)
    pj_key_str (&writer, "uuid", text);
  else if (cuda.DeviceGetUuid != NULL && cuda.DeviceGetUuid (&uuid, g->dev) == CUDA_SUCCESS)
    {
      format_uuid (&uuid, text, sizeof text);
      pj_key_str (&writer, "uuid", text);
    }
  else
    pj_key_null (&writer, "uuid");

  cuda.DeviceGetAttribute (&major, CU_ATTR_CC_MAJOR, g->dev);
  cuda.DeviceGetAttribute (&minor, CU_ATTR_CC_MINOR, g->dev);
  if (major >= 0 && minor >= 0)
    {
      snprintf (cc, sizeof cc, "%d.%d", major, minor);
      pj_key_str (&writer, "cc", cc);
    }
  else
    pj_key_null (&writer, "cc");
  if (cuda.DeviceGetAttribute (&g->sms, CU_ATTR_MULTIPROCESSOR_COUNT, g->dev) == CUDA_SUCCESS)
    pj_key_int (&writer, "sms", g->sms);
  else
    pj_key_null (&writer, "sms");
  pj_key_uint (&writer, "total_bytes", total);
  if (h != NULL && nvml.DeviceGetMemoryInfo != NULL && nvml.DeviceGetMemoryInfo (h, &mem) == NVML_SUCCESS)
    {
      pj_key_uint (&writer, "free_bytes", mem.free);
      pj_key_str (&writer, "free_source", "nvml");
    }
  else
    {
      pj_key_null (&writer, "free_bytes");
      pj_key_null (&writer, "free_source");
    }
  key_attr (&writer, "sm_clock_mhz", g, CU_ATTR_CLOCK_RATE, 1e-3);
  key_attr (&writer, "memory_clock_mhz", g, CU_ATTR_MEMORY_CLOCK_RATE, 1e-3);
  key_attr (&writer, "memory_bus_bits", g, CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH, 1.0);
  key_nvml_clock (&writer, "sm_clock_max_mhz", h, nvml.DeviceGetMaxClockInfo, NVML_CLOCK_SM);
  key_nvml_clock (&writer, "memory_clock_max_mhz", h, nvml.DeviceGetMaxClockInfo, NVML_CLOCK_MEM);
  key_nvml_clock (&writer, "sm_clock_now_mhz", h, nvml.DeviceGetClockInfo, NVML_CLOCK_SM);

  if (cuda.DeviceGetAttribute (&domain, CU_ATTR_PCI_DOMAIN_ID, g->dev) == CUDA_SUCCESS
      && cuda.DeviceGetAttribute (&bus, CU_ATTR_PCI_BUS_ID, g->dev) == CUDA_SUCCESS
      && cuda.DeviceGetAttribute (&slot, CU_ATTR_PCI_DEVICE_ID, g->dev) == CUDA_SUCCESS)
    {
      snprintf (text, sizeof text, "%04x:%02x:%02x.0", (unsigned) domain, (unsigned) bus, (unsigned) slot);
      pj_key_str (&writer, "pci_bus_id", text);
    }
  else
    pj_key_null (&writer, "pci_bus_id");
  pj_open_object (&writer, "pcie");
  key_nvml_uint (&writer, "gen", h, nvml.DeviceGetCurrPcieLinkGeneration);
  key_nvml_uint (&writer, "width", h, nvml.DeviceGetCurrPcieLinkWidth);
  key_nvml_uint (&writer, "max_gen", h, nvml.DeviceGetMaxPcieLinkGeneration);
  key_nvml_uint (&writer, "max_width", h, nvml.DeviceGetMaxPcieLinkWidth);
  pj_close_object (&writer);

  if (h != NULL && nvml.DeviceGetNvLinkState != NULL)
    {
      unsigned int link, links = 0, active = 0;

      for (link = 0; link < NVML_NVLINK_MAX_LINKS; link++)
        {
          int state = 0;

          if (nvml.DeviceGetNvLinkState (h, link, &state) == NVML_SUCCESS)
            {
              links++;
              if (state == 1)
                active++;
            }
        }
      pj_key_uint (&writer, "nvlink_links", links);
      pj_key_uint (&writer, "nvlink_active", active);
    }
  else
    {
      pj_key_null (&writer, "nvlink_links");
      pj_key_null (&writer, "nvlink_active");
    }

  {
    int current = 0, pending = 0, ecc = 0;

    if (h != NULL && nvml.DeviceGetEccMode != NULL
        && nvml.DeviceGetEccMode (h, &current, &pending) == NVML_SUCCESS)
      pj_key_bool (&writer, "ecc", current == 1);
    else if (cuda.DeviceGetAttribute (&ecc, CU_ATTR_ECC_ENABLED, g->dev) == CUDA_SUCCESS)
      pj_key_bool (&writer, "ecc", ecc != 0);
    else
      pj_key_null (&writer, "ecc");
  }

  {
    unsigned int current = 0, pending = 0, max_count = 0, k;

    if (h != NULL && nvml.DeviceGetMigMode != NULL
        && nvml.DeviceGetMigMode (h, &current, &pending) == NVML_SUCCESS)
      pj_key_str (&writer, "mig_mode", current == 1 ? "enabled" : "disabled");
    else
      {
        pj_key_null (&writer, "mig_mode");
        current = 0;
      }
    pj_open_array (&writer, "mig_instances");
    if (current == 1 && nvml.DeviceGetMaxMigDeviceCount != NULL
        && nvml.DeviceGetMigDeviceHandleByIndex != NULL
        && nvml.DeviceGetMaxMigDeviceCount (h, &max_count) == NVML_SUCCESS)
      {
        for (k = 0; k < max_count && k < 64; k++)
          {
            nvmlDevice_t mig = NULL;
            /* slack in case a newer driver's struct is longer than ours */
            struct { nvmlDeviceAttributes_t a; unsigned char slack[128]; } attr;

            if (nvml.DeviceGetMigDeviceHandleByIndex (h, k, &mig) != NVML_SUCCESS)
              continue;
            pj_open_object (&writer, NULL);
            pj_key_uint (&writer, "index", k);
            if (nvml.DeviceGetUUID != NULL && nvml.DeviceGetUUID (mig, text, sizeof text) == NVML_SUCCESS)
              pj_key_str (&writer, "uuid", text);
            else
              pj_key_null (&writer, "uuid");
            if (nvml.DeviceGetName != NULL && nvml.DeviceGetName (mig, text, sizeof text) == NVML_SUCCESS)
              pj_key_str (&writer, "name", text);
            else
              pj_key_null (&writer, "name");
            memset (&attr, 0, sizeof attr);
            if (nvml.DeviceGetAttributes != NULL && nvml.DeviceGetAttributes (mig, &attr.a) == NVML_SUCCESS)
              pj_key_uint (&writer, "sms", attr.a.multiprocessorCount);
            else
              pj_key_null (&writer, "sms");
            if (nvml.DeviceGetMemoryInfo != NULL && nvml.DeviceGetMemoryInfo (mig, &mem) == NVML_SUCCESS)
              {
                pj_key_uint (&writer, "total_bytes", mem.total);
                pj_key_uint (&writer, "free_bytes", mem.free);
              }
            else
              {
                pj_key_null (&writer, "total_bytes");
                pj_key_null (&writer, "free_bytes");
              }
            pj_close_object (&writer);
          }
      }
    pj_close_array (&writer);
  }
  emit ();
  return true;
}

/* ------------------------------------------------------------------------- */
/* Fit                                                                        */

static size_t
round_down (size_t bytes)
{
  return bytes - bytes % GRANULARITY;
}

/* Largest single block still allocatable (binary search, 2 MiB steps). */
static bool
largest_block (Gpu    *g,
               size_t  free_bytes,
               size_t *out)
{
  size_t lo = 0, hi = round_down (free_bytes) + GRANULARITY;
  CUdeviceptr p;
  CUresult r;

  /* invariant: lo allocates (or is 0), hi does not */
  while (hi - lo > GRANULARITY)
    {
      size_t mid = lo + round_down ((hi - lo) / 2);

      if (mid == lo)
        mid = lo + GRANULARITY;
      if (must_stop ())
        return false;
      r = cuda.MemAlloc (&p, mid);
      if (r == CUDA_SUCCESS)
        {
          cuda.MemFree (p);
          lo = mid;
        }
      else if (r == CUDA_ERROR_OUT_OF_MEMORY)
        hi = mid;
      else
        {
          emit_error ("cuda-error", "device %d: cuMemAlloc (largest block): %s", g->ordinal, cu_name (r));
          exit_code = PROCURA_PROBE_EXIT_DRIVER;
          return false;
        }
    }
  *out = lo;
  return true;
}

static bool
fit_device (Gpu     *g,
            PlanGpu *pg)
{
  size_t free_before = 0, free_after = 0, total = 0, i, allocated = 0, required = 0;
  size_t largest = 0, extra_cap = 0;
  long failed = -1;
  CUresult r, fail_r = CUDA_SUCCESS;
  const char *kinds[] = { "weights", "activation", "kv", "other" };
  size_t kind_total[4] = { 0 }, kind_done[4] = { 0 };
  char step[32];

  if (!gpu_activate (g))
    return false;
  g->fit_ran = true;
  r = cuda.MemGetInfo (&free_before, &total);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: cuMemGetInfo: %s", g->ordinal, cu_name (r));
      return false;
    }
  for (i = 0; i < pg->n_allocs; i++)
    {
      int k;

      required += pg->allocs[i].bytes;
      for (k = 0; k < 4; k++)
        if (strcmp (pg->allocs[i].kind, kinds[k]) == 0)
          kind_total[k]++;
    }

  /* allocate in plan order, as the engine would */
  for (i = 0; i < pg->n_allocs; i++)
    {
      ProbeAlloc *a = &pg->allocs[i];
      int k;

      if (must_stop ())
        return false;
      r = cuda.MemAlloc (&a->ptr, a->bytes);
      if (r != CUDA_SUCCESS)
        {
          a->ptr = 0;
          if (r != CUDA_ERROR_OUT_OF_MEMORY)
            {
              emit_error ("cuda-error", "device %d: cuMemAlloc of %s (%zu bytes): %s",
                          g->ordinal, a->name, a->bytes, cu_name (r));
              exit_code = PROCURA_PROBE_EXIT_DRIVER;
              return false;
            }
          failed = (long) i;
          fail_r = r;
          break;
        }
      allocated += a->bytes;
      for (k = 0; k < 4; k++)
        if (strcmp (a->kind, kinds[k]) == 0)
          {
            kind_done[k]++;
            snprintf (step, sizeof step, "alloc-%s", kinds[k]);
            emit_progress (step, g->ordinal, kind_done[k], kind_total[k]);
          }
    }

  /* touch every byte of what was allocated */
  for (i = 0; i < pg->n_allocs; i++)
    {
      if (pg->allocs[i].ptr == 0)
        continue;
      if (must_stop ())
        return false;
      r = cuda.MemsetD8 (pg->allocs[i].ptr, 0, pg->allocs[i].bytes);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: cuMemsetD8 of %s: %s", g->ordinal, pg->allocs[i].name, cu_name (r));
          exit_code = PROCURA_PROBE_EXIT_DRIVER;
          return false;
        }
      emit_progress ("touch", g->ordinal, i + 1, failed >= 0 ? (size_t) failed : pg->n_allocs);
    }
  r = cuda.CtxSynchronize ();
  if (r == CUDA_SUCCESS)
    r = cuda.MemGetInfo (&free_after, &total);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: after touching: %s", g->ordinal, cu_name (r));
      exit_code = PROCURA_PROBE_EXIT_DRIVER;
      return false;
    }
  emit_progress ("largest-block", g->ordinal, 0, 1);
  if (!largest_block (g, free_after, &largest))
    return false;

  /* how many more KV blocks fit: measured, not derived */
  if (failed < 0 && pg->kv_block_bytes > 0)
    {
      size_t expect = free_after / pg->kv_block_bytes;

      extra_cap = expect + 16 < MAX_EXTRA_BLOCKS ? expect + 16 : MAX_EXTRA_BLOCKS;
      g->extra = calloc (extra_cap ? extra_cap : 1, sizeof *g->extra);
      if (g->extra == NULL)
        {
          emit_error ("internal", "out of host memory");
          exit_code = PROCURA_PROBE_EXIT_INTERNAL;
          return false;
        }
      while (g->n_extra < extra_cap)
        {
          CUdeviceptr p;

          if (must_stop ())
            return false;
          r = cuda.MemAlloc (&p, pg->kv_block_bytes);
          if (r == CUDA_ERROR_OUT_OF_MEMORY)
            break;
          if (r != CUDA_SUCCESS)
            {
              emit_error ("cuda-error", "device %d: cuMemAlloc (extra KV block): %s", g->ordinal, cu_name (r));
              exit_code = PROCURA_PROBE_EXIT_DRIVER;
              return false;
            }
          g->extra[g->n_extra++] = p;
          emit_progress ("extra-kv", g->ordinal, g->n_extra, expect > g->n_extra ? expect : g->n_extra);
        }
    }

  pj_begin (&writer, "result");
  pj_key_str (&writer, "test", "fit");
  pj_key_int (&writer, "device", g->ordinal);
  pj_key_str (&writer, "name", g->name);
  pj_key_bool (&writer, "fits", failed < 0);
  pj_key_uint (&writer, "total_bytes", total);
  pj_key_uint (&writer, "free_before_bytes", free_before);
  pj_key_uint (&writer, "required_bytes", required);
  pj_key_uint (&writer, "allocated_bytes", allocated);
  pj_key_uint (&writer, "allocations", failed < 0 ? pg->n_allocs : (size_t) failed);
  pj_key_uint (&writer, "free_after_bytes", free_after);
  pj_key_uint (&writer, "headroom_bytes", free_after);
  pj_key_uint (&writer, "largest_free_block_bytes", largest);
  pj_key_double (&writer, "fragmentation", free_after > 0 ? 1.0 - (double) largest / (double) free_after : 0.0);
  if (pg->kv_block_bytes > 0)
    pj_key_uint (&writer, "kv_block_bytes", pg->kv_block_bytes);
  else
    pj_key_null (&writer, "kv_block_bytes");
  if (failed < 0 && pg->kv_block_bytes > 0)
    {
      pj_key_uint (&writer, "extra_kv_blocks", g->n_extra);
      pj_key_bool (&writer, "extra_kv_capped", g->n_extra >= extra_cap);
      pj_key_uint (&writer, "extra_kv_bytes", g->n_extra * pg->kv_block_bytes);
      if (plan.block_size > 0)
        pj_key_uint (&writer, "extra_kv_tokens", g->n_extra * (size_t) plan.block_size);
    }
  else
    pj_key_null (&writer, "extra_kv_blocks");
  if (failed >= 0)
    {
      ProbeAlloc *a = &pg->allocs[failed];
      size_t rest = 0;

      for (i = (size_t) failed; i < pg->n_allocs; i++)
        rest += pg->allocs[i].bytes;
      pj_open_object (&writer, "failed_at");
      pj_key_uint (&writer, "index", (size_t) failed);
      pj_key_str (&writer, "name", a->name);
      pj_key_str (&writer, "kind", a->kind);
      pj_key_uint (&writer, "bytes", a->bytes);
      pj_key_str (&writer, "step", a->kind);
      pj_key_str (&writer, "error", cu_name (fail_r));
      pj_close_object (&writer);
      pj_key_uint (&writer, "missing_bytes", rest > free_after ? rest - free_after : 0);
    }
  else
    pj_key_null (&writer, "failed_at");
  emit ();

  gpu_free_extra (g);
  g->fits = failed < 0;
  if (failed >= 0 && exit_code == PROCURA_PROBE_EXIT_OK)
    exit_code = PROCURA_PROBE_EXIT_DOES_NOT_FIT;
  return true;
}

/* ------------------------------------------------------------------------- */
/* Speed of light                                                             */

static bool
bw_prepare (Gpu *g)
{
  CUresult r;

  if (!gpu_activate (g))
    return false;
  if (cuda.EventCreate == NULL || cuda.EventRecord == NULL || cuda.EventSynchronize == NULL
      || cuda.EventElapsedTime == NULL || cuda.EventDestroy == NULL)
    {
      emit_error ("unsupported", "the driver lacks the event API needed for timing");
      return false;
    }
  if (g->ev[0] == NULL)
    {
      r = cuda.EventCreate (&g->ev[0], 0);
      if (r == CUDA_SUCCESS)
        r = cuda.EventCreate (&g->ev[1], 0);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: cuEventCreate: %s", g->ordinal, cu_name (r));
          return false;
        }
    }
  if (g->scratch == 0)
    {
      size_t free_bytes = 0, total = 0, want;

      r = cuda.MemGetInfo (&free_bytes, &total);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: cuMemGetInfo: %s", g->ordinal, cu_name (r));
          return false;
        }
      want = round_down (free_bytes / 4);
      if (want > SCRATCH_MAX_BYTES)
        want = SCRATCH_MAX_BYTES;
      if (want < GRANULARITY)
        {
          emit_error ("out-of-memory", "device %d: no room for a bandwidth buffer (%zu bytes free)",
                      g->ordinal, free_bytes);
          return false;
        }
      r = cuda.MemAlloc (&g->scratch, want);
      if (r == CUDA_SUCCESS)
        r = cuda.MemsetD8 (g->scratch, 1, want);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: bandwidth buffer of %zu bytes: %s", g->ordinal, want, cu_name (r));
          return false;
        }
      g->scratch_bytes = want;
    }
  return true;
}

/* Seconds between the two events after @iterations repeats of whatever the caller
 * queued between them. Negative on failure. */
static double
bw_elapsed (Gpu *g)
{
  float ms = 0;
  CUresult r;

  r = cuda.EventSynchronize (g->ev[1]);
  if (r == CUDA_SUCCESS)
    r = cuda.EventElapsedTime (&ms, g->ev[0], g->ev[1]);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: timing: %s", g->ordinal, cu_name (r));
      return -1;
    }
  return ms / 1e3;
}

static void
emit_bw_result (const char *test,
                int         device,
                int         peer,
                size_t      bytes,
                double      seconds,
                double      gbps,
                const char *counting)
{
  pj_begin (&writer, "result");
  pj_key_str (&writer, "test", test);
  pj_key_int (&writer, "device", device);
  if (peer >= 0)
    pj_key_int (&writer, "peer", peer);
  pj_key_uint (&writer, "bytes", bytes);
  pj_key_int (&writer, "iterations", BW_ITERATIONS);
  pj_key_double (&writer, "seconds", seconds);
  pj_key_double (&writer, "gbps", gbps);
  pj_key_str (&writer, "counting", counting);
  emit ();
}

static bool
bw_load_kernel (Gpu *g)
{
  CUresult r;

  if (g->fn_read != NULL)
    return true;
  if (cuda.ModuleLoadDataEx == NULL || cuda.ModuleGetFunction == NULL || cuda.LaunchKernel == NULL)
    {
      emit_error ("kernel-load-failed", "the driver lacks cuModuleLoadDataEx or cuLaunchKernel");
      return false;
    }
  r = cuda.ModuleLoadDataEx (&g->module, procura_kernels_ptx, 0, NULL, NULL);
  if (r == CUDA_SUCCESS)
    r = cuda.ModuleGetFunction (&g->fn_read, g->module, "procura_read");
  if (r == CUDA_SUCCESS && g->out_word == 0)
    r = cuda.MemAlloc (&g->out_word, 16);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("kernel-load-failed", "device %d: loading the embedded PTX: %s", g->ordinal, cu_name (r));
      g->fn_read = NULL;
      return false;
    }
  return true;
}

static CUresult
launch_read (Gpu         *g,
             CUdeviceptr  ptr,
             size_t       bytes)
{
  unsigned long long n16 = bytes / 16;
  void *params[3];
  unsigned grid = (unsigned) (g->sms > 0 ? g->sms * 8 : 1024);

  params[0] = &ptr;
  params[1] = &n16;
  params[2] = &g->out_word;
  return cuda.LaunchKernel (g->fn_read, grid, 1, 1, 256, 1, 1, 0, NULL, params, NULL);
}

/* Device-memory read bandwidth: the streaming kernel over the weights buffers of
 * the plan (when the fit ran), else over the scratch buffer. */
static bool
bw_read (Gpu     *g,
         PlanGpu *pg)
{
  size_t bytes = 0, i;
  int it;
  double s;
  CUresult r = CUDA_SUCCESS;
  bool use_weights = false;

  if (!bw_load_kernel (g))
    return false;
  if (pg != NULL)
    for (i = 0; i < pg->n_allocs; i++)
      if (pg->allocs[i].ptr != 0 && strcmp (pg->allocs[i].kind, "weights") == 0)
        {
          bytes += pg->allocs[i].bytes;
          use_weights = true;
        }
  if (!use_weights)
    bytes = g->scratch_bytes;

  for (it = -1; it < BW_ITERATIONS && r == CUDA_SUCCESS; it++)
    {
      if (it == 0)
        r = cuda.EventRecord (g->ev[0], NULL);
      if (use_weights)
        {
          for (i = 0; i < pg->n_allocs && r == CUDA_SUCCESS; i++)
            if (pg->allocs[i].ptr != 0 && strcmp (pg->allocs[i].kind, "weights") == 0)
              r = launch_read (g, pg->allocs[i].ptr, pg->allocs[i].bytes);
        }
      else if (r == CUDA_SUCCESS)
        r = launch_read (g, g->scratch, g->scratch_bytes);
      if (must_stop ())
        return false;
    }
  if (r == CUDA_SUCCESS)
    r = cuda.EventRecord (g->ev[1], NULL);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "device %d: read kernel: %s", g->ordinal, cu_name (r));
      return false;
    }
  s = bw_elapsed (g);
  if (s < 0)
    return false;
  g->read_gbps = s > 0 ? (double) bytes * BW_ITERATIONS / s / 1e9 : NAN;
  pj_begin (&writer, "result");
  pj_key_str (&writer, "test", "bandwidth");
  pj_key_int (&writer, "device", g->ordinal);
  pj_key_str (&writer, "buffer", use_weights ? "weights" : "scratch");
  pj_key_uint (&writer, "bytes", bytes);
  pj_key_int (&writer, "iterations", BW_ITERATIONS);
  pj_key_double (&writer, "seconds", s);
  pj_key_double (&writer, "gbps", g->read_gbps);
  pj_key_str (&writer, "counting", "read");
  emit ();
  return true;
}

static bool
bw_copies (Gpu *g)
{
  size_t half = round_down (g->scratch_bytes / 2);
  size_t hbytes;
  CUresult r = CUDA_SUCCESS;
  double s;
  int it;

  /* device to device: one half of the scratch buffer onto the other */
  if (cuda.MemcpyDtoDAsync != NULL && half > 0)
    {
      r = cuda.EventRecord (g->ev[0], NULL);
      for (it = 0; it < BW_ITERATIONS && r == CUDA_SUCCESS; it++)
        r = cuda.MemcpyDtoDAsync (g->scratch + half, g->scratch, half, NULL);
      if (r == CUDA_SUCCESS)
        r = cuda.EventRecord (g->ev[1], NULL);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: cuMemcpyDtoDAsync: %s", g->ordinal, cu_name (r));
          return false;
        }
      s = bw_elapsed (g);
      if (s < 0)
        return false;
      emit_bw_result ("d2d", g->ordinal, -1, half, s,
                      s > 0 ? 2.0 * (double) half * BW_ITERATIONS / s / 1e9 : NAN, "read+write");
    }
  if (must_stop ())
    return false;

  /* pinned host memory, both directions */
  if (cuda.MemAllocHost == NULL || cuda.MemFreeHost == NULL
      || cuda.MemcpyHtoDAsync == NULL || cuda.MemcpyDtoHAsync == NULL)
    return true;
  hbytes = HOST_BUFFER_BYTES < g->scratch_bytes ? HOST_BUFFER_BYTES : g->scratch_bytes;
  if (host_buffer != NULL && host_bytes < hbytes)
    hbytes = host_bytes;
  if (host_buffer == NULL)
    {
      r = cuda.MemAllocHost (&host_buffer, hbytes);
      if (r != CUDA_SUCCESS)
        {
          host_buffer = NULL;
          emit_error ("cuda-error", "cuMemAllocHost of %zu bytes: %s", hbytes, cu_name (r));
          return false;
        }
      host_bytes = hbytes;
      memset (host_buffer, 1, hbytes);
    }
  for (int dir = 0; dir < 2; dir++)
    {
      r = cuda.EventRecord (g->ev[0], NULL);
      for (it = 0; it < BW_ITERATIONS && r == CUDA_SUCCESS; it++)
        r = dir == 0 ? cuda.MemcpyHtoDAsync (g->scratch, host_buffer, hbytes, NULL)
                     : cuda.MemcpyDtoHAsync (host_buffer, g->scratch, hbytes, NULL);
      if (r == CUDA_SUCCESS)
        r = cuda.EventRecord (g->ev[1], NULL);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: pinned copy: %s", g->ordinal, cu_name (r));
          return false;
        }
      s = bw_elapsed (g);
      if (s < 0)
        return false;
      emit_bw_result (dir == 0 ? "h2d" : "d2h", g->ordinal, -1, hbytes, s,
                      s > 0 ? (double) hbytes * BW_ITERATIONS / s / 1e9 : NAN, "one-way");
      if (must_stop ())
        return false;
    }
  return true;
}

static bool
bw_peer (Gpu *src,
         Gpu *dst)
{
  int can = 0;
  bool enabled = false;
  size_t bytes = src->scratch_bytes < dst->scratch_bytes ? src->scratch_bytes : dst->scratch_bytes;
  CUresult r;
  double s;
  int it;

  if (cuda.MemcpyPeerAsync == NULL)
    return true;
  bytes = round_down (bytes / 2);
  if (bytes == 0 || !gpu_activate (src))
    return false;
  if (cuda.DeviceCanAccessPeer != NULL)
    cuda.DeviceCanAccessPeer (&can, src->dev, dst->dev);
  if (can && cuda.CtxEnablePeerAccess != NULL)
    {
      r = cuda.CtxEnablePeerAccess (dst->ctx, 0);
      enabled = r == CUDA_SUCCESS;
    }
  r = cuda.EventRecord (src->ev[0], NULL);
  for (it = 0; it < BW_ITERATIONS && r == CUDA_SUCCESS; it++)
    r = cuda.MemcpyPeerAsync (dst->scratch, dst->ctx, src->scratch, src->ctx, bytes, NULL);
  if (r == CUDA_SUCCESS)
    r = cuda.EventRecord (src->ev[1], NULL);
  if (r != CUDA_SUCCESS)
    {
      emit_error ("cuda-error", "devices %d->%d: cuMemcpyPeerAsync: %s", src->ordinal, dst->ordinal, cu_name (r));
      if (enabled && cuda.CtxDisablePeerAccess != NULL)
        cuda.CtxDisablePeerAccess (dst->ctx);
      return false;
    }
  s = bw_elapsed (src);
  if (enabled && cuda.CtxDisablePeerAccess != NULL)
    cuda.CtxDisablePeerAccess (dst->ctx);
  if (s < 0)
    return false;
  pj_begin (&writer, "result");
  pj_key_str (&writer, "test", "p2p");
  pj_key_int (&writer, "device", src->ordinal);
  pj_key_int (&writer, "peer", dst->ordinal);
  pj_key_bool (&writer, "peer_access", enabled);
  pj_key_uint (&writer, "bytes", bytes);
  pj_key_int (&writer, "iterations", BW_ITERATIONS);
  pj_key_double (&writer, "seconds", s);
  pj_key_double (&writer, "gbps", s > 0 ? (double) bytes * BW_ITERATIONS / s / 1e9 : NAN);
  pj_key_str (&writer, "counting", "one-way");
  emit ();
  return true;
}

/* Decode-step floor: every step reads the weights shard and the KV in flight once. */
static void
decode_floor (void)
{
  double worst = 0;
  size_t i, j;
  bool all = true;

  for (i = 0; i < plan.n_gpus && (int) i < n_gpus; i++)
    {
      PlanGpu *pg = &plan.gpus[i];
      size_t weights = 0, kv = 0;
      double step;

      for (j = 0; j < pg->n_allocs; j++)
        {
          if (strcmp (pg->allocs[j].kind, "weights") == 0)
            weights += pg->allocs[j].bytes;
          else if (strcmp (pg->allocs[j].kind, "kv") == 0)
            kv += pg->allocs[j].bytes;
        }
      if (!isnan (pg->kv_read_bytes))
        kv = (size_t) pg->kv_read_bytes;
      if (!(gpus[i].read_gbps > 0))
        {
          all = false;
          continue;
        }
      step = ((double) weights + (double) kv) / (gpus[i].read_gbps * 1e9);
      if (step > worst)
        worst = step;
      pj_begin (&writer, "result");
      pj_key_str (&writer, "test", "decode-floor");
      pj_key_str (&writer, "scope", "device");
      pj_key_int (&writer, "device", gpus[i].ordinal);
      pj_key_uint (&writer, "weights_bytes", weights);
      pj_key_uint (&writer, "kv_read_bytes", kv);
      pj_key_double (&writer, "gbps", gpus[i].read_gbps);
      pj_key_double (&writer, "step_seconds", step);
      emit ();
    }
  if (!all || worst <= 0)
    return;
  pj_begin (&writer, "result");
  pj_key_str (&writer, "test", "decode-floor");
  pj_key_str (&writer, "scope", "replica");
  pj_key_double (&writer, "step_seconds", worst);
  pj_key_double (&writer, "itl_ms", worst * 1e3);
  pj_key_double (&writer, "tokens_per_second_per_sequence", 1.0 / worst);
  if (plan.sequences > 0)
    {
      pj_key_int (&writer, "sequences", plan.sequences);
      pj_key_double (&writer, "tokens_per_second", (double) plan.sequences / worst);
    }
  emit ();
}

/* ------------------------------------------------------------------------- */
/* Main                                                                       */

static void
usage (FILE *f)
{
  fprintf (f,
           "Usage: procura-probe [--device N[,M...]] [--plan FILE|-] [--inventory] [--bandwidth]\n"
           "                     [--time-limit SECONDS] [--json]\n"
           "Checks GPU memory fit and bandwidth through the NVIDIA driver; JSON Lines on stdout.\n"
           "Environment: PROCURA_PROBE_LIBCUDA, PROCURA_PROBE_LIBNVML name other driver libraries.\n"
           "Exit codes: 0 ok, 1 does not fit, 2 usage or bad plan, 3 no driver, 4 driver error,\n"
           "            5 time limit, 6 interrupted, 7 internal error. See docs/probe.md.\n");
}

static void
emit_hello (const char *driver_version,
            int         cuda_version)
{
  char when[32], cv[32];
  time_t t = time (NULL);
  struct tm tm;

  gmtime_r (&t, &tm);
  strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  pj_begin (&writer, "hello");
  pj_key_int (&writer, "protocol", PROCURA_PROBE_PROTOCOL);
  pj_key_str (&writer, "probe_version", PROBE_VERSION);
  pj_key_str (&writer, "driver_version", driver_version);
  if (cuda_version > 0)
    {
      snprintf (cv, sizeof cv, "%d.%d", cuda_version / 1000, (cuda_version % 1000) / 10);
      pj_key_str (&writer, "cuda_version", cv);
    }
  else
    pj_key_null (&writer, "cuda_version");
  pj_key_str (&writer, "started_at", when);
  pj_key_int (&writer, "time_limit_s", time_limit);
  pj_key_int (&writer, "pid", (long long) getpid ());
  emit ();
}

static int
finish (int code)
{
  if (code != PROCURA_PROBE_EXIT_OK && exit_code == PROCURA_PROBE_EXIT_OK)
    exit_code = code;
  /* a pending alarm (a signal's 2 s grace, the hard time limit) still ends a
   * cleanup that hangs in the driver */
  cleanup ();
  alarm (0);
  if (have_nvml)
    probe_nvml_close (&nvml);
  if (cuda.handle != NULL)
    probe_cuda_close (&cuda);
  emit_done ();
  pj_clear (&writer);
  return exit_code;
}

static bool
parse_devices (const char *arg,
               int        *list,
               int        *n)
{
  const char *p = arg;

  while (*p)
    {
      char *end;
      long v = strtol (p, &end, 10);

      if (end == p || v < 0 || v >= MAX_DEVICES || *n >= MAX_DEVICES)
        return false;
      list[(*n)++] = (int) v;
      p = end;
      if (*p == ',')
        p++;
      else if (*p != '\0')
        return false;
    }
  return *n > 0;
}

int
main (int    argc,
      char **argv)
{
  const char *plan_path = NULL;
  bool want_inventory = false, want_bandwidth = false;
  int device_list[MAX_DEVICES], n_device_list = 0, count = 0, cuda_version = 0, i;
  char err[512], driver_version[96];
  bool missing = false;
  const char *usage_error = NULL;
  char unknown[256];
  CUresult r;

  for (i = 1; i < argc && usage_error == NULL; i++)
    {
      const char *a = argv[i];

      if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          usage (stdout);
          return 0;
        }
      else if (strcmp (a, "--version") == 0)
        {
          printf ("procura-probe %s (protocol %d)\n", PROBE_VERSION, PROCURA_PROBE_PROTOCOL);
          return 0;
        }
      else if (strcmp (a, "--json") == 0)
        ;
      else if (strcmp (a, "--inventory") == 0)
        want_inventory = true;
      else if (strcmp (a, "--bandwidth") == 0)
        want_bandwidth = true;
      else if (strcmp (a, "--plan") == 0 && i + 1 < argc)
        plan_path = argv[++i];
      else if (strcmp (a, "--device") == 0 && i + 1 < argc)
        {
          if (!parse_devices (argv[++i], device_list, &n_device_list))
            usage_error = "--device expects N or N,M,... (0-63)";
        }
      else if (strcmp (a, "--time-limit") == 0 && i + 1 < argc)
        {
          char *end;
          long v = strtol (argv[++i], &end, 10);

          if (*end != '\0' || v < 1 || v > 86400)
            usage_error = "--time-limit expects whole seconds between 1 and 86400";
          else
            time_limit = (int) v;
        }
      else
        {
          snprintf (unknown, sizeof unknown, "unknown or incomplete option: %.200s", a);
          usage_error = unknown;
        }
    }
  if (usage_error == NULL && want_inventory && (plan_path != NULL || want_bandwidth))
    usage_error = "--inventory runs alone (leave it out with --plan or --bandwidth)";

  install_signals ();
  deadline = now_s () + time_limit;
  /* the hard stop for a driver call that never returns */
  alarm ((unsigned) time_limit + 2);

  if (usage_error != NULL)
    {
      emit_hello (NULL, 0);
      emit_error ("usage", "%s", usage_error);
      usage (stderr);
      return finish (PROCURA_PROBE_EXIT_USAGE);
    }

  /* a driver that never answers its first calls is named, within a bounded time */
  start_step ("loading libcuda.so.1", start_timeout ());
  if (!probe_cuda_load (&cuda, &missing, err, sizeof err))
    {
      start_done ();
      emit_hello (NULL, 0);
      emit_error (missing ? "no-driver" : "init-failed", "%s", err);
      return finish (missing ? PROCURA_PROBE_EXIT_NO_DRIVER : PROCURA_PROBE_EXIT_DRIVER);
    }
  driver_version[0] = '\0';
  start_step ("nvmlInit", start_timeout ());
  have_nvml = probe_nvml_load (&nvml, err, sizeof err);
  if (have_nvml && nvml.SystemGetDriverVersion != NULL)
    nvml.SystemGetDriverVersion (driver_version, sizeof driver_version);
  if (!have_nvml)
    fprintf (stderr, "procura-probe: NVML unavailable (%s); inventory will be partial\n", err);

  start_step ("cuInit", start_timeout ());
  r = cuda.Init (0);
  if (r == CUDA_SUCCESS)
    cuda.DriverGetVersion (&cuda_version);
  start_done ();
  emit_hello (driver_version[0] ? driver_version : NULL, cuda_version);
  if (r != CUDA_SUCCESS)
    {
      emit_error (r == CUDA_ERROR_NO_DEVICE ? "no-device" : "init-failed",
                  "cuInit returned %s (%d)", cu_name (r), r);
      return finish (PROCURA_PROBE_EXIT_DRIVER);
    }

  if (plan_path != NULL && !load_plan (plan_path))
    return finish (PROCURA_PROBE_EXIT_USAGE);
  have_plan = plan_path != NULL;

  r = cuda.DeviceGetCount (&count);
  if (r != CUDA_SUCCESS || count <= 0)
    {
      emit_error ("no-device", "the driver reports no CUDA device (%s)", r != CUDA_SUCCESS ? cu_name (r) : "count 0");
      return finish (PROCURA_PROBE_EXIT_DRIVER);
    }
  if (n_device_list == 0)
    for (i = 0; i < count && i < MAX_DEVICES; i++)
      device_list[n_device_list++] = i;
  for (i = 0; i < n_device_list; i++)
    {
      Gpu *g = &gpus[n_gpus];

      if (device_list[i] >= count)
        {
          emit_error ("bad-device", "device %d does not exist (the driver reports %d)", device_list[i], count);
          return finish (PROCURA_PROBE_EXIT_USAGE);
        }
      memset (g, 0, sizeof *g);
      g->ordinal = device_list[i];
      r = cuda.DeviceGet (&g->dev, g->ordinal);
      if (r == CUDA_SUCCESS)
        r = cuda.DeviceGetName (g->name, sizeof g->name - 1, g->dev);
      if (r != CUDA_SUCCESS)
        {
          emit_error ("cuda-error", "device %d: %s", g->ordinal, cu_name (r));
          return finish (PROCURA_PROBE_EXIT_DRIVER);
        }
      n_gpus++;
    }
  if (have_plan && plan.n_gpus > (size_t) n_gpus)
    {
      emit_error ("not-enough-devices", "the plan needs %zu GPUs and %d are selected",
                  plan.n_gpus, n_gpus);
      return finish (PROCURA_PROBE_EXIT_USAGE);
    }

  /* 1. inventory */
  for (i = 0; i < n_gpus; i++)
    {
      if (must_stop ())
        return finish (exit_code);
      if (!inventory_device (&gpus[i]))
        return finish (PROCURA_PROBE_EXIT_DRIVER);
    }

  /* 2. fit: every plan GPU stays allocated while the next one is filled */
  if (have_plan)
    for (i = 0; (size_t) i < plan.n_gpus; i++)
      {
        if (!fit_device (&gpus[i], &plan.gpus[i]))
          return finish (must_stop () ? exit_code : PROCURA_PROBE_EXIT_DRIVER);
      }

  /* 3. speed of light */
  if (want_bandwidth)
    {
      bool ok = true;
      int j;

      for (i = 0; i < n_gpus && ok; i++)
        {
          PlanGpu *pg = have_plan && (size_t) i < plan.n_gpus && gpus[i].fits ? &plan.gpus[i] : NULL;

          emit_progress ("bandwidth", gpus[i].ordinal, 0, 1);
          ok = bw_prepare (&gpus[i]);
          if (ok)
            ok = bw_read (&gpus[i], pg) || (!must_stop () && exit_code == PROCURA_PROBE_EXIT_OK);
          if (ok && !must_stop ())
            ok = bw_copies (&gpus[i]);
          if (must_stop ())
            return finish (exit_code);
          emit_progress ("bandwidth", gpus[i].ordinal, 1, 1);
        }
      for (i = 0; i < n_gpus && ok; i++)
        for (j = 0; j < n_gpus && ok; j++)
          if (i != j)
            {
              ok = bw_peer (&gpus[i], &gpus[j]);
              if (must_stop ())
                return finish (exit_code);
            }
      if (!ok)
        return finish (PROCURA_PROBE_EXIT_DRIVER);
      if (have_plan)
        decode_floor ();
      for (i = 0; i < n_gpus; i++)
        if (gpus[i].fn_read == NULL)
          return finish (PROCURA_PROBE_EXIT_DRIVER);
    }

  if (must_stop ())
    return finish (exit_code);
  return finish (exit_code);
}

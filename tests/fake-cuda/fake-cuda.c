/* fake-cuda.c: a fake libcuda.so.1 for testing procura-probe without a GPU
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Implements the driver entry points procura-probe uses with simulated memory
 * accounting (device pointers are numbers; nothing of the size is allocated) and a
 * virtual clock per device that copies and kernels advance at configurable rates, so
 * bandwidth arithmetic can be checked exactly. Behaviour comes from the environment:
 *
 *   FAKE_CUDA_DEVICES=N           device count (default 1; 0 -> cuDeviceGetCount says 0)
 *   FAKE_CUDA_NAMES=A,B           device names (the last one repeats)
 *   FAKE_CUDA_MEMORY_MIB=M        total memory per device (default 81559, an H100 80GB)
 *   FAKE_CUDA_CONTEXT_MIB=M       taken by a primary context (default 512)
 *   FAKE_CUDA_MAX_BLOCK_MIB=M     larger single allocations fail (fragmentation)
 *   FAKE_CUDA_CC=9.0 FAKE_CUDA_SMS=132
 *   FAKE_CUDA_INIT_FAIL=CODE      cuInit returns CODE
 *   FAKE_CUDA_OOM_AT=N            the Nth cuMemAlloc call fails with out-of-memory
 *   FAKE_CUDA_HANG_AT=NAME[:N]    the (Nth) call of NAME (e.g. cuMemAlloc) never returns
 *   FAKE_CUDA_CRASH_AT=NAME[:N]   the (Nth) call of NAME dies with SIGSEGV
 *   FAKE_CUDA_FAIL_AT=NAME:N:CODE the Nth call of NAME returns CUresult CODE
 *   FAKE_CUDA_SLOW_MS=MS          every cuMemAlloc sleeps MS milliseconds
 *   FAKE_CUDA_READ_GBPS, FAKE_CUDA_COPY_GBPS (read+write), FAKE_CUDA_H2D_GBPS,
 *   FAKE_CUDA_D2H_GBPS, FAKE_CUDA_P2P_GBPS   virtual rates in GB/s (1e9 bytes)
 *   FAKE_CUDA_REAL_MEMORY=1       really allocate and fill (small sizes only)
 *   FAKE_CUDA_LOG=FILE            at unload, append one line of accounting:
 *     "alloc_calls=A live_allocations=L live_bytes=B live_contexts=C live_host=H
 *      touched_bytes=T kernels=K"
 *
 * The MIG variables are read by fake-nvml.c.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct { char bytes[16]; } CUuuid;

#define MIB               ((size_t) 1 << 20)
#define GRANULARITY       ((size_t) 2 << 20)
#define MAX_DEV           16

typedef struct {
  int     dev;
  int     refs;
} FakeCtx;

typedef struct {
  int     dev;
  double  t_ns;
} FakeEvent;

typedef struct {
  CUdeviceptr ptr;
  size_t      bytes;
  size_t      charged;
  int         dev;
  int         live;
  void       *real;
} FakeAlloc;

static struct {
  int         ready;
  int         n_dev;
  char        names[MAX_DEV][128];
  size_t      total;
  size_t      context_bytes;
  size_t      max_block;
  int         cc_major, cc_minor, sms;
  int         init_fail;
  long        oom_at;
  char        hang_at[64];
  long        hang_n;
  char        crash_at[64];
  long        crash_n;
  char        fail_at[64];
  long        fail_n;
  int         fail_code;
  long        slow_ms;
  double      read_gbps, copy_gbps, h2d_gbps, d2h_gbps, p2p_gbps;
  int         real_memory;
  const char *log_path;

  int         initialised;
  FakeCtx     ctx[MAX_DEV];
  size_t      used[MAX_DEV];
  size_t      next[MAX_DEV];
  double      clock_ns[MAX_DEV];
  int         current;          /* device of the current context, -1 none */
  FakeAlloc  *allocs;
  size_t      n_allocs, cap_allocs;
  long        alloc_calls;
  long        live_host;
  unsigned long long touched;
  long        kernels;
  int         live_events;
} F;

static double
env_double (const char *name,
            double      fallback)
{
  const char *v = getenv (name);

  return v && *v ? strtod (v, NULL) : fallback;
}

static void
env_hook (const char *name,
          char       *out,
          size_t      len,
          long       *n)
{
  const char *v = getenv (name);
  char *colon;

  out[0] = '\0';
  *n = 1;
  if (v == NULL)
    return;
  snprintf (out, len, "%s", v);
  colon = strchr (out, ':');
  if (colon != NULL)
    {
      *colon = '\0';
      *n = strtol (colon + 1, NULL, 10);
    }
}

static void
setup (void)
{
  const char *names, *cc;
  int i;

  if (F.ready)
    return;
  F.ready = 1;
  F.current = -1;
  F.n_dev = (int) env_double ("FAKE_CUDA_DEVICES", 1);
  if (F.n_dev > MAX_DEV)
    F.n_dev = MAX_DEV;
  names = getenv ("FAKE_CUDA_NAMES");
  if (names == NULL || *names == '\0')
    names = "NVIDIA H100 80GB HBM3";
  for (i = 0; i < MAX_DEV; i++)
    {
      const char *comma = strchr (names, ',');
      size_t n = comma ? (size_t) (comma - names) : strlen (names);

      snprintf (F.names[i], sizeof F.names[i], "%.*s", (int) n, names);
      if (comma)
        names = comma + 1;
    }
  F.total = (size_t) env_double ("FAKE_CUDA_MEMORY_MIB", 81559) * MIB;
  F.context_bytes = (size_t) env_double ("FAKE_CUDA_CONTEXT_MIB", 512) * MIB;
  F.max_block = (size_t) env_double ("FAKE_CUDA_MAX_BLOCK_MIB", 0) * MIB;
  cc = getenv ("FAKE_CUDA_CC");
  if (cc == NULL || sscanf (cc, "%d.%d", &F.cc_major, &F.cc_minor) != 2)
    {
      F.cc_major = 9;
      F.cc_minor = 0;
    }
  F.sms = (int) env_double ("FAKE_CUDA_SMS", 132);
  F.init_fail = (int) env_double ("FAKE_CUDA_INIT_FAIL", 0);
  F.oom_at = (long) env_double ("FAKE_CUDA_OOM_AT", 0);
  env_hook ("FAKE_CUDA_HANG_AT", F.hang_at, sizeof F.hang_at, &F.hang_n);
  env_hook ("FAKE_CUDA_CRASH_AT", F.crash_at, sizeof F.crash_at, &F.crash_n);
  env_hook ("FAKE_CUDA_FAIL_AT", F.fail_at, sizeof F.fail_at, &F.fail_n);
  {
    /* NAME:N:CODE */
    const char *v = getenv ("FAKE_CUDA_FAIL_AT");
    const char *last = v ? strrchr (v, ':') : NULL;

    F.fail_code = last && last != strchr (v, ':') ? (int) strtol (last + 1, NULL, 10) : 999;
  }
  F.slow_ms = (long) env_double ("FAKE_CUDA_SLOW_MS", 0);
  F.read_gbps = env_double ("FAKE_CUDA_READ_GBPS", 3000);
  F.copy_gbps = env_double ("FAKE_CUDA_COPY_GBPS", 2500);
  F.h2d_gbps = env_double ("FAKE_CUDA_H2D_GBPS", 50);
  F.d2h_gbps = env_double ("FAKE_CUDA_D2H_GBPS", 50);
  F.p2p_gbps = env_double ("FAKE_CUDA_P2P_GBPS", 400);
  F.real_memory = env_double ("FAKE_CUDA_REAL_MEMORY", 0) != 0;
  F.log_path = getenv ("FAKE_CUDA_LOG");
  for (i = 0; i < MAX_DEV; i++)
    F.next[i] = 0x100000;
}

/* Called first by every entry point: counts, hangs, crashes or fails on request.
 * Returns the error the call must return, 0 to go on. */
static int
hook (const char *name)
{
  static struct { const char *name; long calls; } counts[64];
  static int n_counts;
  long calls = 0;
  int i;

  setup ();
  for (i = 0; i < n_counts; i++)
    if (counts[i].name == name)
      break;
  if (i == n_counts && n_counts < 64)
    counts[n_counts++].name = name;
  if (i < 64)
    calls = ++counts[i].calls;
  if (F.crash_at[0] && strcmp (F.crash_at, name) == 0 && calls == F.crash_n)
    {
      fprintf (stderr, "fake-cuda: crashing in %s as asked\n", name);
      signal (SIGSEGV, SIG_DFL);
      raise (SIGSEGV);
    }
  if (F.hang_at[0] && strcmp (F.hang_at, name) == 0 && calls == F.hang_n)
    {
      fprintf (stderr, "fake-cuda: hanging in %s as asked\n", name);
      for (;;)
        pause ();
    }
  if (F.fail_at[0] && strcmp (F.fail_at, name) == 0 && calls == F.fail_n)
    {
      fprintf (stderr, "fake-cuda: failing %s with %d as asked\n", name, F.fail_code);
      return F.fail_code;
    }
  return 0;
}

#define HOOK(name) do { int hook_error_ = hook (name); if (hook_error_ != 0) return hook_error_; } while (0)

__attribute__ ((destructor)) static void
fake_report (void)
{
  FILE *f;
  size_t i, live = 0, bytes = 0;
  int d, ctxs = 0;

  if (!F.ready)
    return;
  if (F.log_path == NULL)
    {
      free (F.allocs);
      return;
    }
  for (i = 0; i < F.n_allocs; i++)
    if (F.allocs[i].live)
      {
        live++;
        bytes += F.allocs[i].bytes;
      }
  for (d = 0; d < MAX_DEV; d++)
    ctxs += F.ctx[d].refs;
  f = fopen (F.log_path, "a");
  if (f == NULL)
    {
      free (F.allocs);
      return;
    }
  fprintf (f, "alloc_calls=%ld live_allocations=%zu live_bytes=%zu live_contexts=%d live_host=%ld "
           "touched_bytes=%llu kernels=%ld live_events=%d\n",
           F.alloc_calls, live, bytes, ctxs, F.live_host, F.touched, F.kernels, F.live_events);
  fclose (f);
  free (F.allocs);
}

static FakeAlloc *
find_range (CUdeviceptr ptr,
            size_t      bytes)
{
  size_t i;

  for (i = F.n_allocs; i > 0; i--)
    {
      FakeAlloc *a = &F.allocs[i - 1];

      if (a->live && ptr >= a->ptr && ptr + bytes <= a->ptr + a->bytes)
        return a;
    }
  return NULL;
}

/* ---- errors, init, devices ------------------------------------------- */

EXPORT CUresult
cuGetErrorName (CUresult     error,
                const char **name)
{
  HOOK ("cuGetErrorName");
  switch (error)
    {
    case 0: *name = "CUDA_SUCCESS"; return 0;
    case 1: *name = "CUDA_ERROR_INVALID_VALUE"; return 0;
    case 2: *name = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case 3: *name = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 101: *name = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case 201: *name = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    case 218: *name = "CUDA_ERROR_INVALID_PTX"; return 0;
    case 500: *name = "CUDA_ERROR_NOT_FOUND"; return 0;
    case 700: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return 0;
    default: *name = NULL; return 1;
    }
}

EXPORT CUresult
cuInit (unsigned int flags)
{
  HOOK ("cuInit");
  if (flags != 0)
    return 1;
  if (F.init_fail)
    return F.init_fail;
  F.initialised = 1;
  return 0;
}

#define NEED_INIT() do { if (!F.initialised) return 3; } while (0)
#define NEED_DEV(d) do { if ((d) < 0 || (d) >= F.n_dev) return 101; } while (0)
#define NEED_CTX() do { if (F.current < 0) return 201; } while (0)

EXPORT CUresult
cuDriverGetVersion (int *version)
{
  HOOK ("cuDriverGetVersion");
  *version = 12040;
  return 0;
}

EXPORT CUresult
cuDeviceGetCount (int *count)
{
  HOOK ("cuDeviceGetCount");
  NEED_INIT ();
  *count = F.n_dev;
  return 0;
}

EXPORT CUresult
cuDeviceGet (CUdevice *dev,
             int       ordinal)
{
  HOOK ("cuDeviceGet");
  NEED_INIT ();
  NEED_DEV (ordinal);
  *dev = ordinal;
  return 0;
}

EXPORT CUresult
cuDeviceGetName (char     *name,
                 int       len,
                 CUdevice  dev)
{
  HOOK ("cuDeviceGetName");
  NEED_INIT ();
  NEED_DEV (dev);
  snprintf (name, (size_t) len, "%s", F.names[dev]);
  return 0;
}

EXPORT CUresult
cuDeviceTotalMem_v2 (size_t   *bytes,
                     CUdevice  dev)
{
  HOOK ("cuDeviceTotalMem");
  NEED_INIT ();
  NEED_DEV (dev);
  *bytes = F.total;
  return 0;
}

EXPORT CUresult
cuDeviceGetAttribute (int      *value,
                      int       attribute,
                      CUdevice  dev)
{
  HOOK ("cuDeviceGetAttribute");
  NEED_INIT ();
  NEED_DEV (dev);
  switch (attribute)
    {
    case 13: *value = 1980000; return 0;          /* clock kHz */
    case 16: *value = F.sms; return 0;
    case 32: *value = 1; return 0;                /* ECC */
    case 33: *value = 0x10 + dev; return 0;       /* PCI bus */
    case 34: *value = 0; return 0;                /* PCI device */
    case 36: *value = 2619000; return 0;          /* memory clock kHz */
    case 37: *value = 5120; return 0;             /* bus width */
    case 50: *value = 0; return 0;                /* PCI domain */
    case 75: *value = F.cc_major; return 0;
    case 76: *value = F.cc_minor; return 0;
    default: return 1;
    }
}

EXPORT CUresult
cuDeviceGetUuid_v2 (CUuuid   *uuid,
                    CUdevice  dev)
{
  int i;

  HOOK ("cuDeviceGetUuid");
  NEED_INIT ();
  NEED_DEV (dev);
  for (i = 0; i < 16; i++)
    uuid->bytes[i] = (char) (0xa0 + dev * 16 + i);
  return 0;
}

/* ---- contexts ---------------------------------------------------------- */

EXPORT CUresult
cuDevicePrimaryCtxRetain (void     **ctx,
                          CUdevice   dev)
{
  HOOK ("cuDevicePrimaryCtxRetain");
  NEED_INIT ();
  NEED_DEV (dev);
  if (F.ctx[dev].refs == 0)
    {
      if (F.context_bytes > F.total)
        return 2;
      F.used[dev] += F.context_bytes;
    }
  F.ctx[dev].dev = dev;
  F.ctx[dev].refs++;
  *ctx = &F.ctx[dev];
  return 0;
}

EXPORT CUresult
cuDevicePrimaryCtxRelease_v2 (CUdevice dev)
{
  size_t i;

  HOOK ("cuDevicePrimaryCtxRelease");
  NEED_INIT ();
  NEED_DEV (dev);
  if (F.ctx[dev].refs <= 0)
    return 201;
  if (--F.ctx[dev].refs == 0)
    {
      /* like the real driver: destroying the context frees its memory; the log
       * still counts what the caller forgot, since the destructor reads 'live'
       * before this point only when the process exits without releasing */
      F.used[dev] -= F.context_bytes;
      for (i = 0; i < F.n_allocs; i++)
        if (F.allocs[i].live && F.allocs[i].dev == dev)
          fprintf (stderr, "fake-cuda: leak: %zu bytes at 0x%llx on device %d\n",
                   F.allocs[i].bytes, F.allocs[i].ptr, dev);
      if (F.current == dev)
        F.current = -1;
    }
  return 0;
}

EXPORT CUresult
cuCtxSetCurrent (void *ctx)
{
  HOOK ("cuCtxSetCurrent");
  NEED_INIT ();
  if (ctx == NULL)
    {
      F.current = -1;
      return 0;
    }
  if (((FakeCtx *) ctx)->refs <= 0)
    return 201;
  F.current = ((FakeCtx *) ctx)->dev;
  return 0;
}

EXPORT CUresult
cuCtxSynchronize (void)
{
  HOOK ("cuCtxSynchronize");
  NEED_CTX ();
  return 0;
}

/* ---- memory ------------------------------------------------------------- */

EXPORT CUresult
cuMemGetInfo_v2 (size_t *free_bytes,
                 size_t *total_bytes)
{
  HOOK ("cuMemGetInfo");
  NEED_CTX ();
  *free_bytes = F.total - F.used[F.current];
  *total_bytes = F.total;
  return 0;
}

EXPORT CUresult
cuMemAlloc_v2 (CUdeviceptr *ptr,
               size_t       bytes)
{
  size_t charged;
  FakeAlloc *a;
  int d;

  HOOK ("cuMemAlloc");
  NEED_CTX ();
  d = F.current;
  F.alloc_calls++;
  if (F.slow_ms > 0)
    {
      struct timespec ts = { F.slow_ms / 1000, (F.slow_ms % 1000) * 1000000L };

      nanosleep (&ts, NULL);
    }
  if (bytes == 0)
    return 1;
  if (F.oom_at > 0 && F.alloc_calls == F.oom_at)
    return 2;
  charged = (bytes + GRANULARITY - 1) / GRANULARITY * GRANULARITY;
  if (charged > F.total - F.used[d] || (F.max_block > 0 && charged > F.max_block))
    return 2;
  if (F.n_allocs == F.cap_allocs)
    {
      size_t cap = F.cap_allocs ? F.cap_allocs * 2 : 1024;
      FakeAlloc *na = realloc (F.allocs, cap * sizeof *na);

      if (na == NULL)
        return 2;
      F.allocs = na;
      F.cap_allocs = cap;
    }
  a = &F.allocs[F.n_allocs++];
  memset (a, 0, sizeof *a);
  a->dev = d;
  a->bytes = bytes;
  a->charged = charged;
  a->live = 1;
  if (F.real_memory)
    {
      a->real = malloc (bytes);
      if (a->real == NULL)
        {
          F.n_allocs--;
          return 2;
        }
    }
  a->ptr = ((CUdeviceptr) (d + 1) << 44) + F.next[d];
  F.next[d] += charged;
  F.used[d] += charged;
  *ptr = a->ptr;
  return 0;
}

EXPORT CUresult
cuMemFree_v2 (CUdeviceptr ptr)
{
  size_t i;

  HOOK ("cuMemFree");
  for (i = F.n_allocs; i > 0; i--)
    {
      FakeAlloc *a = &F.allocs[i - 1];

      if (a->live && a->ptr == ptr)
        {
          a->live = 0;
          F.used[a->dev] -= a->charged;
          free (a->real);
          a->real = NULL;
          /* drop freed entries from the end so repeated alloc/free stays cheap */
          while (F.n_allocs > 0 && !F.allocs[F.n_allocs - 1].live)
            F.n_allocs--;
          return 0;
        }
    }
  return 1;
}

EXPORT CUresult
cuMemsetD8_v2 (CUdeviceptr   ptr,
               unsigned char value,
               size_t        n)
{
  FakeAlloc *a;

  HOOK ("cuMemsetD8");
  NEED_CTX ();
  a = find_range (ptr, n);
  if (a == NULL)
    return 700;
  if (a->real != NULL)
    memset ((char *) a->real + (ptr - a->ptr), value, n);
  F.touched += n;
  F.clock_ns[F.current] += (double) n / F.copy_gbps;
  return 0;
}

EXPORT CUresult
cuMemAllocHost_v2 (void   **ptr,
                   size_t   bytes)
{
  HOOK ("cuMemAllocHost");
  NEED_CTX ();
  *ptr = malloc (bytes);
  if (*ptr == NULL)
    return 2;
  F.live_host++;
  return 0;
}

EXPORT CUresult
cuMemFreeHost (void *ptr)
{
  HOOK ("cuMemFreeHost");
  free (ptr);
  F.live_host--;
  return 0;
}

/* ---- timing ------------------------------------------------------------- */

EXPORT CUresult
cuEventCreate (void         **event,
               unsigned int   flags)
{
  FakeEvent *e;

  HOOK ("cuEventCreate");
  NEED_CTX ();
  e = calloc (1, sizeof *e);
  if (e == NULL)
    return 2;
  e->dev = F.current;
  F.live_events++;
  *event = e;
  return 0;
}

EXPORT CUresult
cuEventRecord (void *event,
               void *stream)
{
  FakeEvent *e = event;

  HOOK ("cuEventRecord");
  NEED_CTX ();
  e->t_ns = F.clock_ns[e->dev];
  return 0;
}

EXPORT CUresult
cuEventSynchronize (void *event)
{
  HOOK ("cuEventSynchronize");
  return 0;
}

EXPORT CUresult
cuEventElapsedTime (float *ms,
                    void  *start,
                    void  *end)
{
  HOOK ("cuEventElapsedTime");
  *ms = (float) ((((FakeEvent *) end)->t_ns - ((FakeEvent *) start)->t_ns) / 1e6);
  return 0;
}

EXPORT CUresult
cuEventDestroy_v2 (void *event)
{
  HOOK ("cuEventDestroy");
  free (event);
  F.live_events--;
  return 0;
}

/* ---- copies ------------------------------------------------------------- */

EXPORT CUresult
cuMemcpyDtoDAsync_v2 (CUdeviceptr  dst,
                      CUdeviceptr  src,
                      size_t       n,
                      void        *stream)
{
  HOOK ("cuMemcpyDtoDAsync");
  NEED_CTX ();
  if (find_range (dst, n) == NULL || find_range (src, n) == NULL)
    return 700;
  F.clock_ns[F.current] += 2.0 * (double) n / F.copy_gbps;
  return 0;
}

EXPORT CUresult
cuMemcpyHtoDAsync_v2 (CUdeviceptr  dst,
                      const void  *src,
                      size_t       n,
                      void        *stream)
{
  HOOK ("cuMemcpyHtoDAsync");
  NEED_CTX ();
  if (find_range (dst, n) == NULL || src == NULL)
    return 700;
  F.clock_ns[F.current] += (double) n / F.h2d_gbps;
  return 0;
}

EXPORT CUresult
cuMemcpyDtoHAsync_v2 (void        *dst,
                      CUdeviceptr  src,
                      size_t       n,
                      void        *stream)
{
  HOOK ("cuMemcpyDtoHAsync");
  NEED_CTX ();
  if (find_range (src, n) == NULL || dst == NULL)
    return 700;
  F.clock_ns[F.current] += (double) n / F.d2h_gbps;
  return 0;
}

EXPORT CUresult
cuMemcpyPeerAsync (CUdeviceptr  dst,
                   void        *dst_ctx,
                   CUdeviceptr  src,
                   void        *src_ctx,
                   size_t       n,
                   void        *stream)
{
  FakeAlloc *d, *s;

  HOOK ("cuMemcpyPeerAsync");
  NEED_CTX ();
  d = find_range (dst, n);
  s = find_range (src, n);
  if (d == NULL || s == NULL || d->dev != ((FakeCtx *) dst_ctx)->dev || s->dev != ((FakeCtx *) src_ctx)->dev)
    return 700;
  F.clock_ns[F.current] += (double) n / F.p2p_gbps;
  return 0;
}

EXPORT CUresult
cuDeviceCanAccessPeer (int      *can,
                       CUdevice  dev,
                       CUdevice  peer)
{
  HOOK ("cuDeviceCanAccessPeer");
  NEED_DEV (dev);
  NEED_DEV (peer);
  *can = dev != peer;
  return 0;
}

EXPORT CUresult
cuCtxEnablePeerAccess (void         *peer,
                       unsigned int  flags)
{
  HOOK ("cuCtxEnablePeerAccess");
  NEED_CTX ();
  return 0;
}

EXPORT CUresult
cuCtxDisablePeerAccess (void *peer)
{
  HOOK ("cuCtxDisablePeerAccess");
  NEED_CTX ();
  return 0;
}

/* ---- modules and kernels ----------------------------------------------- */

static const char *module_image;

EXPORT CUresult
cuModuleLoadDataEx (void         **module,
                    const void    *image,
                    unsigned int   n,
                    int           *options,
                    void         **values)
{
  HOOK ("cuModuleLoadDataEx");
  NEED_CTX ();
  /* a light check of what a real driver would JIT */
  if (image == NULL || strstr (image, ".version") == NULL || strstr (image, ".target") == NULL
      || strstr (image, ".address_size 64") == NULL)
    return 218;
  module_image = image;
  *module = (void *) &module_image;
  return 0;
}

EXPORT CUresult
cuModuleGetFunction (void       **function,
                     void        *module,
                     const char  *name)
{
  char entry[160];

  HOOK ("cuModuleGetFunction");
  snprintf (entry, sizeof entry, ".entry %s(", name);
  if (module != &module_image || strstr (module_image, entry) == NULL)
    return 500;
  *function = (void *) name;
  return 0;
}

EXPORT CUresult
cuModuleUnload (void *module)
{
  HOOK ("cuModuleUnload");
  return module == &module_image ? 0 : 1;
}

EXPORT CUresult
cuLaunchKernel (void          *f,
                unsigned       gx,
                unsigned       gy,
                unsigned       gz,
                unsigned       bx,
                unsigned       by,
                unsigned       bz,
                unsigned       shared,
                void          *stream,
                void         **params,
                void         **extra)
{
  CUdeviceptr in;
  unsigned long long n16;

  HOOK ("cuLaunchKernel");
  NEED_CTX ();
  if (f == NULL || params == NULL || gx == 0 || bx == 0 || bx > 1024)
    return 1;
  /* procura_read (in, n16, out) */
  in = *(CUdeviceptr *) params[0];
  n16 = *(unsigned long long *) params[1];
  if (find_range (in, (size_t) n16 * 16) == NULL || find_range (*(CUdeviceptr *) params[2], 4) == NULL)
    return 700;
  F.kernels++;
  F.clock_ns[F.current] += (double) n16 * 16.0 / F.read_gbps;
  return 0;
}

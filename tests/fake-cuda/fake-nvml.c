/* fake-nvml.c: a fake libnvidia-ml.so.1 for testing procura-probe without a GPU
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shares FAKE_CUDA_DEVICES, FAKE_CUDA_NAMES and FAKE_CUDA_MEMORY_MIB with fake-cuda.c
 * (device i sits on PCI bus 0x10 + i in both). Also:
 *   FAKE_CUDA_MIG=N          MIG mode enabled with N instances on every GPU
 *   FAKE_NVML_INIT_FAIL=1    nvmlInit fails (the probe carries on without NVML)
 *   FAKE_NVML_NVLINKS=N      N active NVLink links (default: NVLink not supported)
 *   FAKE_NVML_DRIVER=VER     driver version string (default 550.54.15)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__ ((visibility ("default")))

typedef int nvmlReturn_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  unsigned int gpuInstanceSliceCount;
  unsigned int computeInstanceSliceCount;
  unsigned long long memorySizeMB;
} nvmlDeviceAttributes_t;

#define NVML_SUCCESS               0
#define NVML_ERROR_UNINITIALIZED   1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED   3
#define NVML_ERROR_NOT_FOUND       6

static int initialised;

static long
env_long (const char *name,
          long        fallback)
{
  const char *v = getenv (name);

  return v && *v ? strtol (v, NULL, 10) : fallback;
}

/* handle = 0x1000 + gpu * 0x100 + (mig + 1, or 0 for the GPU itself) */
static void *
make_handle (int gpu,
             int mig)
{
  return (void *) (uintptr_t) (0x1000 + gpu * 0x100 + mig + 1);
}

static int
handle_gpu (void *h)
{
  uintptr_t v = (uintptr_t) h;

  if (v < 0x1000)
    return -1;
  return (int) ((v - 0x1000) / 0x100);
}

static int
handle_mig (void *h)
{
  return (int) (((uintptr_t) h - 0x1000) % 0x100) - 1;
}

#define CHECK(h) do { \
    if (!initialised) return NVML_ERROR_UNINITIALIZED; \
    if (handle_gpu (h) < 0 || handle_gpu (h) >= env_long ("FAKE_CUDA_DEVICES", 1)) \
      return NVML_ERROR_INVALID_ARGUMENT; \
  } while (0)

EXPORT nvmlReturn_t
nvmlInit_v2 (void)
{
  if (env_long ("FAKE_NVML_INIT_FAIL", 0))
    return 999;
  initialised = 1;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlShutdown (void)
{
  initialised = 0;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlSystemGetDriverVersion (char         *version,
                            unsigned int  len)
{
  const char *v = getenv ("FAKE_NVML_DRIVER");

  snprintf (version, len, "%s", v ? v : "550.54.15");
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetHandleByPciBusId_v2 (const char  *bus_id,
                                  void       **device)
{
  unsigned domain, bus, slot, fn;

  if (!initialised)
    return NVML_ERROR_UNINITIALIZED;
  if (sscanf (bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4
      || bus < 0x10 || (long) (bus - 0x10) >= env_long ("FAKE_CUDA_DEVICES", 1))
    return NVML_ERROR_NOT_FOUND;
  *device = make_handle ((int) bus - 0x10, -1);
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetHandleByIndex_v2 (unsigned int   index,
                               void         **device)
{
  if (!initialised)
    return NVML_ERROR_UNINITIALIZED;
  if ((long) index >= env_long ("FAKE_CUDA_DEVICES", 1))
    return NVML_ERROR_INVALID_ARGUMENT;
  *device = make_handle ((int) index, -1);
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetUUID (void         *device,
                   char         *uuid,
                   unsigned int  len)
{
  CHECK (device);
  if (handle_mig (device) >= 0)
    snprintf (uuid, len, "MIG-fa4e0000-0000-4000-8000-%04x%08x", handle_gpu (device), handle_mig (device));
  else
    snprintf (uuid, len, "GPU-fa4e0000-0000-4000-8000-%012x", handle_gpu (device));
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetName (void         *device,
                   char         *name,
                   unsigned int  len)
{
  const char *names = getenv ("FAKE_CUDA_NAMES");
  int gpu = handle_gpu (device), i;
  const char *p;
  size_t n;

  CHECK (device);
  if (names == NULL || *names == '\0')
    names = "NVIDIA H100 80GB HBM3";
  p = names;
  for (i = 0; i < gpu && strchr (p, ',') != NULL; i++)
    p = strchr (p, ',') + 1;
  n = strchr (p, ',') ? (size_t) (strchr (p, ',') - p) : strlen (p);
  if (handle_mig (device) >= 0)
    snprintf (name, len, "%.*s MIG 1g.10gb", (int) n, p);
  else
    snprintf (name, len, "%.*s", (int) n, p);
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMemoryInfo (void         *device,
                         nvmlMemory_t *memory)
{
  unsigned long long total = (unsigned long long) env_long ("FAKE_CUDA_MEMORY_MIB", 81559) << 20;

  CHECK (device);
  if (handle_mig (device) >= 0)
    total /= 8;
  memory->total = total;
  memory->used = 0;
  memory->free = total;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxClockInfo (void         *device,
                           int           type,
                           unsigned int *mhz)
{
  CHECK (device);
  *mhz = type == 2 ? 2619 : 1980;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetClockInfo (void         *device,
                        int           type,
                        unsigned int *mhz)
{
  CHECK (device);
  *mhz = type == 2 ? 2619 : 1755;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetCurrPcieLinkGeneration (void         *device,
                                     unsigned int *gen)
{
  CHECK (device);
  *gen = 5;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetCurrPcieLinkWidth (void         *device,
                                unsigned int *width)
{
  CHECK (device);
  *width = 16;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxPcieLinkGeneration (void         *device,
                                    unsigned int *gen)
{
  CHECK (device);
  *gen = 5;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxPcieLinkWidth (void         *device,
                               unsigned int *width)
{
  CHECK (device);
  *width = 16;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetNvLinkState (void         *device,
                          unsigned int  link,
                          int          *active)
{
  long links = env_long ("FAKE_NVML_NVLINKS", 0);

  CHECK (device);
  if (links <= 0)
    return NVML_ERROR_NOT_SUPPORTED;
  if (link >= 18)
    return NVML_ERROR_INVALID_ARGUMENT;
  *active = (long) link < links;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetEccMode (void *device,
                      int  *current,
                      int  *pending)
{
  CHECK (device);
  *current = *pending = 1;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMigMode (void         *device,
                      unsigned int *current,
                      unsigned int *pending)
{
  CHECK (device);
  *current = *pending = env_long ("FAKE_CUDA_MIG", 0) > 0;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxMigDeviceCount (void         *device,
                                unsigned int *count)
{
  CHECK (device);
  *count = 7;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMigDeviceHandleByIndex (void          *device,
                                     unsigned int   index,
                                     void         **mig)
{
  CHECK (device);
  if ((long) index >= env_long ("FAKE_CUDA_MIG", 0))
    return NVML_ERROR_NOT_FOUND;
  *mig = make_handle (handle_gpu (device), (int) index);
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetAttributes_v2 (void                   *device,
                            nvmlDeviceAttributes_t *attributes)
{
  CHECK (device);
  memset (attributes, 0, sizeof *attributes);
  attributes->multiprocessorCount = handle_mig (device) >= 0 ? 16 : 132;
  attributes->gpuInstanceSliceCount = 1;
  attributes->computeInstanceSliceCount = 1;
  attributes->memorySizeMB = (unsigned long long) env_long ("FAKE_CUDA_MEMORY_MIB", 81559) / 8;
  return NVML_SUCCESS;
}

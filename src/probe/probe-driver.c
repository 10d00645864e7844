/* probe-driver.c: dlopen the CUDA driver and NVML by soname
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "probe-driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t      offset;     /* of the function pointer in the struct */
  bool        required;
  const char *names[3];   /* tried in order */
} ProbeSymbol;

#define CU(field, req, ...) { offsetof (ProbeCuda, field), req, { __VA_ARGS__ } }
#define NV(field, ...) { offsetof (ProbeNvml, field), false, { __VA_ARGS__ } }

static const ProbeSymbol cuda_symbols[] = {
  CU (Init, true, "cuInit"),
  CU (DriverGetVersion, true, "cuDriverGetVersion"),
  CU (DeviceGetCount, true, "cuDeviceGetCount"),
  CU (DeviceGet, true, "cuDeviceGet"),
  CU (DeviceGetName, true, "cuDeviceGetName"),
  CU (DeviceTotalMem, true, "cuDeviceTotalMem_v2", "cuDeviceTotalMem"),
  CU (DeviceGetAttribute, true, "cuDeviceGetAttribute"),
  CU (DevicePrimaryCtxRetain, true, "cuDevicePrimaryCtxRetain"),
  CU (DevicePrimaryCtxRelease, true, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
  CU (CtxSetCurrent, true, "cuCtxSetCurrent"),
  CU (CtxSynchronize, true, "cuCtxSynchronize"),
  CU (MemGetInfo, true, "cuMemGetInfo_v2", "cuMemGetInfo"),
  CU (MemAlloc, true, "cuMemAlloc_v2", "cuMemAlloc"),
  CU (MemFree, true, "cuMemFree_v2", "cuMemFree"),
  CU (MemsetD8, true, "cuMemsetD8_v2", "cuMemsetD8"),
  CU (DeviceGetUuid, false, "cuDeviceGetUuid_v2", "cuDeviceGetUuid"),
  CU (GetErrorName, false, "cuGetErrorName"),
  CU (GetErrorString, false, "cuGetErrorString"),
  CU (ModuleLoadDataEx, false, "cuModuleLoadDataEx"),
  CU (ModuleGetFunction, false, "cuModuleGetFunction"),
  CU (ModuleUnload, false, "cuModuleUnload"),
  CU (LaunchKernel, false, "cuLaunchKernel"),
  CU (EventCreate, false, "cuEventCreate"),
  CU (EventRecord, false, "cuEventRecord"),
  CU (EventSynchronize, false, "cuEventSynchronize"),
  CU (EventElapsedTime, false, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
  CU (EventDestroy, false, "cuEventDestroy_v2", "cuEventDestroy"),
  CU (MemcpyDtoDAsync, false, "cuMemcpyDtoDAsync_v2", "cuMemcpyDtoDAsync"),
  CU (MemcpyHtoDAsync, false, "cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync"),
  CU (MemcpyDtoHAsync, false, "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync"),
  CU (MemcpyPeerAsync, false, "cuMemcpyPeerAsync"),
  CU (MemAllocHost, false, "cuMemAllocHost_v2", "cuMemAllocHost"),
  CU (MemFreeHost, false, "cuMemFreeHost"),
  CU (DeviceCanAccessPeer, false, "cuDeviceCanAccessPeer"),
  CU (CtxEnablePeerAccess, false, "cuCtxEnablePeerAccess"),
  CU (CtxDisablePeerAccess, false, "cuCtxDisablePeerAccess"),
};

static const ProbeSymbol nvml_symbols[] = {
  NV (Init, "nvmlInit_v2", "nvmlInit"),
  NV (Shutdown, "nvmlShutdown"),
  NV (SystemGetDriverVersion, "nvmlSystemGetDriverVersion"),
  NV (DeviceGetHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"),
  NV (DeviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"),
  NV (DeviceGetUUID, "nvmlDeviceGetUUID"),
  NV (DeviceGetName, "nvmlDeviceGetName"),
  NV (DeviceGetMemoryInfo, "nvmlDeviceGetMemoryInfo"),
  NV (DeviceGetMaxClockInfo, "nvmlDeviceGetMaxClockInfo"),
  NV (DeviceGetClockInfo, "nvmlDeviceGetClockInfo"),
  NV (DeviceGetCurrPcieLinkGeneration, "nvmlDeviceGetCurrPcieLinkGeneration"),
  NV (DeviceGetCurrPcieLinkWidth, "nvmlDeviceGetCurrPcieLinkWidth"),
  NV (DeviceGetMaxPcieLinkGeneration, "nvmlDeviceGetMaxPcieLinkGeneration"),
  NV (DeviceGetMaxPcieLinkWidth, "nvmlDeviceGetMaxPcieLinkWidth"),
  NV (DeviceGetNvLinkState, "nvmlDeviceGetNvLinkState"),
  NV (DeviceGetEccMode, "nvmlDeviceGetEccMode"),
  NV (DeviceGetMigMode, "nvmlDeviceGetMigMode"),
  NV (DeviceGetMaxMigDeviceCount, "nvmlDeviceGetMaxMigDeviceCount"),
  NV (DeviceGetMigDeviceHandleByIndex, "nvmlDeviceGetMigDeviceHandleByIndex"),
  NV (DeviceGetAttributes, "nvmlDeviceGetAttributes_v2", "nvmlDeviceGetAttributes"),
};

static bool
resolve (void              *handle,
         void              *table,
         const ProbeSymbol *symbols,
         size_t             n,
         char              *err,
         size_t             err_len)
{
  size_t i;

  for (i = 0; i < n; i++)
    {
      void *fn = NULL;
      int j;

      for (j = 0; j < 3 && symbols[i].names[j] != NULL && fn == NULL; j++)
        fn = dlsym (handle, symbols[i].names[j]);
      if (fn == NULL && symbols[i].required)
        {
          snprintf (err, err_len, "the driver library lacks %s", symbols[i].names[0]);
          return false;
        }
      /* POSIX guarantees that a void * from dlsym converts to a function pointer */
      memcpy ((char *) table + symbols[i].offset, &fn, sizeof fn);
    }
  return true;
}

static void *
open_library (const char *env,
              const char *soname,
              char       *err,
              size_t      err_len)
{
  const char *path = getenv (env);
  void *handle;

  if (path == NULL || path[0] == '\0')
    path = soname;
  handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    {
      const char *e = dlerror ();

      snprintf (err, err_len, "%s", e ? e : path);
    }
  return handle;
}

bool
probe_cuda_load (ProbeCuda *cuda,
                 bool      *missing_library,
                 char      *err,
                 size_t     err_len)
{
  memset (cuda, 0, sizeof *cuda);
  *missing_library = false;
  cuda->handle = open_library ("PROCURA_PROBE_LIBCUDA", "libcuda.so.1", err, err_len);
  if (cuda->handle == NULL)
    {
      *missing_library = true;
      return false;
    }
  if (!resolve (cuda->handle, cuda, cuda_symbols,
                sizeof cuda_symbols / sizeof cuda_symbols[0], err, err_len))
    {
      probe_cuda_close (cuda);
      return false;
    }
  return true;
}

void
probe_cuda_close (ProbeCuda *cuda)
{
  if (cuda->handle != NULL)
    dlclose (cuda->handle);
  memset (cuda, 0, sizeof *cuda);
}

bool
probe_nvml_load (ProbeNvml *nvml,
                 char      *err,
                 size_t     err_len)
{
  memset (nvml, 0, sizeof *nvml);
  nvml->handle = open_library ("PROCURA_PROBE_LIBNVML", "libnvidia-ml.so.1", err, err_len);
  if (nvml->handle == NULL)
    return false;
  resolve (nvml->handle, nvml, nvml_symbols,
           sizeof nvml_symbols / sizeof nvml_symbols[0], err, err_len);
  if (nvml->Init == NULL || nvml->Init () != NVML_SUCCESS)
    {
      snprintf (err, err_len, "nvmlInit failed");
      dlclose (nvml->handle);
      memset (nvml, 0, sizeof *nvml);
      return false;
    }
  return true;
}

void
probe_nvml_close (ProbeNvml *nvml)
{
  if (nvml->handle != NULL)
    {
      if (nvml->Shutdown != NULL)
        nvml->Shutdown ();
      dlclose (nvml->handle);
    }
  memset (nvml, 0, sizeof *nvml);
}

const char *
probe_cuda_error_name (const ProbeCuda *cuda,
                       CUresult         result,
                       char            *buf,
                       size_t           len)
{
  const char *name = NULL;

  if (cuda->GetErrorName != NULL && cuda->GetErrorName (result, &name) == CUDA_SUCCESS && name != NULL)
    return name;
  switch (result)
    {
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
    case 46: return "CUDA_ERROR_DEVICES_UNAVAILABLE";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 999: return "CUDA_ERROR_UNKNOWN";
    default: break;
    }
  snprintf (buf, len, "CUresult %d", result);
  return buf;
}

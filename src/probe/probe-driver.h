/* probe-driver.h: the CUDA driver and NVML entry points procura-probe uses, dlopen'ed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No CUDA or NVML headers: the few types are declared here. Versioned symbols
 * (_v2) are tried first, then the unsuffixed ones.
 */
#pragma once

#include <stddef.h>
#include <stdbool.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct { char bytes[16]; } CUuuid;

#define CUDA_SUCCESS                0
#define CUDA_ERROR_OUT_OF_MEMORY    2
#define CUDA_ERROR_NO_DEVICE        100

/* CUdevice_attribute values used */
#define CU_ATTR_CLOCK_RATE              13   /* kHz */
#define CU_ATTR_MULTIPROCESSOR_COUNT    16
#define CU_ATTR_ECC_ENABLED             32
#define CU_ATTR_PCI_BUS_ID              33
#define CU_ATTR_PCI_DEVICE_ID           34
#define CU_ATTR_MEMORY_CLOCK_RATE       36   /* kHz */
#define CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH 37   /* bits */
#define CU_ATTR_PCI_DOMAIN_ID           50
#define CU_ATTR_CC_MAJOR                75
#define CU_ATTR_CC_MINOR                76

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
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

#define NVML_SUCCESS          0
#define NVML_CLOCK_GRAPHICS   0
#define NVML_CLOCK_SM         1
#define NVML_CLOCK_MEM        2
#define NVML_NVLINK_MAX_LINKS 18

typedef struct {
  void *handle;
  /* required */
  CUresult (*Init) (unsigned int flags);
  CUresult (*DriverGetVersion) (int *version);
  CUresult (*DeviceGetCount) (int *count);
  CUresult (*DeviceGet) (CUdevice *dev, int ordinal);
  CUresult (*DeviceGetName) (char *name, int len, CUdevice dev);
  CUresult (*DeviceTotalMem) (size_t *bytes, CUdevice dev);
  CUresult (*DeviceGetAttribute) (int *value, int attribute, CUdevice dev);
  CUresult (*DevicePrimaryCtxRetain) (CUcontext *ctx, CUdevice dev);
  CUresult (*DevicePrimaryCtxRelease) (CUdevice dev);
  CUresult (*CtxSetCurrent) (CUcontext ctx);
  CUresult (*CtxSynchronize) (void);
  CUresult (*MemGetInfo) (size_t *free_bytes, size_t *total_bytes);
  CUresult (*MemAlloc) (CUdeviceptr *ptr, size_t bytes);
  CUresult (*MemFree) (CUdeviceptr ptr);
  CUresult (*MemsetD8) (CUdeviceptr ptr, unsigned char value, size_t n);
  /* optional */
  CUresult (*DeviceGetUuid) (CUuuid *uuid, CUdevice dev);
  CUresult (*GetErrorName) (CUresult error, const char **name);
  CUresult (*GetErrorString) (CUresult error, const char **text);
  CUresult (*ModuleLoadDataEx) (CUmodule *module, const void *image, unsigned int n, int *options, void **values);
  CUresult (*ModuleGetFunction) (CUfunction *function, CUmodule module, const char *name);
  CUresult (*ModuleUnload) (CUmodule module);
  CUresult (*LaunchKernel) (CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                            unsigned bx, unsigned by, unsigned bz, unsigned shared,
                            CUstream stream, void **params, void **extra);
  CUresult (*EventCreate) (CUevent *event, unsigned int flags);
  CUresult (*EventRecord) (CUevent event, CUstream stream);
  CUresult (*EventSynchronize) (CUevent event);
  CUresult (*EventElapsedTime) (float *ms, CUevent start, CUevent end);
  CUresult (*EventDestroy) (CUevent event);
  CUresult (*MemcpyDtoDAsync) (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream);
  CUresult (*MemcpyHtoDAsync) (CUdeviceptr dst, const void *src, size_t n, CUstream stream);
  CUresult (*MemcpyDtoHAsync) (void *dst, CUdeviceptr src, size_t n, CUstream stream);
  CUresult (*MemcpyPeerAsync) (CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n, CUstream stream);
  CUresult (*MemAllocHost) (void **ptr, size_t bytes);
  CUresult (*MemFreeHost) (void *ptr);
  CUresult (*DeviceCanAccessPeer) (int *can, CUdevice dev, CUdevice peer);
  CUresult (*CtxEnablePeerAccess) (CUcontext peer, unsigned int flags);
  CUresult (*CtxDisablePeerAccess) (CUcontext peer);
} ProbeCuda;

typedef struct {
  void *handle;
  nvmlReturn_t (*Init) (void);
  nvmlReturn_t (*Shutdown) (void);
  nvmlReturn_t (*SystemGetDriverVersion) (char *version, unsigned int len);
  nvmlReturn_t (*DeviceGetHandleByPciBusId) (const char *bus_id, nvmlDevice_t *dev);
  nvmlReturn_t (*DeviceGetHandleByIndex) (unsigned int index, nvmlDevice_t *dev);
  nvmlReturn_t (*DeviceGetUUID) (nvmlDevice_t dev, char *uuid, unsigned int len);
  nvmlReturn_t (*DeviceGetName) (nvmlDevice_t dev, char *name, unsigned int len);
  nvmlReturn_t (*DeviceGetMemoryInfo) (nvmlDevice_t dev, nvmlMemory_t *memory);
  nvmlReturn_t (*DeviceGetMaxClockInfo) (nvmlDevice_t dev, int type, unsigned int *mhz);
  nvmlReturn_t (*DeviceGetClockInfo) (nvmlDevice_t dev, int type, unsigned int *mhz);
  nvmlReturn_t (*DeviceGetCurrPcieLinkGeneration) (nvmlDevice_t dev, unsigned int *gen);
  nvmlReturn_t (*DeviceGetCurrPcieLinkWidth) (nvmlDevice_t dev, unsigned int *width);
  nvmlReturn_t (*DeviceGetMaxPcieLinkGeneration) (nvmlDevice_t dev, unsigned int *gen);
  nvmlReturn_t (*DeviceGetMaxPcieLinkWidth) (nvmlDevice_t dev, unsigned int *width);
  nvmlReturn_t (*DeviceGetNvLinkState) (nvmlDevice_t dev, unsigned int link, int *active);
  nvmlReturn_t (*DeviceGetEccMode) (nvmlDevice_t dev, int *current, int *pending);
  nvmlReturn_t (*DeviceGetMigMode) (nvmlDevice_t dev, unsigned int *current, unsigned int *pending);
  nvmlReturn_t (*DeviceGetMaxMigDeviceCount) (nvmlDevice_t dev, unsigned int *count);
  nvmlReturn_t (*DeviceGetMigDeviceHandleByIndex) (nvmlDevice_t dev, unsigned int index, nvmlDevice_t *mig);
  nvmlReturn_t (*DeviceGetAttributes) (nvmlDevice_t dev, nvmlDeviceAttributes_t *attributes);
} ProbeNvml;

/* Loads libcuda (PROCURA_PROBE_LIBCUDA or the soname "libcuda.so.1"). Returns false
 * with a message in @err when the library is absent or lacks a required symbol;
 * @missing_library tells which. */
bool probe_cuda_load  (ProbeCuda  *cuda,
                       bool       *missing_library,
                       char       *err,
                       size_t      err_len);
void probe_cuda_close (ProbeCuda  *cuda);
/* NVML is optional: false leaves every pointer NULL. */
bool probe_nvml_load  (ProbeNvml  *nvml,
                       char       *err,
                       size_t      err_len);
void probe_nvml_close (ProbeNvml  *nvml);
/* "CUDA_ERROR_OUT_OF_MEMORY" or "CUresult 123"; never NULL, static or driver-owned. */
const char *probe_cuda_error_name (const ProbeCuda *cuda,
                                   CUresult         result,
                                   char            *buf,
                                   size_t           len);

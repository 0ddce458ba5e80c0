/* clmux OpenCL front-end: the one platform. It and its devices are created
 * on first use (from any thread) and live for the whole process, so handles
 * the application holds can never dangle. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

static struct _cl_platform_id platform_object;
static cl_platform_id platform_handle; /* NULL if creation failed */
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

/* Platform and root devices are never destroyed: nothing to free. */
static void never_destroyed(clx_object *object) { (void)object; }

/* One cl_device_id per Mux CPU device, each with its compute queue. */
static bool create_devices(cl_platform_id platform) {
  uint64_t count = 0;
  if (muxGetDeviceInfos(mux_device_type_cpu, 0, NULL, &count) != mux_success ||
      count == 0) {
    return false;
  }
  mux_device_info_t *infos = calloc(count, sizeof *infos);
  mux_device_t *mux_devices = calloc(count, sizeof *mux_devices);
  struct _cl_device_id *devices = calloc(count, sizeof *devices);
  platform->devices = calloc(count, sizeof *platform->devices);
  bool ok =
      infos && mux_devices && devices && platform->devices &&
      muxGetDeviceInfos(mux_device_type_cpu, count, infos, NULL) ==
          mux_success &&
      muxCreateDevices(count, infos, clx_allocator, mux_devices) == mux_success;
  for (uint64_t i = 0; ok && i < count; i++) {
    struct _cl_device_id *device = &devices[i];
    clx_object_init(CLX_OBJ(device), clx_kind_device, never_destroyed);
    device->platform = platform;
    device->info = infos[i];
    device->mux_device = mux_devices[i];
    if (muxGetQueue(mux_devices[i], mux_queue_type_compute, 0,
                    &device->mux_queue) != mux_success) {
      ok = false;
      break;
    }
    platform->devices[platform->num_devices++] = device;
  }
  if (!ok) {
    if (mux_devices) {
      for (uint64_t i = 0; i < count; i++) {
        if (mux_devices[i]) muxDestroyDevice(mux_devices[i], clx_allocator);
      }
    }
    free(devices);
    free(platform->devices);
    platform->devices = NULL;
    platform->num_devices = 0;
  }
  free(infos);
  free(mux_devices);
  return ok;
}

static void create_platform(void) {
  clx_object_init(CLX_OBJ(&platform_object), clx_kind_platform,
                  never_destroyed);
  if (create_devices(&platform_object)) platform_handle = &platform_object;
}

cl_platform_id clx_platform(void) {
  pthread_once(&platform_once, create_platform);
  return platform_handle;
}

/* The loader calls this through clIcdGetPlatformIDsKHR; an application
 * linked to the loader sees every vendor's platforms instead. */
cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
                                    cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms != NULL) ||
      (platforms == NULL && num_platforms == NULL)) {
    return CL_INVALID_VALUE;
  }
  cl_platform_id platform = clx_platform();
  if (num_platforms) *num_platforms = platform ? 1 : 0;
  if (!platform) return CL_PLATFORM_NOT_FOUND_KHR;
  if (platforms) platforms[0] = platform;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                     cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  /* NULL selects the only platform (implementation-defined in 1.2). */
  if (platform == NULL) platform = clx_platform();
  if (!clx_valid(platform, clx_kind_platform) || platform != clx_platform()) {
    return CL_INVALID_PLATFORM;
  }
  const char *value;
  switch (param_name) {
    case CL_PLATFORM_PROFILE:
      value = "FULL_PROFILE";
      break;
    case CL_PLATFORM_VERSION:
      value = CLX_OPENCL_VERSION_STRING " clmux " CLX_VERSION_STRING;
      break;
    case CL_PLATFORM_NAME:
    case CL_PLATFORM_VENDOR:
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      value = "clmux";
      break;
    /* Every device has every extension (versions.c). */
    case CL_PLATFORM_EXTENSIONS:
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION_KHR:
      return clx_extensions_info(
          param_name == CL_PLATFORM_EXTENSIONS_WITH_VERSION_KHR,
          param_value_size, param_value, param_value_size_ret);
    case CL_PLATFORM_NUMERIC_VERSION_KHR: {
      cl_version_khr version = CLX_OPENCL_VERSION;
      return clx_info(&version, sizeof version, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: { /* clGetHostTimer's clock */
      cl_ulong resolution = 1;
      return clx_info(&resolution, sizeof resolution, param_value_size,
                      param_value, param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
  return clx_info_string(value, param_value_size, param_value,
                         param_value_size_ret);
}

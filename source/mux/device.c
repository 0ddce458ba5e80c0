/* clmux Mux API layer: device entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

/* More device infos than any target of this build registers. */
#define API_MAX_DEVICE_INFOS 16

mux_result_t muxGetDeviceInfos(uint32_t device_types,
                               uint64_t device_infos_length,
                               mux_device_info_t *out_device_infos,
                               uint64_t *out_device_infos_length) {
  if (device_types == 0) return mux_error_invalid_value;
  if (device_infos_length == 0 && out_device_infos != NULL) {
    return mux_error_invalid_value;
  }
  if (device_infos_length != 0 && out_device_infos == NULL) {
    return mux_error_null_out_parameter;
  }
  /* Not in the spec's list: a call that asks for nothing has nowhere to
   * put its answer. */
  if (out_device_infos == NULL && out_device_infos_length == NULL) {
    return mux_error_null_out_parameter;
  }
  /* Entries the target has no device for read as NULL, not garbage. */
  for (uint64_t i = 0; i < device_infos_length; i++) {
    out_device_infos[i] = NULL;
  }
  return cpuGetDeviceInfos(device_types, device_infos_length, out_device_infos,
                           out_device_infos_length);
}

/* Whether `info` is one the target registers and can create a device for
 * (a compiler-only device cannot be initialized). */
static bool api_device_info_is_available(mux_device_info_t info) {
  mux_device_info_t known[API_MAX_DEVICE_INFOS] = {NULL};
  uint64_t count = 0;
  if (cpuGetDeviceInfos(mux_device_type_all, 0, NULL, &count) != mux_success) {
    return false;
  }
  if (count > API_MAX_DEVICE_INFOS) count = API_MAX_DEVICE_INFOS;
  if (count == 0 ||
      cpuGetDeviceInfos(mux_device_type_all, count, known, NULL) !=
          mux_success) {
    return false;
  }
  for (uint64_t i = 0; i < count; i++) {
    if (known[i] == info) {
      return (info->device_type & mux_device_type_compiler) == 0;
    }
  }
  return false;
}

mux_result_t muxCreateDevices(uint64_t devices_length,
                              mux_device_info_t *device_infos,
                              mux_allocator_info_t allocator_info,
                              mux_device_t *out_devices) {
  if (devices_length > 0 && device_infos == NULL) {
    return mux_error_invalid_value;
  }
  if (devices_length > 0 && out_devices == NULL) {
    return mux_error_null_out_parameter;
  }
  for (uint64_t i = 0; i < devices_length; i++) {
    if (device_infos[i] == NULL) return mux_error_invalid_value;
    if (!api_device_info_is_available(device_infos[i])) {
      return mux_error_feature_unsupported;
    }
  }
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_devices == NULL) return mux_error_null_out_parameter;
  if (devices_length == 0) return mux_success; /* nothing to create */
  return cpuCreateDevices(devices_length, device_infos, allocator_info,
                          out_devices);
}

void muxDestroyDevice(mux_device_t device, mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_allocator(allocator_info)) return;
  cpuDestroyDevice(device, allocator_info);
}

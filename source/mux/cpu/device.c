/* clmux CPU target: device. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuGetDeviceInfos(uint32_t device_types,
                               uint64_t device_infos_length,
                               mux_device_info_t *out_device_infos,
                               uint64_t *out_device_infos_length) {
  (void)device_types;
  (void)device_infos_length;
  (void)out_device_infos;
  (void)out_device_infos_length;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCreateDevices(uint64_t devices_length,
                              mux_device_info_t *device_infos,
                              mux_allocator_info_t allocator_info,
                              mux_device_t *out_devices) {
  (void)devices_length;
  (void)device_infos;
  (void)allocator_info;
  (void)out_devices;
  return mux_error_feature_unsupported;
}

void cpuDestroyDevice(mux_device_t device, mux_allocator_info_t allocator_info) {
  (void)device;
  (void)allocator_info;
}

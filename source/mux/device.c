/* clmux Mux API layer: device entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxGetDeviceInfos(uint32_t device_types,
                               uint64_t device_infos_length,
                               mux_device_info_t *out_device_infos,
                               uint64_t *out_device_infos_length) {
  return cpuGetDeviceInfos(device_types, device_infos_length, out_device_infos, out_device_infos_length);
}

mux_result_t muxCreateDevices(uint64_t devices_length,
                              mux_device_info_t *device_infos,
                              mux_allocator_info_t allocator_info,
                              mux_device_t *out_devices) {
  return cpuCreateDevices(devices_length, device_infos, allocator_info, out_devices);
}

void muxDestroyDevice(mux_device_t device, mux_allocator_info_t allocator_info) {
  cpuDestroyDevice(device, allocator_info);
}

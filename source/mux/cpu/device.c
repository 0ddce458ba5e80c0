/* clmux CPU target: devices. There is one CPU device, and partitions of it
 * (mux_cpu.h); creating one starts its worker pool and compute queue,
 * destroying it stops them. */
#include "../target.h"
#include "cpu.h"

mux_result_t cpuGetDeviceInfos(uint32_t device_types,
                               uint64_t device_infos_length,
                               mux_device_info_t *out_device_infos,
                               uint64_t *out_device_infos_length) {
  struct mux_device_info_s *info = cpu_device_info();
  uint64_t available =
      (info && (device_types & info->device_type)) ? 1 : 0;
  if (out_device_infos) {
    for (uint64_t i = 0; i < device_infos_length && i < available; i++) {
      out_device_infos[i] = info;
    }
  }
  if (out_device_infos_length) *out_device_infos_length = available;
  return info ? mux_success : mux_error_internal;
}

mux_result_t cpuCreateDevices(uint64_t devices_length,
                              mux_device_info_t *device_infos,
                              mux_allocator_info_t allocator_info,
                              mux_device_t *out_devices) {
  struct mux_device_info_s *info = cpu_device_info();
  for (uint64_t i = 0; i < devices_length; i++) {
    if (!info || device_infos[i] != info) {
      return mux_error_feature_unsupported;
    }
  }
  for (uint64_t i = 0; i < devices_length; i++) {
    cpu_device *device =
        cpu_calloc(allocator_info, sizeof(cpu_device), _Alignof(cpu_device));
    mux_result_t error = mux_error_out_of_memory;
    if (device) {
      device->base.id = CPU_ID(mux_object_id_device);
      device->base.info = info;
      device->allocator = allocator_info;
      device->pool = cpu_pool_create(allocator_info, NULL, 0);
      error = device->pool ? cpu_queue_create(device) : mux_error_out_of_memory;
    }
    if (error != mux_success) {
      if (device && device->pool) cpu_pool_destroy(device->pool, allocator_info);
      cpu_free(allocator_info, device);
      for (uint64_t j = 0; j < i; j++) {
        cpuDestroyDevice(out_devices[j], allocator_info);
        out_devices[j] = NULL;
      }
      return error;
    }
    out_devices[i] = &device->base;
  }
  return mux_success;
}

mux_result_t muxCpuCreatePartition(mux_device_t device, const uint32_t *cores,
                                   uint32_t core_count, mux_device_info_t info,
                                   mux_allocator_info_t allocator_info,
                                   mux_device_t *out_device) {
  const struct mux_device_info_s *whole = cpu_device_info();
  if (!device || !whole || !cores || core_count == 0 || !info || !out_device ||
      !allocator_info.alloc || !allocator_info.free) {
    return mux_error_invalid_value;
  }
  for (uint32_t i = 0; i < core_count; i++) {
    if (cores[i] >= whole->compute_units) return mux_error_invalid_value;
    for (uint32_t j = 0; j < i; j++) {
      if (cores[j] == cores[i]) return mux_error_invalid_value;
    }
  }
  cpu_device *partition =
      cpu_calloc(allocator_info, sizeof(cpu_device), _Alignof(cpu_device));
  if (!partition) return mux_error_out_of_memory;
  partition->base.id = CPU_ID(mux_object_id_device);
  partition->base.info = info;
  partition->allocator = allocator_info;
  partition->pool = cpu_pool_create(allocator_info, cores, core_count);
  mux_result_t error =
      partition->pool ? cpu_queue_create(partition) : mux_error_out_of_memory;
  if (error != mux_success) {
    if (partition->pool) cpu_pool_destroy(partition->pool, allocator_info);
    cpu_free(allocator_info, partition);
    return error;
  }
  *out_device = &partition->base;
  return mux_success;
}

void cpuDestroyDevice(mux_device_t device, mux_allocator_info_t allocator_info) {
  cpu_device *cpu = (cpu_device *)device;
  cpu_queue_destroy(cpu);
  cpu_pool_destroy(cpu->pool, allocator_info);
  cpu->base.id = 0;
  cpu_free(allocator_info, cpu);
}

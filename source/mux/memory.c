/* clmux Mux API layer: memory entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxAllocateMemory(mux_device_t device, size_t size, uint32_t heap,
                               uint32_t memory_properties,
                               mux_allocation_type_e allocation_type,
                               uint32_t alignment,
                               mux_allocator_info_t allocator_info,
                               mux_memory_t *out_memory) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (size == 0) return mux_error_invalid_value;
  if (heap == 0) return mux_error_invalid_value;
  if (memory_properties == 0) return mux_error_invalid_value;
  if (alignment != 0 && !api_is_power_of_two(alignment)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_memory == NULL) return mux_error_null_out_parameter;
  return cpuAllocateMemory(device, size, heap, memory_properties,
                           allocation_type, alignment, allocator_info,
                           out_memory);
}

mux_result_t muxCreateMemoryFromHost(mux_device_t device, size_t size,
                                     void *host_pointer,
                                     mux_allocator_info_t allocator_info,
                                     mux_memory_t *out_memory) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  const struct mux_device_info_s *info = device->info;
  if (info == NULL ||
      !(info->allocation_capabilities &
        mux_allocation_capabilities_cached_host)) {
    return mux_error_feature_unsupported;
  }
  if (size == 0) return mux_error_invalid_value;
  /* The spec's "memory_properties is 0" rule names a parameter this entry
   * point does not have; there is nothing to check. */
  if (host_pointer == NULL) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_memory == NULL) return mux_error_null_out_parameter;
  return cpuCreateMemoryFromHost(device, size, host_pointer, allocator_info,
                                 out_memory);
}

void muxFreeMemory(mux_device_t device, mux_memory_t memory,
                   mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_memory(memory) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuFreeMemory(device, memory, allocator_info);
}

mux_result_t muxMapMemory(mux_device_t device, mux_memory_t memory,
                          uint64_t offset, uint64_t size, void **out_data) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  if (offset > memory->size) return mux_error_invalid_value;
  if (size > memory->size) return mux_error_invalid_value;
  if (api_exceeds(offset, size, memory->size)) return mux_error_invalid_value;
  if (size == 0) return mux_error_invalid_value;
  /* The spec's "flags is 0" rule names a parameter muxMapMemory does not
   * have; there is nothing to check. */
  if (out_data == NULL) return mux_error_null_out_parameter;
  if (memory->properties & mux_memory_property_device_local) {
    return mux_error_invalid_value;
  }
  return cpuMapMemory(device, memory, offset, size, out_data);
}

mux_result_t muxFlushMappedMemoryToDevice(mux_device_t device,
                                          mux_memory_t memory, uint64_t offset,
                                          uint64_t size) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  if (api_exceeds(offset, size, memory->size)) return mux_error_invalid_value;
  return cpuFlushMappedMemoryToDevice(device, memory, offset, size);
}

mux_result_t muxFlushMappedMemoryFromDevice(mux_device_t device,
                                            mux_memory_t memory,
                                            uint64_t offset, uint64_t size) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  if (api_exceeds(offset, size, memory->size)) return mux_error_invalid_value;
  return cpuFlushMappedMemoryFromDevice(device, memory, offset, size);
}

mux_result_t muxUnmapMemory(mux_device_t device, mux_memory_t memory) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  return cpuUnmapMemory(device, memory);
}

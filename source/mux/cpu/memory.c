/* clmux CPU target: memory. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuAllocateMemory(mux_device_t device, size_t size, uint32_t heap,
                               uint32_t memory_properties,
                               mux_allocation_type_e allocation_type,
                               uint32_t alignment,
                               mux_allocator_info_t allocator_info,
                               mux_memory_t *out_memory) {
  (void)device;
  (void)size;
  (void)heap;
  (void)memory_properties;
  (void)allocation_type;
  (void)alignment;
  (void)allocator_info;
  (void)out_memory;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCreateMemoryFromHost(mux_device_t device, size_t size,
                                     void *host_pointer,
                                     mux_allocator_info_t allocator_info,
                                     mux_memory_t *out_memory) {
  (void)device;
  (void)size;
  (void)host_pointer;
  (void)allocator_info;
  (void)out_memory;
  return mux_error_feature_unsupported;
}

void cpuFreeMemory(mux_device_t device, mux_memory_t memory,
                   mux_allocator_info_t allocator_info) {
  (void)device;
  (void)memory;
  (void)allocator_info;
}

mux_result_t cpuMapMemory(mux_device_t device, mux_memory_t memory,
                          uint64_t offset, uint64_t size, void **out_data) {
  (void)device;
  (void)memory;
  (void)offset;
  (void)size;
  (void)out_data;
  return mux_error_feature_unsupported;
}

mux_result_t cpuFlushMappedMemoryToDevice(mux_device_t device,
                                          mux_memory_t memory, uint64_t offset,
                                          uint64_t size) {
  (void)device;
  (void)memory;
  (void)offset;
  (void)size;
  return mux_error_feature_unsupported;
}

mux_result_t cpuFlushMappedMemoryFromDevice(mux_device_t device,
                                            mux_memory_t memory,
                                            uint64_t offset, uint64_t size) {
  (void)device;
  (void)memory;
  (void)offset;
  (void)size;
  return mux_error_feature_unsupported;
}

mux_result_t cpuUnmapMemory(mux_device_t device, mux_memory_t memory) {
  (void)device;
  (void)memory;
  return mux_error_feature_unsupported;
}

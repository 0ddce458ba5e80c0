/* clmux Mux API layer: memory entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxAllocateMemory(mux_device_t device, size_t size, uint32_t heap,
                               uint32_t memory_properties,
                               mux_allocation_type_e allocation_type,
                               uint32_t alignment,
                               mux_allocator_info_t allocator_info,
                               mux_memory_t *out_memory) {
  return cpuAllocateMemory(device, size, heap, memory_properties, allocation_type, alignment, allocator_info, out_memory);
}

mux_result_t muxCreateMemoryFromHost(mux_device_t device, size_t size,
                                     void *host_pointer,
                                     mux_allocator_info_t allocator_info,
                                     mux_memory_t *out_memory) {
  return cpuCreateMemoryFromHost(device, size, host_pointer, allocator_info, out_memory);
}

void muxFreeMemory(mux_device_t device, mux_memory_t memory,
                   mux_allocator_info_t allocator_info) {
  cpuFreeMemory(device, memory, allocator_info);
}

mux_result_t muxMapMemory(mux_device_t device, mux_memory_t memory,
                          uint64_t offset, uint64_t size, void **out_data) {
  return cpuMapMemory(device, memory, offset, size, out_data);
}

mux_result_t muxFlushMappedMemoryToDevice(mux_device_t device,
                                          mux_memory_t memory, uint64_t offset,
                                          uint64_t size) {
  return cpuFlushMappedMemoryToDevice(device, memory, offset, size);
}

mux_result_t muxFlushMappedMemoryFromDevice(mux_device_t device,
                                            mux_memory_t memory,
                                            uint64_t offset, uint64_t size) {
  return cpuFlushMappedMemoryFromDevice(device, memory, offset, size);
}

mux_result_t muxUnmapMemory(mux_device_t device, mux_memory_t memory) {
  return cpuUnmapMemory(device, memory);
}

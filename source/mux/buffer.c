/* clmux Mux API layer: buffer entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateBuffer(mux_device_t device, size_t size,
                             mux_allocator_info_t allocator_info,
                             mux_buffer_t *out_buffer) {
  return cpuCreateBuffer(device, size, allocator_info, out_buffer);
}

void muxDestroyBuffer(mux_device_t device, mux_buffer_t buffer,
                      mux_allocator_info_t allocator_info) {
  cpuDestroyBuffer(device, buffer, allocator_info);
}

mux_result_t muxBindBufferMemory(mux_device_t device, mux_memory_t memory,
                                 mux_buffer_t buffer, uint64_t offset) {
  return cpuBindBufferMemory(device, memory, buffer, offset);
}

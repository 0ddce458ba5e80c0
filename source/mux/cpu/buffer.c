/* clmux CPU target: buffer. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateBuffer(mux_device_t device, size_t size,
                             mux_allocator_info_t allocator_info,
                             mux_buffer_t *out_buffer) {
  (void)device;
  (void)size;
  (void)allocator_info;
  (void)out_buffer;
  return mux_error_feature_unsupported;
}

void cpuDestroyBuffer(mux_device_t device, mux_buffer_t buffer,
                      mux_allocator_info_t allocator_info) {
  (void)device;
  (void)buffer;
  (void)allocator_info;
}

mux_result_t cpuBindBufferMemory(mux_device_t device, mux_memory_t memory,
                                 mux_buffer_t buffer, uint64_t offset) {
  (void)device;
  (void)memory;
  (void)buffer;
  (void)offset;
  return mux_error_feature_unsupported;
}

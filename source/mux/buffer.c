/* clmux Mux API layer: buffer entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxCreateBuffer(mux_device_t device, size_t size,
                             mux_allocator_info_t allocator_info,
                             mux_buffer_t *out_buffer) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (size == 0) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_buffer == NULL) return mux_error_null_out_parameter;
  return cpuCreateBuffer(device, size, allocator_info, out_buffer);
}

void muxDestroyBuffer(mux_device_t device, mux_buffer_t buffer,
                      mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_buffer(buffer) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyBuffer(device, buffer, allocator_info);
}

mux_result_t muxBindBufferMemory(mux_device_t device, mux_memory_t memory,
                                 mux_buffer_t buffer, uint64_t offset) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  /* The spec lists an invalid memory last; every rule here returns the same
   * code, and the size rules need a memory to read. */
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  uint64_t buffer_size = buffer->memory_requirements.size;
  if (offset > memory->size) return mux_error_invalid_value;
  if (buffer_size > memory->size) return mux_error_invalid_value;
  if (api_exceeds(offset, buffer_size, memory->size)) {
    return mux_error_invalid_value;
  }
  return cpuBindBufferMemory(device, memory, buffer, offset);
}

/* clmux CPU target: buffers. A buffer owns no storage: it is a size and,
 * once bound, the host address of its first byte inside some memory. */
#include "../target.h"
#include "cpu.h"

mux_result_t cpuCreateBuffer(mux_device_t device, size_t size,
                             mux_allocator_info_t allocator_info,
                             mux_buffer_t *out_buffer) {
  cpu_buffer *buffer =
      cpu_calloc(allocator_info, sizeof(cpu_buffer), _Alignof(cpu_buffer));
  if (!buffer) return mux_error_out_of_memory;
  buffer->base.id = CPU_ID(mux_object_id_buffer);
  buffer->base.memory_requirements.size = size;
  buffer->base.memory_requirements.alignment = device->info->buffer_alignment;
  buffer->base.memory_requirements.supported_heaps = 1;
  buffer->size = size;
  *out_buffer = &buffer->base;
  return mux_success;
}

void cpuDestroyBuffer(mux_device_t device, mux_buffer_t buffer,
                      mux_allocator_info_t allocator_info) {
  (void)device;
  buffer->id = 0;
  cpu_free(allocator_info, buffer);
}

mux_result_t cpuBindBufferMemory(mux_device_t device, mux_memory_t memory,
                                 mux_buffer_t buffer, uint64_t offset) {
  (void)device;
  cpu_buffer *cpu = (cpu_buffer *)buffer;
  cpu->memory = (cpu_memory *)memory;
  cpu->data = (uint8_t *)(uintptr_t)memory->handle + offset;
  return mux_success;
}

/* clmux CPU target: device memory. The CPU's memory is host memory and
 * coherent, so a memory object is an aligned host allocation from the
 * device heap (device_heap.c: apart from the C heap, padded, guarded) or
 * the user's own pointer, mapping is pointer arithmetic and flushes have
 * nothing to do. */
#include "../target.h"
#include "cpu.h"

/* A cache line: no two allocations share one, whatever was asked. */
#define CPU_MEMORY_MIN_ALIGNMENT 64u

static cpu_memory *cpu_memory_new(mux_allocator_info_t allocator, size_t size,
                                  uint32_t properties) {
  cpu_memory *memory =
      cpu_calloc(allocator, sizeof(cpu_memory), _Alignof(cpu_memory));
  if (!memory) return NULL;
  memory->base.id = CPU_ID(mux_object_id_memory);
  memory->base.size = size;
  memory->base.properties = properties;
  atomic_init(&memory->mapped, false);
  return memory;
}

mux_result_t cpuAllocateMemory(mux_device_t device, size_t size, uint32_t heap,
                               uint32_t memory_properties,
                               mux_allocation_type_e allocation_type,
                               uint32_t alignment,
                               mux_allocator_info_t allocator_info,
                               mux_memory_t *out_memory) {
  (void)heap;            /* one heap: host memory */
  (void)allocation_type; /* host and device allocations are the same here */
  if (alignment & (alignment - 1)) return mux_error_invalid_value;
  size_t align = alignment;
  if (align < device->info->buffer_alignment) {
    align = device->info->buffer_alignment;
  }
  if (align < CPU_MEMORY_MIN_ALIGNMENT) align = CPU_MEMORY_MIN_ALIGNMENT;
  /* More than the machine has can never be backed: refuse it here rather
   * than let a lazily committed mapping fail on first touch. */
  uint64_t limit = device->info->memory_size;
  if (limit && size > limit) return mux_error_out_of_memory;

  cpu_memory *memory = cpu_memory_new(allocator_info, size, memory_properties);
  if (!memory) return mux_error_out_of_memory;
  memory->allocation = device_heap_allocate(size, align, &memory->block);
  if (!memory->allocation) {
    cpu_free(allocator_info, memory);
    return mux_error_out_of_memory;
  }
  memory->base.handle = (uint64_t)(uintptr_t)memory->allocation;
  *out_memory = &memory->base;
  return mux_success;
}

mux_result_t cpuCreateMemoryFromHost(mux_device_t device, size_t size,
                                     void *host_pointer,
                                     mux_allocator_info_t allocator_info,
                                     mux_memory_t *out_memory) {
  (void)device;
  /* Zero-copy: the device uses the user's memory and never frees it. */
  cpu_memory *memory = cpu_memory_new(allocator_info, size,
                                      mux_memory_property_host_visible |
                                          mux_memory_property_host_coherent);
  if (!memory) return mux_error_out_of_memory;
  memory->base.handle = (uint64_t)(uintptr_t)host_pointer;
  *out_memory = &memory->base;
  return mux_success;
}

void cpuFreeMemory(mux_device_t device, mux_memory_t memory,
                   mux_allocator_info_t allocator_info) {
  (void)device;
  cpu_memory *cpu = (cpu_memory *)memory;
  device_heap_release(cpu->allocation, &cpu->block);
  cpu->base.id = 0;
  cpu_free(allocator_info, cpu);
}

mux_result_t cpuMapMemory(mux_device_t device, mux_memory_t memory,
                          uint64_t offset, uint64_t size, void **out_data) {
  (void)device;
  (void)size;
  cpu_memory *cpu = (cpu_memory *)memory;
  atomic_store(&cpu->mapped, true);
  *out_data = (uint8_t *)(uintptr_t)cpu->base.handle + offset;
  return mux_success;
}

/* Host and device share coherent caches: flushing in either direction is a
 * no-op. */
mux_result_t cpuFlushMappedMemoryToDevice(mux_device_t device,
                                          mux_memory_t memory, uint64_t offset,
                                          uint64_t size) {
  (void)device;
  (void)memory;
  (void)offset;
  (void)size;
  return mux_success;
}

mux_result_t cpuFlushMappedMemoryFromDevice(mux_device_t device,
                                            mux_memory_t memory,
                                            uint64_t offset, uint64_t size) {
  (void)device;
  (void)memory;
  (void)offset;
  (void)size;
  return mux_success;
}

mux_result_t cpuUnmapMemory(mux_device_t device, mux_memory_t memory) {
  (void)device;
  atomic_store(&((cpu_memory *)memory)->mapped, false);
  return mux_success;
}

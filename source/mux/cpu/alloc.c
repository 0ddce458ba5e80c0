/* clmux CPU target: host allocations through the user's allocator, the
 * spare blocks of command buffers, and the clock that timestamps queries. */
#include <string.h>
#include <time.h>

#include "cpu.h"

void *cpu_alloc(mux_allocator_info_t allocator, size_t size, size_t alignment) {
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  return allocator.alloc(allocator.user_data, size, alignment);
}

void *cpu_calloc(mux_allocator_info_t allocator, size_t size,
                 size_t alignment) {
  void *pointer = cpu_alloc(allocator, size, alignment);
  if (pointer) memset(pointer, 0, size);
  return pointer;
}

void cpu_free(mux_allocator_info_t allocator, void *pointer) {
  if (pointer) allocator.free(allocator.user_data, pointer);
}

static void spares_lock(cpu_spares *spares) {
  while (
      atomic_flag_test_and_set_explicit(&spares->lock, memory_order_acquire)) {
  }
}

static void spares_unlock(cpu_spares *spares) {
  atomic_flag_clear_explicit(&spares->lock, memory_order_release);
}

/* All of one command buffer's blocks have the same alignment (the NDRange
 * argument block's); a kept block is reused for a request of up to its size
 * but not less than half of it. */
void *cpu_spares_take(cpu_spares *spares, mux_allocator_info_t allocator,
                      size_t size, size_t alignment, size_t *got) {
  if (spares) {
    spares_lock(spares);
    for (uint32_t i = spares->count; i-- > 0;) {
      size_t kept = spares->blocks[i].size;
      if (kept >= size && kept / 2 <= size) {
        void *memory = spares->blocks[i].memory;
        spares->blocks[i] = spares->blocks[--spares->count];
        spares_unlock(spares);
        *got = kept;
        return memory;
      }
    }
    spares_unlock(spares);
  }
  *got = size;
  return cpu_alloc(allocator, size, alignment);
}

void cpu_spares_give(cpu_spares *spares, mux_allocator_info_t allocator,
                     void *memory, size_t size) {
  if (!memory) return;
  if (spares && size <= CPU_SPARE_MAX_SIZE) {
    spares_lock(spares);
    if (spares->count < CPU_SPARE_BLOCKS) {
      spares->blocks[spares->count].memory = memory;
      spares->blocks[spares->count].size = size;
      spares->count++;
      spares_unlock(spares);
      return;
    }
    spares_unlock(spares);
  }
  cpu_free(allocator, memory);
}

void cpu_spares_free(cpu_spares *spares, mux_allocator_info_t allocator) {
  while (spares->count) {
    cpu_free(allocator, spares->blocks[--spares->count].memory);
  }
}

uint64_t cpu_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

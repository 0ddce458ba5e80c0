/* clmux CPU target: host allocations through the user's allocator, and the
 * clock that timestamps queries. */
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

uint64_t cpu_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* clmux CPU target: the pool of pinned worker threads. */
#include "cpu.h"

struct cpu_pool *cpu_pool_create(mux_allocator_info_t allocator) {
  (void)allocator;
  return NULL;
}

void cpu_pool_destroy(struct cpu_pool *pool, mux_allocator_info_t allocator) {
  (void)pool;
  (void)allocator;
}

unsigned cpu_pool_slots(const struct cpu_pool *pool) {
  (void)pool;
  return 1;
}

size_t cpu_pool_local_memory_size(const struct cpu_pool *pool) {
  (void)pool;
  return 0;
}

void cpu_pool_parallel_for(struct cpu_pool *pool, uint64_t total,
                           uint64_t chunk, cpu_range_fn fn, void *context) {
  (void)pool;
  (void)total;
  (void)chunk;
  (void)fn;
  (void)context;
}

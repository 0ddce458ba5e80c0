/* clmux CPU target: query pools. Only duration queries: the device reports
 * no hardware counters, so every counter entry point is unsupported. The
 * begin/end/reset query commands write the slots (command_buffer.c). */
#include <string.h>

#include "../target.h"
#include "cpu.h"

mux_result_t cpuCreateQueryPool(
    mux_queue_t queue, mux_query_type_e query_type, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    mux_allocator_info_t allocator_info, mux_query_pool_t *out_query_pool) {
  (void)queue;
  (void)query_counter_configs;
  if (query_type == mux_query_type_counter) {
    return mux_error_feature_unsupported;
  }
  if (query_type != mux_query_type_duration || query_count == 0) {
    return mux_error_invalid_value;
  }
  cpu_query_pool *pool = cpu_calloc(allocator_info, sizeof(cpu_query_pool),
                                    _Alignof(cpu_query_pool));
  if (!pool) return mux_error_out_of_memory;
  pool->durations =
      cpu_calloc(allocator_info, (size_t)query_count * sizeof(*pool->durations),
                 _Alignof(struct mux_query_duration_result_s));
  if (!pool->durations) {
    cpu_free(allocator_info, pool);
    return mux_error_out_of_memory;
  }
  pool->base.id = CPU_ID(mux_object_id_query_pool);
  pool->base.type = query_type;
  pool->base.count = query_count;
  *out_query_pool = &pool->base;
  return mux_success;
}

void cpuDestroyQueryPool(mux_queue_t queue, mux_query_pool_t query_pool,
                         mux_allocator_info_t allocator_info) {
  (void)queue;
  cpu_query_pool *pool = (cpu_query_pool *)query_pool;
  cpu_free(allocator_info, pool->durations);
  pool->base.id = 0;
  cpu_free(allocator_info, pool);
}

mux_result_t cpuGetQueryPoolResults(mux_queue_t queue,
                                    mux_query_pool_t query_pool,
                                    uint32_t query_index, uint32_t query_count,
                                    size_t size, void *data, size_t stride) {
  (void)queue;
  const cpu_query_pool *pool = (const cpu_query_pool *)query_pool;
  const size_t result_size = sizeof(struct mux_query_duration_result_s);
  if (!data || query_count == 0 || stride < result_size ||
      query_index >= pool->base.count ||
      (uint64_t)query_index + query_count > pool->base.count ||
      size < result_size || (size - result_size) / stride < query_count - 1) {
    return mux_error_invalid_value;
  }
  uint8_t *out = data;
  for (uint32_t i = 0; i < query_count; i++) {
    memcpy(out + (size_t)i * stride, &pool->durations[query_index + i],
           result_size);
  }
  return mux_success;
}

mux_result_t cpuGetSupportedQueryCounters(
    mux_device_t device, mux_queue_type_e queue_type, uint32_t count,
    mux_query_counter_t *out_counters,
    mux_query_counter_description_t *out_descriptions, uint32_t *out_count) {
  (void)device;
  (void)queue_type;
  (void)count;
  (void)out_counters;
  (void)out_descriptions;
  (void)out_count;
  return mux_error_feature_unsupported;
}

mux_result_t cpuGetQueryCounterRequiredPasses(
    mux_queue_t queue, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    uint32_t *out_pass_count) {
  (void)queue;
  (void)query_count;
  (void)query_counter_configs;
  (void)out_pass_count;
  return mux_error_feature_unsupported;
}

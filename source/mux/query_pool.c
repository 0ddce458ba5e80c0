/* clmux Mux API layer: query pool entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateQueryPool(
    mux_queue_t queue, mux_query_type_e query_type, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    mux_allocator_info_t allocator_info, mux_query_pool_t *out_query_pool) {
  return cpuCreateQueryPool(queue, query_type, query_count, query_counter_configs, allocator_info, out_query_pool);
}

void muxDestroyQueryPool(mux_queue_t queue, mux_query_pool_t query_pool,
                         mux_allocator_info_t allocator_info) {
  cpuDestroyQueryPool(queue, query_pool, allocator_info);
}

mux_result_t muxGetQueryPoolResults(mux_queue_t queue,
                                    mux_query_pool_t query_pool,
                                    uint32_t query_index, uint32_t query_count,
                                    size_t size, void *data, size_t stride) {
  return cpuGetQueryPoolResults(queue, query_pool, query_index, query_count, size, data, stride);
}

mux_result_t muxGetSupportedQueryCounters(
    mux_device_t device, mux_queue_type_e queue_type, uint32_t count,
    mux_query_counter_t *out_counters,
    mux_query_counter_description_t *out_descriptions, uint32_t *out_count) {
  return cpuGetSupportedQueryCounters(device, queue_type, count, out_counters, out_descriptions, out_count);
}

mux_result_t muxGetQueryCounterRequiredPasses(
    mux_queue_t queue, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    uint32_t *out_pass_count) {
  return cpuGetQueryCounterRequiredPasses(queue, query_count, query_counter_configs, out_pass_count);
}

/* clmux CPU target: query pool. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateQueryPool(
    mux_queue_t queue, mux_query_type_e query_type, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    mux_allocator_info_t allocator_info, mux_query_pool_t *out_query_pool) {
  (void)queue;
  (void)query_type;
  (void)query_count;
  (void)query_counter_configs;
  (void)allocator_info;
  (void)out_query_pool;
  return mux_error_feature_unsupported;
}

void cpuDestroyQueryPool(mux_queue_t queue, mux_query_pool_t query_pool,
                         mux_allocator_info_t allocator_info) {
  (void)queue;
  (void)query_pool;
  (void)allocator_info;
}

mux_result_t cpuGetQueryPoolResults(mux_queue_t queue,
                                    mux_query_pool_t query_pool,
                                    uint32_t query_index, uint32_t query_count,
                                    size_t size, void *data, size_t stride) {
  (void)queue;
  (void)query_pool;
  (void)query_index;
  (void)query_count;
  (void)size;
  (void)data;
  (void)stride;
  return mux_error_feature_unsupported;
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

/* clmux Mux API layer: query pool entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

/* query_index and query_index + query_count inside a pool of `count`. */
static bool api_query_range_invalid(mux_query_pool_t query_pool,
                                    uint32_t query_index,
                                    uint32_t query_count) {
  return query_index >= query_pool->count ||
         (uint64_t)query_index + query_count > query_pool->count;
}

static bool api_device_counts_queries(mux_queue_t queue) {
  const struct mux_device_info_s *info = api_device_info(queue->device);
  return info != NULL && info->query_counter_support;
}

mux_result_t muxCreateQueryPool(
    mux_queue_t queue, mux_query_type_e query_type, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    mux_allocator_info_t allocator_info, mux_query_pool_t *out_query_pool) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (query_type != mux_query_type_duration &&
      query_type != mux_query_type_counter) {
    return mux_error_invalid_value;
  }
  if (query_count == 0) return mux_error_invalid_value;
  if (out_query_pool == NULL) return mux_error_null_out_parameter;
  /* Not in the spec's list, but the pool is allocated with it; it goes
   * where the list puts allocation failure. */
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (query_type == mux_query_type_counter) {
    /* Counter pools are optional, as muxGetSupportedQueryCounters says. */
    if (!api_device_counts_queries(queue)) return mux_error_feature_unsupported;
    if (query_counter_configs == NULL) return mux_error_invalid_value;
  }
  return cpuCreateQueryPool(queue, query_type, query_count,
                            query_counter_configs, allocator_info,
                            out_query_pool);
}

void muxDestroyQueryPool(mux_queue_t queue, mux_query_pool_t query_pool,
                         mux_allocator_info_t allocator_info) {
  if (!api_valid_queue(queue) || !api_valid_query_pool(query_pool) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyQueryPool(queue, query_pool, allocator_info);
}

/* Bytes one result of a pool of this type takes. */
static size_t api_query_result_size(mux_query_type_e type) {
  return type == mux_query_type_counter
             ? sizeof(struct mux_query_counter_result_s)
             : sizeof(struct mux_query_duration_result_s);
}

mux_result_t muxGetQueryPoolResults(mux_queue_t queue,
                                    mux_query_pool_t query_pool,
                                    uint32_t query_index, uint32_t query_count,
                                    size_t size, void *data, size_t stride) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (!api_valid_query_pool(query_pool)) return mux_error_invalid_value;
  if (api_query_range_invalid(query_pool, query_index, query_count)) {
    return mux_error_invalid_value;
  }
  /* Result i is written at data + i * stride, so the last one ends at
   * (count - 1) * stride + one result. */
  size_t result_size = api_query_result_size(query_pool->type);
  if (query_count != 0) {
    uint64_t required;
    if (__builtin_mul_overflow((uint64_t)query_count - 1, (uint64_t)stride,
                               &required) ||
        __builtin_add_overflow(required, (uint64_t)result_size, &required) ||
        size < required) {
      return mux_error_invalid_value;
    }
  }
  if (data == NULL) return mux_error_invalid_value;
  if (stride < result_size) return mux_error_invalid_value;
  return cpuGetQueryPoolResults(queue, query_pool, query_index, query_count,
                                size, data, stride);
}

mux_result_t muxGetSupportedQueryCounters(
    mux_device_t device, mux_queue_type_e queue_type, uint32_t count,
    mux_query_counter_t *out_counters,
    mux_query_counter_description_t *out_descriptions, uint32_t *out_count) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (device->info == NULL || !device->info->query_counter_support) {
    return mux_error_feature_unsupported;
  }
  if ((uint32_t)queue_type >= (uint32_t)mux_queue_type_total) {
    return mux_error_invalid_value;
  }
  if (count == 0 && (out_counters != NULL || out_descriptions != NULL)) {
    return mux_error_invalid_value;
  }
  if (count != 0 && out_counters == NULL && out_descriptions == NULL) {
    return mux_error_null_out_parameter;
  }
  return cpuGetSupportedQueryCounters(device, queue_type, count, out_counters,
                                      out_descriptions, out_count);
}

mux_result_t muxGetQueryCounterRequiredPasses(
    mux_queue_t queue, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    uint32_t *out_pass_count) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (query_count == 0) return mux_error_invalid_value;
  if (query_counter_configs == NULL) return mux_error_invalid_value;
  if (out_pass_count == NULL) return mux_error_null_out_parameter;
  /* Optional like every counter entry point; after the spec's list. */
  if (!api_device_counts_queries(queue)) return mux_error_feature_unsupported;
  return cpuGetQueryCounterRequiredPasses(queue, query_count,
                                          query_counter_configs,
                                          out_pass_count);
}

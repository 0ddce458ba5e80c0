/* clmux CPU target: NDRange argument packing and execution. */
#include "cpu.h"

mux_result_t cpu_ndrange_prepare(cpu_ndrange *ndrange, cpu_kernel *kernel,
                                 const mux_ndrange_options_t *options,
                                 mux_allocator_info_t allocator) {
  (void)ndrange;
  (void)kernel;
  (void)options;
  (void)allocator;
  return mux_error_feature_unsupported;
}

mux_result_t cpu_ndrange_update(cpu_ndrange *ndrange, uint64_t num_args,
                                const uint64_t *arg_indices,
                                const mux_descriptor_info_t *descriptors,
                                mux_allocator_info_t allocator) {
  (void)ndrange;
  (void)num_args;
  (void)arg_indices;
  (void)descriptors;
  (void)allocator;
  return mux_error_feature_unsupported;
}

mux_result_t cpu_ndrange_copy(cpu_ndrange *dst, const cpu_ndrange *src,
                              mux_allocator_info_t allocator) {
  (void)dst;
  (void)src;
  (void)allocator;
  return mux_error_feature_unsupported;
}

void cpu_ndrange_release(cpu_ndrange *ndrange, mux_allocator_info_t allocator) {
  (void)ndrange;
  (void)allocator;
}

mux_result_t cpu_ndrange_run(cpu_device *device, const cpu_ndrange *ndrange) {
  (void)device;
  (void)ndrange;
  return mux_error_feature_unsupported;
}

/* clmux CPU target: fence. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateFence(mux_device_t device,
                            mux_allocator_info_t allocator_info,
                            mux_fence_t *out_fence) {
  (void)device;
  (void)allocator_info;
  (void)out_fence;
  return mux_error_feature_unsupported;
}

void cpuDestroyFence(mux_device_t device, mux_fence_t fence,
                     mux_allocator_info_t allocator_info) {
  (void)device;
  (void)fence;
  (void)allocator_info;
}

mux_result_t cpuResetFence(mux_fence_t fence) {
  (void)fence;
  return mux_error_feature_unsupported;
}

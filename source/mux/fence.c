/* clmux Mux API layer: fence entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxCreateFence(mux_device_t device,
                            mux_allocator_info_t allocator_info,
                            mux_fence_t *out_fence) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_fence == NULL) return mux_error_null_out_parameter;
  return cpuCreateFence(device, allocator_info, out_fence);
}

void muxDestroyFence(mux_device_t device, mux_fence_t fence,
                     mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_fence(fence) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyFence(device, fence, allocator_info);
}

mux_result_t muxResetFence(mux_fence_t fence) {
  if (!api_valid_fence(fence)) return mux_error_invalid_value;
  return cpuResetFence(fence);
}

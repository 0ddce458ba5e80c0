/* clmux Mux API layer: fence entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateFence(mux_device_t device,
                            mux_allocator_info_t allocator_info,
                            mux_fence_t *out_fence) {
  return cpuCreateFence(device, allocator_info, out_fence);
}

void muxDestroyFence(mux_device_t device, mux_fence_t fence,
                     mux_allocator_info_t allocator_info) {
  cpuDestroyFence(device, fence, allocator_info);
}

mux_result_t muxResetFence(mux_fence_t fence) {
  return cpuResetFence(fence);
}

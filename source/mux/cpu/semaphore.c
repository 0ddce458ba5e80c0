/* clmux CPU target: semaphore. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateSemaphore(mux_device_t device,
                                mux_allocator_info_t allocator_info,
                                mux_semaphore_t *out_semaphore) {
  (void)device;
  (void)allocator_info;
  (void)out_semaphore;
  return mux_error_feature_unsupported;
}

void cpuDestroySemaphore(mux_device_t device, mux_semaphore_t semaphore,
                         mux_allocator_info_t allocator_info) {
  (void)device;
  (void)semaphore;
  (void)allocator_info;
}

mux_result_t cpuResetSemaphore(mux_semaphore_t semaphore) {
  (void)semaphore;
  return mux_error_feature_unsupported;
}

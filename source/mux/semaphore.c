/* clmux Mux API layer: semaphore entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxCreateSemaphore(mux_device_t device,
                                mux_allocator_info_t allocator_info,
                                mux_semaphore_t *out_semaphore) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_semaphore == NULL) return mux_error_null_out_parameter;
  return cpuCreateSemaphore(device, allocator_info, out_semaphore);
}

void muxDestroySemaphore(mux_device_t device, mux_semaphore_t semaphore,
                         mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_semaphore(semaphore) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroySemaphore(device, semaphore, allocator_info);
}

mux_result_t muxResetSemaphore(mux_semaphore_t semaphore) {
  if (!api_valid_semaphore(semaphore)) return mux_error_invalid_value;
  return cpuResetSemaphore(semaphore);
}

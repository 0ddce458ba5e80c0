/* clmux Mux API layer: semaphore entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateSemaphore(mux_device_t device,
                                mux_allocator_info_t allocator_info,
                                mux_semaphore_t *out_semaphore) {
  return cpuCreateSemaphore(device, allocator_info, out_semaphore);
}

void muxDestroySemaphore(mux_device_t device, mux_semaphore_t semaphore,
                         mux_allocator_info_t allocator_info) {
  cpuDestroySemaphore(device, semaphore, allocator_info);
}

mux_result_t muxResetSemaphore(mux_semaphore_t semaphore) {
  return cpuResetSemaphore(semaphore);
}

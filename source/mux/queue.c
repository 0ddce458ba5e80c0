/* clmux Mux API layer: queue entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxGetQueue(mux_device_t device, mux_queue_type_e queue_type,
                         uint32_t queue_index, mux_queue_t *out_queue) {
  if (!api_valid_device(device) || device->info == NULL) {
    return mux_error_invalid_value;
  }
  if ((uint32_t)queue_type >= (uint32_t)mux_queue_type_total) {
    return mux_error_invalid_value;
  }
  if (queue_index >= device->info->queue_types[queue_type]) {
    return mux_error_invalid_value;
  }
  if (out_queue == NULL) return mux_error_null_out_parameter;
  return cpuGetQueue(device, queue_type, queue_index, out_queue);
}

/* A semaphore array and its length agree and every element is a live
 * semaphore. */
static bool api_valid_semaphores(mux_semaphore_t *semaphores,
                                 uint32_t length) {
  if (!api_valid_list(length, semaphores)) return false;
  for (uint32_t i = 0; i < length; i++) {
    if (!api_valid_semaphore(semaphores[i])) return false;
  }
  return true;
}

mux_result_t muxDispatch(mux_queue_t queue, mux_command_buffer_t command_buffer,
                         mux_fence_t fence, mux_semaphore_t *wait_semaphores,
                         uint32_t wait_semaphores_length,
                         mux_semaphore_t *signal_semaphores,
                         uint32_t signal_semaphores_length,
                         void (*user_function)(mux_command_buffer_t command_buffer,
                                               mux_result_t error,
                                               void *const user_data),
                         void *user_data) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (fence != NULL && !api_valid_fence(fence)) return mux_error_invalid_value;
  if (!api_valid_semaphores(wait_semaphores, wait_semaphores_length)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_semaphores(signal_semaphores, signal_semaphores_length)) {
    return mux_error_invalid_value;
  }
  if (user_function == NULL && user_data != NULL) {
    return mux_error_invalid_value;
  }
  /* "Not finalized" is the last rule and only the target knows it. */
  return cpuDispatch(queue, command_buffer, fence, wait_semaphores,
                     wait_semaphores_length, signal_semaphores,
                     signal_semaphores_length, user_function, user_data);
}

mux_result_t muxTryWait(mux_queue_t queue, uint64_t timeout, mux_fence_t fence) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (!api_valid_fence(fence)) return mux_error_invalid_value;
  return cpuTryWait(queue, timeout, fence);
}

mux_result_t muxWait(mux_queue_t queue, mux_fence_t fence) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  if (!api_valid_fence(fence)) return mux_error_invalid_value;
  return cpuWait(queue, fence);
}

mux_result_t muxWaitAll(mux_queue_t queue) {
  if (!api_valid_queue(queue)) return mux_error_invalid_value;
  return cpuWaitAll(queue);
}

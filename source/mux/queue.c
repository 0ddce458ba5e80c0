/* clmux Mux API layer: queue entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxGetQueue(mux_device_t device, mux_queue_type_e queue_type,
                         uint32_t queue_index, mux_queue_t *out_queue) {
  return cpuGetQueue(device, queue_type, queue_index, out_queue);
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
  return cpuDispatch(queue, command_buffer, fence, wait_semaphores, wait_semaphores_length, signal_semaphores, signal_semaphores_length, user_function, user_data);
}

mux_result_t muxTryWait(mux_queue_t queue, uint64_t timeout, mux_fence_t fence) {
  return cpuTryWait(queue, timeout, fence);
}

mux_result_t muxWait(mux_queue_t queue, mux_fence_t fence) {
  return cpuWait(queue, fence);
}

mux_result_t muxWaitAll(mux_queue_t queue) {
  return cpuWaitAll(queue);
}

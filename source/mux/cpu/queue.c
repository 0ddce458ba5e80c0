/* clmux CPU target: queue. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuGetQueue(mux_device_t device, mux_queue_type_e queue_type,
                         uint32_t queue_index, mux_queue_t *out_queue) {
  (void)device;
  (void)queue_type;
  (void)queue_index;
  (void)out_queue;
  return mux_error_feature_unsupported;
}

mux_result_t cpuDispatch(mux_queue_t queue, mux_command_buffer_t command_buffer,
                         mux_fence_t fence, mux_semaphore_t *wait_semaphores,
                         uint32_t wait_semaphores_length,
                         mux_semaphore_t *signal_semaphores,
                         uint32_t signal_semaphores_length,
                         void (*user_function)(mux_command_buffer_t command_buffer,
                                               mux_result_t error,
                                               void *const user_data),
                         void *user_data) {
  (void)queue;
  (void)command_buffer;
  (void)fence;
  (void)wait_semaphores;
  (void)wait_semaphores_length;
  (void)signal_semaphores;
  (void)signal_semaphores_length;
  (void)user_function;
  (void)user_data;
  return mux_error_feature_unsupported;
}

mux_result_t cpuTryWait(mux_queue_t queue, uint64_t timeout, mux_fence_t fence) {
  (void)queue;
  (void)timeout;
  (void)fence;
  return mux_error_feature_unsupported;
}

mux_result_t cpuWait(mux_queue_t queue, mux_fence_t fence) {
  (void)queue;
  (void)fence;
  return mux_error_feature_unsupported;
}

mux_result_t cpuWaitAll(mux_queue_t queue) {
  (void)queue;
  return mux_error_feature_unsupported;
}
mux_result_t cpu_queue_create(cpu_device *device) {
  (void)device;
  return mux_error_feature_unsupported;
}

void cpu_queue_destroy(cpu_device *device) { (void)device; }

/* clmux CPU target: fences. A fence is one atomic word that the completing
 * dispatch sets to its error; host threads wait for it in queue.c. */
#include "../target.h"
#include "queue_internal.h"

mux_result_t cpuCreateFence(mux_device_t device,
                            mux_allocator_info_t allocator_info,
                            mux_fence_t *out_fence) {
  cpu_fence *fence =
      cpu_calloc(allocator_info, sizeof(cpu_fence), _Alignof(cpu_fence));
  if (!fence) return mux_error_out_of_memory;
  fence->base.id = CPU_ID(mux_object_id_fence);
  fence->base.device = device;
  atomic_init(&fence->state, CPU_FENCE_UNSIGNALLED);
  *out_fence = &fence->base;
  return mux_success;
}

void cpuDestroyFence(mux_device_t device, mux_fence_t fence,
                     mux_allocator_info_t allocator_info) {
  (void)device;
  fence->id = 0;
  cpu_free(allocator_info, fence);
}

mux_result_t cpuResetFence(mux_fence_t fence) {
  atomic_store(&((cpu_fence *)fence)->state, CPU_FENCE_UNSIGNALLED);
  return mux_success;
}

void cpu_fence_signal(cpu_fence *fence, mux_result_t error) {
  atomic_store(&fence->state, (int)error);
}

int cpu_fence_state(const cpu_fence *fence) {
  return atomic_load(&((cpu_fence *)fence)->state);
}

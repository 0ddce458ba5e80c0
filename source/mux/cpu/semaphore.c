/* clmux CPU target: semaphores as wait counters. No thread ever blocks on a
 * semaphore: it only remembers which pending dispatches wait on it, and
 * signalling it counts those dispatches down. */
#include "../target.h"
#include "queue_internal.h"

mux_result_t cpuCreateSemaphore(mux_device_t device,
                                mux_allocator_info_t allocator_info,
                                mux_semaphore_t *out_semaphore) {
  cpu_semaphore *semaphore = cpu_calloc(allocator_info, sizeof(cpu_semaphore),
                                        _Alignof(cpu_semaphore));
  if (!semaphore) return mux_error_out_of_memory;
  semaphore->base.id = CPU_ID(mux_object_id_semaphore);
  semaphore->base.device = device;
  *out_semaphore = &semaphore->base;
  return mux_success;
}

void cpuDestroySemaphore(mux_device_t device, mux_semaphore_t semaphore,
                         mux_allocator_info_t allocator_info) {
  (void)device;
  semaphore->id = 0;
  cpu_free(allocator_info, semaphore);
}

mux_result_t cpuResetSemaphore(mux_semaphore_t semaphore) {
  cpu_semaphore *cpu = (cpu_semaphore *)semaphore;
  cpu_queue *queue = cpu_queue_of_device(semaphore->device);
  pthread_mutex_lock(&queue->lock);
  /* Valid use resets only a signalled or unused semaphore, so there are no
   * waiters to keep or drop. */
  cpu->signalled = false;
  pthread_mutex_unlock(&queue->lock);
  return mux_success;
}

bool cpu_semaphore_add_waiter(cpu_semaphore *semaphore, cpu_dispatch *dispatch,
                              cpu_wait_link *link) {
  if (semaphore->signalled) return false;
  link->dispatch = dispatch;
  link->next = semaphore->waiters;
  semaphore->waiters = link;
  return true;
}

void cpu_semaphore_signal(cpu_semaphore *semaphore, cpu_queue *queue) {
  semaphore->signalled = true;
  cpu_wait_link *link = semaphore->waiters;
  /* Detach the waiters first: once ready, a dispatch must never be reached
   * through this semaphore again (its owner may reset or destroy it). */
  semaphore->waiters = NULL;
  while (link) {
    cpu_wait_link *next = link->next;
    cpu_dispatch *dispatch = link->dispatch;
    if (--dispatch->pending_waits == 0) cpu_queue_push_ready(queue, dispatch);
    link = next;
  }
}

/* clmux CPU target: the compute queue. muxDispatch turns a command buffer
 * into a dispatch record that waits on its semaphores as a counter; ready
 * records run on the queue's executor threads; host threads wait for fences
 * or for the whole queue.
 *
 * Waiting, everywhere: spin briefly (a dispatch often completes within
 * microseconds), then sleep — executors on a condition variable under the
 * queue lock, host waiters on a futex word that every completion bumps. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../timeline/timeline.h"
#include "../target.h"
#include "queue_internal.h"

/* How long an idle executor, and a host waiter, poll before sleeping: long
 * enough to catch the next dispatch of a host that records and dispatches
 * in a loop, or a short command buffer's completion, short enough not to
 * matter on a busy machine (only one executor spins at a time). The
 * executor's spin outlasts a wake-up from sleep (tens of microseconds on a
 * virtual machine): were it shorter, a host whose every dispatch waited out
 * a wake-up would find the executor asleep again at the next one, and the
 * queue would stay that slow. */
#define CPU_EXECUTOR_SPIN_NS 50000u
#define CPU_HOST_SPIN_NS 20000u

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* ---- Futex for host waits ----------------------------------------------- */

static void cpu_futex_wait(atomic_uint *word, unsigned expected,
                           uint64_t timeout_ns) {
  struct timespec relative;
  struct timespec *timeout = NULL;
  if (timeout_ns != UINT64_MAX) {
    relative.tv_sec = (time_t)(timeout_ns / 1000000000u);
    relative.tv_nsec = (long)(timeout_ns % 1000000000u);
    timeout = &relative;
  }
  /* EAGAIN (word changed), EINTR and ETIMEDOUT all send the caller back to
   * re-check its condition. */
  syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, timeout,
          NULL, 0);
}

static void cpu_futex_wake_all(atomic_uint *word) {
  syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
          0);
}

/* Called after every completion has published its results. */
static void cpu_queue_notify_host(cpu_queue *queue) {
  atomic_fetch_add(&queue->completions, 1);
  if (atomic_load(&queue->host_sleepers) > 0) {
    cpu_futex_wake_all(&queue->completions);
  }
}

typedef bool (*cpu_wait_condition)(cpu_queue *queue, const void *context);

/* Waits until `done` holds or `timeout_ns` passes (UINT64_MAX: no limit).
 * Race-free with cpu_queue_notify_host: a sleeper registers itself and reads
 * the futex word before its last check, a completion publishes its result
 * before bumping the word and looking for sleepers (all sequentially
 * consistent), so either the check sees the result or the wait sees the
 * bump. */
static bool cpu_queue_wait_for(cpu_queue *queue, cpu_wait_condition done,
                               const void *context, uint64_t timeout_ns) {
  if (done(queue, context)) return true;
  if (timeout_ns == 0) return false;
  uint64_t now = cpu_now_ns();
  uint64_t deadline =
      timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
  uint64_t spin_end = now + CPU_HOST_SPIN_NS;
  if (spin_end > deadline) spin_end = deadline;
  while (now < spin_end) {
    for (int i = 0; i < 32; i++) {
      if (done(queue, context)) return true;
      cpu_relax();
    }
    now = cpu_now_ns();
  }
  for (;;) {
    atomic_fetch_add(&queue->host_sleepers, 1);
    unsigned seen = atomic_load(&queue->completions);
    bool satisfied = done(queue, context);
    now = cpu_now_ns();
    if (!satisfied && now < deadline) {
      cpu_futex_wait(&queue->completions, seen,
                     deadline == UINT64_MAX ? UINT64_MAX : deadline - now);
    }
    atomic_fetch_sub(&queue->host_sleepers, 1);
    if (satisfied || done(queue, context)) return true;
    if (cpu_now_ns() >= deadline) return false;
  }
}

/* ---- Ready list and executors ------------------------------------------- */

void cpu_queue_push_ready(cpu_queue *queue, cpu_dispatch *dispatch) {
  dispatch->next = NULL;
  if (queue->ready_tail) {
    queue->ready_tail->next = dispatch;
  } else {
    queue->ready_head = dispatch;
  }
  queue->ready_tail = dispatch;
  atomic_fetch_add(&queue->ready_count, 1);
}

void cpu_queue_wake_executors(cpu_queue *queue, unsigned reserved) {
  unsigned ready = atomic_load(&queue->ready_count);
  /* A spinning executor takes one ready dispatch without being woken, and
   * so does each finishing one. Waking another instead would start it on
   * the waker's core, where it then competes with the waker. */
  if (queue->executor_spinning) reserved++;
  reserved += atomic_load(&queue->finishing);
  unsigned wanted = ready > reserved ? ready - reserved : 0;
  if (wanted >= queue->idle_executors) {
    if (wanted && queue->idle_executors) pthread_cond_broadcast(&queue->work);
  } else {
    while (wanted--) pthread_cond_signal(&queue->work);
  }
}

static cpu_dispatch *cpu_queue_pop_ready(cpu_queue *queue) {
  cpu_dispatch *dispatch = queue->ready_head;
  if (dispatch) {
    queue->ready_head = dispatch->next;
    if (!queue->ready_head) queue->ready_tail = NULL;
    atomic_fetch_sub(&queue->ready_count, 1);
  }
  return dispatch;
}

static void cpu_queue_update_oldest(cpu_queue *queue) {
  atomic_store(&queue->oldest_in_flight, queue->in_flight_head
                                             ? queue->in_flight_head->sequence
                                             : UINT64_MAX);
}

/* Runs one ready dispatch and completes it in the order the spec requires:
 * callback, signal semaphores, fence, then done for muxWaitAll. Returns with
 * the queue lock held (taken for the completion). */
static void cpu_queue_run_dispatch(cpu_queue *queue, cpu_dispatch *dispatch) {
  cpu_command_buffer *command_buffer = dispatch->command_buffer;
  mux_result_t error = cpu_command_buffer_run(command_buffer, &queue->base);
  atomic_fetch_add(&queue->finishing, 1); /* until the caller pops again */
  if (dispatch->user_function) {
    dispatch->user_function(&command_buffer->base, error, dispatch->user_data);
  }

  pthread_mutex_lock(&queue->lock);
  for (uint32_t i = 0; i < dispatch->signal_count; i++) {
    cpu_semaphore_signal(dispatch->signals[i], queue);
  }
  if (dispatch->fence) cpu_fence_signal(dispatch->fence, error);

  if (dispatch->in_flight_prev) {
    dispatch->in_flight_prev->in_flight_next = dispatch->in_flight_next;
  } else {
    queue->in_flight_head = dispatch->in_flight_next;
  }
  if (dispatch->in_flight_next) {
    dispatch->in_flight_next->in_flight_prev = dispatch->in_flight_prev;
  } else {
    queue->in_flight_tail = dispatch->in_flight_prev;
  }
  cpu_queue_update_oldest(queue);
  dispatch->next = queue->free_list;
  queue->free_list = dispatch;

  /* This executor, finishing, goes straight back for the next one. */
  cpu_queue_wake_executors(queue, 0);
  cpu_queue_notify_host(queue);
}

/* Polls for ready work without the lock; true if some appeared. */
static bool cpu_executor_spin(cpu_queue *queue) {
  uint64_t end = cpu_now_ns() + CPU_EXECUTOR_SPIN_NS;
  for (unsigned round = 1;; round++) {
    for (int i = 0; i < 32; i++) {
      if (atomic_load_explicit(&queue->ready_count, memory_order_relaxed) ||
          atomic_load_explicit(&queue->stopping, memory_order_relaxed)) {
        return true;
      }
      cpu_relax();
    }
    if (cpu_now_ns() >= end) return false;
    /* The host thread may share our core: let it record the next one. */
    if (round % 2 == 0) sched_yield();
  }
}

/* A sleeping thread wakes by preference where it last ran, or else beside
 * the thread that wakes it. An executor that started on its creator's core
 * would wake there at each dispatch of the application's thread that made
 * the queue, and the two would share one core (round trips of 10 µs
 * instead of 2) until the balancer parted them. So it leaves that core
 * once, at its start, and may run anywhere it could afterwards. */
static void cpu_executor_leave_creator(int creator_cpu) {
  if (creator_cpu < 0 || sched_getcpu() != creator_cpu) return;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
      CPU_COUNT(&allowed) < 2 || !CPU_ISSET(creator_cpu, &allowed)) {
    return;
  }
  cpu_set_t elsewhere = allowed;
  CPU_CLR(creator_cpu, &elsewhere);
  if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) == 0) {
    sched_setaffinity(0, sizeof allowed, &allowed);
  }
}

static void *cpu_executor_main(void *argument) {
  cpu_queue *queue = argument;
  /* A sub-device's executor stays on its cores: the NDRanges too short to
   * hand to the workers run on it. */
  cpu_device *device = (cpu_device *)queue->base.device;
  if (!cpu_pool_bind_to_cores(device->pool)) {
    cpu_executor_leave_creator(queue->creator_cpu);
  }
  /* It runs the short NDRanges itself: its faults are kernels' faults too. */
  void *signal_stack = cpu_fault_thread_enter();
  timeline_name_thread("clmux queue executor");
  pthread_mutex_lock(&queue->lock);
  for (;;) {
    cpu_dispatch *dispatch = cpu_queue_pop_ready(queue);
    if (dispatch) {
      pthread_mutex_unlock(&queue->lock);
      cpu_queue_run_dispatch(queue, dispatch);
      atomic_fetch_sub(&queue->finishing, 1);
      continue;
    }
    if (atomic_load(&queue->stopping)) break;
    if (!queue->executor_spinning) {
      queue->executor_spinning = true;
      pthread_mutex_unlock(&queue->lock);
      bool found = cpu_executor_spin(queue);
      pthread_mutex_lock(&queue->lock);
      queue->executor_spinning = false;
      /* A stop that came while spinning broadcast to nobody: re-check. */
      if (found || queue->ready_head || atomic_load(&queue->stopping)) {
        continue;
      }
    }
    /* Checked under the lock, and producers signal under the lock: no
     * wake-up is lost. */
    queue->idle_executors++;
    pthread_cond_wait(&queue->work, &queue->lock);
    queue->idle_executors--;
  }
  pthread_mutex_unlock(&queue->lock);
  cpu_fault_thread_leave(signal_stack);
  return NULL;
}

/* ---- Dispatch records ---------------------------------------------------- */

static void cpu_dispatch_free(cpu_queue *queue, cpu_dispatch *dispatch) {
  if (dispatch->signals != dispatch->inline_signals) {
    cpu_free(queue->allocator, dispatch->signals);
  }
  if (dispatch->links != dispatch->inline_links) {
    cpu_free(queue->allocator, dispatch->links);
  }
  cpu_free(queue->allocator, dispatch);
}

/* A record from the free list (or a new one) with room for the lists. */
static cpu_dispatch *cpu_dispatch_acquire(cpu_queue *queue, uint32_t waits,
                                          uint32_t signals) {
  pthread_mutex_lock(&queue->lock);
  cpu_dispatch *dispatch = queue->free_list;
  if (dispatch) queue->free_list = dispatch->next;
  pthread_mutex_unlock(&queue->lock);

  if (!dispatch) {
    dispatch = cpu_calloc(queue->allocator, sizeof(cpu_dispatch),
                          _Alignof(cpu_dispatch));
    if (!dispatch) return NULL;
    dispatch->signals = dispatch->inline_signals;
    dispatch->signal_capacity = CPU_DISPATCH_INLINE_SEMAPHORES;
    dispatch->links = dispatch->inline_links;
    dispatch->link_capacity = CPU_DISPATCH_INLINE_SEMAPHORES;
  }
  if (signals > dispatch->signal_capacity) {
    cpu_semaphore **grown = cpu_alloc(
        queue->allocator, signals * sizeof(*grown), _Alignof(cpu_semaphore *));
    if (!grown) goto fail;
    if (dispatch->signals != dispatch->inline_signals) {
      cpu_free(queue->allocator, dispatch->signals);
    }
    dispatch->signals = grown;
    dispatch->signal_capacity = signals;
  }
  if (waits > dispatch->link_capacity) {
    cpu_wait_link *grown = cpu_alloc(queue->allocator, waits * sizeof(*grown),
                                     _Alignof(cpu_wait_link));
    if (!grown) goto fail;
    if (dispatch->links != dispatch->inline_links) {
      cpu_free(queue->allocator, dispatch->links);
    }
    dispatch->links = grown;
    dispatch->link_capacity = waits;
  }
  return dispatch;

fail:
  pthread_mutex_lock(&queue->lock);
  dispatch->next = queue->free_list;
  queue->free_list = dispatch;
  pthread_mutex_unlock(&queue->lock);
  return NULL;
}

/* ---- Hooks ---------------------------------------------------------------- */

mux_result_t cpuGetQueue(mux_device_t device, mux_queue_type_e queue_type,
                         uint32_t queue_index, mux_queue_t *out_queue) {
  if (queue_type != mux_queue_type_compute || queue_index != 0) {
    return mux_error_invalid_value;
  }
  *out_queue = &cpu_queue_of_device(device)->base;
  return mux_success;
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
  cpu_queue *cpu = (cpu_queue *)queue;
  cpu_command_buffer *commands = (cpu_command_buffer *)command_buffer;
  if (!commands->finalized) return mux_error_invalid_value;

  cpu_dispatch *dispatch = cpu_dispatch_acquire(cpu, wait_semaphores_length,
                                                signal_semaphores_length);
  if (!dispatch) return mux_error_out_of_memory;
  dispatch->command_buffer = commands;
  dispatch->fence = (cpu_fence *)fence;
  dispatch->user_function = user_function;
  dispatch->user_data = user_data;
  dispatch->signal_count = signal_semaphores_length;
  for (uint32_t i = 0; i < signal_semaphores_length; i++) {
    dispatch->signals[i] = (cpu_semaphore *)signal_semaphores[i];
  }

  pthread_mutex_lock(&cpu->lock);
  dispatch->sequence = cpu->next_sequence++;
  dispatch->in_flight_next = NULL;
  dispatch->in_flight_prev = cpu->in_flight_tail;
  if (cpu->in_flight_tail) {
    cpu->in_flight_tail->in_flight_next = dispatch;
  } else {
    cpu->in_flight_head = dispatch;
  }
  cpu->in_flight_tail = dispatch;
  cpu_queue_update_oldest(cpu);

  dispatch->pending_waits = 0;
  for (uint32_t i = 0; i < wait_semaphores_length; i++) {
    if (cpu_semaphore_add_waiter((cpu_semaphore *)wait_semaphores[i], dispatch,
                                 &dispatch->links[i])) {
      dispatch->pending_waits++;
    }
  }
  if (dispatch->pending_waits == 0) {
    cpu_queue_push_ready(cpu, dispatch);
    cpu_queue_wake_executors(cpu, 0);
  }
  pthread_mutex_unlock(&cpu->lock);
  return mux_success;
}

static bool cpu_fence_done(cpu_queue *queue, const void *fence) {
  (void)queue;
  return cpu_fence_state(fence) != CPU_FENCE_UNSIGNALLED;
}

mux_result_t cpuTryWait(mux_queue_t queue, uint64_t timeout, mux_fence_t fence) {
  cpu_fence *cpu = (cpu_fence *)fence;
  if (!cpu_queue_wait_for((cpu_queue *)queue, cpu_fence_done, cpu, timeout)) {
    return mux_fence_not_ready;
  }
  return cpu_fence_state(cpu) == mux_success ? mux_success
                                             : mux_error_fence_failure;
}

mux_result_t cpuWait(mux_queue_t queue, mux_fence_t fence) {
  return cpuTryWait(queue, UINT64_MAX, fence);
}

static bool cpu_queue_reached(cpu_queue *queue, const void *sequence) {
  return atomic_load(&queue->oldest_in_flight) >= *(const uint64_t *)sequence;
}

/* Waits for every dispatch made before the call, including those still
 * waiting on semaphores: a dispatch waiting on a semaphore that nothing will
 * signal keeps muxWaitAll waiting forever (the caller's responsibility). */
mux_result_t cpuWaitAll(mux_queue_t queue) {
  cpu_queue *cpu = (cpu_queue *)queue;
  pthread_mutex_lock(&cpu->lock);
  uint64_t target = cpu->next_sequence;
  pthread_mutex_unlock(&cpu->lock);
  cpu_queue_wait_for(cpu, cpu_queue_reached, &target, UINT64_MAX);
  return mux_success;
}

/* ---- Creation and destruction -------------------------------------------- */

static void cpu_queue_stop(cpu_queue *queue) {
  pthread_mutex_lock(&queue->lock);
  atomic_store(&queue->stopping, true);
  pthread_cond_broadcast(&queue->work);
  pthread_mutex_unlock(&queue->lock);
  for (unsigned i = 0; i < queue->executor_count; i++) {
    pthread_join(queue->executors[i], NULL);
  }
  queue->executor_count = 0;
}

static void cpu_queue_free(cpu_queue *queue) {
  while (queue->free_list) {
    cpu_dispatch *next = queue->free_list->next;
    cpu_dispatch_free(queue, queue->free_list);
    queue->free_list = next;
  }
  /* Valid use completes all work first; dispatches still waiting on
   * semaphores nobody signalled are dropped. */
  while (queue->in_flight_head) {
    cpu_dispatch *next = queue->in_flight_head->in_flight_next;
    cpu_dispatch_free(queue, queue->in_flight_head);
    queue->in_flight_head = next;
  }
  pthread_cond_destroy(&queue->work);
  pthread_mutex_destroy(&queue->lock);
  queue->base.id = 0;
  cpu_free(queue->allocator, queue);
}

mux_result_t cpu_queue_create(cpu_device *device) {
  cpu_queue *queue = cpu_calloc(device->allocator, sizeof(cpu_queue),
                                _Alignof(cpu_queue));
  if (!queue) return mux_error_out_of_memory;
  queue->base.id = CPU_ID(mux_object_id_queue);
  queue->base.device = &device->base;
  queue->allocator = device->allocator;
  atomic_init(&queue->ready_count, 0);
  atomic_init(&queue->stopping, false);
  atomic_init(&queue->oldest_in_flight, UINT64_MAX);
  atomic_init(&queue->completions, 0);
  atomic_init(&queue->host_sleepers, 0);
  atomic_init(&queue->finishing, 0);
  queue->creator_cpu = sched_getcpu();
  if (pthread_mutex_init(&queue->lock, NULL) != 0) {
    cpu_free(device->allocator, queue);
    return mux_error_failure;
  }
  if (pthread_cond_init(&queue->work, NULL) != 0) {
    pthread_mutex_destroy(&queue->lock);
    cpu_free(device->allocator, queue);
    return mux_error_failure;
  }
  for (unsigned i = 0; i < CPU_QUEUE_EXECUTORS; i++) {
    if (pthread_create(&queue->executors[i], NULL, cpu_executor_main, queue) !=
        0) {
      cpu_queue_stop(queue);
      cpu_queue_free(queue);
      return mux_error_out_of_memory;
    }
    pthread_setname_np(queue->executors[i], "clmux-queue");
    queue->executor_count++;
  }
  device->queue = queue;
  return mux_success;
}

void cpu_queue_destroy(cpu_device *device) {
  cpu_queue *queue = device->queue;
  if (!queue) return;
  cpu_queue_stop(queue);
  cpu_queue_free(queue);
  device->queue = NULL;
}

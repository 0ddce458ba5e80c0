/* clmux CPU target — private to queue.c, semaphore.c and fence.c: the
 * dispatch records, the wait counters behind semaphores, and the queue that
 * runs ready command buffers on its executor threads.
 *
 * Locking: one mutex per queue guards the dependency graph (semaphore state
 * and waiter lists, pending counters), the ready list, the in-flight list and
 * the free list of dispatch records. Fences are plain atomics so host threads
 * can poll them without the lock. */
#ifndef CLMUX_CPU_QUEUE_INTERNAL_H
#define CLMUX_CPU_QUEUE_INTERNAL_H

#include "cpu.h"

/* Dispatches keep this many waits and signals inline; longer lists get an
 * array from the allocator that the recycled record keeps for next time. */
#define CPU_DISPATCH_INLINE_SEMAPHORES 4u
#define CPU_QUEUE_EXECUTORS 2u

typedef struct cpu_dispatch cpu_dispatch;

/* Links one pending dispatch into the waiter list of one semaphore. */
typedef struct cpu_wait_link {
  cpu_dispatch *dispatch;
  struct cpu_wait_link *next;
} cpu_wait_link;

struct cpu_semaphore {
  struct mux_semaphore_s base;
  bool signalled;         /* under the queue lock */
  cpu_wait_link *waiters; /* under the queue lock */
};

/* The fence's state: CPU_FENCE_UNSIGNALLED, or the completed dispatch's
 * error (mux_success included). */
#define CPU_FENCE_UNSIGNALLED (-1)

struct cpu_fence {
  struct mux_fence_s base;
  atomic_int state;
};

struct cpu_dispatch {
  cpu_command_buffer *command_buffer;
  cpu_fence *fence;
  mux_dispatch_callback_t user_function;
  void *user_data;
  uint32_t pending_waits; /* unsignalled wait semaphores left */

  cpu_semaphore **signals;
  uint32_t signal_count;
  uint32_t signal_capacity;
  cpu_wait_link *links;
  uint32_t link_capacity;

  uint64_t sequence;             /* dispatch order, for muxWaitAll */
  cpu_dispatch *next;            /* ready list or free list */
  cpu_dispatch *in_flight_prev;  /* in-flight list, oldest first */
  cpu_dispatch *in_flight_next;

  cpu_semaphore *inline_signals[CPU_DISPATCH_INLINE_SEMAPHORES];
  cpu_wait_link inline_links[CPU_DISPATCH_INLINE_SEMAPHORES];
};

typedef struct cpu_queue {
  struct mux_queue_s base;
  mux_allocator_info_t allocator;
  pthread_mutex_t lock;
  pthread_cond_t work; /* executors sleep here */

  cpu_dispatch *ready_head; /* FIFO of dispatches whose waits are all met */
  cpu_dispatch *ready_tail;
  atomic_uint ready_count;   /* written under the lock, polled by spinners */
  unsigned idle_executors;   /* asleep on `work` */
  bool executor_spinning;    /* one executor at a time polls ready_count */
  /* Executors past their dispatch's commands, back for the ready list in a
   * moment: a dispatch made meanwhile wakes nobody for it. */
  atomic_uint finishing;
  int creator_cpu; /* where the queue was made, or -1 */
  atomic_bool stopping;

  cpu_dispatch *free_list;
  cpu_dispatch *in_flight_head;
  cpu_dispatch *in_flight_tail;
  uint64_t next_sequence;
  /* Sequence of the oldest dispatch not yet complete, UINT64_MAX if none;
   * lets muxWaitAll poll without the lock. */
  _Atomic uint64_t oldest_in_flight;

  /* Host waits (muxWait, muxTryWait, muxWaitAll) sleep on this futex word,
   * which every completion bumps. */
  atomic_uint completions;
  atomic_int host_sleepers;

  pthread_t executors[CPU_QUEUE_EXECUTORS];
  unsigned executor_count;
} cpu_queue;

static inline cpu_queue *cpu_queue_of_device(mux_device_t device) {
  return (cpu_queue *)((cpu_device *)device)->queue;
}

/* ---- queue.c ---- */

/* Appends a dispatch whose waits are all met to the ready list (lock held).
 * The caller then calls cpu_queue_wake_executors once for the batch. */
void cpu_queue_push_ready(cpu_queue *queue, cpu_dispatch *dispatch);
/* Wakes sleeping executors for the ready dispatches beyond `reserved` that
 * a running executor will take itself (lock held). */
void cpu_queue_wake_executors(cpu_queue *queue, unsigned reserved);

/* ---- semaphore.c (queue lock held) ---- */

/* Counts `dispatch` as waiting on `semaphore` through `link`, unless the
 * semaphore is already signalled. Returns whether it now waits. */
bool cpu_semaphore_add_waiter(cpu_semaphore *semaphore, cpu_dispatch *dispatch,
                              cpu_wait_link *link);
/* Signals the semaphore: each waiter's counter drops by one and those that
 * reach zero go to the ready list. The semaphore keeps no waiters after. */
void cpu_semaphore_signal(cpu_semaphore *semaphore, cpu_queue *queue);

/* ---- fence.c ---- */

void cpu_fence_signal(cpu_fence *fence, mux_result_t error);
/* CPU_FENCE_UNSIGNALLED or the error the fence was signalled with. */
int cpu_fence_state(const cpu_fence *fence);

#endif /* CLMUX_CPU_QUEUE_INTERNAL_H */

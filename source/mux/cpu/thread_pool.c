/* clmux CPU target: the pool of pinned worker threads and its chunked
 * parallel-for.
 *
 * One loop runs at a time. The caller publishes it (function, context,
 * sizes), opens it in `state`, bumps the futex word `generation` and waits;
 * workers take chunks, smaller as fewer items are left, from one atomic
 * counter. A loop of one chunk, or one expected to be short, runs on the
 * caller alone (waking workers would only add latency), which hands what
 * is left to the workers should it take longer than expected. A worker
 * must "join" the open loop (a CAS on `state` that checks the loop's
 * generation) before it reads the loop, and leaves it when the counter runs
 * out. The caller closes the loop once every chunk is taken and nobody is
 * inside, so a worker that wakes late finds it closed and never sees a
 * half-published next loop.
 *
 * Waiting (workers for a loop, the caller for the last worker) spins for a
 * few microseconds, then sleeps on a futex; a counter of sleepers lets the
 * other side skip the wake-up system call when nobody sleeps. */
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../timeline/timeline.h"
#include "cpu.h"

/* How long a waiter spins before it sleeps: long enough to catch loops
 * launched back to back, short enough not to steal a shared core. */
#define CPU_SPIN_NS 10000u

/* state: generation of the open loop in the high half; OPEN while workers
 * may join; the number of workers inside in the low bits. 0 = closed. */
#define CPU_LOOP_OPEN ((uint64_t)1 << 31)
#define CPU_LOOP_INSIDE ((uint64_t)CPU_LOOP_OPEN - 1)

typedef struct cpu_worker {
  struct cpu_pool *pool;
  pthread_t thread;
  unsigned index; /* also its slot */
  int core;       /* the core it is pinned to, or -1: by index */
} cpu_worker;

struct cpu_pool {
  /* Fixed at creation. */
  unsigned workers; /* slots = workers + 1; the caller uses the last */
  size_t local_memory_size;
  size_t slot_stride;
  uint8_t *local_memory; /* one mapping, a page-aligned stride per slot */
  size_t local_memory_mapped;
  int local_memory_range;    /* in address_spaces.c's table */
  pthread_mutex_t call_lock; /* one loop at a time */

  /* The published loop, written only while it is closed. */
  cpu_range_fn fn;
  void *context;
  const char *label; /* what the timeline calls the loop's chunks */
  uint64_t total;
  uint64_t chunk; /* the smallest a worker takes */

  /* Each group on its own cache line: they are written by different
   * threads at different times. */
  _Alignas(64) atomic_uint generation; /* futex: +1 per loop and at stop */
  atomic_uint sleeping_workers;
  atomic_bool stop;
  _Alignas(64) _Atomic uint64_t state;
  _Alignas(64) _Atomic uint64_t next_item; /* the first nobody took */
  _Alignas(64) atomic_uint left; /* futex: +1 when the last worker leaves */
  atomic_uint caller_sleeping;
  _Atomic uint64_t busy_ns; /* the workers' time inside the loop */
  /* The loop's first fault: claimed by setting `faulted`, complete once
   * its thread has left the loop. */
  _Alignas(64) atomic_bool faulted;
  cpu_fault fault;

  cpu_worker worker[];
};

static void cpu_futex_wait(atomic_uint *word, unsigned expected) {
  /* EINTR and EAGAIN are fine: every caller re-checks its condition. */
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL,
          0);
}

static void cpu_futex_wake(atomic_uint *word, int count) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL,
          0);
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Spins until `done(pool)` or CPU_SPIN_NS have passed; true if done. The
 * clock is read only every 64 pauses: it costs more than a pause. The yield
 * matters when the thread we wait for shares our core (a waiting caller or
 * an application thread beside a worker): without it, it waits out our
 * spin. */
static bool cpu_spin_until(struct cpu_pool *pool,
                           bool (*done)(struct cpu_pool *, unsigned),
                           unsigned argument) {
  uint64_t deadline = 0;
  for (unsigned spin = 1;; spin++) {
    if (done(pool, argument)) return true;
    if ((spin & 63) == 0) {
      uint64_t now = cpu_now_ns();
      if (!deadline) {
        deadline = now + CPU_SPIN_NS;
      } else if (now >= deadline) {
        return false;
      }
      sched_yield();
    }
    cpu_relax();
  }
}

static bool cpu_generation_changed(struct cpu_pool *pool, unsigned seen) {
  return atomic_load_explicit(&pool->generation, memory_order_acquire) != seen;
}

/* Worker side: returns the first generation other than `seen`. */
static unsigned cpu_wait_for_loop(struct cpu_pool *pool, unsigned seen) {
  if (!cpu_spin_until(pool, cpu_generation_changed, seen)) {
    /* Announce the sleep before the last look at the word, so that a
     * caller who bumps it after that look also sees the sleeper (both
     * sides use sequentially consistent operations). */
    while (!cpu_generation_changed(pool, seen)) {
      atomic_fetch_add(&pool->sleeping_workers, 1);
      if (atomic_load(&pool->generation) == seen) {
        cpu_futex_wait(&pool->generation, seen);
      }
      atomic_fetch_sub(&pool->sleeping_workers, 1);
    }
  }
  return atomic_load_explicit(&pool->generation, memory_order_acquire);
}

/* Enters loop `generation` if it is still open; false if it is gone. */
static bool cpu_join_loop(struct cpu_pool *pool, unsigned generation) {
  uint64_t state = atomic_load_explicit(&pool->state, memory_order_acquire);
  for (;;) {
    if ((uint32_t)(state >> 32) != generation || !(state & CPU_LOOP_OPEN)) {
      return false;
    }
    if (atomic_compare_exchange_weak_explicit(&pool->state, &state, state + 1,
                                              memory_order_acquire,
                                              memory_order_acquire)) {
      return true;
    }
  }
}

/* Release: the caller that sees the count reach zero also sees every write
 * the loop's function made on this thread. */
static void cpu_leave_loop(struct cpu_pool *pool) {
  uint64_t before = atomic_fetch_sub(&pool->state, 1);
  if ((before & CPU_LOOP_INSIDE) == 1) {
    atomic_fetch_add(&pool->left, 1);
    if (atomic_load(&pool->caller_sleeping)) cpu_futex_wake(&pool->left, 1);
  }
}

/* The first fault of the loop is kept; the chunks nobody took yet are
 * skipped (the counter runs out at once). */
static void cpu_record_fault(struct cpu_pool *pool, const cpu_fault *fault) {
  atomic_store_explicit(&pool->next_item, pool->total, memory_order_relaxed);
  bool no = false;
  if (atomic_compare_exchange_strong(&pool->faulted, &no, true)) {
    pool->fault = *fault;
  }
}

/* Runs [begin, end) of the loop; with CLMUX_TRACE, as a slice on the
 * thread's track. */
static bool cpu_run_chunk(cpu_range_fn fn, void *context, const char *label,
                          uint64_t begin, uint64_t end, unsigned slot,
                          uint8_t *local_memory, cpu_fault *fault) {
  if (!timeline_on()) {
    return cpu_fault_run(fn, context, begin, end, slot, local_memory, fault);
  }
  uint64_t start = timeline_now();
  bool ran = cpu_fault_run(fn, context, begin, end, slot, local_memory, fault);
  char args[96];
  snprintf(args, sizeof args, "\"first\":%" PRIu64 ",\"count\":%" PRIu64, begin,
           end - begin);
  timeline_slice(0, "work-groups", label, start, timeline_now(), args);
  return ran;
}

/* Guided: each take is the rest over twice the workers, but at least
 * `chunk` items. Early takes are large (few of them), late ones small, so
 * that the threads finish together however uneven the items are. */
static void cpu_run_chunks(struct cpu_pool *pool, unsigned slot) {
  uint8_t *local_memory = pool->local_memory + slot * pool->slot_stride;
  const uint64_t total = pool->total;
  const uint64_t chunk = pool->chunk;
  const uint64_t split = 2 * (uint64_t)pool->workers;
  const uint64_t start = cpu_now_ns();
  /* Relaxed: the counter only hands out items; the loop's data is ordered
   * by joining and leaving. */
  uint64_t begin = atomic_load_explicit(&pool->next_item, memory_order_relaxed);
  while (begin < total) {
    uint64_t size = (total - begin) / split;
    if (size < chunk) size = chunk;
    uint64_t end = total - begin > size ? begin + size : total;
    if (!atomic_compare_exchange_weak_explicit(&pool->next_item, &begin, end,
                                               memory_order_relaxed,
                                               memory_order_relaxed)) {
      continue; /* begin is now the counter's value */
    }
    cpu_fault fault;
    if (!cpu_run_chunk(pool->fn, pool->context, pool->label, begin, end, slot,
                       local_memory, &fault)) {
      cpu_record_fault(pool, &fault);
      break;
    }
    begin = atomic_load_explicit(&pool->next_item, memory_order_relaxed);
  }
  atomic_fetch_add_explicit(&pool->busy_ns, cpu_now_ns() - start,
                            memory_order_relaxed);
}

static void *cpu_worker_main(void *argument) {
  cpu_worker *self = argument;
  struct cpu_pool *pool = self->pool;
  pthread_setname_np(pthread_self(), "clmux-worker");
  if (self->core >= 0) {
    cpu_bind_worker_thread((unsigned)self->core,
                           cpu_device_info()->compute_units);
  } else {
    cpu_bind_worker_thread(self->index, pool->workers);
  }
  if (timeline_on()) {
    char name[32];
    snprintf(name, sizeof name, "clmux worker %u", self->index);
    timeline_name_thread(name);
  }
  void *signal_stack = cpu_fault_thread_enter();
  unsigned seen = 0; /* the pool starts at generation 0 */
  for (;;) {
    seen = cpu_wait_for_loop(pool, seen);
    if (atomic_load_explicit(&pool->stop, memory_order_acquire)) {
      cpu_fault_thread_leave(signal_stack);
      return NULL;
    }
    if (cpu_join_loop(pool, seen)) {
      cpu_run_chunks(pool, self->index);
      cpu_leave_loop(pool);
    }
  }
}

static bool cpu_nobody_inside(struct cpu_pool *pool, unsigned unused) {
  (void)unused;
  return (atomic_load_explicit(&pool->state, memory_order_acquire) &
          CPU_LOOP_INSIDE) == 0;
}

/* Every chunk taken and nobody inside: the loop is done. */
static bool cpu_loop_done(struct cpu_pool *pool, unsigned unused) {
  (void)unused;
  return (atomic_load(&pool->state) & CPU_LOOP_INSIDE) == 0 &&
         atomic_load(&pool->next_item) >= pool->total;
}

/* Caller side: waits until `done`; the last worker to leave wakes it. */
static void cpu_wait_for_workers(struct cpu_pool *pool,
                                 bool (*done)(struct cpu_pool *, unsigned)) {
  if (cpu_spin_until(pool, done, 0)) return;
  atomic_store(&pool->caller_sleeping, 1);
  for (;;) {
    unsigned left = atomic_load(&pool->left);
    if (done(pool, 0)) break;
    cpu_futex_wait(&pool->left, left);
  }
  atomic_store_explicit(&pool->caller_sleeping, 0, memory_order_relaxed);
}

/* Stops and joins the first `started` workers. */
static void cpu_stop_workers(struct cpu_pool *pool, unsigned started) {
  atomic_store_explicit(&pool->stop, true, memory_order_release);
  atomic_fetch_add(&pool->generation, 1);
  cpu_futex_wake(&pool->generation, INT_MAX);
  for (unsigned i = 0; i < started; i++) {
    pthread_join(pool->worker[i].thread, NULL);
  }
}

static size_t cpu_round_up(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

struct cpu_pool *cpu_pool_create(mux_allocator_info_t allocator,
                                 const uint32_t *cores, unsigned core_count) {
  const struct mux_device_info_s *info = cpu_device_info();
  /* A partition's workers, one per core, are no more than the whole
   * device's: CLMUX_NUM_THREADS and a CPU quota bound them too. */
  unsigned workers = cpu_worker_count();
  if (cores && core_count < workers) workers = core_count;
  size_t size = sizeof(struct cpu_pool) + workers * sizeof(cpu_worker);
  struct cpu_pool *pool =
      cpu_calloc(allocator, size, _Alignof(struct cpu_pool));
  if (!pool) return NULL;
  pool->workers = workers;
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->sleeping_workers, 0);
  atomic_init(&pool->stop, false);
  atomic_init(&pool->state, 0);
  atomic_init(&pool->next_item, 0);
  atomic_init(&pool->left, 0);
  atomic_init(&pool->caller_sleeping, 0);
  atomic_init(&pool->busy_ns, 0);
  atomic_init(&pool->faulted, false);
  cpu_fault_install();

  /* Local memory is device data, so it is mapped rather than taken from the
   * user's allocator; whole pages per slot keep slots off each other's
   * cache lines and let each worker's first touch place its pages near it. */
  long page = sysconf(_SC_PAGESIZE);
  pool->local_memory_size =
      cpu_round_up((size_t)info->shared_local_memory_size, CPU_LOCAL_ALIGN);
  pool->slot_stride =
      cpu_round_up(pool->local_memory_size, page > 0 ? (size_t)page : 4096);
  pool->local_memory_mapped = pool->slot_stride * (workers + 1);
  void *mapping = mmap(NULL, pool->local_memory_mapped, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    cpu_free(allocator, pool);
    return NULL;
  }
  pool->local_memory = mapping;
  pool->local_memory_range = cpu_address_range_add(
      mapping, pool->local_memory_mapped, cpu_address_local);

  if (pthread_mutex_init(&pool->call_lock, NULL) != 0) {
    cpu_address_range_remove(pool->local_memory_range);
    munmap(mapping, pool->local_memory_mapped);
    cpu_free(allocator, pool);
    return NULL;
  }

  /* Workers take asynchronous signals from nobody: those belong to the
   * application's own threads. Faults still reach a worker's handlers. */
  sigset_t blocked, previous;
  sigfillset(&blocked);
  const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
  for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
    sigdelset(&blocked, faults[i]);
  }
  pthread_sigmask(SIG_SETMASK, &blocked, &previous);
  unsigned started = 0;
  for (; started < workers; started++) {
    cpu_worker *worker = &pool->worker[started];
    worker->pool = pool;
    worker->index = started;
    worker->core = cores ? (int)cores[started] : -1;
    if (pthread_create(&worker->thread, NULL, cpu_worker_main, worker) != 0) {
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, NULL);

  if (started < workers) {
    cpu_stop_workers(pool, started);
    pthread_mutex_destroy(&pool->call_lock);
    cpu_address_range_remove(pool->local_memory_range);
    munmap(mapping, pool->local_memory_mapped);
    cpu_free(allocator, pool);
    return NULL;
  }
  return pool;
}

void cpu_pool_destroy(struct cpu_pool *pool, mux_allocator_info_t allocator) {
  if (!pool) return;
  cpu_stop_workers(pool, pool->workers);
  pthread_mutex_destroy(&pool->call_lock);
  cpu_address_range_remove(pool->local_memory_range);
  munmap(pool->local_memory, pool->local_memory_mapped);
  cpu_free(allocator, pool);
}

unsigned cpu_pool_slots(const struct cpu_pool *pool) {
  return pool ? pool->workers + 1 : 1;
}

unsigned cpu_pool_workers(const struct cpu_pool *pool) {
  return pool ? pool->workers : 0;
}

bool cpu_pool_bind_to_cores(const struct cpu_pool *pool) {
  if (!pool || pool->workers == 0 || pool->worker[0].core < 0) return false;
  uint32_t *cores = malloc(pool->workers * sizeof *cores);
  if (!cores) return false;
  for (unsigned i = 0; i < pool->workers; i++) {
    cores[i] = (uint32_t)pool->worker[i].core;
  }
  bool bound = cpu_bind_thread_to_cores(cores, pool->workers);
  free(cores);
  return bound;
}

size_t cpu_pool_local_memory_size(const struct cpu_pool *pool) {
  return pool ? pool->local_memory_size : 0;
}

uint8_t *cpu_thread_stack_end(void) {
  static _Thread_local uint8_t *end;
  static _Thread_local bool known;
  if (!known) {
    known = true;
    pthread_attr_t attr;
    void *base = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      if (pthread_attr_getstack(&attr, &base, &size) == 0) {
        end = (uint8_t *)base + size;
        /* Other work-items may ask where its variables lie. */
        cpu_address_range_add_thread_stack(base, size);
      }
      pthread_attr_destroy(&attr);
    }
  }
  return end;
}

/* The caller runs [0, total) alone, in eighths at least `chunk` long,
 * until that has taken `budget_ns`; returns where it stopped (total:
 * done), or UINT64_MAX on a fault. Adds its time to *busy_ns (nothing
 * when the budget is unlimited). */
static uint64_t cpu_run_alone(struct cpu_pool *pool, uint64_t total,
                              uint64_t chunk, uint64_t budget_ns,
                              cpu_range_fn fn, void *context, const char *label,
                              uint64_t *busy_ns, cpu_fault *fault) {
  const unsigned slot = pool->workers;
  uint8_t *local_memory = pool->local_memory + slot * pool->slot_stride;
  uint64_t step = (total - 1) / 8 + 1;
  if (step < chunk) step = chunk;
  /* Without a budget (a loop of one chunk) the clock is not read: 0. */
  const bool timed = budget_ns != UINT64_MAX;
  const uint64_t start = timed ? cpu_now_ns() : 0;
  uint64_t done = 0, now = start;
  while (done < total && now - start < budget_ns) {
    uint64_t end = total - done > step ? done + step : total;
    if (!cpu_run_chunk(fn, context, label, done, end, slot, local_memory,
                       fault)) {
      return UINT64_MAX;
    }
    done = end;
    if (timed) now = cpu_now_ns();
  }
  *busy_ns += now - start;
  return done;
}

bool cpu_pool_parallel_for(struct cpu_pool *pool, uint64_t total,
                           uint64_t chunk, uint64_t alone_ns, cpu_range_fn fn,
                           void *context, const char *label, uint64_t *busy_ns,
                           cpu_fault *fault) {
  uint64_t busy_unused;
  if (!busy_ns) busy_ns = &busy_unused;
  *busy_ns = 0;
  if (total == 0) return true;
  if (chunk == 0) chunk = 1;
  pthread_mutex_lock(&pool->call_lock);

  /* One chunk, or a loop expected to be too short to pay for waking the
   * workers: the caller alone, handing over what is left should it take
   * longer than expected. */
  if (total <= chunk || pool->workers == 0) alone_ns = UINT64_MAX;
  uint64_t first = alone_ns ? cpu_run_alone(pool, total, chunk, alone_ns, fn,
                                            context, label, busy_ns, fault)
                            : 0;
  if (first >= total) {
    pthread_mutex_unlock(&pool->call_lock);
    return first == total;
  }
  atomic_store_explicit(&pool->faulted, false, memory_order_relaxed);

  pool->fn = fn;
  pool->context = context;
  pool->label = label;
  pool->total = total;
  pool->chunk = chunk;
  atomic_store_explicit(&pool->next_item, first, memory_order_relaxed);
  atomic_store_explicit(&pool->busy_ns, 0, memory_order_relaxed);
  unsigned generation =
      atomic_load_explicit(&pool->generation, memory_order_relaxed) + 1;
  const uint64_t open = ((uint64_t)generation << 32) | CPU_LOOP_OPEN;
  /* Release: a worker that joins sees the loop published above. */
  atomic_store_explicit(&pool->state, open, memory_order_release);
  atomic_store(&pool->generation, generation);
  if (atomic_load(&pool->sleeping_workers)) {
    cpu_futex_wake(&pool->generation, INT_MAX);
  }

  /* The caller waits rather than take chunks: the workers are one per
   * core, so a caller working beside them would be one thread more than
   * there are cores (CLMUX_NUM_THREADS=1 ran two), sharing a worker's
   * core for a scheduler's time slice while it held a chunk that others
   * then waited for; a sub-device's work would leave its cores. */
  cpu_wait_for_workers(pool, cpu_loop_done);

  /* Close only when nobody is inside; a worker may slip in between the
   * wait and the close, so retry. Acquire pairs with the leavers. */
  uint64_t expected = open;
  while (!atomic_compare_exchange_strong_explicit(
      &pool->state, &expected, 0, memory_order_acq_rel, memory_order_acquire)) {
    cpu_wait_for_workers(pool, cpu_nobody_inside);
    expected = open;
  }
  /* Everyone has left, and a fault was recorded before its thread left
   * (the close's acquire pairs with each leave): it is complete. */
  bool ran = !atomic_load_explicit(&pool->faulted, memory_order_relaxed);
  *busy_ns += atomic_load_explicit(&pool->busy_ns, memory_order_relaxed);
  if (!ran) *fault = pool->fault;
  pthread_mutex_unlock(&pool->call_lock);
  return ran;
}

/* ---- The floating-point environment of work-groups ----------------------*/

/* MXCSR: exception masks (bits 7-12), denormals-are-zero (6),
 * flush-to-zero (15); rounding control 0 is round to nearest. */
#define CPU_MXCSR_EXCEPTIONS_MASKED 0x1f80u
#define CPU_MXCSR_DAZ 0x0040u
#define CPU_MXCSR_FTZ 0x8000u

uint32_t cpu_fp_env_enter(bool denorms_are_zero) {
  uint32_t previous = __builtin_ia32_stmxcsr();
  uint32_t wanted = CPU_MXCSR_EXCEPTIONS_MASKED;
  if (denorms_are_zero) wanted |= CPU_MXCSR_DAZ | CPU_MXCSR_FTZ;
  __builtin_ia32_ldmxcsr(wanted);
  return previous;
}

/* Also drops the exception flags the kernels raised: the thread's owner
 * sees its own flags, not the device's. */
void cpu_fp_env_leave(uint32_t previous) { __builtin_ia32_ldmxcsr(previous); }

/* White-box tests of the worker pool (source/mux/cpu/thread_pool.c): every
 * item runs exactly once, slots are never shared by concurrent calls, local
 * memory is usable, concurrent callers are served, no thread idles while
 * chunks wait behind a slow one, CLMUX_NUM_THREADS picks the worker count
 * and the caller runs only loops of one chunk,
 * and pools come and go without leaks or hangs. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"

static cpu_fault no_fault; /* these loops never fault */
#include "mux_test.h"

#define MAX_SLOTS 1025

/* What a loop's function records. */
typedef struct loop_record {
  uint64_t total;
  uint64_t chunk;    /* the chunk asked for; 0 means 1 */
  atomic_uint *runs; /* per item */
  atomic_int bad_range;
  atomic_int bad_slot;
  atomic_int shared_slot;
  atomic_int in_use[MAX_SLOTS];
  atomic_long thread_of_slot[MAX_SLOTS]; /* kernel thread id, 0 = unseen */
  atomic_int slot_thread_changed;
  unsigned slots;
  unsigned sleep_us; /* per call, to make calls overlap */
  uint64_t *plain;   /* plain (non-atomic) writes the caller reads after */
} loop_record;

static void record_range(void *context, uint64_t begin, uint64_t end,
                         unsigned slot, uint8_t *local_memory) {
  loop_record *record = context;
  (void)local_memory;
  /* Chunks of at least `chunk` items, but the last. */
  uint64_t chunk = record->chunk ? record->chunk : 1;
  if (begin >= end || end > record->total ||
      (end - begin < chunk && end != record->total)) {
    atomic_fetch_add(&record->bad_range, 1);
    return;
  }
  if (slot >= record->slots) {
    atomic_fetch_add(&record->bad_slot, 1);
    return;
  }
  if (atomic_exchange(&record->in_use[slot], 1) != 0) {
    atomic_fetch_add(&record->shared_slot, 1);
  }
  long tid = (long)syscall(SYS_gettid);
  long expected = 0;
  if (!atomic_compare_exchange_strong(&record->thread_of_slot[slot], &expected,
                                      tid) &&
      expected != tid) {
    atomic_fetch_add(&record->slot_thread_changed, 1);
  }
  for (uint64_t i = begin; i < end; i++) {
    atomic_fetch_add_explicit(&record->runs[i], 1, memory_order_relaxed);
    if (record->plain) record->plain[i] = i * 3 + 1;
  }
  if (record->sleep_us) usleep(record->sleep_us);
  atomic_store(&record->in_use[slot], 0);
}

static loop_record *record_new(uint64_t total, uint64_t chunk, unsigned slots) {
  loop_record *record = calloc(1, sizeof(*record));
  REQUIRE(record);
  record->total = total;
  record->chunk = chunk;
  record->slots = slots;
  record->runs = calloc(total ? total : 1, sizeof(atomic_uint));
  REQUIRE(record->runs);
  return record;
}

static void record_free(loop_record *record) {
  free(record->runs);
  free(record->plain);
  free(record);
}

/* Items that did not run exactly once, plus every recorded violation. */
static uint64_t record_errors(const loop_record *record) {
  uint64_t errors = 0;
  for (uint64_t i = 0; i < record->total; i++) {
    if (atomic_load(&record->runs[i]) != 1) errors++;
  }
  return errors + (uint64_t)atomic_load(&record->bad_range) +
         (uint64_t)atomic_load(&record->bad_slot) +
         (uint64_t)atomic_load(&record->shared_slot) +
         (uint64_t)atomic_load(&record->slot_thread_changed);
}

static unsigned record_slots_seen(const loop_record *record) {
  unsigned seen = 0;
  for (unsigned i = 0; i < record->slots && i < MAX_SLOTS; i++) {
    if (atomic_load(&record->thread_of_slot[i]) != 0) seen++;
  }
  return seen;
}

static uint64_t run_loop(struct cpu_pool *pool, uint64_t total, uint64_t chunk,
                         unsigned sleep_us) {
  loop_record *record = record_new(total, chunk, cpu_pool_slots(pool));
  record->sleep_us = sleep_us;
  CHECK(cpu_pool_parallel_for(pool, total, chunk, 0, record_range, record,
                              "test", NULL, &no_fault));
  uint64_t errors = record_errors(record);
  if (errors) {
    fprintf(stderr, "loop total=%llu chunk=%llu: %llu error(s)\n",
            (unsigned long long)total, (unsigned long long)chunk,
            (unsigned long long)errors);
  }
  record_free(record);
  return errors;
}

static void test_combinations(struct cpu_pool *pool) {
  static const uint64_t combos[][2] = {
      {0, 1},     {0, 16},    {1, 1},      {1, 5},     {2, 1},     {7, 3},
      {13, 100},  {97, 1},    {97, 4},     {101, 101}, {102, 101}, {1009, 16},
      {4096, 64}, {65521, 7}, {100000, 1}, {10, 0}};
  for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
    CHECK(run_loop(pool, combos[i][0], combos[i][1], 0) == 0);
  }
  /* A slow function makes the workers overlap the caller. */
  CHECK(run_loop(pool, 64, 1, 200) == 0);
}

/* Plain writes made by the loop are visible once it returns. */
static void test_visibility(struct cpu_pool *pool) {
  const uint64_t total = 50000;
  int wrong = 0;
  for (int round = 0; round < 20; round++) {
    loop_record *record = record_new(total, 13, cpu_pool_slots(pool));
    record->plain = calloc(total, sizeof(uint64_t));
    REQUIRE(record->plain);
    CHECK(cpu_pool_parallel_for(pool, total, 13, 0, record_range, record,
                                "test", NULL, &no_fault));
    for (uint64_t i = 0; i < total; i++) {
      if (record->plain[i] != i * 3 + 1) wrong++;
    }
    record_free(record);
  }
  CHECK(wrong == 0);
}

/* Many tiny loops back to back: the wake/sleep hand-over, not the work. */
static void test_many_small_loops(struct cpu_pool *pool) {
  uint64_t errors = 0;
  loop_record *record = record_new(8, 1, cpu_pool_slots(pool));
  for (int round = 0; round < 20000; round++) {
    for (int i = 0; i < 8; i++) atomic_store(&record->runs[i], 0);
    CHECK(cpu_pool_parallel_for(pool, 8, 1, 0, record_range, record, "test",
                                NULL, &no_fault));
    errors += record_errors(record);
    if (round % 1000 == 999) usleep(200); /* let workers fall asleep */
  }
  record_free(record);
  CHECK(errors == 0);
}

/* Local memory: aligned, the advertised size, fully writable, private to
 * the slot while the call lasts. */
typedef struct local_check {
  size_t size;
  atomic_int bad;
} local_check;

static void touch_local(void *context, uint64_t begin, uint64_t end,
                        unsigned slot, uint8_t *local_memory) {
  local_check *check = context;
  if (!local_memory || (uintptr_t)local_memory % CPU_LOCAL_ALIGN != 0) {
    atomic_fetch_add(&check->bad, 1);
    return;
  }
  for (uint64_t item = begin; item < end; item++) {
    uint8_t pattern = (uint8_t)(item * 31 + slot * 7 + 1);
    memset(local_memory, pattern, check->size);
    usleep(50);
    for (size_t i = 0; i < check->size; i++) {
      if (local_memory[i] != pattern) {
        atomic_fetch_add(&check->bad, 1);
        break;
      }
    }
  }
}

static void test_local_memory(struct cpu_pool *pool) {
  size_t size = cpu_pool_local_memory_size(pool);
  size_t expected = (size_t)cpu_device_info()->shared_local_memory_size;
  expected =
      (expected + CPU_LOCAL_ALIGN - 1) / CPU_LOCAL_ALIGN * CPU_LOCAL_ALIGN;
  CHECK(size == expected);
  CHECK(size >= 32 * 1024);
  local_check check = {size, 0};
  CHECK(cpu_pool_parallel_for(pool, 24, 1, 0, touch_local, &check, "test", NULL,
                              &no_fault));
  CHECK(atomic_load(&check.bad) == 0);
}

/* Several threads share one pool; each must get all of its own items. */
typedef struct caller_args {
  struct cpu_pool *pool;
  unsigned seed;
  uint64_t errors;
} caller_args;

static void *concurrent_caller(void *argument) {
  caller_args *args = argument;
  for (int round = 0; round < 150; round++) {
    uint64_t total = (args->seed * 7919u + (unsigned)round * 104729u) % 3000;
    uint64_t chunk = 1 + (args->seed + (unsigned)round) % 37;
    args->errors += run_loop(args->pool, total, chunk, 0);
  }
  return NULL;
}

static void test_concurrent_callers(struct cpu_pool *pool) {
  enum { CALLERS = 6 };
  pthread_t threads[CALLERS];
  caller_args args[CALLERS];
  for (unsigned i = 0; i < CALLERS; i++) {
    args[i] = (caller_args){pool, i + 1, 0};
    REQUIRE(pthread_create(&threads[i], NULL, concurrent_caller, &args[i]) ==
            0);
  }
  uint64_t errors = 0;
  for (unsigned i = 0; i < CALLERS; i++) {
    pthread_join(threads[i], NULL);
    errors += args[i].errors;
  }
  CHECK(errors == 0);
}

/* Where each slot's thread may run, seen from inside the loop. */
typedef struct affinity_record {
  unsigned workers;
  cpu_set_t mask[MAX_SLOTS];
  atomic_int seen[MAX_SLOTS];
} affinity_record;

static void record_affinity(void *context, uint64_t begin, uint64_t end,
                            unsigned slot, uint8_t *local_memory) {
  affinity_record *record = context;
  (void)begin;
  (void)end;
  (void)local_memory;
  if (slot < record->workers && !atomic_exchange(&record->seen[slot], 1)) {
    CPU_ZERO(&record->mask[slot]);
    sched_getaffinity(0, sizeof(cpu_set_t), &record->mask[slot]);
  }
  usleep(1000);
}

/* Workers are pinned: each to a non-empty set of CPUs, disjoint from the
 * other workers' while there are enough cores, a single PU each when
 * CLMUX_NUM_THREADS asks for more workers than cores. */
static void check_pinning(struct cpu_pool *pool) {
  unsigned workers = cpu_pool_slots(pool) - 1;
  unsigned cores = cpu_device_info()->compute_units;
  affinity_record *record = calloc(1, sizeof(*record));
  REQUIRE(record);
  record->workers = workers;
  CHECK(cpu_pool_parallel_for(pool, 20 * (uint64_t)(workers + 1), 1, 0,
                              record_affinity, record, "test", NULL,
                              &no_fault));
  int all_seen = 1, empty = 0, overlapping = 0, wide = 0;
  for (unsigned i = 0; i < workers; i++) {
    if (!atomic_load(&record->seen[i])) {
      all_seen = 0;
      continue;
    }
    int weight = CPU_COUNT(&record->mask[i]);
    if (weight == 0) empty++;
    if (workers > cores && weight != 1) wide++;
    for (unsigned j = 0; j < i && workers <= cores; j++) {
      cpu_set_t both;
      CPU_AND(&both, &record->mask[i], &record->mask[j]);
      if (atomic_load(&record->seen[j]) && CPU_COUNT(&both)) overlapping++;
    }
  }
  CHECK(all_seen);
  CHECK(empty == 0);
  CHECK(overlapping == 0);
  CHECK(wide == 0);
  free(record);
}

/* CLMUX_NUM_THREADS=3 gives three workers, and all of them take part; the
 * caller runs no chunk of theirs (it would be a fourth thread on three
 * cores), only loops of one chunk. */
static void test_three_workers(void) {
  setenv("CLMUX_NUM_THREADS", "3", 1);
  CHECK(cpu_worker_count() == 3);
  struct cpu_pool *pool = cpu_pool_create(mux_test_allocator, NULL, 0);
  REQUIRE(pool);
  CHECK(cpu_pool_slots(pool) == 4);
  CHECK(cpu_pool_workers(pool) == 3);
  /* Sleeping items leave every thread time to claim some. */
  loop_record *record = record_new(200, 1, cpu_pool_slots(pool));
  record->sleep_us = 1000;
  CHECK(cpu_pool_parallel_for(pool, 200, 1, 0, record_range, record, "test",
                              NULL, &no_fault));
  CHECK(record_errors(record) == 0);
  CHECK(record_slots_seen(record) == 3);
  CHECK(atomic_load(&record->thread_of_slot[3]) == 0); /* the caller's */
  /* Three different kernel threads behind the three slots, none of them
   * the caller. */
  long tids[4];
  for (unsigned i = 0; i < 3; i++) {
    tids[i] = atomic_load(&record->thread_of_slot[i]);
  }
  tids[3] = (long)syscall(SYS_gettid);
  int distinct = 1;
  for (unsigned i = 0; i < 4; i++) {
    for (unsigned j = i + 1; j < 4; j++) {
      if (tids[i] == tids[j]) distinct = 0;
    }
  }
  CHECK(distinct);
  record_free(record);
  /* One chunk: the caller's slot, on the caller. */
  record = record_new(5, 10, cpu_pool_slots(pool));
  CHECK(cpu_pool_parallel_for(pool, 5, 10, 0, record_range, record, "test",
                              NULL, &no_fault));
  CHECK(record_errors(record) == 0);
  CHECK(atomic_load(&record->thread_of_slot[3]) == tids[3]);
  record_free(record);
  check_pinning(pool);
  test_combinations(pool);
  cpu_pool_destroy(pool, mux_test_allocator);

  /* Invalid values are ignored: the count falls back to the cores. */
  unsigned cores = cpu_device_info()->compute_units;
  static const char *const invalid[] = {"0", "-2", "1025", "abc", "4x", ""};
  for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
    setenv("CLMUX_NUM_THREADS", invalid[i], 1);
    CHECK(cpu_worker_count() == cores);
  }
  setenv("CLMUX_NUM_THREADS", "1024", 1);
  CHECK(cpu_worker_count() == 1024);
  unsetenv("CLMUX_NUM_THREADS");
  CHECK(cpu_worker_count() == cores);
}

/* CLMUX_NUM_THREADS=1: one thread runs the chunks, the caller none (it
 * ran half of them beside its worker before, two threads for one). */
static void test_one_thread(void) {
  setenv("CLMUX_NUM_THREADS", "1", 1);
  struct cpu_pool *pool = cpu_pool_create(mux_test_allocator, NULL, 0);
  REQUIRE(pool);
  CHECK(cpu_pool_workers(pool) == 1);
  loop_record *record = record_new(64, 1, cpu_pool_slots(pool));
  record->sleep_us = 200;
  CHECK(cpu_pool_parallel_for(pool, 64, 1, 0, record_range, record, "test",
                              NULL, &no_fault));
  CHECK(record_errors(record) == 0);
  CHECK(record_slots_seen(record) == 1);
  CHECK(atomic_load(&record->thread_of_slot[0]) != 0);
  CHECK(atomic_load(&record->thread_of_slot[0]) != (long)syscall(SYS_gettid));
  record_free(record);
  test_combinations(pool);
  cpu_pool_destroy(pool, mux_test_allocator);
  unsetenv("CLMUX_NUM_THREADS");
}

/* A loop expected to be short (alone_ns) runs on the caller; one that
 * outlasts the budget is handed on, each item still run once; busy_ns
 * sums the threads' time in it. */
static void test_alone(struct cpu_pool *pool) {
  long caller = (long)syscall(SYS_gettid);
  unsigned workers = cpu_pool_workers(pool);
  /* Short: all on the caller's slot. */
  loop_record *record = record_new(1000, 7, cpu_pool_slots(pool));
  uint64_t busy_ns = 0;
  CHECK(cpu_pool_parallel_for(pool, 1000, 7, 1000000000, record_range, record,
                              "test", &busy_ns, &no_fault));
  CHECK(record_errors(record) == 0);
  CHECK(record_slots_seen(record) == 1);
  CHECK(atomic_load(&record->thread_of_slot[workers]) == caller);
  CHECK(busy_ns > 0);
  record_free(record);

  /* Longer than its budget: the caller ran the first eighth (64 items of
   * 512), the workers the rest. */
  record = record_new(512, 16, cpu_pool_slots(pool));
  record->sleep_us = 200;
  CHECK(cpu_pool_parallel_for(pool, 512, 16, 1000, record_range, record, "test",
                              &busy_ns, &no_fault));
  CHECK(record_errors(record) == 0);
  CHECK(atomic_load(&record->thread_of_slot[workers]) == caller);
  CHECK(record_slots_seen(record) >= 2);
  /* Each call slept 200 µs: the caller's and at least one worker's. */
  CHECK(busy_ns >= 2 * 200000);
  record_free(record);
}

/* Create and destroy repeatedly, with and without work in between. */
static void test_create_destroy(void) {
  int failures = 0;
  for (int i = 0; i < 50; i++) {
    struct cpu_pool *pool = cpu_pool_create(mux_test_allocator, NULL, 0);
    if (!pool) {
      failures++;
      continue;
    }
    if (i % 2) failures += run_loop(pool, 100 + (uint64_t)i, 3, 0) != 0;
    cpu_pool_destroy(pool, mux_test_allocator);
  }
  CHECK(failures == 0);
  CHECK(atomic_load(&mux_test_live_allocations) == 0);
}

/* A loop whose first chunk cannot finish until every other chunk has:
 * the pool must leave the others free for its other threads to take (no
 * thread idles while another has a queue of chunks). A pool that handed
 * each thread its share up front would time out here. */
typedef struct uneven_loop {
  uint64_t total;
  atomic_ullong done;
  atomic_int timed_out;
} uneven_loop;

static void wait_for_the_rest(void *context, uint64_t begin, uint64_t end,
                              unsigned slot, uint8_t *local_memory) {
  (void)slot;
  (void)local_memory;
  uneven_loop *loop = context;
  if (begin == 0) {
    uint64_t others = loop->total - (end - begin);
    struct timespec start, now, pause = {0, 50000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load(&loop->done) < others) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      if (now.tv_sec - start.tv_sec > 10) {
        atomic_store(&loop->timed_out, 1);
        break;
      }
      nanosleep(&pause, NULL);
    }
  }
  atomic_fetch_add(&loop->done, end - begin);
}

static void test_uneven(struct cpu_pool *pool) {
  unsigned workers = cpu_pool_workers(pool);
  if (workers < 2) return; /* one thread: nobody else could take them */
  const uint64_t totals[] = {workers * 2, 1000, 4099};
  for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
    /* 1, and the chunk size ndrange.c asks for. */
    uint64_t chunks[] = {1, totals[i] / ((uint64_t)workers * 8)};
    for (size_t j = 0; j < 2; j++) {
      uneven_loop loop = {.total = totals[i]};
      CHECK(cpu_pool_parallel_for(pool, totals[i], chunks[j], 0,
                                  wait_for_the_rest, &loop, "test", NULL,
                                  &no_fault));
      CHECK(!atomic_load(&loop.timed_out));
      CHECK(atomic_load(&loop.done) == totals[i]);
    }
  }
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  test_three_workers();
  test_one_thread();

  struct cpu_pool *pool = cpu_pool_create(mux_test_allocator, NULL, 0);
  REQUIRE(pool);
  CHECK(cpu_pool_slots(pool) == cpu_worker_count() + 1);
  check_pinning(pool);
  test_combinations(pool);
  test_visibility(pool);
  test_local_memory(pool);
  test_many_small_loops(pool);
  test_concurrent_callers(pool);
  test_uneven(pool);
  test_alone(pool);
  cpu_pool_destroy(pool, mux_test_allocator);

  test_create_destroy();
  return mux_test_finish();
}

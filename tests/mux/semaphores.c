/* Semaphores: chains run in order whatever the dispatch order, a command
 * buffer waiting on two semaphores starts only after both, reset + reuse. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mux_test.h"

#define CHAIN 100
#define TIMEOUT_NS 10000000000ull /* against hangs only */

static mux_device_t device;
static mux_queue_t queue;

/* Entries appended by command-buffer callbacks, in the order they ran. The
 * lock lets the test read the log while command buffers still run. */
typedef struct {
  pthread_mutex_t lock;
  int length;
  int entries[4 * CHAIN];
} run_log;

#define RUN_LOG_INIT {PTHREAD_MUTEX_INITIALIZER, 0, {0}}

static void log_reset(run_log *log) {
  pthread_mutex_lock(&log->lock);
  log->length = 0;
  pthread_mutex_unlock(&log->lock);
}

static int log_length(run_log *log) {
  pthread_mutex_lock(&log->lock);
  int length = log->length;
  pthread_mutex_unlock(&log->lock);
  return length;
}

/* The entry at `index`, or -1 if there is none yet. */
static int log_entry_at(run_log *log, int index) {
  pthread_mutex_lock(&log->lock);
  int value = index < log->length ? log->entries[index] : -1;
  pthread_mutex_unlock(&log->lock);
  return value;
}

typedef struct {
  run_log *log;
  int value;
} log_entry;

static void append(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  const log_entry *entry = data;
  run_log *log = entry->log;
  pthread_mutex_lock(&log->lock);
  if (log->length < 4 * CHAIN) log->entries[log->length] = entry->value;
  log->length++;
  pthread_mutex_unlock(&log->lock);
}

static void sleep_us(long us) {
  struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&t, NULL);
}

/* A callback that holds its command buffer until the flag is raised (or a
 * generous time-out passes, so a bug cannot hang the test). */
static void hold(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  atomic_bool *release = data;
  for (int i = 0; i < 100000 && !atomic_load(release); i++) sleep_us(100);
}

static mux_command_buffer_t logging_buffer(log_entry *entry) {
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  REQUIRE(muxCommandUserCallback(command_buffer, append, entry, 0, NULL,
                                 NULL) == mux_success);
  REQUIRE(muxFinalizeCommandBuffer(command_buffer) == mux_success);
  return command_buffer;
}

static mux_semaphore_t new_semaphore(void) {
  mux_semaphore_t semaphore = NULL;
  REQUIRE(muxCreateSemaphore(device, mux_test_allocator, &semaphore) ==
          mux_success);
  return semaphore;
}

static mux_fence_t new_fence(void) {
  mux_fence_t fence = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  return fence;
}

static bool log_is_ascending(run_log *log, int count) {
  if (log_length(log) != count) return false;
  for (int i = 0; i < count; i++) {
    if (log_entry_at(log, i) != i) return false;
  }
  return true;
}

/* Command buffer i waits on semaphore i-1 and signals semaphore i. With
 * `reverse`, the dispatches are made last first, so each one waits on a
 * semaphore whose signaller has not been dispatched yet. */
static void run_chain(mux_command_buffer_t *buffers, mux_semaphore_t *semaphores,
                      bool reverse) {
  mux_fence_t fence = new_fence();
  for (int n = 0; n < CHAIN; n++) {
    int i = reverse ? CHAIN - 1 - n : n;
    CHECK_SUCCESS(muxDispatch(queue, buffers[i], i == CHAIN - 1 ? fence : NULL,
                              i ? &semaphores[i - 1] : NULL, i ? 1 : 0,
                              &semaphores[i], 1, NULL, NULL));
  }
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK_SUCCESS(muxWaitAll(queue));
  muxDestroyFence(device, fence, mux_test_allocator);
}

static void test_chains(void) {
  static run_log log = RUN_LOG_INIT;
  static log_entry entries[CHAIN];
  mux_command_buffer_t buffers[CHAIN];
  mux_semaphore_t semaphores[CHAIN];
  for (int i = 0; i < CHAIN; i++) {
    entries[i] = (log_entry){&log, i};
    buffers[i] = logging_buffer(&entries[i]);
    semaphores[i] = new_semaphore();
  }

  log_reset(&log);
  run_chain(buffers, semaphores, false);
  CHECK(log_is_ascending(&log, CHAIN));

  /* Reset and reuse the same semaphores, dispatching back to front. */
  for (int i = 0; i < CHAIN; i++) {
    CHECK_SUCCESS(muxResetSemaphore(semaphores[i]));
  }
  log_reset(&log);
  run_chain(buffers, semaphores, true);
  CHECK(log_is_ascending(&log, CHAIN));

  for (int i = 0; i < CHAIN; i++) {
    muxDestroyCommandBuffer(device, buffers[i], mux_test_allocator);
    muxDestroySemaphore(device, semaphores[i], mux_test_allocator);
  }
}

/* C waits on A's and B's semaphores; A and B are held by callbacks. */
static void test_two_waits(void) {
  static run_log log = RUN_LOG_INIT;
  log_reset(&log);
  atomic_bool release_a = false, release_b = false;
  log_entry entry_a = {&log, 0}, entry_b = {&log, 1}, entry_c = {&log, 2};

  mux_command_buffer_t a = NULL, b = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator, &a) ==
          mux_success);
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator, &b) ==
          mux_success);
  CHECK_SUCCESS(muxCommandUserCallback(a, hold, &release_a, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandUserCallback(a, append, &entry_a, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandUserCallback(b, hold, &release_b, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandUserCallback(b, append, &entry_b, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(a));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(b));
  mux_command_buffer_t c = logging_buffer(&entry_c);

  mux_semaphore_t both[2] = {new_semaphore(), new_semaphore()};
  mux_fence_t fence = new_fence();
  CHECK_SUCCESS(muxDispatch(queue, c, fence, both, 2, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxDispatch(queue, a, NULL, NULL, 0, &both[0], 1, NULL, NULL));
  CHECK_SUCCESS(muxDispatch(queue, b, NULL, NULL, 0, &both[1], 1, NULL, NULL));

  atomic_store(&release_a, true);
  sleep_us(30000);
  /* A is done, B is held: C must not have started. */
  CHECK(log_length(&log) == 1 && log_entry_at(&log, 0) == 0);
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 0, fence));

  atomic_store(&release_b, true);
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK(log_length(&log) == 3 && log_entry_at(&log, 2) == 2);

  /* C again, now that both semaphores are signalled: it does not wait. */
  CHECK_SUCCESS(muxResetFence(fence));
  CHECK_SUCCESS(muxDispatch(queue, c, fence, both, 2, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK(log_length(&log) == 4 && log_entry_at(&log, 3) == 2);

  /* Reset one of them: C waits for a new signaller of that one only. */
  CHECK_SUCCESS(muxResetSemaphore(both[0]));
  CHECK_SUCCESS(muxResetFence(fence));
  atomic_store(&release_a, false);
  CHECK_SUCCESS(muxDispatch(queue, c, fence, both, 2, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxDispatch(queue, a, NULL, NULL, 0, &both[0], 1, NULL, NULL));
  sleep_us(20000);
  CHECK(log_length(&log) == 4);
  atomic_store(&release_a, true);
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK(log_length(&log) == 6 && log_entry_at(&log, 4) == 0 &&
        log_entry_at(&log, 5) == 2);

  CHECK_SUCCESS(muxWaitAll(queue));
  muxDestroyFence(device, fence, mux_test_allocator);
  muxDestroySemaphore(device, both[0], mux_test_allocator);
  muxDestroySemaphore(device, both[1], mux_test_allocator);
  muxDestroyCommandBuffer(device, a, mux_test_allocator);
  muxDestroyCommandBuffer(device, b, mux_test_allocator);
  muxDestroyCommandBuffer(device, c, mux_test_allocator);
}

/* A fan: a held command buffer signals GATES semaphores that start FAN
 * waiters, each signalling one of the FAN semaphores a last one waits on
 * (both lists longer than a dispatch keeps inline). */
static void test_fan(void) {
  enum { FAN = 12, GATES = 6 };
  static run_log log = RUN_LOG_INIT;
  log_reset(&log);
  atomic_bool release = false;
  mux_command_buffer_t root = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator, &root) ==
          mux_success);
  CHECK_SUCCESS(muxCommandUserCallback(root, hold, &release, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(root));

  log_entry entries[FAN + 1];
  mux_command_buffer_t middle[FAN];
  mux_semaphore_t gates[GATES], done[FAN];
  for (int i = 0; i < GATES; i++) gates[i] = new_semaphore();
  for (int i = 0; i < FAN; i++) {
    entries[i] = (log_entry){&log, 1};
    middle[i] = logging_buffer(&entries[i]);
    done[i] = new_semaphore();
  }
  entries[FAN] = (log_entry){&log, 2};
  mux_command_buffer_t last = logging_buffer(&entries[FAN]);

  mux_fence_t fence = new_fence();
  /* The join first (it waits on FAN semaphores, more than fit inline). */
  CHECK_SUCCESS(muxDispatch(queue, last, fence, done, FAN, NULL, 0, NULL, NULL));
  for (int i = 0; i < FAN; i++) {
    CHECK_SUCCESS(
        muxDispatch(queue, middle[i], NULL, &gates[i % GATES], 1, &done[i], 1,
                    NULL, NULL));
  }
  CHECK_SUCCESS(
      muxDispatch(queue, root, NULL, NULL, 0, gates, GATES, NULL, NULL));
  sleep_us(10000);
  CHECK(log_length(&log) == 0);
  atomic_store(&release, true);
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  bool ok = log_length(&log) == FAN + 1 && log_entry_at(&log, FAN) == 2;
  for (int i = 0; i < FAN; i++) ok = ok && log_entry_at(&log, i) == 1;
  CHECK(ok);

  CHECK_SUCCESS(muxWaitAll(queue));
  muxDestroyFence(device, fence, mux_test_allocator);
  for (int i = 0; i < GATES; i++) {
    muxDestroySemaphore(device, gates[i], mux_test_allocator);
  }
  for (int i = 0; i < FAN; i++) {
    muxDestroySemaphore(device, done[i], mux_test_allocator);
    muxDestroyCommandBuffer(device, middle[i], mux_test_allocator);
  }
  muxDestroyCommandBuffer(device, root, mux_test_allocator);
  muxDestroyCommandBuffer(device, last, mux_test_allocator);
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_chains();
  test_two_waits();
  test_fan();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

/* Fences and completion: the dispatch callback fires exactly once and before
 * the signal semaphores are seen signalled; muxTryWait with and without a
 * timeout; muxWait; fence reset and reuse; muxWaitAll waits for everything. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "mux_test.h"

#define TIMEOUT_NS 10000000000ull /* against hangs only */

static mux_device_t device;
static mux_queue_t queue;

static void sleep_us(long us) {
  struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&t, NULL);
}

static mux_command_buffer_t new_command_buffer(void) {
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  return command_buffer;
}

static mux_fence_t new_fence(void) {
  mux_fence_t fence = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  return fence;
}

static mux_semaphore_t new_semaphore(void) {
  mux_semaphore_t semaphore = NULL;
  REQUIRE(muxCreateSemaphore(device, mux_test_allocator, &semaphore) ==
          mux_success);
  return semaphore;
}

/* ---- callbacks ---- */

typedef struct {
  atomic_int calls;
  mux_command_buffer_t last_command_buffer;
  mux_result_t last_error;
} completion;

static void count_completion(mux_command_buffer_t command_buffer,
                             mux_result_t error, void *const data) {
  completion *c = data;
  /* Take a while, so a dependent command buffer started too early (before
   * the callback returned) would run meanwhile and be seen doing so. */
  sleep_us(200);
  c->last_command_buffer = command_buffer;
  c->last_error = error;
  atomic_fetch_add(&c->calls, 1);
}

typedef struct {
  completion *watched;
  int seen;
} observer;

/* Runs inside a dependent command buffer: records what it sees. */
static void observe(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  observer *o = data;
  o->seen = atomic_load(&o->watched->calls);
}

static void hold(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  atomic_bool *release = data;
  for (int i = 0; i < 100000 && !atomic_load(release); i++) sleep_us(100);
}

static void count_quickly(mux_command_buffer_t command_buffer,
                          mux_result_t error, void *const data) {
  (void)command_buffer;
  (void)error;
  atomic_fetch_add(&((completion *)data)->calls, 1);
}

static void increment(mux_queue_t q, mux_command_buffer_t cb,
                      void *const data) {
  (void)q;
  (void)cb;
  atomic_fetch_add((atomic_int *)data, 1);
}

/* ---- tests ---- */

/* A (empty, with a completion callback) signals S; B waits on S and looks at
 * A's callback count from inside. Repeated to give a race room to show. */
static void test_callback_before_signal(void) {
  mux_command_buffer_t a = new_command_buffer();
  CHECK_SUCCESS(muxFinalizeCommandBuffer(a));
  mux_command_buffer_t b = new_command_buffer();
  observer o = {NULL, -1};
  CHECK_SUCCESS(muxCommandUserCallback(b, observe, &o, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(b));
  mux_semaphore_t s = new_semaphore();
  mux_fence_t fence_a = new_fence(), fence_b = new_fence();

  int seen_once = 0, called_once = 0, fence_after_callback = 0;
  enum { ROUNDS = 200 };
  for (int round = 0; round < ROUNDS; round++) {
    completion c = {0};
    o.watched = &c;
    o.seen = -1;
    /* Alternate the dispatch order: B before or after A. */
    if (round & 1) {
      CHECK_SUCCESS(muxDispatch(queue, b, fence_b, &s, 1, NULL, 0, NULL, NULL));
    }
    CHECK_SUCCESS(muxDispatch(queue, a, fence_a, NULL, 0, &s, 1,
                              count_completion, &c));
    if (!(round & 1)) {
      CHECK_SUCCESS(muxDispatch(queue, b, fence_b, &s, 1, NULL, 0, NULL, NULL));
    }
    CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence_a));
    if (atomic_load(&c.calls) == 1) fence_after_callback++;
    CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence_b));
    if (o.seen == 1) seen_once++;
    CHECK_SUCCESS(muxWaitAll(queue));
    if (atomic_load(&c.calls) == 1 && c.last_command_buffer == a &&
        c.last_error == mux_success) {
      called_once++;
    }
    CHECK_SUCCESS(muxResetSemaphore(s));
    CHECK_SUCCESS(muxResetFence(fence_a));
    CHECK_SUCCESS(muxResetFence(fence_b));
  }
  CHECK(seen_once == ROUNDS);
  CHECK(called_once == ROUNDS);
  CHECK(fence_after_callback == ROUNDS);

  muxDestroyFence(device, fence_a, mux_test_allocator);
  muxDestroyFence(device, fence_b, mux_test_allocator);
  muxDestroySemaphore(device, s, mux_test_allocator);
  muxDestroyCommandBuffer(device, a, mux_test_allocator);
  muxDestroyCommandBuffer(device, b, mux_test_allocator);
}

static void test_try_wait(void) {
  atomic_bool release = false;
  mux_command_buffer_t held = new_command_buffer();
  CHECK_SUCCESS(muxCommandUserCallback(held, hold, &release, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(held));
  mux_fence_t fence = new_fence();
  completion c = {0};

  CHECK_SUCCESS(
      muxDispatch(queue, held, fence, NULL, 0, NULL, 0, count_completion, &c));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 0, fence));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 1000, fence));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 2000000, fence));
  /* Longer than the spin phase: the waiter sleeps, then times out. */
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 20000000, fence));
  CHECK(atomic_load(&c.calls) == 0);

  atomic_store(&release, true);
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK(atomic_load(&c.calls) == 1);
  CHECK_SUCCESS(muxTryWait(queue, 0, fence));
  CHECK_SUCCESS(muxWait(queue, fence));

  /* Reset: unsignalled again until the next dispatch completes. */
  CHECK_SUCCESS(muxResetFence(fence));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 0, fence));
  atomic_store(&release, false);
  CHECK_SUCCESS(
      muxDispatch(queue, held, fence, NULL, 0, NULL, 0, count_completion, &c));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 100000, fence));
  atomic_store(&release, true);
  CHECK_SUCCESS(muxWait(queue, fence));
  CHECK(atomic_load(&c.calls) == 2);

  muxDestroyFence(device, fence, mux_test_allocator);
  muxDestroyCommandBuffer(device, held, mux_test_allocator);
}

typedef struct {
  mux_fence_t fence;
  mux_result_t result;
} waiter;

static void *wait_thread(void *data) {
  waiter *w = data;
  w->result = muxWait(queue, w->fence);
  return NULL;
}

/* Several threads block in muxWait on one fence (long enough to sleep);
 * one completion wakes them all. */
static void test_many_waiters(void) {
  enum { WAITERS = 4 };
  atomic_bool release = false;
  mux_command_buffer_t held = new_command_buffer();
  CHECK_SUCCESS(muxCommandUserCallback(held, hold, &release, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(held));
  mux_fence_t fence = new_fence();
  CHECK_SUCCESS(muxDispatch(queue, held, fence, NULL, 0, NULL, 0, NULL, NULL));

  pthread_t threads[WAITERS];
  waiter waiters[WAITERS];
  for (int i = 0; i < WAITERS; i++) {
    waiters[i] = (waiter){fence, -1};
    REQUIRE(pthread_create(&threads[i], NULL, wait_thread, &waiters[i]) == 0);
  }
  sleep_us(20000);
  atomic_store(&release, true);
  for (int i = 0; i < WAITERS; i++) {
    pthread_join(threads[i], NULL);
    CHECK(waiters[i].result == mux_success);
  }
  muxDestroyFence(device, fence, mux_test_allocator);
  muxDestroyCommandBuffer(device, held, mux_test_allocator);
}

static void *release_later(void *data) {
  sleep_us(20000);
  atomic_store((atomic_bool *)data, true);
  return NULL;
}

/* muxWaitAll returns only when every dispatch made before it completed,
 * including one waiting on a semaphore signalled by a held dispatch. */
static void test_wait_all(void) {
  enum { COUNT = 20 };
  atomic_bool release = false;
  atomic_int done = 0;
  mux_command_buffer_t held = new_command_buffer();
  CHECK_SUCCESS(muxCommandUserCallback(held, hold, &release, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandUserCallback(held, increment, &done, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(held));
  mux_command_buffer_t counting = new_command_buffer();
  CHECK_SUCCESS(
      muxCommandUserCallback(counting, increment, &done, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(counting));
  mux_semaphore_t s = new_semaphore();

  /* The waiting one first, then its held signaller, then free ones. */
  CHECK_SUCCESS(muxDispatch(queue, counting, NULL, &s, 1, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxDispatch(queue, held, NULL, NULL, 0, &s, 1, NULL, NULL));
  for (int i = 0; i < COUNT; i++) {
    CHECK_SUCCESS(
        muxDispatch(queue, counting, NULL, NULL, 0, NULL, 0, NULL, NULL));
  }
  pthread_t releaser;
  REQUIRE(pthread_create(&releaser, NULL, release_later, &release) == 0);
  CHECK_SUCCESS(muxWaitAll(queue));
  CHECK(atomic_load(&done) == COUNT + 2);
  pthread_join(releaser, NULL);

  /* With nothing in flight it returns at once. */
  CHECK_SUCCESS(muxWaitAll(queue));
  muxDestroySemaphore(device, s, mux_test_allocator);
  muxDestroyCommandBuffer(device, held, mux_test_allocator);
  muxDestroyCommandBuffer(device, counting, mux_test_allocator);
}

typedef struct {
  mux_command_buffer_t next;
  mux_fence_t next_fence;
  mux_result_t dispatched;
} follow_up;

static void dispatch_follow_up(mux_command_buffer_t command_buffer,
                               mux_result_t error, void *const data) {
  (void)command_buffer;
  (void)error;
  follow_up *f = data;
  f->dispatched = muxDispatch(queue, f->next, f->next_fence, NULL, 0, NULL, 0,
                              NULL, NULL);
}

/* A completion callback may dispatch more work (no lock is held then). */
static void test_dispatch_from_callback(void) {
  atomic_int ran = 0;
  mux_command_buffer_t first = new_command_buffer();
  CHECK_SUCCESS(muxFinalizeCommandBuffer(first));
  mux_command_buffer_t second = new_command_buffer();
  CHECK_SUCCESS(muxCommandUserCallback(second, increment, &ran, 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(second));
  follow_up f = {second, new_fence(), -1};
  mux_fence_t fence = new_fence();
  CHECK_SUCCESS(muxDispatch(queue, first, fence, NULL, 0, NULL, 0,
                            dispatch_follow_up, &f));
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  CHECK(f.dispatched == mux_success);
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, f.next_fence));
  CHECK(atomic_load(&ran) == 1);
  muxDestroyFence(device, fence, mux_test_allocator);
  muxDestroyFence(device, f.next_fence, mux_test_allocator);
  muxDestroyCommandBuffer(device, first, mux_test_allocator);
  muxDestroyCommandBuffer(device, second, mux_test_allocator);
}

/* Not a pass/fail check: reports the dispatch -> callback -> muxWait round
 * trip of an empty command buffer. */
static void report_round_trip(void) {
  enum { ROUNDS = 2000 };
  mux_command_buffer_t empty = new_command_buffer();
  CHECK_SUCCESS(muxFinalizeCommandBuffer(empty));
  mux_fence_t fence = new_fence();
  completion c = {0};
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < ROUNDS; i++) {
    muxResetFence(fence);
    muxDispatch(queue, empty, fence, NULL, 0, NULL, 0, count_quickly, &c);
    muxWait(queue, fence);
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  CHECK(atomic_load(&c.calls) == ROUNDS);
  double us = ((double)(end.tv_sec - start.tv_sec) * 1e9 +
               (double)(end.tv_nsec - start.tv_nsec)) /
              1e3 / ROUNDS;
  printf("round trip dispatch -> callback -> muxWait: %.1f us\n", us);
  muxDestroyFence(device, fence, mux_test_allocator);
  muxDestroyCommandBuffer(device, empty, mux_test_allocator);
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_callback_before_signal();
  test_try_wait();
  test_many_waiters();
  test_wait_all();
  test_dispatch_from_callback();
  report_round_trip();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

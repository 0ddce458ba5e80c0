/* muxDispatch from several threads at once: each thread dispatches its own
 * semaphore chain of command buffers; all complete, every completion
 * callback fires exactly once, and each thread's chain runs in order. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "mux_test.h"

#define THREADS 4
#define PER_THREAD 300
#define TIMEOUT_NS 20000000000ull /* against hangs only */

static mux_device_t device;
static mux_queue_t queue;

typedef struct chain chain;

typedef struct {
  chain *owner;
  int index;
} link_data;

struct chain {
  int id;
  mux_command_buffer_t buffers[PER_THREAD];
  mux_semaphore_t semaphores[PER_THREAD];
  link_data links[PER_THREAD];
  /* Appended by the command buffers as they run; the chain orders them. */
  int log[PER_THREAD];
  int log_length;
  atomic_int completions[PER_THREAD];
  atomic_int wrong_buffer;
  int dispatch_failures;
  mux_fence_t fence;
};

static void append(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  const link_data *link = data;
  chain *c = link->owner;
  if (c->log_length < PER_THREAD) c->log[c->log_length] = link->index;
  c->log_length++;
}

static void completed(mux_command_buffer_t command_buffer, mux_result_t error,
                      void *const data) {
  const link_data *link = data;
  chain *c = link->owner;
  if (command_buffer != c->buffers[link->index] || error != mux_success) {
    atomic_fetch_add(&c->wrong_buffer, 1);
  }
  atomic_fetch_add(&c->completions[link->index], 1);
}

static void *dispatch_chain(void *data) {
  chain *c = data;
  for (int i = 0; i < PER_THREAD; i++) {
    mux_result_t result = muxDispatch(
        queue, c->buffers[i], i == PER_THREAD - 1 ? c->fence : NULL,
        i ? &c->semaphores[i - 1] : NULL, i ? 1 : 0, &c->semaphores[i], 1,
        completed, &c->links[i]);
    if (result != mux_success) c->dispatch_failures++;
  }
  return NULL;
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  device = mux_test_create_device();
  queue = mux_test_queue(device);

  static chain chains[THREADS];
  for (int t = 0; t < THREADS; t++) {
    chain *c = &chains[t];
    c->id = t;
    REQUIRE(muxCreateFence(device, mux_test_allocator, &c->fence) ==
            mux_success);
    for (int i = 0; i < PER_THREAD; i++) {
      c->links[i] = (link_data){c, i};
      REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                     &c->buffers[i]) == mux_success);
      REQUIRE(muxCommandUserCallback(c->buffers[i], append, &c->links[i], 0,
                                     NULL, NULL) == mux_success);
      REQUIRE(muxFinalizeCommandBuffer(c->buffers[i]) == mux_success);
      REQUIRE(muxCreateSemaphore(device, mux_test_allocator,
                                 &c->semaphores[i]) == mux_success);
    }
  }

  /* Two rounds: the second reuses the semaphores after a reset. */
  for (int round = 0; round < 2; round++) {
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
      REQUIRE(pthread_create(&threads[t], NULL, dispatch_chain, &chains[t]) ==
              0);
    }
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    for (int t = 0; t < THREADS; t++) {
      CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, chains[t].fence));
    }
    CHECK_SUCCESS(muxWaitAll(queue));

    for (int t = 0; t < THREADS; t++) {
      chain *c = &chains[t];
      CHECK(c->dispatch_failures == 0);
      CHECK(c->log_length == PER_THREAD);
      bool in_order = true, once = true;
      for (int i = 0; i < PER_THREAD; i++) {
        if (c->log[i] != i) in_order = false;
        if (atomic_load(&c->completions[i]) != round + 1) once = false;
      }
      CHECK(in_order);
      CHECK(once);
      CHECK(atomic_load(&c->wrong_buffer) == 0);
      c->log_length = 0;
      CHECK_SUCCESS(muxResetFence(c->fence));
      for (int i = 0; i < PER_THREAD; i++) {
        CHECK_SUCCESS(muxResetSemaphore(c->semaphores[i]));
      }
    }
  }

  for (int t = 0; t < THREADS; t++) {
    chain *c = &chains[t];
    for (int i = 0; i < PER_THREAD; i++) {
      muxDestroyCommandBuffer(device, c->buffers[i], mux_test_allocator);
      muxDestroySemaphore(device, c->semaphores[i], mux_test_allocator);
    }
    muxDestroyFence(device, c->fence, mux_test_allocator);
  }
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

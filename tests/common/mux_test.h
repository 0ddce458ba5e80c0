/* clmux tests: checks, a counting allocator and device set-up shared by the
 * Mux tests. A test executable calls CHECK* as often as it likes and ends
 * with `return mux_test_finish();`, which prints "N passed, N failed" for
 * its checks and fails when any check failed or an allocation leaked. */
#ifndef CLMUX_TESTS_MUX_TEST_H
#define CLMUX_TESTS_MUX_TEST_H

#include <mux/mux.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* Allocations made through mux_test_allocator and not yet freed. */
static atomic_long mux_test_live_allocations;

/* Checks that `call` returns `expected`, printing both on failure. */
#define CHECK_RESULT(expected, call) CHECK_INT(expected, call)
#define CHECK_SUCCESS(call) CHECK_RESULT(mux_success, call)

static void *mux_test_alloc(void *user_data, size_t size, size_t alignment) {
  (void)user_data;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  void *pointer = NULL;
  if (posix_memalign(&pointer, alignment, size ? size : 1) != 0) return NULL;
  atomic_fetch_add(&mux_test_live_allocations, 1);
  return pointer;
}

static void mux_test_free(void *user_data, void *pointer) {
  (void)user_data;
  if (!pointer) return;
  atomic_fetch_sub(&mux_test_live_allocations, 1);
  free(pointer);
}

static const mux_allocator_info_t mux_test_allocator = {
    mux_test_alloc, mux_test_free, NULL};

/* The CPU device, created with the counting allocator. */
static inline mux_device_t mux_test_create_device(void) {
  mux_device_info_t info = NULL;
  uint64_t count = 0;
  REQUIRE(muxGetDeviceInfos(mux_device_type_cpu, 0, NULL, &count) ==
              mux_success &&
          count >= 1);
  REQUIRE(muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL) ==
          mux_success);
  mux_device_t device = NULL;
  REQUIRE(muxCreateDevices(1, &info, mux_test_allocator, &device) ==
          mux_success);
  return device;
}

static inline mux_queue_t mux_test_queue(mux_device_t device) {
  mux_queue_t queue = NULL;
  REQUIRE(muxGetQueue(device, mux_queue_type_compute, 0, &queue) ==
          mux_success);
  return queue;
}

/* A buffer of `size` bytes bound to fresh host-visible memory. */
static inline mux_buffer_t mux_test_buffer(mux_device_t device, size_t size,
                                           mux_memory_t *out_memory) {
  mux_buffer_t buffer = NULL;
  REQUIRE(muxCreateBuffer(device, size, mux_test_allocator, &buffer) ==
          mux_success);
  REQUIRE(muxAllocateMemory(device, size, 1,
                            mux_memory_property_host_visible |
                                mux_memory_property_host_coherent,
                            mux_allocation_type_alloc_host,
                            buffer->memory_requirements.alignment,
                            mux_test_allocator, out_memory) == mux_success);
  REQUIRE(muxBindBufferMemory(device, *out_memory, buffer, 0) == mux_success);
  return buffer;
}

static inline int mux_test_finish(void) {
  long live = atomic_load(&mux_test_live_allocations);
  if (live != 0) {
    check_failed++;
    fprintf(stderr, "%ld allocation(s) made through the allocator leaked\n",
            live);
  }
  return check_finish();
}

#endif /* CLMUX_TESTS_MUX_TEST_H */

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
#include <string.h>

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

/* Generous limit on one test dispatch: a hang fails the test, not CI. */
#define MUX_TEST_TIMEOUT_NS UINT64_C(30000000000)

static inline void mux_test_record_error(mux_command_buffer_t command_buffer,
                                         mux_result_t error,
                                         void *const user_data) {
  (void)command_buffer;
  *(mux_result_t *)user_data = error;
}

/* Dispatches a finalized command buffer and waits for it; returns the first
 * failure, the command buffer's own included. */
static inline mux_result_t mux_test_dispatch_and_wait(
    mux_device_t device, mux_queue_t queue,
    mux_command_buffer_t command_buffer) {
  mux_fence_t fence = NULL;
  mux_result_t result = muxCreateFence(device, mux_test_allocator, &fence);
  if (result != mux_success) return result;
  mux_result_t dispatch_error = mux_error_failure;
  result = muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0,
                       mux_test_record_error, &dispatch_error);
  if (result == mux_success) {
    result = muxTryWait(queue, MUX_TEST_TIMEOUT_NS, fence);
    REQUIRE(result != mux_fence_not_ready); /* hung: stop here */
    if (result == mux_success) result = dispatch_error;
  }
  muxDestroyFence(device, fence, mux_test_allocator);
  return result;
}

/* Records one NDRange in a command buffer of its own, runs it and waits. */
static inline mux_result_t mux_test_run_ndrange(
    mux_device_t device, mux_queue_t queue, mux_kernel_t kernel,
    mux_descriptor_info_t *descriptors, uint64_t descriptors_length,
    size_t dims, const size_t *global_size, const size_t *global_offset,
    const size_t local_size[3]) {
  mux_ndrange_options_t options;
  memset(&options, 0, sizeof options);
  options.descriptors = descriptors;
  options.descriptors_length = descriptors_length;
  memcpy(options.local_size, local_size, sizeof options.local_size);
  options.global_size = global_size;
  options.global_offset = global_offset;
  options.length = dims;
  mux_command_buffer_t command_buffer = NULL;
  mux_result_t result =
      muxCreateCommandBuffer(device, NULL, mux_test_allocator, &command_buffer);
  if (result != mux_success) return result;
  result = muxCommandNDRange(command_buffer, kernel, options, 0, NULL, NULL);
  if (result == mux_success) result = muxFinalizeCommandBuffer(command_buffer);
  if (result == mux_success) {
    result = mux_test_dispatch_and_wait(device, queue, command_buffer);
  }
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  return result;
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

/* Return codes of fences, semaphores, queues, dispatch and the waits: one
 * check per code the spec lists, plus the success case. */
#include <stdatomic.h>
#include <stdint.h>

#include "mux_test.h"

static const mux_allocator_info_t null_allocator = {NULL, NULL, NULL};

static void test_fences(mux_device_t device) {
  mux_fence_t fence = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateFence(NULL, mux_test_allocator, &fence));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateFence(device, null_allocator, &fence));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateFence(device, mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateFence(device, null_allocator, NULL));
  CHECK_SUCCESS(muxCreateFence(device, mux_test_allocator, &fence));
  REQUIRE(fence != NULL);
  CHECK(fence->device == device);
  CHECK_RESULT(mux_error_invalid_value, muxResetFence(NULL));
  CHECK_RESULT(mux_error_invalid_value, muxResetFence((mux_fence_t)device));
  CHECK_SUCCESS(muxResetFence(fence));
  muxDestroyFence(device, NULL, mux_test_allocator);
  muxDestroyFence(NULL, fence, mux_test_allocator);
  muxDestroyFence(device, fence, null_allocator);
  CHECK_SUCCESS(muxResetFence(fence)); /* the bad destroys did nothing */
  muxDestroyFence(device, fence, mux_test_allocator);
}

static void test_semaphores(mux_device_t device) {
  mux_semaphore_t semaphore = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateSemaphore(NULL, mux_test_allocator, &semaphore));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateSemaphore(device, null_allocator, &semaphore));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateSemaphore(device, mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateSemaphore(device, null_allocator, NULL));
  CHECK_SUCCESS(muxCreateSemaphore(device, mux_test_allocator, &semaphore));
  REQUIRE(semaphore != NULL);
  CHECK(semaphore->device == device);
  CHECK_RESULT(mux_error_invalid_value, muxResetSemaphore(NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxResetSemaphore((mux_semaphore_t)device));
  CHECK_SUCCESS(muxResetSemaphore(semaphore));
  muxDestroySemaphore(device, NULL, mux_test_allocator);
  muxDestroySemaphore(NULL, semaphore, mux_test_allocator);
  muxDestroySemaphore(device, semaphore, null_allocator);
  CHECK_SUCCESS(muxResetSemaphore(semaphore));
  muxDestroySemaphore(device, semaphore, mux_test_allocator);
}

static void test_get_queue(mux_device_t device) {
  mux_queue_t queue = NULL;
  uint32_t count = device->info->queue_types[mux_queue_type_compute];
  CHECK(count >= 1);
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueue(NULL, mux_queue_type_compute, 0, &queue));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueue(device, (mux_queue_type_e)mux_queue_type_total, 0,
                           &queue));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueue(device, mux_queue_type_compute, count, &queue));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxGetQueue(device, mux_queue_type_compute, 0, NULL));
  /* Order: a bad index is reported before the out parameter. */
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueue(device, mux_queue_type_compute, count, NULL));
  CHECK_SUCCESS(muxGetQueue(device, mux_queue_type_compute, 0, &queue));
  REQUIRE(queue != NULL);
  CHECK(queue->device == device);
  mux_queue_t again = NULL;
  CHECK_SUCCESS(muxGetQueue(device, mux_queue_type_compute, 0, &again));
  CHECK(again == queue);
}

static mux_command_buffer_t finalized_command_buffer(mux_device_t device) {
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  REQUIRE(muxFinalizeCommandBuffer(command_buffer) == mux_success);
  return command_buffer;
}

static void on_complete(mux_command_buffer_t command_buffer,
                        mux_result_t error, void *const user_data) {
  (void)command_buffer;
  atomic_store((atomic_int *)user_data, error == mux_success ? 1 : -1);
}

static void test_dispatch(mux_device_t device, mux_queue_t queue) {
  mux_command_buffer_t command_buffer = finalized_command_buffer(device);
  mux_command_buffer_t open_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &open_buffer) == mux_success);
  mux_fence_t fence = NULL;
  mux_semaphore_t semaphore = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  REQUIRE(muxCreateSemaphore(device, mux_test_allocator, &semaphore) ==
          mux_success);
  mux_semaphore_t no_semaphore[1] = {NULL};
  mux_semaphore_t not_a_semaphore[1] = {(mux_semaphore_t)fence};
  atomic_int completed = 0;

  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(NULL, command_buffer, fence, NULL, 0, NULL, 0,
                           NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch((mux_queue_t)device, command_buffer, fence, NULL, 0,
                           NULL, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, NULL, fence, NULL, 0, NULL, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, (mux_command_buffer_t)fence, fence, NULL, 0,
                           NULL, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, (mux_fence_t)semaphore, NULL,
                           0, NULL, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, NULL, 1, NULL, 0,
                           NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, &semaphore, 0, NULL,
                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 1,
                           NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, NULL, 0, &semaphore,
                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, no_semaphore, 1, NULL,
                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, NULL, 0,
                           not_a_semaphore, 1, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0,
                           NULL, &completed));
  CHECK_RESULT(mux_error_invalid_value,
               muxDispatch(queue, open_buffer, fence, NULL, 0, NULL, 0, NULL,
                           NULL));

  /* Success: the callback runs and the fence is signalled. */
  CHECK_SUCCESS(muxDispatch(queue, command_buffer, fence, NULL, 0, &semaphore,
                            1, on_complete, &completed));
  CHECK_SUCCESS(muxWait(queue, fence));
  CHECK(atomic_load(&completed) == 1);
  CHECK_SUCCESS(muxTryWait(queue, 0, fence));
  CHECK_SUCCESS(muxWaitAll(queue));

  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  muxDestroyCommandBuffer(device, open_buffer, mux_test_allocator);
  muxDestroySemaphore(device, semaphore, mux_test_allocator);
  muxDestroyFence(device, fence, mux_test_allocator);
}

/* A command buffer held back by a semaphore nobody has signalled yet:
 * its fence is not ready until another dispatch signals the semaphore. */
static void test_waits(mux_device_t device, mux_queue_t queue) {
  mux_command_buffer_t gated = finalized_command_buffer(device);
  mux_command_buffer_t opener = finalized_command_buffer(device);
  mux_fence_t fence = NULL;
  mux_semaphore_t gate = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  REQUIRE(muxCreateSemaphore(device, mux_test_allocator, &gate) ==
          mux_success);

  CHECK_RESULT(mux_error_invalid_value, muxTryWait(NULL, 0, fence));
  CHECK_RESULT(mux_error_invalid_value, muxTryWait(queue, 0, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxTryWait(queue, 0, (mux_fence_t)gate));
  CHECK_RESULT(mux_error_invalid_value, muxWait(NULL, fence));
  CHECK_RESULT(mux_error_invalid_value, muxWait(queue, NULL));
  CHECK_RESULT(mux_error_invalid_value, muxWait(queue, (mux_fence_t)gate));
  CHECK_RESULT(mux_error_invalid_value, muxWaitAll(NULL));
  CHECK_RESULT(mux_error_invalid_value, muxWaitAll((mux_queue_t)device));

  CHECK_SUCCESS(muxDispatch(queue, gated, fence, &gate, 1, NULL, 0, NULL,
                            NULL));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 0, fence));
  CHECK_RESULT(mux_fence_not_ready, muxTryWait(queue, 1000000, fence));
  CHECK_SUCCESS(muxDispatch(queue, opener, NULL, NULL, 0, &gate, 1, NULL,
                            NULL));
  CHECK_SUCCESS(muxWait(queue, fence));
  CHECK_SUCCESS(muxTryWait(queue, 0, fence));
  CHECK_SUCCESS(muxWaitAll(queue));
  CHECK_SUCCESS(muxResetFence(fence));
  CHECK_SUCCESS(muxResetSemaphore(gate));

  muxDestroyCommandBuffer(device, gated, mux_test_allocator);
  muxDestroyCommandBuffer(device, opener, mux_test_allocator);
  muxDestroySemaphore(device, gate, mux_test_allocator);
  muxDestroyFence(device, fence, mux_test_allocator);
}

int main(void) {
  mux_device_t device = mux_test_create_device();
  test_fences(device);
  test_semaphores(device);
  test_get_queue(device);
  mux_queue_t queue = mux_test_queue(device);
  test_dispatch(device, queue);
  test_waits(device, queue);
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

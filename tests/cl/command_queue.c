/* clmux OpenCL API tests: command queues — creation, properties, info,
 * flush/finish, and a released queue still running its commands. */
#include <pthread.h>

#include "cl_test.h"

static cl_int status_of(cl_event event) {
  cl_int status = 1234;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof(status), &status, NULL));
  return status;
}

static void test_create(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(queue != NULL);
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));

  /* errcode_ret is optional. */
  queue = clCreateCommandQueue(context, device, 0, NULL);
  CHECK(queue != NULL);
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));

  /* A handle of another kind is not a device. */
  error = CL_SUCCESS;
  queue = clCreateCommandQueue(context, (cl_device_id)context, 0, &error);
  CHECK_CL(CL_INVALID_DEVICE, error);
  CHECK(queue == NULL);

  /* A device handle is not a context: the loader dispatches through the
   * context argument, which here is the device. */
  error = CL_SUCCESS;
  queue = clCreateCommandQueue((cl_context)device, device, 0, &error);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK(queue == NULL);

  /* Unknown property bits are invalid values. */
  const cl_command_queue_properties bad[] = {
      (cl_command_queue_properties)1 << 2, (cl_command_queue_properties)1 << 7,
      CL_QUEUE_PROFILING_ENABLE | ((cl_command_queue_properties)1 << 40)};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    error = CL_SUCCESS;
    queue = clCreateCommandQueue(context, device, bad[i], &error);
    CHECK_CL(CL_INVALID_VALUE, error);
    CHECK(queue == NULL);
  }

  /* Every property the device reports is accepted. */
  cl_command_queue_properties supported = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES,
                                   sizeof(supported), &supported, NULL));
  CHECK(supported & CL_QUEUE_PROFILING_ENABLE);
  const cl_command_queue_properties good[] = {
      0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
      CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
    error = CL_SUCCESS;
    queue = clCreateCommandQueue(context, device, good[i] & supported, &error);
    CHECK_CL_SUCCESS(error);
    if (!queue) continue;
    cl_command_queue_properties properties = 12345;
    size_t size = 0;
    CHECK_CL_SUCCESS(clGetCommandQueueInfo(
        queue, CL_QUEUE_PROPERTIES, sizeof(properties), &properties, &size));
    CHECK_INT(good[i] & supported, properties);
    CHECK_INT(sizeof(properties), size);
    /* Commands run on every kind of queue. */
    cl_event marker = NULL;
    CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker));
    CHECK_CL_SUCCESS(clFinish(queue));
    CHECK_INT(CL_COMPLETE, status_of(marker));
    CHECK_CL_SUCCESS(clReleaseEvent(marker));
    CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  }
}

static void test_info(cl_context context, cl_device_id device) {
  cl_command_queue queue = cl_test_queue(context, device, 0);
  size_t size = 0;

  cl_context got_context = NULL;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(
      queue, CL_QUEUE_CONTEXT, sizeof(got_context), &got_context, &size));
  CHECK(got_context == context);
  CHECK_INT(sizeof(cl_context), size);

  cl_device_id got_device = NULL;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(
      queue, CL_QUEUE_DEVICE, sizeof(got_device), &got_device, &size));
  CHECK(got_device == device);
  CHECK_INT(sizeof(cl_device_id), size);

  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT,
                                         sizeof(count), &count, &size));
  CHECK_INT(1, count);
  CHECK_INT(sizeof(cl_uint), size);
  CHECK_CL_SUCCESS(clRetainCommandQueue(queue));
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT,
                                         sizeof(count), &count, NULL));
  CHECK_INT(2, count);
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT,
                                         sizeof(count), &count, NULL));
  CHECK_INT(1, count);

  /* Size only. */
  size = 0;
  CHECK_CL_SUCCESS(
      clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, 0, NULL, &size));
  CHECK_INT(sizeof(cl_command_queue_properties), size);

  /* Too small, unknown names. */
  cl_uint small = 0;
  CHECK_CL(CL_INVALID_VALUE,
           clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(small),
                                 &small, NULL));
  CHECK_CL(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, 1,
                                                   &got_context, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetCommandQueueInfo(queue, 0x7777, sizeof(count), &count, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES + 10, sizeof(count),
                                 &count, NULL));

  /* Other kinds of handles are not queues (the loader dispatches through
   * them, so they must be real objects). */
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clGetCommandQueueInfo((cl_command_queue)context, CL_QUEUE_CONTEXT,
                                 sizeof(got_context), &got_context, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, clFlush((cl_command_queue)context));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, clFinish((cl_command_queue)context));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clRetainCommandQueue((cl_command_queue)context));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clReleaseCommandQueue((cl_command_queue)context));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
}

static void test_set_property(cl_context context, cl_device_id device) {
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_command_queue_properties old = 99;
  CHECK_CL_SUCCESS(clSetCommandQueueProperty(queue, CL_QUEUE_PROFILING_ENABLE,
                                             CL_TRUE, &old));
  CHECK_INT(0, old);
  cl_command_queue_properties now = 0;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES,
                                         sizeof(now), &now, NULL));
  CHECK_INT(CL_QUEUE_PROFILING_ENABLE, now);
  /* Commands enqueued from now on are profiled. */
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker));
  CHECK_CL_SUCCESS(clFinish(queue));
  cl_ulong end = 0;
  CHECK_CL_SUCCESS(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END,
                                           sizeof(end), &end, NULL));
  CHECK(end > 0);
  CHECK_CL_SUCCESS(clReleaseEvent(marker));

  CHECK_CL_SUCCESS(clSetCommandQueueProperty(queue, CL_QUEUE_PROFILING_ENABLE,
                                             CL_FALSE, &old));
  CHECK_INT(CL_QUEUE_PROFILING_ENABLE, old);
  CHECK_CL_SUCCESS(clSetCommandQueueProperty(queue, 0, CL_FALSE, NULL));
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES,
                                         sizeof(now), &now, NULL));
  CHECK_INT(0, now);
  CHECK_CL(CL_INVALID_VALUE,
           clSetCommandQueueProperty(queue, (cl_command_queue_properties)1 << 9,
                                     CL_TRUE, NULL));
  CHECK_CL(
      CL_INVALID_COMMAND_QUEUE,
      clSetCommandQueueProperty((cl_command_queue)context, 0, CL_TRUE, NULL));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
}

/* Flush sends work on its way: a marker completes without clFinish. */
static void test_flush_finish(cl_context context, cl_device_id device) {
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_event markers[100];
  for (int i = 0; i < 100; i++) {
    CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &markers[i]));
  }
  CHECK_CL_SUCCESS(clFlush(queue));
  CHECK_CL_SUCCESS(clWaitForEvents(100, markers));
  for (int i = 0; i < 100; i++) {
    CHECK_INT(CL_COMPLETE, status_of(markers[i]));
    CHECK_CL_SUCCESS(clReleaseEvent(markers[i]));
  }

  /* clFinish waits for everything, including commands gated by a user
   * event that another thread completes. */
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  cl_event gated = NULL, after = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &gated));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &after));
  CHECK_CL_SUCCESS(clFlush(queue));
  CHECK(status_of(gated) > CL_COMPLETE);
  CHECK(status_of(after) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(CL_COMPLETE, status_of(gated));
  CHECK_INT(CL_COMPLETE, status_of(after));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseEvent(gated));
  CHECK_CL_SUCCESS(clReleaseEvent(after));

  /* Finish on an idle queue returns at once; twice is fine. */
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
}

/* Releasing the last reference does not drop queued commands. */
static void test_release_pending(cl_context context, cl_device_id device) {
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  cl_event gated = NULL, after = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &gated));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, NULL, &after));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  /* The events still know their queue. */
  cl_command_queue got = NULL;
  CHECK_CL_SUCCESS(
      clGetEventInfo(after, CL_EVENT_COMMAND_QUEUE, sizeof(got), &got, NULL));
  CHECK(got == queue);
  CHECK(status_of(after) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &after));
  CHECK_INT(CL_COMPLETE, status_of(gated));
  CHECK_INT(CL_COMPLETE, status_of(after));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseEvent(gated));
  CHECK_CL_SUCCESS(clReleaseEvent(after));

  /* Unflushed commands with no event kept by the user also run. */
  queue = cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, NULL));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &after));
  for (int i = 0; i < 10; i++) {
    CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL));
  }
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &after));
  CHECK_CL_SUCCESS(clReleaseEvent(after));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
}

/* Several threads enqueue into one queue and finish it. */
typedef struct shared_queue {
  cl_command_queue queue;
  int failures;
} shared_queue;

static void *enqueue_many(void *data) {
  shared_queue *shared = data;
  for (int i = 0; i < 200; i++) {
    cl_event event = NULL;
    if (clEnqueueMarkerWithWaitList(shared->queue, 0, NULL, &event) !=
        CL_SUCCESS) {
      shared->failures++;
      continue;
    }
    if (i % 50 == 0 && clFinish(shared->queue) != CL_SUCCESS) {
      shared->failures++;
    }
    if (i % 7 == 0 && clWaitForEvents(1, &event) != CL_SUCCESS) {
      shared->failures++;
    }
    clReleaseEvent(event);
  }
  return NULL;
}

static void test_threads(cl_context context, cl_device_id device) {
  cl_command_queue queue = cl_test_queue(context, device, 0);
  pthread_t threads[4];
  shared_queue shared[4];
  for (int i = 0; i < 4; i++) {
    shared[i].queue = queue;
    shared[i].failures = 0;
    REQUIRE(pthread_create(&threads[i], NULL, enqueue_many, &shared[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(threads[i], NULL);
    CHECK_INT(0, shared[i].failures);
  }
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  test_create(context, device);
  test_info(context, device);
  test_set_property(context, device);
  test_flush_finish(context, device);
  test_release_pending(context, device);
  test_threads(context, device);
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

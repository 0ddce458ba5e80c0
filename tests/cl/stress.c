/* clmux OpenCL API tests: many threads creating queues, enqueuing markers,
 * barriers and user-event-gated work across queues, with callbacks, failing
 * events and early releases. Checks that everything completes with the
 * right status (no crash, hang or leak: run it under AddressSanitizer). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "cl_test.h"

#define THREADS 8
#define ITERATIONS 4000

static cl_context context;
static cl_device_id device;
static cl_command_queue shared_queue;
static atomic_int callbacks_fired;
static atomic_int callbacks_expected;

typedef struct worker {
  int index;
  int failures;
  cl_mem buffer;
} worker;

#define EXPECT(condition)                                             \
  do {                                                                \
    if (!(condition)) {                                               \
      self->failures++;                                               \
      fprintf(stderr, "worker %d iteration %d: %s\n", self->index, i, \
              #condition);                                            \
    }                                                                 \
  } while (0)

static void CL_CALLBACK counted(cl_event event, cl_int status, void *data) {
  (void)event;
  (void)status;
  (void)data;
  atomic_fetch_add(&callbacks_fired, 1);
}

/* A callback that enqueues (and may finish) on the shared queue. */
static void CL_CALLBACK enqueue_from_callback(cl_event event, cl_int status,
                                              void *data) {
  (void)event;
  (void)status;
  cl_event marker = NULL;
  if (clEnqueueMarkerWithWaitList(shared_queue, 0, NULL, &marker) ==
      CL_SUCCESS) {
    if (data) clWaitForEvents(1, &marker);
    clReleaseEvent(marker);
  }
  atomic_fetch_add(&callbacks_fired, 1);
}

static cl_int status_of(cl_event event) {
  cl_int status = 1234;
  clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                 &status, NULL);
  return status;
}

static void *work(void *data) {
  worker *self = data;
  for (int i = 0; i < ITERATIONS; i++) {
    cl_command_queue_properties properties =
        (i % 3 == 0 ? CL_QUEUE_PROFILING_ENABLE : 0) |
        (i % 4 == 1 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
    cl_int error = CL_SUCCESS;
    cl_command_queue queue =
        clCreateCommandQueue(context, device, properties, &error);
    EXPECT(error == CL_SUCCESS && queue);
    if (!queue) continue;
    cl_event gate = clCreateUserEvent(context, &error);
    EXPECT(error == CL_SUCCESS && gate);
    if (!gate) {
      clReleaseCommandQueue(queue);
      continue;
    }
    bool fail = i % 5 == 2;

    cl_event gated = NULL, after = NULL, shared = NULL, joined = NULL;
    EXPECT(clEnqueueMarkerWithWaitList(queue, 1, &gate, &gated) == CL_SUCCESS);
    for (int k = 0; k < i % 7; k++) {
      EXPECT(clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL) == CL_SUCCESS);
    }
    EXPECT(clEnqueueMarkerWithWaitList(queue, 0, NULL, &after) == CL_SUCCESS);
    /* The shared queue waits on this thread's gated command. */
    EXPECT(clEnqueueMarkerWithWaitList(shared_queue, 1, &gated, &shared) ==
           CL_SUCCESS);
    cl_event pair[2] = {shared, after};
    EXPECT(clEnqueueBarrierWithWaitList(queue, 2, pair, &joined) == CL_SUCCESS);
    if (i % 2 == 0) {
      atomic_fetch_add(&callbacks_expected, 2);
      clSetEventCallback(joined, CL_COMPLETE, counted, NULL);
      clSetEventCallback(gated, CL_SUBMITTED, enqueue_from_callback,
                         i % 4 == 0 ? self : NULL);
    }
    if (i % 3 == 1) {
      /* Released with everything still pending. */
      clReleaseCommandQueue(queue);
      queue = NULL;
    } else {
      clFlush(queue);
    }
    EXPECT(clSetUserEventStatus(gate, fail ? -1 : CL_COMPLETE) == CL_SUCCESS);
    cl_int wait = clWaitForEvents(1, &joined);
    EXPECT(wait ==
           (fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS));
    EXPECT(status_of(after) == CL_COMPLETE);
    EXPECT(status_of(gated) ==
           (fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE));
    if (queue) {
      /* Real data through the queue, behind everything above. */
      cl_int value = self->index * 100000 + i, got = -1;
      EXPECT(clEnqueueWriteBuffer(queue, self->buffer, CL_FALSE, 0,
                                  sizeof(value), &value, 0, NULL,
                                  NULL) == CL_SUCCESS);
      EXPECT(clEnqueueReadBuffer(queue, self->buffer, CL_TRUE, 0, sizeof(got),
                                 &got, 0, NULL, NULL) == CL_SUCCESS);
      EXPECT(got == value);
      EXPECT(clFinish(queue) == CL_SUCCESS);
      EXPECT(clReleaseCommandQueue(queue) == CL_SUCCESS);
    }
    cl_event all[5] = {gate, gated, after, shared, joined};
    for (int k = 0; k < 5; k++) EXPECT(clReleaseEvent(all[k]) == CL_SUCCESS);
  }
  return NULL;
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  shared_queue = cl_test_queue(context, device, 0);
  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (int t = 0; t < THREADS; t++) {
    workers[t].index = t;
    workers[t].failures = 0;
    cl_int error = CL_SUCCESS;
    workers[t].buffer =
        clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
    REQUIRE(error == CL_SUCCESS);
    REQUIRE(pthread_create(&threads[t], NULL, work, &workers[t]) == 0);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    CHECK_INT(0, workers[t].failures);
    CHECK_CL_SUCCESS(clReleaseMemObject(workers[t].buffer));
  }
  CHECK_CL_SUCCESS(clFinish(shared_queue));
  /* Callbacks run on their own thread: give them a moment. */
  for (int i = 0; i < 5000; i++) {
    if (atomic_load(&callbacks_fired) >= atomic_load(&callbacks_expected)) {
      break;
    }
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  CHECK_INT(atomic_load(&callbacks_expected), atomic_load(&callbacks_fired));
  CHECK_CL_SUCCESS(clFinish(shared_queue));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(shared_queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

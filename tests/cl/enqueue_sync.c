/* clmux OpenCL API tests: markers, barriers and wait-for-events, the 1.2
 * forms and the 1.0/1.1 ones, within a queue and across queues. */
#include <stdatomic.h>
#include <time.h>

#include "cl_test.h"

static cl_int status_of(cl_event event) {
  cl_int status = 1234;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof(status), &status, NULL));
  return status;
}

static cl_command_type type_of(cl_event event) {
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(
      clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  return type;
}

static void sleep_ms(long ms) {
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&pause, NULL);
}

static cl_event user_event(cl_context context) {
  cl_int error = CL_SUCCESS;
  cl_event event = clCreateUserEvent(context, &error);
  REQUIRE(error == CL_SUCCESS && event != NULL);
  return event;
}

static void release_all(cl_event *events, int count) {
  for (int i = 0; i < count; i++) CHECK_CL_SUCCESS(clReleaseEvent(events[i]));
}

static void test_plain(cl_command_queue queue) {
  cl_event events[4] = {NULL};
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &events[0]));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, NULL, &events[1]));
  CHECK_CL_SUCCESS(clEnqueueMarker(queue, &events[2]));
  CHECK_CL_SUCCESS(clEnqueueBarrier(queue));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 2, events, &events[3]));
  /* Without an event. */
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 1, events, NULL));
  CHECK_CL_SUCCESS(clEnqueueWaitForEvents(queue, 3, events));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(CL_COMMAND_MARKER, type_of(events[0]));
  CHECK_INT(CL_COMMAND_BARRIER, type_of(events[1]));
  CHECK_INT(CL_COMMAND_MARKER, type_of(events[2]));
  CHECK_INT(CL_COMMAND_MARKER, type_of(events[3]));
  for (int i = 0; i < 4; i++) CHECK_INT(CL_COMPLETE, status_of(events[i]));
  release_all(events, 4);
}

static void test_errors(cl_context context, cl_device_id device,
                        cl_command_queue queue) {
  cl_event event = NULL;
  cl_event done = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &done));
  cl_command_queue not_queue = (cl_command_queue)context;
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueMarkerWithWaitList(not_queue, 0, NULL, &event));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueBarrierWithWaitList(not_queue, 0, NULL, &event));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, clEnqueueMarker(not_queue, &event));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, clEnqueueBarrier(not_queue));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueWaitForEvents(not_queue, 1, &done));

  /* Wait lists: count and pointer must agree, events must be events. */
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueMarkerWithWaitList(queue, 1, NULL, &event));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueMarkerWithWaitList(queue, 0, &done, &event));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueBarrierWithWaitList(queue, 1, NULL, &event));
  cl_event bad[2] = {done, (cl_event)queue};
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueMarkerWithWaitList(queue, 2, bad, &event));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueBarrierWithWaitList(queue, 2, bad, NULL));
  CHECK(event == NULL);

  /* clEnqueueMarker needs somewhere to put its event. */
  CHECK_CL(CL_INVALID_VALUE, clEnqueueMarker(queue, NULL));

  /* clEnqueueWaitForEvents has its own codes. */
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWaitForEvents(queue, 0, &done));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWaitForEvents(queue, 1, NULL));
  CHECK_CL(CL_INVALID_EVENT, clEnqueueWaitForEvents(queue, 2, bad));

  /* Events of another context. */
  cl_context other = cl_test_context(device);
  cl_event foreign = user_event(other);
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueMarkerWithWaitList(queue, 1, &foreign, &event));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueBarrierWithWaitList(queue, 1, &foreign, &event));
  CHECK_CL(CL_INVALID_CONTEXT, clEnqueueWaitForEvents(queue, 1, &foreign));
  CHECK(event == NULL);
  CHECK_CL_SUCCESS(clSetUserEventStatus(foreign, CL_COMPLETE));
  CHECK_CL_SUCCESS(clReleaseEvent(foreign));
  CHECK_CL_SUCCESS(clReleaseContext(other));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseEvent(done));
}

/* In order: a barrier (or anything) behind a gated command waits too. */
static void test_in_order(cl_context context, cl_command_queue queue) {
  cl_event gate = user_event(context);
  cl_event events[5];
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &events[0]));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, NULL, &events[1]));
  CHECK_CL_SUCCESS(clEnqueueMarker(queue, &events[2]));
  CHECK_CL_SUCCESS(clEnqueueWaitForEvents(queue, 1, &gate));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &events[3]));
  CHECK_CL_SUCCESS(clEnqueueBarrier(queue));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &events[4]));
  CHECK_CL_SUCCESS(clFlush(queue));
  sleep_ms(20);
  for (int i = 0; i < 5; i++) CHECK(status_of(events[i]) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(5, events));
  for (int i = 0; i < 5; i++) CHECK_INT(CL_COMPLETE, status_of(events[i]));
  release_all(events, 5);
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
}

/* Completion order across queues, seen by callbacks. */
static atomic_int order_clock;

static void CL_CALLBACK stamp(cl_event event, cl_int status, void *data) {
  (void)event;
  (void)status;
  atomic_store((atomic_int *)data, atomic_fetch_add(&order_clock, 1) + 1);
}

static void test_cross_queue(cl_context context, cl_device_id device) {
  cl_command_queue first = cl_test_queue(context, device, 0);
  cl_command_queue second =
      cl_test_queue(context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_event gate = user_event(context);
  cl_event a = NULL, b = NULL, c = NULL, d = NULL;
  /* first: a (gated); second: barrier b waiting on a, then marker c;
   * first: d waits on c with the old form. */
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &gate, &a));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(second, 1, &a, &b));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(second, 0, NULL, &c));
  CHECK_CL_SUCCESS(clEnqueueWaitForEvents(first, 1, &c));
  CHECK_CL_SUCCESS(clEnqueueMarker(first, &d));
  atomic_int when[4] = {0};
  cl_event all[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++) {
    CHECK_CL_SUCCESS(clSetEventCallback(all[i], CL_COMPLETE, stamp, &when[i]));
  }
  CHECK_CL_SUCCESS(clFlush(second));
  CHECK_CL_SUCCESS(clFlush(first));
  sleep_ms(20);
  for (int i = 0; i < 4; i++) CHECK(status_of(all[i]) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(first));
  CHECK_CL_SUCCESS(clFinish(second));
  for (int i = 0; i < 4; i++) CHECK_INT(CL_COMPLETE, status_of(all[i]));
  for (int i = 0; i < 2000 && atomic_load(&when[3]) == 0; i++) sleep_ms(1);
  for (int i = 0; i < 3; i++) {
    CHECK(atomic_load(&when[i]) > 0);
    CHECK(atomic_load(&when[i]) < atomic_load(&when[i + 1]));
  }
  release_all(all, 4);
  CHECK_CL_SUCCESS(clReleaseEvent(gate));

  /* A barrier with a wait list of several queues' events. */
  cl_event gates[2] = {user_event(context), user_event(context)};
  cl_event x = NULL, y = NULL, joined = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &gates[0], &x));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(second, 1, &gates[1], &y));
  cl_event both[3] = {x, y, gates[0]};
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(second, 3, both, &joined));
  CHECK_CL_SUCCESS(clFlush(second));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gates[1], CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &y));
  sleep_ms(10);
  CHECK(status_of(joined) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gates[0], CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &joined));
  CHECK_INT(CL_COMPLETE, status_of(x));
  cl_event rest[5] = {x, y, joined, gates[0], gates[1]};
  release_all(rest, 5);

  CHECK_CL_SUCCESS(clReleaseCommandQueue(first));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(second));
}

/* A failed wait list fails a marker; the old wait-for-events form too. */
static void test_failed_wait(cl_context context, cl_command_queue queue) {
  cl_event gate = user_event(context);
  cl_event marker = NULL, barrier = NULL, after = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &marker));
  CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 1, &gate, &barrier));
  CHECK_CL_SUCCESS(clEnqueueWaitForEvents(queue, 1, &gate));
  CHECK_CL_SUCCESS(clEnqueueMarker(queue, &after));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, -7));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, status_of(marker));
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, status_of(barrier));
  CHECK_INT(CL_COMPLETE, status_of(after));
  cl_event all[4] = {gate, marker, barrier, after};
  release_all(all, 4);
}

/* A barrier orders real work across queues: a read behind a barrier that
 * waits for another queue's gated write sees the written data. */
static void test_buffer_ordering(cl_context context, cl_device_id device) {
  cl_command_queue first = cl_test_queue(context, device, 0);
  cl_command_queue second = cl_test_queue(context, device, 0);
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 256 * sizeof(cl_int), NULL, &error);
  REQUIRE(error == CL_SUCCESS && buffer);
  for (int round = 0; round < 2; round++) {
    cl_event gate = user_event(context);
    cl_int source[256], result[256];
    for (int i = 0; i < 256; i++) {
      source[i] = round * 1000 + i;
      result[i] = -1;
    }
    cl_event written = NULL, read = NULL;
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(first, buffer, CL_FALSE, 0,
                                          sizeof(source), source, 1, &gate,
                                          &written));
    if (round == 0) {
      CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(second, 1, &written, NULL));
    } else {
      CHECK_CL_SUCCESS(clEnqueueWaitForEvents(second, 1, &written));
    }
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(
        second, buffer, CL_FALSE, 0, sizeof(result), result, 0, NULL, &read));
    CHECK_CL_SUCCESS(clFlush(second));
    sleep_ms(10);
    CHECK(status_of(read) > CL_COMPLETE);
    CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_CL_SUCCESS(clWaitForEvents(1, &read));
    int wrong = 0;
    for (int i = 0; i < 256; i++) wrong += result[i] != round * 1000 + i;
    CHECK_INT(0, wrong);
    cl_event all[3] = {gate, written, read};
    release_all(all, 3);
  }
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(first));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(second));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  test_plain(queue);
  test_errors(context, device, queue);
  test_in_order(context, queue);
  test_cross_queue(context, device);
  test_failed_wait(context, queue);
  test_buffer_ordering(context, device);
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

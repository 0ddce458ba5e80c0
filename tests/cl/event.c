/* clmux OpenCL API tests: events — statuses, info, profiling, callbacks,
 * user events gating commands across queues, failures, waits, and the API
 * called from inside callbacks, and events recycled after release. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "cl_test.h"

static cl_int status_of(cl_event event) {
  cl_int status = 1234;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof(status), &status, NULL));
  return status;
}

static void sleep_ms(long ms) {
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&pause, NULL);
}

/* Waits up to 5 s for *counter to reach at least `value`. */
static bool await_count(atomic_int *counter, int value) {
  for (int i = 0; i < 5000; i++) {
    if (atomic_load(counter) >= value) return true;
    sleep_ms(1);
  }
  return atomic_load(counter) >= value;
}

static cl_event user_event(cl_context context) {
  cl_int error = CL_SUCCESS;
  cl_event event = clCreateUserEvent(context, &error);
  REQUIRE(error == CL_SUCCESS && event != NULL);
  return event;
}

static void test_user_events(cl_context context, cl_command_queue queue) {
  cl_event event = user_event(context);
  CHECK_INT(CL_SUBMITTED, status_of(event));

  size_t size = 0;
  cl_command_queue got_queue = (cl_command_queue)1;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE,
                                  sizeof(got_queue), &got_queue, &size));
  CHECK(got_queue == NULL);
  CHECK_INT(sizeof(cl_command_queue), size);
  cl_context got_context = NULL;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof(got_context),
                                  &got_context, &size));
  CHECK(got_context == context);
  CHECK_INT(sizeof(cl_context), size);
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(
      clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, &size));
  CHECK_INT(CL_COMMAND_USER, type);
  CHECK_INT(sizeof(cl_command_type), size);
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT,
                                  sizeof(count), &count, &size));
  CHECK_INT(1, count);
  CHECK_INT(sizeof(cl_uint), size);
  CHECK_CL_SUCCESS(clRetainEvent(event));
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT,
                                  sizeof(count), &count, NULL));
  CHECK_INT(2, count);
  CHECK_CL_SUCCESS(clReleaseEvent(event));
  CHECK_CL_SUCCESS(
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, 0, NULL, &size));
  CHECK_INT(sizeof(cl_int), size);
  CHECK_CL(CL_INVALID_VALUE,
           clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &count,
                          NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetEventInfo(event, 0x5555, sizeof(count), &count, NULL));

  /* Profiling never applies to user events. */
  cl_ulong time = 0;
  CHECK_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_QUEUED,
                                   sizeof(time), &time, NULL));

  /* Only CL_COMPLETE or an error, and only once. */
  CHECK_CL(CL_INVALID_VALUE, clSetUserEventStatus(event, CL_SUBMITTED));
  CHECK_CL(CL_INVALID_VALUE, clSetUserEventStatus(event, CL_RUNNING));
  CHECK_CL(CL_INVALID_VALUE, clSetUserEventStatus(event, CL_QUEUED));
  CHECK_CL(CL_INVALID_VALUE, clSetUserEventStatus(event, 77));
  CHECK_INT(CL_SUBMITTED, status_of(event));
  CHECK_CL_SUCCESS(clSetUserEventStatus(event, CL_COMPLETE));
  CHECK_INT(CL_COMPLETE, status_of(event));
  CHECK_CL(CL_INVALID_OPERATION, clSetUserEventStatus(event, CL_COMPLETE));
  CHECK_CL(CL_INVALID_OPERATION, clSetUserEventStatus(event, -5));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  CHECK_CL_SUCCESS(clReleaseEvent(event));

  /* A negative status is final too. */
  event = user_event(context);
  CHECK_CL_SUCCESS(clSetUserEventStatus(event, -42));
  CHECK_INT(-42, status_of(event));
  CHECK_CL(CL_INVALID_OPERATION, clSetUserEventStatus(event, CL_COMPLETE));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &event));
  CHECK_CL_SUCCESS(clReleaseEvent(event));

  /* A command's event is not a user event. */
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker));
  CHECK_CL(CL_INVALID_EVENT, clSetUserEventStatus(marker, CL_COMPLETE));
  CHECK_CL_SUCCESS(clGetEventInfo(marker, CL_EVENT_COMMAND_QUEUE,
                                  sizeof(got_queue), &got_queue, NULL));
  CHECK(got_queue == queue);
  CHECK_CL_SUCCESS(
      clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  CHECK_INT(CL_COMMAND_MARKER, type);
  CHECK_CL_SUCCESS(clWaitForEvents(1, &marker));
  CHECK_INT(CL_COMPLETE, status_of(marker));
  /* Its queue does not profile. */
  CHECK_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END,
                                   sizeof(time), &time, NULL));
  CHECK_CL_SUCCESS(clReleaseEvent(marker));

  /* Handles of other kinds. */
  cl_int error = CL_SUCCESS;
  CHECK(clCreateUserEvent((cl_context)queue, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  cl_event not_event = (cl_event)queue;
  CHECK_CL(CL_INVALID_EVENT, clRetainEvent(not_event));
  CHECK_CL(CL_INVALID_EVENT, clReleaseEvent(not_event));
  CHECK_CL(CL_INVALID_EVENT, clSetUserEventStatus(not_event, CL_COMPLETE));
  CHECK_CL(CL_INVALID_EVENT,
           clGetEventInfo(not_event, CL_EVENT_CONTEXT, sizeof(got_context),
                          &got_context, NULL));
  CHECK_CL(CL_INVALID_EVENT,
           clGetEventProfilingInfo(not_event, CL_PROFILING_COMMAND_END,
                                   sizeof(time), &time, NULL));
}

static void test_profiling(cl_context context, cl_device_id device) {
  cl_command_queue queue =
      cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = user_event(context);
  cl_event events[80];
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &events[0]));
  for (int i = 1; i < 80; i++) {
    CHECK_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, NULL, &events[i]));
  }
  CHECK_CL_SUCCESS(clFlush(queue));
  cl_ulong time = 0;
  /* Not complete yet. */
  CHECK_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_QUEUED,
                                   sizeof(time), &time, NULL));
  sleep_ms(2);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(queue));
  cl_ulong previous_end = 0;
  for (int i = 0; i < 80; i++) {
    cl_ulong t[4] = {0};
    size_t size = 0;
    for (int k = 0; k < 4; k++) {
      CHECK_CL_SUCCESS(clGetEventProfilingInfo(
          events[i], CL_PROFILING_COMMAND_QUEUED + (cl_profiling_info)k,
          sizeof(t[k]), &t[k], &size));
      CHECK_INT(sizeof(cl_ulong), size);
    }
    CHECK(t[0] > 0);
    CHECK(t[0] <= t[1]);
    CHECK(t[1] <= t[2]);
    CHECK(t[2] <= t[3]);
    /* In order: each command starts after the previous one ended. */
    CHECK(t[2] >= previous_end);
    previous_end = t[3];
  }
  /* The gated command was submitted only once the gate opened. */
  cl_ulong queued = 0, submit = 0;
  clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_QUEUED,
                          sizeof(queued), &queued, NULL);
  clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_SUBMIT,
                          sizeof(submit), &submit, NULL);
  CHECK(submit - queued >= 1000000u);
  CHECK_CL(CL_INVALID_VALUE,
           clGetEventProfilingInfo(events[0], CL_PROFILING_COMMAND_END, 4,
                                   &time, NULL));
  CHECK_CL(CL_INVALID_VALUE, clGetEventProfilingInfo(
                                 events[0], 0x1234, sizeof(time), &time, NULL));
  CHECK_CL_SUCCESS(clGetEventProfilingInfo(
      events[0], CL_PROFILING_COMMAND_START, 0, NULL, NULL));
  for (int i = 0; i < 80; i++) CHECK_CL_SUCCESS(clReleaseEvent(events[i]));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
}

/* ---- Callbacks ----------------------------------------------------------- */

typedef struct tally {
  atomic_int submitted, running, complete;
  atomic_int last_status;
  atomic_int wrong_event;
  cl_event expected;
} tally;

static void CL_CALLBACK count_callback(cl_event event, cl_int status,
                                       void *data) {
  tally *counts = data;
  if (event != counts->expected) atomic_fetch_add(&counts->wrong_event, 1);
  atomic_store(&counts->last_status, status);
  if (status == CL_SUBMITTED) atomic_fetch_add(&counts->submitted, 1);
  if (status == CL_RUNNING) atomic_fetch_add(&counts->running, 1);
  if (status <= CL_COMPLETE) atomic_fetch_add(&counts->complete, 1);
}

static void test_callbacks(cl_context context, cl_command_queue queue) {
  cl_event gate = user_event(context);
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &marker));
  CHECK_CL_SUCCESS(clFlush(queue));
  tally counts = {0};
  counts.expected = marker;
  CHECK_CL_SUCCESS(
      clSetEventCallback(marker, CL_SUBMITTED, count_callback, &counts));
  CHECK_CL_SUCCESS(
      clSetEventCallback(marker, CL_RUNNING, count_callback, &counts));
  CHECK_CL_SUCCESS(
      clSetEventCallback(marker, CL_COMPLETE, count_callback, &counts));
  sleep_ms(20);
  CHECK_INT(0, atomic_load(&counts.complete));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &marker));
  CHECK(await_count(&counts.complete, 1));
  CHECK(await_count(&counts.submitted, 1));
  CHECK(await_count(&counts.running, 1));
  /* Registered after completion: fires at once (on the callback thread). */
  CHECK_CL_SUCCESS(
      clSetEventCallback(marker, CL_SUBMITTED, count_callback, &counts));
  CHECK(await_count(&counts.submitted, 2));
  sleep_ms(20);
  CHECK_INT(2, atomic_load(&counts.submitted));
  CHECK_INT(1, atomic_load(&counts.running));
  CHECK_INT(1, atomic_load(&counts.complete));
  CHECK_INT(0, atomic_load(&counts.wrong_event));

  CHECK_CL(CL_INVALID_VALUE,
           clSetEventCallback(marker, CL_QUEUED, count_callback, &counts));
  CHECK_CL(CL_INVALID_VALUE,
           clSetEventCallback(marker, -1, count_callback, &counts));
  CHECK_CL(CL_INVALID_VALUE,
           clSetEventCallback(marker, CL_COMPLETE, NULL, &counts));
  CHECK_CL(CL_INVALID_EVENT, clSetEventCallback((cl_event)queue, CL_COMPLETE,
                                                count_callback, &counts));
  CHECK_CL_SUCCESS(clReleaseEvent(marker));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));

  /* User events: callbacks with the status set. */
  cl_event event = user_event(context);
  tally user_counts = {0};
  user_counts.expected = event;
  CHECK_CL_SUCCESS(
      clSetEventCallback(event, CL_COMPLETE, count_callback, &user_counts));
  /* The event may be released before its callback fires. */
  CHECK_CL_SUCCESS(clRetainEvent(event));
  CHECK_CL_SUCCESS(clReleaseEvent(event));
  CHECK_CL_SUCCESS(clSetUserEventStatus(event, CL_COMPLETE));
  CHECK(await_count(&user_counts.complete, 1));
  CHECK_INT(CL_COMPLETE, atomic_load(&user_counts.last_status));
  CHECK_CL_SUCCESS(clReleaseEvent(event));
}

/* Callbacks registered from many threads each fire exactly once. */
typedef struct register_job {
  cl_event event;
  tally *counts;
} register_job;

static void *register_callbacks(void *data) {
  register_job *job = data;
  for (int i = 0; i < 50; i++) {
    clSetEventCallback(job->event, CL_COMPLETE, count_callback, job->counts);
  }
  return NULL;
}

static void test_callbacks_threads(cl_context context, cl_command_queue queue) {
  cl_event gate = user_event(context);
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &marker));
  CHECK_CL_SUCCESS(clFlush(queue));
  tally counts = {0};
  counts.expected = marker;
  register_job job = {marker, &counts};
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, register_callbacks, &job) == 0);
  }
  /* The gate opens while callbacks are being registered. */
  sleep_ms(1);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
  CHECK(await_count(&counts.complete, 200));
  sleep_ms(20);
  CHECK_INT(200, atomic_load(&counts.complete));
  CHECK_INT(0, atomic_load(&counts.wrong_event));
  CHECK_CL_SUCCESS(clReleaseEvent(marker));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
}

/* ---- Dependencies -------------------------------------------------------- */

static void test_gating(cl_context context, cl_device_id device) {
  cl_command_queue first = cl_test_queue(context, device, 0);
  cl_command_queue second = cl_test_queue(context, device, 0);
  cl_event gate = user_event(context);
  cl_event a = NULL, b = NULL, c = NULL, d = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &gate, &a));
  /* Not flushed: waiting on it from another queue flushes it. */
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(second, 1, &a, &b));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(second, 0, NULL, &c));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &c, &d));
  CHECK_CL_SUCCESS(clFlush(first));
  CHECK_CL_SUCCESS(clFlush(second));
  sleep_ms(20);
  CHECK_INT(CL_QUEUED, status_of(a));
  CHECK(status_of(b) > CL_COMPLETE);
  CHECK(status_of(c) > CL_COMPLETE);
  CHECK(status_of(d) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  cl_event all[4] = {a, b, c, d};
  CHECK_CL_SUCCESS(clWaitForEvents(4, all));
  for (int i = 0; i < 4; i++) {
    CHECK_INT(CL_COMPLETE, status_of(all[i]));
    CHECK_CL_SUCCESS(clReleaseEvent(all[i]));
  }
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(first));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(second));
}

static void test_failure(cl_context context, cl_device_id device) {
  cl_command_queue first = cl_test_queue(context, device, 0);
  cl_command_queue second = cl_test_queue(context, device, 0);
  cl_event gate = user_event(context);
  cl_event failed = NULL, failed_too = NULL, later = NULL, other = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &gate, &failed));
  CHECK_CL_SUCCESS(
      clEnqueueMarkerWithWaitList(second, 1, &failed, &failed_too));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 0, NULL, &later));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(second, 0, NULL, &other));
  tally counts = {0};
  counts.expected = failed;
  CHECK_CL_SUCCESS(
      clSetEventCallback(failed, CL_COMPLETE, count_callback, &counts));
  CHECK_CL_SUCCESS(clFlush(first));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, -1234));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &failed));
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, status_of(failed));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &failed_too));
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            status_of(failed_too));
  /* Independent work still runs, on both queues. */
  CHECK_CL_SUCCESS(clWaitForEvents(1, &later));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &other));
  CHECK_CL_SUCCESS(clFinish(first));
  CHECK_CL_SUCCESS(clFinish(second));
  cl_event fresh = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 0, NULL, &fresh));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &fresh));
  /* A waiter on a failed event fails at once. */
  cl_event doomed = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(first, 1, &failed, &doomed));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &doomed));
  /* The COMPLETE callback gets the error. */
  CHECK(await_count(&counts.complete, 1));
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            atomic_load(&counts.last_status));
  /* Mixed lists report the failure but wait for all. */
  cl_event mixed[2] = {fresh, failed};
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(2, mixed));
  cl_event list[] = {failed, failed_too, later, other, fresh, doomed, gate};
  for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
    CHECK_CL_SUCCESS(clReleaseEvent(list[i]));
  }
  CHECK_CL_SUCCESS(clReleaseCommandQueue(first));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(second));
}

static void test_wait_errors(cl_context context, cl_device_id device,
                             cl_command_queue queue) {
  cl_event event = user_event(context);
  CHECK_CL(CL_INVALID_VALUE, clWaitForEvents(0, &event));
  cl_event pair[2] = {event, (cl_event)queue};
  CHECK_CL(CL_INVALID_EVENT, clWaitForEvents(2, pair));
  cl_context other_context = cl_test_context(device);
  cl_event foreign = user_event(other_context);
  pair[1] = foreign;
  CHECK_CL(CL_INVALID_CONTEXT, clWaitForEvents(2, pair));
  CHECK_CL_SUCCESS(clSetUserEventStatus(foreign, CL_COMPLETE));
  CHECK_CL_SUCCESS(clSetUserEventStatus(event, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &foreign));
  /* A wait list from another context. */
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueMarkerWithWaitList(queue, 1, &foreign, NULL));
  CHECK_CL_SUCCESS(clReleaseEvent(foreign));
  CHECK_CL_SUCCESS(clReleaseContext(other_context));
  CHECK_CL_SUCCESS(clReleaseEvent(event));
}

/* ---- The API from inside callbacks --------------------------------------- */

typedef struct reentrant {
  cl_command_queue queue;
  atomic_int done;
  cl_int enqueue_result, wait_result, finish_result, status_result;
} reentrant;

static void CL_CALLBACK reenter(cl_event event, cl_int status, void *data) {
  (void)event;
  (void)status;
  reentrant *state = data;
  cl_event marker = NULL;
  state->enqueue_result =
      clEnqueueMarkerWithWaitList(state->queue, 0, NULL, &marker);
  state->wait_result = clWaitForEvents(1, &marker);
  state->finish_result = clFinish(state->queue);
  cl_int got = 99;
  clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(got), &got,
                 NULL);
  state->status_result = got;
  clReleaseEvent(marker);
  atomic_store(&state->done, 1);
}

static void test_reentrant(cl_context context, cl_command_queue queue) {
  reentrant state = {.queue = queue};
  cl_event gate = user_event(context);
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &marker));
  CHECK_CL_SUCCESS(clSetEventCallback(marker, CL_COMPLETE, reenter, &state));
  CHECK_CL_SUCCESS(clFlush(queue));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(await_count(&state.done, 1));
  CHECK_CL_SUCCESS(state.enqueue_result);
  CHECK_CL_SUCCESS(state.wait_result);
  CHECK_CL_SUCCESS(state.finish_result);
  CHECK_INT(CL_COMPLETE, state.status_result);

  /* And from a user event's callback, set on this thread. */
  cl_event plain = user_event(context);
  reentrant again = {.queue = queue};
  CHECK_CL_SUCCESS(clSetEventCallback(plain, CL_COMPLETE, reenter, &again));
  CHECK_CL_SUCCESS(clSetUserEventStatus(plain, CL_COMPLETE));
  CHECK(await_count(&again.done, 1));
  CHECK_CL_SUCCESS(again.wait_result);
  CHECK_CL_SUCCESS(again.finish_result);
  CHECK_CL_SUCCESS(clReleaseEvent(plain));
  CHECK_CL_SUCCESS(clReleaseEvent(marker));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
}

/* ---- Real commands: buffers ---------------------------------------------- */

static cl_mem make_buffer(cl_context context, cl_int fill) {
  cl_int data[64];
  for (int i = 0; i < 64; i++) data[i] = fill;
  cl_int error = CL_SUCCESS;
  cl_mem buffer =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                     sizeof(data), data, &error);
  REQUIRE(error == CL_SUCCESS && buffer != NULL);
  return buffer;
}

/* A gated write on one queue, a read waiting for it on another. */
static void test_buffer_gating(cl_context context, cl_device_id device) {
  cl_command_queue writer =
      cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue reader = cl_test_queue(context, device, 0);
  cl_mem buffer = make_buffer(context, 1);
  cl_event gate = user_event(context);
  cl_int source[64], result[64];
  for (int i = 0; i < 64; i++) source[i] = 1000 + i;
  cl_event written = NULL, read = NULL;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(
      writer, buffer, CL_FALSE, 0, sizeof(source), source, 1, &gate, &written));
  for (int i = 0; i < 64; i++) result[i] = -1;
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      reader, buffer, CL_FALSE, 0, sizeof(result), result, 1, &written, &read));
  CHECK_CL_SUCCESS(clFlush(reader));
  sleep_ms(20);
  CHECK(status_of(read) > CL_COMPLETE);
  CHECK_INT(-1, result[0]);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &read));
  int wrong = 0;
  for (int i = 0; i < 64; i++) wrong += result[i] != 1000 + i;
  CHECK_INT(0, wrong);
  cl_ulong start = 0, end = 0;
  CHECK_CL_SUCCESS(clGetEventProfilingInfo(written, CL_PROFILING_COMMAND_START,
                                           sizeof(start), &start, NULL));
  CHECK_CL_SUCCESS(clGetEventProfilingInfo(written, CL_PROFILING_COMMAND_END,
                                           sizeof(end), &end, NULL));
  CHECK(start > 0 && start <= end);
  cl_command_type type = 0;
  clGetEventInfo(read, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
  CHECK_INT(CL_COMMAND_READ_BUFFER, type);
  CHECK_CL_SUCCESS(clReleaseEvent(written));
  CHECK_CL_SUCCESS(clReleaseEvent(read));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));

  /* A failed gate: the write never happens, a blocking read waiting on it
   * reports the failure, independent work goes on. */
  gate = user_event(context);
  for (int i = 0; i < 64; i++) source[i] = 7;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(
      writer, buffer, CL_FALSE, 0, sizeof(source), source, 1, &gate, &written));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, -3));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clEnqueueReadBuffer(reader, buffer, CL_TRUE, 0, sizeof(result),
                               result, 1, &written, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(reader, buffer, CL_TRUE, 0,
                                       sizeof(result), result, 0, NULL, NULL));
  CHECK_INT(1000, result[0]);
  CHECK_INT(1063, result[63]);
  CHECK_INT(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, status_of(written));
  CHECK_CL_SUCCESS(clReleaseEvent(written));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));

  /* The buffer outlives the user's release while a command uses it. */
  gate = user_event(context);
  for (int i = 0; i < 64; i++) source[i] = 5;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(
      writer, buffer, CL_FALSE, 0, sizeof(source), source, 1, &gate, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(writer, buffer, CL_FALSE, 0,
                                       sizeof(result), result, 0, NULL, &read));
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &read));
  CHECK_INT(5, result[0]);
  CHECK_INT(5, result[63]);
  CHECK_CL_SUCCESS(clReleaseEvent(read));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(writer));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(reader));
}

/* Maps and unmaps from inside a callback, as the CTS conversions do. */
typedef struct map_state {
  cl_command_queue queue;
  cl_mem buffer;
  atomic_int done;
  cl_int map_error, unmap_error, first;
} map_state;

static void CL_CALLBACK map_in_callback(cl_event event, cl_int status,
                                        void *data) {
  (void)event;
  (void)status;
  map_state *state = data;
  cl_int *mapped = clEnqueueMapBuffer(
      state->queue, state->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      64 * sizeof(cl_int), 0, NULL, NULL, &state->map_error);
  if (mapped) {
    state->first = mapped[0];
    mapped[1] = 4242;
    state->unmap_error = clEnqueueUnmapMemObject(state->queue, state->buffer,
                                                 mapped, 0, NULL, NULL);
    clFinish(state->queue);
  }
  atomic_store(&state->done, 1);
}

static void test_map_in_callback(cl_context context, cl_command_queue queue) {
  map_state state = {.queue = queue, .buffer = make_buffer(context, 31)};
  cl_event gate = user_event(context);
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 1, &gate, &marker));
  CHECK_CL_SUCCESS(
      clSetEventCallback(marker, CL_COMPLETE, map_in_callback, &state));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(await_count(&state.done, 1));
  CHECK_CL_SUCCESS(state.map_error);
  CHECK_CL_SUCCESS(state.unmap_error);
  CHECK_INT(31, state.first);
  cl_int result[64];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, state.buffer, CL_TRUE, 0,
                                       sizeof(result), result, 0, NULL, NULL));
  CHECK_INT(4242, result[1]);
  CHECK_CL_SUCCESS(clReleaseMemObject(state.buffer));
  CHECK_CL_SUCCESS(clReleaseEvent(marker));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
}

/* Released events are recycled: each new one must start afresh, whatever
 * its memory held before (a status, a callback that never fired, times). */
static void CL_CALLBACK never_called(cl_event event, cl_int status,
                                     void *data) {
  (void)event;
  (void)status;
  atomic_fetch_add((atomic_int *)data, 1);
}

static void test_recycled_events(cl_context context, cl_device_id device) {
  cl_command_queue timed =
      cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue plain = cl_test_queue(context, device, 0);
  atomic_int never = 0;
  cl_ulong last_end = 0;
  enum { count = 64 };
  for (int round = 0; round < 20; round++) {
    /* Callbacks for a status never reached go with their event. */
    for (int i = 0; i < count; i++) {
      cl_event abandoned = user_event(context);
      CHECK_CL_SUCCESS(
          clSetEventCallback(abandoned, CL_COMPLETE, never_called, &never));
      CHECK_CL_SUCCESS(clReleaseEvent(abandoned));
    }
    cl_event fresh = user_event(context);
    CHECK_INT(CL_SUBMITTED, status_of(fresh));
    cl_uint references = 0;
    CHECK_CL_SUCCESS(clGetEventInfo(fresh, CL_EVENT_REFERENCE_COUNT,
                                    sizeof(references), &references, NULL));
    CHECK_INT(1, references);
    tally counts = {.expected = fresh};
    CHECK_CL_SUCCESS(
        clSetEventCallback(fresh, CL_COMPLETE, count_callback, &counts));

    /* Commands of both queues wait on it; none may look finished. */
    cl_event plain_events[count], timed_events[count];
    for (int i = 0; i < count; i++) {
      CHECK_CL_SUCCESS(
          clEnqueueMarkerWithWaitList(plain, 1, &fresh, &plain_events[i]));
      CHECK_CL_SUCCESS(
          clEnqueueMarkerWithWaitList(timed, 1, &fresh, &timed_events[i]));
      CHECK(status_of(plain_events[i]) > CL_COMPLETE);
      CHECK(status_of(timed_events[i]) > CL_COMPLETE);
    }
    CHECK_CL_SUCCESS(clFlush(plain));
    CHECK_CL_SUCCESS(clFlush(timed));
    CHECK_CL_SUCCESS(clSetUserEventStatus(fresh, CL_COMPLETE));
    CHECK_CL_SUCCESS(clFinish(plain));
    CHECK_CL_SUCCESS(clFinish(timed));
    CHECK(await_count(&counts.complete, 1));
    CHECK_INT(0, atomic_load(&counts.wrong_event));

    cl_ulong end = 0;
    for (int i = 0; i < count; i++) {
      CHECK_INT(CL_COMPLETE, status_of(plain_events[i]));
      CHECK_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
               clGetEventProfilingInfo(plain_events[i],
                                       CL_PROFILING_COMMAND_QUEUED,
                                       sizeof(end), &end, NULL));
      /* Every time is this event's own: none from an earlier life. */
      cl_ulong t[4] = {0};
      for (int k = 0; k < 4; k++) {
        CHECK_CL_SUCCESS(clGetEventProfilingInfo(
            timed_events[i], CL_PROFILING_COMMAND_QUEUED + (cl_profiling_info)k,
            sizeof(t[k]), &t[k], NULL));
      }
      CHECK(t[0] >= last_end && t[0] <= t[1] && t[1] <= t[2] &&
            t[2] <= t[3]);
      if (t[3] > end) end = t[3];
      CHECK_CL_SUCCESS(clReleaseEvent(plain_events[i]));
      CHECK_CL_SUCCESS(clReleaseEvent(timed_events[i]));
    }
    last_end = end;
    CHECK_CL_SUCCESS(clReleaseEvent(fresh));
  }
  sleep_ms(20); /* the callback thread would have run them by now */
  CHECK_INT(0, atomic_load(&never));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(plain));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(timed));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  test_user_events(context, queue);
  test_profiling(context, device);
  test_callbacks(context, queue);
  test_callbacks_threads(context, queue);
  test_gating(context, device);
  test_failure(context, device);
  test_wait_errors(context, device, queue);
  test_reentrant(context, queue);
  test_buffer_gating(context, device);
  test_map_in_callback(context, queue);
  test_recycled_events(context, device);
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

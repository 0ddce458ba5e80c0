/* clmux OpenCL front-end: markers, barriers, wait-for-events. They are
 * commands without Mux work: the queue runs in order, so each already
 * follows every earlier command, and its wait list gates it like any
 * other command's. */
#include "engine.h"

cl_int clx_enqueue_nothing(cl_command_queue queue, cl_command_type type,
                           bool blocking, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  clx_enqueue enqueue;
  cl_int error = clx_enqueue_begin(queue, type, num_events_in_wait_list,
                                   event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  return clx_enqueue_end(&enqueue, event, blocking);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list,
                                               cl_event *event) {
  return clx_enqueue_nothing(command_queue, CL_COMMAND_MARKER, false,
                             num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list,
                                                cl_event *event) {
  return clx_enqueue_nothing(command_queue, CL_COMMAND_BARRIER, false,
                             num_events_in_wait_list, event_wait_list, event);
}

/* OpenCL 1.0/1.1 forms. */

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue,
                                   cl_event *event) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (event == NULL) return CL_INVALID_VALUE;
  return clx_enqueue_nothing(command_queue, CL_COMMAND_MARKER, false, 0, NULL,
                             event);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue,
                                          cl_uint num_events,
                                          const cl_event *event_list) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (num_events == 0 || event_list == NULL) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++) {
    if (!clx_valid(event_list[i], clx_kind_event)) return CL_INVALID_EVENT;
  }
  for (cl_uint i = 0; i < num_events; i++) {
    if (event_list[i]->context != command_queue->context) {
      return CL_INVALID_CONTEXT;
    }
  }
  return clx_enqueue_nothing(command_queue, CL_COMMAND_BARRIER, false,
                             num_events, event_list, NULL);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return clx_enqueue_nothing(command_queue, CL_COMMAND_BARRIER, false, 0, NULL,
                             NULL);
}

/* clmux OpenCL front-end: enqueue sync. */
#include "clx.h"

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event* event_wait_list,
                                               cl_event* event) {
  (void)command_queue;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event* event_wait_list,
                                                cl_event* event) {
  (void)command_queue;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue,
                                   cl_event* event) {
  (void)command_queue;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue,
                                          cl_uint num_events,
                                          const cl_event* event_list) {
  (void)command_queue;
  (void)num_events;
  (void)event_list;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  (void)command_queue;
  return CL_INVALID_OPERATION;
}

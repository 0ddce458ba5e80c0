/* clmux OpenCL front-end: event. */
#include "clx.h"

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
                                   const cl_event *event_list) {
  (void)num_events;
  (void)event_list;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  (void)event;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context,
                                       cl_int *errcode_ret) {
  (void)context;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event,
                                        cl_int execution_status) {
  (void)event;
  (void)execution_status;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event event, cl_int event_command_status,
                                  void *user_data),
    void *user_data) {
  (void)event;
  (void)command_exec_callback_type;
  (void)pfn_notify;
  (void)user_data;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event,
                                           cl_profiling_info param_name,
                                           size_t param_value_size,
                                           void *param_value,
                                           size_t *param_value_size_ret) {
  (void)event;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}
cl_event clx_event_create(cl_context context, cl_command_queue queue,
                          cl_command_type command_type) {
  (void)context;
  (void)queue;
  (void)command_type;
  return NULL;
}

void clx_event_set_status(cl_event event, cl_int status) {
  (void)event;
  (void)status;
}

cl_int clx_event_wait(cl_event event) {
  (void)event;
  return CL_INVALID_OPERATION;
}

void clx_event_on_complete(cl_event event,
                           void (*fn)(cl_event event, cl_int status,
                                      void *data),
                           void *data) {
  (void)event;
  (void)fn;
  (void)data;
}

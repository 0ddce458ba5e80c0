/* clmux OpenCL front-end: command queue. */
#include "clx.h"

cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret) {
  (void)context;
  (void)device;
  (void)properties;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  (void)command_queue;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  (void)command_queue;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name,
                                         size_t param_value_size,
                                         void *param_value,
                                         size_t *param_value_size_ret) {
  (void)command_queue;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetCommandQueueProperty(
    cl_command_queue command_queue, cl_command_queue_properties properties,
    cl_bool enable, cl_command_queue_properties *old_properties) {
  (void)command_queue;
  (void)properties;
  (void)enable;
  (void)old_properties;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  (void)command_queue;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  (void)command_queue;
  return CL_INVALID_OPERATION;
}
cl_int clx_enqueue_begin(cl_command_queue queue, cl_command_type type,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, clx_enqueue *out) {
  (void)queue;
  (void)type;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)out;
  return CL_INVALID_OPERATION;
}

void clx_enqueue_hold(clx_enqueue *enqueue, clx_object *object) {
  (void)enqueue;
  (void)object;
}

cl_int clx_enqueue_on_complete(clx_enqueue *enqueue,
                               void (*fn)(void *data, cl_int status),
                               void *data) {
  (void)enqueue;
  (void)fn;
  (void)data;
  return CL_INVALID_OPERATION;
}

cl_int clx_enqueue_end(clx_enqueue *enqueue, cl_event *event, bool blocking) {
  (void)enqueue;
  (void)event;
  (void)blocking;
  return CL_INVALID_OPERATION;
}

cl_int clx_enqueue_abort(clx_enqueue *enqueue, cl_int error) {
  (void)enqueue;
  return error;
}

cl_int clx_queue_flush(cl_command_queue queue) {
  (void)queue;
  return CL_INVALID_OPERATION;
}

cl_int clx_queue_finish(cl_command_queue queue) {
  (void)queue;
  return CL_INVALID_OPERATION;
}

/* clmux OpenCL front-end: enqueue buffer. */
#include "clx.h"

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue,
                                       cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void* ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list,
                                       cl_event* event) {
  (void)command_queue;
  (void)buffer;
  (void)blocking_read;
  (void)offset;
  (void)size;
  (void)ptr;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t* buffer_origin, const size_t* host_origin,
    const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  (void)command_queue;
  (void)buffer;
  (void)blocking_read;
  (void)buffer_origin;
  (void)host_origin;
  (void)region;
  (void)buffer_row_pitch;
  (void)buffer_slice_pitch;
  (void)host_row_pitch;
  (void)host_slice_pitch;
  (void)ptr;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue,
                                        cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size,
                                        const void* ptr,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list,
                                        cl_event* event) {
  (void)command_queue;
  (void)buffer;
  (void)blocking_write;
  (void)offset;
  (void)size;
  (void)ptr;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t* buffer_origin, const size_t* host_origin,
    const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  (void)command_queue;
  (void)buffer;
  (void)blocking_write;
  (void)buffer_origin;
  (void)host_origin;
  (void)region;
  (void)buffer_row_pitch;
  (void)buffer_slice_pitch;
  (void)host_row_pitch;
  (void)host_slice_pitch;
  (void)ptr;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue,
                                       cl_mem buffer, const void* pattern,
                                       size_t pattern_size, size_t offset,
                                       size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list,
                                       cl_event* event) {
  (void)command_queue;
  (void)buffer;
  (void)pattern;
  (void)pattern_size;
  (void)offset;
  (void)size;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
                                       cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset,
                                       size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list,
                                       cl_event* event) {
  (void)command_queue;
  (void)src_buffer;
  (void)dst_buffer;
  (void)src_offset;
  (void)dst_offset;
  (void)size;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  (void)command_queue;
  (void)src_buffer;
  (void)dst_buffer;
  (void)src_origin;
  (void)dst_origin;
  (void)region;
  (void)src_row_pitch;
  (void)src_slice_pitch;
  (void)dst_row_pitch;
  (void)dst_slice_pitch;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return CL_INVALID_OPERATION;
}

void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue,
                                     cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset,
                                     size_t size,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list,
                                     cl_event* event, cl_int* errcode_ret) {
  (void)command_queue;
  (void)buffer;
  (void)blocking_map;
  (void)map_flags;
  (void)offset;
  (void)size;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

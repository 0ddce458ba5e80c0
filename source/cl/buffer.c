/* clmux OpenCL front-end: buffer. */
#include "clx.h"

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags,
                                  size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
  (void)context;
  (void)flags;
  (void)size;
  (void)host_ptr;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info,
                                     cl_int* errcode_ret) {
  (void)buffer;
  (void)flags;
  (void)buffer_create_type;
  (void)buffer_create_info;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

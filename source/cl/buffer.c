/* clmux OpenCL front-end: buffers and sub-buffers. A buffer is a Mux buffer
 * bound to its own Mux memory (the user's array itself with
 * CL_MEM_USE_HOST_PTR); a sub-buffer is a Mux buffer bound to its parent's
 * memory at its origin, so both see the same bytes. */
#include <stdlib.h>

#include "clx.h"

/* CL_DEVICE_MAX_MEM_ALLOC_SIZE as clGetDeviceInfo reports it, so that the
 * check here agrees with what the application was told; the Mux value if
 * the query fails. */
static cl_ulong device_max_alloc(cl_device_id device) {
  cl_ulong value = 0;
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(value),
                      &value, &size) == CL_SUCCESS &&
      size == sizeof(value) && value) {
    return value;
  }
  return device->info->allocation_size;
}

/* The largest buffer every device of the context can hold. */
static cl_ulong max_alloc_size(cl_context context) {
  cl_ulong limit = ~(cl_ulong)0;
  for (cl_uint i = 0; i < context->num_devices; i++) {
    cl_ulong size = device_max_alloc(context->devices[i]);
    if (size < limit) limit = size;
  }
  return limit;
}

static cl_mem fail(cl_mem mem, cl_int error, cl_int *errcode_ret) {
  if (mem) clx_release(CLX_OBJ(mem));
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

cl_int clx_buffer_bind(cl_mem mem, mux_memory_t memory, size_t offset) {
  mux_device_t device = clx_mem_mux_device(mem->context);
  if (muxCreateBuffer(device, mem->size, clx_allocator, &mem->mux_buffer) !=
      mux_success) {
    mem->mux_buffer = NULL;
    return CL_OUT_OF_RESOURCES;
  }
  if (muxBindBufferMemory(device, memory, mem->mux_buffer, offset) !=
      mux_success) {
    return CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags,
                                  size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return fail(NULL, CL_INVALID_CONTEXT, errcode_ret);
  }
  cl_int error = clx_mem_check_flags(flags);
  if (error != CL_SUCCESS) return fail(NULL, error, errcode_ret);
  if (size == 0 || size > max_alloc_size(context)) {
    return fail(NULL, CL_INVALID_BUFFER_SIZE, errcode_ret);
  }
  /* Over SVM memory: within its allocation (fine-grained system SVM
   * makes any other host memory SVM too, but no allocation limits it). */
  size_t svm_offset = 0;
  cl_mem svm = (flags & CL_MEM_USE_HOST_PTR)
                   ? clx_svm_find(context, host_ptr, &svm_offset)
                   : NULL;
  if (svm && size > svm->size - svm_offset) {
    return fail(NULL, CL_INVALID_BUFFER_SIZE, errcode_ret);
  }
  cl_mem mem = clx_mem_create(context, CL_MEM_OBJECT_BUFFER, flags, size,
                              host_ptr, &error);
  if (!mem) return fail(NULL, error, errcode_ret);
  mem->uses_svm = svm != NULL;
  if ((error = clx_mem_allocate(mem)) != CL_SUCCESS ||
      (error = clx_buffer_bind(mem, mem->mux_memory, 0)) != CL_SUCCESS) {
    return fail(mem, error, errcode_ret);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return mem;
}

/* A sub-buffer's flags: its own where given, else the parent's. Returns
 * CL_INVALID_VALUE for flags that contradict the parent's (1.2 rules). */
static cl_int sub_buffer_flags(cl_mem parent, cl_mem_flags flags,
                               cl_mem_flags *out) {
  const cl_mem_flags access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags host_access =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  const cl_mem_flags host_ptr =
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
  if (clx_mem_check_flags(flags) != CL_SUCCESS) return CL_INVALID_VALUE;
  if (flags & host_ptr) return CL_INVALID_VALUE;
  cl_mem_flags from = parent->flags;
  if ((from & CL_MEM_WRITE_ONLY) &&
      (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) {
    return CL_INVALID_VALUE;
  }
  if ((from & CL_MEM_READ_ONLY) &&
      (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) {
    return CL_INVALID_VALUE;
  }
  if ((from & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) {
    return CL_INVALID_VALUE;
  }
  if ((from & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) {
    return CL_INVALID_VALUE;
  }
  if ((from & CL_MEM_HOST_NO_ACCESS) &&
      (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))) {
    return CL_INVALID_VALUE;
  }
  cl_mem_flags result = from & host_ptr;
  result |= (flags & access) ? flags & access : from & access;
  result |= (flags & host_access) ? flags & host_access : from & host_access;
  *out = result;
  return CL_SUCCESS;
}

/* Whether `origin` suits some device of the context. */
static bool origin_aligned(cl_context context, size_t origin) {
  for (cl_uint i = 0; i < context->num_devices; i++) {
    if (clx_mem_origin_aligned(context->devices[i], origin)) return true;
  }
  return false;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info,
                                     cl_int *errcode_ret) {
  if (!clx_valid(buffer, clx_kind_mem) ||
      buffer->type != CL_MEM_OBJECT_BUFFER || buffer->parent) {
    return fail(NULL, CL_INVALID_MEM_OBJECT, errcode_ret);
  }
  cl_mem_flags sub_flags = 0;
  if (sub_buffer_flags(buffer, flags, &sub_flags) != CL_SUCCESS ||
      buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION ||
      !buffer_create_info) {
    return fail(NULL, CL_INVALID_VALUE, errcode_ret);
  }
  const cl_buffer_region *region = buffer_create_info;
  if (region->origin > buffer->size ||
      region->size > buffer->size - region->origin) {
    return fail(NULL, CL_INVALID_VALUE, errcode_ret);
  }
  if (region->size == 0) {
    return fail(NULL, CL_INVALID_BUFFER_SIZE, errcode_ret);
  }
  if (!origin_aligned(buffer->context, region->origin)) {
    return fail(NULL, CL_MISALIGNED_SUB_BUFFER_OFFSET, errcode_ret);
  }
  void *host_ptr = NULL;
  if (sub_flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) {
    /* Only USE_HOST_PTR reports it; COPY needs one to pass the checks. */
    host_ptr = (sub_flags & CL_MEM_USE_HOST_PTR)
                   ? (uint8_t *)buffer->host_ptr + region->origin
                   : buffer->data + region->origin;
  }
  cl_int error = CL_SUCCESS;
  cl_mem mem = clx_mem_create(buffer->context, CL_MEM_OBJECT_BUFFER, sub_flags,
                              region->size, host_ptr, &error);
  if (!mem) return fail(NULL, error, errcode_ret);
  if (sub_flags & CL_MEM_COPY_HOST_PTR) mem->host_ptr = NULL;
  clx_hold(CLX_OBJ(buffer));
  mem->parent = buffer;
  mem->origin = region->origin;
  mem->data = buffer->data + region->origin;
  error = clx_buffer_bind(mem, buffer->mux_memory, region->origin);
  if (error != CL_SUCCESS) return fail(mem, error, errcode_ret);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return mem;
}

/* clmux ICD: the entry points of OpenCL 2.0 to 3.0 in the dispatch table.
 *
 * ocl-icd's loader calls a platform's dispatch slot without checking it, so
 * a NULL slot turns an application's call of a 2.x function into a crash.
 * Every such slot gets a function: this file's serve what 1.2 objects can
 * (queues, buffers, images and samplers made from property lists, kernel
 * clones, context destructor callbacks, the host and device timers) or
 * check their object and return the error OpenCL 3.0 names for a device
 * without the feature (CL_INVALID_OPERATION, mostly); SVM's are
 * source/cl/svm.c's and enqueue_svm.c's.
 *
 * Compiled against the 3.0 headers for the real prototypes; the dispatch
 * table (dispatch.c, 1.2 headers) sees these slots as void pointers. */
#define CL_TARGET_OPENCL_VERSION 300
#include "later_versions.h"

#include "../source/cl/clx.h"

static cl_int fail(cl_int *errcode_ret, cl_int error) {
  if (errcode_ret) *errcode_ret = error;
  return error;
}

/* ---- Served with 1.2 objects ------------------------------------------- */

/* The object made, keeping the property list it was made with (queried
 * as CL_*_PROPERTIES); NULL if either failed. */
static void *with_properties(void *made, const cl_properties *properties,
                             cl_int *errcode_ret) {
  if (!made) return NULL;
  cl_int error = clx_keep_properties((clx_object *)made, properties);
  if (error == CL_SUCCESS) return made;
  clx_release((clx_object *)made);
  fail(errcode_ret, error);
  return NULL;
}

/* clmux knows no 3.0 memory property: an empty list or none at all. */
static bool no_memory_properties(const cl_mem_properties *properties) {
  return !properties || properties[0] == 0;
}

cl_mem CL_API_CALL clx_create_buffer_with_properties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    fail(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!no_memory_properties(properties)) {
    fail(errcode_ret, CL_INVALID_PROPERTY);
    return NULL;
  }
  return with_properties(
      clCreateBuffer(context, flags, size, host_ptr, errcode_ret), properties,
      errcode_ret);
}

cl_mem CL_API_CALL clx_create_image_with_properties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    fail(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!no_memory_properties(properties)) {
    fail(errcode_ret, CL_INVALID_PROPERTY);
    return NULL;
  }
  return with_properties(clCreateImage(context, flags, image_format, image_desc,
                                       host_ptr, errcode_ret),
                         properties, errcode_ret);
}

/* The 2.0 property list of the three 1.2 sampler settings, each at most
 * once; the 1.2 defaults otherwise. */
cl_sampler CL_API_CALL clx_create_sampler_with_properties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    fail(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  unsigned seen = 0;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    unsigned bit;
    switch (properties[i]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        bit = 1;
        normalized = (cl_bool)properties[i + 1];
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        bit = 2;
        addressing = (cl_addressing_mode)properties[i + 1];
        break;
      case CL_SAMPLER_FILTER_MODE:
        bit = 4;
        filter = (cl_filter_mode)properties[i + 1];
        break;
      default:
        fail(errcode_ret, CL_INVALID_VALUE);
        return NULL;
    }
    if (seen & bit) {
      fail(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    seen |= bit;
  }
  return with_properties(
      clCreateSampler(context, normalized, addressing, filter, errcode_ret),
      properties, errcode_ret);
}

/* 1.2's property bits; on-device queues (their bits and CL_QUEUE_SIZE) are not
 * supported. */
cl_command_queue CL_API_CALL clx_create_command_queue_with_properties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret) {
  cl_command_queue_properties bits = 0;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    if (properties[i] == CL_QUEUE_PROPERTIES) {
      bits = properties[i + 1];
    } else {
      fail(errcode_ret, properties[i] == CL_QUEUE_SIZE
                            ? CL_INVALID_QUEUE_PROPERTIES
                            : CL_INVALID_VALUE);
      return NULL;
    }
  }
  /* Device-side queues are valid properties this device does not
   * support; a default one must be on the device. */
  if ((bits & CL_QUEUE_ON_DEVICE_DEFAULT) && !(bits & CL_QUEUE_ON_DEVICE)) {
    fail(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  if (bits & CL_QUEUE_ON_DEVICE) {
    fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
    return NULL;
  }
  return with_properties(
      clCreateCommandQueue(context, device, bits, errcode_ret), properties,
      errcode_ret);
}

/* ---- Features clmux's device does not have ----------------------------- */

static cl_int context_checked(cl_context context) {
  return clx_valid(context, clx_kind_context) ? CL_INVALID_OPERATION
                                              : CL_INVALID_CONTEXT;
}

static cl_int program_checked(cl_program program) {
  return clx_valid(program, clx_kind_program) ? CL_INVALID_OPERATION
                                              : CL_INVALID_PROGRAM;
}

cl_mem CL_API_CALL clx_create_pipe(cl_context context, cl_mem_flags flags,
                                   cl_uint packet_size, cl_uint max_packets,
                                   const cl_pipe_properties *properties,
                                   cl_int *errcode_ret) {
  (void)flags;
  (void)packet_size;
  (void)max_packets;
  (void)properties;
  fail(errcode_ret, context_checked(context));
  return NULL;
}

/* No pipe object exists, so whatever is passed is not one. */
cl_int CL_API_CALL clx_get_pipe_info(cl_mem pipe, cl_pipe_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  (void)pipe;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clx_get_kernel_sub_group_info(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return clx_kernel_sub_group_info(kernel, device, param_name,
                                   input_value_size, input_value,
                                   param_value_size, param_value,
                                   param_value_size_ret);
}

cl_kernel CL_API_CALL clx_clone_kernel(cl_kernel source_kernel,
                                       cl_int *errcode_ret) {
  cl_int error = CL_INVALID_KERNEL;
  cl_kernel kernel = clx_valid(source_kernel, clx_kind_kernel)
                         ? clx_kernel_clone(source_kernel, &error)
                         : NULL;
  if (errcode_ret) *errcode_ret = kernel ? CL_SUCCESS : error;
  return kernel;
}

/* The device's clock is the host's (the one of profiling times). */
cl_int CL_API_CALL clx_get_device_and_host_timer(cl_device_id device,
                                                 cl_ulong *device_timestamp,
                                                 cl_ulong *host_timestamp) {
  if (!clx_device_valid(device)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = *device_timestamp = clx_now_ns();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clx_get_host_timer(cl_device_id device,
                                      cl_ulong *host_timestamp) {
  if (!clx_device_valid(device)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = clx_now_ns();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clx_set_default_device_command_queue(
    cl_context context, cl_device_id device, cl_command_queue command_queue) {
  (void)device;
  (void)command_queue;
  return context_checked(context);
}

cl_int CL_API_CALL clx_set_program_release_callback(
    cl_program program,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data) {
  (void)pfn_notify;
  (void)user_data;
  return program_checked(program);
}

cl_int CL_API_CALL clx_set_context_destructor_callback(
    cl_context context,
    void(CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
    void *user_data) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  return clx_context_add_destructor(context, pfn_notify, user_data);
}

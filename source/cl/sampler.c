/* clmux OpenCL front-end: samplers. A sampler is a plain value (Mux has no
 * sampler objects); kernels read its three settings when it is set as an
 * argument. It holds its context. */
#include <stdlib.h>

#include "clx.h"

static void sampler_destroy(clx_object* object) {
  cl_sampler sampler = (cl_sampler)object;
  clx_unhold(CLX_OBJ(sampler->context));
  free(sampler);
}

static bool addressing_mode_valid(cl_addressing_mode mode) {
  switch (mode) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP:
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT:
      return true;
    default:
      return false;
  }
}

static bool context_has_image_device(cl_context context) {
  for (cl_uint i = 0; i < context->num_devices; i++) {
    if (context->devices[i]->info->image_support) return true;
  }
  return false;
}

static cl_int sampler_check(cl_context context, cl_bool normalized_coords,
                            cl_addressing_mode addressing_mode,
                            cl_filter_mode filter_mode) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  if (normalized_coords != CL_TRUE && normalized_coords != CL_FALSE) {
    return CL_INVALID_VALUE;
  }
  if (!addressing_mode_valid(addressing_mode)) return CL_INVALID_VALUE;
  if (filter_mode != CL_FILTER_NEAREST && filter_mode != CL_FILTER_LINEAR) {
    return CL_INVALID_VALUE;
  }
  /* Repeating needs normalized coordinates (OpenCL 1.2, 6.12.14.1): the
   * combination clCreateSampler calls invalid. */
  if (!normalized_coords && (addressing_mode == CL_ADDRESS_REPEAT ||
                             addressing_mode == CL_ADDRESS_MIRRORED_REPEAT)) {
    return CL_INVALID_VALUE;
  }
  if (!context_has_image_device(context)) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context,
                                       cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode,
                                       cl_int* errcode_ret) {
  cl_int error =
      sampler_check(context, normalized_coords, addressing_mode, filter_mode);
  cl_sampler sampler = NULL;
  if (error == CL_SUCCESS) {
    sampler = calloc(1, sizeof(*sampler));
    if (!sampler) error = CL_OUT_OF_HOST_MEMORY;
  }
  if (sampler) {
    clx_object_init(CLX_OBJ(sampler), clx_kind_sampler, sampler_destroy);
    clx_hold(CLX_OBJ(context));
    sampler->context = context;
    sampler->normalized_coords = normalized_coords;
    sampler->addressing_mode = addressing_mode;
    sampler->filter_mode = filter_mode;
  }
  if (errcode_ret) *errcode_ret = error;
  return sampler;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  if (!clx_valid(sampler, clx_kind_sampler)) return CL_INVALID_SAMPLER;
  clx_retain(CLX_OBJ(sampler));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  if (!clx_valid(sampler, clx_kind_sampler)) return CL_INVALID_SAMPLER;
  return clx_release(CLX_OBJ(sampler)) ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
                                    cl_sampler_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
  if (!clx_valid(sampler, clx_kind_sampler)) return CL_INVALID_SAMPLER;
  switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: {
      cl_uint count = clx_user_references(CLX_OBJ(sampler));
      return clx_info(&count, sizeof(count), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_SAMPLER_CONTEXT:
      return clx_info(&sampler->context, sizeof(cl_context), param_value_size,
                      param_value, param_value_size_ret);
    case CL_SAMPLER_NORMALIZED_COORDS:
      return clx_info(&sampler->normalized_coords, sizeof(cl_bool),
                      param_value_size, param_value, param_value_size_ret);
    case CL_SAMPLER_ADDRESSING_MODE:
      return clx_info(&sampler->addressing_mode, sizeof(cl_addressing_mode),
                      param_value_size, param_value, param_value_size_ret);
    case CL_SAMPLER_FILTER_MODE:
      return clx_info(&sampler->filter_mode, sizeof(cl_filter_mode),
                      param_value_size, param_value, param_value_size_ret);
    case CL_SAMPLER_PROPERTIES:
      return clx_properties_info(CLX_OBJ(sampler), param_value_size,
                                 param_value, param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

/* clmux OpenCL front-end: sampler. */
#include "clx.h"

cl_sampler CL_API_CALL clCreateSampler(cl_context context,
                                       cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode,
                                       cl_int* errcode_ret) {
  (void)context;
  (void)normalized_coords;
  (void)addressing_mode;
  (void)filter_mode;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  (void)sampler;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  (void)sampler;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
                                    cl_sampler_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
  (void)sampler;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

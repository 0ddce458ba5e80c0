/* clmux OpenCL front-end: platform. */
#include "clx.h"

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
                                    cl_platform_id* platforms,
                                    cl_uint* num_platforms) {
  (void)num_entries;
  (void)platforms;
  (void)num_platforms;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                     cl_platform_info param_name,
                                     size_t param_value_size, void* param_value,
                                     size_t* param_value_size_ret) {
  (void)platform;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}
cl_platform_id clx_platform(void) { return NULL; }

/* clmux OpenCL front-end: context. */
#include "clx.h"

cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info,
                                  size_t cb, void *user_data),
    void *user_data, cl_int *errcode_ret) {
  (void)properties;
  (void)num_devices;
  (void)devices;
  (void)pfn_notify;
  (void)user_data;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info,
                                  size_t cb, void *user_data),
    void *user_data, cl_int *errcode_ret) {
  (void)properties;
  (void)device_type;
  (void)pfn_notify;
  (void)user_data;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  (void)context;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  (void)context;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context,
                                    cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  (void)context;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}
bool clx_context_has_device(cl_context context, cl_device_id device) {
  (void)context;
  (void)device;
  return false;
}

void clx_context_report(cl_context context, const char *message) {
  (void)context;
  (void)message;
}

/* clmux OpenCL front-end: device. */
#include "clx.h"

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
                                  cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id* devices,
                                  cl_uint* num_devices) {
  (void)platform;
  (void)device_type;
  (void)num_entries;
  (void)devices;
  (void)num_devices;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
                                   cl_device_info param_name,
                                   size_t param_value_size, void* param_value,
                                   size_t* param_value_size_ret) {
  (void)device;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property* properties,
    cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret) {
  (void)in_device;
  (void)properties;
  (void)num_devices;
  (void)out_devices;
  (void)num_devices_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  (void)device;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  (void)device;
  return CL_INVALID_OPERATION;
}
bool clx_device_valid(cl_device_id device) {
  (void)device;
  return false;
}

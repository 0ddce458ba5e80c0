/* clmux OpenCL front-end: program. */
#include "clx.h"

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context,
                                                 cl_uint count,
                                                 const char** strings,
                                                 const size_t* lengths,
                                                 cl_int* errcode_ret) {
  (void)context;
  (void)count;
  (void)strings;
  (void)lengths;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id* device_list,
    const size_t* lengths, const unsigned char** binaries,
    cl_int* binary_status, cl_int* errcode_ret) {
  (void)context;
  (void)num_devices;
  (void)device_list;
  (void)lengths;
  (void)binaries;
  (void)binary_status;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id* device_list,
    const char* kernel_names, cl_int* errcode_ret) {
  (void)context;
  (void)num_devices;
  (void)device_list;
  (void)kernel_names;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  (void)program;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  (void)program;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id* device_list,
    const char* options,
    void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
    void* user_data) {
  (void)program;
  (void)num_devices;
  (void)device_list;
  (void)options;
  (void)pfn_notify;
  (void)user_data;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id* device_list,
    const char* options, cl_uint num_input_headers,
    const cl_program* input_headers, const char** header_include_names,
    void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
    void* user_data) {
  (void)program;
  (void)num_devices;
  (void)device_list;
  (void)options;
  (void)num_input_headers;
  (void)input_headers;
  (void)header_include_names;
  (void)pfn_notify;
  (void)user_data;
  return CL_INVALID_OPERATION;
}

cl_program CL_API_CALL clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id* device_list,
    const char* options, cl_uint num_input_programs,
    const cl_program* input_programs,
    void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
    void* user_data, cl_int* errcode_ret) {
  (void)context;
  (void)num_devices;
  (void)device_list;
  (void)options;
  (void)num_input_programs;
  (void)input_programs;
  (void)pfn_notify;
  (void)user_data;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  (void)platform;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_INVALID_OPERATION; }

cl_int CL_API_CALL clGetProgramInfo(cl_program program,
                                    cl_program_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
  (void)program;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program program, cl_device_id device, cl_program_build_info param_name,
    size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  (void)program;
  (void)device;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

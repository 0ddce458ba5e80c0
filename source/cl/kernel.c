/* clmux OpenCL front-end: kernel. */
#include "clx.h"

cl_kernel CL_API_CALL clCreateKernel(cl_program program,
                                     const char* kernel_name,
                                     cl_int* errcode_ret) {
  (void)program;
  (void)kernel_name;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
                                            cl_uint num_kernels,
                                            cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
  (void)program;
  (void)num_kernels;
  (void)kernels;
  (void)num_kernels_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  (void)kernel;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  (void)kernel;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                                  size_t arg_size, const void* arg_value) {
  (void)kernel;
  (void)arg_index;
  (void)arg_size;
  (void)arg_value;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void* param_value,
                                   size_t* param_value_size_ret) {
  (void)kernel;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                      cl_kernel_arg_info param_name,
                                      size_t param_value_size,
                                      void* param_value,
                                      size_t* param_value_size_ret) {
  (void)kernel;
  (void)arg_indx;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  (void)kernel;
  (void)device;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

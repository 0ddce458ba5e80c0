/* clmux ICD: the OpenCL 2.0 to 3.0 entry points of the dispatch table
 * (later_versions.c). Needs the 3.0 headers (CL_TARGET_OPENCL_VERSION 300). */
#ifndef CLMUX_ICD_LATER_VERSIONS_H
#define CLMUX_ICD_LATER_VERSIONS_H

#include "../source/cl/clx.h" /* the 1.2 and 2.0 entry points not deprecated */

cl_command_queue CL_API_CALL clx_create_command_queue_with_properties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret);

cl_kernel CL_API_CALL clx_clone_kernel(cl_kernel source_kernel,
                                       cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_buffer_with_properties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_image_with_properties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_pipe(cl_context context, cl_mem_flags flags,
                                   cl_uint packet_size, cl_uint max_packets,
                                   const cl_pipe_properties *properties,
                                   cl_int *errcode_ret);
cl_sampler CL_API_CALL clx_create_sampler_with_properties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret);
cl_int CL_API_CALL clx_get_device_and_host_timer(cl_device_id device,
                                                 cl_ulong *device_timestamp,
                                                 cl_ulong *host_timestamp);
cl_int CL_API_CALL clx_get_host_timer(cl_device_id device,
                                      cl_ulong *host_timestamp);
cl_int CL_API_CALL clx_get_kernel_sub_group_info(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL clx_get_pipe_info(cl_mem pipe, cl_pipe_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret);
cl_int CL_API_CALL clx_set_context_destructor_callback(
    cl_context context,
    void(CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
    void *user_data);
cl_int CL_API_CALL clx_set_default_device_command_queue(
    cl_context context, cl_device_id device, cl_command_queue command_queue);
cl_int CL_API_CALL clx_set_program_release_callback(
    cl_program program,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data);

#endif /* CLMUX_ICD_LATER_VERSIONS_H */

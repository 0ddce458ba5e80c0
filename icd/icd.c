/* clmux ICD: the entry points the ICD loader finds with dlsym. The loader
 * asks clGetExtensionFunctionAddress for clIcdGetPlatformIDsKHR, enumerates
 * platforms with it, then reaches everything else through the dispatch
 * table at the start of each object.
 *
 * The exported names are also the loader's own, so inside this library a
 * call or address of them may bind to the loader's (symbol interposition):
 * the dispatch table must point at the hidden clx_icd_* versions, or the
 * loader would call itself forever (dispatch.c declares them), and
 * clIcdGetPlatformIDsKHR is handed out as a hidden function too. */
#include <string.h>

#include "../source/cl/clx.h"
#include "later_versions.h"

static cl_int CL_API_CALL get_platform_ids(cl_uint num_entries,
                                           cl_platform_id *platforms,
                                           cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* The ICD's own functions, cl_khr_il_program's, cl_khr_create_command_queue's,
 * cl_ext_image_requirements_info's, cl_khr_subgroups',
 * cl_khr_suggested_local_work_size's
 * and cl_khr_command_buffer's.
 * ocl-icd also asks for clGetPlatformInfo this way (the library exports no core
 * entry point) and ignores the ICD if it gets NULL. */
void *CL_API_CALL clx_icd_extension_function(const char *func_name) {
  if (!func_name) return NULL;
  if (strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0) {
    return (void *)get_platform_ids;
  }
  if (strcmp(func_name, "clGetPlatformInfo") == 0) {
    return (void *)clGetPlatformInfo;
  }
  if (strcmp(func_name, "clCreateProgramWithILKHR") == 0) {
    return clx_il_supported() ? (void *)clx_create_program_with_il : NULL;
  }
  if (strcmp(func_name, "clGetImageRequirementsInfoEXT") == 0) {
    return (void *)clx_get_image_requirements_info;
  }
  /* cl_khr_create_command_queue: OpenCL 2.0's function under its name. */
  if (strcmp(func_name, "clCreateCommandQueueWithPropertiesKHR") == 0) {
    return (void *)clx_create_command_queue_with_properties;
  }
  /* cl_khr_subgroups: OpenCL 2.1's function under its name. */
  if (strcmp(func_name, "clGetKernelSubGroupInfoKHR") == 0) {
    return (void *)clx_get_kernel_sub_group_info;
  }
  if (strcmp(func_name, "clGetKernelSuggestedLocalWorkSizeKHR") == 0) {
    return (void *)clx_get_kernel_suggested_local_work_size;
  }
  return clx_command_buffer_function(func_name);
}

void *CL_API_CALL clx_icd_extension_function_for_platform(
    cl_platform_id platform, const char *func_name) {
  if (platform != NULL && platform != clx_platform()) return NULL;
  return clx_icd_extension_function(func_name);
}

CLX_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                     cl_platform_id *platforms,
                                                     cl_uint *num_platforms) {
  return get_platform_ids(num_entries, platforms, num_platforms);
}

CLX_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name) {
  return clx_icd_extension_function(func_name);
}

CLX_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(
    cl_platform_id platform, const char *func_name) {
  return clx_icd_extension_function_for_platform(platform, func_name);
}

/* clmux ICD: the entry points the ICD loader finds with dlsym. */
#include "../source/cl/clx.h"

CLX_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                     cl_platform_id *platforms,
                                                     cl_uint *num_platforms) {
  (void)num_entries;
  (void)platforms;
  (void)num_platforms;
  return CL_PLATFORM_NOT_FOUND_KHR;
}

CLX_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name) {
  (void)func_name;
  return NULL;
}

CLX_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(
    cl_platform_id platform, const char *func_name) {
  (void)platform;
  (void)func_name;
  return NULL;
}

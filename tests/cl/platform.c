/* clmux: clGetPlatformIDs and clGetPlatformInfo through the ICD loader —
 * every CL_PLATFORM_* query with its exact size, the error codes, and the
 * version string format the CTS harness parses. */
#include <stdio.h>
#include <stdlib.h>

#include "cl_test.h"

/* cl_khr_icd (CL/cl_ext.h, which must come after cl_test.h). */
#define PLATFORM_ICD_SUFFIX_KHR 0x0920

/* Queries a string, checking the size-only call, the exact-size call and a
 * buffer one byte too small; returns a static copy. */
static const char *platform_string(cl_platform_id platform,
                                   cl_platform_info param) {
  static char value[4][1024];
  static int next;
  char *out = value[next++ % 4];
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, param, 0, NULL, &size));
  CHECK(size > 0 && size <= sizeof value[0]);
  if (size == 0 || size > sizeof value[0]) return "";
  memset(out, 0x7f, sizeof value[0]);
  size_t size_ret = 0;
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, param, size, out, &size_ret));
  CHECK_INT(size, size_ret);
  CHECK_INT(size, strlen(out) + 1);
  /* Also without param_value_size_ret. */
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, param, size, out, NULL));
  char small[1024];
  CHECK_CL(CL_INVALID_VALUE,
           clGetPlatformInfo(platform, param, size - 1, small, NULL));
  return out;
}

/* "OpenCL <major>.<minor> <text>", as the CTS harness parses it. */
static void check_version_format(const char *version) {
  int major = 0, minor = 0, used = 0;
  CHECK(sscanf(version, "OpenCL %d.%d %n", &major, &minor, &used) == 2);
  CHECK_INT(3, major);
  CHECK_INT(0, minor);
  CHECK(used > 0 && version[used - 1] == ' ' && version[used] != '\0');
  CHECK(strncmp(version, "OpenCL 3.0 ", 11) == 0);
}

int main(void) {
  cl_platform_id platform = cl_test_platform();

  /* clGetPlatformIDs: argument rules (the loader forwards them). */
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetPlatformIDs(0, NULL, &count));
  CHECK(count >= 1);
  cl_platform_id platforms[16];
  CHECK_CL(CL_INVALID_VALUE, clGetPlatformIDs(0, platforms, NULL));
  CHECK_CL(CL_INVALID_VALUE, clGetPlatformIDs(0, platforms, &count));
  CHECK_CL(CL_INVALID_VALUE, clGetPlatformIDs(1, NULL, NULL));
  cl_platform_id first = NULL;
  CHECK_CL_SUCCESS(clGetPlatformIDs(1, &first, NULL));
  CHECK(first != NULL);
  /* The same handle every time. */
  CHECK(cl_test_platform() == platform);

  /* Every query, with exact sizes and the too-small rule. */
  CHECK(strcmp(platform_string(platform, CL_PLATFORM_PROFILE),
               "FULL_PROFILE") == 0);
  const char *version = platform_string(platform, CL_PLATFORM_VERSION);
  CHECK(strcmp(version, "OpenCL 3.0 clmux 0.1.0") == 0);
  check_version_format(version);
  CHECK(strcmp(platform_string(platform, CL_PLATFORM_NAME), "clmux") == 0);
  CHECK(strcmp(platform_string(platform, CL_PLATFORM_VENDOR), "clmux") == 0);
  const char *extensions = platform_string(platform, CL_PLATFORM_EXTENSIONS);
  CHECK(strstr(extensions, "cl_khr_icd") != NULL);
  CHECK(strcmp(platform_string(platform, PLATFORM_ICD_SUFFIX_KHR), "clmux") ==
        0);

  /* Size only, value only. */
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, &size));
  CHECK_INT(6, size);
  char name[6];
  CHECK_CL_SUCCESS(
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
  CHECK(strcmp(name, "clmux") == 0);
  /* A larger buffer is fine; size_ret stays the real size. */
  char big[64];
  size = 0;
  CHECK_CL_SUCCESS(
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof big, big, &size));
  CHECK_INT(6, size);

  /* Unknown parameters. */
  CHECK_CL(CL_INVALID_VALUE,
           clGetPlatformInfo(platform, 0, sizeof big, big, &size));
  CHECK_CL(CL_INVALID_VALUE,
           clGetPlatformInfo(platform, CL_DEVICE_NAME, sizeof big, big, NULL));
  CHECK_CL(CL_INVALID_VALUE, clGetPlatformInfo(platform, 0x0909 /* none yet */,
                                               sizeof big, big, NULL));
  /* OpenCL 2.1's host timer resolution: clGetHostTimer's nanoseconds. */
  cl_ulong resolution = 0;
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, 0x0905, sizeof resolution,
                                     &resolution, &size));
  CHECK(resolution == 1 && size == sizeof resolution);
  CHECK_CL(CL_INVALID_VALUE,
           clGetPlatformInfo(platform, CL_PLATFORM_PROFILE, 0, big, NULL));

  /* The device's platform is this one; device extensions include the
   * platform's. */
  cl_device_id device = cl_test_device();
  cl_platform_id device_platform = NULL;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_PLATFORM,
                                   sizeof device_platform, &device_platform,
                                   NULL));
  CHECK(device_platform == platform);
  char device_extensions[1024] = {0};
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS,
                                   sizeof device_extensions, device_extensions,
                                   NULL));
  CHECK(strstr(device_extensions, "cl_khr_icd") != NULL);

  /* Extension functions: what the loader needs, and those of the
   * extensions reported (command_buffer.c tests cl_khr_command_buffer's). */
  CHECK(clGetExtensionFunctionAddressForPlatform(
            platform, "clIcdGetPlatformIDsKHR") != NULL);
  typedef cl_int (*get_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);
  get_ids_fn get_ids = (get_ids_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clIcdGetPlatformIDsKHR");
  if (get_ids) {
    cl_uint found = 0;
    CHECK_CL_SUCCESS(get_ids(0, NULL, &found));
    CHECK(found >= 1);
  }
  CHECK(clGetExtensionFunctionAddress("clNoSuchKHR") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(platform, NULL) == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchKHR") ==
        NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateCommandBufferKHR") != NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(
            platform, "clRemapCommandBufferKHR") == NULL);

  return check_finish();
}

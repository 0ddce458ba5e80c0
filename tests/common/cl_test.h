/* clmux tests of the OpenCL API: always through the real ICD loader
 * (libOpenCL.so.1 of ocl-icd), with OCL_ICD_VENDORS naming the built
 * libclmux.so (set by tests/cl/meson.build). */
#ifndef CLMUX_TESTS_CL_TEST_H
#define CLMUX_TESTS_CL_TEST_H

#ifndef CL_TARGET_OPENCL_VERSION /* a test of 2.x entry points asks for 300 */
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define CHECK_CL(expected, call) CHECK_INT(expected, call)
#define CHECK_CL_SUCCESS(call) CHECK_INT(CL_SUCCESS, call)

/* The clmux platform among those the loader reports. */
static inline cl_platform_id cl_test_platform(void) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  REQUIRE(clGetPlatformIDs(16, platforms, &count) == CL_SUCCESS);
  for (cl_uint i = 0; i < count && i < 16; i++) {
    char name[64] = {0};
    if (clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name), name,
                          NULL) == CL_SUCCESS &&
        strcmp(name, "clmux") == 0) {
      return platforms[i];
    }
  }
  REQUIRE(!"the loader found no clmux platform (is OCL_ICD_VENDORS set?)");
  return NULL;
}

static inline cl_device_id cl_test_device(void) {
  cl_device_id device = NULL;
  REQUIRE(clGetDeviceIDs(cl_test_platform(), CL_DEVICE_TYPE_CPU, 1, &device,
                         NULL) == CL_SUCCESS);
  return device;
}

static inline cl_context cl_test_context(cl_device_id device) {
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  REQUIRE(error == CL_SUCCESS && context != NULL);
  return context;
}

static inline cl_command_queue cl_test_queue(cl_context context,
                                             cl_device_id device,
                                             cl_command_queue_properties
                                                 properties) {
  cl_int error = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(context, device, properties, &error);
  REQUIRE(error == CL_SUCCESS && queue != NULL);
  return queue;
}

/* A read-write buffer of `size` bytes, copied from `data` unless NULL. */
static inline cl_mem cl_test_buffer(cl_context context, size_t size,
                                    const void *data) {
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(
      context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size,
      (void *)data, &error);
  REQUIRE(error == CL_SUCCESS && mem != NULL);
  return mem;
}

/* The build log of `program` (malloc'd; "" if none). */
static inline char *cl_test_build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
  char *log = calloc(1, size + 1);
  REQUIRE(log != NULL);
  if (size) {
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log,
                          NULL);
  }
  return log;
}

/* Whether the device reports extension `name` (a whole name: not a prefix
 * of a longer one, as cl_khr_command_buffer is of its mutable dispatch). */
static inline bool cl_test_has_extension(cl_device_id device,
                                         const char *name) {
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) ==
          CL_SUCCESS);
  char *list = calloc(1, size + 1);
  REQUIRE(list != NULL);
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL) ==
          CL_SUCCESS);
  size_t length = strlen(name);
  bool found = false;
  for (const char *at = list; !found && (at = strstr(at, name)); at++) {
    found = (at == list || at[-1] == ' ') &&
            (at[length] == ' ' || at[length] == '\0');
  }
  free(list);
  return found;
}

/* Whether clGetSupportedImageFormats lists `format` for `flags` and
 * `type` in `context`. */
static inline bool cl_test_format_listed(cl_context context, cl_mem_flags flags,
                                         cl_mem_object_type type,
                                         cl_channel_order order,
                                         cl_channel_type data_type) {
  cl_uint count = 0;
  REQUIRE(clGetSupportedImageFormats(context, flags, type, 0, NULL, &count) ==
          CL_SUCCESS);
  cl_image_format *formats = calloc(count + 1, sizeof *formats);
  REQUIRE(formats != NULL);
  REQUIRE(clGetSupportedImageFormats(context, flags, type, count, formats,
                                     NULL) == CL_SUCCESS);
  bool found = false;
  for (cl_uint i = 0; i < count; i++) {
    found |= formats[i].image_channel_order == order &&
             formats[i].image_channel_data_type == data_type;
  }
  free(formats);
  return found;
}

/* A program built from `source` with `options`; the log is printed and
 * the test stops if the build fails. */
static inline cl_program cl_test_build(cl_context context, cl_device_id device,
                                       const char *source,
                                       const char *options) {
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  REQUIRE(error == CL_SUCCESS && program != NULL);
  error = clBuildProgram(program, 1, &device, options, NULL, NULL);
  if (error != CL_SUCCESS) {
    char *log = cl_test_build_log(program, device);
    fprintf(stderr, "build failed (%d):\n%s\n", error, log);
    free(log);
  }
  REQUIRE(error == CL_SUCCESS);
  return program;
}

/* Runs this test again as `self --child argument` (a second process that
 * starts from files the first one wrote); whether it exited 0. */
static inline bool cl_test_run_child(const char *self, const char *argument) {
  fflush(NULL);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    execl(self, self, "--child", argument, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

/* Writes the binary of `program` (built for one device) to `path`, for a
 * child (cl_test_run_child) to load. */
static inline void cl_test_save_binary(cl_program program, const char *path) {
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                    sizeof size, &size, NULL));
  unsigned char *binary = malloc(size);
  REQUIRE(binary);
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary,
                                    &binary, NULL));
  FILE *file = fopen(path, "wb");
  REQUIRE(file && fwrite(binary, 1, size, file) == size);
  fclose(file);
  free(binary);
}

/* The program made from the binary at `path` and built for `device`. */
static inline cl_program cl_test_load_binary(cl_context context,
                                             cl_device_id device,
                                             const char *path) {
  FILE *file = fopen(path, "rb");
  REQUIRE(file);
  REQUIRE(fseek(file, 0, SEEK_END) == 0);
  long length = ftell(file);
  REQUIRE(length > 0 && fseek(file, 0, SEEK_SET) == 0);
  size_t size = (size_t)length;
  unsigned char *binary = malloc(size);
  REQUIRE(binary && fread(binary, 1, size, file) == size);
  fclose(file);
  const unsigned char *pointer = binary;
  cl_int status = CL_SUCCESS, error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &size,
                                                 &pointer, &status, &error);
  free(binary);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(status);
  CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  return program;
}

#endif /* CLMUX_TESTS_CL_TEST_H */

/* clmux: programs through the ICD loader — built-in kernel programs (ready
 * at creation), source programs, foreign binaries (refused),
 * build/compile/link argument rules, info. Compiler paths in depth:
 * program_build.c, program_binary.c. */
#include <stdlib.h>

#include "cl_test.h"

static const char all_builtins[] =
    "copy_buffer;fill_buffer;vector_add;record_ids;local_reduce;empty";

static int notify_calls; /* its address is a stray user_data */

static cl_uint program_refs(cl_program program) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                                    sizeof count, &count, NULL));
  return count;
}

static void test_builtin_creation(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBuiltInKernels(
      context, 1, &device, "vector_add;copy_buffer", &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(program != NULL);

  /* Every name the device lists in CL_DEVICE_BUILT_IN_KERNELS works. */
  char listed[512] = {0};
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS,
                                   sizeof listed, listed, NULL));
  CHECK(strcmp(listed, all_builtins) == 0);
  cl_program all =
      clCreateProgramWithBuiltInKernels(context, 1, &device, listed, &error);
  CHECK_CL_SUCCESS(error);
  size_t num_kernels = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(all, CL_PROGRAM_NUM_KERNELS,
                                    sizeof num_kernels, &num_kernels, NULL));
  CHECK_INT(6, num_kernels);
  char names[256] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(all, CL_PROGRAM_KERNEL_NAMES,
                                    sizeof names, names, &size));
  CHECK(strcmp(names, all_builtins) == 0);
  CHECK_INT(strlen(all_builtins) + 1, size);
  CHECK_CL_SUCCESS(clReleaseProgram(all));

  /* Info queries. */
  CHECK_INT(1, program_refs(program));
  cl_context got_context = NULL;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_CONTEXT,
                                    sizeof got_context, &got_context, &size));
  CHECK(got_context == context);
  CHECK_INT(sizeof(cl_context), size);
  cl_uint num_devices = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES,
                                    sizeof num_devices, &num_devices, NULL));
  CHECK_INT(1, num_devices);
  cl_device_id got_device = NULL;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_DEVICES,
                                    sizeof got_device, &got_device, &size));
  CHECK(got_device == device);
  CHECK_INT(sizeof(cl_device_id), size);
  CHECK_CL_SUCCESS(
      clGetProgramInfo(program, CL_PROGRAM_SOURCE, 0, NULL, &size));
  CHECK_INT(1, size);
  size_t binary_size = 99;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                    sizeof binary_size, &binary_size, &size));
  CHECK_INT(0, binary_size);
  CHECK_INT(sizeof(size_t), size);
  unsigned char *binaries[1] = {NULL};
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES,
                                    sizeof binaries, binaries, &size));
  CHECK_INT(sizeof binaries, size);
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS,
                                    sizeof num_kernels, &num_kernels, &size));
  CHECK_INT(2, num_kernels);
  CHECK_INT(sizeof(size_t), size);
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES,
                                    sizeof names, names, &size));
  CHECK(strcmp(names, "vector_add;copy_buffer") == 0);
  CHECK_CL(CL_INVALID_VALUE,
           clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 3, names, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetProgramInfo(program, CL_PROGRAM_CONTEXT, 1, &got_context,
                            NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetProgramInfo(program, 0x7777, 0, NULL, &size));

  /* Build info: built-in programs are executables from the start. */
  cl_build_status status = CL_BUILD_NONE;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_STATUS,
                                         sizeof status, &status, &size));
  CHECK_INT(CL_BUILD_SUCCESS, status);
  CHECK_INT(sizeof status, size);
  cl_program_binary_type type = 0;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BINARY_TYPE, sizeof type,
                                         &type, NULL));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, type);
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_OPTIONS, 0, NULL,
                                         &size));
  CHECK_INT(1, size);
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                         0, NULL, &size));
  CHECK_INT(1, size);
  CHECK_CL(CL_INVALID_VALUE,
           clGetProgramBuildInfo(program, device, 0x7777, 0, NULL, &size));
  CHECK_CL(CL_INVALID_DEVICE,
           clGetProgramBuildInfo(program, NULL, CL_PROGRAM_BUILD_STATUS,
                                 sizeof status, &status, NULL));
  CHECK_CL(CL_INVALID_DEVICE,
           clGetProgramBuildInfo(program, (cl_device_id)context,
                                 CL_PROGRAM_BUILD_STATUS, sizeof status,
                                 &status, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, 1,
                                 &status, NULL));

  /* 1.2: built-in programs cannot be built; the argument checks come
   * first. */
  CHECK_CL(CL_INVALID_OPERATION,
           clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clBuildProgram(program, 1, NULL, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clBuildProgram(program, 0, &device, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clBuildProgram(program, 0, NULL, NULL, NULL, &notify_calls));
  cl_device_id bad_device = (cl_device_id)program;
  CHECK_CL(CL_INVALID_DEVICE,
           clBuildProgram(program, 1, &bad_device, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_OPERATION,
           clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL,
                            NULL));

  /* Reference counting. */
  CHECK_CL_SUCCESS(clRetainProgram(program));
  CHECK_INT(2, program_refs(program));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_INT(1, program_refs(program));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

static void test_builtin_errors(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  const char *bad_names[] = {"no_such_kernel", "vector_add;nope", "",
                             "vector_add;;copy_buffer", "vector",
                             "vector_add(", ";"};
  for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
    error = CL_SUCCESS;
    CHECK(clCreateProgramWithBuiltInKernels(context, 1, &device, bad_names[i],
                                            &error) == NULL);
    CHECK_CL(CL_INVALID_VALUE, error);
  }
  CHECK(clCreateProgramWithBuiltInKernels(context, 1, &device, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBuiltInKernels(context, 0, &device, "empty",
                                          &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBuiltInKernels(context, 1, NULL, "empty", &error) ==
        NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_device_id bad_device = (cl_device_id)context;
  CHECK(clCreateProgramWithBuiltInKernels(context, 1, &bad_device, "empty",
                                          &error) == NULL);
  CHECK_CL(CL_INVALID_DEVICE, error);
  CHECK(clCreateProgramWithBuiltInKernels((cl_context)device, 1, &device,
                                          "empty", &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  /* Without errcode_ret, too. */
  CHECK(clCreateProgramWithBuiltInKernels(context, 1, &device, "nope", NULL) ==
        NULL);
  /* Spaces around names and a repeated name are accepted. */
  cl_program program = clCreateProgramWithBuiltInKernels(
      context, 1, &device, " empty ; empty", &error);
  CHECK_CL_SUCCESS(error);
  size_t count = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS,
                                    sizeof count, &count, NULL));
  CHECK_INT(1, count);
  CHECK_CL_SUCCESS(clReleaseProgram(program));

  CHECK_CL(CL_INVALID_PROGRAM, clRetainProgram(NULL));
  CHECK_CL(CL_INVALID_PROGRAM, clReleaseProgram(NULL));
  CHECK_CL(CL_INVALID_PROGRAM, clRetainProgram((cl_program)context));
  CHECK_CL(CL_INVALID_PROGRAM,
           clGetProgramInfo((cl_program)context, CL_PROGRAM_NUM_DEVICES, 0,
                            NULL, &count));
  CHECK_CL(CL_INVALID_PROGRAM,
           clGetProgramBuildInfo((cl_program)context, device,
                                 CL_PROGRAM_BUILD_STATUS, 0, NULL, &count));
  CHECK_CL(CL_INVALID_PROGRAM,
           clBuildProgram((cl_program)context, 0, NULL, NULL, NULL, NULL));
}

static void test_source(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  const char *parts[] = {"kernel void k(global int* p)", " { p[0] = 1; }XX",
                         "\n"};
  size_t lengths[] = {0, 14, 1};
  cl_program program =
      clCreateProgramWithSource(context, 3, parts, lengths, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(program != NULL);
  const char expected[] = "kernel void k(global int* p) { p[0] = 1; }\n";
  char source[128] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_SOURCE, sizeof source,
                                    source, &size));
  CHECK(strcmp(source, expected) == 0);
  CHECK_INT(sizeof expected, size);
  cl_uint num_devices = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES,
                                    sizeof num_devices, &num_devices, NULL));
  CHECK_INT(1, num_devices);

  /* Not built: no kernels to list or create. */
  size_t count = 0;
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof count,
                            &count, NULL));
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size));
  cl_build_status status = CL_BUILD_SUCCESS;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_STATUS,
                                         sizeof status, &status, NULL));
  CHECK_INT(CL_BUILD_NONE, status);
  cl_program_binary_type type = 99;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BINARY_TYPE, sizeof type,
                                         &type, NULL));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_NONE, type);
  CHECK(clCreateKernel(program, "k", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);

  /* Build: synchronous without a callback; options and log recorded. */
  CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, "-DX=1 ", NULL, NULL));
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_STATUS,
                                         sizeof status, &status, NULL));
  CHECK_INT(CL_BUILD_SUCCESS, status);
  char text[512] = {0};
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_OPTIONS,
                                         sizeof text, text, &size));
  CHECK(strcmp(text, "-DX=1 ") == 0);
  CHECK_INT(7, size);
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                         sizeof text, text, &size));
  CHECK_INT(strlen(text) + 1, size);
  CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clBuildProgram(program, 0, NULL, NULL, NULL, &error));

  /* Compile: argument rules, then a compiled object. */
  CHECK_CL(CL_INVALID_VALUE,
           clCompileProgram(program, 0, NULL, NULL, 1, NULL, NULL, NULL,
                            NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clCompileProgram(program, 0, NULL, NULL, 0, &program, NULL, NULL,
                            NULL));
  const char *header_name = "h.h";
  cl_program bad_header = (cl_program)context;
  CHECK_CL(CL_INVALID_PROGRAM,
           clCompileProgram(program, 0, NULL, NULL, 1, &bad_header,
                            &header_name, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL,
                            &error));
  CHECK_CL(CL_INVALID_VALUE,
           clCompileProgram(program, 1, NULL, NULL, 0, NULL, NULL, NULL,
                            NULL));
  CHECK_CL_SUCCESS(clCompileProgram(program, 1, &device, "", 0, NULL, NULL,
                                    NULL, NULL));
  CHECK_CL(CL_INVALID_PROGRAM,
           clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));

  /* Link: argument rules, then an executable. */
  cl_program linked =
      clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(linked != NULL);
  if (linked) CHECK_CL_SUCCESS(clReleaseProgram(linked));
  CHECK(clLinkProgram(context, 0, NULL, NULL, 0, &program, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, NULL, NULL, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clLinkProgram(context, 1, NULL, NULL, 1, &program, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &bad_header, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM, error);
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, &error,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clLinkProgram((cl_context)device, 0, NULL, NULL, 1, &program, NULL,
                      NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);

  CHECK_CL_SUCCESS(clUnloadPlatformCompiler(cl_test_platform()));
  CHECK_CL(CL_INVALID_PLATFORM,
           clUnloadPlatformCompiler((cl_platform_id)context));
  CHECK_CL_SUCCESS(clUnloadCompiler());
  CHECK_CL_SUCCESS(clReleaseProgram(program));

  /* Source errors. */
  const char *with_null[] = {"a", NULL};
  CHECK(clCreateProgramWithSource(context, 2, with_null, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithSource(context, 0, parts, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithSource(context, 1, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithSource((cl_context)device, 1, parts, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  /* NULL lengths: every string is NUL-terminated. */
  program = clCreateProgramWithSource(context, 2, parts, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(
      clGetProgramInfo(program, CL_PROGRAM_SOURCE, 0, NULL, &size));
  CHECK_INT(strlen(parts[0]) + strlen(parts[1]) + 1, size);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

static void test_binary(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  const unsigned char bytes[] = "\x7f" "ELF not a clmux binary";
  const unsigned char *binaries[] = {bytes};
  size_t lengths[] = {sizeof bytes};
  cl_int status = CL_SUCCESS;
  CHECK(clCreateProgramWithBinary(context, 1, &device, lengths, binaries,
                                  &status, &error) == NULL);
  CHECK_CL(CL_INVALID_BINARY, error);
  CHECK_CL(CL_INVALID_BINARY, status);
  CHECK(clCreateProgramWithBinary(context, 1, &device, lengths, binaries, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_BINARY, error);

  size_t zero[] = {0};
  status = CL_SUCCESS;
  CHECK(clCreateProgramWithBinary(context, 1, &device, zero, binaries, &status,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK_CL(CL_INVALID_VALUE, status);
  const unsigned char *none[] = {NULL};
  CHECK(clCreateProgramWithBinary(context, 1, &device, lengths, none, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBinary(context, 1, &device, NULL, binaries, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBinary(context, 1, &device, lengths, NULL, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBinary(context, 0, &device, lengths, binaries, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateProgramWithBinary(context, 1, NULL, lengths, binaries, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_device_id bad_device = (cl_device_id)context;
  CHECK(clCreateProgramWithBinary(context, 1, &bad_device, lengths, binaries,
                                  NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_DEVICE, error);
  CHECK(clCreateProgramWithBinary((cl_context)device, 1, &device, lengths,
                                  binaries, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
}

/* A program outlives the user's release while a kernel holds it, and the
 * context while the program holds it. */
static void test_lifetimes(cl_device_id device) {
  cl_context context = cl_test_context(device);
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBuiltInKernels(context, 1, &device, "empty", &error);
  CHECK_CL_SUCCESS(error);
  cl_kernel kernel = clCreateKernel(program, "empty", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  cl_program got = NULL;
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof got, &got,
                                   NULL));
  CHECK(got == program);
  cl_uint count = 99;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                                    sizeof count, &count, NULL));
  CHECK_INT(0, count);
  CHECK_CL(CL_INVALID_PROGRAM, clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  test_builtin_creation(context, device);
  test_builtin_errors(context, device);
  test_source(context, device);
  test_binary(context, device);
  test_lifetimes(device);
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

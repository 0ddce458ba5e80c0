/* cl_khr_suggested_local_work_size through the loader: the suggestion is
 * the local size an enqueue without one runs with (the kernel reports
 * get_local_size), within CL_KERNEL_WORK_GROUP_SIZE, dividing the global
 * size in OpenCL C 1.2, the reqd_work_group_size where a kernel has one;
 * and every error. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

#include <CL/cl_ext.h>

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static clGetKernelSuggestedLocalWorkSizeKHR_fn suggest;

static const char source[] =
    "kernel void sizes(global ulong *out) {\n"
    "  if (get_global_id(0) == 0 && get_global_id(1) == 0 &&\n"
    "      get_global_id(2) == 0) {\n"
    "    for (uint d = 0; d < 3; d++) out[d] = get_local_size(d);\n"
    "  }\n"
    "}\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global ulong *out) {\n"
    "  if (get_global_id(0) == 0 && get_global_id(1) == 0) {\n"
    "    for (uint d = 0; d < 3; d++) out[d] = get_local_size(d);\n"
    "  }\n"
    "}\n";

/* The suggestion for `global` equals what an enqueue without a local size
 * runs with. */
static void check_shape(cl_kernel kernel, cl_mem out, cl_uint dims,
                        const size_t *offset, const size_t *global,
                        bool uniform) {
  size_t suggested[3] = {1, 1, 1};
  CHECK_CL_SUCCESS(suggest(queue, kernel, dims, offset, global, suggested));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dims, offset, global,
                                          NULL, 0, NULL, NULL));
  cl_ulong ran[3] = {0, 0, 0};
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof ran, ran,
                                       0, NULL, NULL));
  size_t limit = 0;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof limit, &limit, NULL));
  size_t items = 1;
  for (cl_uint d = 0; d < 3; d++) {
    CHECK_INT((int)ran[d], (int)suggested[d]);
    if (d < dims && uniform) CHECK_INT(0, (int)(global[d] % suggested[d]));
    items *= suggested[d];
  }
  CHECK(items >= 1 && items <= limit);
}

static void check_kernels(const char *options, bool uniform) {
  cl_program program = cl_test_build(context, device, source, options);
  cl_int error = CL_SUCCESS;
  cl_kernel sizes = clCreateKernel(program, "sizes", &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = cl_test_buffer(context, 3 * sizeof(cl_ulong), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(sizes, 0, sizeof out, &out));
  const size_t shapes[][3] = {{1000, 1, 1}, {37, 1, 1}, {4096, 1, 1},
                              {64, 30, 1},  {7, 5, 1},  {8, 6, 10}};
  const cl_uint dims[] = {1, 1, 1, 2, 2, 3};
  const size_t offset[3] = {3, 2, 1};
  for (int i = 0; i < 6; i++) {
    check_shape(sizes, out, dims[i], NULL, shapes[i], uniform);
    check_shape(sizes, out, dims[i], offset, shapes[i], uniform);
  }
  cl_kernel fixed = clCreateKernel(program, "fixed", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(fixed, 0, sizeof out, &out));
  const size_t global[2] = {16, 8};
  size_t suggested[2] = {0, 0};
  CHECK_CL_SUCCESS(suggest(queue, fixed, 2, NULL, global, suggested));
  CHECK(suggested[0] == 4 && suggested[1] == 2);
  clReleaseKernel(fixed);
  clReleaseMemObject(out);
  clReleaseKernel(sizes);
  clReleaseProgram(program);
}

static void check_errors(void) {
  cl_program program = cl_test_build(context, device, source, "");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "sizes", &error);
  CHECK_CL_SUCCESS(error);
  const size_t global[3] = {64, 1, 1}, zero[1] = {0};
  size_t local[3];
  /* Its argument is not set yet. */
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           suggest(queue, kernel, 1, NULL, global, local));
  cl_mem out = cl_test_buffer(context, 3 * sizeof(cl_ulong), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           suggest(NULL, kernel, 1, NULL, global, local));
  CHECK_CL(CL_INVALID_KERNEL, suggest(queue, NULL, 1, NULL, global, local));
  CHECK_CL(CL_INVALID_VALUE, suggest(queue, kernel, 1, NULL, global, NULL));
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           suggest(queue, kernel, 0, NULL, global, local));
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           suggest(queue, kernel, 4, NULL, global, local));
  CHECK_CL(CL_INVALID_GLOBAL_WORK_SIZE,
           suggest(queue, kernel, 1, NULL, NULL, local));
  CHECK_CL(CL_INVALID_GLOBAL_WORK_SIZE,
           suggest(queue, kernel, 1, NULL, zero, local));
  const size_t huge_offset[1] = {SIZE_MAX - 10};
  CHECK_CL(CL_INVALID_GLOBAL_OFFSET,
           suggest(queue, kernel, 1, huge_offset, global, local));
  /* A queue of another context. */
  cl_context other = cl_test_context(device);
  cl_command_queue elsewhere = cl_test_queue(other, device, 0);
  CHECK_CL(CL_INVALID_CONTEXT,
           suggest(elsewhere, kernel, 1, NULL, global, local));
  clReleaseCommandQueue(elsewhere);
  clReleaseContext(other);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  CHECK(cl_test_has_extension(device, "cl_khr_suggested_local_work_size"));
  suggest = (clGetKernelSuggestedLocalWorkSizeKHR_fn)
      clGetExtensionFunctionAddressForPlatform(
          cl_test_platform(), "clGetKernelSuggestedLocalWorkSizeKHR");
  REQUIRE(suggest);
  check_kernels("", true);
  check_kernels("-cl-std=CL3.0", false);
  check_errors();
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

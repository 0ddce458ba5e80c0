/* The program whose CLMUX_TRACE file trace_check.py reads: two queues (one
 * profiling), a build that works and one that fails, buffer commands, an
 * NDRange of 64 work-groups of uneven cost and one of a size prime to
 * everything, and a forked child that exits (it must not write into the
 * parent's trace). It checks its own results too. */
#include "cl_test.h"

static const char *source =
    "kernel void uneven(global int *data) {\n"
    "  int i = get_global_id(0), sum = 0;\n"
    "  for (int k = 0; k < (i % 97) * 8; k++) sum += k ^ i;\n"
    "  data[i] = sum;\n"
    "}\n"
    "kernel void fill(global int *data, int value) {\n"
    "  data[get_global_id(0)] = value;\n"
    "}\n";

static int expected_uneven(int i) {
  int sum = 0;
  for (int k = 0; k < (i % 97) * 8; k++) sum += k ^ i;
  return sum;
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue first = cl_test_queue(context, device, 0);
  cl_command_queue second =
      cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_program program = cl_test_build(context, device, source, "-DUNUSED=1");

  /* A build that fails is on the timeline too. */
  const char *broken = "kernel void broken(void) { undeclared(); }";
  cl_int error = CL_SUCCESS;
  cl_program failing =
      clCreateProgramWithSource(context, 1, &broken, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(failing, 1, &device, "", NULL, NULL));
  clReleaseProgram(failing);

  enum { items = 4096, odd_items = 1009 };
  static int host[items];
  cl_mem data =
      clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem other = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                odd_items * sizeof(int), NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_kernel uneven = clCreateKernel(program, "uneven", &error);
  CHECK_CL_SUCCESS(error);
  cl_kernel fill = clCreateKernel(program, "fill", &error);
  CHECK_CL_SUCCESS(error);
  int value = 7;
  CHECK_CL_SUCCESS(clSetKernelArg(uneven, 0, sizeof data, &data));
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof other, &other));
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 1, sizeof value, &value));

  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(first, data, CL_FALSE, 0, sizeof host,
                                        host, 0, NULL, NULL));
  const size_t global = items, local = 64, odd_global = odd_items;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(first, uneven, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(first, data, CL_FALSE, 0, sizeof host,
                                       host, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(second, fill, 1, NULL, &odd_global,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(first));
  CHECK_CL_SUCCESS(clFinish(second));
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += host[i] != expected_uneven(i);
  CHECK_INT(0, wrong);
  int filled[odd_items];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(second, other, CL_TRUE, 0, sizeof filled,
                                       filled, 0, NULL, NULL));
  wrong = 0;
  for (int i = 0; i < odd_items; i++) wrong += filled[i] != value;
  CHECK_INT(0, wrong);

  /* A child that exits normally runs the library's exit handlers. */
  fflush(NULL);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) exit(0);
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);

  clReleaseKernel(uneven);
  clReleaseKernel(fill);
  clReleaseMemObject(data);
  clReleaseMemObject(other);
  clReleaseProgram(program);
  clReleaseCommandQueue(first);
  clReleaseCommandQueue(second);
  clReleaseContext(context);
  return check_finish();
}

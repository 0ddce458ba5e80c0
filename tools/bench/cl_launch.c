/* clmux-cl-launch-bench: the cost of one kernel launch through the OpenCL
 * API — clEnqueueNDRangeKernel of an empty kernel followed by clFinish —
 * for every platform the ICD loader finds, in one run, so clmux and another
 * CPU implementation (PoCL) are compared on the same machine state.
 * clmux runs its built-in kernel empty(); a platform without it runs
 * `kernel void empty(void) {}` built from source.
 * Usage: clmux-cl-launch-bench [iterations]   (default 2000) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The empty kernel of `context`: built-in if the device has one. */
static cl_kernel empty_kernel(cl_context context, cl_device_id device) {
  char builtins[4096] = "";
  cl_int error = CL_SUCCESS;
  cl_program program = NULL;
  clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS, sizeof builtins,
                  builtins, NULL);
  if (strstr(builtins, "empty")) {
    program = clCreateProgramWithBuiltInKernels(context, 1, &device, "empty",
                                                &error);
  } else {
    const char *source = "kernel void empty(void) {}";
    program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
    if (error == CL_SUCCESS) {
      error = clBuildProgram(program, 1, &device, "", NULL, NULL);
    }
  }
  if (error != CL_SUCCESS) {
    if (program) clReleaseProgram(program);
    return NULL;
  }
  cl_kernel kernel = clCreateKernel(program, "empty", &error);
  clReleaseProgram(program);
  return error == CL_SUCCESS ? kernel : NULL;
}

static void bench_platform(cl_platform_id platform, int iterations) {
  char name[256] = "?";
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
  cl_device_id device;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL) !=
      CL_SUCCESS) {
    printf("%-12s no CPU device\n", name);
    return;
  }
  cl_int error;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  cl_kernel kernel = empty_kernel(context, device);
  if (!kernel) {
    printf("%-12s could not create an empty kernel\n", name);
  } else {
    const size_t global = 1, local = 1;
    double *samples = malloc(sizeof(double) * (size_t)iterations);
    /* The first launches include one-time costs (PoCL compiles per local
     * size); they are not part of the steady-state figure. */
    for (int i = 0; i < 10; i++) {
      clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
                             NULL);
      clFinish(queue);
    }
    for (int i = 0; i < iterations; i++) {
      double start = now_us();
      clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
                             NULL);
      clFinish(queue);
      samples[i] = now_us() - start;
    }
    qsort(samples, (size_t)iterations, sizeof(double), compare_double);
    printf("%-12s enqueue empty kernel + clFinish: median %8.2f us, p90 "
           "%8.2f us (%d runs)\n",
           name, samples[iterations / 2], samples[iterations * 9 / 10],
           iterations);
    free(samples);
    clReleaseKernel(kernel);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 2000;
  if (iterations < 1) iterations = 1;
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS || count == 0) {
    fprintf(stderr, "clmux-cl-launch-bench: no OpenCL platform found\n");
    return 1;
  }
  for (cl_uint i = 0; i < count && i < 16; i++) {
    bench_platform(platforms[i], iterations);
  }
  return 0;
}

/* clmux-sample-vector-add: a small OpenCL program, linked against the ICD
 * loader like any application, that adds two vectors on the clmux platform
 * with its built-in kernel vector_add and checks the result.
 * Exit status 0 only if every element is right. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT (1u << 20)

static int fail(const char *what, cl_int error) {
  fprintf(stderr, "clmux-sample-vector-add: %s failed (%d)\n", what, error);
  return 1;
}

static cl_platform_id find_clmux(void) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS) return NULL;
  for (cl_uint i = 0; i < count && i < 16; i++) {
    char name[64] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strcmp(name, "clmux") == 0) return platforms[i];
  }
  return NULL;
}

int main(void) {
  cl_platform_id platform = find_clmux();
  if (!platform) return fail("finding the clmux platform", CL_INVALID_PLATFORM);
  cl_device_id device;
  cl_int error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL);
  if (error) return fail("clGetDeviceIDs", error);
  char device_name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name,
                  NULL);

  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  if (error) return fail("clCreateContext", error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  if (error) return fail("clCreateCommandQueue", error);
  cl_program program = clCreateProgramWithBuiltInKernels(context, 1, &device,
                                                         "vector_add", &error);
  if (error) return fail("clCreateProgramWithBuiltInKernels", error);
  cl_kernel kernel = clCreateKernel(program, "vector_add", &error);
  if (error) return fail("clCreateKernel", error);

  float *a = malloc(COUNT * sizeof(float));
  float *b = malloc(COUNT * sizeof(float));
  float *c = malloc(COUNT * sizeof(float));
  for (size_t i = 0; i < COUNT; i++) {
    a[i] = (float)i;
    b[i] = 2.0f * (float)i;
  }
  const size_t bytes = COUNT * sizeof(float);
  cl_mem buffers[3];
  buffers[0] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              bytes, a, &error);
  if (error) return fail("clCreateBuffer", error);
  buffers[1] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              bytes, b, &error);
  if (error) return fail("clCreateBuffer", error);
  buffers[2] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, NULL, &error);
  if (error) return fail("clCreateBuffer", error);
  for (cl_uint i = 0; i < 3; i++) {
    error = clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);
    if (error) return fail("clSetKernelArg", error);
  }
  const size_t global = COUNT;
  error = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                 NULL, NULL);
  if (error) return fail("clEnqueueNDRangeKernel", error);
  error = clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, 0, bytes, c, 0, NULL,
                              NULL);
  if (error) return fail("clEnqueueReadBuffer", error);

  size_t wrong = 0;
  for (size_t i = 0; i < COUNT; i++) {
    if (c[i] != 3.0f * (float)i) wrong++;
  }
  printf("vector_add of %u floats on %s (clmux, through the ICD loader): %s\n",
         COUNT, device_name, wrong ? "WRONG RESULTS" : "results correct");

  for (int i = 0; i < 3; i++) clReleaseMemObject(buffers[i]);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(a);
  free(b);
  free(c);
  return wrong ? 1 : 0;
}

/* clmux-sample-vector-add: a small OpenCL program, linked against the ICD
 * loader like any application, that builds OpenCL C on the clmux platform,
 * adds two vectors with it and checks the result (and, through a __local
 * tile and a barrier, a per-work-group sum). Exit status 0 only if every
 * element is right; a failed build prints its log. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT (1u << 20)
#define GROUP 64

static const char source[] =
    "kernel void vector_add(global const float *a, global const float *b,\n"
    "                       global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void group_sum(global const float *c, global float *sums,\n"
    "                      local float *tile) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tile[l] = c[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    if (l < s) tile[l] += tile[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) sums[get_group_id(0)] = tile[0];\n"
    "}\n";

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
  const char *text = source;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  if (error) return fail("clCreateProgramWithSource", error);
  error = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (error) {
    char log[8192] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                          log, NULL);
    fprintf(stderr, "%s\n", log);
    return fail("clBuildProgram", error);
  }
  cl_kernel kernel = clCreateKernel(program, "vector_add", &error);
  if (error) return fail("clCreateKernel", error);
  cl_kernel sum_kernel = clCreateKernel(program, "group_sum", &error);
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

  const size_t groups = COUNT / GROUP, local = GROUP;
  cl_mem sums = clCreateBuffer(context, CL_MEM_WRITE_ONLY,
                               groups * sizeof(float), NULL, &error);
  if (error) return fail("clCreateBuffer", error);
  error = clSetKernelArg(sum_kernel, 0, sizeof(cl_mem), &buffers[2]);
  error |= clSetKernelArg(sum_kernel, 1, sizeof(cl_mem), &sums);
  error |= clSetKernelArg(sum_kernel, 2, GROUP * sizeof(float), NULL);
  if (error) return fail("clSetKernelArg", error);
  error = clEnqueueNDRangeKernel(queue, sum_kernel, 1, NULL, &global, &local,
                                 0, NULL, NULL);
  if (error) return fail("clEnqueueNDRangeKernel", error);
  float *group_sums = malloc(groups * sizeof(float));
  error = clEnqueueReadBuffer(queue, sums, CL_TRUE, 0, groups * sizeof(float),
                              group_sums, 0, NULL, NULL);
  if (error) return fail("clEnqueueReadBuffer", error);

  size_t wrong = 0;
  for (size_t i = 0; i < COUNT; i++) {
    if (c[i] != 3.0f * (float)i) wrong++;
  }
  for (size_t g = 0; g < groups; g++) {
    /* Sums reach 2^28, beyond float's exact integers: relative check. */
    double first = (double)g * GROUP, expected = 0;
    for (size_t k = 0; k < GROUP; k++) expected += 3.0 * (first + (double)k);
    if (fabs(group_sums[g] - expected) > 1e-6 * expected + 1e-3) wrong++;
  }
  printf("vector_add and group_sum (OpenCL C, __local tile + barriers) of %u "
         "floats on %s (clmux, through the ICD loader): %s\n",
         COUNT, device_name, wrong ? "WRONG RESULTS" : "results correct");

  clReleaseMemObject(sums);
  free(group_sums);
  clReleaseKernel(sum_kernel);
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

/* clmux-cl-replay-bench: what cl_khr_command_buffer saves. For every
 * platform the ICD loader finds that reports the extension, in a child
 * process of its own (no platform's threads slow another's), the same
 * OpenCL C kernel (256 work-items, each adding one to its element) runs 100
 * times in a row, per round:
 *   one by one  100 clEnqueueNDRangeKernel, then clFinish
 *   recorded    the same 100 NDRanges recorded once into a command buffer;
 *               one clEnqueueCommandBufferKHR, then clFinish
 * and reports the median µs per kernel of each over the rounds. Every
 * element is then read back: a platform whose sums are wrong gets no
 * figures. The last lines compare each platform with clmux (a ratio above
 * 1 means clmux is faster).
 *
 * Only the calls whose signature is the same in every draft of the
 * extension are used (create, NDRange, finalize, enqueue, release): PoCL 3
 * implements version 0.9.0, clmux 0.9.8.
 * Usage: clmux-cl-replay-bench [rounds]   (default 200) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "per_platform.h"

enum { kernels = 100, items = 256 };

typedef struct result {
  char name[32];
  int ok;        /* 1: figures valid; 0: failed or wrong; -1: no extension */
  double single; /* µs per kernel, enqueued one by one */
  double replay; /* µs per kernel, replayed from a command buffer */
} result;

#define CHECK(call) BENCH_CHECK(out->name, call)

static void *extension_function(cl_platform_id platform, const char *name) {
  return clGetExtensionFunctionAddressForPlatform(platform, name);
}

static void bench_platform(cl_platform_id platform, int rounds, result *out) {
  out->ok = 0;
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof out->name, out->name,
                    NULL);
  out->name[sizeof out->name - 1] = '\0';
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
  char extensions[4096] = {0};
  CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions - 1,
                        extensions, NULL));
  clCreateCommandBufferKHR_fn create =
      extension_function(platform, "clCreateCommandBufferKHR");
  clCommandNDRangeKernelKHR_fn record =
      extension_function(platform, "clCommandNDRangeKernelKHR");
  clFinalizeCommandBufferKHR_fn finalize =
      extension_function(platform, "clFinalizeCommandBufferKHR");
  clEnqueueCommandBufferKHR_fn enqueue =
      extension_function(platform, "clEnqueueCommandBufferKHR");
  clReleaseCommandBufferKHR_fn release =
      extension_function(platform, "clReleaseCommandBufferKHR");
  if (!strstr(extensions, "cl_khr_command_buffer") || !create || !record ||
      !finalize || !enqueue || !release) {
    out->ok = -1;
    return;
  }
  cl_int error;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  CHECK(error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  CHECK(error);
  const char *source =
      "kernel void add(global int *a) { a[get_global_id(0)] += 1; }";
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK(error);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "add", &error);
  CHECK(error);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, items * sizeof(int),
                               NULL, &error);
  CHECK(error);
  const int zero = 0;
  CHECK(clEnqueueFillBuffer(queue, data, &zero, sizeof zero, 0,
                            items * sizeof(int), 0, NULL, NULL));
  CHECK(clSetKernelArg(kernel, 0, sizeof data, &data));
  const size_t global = items;

  cl_command_buffer_khr commands = create(1, &queue, NULL, &error);
  CHECK(error);
  for (int k = 0; k < kernels; k++) {
    CHECK(record(commands, NULL, NULL, kernel, 1, NULL, &global, NULL, 0, NULL,
                 NULL, NULL));
  }
  CHECK(finalize(commands));

  double *single = malloc(sizeof(double) * (size_t)rounds);
  double *replay = malloc(sizeof(double) * (size_t)rounds);
  if (!single || !replay) return;
  /* One warm-up round of each: first launches compile (PoCL) or
   * specialize (clmux) for the local size. */
  long runs = 0;
  for (int round = -1; round < rounds; round++) {
    double start = bench_now_us();
    for (int k = 0; k < kernels; k++) {
      CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                   NULL, NULL));
    }
    CHECK(clFinish(queue));
    if (round >= 0) single[round] = (bench_now_us() - start) / kernels;
    start = bench_now_us();
    CHECK(enqueue(0, NULL, commands, 0, NULL, NULL));
    CHECK(clFinish(queue));
    if (round >= 0) replay[round] = (bench_now_us() - start) / kernels;
    runs += 2 * kernels;
  }
  int *sums = malloc(items * sizeof(int));
  if (!sums) return;
  CHECK(clEnqueueReadBuffer(queue, data, CL_TRUE, 0, items * sizeof(int), sums,
                            0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += sums[i] != runs;
  if (wrong) {
    fprintf(stderr, "%s: %d of %d sums wrong (first %d, expected %ld)\n",
            out->name, wrong, items, sums[0], runs);
  } else {
    out->single = bench_median(single, rounds);
    out->replay = bench_median(replay, rounds);
    out->ok = 1;
  }
  free(sums);
  free(single);
  free(replay);
  release(commands);
  clReleaseMemObject(data);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

static void bench_one(cl_platform_id platform, void *out, void *rounds) {
  bench_platform(platform, *(int *)rounds, out);
}

static void name_failed(void *out, int index) {
  snprintf(((result *)out)->name, sizeof((result *)out)->name, "platform %d",
           index);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 200;
  if (rounds < 1) rounds = 1;
  result results[bench_max_platforms];
  int found = bench_each_platform(bench_one, &rounds, results, sizeof *results,
                                  name_failed);
  if (found == 0) {
    fprintf(stderr, "clmux-cl-replay-bench: no OpenCL platform found\n");
    return 1;
  }
  const result *clmux = NULL;
  for (int i = 0; i < found; i++) {
    const result *r = &results[i];
    if (r->ok == 1) {
      printf(
          "%-30s %d kernels of %d items: one by one %6.2f us per kernel, "
          "recorded %6.2f us per kernel (%.2fx)\n",
          r->name, kernels, items, r->single, r->replay, r->single / r->replay);
      if (!strcmp(r->name, "clmux")) clmux = r;
    } else {
      printf("%-30s %s\n", r->name,
             r->ok < 0 ? "no cl_khr_command_buffer" : "failed or wrong");
    }
  }
  for (int i = 0; clmux && i < found; i++) {
    const result *r = &results[i];
    if (r == clmux || r->ok != 1) continue;
    printf("clmux vs %-21s one by one %.2fx, recorded %.2fx\n", r->name,
           r->single / clmux->single, r->replay / clmux->replay);
  }
  for (int i = 0; i < found; i++) {
    if (results[i].ok == 0) return 1;
  }
  return 0;
}

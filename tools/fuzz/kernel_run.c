/* The launch a generated case is run with (kernel_run.h). */
#include "kernel_run.h"

#include <stdlib.h>
#include <time.h>

/* The output image: rows of this many pixels, one word per channel. */
enum { OUTPUT_IMAGE_W = 64 };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static size_t output_rows(const kernel_case *c) {
  return (c->global + OUTPUT_IMAGE_W - 1) / OUTPUT_IMAGE_W;
}

int kernel_run(cl_context context, cl_command_queue queue, cl_device_id device,
               uint64_t seed, const kernel_case *c, kernel_run_output *result) {
  uint32_t **words = &result->words, *count = &result->count;
  char **log = &result->log;
  cl_int error = CL_SUCCESS;
  const char *text = c->source;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  if (error != CL_SUCCESS) return KERNEL_FAILED;
  double start = now_ms();
  error = clBuildProgram(program, 1, &device, "", NULL, NULL);
  result->build_ms = now_ms() - start;
  if (error != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                          &size);
    *log = calloc(1, size + 1);
    if (*log) {
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, *log,
                            NULL);
    }
    clReleaseProgram(program);
    return KERNEL_REFUSED;
  }
  cl_kernel kernel = clCreateKernel(program, "fuzz", &error);
  int status = error == CL_SUCCESS ? KERNEL_RAN : KERNEL_FAILED;
  size_t n = c->global, rows = output_rows(c);
  size_t image_words = OUTPUT_IMAGE_W * rows * 4;
  *count = (uint32_t)(n + KERNEL_GEN_COUNTERS + (c->images ? image_words : 0));
  *words = calloc(*count, sizeof **words);
  uint32_t *input = malloc(n * sizeof *input);
  uint32_t picture[KERNEL_GEN_IMAGE_W * KERNEL_GEN_IMAGE_H * 4];
  if (!*words || !input) abort();
  for (size_t i = 0; i < n; i++) input[i] = kernel_gen_input(seed, i);
  for (size_t i = 0; i < KERNEL_GEN_COUNTERS; i++) {
    (*words)[n + i] = kernel_gen_input(seed, 1000000 + i);
  }
  for (size_t i = 0; i < sizeof picture / sizeof *picture; i++) {
    picture[i] = kernel_gen_input(seed, 2000000 + i);
  }
  cl_mem in =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * 4, input, &error);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, NULL, &error);
  cl_mem counters = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,
                                   KERNEL_GEN_COUNTERS * 4, *words + n, &error);
  cl_mem image = NULL, out_image = NULL;
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT32};
  if (c->images) {
    image = clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            &format, KERNEL_GEN_IMAGE_W, KERNEL_GEN_IMAGE_H, 0,
                            picture, &error);
    out_image = clCreateImage2D(
        context, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, &format,
        OUTPUT_IMAGE_W, rows, 0, *words + n + KERNEL_GEN_COUNTERS, &error);
  }
  cl_uint words_n = (cl_uint)n;
  if (status == KERNEL_RAN) {
    error = clSetKernelArg(kernel, 0, sizeof in, &in);
    error |= clSetKernelArg(kernel, 1, sizeof out, &out);
    error |= clSetKernelArg(kernel, 2, sizeof counters, &counters);
    error |= clSetKernelArg(kernel, 3, sizeof words_n, &words_n);
    error |= clSetKernelArg(kernel, 4, sizeof c->k0, &c->k0);
    error |= clSetKernelArg(kernel, 5, sizeof c->k1, &c->k1);
    if (c->images) {
      error |= clSetKernelArg(kernel, 6, sizeof image, &image);
      error |= clSetKernelArg(kernel, 7, sizeof out_image, &out_image);
    }
    size_t global = c->global, local = c->local;
    if (error == CL_SUCCESS) {
      error = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                     local ? &local : NULL, 0, NULL, NULL);
    }
    if (error == CL_SUCCESS) {
      error = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * 4, *words, 0,
                                  NULL, NULL);
    }
    if (error == CL_SUCCESS) {
      error = clEnqueueReadBuffer(queue, counters, CL_TRUE, 0,
                                  KERNEL_GEN_COUNTERS * 4, *words + n, 0, NULL,
                                  NULL);
    }
    if (error == CL_SUCCESS && c->images) {
      size_t origin[3] = {0, 0, 0}, region[3] = {OUTPUT_IMAGE_W, rows, 1};
      error =
          clEnqueueReadImage(queue, out_image, CL_TRUE, origin, region, 0, 0,
                             *words + n + KERNEL_GEN_COUNTERS, 0, NULL, NULL);
    }
    if (error != CL_SUCCESS) status = KERNEL_FAILED;
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(counters);
  if (image) clReleaseMemObject(image);
  if (out_image) clReleaseMemObject(out_image);
  if (kernel) clReleaseKernel(kernel);
  clReleaseProgram(program);
  free(input);
  return status;
}

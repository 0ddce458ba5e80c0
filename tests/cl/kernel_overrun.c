/* clmux OpenCL API tests: kernels written for GPUs, whose global size is
 * rounded up past the buffer's end and who write there unchecked, leave
 * every other buffer and the C heap intact. Each buffer gets a kernel that
 * writes 16 floats (64 bytes, the device heap's padding) past its end;
 * every other buffer must still hold its own pattern, and the process must
 * survive releasing everything and using malloc afterwards (in malloc's
 * heap the overrun lands on its bookkeeping, and free() aborts).
 * A write a page past the end of a large buffer must fault at once, on
 * the guard page after it, and fail its kernel's event. */
#include <stdint.h>

#include "cl_test.h"

static const char source[] =
    "kernel void spill(global float *p, float tag) {\n"
    "  size_t i = get_global_id(0);\n"
    "  p[i] = tag + (float)i;\n" /* no bounds check, as on a GPU */
    "}\n";

#define PAST_END 16 /* floats */

/* Sizes in floats: small blocks of several classes, a block exactly a
 * power of two, and mapped allocations on their own. */
static const size_t sizes[] = {1,    3,    17,    100,   1000,  1008,
                               1024, 4096, 16368, 16384, 100000};
#define COUNT (sizeof sizes / sizeof *sizes)
#define COPIES 3 /* each size several times, so that neighbours share slabs */

static float pattern(size_t buffer, size_t i) {
  return (float)(buffer * 1000003u + i % 4099u);
}

static const char far_source[] =
    "kernel void far(global float *p, uint at) { p[at] = 1.0f; }\n";

/* One write 4 KiB past the end of a 400000-byte buffer, past its padding
 * (to the next page) into the guard page: it faults, and the fault fails
 * the kernel's event (kernel_fault.c tests that in full). */
static void check_far_write_faults(cl_context context, cl_device_id device,
                                   cl_command_queue queue) {
  cl_program program = cl_test_build(context, device, far_source, NULL);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "far", &error);
  REQUIRE(error == CL_SUCCESS);
  const cl_uint floats = 100000;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 floats * sizeof(float), NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_uint at = floats + 1024;
  size_t one = 1;
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof at, &at));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                          NULL, &event));
  clWaitForEvents(1, &event);
  cl_int status = CL_COMPLETE;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL));
  if (status >= 0) fprintf(stderr, "a write into a guard page did not fault\n");
  CHECK(status < 0);
  clReleaseEvent(event);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, NULL);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "spill", &error);
  REQUIRE(error == CL_SUCCESS);

  enum { TOTAL = COUNT * COPIES };
  cl_mem buffers[TOTAL];
  size_t lengths[TOTAL];
  for (size_t b = 0; b < TOTAL; b++) {
    lengths[b] = sizes[b % COUNT];
    float *host = malloc(lengths[b] * sizeof *host);
    REQUIRE(host != NULL);
    for (size_t i = 0; i < lengths[b]; i++) host[i] = pattern(b, i);
    buffers[b] =
        clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       lengths[b] * sizeof *host, host, &error);
    REQUIRE(error == CL_SUCCESS);
    free(host);
  }

  /* Overrun every third buffer (so that its neighbours keep patterns). */
  for (size_t b = 0; b < TOTAL; b += 3) {
    float tag = -(float)(b + 1) * 1e6f;
    size_t global = lengths[b] + PAST_END;
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffers[b]));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof tag, &tag));
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            NULL, 0, NULL, NULL));
  }
  CHECK_CL_SUCCESS(clFinish(queue));

  for (size_t b = 0; b < TOTAL; b++) {
    float *host = malloc(lengths[b] * sizeof *host);
    REQUIRE(host != NULL);
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffers[b], CL_TRUE, 0,
                                         lengths[b] * sizeof *host, host, 0,
                                         NULL, NULL));
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < lengths[b]; i++) {
      float want =
          b % 3 == 0 ? -(float)(b + 1) * 1e6f + (float)i : pattern(b, i);
      if (host[i] != want && !bad++) first = i;
    }
    if (bad) {
      fprintf(stderr, "buffer %zu (%zu floats): %zu wrong, first at %zu\n", b,
              lengths[b], bad, first);
    }
    CHECK(bad == 0);
    free(host);
  }

  for (size_t b = 0; b < TOTAL; b++)
    CHECK_CL_SUCCESS(clReleaseMemObject(buffers[b]));
  /* The C heap still works: a corrupted one aborts in free() here. */
  for (int round = 0; round < 1000; round++) {
    void *blocks[16];
    for (int k = 0; k < 16; k++) blocks[k] = malloc((size_t)(k * 37 + 1) * 8);
    for (int k = 0; k < 16; k++) free(blocks[k]);
  }
  check_far_write_faults(context, device, queue);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

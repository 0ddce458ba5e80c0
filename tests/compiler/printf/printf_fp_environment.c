/* Kernels run with round-to-nearest and denormals kept, whatever the host
 * thread that created the device and dispatches set (flush-to-zero,
 * denormals-are-zero, round toward zero), and the host gets its MXCSR
 * back: the built-in vector_add and a compiled kernel, in one work-group
 * (may run on the dispatching side) and in many (over the workers). */
#include <float.h>
#include <math.h>
#include <xmmintrin.h>

#include "printf_test.h"

enum { count = 1024 };
#define HOST_MXCSR (0x1f80u | 0x8000u | 0x0040u | 0x6000u) /* FTZ DAZ RZ */
#define CONTROL_BITS (~0x3fu) /* all but the sticky exception flags */

static const char source[] =
    "kernel void multiply(global const float *a, global const float *b,\n"
    "                     global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] * b[i];\n"
    "}\n";

static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Operands whose sums and products are often subnormal, or need rounding;
 * the expected results are computed here, before the host changes MXCSR. */
static void make_inputs(float *a, float *b, float *sum, float *product) {
  uint32_t state = 12345;
  for (int i = 0; i < count; i++) {
    switch (i % 4) {
      case 0: /* subnormal inputs (DAZ would read them as 0) */
        a[i] = ldexpf((float)(next_random(&state) % 4096 + 1), -149);
        b[i] = ldexpf((float)(next_random(&state) % 64), -146);
        break;
      case 1: /* normal inputs, subnormal results (FTZ would flush) */
        a[i] = FLT_MIN * (1.0f + (float)(next_random(&state) % 100) / 64.0f);
        b[i] = -FLT_MIN * 0.5f;
        break;
      default: /* results that round (toward zero would differ) */
        a[i] = 1.0f + (float)next_random(&state) / 16777216.0f;
        b[i] = 1.0f / (3.0f + (float)(next_random(&state) % 7));
        break;
    }
    sum[i] = a[i] + b[i];
    product[i] = a[i] * b[i];
  }
}

static int differences(const float *expected, const float *actual) {
  return memcmp(expected, actual, count * sizeof *actual) != 0;
}

/* Runs on the queue's executor thread, which ran work-groups itself just
 * before: its MXCSR must be what it inherited. */
static void read_executor_mxcsr(mux_queue_t queue_unused,
                                mux_command_buffer_t buffer_unused,
                                void *const user_data) {
  (void)queue_unused;
  (void)buffer_unused;
  *(unsigned *)user_data = _mm_getcsr();
}

/* The NDRange, then a callback command in the same command buffer. */
static mux_result_t run_and_read_mxcsr(mux_kernel_t kernel,
                                       mux_descriptor_info_t *args,
                                       size_t local, unsigned *mxcsr) {
  size_t global = count, offset = 0;
  mux_ndrange_options_t options;
  memset(&options, 0, sizeof options);
  options.descriptors = args;
  options.descriptors_length = 3;
  options.local_size[0] = local;
  options.local_size[1] = options.local_size[2] = 1;
  options.global_size = &global;
  options.global_offset = &offset;
  options.length = 1;
  mux_command_buffer_t commands = NULL;
  mux_result_t result =
      muxCreateCommandBuffer(device, NULL, mux_test_allocator, &commands);
  if (result != mux_success) return result;
  result = muxCommandNDRange(commands, kernel, options, 0, NULL, NULL);
  if (result == mux_success) {
    result = muxCommandUserCallback(commands, read_executor_mxcsr, mxcsr, 0,
                                    NULL, NULL);
  }
  if (result == mux_success) result = muxFinalizeCommandBuffer(commands);
  if (result == mux_success) {
    result = mux_test_dispatch_and_wait(device, queue, commands);
  }
  muxDestroyCommandBuffer(device, commands, mux_test_allocator);
  return result;
}

static void run_kernel(mux_kernel_t kernel, host_buffer buffers[3],
                       const float *expected, size_t local) {
  static float c[count];
  memset(c, 0, sizeof c);
  host_buffer_write(&buffers[2], c);
  mux_descriptor_info_t args[3] = {buffer_arg(&buffers[0]),
                                   buffer_arg(&buffers[1]),
                                   buffer_arg(&buffers[2])};
  unsigned executor_mxcsr = 0;
  CHECK_SUCCESS(run_and_read_mxcsr(kernel, args, local, &executor_mxcsr));
  CHECK_INT(HOST_MXCSR, executor_mxcsr & CONTROL_BITS);
  host_buffer_read(&buffers[2], c);
  CHECK_INT(0, differences(expected, c));
  CHECK_INT(HOST_MXCSR, _mm_getcsr() & CONTROL_BITS);
}

int main(void) {
  static float a[count], b[count], sum[count], product[count];
  make_inputs(a, b, sum, product);
  /* The expectations must really depend on the environment. */
  unsigned original = _mm_getcsr();
  _mm_setcsr(HOST_MXCSR);
  volatile float tiny = FLT_MIN, half = 0.5f;
  CHECK(tiny * half == 0.0f);
  _mm_setcsr(original);
  CHECK(tiny * half != 0.0f);

  /* Set before the device exists, so its workers inherit it too. */
  _mm_setcsr(HOST_MXCSR);
  printf_test_start();
  host_buffer buffers[3] = {host_buffer_create(a, sizeof a),
                            host_buffer_create(b, sizeof b),
                            host_buffer_create(NULL, sizeof sum)};

  mux_kernel_t add = NULL;
  REQUIRE(muxCreateBuiltInKernel(device, "vector_add", 10, mux_test_allocator,
                                 &add) == mux_success);
  run_kernel(add, buffers, sum, count); /* one group */
  run_kernel(add, buffers, sum, 16);    /* 64 groups */
  muxDestroyKernel(device, add, mux_test_allocator);

  mux_executable_t executable = build_source(source, "multiply");
  if (executable) {
    mux_kernel_t multiply = create_kernel(executable, "multiply");
    run_kernel(multiply, buffers, product, count);
    run_kernel(multiply, buffers, product, 16);
    muxDestroyKernel(device, multiply, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  for (int i = 0; i < 3; i++) host_buffer_destroy(&buffers[i]);
  CHECK_INT(HOST_MXCSR, _mm_getcsr() & CONTROL_BITS);
  _mm_setcsr(original);
  return printf_test_finish();
}

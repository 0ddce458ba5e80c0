/* clmux compiler tests — the builtin library: compile OpenCL C with the
 * real front-end, link the builtin library, build work-group functions for
 * one local size, load them into the CPU target and run them through Mux.
 * Also ulp measurement and input generation for the math tests.
 *
 *   bt_start();
 *   mux_executable_t exe = bt_build(source, names, count, local, NULL);
 *   bt_buffer in = bt_buffer_create(data, bytes), out = ...;
 *   mux_descriptor_info_t args[] = {bt_buffer_arg(&in), bt_buffer_arg(&out)};
 *   bt_run(exe, "name", args, 2, global, local);
 *   bt_buffer_read(&out, result);
 *   ...
 *   return bt_finish();
 */
#ifndef CLMUX_TESTS_BUILTINS_TEST_H
#define CLMUX_TESTS_BUILTINS_TEST_H

#include <float.h>
#include <llvm-c/IRReader.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "builtins.h"
#include "codegen.h"
#include "frontend.h"
#include "mux_test.h"

static mux_device_t bt_device;
static mux_queue_t bt_queue;
static cc_target *bt_target;
static LLVMContextRef bt_context;

static inline void bt_start(void) {
  bt_device = mux_test_create_device();
  bt_queue = mux_test_queue(bt_device);
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&bt_target, &log) == cc_success);
  bt_context = LLVMContextCreate();
}

static inline int bt_compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Whether `values` (n entries, sorted here) are exactly first, first+1,
 * ...: the old values of atomic updates, none lost or seen twice. */
static inline int bt_is_sequence(int *values, size_t n, int first) {
  qsort(values, n, sizeof *values, bt_compare_ints);
  for (size_t i = 0; i < n; i++) {
    if (values[i] != first + (int)i) return 0;
  }
  return 1;
}

static inline int bt_finish(void) {
  LLVMContextDispose(bt_context);
  cc_target_destroy(bt_target);
  muxDestroyDevice(bt_device, mux_test_allocator);
  return mux_test_finish();
}

/* The program's module with the builtin library linked in; the caller
 * disposes of it. Exits if the source does not compile. */
static inline LLVMModuleRef bt_compile(const char *source,
                                       const char *options) {
  LLVMModuleRef module = NULL;
  char *text = NULL;
  cc_frontend_result result = cc_compile_opencl_c(
      bt_context, source, strlen(source), options, NULL, 0, &module, &text);
  if (result != CC_FRONTEND_SUCCESS) {
    fprintf(stderr, "compile failed (%d):\n%s\n", (int)result,
            text ? text : "");
    exit(1);
  }
  free(text);
  cc_log log = {""};
  cc_status status = cc_builtins_link(module, &log);
  if (status != cc_success) {
    fprintf(stderr, "cc_builtins_link: %s\n", log.text);
    exit(1);
  }
  return module;
}

/* A module from LLVM IR text (kernels written in IR, e.g. for doubles the
 * front-end does not enable yet) with the builtin library linked in. */
static inline LLVMModuleRef bt_parse_ir(const char *text) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      text, strlen(text), "kernels.ll");
  LLVMModuleRef module = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(bt_context, buffer, &module, &error)) {
    fprintf(stderr, "IR: %s\n", error);
    exit(1);
  }
  cc_log log = {""};
  if (cc_builtins_link(module, &log) != cc_success) {
    fprintf(stderr, "cc_builtins_link: %s\n", log.text);
    exit(1);
  }
  return module;
}

/* An executable of `count` `requests` of `module` (disposed of), or NULL
 * after a failed check. If `optimized` is not NULL it receives the
 * optimized module (the caller disposes of it). */
static inline mux_executable_t bt_build_requests(
    LLVMModuleRef module, const cc_kernel_request *requests, uint32_t count,
    LLVMModuleRef *optimized) {
  uint8_t *binary = NULL;
  size_t size = 0;
  cc_log log = {""};
  cc_status status = cc_codegen_build(bt_target, module, requests, count,
                                      &binary, &size, optimized, &log);
  LLVMDisposeModule(module);
  CHECK_INT(cc_success, status);
  if (status != cc_success) {
    fprintf(stderr, "cc_codegen_build: %s\n", log.text);
    return NULL;
  }
  mux_executable_t executable = NULL;
  mux_result_t result = muxCreateExecutable(bt_device, binary, size,
                                            mux_test_allocator, &executable);
  free(binary);
  CHECK_SUCCESS(result);
  return result == mux_success ? executable : NULL;
}

/* An executable of kernels `names` of `module` (disposed of) specialized
 * for local size (local_x, 1, 1) (0: any), as bt_build_requests. */
static inline mux_executable_t bt_build_module(LLVMModuleRef module,
                                               const char *const *names,
                                               uint32_t count, uint32_t local_x,
                                               LLVMModuleRef *optimized) {
  cc_kernel_request *requests = calloc(count, sizeof *requests);
  REQUIRE(requests);
  for (uint32_t i = 0; i < count; i++) {
    requests[i].name = names[i];
    requests[i].local_size[0] = local_x;
    requests[i].local_size[1] = local_x ? 1 : 0;
    requests[i].local_size[2] = local_x ? 1 : 0;
  }
  mux_executable_t executable =
      bt_build_requests(module, requests, count, optimized);
  free(requests);
  return executable;
}

/* The same from OpenCL C source. */
static inline mux_executable_t bt_build(const char *source,
                                        const char *const *names,
                                        uint32_t count, uint32_t local_x,
                                        LLVMModuleRef *optimized) {
  return bt_build_module(bt_compile(source, NULL), names, count, local_x,
                         optimized);
}

static inline void bt_executable_destroy(mux_executable_t executable) {
  if (executable) {
    muxDestroyExecutable(bt_device, executable, mux_test_allocator);
  }
}

/* ---- Kernel source built piece by piece ------------------------------- */

static char bt_source[1 << 20];
static size_t bt_source_length; /* set to 0 to start a new source */

static inline void bt_emit(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
static inline void bt_emit(const char *format, ...) {
  va_list args;
  va_start(args, format);
  bt_source_length +=
      (size_t)vsnprintf(bt_source + bt_source_length,
                        sizeof bt_source - bt_source_length, format, args);
  va_end(args);
  REQUIRE(bt_source_length < sizeof bt_source);
}

/* ---- Buffers and arguments ---------------------------------------------- */

typedef struct bt_buffer {
  mux_buffer_t buffer;
  mux_memory_t memory;
  size_t size;
} bt_buffer;

static inline void bt_buffer_write(const bt_buffer *b, const void *data) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(bt_device, b->memory, 0, b->size, &mapped) ==
          mux_success);
  if (data) {
    memcpy(mapped, data, b->size);
  } else {
    memset(mapped, 0, b->size);
  }
  REQUIRE(muxUnmapMemory(bt_device, b->memory) == mux_success);
}

/* A device buffer of `size` bytes holding `data` (zeros if NULL). */
static inline bt_buffer bt_buffer_create(const void *data, size_t size) {
  bt_buffer b = {NULL, NULL, size};
  b.buffer = mux_test_buffer(bt_device, size, &b.memory);
  bt_buffer_write(&b, data);
  return b;
}

static inline void bt_buffer_read(const bt_buffer *b, void *data) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(bt_device, b->memory, 0, b->size, &mapped) ==
          mux_success);
  memcpy(data, mapped, b->size);
  REQUIRE(muxUnmapMemory(bt_device, b->memory) == mux_success);
}

static inline void bt_buffer_destroy(bt_buffer *b) {
  muxDestroyBuffer(bt_device, b->buffer, mux_test_allocator);
  muxFreeMemory(bt_device, b->memory, mux_test_allocator);
}

static inline mux_descriptor_info_t bt_buffer_arg(const bt_buffer *b) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_buffer;
  descriptor.buffer_descriptor.buffer = b->buffer;
  return descriptor;
}

static inline mux_descriptor_info_t bt_value_arg(const void *data,
                                                 size_t size) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_plain_old_data;
  descriptor.plain_old_data_descriptor.data = data;
  descriptor.plain_old_data_descriptor.length = size;
  return descriptor;
}

/* Runs kernel `name` over a 1-D range and waits; checks it succeeded. */
static inline void bt_run(mux_executable_t executable, const char *name,
                          mux_descriptor_info_t *args, uint64_t count,
                          size_t global, size_t local) {
  if (!executable) return;
  mux_kernel_t kernel = NULL;
  mux_result_t result = muxCreateKernel(
      bt_device, executable, name, strlen(name), mux_test_allocator, &kernel);
  CHECK_SUCCESS(result);
  if (result != mux_success) return;
  size_t offset = 0;
  size_t locals[3] = {local, 1, 1};
  CHECK_SUCCESS(mux_test_run_ndrange(bt_device, bt_queue, kernel, args, count,
                                     1, &global, &offset, locals));
  muxDestroyKernel(bt_device, kernel, mux_test_allocator);
}

/* ---- Accuracy ------------------------------------------------------------ */

/* The error of float `got` against the exact `reference`, in ulps of the
 * reference as the CTS measures them (the ulp of a float near it; the
 * smallest subnormal step below FLT_MIN). NaN against NaN and equal
 * infinities are 0; any other mismatch in kind is INFINITY. */
static inline double bt_ulp_error(float got, double reference) {
  if (isnan(reference)) return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got)) return INFINITY;
  if (isinf(reference)) {
    return (isinf(got) && !signbit(got) == !signbit(reference)) ? 0.0
                                                                : INFINITY;
  }
  double value = got;
  if (isinf(got)) {
    /* Right for a reference past FLT_MAX's rounding limit; else, as in
     * the CTS, an early overflow (half_powr's exp2 of 128) counts as
     * 2^128, the next float if the range went on. */
    if (!signbit(got) != !signbit(reference)) return INFINITY;
    if (fabs(reference) >= (double)FLT_MAX * (1.0 + ldexp(1.0, -24))) {
      return 0.0;
    }
    value = copysign(ldexp(1.0, 128), reference);
  }
  double magnitude = fabs(reference);
  int exponent = magnitude < FLT_MIN ? -126 : ilogb(magnitude);
  if (magnitude >= FLT_MAX) exponent = 127;
  double ulp = ldexp(1.0, exponent - 23);
  return fabs(value - reference) / ulp;
}

/* Same bits, or both NaN: for results that must be exact, signs of
 * zero included. */
static inline int bt_same_float(float a, float b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  uint32_t x, y;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  return x == y;
}

/* ---- Inputs -------------------------------------------------------------- */

/* Floats that break math functions: zeros, infinities, NaN, subnormals,
 * the extremes, values near 1, integers and halves. */
static const float bt_special_floats[] = {
    0.0f,
    -0.0f,
    INFINITY,
    -INFINITY,
    NAN,
    1.0f,
    -1.0f,
    0.5f,
    -0.5f,
    2.0f,
    -2.0f,
    1.5f,
    -1.5f,
    3.0f,
    -3.0f,
    0.25f,
    10.0f,
    -10.0f,
    100.0f,
    -100.0f,
    FLT_MIN,
    -FLT_MIN,
    FLT_MAX,
    -FLT_MAX,
    1e-45f,
    -1e-45f,
    1e-40f,
    -1e-40f,
    FLT_EPSILON,
    1.0f + FLT_EPSILON,
    1.0f - FLT_EPSILON / 2,
    0.1f,
    -0.1f,
    3.14159265f,
    -3.14159265f,
    1.57079633f,
    88.7f,
    -87.3f,
    89.0f,
    -104.0f,
    1e10f,
    -1e10f,
    1e30f,
    1e-30f,
    0.75f,
    7.5f,
    1e-7f,
    123456.7f,
    -0.75f,
    4194304.5f,
    8388608.0f,
    16777216.0f,
    -8388607.5f,
    1e20f,
};
#define BT_SPECIAL_COUNT (sizeof bt_special_floats / sizeof *bt_special_floats)

static inline uint32_t bt_random(uint32_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

/* `count` floats: the special ones first, then random bit patterns
 * (every exponent) mixed with random values in [-range, range]. */
static inline void bt_fill_floats(float *out, size_t count, float range,
                                  uint32_t seed) {
  uint32_t state = seed ? seed : 1;
  for (size_t i = 0; i < count; i++) {
    if (i < BT_SPECIAL_COUNT) {
      out[i] = bt_special_floats[i];
    } else if (i % 2) {
      uint32_t bits = bt_random(&state);
      memcpy(&out[i], &bits, 4);
    } else {
      out[i] =
          range * (2.0f * (float)(bt_random(&state) >> 8) / 16777216.0f - 1.0f);
    }
  }
}

#endif /* CLMUX_TESTS_BUILTINS_TEST_H */

/* The work-group collective functions of OpenCL C 3.0 through the loader:
 * reduce, inclusive and exclusive scan (add, min, max) and broadcast of
 * every type, any and all, in 1D, 2D and 3D groups of 1 to 1024
 * work-items (every type in two shapes, int in all), called in a loop (barriers
 * inside) and by work-items that diverged before; each compared with a host
 * reference that combines in local linear id order, so float and double sums
 * must match exactly. */
#define CL_TARGET_OPENCL_VERSION 300
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

/* Per work-item: 9 reduce/scan results, the broadcast, and the loop's
 * sum of three reductions. */
enum { RESULTS = 11 };

#define KERNEL(T)                                                          \
  "kernel void f_" #T "(global const " #T " *in, global " #T               \
  " *out,\n"                                                               \
  "                     global int *preds, uint tx, uint ty, uint tz) {\n" \
  "  size_t g = get_global_linear_id();\n"                                 \
  "  " #T                                                                  \
  " x = in[g];\n"                                                          \
  "  if (x > (" #T ")3) x = x - (" #T                                      \
  ")1; /* diverge, then rejoin */\n"                                       \
  "  global " #T                                                           \
  " *o = out + 11 * g; /* RESULTS */\n"                                    \
  "  o[0] = work_group_reduce_add(x);\n"                                   \
  "  o[1] = work_group_reduce_min(x);\n"                                   \
  "  o[2] = work_group_reduce_max(x);\n"                                   \
  "  o[3] = work_group_scan_inclusive_add(x);\n"                           \
  "  o[4] = work_group_scan_inclusive_min(x);\n"                           \
  "  o[5] = work_group_scan_inclusive_max(x);\n"                           \
  "  o[6] = work_group_scan_exclusive_add(x);\n"                           \
  "  o[7] = work_group_scan_exclusive_min(x);\n"                           \
  "  o[8] = work_group_scan_exclusive_max(x);\n"                           \
  "  uint dims = get_work_dim();\n"                                        \
  "  o[9] = dims == 1 ? work_group_broadcast(x, tx)\n"                     \
  "       : dims == 2 ? work_group_broadcast(x, tx, ty)\n"                 \
  "                   : work_group_broadcast(x, tx, ty, tz);\n"            \
  "  " #T                                                                  \
  " sum = 0;\n"                                                            \
  "  for (int r = 0; r < 3; r++) sum += work_group_reduce_add(x);\n"       \
  "  o[10] = sum;\n"                                                       \
  "  preds[2 * g] = work_group_any((int)x % 7 == 0);\n"                    \
  "  preds[2 * g + 1] = work_group_all((int)x % 7 != 0);\n"                \
  "}\n"

static const char source[] = KERNEL(int) KERNEL(uint) KERNEL(long) KERNEL(ulong)
    KERNEL(float) KERNEL(double);

typedef struct shape {
  cl_uint dims;
  size_t global[3], local[3];
  cl_uint target[3]; /* the broadcasting work-item's local id */
  bool every_type;   /* else int only: each shape and type is a build */
} shape;

static const shape shapes[] = {
    {1, {13 * 5, 1, 1}, {13, 1, 1}, {12, 0, 0}, true},
    {3, {8, 6, 4}, {4, 3, 2}, {1, 2, 1}, true},
    {1, {64, 1, 1}, {1, 1, 1}, {0, 0, 0}, false},
    {1, {2048, 1, 1}, {1024, 1, 1}, {777, 0, 0}, false},
    {2, {16, 12, 1}, {8, 4, 1}, {5, 3, 0}, false},
};

/* The input of work-item g: values with repeats, negatives for the
 * signed types, some multiples of 7 in some groups only. */
static double input_value(size_t g, bool is_signed) {
  long v = (long)((g * 2654435761u) % 1000);
  if (is_signed && g % 3 == 0) v = -v;
  if (g >= 64 && g < 128) v = v * 7;    /* every value a multiple of 7 */
  if (g % 13 == 5) v = 1 + 7 * (long)g; /* never a multiple of 7 */
  return (double)v;
}

/* One type's check: T the C type, LOW and HIGH the identities of max and
 * min, SIGNED whether inputs may be negative. */
#define CHECKER(T, LOW, HIGH, SIGNED)                                          \
  static int check_##T(const shape *s) {                                       \
    size_t n = s->global[0] * s->global[1] * s->global[2];                     \
    size_t group = s->local[0] * s->local[1] * s->local[2];                    \
    T *in = malloc(n * sizeof *in), *out = malloc(n * RESULTS * sizeof *out);  \
    int *preds = malloc(2 * n * sizeof *preds);                                \
    REQUIRE(in &&out &&preds);                                                 \
    for (size_t g = 0; g < n; g++) in[g] = (T)input_value(g, SIGNED);          \
    cl_int error = CL_SUCCESS;                                                 \
    cl_mem in_buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,           \
                                      n * sizeof *in, in, &error);             \
    cl_mem out_buffer =                                                        \
        cl_test_buffer(context, n * RESULTS * sizeof *out, NULL);              \
    cl_mem pred_buffer = cl_test_buffer(context, 2 * n * sizeof *preds, NULL); \
    cl_kernel kernel = clCreateKernel(program, "f_" #T, &error);               \
    REQUIRE(error == CL_SUCCESS);                                              \
    clSetKernelArg(kernel, 0, sizeof in_buffer, &in_buffer);                   \
    clSetKernelArg(kernel, 1, sizeof out_buffer, &out_buffer);                 \
    clSetKernelArg(kernel, 2, sizeof pred_buffer, &pred_buffer);               \
    for (int d = 0; d < 3; d++)                                                \
      clSetKernelArg(kernel, 3 + d, sizeof(cl_uint), &s->target[d]);           \
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(                                   \
        queue, kernel, s->dims, NULL, s->global, s->local, 0, NULL, NULL));    \
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0,        \
                                         n *RESULTS * sizeof *out, out, 0,     \
                                         NULL, NULL));                         \
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, pred_buffer, CL_TRUE, 0,       \
                                         2 * n * sizeof *preds, preds, 0,      \
                                         NULL, NULL));                         \
    /* The work-items of each group in local linear id order. */               \
    size_t *members = malloc(group * sizeof *members);                         \
    T *x = malloc(group * sizeof *x);                                          \
    REQUIRE(members &&x);                                                      \
    int bad = 0;                                                               \
    size_t groups[3];                                                          \
    for (int d = 0; d < 3; d++) groups[d] = s->global[d] / s->local[d];        \
    for (size_t gz = 0; gz < groups[2]; gz++)                                  \
      for (size_t gy = 0; gy < groups[1]; gy++)                                \
        for (size_t gx = 0; gx < groups[0]; gx++) {                            \
          size_t m = 0;                                                        \
          for (size_t lz = 0; lz < s->local[2]; lz++)                          \
            for (size_t ly = 0; ly < s->local[1]; ly++)                        \
              for (size_t lx = 0; lx < s->local[0]; lx++) {                    \
                size_t X = gx * s->local[0] + lx, Y = gy * s->local[1] + ly,   \
                       Z = gz * s->local[2] + lz;                              \
                members[m] = (Z * s->global[1] + Y) * s->global[0] + X;        \
                T v = in[members[m]];                                          \
                x[m++] = v > (T)3 ? v - (T)1 : v;                              \
              }                                                                \
          T sum = 0, lo = HIGH, hi = LOW;                                      \
          for (size_t i = 0; i < group; i++) {                                 \
            sum += x[i];                                                       \
            if (x[i] < lo) lo = x[i];                                          \
            if (x[i] > hi) hi = x[i];                                          \
          }                                                                    \
          size_t target =                                                      \
              s->target[0] +                                                   \
              s->local[0] * (s->target[1] + s->local[1] * s->target[2]);       \
          bool any = false, all = true;                                        \
          for (size_t i = 0; i < group; i++) {                                 \
            any |= (int)x[i] % 7 == 0;                                         \
            all &= (int)x[i] % 7 != 0;                                         \
          }                                                                    \
          T run_sum = 0, run_lo = HIGH, run_hi = LOW;                          \
          for (size_t i = 0; i < group; i++) {                                 \
            const T *o = out + RESULTS * members[i];                           \
            T excl_sum = run_sum, excl_lo = run_lo, excl_hi = run_hi;          \
            run_sum += x[i];                                                   \
            if (x[i] < run_lo) run_lo = x[i];                                  \
            if (x[i] > run_hi) run_hi = x[i];                                  \
            T loop_sum = 0;                                                    \
            for (int r = 0; r < 3; r++) loop_sum += sum;                       \
            const T want[RESULTS] = {sum,     lo,        hi,       run_sum,    \
                                     run_lo,  run_hi,    excl_sum, excl_lo,    \
                                     excl_hi, x[target], loop_sum};            \
            for (int k = 0; k < RESULTS; k++) bad += o[k] != want[k];          \
            bad += preds[2 * members[i]] != (int)any;                          \
            bad += preds[2 * members[i] + 1] != (int)all;                      \
          }                                                                    \
        }                                                                      \
    free(x);                                                                   \
    free(members);                                                             \
    clReleaseKernel(kernel);                                                   \
    clReleaseMemObject(pred_buffer);                                           \
    clReleaseMemObject(out_buffer);                                            \
    clReleaseMemObject(in_buffer);                                             \
    free(preds);                                                               \
    free(out);                                                                 \
    free(in);                                                                  \
    return bad;                                                                \
  }

typedef unsigned int uint;
typedef unsigned long ulong;
CHECKER(int, INT_MIN, INT_MAX, true)
CHECKER(uint, 0, UINT_MAX, false)
CHECKER(long, LONG_MIN, LONG_MAX, true)
CHECKER(ulong, 0, ULONG_MAX, false)
CHECKER(float, -INFINITY, INFINITY, true)
CHECKER(double, -INFINITY, INFINITY, true)

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_bool supported = CL_FALSE;
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                      sizeof supported, &supported, NULL));
  CHECK(supported == CL_TRUE);
  program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    const shape *s = &shapes[i];
    int bad = check_int(s);
    if (s->every_type) {
      bad += check_uint(s) + check_long(s) + check_ulong(s) + check_float(s) +
             check_double(s);
    }
    if (bad) fprintf(stderr, "shape %zu: %d wrong\n", i, bad);
    CHECK_INT(0, bad);
  }
  /* Without -cl-std=CL3.0 the functions are not declared (OpenCL C 1.2). */
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program old = clCreateProgramWithSource(context, 1, &text, NULL, &error);
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(old, 1, &device, "", NULL, NULL));
  clReleaseProgram(old);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

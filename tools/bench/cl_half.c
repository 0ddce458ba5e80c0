/* clmux-cl-kernel-bench rows for half precision (cl_khr_fp16): the same
 * kernels on half and on float, so that their ratio shows what half costs
 * or saves:
 *   - exp(x)*sin(x) over 16M values in [-10, 10) (compute: transcendental
 *     calls; halves are computed through float);
 *   - a*x + y over 16M values (memory: half moves half the bytes).
 * The half results are checked against the host's double computed from
 * the same half inputs, within OpenCL C's half limits (2 ulp and the
 * rounding of the product). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_kernel.h"

typedef _Float16 half;

static const char exp_sin_half_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void exp_sin_half(global const half *x, global half *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = exp(x[i]) * sin(x[i]);\n"
    "}\n";

static const char axpy_half_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void axpy_half(global const half *x, global const half *y,\n"
    "                      global half *out, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = (half)a * x[i] + y[i];\n"
    "}\n";

static const char axpy_float_source[] =
    "kernel void axpy_float(global const float *x, global const float *y,\n"
    "                       global float *out, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a * x[i] + y[i];\n"
    "}\n";

typedef struct half_inputs {
  const half *x, *y;
  const float *fx, *fy;
} half_inputs;

static bool check_exp_sin_half(const bench *b, void *const *outputs) {
  const half_inputs *s = b->state;
  const half *y = outputs[1];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    double x = (double)s->x[i], e = exp(x), want = e * sin(x);
    /* exp and sin 2 half ulp each, the product's rounding: 3e-3 of e^x. */
    if (fabs((double)y[i] - want) > 3e-3 * e && !bad++) {
      first = i;
      want_first = want;
    }
  }
  return report_mismatches("y", bad, first, (double)y[first], want_first);
}

/* a*x rounded to half, then the sum rounded (or contracted: within one
 * half rounding either way). */
static bool check_axpy_half(const bench *b, void *const *outputs) {
  const half_inputs *s = b->state;
  const half *y = outputs[2];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    double want =
        (double)(half)((double)(half)0.75 * (double)s->x[i]) + (double)s->y[i];
    if (fabs((double)y[i] - want) > 2e-3 * (fabs(want) + 1e-3) && !bad++) {
      first = i;
      want_first = want;
    }
  }
  return report_mismatches("y", bad, first, (double)y[first], want_first);
}

static bool check_axpy_float(const bench *b, void *const *outputs) {
  const half_inputs *s = b->state;
  const float *y = outputs[2];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    double want = 0.75 * s->fx[i] + s->fy[i];
    if (fabs(y[i] - want) > 1e-6 * (fabs(want) + 1.0) && !bad++) {
      first = i;
      want_first = want;
    }
  }
  return report_mismatches("y", bad, first, y[first], want_first);
}

void run_half_benches(size_t divisor) {
  size_t n = ((size_t)16 << 20) / divisor;
  float *fx = random_floats(n, -10.0f, 10.0f);
  float *fy = random_floats(n, -10.0f, 10.0f);
  half *x = bench_malloc(n * sizeof *x), *y = bench_malloc(n * sizeof *y);
  for (size_t i = 0; i < n; i++) {
    x[i] = (half)fx[i];
    y[i] = (half)fy[i];
  }
  half_inputs inputs = {x, y, fx, fy};
  char label[128];
  snprintf(label, sizeof label, "exp(x)*sin(x) on half (%s halves)",
           count_label(n));
  bench b = {"exp_sin_half",
             label,
             exp_sin_half_source,
             1,
             {n, 1},
             {0, 0},
             {{ARG_IN, x, n * 2, 0, 0}, {ARG_OUT, NULL, n * 2, 0, 0}},
             2,
             4.0 * (double)n,
             "GB/s",
             check_exp_sin_half,
             &inputs,
             NULL};
  run_everywhere(&b);

  snprintf(label, sizeof label, "a*x + y on half (%s halves)", count_label(n));
  b = (bench){"axpy_half",
              label,
              axpy_half_source,
              1,
              {n, 1},
              {0, 0},
              {{ARG_IN, x, n * 2, 0, 0},
               {ARG_IN, y, n * 2, 0, 0},
               {ARG_OUT, NULL, n * 2, 0, 0},
               {ARG_FLOAT, NULL, 0, 0.75f, 0}},
              4,
              6.0 * (double)n,
              "GB/s",
              check_axpy_half,
              &inputs,
              NULL};
  run_everywhere(&b);
  snprintf(label, sizeof label, "a*x + y on float (%s floats)", count_label(n));
  b = (bench){"axpy_float",
              label,
              axpy_float_source,
              1,
              {n, 1},
              {0, 0},
              {{ARG_IN, fx, n * 4, 0, 0},
               {ARG_IN, fy, n * 4, 0, 0},
               {ARG_OUT, NULL, n * 4, 0, 0},
               {ARG_FLOAT, NULL, 0, 0.75f, 0}},
              4,
              12.0 * (double)n,
              "GB/s",
              check_axpy_float,
              &inputs,
              NULL};
  run_everywhere(&b);
  free(fx);
  free(fy);
  free(x);
  free(y);
}

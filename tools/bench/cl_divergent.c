/* clmux-cl-kernel-bench rows for kernels whose work-items go their own way
 * (loops whose trip count differs per item, branches on the item's id) and
 * for arithmetic that is the whole of the work, each result checked in
 * full against a host reference:
 *   - an escape-time fractal (Mandelbrot): 2048x2048 pixels, up to 256
 *     iterations, FP_CONTRACT OFF on both sides so that the iteration
 *     counts must be the host's exactly; 8 flops per iteration counted;
 *   - a grid-stride reduction over 16M floats by 16384 items, then a tree
 *     in __local memory, one partial sum per work-group (groups of 256, and
 *     the local size left to the platform), every partial checked against
 *     the host's sums in the same order; bytes read counted;
 *   - dependent mad chains: 8 per item, 1024 steps each, as float, float16,
 *     uint and uint16 (x*a + b), and one per item as float (clpeak's
 *     compute kernels: each step waits for the last); 2 operations per
 *     step and component;
 *   - convert_uchar4_sat(float4) over 4M items, NaN, infinities and
 *     out-of-range values among them; bytes read and written counted.
 * The host references are compiled without contraction (-ffp-contract=off
 * for this executable, tools/meson.build). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_kernel.h"

/* ---- Escape-time fractal ------------------------------------------------ */

/* Without contraction every operation rounds as the host's does, so the
 * iteration counts are exact. */
static const char mandelbrot_source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void mandelbrot(global int *count, float x0, float y0,\n"
    "                       float step, int max) {\n"
    "  int px = get_global_id(0), py = get_global_id(1);\n"
    "  float cx = x0 + (float)px * step, cy = y0 + (float)py * step;\n"
    "  float x = 0.0f, y = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < max && x * x + y * y <= 4.0f) {\n"
    "    float t = x * x - y * y + cx;\n"
    "    y = 2.0f * x * y + cy;\n"
    "    x = t;\n"
    "    i++;\n"
    "  }\n"
    "  count[py * (int)get_global_size(0) + px] = i;\n"
    "}\n";

/* The kernel's loop, operation for operation. */
static int escape_time(float cx, float cy, int max) {
  float x = 0.0f, y = 0.0f;
  int i = 0;
  while (i < max && x * x + y * y <= 4.0f) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    i++;
  }
  return i;
}

typedef struct fractal {
  int *count; /* the host's, row by row */
  int side;
} fractal;

static bool check_mandelbrot(const bench *b, void *const *outputs) {
  const fractal *s = b->state;
  const int *count = outputs[0];
  size_t bad = 0, first = 0, pixels = (size_t)s->side * (size_t)s->side;
  for (size_t i = 0; i < pixels; i++) {
    if (count[i] != s->count[i] && !bad++) first = i;
  }
  return report_mismatches("count", bad, first, count[first], s->count[first]);
}

static void run_mandelbrot(size_t divisor) {
  const int side = 2048 / (int)(divisor < 16 ? divisor : 16), max = 256;
  char label[128];
  snprintf(label, sizeof label,
           "mandelbrot %dx%d, up to %d iterations, FP_CONTRACT OFF", side, side,
           max);
  if (!selected(label)) return;
  /* x in [-2.25, 0.75), y in [-1.5, 1.5): the whole set. */
  const float x0 = -2.25f, y0 = -1.5f, step = 3.0f / (float)side;
  fractal f = {bench_malloc((size_t)side * (size_t)side * sizeof(int)), side};
  double iterations = 0;
  for (int py = 0; py < side; py++) {
    for (int px = 0; px < side; px++) {
      int i = escape_time(x0 + (float)px * step, y0 + (float)py * step, max);
      f.count[(size_t)py * (size_t)side + (size_t)px] = i;
      iterations += i;
    }
  }
  bench b = {"mandelbrot",
             label,
             mandelbrot_source,
             2,
             {(size_t)side, (size_t)side},
             {0, 0},
             {{ARG_OUT, NULL, (size_t)side * (size_t)side * sizeof(int), 0, 0},
              {ARG_FLOAT, NULL, 0, x0, 0},
              {ARG_FLOAT, NULL, 0, y0, 0},
              {ARG_FLOAT, NULL, 0, step, 0},
              {ARG_INT, NULL, 0, 0, max}},
             5,
             /* x*x, y*y, their sum; the difference, + cx; 2*x, *y, + cy */
             8.0 * iterations,
             "GFLOP/s",
             check_mandelbrot,
             &f,
             NULL};
  run_everywhere(&b);
  free(f.count);
}

/* ---- Grid-stride reduction ---------------------------------------------- */

/* Any local size up to SCRATCH (halving with the odd one carried); item 0
 * says which the platform took, -1 for one above SCRATCH. */
static const char reduce_strided_source[] =
    "#ifndef SCRATCH\n"
    "#define SCRATCH 4096\n"
    "#endif\n"
    "kernel void reduce_strided(global const float *in,\n"
    "                           global float *partial,\n"
    "                           global int *group_size, int n) {\n"
    "  local float scratch[SCRATCH];\n"
    "  size_t lid = get_local_id(0), size = get_local_size(0);\n"
    "  if (size > SCRATCH) {\n"
    "    if (get_global_id(0) == 0) *group_size = -1;\n"
    "    return;\n"
    "  }\n"
    "  float acc = 0.0f;\n"
    "  for (size_t i = get_global_id(0); i < (size_t)n;\n"
    "       i += get_global_size(0)) {\n"
    "    acc += in[i];\n"
    "  }\n"
    "  scratch[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = size; s > 1;) {\n"
    "    size_t upper = (s + 1) / 2;\n"
    "    if (lid + upper < s) scratch[lid] += scratch[lid + upper];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    s = upper;\n"
    "  }\n"
    "  if (lid == 0) partial[get_group_id(0)] = scratch[0];\n"
    "  if (get_global_id(0) == 0) *group_size = (int)size;\n"
    "}\n";

typedef struct strided {
  const float *in;
  size_t n;
  float *scratch; /* the host's tree, one group at a time */
} strided;

/* Every work-group's partial sum against the host's, summed in the same
 * order (each item's elements in turn, then the same tree): the same
 * float roundings, so any tolerance only covers a platform's freedom
 * that this kernel does not give it; 1e-6 of the group's sum still
 * catches one element in [0,1) of the 256K missing or counted twice,
 * unless it is below 0.13. */
static bool check_reduce_strided(const bench *b, void *const *outputs) {
  const strided *s = b->state;
  const float *partial = outputs[1];
  int size = *(const int *)outputs[2];
  size_t items = b->global[0];
  if (size <= 0 || items % (size_t)size) {
    printf("    local size %d: not run as asked\n", size);
    return false;
  }
  if (!b->local[0]) printf("    the platform took work-groups of %d\n", size);
  size_t groups = items / (size_t)size, bad = 0, first = 0;
  double want_first = 0;
  for (size_t g = 0; g < groups; g++) {
    double magnitude = 0;
    for (size_t lid = 0; lid < (size_t)size; lid++) {
      float acc = 0.0f;
      for (size_t i = g * (size_t)size + lid; i < s->n; i += items) {
        acc += s->in[i];
        magnitude += fabs(s->in[i]);
      }
      s->scratch[lid] = acc;
    }
    for (size_t left = (size_t)size; left > 1;) {
      size_t upper = (left + 1) / 2;
      for (size_t lid = 0; lid + upper < left; lid++) {
        s->scratch[lid] += s->scratch[lid + upper];
      }
      left = upper;
    }
    if (fabs(partial[g] - s->scratch[0]) > 1e-6 * magnitude && !bad++) {
      first = g;
      want_first = s->scratch[0];
    }
  }
  return report_mismatches("partial", bad, first, partial[first], want_first);
}

static void run_reduce_strided(size_t divisor) {
  const size_t n = ((size_t)16 << 20) / divisor, items = 16384;
  /* Groups of 256 (scratch to fit), and the platform's choice. */
  const struct {
    size_t local;
    const char *kind, *options;
  } rows[] = {{256, "in groups of 256", "-DSCRATCH=256"},
              {0, "local size NULL", NULL}};
  strided s = {NULL, n, bench_malloc(4096 * sizeof(float))};
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    char label[128];
    snprintf(label, sizeof label,
             "reduce, grid-stride (%s floats), %zu items %s", count_label(n),
             items, rows[r].kind);
    if (!selected(label)) continue;
    if (!s.in) s.in = random_floats(n, 0.0f, 1.0f);
    bench b = {"reduce_strided",
               label,
               reduce_strided_source,
               1,
               {items, 1},
               {rows[r].local, 0},
               {{ARG_IN, s.in, n * sizeof(float), 0, 0},
                {ARG_OUT, NULL, items * sizeof(float), 0, 0},
                {ARG_OUT, NULL, sizeof(cl_int), 0, 0},
                {ARG_INT, NULL, 0, 0, (cl_int)n}},
               4,
               4.0 * (double)n,
               "GB/s",
               check_reduce_strided,
               &s,
               rows[r].options};
    run_everywhere(&b);
  }
  free((float *)s.in);
  free(s.scratch);
}

/* ---- Dependent mad chains ----------------------------------------------- */

/* One body for every type: 8 independent chains per item (or 1, as
 * clpeak's compute kernels have), STEP-ed 1024 times. Chain k of component
 * c of item i starts from a value of the scalar index i*LANES + c, so the
 * scalar and vector rows compute the same numbers and share the host's
 * reference. */
static const char mad_body[] =
    "kernel void mad_chains(global T *out, S a, S b) {\n"
    "  size_t gid = get_global_id(0);\n"
    "  T index = (T)((S)(gid * LANES)) + LANE_IDS;\n"
    "#if CHAINS == 1\n"
    "  T x0 = INIT(0);\n"
    "  for (int k = 0; k < 1024; k++) x0 = STEP(x0);\n"
    "  out[gid] = x0;\n"
    "#else\n"
    "  T x0 = INIT(0), x1 = INIT(1), x2 = INIT(2), x3 = INIT(3);\n"
    "  T x4 = INIT(4), x5 = INIT(5), x6 = INIT(6), x7 = INIT(7);\n"
    "  for (int k = 0; k < 1024; k++) {\n"
    "    x0 = STEP(x0); x1 = STEP(x1); x2 = STEP(x2); x3 = STEP(x3);\n"
    "    x4 = STEP(x4); x5 = STEP(x5); x6 = STEP(x6); x7 = STEP(x7);\n"
    "  }\n"
    "  out[gid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));\n"
    "#endif\n"
    "}\n";

#define MAD_CHAINS 8
#define MAD_STEPS 1024
/* float: x converges to b/(1 - a) = 0.5 from [2, 4.75) slowly enough that
 * one step more or less moves the result by 6e-4 of it or more. */
static const float mad_a = 0.9990234375f, mad_b = 0.00048828125f;
static const cl_uint mad_ua = 1664525u, mad_ub = 1013904223u;

static const char float_prelude[] =
    "#define S float\n"
    "#define INIT(k) (index * 0x1p-18f + (2.0f + 0.25f * (k)))\n"
    "#define STEP(x) mad(x, a, b)\n";
static const char uint_prelude[] =
    "#define S uint\n"
    "#define INIT(k) (index * 8u + (k))\n"
    "#define STEP(x) (x * a + b)\n";

typedef struct chains {
  double *want;   /* float rows: the sum of the chains in double */
  cl_uint *exact; /* uint rows: the sum, wrapping as the device does */
  size_t items;   /* scalar items */
} chains;

/* The `chains` of items [0, items) (MAD_CHAINS, or 1 for the one-chain
 * rows) in double, a block of items at a time so
 * that the compiler vectorizes across them. */
static double *float_chain_sums(size_t items, int chains) {
  enum { block = 256 };
  double *sum = bench_malloc(items * sizeof *sum);
  const double a = mad_a, b = mad_b;
  for (size_t start = 0; start < items; start += block) {
    size_t count = items - start < block ? items - start : block;
    double x[MAD_CHAINS][block];
    for (int k = 0; k < chains; k++) {
      for (size_t i = 0; i < count; i++) {
        /* exact in float: the device's starting value */
        x[k][i] = (double)(start + i) * 0x1p-18 + (2.0 + 0.25 * k);
      }
    }
    for (int step = 0; step < MAD_STEPS; step++) {
      for (int k = 0; k < chains; k++) {
        for (size_t i = 0; i < count; i++) x[k][i] = x[k][i] * a + b;
      }
    }
    for (size_t i = 0; i < count; i++) {
      double total = 0;
      for (int k = 0; k < chains; k++) total += x[k][i];
      sum[start + i] = total;
    }
  }
  return sum;
}

static cl_uint *uint_chain_sums(size_t items, int chains) {
  enum { block = 256 };
  cl_uint *sum = bench_malloc(items * sizeof *sum);
  for (size_t start = 0; start < items; start += block) {
    size_t count = items - start < block ? items - start : block;
    cl_uint x[MAD_CHAINS][block];
    for (int k = 0; k < chains; k++) {
      for (size_t i = 0; i < count; i++) {
        x[k][i] = (cl_uint)(start + i) * 8u + (cl_uint)k;
      }
    }
    for (int step = 0; step < MAD_STEPS; step++) {
      for (int k = 0; k < chains; k++) {
        for (size_t i = 0; i < count; i++) x[k][i] = x[k][i] * mad_ua + mad_ub;
      }
    }
    for (size_t i = 0; i < count; i++) {
      sum[start + i] = chains == 1
                           ? x[0][i]
                           : ((x[0][i] + x[1][i]) + (x[2][i] + x[3][i])) +
                                 ((x[4][i] + x[5][i]) + (x[6][i] + x[7][i]));
    }
  }
  return sum;
}

/* mad may or may not round between the multiply and the add: within 1e-4
 * of the exact value (float's drift, fused or not, stays below 1.1e-6 of
 * it on the host; a step more or less moves the sum by 6e-4 or more). */
static bool check_mad_float(const bench *b, void *const *outputs) {
  const chains *s = b->state;
  const float *out = outputs[0];
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < s->items; i++) {
    if (!(fabs(out[i] - s->want[i]) <= 1e-4 * s->want[i]) && !bad++) first = i;
  }
  return report_mismatches("out", bad, first, out[first], s->want[first]);
}

static bool check_mad_uint(const bench *b, void *const *outputs) {
  const chains *s = b->state;
  const cl_uint *out = outputs[0];
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < s->items; i++) {
    if (out[i] != s->exact[i] && !bad++) first = i;
  }
  return report_mismatches("out", bad, first, out[first], s->exact[first]);
}

static void run_mad_chains(size_t divisor) {
  const size_t items = ((size_t)256 << 10) / divisor; /* scalar items */
  const struct {
    const char *type, *prelude, *lane_ids;
    size_t lanes;
    bool is_float;
    int chains;
  } rows[] = {
      {"float", float_prelude, "0.0f", 1, true, MAD_CHAINS},
      {"float16", float_prelude,
       "(float16)(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, "
       "9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f)",
       16, true, MAD_CHAINS},
      {"uint", uint_prelude, "0u", 1, false, MAD_CHAINS},
      {"uint16", uint_prelude,
       "(uint16)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, "
       "13u, 14u, 15u)",
       16, false, MAD_CHAINS},
      {"float", float_prelude, "0.0f", 1, true, 1},
  };
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    int n = rows[r].chains;
    char label[128];
    snprintf(label, sizeof label,
             "mad chains, %s%s, %d x 1024 steps per item (%s items)%s",
             rows[r].type, rows[r].is_float ? "" : " x*a+b", n,
             count_label(items / rows[r].lanes),
             n == 1 ? ", one chain as clpeak" : "");
    if (!selected(label)) continue;
    chains s = {NULL, NULL, items};
    if (rows[r].is_float) s.want = float_chain_sums(items, n);
    if (!rows[r].is_float) s.exact = uint_chain_sums(items, n);
    char *source = NULL;
    if (asprintf(&source,
                 "#define T %s\n#define LANES %zu\n#define LANE_IDS %s\n"
                 "#define CHAINS %d\n%s%s",
                 rows[r].type, rows[r].lanes, rows[r].lane_ids, n,
                 rows[r].prelude, mad_body) < 0) {
      exit(1);
    }
    cl_int a = 0, b_int = 0;
    memcpy(&a, &mad_ua, sizeof a);
    memcpy(&b_int, &mad_ub, sizeof b_int);
    bench b = {"mad_chains",
               label,
               source,
               1,
               {items / rows[r].lanes, 1},
               {0, 0},
               {{ARG_OUT, NULL, items * 4, 0, 0},
                rows[r].is_float ? (arg){ARG_FLOAT, NULL, 0, mad_a, 0}
                                 : (arg){ARG_INT, NULL, 0, 0, a},
                rows[r].is_float ? (arg){ARG_FLOAT, NULL, 0, mad_b, 0}
                                 : (arg){ARG_INT, NULL, 0, 0, b_int}},
               3,
               2.0 * n * MAD_STEPS * (double)items,
               rows[r].is_float ? "GFLOP/s" : "GOP/s",
               rows[r].is_float ? check_mad_float : check_mad_uint,
               &s,
               NULL};
    run_everywhere(&b);
    free(source);
    free(s.want);
    free(s.exact);
  }
}

/* ---- convert_uchar4_sat ------------------------------------------------- */

static const char convert_sat_source[] =
    "kernel void convert_sat(global const float4 *in, global uchar4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = convert_uchar4_sat(in[i]);\n"
    "}\n";

/* The default rounding of a conversion to an integer type: toward zero;
 * saturated, with NaN to 0. */
static unsigned char uchar_sat(float x) {
  if (isnan(x) || x <= 0.0f) return 0;
  if (x >= 255.0f) return 255;
  return (unsigned char)x;
}

static bool check_convert_sat(const bench *b, void *const *outputs) {
  const float *in = b->state;
  const unsigned char *out = outputs[1];
  size_t bad = 0, first = 0, count = 4 * b->global[0];
  for (size_t i = 0; i < count; i++) {
    if (out[i] != uchar_sat(in[i]) && !bad++) first = i;
  }
  return report_mismatches("out", bad, first, out[first], uchar_sat(in[first]));
}

static void run_convert_sat(size_t divisor) {
  const size_t items = ((size_t)4 << 20) / divisor;
  char label[128];
  snprintf(label, sizeof label, "convert_uchar4_sat(float4) (%s items)",
           count_label(items));
  if (!selected(label)) return;
  /* Both sides of the range, and among them the edge cases. */
  float *in = random_floats(4 * items, -64.0f, 320.0f);
  const float special[] = {NAN,    INFINITY, -INFINITY, -0.0f,  0.5f,
                           0.999f, -0.999f,  254.999f,  255.0f, 255.5f,
                           256.0f, 1e30f,    -1e30f,    127.5f};
  const size_t specials = sizeof special / sizeof *special;
  for (size_t i = 0; i < 4 * items; i += 997) in[i] = special[i % specials];
  bench b = {"convert_sat",
             label,
             convert_sat_source,
             1,
             {items, 1},
             {0, 0},
             {{ARG_IN, in, items * 16, 0, 0}, {ARG_OUT, NULL, items * 4, 0, 0}},
             2,
             20.0 * (double)items,
             "GB/s",
             check_convert_sat,
             in,
             NULL};
  run_everywhere(&b);
  free(in);
}

void run_divergent_benches(size_t divisor) {
  run_mandelbrot(divisor);
  run_reduce_strided(divisor);
  run_mad_chains(divisor);
  run_convert_sat(divisor);
}

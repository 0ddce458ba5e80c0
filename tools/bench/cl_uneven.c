/* clmux-cl-kernel-bench rows whose work-groups take unequal time, for how
 * the threads share them (-w, -s), each result checked in full against a
 * host reference:
 *   - Collatz: a data-dependent integer loop, the steps from each of 1M
 *     numbers down to 1 (3 operations counted per step);
 *   - CSR SpMV: one row per work-item, 256K rows of 1 to 128 nonzeros
 *     (a few rows 16 times longer), FP_CONTRACT OFF on both sides so that
 *     the sums are exact; bytes read counted;
 *   - work growing with the work-item's id: item i runs i/16 steps of an
 *     integer hash (64K items), so the last groups cost the most: the
 *     worst order for threads that take equal chunks in turn (2
 *     operations counted per step). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_kernel.h"

/* ---- Collatz ------------------------------------------------------------ */

static const char collatz_source[] =
    "kernel void collatz(global uint *steps, uint first) {\n"
    "  ulong n = (ulong)first + get_global_id(0);\n"
    "  uint s = 0;\n"
    "  while (n != 1) {\n"
    "    n = (n & 1) ? 3 * n + 1 : n >> 1;\n"
    "    s++;\n"
    "  }\n"
    "  steps[get_global_id(0)] = s;\n"
    "}\n";

static uint32_t collatz_steps(uint64_t n) {
  uint32_t s = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    s++;
  }
  return s;
}

typedef struct uint_result {
  uint32_t *want;
  size_t count;
} uint_result;

static bool check_uints(const bench *b, void *const *outputs) {
  const uint_result *r = b->state;
  const uint32_t *got = outputs[0];
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < r->count; i++) {
    if (got[i] != r->want[i] && !bad++) first = i;
  }
  return report_mismatches("out", bad, first, got[first], r->want[first]);
}

static void run_collatz(size_t divisor) {
  const size_t n = ((size_t)1 << 20) / divisor;
  char label[128];
  snprintf(label, sizeof label, "collatz steps of 1..%zu (integer loop)", n);
  if (!selected(label)) return;
  uint_result r = {bench_malloc(n * sizeof(uint32_t)), n};
  double steps = 0;
  for (size_t i = 0; i < n; i++) {
    r.want[i] = collatz_steps(1 + (uint64_t)i);
    steps += r.want[i];
  }
  bench b = {
      "collatz",
      label,
      collatz_source,
      1,
      {n, 0},
      {0, 0},
      {{ARG_OUT, NULL, n * sizeof(uint32_t), 0, 0}, {ARG_INT, NULL, 0, 0, 1}},
      2,
      3.0 * steps, /* the test, then a shift or a multiply-add */
      "GOP/s",
      check_uints,
      &r,
      NULL};
  run_everywhere(&b);
  free(r.want);
}

/* ---- CSR SpMV ----------------------------------------------------------- */

static const char spmv_source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void spmv_csr(global const uint *row_start,\n"
    "                     global const uint *column,\n"
    "                     global const float *value,\n"
    "                     global const float *x, global float *y) {\n"
    "  size_t row = get_global_id(0);\n"
    "  float sum = 0.0f;\n"
    "  for (uint k = row_start[row]; k < row_start[row + 1]; k++)\n"
    "    sum += value[k] * x[column[k]];\n"
    "  y[row] = sum;\n"
    "}\n";

typedef struct sparse {
  uint32_t *row_start, *column;
  float *value, *x, *y;
  size_t rows;
} sparse;

static bool check_spmv(const bench *b, void *const *outputs) {
  const sparse *m = b->state;
  const float *y = outputs[4]; /* indexed by argument */
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < m->rows; i++) {
    if (y[i] != m->y[i] && !bad++) first = i;
  }
  return report_mismatches("y", bad, first, y[first], m->y[first]);
}

/* A small generator of its own: the rows must not depend on libc. */
static uint32_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  return (uint32_t)(*state >> 33);
}

static void run_spmv(size_t divisor) {
  const size_t rows = ((size_t)1 << 18) / divisor;
  char label[128];
  snprintf(label, sizeof label,
           "spmv CSR, %zu rows of 1-128 nonzeros (some 16x), one per item",
           rows);
  if (!selected(label)) return;
  sparse m = {bench_malloc((rows + 1) * sizeof(uint32_t)),
              NULL,
              NULL,
              random_floats(rows, -1.0f, 1.0f),
              bench_malloc(rows * sizeof(float)),
              rows};
  uint64_t state = 42;
  m.row_start[0] = 0;
  for (size_t r = 0; r < rows; r++) {
    uint32_t length = 1 + next_random(&state) % 128;
    if (next_random(&state) % 64 == 0) length *= 16;
    m.row_start[r + 1] = m.row_start[r] + length;
  }
  size_t nonzeros = m.row_start[rows];
  m.column = bench_malloc(nonzeros * sizeof(uint32_t));
  m.value = random_floats(nonzeros, -1.0f, 1.0f);
  for (size_t k = 0; k < nonzeros; k++) {
    m.column[k] = next_random(&state) % (uint32_t)rows;
  }
  for (size_t r = 0; r < rows; r++) {
    float sum = 0.0f;
    for (uint32_t k = m.row_start[r]; k < m.row_start[r + 1]; k++) {
      sum += m.value[k] * m.x[m.column[k]];
    }
    m.y[r] = sum;
  }
  bench b = {"spmv_csr",
             label,
             spmv_source,
             1,
             {rows, 0},
             {0, 0},
             {{ARG_IN, m.row_start, (rows + 1) * sizeof(uint32_t), 0, 0},
              {ARG_IN, m.column, nonzeros * sizeof(uint32_t), 0, 0},
              {ARG_IN, m.value, nonzeros * sizeof(float), 0, 0},
              {ARG_IN, m.x, rows * sizeof(float), 0, 0},
              {ARG_OUT, NULL, rows * sizeof(float), 0, 0}},
             5,
             /* column, value and x per nonzero; row start and y per row */
             12.0 * (double)nonzeros + 12.0 * (double)rows,
             "GB/s",
             check_spmv,
             &m,
             NULL};
  run_everywhere(&b);
  free(m.row_start);
  free(m.column);
  free(m.value);
  free(m.x);
  free(m.y);
}

/* ---- Work growing with the id ------------------------------------------- */

static const char growing_source[] =
    "kernel void growing(global uint *out, uint per_step) {\n"
    "  uint i = get_global_id(0), h = i;\n"
    "  for (uint s = 0; s < i / per_step; s++) h = h * 1664525u + "
    "1013904223u;\n"
    "  out[i] = h;\n"
    "}\n";

static void run_growing(size_t divisor) {
  const size_t n = ((size_t)1 << 16) / divisor;
  const uint32_t per_step = 16;
  char label[128];
  snprintf(label, sizeof label,
           "work growing with the id: item i runs i/%u hash steps (%zu items)",
           per_step, n);
  if (!selected(label)) return;
  uint_result r = {bench_malloc(n * sizeof(uint32_t)), n};
  double steps = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t h = (uint32_t)i;
    for (uint32_t s = 0; s < (uint32_t)i / per_step; s++) {
      h = h * 1664525u + 1013904223u;
    }
    r.want[i] = h;
    steps += (double)(i / per_step);
  }
  bench b = {"growing",
             label,
             growing_source,
             1,
             {n, 0},
             {0, 0},
             {{ARG_OUT, NULL, n * sizeof(uint32_t), 0, 0},
              {ARG_INT, NULL, 0, 0, (cl_int)per_step}},
             2,
             2.0 * steps,
             "GOP/s",
             check_uints,
             &r,
             NULL};
  run_everywhere(&b);
  free(r.want);
}

void run_uneven_benches(size_t divisor) {
  run_collatz(divisor);
  run_spmv(divisor);
  run_growing(divisor);
}

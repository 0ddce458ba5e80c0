/* clmux: kernels whose work-items take different paths (the whole-function
 * vectorizer's work), run through the loader at local sizes 1, 3, 7, 16,
 * 17, 64, 256 and NULL, with item counts that are multiples of none, each
 * checked against a host reference: loops with lane-dependent trip counts,
 * break and continue, early returns, divergent loops in divergent loops
 * and ifs, a switch, private arrays, an int8 indexed by data, structs of
 * floats and an int, float4
 * and double, math builtins,
 * atomics and printf in divergent code, and a barrier in the uniform part
 * of a divergent kernel. */
#include <math.h>
#include <unistd.h>

#include "cl_test.h"

static const char source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void escape(global int *out, int width, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  float cx = -2.0f + 3.0f * (float)(g % width) / (float)width;\n"
    "  float cy = -1.5f + 3.0f * (float)(g / width) / (float)width;\n"
    "  float x = 0.0f, y = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < 200 && x * x + y * y <= 4.0f) {\n"
    "    float t = x * x - y * y + cx;\n"
    "    y = 2.0f * x * y + cy;\n"
    "    x = t;\n"
    "    i++;\n"
    "  }\n"
    "  out[g] = i;\n"
    "}\n"
    "kernel void collatz(global const uint *in, global uint *out, uint n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  uint x = in[g], steps = 0;\n"
    "  while (1) {\n"
    "    if (x == 1) break;\n"
    "    if (steps > 300) break;\n"
    "    if (x & 1) { x = 3 * x + 1; steps++; continue; }\n"
    "    x >>= 1;\n"
    "    steps++;\n"
    "  }\n"
    "  out[g] = steps * 1000 + (x & 7);\n"
    "}\n"
    "kernel void nested(global const int *in, global int *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  int acc = 0;\n"
    "  if (v % 3 == 0) {\n"
    "    for (int i = 0; i < (v & 15); i++) {\n"
    "      for (int j = 0; j <= i; j++) {\n"
    "        if (((i + j) & 3) == 3) continue;\n"
    "        acc += i ^ j;\n"
    "        if (acc > 200) break;\n"
    "      }\n"
    "      if (acc > 300) { out[g] = -acc; return; }\n"
    "    }\n"
    "  } else if (v % 3 == 1) {\n"
    "    acc = v * 2;\n"
    "  } else {\n"
    "    while (v > 10) v /= 3;\n"
    "    acc = v;\n"
    "  }\n"
    "  out[g] = acc;\n"
    "}\n"
    "kernel void choose(global const int *in, global int *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int s = 0;\n"
    "  for (int k = 0; k < (in[g] & 7) + 1; k++) {\n"
    "    switch ((in[g] + k) & 3) {\n"
    "      case 0: s += 1; break;\n"
    "      case 1: s *= 3; break;\n"
    "      case 2: s -= k; break;\n"
    "      default: s ^= 5;\n"
    "    }\n"
    "  }\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void private_array(global const int *in, global int *out, int n) "
    "{\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int a[8];\n"
    "  for (int i = 0; i < 8; i++) a[i] = in[g] * i + i;\n"
    "  int s = 0;\n"
    "  for (int i = 0; i < (in[g] & 15); i++) s += a[(i * 3 + in[g]) & 7];\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void pick(global const int *in, global int *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  int8 a = (int8)(1, 2, 3, 4, 5, 6, 7, 8) * v;\n"
    "  a[(v >> 3) & 7] = -g;\n"
    "  int s = a[v & 7];\n"
    "  if (v & 1) s += a[(v + 5) & 7];\n"
    "  out[g] = s;\n"
    "}\n"
    "typedef struct { float x, v; int hits; float last; } particle;\n"
    "kernel void particles(global const particle *in, global particle *out,\n"
    "                      int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  float v = in[g].v;\n"
    "  float x = in[g].x + v * 0.25f;\n"
    "  int hits = in[g].hits;\n"
    "  float last = in[g].last;\n"
    "  int bounce = x > 1.0f;\n"
    "  out[g].x = bounce ? 2.0f - x : x;\n"
    "  out[g].v = bounce ? -v : v;\n"
    "  out[g].hits = hits + bounce;\n"
    "  out[g].last = bounce ? x : last;\n"
    "}\n"
    "kernel void vec4(global const float4 *in, global float4 *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  float4 v = in[g], acc = (float4)(0.0f);\n"
    "  int k = 0;\n"
    "  while (k < 20 && v.x < 100.0f) {\n"
    "    acc += v * (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "    v = v * 1.5f + (float4)(1.0f);\n"
    "    k++;\n"
    "  }\n"
    "  out[g] = acc + (float4)((float)k);\n"
    "}\n"
    "kernel void dsum(global const double *in, global double *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  double s = 0.0;\n"
    "  for (int i = 0; i <= g % 13; i++) s += in[(g + i) % n] * 0.5;\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void math(global const float *in, global float *out, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  float x = in[g];\n"
    "  for (int i = 0; i < (g & 7); i++) x = sin(x) + exp(-x * x);\n"
    "  out[g] = x;\n"
    "}\n"
    "kernel void counts(global const int *in, global int *hist, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  for (int k = 0; k < (v & 7); k++) atomic_inc(&hist[(v + k) & 15]);\n"
    "  if (v % 5 == 0) atomic_add(&hist[16], v & 3);\n"
    "}\n"
    "kernel void say(global const int *in, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  for (int k = 0; k < (in[g] & 3); k++) printf(\"item %d step %d\\n\", g, "
    "k);\n"
    "}\n"
    "kernel void grid_sum(global const float *in, global float *out,\n"
    "                     local float *part, uint n) {\n"
    "  size_t l = get_local_id(0);\n"
    "  float acc = 0.0f;\n"
    "  for (size_t i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    acc += in[i];\n"
    "  part[l] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    float t = 0.0f;\n"
    "    for (size_t k = 0; k < get_local_size(0); k++) t += part[k];\n"
    "    out[get_group_id(0)] = t;\n"
    "  }\n"
    "}\n";

enum { items = 1003, width = 37 };

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static int input[items];
static uint32_t collatz_in[items];

/* ---- Host references (no contraction: the kernels forbid it too) ---- */

__attribute__((optimize("fp-contract=off"))) static int escape_ref(int g) {
  float cx = -2.0f + 3.0f * (float)(g % width) / (float)width;
  float cy = -1.5f + 3.0f * (float)(g / width) / (float)width;
  float x = 0.0f, y = 0.0f;
  int i = 0;
  while (i < 200 && x * x + y * y <= 4.0f) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    i++;
  }
  return i;
}

static uint32_t collatz_ref(uint32_t x) {
  uint32_t steps = 0;
  while (1) {
    if (x == 1) break;
    if (steps > 300) break;
    if (x & 1) {
      x = 3 * x + 1;
      steps++;
      continue;
    }
    x >>= 1;
    steps++;
  }
  return steps * 1000 + (x & 7);
}

static int nested_ref(int v) {
  int acc = 0;
  if (v % 3 == 0) {
    for (int i = 0; i < (v & 15); i++) {
      for (int j = 0; j <= i; j++) {
        if (((i + j) & 3) == 3) continue;
        acc += i ^ j;
        if (acc > 200) break;
      }
      if (acc > 300) return -acc;
    }
  } else if (v % 3 == 1) {
    acc = v * 2;
  } else {
    while (v > 10) v /= 3;
    acc = v;
  }
  return acc;
}

static int choose_ref(int v) {
  int s = 0;
  for (int k = 0; k < (v & 7) + 1; k++) {
    switch ((v + k) & 3) {
      case 0:
        s += 1;
        break;
      case 1:
        s *= 3;
        break;
      case 2:
        s -= k;
        break;
      default:
        s ^= 5;
    }
  }
  return s;
}

static int private_ref(int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = v * i + i;
  int s = 0;
  for (int i = 0; i < (v & 15); i++) s += a[(i * 3 + v) & 7];
  return s;
}

/* pick's: an int8 written and read at indices from the data. */
static int pick_ref(int g, int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = (i + 1) * v;
  a[(v >> 3) & 7] = -g;
  int s = a[v & 7];
  if (v & 1) s += a[(v + 5) & 7];
  return s;
}

__attribute__((optimize("fp-contract=off"))) static void vec4_ref(
    const float *in, float *out) {
  float v[4], acc[4] = {0, 0, 0, 0};
  for (int c = 0; c < 4; c++) v[c] = in[c];
  int k = 0;
  while (k < 20 && v[0] < 100.0f) {
    for (int c = 0; c < 4; c++) {
      acc[c] += v[c] * (float)(c + 1);
      v[c] = v[c] * 1.5f + 1.0f;
    }
    k++;
  }
  for (int c = 0; c < 4; c++) out[c] = acc[c] + (float)k;
}

/* ---- Running ---- */

static const size_t local_sizes[] = {1, 3, 7, 16, 17, 64, 256, 0};
enum { local_size_count = sizeof local_sizes / sizeof *local_sizes };

/* Runs `kernel` over `n` items (rounded up to the local size) and reads
 * `size` bytes of the last argument-buffer `out` back into `result`. */
static void run(cl_kernel kernel, size_t local, size_t n, cl_mem out,
                void *result, size_t size) {
  size_t global = local ? (n + local - 1) / local * local : n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
      queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
  if (result) {
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, size, result,
                                         0, NULL, NULL));
  } else {
    CHECK_CL_SUCCESS(clFinish(queue));
  }
}

static cl_kernel kernel_named(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

/* Buffers for a kernel (in, out, int n = items): `in` copied, `out` of
 * `out_size` bytes; arguments set. */
static void bind_in_out(cl_kernel kernel, const void *in, size_t in_size,
                        size_t out_size, cl_mem *in_mem, cl_mem *out_mem) {
  int n = items;
  *in_mem = cl_test_buffer(context, in_size, in);
  *out_mem = cl_test_buffer(context, out_size, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof *in_mem, in_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof *out_mem, out_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof n, &n));
}

/* Releases a kernel and its in and out buffers. */
static void release(cl_kernel kernel, cl_mem in_mem, cl_mem out_mem) {
  clReleaseMemObject(in_mem);
  clReleaseMemObject(out_mem);
  clReleaseKernel(kernel);
}

/* An int kernel (in, out, n) against `reference`, at every local size. */
static void check_int_kernel(const char *name, const void *in, size_t in_size,
                             int (*reference)(int g)) {
  cl_kernel kernel = kernel_named(name);
  cl_mem in_mem, out_mem;
  bind_in_out(kernel, in, in_size, items * sizeof(int), &in_mem, &out_mem);
  static int result[items];
  for (int s = 0; s < local_size_count; s++) {
    memset(result, 0x55, sizeof result);
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(
        queue, out_mem, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) {
      if (result[g] != reference(g)) {
        if (wrong++ < 3) {
          fprintf(stderr, "%s, local size %zu: item %d gave %d, expected %d\n",
                  name, local_sizes[s], g, result[g], reference(g));
        }
      }
    }
    CHECK_INT(0, wrong);
  }
  release(kernel, in_mem, out_mem);
}

static int escape_item(int g) { return escape_ref(g); }
static int collatz_item(int g) { return (int)collatz_ref(collatz_in[g]); }
static int nested_item(int g) { return nested_ref(input[g]); }
static int choose_item(int g) { return choose_ref(input[g]); }
static int private_item(int g) { return private_ref(input[g]); }
static int pick_item(int g) { return pick_ref(g, input[g]); }

static void check_escape(void) {
  cl_kernel kernel = kernel_named("escape");
  cl_mem out_mem = cl_test_buffer(context, items * sizeof(int), NULL);
  int w = width, n = items;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out_mem, &out_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof w, &w));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof n, &n));
  static int result[items];
  for (int s = 0; s < local_size_count; s++) {
    memset(result, 0x55, sizeof result);
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) wrong += result[g] != escape_item(g);
    CHECK_INT(0, wrong);
  }
  clReleaseMemObject(out_mem);
  clReleaseKernel(kernel);
}

static void check_vec4(void) {
  cl_kernel kernel = kernel_named("vec4");
  static float in[items * 4], result[items * 4];
  for (int i = 0; i < items * 4; i++) in[i] = (float)((i * 37) % 101) - 20.0f;
  cl_mem in_mem, out_mem;
  bind_in_out(kernel, in, sizeof in, sizeof result, &in_mem, &out_mem);
  for (int s = 0; s < local_size_count; s++) {
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) {
      float expected[4];
      vec4_ref(in + 4 * g, expected);
      for (int c = 0; c < 4; c++) wrong += result[4 * g + c] != expected[c];
    }
    CHECK_INT(0, wrong);
  }
  release(kernel, in_mem, out_mem);
}

/* An array of structs of floats and an int, each field on its own. */
typedef struct particle {
  float x, v;
  int hits;
  float last;
} particle;

static void check_particles(void) {
  cl_kernel kernel = kernel_named("particles");
  static particle in[items], result[items];
  for (int i = 0; i < items; i++) {
    in[i] = (particle){(float)(i % 13) / 8.0f, (float)(i % 7) - 3.0f, i % 5,
                       (float)i};
  }
  cl_mem in_mem, out_mem;
  bind_in_out(kernel, in, sizeof in, sizeof result, &in_mem, &out_mem);
  for (int s = 0; s < local_size_count; s++) {
    memset(result, 0, sizeof result);
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) {
      float x = in[g].x + in[g].v * 0.25f;
      int bounce = x > 1.0f;
      particle expected = {bounce ? 2.0f - x : x, bounce ? -in[g].v : in[g].v,
                           in[g].hits + bounce, bounce ? x : in[g].last};
      wrong += memcmp(&result[g], &expected, sizeof expected) != 0;
    }
    if (wrong) {
      fprintf(stderr, "particles, local size %zu: %d wrong\n", local_sizes[s],
              wrong);
    }
    CHECK_INT(0, wrong);
  }
  release(kernel, in_mem, out_mem);
}

static void check_dsum(void) {
  cl_kernel kernel = kernel_named("dsum");
  static double in[items], result[items];
  for (int i = 0; i < items; i++) in[i] = (double)((i * 7919) % 1000) / 8.0;
  cl_mem in_mem, out_mem;
  bind_in_out(kernel, in, sizeof in, sizeof result, &in_mem, &out_mem);
  for (int s = 0; s < local_size_count; s++) {
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) {
      double sum = 0.0; /* exact: eighths times a half, small sums */
      for (int i = 0; i <= g % 13; i++) sum += in[(g + i) % items] * 0.5;
      wrong += result[g] != sum;
    }
    CHECK_INT(0, wrong);
  }
  release(kernel, in_mem, out_mem);
}

static void check_math(void) {
  cl_kernel kernel = kernel_named("math");
  static float in[items], result[items];
  for (int i = 0; i < items; i++) in[i] = (float)(i % 50) / 10.0f - 2.5f;
  cl_mem in_mem, out_mem;
  bind_in_out(kernel, in, sizeof in, sizeof result, &in_mem, &out_mem);
  for (int s = 0; s < local_size_count; s++) {
    run(kernel, local_sizes[s], items, out_mem, result, sizeof result);
    int wrong = 0;
    for (int g = 0; g < items; g++) {
      double x = in[g];
      for (int i = 0; i < (g & 7); i++) x = sin(x) + exp(-x * x);
      wrong += fabs(result[g] - x) > 1e-5 * (1.0 + fabs(x));
    }
    CHECK_INT(0, wrong);
  }
  release(kernel, in_mem, out_mem);
}

static void check_counts(void) {
  cl_kernel kernel = kernel_named("counts");
  cl_mem in_mem = cl_test_buffer(context, sizeof input, input);
  cl_mem hist_mem = cl_test_buffer(context, 17 * sizeof(int), NULL);
  int n = items;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof hist_mem, &hist_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof n, &n));
  int expected[17] = {0};
  for (int g = 0; g < items; g++) {
    int v = input[g];
    for (int k = 0; k < (v & 7); k++) expected[(v + k) & 15]++;
    if (v % 5 == 0) expected[16] += v & 3;
  }
  for (int s = 0; s < local_size_count; s++) {
    int result[17] = {0};
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(
        queue, hist_mem, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    run(kernel, local_sizes[s], items, hist_mem, result, sizeof result);
    CHECK(memcmp(result, expected, sizeof result) == 0);
  }
  clReleaseMemObject(in_mem);
  clReleaseMemObject(hist_mem);
  clReleaseKernel(kernel);
}

/* printf from a divergent loop: every line once, each item's in order. */
static void check_say(void) {
  cl_kernel kernel = kernel_named("say");
  cl_mem in_mem = cl_test_buffer(context, sizeof input, input);
  int n = items;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof n, &n));
  char path[] = "/tmp/clmux-divergent-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  fflush(stdout);
  int saved = dup(1);
  REQUIRE(saved >= 0 && dup2(file, 1) == 1);
  run(kernel, 17, items, NULL, NULL, 0);
  fflush(stdout);
  REQUIRE(dup2(saved, 1) == 1);
  close(saved);
  FILE *text = fdopen(file, "r");
  REQUIRE(text != NULL);
  rewind(text);
  static int next_step[items];
  int lines = 0, wrong = 0, g = 0, k = 0;
  while (fscanf(text, "item %d step %d\n", &g, &k) == 2) {
    lines++;
    if (g < 0 || g >= items || k != next_step[g]) {
      wrong++;
    } else {
      next_step[g]++;
    }
  }
  fclose(text);
  unlink(path);
  int expected_lines = 0;
  for (int i = 0; i < items; i++) {
    expected_lines += input[i] & 3;
    wrong += next_step[i] != (input[i] & 3);
  }
  CHECK_INT(expected_lines, lines);
  CHECK_INT(0, wrong);
  clReleaseMemObject(in_mem);
  clReleaseKernel(kernel);
}

/* A grid-stride loop, then __local and a barrier: every partial sum. */
static void check_grid_sum(void) {
  cl_kernel kernel = kernel_named("grid_sum");
  enum { count = 100003, groups = 6 };
  static float in[count];
  for (int i = 0; i < count; i++) in[i] = (float)(i % 17);
  cl_mem in_mem = cl_test_buffer(context, sizeof in, in);
  cl_mem out_mem = cl_test_buffer(context, groups * sizeof(float), NULL);
  cl_uint n = count;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out_mem, &out_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof n, &n));
  for (int s = 0; s < local_size_count - 1; s++) {
    size_t local = local_sizes[s], global = local * groups;
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, local * sizeof(float), NULL));
    float result[groups];
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            &local, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0,
                                         sizeof result, result, 0, NULL, NULL));
    for (int grp = 0; grp < groups; grp++) {
      double expected = 0.0; /* small integers: every order is exact */
      for (size_t l = 0; l < local; l++) {
        for (size_t i = grp * local + l; i < count; i += global) {
          expected += in[i];
        }
      }
      CHECK(result[grp] == (float)expected);
    }
  }
  release(kernel, in_mem, out_mem);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  program = cl_test_build(context, device, source, "");
  for (int i = 0; i < items; i++) {
    input[i] = (int)((i * 2654435761u) >> 7) % 1000 - 100;
    collatz_in[i] = (uint32_t)i * 7 + 1;
  }
  check_escape();
  check_int_kernel("collatz", collatz_in, sizeof collatz_in, collatz_item);
  check_int_kernel("nested", input, sizeof input, nested_item);
  check_int_kernel("choose", input, sizeof input, choose_item);
  check_int_kernel("private_array", input, sizeof input, private_item);
  check_int_kernel("pick", input, sizeof input, pick_item);
  check_particles();
  check_vec4();
  check_dsum();
  check_math();
  check_counts();
  check_say();
  check_grid_sum();
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* clmux-cl-kernel-bench: OpenCL C kernels through the ICD loader on every
 * platform it finds, side by side in one run (clmux against PoCL with
 * OCL_ICD_VENDORS naming both .icd files). Per platform it measures
 *   - clBuildProgram of a small program: cold (source text never seen
 *     before: a unique comment defeats every cache) and warm (the same text
 *     again, in a new program object);
 *   - per kernel: the cold build; the first launch (enqueue to clFinish:
 *     per-local-size compilation shows up here); the time to the first
 *     result (build, clCreateKernel, buffers with their copies, first
 *     launch); the median of N launches (wall clock around enqueue +
 *     clFinish), its rate and the rate as a fraction of the machine's
 *     limit (bandwidth against a triad in plain C, float arithmetic
 *     against an FMA peak, integer arithmetic against a multiply-add peak,
 *     all in plain C on every core: machine_limits.c);
 * then clmux's time divided by the other platform's. Every result is
 * checked against a host reference (OK / WRONG); a platform that cannot
 * build or run a kernel gets a line saying so, and the run goes on.
 * The rows of kernels whose work-items diverge are in cl_divergent.c, those
 * on half precision in cl_half.c.
 * Usage: clmux-cl-kernel-bench [-n RUNS] [-d DIVISOR] [-p NAME] [-k TEXT] [-b]
 *        (--help) */
#include "cl_kernel.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define MAX_PLATFORMS 8

static const char usage[] =
    "Usage: clmux-cl-kernel-bench [-n RUNS] [-d DIVISOR] [-p NAME] [-k TEXT] "
    "[-b] [-w] [-s]\n"
    "  -n RUNS     timed launches per kernel, the median is shown (5)\n"
    "  -d DIVISOR  divide every problem size by DIVISOR (1), for quick runs\n"
    "  -p NAME     only platforms whose name contains NAME\n"
    "  -k TEXT     only benchmarks whose title contains TEXT (repeatable:\n"
    "              any of them)\n"
    "  -b          also run clmux's kernels built with -clmux-bounds-check\n"
    "              (CLMUX_BOUNDS_CHECK's checks) and show that time over\n"
    "              the unchecked one (bc/plain)\n"
    "  -w          at the end, how evenly clmux's threads shared each\n"
    "              kernel's NDRanges (busy share per thread, imbalance),\n"
    "              read from a CLMUX_TRACE timeline of the run\n"
    "  -s          instead of the usual tables: clmux alone with 1, 2, 4...\n"
    "              and all CPUs' threads (CLMUX_NUM_THREADS), each row's\n"
    "              speedup beside the plain C FMA peak's\n"
    "Runs on every platform the OpenCL ICD loader lists; to compare clmux\n"
    "with PoCL point OCL_ICD_VENDORS at a folder holding both .icd files.\n";

/* ---- Timing and small helpers -------------------------------------- */

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Deterministic inputs: the same on every platform and run. */
static uint64_t random_state = 0x9e3779b97f4a7c15u;
static float random_float(float low, float high) {
  random_state = random_state * 6364136223846793005u + 1442695040888963407u;
  return low + (high - low) * (float)(random_state >> 40) / (float)(1 << 24);
}

void *bench_malloc(size_t size) {
  void *memory = malloc(size);
  if (!memory) {
    fprintf(stderr, "clmux-cl-kernel-bench: out of host memory\n");
    exit(1);
  }
  return memory;
}

float *random_floats(size_t count, float low, float high) {
  float *values = bench_malloc(count * sizeof *values);
  for (size_t i = 0; i < count; i++) values[i] = random_float(low, high);
  return values;
}

/* Source text no OpenCL implementation has seen. A comment would not do:
 * PoCL keys its cache on the preprocessed text, without comments; an
 * unused function with a unique name survives preprocessing. */
static char *fresh_source(const char *body) {
  static unsigned counter;
  char *text = NULL;
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  if (asprintf(
          &text, "int bench_nonce_%ld_%ld_%09ld_%u(void) { return 0; }\n%s",
          (long)getpid(), (long)t.tv_sec, t.tv_nsec, counter++, body) < 0) {
    exit(1);
  }
  return text;
}

/* ---- Platforms -------------------------------------------------------- */

typedef struct platform {
  char name[64];
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  bool is_clmux;
} platform;

static platform platforms[MAX_PLATFORMS];
static int platform_count;

/* A short column label for the platform. */
static void short_name(const char *full, char *name, size_t size) {
  if (strstr(full, "clmux")) {
    snprintf(name, size, "clmux");
  } else if (strstr(full, "Portable Computing Language") ||
             strcasestr(full, "pocl")) {
    snprintf(name, size, "PoCL");
  } else {
    snprintf(name, size, "%.10s", full);
  }
}

static bool open_platform(cl_platform_id id, platform *p) {
  char full[256] = "";
  clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof full, full, NULL);
  short_name(full, p->name, sizeof p->name);
  p->is_clmux = strstr(full, "clmux") != NULL;
  if (clGetDeviceIDs(id, CL_DEVICE_TYPE_CPU, 1, &p->device, NULL) !=
      CL_SUCCESS) {
    printf("%-10s no CPU device: skipped\n", p->name);
    return false;
  }
  cl_int error = CL_SUCCESS;
  p->context = clCreateContext(NULL, 1, &p->device, NULL, NULL, &error);
  if (error == CL_SUCCESS) {
    p->queue = clCreateCommandQueue(p->context, p->device, 0, &error);
  }
  if (error != CL_SUCCESS) {
    printf("%-10s cannot create a context and queue (%d): skipped\n", p->name,
           error);
    if (p->context) clReleaseContext(p->context);
    return false;
  }
  return true;
}

/* Builds `source` for the platform; NULL (and a line saying why) if it
 * fails. *build_ms gets the clBuildProgram time. */
static cl_program build(const platform *p, const char *source,
                        const char *options, double *build_ms) {
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(p->context, 1, &source, NULL, &error);
  if (error != CL_SUCCESS) {
    printf("  %-10s clCreateProgramWithSource failed (%d)\n", p->name, error);
    return NULL;
  }
  double start = now_ms();
  error = clBuildProgram(program, 1, &p->device, options ? options : "", NULL,
                         NULL);
  *build_ms = now_ms() - start;
  if (error != CL_SUCCESS) {
    char log[2048] = "";
    clGetProgramBuildInfo(program, p->device, CL_PROGRAM_BUILD_LOG,
                          sizeof log - 1, log, NULL);
    char *newline = strchr(log, '\n'); /* the first line says enough */
    if (newline) *newline = '\0';
    printf("  %-10s build failed (%d)%s%s\n", p->name, error, *log ? ": " : "",
           log);
    clReleaseProgram(program);
    return NULL;
  }
  return program;
}

/* ---- Benchmarks --------------------------------------------------------- */

typedef struct measured {
  bool ok; /* built, ran and correct */
  bool ran;
  double build_ms;
  double launch_ms; /* the first enqueue to its clFinish */
  double first_ms;  /* build + kernel + buffers + first launch */
  double median_ms;
} measured;

static int runs = 5;
static machine_limits limits; /* what each rate is a fraction of */

/* A 2D CL_RGBA/CL_FLOAT image of the launch's global size for an
 * ARG_IMAGE_IN or ARG_IMAGE_OUT. */
static cl_mem create_image(const platform *p, const bench *b, const arg *x,
                           cl_int *error) {
  const cl_image_format format = {CL_RGBA, CL_FLOAT};
  const cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                              .image_width = b->global[0],
                              .image_height = b->global[1]};
  bool in = x->kind == ARG_IMAGE_IN;
  return clCreateImage(p->context,
                       in ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR
                          : CL_MEM_WRITE_ONLY,
                       &format, &desc, in ? (void *)x->host : NULL, error);
}

/* Reads an output buffer or image back into `host`. */
static cl_int read_output(const platform *p, const bench *b, const arg *x,
                          cl_mem memory, void *host) {
  if (x->kind == ARG_IMAGE_OUT) {
    const size_t origin[3] = {0, 0, 0},
                 region[3] = {b->global[0], b->global[1], 1};
    return clEnqueueReadImage(p->queue, memory, CL_TRUE, origin, region, 0, 0,
                              host, 0, NULL, NULL);
  }
  return clEnqueueReadBuffer(p->queue, memory, CL_TRUE, 0, x->size, host, 0,
                             NULL, NULL);
}

/* Sets the args, launches once (timed as the first launch), then `runs`
 * times; reads back outputs. */
static measured run_bench(const platform *p, const bench *b) {
  measured m = {0};
  char *source = fresh_source(b->source);
  cl_program program = build(p, source, b->options, &m.build_ms);
  free(source);
  if (!program) return m;
  cl_mem buffers[MAX_ARGS] = {0};
  void *outputs[MAX_ARGS] = {0};
  cl_int error = CL_SUCCESS;
  const char *failed = NULL;
  double start = now_ms();
  cl_kernel kernel = clCreateKernel(program, b->name, &error);
  if (error != CL_SUCCESS) failed = "clCreateKernel";
  for (int a = 0; a < b->arg_count && !failed; a++) {
    const arg *x = &b->args[a];
    switch (x->kind) {
      case ARG_IN:
      case ARG_OUT:
        buffers[a] = clCreateBuffer(
            p->context,
            x->kind == ARG_IN ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR
                              : CL_MEM_WRITE_ONLY,
            x->size, x->kind == ARG_IN ? (void *)x->host : NULL, &error);
        if (error == CL_SUCCESS) {
          error =
              clSetKernelArg(kernel, (cl_uint)a, sizeof(cl_mem), &buffers[a]);
        }
        break;
      case ARG_IMAGE_IN:
      case ARG_IMAGE_OUT:
        buffers[a] = create_image(p, b, x, &error);
        if (error == CL_SUCCESS) {
          error =
              clSetKernelArg(kernel, (cl_uint)a, sizeof(cl_mem), &buffers[a]);
        }
        break;
      case ARG_FLOAT:
        error = clSetKernelArg(kernel, (cl_uint)a, sizeof x->f, &x->f);
        break;
      case ARG_INT:
        error = clSetKernelArg(kernel, (cl_uint)a, sizeof x->i, &x->i);
        break;
      case ARG_LOCAL:
        error = clSetKernelArg(kernel, (cl_uint)a, x->size, NULL);
        break;
    }
    if (error != CL_SUCCESS) failed = "setting arguments";
  }
  /* Buffers with host data are filled at creation; the copies are done
   * before the timed launch. */
  if (!failed && clFinish(p->queue) != CL_SUCCESS) failed = "clFinish";
  double setup_ms = now_ms() - start;
  const size_t *local = b->local[0] ? b->local : NULL;
  double *samples = calloc((size_t)runs + 1, sizeof *samples);
  for (int r = 0; r <= runs && !failed; r++) {
    double launch = now_ms();
    error = clEnqueueNDRangeKernel(p->queue, kernel, b->dims, NULL, b->global,
                                   local, 0, NULL, NULL);
    if (error == CL_SUCCESS) error = clFinish(p->queue);
    samples[r] = now_ms() - launch;
    if (error != CL_SUCCESS) failed = "running the kernel";
  }
  if (!failed) {
    m.ran = true;
    /* The first result also waits for clCreateKernel and the buffers
     * (with their host-to-device copies). */
    m.launch_ms = samples[0];
    m.first_ms = m.build_ms + setup_ms + samples[0];
    qsort(samples + 1, (size_t)runs, sizeof *samples, compare_double);
    m.median_ms = samples[1 + runs / 2];
    for (int a = 0; a < b->arg_count && !failed; a++) {
      if (b->args[a].kind != ARG_OUT && b->args[a].kind != ARG_IMAGE_OUT) {
        continue;
      }
      outputs[a] = malloc(b->args[a].size);
      if (!outputs[a] || read_output(p, b, &b->args[a], buffers[a], outputs[a]) !=
                             CL_SUCCESS) {
        failed = "reading the results";
      }
    }
  }
  if (failed) {
    printf("  %-10s %s failed (%d)\n", p->name, failed, error);
  } else {
    m.ok = b->check(b, outputs);
  }
  free(samples);
  for (int a = 0; a < MAX_ARGS; a++) {
    if (buffers[a]) clReleaseMemObject(buffers[a]);
    free(outputs[a]);
  }
  if (kernel) clReleaseKernel(kernel);
  clReleaseProgram(program);
  return m;
}

static void print_measured(const char *name, const bench *b,
                           const measured *m) {
  if (!m->ran) return;
  double rate = b->work / (m->median_ms * 1e-3) / 1e9;
  /* Bandwidth against the triad, float arithmetic against the FMA peak,
   * integer arithmetic against the integer multiply-add peak. */
  bool bandwidth = !strcmp(b->unit, "GB/s");
  bool integer = !strcmp(b->unit, "GOP/s");
  double limit = bandwidth ? limits.triad_gbs
                 : integer ? limits.int_mad_gops
                           : limits.fma_gflops;
  printf("  %-10s %9.1f %11.1f %11.1f %11.2f %9.2f %-7s %5.1f%% %-5s %s\n",
         name, m->build_ms, m->launch_ms, m->first_ms, m->median_ms, rate,
         b->unit, limit > 0 ? 100 * rate / limit : 0.0,
         bandwidth ? "triad"
         : integer ? "imad"
                   : "FMA",
         m->ok ? "OK" : "WRONG");
}

/* Only between two correct results: a ratio to a wrong one means nothing. */
static void print_ratio(const char *other, const measured *clmux,
                        const measured *them) {
  if (!clmux->ok || !them->ok) return;
  char label[64];
  snprintf(label, sizeof label, "clmux/%.16s", other);
  printf("  %-10s %9.2f %11.2f %11.2f %11.2f\n", label,
         clmux->build_ms / them->build_ms, clmux->launch_ms / them->launch_ms,
         clmux->first_ms / them->first_ms, clmux->median_ms / them->median_ms);
}

/* Runs one benchmark on every platform, then the ratios. */
/* -k (repeatable): the benchmarks to run, by a part of their title (none:
 * all). */
#define MAX_ONLY 8
static const char *only_bench[MAX_ONLY];
static int only_bench_count;

bool selected(const char *label) {
  for (int i = 0; i < only_bench_count; i++) {
    if (strcasestr(label, only_bench[i])) return true;
  }
  return only_bench_count == 0;
}

/* -b: each row once more on clmux, built with -clmux-bounds-check: what
 * the bounds-checked mode costs, as its time over the unchecked one. */
static bool bounds_cost;

static void run_bounds_checked(const platform *p, const bench *b,
                               const measured *plain) {
  char options[256];
  snprintf(options, sizeof options, "%s -clmux-bounds-check",
           b->options ? b->options : "");
  bench checked = *b;
  checked.options = options;
  measured m = run_bench(p, &checked);
  print_measured("clmux+bc", &checked, &m);
  if (m.ok && plain->ok) {
    printf("  %-10s %9s %11s %11s %11.2f\n", "bc/plain", "", "", "",
           m.median_ms / plain->median_ms);
  }
}

void run_everywhere(const bench *b) {
  if (!selected(b->label)) return;
  printf("%s\n", b->label);
  measured m[MAX_PLATFORMS];
  for (int i = 0; i < platform_count; i++) {
    m[i] = run_bench(&platforms[i], b);
    print_measured(platforms[i].name, b, &m[i]);
    if (scaling_results && platforms[i].is_clmux && m[i].ok) {
      fprintf(scaling_results, "%s\t%.4f\n", b->label, m[i].median_ms);
    }
    if (bounds_cost && platforms[i].is_clmux) {
      run_bounds_checked(&platforms[i], b, &m[i]);
    }
  }
  for (int i = 0; i < platform_count; i++) {
    if (!platforms[i].is_clmux) continue;
    for (int j = 0; j < platform_count; j++) {
      if (!platforms[j].is_clmux) print_ratio(platforms[j].name, &m[i], &m[j]);
    }
  }
}

/* Counts mismatches; prints the first. */
pid_t fork_with_temp_file(char *path) {
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  fflush(NULL);
  return fork();
}

bool report_mismatches(const char *what, size_t bad, size_t first, double got,
                       double want) {
  if (bad) {
    printf("    %s: %zu wrong, first at %zu: %.9g, expected %.9g\n", what, bad,
           first, got, want);
  }
  return bad == 0;
}

/* ---- The kernels ------------------------------------------------------- */

static const char vector_add_source[] =
    "kernel void vector_add(global const float *a, global const float *b,\n"
    "                       global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

typedef struct elementwise {
  const float *x, *y;
  float a;
} elementwise;

static bool check_vector_add(const bench *b, void *const *outputs) {
  const elementwise *s = b->state;
  const float *c = outputs[2];
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    if (c[i] != s->x[i] + s->y[i] && !bad++) first = i;
  }
  return report_mismatches("c", bad, first, c[first],
                           s->x[first] + s->y[first]);
}

static const char saxpy_source[] =
    "kernel void saxpy_branchy(global const float *x, global const float *y,\n"
    "                          global float *out, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float xi = x[i], yi = y[i];\n"
    "  if (xi > 0.5f) {\n"
    "    out[i] = a * xi + yi;\n"
    "  } else {\n"
    "    out[i] = a * yi - xi;\n"
    "  }\n"
    "}\n";

static bool check_saxpy(const bench *b, void *const *outputs) {
  const elementwise *s = b->state;
  const float *out = outputs[2];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    double x = s->x[i], y = s->y[i];
    double want = x > 0.5 ? s->a * x + y : s->a * y - x;
    /* Contracted or not: within a few float roundings. */
    if (fabs(out[i] - want) > 1e-6 * (fabs(want) + 4.0) && !bad++) {
      first = i;
      want_first = want;
    }
  }
  return report_mismatches("out", bad, first, out[first], want_first);
}

static const char sgemm_source[] =
    "#define TILE 16\n"
    "kernel void sgemm(global const float *a, global const float *b,\n"
    "                  global float *c, int n) {\n"
    "  local float a_tile[TILE][TILE], b_tile[TILE][TILE];\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  int lc = get_local_id(0), lr = get_local_id(1);\n"
    "  float sum = 0.0f;\n"
    "  for (int t = 0; t < n; t += TILE) {\n"
    "    a_tile[lr][lc] = a[row * n + t + lc];\n"
    "    b_tile[lr][lc] = b[(t + lr) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TILE; k++) sum += a_tile[lr][k] * b_tile[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = sum;\n"
    "}\n";

/* The textbook product: a loop over k per work-item, no tiles. */
static const char sgemm_naive_source[] =
    "kernel void sgemm_naive(global const float *a, global const float *b,\n"
    "                        global float *c, int n) {\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  float sum = 0.0f;\n"
    "  for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];\n"
    "  c[row * n + col] = sum;\n"
    "}\n";

/* The same with the size rounded up to whole work-groups, as host code
 * does for any n: items past the matrix's edge do nothing. */
static const char sgemm_bounded_source[] =
    "kernel void sgemm_bounded(global const float *a, global const float *b,\n"
    "                          global float *c, int n) {\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  if (row < n && col < n) {\n"
    "    float sum = 0.0f;\n"
    "    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];\n"
    "    c[row * n + col] = sum;\n"
    "  }\n"
    "}\n";

typedef struct matrices {
  const float *a, *b;
  int n;
} matrices;

/* A sample of entries against double dot products: the full host product
 * would take longer than every platform's runs together. */
static bool check_sgemm(const bench *b, void *const *outputs) {
  const matrices *s = b->state;
  const float *c = outputs[2];
  size_t n = (size_t)s->n, bad = 0, first = 0;
  double want_first = 0;
  for (size_t sample = 0; sample < 4096; sample++) {
    size_t row = (sample * 7919) % n, col = (sample * 104729 + 13) % n;
    double want = 0, magnitude = 0;
    for (size_t k = 0; k < n; k++) {
      want += (double)s->a[row * n + k] * s->b[k * n + col];
      magnitude += fabs((double)s->a[row * n + k] * s->b[k * n + col]);
    }
    if (fabs(c[row * n + col] - want) > 1e-5 * magnitude + 1e-6 && !bad++) {
      first = row * n + col;
      want_first = want;
    }
  }
  return report_mismatches("c", bad, first, c[first], want_first);
}

static const char reduce_source[] =
    "kernel void reduce(global const float *in, global float *partial,\n"
    "                   local float *scratch) {\n"
    "  size_t lid = get_local_id(0);\n"
    "  scratch[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) scratch[lid] += scratch[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) partial[get_group_id(0)] = scratch[0];\n"
    "}\n";

/* The same sums through sub-groups (OpenCL C 3.0), as GPU codes write
 * them: each sub-group's sum to a slot, then the first sub-group sums the
 * slots. */
static const char reduce_sub_groups_source[] =
    "kernel void reduce_sub_groups(global const float *in,\n"
    "                              global float *partial,\n"
    "                              local float *scratch) {\n"
    "  float s = sub_group_reduce_add(in[get_global_id(0)]);\n"
    "  uint lane = get_sub_group_local_id();\n"
    "  if (lane == 0) scratch[get_sub_group_id()] = s;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_sub_group_id() == 0) {\n"
    "    float t = 0.0f;\n"
    "    for (uint i = lane; i < get_num_sub_groups();\n"
    "         i += get_sub_group_size())\n"
    "      t += scratch[i];\n"
    "    t = sub_group_reduce_add(t);\n"
    "    if (lane == 0) partial[get_group_id(0)] = t;\n"
    "  }\n"
    "}\n";

typedef struct reduction {
  const float *in;
  double sum;
} reduction;

static bool check_reduce(const bench *b, void *const *outputs) {
  const reduction *s = b->state;
  const float *partial = outputs[1];
  size_t groups = b->global[0] / b->local[0];
  double sum = 0; /* the host's final sum */
  for (size_t g = 0; g < groups; g++) sum += partial[g];
  /* Tree sums of 256 floats in [0,1): float rounding, well below 1e-5. */
  bool ok = fabs(sum - s->sum) <= 1e-5 * s->sum;
  if (!ok) printf("    sum %.9g, expected %.9g\n", sum, s->sum);
  return ok;
}

/* A histogram of 256 bins: __local atomics in a loop, where a sub-group
 * could wait for another, so clmux runs its sub-groups in turns (with a
 * pause point in the loop). Each item takes HISTOGRAM_PER_ITEM values
 * (the 64 in the source), its group's items side by side. */
#define HISTOGRAM_PER_ITEM 64
static const char histogram_source[] =
    "kernel void histogram(global const float *x, global uint *bins) {\n"
    "  local uint h[256];\n"
    "  size_t l = get_local_id(0), size = get_local_size(0);\n"
    "  for (size_t i = l; i < 256; i += size) h[i] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  size_t base = get_group_id(0) * size * 64;\n"
    "  for (int j = 0; j < 64; j++) {\n"
    "    float v = x[base + j * size + l];\n"
    "    atomic_inc(&h[min((uint)(v * 256.0f), 255u)]);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t i = l; i < 256; i += size)\n"
    "    bins[get_group_id(0) * 256 + i] = h[i];\n"
    "}\n";

static bool check_histogram(const bench *b, void *const *outputs) {
  const reduction *s = b->state;
  const cl_uint *bins = outputs[1];
  size_t groups = b->global[0] / b->local[0];
  size_t n = b->global[0] * HISTOGRAM_PER_ITEM;
  size_t expected[256] = {0}, totals[256] = {0}, bad = 0, first = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned bin = (unsigned)(s->in[i] * 256.0f);
    expected[bin < 255 ? bin : 255]++;
  }
  for (size_t bin = 0; bin < 256; bin++) {
    for (size_t g = 0; g < groups; g++) totals[bin] += bins[g * 256 + bin];
    if (totals[bin] != expected[bin] && !bad++) first = bin;
  }
  return report_mismatches("histogram bins", bad, first, (double)totals[first],
                           (double)expected[first]);
}

static const char exp_sin_source[] =
    "kernel void exp_sin(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = exp(x[i]) * sin(x[i]);\n"
    "}\n";

/* native_ functions: what -cl-fast-relaxed-math makes of exp_sin too. */
static const char exp_sin_native_source[] =
    "kernel void exp_sin_native(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = native_exp(x[i]) * native_sin(x[i]);\n"
    "}\n";

static const char exp_sin4_source[] =
    "kernel void exp_sin4(global const float4 *x, global float4 *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = exp(x[i]) * sin(x[i]);\n"
    "}\n";

/* float3 as packed triples (vload3/vstore3), as xyz data is stored. */
static const char exp_sin3_source[] =
    "kernel void exp_sin3(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float3 v = vload3(i, x);\n"
    "  vstore3(exp(v) * sin(v), i, y);\n"
    "}\n";

/* The first `count` results of exp_sin, exp_sin3 or exp_sin4. */
static bool check_exp_sin_floats(const bench *b, void *const *outputs,
                                 size_t count) {
  const elementwise *s = b->state;
  const float *y = outputs[1];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (size_t i = 0; i < count; i++) {
    double x = s->x[i], e = exp(x), want = e * sin(x);
    /* exp 3 ulp, sin 4 ulp (absolute near its zeros), the product 0.5. */
    if (fabs(y[i] - want) > 1.5e-6 * e && !bad++) {
      first = i;
      want_first = want;
    }
  }
  return report_mismatches("y", bad, first, y[first], want_first);
}

static bool check_exp_sin(const bench *b, void *const *outputs) {
  return check_exp_sin_floats(b, outputs, b->global[0]);
}

static bool check_exp_sin3(const bench *b, void *const *outputs) {
  return check_exp_sin_floats(b, outputs, 3 * b->global[0]);
}

static bool check_exp_sin4(const bench *b, void *const *outputs) {
  return check_exp_sin_floats(b, outputs, 4 * b->global[0]);
}

/* The exp(x)*sin(x) rows: one kernel over the same 16M floats, each
 * work-item taking per_item of them. */
typedef struct exp_sin_row {
  const char *name, *title, *source;
  size_t per_item, local; /* local 0: NULL local size */
  const char *options;
} exp_sin_row;
static const exp_sin_row exp_sin_rows[] = {
    {"exp_sin", "exp(x)*sin(x)", exp_sin_source, 1, 0, NULL},
    {"exp_sin_native", "native_exp(x)*native_sin(x)", exp_sin_native_source,
     1, 0, NULL},
    {"exp_sin", "exp(x)*sin(x), -cl-fast-relaxed-math", exp_sin_source, 1, 0,
     "-cl-fast-relaxed-math"},
    /* Groups narrower than a vector, as naive host code asks for. */
    {"exp_sin", "exp(x)*sin(x), work-groups of 2", exp_sin_source, 1, 2, NULL},
    /* Non-uniform work-groups (OpenCL C 3.0): 96 does not divide 16M, so
     * the last group is smaller; beside groups of 64 that divide it. */
    {"exp_sin", "exp(x)*sin(x), 3.0, work-groups of 64", exp_sin_source, 1,
     64, "-cl-std=CL3.0"},
    {"exp_sin", "exp(x)*sin(x), 3.0, work-groups of 96 (non-uniform)",
     exp_sin_source, 1, 96, "-cl-std=CL3.0"},
    {"exp_sin3", "exp(x)*sin(x) on float3", exp_sin3_source, 3, 0, NULL},
    {"exp_sin4", "exp(x)*sin(x) on float4", exp_sin4_source, 4, 0, NULL},
};

static const char fmod_source[] =
    "kernel void fmod_wrap(global const float *x, global const float *y,\n"
    "                      global float *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  r[i] = fmod(x[i], y[i]);\n"
    "}\n";

/* fmod is exact: every result must equal the host's. */
static bool check_fmod(const bench *b, void *const *outputs) {
  const elementwise *s = b->state;
  const float *r = outputs[2];
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    if (r[i] != fmodf(s->x[i], s->y[i]) && !bad++) first = i;
  }
  return report_mismatches("r", bad, first, r[first],
                           fmodf(s->x[first], s->y[first]));
}

/* Gravitational accelerations, all pairs: each work-item loops over every
 * body (float4 positions, w the mass), as N-body codes do. */
static const char nbody_source[] =
    "kernel void nbody(global const float4 *pos, global float4 *acc,\n"
    "                  int n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 p = pos[i];\n"
    "  float3 a = 0.0f;\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 q = pos[j];\n"
    "    float3 d = q.xyz - p.xyz;\n"
    "    float inv = rsqrt(dot(d, d) + 0.01f);\n"
    "    a += d * (q.w * inv * inv * inv);\n"
    "  }\n"
    "  acc[i] = (float4)(a, 0.0f);\n"
    "}\n";

typedef struct bodies {
  const float *pos; /* x, y, z, mass */
  int n;
} bodies;

/* The first 64 bodies against a double-precision sum. */
static bool check_nbody(const bench *b, void *const *outputs) {
  const bodies *s = b->state;
  const float *acc = outputs[1];
  size_t bad = 0, first = 0;
  double got_first = 0, want_first = 0;
  for (int i = 0; i < 64 && i < s->n; i++) {
    const float *p = s->pos + 4 * i;
    double want[3] = {0, 0, 0}, scale = 0;
    for (int j = 0; j < s->n; j++) {
      const float *q = s->pos + 4 * j;
      double d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
      double inv = 1.0 / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01);
      double f = q[3] * inv * inv * inv;
      for (int c = 0; c < 3; c++) {
        want[c] += d[c] * f;
        scale += fabs(d[c] * f);
      }
    }
    for (int c = 0; c < 3; c++) {
      /* float sums of n terms: relative to the sum of magnitudes */
      if (fabs(acc[4 * i + c] - want[c]) > 1e-4 * scale && !bad++) {
        first = (size_t)i;
        got_first = acc[4 * i + c];
        want_first = want[c];
      }
    }
  }
  return report_mismatches("acc", bad, first, got_first, want_first);
}

static const char black_scholes_source[] =
    "float normal_cdf(float d) {\n"
    "  const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f,\n"
    "              a4 = -1.821255978f, a5 = 1.330274429f;\n"
    "  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));\n"
    "  float tail = 0.398942280f * exp(-0.5f * d * d) *\n"
    "               (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));\n"
    "  return d > 0.0f ? 1.0f - tail : tail;\n"
    "}\n"
    "kernel void black_scholes(global const float *price,\n"
    "                          global const float *strike,\n"
    "                          global const float *years,\n"
    "                          global float *call, global float *put,\n"
    "                          float rate, float volatility) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float s = price[i], x = strike[i], t = years[i];\n"
    "  float root_t = sqrt(t);\n"
    "  float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t)\n"
    "             / (volatility * root_t);\n"
    "  float d2 = d1 - volatility * root_t;\n"
    "  float discounted = x * exp(-rate * t);\n"
    "  float n1 = normal_cdf(d1), n2 = normal_cdf(d2);\n"
    "  call[i] = s * n1 - discounted * n2;\n"
    "  put[i] = discounted * (1.0f - n2) - s * (1.0f - n1);\n"
    "}\n";

typedef struct options {
  const float *price, *strike, *years;
  float rate, volatility;
} options;

static double normal_cdf(double d) {
  const double a1 = 0.319381530, a2 = -0.356563782, a3 = 1.781477937,
               a4 = -1.821255978, a5 = 1.330274429;
  double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double tail = 0.398942280 * exp(-0.5 * d * d) *
                (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0 - tail : tail;
}

static bool check_black_scholes(const bench *b, void *const *outputs) {
  const options *s = b->state;
  const float *call = outputs[3], *put = outputs[4];
  size_t bad = 0, first = 0;
  double got_first = 0, want_first = 0;
  for (size_t i = 0; i < b->global[0]; i++) {
    double price = s->price[i], strike = s->strike[i], t = s->years[i];
    double root_t = sqrt(t);
    double d1 = (log(price / strike) +
                 (s->rate + 0.5 * s->volatility * s->volatility) * t) /
                (s->volatility * root_t);
    double d2 = d1 - s->volatility * root_t;
    double discounted = strike * exp(-s->rate * t);
    double n1 = normal_cdf(d1), n2 = normal_cdf(d2);
    double want_call = price * n1 - discounted * n2;
    double want_put = discounted * (1.0 - n2) - price * (1.0 - n1);
    /* Prices up to ~100 from float inputs: cancellation leaves ~1e-5
     * absolute error; 1e-3 separates that from a wrong formula. */
    double tolerance = 1e-3 + 1e-5 * (price + strike);
    bool call_bad = fabs(call[i] - want_call) > tolerance;
    if ((call_bad || fabs(put[i] - want_put) > tolerance) && !bad++) {
      first = i;
      got_first = call_bad ? call[i] : put[i];
      want_first = call_bad ? want_call : want_put;
    }
  }
  return report_mismatches("call/put", bad, first, got_first, want_first);
}

static const char blur_source[] =
    "constant sampler_t nearest_clamped = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void box_blur(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float4 sum = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++) {\n"
    "    for (int dx = -1; dx <= 1; dx++) {\n"
    "      sum += read_imagef(in, nearest_clamped, (int2)(x + dx, y + dy));\n"
    "    }\n"
    "  }\n"
    "  write_imagef(out, (int2)(x, y), sum / 9.0f);\n"
    "}\n";

typedef struct picture {
  const float *rgba;
  int width, height;
} picture;

static bool check_blur(const bench *b, void *const *outputs) {
  const picture *s = b->state;
  const float *out = outputs[1];
  size_t bad = 0, first = 0;
  double want_first = 0;
  for (int y = 0; y < s->height; y++) {
    for (int x = 0; x < s->width; x++) {
      for (int c = 0; c < 4; c++) {
        double sum = 0;
        for (int dy = -1; dy <= 1; dy++) {
          for (int dx = -1; dx <= 1; dx++) {
            int i = x + dx < 0 ? 0 : x + dx >= s->width ? s->width - 1 : x + dx;
            int j = y + dy < 0 ? 0 : y + dy >= s->height ? s->height - 1
                                                          : y + dy;
            sum += s->rgba[((size_t)j * s->width + i) * 4 + c];
          }
        }
        size_t at = ((size_t)y * s->width + x) * 4 + c;
        /* Nine float additions of values in [0,1) and a division. */
        if (fabs(out[at] - sum / 9) > 1e-6 && !bad++) {
          first = at;
          want_first = sum / 9;
        }
      }
    }
  }
  return report_mismatches("out", bad, first, out[first], want_first);
}

/* ---- The build benchmark ------------------------------------------------ */

static const char small_program[] =
    "kernel void scale(global float *x, float a) {\n"
    "  x[get_global_id(0)] *= a;\n"
    "}\n"
    "kernel void offset(global int *x, int b) {\n"
    "  x[get_global_id(0)] += b;\n"
    "}\n"
    "kernel void clamp_all(global float *x) {\n"
    "  size_t i = get_global_id(0);\n"
    "  x[i] = clamp(x[i], -1.0f, 1.0f);\n"
    "}\n"
    "kernel void squares(global int *x) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  x[i] = i * i;\n"
    "}\n";

typedef struct build_times {
  bool ok;
  double init_ms, cold_ms, warm_ms, first_ms;
} build_times;

/* Cold build, then the same text again (warm), then clCreateKernel and a
 * first 1024-item launch of squares (checked). */
static build_times time_builds(const platform *p) {
  build_times t = {0};
  /* The process's first build also loads and sets up the compiler: shown
   * apart, so that the cold figure is a build like any later one. */
  char *source = fresh_source("kernel void first(global int *x) { *x = 1; }");
  cl_program first = build(p, source, NULL, &t.init_ms);
  free(source);
  if (first) clReleaseProgram(first);
  source = fresh_source(small_program);
  cl_program cold = build(p, source, NULL, &t.cold_ms);
  cl_program warm = cold ? build(p, source, NULL, &t.warm_ms) : NULL;
  free(source);
  if (cold) clReleaseProgram(cold);
  if (!warm) return t;
  enum { items = 1024 };
  cl_int error = CL_SUCCESS;
  double start = now_ms();
  cl_kernel kernel = clCreateKernel(warm, "squares", &error);
  cl_mem buffer = clCreateBuffer(p->context, CL_MEM_READ_WRITE,
                                 items * sizeof(cl_int), NULL, &error);
  const size_t global = items;
  if (kernel && buffer &&
      clSetKernelArg(kernel, 0, sizeof buffer, &buffer) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(p->queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                             NULL) == CL_SUCCESS &&
      clFinish(p->queue) == CL_SUCCESS) {
    t.first_ms = now_ms() - start;
    cl_int result[items];
    t.ok = clEnqueueReadBuffer(p->queue, buffer, CL_TRUE, 0, sizeof result,
                               result, 0, NULL, NULL) == CL_SUCCESS;
    for (int i = 0; i < items && t.ok; i++) t.ok = result[i] == i * i;
    printf("  %-10s %11.1f %9.1f %9.1f %13.1f %s\n", p->name, t.init_ms,
           t.cold_ms, t.warm_ms, t.first_ms, t.ok ? "OK" : "WRONG");
  } else {
    printf("  %-10s first launch failed\n", p->name);
  }
  if (buffer) clReleaseMemObject(buffer);
  if (kernel) clReleaseKernel(kernel);
  clReleaseProgram(warm);
  return t;
}

static void run_build_bench(void) {
  if (!selected("small program")) return;
  printf(
      "small program (4 kernels)\n"
      "             1st build ms   cold ms   warm ms  first launch ms\n");
  build_times t[MAX_PLATFORMS];
  for (int i = 0; i < platform_count; i++) t[i] = time_builds(&platforms[i]);
  for (int i = 0; i < platform_count; i++) {
    for (int j = 0; j < platform_count; j++) {
      if (!platforms[i].is_clmux || platforms[j].is_clmux || !t[i].ok ||
          !t[j].ok) {
        continue;
      }
      char label[64];
      snprintf(label, sizeof label, "clmux/%.16s", platforms[j].name);
      printf("  %-10s %11.2f %9.2f %9.2f %13.2f\n", label,
             t[i].init_ms / t[j].init_ms, t[i].cold_ms / t[j].cold_ms,
             t[i].warm_ms / t[j].warm_ms, t[i].first_ms / t[j].first_ms);
    }
  }
}

/* ---- Main --------------------------------------------------------------- */

/* "16M", or "256K" or "64" for small runs. */
const char *count_label(size_t count) {
  static char text[4][32];
  static int next;
  char *out = text[next++ % 4];
  if (count >= (1u << 20)) {
    snprintf(out, 32, "%zuM", count >> 20);
  } else if (count >= (1u << 10)) {
    snprintf(out, 32, "%zuK", count >> 10);
  } else {
    snprintf(out, 32, "%zu", count);
  }
  return out;
}

/* Square SGEMM over a grid of full_side (shrunk by divisor, kept a
 * multiple of the 16x16 work-group) with one kernel source; the matrices
 * are `short_by` smaller than the grid. */
static void run_sgemm(const char *name, const char *kind, const char *source,
                      size_t full_side, size_t divisor, size_t short_by) {
  size_t grid = full_side / (divisor < 16 ? divisor : 16);
  grid = grid < 16 ? 16 : grid / 16 * 16;
  size_t n = grid - short_by;
  float *a = random_floats(n * n, -1.0f, 1.0f);
  float *bm = random_floats(n * n, -1.0f, 1.0f);
  matrices mats = {a, bm, (int)n};
  char label[128];
  snprintf(label, sizeof label, "sgemm %zux%zu, %s", n, n, kind);
  bench b = {name,
             label,
             source,
             2,
             {grid, grid},
             {16, 16},
             {{ARG_IN, a, n * n * 4, 0, 0},
              {ARG_IN, bm, n * n * 4, 0, 0},
              {ARG_OUT, NULL, n * n * 4, 0, 0},
              {ARG_INT, NULL, 0, 0, (cl_int)n}},
             4,
             2.0 * (double)n * (double)n * (double)n,
             "GFLOP/s",
             check_sgemm,
             &mats,
             NULL};
  run_everywhere(&b);
  free(a);
  free(bm);
}

static void run_kernel_benches(size_t divisor) {
  printf(
      "\nkernel                   build ms  1st launch  1st result   median ms"
      "      rate          of limit    check\n");
  const size_t n16 = ((size_t)16 << 20) / divisor,
               n4 = ((size_t)4 << 20) / divisor;
  float *x = random_floats(n16, 0.0f, 1.0f);
  float *y = random_floats(n16, -2.0f, 2.0f);
  char label[128];
  elementwise pair = {x, y, 1.75f};

  snprintf(label, sizeof label, "vector_add (%s floats)", count_label(n16));
  bench b = {"vector_add",
             label,
             vector_add_source,
             1,
             {n16, 1},
             {0, 0},
             {{ARG_IN, x, n16 * 4, 0, 0},
              {ARG_IN, y, n16 * 4, 0, 0},
              {ARG_OUT, NULL, n16 * 4, 0, 0}},
             3,
             12.0 * (double)n16,
             "GB/s",
             check_vector_add,
             &pair,
             NULL};
  run_everywhere(&b);

  snprintf(label, sizeof label, "saxpy_branchy (%s floats)", count_label(n16));
  b = (bench){"saxpy_branchy",
              label,
              saxpy_source,
              1,
              {n16, 1},
              {0, 0},
              {{ARG_IN, x, n16 * 4, 0, 0},
               {ARG_IN, y, n16 * 4, 0, 0},
               {ARG_OUT, NULL, n16 * 4, 0, 0},
               {ARG_FLOAT, NULL, 0, 1.75f, 0}},
              4,
              12.0 * (double)n16,
              "GB/s",
              check_saxpy,
              &pair,
              NULL};
  run_everywhere(&b);

  const size_t local_size = 256;
  reduction sum = {x, 0};
  for (size_t i = 0; i < n16; i++) sum.sum += x[i];
  snprintf(label, sizeof label, "reduce, local tree (%s floats)",
           count_label(n16));
  b = (bench){"reduce",
              label,
              reduce_source,
              1,
              {n16, 1},
              {local_size, 0},
              {{ARG_IN, x, n16 * 4, 0, 0},
               {ARG_OUT, NULL, n16 / local_size * 4, 0, 0},
               {ARG_LOCAL, NULL, local_size * 4, 0, 0}},
              3,
              4.0 * (double)n16,
              "GB/s",
              check_reduce,
              &sum,
              NULL};
  run_everywhere(&b);
  snprintf(label, sizeof label, "reduce, sub-groups (%s floats)",
           count_label(n16));
  b.name = "reduce_sub_groups";
  b.source = reduce_sub_groups_source;
  b.options = "-cl-std=CL3.0";
  run_everywhere(&b);

  snprintf(label, sizeof label, "histogram, local atomics (%s floats)",
           count_label(n16));
  b = (bench){
      "histogram",
      label,
      histogram_source,
      1,
      {n16 / HISTOGRAM_PER_ITEM, 1},
      {local_size, 0},
      {{ARG_IN, x, n16 * 4, 0, 0},
       {ARG_OUT, NULL, n16 / HISTOGRAM_PER_ITEM / local_size * 1024, 0, 0}},
      2,
      4.0 * (double)n16,
      "GB/s",
      check_histogram,
      &sum,
      NULL};
  run_everywhere(&b);

  float *angles = random_floats(n16, -10.0f, 10.0f);
  elementwise values = {angles, NULL, 0};
  for (size_t i = 0; i < sizeof exp_sin_rows / sizeof *exp_sin_rows; i++) {
    const exp_sin_row *row = &exp_sin_rows[i];
    snprintf(label, sizeof label, "%s (%s floats)", row->title,
             count_label(n16));
    b = (bench){row->name,
                label,
                row->source,
                1,
                {n16 / row->per_item, 1},
                {row->local, 0},
                {{ARG_IN, angles, n16 * 4, 0, 0},
                 {ARG_OUT, NULL, n16 * 4, 0, 0}},
                2,
                8.0 * (double)n16,
                "GB/s",
                row->per_item == 4   ? check_exp_sin4
                : row->per_item == 3 ? check_exp_sin3
                                     : check_exp_sin,
                &values,
                row->options};
    run_everywhere(&b);
  }
  free(angles);

  /* Wrapping values into a period, as simulations with periodic
   * boundaries do. */
  float *values_x = random_floats(n16, -1e4f, 1e4f);
  float *periods = random_floats(n16, 0.1f, 10.0f);
  elementwise wrap = {values_x, periods, 0};
  snprintf(label, sizeof label, "fmod(x, y) (%s floats)", count_label(n16));
  b = (bench){"fmod_wrap",
              label,
              fmod_source,
              1,
              {n16, 1},
              {0, 0},
              {{ARG_IN, values_x, n16 * 4, 0, 0},
               {ARG_IN, periods, n16 * 4, 0, 0},
               {ARG_OUT, NULL, n16 * 4, 0, 0}},
              3,
              12.0 * (double)n16,
              "GB/s",
              check_fmod,
              &wrap,
              NULL};
  run_everywhere(&b);
  free(values_x);
  free(periods);
  free(x);
  free(y);

  float *price = random_floats(n4, 5.0f, 30.0f);
  float *strike = random_floats(n4, 1.0f, 100.0f);
  float *years = random_floats(n4, 0.25f, 10.0f);
  options market = {price, strike, years, 0.02f, 0.30f};
  snprintf(label, sizeof label, "black_scholes (%s options)", count_label(n4));
  b = (bench){"black_scholes",
              label,
              black_scholes_source,
              1,
              {n4, 1},
              {0, 0},
              {{ARG_IN, price, n4 * 4, 0, 0},
               {ARG_IN, strike, n4 * 4, 0, 0},
               {ARG_IN, years, n4 * 4, 0, 0},
               {ARG_OUT, NULL, n4 * 4, 0, 0},
               {ARG_OUT, NULL, n4 * 4, 0, 0},
               {ARG_FLOAT, NULL, 0, 0.02f, 0},
               {ARG_FLOAT, NULL, 0, 0.30f, 0}},
              7,
              20.0 * (double)n4,
              "GB/s",
              check_black_scholes,
              &market,
              NULL};
  run_everywhere(&b);
  free(price);
  free(strike);
  free(years);

  int body_count = 4096 / (divisor < 16 ? divisor : 16);
  float *pos = random_floats((size_t)body_count * 4, 0.0f, 1.0f);
  bodies system = {pos, body_count};
  snprintf(label, sizeof label, "nbody %d bodies, float4, rsqrt",
           body_count);
  b = (bench){"nbody",
              label,
              nbody_source,
              1,
              {(size_t)body_count, 1},
              {0, 0},
              {{ARG_IN, pos, (size_t)body_count * 16, 0, 0},
               {ARG_OUT, NULL, (size_t)body_count * 16, 0, 0},
               {ARG_INT, NULL, 0, 0, body_count}},
              3,
              20.0 * (double)body_count * (double)body_count,
              "GFLOP/s",
              check_nbody,
              &system,
              NULL};
  run_everywhere(&b);
  free(pos);

  run_sgemm("sgemm", "16x16 local tiles", sgemm_source, 1024, divisor, 0);
  run_sgemm("sgemm_naive", "naive (a loop over k)", sgemm_naive_source, 512,
            divisor, 0);
  run_sgemm("sgemm_bounded", "naive, bounds-checked", sgemm_bounded_source,
            512, divisor, 8);

  size_t side = 1024 / (divisor < 16 ? divisor : 16);
  float *rgba = random_floats(side * side * 4, 0.0f, 1.0f);
  picture pic = {rgba, (int)side, (int)side};
  snprintf(label, sizeof label,
           "box_blur 3x3, %zux%zu RGBA/FLOAT image, nearest, clamp-to-edge",
           side, side);
  b = (bench){"box_blur",
              label,
              blur_source,
              2,
              {side, side},
              {0, 0},
              {{ARG_IMAGE_IN, rgba, side * side * 16, 0, 0},
               {ARG_IMAGE_OUT, NULL, side * side * 16, 0, 0}},
              2,
              32.0 * (double)side * (double)side,
              "GB/s",
              check_blur,
              &pic,
              NULL};
  run_everywhere(&b);
  free(rgba);
}

int main(int argc, char **argv) {
  size_t divisor = 1;
  bool balance = false, scaling = false;
  const char *only = NULL;
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows through a pipe */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-d") && i + 1 < argc) {
      divisor = (size_t)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-b")) {
      bounds_cost = true;
    } else if (!strcmp(argv[i], "-w")) {
      balance = true;
    } else if (!strcmp(argv[i], "-s")) {
      scaling = true;
    } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
      only = argv[++i];
    } else if (!strcmp(argv[i], "-k") && i + 1 < argc &&
               only_bench_count < MAX_ONLY) {
      only_bench[only_bench_count++] = argv[++i];
    } else {
      fputs(usage, strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? stderr
                                                                      : stdout);
      return strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  if (runs < 1) runs = 1;
  if (divisor < 1 || divisor > 4096) divisor = 1;
  if (balance && worker_balance_run() != 0) {
    fprintf(stderr, "clmux-cl-kernel-bench: -w could not start its run\n");
    return 1;
  }
  if (scaling) {
    if (thread_scaling_run() != 0) {
      fprintf(stderr, "clmux-cl-kernel-bench: -s could not start its runs\n");
      return 1;
    }
    only = "clmux";
  }
  cl_platform_id ids[MAX_PLATFORMS];
  cl_uint count = 0;
  if (clGetPlatformIDs(MAX_PLATFORMS, ids, &count) != CL_SUCCESS ||
      count == 0) {
    fprintf(stderr, "clmux-cl-kernel-bench: no OpenCL platform found\n");
    return 1;
  }
  for (cl_uint i = 0; i < count && i < MAX_PLATFORMS; i++) {
    platform *p = &platforms[platform_count];
    memset(p, 0, sizeof *p);
    char name[64] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (only && !strcasestr(name, only)) continue;
    if (open_platform(ids[i], p)) platform_count++;
  }
  printf("platforms:");
  for (int i = 0; i < platform_count; i++) printf(" %s", platforms[i].name);
  printf("; %d timed runs per kernel\n\n", runs);
  double start = now_ms();
  if (!scaling) run_build_bench();
  limits = measure_machine_limits();
  printf(
      "\nmachine limits, plain C on %d threads: triad %.1f GB/s, "
      "FMA peak %.1f GFLOP/s (%s), integer multiply-add peak %.1f GOP/s\n",
      limits.threads, limits.triad_gbs, limits.fma_gflops, limits.fma_isa,
      limits.int_mad_gops);
  run_kernel_benches(divisor);
  run_divergent_benches(divisor);
  run_uneven_benches(divisor);
  run_half_benches(divisor);
  for (int i = 0; i < platform_count; i++) {
    clReleaseCommandQueue(platforms[i].queue);
    clReleaseContext(platforms[i].context);
  }
  printf("\ntotal %.1f s\n", (now_ms() - start) / 1e3);
  if (scaling_results) fclose(scaling_results);
  return 0;
}

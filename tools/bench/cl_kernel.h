/* clmux-cl-kernel-bench, what its files share: a benchmark row (struct
 * bench) and the harness that runs one on every platform (cl_kernel.c),
 * the rows of kernels whose work-items diverge (cl_divergent.c), those of
 * uneven work-groups (cl_uneven.c) and the
 * machine's limits measured in plain C (machine_limits.c). */
#ifndef CLMUX_BENCH_CL_KERNEL_H
#define CLMUX_BENCH_CL_KERNEL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Buffers of one run: inputs copied from host, outputs read back. */
#define MAX_ARGS 8
typedef struct arg {
  enum {
    ARG_IN,
    ARG_OUT,
    ARG_FLOAT,
    ARG_INT,
    ARG_LOCAL,
    ARG_IMAGE_IN, /* 2D CL_RGBA/CL_FLOAT image, one pixel per work-item */
    ARG_IMAGE_OUT
  } kind;
  const void *host; /* ARG_IN, ARG_IMAGE_IN: data */
  size_t size;      /* bytes (ARG_LOCAL: local bytes) */
  float f;
  cl_int i;
} arg;

typedef struct bench bench;
struct bench {
  const char *name;
  const char *label;  /* with its size */
  const char *source; /* one kernel named `name` */
  cl_uint dims;
  size_t global[2];
  size_t local[2]; /* 0: NULL local size */
  arg args[MAX_ARGS];
  int arg_count;
  double work; /* bytes moved or operations per launch, for the rate */
  /* "GB/s" (shown against the triad bandwidth), "GFLOP/s" (against the
   * FMA peak) or "GOP/s" (integer operations, against the integer
   * multiply-add peak) */
  const char *unit;
  /* Checks the output buffers (in argument order); prints and returns
   * false on a mismatch. */
  bool (*check)(const bench *b, void *const *outputs);
  void *state;         /* host data the check needs */
  const char *options; /* clBuildProgram's options, NULL for none */
};

/* cl_kernel.c: the harness. */
void run_everywhere(const bench *b);
bool selected(const char *label); /* -k: is the row with this title run? */
bool report_mismatches(const char *what, size_t bad, size_t first, double got,
                       double want);
float *random_floats(size_t count, float low, float high);
void *bench_malloc(size_t size); /* exits when out of memory */
const char *count_label(size_t count);
/* Makes a file from the mkstemp template `path` (rewritten in place) and
 * forks: the child's pid in the parent, 0 in the child, -1 if either
 * failed (-w and -s report from a child's run). */
pid_t fork_with_temp_file(char *path);

/* cl_divergent.c: escape-time fractal, grid-stride reduction, dependent
 * mad chains, convert_uchar4_sat. */
void run_divergent_benches(size_t divisor);

/* cl_uneven.c: work-groups of unequal cost: Collatz, CSR SpMV, work
 * growing with the id. */
void run_uneven_benches(size_t divisor);

/* cl_half.c: the same kernels on half and float (cl_khr_fp16). */
void run_half_benches(size_t divisor);

/* machine_limits.c: what the machine can do, in plain C on every core. */
typedef struct machine_limits {
  int threads;
  double triad_gbs;    /* a[i] = b[i] + s*c[i] over doubles, 24 bytes each */
  double fma_gflops;   /* float FMA, 2 flops per lane */
  const char *fma_isa; /* "AVX-512F", "AVX2+FMA" or "generic C" */
  double int_mad_gops; /* 32-bit x*m + a, 2 operations per lane */
} machine_limits;
machine_limits measure_machine_limits(void);
/* The float FMA peak on `threads` threads, GFLOP/s (0 if it failed). */
double machine_fma_gflops(int threads);

/* worker_balance.c (-w): the run continues in a child process with
 * CLMUX_TRACE set; the parent reports each kernel's worker balance from the
 * timeline and exits. Returns 0 in the child, -1 if it could not start. */
int worker_balance_run(void);

/* thread_scaling.c (-s): the run continues in one child process per thread
 * count, each writing "title<TAB>median ms" of every correct clmux row to
 * scaling_results; the parent prints the speedups and exits. Returns 0 in
 * a child, -1 if it could not start. */
extern FILE *scaling_results;
int thread_scaling_run(void);

#endif

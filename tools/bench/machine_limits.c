/* What the machine can do, measured in plain C on every core the process
 * may run on, for clmux-cl-kernel-bench to show each kernel's rate
 * against:
 *   - a STREAM-like triad a[i] = b[i] + s*c[i] over three arrays of 16M
 *     doubles (128 MiB each, far beyond the caches), 24 bytes counted per
 *     element (read b and c, write a) as STREAM counts them;
 *   - the float FMA peak: 12 independent chains of vector FMAs per thread
 *     (AVX-512F with 64-byte vectors when the CPU has it, else AVX2+FMA
 *     with 32-byte vectors), 2 flops per lane;
 *   - the 32-bit integer multiply-add peak, x = x*m + a the same way
 *     (vpmulld and vpaddd), 2 operations per lane: the limit for integer
 *     kernels (hashes, random numbers), whose multiplies are slower than
 *     float FMAs on most x86 cores.
 * Each figure is the fastest of several runs, as STREAM reports (20 and
 * 10 runs, ~0.3 s each: a short burst of other work on a shared machine
 * does not decide it; sustained load still lowers both, and then rates
 * above 100% of a limit show it). */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cl_kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define MAX_THREADS 256

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- Running one piece of work on every thread ------------------------- */

typedef void work_fn(int index, int count, void *context);

typedef struct team {
  work_fn *work;
  void *context;
  int count, reps;
  pthread_barrier_t barrier;
} team;

typedef struct member {
  team *team;
  int index;
} member;

static void *member_main(void *argument) {
  member *m = argument;
  for (int r = 0; r < m->team->reps; r++) {
    pthread_barrier_wait(&m->team->barrier);
    m->team->work(m->index, m->team->count, m->team->context);
    pthread_barrier_wait(&m->team->barrier);
  }
  return NULL;
}

/* Runs work on `count` threads (the caller is number 0), all starting
 * together, `reps` times; the shortest run in seconds. */
static double fastest_run(work_fn *work, void *context, int count, int reps) {
  team t = {.work = work, .context = context, .count = count, .reps = reps};
  pthread_barrier_init(&t.barrier, NULL, (unsigned)count);
  pthread_t threads[MAX_THREADS];
  member members[MAX_THREADS];
  for (int i = 1; i < count; i++) {
    members[i] = (member){&t, i};
    if (pthread_create(&threads[i], NULL, member_main, &members[i])) {
      fprintf(stderr, "clmux-cl-kernel-bench: cannot start a thread\n");
      exit(1);
    }
  }
  double best = INFINITY;
  for (int r = 0; r < reps; r++) {
    pthread_barrier_wait(&t.barrier);
    double start = now_seconds();
    work(0, count, context);
    pthread_barrier_wait(&t.barrier);
    double seconds = now_seconds() - start;
    if (seconds < best) best = seconds;
  }
  for (int i = 1; i < count; i++) pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&t.barrier);
  return best;
}

/* ---- Triad --------------------------------------------------------------- */

typedef struct arrays {
  double *a, *b, *c;
  size_t n;
} arrays;

static void slice(int index, int count, size_t n, size_t *begin, size_t *end) {
  *begin = n * (size_t)index / (size_t)count;
  *end = n * (size_t)(index + 1) / (size_t)count;
}

/* Each thread touches first the part it will stream. */
static void triad_fill(int index, int count, void *context) {
  arrays *x = context;
  size_t begin, end;
  slice(index, count, x->n, &begin, &end);
  for (size_t i = begin; i < end; i++) {
    x->a[i] = 0.0;
    x->b[i] = 1.0;
    x->c[i] = 2.0;
  }
}

static void triad(int index, int count, void *context) {
  arrays *x = context;
  size_t begin, end;
  slice(index, count, x->n, &begin, &end);
  double *restrict a = x->a;
  const double *restrict b = x->b, *restrict c = x->c;
  const double s = 3.0;
  for (size_t i = begin; i < end; i++) a[i] = b[i] + s * c[i];
}

static double triad_gbs(int threads) {
  arrays x = {.n = (size_t)16 << 20};
  x.a = bench_malloc(x.n * sizeof(double));
  x.b = bench_malloc(x.n * sizeof(double));
  x.c = bench_malloc(x.n * sizeof(double));
  fastest_run(triad_fill, &x, threads, 1);
  double seconds = fastest_run(triad, &x, threads, 20);
  bool right = x.a[0] == 7.0 && x.a[x.n - 1] == 7.0;
  free(x.a);
  free(x.b);
  free(x.c);
  return right ? 24.0 * (double)x.n / seconds / 1e9 : 0.0;
}

/* ---- FMA peak ------------------------------------------------------------ */

/* Iterations of the 12 chains per thread and run. */
#define FMA_ITERATIONS (1L << 23)
#define FMA_CHAINS 12

typedef struct fma_context {
  int lanes; /* floats per vector */
  float (*chains)(long iterations, float seed);
  float result[MAX_THREADS]; /* kept, so that nothing is optimized away */
} fma_context;

/* x = x*m + a converges to a/(1 - m): no overflow, no subnormals. */
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f"))) static float fma_chains_avx512(
    long iterations, float seed) {
  const __m512 m = _mm512_set1_ps(0.999f), a = _mm512_set1_ps(0.001f);
  __m512 x[FMA_CHAINS];
  for (int k = 0; k < FMA_CHAINS; k++) x[k] = _mm512_set1_ps(seed + (float)k);
  for (long i = 0; i < iterations; i++) {
    for (int k = 0; k < FMA_CHAINS; k++) x[k] = _mm512_fmadd_ps(x[k], m, a);
  }
  for (int k = 1; k < FMA_CHAINS; k++) x[0] = _mm512_add_ps(x[0], x[k]);
  return _mm512_reduce_add_ps(x[0]);
}

__attribute__((target("avx2,fma"))) static float fma_chains_avx2(
    long iterations, float seed) {
  const __m256 m = _mm256_set1_ps(0.999f), a = _mm256_set1_ps(0.001f);
  __m256 x[FMA_CHAINS];
  for (int k = 0; k < FMA_CHAINS; k++) x[k] = _mm256_set1_ps(seed + (float)k);
  for (long i = 0; i < iterations; i++) {
    for (int k = 0; k < FMA_CHAINS; k++) x[k] = _mm256_fmadd_ps(x[k], m, a);
  }
  for (int k = 1; k < FMA_CHAINS; k++) x[0] = _mm256_add_ps(x[0], x[k]);
  float lanes[8];
  _mm256_storeu_ps(lanes, x[0]);
  float sum = 0;
  for (int l = 0; l < 8; l++) sum += lanes[l];
  return sum;
}
#endif

/* No FMA instructions to ask for: a multiply and an add, vectorized by
 * GCC's vector extensions (still 2 flops). */
typedef float v8 __attribute__((vector_size(32)));
static float fma_chains_generic(long iterations, float seed) {
  const v8 m = {0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f};
  const v8 a = {0.001f, 0.001f, 0.001f, 0.001f, 0.001f, 0.001f, 0.001f, 0.001f};
  v8 x[FMA_CHAINS];
  for (int k = 0; k < FMA_CHAINS; k++) x[k] = m * 0 + seed + (float)k;
  for (long i = 0; i < iterations; i++) {
    for (int k = 0; k < FMA_CHAINS; k++) x[k] = x[k] * m + a;
  }
  float sum = 0;
  for (int k = 0; k < FMA_CHAINS; k++) {
    for (int l = 0; l < 8; l++) sum += x[k][l];
  }
  return sum;
}

/* ---- Integer multiply-add peak ------------------------------------------ */

/* x = x*m + a wraps (an LCG): the same 12 chains, 16 or 8 lanes each. */
typedef struct int_mad_context {
  int lanes;
  uint32_t (*chains)(long iterations, uint32_t seed);
  uint32_t result[MAX_THREADS];
} int_mad_context;

#define INT_MAD_M 1664525u
#define INT_MAD_A 1013904223u

/* GCC's vector extensions, compiled for the ISA named: one function per
 * width, as the FMA chains have. */
#define INT_MAD_CHAINS(name, target_isa, bytes)                             \
  __attribute__((target(target_isa))) static uint32_t name(long iterations, \
                                                           uint32_t seed) { \
    typedef uint32_t vec __attribute__((vector_size(bytes)));               \
    const vec m = (vec){0} + INT_MAD_M, a = (vec){0} + INT_MAD_A;           \
    vec x[FMA_CHAINS];                                                      \
    for (int k = 0; k < FMA_CHAINS; k++) x[k] = (vec){0} + (seed + k);      \
    for (long i = 0; i < iterations; i++) {                                 \
      for (int k = 0; k < FMA_CHAINS; k++) x[k] = x[k] * m + a;             \
    }                                                                       \
    uint32_t sum = 0;                                                       \
    for (int k = 0; k < FMA_CHAINS; k++) {                                  \
      for (int l = 0; l < (int)(bytes / 4); l++) sum += x[k][l];            \
    }                                                                       \
    return sum;                                                             \
  }
#if defined(__x86_64__) || defined(__i386__)
INT_MAD_CHAINS(int_mad_avx512, "avx512f", 64)
INT_MAD_CHAINS(int_mad_avx2, "avx2", 32)
#endif
INT_MAD_CHAINS(int_mad_generic, "default", 32)

/* What one thread's chains must add up to, computed one lane at a time. */
static uint32_t int_mad_expected(long iterations, uint32_t seed, int lanes) {
  uint32_t sum = 0;
  for (int k = 0; k < FMA_CHAINS; k++) {
    uint32_t x = seed + (uint32_t)k;
    for (long i = 0; i < iterations; i++) x = x * INT_MAD_M + INT_MAD_A;
    sum += x * (uint32_t)lanes;
  }
  return sum;
}

static void int_mad_run(int index, int count, void *context) {
  (void)count;
  int_mad_context *c = context;
  c->result[index] = c->chains(FMA_ITERATIONS, (uint32_t)index);
}

static double int_mad_gops(int threads) {
  int_mad_context c = {.lanes = 8, .chains = int_mad_generic};
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    c = (int_mad_context){.lanes = 16, .chains = int_mad_avx512};
  } else if (__builtin_cpu_supports("avx2")) {
    c = (int_mad_context){.lanes = 8, .chains = int_mad_avx2};
  }
#endif
  double seconds = fastest_run(int_mad_run, &c, threads, 10);
  for (int i = 0; i < threads; i++) {
    if (c.result[i] != int_mad_expected(FMA_ITERATIONS, (uint32_t)i, c.lanes)) {
      return 0.0;
    }
  }
  return 2.0 * c.lanes * FMA_CHAINS * (double)FMA_ITERATIONS * threads /
         seconds / 1e9;
}

static void fma_run(int index, int count, void *context) {
  (void)count;
  fma_context *f = context;
  f->result[index] = f->chains(FMA_ITERATIONS, (float)index);
}

static double fma_gflops(int threads, const char **isa) {
  fma_context f = {.lanes = 8, .chains = fma_chains_generic};
  *isa = "generic C, multiply and add";
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    f = (fma_context){.lanes = 16, .chains = fma_chains_avx512};
    *isa = "AVX-512F";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    f = (fma_context){.lanes = 8, .chains = fma_chains_avx2};
    *isa = "AVX2+FMA";
  }
#endif
  double seconds = fastest_run(fma_run, &f, threads, 10);
  /* Every chain converges to 1 (to within float rounding's stall, ~1e-4):
   * the sum is lanes * chains. */
  const float expected = (float)(f.lanes * FMA_CHAINS);
  for (int i = 0; i < threads; i++) {
    if (!(fabsf(f.result[i] - expected) <= 1e-3f * expected)) return 0.0;
  }
  return 2.0 * f.lanes * FMA_CHAINS * (double)FMA_ITERATIONS * threads /
         seconds / 1e9;
}

double machine_fma_gflops(int threads) {
  const char *isa = NULL;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  return fma_gflops(threads < 1 ? 1 : threads, &isa);
}

machine_limits measure_machine_limits(void) {
  machine_limits limits = {.threads = 1};
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) {
    limits.threads = CPU_COUNT(&cpus);
  }
  if (limits.threads > MAX_THREADS) limits.threads = MAX_THREADS;
  limits.triad_gbs = triad_gbs(limits.threads);
  limits.fma_gflops = fma_gflops(limits.threads, &limits.fma_isa);
  limits.int_mad_gops = int_mad_gops(limits.threads);
  return limits;
}

/* What the OpenCL benchmarks share: each platform the ICD loader finds is
 * benched in a child process of its own (no platform's threads slow
 * another's, and a crash costs one platform its figures), which hands its
 * fixed-size result back through a pipe. */
#ifndef CLMUX_BENCH_PER_PLATFORM_H
#define CLMUX_BENCH_PER_PLATFORM_H

#include <CL/cl.h>
#include <stddef.h>

enum { bench_max_platforms = 16 };

/* Runs bench(platform, result, context) for platform 0, 1, ... in a child
 * each, collecting `result_size`-byte results into `results` (room for
 * bench_max_platforms). A child that dies leaves its result as `failed`
 * (result_size bytes) with its index written by name_failed. Returns the
 * number of platforms found. */
int bench_each_platform(void (*bench)(cl_platform_id platform, void *result,
                                      void *context),
                        void *context, void *results, size_t result_size,
                        void (*name_failed)(void *result, int index));

/* Microseconds of CLOCK_MONOTONIC. */
double bench_now_us(void);
/* The median of `count` samples (sorts them). */
double bench_median(double *samples, int count);

/* Returns from a void bench function when an OpenCL call fails, saying
 * which, for the platform named `name`. */
#define BENCH_CHECK(name, call)                                         \
  do {                                                                  \
    cl_int check_error = (call);                                        \
    if (check_error != CL_SUCCESS) {                                    \
      fprintf(stderr, "%s: %s failed: %d\n", name, #call, check_error); \
      return;                                                           \
    }                                                                   \
  } while (0)

#endif /* CLMUX_BENCH_PER_PLATFORM_H */

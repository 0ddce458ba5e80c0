/* The per-platform child processes of the OpenCL benchmarks. */
#include "per_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double bench_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *samples, int count) {
  qsort(samples, (size_t)count, sizeof *samples, compare_double);
  return samples[count / 2];
}

int bench_each_platform(void (*bench)(cl_platform_id platform, void *result,
                                      void *context),
                        void *context, void *results, size_t result_size,
                        void (*name_failed)(void *result, int index)) {
  int found = 0;
  for (int index = 0; index < bench_max_platforms; index++) {
    int channel[2];
    if (pipe(channel) != 0) return found;
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) return found;
    if (child == 0) {
      close(channel[0]);
      cl_platform_id platforms[bench_max_platforms];
      cl_uint count = 0;
      if (clGetPlatformIDs(bench_max_platforms, platforms, &count) ==
              CL_SUCCESS &&
          (cl_uint)index < count) {
        void *mine = calloc(1, result_size);
        if (!mine) _exit(1);
        bench(platforms[index], mine, context);
        fflush(stdout);
        if (write(channel[1], mine, result_size) != (ssize_t)result_size) {
          _exit(1);
        }
      }
      _exit(0);
    }
    close(channel[1]);
    char *slot = (char *)results + (size_t)found * result_size;
    ssize_t size = read(channel[0], slot, result_size);
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    /* Nothing written and a clean exit: no platform at this index (a
     * child that died before writing is a platform that failed). */
    if (size == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    if (size != (ssize_t)result_size) {
      memset(slot, 0, result_size);
      name_failed(slot, index);
    }
    found++;
  }
  return found;
}

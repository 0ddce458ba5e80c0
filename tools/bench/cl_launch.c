/* clmux-cl-launch-bench: the cost of a kernel launch through the OpenCL API,
 * for every platform the ICD loader finds, in one run, so clmux and another
 * CPU implementation (PoCL) are compared on the same machine state.
 *
 * Every platform runs the same OpenCL C kernel, built from source, with one
 * work-item, and each platform runs in a child process of its own: worker
 * threads one implementation leaves spinning must not slow the next.
 *   round trip  clEnqueueNDRangeKernel + clFinish, median and p99
 *   batched     100 launches, then one clFinish: µs per launch, median
 *   idle        CPU time the process uses while it waits 200 ms between
 *               launches, as a share of one core (spinning workers show here)
 * Usage: clmux-cl-launch-bench [iterations]   (default 2000) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { batch_size = 100, batch_rounds = 50, max_platforms = 16 };

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double cpu_us(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 +
         (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define CHECK(call)                                              \
  do {                                                           \
    cl_int check_error = (call);                                 \
    if (check_error != CL_SUCCESS) {                             \
      printf("%-30s %s failed: %d\n", name, #call, check_error); \
      return 1;                                                  \
    }                                                            \
  } while (0)

static int launch(const char *name, cl_command_queue queue, cl_kernel kernel) {
  const size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0, NULL,
                               NULL));
  return 0;
}

/* Round trips into `samples`, then batches into `batches` (µs per launch). */
static int measure(const char *name, cl_command_queue queue, cl_kernel kernel,
                   int iterations, double *samples, double *batches) {
  /* The first launches include one-time costs (PoCL compiles per local
   * size); they are not part of the steady-state figure. */
  for (int i = 0; i < 10; i++) {
    if (launch(name, queue, kernel)) return 1;
    CHECK(clFinish(queue));
  }
  for (int i = 0; i < iterations; i++) {
    double start = now_us();
    if (launch(name, queue, kernel)) return 1;
    CHECK(clFinish(queue));
    samples[i] = now_us() - start;
  }
  for (int round = 0; round < batch_rounds; round++) {
    double start = now_us();
    for (int i = 0; i < batch_size; i++) {
      if (launch(name, queue, kernel)) return 1;
    }
    CHECK(clFinish(queue));
    batches[round] = (now_us() - start) / batch_size;
  }
  return 0;
}

/* CPU time used while the application sleeps with the queue idle. */
static int idle_share(const char *name, cl_command_queue queue,
                      cl_kernel kernel, double *share) {
  if (launch(name, queue, kernel)) return 1;
  CHECK(clFinish(queue));
  double cpu = cpu_us(), wall = now_us();
  usleep(200000);
  *share = (cpu_us() - cpu) / (now_us() - wall);
  return 0;
}

static int bench_platform(cl_platform_id platform, int iterations) {
  char name[256] = "?";
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
  name[30] = '\0';
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
  cl_int error;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  CHECK(error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  CHECK(error);
  const char *source = "kernel void empty(global int *unused) {}";
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK(error);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "empty", &error);
  CHECK(error);
  cl_mem unused = NULL;
  CHECK(clSetKernelArg(kernel, 0, sizeof unused, &unused));

  double *samples = malloc(sizeof(double) * (size_t)iterations);
  double batches[batch_rounds], idle = 0;
  if (!samples) return 1;
  int failed = measure(name, queue, kernel, iterations, samples, batches) ||
               idle_share(name, queue, kernel, &idle);
  if (!failed) {
    qsort(samples, (size_t)iterations, sizeof(double), compare_double);
    qsort(batches, batch_rounds, sizeof(double), compare_double);
    printf(
        "%-30s round trip median %7.2f us, p99 %7.2f us (%d runs); "
        "batched %5.2f us per launch; idle %4.1f%% of a core\n",
        name, samples[iterations / 2], samples[(size_t)iterations * 99 / 100],
        iterations, batches[batch_rounds / 2], idle * 100);
  }
  free(samples);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return failed;
}

/* In a child process: bench platform `index`; exit 2 when there is none. */
static int run_child(int index, int iterations) {
  cl_platform_id platforms[max_platforms];
  cl_uint count = 0;
  if (clGetPlatformIDs(max_platforms, platforms, &count) != CL_SUCCESS ||
      (cl_uint)index >= count) {
    return 2;
  }
  return bench_platform(platforms[index], iterations);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 2000;
  if (iterations < 1) iterations = 1;
  int failed = 0, benched = 0;
  for (int index = 0; index < max_platforms; index++) {
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
      int code = run_child(index, iterations);
      fflush(stdout);
      _exit(code);
    }
    int status = 0;
    waitpid(child, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (code == 2) break;
    benched++;
    failed |= code != 0;
  }
  if (benched == 0) {
    fprintf(stderr, "clmux-cl-launch-bench: no OpenCL platform found\n");
    return 1;
  }
  return failed;
}

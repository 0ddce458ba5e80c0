/* clmux-cl-stress: a soak of the OpenCL runtime through the ICD loader.
 * Many threads at once, each in a loop: build a program (one of 16
 * variants, and now and then one never seen before), create its kernels,
 * set their arguments, create buffers, then on two queues (one in order,
 * one out of order) a write gated by a user event, a kernel waiting for
 * it, a marker, a second kernel on the other queue (every other time
 * recorded into a cl_khr_command_buffer, enqueued and released at once,
 * when the platform has the extension), event callbacks and a blocking
 * read, checked element by element; every object released again. Every few
 * iterations the thread makes itself a new context. Resident memory is sampled
 * every 10 s. The last lines give the iterations, wrong results, API errors,
 * callbacks missed and the growth of resident memory over the last 5 minutes
 * (or the second half of a shorter run: the least-squares trend), all of it and
 * its anonymous part; the exit status is non-zero when any is wrong, or the
 * growth of all of it is -g PERCENT (1) or more (sanitizers' quarantines grow
 * by design: their builds pass a larger bound). Usage: clmux-cl-stress [-t
 * SECONDS] [-j THREADS] [-p PLATFORM] [-g PERCENT]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64
#define MAX_SAMPLES 4096
#define ELEMENTS 4099 /* not a multiple of any local size */

static cl_platform_id platform;
static cl_device_id device;
static atomic_bool stopping;
static atomic_long iterations, wrong, errors, callbacks_wanted, callbacks_run;

/* cl_khr_command_buffer, if the platform has it: only calls whose
 * signature every draft of the extension shares. */
static struct {
  clCreateCommandBufferKHR_fn create;
  clCommandNDRangeKernelKHR_fn ndrange;
  clFinalizeCommandBufferKHR_fn finalize;
  clEnqueueCommandBufferKHR_fn enqueue;
  clReleaseCommandBufferKHR_fn release;
} recorded;

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* An API call that must succeed; counts and reports the first few that
 * do not. */
static bool ok(cl_int error, const char *what, int line) {
  if (error == CL_SUCCESS) return true;
  if (atomic_fetch_add(&errors, 1) < 10) {
    fprintf(stderr, "clmux-cl-stress: %s failed (%d) at line %d\n", what, error,
            line);
  }
  return false;
}
#define OK(call) ok((call), #call, __LINE__)

static void CL_CALLBACK counted(cl_event event, cl_int status, void *data) {
  (void)event;
  (void)data;
  if (status == CL_COMPLETE) atomic_fetch_add(&callbacks_run, 1);
}

/* Makes this run's programs "never seen" new to a disk cache that earlier
 * runs filled (else, once those are cached, a run compiles nothing, and
 * its memory is not that of an application that compiles). */
static unsigned long run_nonce;

/* y = x * SCALE + a, then y += OFFSET by the second kernel. */
static char *program_source(int variant, long unique) {
  char *text = NULL;
  if (asprintf(&text,
               "// %lx %ld\n"
               "#define SCALE %d\n#define OFFSET %d\n"
               "kernel void scale(global const float *x, global float *y,\n"
               "                  float a, uint n) {\n"
               "  size_t i = get_global_id(0);\n"
               "  if (i < n) y[i] = x[i] * SCALE + a;\n"
               "}\n"
               "kernel void shift(global float *y, uint n) {\n"
               "  size_t i = get_global_id(0);\n"
               "  if (i < n) y[i] += OFFSET;\n"
               "}\n",
               unique < 0 ? 0ul : run_nonce, unique, variant + 1,
               variant * 3) < 0) {
    return NULL;
  }
  return text;
}

/* One iteration in `context`; false when something failed (counted). */
static bool iterate(cl_context context, unsigned *seed, long serial) {
  int variant = (int)(rand_r(seed) % 16);
  /* One build in 64 is of a program never seen: a real compilation. */
  long unique = rand_r(seed) % 64 == 0 ? serial : -1;
  char *source = program_source(variant, unique);
  if (!source) return false;
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  free(source);
  if (!OK(error)) return false;
  bool fine = OK(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  cl_kernel scale = NULL, shift = NULL;
  cl_command_queue in_order = NULL, out_of_order = NULL;
  cl_mem x = NULL, y = NULL;
  cl_event gate = NULL, written = NULL, scaled = NULL, marker = NULL,
           shifted = NULL;
  float host_x[ELEMENTS], host_y[ELEMENTS];
  const float a = (float)(rand_r(seed) % 100);
  const cl_uint n = ELEMENTS - (cl_uint)(rand_r(seed) % 7);
  for (cl_uint i = 0; i < ELEMENTS; i++) host_x[i] = (float)((i * 7u) % 1000u);
  if (fine) {
    scale = clCreateKernel(program, "scale", &error);
    fine = OK(error);
  }
  if (fine) {
    shift = clCreateKernel(program, "shift", &error);
    fine = OK(error);
  }
  if (fine) {
    in_order = clCreateCommandQueue(context, device, 0, &error);
    fine = OK(error);
  }
  if (fine) {
    out_of_order = clCreateCommandQueue(
        context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &error);
    fine = OK(error);
  }
  if (fine) {
    x = clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof host_x, NULL, &error);
    fine = OK(error);
  }
  if (fine) {
    y = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host_y, NULL, &error);
    fine = OK(error);
  }
  if (fine) {
    gate = clCreateUserEvent(context, &error);
    fine = OK(error);
  }
  fine = fine && OK(clSetKernelArg(scale, 0, sizeof x, &x)) &&
         OK(clSetKernelArg(scale, 1, sizeof y, &y)) &&
         OK(clSetKernelArg(scale, 2, sizeof a, &a)) &&
         OK(clSetKernelArg(scale, 3, sizeof n, &n)) &&
         OK(clSetKernelArg(shift, 0, sizeof y, &y)) &&
         OK(clSetKernelArg(shift, 1, sizeof n, &n));
  size_t global = ELEMENTS, local = (size_t)(1 + rand_r(seed) % 64);
  global = (global + local - 1) / local * local;
  fine = fine &&
         OK(clEnqueueWriteBuffer(out_of_order, x, CL_FALSE, 0, sizeof host_x,
                                 host_x, 1, &gate, &written)) &&
         OK(clEnqueueNDRangeKernel(out_of_order, scale, 1, NULL, &global,
                                   &local, 1, &written, &scaled)) &&
         OK(clEnqueueMarkerWithWaitList(out_of_order, 1, &scaled, &marker));
  if (fine && recorded.create && rand_r(seed) % 2) {
    /* Released as soon as it is enqueued: the run must still happen. */
    cl_command_buffer_khr commands =
        recorded.create(1, &in_order, NULL, &error);
    fine = OK(error) &&
           OK(recorded.ndrange(commands, NULL, NULL, shift, 1, NULL, &global,
                               NULL, 0, NULL, NULL, NULL)) &&
           OK(recorded.finalize(commands)) &&
           OK(recorded.enqueue(0, NULL, commands, 1, &marker, &shifted));
    if (commands) fine = OK(recorded.release(commands)) && fine;
  } else if (fine) {
    fine = OK(clEnqueueNDRangeKernel(in_order, shift, 1, NULL, &global, NULL, 1,
                                     &marker, &shifted));
  }
  if (fine) {
    atomic_fetch_add(&callbacks_wanted, 2);
    fine = OK(clSetEventCallback(scaled, CL_COMPLETE, counted, NULL)) &&
           OK(clSetEventCallback(shifted, CL_COMPLETE, counted, NULL));
  }
  /* The gate opens last: everything above waited for it. */
  if (gate) fine = OK(clSetUserEventStatus(gate, CL_COMPLETE)) && fine;
  if (fine) {
    fine = OK(clEnqueueReadBuffer(in_order, y, CL_TRUE, 0, n * sizeof(float),
                                  host_y, 0, NULL, NULL));
  }
  if (fine) {
    size_t bad = 0;
    for (cl_uint i = 0; i < n; i++) {
      float want = host_x[i] * (float)(variant + 1) + a + (float)(variant * 3);
      bad += host_y[i] != want;
    }
    if (bad && atomic_fetch_add(&wrong, 1) < 10) {
      fprintf(stderr, "clmux-cl-stress: %zu wrong results (variant %d)\n", bad,
              variant);
    }
  }
  if (out_of_order) OK(clFinish(out_of_order));
  if (in_order) OK(clFinish(in_order));
  cl_event events[] = {gate, written, scaled, marker, shifted};
  for (size_t e = 0; e < sizeof events / sizeof *events; e++) {
    if (events[e]) OK(clReleaseEvent(events[e]));
  }
  if (x) OK(clReleaseMemObject(x));
  if (y) OK(clReleaseMemObject(y));
  if (in_order) OK(clReleaseCommandQueue(in_order));
  if (out_of_order) OK(clReleaseCommandQueue(out_of_order));
  if (scale) OK(clReleaseKernel(scale));
  if (shift) OK(clReleaseKernel(shift));
  OK(clReleaseProgram(program));
  return fine;
}

static void *worker(void *argument) {
  unsigned seed = (unsigned)(uintptr_t)argument * 2654435761u + 1;
  long serial = (long)(uintptr_t)argument << 32;
  while (!atomic_load(&stopping)) {
    cl_int error = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    if (!OK(error)) return NULL;
    for (int i = 0; i < 20 && !atomic_load(&stopping); i++) {
      iterate(context, &seed, serial++);
      atomic_fetch_add(&iterations, 1);
    }
    OK(clReleaseContext(context));
  }
  return NULL;
}

/* Resident KiB: all of it, and the anonymous part (the heap, where a leak
 * would show; the rest is mostly pages of LLVM's and Clang's code). */
static void resident_kib(long *total, long *anonymous) {
  *total = *anonymous = 0;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    sscanf(line, "VmRSS: %ld", total);
    sscanf(line, "RssAnon: %ld", anonymous);
  }
  fclose(f);
}

/* The least-squares trend of values[from..count) over their times, as a
 * share (%) of their mean (*mean), from the first time to the last. One
 * sample swings by a few percent with the compiles in flight at that
 * moment; two of them would measure that. */
static double trend(const double *times, const long *values, int from,
                    int count, double *mean) {
  double n = count - from, mean_t = 0, mean_v = 0;
  for (int i = from; i < count; i++) {
    mean_t += times[i] / n;
    mean_v += (double)values[i] / n;
  }
  double covariance = 0, variance = 0;
  for (int i = from; i < count; i++) {
    covariance += (times[i] - mean_t) * ((double)values[i] - mean_v);
    variance += (times[i] - mean_t) * (times[i] - mean_t);
  }
  *mean = mean_v;
  if (variance <= 0 || mean_v <= 0) return 0.0;
  return 100.0 * covariance / variance * (times[count - 1] - times[from]) /
         mean_v;
}

static bool find_device(const char *wanted) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS) return false;
  for (cl_uint p = 0; p < count && p < 16; p++) {
    char name[128] = "";
    clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (wanted && !strstr(name, wanted)) continue;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) ==
        CL_SUCCESS) {
      platform = platforms[p];
      printf("platform: %s\n", name);
      recorded.create =
          (clCreateCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
              platform, "clCreateCommandBufferKHR");
      recorded.ndrange = (clCommandNDRangeKernelKHR_fn)
          clGetExtensionFunctionAddressForPlatform(platform,
                                                   "clCommandNDRangeKernelKHR");
      recorded.finalize = (clFinalizeCommandBufferKHR_fn)
          clGetExtensionFunctionAddressForPlatform(
              platform, "clFinalizeCommandBufferKHR");
      recorded.enqueue = (clEnqueueCommandBufferKHR_fn)
          clGetExtensionFunctionAddressForPlatform(platform,
                                                   "clEnqueueCommandBufferKHR");
      recorded.release = (clReleaseCommandBufferKHR_fn)
          clGetExtensionFunctionAddressForPlatform(platform,
                                                   "clReleaseCommandBufferKHR");
      if (!recorded.ndrange || !recorded.finalize || !recorded.enqueue ||
          !recorded.release) {
        recorded.create = NULL;
      }
      return true;
    }
  }
  return false;
}

int main(int argc, char **argv) {
  double seconds = 60;
  int threads = 8;
  const char *wanted = "clmux";
  double most_growth = 1.0;
  run_nonce = (unsigned long)time(NULL) << 20 ^ (unsigned long)getpid();
  int option;
  while ((option = getopt(argc, argv, "t:j:p:g:h")) != -1) {
    switch (option) {
      case 't':
        seconds = atof(optarg);
        break;
      case 'g':
        most_growth = atof(optarg);
        break;
      case 'j':
        threads = atoi(optarg);
        break;
      case 'p':
        wanted = optarg;
        break;
      default:
        fprintf(stderr,
                "Usage: %s [-t SECONDS (60)] [-j THREADS (8)] [-p PLATFORM "
                "(clmux)] [-g PERCENT (1)]\n",
                argv[0]);
        return option == 'h' ? 0 : 2;
    }
  }
  if (threads < 1 || threads > MAX_THREADS || !(seconds > 0)) return 2;
  if (!find_device(wanted)) {
    fprintf(stderr, "clmux-cl-stress: no platform named %s\n", wanted);
    return 2;
  }
  pthread_t ids[MAX_THREADS];
  for (int t = 0; t < threads; t++) {
    if (pthread_create(&ids[t], NULL, worker, (void *)(uintptr_t)(t + 1))) {
      fprintf(stderr, "clmux-cl-stress: cannot start a thread\n");
      return 2;
    }
  }
  static long samples[MAX_SAMPLES], anonymous[MAX_SAMPLES];
  static double times[MAX_SAMPLES];
  int sample_count = 0;
  double start = now_seconds();
  while (now_seconds() - start < seconds) {
    double left = seconds - (now_seconds() - start);
    usleep((useconds_t)((left < 10 ? left : 10) * 1e6));
    if (sample_count < MAX_SAMPLES) {
      times[sample_count] = now_seconds() - start;
      resident_kib(&samples[sample_count], &anonymous[sample_count]);
      sample_count++;
      printf("%7.0f s  %8ld iterations  resident %ld KiB, anonymous %ld KiB\n",
             times[sample_count - 1], atomic_load(&iterations),
             samples[sample_count - 1], anonymous[sample_count - 1]);
      fflush(stdout);
    }
  }
  atomic_store(&stopping, true);
  for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
  /* Callbacks may run a moment after their event completed. */
  for (int wait = 0; wait < 500 && atomic_load(&callbacks_run) <
                                       atomic_load(&callbacks_wanted);
       wait++) {
    usleep(10000);
  }
  /* The growth over the last 5 minutes, or the second half of the run. */
  double window = seconds >= 600 ? 300 : seconds / 2;
  int from = 0;
  while (from < sample_count - 1 && times[from] < seconds - window) from++;
  double mean = 0, mean_anonymous = 0;
  double growth = trend(times, samples, from, sample_count, &mean);
  double growth_anonymous =
      trend(times, anonymous, from, sample_count, &mean_anonymous);
  long missed = atomic_load(&callbacks_wanted) - atomic_load(&callbacks_run);
  printf(
      "%d threads, %.0f s: %ld iterations, %ld wrong results, %ld errors, "
      "%ld callbacks missed\n",
      threads, seconds, atomic_load(&iterations), atomic_load(&wrong),
      atomic_load(&errors), missed);
  printf(
      "resident memory over the last %.0f s: mean %.0f KiB, trend %+.2f%%; "
      "anonymous: mean %.0f KiB, trend %+.2f%%\n",
      window, mean, growth, mean_anonymous, growth_anonymous);
  bool passed = atomic_load(&iterations) > 0 && atomic_load(&wrong) == 0 &&
                atomic_load(&errors) == 0 && missed == 0 &&
                growth < most_growth;
  printf("%s\n", passed ? "PASS" : "FAIL");
  return passed ? 0 : 1;
}

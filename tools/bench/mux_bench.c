/* clmux-mux-bench: the Mux CPU target's two headline costs, measured in one
 * run so the figures share the machine's state:
 *   1. the round trip of an empty command buffer: muxDispatch -> completion
 *      callback -> muxWait returns (median over many), and the per-dispatch
 *      cost of a pipelined, semaphore-chained stream;
 *   2. the built-in vector_add kernel over 64 MiB arrays in GB/s, against a
 *      plain C loop on one core and on all cores.
 * Usage: clmux-mux-bench [iterations]   (default 2000 round trips) */
#include <mux/mux.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../host_allocator.h"

#define ARRAY_BYTES ((size_t)64 << 20)
#define ARRAY_COUNT (ARRAY_BYTES / sizeof(float))
#define BANDWIDTH_RUNS 11
#define CHAIN_LENGTH 1000

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *values, size_t count) {
  qsort(values, count, sizeof(double), compare_double);
  return values[count / 2];
}

#define CHECK_MUX(call)                                                     \
  do {                                                                      \
    mux_result_t error_ = (call);                                           \
    if (error_ != mux_success) {                                            \
      fprintf(stderr, "clmux-mux-bench: %s failed (%d)\n", #call, error_); \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

static void count_completion(mux_command_buffer_t command_buffer,
                             mux_result_t error, void *const user_data) {
  (void)command_buffer;
  (void)error;
  (*(volatile long *)user_data)++;
}

static void bench_round_trip(mux_device_t device, mux_queue_t queue,
                             int iterations) {
  mux_command_buffer_t command_buffer;
  mux_fence_t fence;
  CHECK_MUX(muxCreateCommandBuffer(device, NULL, allocator, &command_buffer));
  CHECK_MUX(muxFinalizeCommandBuffer(command_buffer));
  CHECK_MUX(muxCreateFence(device, allocator, &fence));

  volatile long completions = 0;
  double *samples = malloc(sizeof(double) * (size_t)iterations);
  for (int i = 0; i < iterations; i++) {
    double start = now_us();
    CHECK_MUX(muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0,
                          count_completion, (void *)&completions));
    CHECK_MUX(muxWait(queue, fence));
    samples[i] = now_us() - start;
    CHECK_MUX(muxResetFence(fence));
  }
  printf("empty command buffer round trip   median %8.2f us  (%d runs, %ld "
         "callbacks)\n",
         median(samples, (size_t)iterations), iterations, completions);
  free(samples);

  /* A stream of dispatches each waiting on the previous one's semaphore. */
  mux_semaphore_t semaphores[CHAIN_LENGTH];
  for (int i = 0; i < CHAIN_LENGTH; i++) {
    CHECK_MUX(muxCreateSemaphore(device, allocator, &semaphores[i]));
  }
  double start = now_us();
  for (int i = 0; i < CHAIN_LENGTH; i++) {
    CHECK_MUX(muxDispatch(queue, command_buffer, NULL,
                          i ? &semaphores[i - 1] : NULL, i ? 1 : 0,
                          &semaphores[i], 1, count_completion,
                          (void *)&completions));
  }
  CHECK_MUX(muxWaitAll(queue));
  printf("semaphore-chained dispatch stream %8.2f us per command buffer (%d "
         "chained)\n",
         (now_us() - start) / CHAIN_LENGTH, CHAIN_LENGTH);
  for (int i = 0; i < CHAIN_LENGTH; i++) {
    muxDestroySemaphore(device, semaphores[i], allocator);
  }
  muxDestroyFence(device, fence, allocator);
  muxDestroyCommandBuffer(device, command_buffer, allocator);
}

typedef struct {
  const float *a, *b;
  float *c;
  size_t begin, end;
} add_slice;

static void *add_loop(void *argument) {
  add_slice *slice = argument;
  for (size_t i = slice->begin; i < slice->end; i++) {
    slice->c[i] = slice->a[i] + slice->b[i];
  }
  return NULL;
}

/* Plain C c = a + b on `threads` threads; median wall time in us. */
static double time_plain_loop(const float *a, const float *b, float *c,
                              int threads) {
  double samples[BANDWIDTH_RUNS];
  pthread_t ids[256];
  add_slice slices[256];
  for (int run = 0; run < BANDWIDTH_RUNS; run++) {
    double start = now_us();
    for (int t = 0; t < threads; t++) {
      slices[t] = (add_slice){a, b, c, ARRAY_COUNT * (size_t)t / (size_t)threads,
                              ARRAY_COUNT * (size_t)(t + 1) / (size_t)threads};
      if (t) pthread_create(&ids[t], NULL, add_loop, &slices[t]);
    }
    add_loop(&slices[0]);
    for (int t = 1; t < threads; t++) pthread_join(ids[t], NULL);
    samples[run] = now_us() - start;
  }
  return median(samples, BANDWIDTH_RUNS);
}

static double gigabytes_per_second(double microseconds) {
  return 3.0 * (double)ARRAY_BYTES / (microseconds * 1e3);
}

static void bench_vector_add(mux_device_t device, mux_queue_t queue) {
  mux_buffer_t buffers[3];
  mux_memory_t memories[3];
  float *host[3];
  mux_descriptor_info_t descriptors[3];
  for (int i = 0; i < 3; i++) {
    CHECK_MUX(muxCreateBuffer(device, ARRAY_BYTES, allocator, &buffers[i]));
    CHECK_MUX(muxAllocateMemory(
        device, ARRAY_BYTES, 1,
        mux_memory_property_host_visible | mux_memory_property_host_coherent,
        mux_allocation_type_alloc_host,
        buffers[i]->memory_requirements.alignment, allocator, &memories[i]));
    CHECK_MUX(muxBindBufferMemory(device, memories[i], buffers[i], 0));
    CHECK_MUX(muxMapMemory(device, memories[i], 0, ARRAY_BYTES,
                           (void **)&host[i]));
    descriptors[i].type = mux_descriptor_info_type_buffer;
    descriptors[i].buffer_descriptor.buffer = buffers[i];
    descriptors[i].buffer_descriptor.offset = 0;
  }
  for (size_t i = 0; i < ARRAY_COUNT; i++) {
    host[0][i] = (float)(i & 1023);
    host[1][i] = 1.0f;
    host[2][i] = 0.0f;
  }

  mux_kernel_t kernel;
  CHECK_MUX(muxCreateBuiltInKernel(device, "vector_add", strlen("vector_add"),
                                   allocator, &kernel));
  const size_t offset[1] = {0}, global[1] = {ARRAY_COUNT};
  mux_ndrange_options_t options = {descriptors, 3, {1024, 1, 1}, offset,
                                   global, 1};
  mux_command_buffer_t command_buffer;
  mux_fence_t fence;
  CHECK_MUX(muxCreateCommandBuffer(device, NULL, allocator, &command_buffer));
  CHECK_MUX(muxCommandNDRange(command_buffer, kernel, options, 0, NULL, NULL));
  CHECK_MUX(muxFinalizeCommandBuffer(command_buffer));
  CHECK_MUX(muxCreateFence(device, allocator, &fence));

  double samples[BANDWIDTH_RUNS];
  for (int run = 0; run < BANDWIDTH_RUNS; run++) {
    double start = now_us();
    CHECK_MUX(muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0, NULL,
                          NULL));
    CHECK_MUX(muxWait(queue, fence));
    samples[run] = now_us() - start;
    CHECK_MUX(muxResetFence(fence));
  }
  double mux_time = median(samples, BANDWIDTH_RUNS);
  for (size_t i = 0; i < ARRAY_COUNT; i += 4099) {
    if (host[2][i] != (float)(i & 1023) + 1.0f) {
      fprintf(stderr, "clmux-mux-bench: vector_add gave a wrong result\n");
      exit(1);
    }
  }

  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  if (cores > 256) cores = 256;
  double one_core = time_plain_loop(host[0], host[1], host[2], 1);
  double all_cores = time_plain_loop(host[0], host[1], host[2], cores);
  unsigned units = device->info->compute_units;
  printf("vector_add, 3 x 64 MiB arrays (GB/s counts 192 MiB moved):\n");
  printf("  Mux built-in kernel (%u workers) %8.2f GB/s  %8.0f us\n", units,
         gigabytes_per_second(mux_time), mux_time);
  printf("  plain C loop, 1 core            %8.2f GB/s  %8.0f us\n",
         gigabytes_per_second(one_core), one_core);
  printf("  plain C loop, %d cores           %8.2f GB/s  %8.0f us\n", cores,
         gigabytes_per_second(all_cores), all_cores);
  printf("  ratio Mux / all-cores loop      %8.2f\n", all_cores / mux_time);

  muxDestroyFence(device, fence, allocator);
  muxDestroyCommandBuffer(device, command_buffer, allocator);
  muxDestroyKernel(device, kernel, allocator);
  for (int i = 0; i < 3; i++) {
    muxUnmapMemory(device, memories[i]);
    muxDestroyBuffer(device, buffers[i], allocator);
    muxFreeMemory(device, memories[i], allocator);
  }
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 2000;
  if (iterations < 1) iterations = 1;
  mux_device_info_t info;
  mux_device_t device;
  mux_queue_t queue;
  CHECK_MUX(muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL));
  CHECK_MUX(muxCreateDevices(1, &info, allocator, &device));
  CHECK_MUX(muxGetQueue(device, mux_queue_type_compute, 0, &queue));
  printf("clmux-mux-bench on %s, %u compute units\n", info->device_name,
         info->compute_units);
  bench_round_trip(device, queue, iterations);
  bench_vector_add(device, queue);
  muxDestroyDevice(device, allocator);
  return 0;
}

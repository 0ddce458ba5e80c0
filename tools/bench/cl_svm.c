/* clmux-cl-svm-bench: shared virtual memory without copies. For every
 * platform the ICD loader finds whose device has coarse-grained buffer SVM,
 * in a child process of its own, the same OpenCL C kernel follows linked
 * lists the host built with real pointers in one clSVMAlloc allocation
 * (4096 lists of 256 nodes laid out in a random order, 16 MiB): each
 * work-item walks one list and sums its values. Per round, the host maps
 * the whole allocation, changes one value of each list, unmaps it and runs
 * the kernel; the medians over the rounds of
 *   map + unmap   µs for clEnqueueSVMMap and clEnqueueSVMUnmap of 16 MiB
 *                 (a copy would cost milliseconds)
 *   chase         ms for the NDRange and clFinish, and ns per node
 * are reported after every sum is checked against the host's; a platform
 * with a wrong sum gets no figures. The last lines compare each platform
 * with clmux (above 1: clmux is faster).
 * Usage: clmux-cl-svm-bench [rounds]   (default 20) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "per_platform.h"

enum { lists = 4096, length = 256, nodes = lists * length };

typedef struct node {
  struct node *next;
  cl_int value;
  cl_int pad;
} node;

typedef struct result {
  char name[32];
  int ok; /* 1: figures valid; 0: failed or wrong; -1: no SVM */
  double map_us, chase_ms;
} result;

static const char *source =
    "typedef struct node { global struct node *next; int value; int pad; }"
    " node;\n"
    "typedef struct list { global node *head; } list;\n"
    "kernel void chase(global const list *heads, global long *sums) {\n"
    "  size_t i = get_global_id(0);\n"
    "  long sum = 0;\n"
    "  for (global node *n = heads[i].head; n; n = n->next) sum += n->value;\n"
    "  sums[i] = sum;\n"
    "}\n";

#define CHECK(call) BENCH_CHECK(out->name, call)

/* Node order: a fixed pseudo-random permutation, so every step of a walk
 * is a cache miss on every platform alike. */
static void shuffle(uint32_t *order) {
  uint32_t state = 12345;
  for (uint32_t i = 0; i < nodes; i++) order[i] = i;
  for (uint32_t i = nodes - 1; i > 0; i--) {
    state = state * 1664525u + 1013904223u;
    uint32_t j = state % (i + 1);
    uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

static void bench_platform(cl_platform_id platform, void *result_out,
                           void *rounds_in) {
  result *out = result_out;
  int rounds = *(int *)rounds_in;
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof out->name, out->name,
                    NULL);
  out->name[sizeof out->name - 1] = '\0';
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
  char version[256] = "";
  cl_device_svm_capabilities caps = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version,
                        NULL));
  if (strncmp(version, "OpenCL 1.", 9) == 0 ||
      clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps,
                      NULL) != CL_SUCCESS ||
      !(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    out->ok = -1;
    return;
  }
  cl_int error;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  CHECK(error);
  cl_command_queue queue =
      clCreateCommandQueueWithProperties(context, device, NULL, &error);
  CHECK(error);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK(error);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "chase", &error);
  CHECK(error);
  node *pool = clSVMAlloc(context, CL_MEM_READ_WRITE, nodes * sizeof(node), 0);
  node **heads =
      clSVMAlloc(context, CL_MEM_READ_WRITE, lists * sizeof(node *), 0);
  cl_long *sums =
      clSVMAlloc(context, CL_MEM_READ_WRITE, lists * sizeof(cl_long), 0);
  uint32_t *order = malloc(nodes * sizeof *order);
  double *map_us = malloc((size_t)rounds * sizeof(double));
  double *chase_ms = malloc((size_t)rounds * sizeof(double));
  if (!pool || !heads || !sums || !order || !map_us || !chase_ms) {
    fprintf(stderr, "%s: out of memory\n", out->name);
    return;
  }
  shuffle(order);
  CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, pool,
                        nodes * sizeof(node), 0, NULL, NULL));
  CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, heads,
                        lists * sizeof(node *), 0, NULL, NULL));
  for (uint32_t l = 0; l < lists; l++) {
    for (uint32_t k = 0; k < length; k++) {
      node *n = &pool[order[l * length + k]];
      n->value = (cl_int)((l * 31 + k * 7) % 1000);
      n->next = k + 1 < length ? &pool[order[l * length + k + 1]] : NULL;
    }
    heads[l] = &pool[order[l * length]];
  }
  CHECK(clEnqueueSVMUnmap(queue, heads, 0, NULL, NULL));
  CHECK(clEnqueueSVMUnmap(queue, pool, 0, NULL, NULL));
  CHECK(clSetKernelArgSVMPointer(kernel, 0, heads));
  CHECK(clSetKernelArgSVMPointer(kernel, 1, sums));
  void *reached[1] = {pool};
  CHECK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                            sizeof reached, reached));
  size_t global = lists;
  int wrong = 0;
  /* One warm-up round: the first launch compiles or specializes. */
  for (int round = -1; round < rounds && !wrong; round++) {
    double start = bench_now_us();
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, pool,
                          nodes * sizeof(node), 0, NULL, NULL));
    double mapped = bench_now_us();
    for (uint32_t l = 0; l < lists; l++) heads[l]->value = round + 2;
    double changed = bench_now_us();
    CHECK(clEnqueueSVMUnmap(queue, pool, 0, NULL, NULL));
    CHECK(clFinish(queue));
    double unmapped = bench_now_us();
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
    CHECK(clFinish(queue));
    double done = bench_now_us();
    if (round >= 0) {
      map_us[round] = (mapped - start) + (unmapped - changed);
      chase_ms[round] = (done - unmapped) / 1e3;
    }
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, sums,
                          lists * sizeof(cl_long), 0, NULL, NULL));
    for (uint32_t l = 0; l < lists && !wrong; l++) {
      cl_long want = round + 2;
      for (uint32_t k = 1; k < length; k++) want += (l * 31 + k * 7) % 1000;
      if (sums[l] != want) {
        fprintf(stderr, "%s: list %u summed %lld, expected %lld\n", out->name,
                l, (long long)sums[l], (long long)want);
        wrong = 1;
      }
    }
    CHECK(clEnqueueSVMUnmap(queue, sums, 0, NULL, NULL));
  }
  CHECK(clFinish(queue));
  if (!wrong) {
    out->map_us = bench_median(map_us, rounds);
    out->chase_ms = bench_median(chase_ms, rounds);
    out->ok = 1;
  }
  free(chase_ms);
  free(map_us);
  free(order);
  clSVMFree(context, sums);
  clSVMFree(context, heads);
  clSVMFree(context, pool);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

static void name_failed(void *out, int index) {
  snprintf(((result *)out)->name, sizeof((result *)out)->name, "platform %d",
           index);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 20;
  if (rounds < 1) rounds = 1;
  result results[bench_max_platforms];
  int found = bench_each_platform(bench_platform, &rounds, results,
                                  sizeof *results, name_failed);
  if (found == 0) {
    fprintf(stderr, "clmux-cl-svm-bench: no OpenCL platform found\n");
    return 1;
  }
  const result *clmux = NULL;
  for (int i = 0; i < found; i++) {
    const result *r = &results[i];
    if (r->ok == 1) {
      printf(
          "%-30s %d lists of %d nodes in SVM: map + unmap of 16 MiB "
          "%8.1f us, chase %7.2f ms (%.1f ns per node)\n",
          r->name, lists, length, r->map_us, r->chase_ms,
          r->chase_ms * 1e6 / nodes);
      if (!strcmp(r->name, "clmux")) clmux = r;
    } else {
      printf("%-30s %s\n", r->name,
             r->ok < 0 ? "no coarse-grained buffer SVM" : "failed or wrong");
    }
  }
  for (int i = 0; clmux && i < found; i++) {
    const result *r = &results[i];
    if (r == clmux || r->ok != 1) continue;
    printf("clmux vs %-21s chase %.2fx, map + unmap %.3fx\n", r->name,
           r->chase_ms / clmux->chase_ms, r->map_us / clmux->map_us);
  }
  for (int i = 0; i < found; i++) {
    if (results[i].ok == 0) return 1;
  }
  return 0;
}

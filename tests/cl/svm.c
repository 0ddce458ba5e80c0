/* Shared virtual memory through the loader: clSVMAlloc's argument rules
 * and alignments; kernels that build and follow pointers in coarse- and
 * fine-grained allocations and in plain host memory (fine-grained system
 * SVM); atomics shared by the host and a running kernel; the queue's SVM
 * copies, fills, maps, migrations and frees, in order and with their
 * errors; buffers over SVM memory; an allocation freed while a command
 * that uses it waits; several threads allocating and launching at once. */
#define CL_TARGET_OPENCL_VERSION 300
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char kernels[] =
    /* A linked list laid out by the kernel: node i points at node i + 1,
     * built with pointers the kernel computes from its argument. */
    "typedef struct node { global struct node *next; int value; } node;\n"
    "kernel void link(global node *nodes, int count) {\n"
    "  int i = get_global_id(0);\n"
    "  nodes[i].value = i * 3;\n"
    "  nodes[i].next = i + 1 < count ? &nodes[i + 1] : 0;\n"
    "}\n"
    /* Follows a list made by someone else (the host or the kernel above). */
    "kernel void walk(global node *head, global int *sum) {\n"
    "  int total = 0;\n"
    "  for (global node *n = head; n; n = n->next) total += n->value;\n"
    "  sum[get_global_id(0)] = total;\n"
    "}\n"
    /* Reaches memory only through a pointer stored in other memory. */
    "typedef struct table { global int *data; int length; } table;\n"
    "kernel void scale(global table *t, int factor) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < t->length) t->data[i] *= factor;\n"
    "}\n"
    "kernel void count(volatile global atomic_int *counter, int times) {\n"
    "  for (int i = 0; i < times; i++)\n"
    "    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed,\n"
    "                              memory_scope_all_svm_devices);\n"
    "}\n"
    /* Waits for the host through a fine-grained flag, then answers. */
    "kernel void handshake(volatile global atomic_int *flag) {\n"
    "  while (atomic_load_explicit(flag, memory_order_acquire,\n"
    "                              memory_scope_all_svm_devices) != 1) {}\n"
    "  atomic_store_explicit(flag, 2, memory_order_release,\n"
    "                        memory_scope_all_svm_devices);\n"
    "}\n";

typedef struct node {
  struct node *next;
  int value;
} node;

typedef struct table {
  int *data;
  int length;
} table;

static cl_program program;

static cl_kernel kernel_named(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

static void run(cl_kernel kernel, size_t global) {
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

static void test_capabilities(void) {
  cl_device_svm_capabilities caps = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES,
                                   sizeof caps, &caps, NULL));
  CHECK(caps ==
        (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
}

static void test_alloc_rules(void) {
  const cl_svm_mem_flags valid[] = {
      CL_MEM_READ_WRITE,
      CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY,
      0,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS};
  for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
    char *p = clSVMAlloc(context, valid[i], 1000, 0);
    CHECK(p != NULL && (uintptr_t)p % 128 == 0);
    if (p) {
      memset(p, 0x5a, 1000); /* the host may touch every byte */
      clSVMFree(context, p);
    }
  }
  cl_ulong max_alloc = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                   sizeof max_alloc, &max_alloc, NULL));
  /* clSVMAlloc has no error code: NULL for each invalid argument. */
  CHECK(clSVMAlloc(context, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
  CHECK(clSVMAlloc(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) ==
        NULL);
  CHECK(clSVMAlloc(context, CL_MEM_USE_HOST_PTR, 64, 0) == NULL);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 0, 0) == NULL);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, 0) ==
        NULL);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 48) == NULL);
  CHECK(clSVMAlloc((cl_context)queue, CL_MEM_READ_WRITE, 64, 0) == NULL);
  const cl_uint alignments[] = {1, 2, 64, 256, 4096, 65536};
  for (size_t i = 0; i < sizeof alignments / sizeof *alignments; i++) {
    void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 100, alignments[i]);
    CHECK(p != NULL && (uintptr_t)p % alignments[i] == 0);
    clSVMFree(context, p);
  }
  /* Freeing NULL or what is not an allocation does nothing. */
  int local = 0;
  clSVMFree(context, NULL);
  clSVMFree(context, &local);
}

/* The kernel links nodes in a coarse-grained allocation, from an argument
 * that points into the middle of it; the host maps and follows the list,
 * then links its own list for the kernel to walk. */
static void test_coarse_grained_lists(void) {
  enum { COUNT = 300, SKIP = 5 };
  node *nodes =
      clSVMAlloc(context, CL_MEM_READ_WRITE, (COUNT + SKIP) * sizeof(node), 0);
  int *sum = clSVMAlloc(context, CL_MEM_READ_WRITE, 4 * sizeof(int), 0);
  REQUIRE(nodes && sum);
  cl_kernel link = kernel_named("link");
  node *first = nodes + SKIP;
  int count = COUNT;
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(link, 0, first));
  CHECK_CL_SUCCESS(clSetKernelArg(link, 1, sizeof count, &count));
  run(link, COUNT);
  CHECK_CL_SUCCESS(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, first,
                                   COUNT * sizeof(node), 0, NULL, NULL));
  int seen = 0;
  long total = 0;
  for (node *n = first; n && seen <= COUNT; n = n->next, seen++) {
    CHECK(n == first + seen); /* the kernel's pointers are the host's */
    total += n->value;
  }
  CHECK_INT(COUNT, seen);
  CHECK(total == 3L * COUNT * (COUNT - 1) / 2);
  CHECK_CL_SUCCESS(clEnqueueSVMUnmap(queue, first, 0, NULL, NULL));

  /* The host links every other node backwards; four work-items walk it. */
  CHECK_CL_SUCCESS(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, nodes,
                                   (COUNT + SKIP) * sizeof(node), 0, NULL,
                                   NULL));
  node *head = NULL;
  int expected = 0;
  for (int i = 0; i < COUNT + SKIP; i += 2) {
    nodes[i].value = i;
    nodes[i].next = head;
    head = &nodes[i];
    expected += i;
  }
  CHECK_CL_SUCCESS(clEnqueueSVMUnmap(queue, nodes, 0, NULL, NULL));
  cl_kernel walk = kernel_named("walk");
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(walk, 0, head));
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(walk, 1, sum));
  run(walk, 4);
  CHECK_CL_SUCCESS(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, sum,
                                   4 * sizeof(int), 0, NULL, NULL));
  for (int i = 0; i < 4; i++) CHECK_INT(expected, sum[i]);
  CHECK_CL_SUCCESS(clEnqueueSVMUnmap(queue, sum, 0, NULL, NULL));
  clReleaseKernel(walk);
  clReleaseKernel(link);
  clSVMFree(context, sum);
  clSVMFree(context, nodes);
}

/* Plain malloc'd memory, reached directly and through a pointer inside a
 * structure (declared with CL_KERNEL_EXEC_INFO_SVM_PTRS). */
static void test_fine_grained_system(void) {
  enum { LENGTH = 1001 };
  int *data = malloc(LENGTH * sizeof(int));
  table *t = malloc(sizeof *t);
  REQUIRE(data && t);
  for (int i = 0; i < LENGTH; i++) data[i] = i - 500;
  *t = (table){data, LENGTH};
  cl_kernel scale = kernel_named("scale");
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(scale, 0, t));
  int factor = -7;
  CHECK_CL_SUCCESS(clSetKernelArg(scale, 1, sizeof factor, &factor));
  void *indirect[1] = {data};
  CHECK_CL_SUCCESS(clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                       sizeof indirect, indirect));
  cl_bool system = CL_TRUE;
  CHECK_CL_SUCCESS(
      clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                          sizeof system, &system));
  run(scale, 1024);
  bool right = true;
  for (int i = 0; i < LENGTH; i++) right &= data[i] == (i - 500) * -7;
  CHECK(right);

  /* clSetKernelExecInfo's and clSetKernelArgSVMPointer's errors. */
  CHECK_CL(
      CL_INVALID_VALUE,
      clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, indirect));
  CHECK_CL(CL_INVALID_VALUE,
           clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                               sizeof indirect, NULL));
  CHECK_CL_SUCCESS(/* clears the list */
                   clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0,
                                       NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                               sizeof system, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                               1, &system));
  CHECK_CL(CL_INVALID_VALUE,
           clSetKernelExecInfo(scale, 0x1234, sizeof system, &system));
  CHECK_CL(CL_INVALID_KERNEL,
           clSetKernelExecInfo((cl_kernel)context, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                               sizeof indirect, indirect));
  CHECK_CL(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(scale, 2, data));
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(scale, 1, data));
  clReleaseKernel(scale);
  free(t);
  free(data);
}

typedef struct host_counter {
  atomic_int *counter;
  int times;
} host_counter;

static void *count_on_host(void *data) {
  host_counter *c = data;
  for (int i = 0; i < c->times; i++) atomic_fetch_add(c->counter, 1);
  return NULL;
}

/* A kernel and a host thread increment one fine-grained counter at once;
 * then a kernel waits for the host's flag and answers through it. */
static void test_atomics(void) {
  atomic_int *counter = clSVMAlloc(
      context,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
      sizeof *counter, 0);
  REQUIRE(counter);
  atomic_init(counter, 0);
  cl_kernel count = kernel_named("count");
  int times = 2000;
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(count, 0, counter));
  CHECK_CL_SUCCESS(clSetKernelArg(count, 1, sizeof times, &times));
  size_t global = 64;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, count, 1, NULL, &global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clFlush(queue));
  host_counter host = {counter, 50000};
  pthread_t thread;
  REQUIRE(pthread_create(&thread, NULL, count_on_host, &host) == 0);
  pthread_join(thread, NULL);
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(64 * 2000 + 50000, atomic_load(counter));

  cl_kernel handshake = kernel_named("handshake");
  atomic_store(counter, 0);
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(handshake, 0, counter));
  size_t one = 1;
  cl_event done = NULL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, handshake, 1, NULL, &one, NULL,
                                          0, NULL, &done));
  CHECK_CL_SUCCESS(clFlush(queue));
  atomic_store(counter, 1);
  while (atomic_load(counter) != 2) {
  } /* the kernel answers while it runs */
  CHECK_CL_SUCCESS(clWaitForEvents(1, &done));
  clReleaseEvent(done);
  clReleaseKernel(handshake);
  clReleaseKernel(count);
  clSVMFree(context, counter);
}

static cl_command_type type_of(cl_event event) {
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(
      clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  return type;
}

/* Copies and fills between allocations and plain memory, queued behind
 * one another without waiting between them. */
static void test_copies_and_fills(void) {
  enum { N = 4096 };
  unsigned char *a = clSVMAlloc(context, CL_MEM_READ_WRITE, N, 0);
  unsigned char *b = clSVMAlloc(
      context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N, 0);
  unsigned char *host = malloc(N), *other = aligned_alloc(128, N);
  REQUIRE(a && b && host && other);
  for (int i = 0; i < N; i++) host[i] = (unsigned char)(i * 7 + 1);
  memset(other, 0, N);
  cl_event events[6];
  unsigned pattern4 = 0xa1b2c3d4u;
  CHECK_CL_SUCCESS(
      clEnqueueSVMMemcpy(queue, CL_FALSE, a, host, N, 0, NULL, &events[0]));
  CHECK_CL_SUCCESS(clEnqueueSVMMemcpy(queue, CL_FALSE, b + 100, a + 10, 1000, 0,
                                      NULL, &events[1]));
  CHECK_CL_SUCCESS(
      clEnqueueSVMMemFill(queue, a, &pattern4, 4, 64, 0, NULL, &events[2]));
  CHECK_CL_SUCCESS(clEnqueueSVMMemcpy(queue, CL_FALSE, other, b + 100, 1000, 0,
                                      NULL, &events[3]));
  /* Plain memory on both sides, and a fill of plain memory. */
  CHECK_CL_SUCCESS(clEnqueueSVMMemcpy(queue, CL_FALSE, other + 2000, host, 500,
                                      0, NULL, &events[4]));
  unsigned char pattern128[128];
  for (int i = 0; i < 128; i++) pattern128[i] = (unsigned char)(255 - i);
  CHECK_CL_SUCCESS(clEnqueueSVMMemFill(queue, other + 2560, pattern128, 128,
                                       1024, 0, NULL, &events[5]));
  CHECK_CL_SUCCESS(clWaitForEvents(6, events));
  CHECK_INT(CL_COMMAND_SVM_MEMCPY, type_of(events[0]));
  CHECK_INT(CL_COMMAND_SVM_MEMFILL, type_of(events[2]));
  for (int i = 0; i < 6; i++) clReleaseEvent(events[i]);
  bool right = true;
  for (int i = 0; i < 1000; i++) right &= other[i] == host[10 + i];
  for (int i = 0; i < 500; i++) right &= other[2000 + i] == host[i];
  for (int i = 0; i < 1024; i++) right &= other[2560 + i] == 255 - i % 128;
  for (int i = 0; i < 64; i += 4) right &= memcmp(a + i, &pattern4, 4) == 0;
  for (int i = 64; i < N; i++) right &= a[i] == host[i];
  CHECK(right);
  /* Blocking copy back. */
  CHECK_CL_SUCCESS(
      clEnqueueSVMMemcpy(queue, CL_TRUE, host, a, N, 0, NULL, NULL));
  CHECK(memcmp(host, &pattern4, 4) == 0);

  /* Errors. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, a, 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemcpy(queue, CL_TRUE, a, NULL, 4, 0, NULL, NULL));
  CHECK_CL(CL_MEM_COPY_OVERLAP,
           clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, 16, 0, NULL, NULL));
  CHECK_CL(CL_MEM_COPY_OVERLAP,
           clEnqueueSVMMemcpy(queue, CL_TRUE, a, a, 16, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueSVMMemcpy((cl_command_queue)context, CL_TRUE, a, b, 4, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueSVMMemcpy(queue, CL_TRUE, a, b, 4, 1, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(queue, a + 2, &pattern4, 4, 8, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(queue, a, &pattern4, 4, 6, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(queue, a, &pattern4, 3, 6, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(queue, a, host, 256, 256, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(queue, a, NULL, 4, 8, 0, NULL, NULL));

  /* Map, unmap and migrate only keep their place in the queue. */
  cl_event map = NULL, unmap = NULL, migrate = NULL;
  CHECK_CL_SUCCESS(
      clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_WRITE, a, N, 0, NULL, &map));
  CHECK_CL_SUCCESS(clEnqueueSVMUnmap(queue, a, 1, &map, &unmap));
  const void *pointers[2] = {a, host};
  const size_t sizes[2] = {16, 0};
  CHECK_CL_SUCCESS(clEnqueueSVMMigrateMem(queue, 2, pointers, sizes,
                                          CL_MIGRATE_MEM_OBJECT_HOST, 1, &unmap,
                                          &migrate));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &migrate));
  CHECK_INT(CL_COMMAND_SVM_MAP, type_of(map));
  CHECK_INT(CL_COMMAND_SVM_UNMAP, type_of(unmap));
  CHECK_INT(CL_COMMAND_SVM_MIGRATE_MEM, type_of(migrate));
  clReleaseEvent(map);
  clReleaseEvent(unmap);
  clReleaseEvent(migrate);
  CHECK_CL(CL_INVALID_VALUE, clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, NULL,
                                             16, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMap(queue, CL_TRUE,
                           CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 16,
                           0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueSVMUnmap(queue, NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMMigrateMem(queue, 0, pointers, NULL, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue, 1, pointers, NULL,
                                                    0x100, 0, NULL, NULL));
  free(other);
  free(host);
  clSVMFree(context, b);
  clSVMFree(context, a);
}

typedef struct free_record {
  int calls;
  cl_uint count;
  void *pointers[4];
  cl_command_queue queue;
  int value_seen; /* what the memory held when the free ran */
} free_record;

static void CL_CALLBACK record_free(cl_command_queue q, cl_uint count,
                                    void *pointers[], void *user_data) {
  free_record *r = user_data;
  r->calls++;
  r->count = count;
  r->queue = q;
  for (cl_uint i = 0; i < count && i < 4; i++) r->pointers[i] = pointers[i];
  r->value_seen = *(int *)pointers[0];
  for (cl_uint i = 0; i < count; i++) clSVMFree(context, pointers[i]);
}

/* clEnqueueSVMFree runs after the commands before it; clSVMFree of an
 * allocation a waiting command uses leaves the memory to that command. */
static void test_frees(void) {
  int *a = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  int *b = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  REQUIRE(a && b);
  int seven = 7;
  CHECK_CL_SUCCESS(
      clEnqueueSVMMemFill(queue, a, &seven, sizeof seven, 64, 0, NULL, NULL));
  free_record record = {0};
  void *list[2] = {a, b};
  cl_event freed = NULL;
  CHECK_CL_SUCCESS(
      clEnqueueSVMFree(queue, 2, list, record_free, &record, 0, NULL, &freed));
  list[0] = list[1] = NULL; /* the command kept its own copy */
  CHECK_CL_SUCCESS(clWaitForEvents(1, &freed));
  CHECK_INT(CL_COMMAND_SVM_FREE, type_of(freed));
  clReleaseEvent(freed);
  CHECK_INT(1, record.calls);
  CHECK_INT(2, record.count);
  CHECK(record.pointers[0] == a && record.pointers[1] == b);
  CHECK(record.queue == queue);
  CHECK_INT(7, record.value_seen);
  /* Without a callback, clmux frees. */
  void *c = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  CHECK_CL_SUCCESS(clEnqueueSVMFree(queue, 1, &c, NULL, NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMFree(queue, 1, NULL, NULL, NULL, 0, NULL, NULL));
  void *null_entry[1] = {NULL};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueSVMFree(queue, 1, null_entry, NULL, NULL, 0, NULL, NULL));

  /* Freed behind a waiting kernel: the kernel still finds its list. */
  node *nodes = clSVMAlloc(context, CL_MEM_READ_WRITE, 64 * sizeof(node), 0);
  int *sum = clSVMAlloc(context, CL_MEM_READ_WRITE, sizeof(int), 0);
  REQUIRE(nodes && sum);
  for (int i = 0; i < 64; i++) {
    nodes[i] = (node){i + 1 < 64 ? &nodes[i + 1] : NULL, 1};
  }
  cl_kernel walk = kernel_named("walk");
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(walk, 0, nodes));
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(walk, 1, sum));
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  size_t one = 1;
  CHECK_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue, walk, 1, NULL, &one, NULL, 1, &gate, NULL));
  clSVMFree(context, nodes);
  int result = 0;
  CHECK_CL_SUCCESS(clEnqueueSVMMemcpy(queue, CL_FALSE, &result, sum,
                                      sizeof result, 0, NULL, NULL));
  clSVMFree(context, sum);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(64, result);
  clReleaseEvent(gate);
  clReleaseKernel(walk);
}

static void test_buffers_over_svm(void) {
  char *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
  REQUIRE(svm);
  for (int i = 0; i < 256; i++) svm[i] = (char)i;
  cl_int error = CL_SUCCESS;
  cl_mem over =
      clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 128, svm + 64, &error);
  CHECK_CL_SUCCESS(error);
  cl_bool uses = CL_FALSE;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(over, CL_MEM_USES_SVM_POINTER,
                                      sizeof uses, &uses, NULL));
  CHECK(uses == CL_TRUE);
  char back[128];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, over, CL_TRUE, 0, sizeof back,
                                       back, 0, NULL, NULL));
  CHECK(memcmp(back, svm + 64, sizeof back) == 0);
  CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 256, svm + 64, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_BUFFER_SIZE, error);
  char host[16];
  cl_mem plain =
      clCreateBuffer(context, CL_MEM_USE_HOST_PTR, sizeof host, host, &error);
  CHECK_CL_SUCCESS(error);
  uses = CL_TRUE;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER,
                                      sizeof uses, &uses, NULL));
  CHECK(uses == CL_FALSE);
  clReleaseMemObject(plain);
  clReleaseMemObject(over);
  clSVMFree(context, svm);
}

/* Threads allocating, launching on and freeing SVM at once: the context's
 * list of allocations is shared. */
static void *svm_worker(void *data) {
  (void)data;
  cl_int error = CL_SUCCESS;
  cl_command_queue own = clCreateCommandQueue(context, device, 0, &error);
  cl_kernel link = clCreateKernel(program, "link", &error);
  bool right = error == CL_SUCCESS;
  for (int round = 0; round < 20 && right; round++) {
    int count = 17 + round;
    node *nodes =
        clSVMAlloc(context, CL_MEM_READ_WRITE, (size_t)count * sizeof(node), 0);
    right = nodes != NULL;
    if (!right) break;
    size_t global = (size_t)count;
    clSetKernelArgSVMPointer(link, 0, nodes);
    clSetKernelArg(link, 1, sizeof count, &count);
    right = clEnqueueNDRangeKernel(own, link, 1, NULL, &global, NULL, 0, NULL,
                                   NULL) == CL_SUCCESS &&
            clFinish(own) == CL_SUCCESS;
    for (int i = 0; i < count && right; i++) {
      right = nodes[i].value == 3 * i &&
              nodes[i].next == (i + 1 < count ? &nodes[i + 1] : NULL);
    }
    clSVMFree(context, nodes);
  }
  clReleaseKernel(link);
  clReleaseCommandQueue(own);
  return right ? data : NULL;
}

static void test_threads(void) {
  pthread_t threads[4];
  int ids[4];
  for (int i = 0; i < 4; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, svm_worker, &ids[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    void *result = NULL;
    pthread_join(threads[i], &result);
    CHECK(result == &ids[i]);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  program = cl_test_build(context, device, kernels, "-cl-std=CL3.0");
  test_capabilities();
  test_alloc_rules();
  test_coarse_grained_lists();
  test_fine_grained_system();
  test_atomics();
  test_copies_and_fills();
  test_frees();
  test_buffers_over_svm();
  test_threads();
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* Sub-devices: the partition queries, each partition type and its errors,
 * sub-devices of sub-devices, reference counts, kernels of a program built
 * for the parent running on sub-device queues (two at once), and each
 * sub-device's workers pinned to its own cores, gone once it is released;
 * each device's UUID (cl_khr_device_uuid). */
#include <dirent.h>
#include <pthread.h>
#include <time.h>

#include "cl_test.h"

#include <CL/cl_ext.h>

static cl_uint compute_units(cl_device_id device) {
  cl_uint units = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                   sizeof units, &units, NULL));
  return units;
}

/* clmux's workers, as "allowed CPU list" strings of their threads. */
static int threads_named(const char *name, char lists[][64], int most) {
  DIR *tasks = opendir("/proc/self/task");
  REQUIRE(tasks != NULL);
  int count = 0;
  for (struct dirent *task; (task = readdir(tasks)) && count < most;) {
    if (task->d_name[0] == '.') continue;
    char path[300], line[256];
    snprintf(path, sizeof path, "/proc/self/task/%s/status", task->d_name);
    FILE *status = fopen(path, "r");
    if (!status) continue;
    bool worker = false;
    while (fgets(line, sizeof line, status)) {
      if (!strncmp(line, "Name:", 5)) worker = strstr(line, name);
      if (worker && !strncmp(line, "Cpus_allowed_list:", 18)) {
        char *list = line + 18;
        while (*list == ' ' || *list == '\t') list++;
        list[strcspn(list, "\n")] = '\0';
        snprintf(lists[count++], 64, "%.63s", list);
      }
    }
    fclose(status);
  }
  closedir(tasks);
  return count;
}

static int worker_threads(char lists[][64], int most) {
  return threads_named("clmux-worker", lists, most);
}

static void test_root_queries(cl_device_id root, cl_uint units) {
  cl_device_id parent = (cl_device_id)1;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_PARENT_DEVICE, sizeof parent,
                                   &parent, NULL));
  CHECK(parent == NULL);
  cl_uint most = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
                                   sizeof most, &most, NULL));
  CHECK_INT(units, most);
  cl_device_partition_property types[8] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES,
                                   sizeof types, types, &size));
  CHECK_INT(3 * sizeof types[0], size);
  CHECK(types[0] == CL_DEVICE_PARTITION_EQUALLY &&
        types[1] == CL_DEVICE_PARTITION_BY_COUNTS &&
        types[2] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
  cl_device_affinity_domain domains = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
                                   sizeof domains, &domains, NULL));
  CHECK(domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(root, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size));
  CHECK_INT(0, size);
  cl_uint references = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_REFERENCE_COUNT,
                                   sizeof references, &references, NULL));
  CHECK_INT(1, references);
}

static void test_errors(cl_device_id root, cl_uint units) {
  cl_device_id out[64];
  cl_uint count = 0;
  const intptr_t n = (intptr_t)units;
  const cl_device_partition_property whole[] = {CL_DEVICE_PARTITION_EQUALLY, n,
                                                0};
  const cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                   n + 1, 0};
  const cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0,
                                               0};
  const cl_device_partition_property over[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, n + 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  const cl_device_partition_property negative[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, -1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
      0};
  const cl_device_partition_property sum_over[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, n,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  const cl_device_partition_property unknown[] = {0x7777, 1, 0};
  const cl_device_partition_property bad_domain[] = {
      CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0x1000, 0};
  const cl_device_partition_property two_domains[] = {
      CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
      CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
      0};
  const cl_device_partition_property ones[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                               0};
  CHECK_CL(CL_INVALID_DEVICE, clCreateSubDevices(NULL, ones, 0, NULL, &count));
  CHECK_CL(CL_INVALID_VALUE, clCreateSubDevices(root, NULL, 0, NULL, &count));
  CHECK_CL(CL_DEVICE_PARTITION_FAILED,
           clCreateSubDevices(root, whole, 64, out, NULL));
  CHECK_CL(CL_INVALID_DEVICE_PARTITION_COUNT,
           clCreateSubDevices(root, too_many, 64, out, NULL));
  CHECK_CL(CL_INVALID_VALUE, clCreateSubDevices(root, zero, 64, out, NULL));
  CHECK_CL(CL_INVALID_DEVICE_PARTITION_COUNT,
           clCreateSubDevices(root, over, 64, out, NULL));
  CHECK_CL(CL_INVALID_DEVICE_PARTITION_COUNT,
           clCreateSubDevices(root, negative, 64, out, NULL));
  CHECK_CL(CL_INVALID_DEVICE_PARTITION_COUNT,
           clCreateSubDevices(root, sum_over, 64, out, NULL));
  CHECK_CL(CL_INVALID_VALUE, clCreateSubDevices(root, unknown, 64, out, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clCreateSubDevices(root, bad_domain, 64, out, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clCreateSubDevices(root, two_domains, 64, out, NULL));
  /* Fewer entries than sub-devices: nothing is created. */
  CHECK_CL(CL_INVALID_VALUE,
           clCreateSubDevices(root, ones, units - 1, out, &count));
}

/* Each of `count` sub-devices: its parent, type, compute units and count. */
static void check_sub_devices(const cl_device_id *devices, cl_uint count,
                              cl_device_id parent,
                              const cl_device_partition_property *type,
                              size_t type_length, const cl_uint *units) {
  for (cl_uint i = 0; i < count; i++) {
    cl_device_id got = NULL;
    CHECK_CL_SUCCESS(clGetDeviceInfo(devices[i], CL_DEVICE_PARENT_DEVICE,
                                     sizeof got, &got, NULL));
    CHECK(got == parent);
    cl_device_partition_property returned[8] = {0};
    size_t size = 0;
    CHECK_CL_SUCCESS(clGetDeviceInfo(devices[i], CL_DEVICE_PARTITION_TYPE,
                                     sizeof returned, returned, &size));
    CHECK_INT(type_length * sizeof *type, size);
    CHECK(!memcmp(returned, type, type_length * sizeof *type));
    CHECK_INT(units[i], compute_units(devices[i]));
    cl_uint references = 0;
    CHECK_CL_SUCCESS(clGetDeviceInfo(devices[i], CL_DEVICE_REFERENCE_COUNT,
                                     sizeof references, &references, NULL));
    CHECK_INT(1, references);
  }
}

static const char *source =
    "kernel void scale(global int *data, int by) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int v = data[i];\n"
    "  for (int k = 0; k < 2000; k++) v = v * by + (int)(i & 3);\n"
    "  data[i] = v;\n"
    "}\n";

static int expected(int v, int by, int i) {
  for (int k = 0; k < 2000; k++) {
    v = (int)((unsigned)v * (unsigned)by + (unsigned)(i & 3));
  }
  return v;
}

typedef struct run {
  cl_command_queue queue;
  cl_kernel kernel;
  cl_mem buffer;
  int by;
  int wrong;
} run;

enum { items = 1 << 14 };

/* One queue's launches, on a thread of its own: sub-devices run at once. */
static int start[items]; /* filled before the threads start */

/* cl_khr_device_uuid: every device its own UUID (sub-devices of other
 * cores too), the same at every query; one driver UUID; no LUID. */
static void test_uuids(cl_device_id root, const cl_device_id *subs,
                       cl_uint count) {
  cl_uchar driver[CL_UUID_SIZE_KHR], seen[65][CL_UUID_SIZE_KHR];
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DRIVER_UUID_KHR, sizeof driver,
                                   driver, NULL));
  for (cl_uint i = 0; i <= count && i < 65; i++) {
    cl_device_id device = i == 0 ? root : subs[i - 1];
    cl_uchar again[CL_UUID_SIZE_KHR], driver_again[CL_UUID_SIZE_KHR];
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR,
                                     sizeof seen[i], seen[i], NULL));
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR,
                                     sizeof again, again, NULL));
    CHECK(memcmp(again, seen[i], sizeof again) == 0);
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DRIVER_UUID_KHR,
                                     sizeof driver_again, driver_again, NULL));
    CHECK(memcmp(driver_again, driver, sizeof driver) == 0);
    for (cl_uint j = 0; j < i; j++) {
      CHECK(memcmp(seen[j], seen[i], CL_UUID_SIZE_KHR) != 0);
    }
    cl_bool luid_valid = CL_TRUE;
    cl_uint node_mask = 1;
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_LUID_VALID_KHR,
                                     sizeof luid_valid, &luid_valid, NULL));
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_NODE_MASK_KHR,
                                     sizeof node_mask, &node_mask, NULL));
    CHECK(luid_valid == CL_FALSE && node_mask == 0);
  }
  cl_uchar short_buffer[4];
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(root, CL_DEVICE_UUID_KHR, sizeof short_buffer,
                           short_buffer, NULL));
}

static void *run_on_queue(void *argument) {
  run *r = argument;
  const size_t global = items;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(r->queue, r->buffer, CL_TRUE, 0,
                                        sizeof start, start, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(r->queue, r->kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  int *got = malloc(sizeof start);
  REQUIRE(got != NULL);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(r->queue, r->buffer, CL_TRUE, 0,
                                       sizeof start, got, 0, NULL, NULL));
  for (int i = 0; i < items; i++) r->wrong += got[i] != expected(i, r->by, i);
  free(got);
  return NULL;
}

/* A context of the root and `count` sub-devices; a program built for the
 * root only; one queue per sub-device, run at the same time. */
static void test_running(cl_device_id root, const cl_device_id *subs,
                         cl_uint count) {
  cl_device_id all[65];
  all[0] = root;
  memcpy(all + 1, subs, count * sizeof *subs);
  cl_int error = CL_SUCCESS;
  cl_context context =
      clCreateContext(NULL, count + 1, all, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clBuildProgram(program, 1, &root, "", NULL, NULL));
  run runs[64];
  pthread_t threads[64];
  for (cl_uint i = 0; i < count; i++) {
    runs[i].queue = clCreateCommandQueue(context, subs[i], 0, &error);
    CHECK_CL_SUCCESS(error);
    runs[i].kernel = clCreateKernel(program, "scale", &error);
    CHECK_CL_SUCCESS(error);
    runs[i].buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                    items * sizeof(int), NULL, &error);
    CHECK_CL_SUCCESS(error);
    runs[i].by = 3 + (int)i;
    runs[i].wrong = 0;
    CHECK_CL_SUCCESS(
        clSetKernelArg(runs[i].kernel, 0, sizeof(cl_mem), &runs[i].buffer));
    CHECK_CL_SUCCESS(
        clSetKernelArg(runs[i].kernel, 1, sizeof(int), &runs[i].by));
    /* A kernel of the root's program may size its groups for the
     * sub-device. */
    size_t group = 0;
    CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(runs[i].kernel, subs[i],
                                              CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof group, &group, NULL));
    CHECK(group >= 1);
  }
  for (int i = 0; i < items; i++) start[i] = i;
  for (cl_uint i = 0; i < count; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, run_on_queue, &runs[i]) == 0);
  }
  for (cl_uint i = 0; i < count; i++) {
    pthread_join(threads[i], NULL);
    CHECK_INT(0, runs[i].wrong);
    clReleaseMemObject(runs[i].buffer);
    clReleaseKernel(runs[i].kernel);
    clReleaseCommandQueue(runs[i].queue);
  }
  clReleaseProgram(program);

  /* Built for one sub-device only: not for its sibling or the root. */
  program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK_CL_SUCCESS(clBuildProgram(program, 1, &subs[0], "", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "scale", &error);
  CHECK_CL_SUCCESS(error);
  cl_mem buffer =
      clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(int), NULL, &error);
  int by = 2;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof by, &by));
  cl_command_queue queue = clCreateCommandQueue(context, root, 0, &error);
  const size_t one = 1;
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL,
                                  NULL));
  clReleaseCommandQueue(queue);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(context);
}

/* Waits up to two seconds for the worker count to come back to `count`
 * (sub-devices stop their threads after their last release). */
static bool workers_back_to(int count) {
  char lists[256][64];
  for (int tries = 0; tries < 200; tries++) {
    if (worker_threads(lists, 256) == count) return true;
    struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  return false;
}

int main(void) {
  cl_device_id root = cl_test_device();
  cl_uint units = compute_units(root);
  if (units < 2 || units > 64) {
    printf("skipped: %u compute units cannot be partitioned here\n", units);
    return CHECK_SKIP;
  }
  test_root_queries(root, units);
  test_errors(root, units);

  /* Workers before: the root device's (each names itself when it starts:
   * wait until the count holds still). */
  char before[256][64];
  int root_workers = 0;
  for (int same = 0, tries = 0; same < 5 && tries < 200; tries++) {
    int now = worker_threads(before, 256);
    same = now == root_workers ? same + 1 : 0;
    root_workers = now;
    struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  CHECK(root_workers >= 1);

  /* EQUALLY 1: one sub-device per core, each with one worker pinned to
   * that core's processors alone. */
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clCreateSubDevices(root, equally, 0, NULL, &count));
  CHECK_INT(units, count);
  cl_device_id subs[64];
  CHECK_CL_SUCCESS(clCreateSubDevices(root, equally, 64, subs, &count));
  cl_uint ones[64];
  for (cl_uint i = 0; i < 64; i++) ones[i] = 1;
  check_sub_devices(subs, count, root, equally, 3, ones);
  CHECK(workers_back_to(root_workers + (int)count));
  char after[256][64];
  int all_workers = worker_threads(after, 256);
  CHECK_INT(root_workers + (int)count, all_workers);
  /* The new workers' CPU lists: one per core, all different. */
  int distinct = 0;
  for (int i = root_workers; i < all_workers; i++) {
    bool repeated = false;
    for (int j = root_workers; j < i; j++) {
      repeated |= strcmp(after[i], after[j]) == 0;
    }
    distinct += !repeated;
  }
  CHECK_INT((int)count, distinct);
  /* Each sub-device's queue executor (which runs the NDRanges too short to
   * hand over) is bound to its core too. */
  int unbound = 0;
  for (int tries = 0; tries < 200; tries++) { /* they bind as they start */
    char executors[256][64];
    int executor_count = threads_named("clmux-queue", executors, 256);
    unbound = 0;
    for (int i = root_workers; i < all_workers; i++) {
      bool bound = false;
      for (int e = 0; e < executor_count; e++) {
        bound |= strcmp(after[i], executors[e]) == 0;
      }
      unbound += !bound;
    }
    if (!unbound) break;
    struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  CHECK_INT(0, unbound);
  test_running(root, subs, count);
  test_uuids(root, subs, count);

  /* Retain and release count for sub-devices only. */
  CHECK_CL_SUCCESS(clRetainDevice(subs[0]));
  cl_uint references = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT,
                                   sizeof references, &references, NULL));
  CHECK_INT(2, references);
  CHECK_CL_SUCCESS(clReleaseDevice(subs[0]));
  for (cl_uint i = 0; i < count; i++) {
    CHECK_CL_SUCCESS(clReleaseDevice(subs[i]));
  }
  CHECK(workers_back_to(root_workers));
  CHECK_CL_SUCCESS(clRetainDevice(root));
  CHECK_CL_SUCCESS(clReleaseDevice(root));

  /* BY_COUNTS: all cores in one sub-device, then that one split again. */
  const cl_device_partition_property all_in_one[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, (intptr_t)units,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id whole = NULL;
  CHECK_CL_SUCCESS(clCreateSubDevices(root, all_in_one, 1, &whole, &count));
  CHECK_INT(1, count);
  check_sub_devices(&whole, 1, root, all_in_one, 4, &units);
  const cl_device_partition_property split[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, (intptr_t)units - 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id halves[2] = {NULL, NULL};
  CHECK_CL_SUCCESS(clCreateSubDevices(whole, split, 2, halves, &count));
  CHECK_INT(2, count);
  cl_uint split_units[2] = {1, units - 1};
  check_sub_devices(halves, 2, whole, split, 5, split_units);
  /* A one-core device cannot be divided. */
  CHECK_CL(CL_DEVICE_PARTITION_FAILED,
           clCreateSubDevices(halves[0], equally, 64, subs, &count));
  /* The parent may go first: its children hold it. */
  CHECK_CL_SUCCESS(clReleaseDevice(whole));
  test_running(root, halves, 2);
  CHECK_CL_SUCCESS(clReleaseDevice(halves[0]));
  CHECK_CL_SUCCESS(clReleaseDevice(halves[1]));
  CHECK(workers_back_to(root_workers));

  /* BY_AFFINITY_DOMAIN: every level reported divides the device (as the
   * CTS's buffers/buffer_migrate wants), and one not reported is refused. */
  cl_device_affinity_domain domains = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
                                   sizeof domains, &domains, NULL));
  for (cl_device_affinity_domain level = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
       level <= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE; level <<= 1) {
    const cl_device_partition_property by_level[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        (cl_device_partition_property)level, 0};
    cl_int error = clCreateSubDevices(root, by_level, 64, subs, &count);
    if (!(domains & level)) {
      CHECK_CL(CL_INVALID_VALUE, error);
      continue;
    }
    CHECK_CL_SUCCESS(error);
    if (error != CL_SUCCESS) continue;
    CHECK(count >= 2);
    cl_uint total = 0;
    for (cl_uint i = 0; i < count; i++) total += compute_units(subs[i]);
    CHECK_INT(units, total);
    for (cl_uint i = 0; i < count; i++) clReleaseDevice(subs[i]);
  }
  return check_finish();
}

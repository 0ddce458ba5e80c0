/* clmux: kernel enqueues through the ICD loader — the built-in kernels'
 * results with explicit and NULL local sizes, 1 to 3 dimensions with
 * offsets (every work-item exactly once, with the right ids), tasks,
 * native kernels with memory-object pointers, and every NDRange error. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "cl_test.h"

#define RECORD_FIELDS 10 /* record_ids: global xyz, local xyz, group xyz, dim */

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static cl_kernel kernel_named(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS && kernel != NULL);
  return kernel;
}

static void read_back(cl_mem buffer, size_t size, void *out) {
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, out, 0,
                                       NULL, NULL));
}

static void set_mem(cl_kernel kernel, cl_uint index, cl_mem mem) {
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, index, sizeof mem, &mem));
}

/* ---- Results ---------------------------------------------------------------*/

static void test_vector_add(void) {
  enum { n = 1000 };
  float a[n], b[n], c[n];
  for (int i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)i;
  }
  cl_mem ma = cl_test_buffer(context, sizeof a, a),
         mb = cl_test_buffer(context, sizeof b, b);
  cl_mem mc = cl_test_buffer(context, sizeof c, NULL);
  cl_kernel kernel = kernel_named("vector_add");
  set_mem(kernel, 0, ma);
  set_mem(kernel, 1, mb);
  set_mem(kernel, 2, mc);
  const size_t locals[][1] = {{0}, {8}, {1}, {1000}};
  for (size_t l = 0; l < sizeof locals / sizeof locals[0]; l++) {
    memset(c, 0, sizeof c);
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mc, CL_FALSE, 0, sizeof c, c,
                                          0, NULL, NULL));
    size_t global = n;
    cl_event event = NULL;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            l == 0 ? NULL : locals[l], 0, NULL,
                                            &event));
    read_back(mc, sizeof c, c);
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += c[i] != a[i] + b[i];
    CHECK_INT(0, wrong);
    cl_int status = 1;
    CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof status, &status, NULL));
    CHECK_INT(CL_COMPLETE, status);
    cl_command_type type = 0;
    CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type,
                                    &type, NULL));
    CHECK_INT(CL_COMMAND_NDRANGE_KERNEL, type);
    CHECK_CL_SUCCESS(clReleaseEvent(event));
  }
  /* The command holds its kernel and buffers: release them all at once,
   * then let it run. */
  size_t global = n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(ma));
  CHECK_CL_SUCCESS(clReleaseMemObject(mb));
  CHECK_CL_SUCCESS(clReleaseMemObject(mc));
  CHECK_CL_SUCCESS(clFinish(queue));
}

static void test_copy_and_fill(void) {
  enum { n = 4096 };
  static unsigned char src[n], dst[n];
  for (int i = 0; i < n; i++) src[i] = (unsigned char)(i * 7 + 3);
  cl_mem msrc = cl_test_buffer(context, n, src);
  memset(dst, 0xee, n);
  cl_mem mdst = cl_test_buffer(context, n, dst);
  cl_kernel copy = kernel_named("copy_buffer");
  set_mem(copy, 0, msrc);
  set_mem(copy, 1, mdst);
  /* Only bytes [100, 1100) are copied: the offset moves the ids. */
  size_t offset = 100, global = 1000, local = 10;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, copy, 1, &offset, &global,
                                          &local, 0, NULL, NULL));
  read_back(mdst, n, dst);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    unsigned char want = i >= 100 && i < 1100 ? src[i] : 0xee;
    wrong += dst[i] != want;
  }
  CHECK_INT(0, wrong);

  enum { words = 300 };
  cl_uint values[words];
  memset(values, 0, sizeof values);
  cl_mem mvalues = cl_test_buffer(context, sizeof values, values);
  cl_kernel fill = kernel_named("fill_buffer");
  set_mem(fill, 0, mvalues);
  cl_uint pattern = 0xdeadbeefu;
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 1, sizeof pattern, &pattern));
  offset = 16;
  global = 250;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, fill, 1, &offset, &global,
                                          NULL, 0, NULL, NULL));
  /* Changing the value after the enqueue does not change that command. */
  pattern = 1;
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 1, sizeof pattern, &pattern));
  read_back(mvalues, sizeof values, values);
  wrong = 0;
  for (int i = 0; i < words; i++) {
    cl_uint want = i >= 16 && i < 266 ? 0xdeadbeefu : 0;
    wrong += values[i] != want;
  }
  CHECK_INT(0, wrong);

  /* A task is one work-item: only dst[0]. */
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueTask(queue, fill, 0, NULL, &event));
  read_back(mvalues, sizeof values, values);
  CHECK_INT(1, values[0]);
  CHECK_INT(0, values[1]);
  CHECK_INT(0xdeadbeefu, values[16]);
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type,
                                  &type, NULL));
  CHECK_INT(CL_COMMAND_TASK, type);
  CHECK_CL_SUCCESS(clReleaseEvent(event));

  CHECK_CL_SUCCESS(clReleaseKernel(copy));
  CHECK_CL_SUCCESS(clReleaseKernel(fill));
  CHECK_CL_SUCCESS(clReleaseMemObject(msrc));
  CHECK_CL_SUCCESS(clReleaseMemObject(mdst));
  CHECK_CL_SUCCESS(clReleaseMemObject(mvalues));
}

static void test_local_reduce(void) {
  enum { n = 1024 };
  cl_int in[n], out[n];
  long long total = 0;
  for (int i = 0; i < n; i++) {
    in[i] = i * 3 - 500;
    total += in[i];
  }
  cl_mem min = cl_test_buffer(context, sizeof in, in);
  cl_kernel kernel = kernel_named("local_reduce");
  set_mem(kernel, 0, min);
  /* Explicit local size 64: sixteen sums of sixteen groups. */
  memset(out, 0, sizeof out);
  cl_mem mout = cl_test_buffer(context, sizeof out, out);
  set_mem(kernel, 1, mout);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, 64 * sizeof(cl_int), NULL));
  size_t global = n, local = 64;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  read_back(mout, sizeof out, out);
  int wrong = 0;
  for (int g = 0; g < n / 64; g++) {
    long long sum = 0;
    for (int i = 0; i < 64; i++) sum += in[g * 64 + i];
    wrong += out[g] != sum;
  }
  for (int g = n / 64; g < n; g++) wrong += out[g] != 0;
  CHECK_INT(0, wrong);

  /* NULL local size: whatever the groups, their sums add up. */
  memset(out, 0, sizeof out);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mout, CL_FALSE, 0, sizeof out,
                                        out, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, n * sizeof(cl_int), NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  read_back(mout, sizeof out, out);
  long long sum = 0;
  for (int g = 0; g < n; g++) sum += out[g];
  CHECK(sum == total);

  /* Local memory beyond the device's: CL_OUT_OF_RESOURCES. */
  cl_ulong device_local = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE,
                                   sizeof device_local, &device_local, NULL));
  CHECK_CL_SUCCESS(
      clSetKernelArg(kernel, 2, (size_t)device_local + 128, NULL));
  CHECK_CL(CL_OUT_OF_RESOURCES,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(min));
  CHECK_CL_SUCCESS(clReleaseMemObject(mout));
}

/* record_ids over `dim` dimensions: every work-item once, each with ids
 * that agree with the offset and the local size (inferred when NULL). */
static void check_record_ids(cl_uint dim, const size_t *offset,
                             const size_t *global, const size_t *local) {
  size_t g[3] = {1, 1, 1}, off[3] = {0, 0, 0};
  size_t items = 1;
  for (cl_uint d = 0; d < dim; d++) {
    g[d] = global[d];
    if (offset) off[d] = offset[d];
    items *= g[d];
  }
  cl_uint *ids = calloc(items * RECORD_FIELDS, sizeof *ids);
  cl_uint *counts = calloc(items, sizeof *counts);
  REQUIRE(ids && counts);
  cl_mem mids =
      cl_test_buffer(context, items * RECORD_FIELDS * sizeof *ids, ids);
  cl_mem mcounts = cl_test_buffer(context, items * sizeof *counts, counts);
  cl_kernel kernel = kernel_named("record_ids");
  set_mem(kernel, 0, mids);
  set_mem(kernel, 1, mcounts);
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dim, offset, global,
                                          local, 0, NULL, NULL));
  read_back(mids, items * RECORD_FIELDS * sizeof *ids, ids);
  read_back(mcounts, items * sizeof *counts, counts);

  size_t l[3] = {1, 1, 1};
  for (cl_uint d = 0; d < dim; d++) {
    if (local) {
      l[d] = local[d];
    } else {
      size_t largest = 0; /* the chosen size: one past the largest local id */
      for (size_t i = 0; i < items; i++) {
        if (ids[i * RECORD_FIELDS + 3 + d] > largest) {
          largest = ids[i * RECORD_FIELDS + 3 + d];
        }
      }
      l[d] = largest + 1;
    }
    CHECK(g[d] % l[d] == 0);
  }
  int wrong = 0;
  for (size_t z = 0; z < g[2]; z++) {
    for (size_t y = 0; y < g[1]; y++) {
      for (size_t x = 0; x < g[0]; x++) {
        size_t linear = (z * g[1] + y) * g[0] + x;
        const cl_uint *record = ids + linear * RECORD_FIELDS;
        size_t position[3] = {x, y, z};
        wrong += counts[linear] != 1;
        for (int d = 0; d < 3; d++) {
          wrong += record[d] != off[d] + position[d];
          wrong += record[3 + d] != position[d] % l[d];
          wrong += record[6 + d] != position[d] / l[d];
        }
        wrong += record[9] != dim;
      }
    }
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(mids));
  CHECK_CL_SUCCESS(clReleaseMemObject(mcounts));
  free(ids);
  free(counts);
}

static void test_record_ids(void) {
  const size_t g1[] = {96}, o1[] = {5}, l1[] = {32};
  check_record_ids(1, NULL, g1, l1);
  check_record_ids(1, o1, g1, l1);
  check_record_ids(1, o1, g1, NULL);
  const size_t g1odd[] = {97};
  check_record_ids(1, NULL, g1odd, NULL);
  const size_t g2[] = {24, 10}, o2[] = {3, 1000}, l2[] = {8, 5};
  check_record_ids(2, o2, g2, l2);
  check_record_ids(2, o2, g2, NULL);
  check_record_ids(2, NULL, g2, NULL);
  const size_t g3[] = {8, 6, 4}, o3[] = {1, 2, 3}, l3[] = {4, 3, 2};
  check_record_ids(3, o3, g3, l3);
  check_record_ids(3, o3, g3, NULL);
  const size_t g1big[] = {1 << 16}, o1big[] = {12345};
  check_record_ids(1, o1big, g1big, NULL);
  const size_t g2big[] = {256, 192};
  check_record_ids(2, NULL, g2big, NULL);
  const size_t g3b[] = {1, 1, 70}, l3b[] = {1, 1, 7};
  check_record_ids(3, NULL, g3b, l3b);
  check_record_ids(3, NULL, g3b, NULL);

  /* A task: one work-item with 1 dimension. */
  cl_uint ids[RECORD_FIELDS] = {0}, count = 0;
  cl_mem mids = cl_test_buffer(context, sizeof ids, ids);
  cl_mem mcount = cl_test_buffer(context, sizeof count, &count);
  cl_kernel kernel = kernel_named("record_ids");
  set_mem(kernel, 0, mids);
  set_mem(kernel, 1, mcount);
  CHECK_CL_SUCCESS(clEnqueueTask(queue, kernel, 0, NULL, NULL));
  read_back(mids, sizeof ids, ids);
  read_back(mcount, sizeof count, &count);
  CHECK_INT(1, count);
  CHECK_INT(1, ids[9]);
  CHECK_INT(0, ids[0] + ids[3] + ids[6]);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(mids));
  CHECK_CL_SUCCESS(clReleaseMemObject(mcount));
}

/* A sub-buffer argument addresses its own region of the parent. */
static void test_sub_buffer(void) {
  cl_uint align_bits = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                   sizeof align_bits, &align_bits, NULL));
  size_t origin = align_bits / 8, size = 64 * sizeof(cl_uint);
  size_t total = origin + size + 256;
  cl_uint *values = calloc(total / sizeof(cl_uint) + 1, sizeof *values);
  REQUIRE(values != NULL);
  cl_mem parent = cl_test_buffer(context, total, values);
  cl_int error = CL_SUCCESS;
  cl_buffer_region region = {origin, size};
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(sub != NULL);
  cl_kernel kernel = kernel_named("fill_buffer");
  set_mem(kernel, 0, sub);
  cl_uint value = 0x5a5a5a5au;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));
  size_t global = 64;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseMemObject(sub)); /* the kernel holds it */
  read_back(parent, total, values);
  int wrong = 0;
  for (size_t i = 0; i < total / sizeof(cl_uint); i++) {
    size_t byte = i * sizeof(cl_uint);
    cl_uint want = byte >= origin && byte < origin + size ? value : 0;
    wrong += values[i] != want;
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(parent));
  free(values);
}

/* ---- Native kernels --------------------------------------------------------*/

typedef struct native_args {
  cl_int *in;  /* replaced by the buffers' host addresses */
  cl_int *out;
  cl_int count;
  cl_int add;
} native_args;

static void CL_CALLBACK native_add(void *data) {
  native_args *args = data;
  for (cl_int i = 0; i < args->count; i++) {
    args->out[i] = args->in[i] + args->add;
  }
}

static void test_native(void) {
  cl_device_exec_capabilities capabilities = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES,
                                   sizeof capabilities, &capabilities, NULL));
  CHECK(capabilities & CL_EXEC_NATIVE_KERNEL);
  enum { n = 64 };
  cl_int in[n], out[n];
  for (int i = 0; i < n; i++) in[i] = i * i;
  memset(out, 0, sizeof out);
  cl_mem min = cl_test_buffer(context, sizeof in, in),
         mout = cl_test_buffer(context, sizeof out, out);
  native_args args = {NULL, NULL, n, 10};
  cl_mem mems[] = {min, mout};
  const void *locations[] = {&args.in, &args.out};
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueNativeKernel(queue, native_add, &args, sizeof args,
                                         2, mems, locations, 0, NULL, &event));
  /* The arguments were copied at the enqueue. */
  args.add = 1000;
  args.count = 0;
  read_back(mout, sizeof out, out);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += out[i] != in[i] + 10;
  CHECK_INT(0, wrong);
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type,
                                  &type, NULL));
  CHECK_INT(CL_COMMAND_NATIVE_KERNEL, type);
  CHECK_CL_SUCCESS(clReleaseEvent(event));

  /* Without memory objects, and without arguments at all. */
  args = (native_args){in, out, n, -1};
  CHECK_CL_SUCCESS(clEnqueueNativeKernel(queue, native_add, &args, sizeof args,
                                         0, NULL, NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(in[5] - 1, out[5]);

  /* Errors. */
  args = (native_args){NULL, NULL, n, 0};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, NULL, &args, sizeof args, 2, mems,
                                 locations, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, NULL, sizeof args, 0, NULL,
                                 NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, &args, 0, 0, NULL, NULL, 0,
                                 NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, NULL, 0, 2, mems,
                                 locations, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, &args, sizeof args, 2,
                                 NULL, locations, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, &args, sizeof args, 2, mems,
                                 NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueNativeKernel(queue, native_add, &args, sizeof args, 0, mems,
                                 locations, 0, NULL, NULL));
  cl_mem bad_mems[] = {min, (cl_mem)context};
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueNativeKernel(queue, native_add, &args, sizeof args, 2,
                                 bad_mems, locations, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueNativeKernel((cl_command_queue)context, native_add, &args,
                                 sizeof args, 2, mems, locations, 0, NULL,
                                 NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNativeKernel(queue, native_add, &args, sizeof args, 2, mems,
                                 locations, 1, NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseMemObject(min));
  CHECK_CL_SUCCESS(clReleaseMemObject(mout));
}

/* ---- NDRange errors --------------------------------------------------------*/

static void test_errors(void) {
  cl_kernel kernel = kernel_named("fill_buffer");
  cl_mem buffer = cl_test_buffer(context, 4096, NULL);
  size_t global[3] = {16, 1, 1}, local[3] = {4, 1, 1};

  /* Arguments unset, then only some set. */
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, NULL, 0,
                                  NULL, NULL));
  set_mem(kernel, 0, buffer);
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, NULL, 0,
                                  NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL_ARGS, clEnqueueTask(queue, kernel, 0, NULL, NULL));
  cl_uint value = 3;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));

  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueNDRangeKernel((cl_command_queue)context, kernel, 1, NULL,
                                  global, NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueTask((cl_command_queue)context, kernel, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clEnqueueNDRangeKernel(queue, (cl_kernel)context, 1, NULL, global,
                                  NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clEnqueueTask(queue, (cl_kernel)context, 0, NULL, NULL));

  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           clEnqueueNDRangeKernel(queue, kernel, 0, NULL, global, NULL, 0,
                                  NULL, NULL));
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           clEnqueueNDRangeKernel(queue, kernel, 4, NULL, global, NULL, 0,
                                  NULL, NULL));

  /* No global size, or a zero in it: a command that only completes
   * (OpenCL 2.1 on). */
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, NULL, NULL, 0,
                                          NULL, NULL));
  size_t zero[3] = {16, 0, 4};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, zero, NULL, 0,
                                          NULL, NULL));
  size_t huge[3] = {SIZE_MAX, 2, 1};
  CHECK_CL(CL_INVALID_GLOBAL_WORK_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 2, NULL, huge, NULL, 0, NULL,
                                  NULL));

  size_t bad_offset[3] = {SIZE_MAX - 8, 0, 0};
  CHECK_CL(CL_INVALID_GLOBAL_OFFSET,
           clEnqueueNDRangeKernel(queue, kernel, 1, bad_offset, global, NULL,
                                  0, NULL, NULL));

  /* Built-in kernels run non-uniform NDRanges (cl_non_uniform has the
   * compiled ones'). */
  size_t uneven[3] = {3, 1, 1};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global,
                                          uneven, 0, NULL, NULL));
  size_t local_zero[3] = {0, 1, 1};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, local_zero,
                                  0, NULL, NULL));
  size_t max_group = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                   sizeof max_group, &max_group, NULL));
  size_t max_items[3] = {0};
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                   sizeof max_items, max_items, NULL));
  /* Each dimension allowed, the product too large. */
  size_t big_global[3] = {max_items[0], 2, 1}, big_local[3] = {max_items[0],
                                                                2, 1};
  if (max_items[0] * 2 > max_group && max_items[1] >= 2) {
    CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
             clEnqueueNDRangeKernel(queue, kernel, 2, NULL, big_global,
                                    big_local, 0, NULL, NULL));
  }
  size_t too_wide[3] = {max_items[0] * 2, 1, 1};
  CHECK_CL(CL_INVALID_WORK_ITEM_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, too_wide, too_wide,
                                  0, NULL, NULL));

  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, local, 1,
                                  NULL, NULL));
  cl_event events[1] = {NULL};
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, local, 0,
                                  events, NULL));
  cl_event not_event = (cl_event)context;
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, local, 1,
                                  &not_event, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueTask(queue, kernel, 1, NULL, NULL));

  /* A kernel of another context. */
  cl_context other = cl_test_context(device);
  cl_command_queue other_queue = cl_test_queue(other, device, 0);
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueNDRangeKernel(other_queue, kernel, 1, NULL, global, local,
                                  0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT, clEnqueueTask(other_queue, kernel, 0, NULL,
                                             NULL));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(other_queue));
  CHECK_CL_SUCCESS(clReleaseContext(other));

  /* After all that, a good launch still works, waiting on an event. */
  cl_event first = NULL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global,
                                          local, 0, NULL, &first));
  cl_event second = NULL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global,
                                          local, 1, &first, &second));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &second));
  cl_uint result[16];
  read_back(buffer, sizeof result, result);
  CHECK_INT(3, result[15]);
  CHECK_CL_SUCCESS(clReleaseEvent(first));
  CHECK_CL_SUCCESS(clReleaseEvent(second));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
}

/* The empty kernel over a large 3D range, with NULL local sizes. */
static void test_empty(void) {
  cl_kernel kernel = kernel_named("empty");
  size_t global[3] = {1 << 10, 1 << 8, 3};
  for (cl_uint dim = 1; dim <= 3; dim++) {
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dim, NULL, global,
                                            NULL, 0, NULL, NULL));
  }
  CHECK_CL_SUCCESS(clEnqueueTask(queue, kernel, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

/* ---- Waiting on events -----------------------------------------------------*/

static void test_user_event_gate(void) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = kernel_named("fill_buffer");
  cl_uint values[64] = {0};
  cl_mem buffer = cl_test_buffer(context, sizeof values, values);
  set_mem(kernel, 0, buffer);
  cl_uint value = 42;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));
  size_t global = 64;

  /* The launch waits for the user event. */
  cl_event gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  cl_event launch = NULL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 1, &gate, &launch));
  CHECK_CL_SUCCESS(clFlush(queue));
  cl_int status = CL_COMPLETE;
  CHECK_CL_SUCCESS(clGetEventInfo(launch, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL));
  CHECK(status > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &launch));
  read_back(buffer, sizeof values, values);
  CHECK_INT(42, values[0]);
  CHECK_INT(42, values[63]);
  CHECK_CL_SUCCESS(clReleaseEvent(launch));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));

  /* A failed event in the wait list: the kernel does not run. */
  gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  value = 7;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 1, &gate, &launch));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, -1));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &launch));
  CHECK_CL_SUCCESS(clGetEventInfo(launch, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL));
  CHECK(status < 0);
  CHECK_CL_SUCCESS(clFinish(queue));
  read_back(buffer, sizeof values, values);
  CHECK_INT(42, values[0]);
  CHECK_CL_SUCCESS(clReleaseEvent(launch));
  CHECK_CL_SUCCESS(clReleaseEvent(gate));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
}

/* ---- Threads ---------------------------------------------------------------*/

/* Each thread has its own kernel (clSetKernelArg is per kernel) on the
 * shared program and queue, and checks its own results. */
typedef struct launcher {
  int index;
  int wrong;
} launcher;

static void *launch_many(void *data) {
  launcher *self = data;
  enum { n = 256 };
  cl_kernel kernel = kernel_named("fill_buffer");
  cl_uint values[n];
  cl_mem buffer = cl_test_buffer(context, sizeof values, NULL);
  set_mem(kernel, 0, buffer);
  for (int round = 0; round < 50; round++) {
    cl_uint value = (cl_uint)(self->index * 1000 + round);
    size_t global = n;
    if (clSetKernelArg(kernel, 1, sizeof value, &value) != CL_SUCCESS ||
        clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                               NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof values, values,
                            0, NULL, NULL) != CL_SUCCESS) {
      self->wrong++;
      continue;
    }
    for (int i = 0; i < n; i++) self->wrong += values[i] != value;
  }
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  return NULL;
}

static void test_threads(void) {
  launcher launchers[4];
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) {
    launchers[i] = (launcher){i, 0};
    REQUIRE(pthread_create(&threads[i], NULL, launch_many, &launchers[i]) ==
            0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(threads[i], NULL);
    CHECK_INT(0, launchers[i].wrong);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_int error = CL_SUCCESS;
  program = clCreateProgramWithBuiltInKernels(
      context, 1, &device,
      "copy_buffer;fill_buffer;vector_add;record_ids;local_reduce;empty",
      &error);
  REQUIRE(error == CL_SUCCESS && program != NULL);
  test_vector_add();
  test_copy_and_fill();
  test_local_reduce();
  test_record_ids();
  test_sub_buffer();
  test_native();
  test_errors();
  test_empty();
  test_user_event_gate();
  test_threads();
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

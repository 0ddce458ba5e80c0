/* clmux: OpenCL C kernels built with clBuildProgram and run through the
 * loader, checked against host references: 1D/2D/3D NDRanges with and
 * without offsets, NULL local sizes, reqd_work_group_size, __local
 * arguments, structs and vectors by value, tasks, many enqueues reusing
 * one specialization, barriers with __local arguments and variables,
 * builtin math, printf to stdout, integer division by zero and MIN / -1
 * (undefined results, but the process must survive), cl_khr_expect_assume's
 * hints, and the enqueue errors. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    "typedef struct { int a; float b; long c; } triple;\n"
    "kernel void ids(global uint *out) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "  for (uint d = 0; d < 3; d++) {\n"
    "    out[16 * i + d] = get_global_id(d);\n"
    "    out[16 * i + 3 + d] = get_local_id(d);\n"
    "    out[16 * i + 6 + d] = get_group_id(d);\n"
    "    out[16 * i + 9 + d] = get_local_size(d);\n"
    "  }\n"
    "  out[16 * i + 12] = get_work_dim();\n"
    "}\n"
    /* Ids without the global offset and in constant dimensions: groups of
     * a known width then run as rows (merged), with and without a loop. */
    "kernel void row_ids(global uint *out, uint offset, uint width) {\n"
    "  size_t i = get_global_id(1) * width + get_global_id(0) - offset;\n"
    "  uint steps = 0;\n"
    "  for (size_t k = get_global_id(0) % 5; k > 0; k--) steps++;\n"
    "  out[6 * i] = get_local_id(0);\n"
    "  out[6 * i + 1] = get_group_id(0);\n"
    "  out[6 * i + 2] = get_local_size(0);\n"
    "  out[6 * i + 3] = get_local_id(1);\n"
    "  out[6 * i + 4] = get_group_id(1);\n"
    "  out[6 * i + 5] = steps;\n"
    "}\n"
    "kernel void row_ids_flat(global uint *out, uint offset) {\n"
    "  size_t i = get_global_id(0) - offset;\n"
    "  out[2 * i] = get_local_id(0);\n"
    "  out[2 * i + 1] = get_group_id(0) * get_local_size(0);\n"
    "}\n"
    "kernel void saxpy(float a, global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (x[i] > 0.0f) y[i] = a * x[i] + y[i]; else y[i] = -1.0f;\n"
    "}\n"
    "kernel void by_value(triple t, int4 v, float2 f, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = t.a + t.b + (float)t.c + v.x + v.y * 2 + v.z * 3 + v.w * 4\n"
    "           + f.x * f.y + (float)i;\n"
    "}\n"
    "kernel void local_copy(global const int *in, global int *out,\n"
    "                       local int *scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = in[get_global_id(0)] * 3;\n"
    "  out[get_global_id(0)] = scratch[l] + (int)get_local_size(0);\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "kernel void fixed(global int *out) {\n"
    "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[i] = (int)(get_local_size(0) * 10 + get_local_size(1));\n"
    "}\n"
    "kernel void task(global int *out, int n) {\n"
    "  int sum = 0;\n"
    "  for (int i = 0; i < n; i++) sum += i * i;\n"
    "  out[0] = sum;\n"
    "}\n"
    "kernel void maybe_null(global int *out, global int *unused) {\n"
    "  out[get_global_id(0)] = unused ? 1 : 2;\n"
    "}\n"
    "kernel void reduce(global const int *in, global int *out,\n"
    "                   local int *s) {\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
    "    if (l < h) s[l] += s[l + h];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void reverse(global int *data) {\n"
    "  local int tile[64];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tile[l] = data[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  data[get_global_id(0)] = tile[n - 1 - l];\n"
    "}\n"
    "kernel void image_read(read_only image2d_t img, sampler_t s,\n"
    "                       global float4 *out) {\n"
    "  out[0] = read_imagef(img, s, (int2)(1, 0));\n"
    "}\n"
    "kernel void math(global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = (float)i * 0.01f;\n"
    "  out[i] = sin(x) + exp(x) + sqrt(x);\n"
    "}\n";

static void read_back(cl_mem mem, size_t size, void *out) {
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static cl_kernel kernel_of(cl_program program, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(kernel);
  return kernel;
}

/* Runs `ids` over global (with offset, local as given or NULL) and checks
 * every work-item's ids against the host's computation. */
static void check_ids(cl_kernel kernel, cl_uint dims, const size_t *global,
                      const size_t *offset, const size_t *local) {
  size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0};
  for (cl_uint d = 0; d < dims; d++) {
    g[d] = global[d];
    if (offset) o[d] = offset[d];
  }
  size_t items = g[0] * g[1] * g[2];
  enum { stride = 16 };
  cl_mem out = cl_test_buffer(context, items * stride * sizeof(cl_uint), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dims, offset, global,
                                          local, 0, NULL, NULL));
  cl_uint *got = malloc(items * stride * sizeof *got);
  REQUIRE(got);
  read_back(out, items * stride * sizeof *got, got);
  /* The local size the run used: as given, or the runtime's choice, which
   * must divide the global size. */
  size_t l[3] = {1, 1, 1};
  for (cl_uint d = 0; d < 3; d++) {
    l[d] = local && d < dims ? local[d] : got[9 + d];
    CHECK(l[d] >= 1 && g[d] % l[d] == 0);
  }
  size_t wrong = 0;
  for (size_t z = 0; z < g[2]; z++) {
    for (size_t y = 0; y < g[1]; y++) {
      for (size_t x = 0; x < g[0]; x++) {
        size_t i = (z * g[1] + y) * g[0] + x;
        size_t at[3] = {x, y, z};
        cl_uint want[13];
        for (int d = 0; d < 3; d++) {
          want[d] = (cl_uint)(at[d] + o[d]);
          want[3 + d] = (cl_uint)(at[d] % l[d]);
          want[6 + d] = (cl_uint)(at[d] / l[d]);
          want[9 + d] = (cl_uint)l[d];
        }
        want[12] = dims;
        wrong += memcmp(want, &got[stride * i], sizeof want) != 0;
      }
    }
  }
  CHECK_INT(0, wrong);
  free(got);
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

static void test_ids(cl_program program) {
  cl_kernel kernel = kernel_of(program, "ids");
  size_t g1[] = {256}, l1[] = {32}, o1[] = {7};
  check_ids(kernel, 1, g1, NULL, l1);
  check_ids(kernel, 1, g1, o1, l1);
  check_ids(kernel, 1, g1, NULL, NULL);
  size_t odd[] = {97};
  check_ids(kernel, 1, odd, NULL, NULL);
  size_t g2[] = {24, 10}, l2[] = {8, 5}, o2[] = {3, 4};
  check_ids(kernel, 2, g2, NULL, l2);
  check_ids(kernel, 2, g2, o2, l2);
  check_ids(kernel, 2, g2, o2, NULL);
  size_t g3[] = {8, 6, 4}, l3[] = {4, 3, 2}, o3[] = {1, 2, 3};
  check_ids(kernel, 3, g3, o3, l3);
  check_ids(kernel, 3, g3, NULL, NULL);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

/* Groups whose width is known and whose kernel reads no global offset run
 * as rows of several groups: their local and group ids must still be the
 * group's, at widths of one item and of none that divide a vector. */
static void check_row_ids(cl_kernel looped, cl_kernel flat, size_t width,
                          size_t height, size_t local_x, size_t local_y,
                          size_t offset) {
  size_t items = width * height;
  cl_mem out = cl_test_buffer(context, items * 6 * sizeof(cl_uint), NULL);
  cl_uint offset_arg = (cl_uint)offset, width_arg = (cl_uint)width;
  size_t global[2] = {width, height}, local[2] = {local_x, local_y};
  size_t origin[2] = {offset, 0};
  CHECK_CL_SUCCESS(clSetKernelArg(looped, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(looped, 1, sizeof offset_arg, &offset_arg));
  CHECK_CL_SUCCESS(clSetKernelArg(looped, 2, sizeof width_arg, &width_arg));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, looped, 2, origin, global,
                                          local, 0, NULL, NULL));
  cl_uint *got = malloc(items * 6 * sizeof *got);
  REQUIRE(got);
  read_back(out, items * 6 * sizeof *got, got);
  size_t wrong = 0;
  for (size_t y = 0; y < height; y++) {
    for (size_t x = 0; x < width; x++) {
      cl_uint want[6] = {(cl_uint)(x % local_x), (cl_uint)(x / local_x),
                         (cl_uint)local_x,       (cl_uint)(y % local_y),
                         (cl_uint)(y / local_y), (cl_uint)((x + offset) % 5)};
      wrong += memcmp(want, &got[6 * (y * width + x)], sizeof want) != 0;
    }
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clSetKernelArg(flat, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(flat, 1, sizeof offset_arg, &offset_arg));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, flat, 1, origin, global, local,
                                          0, NULL, NULL));
  read_back(out, width * 2 * sizeof *got, got);
  wrong = 0;
  for (size_t x = 0; x < width; x++) {
    wrong +=
        got[2 * x] != x % local_x || got[2 * x + 1] != x / local_x * local_x;
  }
  CHECK_INT(0, wrong);
  free(got);
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

static void test_row_ids(cl_program program) {
  cl_kernel looped = kernel_of(program, "row_ids");
  cl_kernel flat = kernel_of(program, "row_ids_flat");
  check_row_ids(looped, flat, 1001, 3, 1, 1, 0);
  check_row_ids(looped, flat, 1001, 3, 1, 3, 9);
  check_row_ids(looped, flat, 222, 2, 2, 1, 5);
  check_row_ids(looped, flat, 333, 4, 3, 2, 0);
  check_row_ids(looped, flat, 511, 1, 7, 1, 3);
  check_row_ids(looped, flat, 272, 2, 16, 2, 1);
  check_row_ids(looped, flat, 1020, 1, 17, 1, 0);
  CHECK_CL_SUCCESS(clReleaseKernel(looped));
  CHECK_CL_SUCCESS(clReleaseKernel(flat));
}

/* vstore_half8 into __local memory, then async_work_group_copy out: the
 * eight stores of each work-item lie far apart in the vectorized body
 * (a conversion each) and must all be written, as the global version
 * writes them (the CTS's half suite, local variant). */
static void test_local_half_records(void) {
  static const char *records_source =
      "kernel void to_local(global float8 *p, global half *f) {\n"
      "  local ushort data[16 * 128];\n"
      "  size_t i = get_global_id(0), lid = get_local_id(0);\n"
      "  vstore_half8(p[i], lid, (local half *)data);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  event_t e = async_work_group_copy((global ushort *)f + 8 * (i - "
      "lid),\n"
      "                                    data, 8 * get_local_size(0), 0);\n"
      "  wait_group_events(1, &e);\n"
      "}\n"
      "kernel void to_global(global float8 *p, global half *f) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore_half8(p[i], i, f);\n"
      "}\n";
  cl_program program = cl_test_build(context, device, records_source, NULL);
  cl_kernel local_kernel = kernel_of(program, "to_local");
  cl_kernel global_kernel = kernel_of(program, "to_global");
  enum { n = 4096 };
  static float in[8 * n];
  for (size_t k = 0; k < 8 * n; k++) {
    cl_uint bits = (cl_uint)(k * 2654435761u); /* every class of float */
    memcpy(&in[k], &bits, sizeof bits);
  }
  cl_mem p = cl_test_buffer(context, sizeof in, in);
  cl_mem a = cl_test_buffer(context, 16 * n, NULL),
         b = cl_test_buffer(context, 16 * n, NULL);
  static cl_ushort got[8 * n], want[8 * n];
  const size_t locals[] = {1, 16, 64, 128};
  for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
    size_t global = n;
    CHECK_CL_SUCCESS(clSetKernelArg(local_kernel, 0, sizeof p, &p));
    CHECK_CL_SUCCESS(clSetKernelArg(local_kernel, 1, sizeof a, &a));
    CHECK_CL_SUCCESS(clSetKernelArg(global_kernel, 0, sizeof p, &p));
    CHECK_CL_SUCCESS(clSetKernelArg(global_kernel, 1, sizeof b, &b));
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
        queue, local_kernel, 1, NULL, &global, &locals[l], 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
        queue, global_kernel, 1, NULL, &global, &locals[l], 0, NULL, NULL));
    read_back(a, sizeof got, got);
    read_back(b, sizeof want, want);
    size_t wrong = 0;
    for (size_t k = 0; k < 8 * n; k++) wrong += got[k] != want[k];
    CHECK_INT(0, wrong);
  }
  CHECK_CL_SUCCESS(clReleaseMemObject(p));
  CHECK_CL_SUCCESS(clReleaseMemObject(a));
  CHECK_CL_SUCCESS(clReleaseMemObject(b));
  CHECK_CL_SUCCESS(clReleaseKernel(local_kernel));
  CHECK_CL_SUCCESS(clReleaseKernel(global_kernel));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

static void test_saxpy(cl_program program) {
  enum { n = 4096 };
  static float x[n], y[n], got[n];
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 13) - 3.0f;
    y[i] = (float)i * 0.5f;
  }
  cl_mem bx = cl_test_buffer(context, sizeof x, x),
         by = cl_test_buffer(context, sizeof y, y);
  cl_kernel kernel = kernel_of(program, "saxpy");
  float a = 2.5f;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof a, &a));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bx, &bx));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof by, &by));
  /* Many enqueues of one local size: y = a*x + y repeated (or -1). */
  const int rounds = 50;
  size_t global = n, local = 64;
  for (int r = 0; r < rounds; r++) {
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            &local, 0, NULL, NULL));
  }
  read_back(by, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    float want = y[i];
    for (int r = 0; r < rounds; r++) want = x[i] > 0.0f ? a * x[i] + want : -1.0f;
    wrong += got[i] != want;
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(bx));
  CHECK_CL_SUCCESS(clReleaseMemObject(by));
}

typedef struct {
  cl_int a;
  cl_float b;
  cl_long c;
} triple;

static void test_by_value(cl_program program) {
  enum { n = 100 };
  cl_kernel kernel = kernel_of(program, "by_value");
  triple t = {3, 0.5f, 1000};
  cl_int4 v = {{1, 2, 3, 4}};
  cl_float2 f = {{1.5f, 4.0f}};
  cl_mem out = cl_test_buffer(context, n * sizeof(float), NULL);
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, 12, &t));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof t, &t));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof v, &v));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, 4, &f));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof f, &f));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof out, &out));
  size_t global = n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  float got[n];
  read_back(out, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    float want = 3 + 0.5f + 1000.0f + 1 + 4 + 9 + 16 + 6.0f + (float)i;
    wrong += got[i] != want;
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

static void test_local_arg(cl_program program) {
  enum { n = 512 };
  cl_int in[n], got[n];
  for (int i = 0; i < n; i++) in[i] = i * 7 - 100;
  cl_mem bin = cl_test_buffer(context, sizeof in, in),
         bout = cl_test_buffer(context, sizeof got, NULL);
  cl_kernel kernel = kernel_of(program, "local_copy");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bin, &bin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bout, &bout));
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 2, 64, in));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, 0, NULL));
  /* Unset: the enqueue refuses. */
  size_t global = n, local = 64;
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, local * sizeof(cl_int), NULL));
  cl_ulong local_mem = 0;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local_mem, &local_mem,
                                            NULL));
  CHECK(local_mem >= local * sizeof(cl_int));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  read_back(bout, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += got[i] != in[i] * 3 + 64;
  CHECK_INT(0, wrong);
  /* More local memory than the device has. */
  cl_ulong device_local = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE,
                                   sizeof device_local, &device_local, NULL));
  CHECK_CL_SUCCESS(
      clSetKernelArg(kernel, 2, (size_t)device_local + 4096, NULL));
  CHECK_CL(CL_OUT_OF_RESOURCES,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(bin));
  CHECK_CL_SUCCESS(clReleaseMemObject(bout));
}

static void test_reqd_size(cl_program program) {
  cl_kernel kernel = kernel_of(program, "fixed");
  size_t compiled[3] = {0};
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(
      kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
      compiled, NULL));
  CHECK(compiled[0] == 8 && compiled[1] == 2 && compiled[2] == 1);
  enum { w = 32, h = 6 };
  cl_mem out = cl_test_buffer(context, w * h * sizeof(cl_int), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global[2] = {w, h}, right[2] = {8, 2}, wrong_size[2] = {16, 2};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, wrong_size,
                                  0, NULL, NULL));
  size_t not_divisible[2] = {30, 6};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 2, NULL, not_divisible, NULL,
                                  0, NULL, NULL));
  for (int pass = 0; pass < 2; pass++) {
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global,
                                            pass ? right : NULL, 0, NULL,
                                            NULL));
    cl_int got[w * h];
    read_back(out, sizeof got, got);
    int wrong = 0;
    for (int i = 0; i < w * h; i++) wrong += got[i] != 82;
    CHECK_INT(0, wrong);
  }
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

static void test_task_and_null(cl_program program) {
  cl_kernel kernel = kernel_of(program, "task");
  cl_mem out = cl_test_buffer(context, sizeof(cl_int) * 8, NULL);
  cl_int n = 100;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof n, &n));
  CHECK_CL_SUCCESS(clEnqueueTask(queue, kernel, 0, NULL, NULL));
  cl_int got[8] = {0};
  read_back(out, sizeof(cl_int), got);
  CHECK_INT(328350, got[0]);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));

  kernel = kernel_of(program, "maybe_null");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(cl_mem), NULL));
  size_t global = 8;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  read_back(out, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < 8; i++) wrong += got[i] != 2;
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  read_back(out, sizeof got, got);
  wrong = 0;
  for (int i = 0; i < 8; i++) wrong += got[i] != 1;
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

static void test_barriers(cl_program program) {
  enum { n = 1024, group = 64 };
  static cl_int in[n], sums[n / group], data[n];
  for (int i = 0; i < n; i++) in[i] = i * 3 - 700;
  cl_mem bin = cl_test_buffer(context, sizeof in, in),
         bsums = cl_test_buffer(context, sizeof sums, NULL);
  cl_kernel kernel = kernel_of(program, "reduce");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bin, &bin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bsums, &bsums));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, group * sizeof(cl_int), NULL));
  size_t global = n, local = group;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  read_back(bsums, sizeof sums, sums);
  int wrong = 0;
  for (int g = 0; g < n / group; g++) {
    cl_int want = 0;
    for (int i = 0; i < group; i++) want += in[g * group + i];
    wrong += sums[g] != want;
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));

  /* A kernel-scope __local array: per work-group, and reported. */
  kernel = kernel_of(program, "reverse");
  cl_mem bdata = cl_test_buffer(context, sizeof in, in);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bdata, &bdata));
  local = 32;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  cl_ulong local_mem = 0;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local_mem, &local_mem,
                                            NULL));
  CHECK(local_mem >= 64 * sizeof(cl_int));
  read_back(bdata, sizeof data, data);
  wrong = 0;
  for (int i = 0; i < n; i++) {
    wrong += data[i] != in[i / 32 * 32 + 31 - i % 32];
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(bin));
  CHECK_CL_SUCCESS(clReleaseMemObject(bsums));
  CHECK_CL_SUCCESS(clReleaseMemObject(bdata));
}

static void test_math(cl_program program) {
  enum { n = 1000 };
  static float got[n];
  cl_mem out = cl_test_buffer(context, sizeof got, NULL);
  cl_kernel kernel = kernel_of(program, "math");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  read_back(out, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    double x = (double)((float)i * 0.01f);
    double want = sin(x) + exp(x) + sqrt(x);
    /* Three results of a few ulp each, summed. */
    wrong += fabs(got[i] - want) > 1e-5 * fabs(want) + 1e-6;
  }
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

/* x86 division traps on a zero divisor and on MIN / -1: such lanes give
 * some value, the others the exact quotient and remainder. */
static void test_division(void) {
  static const char text[] =
      "kernel void divide(global const int *a, global const int *b,\n"
      "                   global int *q, global int *r, global long *lq,\n"
      "                   global uint *uq) {\n"
      "  size_t i = get_global_id(0);\n"
      "  q[i] = a[i] / b[i];\n"
      "  r[i] = a[i] % b[i];\n"
      "  lq[i] = (long)a[i] * 4294967296L / (long)b[i];\n"
      "  uq[i] = (uint)a[i] / (uint)b[i];\n"
      "}\n"
      "kernel void divide4(global const int4 *a, global const int4 *b,\n"
      "                    global int4 *q) {\n"
      "  size_t i = get_global_id(0);\n"
      "  q[i] = a[i] / b[i] + a[i] % b[i];\n"
      "}\n";
  enum { n = 64 };
  static int a[n], b[n], q[n], r[n], q4[n];
  static long long lq[n];
  static unsigned uq[n];
  for (int i = 0; i < n; i++) {
    a[i] = i % 3 == 0 ? INT_MIN : 1000 - 37 * i;
    b[i] = i % 4 == 0 ? 0 : i % 4 == 1 ? -1 : 7 - i;
  }
  cl_program program = cl_test_build(context, device, text, NULL);
  cl_mem in_a = cl_test_buffer(context, sizeof a, a),
         in_b = cl_test_buffer(context, sizeof b, b);
  cl_mem out_q = cl_test_buffer(context, sizeof q, NULL),
         out_r = cl_test_buffer(context, sizeof r, NULL);
  cl_mem out_lq = cl_test_buffer(context, sizeof lq, NULL),
         out_uq = cl_test_buffer(context, sizeof uq, NULL);
  cl_mem out_q4 = cl_test_buffer(context, sizeof q4, NULL);
  cl_kernel kernel = kernel_of(program, "divide");
  cl_mem args[] = {in_a, in_b, out_q, out_r, out_lq, out_uq};
  for (cl_uint i = 0; i < 6; i++) {
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, i, sizeof(cl_mem), &args[i]));
  }
  size_t global = n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  cl_kernel kernel4 = kernel_of(program, "divide4");
  cl_mem args4[] = {in_a, in_b, out_q4};
  for (cl_uint i = 0; i < 3; i++) {
    CHECK_CL_SUCCESS(clSetKernelArg(kernel4, i, sizeof(cl_mem), &args4[i]));
  }
  size_t global4 = n / 4;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel4, 1, NULL, &global4,
                                          NULL, 0, NULL, NULL));
  read_back(out_q, sizeof q, q);
  read_back(out_r, sizeof r, r);
  read_back(out_lq, sizeof lq, lq);
  read_back(out_uq, sizeof uq, uq);
  read_back(out_q4, sizeof q4, q4);
  int wrong = 0, defined = 0;
  for (int i = 0; i < n; i++) {
    if (b[i] == 0 || (a[i] == INT_MIN && b[i] == -1)) continue;
    defined++;
    wrong += q[i] != a[i] / b[i] || r[i] != a[i] % b[i] ||
             q4[i] != a[i] / b[i] + a[i] % b[i] ||
             lq[i] != (long long)a[i] * 4294967296LL / b[i] ||
             uq[i] != (unsigned)a[i] / (unsigned)b[i];
  }
  CHECK(defined > n / 3);
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel4));
  cl_mem all[] = {in_a, in_b, out_q, out_r, out_lq, out_uq, out_q4};
  for (int i = 0; i < 7; i++) CHECK_CL_SUCCESS(clReleaseMemObject(all[i]));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

/* __local objects whose addresses are only compared, never accessed (a
 * constant expression chain in Clang's IR), still get their place. */
/* A loop over all bodies with an atomic in it, bounded by an argument: at
 * local sizes of 8 and more the compiler runs it in step across the
 * work-items (loop_barriers.c); every item must still get its own sum
 * and every atomic must count. */
static void test_uniform_loops(void) {
  static const char text[] =
      "kernel void forces(global int *counters, global float4 *acc,\n"
      "                   global const float4 *pos, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float4 p = pos[i];\n"
      "  float3 a = 0.0f;\n"
      "  for (int j = 0; j < n; j++) {\n"
      "    atomic_inc(&counters[j & 7]);\n"
      "    float3 d = pos[j].xyz - p.xyz;\n"
      "    a += d * (pos[j].w * rsqrt(dot(d, d) + 0.01f));\n"
      "  }\n"
      "  acc[i] = (float4)(a, (float)n);\n"
      "}\n";
  enum { n = 512 };
  static cl_float pos[4 * n], acc[4 * n];
  for (int i = 0; i < 4 * n; i++) pos[i] = (float)((i * 37) % 101) / 9.0f;
  cl_program program = cl_test_build(context, device, text, NULL);
  cl_kernel kernel = kernel_of(program, "forces");
  cl_mem bcounters = cl_test_buffer(context, 8 * sizeof(cl_int), NULL);
  cl_mem bacc = cl_test_buffer(context, sizeof acc, NULL),
         bpos = cl_test_buffer(context, sizeof pos, pos);
  cl_int count = n;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bcounters, &bcounters));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bacc, &bacc));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof bpos, &bpos));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof count, &count));
  const size_t locals[] = {64, 16, 4, 0};
  for (size_t l = 0; l < sizeof locals / sizeof locals[0]; l++) {
    cl_int counters[8] = {0};
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, bcounters, CL_TRUE, 0,
                                          sizeof counters, counters, 0, NULL,
                                          NULL));
    size_t global = n;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            locals[l] ? &locals[l] : NULL, 0,
                                            NULL, NULL));
    read_back(bacc, sizeof acc, acc);
    read_back(bcounters, sizeof counters, counters);
    int wrong = 0;
    for (int c = 0; c < 8; c++) wrong += counters[c] != n * (n / 8);
    for (int i = 0; i < n; i++) {
      double a[3] = {0, 0, 0};
      for (int j = 0; j < n; j++) {
        double d[3], dd = 0.0;
        for (int k = 0; k < 3; k++) {
          d[k] = (double)pos[4 * j + k] - pos[4 * i + k];
          dd += d[k] * d[k];
        }
        double scale = pos[4 * j + 3] / sqrt(dd + 0.01);
        for (int k = 0; k < 3; k++) a[k] += d[k] * scale;
      }
      for (int k = 0; k < 3; k++) {
        wrong += fabs(acc[4 * i + k] - a[k]) > 1e-3 * (fabs(a[k]) + 1.0);
      }
      wrong += acc[4 * i + 3] != (float)n;
    }
    if (wrong) fprintf(stderr, "forces, local %zu: %d wrong\n", locals[l], wrong);
    CHECK_INT(0, wrong);
  }
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseMemObject(bcounters));
  CHECK_CL_SUCCESS(clReleaseMemObject(bacc));
  CHECK_CL_SUCCESS(clReleaseMemObject(bpos));
}

static void test_local_addresses(void) {
  static const char text[] =
      "typedef struct { char c; int i; } pair;\n"
      "kernel void k(global uint *d) {\n"
      "  local char x[3];\n"
      "  local pair p;\n"
      "  d[get_global_id(0)] = (uint)((local uchar *)&x[2] -\n"
      "                               (local uchar *)x) * 100 +\n"
      "      (uint)((local uchar *)&p.i - (local uchar *)&p.c);\n"
      "}\n";
  enum { n = 32 };
  static unsigned got[n];
  cl_program program = cl_test_build(context, device, text, NULL);
  cl_mem out = cl_test_buffer(context, sizeof got, NULL);
  cl_kernel kernel = kernel_of(program, "k");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = n;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  read_back(out, sizeof got, got);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += got[i] != 204;
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

/* A kernel the compiler cannot specialize yet (image builtins today)
 * fails its enqueue with CL_OUT_OF_RESOURCES and says why in the build
 * log; once it can, it must read the right pixel. */
static void test_unsupported(cl_program program) {
  cl_kernel kernel = kernel_of(program, "image_read");
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  float pixels[4 * 4 * 4];
  for (int i = 0; i < 64; i++) pixels[i] = (float)i + 1.0f;
  cl_int error = CL_SUCCESS;
  cl_mem image =
      clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      &format, 4, 4, 0, pixels, &error);
  CHECK_CL_SUCCESS(error);
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE,
                                       CL_FILTER_NEAREST, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = cl_test_buffer(context, 4 * sizeof(float), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof sampler, &sampler));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof out, &out));
  size_t one = 1;
  for (int attempt = 0; attempt < 2; attempt++) {
    error = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                   NULL, NULL);
    if (error == CL_OUT_OF_RESOURCES) {
      char *log = cl_test_build_log(program, device);
      CHECK(strstr(log, "kernel image_read cannot run") != NULL);
      /* Reported once, however often it is tried. */
      char *first = strstr(log, "image_read cannot run");
      CHECK(first && !strstr(first + 1, "image_read cannot run"));
      free(log);
    } else {
      CHECK_CL_SUCCESS(error);
      float got[4] = {0};
      read_back(out, sizeof got, got);
      CHECK(got[0] == 5.0f && got[3] == 8.0f);
    }
  }
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
  CHECK_CL_SUCCESS(clReleaseMemObject(image));
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
}

/* Four threads, each with its own kernel object, enqueue the same kernel
 * with a local size nobody used before, at once: one specialization
 * serves them all, every result right. */
typedef struct racer {
  cl_program program;
  pthread_barrier_t *start;
  int wrong;
} racer;

static void *race_thread(void *data) {
  racer *r = data;
  enum { n = 960 };
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(r->program, "saxpy", &error);
  cl_command_queue own = clCreateCommandQueue(context, device, 0, &error);
  float x[n], y[n], got[n];
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 7) + 1.0f;
    y[i] = (float)i;
  }
  cl_mem bx = cl_test_buffer(context, sizeof x, x),
         by = cl_test_buffer(context, sizeof y, y);
  float a = 3.0f;
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof bx, &bx);
  clSetKernelArg(kernel, 2, sizeof by, &by);
  size_t global = n, local = 48;
  pthread_barrier_wait(r->start);
  error = clEnqueueNDRangeKernel(own, kernel, 1, NULL, &global, &local, 0,
                                 NULL, NULL);
  error |= clEnqueueReadBuffer(own, by, CL_TRUE, 0, sizeof got, got, 0, NULL,
                               NULL);
  r->wrong = error != CL_SUCCESS ? n : 0;
  for (int i = 0; error == CL_SUCCESS && i < n; i++) {
    r->wrong += got[i] != a * x[i] + y[i];
  }
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseKernel(kernel);
  clReleaseCommandQueue(own);
  return NULL;
}

static void test_concurrent_first_enqueue(cl_program program) {
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, 4);
  racer racers[4];
  pthread_t threads[4];
  for (int t = 0; t < 4; t++) {
    racers[t] = (racer){program, &start, -1};
    REQUIRE(pthread_create(&threads[t], NULL, race_thread, &racers[t]) == 0);
  }
  for (int t = 0; t < 4; t++) {
    pthread_join(threads[t], NULL);
    CHECK_INT(0, racers[t].wrong);
  }
  pthread_barrier_destroy(&start);
}

/* printf output reaches stdout by clFinish, in work-item order within a
 * work-group (one group here: groups may print in any order). */
static void test_printf(void) {
  cl_program program = cl_test_build(
      context, device,
      "kernel void say(int v) {\n"
      "  printf(\"item %d of %d: %5.2f %s\\n\", (int)get_global_id(0), v,\n"
      "         0.25f * (float)get_global_id(0), \"ok\");\n"
      "}\n",
      NULL);
  cl_kernel kernel = kernel_of(program, "say");
  cl_int v = 4;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof v, &v));
  char path[64];
  snprintf(path, sizeof path, "/tmp/clmux_printf_%d.txt", (int)getpid());
  fflush(stdout);
  int saved = dup(1);
  FILE *file = fopen(path, "w+");
  REQUIRE(saved >= 0 && file);
  dup2(fileno(file), 1);
  size_t global = 4, local = 4;
  cl_int error = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                        &local, 0, NULL, NULL);
  cl_int finished = clFinish(queue);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(finished);
  char text[256] = {0};
  rewind(file);
  size_t length = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  unlink(path);
  const char want[] =
      "item 0 of 4:  0.00 ok\nitem 1 of 4:  0.25 ok\n"
      "item 2 of 4:  0.50 ok\nitem 3 of 4:  0.75 ok\n";
  CHECK_INT(strlen(want), length);
  CHECK(strcmp(text, want) == 0);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

static void test_enqueue_errors(cl_program program) {
  cl_kernel kernel = kernel_of(program, "ids");
  cl_mem out = cl_test_buffer(context, 4096, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global[3] = {16, 16, 16}, local[3] = {4, 4, 4};
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           clEnqueueNDRangeKernel(queue, kernel, 0, NULL, global, NULL, 0,
                                  NULL, NULL));
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           clEnqueueNDRangeKernel(queue, kernel, 4, NULL, global, NULL, 0,
                                  NULL, NULL));
  /* No work-items: a command that only completes (OpenCL 2.1 on;
   * cl_later_versions checks it). */
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, NULL, NULL, 0,
                                          NULL, NULL));
  size_t zero[1] = {0};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, zero, NULL, 0,
                                          NULL, NULL));
  size_t huge_offset[1] = {SIZE_MAX - 4};
  CHECK_CL(CL_INVALID_GLOBAL_OFFSET,
           clEnqueueNDRangeKernel(queue, kernel, 1, huge_offset, global, NULL,
                                  0, NULL, NULL));
  size_t bad_local[1] = {5};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, bad_local, 0,
                                  NULL, NULL));
  size_t max_items[3] = {0};
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                   sizeof max_items, max_items, NULL));
  size_t too_big_global[1] = {max_items[0] * 2};
  size_t too_big[1] = {max_items[0] * 2};
  CHECK_CL(CL_INVALID_WORK_ITEM_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, too_big_global,
                                  too_big, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clEnqueueNDRangeKernel(queue, NULL, 1, NULL, global, local, 0, NULL,
                                  NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueNDRangeKernel(NULL, kernel, 1, NULL, global, local, 0,
                                  NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, local, 1,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
}

/* cl_khr_expect_assume: its macro, __builtin_expect and __builtin_assume
 * in OpenCL C 1.2 and 3.0 (hints: the results are the plain ones). */
static void test_expect_assume(void) {
  static const char text[] =
      "#ifndef cl_khr_expect_assume\n"
      "#error no cl_khr_expect_assume\n"
      "#endif\n"
      "kernel void hinted(global const int *in, global int *out, int n) {\n"
      "  __builtin_assume(n > 0);\n"
      "  int i = get_global_id(0);\n"
      "  out[i] = __builtin_expect(in[i] > 3, 1) ? in[i] * n : -1;\n"
      "}\n";
  const char *options[] = {"", "-cl-std=CL3.0"};
  for (int o = 0; o < 2; o++) {
    cl_program program = cl_test_build(context, device, text, options[o]);
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "hinted", &error);
    CHECK_CL_SUCCESS(error);
    enum { N = 37 };
    cl_int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = i % 7;
    cl_mem a = cl_test_buffer(context, sizeof in, in);
    cl_mem b = cl_test_buffer(context, sizeof out, NULL);
    cl_int n = 5;
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof a, &a));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof b, &b));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof n, &n));
    size_t global = N;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            NULL, 0, NULL, NULL));
    read_back(b, sizeof out, out);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != (in[i] > 3 ? in[i] * n : -1);
    CHECK_INT(0, bad);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, NULL);
  test_ids(program);
  test_row_ids(program);
  test_local_half_records();
  test_saxpy(program);
  test_by_value(program);
  test_local_arg(program);
  test_reqd_size(program);
  test_task_and_null(program);
  test_barriers(program);
  test_math(program);
  test_division();
  test_expect_assume();
  test_uniform_loops();
  test_local_addresses();
  test_unsupported(program);
  test_concurrent_first_enqueue(program);
  test_printf();
  test_enqueue_errors(program);
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

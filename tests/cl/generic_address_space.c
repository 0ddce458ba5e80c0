/* The generic address space of OpenCL C 3.0 through the loader: functions
 * taking generic pointers called with global, local and private ones
 * (work-items choosing differently); to_global, to_local, to_private and
 * get_fence on each kind of memory, in kernels with and without barriers
 * (private arrays live in scratch or on the stack), on plain host memory
 * passed as SVM, on addresses other groups stored (their local memory,
 * other threads' stacks); and builtins with generic pointer parameters (math,
 * vector loads and stores, C11 atomics) on every kind of memory. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static const char source[] =
    "int sum3(const int *p) { return p[0] + p[1] + p[2]; }\n"
    /* Which of to_global, to_local, to_private keep p (bits 0, 1, 2), and
     * get_fence's answer in bits 4.. . */
    "uint kind(int *p) {\n"
    "  return (to_global(p) != 0) | (to_local(p) != 0) << 1 |\n"
    "         (to_private(p) != 0) << 2 | get_fence(p) << 4;\n"
    "}\n"
    "kernel void choose(global int *g, local int *l, global int *out,\n"
    "                   global uint *kinds) {\n"
    "  size_t i = get_global_id(0), lid = get_local_id(0);\n"
    "  int p[3] = {(int)i, 1, 2};\n"
    "  local int lv[64 * 3];\n"
    "  for (int k = 0; k < 3; k++) {\n"
    "    l[3 * lid + k] = 10 * k;\n"
    "    lv[3 * lid + k] = 100 * k;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    /* A generic pointer chosen per work-item, after a barrier (the private
     * array lives in scratch). */
    "  int *q = i % 4 == 0 ? (int *)(g + 3 * i)\n"
    "         : i % 4 == 1 ? (int *)&l[3 * lid]\n"
    "         : i % 4 == 2 ? (int *)&lv[3 * lid] : (int *)p;\n"
    "  out[i] = sum3(q);\n"
    "  kinds[4 * i] = kind(q);\n"
    "  kinds[4 * i + 1] = kind(g);\n"
    "  kinds[4 * i + 2] = kind(&l[lid]);\n"
    "  kinds[4 * i + 3] = kind(p + 1);\n"
    "}\n"
    /* No barrier: private data on the stack. */
    "kernel void stack_kinds(global uint *kinds, global int *host) {\n"
    "  int p[4] = {1, 2, 3, 4};\n"
    "  volatile int x = 5;\n"
    "  size_t i = get_global_id(0);\n"
    "  kinds[3 * i] = kind(&p[i % 4]);\n"
    "  kinds[3 * i + 1] = kind((int *)&x);\n"
    "  kinds[3 * i + 2] = kind(host + i);\n"
    "}\n"
    /* Where other work-items' variables lie: an earlier NDRange's
     * groups stored them, on other threads too. */
    "kernel void store_pointers(global ulong *where) {\n"
    "  local int l;\n"
    "  volatile int p = 1;\n"
    "  size_t i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) l = 2;\n"
    "  where[2 * i] = (ulong)&l;\n"
    "  where[2 * i + 1] = (ulong)&p;\n"
    "}\n"
    "kernel void others_kinds(global const ulong *where, global uint *kinds) "
    "{\n"
    "  size_t i = get_global_id(0), n = get_global_size(0);\n"
    "  for (size_t k = 0; k < 4; k++) {\n"
    "    size_t other = (i + k * n / 4 + 64) % n;\n"
    "    kinds[8 * i + 2 * k] = kind((int *)where[2 * other]);\n"
    "    kinds[8 * i + 2 * k + 1] = kind((int *)where[2 * other + 1]);\n"
    "  }\n"
    "}\n"
    "kernel void builtins(global float *g, global int *counters,\n"
    "                     global float *out) {\n"
    "  local float l[8];\n"
    "  local atomic_int local_counter;\n"
    "  size_t i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) atomic_init(&local_counter, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float whole, c;\n"
    "  float *w = &whole;\n"
    "  out[8 * i] = fract(2.75f + i, w);\n"
    "  out[8 * i + 1] = whole;\n"
    "  out[8 * i + 2] = sincos(0.5f, &c) + c;\n"
    "  int e;\n"
    "  out[8 * i + 3] = frexp(48.0f, &e) + e;\n"
    "  float4 v = vload4(0, (float *)g);\n"
    "  if (get_local_id(0) == 0) vstore4(v * 2.0f, 0, (float *)l);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float4 back = vload4(0, (float *)l);\n"
    "  out[8 * i + 4] = back.x + back.y + back.z + back.w;\n"
    "  atomic_int *gc = (atomic_int *)counters;\n"
    "  atomic_int *lc = &local_counter;\n"
    "  atomic_fetch_add(gc, 1);\n"
    "  atomic_fetch_add(lc, 2);\n"
    "  int expected = 0;\n"
    "  int *ep = &expected;\n"
    "  atomic_compare_exchange_strong((atomic_int *)counters + 1, ep, 7);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[8 * i + 5] = atomic_load(lc);\n"
    "  int quo;\n"
    "  out[8 * i + 6] = remquo(7.0f, 2.0f, &quo) + 10 * quo;\n"
    "  double dw;\n"
    "  out[8 * i + 7] = (float)modf(3.25, &dw) + (float)dw;\n"
    "}\n";

static cl_kernel kernel_named(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

enum { GLOBAL_BIT = 1, LOCAL_BIT = 2, PRIVATE_BIT = 4 };
enum { FENCE_LOCAL = 1 << 4, FENCE_GLOBAL = 2 << 4 };
static const cl_uint global_kind = GLOBAL_BIT | FENCE_GLOBAL;
static const cl_uint local_kind = LOCAL_BIT | FENCE_LOCAL;
static const cl_uint private_kind = PRIVATE_BIT | FENCE_GLOBAL;

static void test_choose(void) {
  enum { N = 1024, LOCAL = 64 };
  static int g[3 * N];
  for (int i = 0; i < 3 * N; i++) g[i] = i;
  cl_int error = CL_SUCCESS;
  cl_mem gb =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof g, g, &error);
  cl_mem out = cl_test_buffer(context, N * sizeof(int), NULL);
  cl_mem kinds = cl_test_buffer(context, 4 * N * sizeof(cl_uint), NULL);
  cl_kernel k = kernel_named("choose");
  clSetKernelArg(k, 0, sizeof gb, &gb);
  clSetKernelArg(k, 1, 3 * LOCAL * sizeof(int), NULL);
  clSetKernelArg(k, 2, sizeof out, &out);
  clSetKernelArg(k, 3, sizeof kinds, &kinds);
  size_t global = N, local = LOCAL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                          NULL, NULL));
  static int sums[N];
  static cl_uint got[4 * N];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof sums,
                                       sums, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, kinds, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int want = i % 4 == 0   ? 9 * i + 3
               : i % 4 == 1 ? 30
               : i % 4 == 2 ? 300
                            : i + 3;
    cl_uint kind = i % 4 == 0   ? global_kind
                   : i % 4 == 3 ? private_kind
                                : local_kind;
    bad += sums[i] != want;
    bad += got[4 * i] != kind;
    bad += got[4 * i + 1] != global_kind;
    bad += got[4 * i + 2] != local_kind;
    bad += got[4 * i + 3] != private_kind;
  }
  if (bad) {
    fprintf(stderr, "choose: %d wrong (item 3: sum %d kinds %x %x %x %x)\n",
            bad, sums[3], got[12], got[13], got[14], got[15]);
  }
  CHECK_INT(0, bad);
  clReleaseKernel(k);
  clReleaseMemObject(kinds);
  clReleaseMemObject(out);
  clReleaseMemObject(gb);
}

static void test_stack_kinds(void) {
  enum { N = 256 };
  int *host = malloc(N * sizeof(int)); /* fine-grained system SVM */
  REQUIRE(host);
  cl_mem kinds = cl_test_buffer(context, 3 * N * sizeof(cl_uint), NULL);
  cl_kernel k = kernel_named("stack_kinds");
  clSetKernelArg(k, 0, sizeof kinds, &kinds);
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(k, 1, host));
  size_t global = N;
  CHECK_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  static cl_uint got[3 * N];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, kinds, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += got[3 * i] != private_kind;
    bad += got[3 * i + 1] != private_kind;
    bad += got[3 * i + 2] != global_kind;
  }
  if (bad) {
    fprintf(stderr, "stack_kinds: %d wrong (%x %x %x)\n", bad, got[0], got[1],
            got[2]);
  }
  CHECK_INT(0, bad);
  clReleaseKernel(k);
  clReleaseMemObject(kinds);
  free(host);
}

/* Other groups' local memory and other threads' stacks are local and
 * private memory to a work-item that reads their addresses. */
static void test_others_kinds(void) {
  enum { N = 2048, LOCAL = 64 };
  cl_mem where = cl_test_buffer(context, 2 * N * sizeof(cl_ulong), NULL);
  cl_mem kinds = cl_test_buffer(context, 8 * N * sizeof(cl_uint), NULL);
  cl_kernel store = kernel_named("store_pointers");
  cl_kernel read = kernel_named("others_kinds");
  clSetKernelArg(store, 0, sizeof where, &where);
  clSetKernelArg(read, 0, sizeof where, &where);
  clSetKernelArg(read, 1, sizeof kinds, &kinds);
  size_t global = N, local = LOCAL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, store, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, read, 1, NULL, &global, &local,
                                          0, NULL, NULL));
  static cl_uint got[8 * N];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, kinds, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < 4 * N; i++) {
    bad += got[2 * i] != local_kind;
    bad += got[2 * i + 1] != private_kind;
  }
  if (bad) {
    fprintf(stderr, "others_kinds: %d wrong (%x %x)\n", bad, got[0], got[1]);
  }
  CHECK_INT(0, bad);
  clReleaseKernel(store);
  clReleaseKernel(read);
  clReleaseMemObject(kinds);
  clReleaseMemObject(where);
}

static void test_builtins(void) {
  enum { N = 64, LOCAL = 16 };
  float g[4] = {1, 2, 3, 4};
  int counters[2] = {0, 0};
  cl_int error = CL_SUCCESS;
  cl_mem gb =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof g, g, &error);
  cl_mem cb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof counters,
                             counters, &error);
  cl_mem out = cl_test_buffer(context, 8 * N * sizeof(float), NULL);
  cl_kernel k = kernel_named("builtins");
  clSetKernelArg(k, 0, sizeof gb, &gb);
  clSetKernelArg(k, 1, sizeof cb, &cb);
  clSetKernelArg(k, 2, sizeof out, &out);
  size_t global = N, local = LOCAL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                          NULL, NULL));
  static float got[8 * N];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, cb, CL_TRUE, 0, sizeof counters,
                                       counters, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    const float *o = got + 8 * i;
    bad += o[0] != 0.75f || o[1] != 2.0f + i;
    bad += fabsf(o[2] - (sinf(0.5f) + cosf(0.5f))) > 1e-6f;
    bad += o[3] != 0.75f + 6; /* 48 = 0.75 * 2^6 */
    bad += o[4] != 20.0f;     /* (1 + 2 + 3 + 4) * 2 */
    bad += o[5] != 2.0f * LOCAL;
    bad += o[6] != -1.0f + 10 * 4; /* 7 = 4 * 2 - 1 */
    bad += o[7] != 3.25f;
  }
  if (bad) {
    fprintf(stderr, "builtins: %d wrong (%g %g %g %g %g %g %g %g)\n", bad,
            got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
  }
  CHECK_INT(0, bad);
  CHECK_INT(N, counters[0]);
  CHECK_INT(7, counters[1]);
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseMemObject(cb);
  clReleaseMemObject(gb);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_bool supported = CL_FALSE;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
                                   sizeof supported, &supported, NULL));
  CHECK(supported == CL_TRUE);
  program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  test_choose();
  test_stack_kinds();
  test_others_kinds();
  test_builtins();
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* Program-scope global variables of OpenCL C 3.0 through the loader:
 * initial values of every kind (scalars, arrays, structs, pointers to
 * other variables), kept from launch to launch and shared by the
 * program's kernels, static __global variables in functions, a kernel
 * with barriers, bounds-checked builds, separate storage per program and
 * per device (two sub-devices of one context), a rebuild that starts again from the initial values, the total size
 * query, and a program reloaded from its binary in another process. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    "global int counter = 5;\n"
    "global float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};\n"
    "global int *pointer = &counter;\n"
    "typedef struct { int a; global float *f; char c; long l[2]; } S;\n"
    "global S s = {7, &table[2], 'x', {-3, 1L << 40}};\n"
    "global int squares[1000];\n"
    "int next_id(void) {\n"
    "  static global int ids = 100;\n"
    "  return atomic_fetch_add((volatile global atomic_int *)&ids, 1);\n"
    "}\n"
    "kernel void bump(global long *out) {\n"
    "  if (get_global_id(0) == 0) *pointer += 1;\n"
    "  next_id();\n"
    "  out[0] = counter;\n"
    "  out[1] = (long)(table[1] * 2);\n"
    "  out[2] = s.a;\n"
    "  out[3] = (long)(*s.f * 2);\n"
    "  out[4] = s.c;\n"
    "  out[5] = s.l[0] + s.l[1];\n"
    "}\n"
    "kernel void read(global long *out) {\n"
    "  out[0] = counter;\n"
    "  out[1] = next_id();\n"
    "}\n"
    /* Every work-item fills and, after a barrier, reads another's entry;
     * then a data-dependent loop over its group's entries (another
     * group's are not ordered with this one's reads). */
    "kernel void fill(global long *out) {\n"
    "  int i = get_global_id(0), l = get_local_id(0);\n"
    "  squares[i] = i * i;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  int n = get_local_size(0), base = i - l;\n"
    "  long sum = squares[base + (l + 1) % n];\n"
    "  for (int k = 0; k < i % 7; k++) sum += squares[base + k];\n"
    "  out[i] = sum;\n"
    "}\n";

static cl_program build(const char *options) {
  return cl_test_build(context, device, source, options);
}

static void run(cl_program program, const char *name, size_t global,
                size_t local, cl_mem out) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
      queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseKernel(kernel);
}

static void read_back(cl_mem out, cl_long *values, size_t count) {
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, out, CL_TRUE, 0, count * sizeof *values, values, 0, NULL, NULL));
}

/* Three launches of bump and one of read on `program`, whose counter
 * starts at 5 + `before` bumps. */
static void check_values(cl_program program, int before) {
  cl_mem out = cl_test_buffer(context, 1000 * sizeof(cl_long), NULL);
  for (int i = 0; i < 3; i++) run(program, "bump", 64, 0, out);
  cl_long v[6];
  read_back(out, v, 6);
  CHECK_INT(5 + before + 3, (int)v[0]);
  CHECK_INT(5, (int)v[1]);
  CHECK_INT(7, (int)v[2]);
  CHECK_INT(7, (int)v[3]);
  CHECK_INT('x', (int)v[4]);
  CHECK(v[5] == (1L << 40) - 3);
  run(program, "read", 1, 0, out);
  read_back(out, v, 2);
  CHECK_INT(5 + before + 3, (int)v[0]); /* another kernel sees it */
  /* A static variable in a function: one id per work-item of each bump and
   * one per earlier read (one per three bumps). */
  CHECK_INT(100 + 64 * (before + 3) + before / 3, (int)v[1]);
  clReleaseMemObject(out);
}

static void check_fill(cl_program program) {
  enum { N = 1000, LOCAL = 40 };
  cl_mem out = cl_test_buffer(context, N * sizeof(cl_long), NULL);
  run(program, "fill", N, LOCAL, out);
  static cl_long v[N];
  read_back(out, v, N);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int base = i - i % LOCAL, other = base + (i % LOCAL + 1) % LOCAL;
    cl_long want = (cl_long)other * other;
    for (int k = 0; k < i % 7; k++) want += (cl_long)(base + k) * (base + k);
    bad += v[i] != want;
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(out);
}

static void test_programs(void) {
  cl_program program = build("-cl-std=CL3.0");
  size_t total = 0;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(
      program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
      sizeof total, &total, NULL));
  CHECK(total >= 4 + 16 + 8 + 40 + 4000 + 4 && total < 4200);
  check_values(program, 0);
  check_values(program, 3); /* the values persist */
  check_fill(program);

  /* Another program from the same source has storage of its own. */
  cl_program other = build("-cl-std=CL3.0");
  check_values(other, 0);
  /* Bounds-checked, the hidden arguments stay in their order. */
  cl_program checked = build("-cl-std=CL3.0 -clmux-bounds-check");
  check_values(checked, 0);
  check_fill(checked);
  clReleaseProgram(checked);
  clReleaseProgram(other);

  /* Built again, the program starts from the initial values. */
  CHECK_CL_SUCCESS(
      clBuildProgram(program, 1, &device, "-cl-std=CL3.0", NULL, NULL));
  check_values(program, 0);
  clReleaseProgram(program);

  /* OpenCL C 1.2 has no such variables. */
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program old = clCreateProgramWithSource(context, 1, &text, NULL, &error);
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(old, 1, &device, "", NULL, NULL));
  clReleaseProgram(old);
}

/* Two sub-devices in one context, one program built for both: each has
 * its own variables (OpenCL C: not shared across devices). Three bumps on
 * the first and one on the second leave 8 and 6 there. */
static void test_per_device(void) {
  cl_uint units = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                   sizeof units, &units, NULL));
  if (units < 2) return; /* nothing to partition */
  const cl_device_partition_property one_each[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id parts[2];
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clCreateSubDevices(device, one_each, 2, parts, &count));
  REQUIRE(count == 2);
  cl_int error = CL_SUCCESS;
  cl_context both = clCreateContext(NULL, 2, parts, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_program program = clCreateProgramWithSource(
      both, 1, (const char *[]){source}, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(
      clBuildProgram(program, 2, parts, "-cl-std=CL3.0", NULL, NULL));
  cl_kernel kernel = clCreateKernel(program, "bump", &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = clCreateBuffer(both, CL_MEM_READ_WRITE, 6 * sizeof(cl_long),
                              NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  cl_long counters[2] = {0, 0};
  for (int d = 0; d < 2; d++) {
    cl_command_queue q = clCreateCommandQueue(both, parts[d], 0, &error);
    CHECK_CL_SUCCESS(error);
    size_t global = 4;
    for (int i = 0; i < (d == 0 ? 3 : 1); i++) {
      CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(q, kernel, 1, NULL, &global,
                                              NULL, 0, NULL, NULL));
    }
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(cl_long),
                                         &counters[d], 0, NULL, NULL));
    clReleaseCommandQueue(q);
  }
  CHECK_INT(8, (int)counters[0]);
  CHECK_INT(6, (int)counters[1]);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseContext(both);
  for (int i = 0; i < 2; i++) clReleaseDevice(parts[i]);
}

static const char *binary_path = "program_globals.bin";

/* The program's binary, written for the child to load. */
static void write_binary(void) {
  cl_program program = build("-cl-std=CL3.0");
  cl_test_save_binary(program, binary_path);
  clReleaseProgram(program);
}

static int child(void) {
  cl_program program = cl_test_load_binary(context, device, binary_path);
  check_values(program, 0);
  check_fill(program);
  clReleaseProgram(program);
  return check_finish();
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc > 2 && strcmp(argv[1], "--child") == 0) return child();
  test_programs();
  test_per_device();
  write_binary();
  CHECK(cl_test_run_child(argv[0], "binary"));
  remove(binary_path);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* Programs from SPIR-V (clCreateProgramWithIL, cl_khr_il_program) through
 * the loader. The modules are made at build time (tests/cl/meson.build):
 * kernels.spv, linkage.spv and half.spv from OpenCL C 1.2, generic.spv and
 * sub_groups.spv (SPIR-V 1.3: GroupNonUniform) from OpenCL C 2.0 by
 * clang-15 and llvm-spirv-15,
 * spec_constants.spv, nulls.spv, type_mismatch.spv, spirv14.spv,
 * spirv16.spv, linkonce_lib.spv and linkonce_main.spv from
 * SPIR-V assembly by spirv-as.
 * Usage:
 * cl_il_program DIR (the folder holding them). */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

typedef struct module {
  unsigned char *bytes;
  size_t size;
} module;

static module read_path(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) fprintf(stderr, "cannot open %s\n", path);
  REQUIRE(file != NULL);
  fseek(file, 0, SEEK_END);
  module m = {NULL, (size_t)ftell(file)};
  rewind(file);
  m.bytes = malloc(m.size);
  REQUIRE(m.bytes && fread(m.bytes, 1, m.size, file) == m.size);
  fclose(file);
  return m;
}

static module read_module(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return read_path(path);
}

static cl_program from_il(module m) {
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, m.bytes, m.size, &error);
  REQUIRE(error == CL_SUCCESS && program != NULL);
  return program;
}

static void build(cl_program program, const char *options) {
  cl_int error = clBuildProgram(program, 1, &device, options, NULL, NULL);
  if (error != CL_SUCCESS) {
    char *log = cl_test_build_log(program, device);
    fprintf(stderr, "build failed (%d):\n%s\n", error, log);
    free(log);
  }
  REQUIRE(error == CL_SUCCESS);
}

static void read_back(cl_mem mem, size_t size, void *data) {
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, data, 0, NULL, NULL));
}

static void run(cl_kernel kernel, cl_uint dims, const size_t *global,
                const size_t *local) {
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global,
                                          local, 0, NULL, NULL));
}

static cl_kernel kernel_of(cl_program program, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

/* ---- The device says what it reads ------------------------------------ */

static void test_queries(void) {
  char versions[256] = "";
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION,
                                   sizeof versions, versions, NULL));
  CHECK(strcmp(versions,
               "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 "
               "SPIR-V_1.5 SPIR-V_1.6") == 0);
  cl_name_version ils[8];
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION,
                                   sizeof ils, ils, &size));
  CHECK_INT(7 * sizeof *ils, size);
  CHECK(strcmp(ils[6].name, "SPIR-V") == 0 &&
        ils[6].version == CL_MAKE_VERSION(1, 6, 0));
  CHECK(cl_test_has_extension(device, "cl_khr_il_program"));
  cl_platform_id platform = cl_test_platform();
  CHECK(clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateProgramWithILKHR") != NULL);
}

/* ---- OpenCL C compiled to SPIR-V runs --------------------------------- */

static void test_scaled(cl_program program) {
  cl_kernel kernel = kernel_of(program, "scaled");
  enum { n = 1000 };
  float in[n], out[n];
  for (int i = 0; i < n; i++) in[i] = (float)i * 0.5f;
  cl_mem a = cl_test_buffer(context, sizeof in, in),
         b = cl_test_buffer(context, sizeof out, NULL);
  struct {
    cl_int scale;
    cl_float offset;
  } params = {3, 0.25f};
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof b, &b);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof params, &params));
  size_t global = n;
  run(kernel, 1, &global, NULL);
  read_back(b, sizeof out, out);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += out[i] != in[i] * 3 + 0.25f;
  CHECK_INT(0, wrong);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

static void test_group_sum(cl_program program) {
  cl_kernel kernel = kernel_of(program, "group_sum");
  enum { n = 1024, group = 64 };
  cl_int in[n], out[n / group];
  for (int i = 0; i < n; i++) in[i] = i % 37;
  cl_mem a = cl_test_buffer(context, sizeof in, in),
         b = cl_test_buffer(context, sizeof out, NULL);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof b, &b);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, group * sizeof(cl_int), NULL));
  size_t global = n, local = group;
  run(kernel, 1, &global, &local);
  read_back(b, sizeof out, out);
  int wrong = 0;
  for (int g = 0; g < n / group; g++) {
    int sum = 0;
    for (int i = 0; i < group; i++) sum += in[g * group + i];
    wrong += out[g] != sum;
  }
  CHECK_INT(0, wrong);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

static cl_uint collatz_steps(cl_uint n) {
  cl_uint count = 0;
  for (; n > 1; count++) n = (n & 1) ? 3 * n + 1 : n / 2;
  return count;
}

static void test_collatz(cl_program program) {
  cl_kernel kernel = kernel_of(program, "collatz");
  enum { n = 999 }; /* not a multiple of any vector width */
  cl_uint start[n], steps[n];
  for (int i = 0; i < n; i++) start[i] = (cl_uint)(i * 7 + 1);
  cl_mem a = cl_test_buffer(context, sizeof start, start),
         b = cl_test_buffer(context, sizeof steps, NULL);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof b, &b);
  size_t global = n;
  run(kernel, 1, &global, NULL);
  read_back(b, sizeof steps, steps);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += steps[i] != collatz_steps(start[i]);
  CHECK_INT(0, wrong);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

static void test_math(cl_program program) {
  cl_kernel kernel = kernel_of(program, "math");
  enum { n = 256 };
  float x[n], y[n];
  cl_int r[n];
  for (int i = 0; i < n; i++) x[i] = (float)i * 0.75f;
  cl_mem a = cl_test_buffer(context, sizeof x, x),
         b = cl_test_buffer(context, sizeof y, NULL),
         c = cl_test_buffer(context, sizeof r, NULL);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof b, &b);
  clSetKernelArg(kernel, 2, sizeof c, &c);
  size_t global = n;
  run(kernel, 1, &global, NULL);
  read_back(b, sizeof y, y);
  read_back(c, sizeof r, r);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    float expected = sqrtf(x[i]) + fmaxf(x[i], 2.0f);
    wrong += fabsf(y[i] - expected) > 1e-5f * fabsf(expected);
    wrong += r[i] != (cl_int)lrintf(x[i] * 2.5f); /* to nearest even */
  }
  CHECK_INT(0, wrong);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(kernel);
}

static void test_histogram(cl_program program) {
  cl_kernel kernel = kernel_of(program, "histogram");
  enum { n = 4096 };
  cl_uchar data[n];
  cl_uint bins[16] = {0}, expected[16] = {0};
  for (int i = 0; i < n; i++) {
    data[i] = (cl_uchar)((i * 131) ^ (i >> 3));
    expected[data[i] % 16]++;
  }
  cl_mem a = cl_test_buffer(context, sizeof data, data),
         b = cl_test_buffer(context, sizeof bins, bins);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof b, &b);
  clSetKernelArg(kernel, 2, 16 * sizeof(cl_uint), NULL);
  size_t global = n, local = 128;
  run(kernel, 1, &global, &local);
  read_back(b, sizeof bins, bins);
  CHECK(memcmp(bins, expected, sizeof bins) == 0);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

static void test_image(cl_program program) {
  cl_kernel kernel = kernel_of(program, "brighten");
  enum { width = 13, height = 7 };
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  float pixels[width * height * 4], back[width * height * 4];
  for (int i = 0; i < width * height * 4; i++) pixels[i] = (float)i / 8;
  cl_int error = CL_SUCCESS;
  cl_mem source = clCreateImage2D(context, CL_MEM_COPY_HOST_PTR, &format, width,
                                  height, 0, pixels, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem target = clCreateImage2D(context, CL_MEM_WRITE_ONLY, &format, width,
                                  height, 0, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE,
                                       CL_FILTER_NEAREST, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof source, &source));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof sampler, &sampler));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof target, &target));
  size_t global[2] = {width, height};
  run(kernel, 2, global, NULL);
  size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, target, CL_TRUE, origin, region, 0,
                                      0, back, 0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < width * height * 4; i++)
    wrong += back[i] != pixels[i] * 2;
  CHECK_INT(0, wrong);
  clReleaseSampler(sampler);
  clReleaseMemObject(source);
  clReleaseMemObject(target);
  clReleaseKernel(kernel);
}

static void test_vectors(cl_program program) {
  cl_kernel kernel = kernel_of(program, "vectors");
  enum { n = 33 };
  cl_float4 v[n];
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) v[i].s[k] = (float)(i + k);
  }
  cl_mem a = cl_test_buffer(context, sizeof v, v);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  size_t global = n;
  run(kernel, 1, &global, NULL);
  cl_float4 out[n];
  read_back(a, sizeof out, out);
  static const float table[4] = {3, 1, 4, 1};
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    const float add[4] = {table[i % 4], 0, 0, 1};
    for (int k = 0; k < 4; k++) wrong += out[i].s[k] != v[i].s[k] * 2 + add[k];
  }
  CHECK_INT(0, wrong);
  clReleaseMemObject(a);
  clReleaseKernel(kernel);
}

static void test_kernels(module kernels) {
  cl_program program = from_il(kernels);
  build(program, NULL);
  size_t count = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS,
                                    sizeof count, &count, NULL));
  CHECK_INT(7, count);
  test_scaled(program);
  test_group_sum(program);
  test_collatz(program);
  test_math(program);
  test_histogram(program);
  test_image(program);
  test_vectors(program);

  /* The module as given; kernel argument info is only for source. */
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &size));
  CHECK_INT(kernels.size, size);
  unsigned char *il = malloc(size);
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_IL, size, il, NULL));
  CHECK(memcmp(il, kernels.bytes, size) == 0);
  free(il);
  cl_kernel kernel = kernel_of(program, "scaled");
  char name[64];
  CHECK_CL(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
           clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof name, name,
                              NULL));
  cl_uint args = 0;
  CHECK_CL_SUCCESS(
      clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL));
  CHECK_INT(3, args);
  clReleaseKernel(kernel);
  clReleaseProgram(program);

  /* Code-generation options apply; a bad option is refused. */
  program = from_il(kernels);
  build(program, "-cl-fast-relaxed-math -cl-mad-enable");
  test_collatz(program);
  CHECK_CL(CL_INVALID_BUILD_OPTIONS,
           clBuildProgram(program, 1, &device, "-no-such-option", NULL, NULL));
  clReleaseProgram(program);
}

/* ---- Compiled SPIR-V links with compiled OpenCL C --------------------- */

static void test_linkage(module linkage) {
  cl_program spirv = from_il(linkage);
  CHECK_CL_SUCCESS(
      clCompileProgram(spirv, 1, &device, NULL, 0, NULL, NULL, NULL, NULL));
  const char *source = "int helper(int x) { return x * x + 1; }\n";
  cl_int error = CL_SUCCESS;
  cl_program opencl_c =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK_CL_SUCCESS(
      clCompileProgram(opencl_c, 1, &device, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program both[2] = {spirv, opencl_c};
  cl_program linked =
      clLinkProgram(context, 1, &device, NULL, 2, both, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked != NULL);
  cl_kernel kernel = kernel_of(linked, "uses_helper");
  cl_int out[40];
  cl_mem b = cl_test_buffer(context, sizeof out, NULL);
  clSetKernelArg(kernel, 0, sizeof b, &b);
  size_t global = 40;
  run(kernel, 1, &global, NULL);
  read_back(b, sizeof out, out);
  int wrong = 0;
  for (int i = 0; i < 40; i++) wrong += out[i] != i * i + 1;
  CHECK_INT(0, wrong);

  /* Without the definition the link fails with a log, no crash. */
  cl_program alone =
      clLinkProgram(context, 1, &device, NULL, 1, &spirv, NULL, NULL, &error);
  CHECK_CL(CL_LINK_PROGRAM_FAILURE, error);
  if (alone) {
    char *log = cl_test_build_log(alone, device);
    CHECK(strstr(log, "helper") != NULL);
    free(log);
    clReleaseProgram(alone);
  }
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
  clReleaseProgram(linked);
  clReleaseProgram(opencl_c);
  clReleaseProgram(spirv);
}

/* cl_khr_spirv_linkonce_odr: two SPIR-V objects that both define "twice"
 * with LinkOnceODR linkage link into one program (one definition kept),
 * beside an ordinary import. */
static void test_linkonce(module lib, module main_half) {
  cl_program halves[2] = {from_il(lib), from_il(main_half)};
  for (int i = 0; i < 2; i++) {
    CHECK_CL_SUCCESS(clCompileProgram(halves[i], 1, &device, NULL, 0, NULL,
                                      NULL, NULL, NULL));
  }
  cl_int error = CL_SUCCESS;
  cl_program linked =
      clLinkProgram(context, 1, &device, NULL, 2, halves, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked != NULL);
  cl_kernel kernel = kernel_of(linked, "linkonce");
  enum { N = 24 };
  cl_uint out[N];
  cl_mem b = cl_test_buffer(context, sizeof out, NULL);
  clSetKernelArg(kernel, 0, sizeof b, &b);
  size_t global = N;
  run(kernel, 1, &global, NULL);
  read_back(b, sizeof out, out);
  int wrong = 0;
  for (cl_uint i = 0; i < N; i++) wrong += out[i] != 3 * i + 100;
  CHECK_INT(0, wrong);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
  clReleaseProgram(linked);
  clReleaseProgram(halves[0]);
  clReleaseProgram(halves[1]);
}

/* ---- Specialization constants ----------------------------------------- */

typedef struct spec_result {
  cl_uint value, flag;
  cl_double real;
  cl_ushort small;
} spec_result;

static spec_result run_spec(cl_program program) {
  build(program, NULL);
  cl_kernel kernel = kernel_of(program, "spec_values");
  cl_mem u = cl_test_buffer(context, 2 * sizeof(cl_uint), NULL),
         d = cl_test_buffer(context, sizeof(cl_double), NULL),
         s = cl_test_buffer(context, sizeof(cl_ushort), NULL);
  clSetKernelArg(kernel, 0, sizeof u, &u);
  clSetKernelArg(kernel, 1, sizeof d, &d);
  clSetKernelArg(kernel, 2, sizeof s, &s);
  size_t global = 1;
  run(kernel, 1, &global, NULL);
  cl_uint pair[2] = {0, 0};
  spec_result result = {0, 0, 0, 0};
  read_back(u, sizeof pair, pair);
  read_back(d, sizeof result.real, &result.real);
  read_back(s, sizeof result.small, &result.small);
  result.value = pair[0];
  result.flag = pair[1];
  clReleaseMemObject(u);
  clReleaseMemObject(d);
  clReleaseMemObject(s);
  clReleaseKernel(kernel);
  return result;
}

/* The module with every word's bytes reversed (big-endian SPIR-V). */
static module byte_swapped(module m) {
  module swapped = {malloc(m.size), m.size};
  REQUIRE(swapped.bytes != NULL);
  for (size_t i = 0; i < m.size; i++) {
    swapped.bytes[i] = m.bytes[i - i % 4 + 3 - i % 4];
  }
  return swapped;
}

static void test_spec_constants(module spec) {
  cl_program program = from_il(spec);
  spec_result defaults = run_spec(program);
  CHECK_INT(7, defaults.value);
  CHECK_INT(1, defaults.flag);
  CHECK(defaults.real == 2.5);
  CHECK_INT(300, defaults.small);

  cl_uint value = 42;
  cl_uchar flag = 0; /* booleans are given as a cl_uchar */
  cl_double real = -1.25;
  cl_ushort small = 65535;
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 1, sizeof value, &value));
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 2, sizeof flag, &flag));
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 3, sizeof real, &real));
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 4, sizeof small, &small));
  value = 43; /* the last value set counts */
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 1, sizeof value, &value));
  spec_result set = run_spec(program);
  CHECK_INT(43, set.value);
  CHECK_INT(0, set.flag);
  CHECK(set.real == -1.25);
  CHECK_INT(65535, set.small);

  CHECK_CL(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(
                                   program, 9, sizeof value, &value));
  CHECK_CL(CL_INVALID_VALUE,
           clSetProgramSpecializationConstant(program, 1, 8, &real));
  CHECK_CL(CL_INVALID_VALUE,
           clSetProgramSpecializationConstant(program, 2, 4, &value));
  CHECK_CL(CL_INVALID_VALUE,
           clSetProgramSpecializationConstant(program, 1, sizeof value, NULL));
  CHECK_CL(CL_INVALID_PROGRAM,
           clSetProgramSpecializationConstant(NULL, 1, sizeof value, &value));
  const char *source = "kernel void k(void) {}";
  cl_int error = CL_SUCCESS;
  cl_program from_source =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK_CL(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(
                                   from_source, 1, sizeof value, &value));
  size_t size = 99;
  CHECK_CL_SUCCESS(
      clGetProgramInfo(from_source, CL_PROGRAM_IL, 0, NULL, &size));
  CHECK_INT(0, size);
  clReleaseProgram(from_source);
  clReleaseProgram(program);

  /* Big-endian words read alike, specialized too. */
  module swapped = byte_swapped(spec);
  program = from_il(swapped);
  CHECK_CL_SUCCESS(
      clSetProgramSpecializationConstant(program, 3, sizeof real, &real));
  spec_result big = run_spec(program);
  CHECK_INT(7, big.value);
  CHECK(big.real == -1.25);
  clReleaseProgram(program);
  free(swapped.bytes);
}

/* ---- Valid SPIR-V the translator cannot read as it is ---------------- */

static void test_scalar_nulls(module nulls) {
  cl_program program = from_il(nulls);
  build(program, NULL);
  cl_kernel kernel = kernel_of(program, "nulls");
  cl_uint words[3] = {5, 5, 5};
  cl_ulong wide = 5;
  cl_double real = 5;
  cl_mem u = cl_test_buffer(context, sizeof words, words),
         l = cl_test_buffer(context, sizeof wide, &wide),
         d = cl_test_buffer(context, sizeof real, &real);
  clSetKernelArg(kernel, 0, sizeof u, &u);
  clSetKernelArg(kernel, 1, sizeof l, &l);
  clSetKernelArg(kernel, 2, sizeof d, &d);
  size_t global = 1;
  run(kernel, 1, &global, NULL);
  read_back(u, sizeof words, words);
  read_back(l, sizeof wide, &wide);
  read_back(d, sizeof real, &real);
  CHECK_INT(0, words[0]);
  CHECK_INT(2, words[1]); /* a null bool is false */
  CHECK_INT(0, words[2]); /* a null uchar */
  CHECK_INT(0, wide);
  CHECK(real == 0.0);
  clReleaseMemObject(u);
  clReleaseMemObject(l);
  clReleaseMemObject(d);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* OpenCL C 2.0 as SPIR-V: generic pointers reach builtins (SPIR's U3AS4
 * names) and to_global/to_local; a program-scope variable persists. */
static void test_generic(module generic) {
  cl_program program = from_il(generic);
  build(program, NULL);
  enum { N = 128, LOCAL = 64 };
  float values[N];
  for (int i = 0; i < N; i++) values[i] = 0.5f * i;
  cl_mem out = cl_test_buffer(context, sizeof values, values);
  cl_kernel kernel = kernel_of(program, "generic_pointers");
  clSetKernelArg(kernel, 0, sizeof out, &out);
  size_t global = N, local = LOCAL;
  run(kernel, 1, &global, &local);
  run(kernel, 1, &global, &local);
  read_back(out, sizeof values, values);
  bool right = true;
  for (int i = 0; i < N; i++) {
    /* The second run reads what the first wrote. */
    float first = 0.5f * i + 1.25f + i % LOCAL + 2.5f + 1000 * 11;
    right &= values[i] == first + 1.25f + i % LOCAL + 2.5f + 1000 * 11;
  }
  CHECK(right);
  cl_kernel count = kernel_of(program, "count");
  cl_int launches = 0;
  cl_mem counted = cl_test_buffer(context, sizeof launches, &launches);
  clSetKernelArg(count, 0, sizeof counted, &counted);
  size_t one = 1;
  run(count, 1, &one, NULL);
  read_back(counted, sizeof launches, &launches);
  CHECK_INT(2, launches);
  clReleaseMemObject(counted);
  clReleaseMemObject(out);
  clReleaseKernel(count);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* Half precision from SPIR-V (Float16): the same results as the host's
 * double rounded to half. */
static void test_half(module halves) {
  cl_program program = from_il(halves);
  build(program, NULL);
  enum { N = 256 };
  _Float16 x[N], out[4 * N];
  for (int i = 0; i < N; i++) x[i] = (_Float16)((i - 128) * 0.173);
  cl_mem in = cl_test_buffer(context, sizeof x, x);
  cl_mem result = cl_test_buffer(context, sizeof out, NULL);
  cl_kernel kernel = kernel_of(program, "halves");
  clSetKernelArg(kernel, 0, sizeof in, &in);
  clSetKernelArg(kernel, 1, sizeof result, &result);
  size_t global = N;
  run(kernel, 1, &global, NULL);
  read_back(result, sizeof out, out);
  size_t bad = 0;
  for (int i = 0; i < N; i++) {
    double a = (double)x[i], b = (double)x[(i + 5) % N];
    double third = (float)a / 3.0f;
    /* The nearest half, one step toward zero (on the magnitude's bits)
     * if that was away from zero. */
    _Float16 toward_zero = (_Float16)third;
    if (fabs((double)toward_zero) > fabs(third)) {
      uint16_t bits;
      memcpy(&bits, &toward_zero, 2);
      bits--;
      memcpy(&toward_zero, &bits, 2);
    }
    _Float16 want[4] = {(_Float16)((double)(_Float16)(a * b) + 0.5),
                        (_Float16)sqrt(fabs(a)), toward_zero,
                        (_Float16)fma(a, b, a)};
    /* a * b + 0.5 may be contracted (OpenCL C's default). */
    _Float16 contracted = (_Float16)fma(a, b, 0.5);
    for (int r = 0; r < 4; r++) {
      bool right = (double)out[4 * i + r] == (double)want[r] ||
                   (r == 0 && (double)out[4 * i] == (double)contracted);
      if (!right && bad++ < 4) {
        fprintf(stderr, "half %d: result %d is %g, want %g\n", i, r,
                (double)out[4 * i + r], (double)want[r]);
      }
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(in);
  clReleaseMemObject(result);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* cl_ext_float_atomics from SPIR-V (OpAtomicFAddEXT, OpAtomicFMinEXT,
 * OpAtomicFMaxEXT): 1024 work-items, global and local, float and double. */
static void test_float_atomics(module atomics) {
  cl_program program = from_il(atomics);
  build(program, NULL);
  enum { N = 1024, LOCAL = 64 };
  float v[N], f[5] = {0.0f, 0.0f, INFINITY, -INFINITY, 0.0f};
  double d[2] = {1.0, INFINITY};
  float lowest = INFINITY, highest = -INFINITY;
  for (int i = 0; i < N; i++) {
    v[i] = (float)((i * 37) % N - 500) / 8.0f;
    lowest = fminf(lowest, v[i]);
    highest = fmaxf(highest, v[i]);
  }
  cl_mem fs = cl_test_buffer(context, sizeof f, f);
  cl_mem ds = cl_test_buffer(context, sizeof d, d);
  cl_mem vs = cl_test_buffer(context, sizeof v, v);
  cl_kernel kernel = kernel_of(program, "float_atomics");
  clSetKernelArg(kernel, 0, sizeof fs, &fs);
  clSetKernelArg(kernel, 1, sizeof ds, &ds);
  clSetKernelArg(kernel, 2, sizeof vs, &vs);
  size_t global = N, local = LOCAL;
  run(kernel, 1, &global, &local);
  read_back(fs, sizeof f, f);
  read_back(ds, sizeof d, d);
  /* Exact steps: the same sums in any order. */
  CHECK(f[0] == (float)N && f[1] == -0.5f * N);
  CHECK(f[2] == lowest && f[3] == highest);
  CHECK(d[0] == 1.0 + 0.25 * N && d[1] == lowest);
  CHECK(f[4] == (float)N); /* each group's local count, added up */
  clReleaseMemObject(fs);
  clReleaseMemObject(ds);
  clReleaseMemObject(vs);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* Sub-groups from SPIR-V (OpGroupNonUniform*): as from OpenCL C. */
static void test_sub_groups(module sub_groups) {
  cl_program program = from_il(sub_groups);
  build(program, NULL);
  enum { N = 64, LOCAL = 32 };
  cl_int out[3 * N];
  cl_mem result = cl_test_buffer(context, sizeof out, NULL);
  cl_kernel kernel = kernel_of(program, "sub_groups");
  clSetKernelArg(kernel, 0, sizeof result, &result);
  size_t global = N, local = LOCAL;
  run(kernel, 1, &global, &local);
  read_back(result, sizeof out, out);
  int width = out[2];
  CHECK(width > 1 && LOCAL % width == 0);
  size_t bad = 0;
  for (int i = 0; width > 1 && i < N; i++) {
    int first = i - i % width, odd_sum = 0, votes = 0;
    for (int k = first; k < first + width; k++) {
      if (k & 1) odd_sum += k;
      if (!(k & 1) && k % 8 > 3) votes++;
    }
    /* The first even work-item is elected among the even ones. */
    int want = (i & 1) ? odd_sum : (i == first) + 100000 * votes;
    if ((out[3 * i] != want ||
         out[3 * i + 1] != first + width - 1 - i % width ||
         out[3 * i + 2] != width) &&
        bad++ < 4) {
      fprintf(stderr, "sub-groups %d: %d %d %d, want %d\n", i, out[3 * i],
              out[3 * i + 1], out[3 * i + 2], want);
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(result);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* SPIR-V 1.4's new instructions run (clmux rewrites them for the
 * translator). */
static void test_spirv14(module spirv14) {
  cl_program program = from_il(spirv14);
  build(program, NULL);
  cl_kernel kernel = kernel_of(program, "spirv14");
  cl_uint out[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  struct {
    cl_uint a;
    cl_float b;
  } pairs[4] = {{0, 0}}, copied = {0, 0};
  cl_mem o = cl_test_buffer(context, sizeof out, out),
         p = cl_test_buffer(context, sizeof pairs, pairs),
         c = cl_test_buffer(context, sizeof copied, &copied);
  clSetKernelArg(kernel, 0, sizeof o, &o);
  clSetKernelArg(kernel, 1, sizeof p, &p);
  clSetKernelArg(kernel, 2, sizeof c, &c);
  size_t global = 1;
  run(kernel, 1, &global, NULL);
  read_back(o, sizeof out, out);
  read_back(c, sizeof copied, &copied);
  CHECK_INT(1, out[0]); /* OpPtrEqual of a pointer and itself */
  CHECK_INT(1, out[1]); /* OpPtrNotEqual of out and out + 5 */
  CHECK_INT(5, out[2]); /* OpPtrDiff over uints */
  CHECK_INT(3, out[3]); /* OpPtrDiff over 8-byte structs, as a uint */
  CHECK_INT(7, out[6]); /* OpCopyMemory */
  CHECK_INT(9, out[4]);
  CHECK(copied.a == 7 && copied.b == 2.5f); /* OpCopyLogical */
  clReleaseMemObject(o);
  clReleaseMemObject(p);
  clReleaseMemObject(c);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* SPIR-V 1.5 and 1.6's additions for kernels run (clmux rewrites them
 * too): pointer bitcasts both ways, a broadcast from a lane the kernel
 * computes, uniform decorations, nontemporal image reads and writes. */
static void test_spirv16(module spirv16) {
  cl_program program = from_il(spirv16);
  build(program, NULL);
  cl_kernel kernel = kernel_of(program, "bitcasts");
  enum { N = 32, LOCAL = 16 };
  cl_uint out[N * 5];
  memset(out, 0xff, sizeof out);
  cl_mem o = cl_test_buffer(context, sizeof out, out);
  clSetKernelArg(kernel, 0, sizeof o, &o);
  size_t global = N, local = LOCAL;
  run(kernel, 1, &global, &local);
  read_back(o, sizeof out, out);
  size_t bad = 0;
  cl_uint size = out[4];
  for (cl_uint g = 0; g < N; g++) {
    const cl_uint *r = &out[g * 5];
    cl_uint last = size ? g - g % size + size - 1 : 0;
    bad += r[0] != 42 || r[1] != 42 || r[2] != 1 || r[3] != last ||
           r[4] != size;
  }
  CHECK(bad == 0);
  /* Vectorized: sub-groups of several work-items, so the broadcast reads
   * another lane. */
  CHECK(size > 1 && LOCAL % size == 0);
  clReleaseMemObject(o);
  clReleaseKernel(kernel);

  kernel = kernel_of(program, "nontemporal_copy");
  enum { W = 8 };
  cl_float pixels[W * 4], copied[W * 4];
  for (int i = 0; i < W * 4; i++) pixels[i] = (cl_float)i * 0.5f - 3.0f;
  const cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = 1};
  cl_int error = CL_SUCCESS;
  cl_mem src = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             &format, &desc, pixels, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem dst =
      clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  clSetKernelArg(kernel, 0, sizeof src, &src);
  clSetKernelArg(kernel, 1, sizeof dst, &dst);
  global = W;
  run(kernel, 1, &global, NULL);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, 1, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0,
                                      0, copied, 0, NULL, NULL));
  CHECK(memcmp(pixels, copied, sizeof pixels) == 0);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* ---- Bad input: an error or a build log, never a crash ---------------- */

static void expect_invalid(const void *il, size_t size) {
  cl_int error = CL_SUCCESS;
  CHECK(clCreateProgramWithIL(context, il, size, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
}

/* A module that is well formed word by word but that the translator
 * refuses: the build fails with its reason in the log. */
static void expect_build_failure(module m, const char *in_log) {
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithIL(context, m.bytes, m.size, &error);
  CHECK_CL_SUCCESS(error);
  if (!program) return;
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  char *log = cl_test_build_log(program, device);
  if (!strstr(log, in_log)) fprintf(stderr, "log:\n%s\n", log);
  CHECK(strstr(log, in_log) != NULL);
  free(log);
  cl_build_status status = CL_BUILD_NONE;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status,
                        &status, NULL);
  CHECK_INT(CL_BUILD_ERROR, status);
  clReleaseProgram(program);
}

/* A length that ends inside the module's last instruction of 2 or more
 * words (little-endian modules). */
static size_t cut_inside(module m) {
  size_t cut = 0;
  for (size_t at = 20; at + 4 <= m.size;) {
    size_t words = m.bytes[at + 2] | (size_t)m.bytes[at + 3] << 8;
    REQUIRE(words > 0);
    if (words >= 2) cut = at + 4;
    at += words * 4;
  }
  REQUIRE(cut != 0);
  return cut;
}

static void test_bad_input(module kernels, module type_mismatch) {
  cl_int error = CL_SUCCESS;
  expect_invalid(NULL, 16);
  expect_invalid(kernels.bytes, 0);
  expect_invalid(kernels.bytes, 16);                  /* half a header */
  expect_invalid(kernels.bytes, kernels.size - 1);    /* not whole words */
  expect_invalid(kernels.bytes, cut_inside(kernels)); /* cut instruction */
  expect_invalid("not SPIR-V, not at all", 20);
  /* Whole instructions, but one with too few operands for its opcode
   * (OpCapability's two words as OpCompositeExtract): such a module once
   * kept the translator busy for a minute. */
  module short_operands = {malloc(kernels.size), kernels.size};
  REQUIRE(short_operands.bytes != NULL);
  memcpy(short_operands.bytes, kernels.bytes, kernels.size);
  short_operands.bytes[20] = 81; /* OpCompositeExtract */
  short_operands.bytes[21] = 0;
  expect_invalid(short_operands.bytes, short_operands.size);
  free(short_operands.bytes);
  CHECK(clCreateProgramWithIL((cl_context)device, kernels.bytes, kernels.size,
                              &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);

  module changed = {malloc(kernels.size), kernels.size};
  REQUIRE(changed.bytes != NULL);
  /* SPIR-V 1.7: no such version (yet). */
  memcpy(changed.bytes, kernels.bytes, kernels.size);
  changed.bytes[5] = 7; /* the version word's minor byte */
  expect_invalid(changed.bytes, changed.size);
  /* The same module as SPIR-V 1.6 builds and runs (1.6 takes every
   * instruction of 1.0). */
  changed.bytes[5] = 6;
  cl_program newer = from_il(changed);
  build(newer, NULL);
  clReleaseProgram(newer);
  /* An opcode no SPIR-V has. */
  memcpy(changed.bytes, kernels.bytes, kernels.size);
  changed.bytes[20] = 0xfe; /* the first instruction: OpCapability */
  changed.bytes[21] = 0x7f;
  expect_invalid(changed.bytes, changed.size);
  free(changed.bytes);
  /* The translator asserts: the build fails, the process lives on. */
  expect_build_failure(type_mismatch, "translator");
}

/* Modules with 1 to 3 bytes changed at random (fixed seeds), as a bad
 * producer or a corrupted file gives them: each is refused at creation or
 * builds or fails to build with a log; every kernel of those that build
 * is compiled for a launch (enqueued behind a user event that then fails,
 * so nothing of it runs). 1,800 such modules ran clean when this was
 * written; here, 40. */
static void test_mutations(module kernels) {
  unsigned char *bytes = malloc(kernels.size);
  REQUIRE(bytes != NULL);
  cl_mem target = cl_test_buffer(context, 1 << 16, NULL);
  int created = 0, built = 0, compiled = 0;
  for (unsigned seed = 1; seed <= 40; seed++) {
    srand(seed);
    memcpy(bytes, kernels.bytes, kernels.size);
    for (int flips = 1 + rand() % 3; flips > 0; flips--) {
      size_t word = 5 + (size_t)rand() % (kernels.size / 4 - 5);
      bytes[word * 4 + (size_t)rand() % 4] ^= (unsigned char)(1 + rand() % 255);
    }
    cl_int error = CL_SUCCESS;
    cl_program program =
        clCreateProgramWithIL(context, bytes, kernels.size, &error);
    CHECK(program ? error == CL_SUCCESS : error == CL_INVALID_VALUE);
    if (!program) continue;
    created++;
    error = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    CHECK(error == CL_SUCCESS || error == CL_BUILD_PROGRAM_FAILURE);
    if (error != CL_SUCCESS) {
      char *log = cl_test_build_log(program, device);
      CHECK(log[0] != '\0');
      free(log);
      clReleaseProgram(program);
      continue;
    }
    built++;
    cl_kernel list[16];
    cl_uint count = 0;
    CHECK_CL_SUCCESS(clCreateKernelsInProgram(program, 16, list, &count));
    for (cl_uint k = 0; k < count; k++) {
      cl_uint args = 0;
      clGetKernelInfo(list[k], CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL);
      bool set = true;
      for (cl_uint a = 0; a < args && set; a++) {
        set = clSetKernelArg(list[k], a, sizeof target, &target) == CL_SUCCESS;
      }
      cl_event gate = clCreateUserEvent(context, &error);
      size_t global = 1;
      error = set ? clEnqueueNDRangeKernel(queue, list[k], 1, NULL, &global,
                                           NULL, 1, &gate, NULL)
                  : CL_INVALID_KERNEL_ARGS;
      CHECK(error == CL_SUCCESS || error == CL_INVALID_KERNEL_ARGS ||
            error == CL_OUT_OF_RESOURCES);
      compiled += error == CL_SUCCESS;
      clSetUserEventStatus(gate, -1);
      clFinish(queue);
      clReleaseEvent(gate);
      clReleaseKernel(list[k]);
    }
    clReleaseProgram(program);
  }
  printf("mutations: %d created, %d built, %d kernels compiled\n", created,
         built, compiled);
  CHECK(created > 0 && built > 0 && compiled > 0);
  clReleaseMemObject(target);
  free(bytes);
}

/* ---- Binaries and threads --------------------------------------------- */

/* Builds kernels.spv and writes its executable binary to `path`. */
static void write_binary(module kernels, const char *path) {
  cl_program program = from_il(kernels);
  build(program, NULL);
  cl_test_save_binary(program, path);
  clReleaseProgram(program);
}

/* The child: the binary of a SPIR-V program runs in another process. */
static int run_child(const char *path) {
  cl_program program = cl_test_load_binary(context, device, path);
  test_collatz(program);
  test_group_sum(program);
  clReleaseProgram(program);
  return check_finish();
}

static module shared_kernels;

static void *build_in_thread(void *unused) {
  (void)unused;
  for (int round = 0; round < 3; round++) {
    cl_program program = from_il(shared_kernels);
    build(program, NULL);
    test_collatz(program);
    clReleaseProgram(program);
  }
  return NULL;
}

/* Four threads translating at once (four translator processes). */
static void test_threads(module kernels) {
  shared_kernels = kernels;
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, build_in_thread, NULL) == 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return run_child(argv[2]);
  REQUIRE(argc == 2);
  module kernels = read_module(argv[1], "kernels.spv");
  module linkage = read_module(argv[1], "linkage.spv");
  module spec = read_module(argv[1], "spec_constants.spv");
  module nulls = read_module(argv[1], "nulls.spv");
  module type_mismatch = read_module(argv[1], "type_mismatch.spv");
  module spirv14 = read_module(argv[1], "spirv14.spv");
  module spirv16 = read_module(argv[1], "spirv16.spv");
  module linkonce_lib = read_module(argv[1], "linkonce_lib.spv");
  module linkonce_main = read_module(argv[1], "linkonce_main.spv");
  module generic = read_module(argv[1], "generic.spv");
  module halves = read_module(argv[1], "half.spv");
  module sub_groups = read_module(argv[1], "sub_groups.spv");
  module float_atomics = read_module(argv[1], "float_atomics.spv");
  test_queries();
  test_kernels(kernels);
  test_linkage(linkage);
  test_linkonce(linkonce_lib, linkonce_main);
  test_spec_constants(spec);
  test_scalar_nulls(nulls);
  test_spirv14(spirv14);
  test_spirv16(spirv16);
  test_generic(generic);
  test_half(halves);
  test_sub_groups(sub_groups);
  test_float_atomics(float_atomics);
  test_bad_input(kernels, type_mismatch);
  test_mutations(kernels);
  test_threads(kernels);

  char path[64];
  snprintf(path, sizeof path, "/tmp/clmux-il-binary-%d", (int)getpid());
  write_binary(kernels, path);
  CHECK(cl_test_run_child(argv[0], path));
  unlink(path);

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(kernels.bytes);
  free(linkage.bytes);
  free(spec.bytes);
  free(nulls.bytes);
  free(type_mismatch.bytes);
  free(spirv14.bytes);
  free(spirv16.bytes);
  free(linkonce_lib.bytes);
  free(linkonce_main.bytes);
  free(generic.bytes);
  free(halves.bytes);
  free(sub_groups.bytes);
  free(float_atomics.bytes);
  return check_finish();
}

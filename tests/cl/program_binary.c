/* clmux: program binaries through the loader — CL_PROGRAM_BINARY_SIZES and
 * CL_PROGRAM_BINARIES of objects, libraries and executables, reloading
 * each (binary type kept, status per device, build, link), damaged and
 * missing binaries, and an executable's binary built and run in a second
 * process (this test executes itself with the binary in a file): two
 * kernels, one of them calling math builtins of float and double (SLEEF
 * underneath), whose results there must equal the first process's. */
#include <unistd.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char kernel_source[] =
    "int scale(int x);\n"
    "kernel void apply(global int *o) {\n"
    "  o[get_global_id(0)] = scale((int)get_global_id(0)) + OFFSET;\n"
    "}\n";
static const char scale_source[] = "int scale(int x) { return x * 9; }\n";
static const char math_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void math(global float *r, global double *d) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float v = (float)i * 0.37f - 5.0f;\n"
    "  r[i] = exp(v) * sin(v) + cos(v) / (1.0f + fabs(v)) +\n"
    "         pow(fabs(v), 0.3f) + fmod(v, 0.7f) + erf(v) +\n"
    "         native_exp(v * 0.1f) + atan2(v, 1.5f) + tgamma(fabs(v) + 0.5f);\n"
    "  double w = (double)v;\n"
    "  d[i] = exp(w) + log1p(fabs(w)) + sinh(w) + pow(fabs(w), 0.25);\n"
    "}\n";

#define MATH_ITEMS 64

/* The program's binary (malloc'd) and its size. */
static unsigned char *binary_of(cl_program program, size_t *size) {
  *size = 0;
  size_t sizes_size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                    sizeof *size, size, &sizes_size));
  CHECK_INT(sizeof(size_t), sizes_size);
  REQUIRE(*size > 0);
  unsigned char *bytes = malloc(*size);
  REQUIRE(bytes);
  unsigned char *pointers[1] = {bytes};
  size_t pointers_size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES,
                                    sizeof pointers, pointers,
                                    &pointers_size));
  CHECK_INT(sizeof pointers, pointers_size);
  return bytes;
}

static cl_program from_binary(const unsigned char *bytes, size_t size,
                              cl_int *status) {
  cl_int error = CL_INVALID_VALUE;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &size,
                                                 &bytes, status, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(program);
  return program;
}

static cl_program_binary_type type_of(cl_program program) {
  cl_program_binary_type type = 99;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BINARY_TYPE, sizeof type,
                                         &type, NULL));
  return type;
}

/* Runs `apply` over 8 items and counts wrong results for `offset`. */
static int run_apply(cl_program program, int offset) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "apply", &error);
  CHECK_CL_SUCCESS(error);
  if (!kernel) return 8;
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 8 * sizeof(cl_int),
                              NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = 8;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  cl_int got[8] = {0};
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < 8; i++) wrong += got[i] != i * 9 + offset;
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  return wrong;
}

/* Runs `math` over MATH_ITEMS items into r and d. */
static void run_math(cl_program program, float *r, double *d) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "math", &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(kernel);
  cl_mem floats = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 MATH_ITEMS * sizeof *r, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem doubles = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                  MATH_ITEMS * sizeof *d, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof floats, &floats));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof doubles, &doubles));
  size_t global = MATH_ITEMS;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, floats, CL_TRUE, 0, MATH_ITEMS * sizeof *r, r, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, doubles, CL_TRUE, 0, MATH_ITEMS * sizeof *d, d, 0, NULL, NULL));
  clReleaseMemObject(floats);
  clReleaseMemObject(doubles);
  clReleaseKernel(kernel);
}

static cl_program compiled(const char *source, const char *options) {
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  REQUIRE(program);
  CHECK_CL_SUCCESS(clCompileProgram(program, 0, NULL, options, 0, NULL, NULL,
                                    NULL, NULL));
  return program;
}

static void test_round_trips(void) {
  /* Objects reload as objects and link. */
  cl_program user = compiled(kernel_source, "-DOFFSET=5");
  cl_program scale = compiled(scale_source, NULL);
  size_t size = 0;
  unsigned char *bytes = binary_of(user, &size);
  cl_int status = 99;
  cl_program user_again = from_binary(bytes, size, &status);
  free(bytes);
  CHECK_CL_SUCCESS(status);
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, type_of(user_again));
  cl_build_status build_status = 99;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(user_again, device,
                                         CL_PROGRAM_BUILD_STATUS,
                                         sizeof build_status, &build_status,
                                         NULL));
  CHECK_INT(CL_BUILD_NONE, build_status);

  /* A library reloads as a library and links with the reloaded object. */
  cl_int error = CL_SUCCESS;
  cl_program library = clLinkProgram(context, 0, NULL, "-create-library", 1,
                                     &scale, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  bytes = binary_of(library, &size);
  cl_program library_again = from_binary(bytes, size, NULL);
  free(bytes);
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_LIBRARY, type_of(library_again));
  cl_program inputs[2] = {user_again, library_again};
  cl_program linked =
      clLinkProgram(context, 0, NULL, NULL, 2, inputs, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  CHECK_INT(0, run_apply(linked, 5));

  /* An executable reloads, needs clBuildProgram, then runs the same. */
  bytes = binary_of(linked, &size);
  cl_program exe = from_binary(bytes, size, &status);
  free(bytes);
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, type_of(exe));
  CHECK(clCreateKernel(exe, "apply", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  CHECK_CL_SUCCESS(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL));
  CHECK_INT(0, run_apply(exe, 5));
  /* Its source is no source. */
  size_t source_size = 0;
  CHECK_CL_SUCCESS(
      clGetProgramInfo(exe, CL_PROGRAM_SOURCE, 0, NULL, &source_size));
  CHECK_INT(1, source_size);

  /* An object binary passed to clBuildProgram becomes an executable. */
  cl_program single = compiled(
      "kernel void apply(global int *o) {\n"
      "  o[get_global_id(0)] = (int)get_global_id(0) * 9 + 1;\n"
      "}\n",
      NULL);
  bytes = binary_of(single, &size);
  cl_program single_again = from_binary(bytes, size, NULL);
  free(bytes);
  CHECK_CL_SUCCESS(clBuildProgram(single_again, 0, NULL, NULL, NULL, NULL));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, type_of(single_again));
  CHECK_INT(0, run_apply(single_again, 1));

  cl_program all[] = {user,      scale, user_again, library, library_again,
                      linked,    exe,   single,     single_again};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    CHECK_CL_SUCCESS(clReleaseProgram(all[i]));
  }
}

static void test_bad_binaries(void) {
  cl_program program = compiled(kernel_source, "-DOFFSET=1");
  size_t size = 0;
  unsigned char *bytes = binary_of(program, &size);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  cl_int error = CL_SUCCESS, status = CL_SUCCESS;
  /* Damaged in the middle, truncated, empty, missing. */
  bytes[size / 2] ^= 0x5a;
  const unsigned char *pointer = bytes;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &size, &pointer,
                                  &status, &error) == NULL);
  CHECK_CL(CL_INVALID_BINARY, error);
  CHECK_CL(CL_INVALID_BINARY, status);
  bytes[size / 2] ^= 0x5a;
  size_t shorter = size - 10;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &shorter, &pointer,
                                  &status, &error) == NULL);
  CHECK_CL(CL_INVALID_BINARY, error);
  size_t zero = 0;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &zero, &pointer,
                                  &status, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK_CL(CL_INVALID_VALUE, status);
  const unsigned char *none = NULL;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &size, &none, NULL,
                                  &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* Intact, it loads. */
  cl_program again =
      clCreateProgramWithBinary(context, 1, &device, &size, &pointer, &status,
                                &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(status);
  if (again) CHECK_CL_SUCCESS(clReleaseProgram(again));
  free(bytes);
}

/* The second process: loads the binary from `path`, builds, runs both
 * kernels; math's results must be the first process's, in `path`.out. */
static int child(const char *path) {
  FILE *file = fopen(path, "rb");
  REQUIRE(file);
  unsigned char *bytes = malloc(1 << 24);
  REQUIRE(bytes);
  size_t size = fread(bytes, 1, 1 << 24, file);
  fclose(file);
  cl_int status = 99;
  cl_program program = from_binary(bytes, size, &status);
  free(bytes);
  CHECK_CL_SUCCESS(status);
  CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  CHECK_INT(0, run_apply(program, 77));
  float r[MATH_ITEMS], r_first[MATH_ITEMS];
  double d[MATH_ITEMS], d_first[MATH_ITEMS];
  run_math(program, r, d);
  char out_path[80];
  snprintf(out_path, sizeof out_path, "%s.out", path);
  file = fopen(out_path, "rb");
  REQUIRE(file);
  CHECK_INT(1, fread(r_first, sizeof r_first, 1, file));
  CHECK_INT(1, fread(d_first, sizeof d_first, 1, file));
  fclose(file);
  CHECK(memcmp(r, r_first, sizeof r) == 0);
  CHECK(memcmp(d, d_first, sizeof d) == 0);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  return check_finish();
}

static void test_other_process(const char *self) {
  cl_int error = CL_SUCCESS;
  const char *sources[3] = {kernel_source, scale_source, math_source};
  cl_program program =
      clCreateProgramWithSource(context, 3, sources, NULL, &error);
  REQUIRE(program);
  CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, "-DOFFSET=77", NULL, NULL));
  float r[MATH_ITEMS];
  double d[MATH_ITEMS];
  run_math(program, r, d);
  size_t size = 0;
  unsigned char *bytes = binary_of(program, &size);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  char path[64], out_path[80];
  snprintf(path, sizeof path, "/tmp/clmux_binary_%d.bin", (int)getpid());
  snprintf(out_path, sizeof out_path, "%s.out", path);
  FILE *file = fopen(path, "wb");
  REQUIRE(file);
  CHECK_INT(size, fwrite(bytes, 1, size, file));
  fclose(file);
  file = fopen(out_path, "wb");
  REQUIRE(file);
  CHECK_INT(1, fwrite(r, sizeof r, 1, file));
  CHECK_INT(1, fwrite(d, sizeof d, 1, file));
  fclose(file);
  free(bytes);
  CHECK(cl_test_run_child(self, path));
  unlink(path);
  unlink(out_path);
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);
  test_round_trips();
  test_bad_binaries();
  test_other_process("/proc/self/exe");
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

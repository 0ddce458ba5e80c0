/* The offline compiler's output through the OpenCL API (the real ICD
 * loader, OCL_ICD_VENDORS naming the built libclmux.so): a binary made by
 * clmux-cl-compile is accepted by clCreateProgramWithBinary, builds, runs
 * against a host reference and reports CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
 * a compiled object (-c) links with clLinkProgram; damaged bytes are
 * CL_INVALID_BINARY. Argument: the tool's path. */
#include <sys/wait.h>
#include <unistd.h>

#include "cache_test.h"
#include "cl_test.h"

static char *scratch;

static char *scratch_path(const char *name) {
  char *path = NULL;
  REQUIRE(asprintf(&path, "%s/%s", scratch, name) > 0);
  return path;
}

static void write_text(const char *name, const char *text) {
  char *path = scratch_path(name);
  FILE *file = fopen(path, "w");
  REQUIRE(file && fputs(text, file) >= 0 && fclose(file) == 0);
  free(path);
}

static unsigned char *read_bytes(const char *name, size_t *size) {
  char *path = scratch_path(name);
  FILE *file = fopen(path, "rb");
  free(path);
  REQUIRE(file);
  static unsigned char buffer[1 << 20];
  *size = fread(buffer, 1, sizeof buffer, file);
  fclose(file);
  unsigned char *bytes = malloc(*size);
  memcpy(bytes, buffer, *size);
  return bytes;
}

/* Runs the tool in the scratch folder; its exit status. */
static int run_tool(const char *tool, const char *const *args) {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const char *argv[16] = {tool};
    for (int i = 0; args[i] && i < 14; i++) argv[i + 1] = args[i];
    if (chdir(scratch) != 0) _exit(99);
    execv(tool, (char *const *)argv);
    _exit(98);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

enum { items = 1000 };

/* Runs kernel `cube_plus`(in, out, k) of `program`, checked on the host. */
static void run_cube(cl_context context, cl_command_queue queue,
                     cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "cube_plus", &error);
  CHECK_CL_SUCCESS(error);
  if (error != CL_SUCCESS) return;
  static cl_int in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = i % 50 - 25;
  cl_mem bin = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              sizeof in, in, &error);
  cl_mem bout =
      clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &error);
  cl_int k = 9;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bin, &bin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bout, &bout));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof k, &k));
  const size_t global = items, local = 8;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out, out,
                                       0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < items; i++) {
    wrong += out[i] != in[i] * in[i] * in[i] + k + 1;
  }
  CHECK_INT(0, wrong);
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
  clReleaseKernel(kernel);
}

static cl_program from_binary(cl_context context, cl_device_id device,
                              const char *name, cl_int *status) {
  size_t size = 0;
  unsigned char *bytes = read_bytes(name, &size);
  const unsigned char *binaries[1] = {bytes};
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &size,
                                                 binaries, status, &error);
  free(bytes);
  CHECK_INT(*status, error);
  return error == CL_SUCCESS ? program : NULL;
}

static cl_program_binary_type binary_type(cl_program program,
                                          cl_device_id device) {
  cl_program_binary_type type = 0;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(
      program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
  return type;
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2);
  char *tool = realpath(argv[1], NULL);
  REQUIRE(tool);
  scratch = cache_test_directory("offline-cl");
  write_text("cube.cl",
             "int plus_one(int x);\n"
             "kernel void cube_plus(global const int *in, global int *out,\n"
             "                      int k) {\n"
             "  size_t i = get_global_id(0);\n"
             "  out[i] = plus_one(in[i] * in[i] * in[i] + k);\n"
             "}\n");
  write_text("one.cl", "int plus_one(int x) { return x + 1; }\n");
  CHECK_INT(0, run_tool(tool, (const char *[]){"-o", "cube.bin", "cube.cl",
                                               "one.cl", NULL}));
  CHECK_INT(0, run_tool(tool, (const char *[]){"-c", "-o", "cube.obj",
                                               "cube.cl", NULL}));
  CHECK_INT(0, run_tool(tool, (const char *[]){"-c", "-o", "one.obj", "one.cl",
                                               NULL}));

  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);

  /* An executable binary: build, run. */
  cl_int status = CL_INVALID_VALUE;
  cl_program program = from_binary(context, device, "cube.bin", &status);
  CHECK_INT(CL_SUCCESS, status);
  if (program) {
    CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, binary_type(program, device));
    run_cube(context, queue, program);
    clReleaseProgram(program);
  }

  /* Two compiled objects: linked by the API. */
  cl_program objects[2] = {from_binary(context, device, "cube.obj", &status),
                           from_binary(context, device, "one.obj", &status)};
  if (objects[0] && objects[1]) {
    CHECK_INT(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
              binary_type(objects[0], device));
    cl_int error = CL_SUCCESS;
    cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, objects,
                                      NULL, NULL, &error);
    CHECK_CL_SUCCESS(error);
    if (linked) {
      run_cube(context, queue, linked);
      clReleaseProgram(linked);
    }
  }
  for (int i = 0; i < 2; i++) {
    if (objects[i]) clReleaseProgram(objects[i]);
  }

  /* A flipped byte: refused, never run. */
  size_t size = 0;
  unsigned char *bytes = read_bytes("cube.bin", &size);
  bytes[size / 2] ^= 0x10;
  const unsigned char *binaries[1] = {bytes};
  cl_int error = CL_SUCCESS;
  status = CL_SUCCESS;
  program = clCreateProgramWithBinary(context, 1, &device, &size, binaries,
                                      &status, &error);
  CHECK_INT(CL_INVALID_BINARY, error);
  CHECK_INT(CL_INVALID_BINARY, status);
  CHECK(program == NULL);
  free(bytes);

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  cache_test_remove(scratch);
  free(scratch);
  free(tool);
  return check_finish();
}

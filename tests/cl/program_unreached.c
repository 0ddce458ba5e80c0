/* A program that includes a library of helpers and tables it does not use
 * (as hashcat's sources include every cipher's) carries none of them past
 * its build: its binary is about the size of the program without them,
 * its __global variables all stay (the host sees their total size), and
 * its kernel is right. Carried, they were copied with every kernel's
 * build: 1.8 s before hashcat's five-kernel shared.cl could run its
 * first, trivial kernel. */
#define CL_TARGET_OPENCL_VERSION 300
#include <stdio.h>
#include <string.h>

#include "cl_test.h"

enum { helpers = 300, table_words = 4096, items = 256 };

static const char kernel_source[] =
    "global int kept[64];\n"
    "uint mix(uint x) { return (x ^ (x >> 7)) * 2654435761u; }\n"
    "kernel void run(global uint *out) {\n"
    "  uint i = get_global_id(0);\n"
    "  out[i] = mix(i) + 3;\n"
    "}\n";

/* kernel_source, then `helpers` functions and a __constant table that no
 * kernel reaches, when `library`. */
static char *program_text(bool library) {
  size_t capacity = sizeof kernel_source + (library ? 400000 : 0);
  char *text = malloc(capacity);
  REQUIRE(text);
  size_t length = (size_t)snprintf(text, capacity, "%s", kernel_source);
  if (!library) return text;
  length += (size_t)snprintf(text + length, capacity - length,
                             "constant uint table[%d] = {", table_words);
  for (int w = 0; w < table_words; w++) {
    length += (size_t)snprintf(text + length, capacity - length, "%s%uu",
                               w ? "," : "", (unsigned)w * 2654435761u);
  }
  length += (size_t)snprintf(text + length, capacity - length, "};\n");
  for (int h = 0; h < helpers; h++) {
    length += (size_t)snprintf(
        text + length, capacity - length,
        "uint helper%d(uint x, uint y) {\n"
        "  for (int r = 0; r < %d; r++) {\n"
        "    x = rotate(x + table[(y + r) %% %d], (uint)%d) ^ y;\n"
        "    y += x * %du;\n"
        "  }\n"
        "  return x + y;\n"
        "}\n",
        h, 3 + h % 5, table_words, 1 + h % 31, 2 * h + 1);
    REQUIRE(length < capacity);
  }
  return text;
}

static size_t binary_size(cl_program program) {
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                    sizeof size, &size, NULL));
  return size;
}

static void check_results(cl_context context, cl_device_id device,
                          cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_kernel kernel = clCreateKernel(program, "run", &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = cl_test_buffer(context, items * sizeof(cl_uint), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = items;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  cl_uint got[items];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int wrong = 0;
  for (cl_uint i = 0; i < items; i++) {
    wrong += got[i] != (i ^ (i >> 7)) * 2654435761u + 3;
  }
  CHECK_INT(0, wrong);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseCommandQueue(queue);
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  size_t sizes[2] = {0, 0};
  for (int library = 0; library < 2; library++) {
    char *text = program_text(library);
    cl_program program = cl_test_build(context, device, text, "-cl-std=CL3.0");
    free(text);
    REQUIRE(program);
    sizes[library] = binary_size(program);
    size_t globals = 0;
    CHECK_CL_SUCCESS(clGetProgramBuildInfo(
        program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
        sizeof globals, &globals, NULL));
    CHECK_INT(64 * sizeof(cl_int), globals);
    check_results(context, device, program);
    clReleaseProgram(program);
  }
  printf("binary: %zu bytes alone, %zu with %d helpers and a %d-word table "
         "no kernel uses\n",
         sizes[0], sizes[1], helpers, table_words);
  CHECK(sizes[0] > 0 && sizes[1] <= sizes[0] + sizes[0] / 4);
  clReleaseContext(context);
  return check_finish();
}

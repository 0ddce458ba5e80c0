/* clmux OpenCL API tests: -clmux-bounds-check and CLMUX_BOUNDS_CHECK=1.
 * Kernels that reach past
 * their buffers, __local arguments, __local arrays and __constant tables
 * do not perform those accesses (stores skipped, loads give 0), and each
 * launch that had any prints one line on stderr naming the kernel, the
 * access, the object, the work-item and how many there were. Buffers are
 * sub-buffers of a larger one, so that a write the check misses shows in
 * the parent. Each kernel runs at several local sizes: vectorized, and at
 * local size 1 (one work-item at a time). In-bounds kernels report
 * nothing and compute what they do unchecked. A kernel recorded into a
 * command buffer reports once per run of the buffer. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cl_test.h"
/* After cl_test.h, which picks the OpenCL version. */
#include <CL/cl_ext.h>

static const char source[] =
    "kernel void spill(global float *p, float tag) {\n"
    "  p[get_global_id(0)] = tag;\n"
    "}\n"
    "kernel void shifted_copy(global const float *in, global float *out,\n"
    "                         int shift) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i + shift] + 1.0f;\n"
    "}\n"
    "kernel void local_arg(global float *out, local float *scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l + 1] = (float)l;\n" /* the last item writes one past */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = l ? scratch[l] : -1.0f;\n"
    "}\n"
    "kernel void local_array(global float *out) {\n"
    "  local float tile[8];\n"
    "  size_t l = get_local_id(0);\n"
    "  tile[l & 7] = 2.0f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tile[l];\n" /* items 8.. read past it */
    "}\n"
    "constant int table[4] = {10, 20, 30, 40};\n"
    "kernel void lookup(global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = table[i] + 1;\n"
    "}\n"
    "kernel void count_past(global int *counts, global const int *keys) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atomic_inc(&counts[keys[i]]);\n"
    "}\n"
    "kernel void rows(global float *image, int width) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x < (size_t)width) image[y * width + x] = 1.0f;\n"
    "}\n"
    "kernel void grid_sum(global const float *in, global float *out,\n"
    "                     int n) {\n"
    "  float sum = 0.0f;\n"
    "  for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    sum += in[i];\n"
    "  out[get_global_id(0)] = sum;\n"
    "}\n";

#define PARENT 8192 /* floats */
#define CANARY -7.0f

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;
static char log_path[] = "/tmp/clmux-bounds-XXXXXX";
static int saved_stderr = -1;

/* stderr goes to a file while kernels run; `reports` reads it back. */
static void capture_begin(void) {
  fflush(stderr);
  int fd = mkstemp(log_path);
  REQUIRE(fd >= 0);
  saved_stderr = dup(2);
  dup2(fd, 2);
  close(fd);
}

static char *capture_end(void) {
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  FILE *file = fopen(log_path, "r");
  REQUIRE(file != NULL);
  static char text[1 << 16];
  size_t length = fread(text, 1, sizeof text - 1, file);
  text[length] = 0;
  fclose(file);
  unlink(log_path);
  strcpy(log_path, "/tmp/clmux-bounds-XXXXXX");
  return text;
}

/* Lines of `text` starting with "clmux: kernel NAME:". */
static int count_reports(const char *text, const char *name) {
  char prefix[128];
  snprintf(prefix, sizeof prefix, "clmux: kernel %s: out-of-bounds", name);
  int count = 0;
  for (const char *p = text; (p = strstr(p, prefix)); p++) count++;
  return count;
}

static const char *report_of(const char *text, const char *name) {
  char prefix[128];
  snprintf(prefix, sizeof prefix, "clmux: kernel %s: out-of-bounds", name);
  return strstr(text, prefix);
}

static cl_kernel kernel_of(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

static cl_mem sub_buffer(cl_mem parent, size_t origin, size_t size) {
  cl_buffer_region region = {origin, size};
  cl_int error = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  REQUIRE(error == CL_SUCCESS);
  return sub;
}

static void fill(cl_mem buffer, float value, size_t floats) {
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, buffer, &value, sizeof value, 0,
                                       floats * sizeof value, 0, NULL, NULL));
}

static void read_all(cl_mem buffer, void *host, size_t bytes) {
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, host,
                                       0, NULL, NULL));
}

static void run(cl_kernel kernel, cl_uint dims, const size_t *global,
                const size_t *local) {
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global,
                                          local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

#define TAG 3.0f

/* Runs `kernel` (spill) over 1024 items on a 1000-float sub-buffer of a
 * buffer of canaries; the parent's floats into `host`, stderr returned. */
static const char *spill(cl_kernel kernel, size_t local, float *host) {
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 PARENT * sizeof(float), NULL, NULL);
  REQUIRE(parent != NULL);
  fill(parent, CANARY, PARENT);
  cl_mem sub = sub_buffer(parent, 0, 1000 * sizeof(float));
  float tag = TAG;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof sub, &sub));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof tag, &tag));
  size_t global = 1024;
  capture_begin();
  run(kernel, 1, &global, local ? &local : NULL);
  const char *text = capture_end();
  read_all(parent, host, PARENT * sizeof(float));
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  return text;
}

/* A write past a 1000-float buffer by a global size rounded up to 1024:
 * the 24 writes past it are not done, the report names the first. */
static void check_spill(size_t local) {
  static float host[PARENT];
  cl_kernel kernel = kernel_of("spill");
  const char *text = spill(kernel, local, host);
  size_t wrong = 0;
  for (size_t i = 0; i < PARENT; i++) {
    wrong += host[i] != (i < 1000 ? TAG : CANARY);
  }
  if (wrong) fprintf(stderr, "spill, local %zu: %zu wrong\n", local, wrong);
  CHECK(wrong == 0);
  CHECK(count_reports(text, "spill") == 1);
  const char *line = report_of(text, "spill");
  int64_t offset = -1;
  uint64_t x = 0, y = 9, z = 9, count = 0;
  CHECK(line &&
        sscanf(line,
               "clmux: kernel spill: out-of-bounds write of 4 bytes "
               "at offset %" SCNd64 " of argument 0 (4000 bytes) by "
               "work-item (%" SCNu64 ", %" SCNu64 ", %" SCNu64 "); %" SCNu64,
               &offset, &x, &y, &z, &count) == 5);
  if (!line) fprintf(stderr, "no report in: %s\n", text);
  CHECK(offset >= 4000 && offset < 4096 && (uint64_t)offset == 4 * x);
  CHECK(y == 0 && z == 0);
  CHECK(count == 24);
  clReleaseKernel(kernel);
}

/* Reads past the end give 0 and are reported as reads. */
static void check_reads(size_t local) {
  static float host[512];
  cl_kernel kernel = kernel_of("shifted_copy");
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 PARENT * sizeof(float), NULL, NULL);
  REQUIRE(parent != NULL);
  fill(parent, CANARY, PARENT);
  cl_mem in = sub_buffer(parent, 0, 512 * sizeof(float));
  float ones[512];
  for (int i = 0; i < 512; i++) ones[i] = (float)i;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, sizeof ones,
                                        ones, 0, NULL, NULL));
  cl_mem out =
      clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, NULL);
  int shift = 100;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof shift, &shift));
  size_t global = 512;
  capture_begin();
  run(kernel, 1, &global, local ? &local : NULL);
  const char *text = capture_end();
  read_all(out, host, sizeof host);
  size_t wrong = 0;
  for (int i = 0; i < 512; i++) {
    /* Unchecked, items 412.. would read the parent's canaries. */
    wrong += host[i] != (i + shift < 512 ? (float)(i + shift) + 1.0f : 1.0f);
  }
  if (wrong)
    fprintf(stderr, "shifted_copy, local %zu: %zu wrong\n", local, wrong);
  CHECK(wrong == 0);
  CHECK(count_reports(text, "shifted_copy") == 1);
  const char *line = report_of(text, "shifted_copy");
  CHECK(line && strstr(line, "out-of-bounds read of 4 bytes at offset ") &&
        strstr(line, "of argument 0 (2048 bytes)") &&
        strstr(line, "; 100 out-of-bounds accesses in this launch"));
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseMemObject(parent);
  clReleaseKernel(kernel);
}

/* A __local argument, a __local array and a __constant table. */
static void check_local_and_constant(size_t local) {
  float host[64];
  cl_mem out =
      clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, NULL);
  REQUIRE(out != NULL);
  size_t global = 64, group = local ? local : 16;

  cl_kernel kernel = kernel_of("local_arg");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, group * sizeof(float), NULL));
  capture_begin();
  run(kernel, 1, &global, &group);
  const char *text = capture_end();
  read_all(out, host, sizeof host);
  size_t wrong = 0;
  for (size_t i = 0; i < global; i++) {
    size_t l = i % group;
    wrong += host[i] != (l ? (float)(l - 1) : -1.0f);
  }
  CHECK(wrong == 0);
  /* One item per group writes past it; which group's comes first is not
   * known. */
  char object[64], tail[64];
  snprintf(object, sizeof object, "of argument 1 (%zu bytes) by work-item (",
           group * sizeof(float));
  snprintf(tail, sizeof tail, "; %zu out-of-bounds access", global / group);
  const char *line = report_of(text, "local_arg");
  CHECK(count_reports(text, "local_arg") == 1);
  CHECK(line && strstr(line, "out-of-bounds write of 4 bytes at offset ") &&
        strstr(line, object) && strstr(line, tail));
  clReleaseKernel(kernel);

  kernel = kernel_of("local_array");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  capture_begin();
  run(kernel, 1, &global, &group);
  text = capture_end();
  read_all(out, host, sizeof host);
  wrong = 0;
  for (size_t i = 0; i < global; i++) {
    wrong += host[i] != (i % group < 8 ? 2.0f : 0.0f);
  }
  CHECK(wrong == 0);
  line = report_of(text, "local_array");
  CHECK(count_reports(text, "local_array") == (group > 8 ? 1 : 0));
  if (group > 8) {
    CHECK(line && strstr(line, "read of 4 bytes") &&
          strstr(line, "of a __local variable of the kernel"));
  }
  clReleaseKernel(kernel);

  kernel = kernel_of("lookup");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t eight = 8;
  capture_begin();
  run(kernel, 1, &eight, local ? &(size_t){local < 8 ? local : 8} : NULL);
  text = capture_end();
  int ints[8];
  read_all(out, ints, sizeof ints);
  static const int want_ints[8] = {11, 21, 31, 41, 1, 1, 1, 1};
  CHECK(memcmp(ints, want_ints, sizeof ints) == 0);
  line = report_of(text, "lookup");
  CHECK(count_reports(text, "lookup") == 1);
  CHECK(line && strstr(line, "read of 4 bytes") &&
        strstr(line, "of a __constant variable of the program") &&
        strstr(line, "; 4 out-of-bounds accesses"));
  clReleaseKernel(kernel);
  clReleaseMemObject(out);
}

/* Atomics on a counter past the end are not done; 2D work-item ids. */
static void check_atomics_and_rows(size_t local) {
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 PARENT * sizeof(float), NULL, NULL);
  REQUIRE(parent != NULL);
  fill(parent, 0.0f, PARENT);
  cl_mem counts = sub_buffer(parent, 0, 16 * sizeof(int));
  int keys[256];
  for (int i = 0; i < 256; i++) keys[i] = i % 20; /* 16..19 are past */
  cl_mem key_buffer =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     sizeof keys, keys, NULL);
  cl_kernel kernel = kernel_of("count_past");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof counts, &counts));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof key_buffer, &key_buffer));
  size_t global = 256;
  capture_begin();
  run(kernel, 1, &global, local ? &local : NULL);
  const char *text = capture_end();
  int host[32];
  read_all(parent, host, sizeof host);
  int expected_past = 0;
  for (int i = 0; i < 256; i++) expected_past += keys[i] >= 16;
  bool right = true;
  for (int k = 0; k < 32; k++) {
    int want = 0;
    for (int i = 0; i < 256 && k < 16; i++) want += keys[i] == k;
    right &= host[k] == want;
  }
  CHECK(right);
  const char *line = report_of(text, "count_past");
  char tail[64];
  snprintf(tail, sizeof tail, "; %d out-of-bounds accesses", expected_past);
  CHECK(line && strstr(line, "write of 4 bytes") &&
        strstr(line, "of argument 0 (64 bytes)") && strstr(line, tail));
  clReleaseKernel(kernel);
  clReleaseMemObject(key_buffer);
  clReleaseMemObject(counts);

  /* A 32x8 image in a buffer of 32x7: row 7 is past the end. */
  cl_mem image = sub_buffer(parent, 0, 32 * 7 * sizeof(float));
  fill(parent, CANARY, PARENT);
  kernel = kernel_of("rows");
  int width = 32;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof width, &width));
  size_t global2[2] = {32, 8}, local2[2] = {local ? local : 8, 1};
  if (local2[0] > 32) local2[0] = 32;
  capture_begin();
  run(kernel, 2, global2, local2);
  text = capture_end();
  static float pixels[PARENT];
  read_all(parent, pixels, sizeof pixels);
  size_t wrong = 0;
  for (size_t i = 0; i < PARENT; i++) {
    wrong += pixels[i] != (i < 32 * 7 ? 1.0f : CANARY);
  }
  CHECK(wrong == 0);
  line = report_of(text, "rows");
  uint64_t x = 99, y = 99, z = 99;
  const char *at = line ? strstr(line, "by work-item (") : NULL;
  CHECK(at && sscanf(at, "by work-item (%" SCNu64 ", %" SCNu64 ", %" SCNu64, &x,
                     &y, &z) == 3);
  CHECK(x < 32 && y == 7 && z == 0);
  CHECK(line && strstr(line, "; 32 out-of-bounds accesses"));
  clReleaseKernel(kernel);
  clReleaseMemObject(image);
  clReleaseMemObject(parent);
}

/* An in-bounds kernel with a data-dependent loop: right, and silent. */
static void check_quiet(size_t local) {
  enum { n = 10000, items = 256 };
  static float in[n], out[items];
  for (int i = 0; i < n; i++) in[i] = (float)(i % 7);
  cl_mem in_buffer = clCreateBuffer(
      context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
  cl_mem out_buffer =
      clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, NULL);
  cl_kernel kernel = kernel_of("grid_sum");
  int count = n;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_buffer, &in_buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out_buffer, &out_buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof count, &count));
  size_t global = items;
  capture_begin();
  run(kernel, 1, &global, local ? &local : NULL);
  const char *text = capture_end();
  read_all(out_buffer, out, sizeof out);
  size_t wrong = 0;
  for (int g = 0; g < items; g++) {
    float sum = 0.0f;
    for (int i = g; i < n; i += items) sum += in[i];
    wrong += out[g] != sum;
  }
  CHECK(wrong == 0);
  CHECK(strstr(text, "out-of-bounds") == NULL);
  clReleaseKernel(kernel);
  clReleaseMemObject(in_buffer);
  clReleaseMemObject(out_buffer);
}

/* Recorded once into a command buffer and run twice: each run does none
 * of the 24 writes past the end and has a report of its own. (These five
 * functions have the same signature in every draft of the extension.) */
static void check_recorded(void) {
  cl_platform_id platform = cl_test_platform();
  clCreateCommandBufferKHR_fn create =
      (clCreateCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
          platform, "clCreateCommandBufferKHR");
  clCommandNDRangeKernelKHR_fn record =
      (clCommandNDRangeKernelKHR_fn)clGetExtensionFunctionAddressForPlatform(
          platform, "clCommandNDRangeKernelKHR");
  clFinalizeCommandBufferKHR_fn finalize =
      (clFinalizeCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
          platform, "clFinalizeCommandBufferKHR");
  clEnqueueCommandBufferKHR_fn enqueue =
      (clEnqueueCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
          platform, "clEnqueueCommandBufferKHR");
  clReleaseCommandBufferKHR_fn release =
      (clReleaseCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
          platform, "clReleaseCommandBufferKHR");
  REQUIRE(create && record && finalize && enqueue && release);
  cl_mem parent = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 PARENT * sizeof(float), NULL, NULL);
  REQUIRE(parent != NULL);
  cl_mem sub = sub_buffer(parent, 0, 1000 * sizeof(float));
  cl_kernel kernel = kernel_of("spill");
  float tag = TAG;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof sub, &sub));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof tag, &tag));
  cl_int error = CL_SUCCESS;
  cl_command_buffer_khr commands = create(1, &queue, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  size_t global = 1024, local = 16;
  CHECK_CL_SUCCESS(record(commands, NULL, NULL, kernel, 1, NULL, &global,
                          &local, 0, NULL, NULL, NULL));
  CHECK_CL_SUCCESS(finalize(commands));
  static float host[PARENT];
  for (int run = 0; run < 2; run++) {
    fill(parent, CANARY, PARENT);
    capture_begin();
    CHECK_CL_SUCCESS(enqueue(0, NULL, commands, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clFinish(queue));
    const char *text = capture_end();
    read_all(parent, host, sizeof host);
    CHECK(host[999] == TAG && host[1000] == CANARY && host[1023] == CANARY);
    CHECK(count_reports(text, "spill") == 1);
    const char *line = report_of(text, "spill");
    CHECK(line && strstr(line, "; 24 out-of-bounds accesses"));
  }
  CHECK_CL_SUCCESS(release(commands));
  clReleaseKernel(kernel);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
}

/* Built without the option (and without CLMUX_BOUNDS_CHECK), the same
 * kernel writes past its sub-buffer into the parent, and says nothing. */
static void check_unchecked_program(void) {
  cl_program plain = cl_test_build(context, device, source, NULL);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(plain, "spill", &error);
  REQUIRE(error == CL_SUCCESS);
  static float host[PARENT];
  const char *text = spill(kernel, 16, host);
  CHECK(host[1023] == TAG && host[1024] == CANARY);
  CHECK(strstr(text, "out-of-bounds") == NULL);
  clReleaseKernel(kernel);
  clReleaseProgram(plain);
}

/* First with -clmux-bounds-check on the program, then (in a second
 * process: the variable is read once) with CLMUX_BOUNDS_CHECK=1. */
int main(int argc, char **argv) {
  bool from_environment = argc == 3 && strcmp(argv[1], "--child") == 0;
  if (from_environment) setenv("CLMUX_BOUNDS_CHECK", "1", 1);
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  program = cl_test_build(context, device, source,
                          from_environment ? NULL : "-clmux-bounds-check");
  static const size_t locals[] = {0, 1, 16, 64};
  for (size_t k = 0; k < sizeof locals / sizeof *locals; k++) {
    check_spill(locals[k]);
    check_reads(locals[k]);
    check_local_and_constant(locals[k]);
    check_atomics_and_rows(locals[k]);
    check_quiet(locals[k]);
  }
  if (!from_environment) {
    check_recorded();
    check_unchecked_program();
    CHECK(cl_test_run_child(argv[0], "environment"));
  }
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

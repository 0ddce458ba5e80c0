/* Non-uniform work-groups (OpenCL 2.0 on) through the loader: NDRanges
 * whose global size is not a multiple of the local size in 1, 2 and 3
 * dimensions, with offsets; what every work-item sees of itself and its
 * group; __local memory and barriers in the smaller edge groups; a kernel
 * that does not observe its groups (the target merges rows of them); a
 * kernel with reqd_work_group_size; CL_INVALID_WORK_GROUP_SIZE where the
 * work-groups must be uniform (OpenCL C 1.2, -cl-uniform-work-group-size),
 * also for programs reloaded from binaries in another process. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { FIELDS = 20 };

/* No work-item function but the global id: rows of groups merge. OpenCL
 * C 1.2 too. */
#define SCALE_SOURCE                                                       \
  "kernel void scale(global const float *in, global float *out) {\n"      \
  "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n" \
  "  out[i] = in[i] * 2.0f + 1.0f;\n"                                      \
  "}\n"

/* Each work-item writes FIELDS ulongs at its index from the NDRange's
 * start: its ids, sizes, and whether its group's __local memory held what
 * its neighbour wrote before the barrier. */
static const char source[] =
    "kernel void ids(global ulong *out, local uint *slots) {\n"
    "  size_t index = 0, stride = 1;\n"
    "  for (uint d = 0; d < get_work_dim(); d++) {\n"
    "    index += (get_global_id(d) - get_global_offset(d)) * stride;\n"
    "    stride *= get_global_size(d);\n"
    "  }\n"
    "  global ulong *o = out + index * 20;\n"
    "  for (uint d = 0; d < 3; d++) {\n"
    "    o[d] = get_global_id(d);\n"
    "    o[3 + d] = get_local_id(d);\n"
    "    o[6 + d] = get_group_id(d);\n"
    "    o[9 + d] = get_local_size(d);\n"
    "    o[12 + d] = get_enqueued_local_size(d);\n"
    "    o[15 + d] = get_num_groups(d);\n"
    "  }\n"
    "  uint items = get_local_size(0) * get_local_size(1) * "
    "get_local_size(2);\n"
    "  uint me = get_local_linear_id();\n"
    "  slots[me] = me * 3 + 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint next = (me + 1) % items;\n"
    "  o[18] = slots[next] == next * 3 + 1;\n"
    "  o[19] = get_global_linear_id() == index;\n"
    "}\n"
    SCALE_SOURCE
    "kernel __attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "void fixed(global uint *out) {\n"
    "  local uint count;\n"
    "  if (get_local_id(0) == 0) count = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_inc(&count);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = count * 1000 + get_local_size(0);\n"
    "}\n";

static cl_program build(const char *options) {
  return cl_test_build(context, device, source, options);
}

typedef struct shape {
  cl_uint dims;
  size_t global[3], local[3], offset[3];
} shape;

static cl_ulong ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* Runs ids over `s` and checks every work-item's record. */
static void check_ids(cl_program program, const shape *s) {
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  size_t items = 1;
  for (cl_uint d = 0; d < s->dims; d++) {
    global[d] = s->global[d];
    local[d] = s->local[d];
    offset[d] = s->offset[d];
    items *= global[d];
  }
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "ids", &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem out = cl_test_buffer(context, items * FIELDS * sizeof(cl_ulong), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(
      kernel, 1, local[0] * local[1] * local[2] * sizeof(cl_uint), NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, s->dims, offset,
                                          global, local, 0, NULL, NULL));
  cl_ulong *v = malloc(items * FIELDS * sizeof *v);
  REQUIRE(v);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                       items * FIELDS * sizeof *v, v, 0, NULL,
                                       NULL));
  size_t bad = 0, first_bad = SIZE_MAX;
  for (size_t i = 0; i < items; i++) {
    size_t rest = i;
    const cl_ulong *o = v + i * FIELDS;
    bool ok = o[18] == 1 && o[19] == 1;
    for (int d = 0; d < 3; d++) {
      size_t id = rest % global[d];
      rest /= global[d];
      size_t group = id / local[d];
      size_t size = global[d] - group * local[d];
      if (size > local[d]) size = local[d];
      ok &= o[d] == offset[d] + id && o[3 + d] == id % local[d] &&
            o[6 + d] == group && o[9 + d] == size && o[12 + d] == local[d] &&
            o[15 + d] == ceil_div(global[d], local[d]);
    }
    if (!ok && first_bad == SIZE_MAX) first_bad = i;
    bad += !ok;
  }
  if (bad) {
    const cl_ulong *o = v + first_bad * FIELDS;
    fprintf(stderr,
            "%u-D %zux%zux%zu by %zux%zux%zu: %zu bad, first %zu: gid %llu "
            "%llu %llu lid %llu %llu %llu size %llu %llu %llu flags %llu "
            "%llu\n",
            s->dims, global[0], global[1], global[2], local[0], local[1],
            local[2], bad, first_bad, (unsigned long long)o[0],
            (unsigned long long)o[1], (unsigned long long)o[2],
            (unsigned long long)o[3], (unsigned long long)o[4],
            (unsigned long long)o[5], (unsigned long long)o[9],
            (unsigned long long)o[10], (unsigned long long)o[11],
            (unsigned long long)o[18], (unsigned long long)o[19]);
  }
  CHECK(bad == 0);
  free(v);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

static const shape shapes[] = {
    {1, {1000}, {64}, {7}},
    {1, {5}, {8}, {0}}, /* one group, smaller than enqueued */
    {1, {4099}, {1024}, {0}},
    {2, {33, 17}, {8, 4}, {1, 2}},
    {2, {31, 9}, {32, 2}, {0, 0}},
    {3, {10, 7, 5}, {4, 3, 2}, {0, 0, 3}},
    {3, {3, 3, 3}, {2, 2, 2}, {5, 6, 7}},
    {3, {8, 6, 4}, {4, 3, 2}, {0, 0, 0}}, /* uniform, same program */
};

static void check_shapes(cl_program program) {
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    check_ids(program, &shapes[i]);
  }
}

/* scale over width x height in groups of 64x2: every element once, and
 * nothing past the end. */
static void check_scale(cl_program program) {
  enum { WIDTH = 1001, HEIGHT = 3, N = WIDTH * HEIGHT, PAD = 256 };
  static float in[N], out[N + PAD];
  for (int i = 0; i < N; i++) in[i] = (float)i;
  for (int i = 0; i < N + PAD; i++) out[i] = -1.0f;
  cl_mem bin = cl_test_buffer(context, sizeof in, in);
  cl_mem bout = cl_test_buffer(context, sizeof out, out);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "scale", &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof bin, &bin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof bout, &bout));
  size_t global[2] = {WIDTH, HEIGHT}, local[2] = {64, 2};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global,
                                          local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N + PAD; i++) {
    bad += out[i] != (i < N ? (float)i * 2.0f + 1.0f : -1.0f);
  }
  CHECK_INT(0, bad);
  clReleaseKernel(kernel);
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
}

/* reqd_work_group_size(16,1,1) over 100 items: six groups of 16, then 4. */
static void check_fixed(cl_program program) {
  enum { N = 100 };
  cl_uint v[N];
  cl_mem out = cl_test_buffer(context, sizeof v, NULL);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "fixed", &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = N, local = 16;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  local = 8;
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof v, v, 0,
                                       NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    cl_uint size = i < 96 ? 16 : 4;
    bad += v[i] != size * 1000 + size;
  }
  CHECK_INT(0, bad);
  clReleaseKernel(kernel);
  clReleaseMemObject(out);
}

/* An NDRange of 10 in groups of 4 is refused where groups must be
 * uniform, and runs elsewhere. */
static void check_refused(cl_program program, bool refused) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "scale", &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem buffer = cl_test_buffer(context, 64 * sizeof(float), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof buffer, &buffer));
  size_t global = 10, local = 4, even = 12;
  CHECK_CL(refused ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS,
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0,
                                  NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &even,
                                          &local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
}

static const char *const binary_paths[2] = {"non_uniform_3.0.bin",
                                            "non_uniform_uniform.bin"};
static const char *const binary_options[2] = {
    "-cl-std=CL3.0", "-cl-std=CL3.0 -cl-uniform-work-group-size"};

static void write_binary(int which) {
  cl_program program = build(binary_options[which]);
  cl_test_save_binary(program, binary_paths[which]);
  clReleaseProgram(program);
}

static cl_program load_binary(int which) {
  return cl_test_load_binary(context, device, binary_paths[which]);
}

static int child(void) {
  cl_program program = load_binary(0);
  check_ids(program, &shapes[3]);
  check_refused(program, false);
  clReleaseProgram(program);
  program = load_binary(1);
  check_refused(program, true);
  clReleaseProgram(program);
  return check_finish();
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc > 2 && strcmp(argv[1], "--child") == 0) return child();

  cl_bool supported = CL_FALSE;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                                   sizeof supported, &supported, NULL));
  CHECK(supported == CL_TRUE);

  cl_program program = build("-cl-std=CL3.0");
  check_shapes(program);
  check_scale(program);
  check_fixed(program);
  check_refused(program, false);
  clReleaseProgram(program);

  /* Bounds-checked code keeps the edge groups within their buffers. */
  program = build("-cl-std=CL3.0 -clmux-bounds-check");
  check_shapes(program);
  check_scale(program);
  clReleaseProgram(program);

  /* Uniform work-groups: OpenCL C 1.2, and the option. */
  program = cl_test_build(context, device, SCALE_SOURCE, "");
  check_refused(program, true);
  clReleaseProgram(program);
  program = build(binary_options[1]);
  check_refused(program, true);
  clReleaseProgram(program);

  write_binary(0);
  write_binary(1);
  CHECK(cl_test_run_child(argv[0], "binary"));
  remove(binary_paths[0]);
  remove(binary_paths[1]);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

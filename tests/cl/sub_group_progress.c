/* Independent forward progress of sub-groups (cl_khr_subgroups) through the
 * loader: a work-group's sub-groups wait for each other in spin loops on
 * __local atomics, in an order the sequential one is not (the last
 * sub-group first), in groups of vectors, of single work-items (rows one
 * item wide), of odd sizes and across a barrier; two sub-groups hand a
 * counter back and forth 300 times (the extension's pragma, a volatile
 * and atomic_inc); long loops of atomics that never wait
 * still count right; a program reloaded from its binary in another
 * process keeps it. Without the turns every one of these kernels hangs:
 * an alarm ends the test. Also the queries: the device reports the
 * progress and the extension, and clGetKernelSubGroupInfoKHR answers. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

static const char chain_source[] =
    "kernel void chain(global int *order, global int *counts) {\n"
    "  local atomic_int turn;\n"
    "  if (get_local_linear_id() == 0) atomic_init(&turn, 0);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int n = get_num_sub_groups(), s = get_sub_group_id();\n"
    "  size_t group = get_group_id(0);\n"
    "  if (get_sub_group_local_id() == 0) {\n"
    "    /* The last sub-group goes first. */\n"
    "    while (atomic_load_explicit(&turn, memory_order_acquire) != n - 1 - "
    "s)\n"
    "      ;\n"
    "    order[group * 1024 + n - 1 - s] = s;\n"
    "    atomic_store_explicit(&turn, n - s, memory_order_release);\n"
    "  }\n"
    "  if (get_local_linear_id() == 0) counts[group] = n;\n"
    "}\n";

static const char handover_source[] =
    "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
    "#ifndef cl_khr_subgroups\n#error no cl_khr_subgroups\n#endif\n"
    "kernel void handover(global int *out) {\n"
    "  local volatile int counter;\n"
    "  if (get_local_id(0) == 0) counter = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint s = get_sub_group_id(), n = get_num_sub_groups();\n"
    "  if (get_sub_group_local_id() == 0 && (s == 0 || s == n - 1)) {\n"
    "    int mine = s == 0; /* the last one takes the even counts */\n"
    "    for (int r = 0; r < 300; r++) {\n"
    "      while ((counter & 1) != mine)\n"
    "        ;\n"
    "      atomic_inc(&counter);\n"
    "    }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) out[get_group_id(0)] = counter;\n"
    "}\n"
    "/* Loops of atomics that never wait: the turns must not lose counts. */\n"
    "kernel void count(global int *out, int rounds) {\n"
    "  local int total;\n"
    "  if (get_local_id(0) == 0) total = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int r = 0; r < rounds; r++) atomic_inc(&total);\n"
    "  atomic_add(&out[get_group_id(0) + 1], rounds);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) atomic_add(&out[0], total);\n"
    "}\n";

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static void check_queries(void) {
  cl_bool progress = CL_FALSE;
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                      sizeof progress, &progress, NULL));
  CHECK(progress == CL_TRUE);
  CHECK(cl_test_has_extension(device, "cl_khr_subgroups"));
}

/* Runs chain over `groups` groups of local size lx x ly; every group's
 * sub-groups must have gone last to first. */
static void run_chain(cl_kernel kernel, size_t lx, size_t ly) {
  enum { groups = 6 };
  cl_mem order = cl_test_buffer(context, groups * 1024 * sizeof(cl_int), NULL);
  cl_mem counts = cl_test_buffer(context, groups * sizeof(cl_int), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof order, &order));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof counts, &counts));
  size_t global[2] = {lx * groups, ly}, local[2] = {lx, ly};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local,
                                          0, NULL, NULL));
  static cl_int got[groups * 1024];
  cl_int n[groups];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, counts, CL_TRUE, 0, sizeof n, n,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, order, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int wrong = 0;
  for (int g = 0; g < groups; g++) {
    /* Several sub-groups, or nothing was tested. */
    CHECK(n[g] > 1 && n[g] <= 1024);
    for (int i = 0; i < n[g] && i < 1024; i++) {
      wrong += got[g * 1024 + i] != n[g] - 1 - i;
    }
  }
  if (wrong) fprintf(stderr, "chain %zux%zu: %d out of order\n", lx, ly, wrong);
  CHECK_INT(0, wrong);
  CHECK_CL_SUCCESS(clReleaseMemObject(order));
  CHECK_CL_SUCCESS(clReleaseMemObject(counts));
}

static void check_sub_group_info(cl_kernel kernel) {
  typedef cl_int(CL_API_CALL * info_fn)(cl_kernel, cl_device_id,
                                        cl_kernel_sub_group_info, size_t,
                                        const void *, size_t, void *, size_t *);
  cl_platform_id platform = cl_test_platform();
  info_fn info = (info_fn)clGetExtensionFunctionAddressForPlatform(
      platform, "clGetKernelSubGroupInfoKHR");
  REQUIRE(info != NULL);
  size_t local[2] = {64, 1}, khr = 0, core = 0;
  CHECK_CL_SUCCESS(info(kernel, device,
                        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                        local, sizeof khr, &khr, NULL));
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
      local, sizeof core, &core, NULL));
  CHECK(khr >= 1 && khr == core);
}

static void run_handover(cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "handover", &error);
  CHECK_CL_SUCCESS(error);
  enum { groups = 4 };
  cl_mem out = cl_test_buffer(context, groups * sizeof(cl_int), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = 64 * groups, local = 64;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  cl_int got[groups];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got,
                                       0, NULL, NULL));
  for (int g = 0; g < groups; g++) CHECK_INT(600, got[g]);
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

static void run_count(cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "count", &error);
  CHECK_CL_SUCCESS(error);
  enum { groups = 8, items = 128 };
  cl_int rounds = 5000, zero[groups + 1] = {0};
  cl_mem out = cl_test_buffer(context, sizeof zero, zero);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof rounds, &rounds));
  size_t global = items * groups, local = items;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  cl_int got[groups + 1];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got,
                                       0, NULL, NULL));
  CHECK_INT(rounds * items * groups, got[0]);
  for (int g = 0; g < groups; g++) CHECK_INT(rounds * items, got[g + 1]);
  CHECK_CL_SUCCESS(clReleaseMemObject(out));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

static void run_chains(cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "chain", &error);
  CHECK_CL_SUCCESS(error);
  run_chain(kernel, 64, 1);  /* vectors of lanes */
  run_chain(kernel, 1, 16);  /* single work-items: rows one wide */
  run_chain(kernel, 200, 1); /* a last sub-group of fewer lanes */
  run_chain(kernel, 37, 3);
  check_sub_group_info(kernel);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

static int child(const char *path) {
  cl_program program = cl_test_load_binary(context, device, path);
  run_chains(program);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  return check_finish();
}

int main(int argc, char **argv) {
  alarm(100); /* a sub-group that waits forever hangs the test */
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);
  check_queries();
  cl_program chain =
      cl_test_build(context, device, chain_source, "-cl-std=CL3.0");
  run_chains(chain);
  char path[] = "/tmp/clmux-sub-group-progress-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  cl_test_save_binary(chain, path);
  CHECK(cl_test_run_child(argv[0], path));
  unlink(path);
  CHECK_CL_SUCCESS(clReleaseProgram(chain));
  /* cl_khr_subgroups begins with OpenCL C 2.0, which a 3.0 device
   * without pipes and device-side enqueue does not offer: 3.0 then. */
  cl_program legacy =
      cl_test_build(context, device, handover_source, "-cl-std=CL3.0");
  run_handover(legacy);
  run_count(legacy);
  CHECK_CL_SUCCESS(clReleaseProgram(legacy));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

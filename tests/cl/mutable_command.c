/* cl_khr_command_buffer_mutable_dispatch (0.9.5): an NDRange recorded
 * once, then given new buffer and value arguments, a new global size
 * (with the local size clmux chose chosen again), offset and local size,
 * each checked on the next enqueue; runs already queued keep what they
 * were enqueued with; an argument left unset until an update (the buffer
 * finalized but not executable until then); SVM arguments and execution
 * information; the command's queries; and each error, after which the
 * command is unchanged. */
#define CL_TARGET_OPENCL_VERSION 300 /* clSVMAlloc */
#include "command_buffer_khr.h"

static const char *source =
    "__kernel void axpy(__global int *out, __global const int *in, int a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a * in[i] + (int)get_local_size(0) * 1000;\n"
    "}\n";

enum { N = 256 };

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static cl_kernel kernel;

static cl_mem buffer_of(int value) {
  cl_int error = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mem, &value, sizeof value, 0,
                                       N * sizeof(int), 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  return mem;
}

/* How many of out[from..to) are a * in + 1000 * local, the rest of out
 * still `untouched`. */
static int wrong(cl_mem out, size_t from, size_t to, int a, int in,
                 size_t local, int untouched) {
  int host[N];
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof host, host, 0,
                              NULL, NULL) == CL_SUCCESS);
  int bad = 0;
  for (size_t i = 0; i < N; i++) {
    int want = i >= from && i < to ? a * in + (int)local * 1000 : untouched;
    bad += host[i] != want;
  }
  if (bad) fprintf(stderr, "%d wrong, out[%zu] = %d\n", bad, from, host[from]);
  return bad;
}

static cl_int update(cl_command_buffer_khr cb, const mutable_config *config) {
  cl_uint type = MUTABLE_CONFIG_TYPE;
  const void *configs[1] = {config};
  return khr.update(cb, 1, &type, configs);
}

static cl_command_buffer_khr mutable_buffer(cl_bitfield asserts) {
  cl_command_buffer_properties_khr properties[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
      COMMAND_BUFFER_ASSERTS, asserts, 0};
  cl_int error = CL_SUCCESS;
  cl_command_buffer_khr cb = khr.create(1, &queue, properties, &error);
  REQUIRE(error == CL_SUCCESS);
  return cb;
}

static void run(cl_command_buffer_khr cb) {
  CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

/* An SVM pointer argument swapped for a pointer into another allocation,
 * and execution information, by update; both refused without their
 * updatable field. */
static void test_svm_updates(void) {
  int *in = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
  int *other = clSVMAlloc(context, CL_MEM_READ_WRITE, 2 * N * sizeof(int), 0);
  REQUIRE(in && other);
  for (int i = 0; i < N; i++) in[i] = 4;
  for (int i = 0; i < 2 * N; i++) other[i] = i < N ? 0 : 9;
  cl_mem out = buffer_of(-1);
  int a = 3;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArgSVMPointer(kernel, 1, in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof a, &a));
  cl_command_buffer_khr cb = mutable_buffer(0);
  cl_mutable_command_khr command = NULL;
  size_t global = 32, local = 4;
  command_properties properties[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
      CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR, 0};
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, properties, kernel, 1, NULL, &global,
                               &local, 0, NULL, NULL, &command));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 32, 3, 4, 4, -1));
  cl_mutable_dispatch_arg_khr svm_arg = {1, 0, other + N};
  void *indirect[1] = {in};
  cl_mutable_dispatch_exec_info_khr info = {CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                            sizeof indirect, indirect};
  mutable_config config = {.command = command,
                           .num_svm_args = 1,
                           .num_exec_infos = 1,
                           .arg_svm_list = &svm_arg,
                           .exec_info_list = &info};
  CHECK_CL_SUCCESS(update(cb, &config));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 32, 3, 9, 4, -1));
  info.param_value_size = 3;
  CHECK_CL(CL_INVALID_VALUE, update(cb, &config));
  khr.release(cb);

  /* Updatable arguments only: execution information is refused. */
  command_properties args_only[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                    CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  cb = mutable_buffer(0);
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, args_only, kernel, 1, NULL, &global,
                               &local, 0, NULL, NULL, &command));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  info.param_value_size = sizeof indirect;
  config = (mutable_config){
      .command = command, .num_exec_infos = 1, .exec_info_list = &info};
  CHECK_CL(CL_INVALID_OPERATION, update(cb, &config));
  khr.release(cb);
  clReleaseMemObject(out);
  clSVMFree(context, other);
  clSVMFree(context, in);
}

/* OpenCL C 3.0: a recorded NDRange of 10 in groups of 5 updated to 12,
 * whose last group has 2 work-items, then back. */
static void test_non_uniform_update(void) {
  cl_program program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  cl_int error = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "axpy", &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem out = buffer_of(-1), in = buffer_of(3);
  int a = 2;
  CHECK_CL_SUCCESS(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(k, 1, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(k, 2, sizeof a, &a));
  cl_command_buffer_khr cb = mutable_buffer(0);
  cl_mutable_command_khr command = NULL;
  size_t global = 10, local = 5;
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, k, 1, NULL, &global, &local, 0,
                               NULL, NULL, &command));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  size_t twelve = 12;
  mutable_config config = {.command = command, .global_work_size = &twelve};
  CHECK_CL_SUCCESS(update(cb, &config));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 10, 2, 3, 5, -1) - 2); /* 10 and 11 differ */
  int host[N];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof host,
                                       host, 0, NULL, NULL));
  CHECK(host[10] == 2 * 3 + 2000 && host[11] == 2 * 3 + 2000);
  config = (mutable_config){.command = command, .global_work_size = &global};
  CHECK_CL_SUCCESS(update(cb, &config));
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, out, &(int){-1}, sizeof(int), 0,
                                       N * sizeof(int), 0, NULL, NULL));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 10, 2, 3, 5, -1));
  khr.release(cb);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseKernel(k);
  clReleaseProgram(program);
}

static void test_updates(void) {
  cl_mem out = buffer_of(-1), in = buffer_of(3), in2 = buffer_of(5);
  int a = 2;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof a, &a));
  cl_command_buffer_khr cb = mutable_buffer(0);
  cl_mutable_command_khr command = NULL;
  size_t global = 64;
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, kernel, 1, NULL, &global, NULL,
                               0, NULL, NULL, &command));
  REQUIRE(command != NULL);
  CHECK_CL_SUCCESS(khr.finalize(cb));
  size_t chosen = 0;
  CHECK_CL_SUCCESS(khr.mutable_info(command,
                                    CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR,
                                    sizeof chosen, &chosen, NULL));
  CHECK(chosen >= 1 && 64 % chosen == 0);
  run(cb);
  CHECK_INT(0, wrong(out, 0, 64, 2, 3, chosen, -1));

  /* New value and input buffer. */
  int seven = 7;
  cl_mutable_dispatch_arg_khr args[2] = {{1, sizeof in2, &in2},
                                         {2, sizeof seven, &seven}};
  mutable_config config = {.command = command, .num_args = 2, .arg_list = args};
  CHECK_CL_SUCCESS(update(cb, &config));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 64, 7, 5, chosen, -1));

  /* A larger global size: the local size clmux chose is chosen again. */
  size_t bigger = 250, offset = 6;
  config = (mutable_config){.command = command,
                            .global_work_size = &bigger,
                            .global_work_offset = &offset};
  CHECK_CL_SUCCESS(update(cb, &config));
  size_t info[1] = {0};
  CHECK_CL_SUCCESS(khr.mutable_info(command,
                                    CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR,
                                    sizeof info, info, NULL));
  CHECK(250 % info[0] == 0);
  size_t rechosen = info[0];
  CHECK_CL_SUCCESS(khr.mutable_info(command,
                                    CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR,
                                    sizeof info, info, NULL));
  CHECK_INT(250, info[0]);
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, out, &(int){-1}, sizeof(int), 0,
                                       N * sizeof(int), 0, NULL, NULL));
  run(cb);
  CHECK_INT(0, wrong(out, 6, 256, 7, 5, rechosen, -1));

  /* An explicit local size, then kept when the global size changes. */
  size_t local = 5;
  config = (mutable_config){.command = command, .local_work_size = &local};
  CHECK_CL_SUCCESS(update(cb, &config));
  size_t ten = 10, zero = 0;
  config = (mutable_config){.command = command,
                            .global_work_size = &ten,
                            .global_work_offset = &zero};
  CHECK_CL_SUCCESS(update(cb, &config));
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, out, &(int){-1}, sizeof(int), 0,
                                       N * sizeof(int), 0, NULL, NULL));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 10, 7, 5, 5, -1));

  /* Errors leave the command as it was. */
  size_t odd = 12; /* not a multiple of the local size 5 */
  config = (mutable_config){.command = command, .global_work_size = &odd};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE, update(cb, &config));
  cl_mutable_dispatch_arg_khr bad_index = {3, sizeof a, &a};
  config = (mutable_config){
      .command = command, .num_args = 1, .arg_list = &bad_index};
  CHECK_CL(CL_INVALID_ARG_INDEX, update(cb, &config));
  cl_mutable_dispatch_arg_khr bad_size = {2, 2, &a};
  config.arg_list = &bad_size;
  CHECK_CL(CL_INVALID_ARG_SIZE, update(cb, &config));
  cl_mutable_dispatch_arg_khr bad_mem = {0, sizeof(cl_mem),
                                         &(cl_mem){(cl_mem)kernel}};
  config.arg_list = &bad_mem;
  CHECK_CL(CL_INVALID_MEM_OBJECT, update(cb, &config));
  config = (mutable_config){.command = NULL};
  CHECK_CL(CL_INVALID_MUTABLE_COMMAND_KHR, update(cb, &config));
  config = (mutable_config){.command = command, .num_svm_args = 1};
  CHECK_CL(CL_INVALID_VALUE, update(cb, &config)); /* no list */
  config = (mutable_config){.command = command, .work_dim = 2};
  CHECK_CL(CL_INVALID_VALUE, update(cb, &config));
  cl_uint bad_type = 7;
  const void *configs[1] = {&config};
  CHECK_CL(CL_INVALID_VALUE, khr.update(cb, 1, &bad_type, configs));
  CHECK_CL(CL_INVALID_VALUE, khr.update(cb, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR,
           khr.update(NULL, 1, &bad_type, configs));
  /* A good configuration with a bad one: neither is applied. */
  int nine = 9;
  cl_mutable_dispatch_arg_khr good = {2, sizeof nine, &nine};
  mutable_config pair[2] = {
      {.command = command, .num_args = 1, .arg_list = &good},
      {.command = command, .global_work_size = &odd}};
  cl_uint types[2] = {MUTABLE_CONFIG_TYPE, MUTABLE_CONFIG_TYPE};
  const void *both[2] = {&pair[0], &pair[1]};
  CHECK_CL(CL_INVALID_WORK_GROUP_SIZE, khr.update(cb, 2, types, both));
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, out, &(int){-1}, sizeof(int), 0,
                                       N * sizeof(int), 0, NULL, NULL));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 10, 7, 5, 5, -1));

  /* A run queued before an update keeps the old arguments. */
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem out2 = buffer_of(-1);
  CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 1, &gate, NULL));
  cl_mutable_dispatch_arg_khr elsewhere = {0, sizeof out2, &out2};
  config = (mutable_config){
      .command = command, .num_args = 1, .arg_list = &elsewhere};
  CHECK_CL_SUCCESS(update(cb, &config));
  CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(0, wrong(out, 0, 10, 7, 5, 5, -1));
  CHECK_INT(0, wrong(out2, 0, 10, 7, 5, 5, -1));
  clReleaseEvent(gate);

  /* Queries. */
  cl_command_buffer_khr owner = NULL;
  CHECK_CL_SUCCESS(khr.mutable_info(command,
                                    CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR,
                                    sizeof owner, &owner, NULL));
  CHECK(owner == cb);
  cl_command_queue owner_queue = NULL;
  CHECK_CL_SUCCESS(khr.mutable_info(command,
                                    CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR,
                                    sizeof owner_queue, &owner_queue, NULL));
  CHECK(owner_queue == queue);
  cl_kernel owner_kernel = NULL;
  CHECK_CL_SUCCESS(khr.mutable_info(command, CL_MUTABLE_DISPATCH_KERNEL_KHR,
                                    sizeof owner_kernel, &owner_kernel, NULL));
  CHECK(owner_kernel == kernel);
  cl_uint dims = 0;
  CHECK_CL_SUCCESS(khr.mutable_info(command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR,
                                    sizeof dims, &dims, NULL));
  CHECK_INT(1, dims);
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(khr.mutable_info(
      command, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, sizeof type, &type, NULL));
  CHECK_INT(CL_COMMAND_NDRANGE_KERNEL, type);
  size_t size = 99;
  CHECK_CL_SUCCESS(
      khr.mutable_info(command, COMMAND_PROPERTIES_ARRAY, 0, NULL, &size));
  CHECK_INT(0, size);
  CHECK_CL(CL_INVALID_VALUE,
           khr.mutable_info(command, 0x4242, sizeof dims, &dims, NULL));
  CHECK_CL(CL_INVALID_MUTABLE_COMMAND_KHR,
           khr.mutable_info(NULL, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR,
                            sizeof dims, &dims, NULL));
  CHECK_CL_SUCCESS(khr.release(cb));
  clReleaseMemObject(out);
  clReleaseMemObject(out2);
  clReleaseMemObject(in);
  clReleaseMemObject(in2);
}

/* Updatable fields and asserts limit what an update may change. */
static void test_limits(void) {
  cl_mem out = buffer_of(-1), in = buffer_of(1);
  int a = 1;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof a, &a));
  cl_command_buffer_khr cb = mutable_buffer(NO_ADDITIONAL_WORK_GROUPS);
  command_properties only_args[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                    CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  cl_mutable_command_khr command = NULL;
  size_t global = 64, local = 8;
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, only_args, kernel, 1, NULL, &global,
                               &local, 0, NULL, NULL, &command));
  command_properties given[3] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(khr.mutable_info(command, COMMAND_PROPERTIES_ARRAY,
                                    sizeof given, given, &size));
  CHECK_INT(sizeof given, size);
  CHECK(given[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR &&
        given[1] == CL_MUTABLE_DISPATCH_ARGUMENTS_KHR && given[2] == 0);
  /* Updates need a finalized buffer. */
  mutable_config config = {.command = command};
  CHECK_CL(CL_INVALID_OPERATION, update(cb, &config));
  cl_mutable_command_khr second = NULL;
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, kernel, 1, NULL, &global, &local,
                               0, NULL, NULL, &second));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  size_t other = 32;
  config = (mutable_config){.command = command, .global_work_size = &other};
  CHECK_CL(CL_INVALID_OPERATION, update(cb, &config));
  /* The buffer's assert: no more work-groups than recorded. */
  size_t more = 72;
  config = (mutable_config){.command = second, .global_work_size = &more};
  CHECK_CL(CL_INVALID_VALUE, update(cb, &config));
  config.global_work_size = &other;
  CHECK_CL_SUCCESS(update(cb, &config));
  run(cb);
  CHECK_INT(0, wrong(out, 0, 64, 1, 1, 8, -1));
  CHECK_CL_SUCCESS(khr.release(cb));

  /* Mutable handles and mutable properties need a mutable buffer. */
  cl_int error = CL_SUCCESS;
  cl_command_buffer_khr plain = khr.create(1, &queue, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL(CL_INVALID_VALUE,
           khr.ndrange(plain, NULL, NULL, kernel, 1, NULL, &global, &local, 0,
                       NULL, NULL, &command));
  CHECK_CL(CL_INVALID_VALUE,
           khr.ndrange(plain, NULL, only_args, kernel, 1, NULL, &global, &local,
                       0, NULL, NULL, NULL));
  CHECK_CL_SUCCESS(khr.finalize(plain));
  config = (mutable_config){.command = second};
  CHECK_CL(CL_INVALID_OPERATION, update(plain, &config));
  CHECK_CL_SUCCESS(khr.release(plain));
  clReleaseMemObject(out);
  clReleaseMemObject(in);
}

/* An argument unset at recording: finalized, not executable, until set. */
static void test_deferred(void) {
  cl_int error = CL_SUCCESS;
  cl_program program = cl_test_build(context, device, source, "");
  cl_kernel fresh = clCreateKernel(program, "axpy", &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem out = buffer_of(-1), in = buffer_of(4);
  int a = 3;
  CHECK_CL_SUCCESS(clSetKernelArg(fresh, 1, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(fresh, 2, sizeof a, &a));
  cl_command_buffer_khr cb = mutable_buffer(0);
  cl_mutable_command_khr command = NULL;
  size_t global = 32, local = 4;
  command_properties no_args[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                  CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           khr.ndrange(cb, NULL, no_args, fresh, 1, NULL, &global, &local, 0,
                       NULL, NULL, &command));
  /* Without a handle no update can set them either. */
  CHECK_CL(CL_INVALID_KERNEL_ARGS,
           khr.ndrange(cb, NULL, NULL, fresh, 1, NULL, &global, &local, 0, NULL,
                       NULL, NULL));
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, fresh, 1, NULL, &global, &local,
                               0, NULL, NULL, &command));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  cl_uint state = 99;
  CHECK_CL_SUCCESS(
      khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
  CHECK_INT(STATE_FINALIZED, state);
  CHECK_CL(CL_INVALID_OPERATION, khr.enqueue(0, NULL, cb, 0, NULL, NULL));
  cl_mutable_dispatch_arg_khr arg = {0, sizeof out, &out};
  mutable_config config = {.command = command, .num_args = 1, .arg_list = &arg};
  CHECK_CL_SUCCESS(update(cb, &config));
  CHECK_CL_SUCCESS(
      khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
  CHECK_INT(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, state);
  run(cb);
  CHECK_INT(0, wrong(out, 0, 32, 3, 4, 4, -1));
  CHECK_CL_SUCCESS(khr.release(cb));
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseKernel(fresh);
  clReleaseProgram(program);
}

int main(void) {
  cl_platform_id platform = cl_test_platform();
  device = cl_test_device();
  CHECK(cl_test_has_extension(device, "cl_khr_command_buffer_mutable_dispatch"));
  cl_bitfield fields = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR,
                                   sizeof fields, &fields, NULL));
  CHECK(fields == (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
                   CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                   CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
                   CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                   CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));
  khr_load(platform);
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, "");
  cl_int error = CL_SUCCESS;
  kernel = clCreateKernel(program, "axpy", &error);
  REQUIRE(error == CL_SUCCESS);
  test_updates();
  test_svm_updates();
  test_limits();
  test_deferred();
  test_non_uniform_update();
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

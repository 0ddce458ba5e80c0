/* cl_khr_command_buffer (0.9.8): the device queries and entry points; a
 * buffer of fills, copies (plain, rectangular, image <-> buffer), an image
 * fill and NDRanges recorded once and run many times, on its own queue and
 * on others (out-of-order, profiling), with kernel arguments captured at
 * recording; wait lists, a failed user event, the command's event and
 * profiling times; enqueues of one buffer from two threads at once; release
 * while queued; and each error the extension names. */
#include <pthread.h>

#include "command_buffer_khr.h"

static const char *const entry_points[] = {
    "clCreateCommandBufferKHR",        "clFinalizeCommandBufferKHR",
    "clRetainCommandBufferKHR",        "clReleaseCommandBufferKHR",
    "clEnqueueCommandBufferKHR",       "clGetCommandBufferInfoKHR",
    "clCommandBarrierWithWaitListKHR", "clCommandCopyBufferKHR",
    "clCommandCopyBufferRectKHR",      "clCommandCopyBufferToImageKHR",
    "clCommandCopyImageKHR",           "clCommandCopyImageToBufferKHR",
    "clCommandFillBufferKHR",          "clCommandFillImageKHR",
    "clCommandNDRangeKernelKHR",       "clCommandSVMMemcpyKHR",
    "clCommandSVMMemFillKHR",          "clUpdateMutableCommandsKHR",
    "clGetMutableCommandInfoKHR",
};

static void test_device_and_entry_points(cl_platform_id platform,
                                         cl_device_id device) {
  CHECK(cl_test_has_extension(device, "cl_khr_command_buffer"));
  cl_bitfield bits = ~(cl_bitfield)0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR,
                                   sizeof bits, &bits, NULL));
  CHECK(bits == (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                 CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, 0x129A /* SUPPORTED_QUEUE_PROPS */,
                                   sizeof bits, &bits, NULL));
  CHECK(bits ==
        (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  CHECK_CL_SUCCESS(clGetDeviceInfo(
      device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
      sizeof bits, &bits, NULL));
  CHECK(bits == 0);

  for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, entry_points[i]) !=
          NULL);
  }
  CHECK(clGetExtensionFunctionAddressForPlatform(
            platform, "clRemapCommandBufferKHR") == NULL);
  khr_load(platform);
}

static const char *source =
    "__kernel void scale(__global const int *in, __global int *out, int k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * k + (int)get_global_offset(0);\n"
    "}\n"
    "__kernel void count(__global int *counter) {\n"
    "  atomic_inc(counter);\n"
    "}\n";

enum { N = 1000, W = 16, H = 8 };

typedef struct fixture {
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  cl_program program;
  cl_kernel scale, count;
  cl_mem in, out, copy, rect, image, pixels, counter;
} fixture;

static cl_mem buffer(cl_context context, size_t size) {
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  return mem;
}

static cl_int read_ints(cl_command_queue queue, cl_mem mem, int *out,
                        size_t count) {
  return clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(int), out,
                             0, NULL, NULL);
}

static void fixture_setup(fixture *f, cl_device_id device) {
  f->device = device;
  f->context = cl_test_context(device);
  f->queue = cl_test_queue(f->context, device, 0);
  f->program = cl_test_build(f->context, device, source, "");
  cl_int error = CL_SUCCESS;
  f->scale = clCreateKernel(f->program, "scale", &error);
  REQUIRE(error == CL_SUCCESS);
  f->count = clCreateKernel(f->program, "count", &error);
  REQUIRE(error == CL_SUCCESS);
  f->in = buffer(f->context, N * sizeof(int));
  f->out = buffer(f->context, N * sizeof(int));
  f->copy = buffer(f->context, N * sizeof(int));
  f->rect = buffer(f->context, W * H * sizeof(int));
  f->pixels = buffer(f->context, W * H * sizeof(int));
  f->counter = buffer(f->context, sizeof(int));
  cl_image_format format = {CL_R, CL_SIGNED_INT32};
  f->image = clCreateImage2D(f->context, CL_MEM_READ_WRITE, &format, W, H, 0,
                             NULL, &error);
  REQUIRE(error == CL_SUCCESS);
}

static void fixture_teardown(fixture *f) {
  cl_mem mems[] = {f->in,     f->out,   f->copy,   f->rect,
                   f->pixels, f->image, f->counter};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) {
    clReleaseMemObject(mems[i]);
  }
  clReleaseKernel(f->scale);
  clReleaseKernel(f->count);
  clReleaseProgram(f->program);
  clReleaseCommandQueue(f->queue);
  clReleaseContext(f->context);
}

/* Records: in := 3; out := in * k + 5 (offset 5, k = 7 at recording); copy
 * := out; a 4x3 rectangle of copy into rect; image := 9 in a 5x4 corner,
 * then pixels := image. Sync points chain them, with a barrier. */
static cl_command_buffer_khr record_pipeline(fixture *f) {
  cl_int error = CL_SUCCESS;
  cl_command_buffer_khr cb = khr.create(1, &f->queue, NULL, &error);
  REQUIRE(error == CL_SUCCESS && cb != NULL);
  const int three = 3, zero = 0;
  cl_sync_point_khr points[8] = {0};
  CHECK_CL_SUCCESS(khr.fill(cb, NULL, NULL, f->in, &three, sizeof three, 0,
                            N * sizeof(int), 0, NULL, &points[0], NULL));
  CHECK_CL_SUCCESS(khr.fill(cb, NULL, NULL, f->rect, &zero, sizeof zero, 0,
                            W * H * sizeof(int), 0, NULL, &points[1], NULL));
  CHECK(points[0] != points[1]);
  int k = 7;
  CHECK_CL_SUCCESS(clSetKernelArg(f->scale, 0, sizeof f->in, &f->in));
  CHECK_CL_SUCCESS(clSetKernelArg(f->scale, 1, sizeof f->out, &f->out));
  CHECK_CL_SUCCESS(clSetKernelArg(f->scale, 2, sizeof k, &k));
  /* N - 5 items from offset 5; the first five are left to the fill. */
  CHECK_CL_SUCCESS(khr.fill(cb, NULL, NULL, f->out, &zero, sizeof zero, 0,
                            N * sizeof(int), 0, NULL, &points[2], NULL));
  size_t offset = 5, global = N - 5;
  CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, f->scale, 1, &offset, &global,
                               NULL, 2, points, &points[3], NULL));
  CHECK_CL_SUCCESS(
      khr.barrier(cb, NULL, NULL, 1, &points[3], &points[4], NULL));
  CHECK_CL_SUCCESS(khr.copy(cb, NULL, NULL, f->out, f->copy, 0, 0,
                            N * sizeof(int), 1, &points[4], &points[5], NULL));
  size_t src_origin[3] = {5 * sizeof(int), 0, 0};
  size_t dst_origin[3] = {2 * sizeof(int), 1, 0};
  size_t region[3] = {4 * sizeof(int), 3, 1};
  CHECK_CL_SUCCESS(khr.copy_rect(
      cb, NULL, NULL, f->copy, f->rect, src_origin, dst_origin, region,
      10 * sizeof(int), 0, W * sizeof(int), 0, 1, &points[5], NULL, NULL));
  cl_int color[4] = {0, 0, 0, 0};
  size_t origin[3] = {0, 0, 0}, whole[3] = {W, H, 1};
  CHECK_CL_SUCCESS(khr.fill_image(cb, NULL, NULL, f->image, color, origin,
                                  whole, 0, NULL, NULL, NULL));
  color[0] = 9;
  size_t corner[3] = {5, 4, 1};
  CHECK_CL_SUCCESS(khr.fill_image(cb, NULL, NULL, f->image, color, origin,
                                  corner, 0, NULL, &points[6], NULL));
  CHECK_CL_SUCCESS(khr.image_to_buffer(cb, NULL, NULL, f->image, f->pixels,
                                       origin, whole, 0, 1, &points[6],
                                       &points[7], NULL));
  /* Changed after recording: the recorded command keeps k = 7. */
  k = 100;
  CHECK_CL_SUCCESS(clSetKernelArg(f->scale, 2, sizeof k, &k));
  return cb;
}

static void clear(fixture *f, cl_command_queue queue) {
  const int junk = -1;
  cl_mem mems[] = {f->in, f->out, f->copy, f->rect, f->pixels};
  size_t sizes[] = {N, N, N, W * H, W * H};
  for (size_t i = 0; i < 5; i++) {
    CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mems[i], &junk, sizeof junk, 0,
                                         sizes[i] * sizeof(int), 0, NULL,
                                         NULL));
  }
}

/* Whether the buffers hold what record_pipeline's commands make. */
static bool pipeline_done(fixture *f, cl_command_queue queue) {
  static int out[N], copy[N], rect[W * H], pixels[W * H];
  REQUIRE(read_ints(queue, f->out, out, N) == CL_SUCCESS);
  REQUIRE(read_ints(queue, f->copy, copy, N) == CL_SUCCESS);
  REQUIRE(read_ints(queue, f->rect, rect, W * H) == CL_SUCCESS);
  REQUIRE(read_ints(queue, f->pixels, pixels, W * H) == CL_SUCCESS);
  for (int i = 0; i < N; i++) {
    int want = i < 5 ? 0 : 3 * 7 + 5;
    if (out[i] != want || copy[i] != want) return false;
  }
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
      int want_rect = inside ? 3 * 7 + 5 : 0;
      int want_pixel = x < 5 && y < 4 ? 9 : 0;
      if (rect[y * W + x] != want_rect || pixels[y * W + x] != want_pixel) {
        return false;
      }
    }
  }
  return true;
}

static void test_replay(fixture *f) {
  cl_command_buffer_khr cb = record_pipeline(f);
  cl_uint state = 99;
  CHECK_CL_SUCCESS(
      khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
  CHECK_INT(CL_COMMAND_BUFFER_STATE_RECORDING_KHR, state);
  CHECK_CL(CL_INVALID_OPERATION, khr.enqueue(0, NULL, cb, 0, NULL, NULL));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  CHECK_CL_SUCCESS(
      khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, NULL));
  CHECK_INT(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR, state);

  /* Many runs on its own queue, each after the buffers were spoiled. */
  for (int run = 0; run < 5; run++) {
    clear(f, f->queue);
    CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK(pipeline_done(f, f->queue));
  }
  /* On other queues of the device: out-of-order, and profiling. */
  cl_command_queue others[2] = {
      cl_test_queue(f->context, f->device,
                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
      cl_test_queue(f->context, f->device, CL_QUEUE_PROFILING_ENABLE)};
  for (int q = 0; q < 2; q++) {
    clear(f, others[q]);
    CHECK_CL_SUCCESS(clFinish(others[q]));
    cl_event event = NULL;
    CHECK_CL_SUCCESS(khr.enqueue(1, &others[q], cb, 0, NULL, &event));
    CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
    CHECK(pipeline_done(f, others[q]));
    cl_command_type type = 0;
    CHECK_CL_SUCCESS(
        clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK_INT(CL_COMMAND_COMMAND_BUFFER_KHR, type);
    cl_command_queue queue = NULL;
    CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue,
                                    &queue, NULL));
    CHECK(queue == others[q]);
    if (q == 1) {
      cl_ulong start = 0, end = 0;
      CHECK_CL_SUCCESS(clGetEventProfilingInfo(
          event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
      CHECK_CL_SUCCESS(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END,
                                               sizeof end, &end, NULL));
      CHECK(start > 0 && end >= start);
    }
    clReleaseEvent(event);
    clReleaseCommandQueue(others[q]);
  }
  CHECK_CL_SUCCESS(khr.release(cb));
}

/* A user event gates the run; a failed one cancels it. */
static void test_wait_lists(fixture *f) {
  cl_command_buffer_khr cb = record_pipeline(f);
  CHECK_CL_SUCCESS(khr.finalize(cb));
  for (int fail = 0; fail < 2; fail++) {
    clear(f, f->queue);
    CHECK_CL_SUCCESS(clFinish(f->queue));
    cl_int error = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(f->context, &error);
    REQUIRE(error == CL_SUCCESS);
    cl_event event = NULL;
    CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 1, &gate, &event));
    CHECK_CL_SUCCESS(clFlush(f->queue));
    usleep(20000);
    cl_int status = 0;
    CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof status, &status, NULL));
    CHECK(status > CL_RUNNING); /* queued or submitted, not run */
    CHECK_CL_SUCCESS(clSetUserEventStatus(gate, fail ? -1 : CL_COMPLETE));
    clWaitForEvents(1, &event);
    CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof status, &status, NULL));
    if (fail) {
      CHECK(status < 0);
      int out[1] = {0};
      CHECK_CL_SUCCESS(read_ints(f->queue, f->out, out, 1));
      CHECK_INT(-1, out[0]); /* nothing of it ran */
    } else {
      CHECK_INT(CL_COMPLETE, status);
      CHECK(pipeline_done(f, f->queue));
    }
    clReleaseEvent(event);
    clReleaseEvent(gate);
  }
  CHECK_CL_SUCCESS(khr.release(cb));
}

/* One recorded buffer enqueued from two threads at once, many times, and
 * released while its last runs are still queued. */
typedef struct racer {
  fixture *f;
  cl_command_buffer_khr cb;
  cl_command_queue queue;
} racer;

enum { RUNS = 200 };

static void *race(void *data) {
  racer *r = data;
  for (int i = 0; i < RUNS; i++) {
    if (khr.enqueue(1, &r->queue, r->cb, 0, NULL, NULL) != CL_SUCCESS) break;
  }
  clFinish(r->queue);
  return NULL;
}

static void test_simultaneous_use(fixture *f) {
  cl_int error = CL_SUCCESS;
  const int zero = 0;
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(f->queue, f->counter, &zero, sizeof zero,
                                       0, sizeof zero, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(f->queue));
  cl_command_buffer_khr cb = khr.create(1, &f->queue, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL_SUCCESS(clSetKernelArg(f->count, 0, sizeof f->counter, &f->counter));
  size_t global = 64, local = 16;
  for (int i = 0; i < 3; i++) {
    CHECK_CL_SUCCESS(khr.ndrange(cb, NULL, NULL, f->count, 1, NULL, &global,
                                 &local, 0, NULL, NULL, NULL));
  }
  CHECK_CL_SUCCESS(khr.finalize(cb));
  racer racers[2] = {{f, cb, cl_test_queue(f->context, f->device, 0)},
                     {f, cb, cl_test_queue(f->context, f->device, 0)}};
  pthread_t threads[2];
  for (int i = 0; i < 2; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, race, &racers[i]) == 0);
  }
  for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
  int total = 0;
  CHECK_CL_SUCCESS(read_ints(f->queue, f->counter, &total, 1));
  CHECK_INT(2 * RUNS * 3 * 64, total);

  /* Released before its runs are done: they still all happen. */
  for (int i = 0; i < 10; i++) {
    CHECK_CL_SUCCESS(khr.enqueue(0, NULL, cb, 0, NULL, NULL));
  }
  CHECK_CL_SUCCESS(khr.release(cb));
  CHECK_CL_SUCCESS(clFinish(f->queue));
  CHECK_CL_SUCCESS(read_ints(f->queue, f->counter, &total, 1));
  CHECK_INT((2 * RUNS + 10) * 3 * 64, total);
  for (int i = 0; i < 2; i++) clReleaseCommandQueue(racers[i].queue);
}

static void test_errors(fixture *f) {
  cl_int error = CL_SUCCESS;
  CHECK(khr.create(0, &f->queue, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(khr.create(1, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_command_queue two[2] = {f->queue, f->queue};
  CHECK(khr.create(2, two, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_command_queue bad = (cl_command_queue)f->context;
  CHECK(khr.create(1, &bad, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, error);
  cl_command_buffer_properties_khr repeated[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  CHECK(khr.create(1, &f->queue, repeated, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_command_buffer_properties_khr flag[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                             1 << 2 /* device-side sync */, 0};
  CHECK(khr.create(1, &f->queue, flag, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  cl_command_buffer_properties_khr strange[] = {0x4242, 0, 0};
  CHECK(khr.create(1, &f->queue, strange, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);

  cl_command_buffer_properties_khr none[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  cl_command_buffer_khr cb = khr.create(1, &f->queue, none, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_command_buffer_properties_khr given[3] = {1, 1, 1};
  size_t size = 0;
  CHECK_CL_SUCCESS(khr.info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR,
                            sizeof given, given, &size));
  CHECK_INT(sizeof given, size);
  CHECK(given[0] == CL_COMMAND_BUFFER_FLAGS_KHR && given[1] == 0 &&
        given[2] == 0);
  cl_uint count = 0;
  CHECK_CL_SUCCESS(khr.info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count,
                            &count, NULL));
  CHECK_INT(1, count);
  cl_command_queue queue = NULL;
  CHECK_CL_SUCCESS(
      khr.info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queue, &queue, NULL));
  CHECK(queue == f->queue);
  cl_context context = NULL;
  CHECK_CL_SUCCESS(
      khr.info(cb, 0x1299 /* CONTEXT */, sizeof context, &context, NULL));
  CHECK(context == f->context);
  CHECK_CL_SUCCESS(khr.retain(cb));
  CHECK_CL_SUCCESS(khr.info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR,
                            sizeof count, &count, NULL));
  CHECK_INT(2, count);
  CHECK_CL_SUCCESS(khr.release(cb));
  CHECK_CL(CL_INVALID_VALUE,
           khr.info(cb, CL_COMMAND_BUFFER_STATE_KHR, 1, &count, NULL));
  CHECK_CL(CL_INVALID_VALUE, khr.info(cb, 0x4242, sizeof count, &count, NULL));
  CHECK_CL(
      CL_INVALID_COMMAND_BUFFER_KHR,
      khr.info(NULL, CL_COMMAND_BUFFER_STATE_KHR, sizeof count, &count, NULL));

  const int one = 1;
  cl_sync_point_khr point = 0, unknown = 77;
  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR,
           khr.fill(NULL, NULL, NULL, f->in, &one, sizeof one, 0, sizeof one, 0,
                    NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           khr.fill(cb, f->queue, NULL, f->in, &one, sizeof one, 0, sizeof one,
                    0, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
           khr.fill(cb, NULL, NULL, f->in, &one, sizeof one, 0, sizeof one, 1,
                    NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
           khr.fill(cb, NULL, NULL, f->in, &one, sizeof one, 0, sizeof one, 1,
                    &unknown, NULL, NULL));
  cl_mutable_command_khr handle = NULL;
  CHECK_CL(CL_INVALID_VALUE, khr.fill(cb, NULL, NULL, f->in, &one, sizeof one,
                                      0, sizeof one, 0, NULL, NULL, &handle));
  command_properties properties[] = {0x12B1, 1, 0};
  CHECK_CL(CL_INVALID_VALUE,
           khr.fill(cb, NULL, properties, f->in, &one, sizeof one, 0,
                    sizeof one, 0, NULL, NULL, NULL));
  /* The clEnqueue* form's own checks apply. */
  CHECK_CL(CL_INVALID_VALUE, khr.fill(cb, NULL, NULL, f->in, &one, 3, 0,
                                      sizeof one, 0, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           khr.copy(cb, NULL, NULL, f->in, f->out, 0, 0, (N + 1) * sizeof(int),
                    0, NULL, NULL, NULL));
  size_t global = 10;
  CHECK_CL(CL_INVALID_WORK_DIMENSION,
           khr.ndrange(cb, NULL, NULL, f->scale, 0, NULL, &global, NULL, 0,
                       NULL, NULL, NULL));
  cl_context other = cl_test_context(f->device);
  cl_mem foreign = buffer(other, sizeof one);
  CHECK_CL(CL_INVALID_CONTEXT,
           khr.fill(cb, NULL, NULL, foreign, &one, sizeof one, 0, sizeof one, 0,
                    NULL, NULL, NULL));
  /* Failed commands hand out no sync point: the first is 1. */
  CHECK_CL_SUCCESS(khr.fill(cb, NULL, NULL, f->in, &one, sizeof one, 0,
                            sizeof one, 0, NULL, &point, NULL));
  CHECK_INT(1, point);
  CHECK_CL_SUCCESS(khr.barrier(cb, NULL, NULL, 1, &point, &point, NULL));
  CHECK_INT(2, point);

  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR, khr.finalize(NULL));
  CHECK_CL_SUCCESS(khr.finalize(cb));
  CHECK_CL(CL_INVALID_OPERATION, khr.finalize(cb));
  CHECK_CL(CL_INVALID_OPERATION,
           khr.fill(cb, NULL, NULL, f->in, &one, sizeof one, 0, sizeof one, 0,
                    NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_OPERATION,
           khr.barrier(cb, NULL, NULL, 0, NULL, NULL, NULL));

  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR,
           khr.enqueue(0, NULL, NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, khr.enqueue(1, NULL, cb, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, khr.enqueue(0, two, cb, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, khr.enqueue(2, two, cb, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE, khr.enqueue(1, &bad, cb, 0, NULL, NULL));
  cl_command_queue other_queue = cl_test_queue(other, f->device, 0);
  CHECK_CL(CL_INVALID_CONTEXT, khr.enqueue(1, &other_queue, cb, 0, NULL, NULL));
  cl_event foreign_event = clCreateUserEvent(other, &error);
  CHECK_CL(CL_INVALID_CONTEXT,
           khr.enqueue(0, NULL, cb, 1, &foreign_event, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST, khr.enqueue(0, NULL, cb, 1, NULL, NULL));
  clSetUserEventStatus(foreign_event, CL_COMPLETE);
  clReleaseEvent(foreign_event);
  clReleaseCommandQueue(other_queue);
  clReleaseMemObject(foreign);
  clReleaseContext(other);

  CHECK_CL_SUCCESS(khr.release(cb));
  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR, khr.release(NULL));
  CHECK_CL(CL_INVALID_COMMAND_BUFFER_KHR, khr.retain(NULL));
}

int main(void) {
  cl_platform_id platform = cl_test_platform();
  cl_device_id device = cl_test_device();
  test_device_and_entry_points(platform, device);
  fixture f;
  fixture_setup(&f, device);
  test_replay(&f);
  test_wait_lists(&f);
  test_simultaneous_use(&f);
  test_errors(&f);
  fixture_teardown(&f);
  return check_finish();
}

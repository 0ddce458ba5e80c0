/* The entry points of OpenCL 2.0 to 3.0 through the loader: none crashes
 * (ocl-icd calls a NULL dispatch slot unchecked). Buffers, images, samplers
 * and queues made from property lists, kernel clones, context destructor
 * callbacks and the timers work (SPIR-V programs: cl_il_program; SVM:
 * cl_svm); the rest check their object and answer CL_INVALID_OPERATION, as
 * OpenCL 3.0 names for a device without the feature. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS /* clSetProgramReleaseCallback */
#include "cl_test.h"

#include <CL/cl_ext.h>

static cl_device_id device;
static cl_context context;

static void test_made_from_properties(void) {
  cl_int error = CL_SUCCESS;
  /* Buffers: no properties, an empty list, and an unknown property. */
  int data[16] = {0}, back[16] = {0};
  for (int i = 0; i < 16; i++) data[i] = i * 7;
  const cl_mem_properties empty[] = {0}, unknown[] = {0x1234, 1, 0};
  cl_mem buffer = clCreateBufferWithProperties(
      context, NULL, CL_MEM_COPY_HOST_PTR, sizeof data, data, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem other = clCreateBufferWithProperties(context, empty, CL_MEM_READ_WRITE,
                                              sizeof data, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(clCreateBufferWithProperties(context, unknown, CL_MEM_READ_WRITE, 64,
                                     NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  cl_command_queue queue = clCreateCommandQueueWithProperties(
      context, device, (const cl_queue_properties[]){0}, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clEnqueueCopyBuffer(queue, buffer, other, 0, 0, sizeof data,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, other, CL_TRUE, 0, sizeof back,
                                       back, 0, NULL, NULL));
  CHECK(memcmp(data, back, sizeof data) == 0);

  /* Images. */
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  cl_mem image = clCreateImageWithProperties(context, empty, CL_MEM_READ_WRITE,
                                             &format, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  size_t width = 0;
  CHECK_CL_SUCCESS(
      clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof width, &width, NULL));
  CHECK_INT(4, width);
  CHECK(clCreateImageWithProperties(context, unknown, CL_MEM_READ_WRITE,
                                    &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);

  /* Samplers. */
  const cl_sampler_properties settings[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                            CL_FALSE,
                                            CL_SAMPLER_FILTER_MODE,
                                            CL_FILTER_LINEAR,
                                            CL_SAMPLER_ADDRESSING_MODE,
                                            CL_ADDRESS_CLAMP_TO_EDGE,
                                            0};
  cl_sampler sampler = clCreateSamplerWithProperties(context, settings, &error);
  CHECK_CL_SUCCESS(error);
  cl_bool normalized = CL_TRUE;
  cl_filter_mode filter = 0;
  cl_addressing_mode addressing = 0;
  clGetSamplerInfo(sampler, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized,
                   &normalized, NULL);
  clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter,
                   NULL);
  clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing,
                   &addressing, NULL);
  CHECK(normalized == CL_FALSE && filter == CL_FILTER_LINEAR &&
        addressing == CL_ADDRESS_CLAMP_TO_EDGE);
  cl_sampler plain = clCreateSamplerWithProperties(context, NULL, &error);
  CHECK_CL_SUCCESS(error);
  const cl_sampler_properties twice[] = {
      CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
      CL_FILTER_NEAREST, 0};
  const cl_sampler_properties bogus[] = {0x4321, 0, 0};
  CHECK(clCreateSamplerWithProperties(context, twice, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateSamplerWithProperties(context, bogus, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);

  /* Queues: 1.2's property bits; no on-device queue size. */
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES,
                                           CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue profiled =
      clCreateCommandQueueWithProperties(context, device, profiling, &error);
  CHECK_CL_SUCCESS(error);
  cl_command_queue_properties got = 0;
  clGetCommandQueueInfo(profiled, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL);
  CHECK_INT(CL_QUEUE_PROFILING_ENABLE, got);
  const cl_queue_properties sized[] = {CL_QUEUE_SIZE, 16, 0};
  CHECK(clCreateCommandQueueWithProperties(context, device, sized, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_QUEUE_PROPERTIES, error);
  const cl_queue_properties on_device[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  CHECK(clCreateCommandQueueWithProperties(context, device, on_device,
                                           &error) == NULL);
  CHECK_CL(CL_INVALID_QUEUE_PROPERTIES, error);
  const cl_queue_properties default_only[] = {CL_QUEUE_PROPERTIES,
                                              CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  CHECK(clCreateCommandQueueWithProperties(context, device, default_only,
                                           &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* cl_khr_create_command_queue: the same function for 1.2 programs. */
  clCreateCommandQueueWithPropertiesKHR_fn with_khr =
      (clCreateCommandQueueWithPropertiesKHR_fn)
          clGetExtensionFunctionAddressForPlatform(
              cl_test_platform(), "clCreateCommandQueueWithPropertiesKHR");
  REQUIRE(with_khr);
  const cl_queue_properties_khr out_of_order[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue khr_queue =
      with_khr(context, device, out_of_order, &error);
  CHECK_CL_SUCCESS(error);
  got = 0;
  clGetCommandQueueInfo(khr_queue, CL_QUEUE_PROPERTIES, sizeof got, &got,
                        NULL);
  CHECK_INT(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, got);
  if (khr_queue) clReleaseCommandQueue(khr_queue);
  CHECK(with_khr(context, device, sized, &error) == NULL);
  CHECK_CL(CL_INVALID_QUEUE_PROPERTIES, error);

  /* The property lists come back as given; none for a list not given. */
  cl_properties given[8] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(profiled, CL_QUEUE_PROPERTIES_ARRAY,
                                         sizeof given, given, &size));
  CHECK(size == sizeof profiling && memcmp(given, profiling, size) == 0);
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(other, CL_MEM_PROPERTIES, sizeof given, given, &size));
  CHECK(size == sizeof empty && given[0] == 0);
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(buffer, CL_MEM_PROPERTIES, 0, NULL, &size));
  CHECK_INT(0, size);
  CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES,
                                    sizeof given, given, &size));
  CHECK(size == sizeof settings && memcmp(given, settings, size) == 0);
  cl_bool svm = CL_TRUE;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_USES_SVM_POINTER,
                                      sizeof svm, &svm, NULL));
  CHECK(svm == CL_FALSE);
  cl_command_queue default_queue = queue;
  CHECK_CL_SUCCESS(clGetCommandQueueInfo(profiled, CL_QUEUE_DEVICE_DEFAULT,
                                         sizeof default_queue, &default_queue,
                                         NULL));
  CHECK(default_queue == NULL);
  cl_uint queue_size = 0;
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clGetCommandQueueInfo(profiled, CL_QUEUE_SIZE, sizeof queue_size,
                                 &queue_size, NULL));

  clReleaseCommandQueue(profiled);
  clReleaseSampler(plain);
  clReleaseSampler(sampler);
  clReleaseMemObject(image);
  clReleaseMemObject(other);
  clReleaseMemObject(buffer);
  clReleaseCommandQueue(queue);
}

static void test_unsupported(void) {
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_program program =
      cl_test_build(context, device, "kernel void k(global int *p) {}", "");
  cl_kernel kernel = clCreateKernel(program, "k", &error);
  CHECK_CL_SUCCESS(error);
  const char il[] = "not SPIR-V"; /* cl_il_program tests SPIR-V */
  CHECK(clCreateProgramWithIL(context, il, sizeof il, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreatePipe(context, CL_MEM_READ_WRITE, 4, 16, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_OPERATION, error);
  cl_uint packets = 0;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clGetPipeInfo(buffer, CL_PIPE_MAX_PACKETS, sizeof packets, &packets,
                         NULL));
  cl_ulong host_time = 0;
  CHECK_CL(CL_INVALID_OPERATION,
           clSetDefaultDeviceCommandQueue(context, device, queue));
  CHECK_CL(CL_INVALID_OPERATION,
           clSetProgramReleaseCallback(program, NULL, NULL));
  int value = 1; /* a program not made from SPIR-V */
  CHECK_CL(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(
                                   program, 0, sizeof value, &value));

  /* An object of another kind where one is checked (the loader passes any
   * clmux object on): the error names the kind expected. */
  int host[4] = {0};
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueSVMUnmap((cl_command_queue)kernel, host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clSetKernelArgSVMPointer((cl_kernel)queue, 0, host));
  CHECK_CL(CL_INVALID_DEVICE, clGetHostTimer((cl_device_id)queue, &host_time));
  CHECK_CL(CL_INVALID_PROGRAM,
           clSetProgramReleaseCallback((cl_program)kernel, NULL, NULL));
  CHECK(clCreateProgramWithIL((cl_context)queue, il, sizeof il, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);

  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
}

/* A clone runs with the arguments its source had when cloned, and keeps
 * them when the source's change. */
static void test_clone(void) {
  static const char *source =
      "kernel void put(global int *out, int value) {\n"
      "  out[get_global_id(0)] = value;\n"
      "}\n";
  cl_program program = cl_test_build(context, device, source, "");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "put", &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem first = clCreateBuffer(context, CL_MEM_READ_WRITE, 16, NULL, &error);
  cl_mem second = clCreateBuffer(context, CL_MEM_READ_WRITE, 16, NULL, &error);
  int value = 41;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof first, &first));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));
  cl_kernel clone = clCloneKernel(kernel, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(clone != NULL && clone != kernel);
  value = 7;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof second, &second));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof value, &value));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel)); /* the clone lives on alone */
  cl_command_queue queue = cl_test_queue(context, device, 0);
  size_t global = 4;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &global, NULL,
                                          0, NULL, NULL));
  int out[4] = {0};
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, first, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  CHECK(out[0] == 41 && out[3] == 41);
  char name[16] = {0};
  CHECK_CL_SUCCESS(
      clGetKernelInfo(clone, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  CHECK(strcmp(name, "put") == 0);
  CHECK(clCloneKernel((cl_kernel)queue, &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL, error);
  clReleaseKernel(clone);
  clReleaseMemObject(first);
  clReleaseMemObject(second);
  clReleaseCommandQueue(queue);
  clReleaseProgram(program);
}

static int order[4];
static _Atomic int calls;

static void CL_CALLBACK destroyed(cl_context destroyed_context, void *data) {
  (void)destroyed_context;
  if (calls < 4) order[calls] = (int)(intptr_t)data;
  calls++;
}

/* Destructor callbacks run once the context goes, the newest first; the
 * timers read one clock, that of profiling. */
static void test_destructors_and_timers(void) {
  cl_context doomed = cl_test_context(device);
  for (int i = 1; i <= 3; i++) {
    CHECK_CL_SUCCESS(
        clSetContextDestructorCallback(doomed, destroyed, (void *)(intptr_t)i));
  }
  CHECK_CL(CL_INVALID_VALUE,
           clSetContextDestructorCallback(doomed, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clSetContextDestructorCallback((cl_context)device, destroyed, NULL));
  cl_command_queue queue = cl_test_queue(doomed, device, 0);
  CHECK_CL_SUCCESS(clReleaseContext(doomed));
  CHECK_INT(0, calls); /* the queue still holds it */
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  /* The queue lets go of the context on clmux's callback thread. */
  for (int wait = 0; calls < 3 && wait < 2000; wait++) usleep(1000);
  CHECK_INT(3, calls);
  CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);

  cl_ulong device_time = 0, host_time = 0, later = 0;
  CHECK_CL_SUCCESS(clGetDeviceAndHostTimer(device, &device_time, &host_time));
  CHECK(device_time > 0 && host_time > 0);
  CHECK_CL_SUCCESS(clGetHostTimer(device, &later));
  CHECK(later >= host_time);
  CHECK_CL(CL_INVALID_VALUE, clGetHostTimer(device, NULL));
  CHECK_CL(CL_INVALID_VALUE, clGetDeviceAndHostTimer(device, NULL, &later));
  CHECK_CL(CL_INVALID_DEVICE, clGetHostTimer((cl_device_id)context, &later));
  /* The same clock as profiling times. */
  cl_command_queue profiled =
      cl_test_queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_event marker = NULL;
  CHECK_CL_SUCCESS(clGetHostTimer(device, &host_time));
  CHECK_CL_SUCCESS(clEnqueueMarkerWithWaitList(profiled, 0, NULL, &marker));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &marker));
  CHECK_CL_SUCCESS(clGetHostTimer(device, &later));
  cl_ulong queued = 0;
  CHECK_CL_SUCCESS(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_QUEUED,
                                           sizeof queued, &queued, NULL));
  CHECK(queued >= host_time && queued <= later);
  clReleaseEvent(marker);
  clReleaseCommandQueue(profiled);
}

/* The device queries of OpenCL 2.0 to 3.0: what a 3.0 device with
 * clmux's features answers. */
static void test_device_queries(void) {
  cl_device_atomic_capabilities atomics = 0, fences = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
                                   sizeof atomics, &atomics, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
                                   sizeof fences, &fences, NULL));
  const cl_device_atomic_capabilities all =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  CHECK(atomics == all);
  CHECK(fences == (all | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));

  cl_name_version list[16];
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS,
                                   sizeof list, list, &size));
  CHECK_INT(4 * sizeof *list, size);
  CHECK(list[2].version == CL_MAKE_VERSION(1, 2, 0) &&
        list[3].version == CL_MAKE_VERSION(3, 0, 0) &&
        strcmp(list[3].name, "OpenCL C") == 0);
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES,
                                   sizeof list, list, &size));
  bool images = false, fp64 = false, seq_cst = false, generic = false;
  for (size_t i = 0; i < size / sizeof *list; i++) {
    CHECK(list[i].version == CL_MAKE_VERSION(3, 0, 0));
    images |= strcmp(list[i].name, "__opencl_c_images") == 0;
    fp64 |= strcmp(list[i].name, "__opencl_c_fp64") == 0;
    seq_cst |= strcmp(list[i].name, "__opencl_c_atomic_order_seq_cst") == 0;
    generic |= strcmp(list[i].name, "__opencl_c_generic_address_space") == 0;
  }
  CHECK(images && fp64 && seq_cst && generic);

  /* Optional features it lacks. */
  cl_bool flag = CL_TRUE;
  const cl_device_info flags[] = {CL_DEVICE_PIPE_SUPPORT};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
    flag = CL_TRUE;
    CHECK_CL_SUCCESS(
        clGetDeviceInfo(device, flags[i], sizeof flag, &flag, &size));
    CHECK(flag == CL_FALSE && size == sizeof flag);
  }
  cl_bitfield bits = 1;
  cl_uint count = 1;
  /* Sub-groups: cl_sub_groups tests them. */
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS,
                                   sizeof count, &count, NULL));
  CHECK(count >= 1);
  cl_command_queue_properties host = 0, queue = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                                   sizeof host, &host, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES,
                                   sizeof queue, &queue, NULL));
  CHECK(host == queue && host != 0);
  size_t multiple = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, NULL));
  CHECK(multiple >= 1);
  char passed[32] = "";
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
                                   sizeof passed, passed, NULL));
  CHECK(strcmp(passed, "v0000-01-01-00") == 0);
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, 0x10ff, sizeof bits, &bits, NULL));
}

/* A program without program-scope variables (cl_program_globals has
 * them), constructors or destructors. The queries leave the program usable
 * (each twice: a lock left held would hang the second). */
static void test_program_queries(void) {
  cl_program program = cl_test_build(
      context, device, "kernel void k(global int *p) { p[0] = 1; }", "");
  for (int round = 0; round < 2; round++) {
    size_t total = 1;
    CHECK_CL_SUCCESS(clGetProgramBuildInfo(
        program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
        sizeof total, &total, NULL));
    CHECK_INT(0, total);
    cl_bool present = CL_TRUE;
    CHECK_CL_SUCCESS(clGetProgramInfo(program,
                                      CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                                      sizeof present, &present, NULL));
    CHECK(present == CL_FALSE);
    CHECK_CL_SUCCESS(clGetProgramInfo(program,
                                      CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
                                      sizeof present, &present, NULL));
    CHECK(present == CL_FALSE);
  }
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &error);
  CHECK_CL_SUCCESS(error);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* What a kernel sees: __OPENCL_VERSION__ is the device's whatever
 * -cl-std says; OpenCL C 1.2 stays the default; -cl-std=CL3.0 defines the
 * feature macros of CL_DEVICE_OPENCL_C_FEATURES; OpenCL C 2.0 is not among
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS. */
static void test_opencl_c_versions(void) {
  static const char source[] =
      "kernel void k(global int *out) {\n"
      "  out[0] = __OPENCL_VERSION__;\n"
      "  out[1] = __OPENCL_C_VERSION__;\n"
      "#ifdef __opencl_c_fp64\n"
      "  out[2] = 1;\n"
      "#endif\n"
      "#ifdef __opencl_c_atomic_scope_all_devices\n"
      "  out[3] = 1;\n"
      "#endif\n"
      "#ifdef __opencl_c_generic_address_space\n"
      "  out[4] = 1;\n"
      "#endif\n"
      "}\n";
  cl_command_queue queue = cl_test_queue(context, device, 0);
  const int expected[2][5] = {{300, 120, 0, 0, 0}, {300, 300, 1, 1, 1}};
  const char *options[2] = {"", "-cl-std=CL3.0"};
  for (int i = 0; i < 2; i++) {
    cl_program program = cl_test_build(context, device, source, options[i]);
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "k", &error);
    CHECK_CL_SUCCESS(error);
    int out[5] = {0};
    cl_mem buffer =
        clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, &error);
    CHECK_CL_SUCCESS(error);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    CHECK_CL_SUCCESS(clEnqueueTask(queue, kernel, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out,
                                         out, 0, NULL, NULL));
    for (int j = 0; j < 5; j++) CHECK_INT(expected[i][j], out[j]);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  CHECK_CL(CL_INVALID_BUILD_OPTIONS,
           clBuildProgram(program, 0, NULL, "-cl-std=CL2.0", NULL, NULL));
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
}

/* OpenCL C 2.0's work-item functions, in a 3D NDRange with an offset:
 * linear ids count from 0 in x-fastest order, and the enqueued local size
 * is the local size (work-groups are uniform). */
static void test_linear_ids(void) {
  static const char source[] =
      "kernel void k(global uint *out) {\n"
      "  size_t g = get_global_linear_id();\n"
      "  out[3 * g] = get_local_linear_id();\n"
      "  out[3 * g + 1] = (get_global_id(2) - get_global_offset(2)) * 100 +\n"
      "                   (get_global_id(1) - get_global_offset(1)) * 10 +\n"
      "                   get_global_id(0) - get_global_offset(0);\n"
      "  out[3 * g + 2] = get_enqueued_local_size(0) * 100 +\n"
      "                   get_enqueued_local_size(1) * 10 +\n"
      "                   get_enqueued_local_size(2) + "
      "get_enqueued_local_size(3);\n"
      "}\n";
  const size_t offset[3] = {3, 1, 7}, global[3] = {8, 6, 4},
               local[3] = {4, 3, 2};
  enum { ITEMS = 8 * 6 * 4 };
  cl_program program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &error);
  cl_mem out = cl_test_buffer(context, 3 * ITEMS * sizeof(cl_uint), NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  cl_command_queue queue = cl_test_queue(context, device, 0);
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 3, offset, global,
                                          local, 0, NULL, NULL));
  static cl_uint values[3 * ITEMS];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof values,
                                       values, 0, NULL, NULL));
  bool right = true;
  for (size_t z = 0; z < 4; z++) {
    for (size_t y = 0; y < 6; y++) {
      for (size_t x = 0; x < 8; x++) {
        size_t g = (z * 6 + y) * 8 + x;
        size_t l = ((z % 2) * 3 + y % 3) * 4 + x % 4;
        right &= values[3 * g] == l &&
                 values[3 * g + 1] == z * 100 + y * 10 + x &&
                 values[3 * g + 2] == 4 * 100 + 3 * 10 + 2 + 1;
      }
    }
  }
  CHECK(right);
  /* 1D, the local size clmux's choice (rows of work-groups). */
  size_t one_offset = 5, items = ITEMS, chosen = 0;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, &one_offset, &items,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof values,
                                       values, 0, NULL, NULL));
  chosen = values[2] / 100;
  right = chosen > 0 && ITEMS % chosen == 0;
  for (size_t x = 0; x < ITEMS && right; x++) {
    right = values[3 * x] == x % chosen && values[3 * x + 1] == x &&
            values[3 * x + 2] == chosen * 100 + 10 + 1 + 1;
  }
  CHECK(right);
  clReleaseCommandQueue(queue);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* The device's OpenCL version as major * 10 + minor. */
static int device_version(void) {
  char version[64] = "";
  clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
  int major = 0, minor = 0;
  REQUIRE(sscanf(version, "OpenCL %d.%d", &major, &minor) == 2);
  return major * 10 + minor;
}

/* What changed with the version: an NDRange of no work-items (2.1: a
 * command that only completes) and a 2D image over a buffer (2.0 on:
 * cl_khr_image2d_from_buffer, cl_image_from_buffer has the rest). */
static void test_version_dependent(void) {
  int version = device_version();
  cl_program program = cl_test_build(
      context, device, "kernel void k(global int *p) { p[0] = 7; }", "");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &error);
  int value = 1;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof value,
                                 &value, &error);
  clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  size_t none = 0;
  cl_event done = NULL;
  error = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &none, NULL, 0, NULL,
                                 &done);
  if (version >= 21) {
    CHECK_CL_SUCCESS(error);
    CHECK_CL_SUCCESS(clWaitForEvents(1, &done));
    cl_command_type type = 0;
    clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    CHECK_INT(CL_COMMAND_NDRANGE_KERNEL, type);
    clReleaseEvent(done);
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0,
                                         sizeof value, &value, 0, NULL, NULL));
    CHECK_INT(1, value); /* nothing ran */
  } else {
    CHECK_CL(CL_INVALID_GLOBAL_WORK_SIZE, error);
  }
  cl_image_format format = {CL_R, CL_UNSIGNED_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = 2,
                        .image_height = 2,
                        .buffer = buffer};
  cl_mem image =
      clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &error);
  CHECK_CL(version >= 20 ? CL_SUCCESS : CL_INVALID_IMAGE_DESCRIPTOR, error);
  CHECK((image != NULL) == (version >= 20));
  if (image) clReleaseMemObject(image);
  clReleaseCommandQueue(queue);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  test_device_queries();
  test_program_queries();
  test_opencl_c_versions();
  test_linear_ids();
  test_version_dependent();
  test_made_from_properties();
  test_unsupported();
  test_clone();
  test_destructors_and_timers();
  clReleaseContext(context);
  return check_finish();
}

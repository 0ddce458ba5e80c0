/* clmux: kernels through the ICD loader — creation from built-in programs,
 * every info query, argument info of each built-in kernel, every
 * clSetKernelArg error, kernels-in-program, reference counts. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "cl_test.h"

static const char all_builtins[] =
    "copy_buffer;fill_buffer;vector_add;record_ids;local_reduce;empty";

/* What each built-in kernel's declaration says about its arguments. */
typedef struct expected_arg {
  const char *name;
  const char *type_name;
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_type_qualifier type_qualifier;
} expected_arg;

static const struct expected_kernel {
  const char *name;
  cl_uint num_args;
  expected_arg args[3];
} expected_kernels[] = {
    {"copy_buffer",
     2,
     {{"src", "uchar*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"dst", "uchar*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE}}},
    {"fill_buffer",
     2,
     {{"dst", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"value", "uint", CL_KERNEL_ARG_ADDRESS_PRIVATE,
       CL_KERNEL_ARG_TYPE_NONE}}},
    {"vector_add",
     3,
     {{"a", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"b", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"c", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE}}},
    {"record_ids",
     2,
     {{"ids", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"counts", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
       CL_KERNEL_ARG_TYPE_NONE}}},
    {"local_reduce",
     3,
     {{"in", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"out", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"scratch", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL,
       CL_KERNEL_ARG_TYPE_NONE}}},
    {"empty", 0, {{0}}},
};

#define NUM_KERNELS (sizeof expected_kernels / sizeof expected_kernels[0])

static cl_program builtin_program(cl_context context, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBuiltInKernels(
      context, 1, &device, all_builtins, &error);
  REQUIRE(error == CL_SUCCESS && program != NULL);
  return program;
}

static void test_info(cl_program program, cl_context context,
                      cl_device_id device) {
  for (size_t k = 0; k < NUM_KERNELS; k++) {
    const struct expected_kernel *want = &expected_kernels[k];
    cl_int error = CL_INVALID_VALUE;
    cl_kernel kernel = clCreateKernel(program, want->name, &error);
    CHECK_CL_SUCCESS(error);
    REQUIRE(kernel != NULL);

    char text[128] = {0};
    size_t size = 0;
    CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME,
                                     sizeof text, text, &size));
    CHECK(strcmp(text, want->name) == 0);
    CHECK_INT(strlen(want->name) + 1, size);
    cl_uint num_args = 99;
    CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS,
                                     sizeof num_args, &num_args, &size));
    CHECK_INT(want->num_args, num_args);
    CHECK_INT(sizeof(cl_uint), size);
    cl_uint refs = 0;
    CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT,
                                     sizeof refs, &refs, NULL));
    CHECK_INT(1, refs);
    cl_context got_context = NULL;
    CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_CONTEXT,
                                     sizeof got_context, &got_context, &size));
    CHECK(got_context == context);
    CHECK_INT(sizeof(cl_context), size);
    cl_program got_program = NULL;
    CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM,
                                     sizeof got_program, &got_program, NULL));
    CHECK(got_program == program);
    CHECK_CL_SUCCESS(
        clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, sizeof text, text, &size));
    CHECK_INT(1, size);
    CHECK(text[0] == '\0');
    CHECK_CL(CL_INVALID_VALUE,
             clGetKernelInfo(kernel, 0x7777, sizeof text, text, NULL));
    CHECK_CL(CL_INVALID_VALUE,
             clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 2, text, NULL));

    /* Argument info of every argument. */
    for (cl_uint a = 0; a < want->num_args; a++) {
      const expected_arg *arg = &want->args[a];
      CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME,
                                          sizeof text, text, &size));
      CHECK(strcmp(text, arg->name) == 0);
      CHECK_INT(strlen(arg->name) + 1, size);
      CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_NAME,
                                          sizeof text, text, &size));
      CHECK(strcmp(text, arg->type_name) == 0);
      CHECK_INT(strlen(arg->type_name) + 1, size);
      cl_kernel_arg_address_qualifier address = 0;
      CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, a,
                                          CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                          sizeof address, &address, &size));
      CHECK_INT(arg->address, address);
      CHECK_INT(sizeof address, size);
      cl_kernel_arg_access_qualifier access = 0;
      CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, a,
                                          CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                          sizeof access, &access, &size));
      CHECK_INT(CL_KERNEL_ARG_ACCESS_NONE, access);
      CHECK_INT(sizeof access, size);
      cl_kernel_arg_type_qualifier qualifier = 99;
      CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, a,
                                          CL_KERNEL_ARG_TYPE_QUALIFIER,
                                          sizeof qualifier, &qualifier, &size));
      CHECK_INT(arg->type_qualifier, qualifier);
      CHECK_INT(sizeof qualifier, size);
      CHECK_CL(CL_INVALID_VALUE,
               clGetKernelArgInfo(kernel, a, 0x7777, sizeof text, text, NULL));
      CHECK_CL(CL_INVALID_VALUE,
               clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME, 1, text,
                                  NULL));
    }
    CHECK_CL(CL_INVALID_ARG_INDEX,
             clGetKernelArgInfo(kernel, want->num_args, CL_KERNEL_ARG_NAME,
                                sizeof text, text, NULL));

    /* Work-group info, with the device given and with NULL. */
    size_t max_group = 0;
    CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                     sizeof max_group, &max_group, NULL));
    cl_device_id devices[2] = {device, NULL};
    for (int d = 0; d < 2; d++) {
      size_t group = 0;
      CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, devices[d],
                                                CL_KERNEL_WORK_GROUP_SIZE,
                                                sizeof group, &group, &size));
      CHECK_INT(max_group, group);
      CHECK_INT(sizeof group, size);
      size_t compile[3] = {9, 9, 9};
      CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(
          kernel, devices[d], CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
          sizeof compile, compile, &size));
      CHECK(compile[0] == 0 && compile[1] == 0 && compile[2] == 0);
      CHECK_INT(sizeof compile, size);
      cl_ulong local = 99;
      CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, devices[d],
                                                CL_KERNEL_LOCAL_MEM_SIZE,
                                                sizeof local, &local, &size));
      CHECK_INT(0, local);
      CHECK_INT(sizeof local, size);
      size_t multiple = 0;
      CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(
          kernel, devices[d], CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
          sizeof multiple, &multiple, &size));
      CHECK(multiple >= 1 && multiple <= group);
      CHECK_INT(sizeof multiple, size);
      cl_ulong private_size = 99;
      CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(
          kernel, devices[d], CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_size,
          &private_size, &size));
      CHECK_INT(0, private_size);
      CHECK_INT(sizeof private_size, size);
      size_t global[3];
      CHECK_CL(CL_INVALID_VALUE,
               clGetKernelWorkGroupInfo(kernel, devices[d],
                                        CL_KERNEL_GLOBAL_WORK_SIZE,
                                        sizeof global, global, NULL));
      CHECK_CL(CL_INVALID_VALUE,
               clGetKernelWorkGroupInfo(kernel, devices[d], 0x7777,
                                        sizeof global, global, NULL));
      CHECK_CL(CL_INVALID_VALUE,
               clGetKernelWorkGroupInfo(kernel, devices[d],
                                        CL_KERNEL_WORK_GROUP_SIZE, 1, global,
                                        NULL));
    }
    size_t group = 0;
    CHECK_CL(CL_INVALID_DEVICE,
             clGetKernelWorkGroupInfo(kernel, (cl_device_id)context,
                                      CL_KERNEL_WORK_GROUP_SIZE, sizeof group,
                                      &group, NULL));
    CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  }
}

static void test_create_errors(cl_program program, cl_context context) {
  cl_int error = CL_SUCCESS;
  CHECK(clCreateKernel(program, "no_such_kernel", &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL_NAME, error);
  CHECK(clCreateKernel(program, "", &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL_NAME, error);
  CHECK(clCreateKernel(program, "vector_add;", &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL_NAME, error);
  CHECK(clCreateKernel(program, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateKernel((cl_program)context, "empty", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM, error);
  CHECK(clCreateKernel(program, "nope", NULL) == NULL);

  /* A kernel the device has but the program was not created with. */
  cl_device_id device = NULL;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_DEVICES,
                                    sizeof device, &device, NULL));
  cl_program small =
      clCreateProgramWithBuiltInKernels(context, 1, &device, "empty", &error);
  CHECK_CL_SUCCESS(error);
  CHECK(clCreateKernel(small, "vector_add", &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL_NAME, error);
  CHECK_CL_SUCCESS(clReleaseProgram(small));

  /* A source program is never built. */
  const char *source = "kernel void k(void) {}";
  cl_program unbuilt =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(clCreateKernel(unbuilt, "k", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  cl_uint count = 0;
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clCreateKernelsInProgram(unbuilt, 0, NULL, &count));
  CHECK_CL_SUCCESS(clReleaseProgram(unbuilt));

  CHECK_CL(CL_INVALID_KERNEL, clRetainKernel((cl_kernel)context));
  CHECK_CL(CL_INVALID_KERNEL, clReleaseKernel((cl_kernel)context));
  CHECK_CL(CL_INVALID_KERNEL,
           clGetKernelInfo((cl_kernel)context, CL_KERNEL_NUM_ARGS,
                           sizeof count, &count, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clGetKernelArgInfo((cl_kernel)context, 0, CL_KERNEL_ARG_NAME, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clGetKernelWorkGroupInfo((cl_kernel)context, NULL,
                                    CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_KERNEL,
           clSetKernelArg((cl_kernel)context, 0, sizeof count, &count));
}

static atomic_int destructor_calls;

static void CL_CALLBACK count_destructor(cl_mem mem, void *user_data) {
  (void)mem;
  (void)user_data;
  atomic_fetch_add(&destructor_calls, 1);
}

static void test_set_arg(cl_program program, cl_context context,
                         cl_device_id device) {
  cl_int error = CL_SUCCESS;
  cl_kernel fill = clCreateKernel(program, "fill_buffer", &error);
  cl_kernel reduce = clCreateKernel(program, "local_reduce", &error);
  cl_kernel empty = clCreateKernel(program, "empty", &error);
  REQUIRE(fill && reduce && empty);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(buffer != NULL);

  /* Buffers. */
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof buffer, &buffer));
  CHECK_CL(CL_INVALID_ARG_SIZE,
           clSetKernelArg(fill, 0, sizeof buffer - 1, &buffer));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(fill, 0, 0, &buffer));
  cl_mem not_mem = (cl_mem)context;
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clSetKernelArg(fill, 0, sizeof not_mem, &not_mem));
  cl_mem null_mem = NULL;
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof null_mem, &null_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof null_mem, NULL));
  /* A buffer of another context. */
  cl_context other = cl_test_context(device);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clSetKernelArg(fill, 0, sizeof foreign, &foreign));
  CHECK_CL_SUCCESS(clReleaseMemObject(foreign));
  CHECK_CL_SUCCESS(clReleaseContext(other));
  /* An image given to a buffer argument. */
  cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 4;
  cl_mem image =
      clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &error);
  if (image) {
    CHECK_CL(CL_INVALID_MEM_OBJECT,
             clSetKernelArg(fill, 0, sizeof image, &image));
    CHECK_CL_SUCCESS(clReleaseMemObject(image));
  }

  /* Values. */
  cl_uint value = 7;
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 1, sizeof value, &value));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(fill, 1, 8, &value));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(fill, 1, 2, &value));
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(fill, 1, sizeof value, NULL));
  CHECK_CL(CL_INVALID_ARG_INDEX, clSetKernelArg(fill, 2, sizeof value, &value));
  CHECK_CL(CL_INVALID_ARG_INDEX,
           clSetKernelArg(fill, 0xffffffffu, sizeof value, &value));
  CHECK_CL(CL_INVALID_ARG_INDEX,
           clSetKernelArg(empty, 0, sizeof value, &value));

  /* Local memory: a size and no value. */
  cl_ulong local = 0;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(reduce, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL));
  CHECK_INT(0, local);
  CHECK_CL_SUCCESS(clSetKernelArg(reduce, 2, 256, NULL));
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(reduce, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL));
  CHECK_INT(256, local);
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(reduce, 2, 256, &value));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(reduce, 2, 0, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(reduce, 2, 64, NULL));
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(reduce, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL));
  CHECK_INT(64, local);
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(reduce, 0, 4, &buffer));

  /* A kernel does not keep a buffer set as its argument alive: the user's
   * last release destroys it at once and runs its destructor callback
   * (CTS api/retain_mem_object_set_kernel_arg spins until it runs);
   * releasing the kernel afterwards touches nothing freed (ASan). */
  destructor_calls = 0;
  CHECK_CL_SUCCESS(
      clSetMemObjectDestructorCallback(buffer, count_destructor, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(reduce, 0, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(reduce, 1, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
  CHECK_INT(1, atomic_load(&destructor_calls));
  CHECK_CL_SUCCESS(clSetKernelArg(fill, 0, sizeof null_mem, &null_mem));
  CHECK_CL_SUCCESS(clReleaseKernel(reduce));

  CHECK_CL_SUCCESS(clReleaseKernel(fill));
  CHECK_CL_SUCCESS(clReleaseKernel(empty));
}

static void test_kernels_in_program(cl_program program) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clCreateKernelsInProgram(program, 0, NULL, &count));
  CHECK_INT(NUM_KERNELS, count);
  cl_kernel kernels[NUM_KERNELS + 1] = {0};
  CHECK_CL(CL_INVALID_VALUE,
           clCreateKernelsInProgram(program, NUM_KERNELS - 1, kernels, NULL));
  CHECK(kernels[0] == NULL);
  count = 0;
  CHECK_CL_SUCCESS(
      clCreateKernelsInProgram(program, NUM_KERNELS + 1, kernels, &count));
  CHECK_INT(NUM_KERNELS, count);
  for (size_t i = 0; i < NUM_KERNELS; i++) {
    char name[64] = {0};
    CHECK_CL_SUCCESS(clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME,
                                     sizeof name, name, NULL));
    CHECK(strcmp(name, expected_kernels[i].name) == 0);
  }
  CHECK(kernels[NUM_KERNELS] == NULL);
  /* Kernels are attached: OpenCL forbids building the program now. */
  CHECK_CL(CL_INVALID_OPERATION,
           clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(CL_INVALID_PROGRAM,
           clCreateKernelsInProgram((cl_program)kernels[0], 0, NULL, &count));
  for (size_t i = 0; i < NUM_KERNELS; i++) {
    CHECK_CL_SUCCESS(clReleaseKernel(kernels[i]));
  }
}

static void test_refcounts(cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "empty", &error);
  CHECK_CL_SUCCESS(error);
  cl_uint refs = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                                    sizeof refs, &refs, NULL));
  CHECK_INT(1, refs); /* the kernel's hold is not the user's */
  CHECK_CL_SUCCESS(clRetainKernel(kernel));
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT,
                                   sizeof refs, &refs, NULL));
  CHECK_INT(2, refs);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT,
                                   sizeof refs, &refs, NULL));
  CHECK_INT(1, refs);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

/* clSetKernelArg from many threads at once on one kernel. */
typedef struct setter {
  cl_kernel kernel;
  cl_mem buffer;
  int failures;
} setter;

static void *set_many(void *data) {
  setter *s = data;
  for (int i = 0; i < 2000; i++) {
    cl_uint value = (cl_uint)i;
    cl_mem mem = (i & 1) ? s->buffer : NULL;
    if (clSetKernelArg(s->kernel, 1, sizeof value, &value) != CL_SUCCESS ||
        clSetKernelArg(s->kernel, 0, sizeof mem, &mem) != CL_SUCCESS) {
      s->failures++;
    }
  }
  return NULL;
}

static void test_threads(cl_program program, cl_context context) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "fill_buffer", &error);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  REQUIRE(kernel && buffer);
  setter setters[4];
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) {
    setters[i] = (setter){kernel, buffer, 0};
    REQUIRE(pthread_create(&threads[i], NULL, set_many, &setters[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(threads[i], NULL);
    CHECK_INT(0, setters[i].failures);
  }
  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_program program = builtin_program(context, device);
  test_info(program, context, device);
  test_create_errors(program, context);
  test_set_arg(program, context, device);
  test_kernels_in_program(program);
  test_refcounts(program);
  test_threads(program, context);
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

/* clmux: compiled kernels' info through the loader — clGetKernelInfo
 * (attributes included), clGetKernelArgInfo with and without
 * -cl-kernel-arg-info, clGetKernelWorkGroupInfo, clSetKernelArg's checks
 * from the argument metadata, clCreateKernelsInProgram, and a kernel
 * keeping its program alive. */
#include "cl_test.h"

static cl_device_id device;
static cl_context context;

static const char source[] =
    "typedef struct { int a; float b; } pair;\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void described(global const uint *restrict in,\n"
    "                      constant float4 *table, local int *scratch,\n"
    "                      volatile global int *flags, float4 v, pair p,\n"
    "                      const int n) {\n"
    "  scratch[get_local_id(0)] = (int)in[0] + n + p.a;\n"
    "  flags[0] = scratch[0] + (int)(table[0].x + v.y + p.b);\n"
    "}\n"
    "__attribute__((work_group_size_hint(8, 4, 1)))\n"
    "__attribute__((vec_type_hint(float4)))\n"
    "kernel void hinted(global int *out) { out[0] = 1; }\n"
    "kernel void images(read_only image2d_t img, sampler_t s,\n"
    "                   global float4 *out) {\n"
    "  out[0] = read_imagef(img, s, (int2)(0, 0));\n"
    "}\n";

typedef struct expected {
  const char *name, *type_name;
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier qualifiers;
} expected;

static const expected described_args[] = {
    {"in", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
    {"table", "float4*", CL_KERNEL_ARG_ADDRESS_CONSTANT,
     CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_CONST},
    {"scratch", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_NONE},
    {"flags", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_VOLATILE},
    {"v", "float4", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_NONE},
    {"p", "pair", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_NONE},
    {"n", "int", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE,
     CL_KERNEL_ARG_TYPE_NONE},
};

static cl_kernel kernel_of(cl_program program, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(kernel);
  return kernel;
}

static void test_kernel_info(cl_program program) {
  cl_kernel kernel = kernel_of(program, "described");
  char text[256] = {0};
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME,
                                   sizeof text, text, &size));
  CHECK(strcmp(text, "described") == 0);
  CHECK_INT(strlen("described") + 1, size);
  cl_uint num_args = 0;
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS,
                                   sizeof num_args, &num_args, NULL));
  CHECK_INT(7, num_args);
  CHECK_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, sizeof text,
                                   text, &size));
  CHECK(strstr(text, "reqd_work_group_size(16,1,1)") != NULL);
  CHECK_INT(strlen(text) + 1, size);
  cl_program got = NULL;
  CHECK_CL_SUCCESS(
      clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof got, &got, NULL));
  CHECK(got == program);

  cl_kernel hinted = kernel_of(program, "hinted");
  CHECK_CL_SUCCESS(clGetKernelInfo(hinted, CL_KERNEL_ATTRIBUTES, sizeof text,
                                   text, NULL));
  CHECK(strstr(text, "work_group_size_hint(8,4,1)") != NULL);
  CHECK(strstr(text, "vec_type_hint(float4)") != NULL);

  /* Work-group info. */
  size_t compiled[3] = {0}, max_group = 0, multiple = 0;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof compiled, compiled, &size));
  CHECK(compiled[0] == 16 && compiled[1] == 1 && compiled[2] == 1);
  CHECK_INT(sizeof compiled, size);
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(hinted, device,
                                            CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof compiled, compiled, NULL));
  CHECK(compiled[0] == 0 && compiled[1] == 0 && compiled[2] == 0);
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, NULL,
                                            CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof max_group, &max_group,
                                            NULL));
  size_t device_max = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                   sizeof device_max, &device_max, NULL));
  CHECK(max_group >= 16 && max_group <= device_max);
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(
      kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
      sizeof multiple, &multiple, NULL));
  cl_uint float_width = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                                   sizeof float_width, &float_width, NULL));
  CHECK(multiple >= 1 && multiple <= max_group);
  CHECK_INT(float_width, multiple);
  cl_ulong local = 99, private_size = 99;
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL));
  cl_ulong before = local;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, 1000, NULL));
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL));
  CHECK_INT(before + 1000, local);
  CHECK_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device,
                                            CL_KERNEL_PRIVATE_MEM_SIZE,
                                            sizeof private_size,
                                            &private_size, NULL));
  size_t global[3];
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_GLOBAL_WORK_SIZE,
                                    sizeof global, global, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
                                    1, &max_group, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(hinted));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

static void test_arg_info(cl_program with, cl_program without) {
  cl_kernel kernel = kernel_of(with, "described");
  char text[64];
  size_t size = 0;
  for (cl_uint i = 0; i < 7; i++) {
    const expected *want = &described_args[i];
    CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_NAME,
                                        sizeof text, text, &size));
    CHECK(strcmp(text, want->name) == 0);
    CHECK_INT(strlen(want->name) + 1, size);
    CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME,
                                        sizeof text, text, &size));
    if (strcmp(text, want->type_name) != 0) {
      fprintf(stderr, "arg %u: type %s, expected %s\n", i, text,
              want->type_name);
    }
    CHECK(strcmp(text, want->type_name) == 0);
    cl_kernel_arg_address_qualifier address = 0;
    CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, i,
                                        CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                        sizeof address, &address, &size));
    CHECK_INT(want->address, address);
    CHECK_INT(sizeof address, size);
    cl_kernel_arg_access_qualifier access = 0;
    CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, i,
                                        CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                        sizeof access, &access, NULL));
    CHECK_INT(want->access, access);
    cl_kernel_arg_type_qualifier qualifiers = 99;
    CHECK_CL_SUCCESS(clGetKernelArgInfo(kernel, i,
                                        CL_KERNEL_ARG_TYPE_QUALIFIER,
                                        sizeof qualifiers, &qualifiers, NULL));
    CHECK_INT(want->qualifiers, qualifiers);
  }
  CHECK_CL(CL_INVALID_ARG_INDEX,
           clGetKernelArgInfo(kernel, 7, CL_KERNEL_ARG_NAME, sizeof text, text,
                              NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelArgInfo(kernel, 0, 0x7777, sizeof text, text, NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));

  cl_kernel images = kernel_of(with, "images");
  cl_kernel_arg_access_qualifier access = 0;
  CHECK_CL_SUCCESS(clGetKernelArgInfo(images, 0,
                                      CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                      sizeof access, &access, NULL));
  CHECK_INT(CL_KERNEL_ARG_ACCESS_READ_ONLY, access);
  CHECK_CL_SUCCESS(clGetKernelArgInfo(images, 1, CL_KERNEL_ARG_TYPE_NAME,
                                      sizeof text, text, NULL));
  CHECK(strcmp(text, "sampler_t") == 0);
  CHECK_CL_SUCCESS(clReleaseKernel(images));

  /* Without -cl-kernel-arg-info there is nothing to tell. */
  kernel = kernel_of(without, "described");
  CHECK_CL(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
           clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof text, text,
                              NULL));
  CHECK_CL(CL_INVALID_ARG_INDEX,
           clGetKernelArgInfo(kernel, 9, CL_KERNEL_ARG_NAME, sizeof text, text,
                              NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
}

static void test_set_arg(cl_program program) {
  cl_kernel kernel = kernel_of(program, "described");
  cl_int error = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_mem image =
      clCreateImage2D(context, CL_MEM_READ_ONLY, &format, 4, 4, 0, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE,
                                       CL_FILTER_NEAREST, &error);
  CHECK_CL_SUCCESS(error);
  /* Global and constant pointers: a buffer, or NULL. */
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof mem, &mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof mem, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof mem, &mem));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, 4, &mem));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clSetKernelArg(kernel, 0, sizeof image, &image));
  cl_mem bogus = (cl_mem)context;
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clSetKernelArg(kernel, 3, sizeof bogus, &bogus));
  /* Local: a size and no value. */
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 2, 16, &mem));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, 0, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, 16, NULL));
  /* Values: exactly their size, never NULL. */
  cl_float4 v = {{1, 2, 3, 4}};
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 4, sizeof v, &v));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 4, 12, &v));
  CHECK_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 4, sizeof v, NULL));
  struct {
    cl_int a;
    cl_float b;
  } p = {1, 2.0f};
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 5, sizeof p, &p));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 5, 4, &p));
  cl_int n = 3;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 6, sizeof n, &n));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 6, 8, &n));
  CHECK_CL(CL_INVALID_ARG_INDEX, clSetKernelArg(kernel, 7, sizeof n, &n));
  CHECK_CL(CL_INVALID_KERNEL, clSetKernelArg(NULL, 0, sizeof n, &n));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));

  /* Images and samplers. */
  kernel = kernel_of(program, "images");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(kernel, 0, sizeof mem, &mem));
  CHECK_CL(CL_INVALID_SAMPLER, clSetKernelArg(kernel, 1, sizeof mem, &mem));
  CHECK_CL(CL_INVALID_SAMPLER, clSetKernelArg(kernel, 1, sizeof sampler, NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof sampler, &sampler));
  CHECK_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 1, 4, &sampler));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  clReleaseSampler(sampler);
  clReleaseMemObject(image);
  clReleaseMemObject(mem);
}

static void test_kernels_in_program(cl_program program) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clCreateKernelsInProgram(program, 0, NULL, &count));
  CHECK_INT(3, count);
  cl_kernel kernels[3] = {NULL};
  CHECK_CL(CL_INVALID_VALUE,
           clCreateKernelsInProgram(program, 2, kernels, NULL));
  CHECK_CL_SUCCESS(clCreateKernelsInProgram(program, 3, kernels, &count));
  const char *names[3] = {"described", "hinted", "images"};
  for (int i = 0; i < 3; i++) {
    char name[32] = {0};
    CHECK_CL_SUCCESS(clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME,
                                     sizeof name, name, NULL));
    CHECK(strcmp(name, names[i]) == 0);
  }
  /* Attached kernels keep the program from rebuilding... */
  CHECK_CL(CL_INVALID_OPERATION,
           clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  /* ... and alive: the program outlives the user's release. */
  CHECK_CL_SUCCESS(clRetainProgram(program));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  for (int i = 0; i < 3; i++) CHECK_CL_SUCCESS(clReleaseKernel(kernels[i]));
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  cl_program with =
      cl_test_build(context, device, source, "-cl-kernel-arg-info");
  cl_program without = cl_test_build(context, device, source, NULL);
  test_kernel_info(without);
  test_arg_info(with, without);
  test_set_arg(without);
  test_kernels_in_program(without);

  /* A kernel holds its program. */
  cl_kernel kernel = clCreateKernel(with, "hinted", NULL);
  REQUIRE(kernel);
  CHECK_CL_SUCCESS(clReleaseProgram(with));
  char name[16] = {0};
  CHECK_CL_SUCCESS(
      clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  CHECK(strcmp(name, "hinted") == 0);
  size_t count = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(with, CL_PROGRAM_NUM_KERNELS, sizeof count,
                                    &count, NULL));
  CHECK_INT(3, count);
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));

  CHECK_CL_SUCCESS(clReleaseProgram(without));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

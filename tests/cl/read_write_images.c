/* Read-write images (OpenCL C 2.0 on, __opencl_c_read_write_images)
 * through the loader: kernels that read a pixel of a read_write image,
 * change it and write it back, in 1D, 1D buffer, 1D array, 2D, 2D array
 * and 3D images of several formats; a work-item reading what another
 * wrote after a barrier and an image fence; the queries on read_write
 * images; the formats, the argument limit, and the errors of
 * clSetKernelArg and of OpenCL C 1.2. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    "kernel void twice_1d(read_write image1d_t im) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imagef(im, x, read_imagef(im, x) * 2.0f + 1.0f);\n"
    "}\n"
    "kernel void twice_1db(read_write image1d_buffer_t im) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imagef(im, x, read_imagef(im, x) * 2.0f + 1.0f);\n"
    "}\n"
    "kernel void twice_1da(read_write image1d_array_t im) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(im, c, read_imagef(im, c) * 2.0f + 1.0f);\n"
    "}\n"
    "kernel void twice_2d(read_write image2d_t im) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(im, c, read_imagef(im, c) * 2.0f + 1.0f);\n"
    "}\n"
    "kernel void twice_2da(read_write image2d_array_t im) {\n"
    "  int4 c = (int4)(get_global_id(0), get_global_id(1), "
    "get_global_id(2), 0);\n"
    "  write_imagef(im, c, read_imagef(im, c) * 2.0f + 1.0f);\n"
    "}\n"
    "kernel void twice_3d(read_write image3d_t im) {\n"
    "  int4 c = (int4)(get_global_id(0), get_global_id(1), "
    "get_global_id(2), 0);\n"
    "  write_imagef(im, c, read_imagef(im, c) * 2.0f + 1.0f);\n"
    "}\n"
    /* Integer formats, and the queries. */
    "kernel void add_ui(read_write image2d_t im, global int *sizes) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imageui(im, c, read_imageui(im, c) + (uint4)(1, 2, 3, 4));\n"
    "  if (c.x == 0 && c.y == 0) {\n"
    "    sizes[0] = get_image_width(im);\n"
    "    sizes[1] = get_image_height(im);\n"
    "    sizes[2] = get_image_dim(im).x;\n"
    "    sizes[3] = get_image_channel_order(im);\n"
    "    sizes[4] = get_image_channel_data_type(im);\n"
    "  }\n"
    "}\n"
    /* Each work-item of a row writes its pixel; after the fence and the
     * barrier it reads its neighbour's. */
    "kernel void rotate(read_write image2d_t im) {\n"
    "  int x = get_local_id(0), y = get_global_id(1);\n"
    "  int n = get_local_size(0);\n"
    "  write_imagei(im, (int2)(x, y), (int4)(x, y, x * y, 7));\n"
    "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,\n"
    "                         memory_scope_work_group);\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  int4 next = read_imagei(im, (int2)((x + 1) % n, y));\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  write_imagei(im, (int2)(x, y), next);\n"
    "}\n";

static cl_program program;

static cl_kernel kernel_named(const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  return kernel;
}

static cl_mem image_of(cl_mem_object_type type, const cl_image_format *format,
                       size_t width, size_t height, size_t depth,
                       cl_mem buffer, const void *pixels) {
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = type;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_array_size = type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? height
                          : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? depth
                                                                : 0;
  desc.buffer = buffer;
  cl_int error = CL_SUCCESS;
  cl_mem_flags flags = CL_MEM_READ_WRITE;
  if (pixels && !buffer) flags |= CL_MEM_COPY_HOST_PTR;
  cl_mem image = clCreateImage(context, flags, format, &desc,
                               buffer ? NULL : (void *)pixels, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(image);
  return image;
}

/* twice_<suffix> over an RGBA float image of each type: every channel
 * becomes 2v + 1. */
static void check_twice(void) {
  static const struct {
    const char *kernel;
    cl_mem_object_type type;
    cl_uint dims;
    size_t size[3];
  } cases[] = {
      {"twice_1d", CL_MEM_OBJECT_IMAGE1D, 1, {37, 1, 1}},
      {"twice_1db", CL_MEM_OBJECT_IMAGE1D_BUFFER, 1, {41, 1, 1}},
      {"twice_1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, 2, {13, 3, 1}},
      {"twice_2d", CL_MEM_OBJECT_IMAGE2D, 2, {19, 7, 1}},
      {"twice_2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, {9, 5, 3}},
      {"twice_3d", CL_MEM_OBJECT_IMAGE3D, 3, {6, 5, 4}},
  };
  const cl_image_format format = {CL_RGBA, CL_FLOAT};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    size_t pixels = cases[c].size[0] * cases[c].size[1] * cases[c].size[2];
    float *in = malloc(pixels * 4 * sizeof *in);
    float *out = malloc(pixels * 4 * sizeof *out);
    REQUIRE(in && out);
    for (size_t i = 0; i < pixels * 4; i++) in[i] = (float)i * 0.25f - 3.0f;
    cl_mem buffer = NULL;
    if (cases[c].type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      buffer = cl_test_buffer(context, pixels * 4 * sizeof *in, in);
    }
    cl_mem image = image_of(cases[c].type, &format, cases[c].size[0],
                            cases[c].size[1], cases[c].size[2], buffer, in);
    cl_kernel kernel = kernel_named(cases[c].kernel);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, cases[c].dims, NULL,
                                            cases[c].size, NULL, 0, NULL,
                                            NULL));
    size_t origin[3] = {0, 0, 0};
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin,
                                        cases[c].size, 0, 0, out, 0, NULL,
                                        NULL));
    size_t bad = 0;
    for (size_t i = 0; i < pixels * 4; i++) bad += out[i] != in[i] * 2 + 1;
    if (bad) fprintf(stderr, "%s: %zu wrong\n", cases[c].kernel, bad);
    CHECK(bad == 0);
    clReleaseKernel(kernel);
    clReleaseMemObject(image);
    if (buffer) clReleaseMemObject(buffer);
    free(in);
    free(out);
  }
}

static void check_integers_and_queries(void) {
  enum { W = 11, H = 6 };
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_uchar in[W * H * 4], out[W * H * 4];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (cl_uchar)(i * 7);
  cl_mem image = image_of(CL_MEM_OBJECT_IMAGE2D, &format, W, H, 1, NULL, in);
  cl_mem sizes = cl_test_buffer(context, 5 * sizeof(cl_int), NULL);
  cl_kernel kernel = kernel_named("add_ui");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof sizes, &sizes));
  size_t global[2] = {W, H}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0,
                                      0, out, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < sizeof in; i++) {
    unsigned want = in[i] + 1 + i % 4; /* saturated to the format */
    bad += out[i] != (want > 255 ? 255 : want);
  }
  CHECK(bad == 0);
  cl_int got[5];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, sizes, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  CHECK_INT(W, got[0]);
  CHECK_INT(H, got[1]);
  CHECK_INT(W, got[2]);
  CHECK_INT(CL_RGBA, got[3]);
  CHECK_INT(CL_UNSIGNED_INT8, got[4]);

  /* A read-only or write-only image is no read_write argument. */
  cl_int error = CL_SUCCESS;
  cl_mem read_only = clCreateImage2D(context, CL_MEM_READ_ONLY, &format, W, H,
                                     0, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL(CL_INVALID_ARG_VALUE,
           clSetKernelArg(kernel, 0, sizeof read_only, &read_only));
  clReleaseMemObject(read_only);
  clReleaseKernel(kernel);
  clReleaseMemObject(sizes);
  clReleaseMemObject(image);
}

static void check_rotate(void) {
  enum { W = 24, H = 5 };
  const cl_image_format format = {CL_RGBA, CL_SIGNED_INT32};
  cl_mem image = image_of(CL_MEM_OBJECT_IMAGE2D, &format, W, H, 1, NULL, NULL);
  cl_kernel kernel = kernel_named("rotate");
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  size_t global[2] = {W, H}, local[2] = {W, 1};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global,
                                          local, 0, NULL, NULL));
  static cl_int out[W * H * 4];
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0,
                                      0, out, 0, NULL, NULL));
  size_t bad = 0;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      const cl_int *p = out + (y * W + x) * 4;
      int n = (x + 1) % W;
      bad += p[0] != n || p[1] != y || p[2] != n * y || p[3] != 7;
    }
  }
  CHECK(bad == 0);
  clReleaseKernel(kernel);
  clReleaseMemObject(image);
}

static void check_device(void) {
  cl_uint args = 0, read_args = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
                                   sizeof args, &args, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_READ_IMAGE_ARGS,
                                   sizeof read_args, &read_args, NULL));
  CHECK(args >= 64 && args == read_args);
  /* Read-write formats: those of CL_MEM_READ_WRITE. */
  cl_uint count = 0, plain = 0;
  CHECK_CL_SUCCESS(clGetSupportedImageFormats(
      context, CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
      &count));
  CHECK_CL_SUCCESS(clGetSupportedImageFormats(
      context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &plain));
  CHECK(count >= 18 && count == plain);
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0,
                                   NULL, &size));
  cl_name_version *features = malloc(size);
  REQUIRE(features);
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size,
                                   features, NULL));
  bool listed = false;
  for (size_t i = 0; i < size / sizeof *features; i++) {
    listed |= strcmp(features[i].name, "__opencl_c_read_write_images") == 0;
  }
  CHECK(listed);
  free(features);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  check_device();
  program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  check_twice();
  check_integers_and_queries();
  check_rotate();
  clReleaseProgram(program);

  /* OpenCL C 1.2 has no read_write images. */
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program old = clCreateProgramWithSource(context, 1, &text, NULL, &error);
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(old, 1, &device, "", NULL, NULL));
  clReleaseProgram(old);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* OpenCL 2.0's image channel orders through the loader: CL_sRGBA, CL_sBGRA
 * and CL_sRGBx (8-bit unorm, sRGB-encoded colour) and CL_ABGR. Kernels read
 * sRGB pixels as linear values, every one of the 256 against the transfer
 * function in double, and filter them linearly; they write linear values
 * sRGB-encoded (cl_khr_srgb_image_writes), which read back to the same
 * bytes; clEnqueueFillImage encodes its linear colour; a 2D image over an
 * RGBA image views its pixels as sRGB and the reverse, and other views are
 * refused. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

enum { W = 256 };

static const char source[] =
    "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t linear = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void read_f(read_only image2d_t im, global float4 *out) {\n"
    "  int x = get_global_id(0);\n"
    "  out[x] = read_imagef(im, nearest, (int2)(x, 0));\n"
    "}\n"
    "kernel void read_between(read_only image2d_t im, global float4 *out) {\n"
    "  out[0] = read_imagef(im, linear, (float2)(1.0f, 0.5f));\n"
    "}\n"
    "kernel void read_ui(read_only image2d_t im, global uint4 *out) {\n"
    "  int x = get_global_id(0);\n"
    "  out[x] = read_imageui(im, (int2)(x, 0));\n"
    "}\n"
    "kernel void write_f(write_only image2d_t im, global const float4 *in) {\n"
    "#ifndef cl_khr_srgb_image_writes\n"
    "#error no cl_khr_srgb_image_writes\n"
    "#endif\n"
    "  int x = get_global_id(0);\n"
    "  write_imagef(im, (int2)(x, 0), in[x]);\n"
    "}\n"
    "kernel void write_ui(write_only image2d_t im, global const uint4 *in) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imageui(im, (int2)(x, 0), in[x]);\n"
    "}\n";

static double to_linear(double c) {
  return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static cl_mem image_of(cl_channel_order order, cl_channel_type type,
                       const void *pixels, cl_mem_flags flags) {
  const cl_image_format format = {order, type};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = 1};
  cl_int error = CL_SUCCESS;
  cl_mem image =
      clCreateImage(context, flags | (pixels ? CL_MEM_COPY_HOST_PTR : 0),
                    &format, &desc, (void *)pixels, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

static void run(const char *name, cl_mem image, cl_mem buffer, size_t n) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof buffer, &buffer));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0,
                                          NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseKernel(kernel);
}

static void read_bytes(cl_mem image, cl_uchar *bytes) {
  size_t origin[3] = {0, 0, 0}, region[3] = {W, 1, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0,
                                      0, bytes, 0, NULL, NULL));
}

static bool listed(cl_mem_flags flags, cl_channel_order order,
                   cl_channel_type type) {
  return cl_test_format_listed(context, flags, CL_MEM_OBJECT_IMAGE2D, order,
                               type);
}

static void check_formats(void) {
  const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                CL_MEM_READ_WRITE};
  for (int f = 0; f < 3; f++) {
    CHECK(listed(flags[f], CL_sRGBA, CL_UNORM_INT8));
    CHECK(listed(flags[f], CL_sBGRA, CL_UNORM_INT8));
    CHECK(listed(flags[f], CL_sRGBx, CL_UNORM_INT8));
    CHECK(listed(flags[f], CL_ABGR, CL_UNSIGNED_INT8));
    CHECK(!listed(flags[f], CL_sRGBA, CL_UNORM_INT16));
  }
  CHECK(cl_test_has_extension(device, "cl_khr_srgb_image_writes"));
}

/* Every byte value in every colour channel, alpha linear. */
static void check_reads(cl_channel_order order) {
  cl_uchar pixels[W * 4];
  for (int i = 0; i < W; i++) {
    cl_uchar v = (cl_uchar)i, other = (cl_uchar)(255 - i);
    /* Memory order: sBGRA keeps blue first. */
    pixels[4 * i + 0] = order == CL_sBGRA ? other : v;
    pixels[4 * i + 1] = v;
    pixels[4 * i + 2] = order == CL_sBGRA ? v : other;
    pixels[4 * i + 3] = (cl_uchar)(i * 7);
  }
  cl_mem image = image_of(order, CL_UNORM_INT8, pixels, CL_MEM_READ_ONLY);
  cl_float out[W * 4];
  cl_mem buffer = cl_test_buffer(context, sizeof out, NULL);
  run("read_f", image, buffer, W);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < W; i++) {
    double want[4] = {to_linear(i / 255.0), to_linear(i / 255.0),
                      to_linear((255 - i) / 255.0),
                      order == CL_sRGBx ? 1.0 : (cl_uchar)(i * 7) / 255.0};
    for (int c = 0; c < 4; c++) {
      bad += fabs(out[4 * i + c] - want[c]) > 2e-6 * (1.0 + want[c] * 8);
    }
  }
  CHECK_INT(0, bad);

  /* Linear filtering halfway between pixels 0 and 1 averages their linear
   * values, not their encodings. */
  run("read_between", image, buffer, 1);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0,
                                       4 * sizeof(cl_float), out, 0, NULL,
                                       NULL));
  double mean = (to_linear(0.0) + to_linear(1 / 255.0)) / 2;
  CHECK(fabs(out[0] - mean) < 1e-6);
  clReleaseMemObject(buffer);
  clReleaseMemObject(image);
}

/* Linear values written come back as the bytes they were read from; the
 * host's fill encodes the same way. */
static void check_writes(cl_channel_order order) {
  cl_uchar source_bytes[W * 4];
  for (int i = 0; i < W; i++) {
    source_bytes[4 * i + 0] = (cl_uchar)i;
    source_bytes[4 * i + 1] = (cl_uchar)(255 - i);
    source_bytes[4 * i + 2] = (cl_uchar)(i * 3);
    source_bytes[4 * i + 3] = (cl_uchar)(i * 5);
  }
  cl_mem original =
      image_of(order, CL_UNORM_INT8, source_bytes, CL_MEM_READ_ONLY);
  cl_mem linear = cl_test_buffer(context, W * 4 * sizeof(cl_float), NULL);
  run("read_f", original, linear, W);
  cl_mem written = image_of(order, CL_UNORM_INT8, NULL, CL_MEM_WRITE_ONLY);
  run("write_f", written, linear, W);
  cl_uchar bytes[W * 4];
  read_bytes(written, bytes);
  int bad = 0;
  for (int i = 0; i < W * 4; i++) {
    bool padding = order == CL_sRGBx && i % 4 == 3;
    bad += !padding && bytes[i] != source_bytes[i];
  }
  CHECK_INT(0, bad);

  const cl_float color[4] = {0.5f, 0.0031308f / 2, 1.0f, 0.25f};
  size_t origin[3] = {0, 0, 0}, region[3] = {W, 1, 1};
  CHECK_CL_SUCCESS(clEnqueueFillImage(queue, written, color, origin, region,
                                      0, NULL, NULL));
  read_bytes(written, bytes);
  /* round(255 * sRGB(0.5)) = 188; below 0.0031308 the curve is 12.92x. */
  cl_uchar want[4] = {188, (cl_uchar)lrint(255 * 12.92 * 0.0031308 / 2), 255,
                      64};
  if (order == CL_sBGRA) {
    cl_uchar t = want[0];
    want[0] = want[2];
    want[2] = t;
  }
  bad = 0;
  for (int i = 0; i < W; i++) {
    for (int c = 0; c < (order == CL_sRGBx ? 3 : 4); c++) {
      bad += bytes[4 * i + c] != want[c];
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(written);
  clReleaseMemObject(linear);
  clReleaseMemObject(original);
}

/* CL_ABGR: memory holds alpha, blue, green, red. */
static void check_abgr(void) {
  cl_uchar pixels[W * 4];
  for (int i = 0; i < W * 4; i++) pixels[i] = (cl_uchar)(i * 11);
  cl_mem image = image_of(CL_ABGR, CL_UNSIGNED_INT8, pixels, CL_MEM_READ_ONLY);
  cl_uint out[W * 4];
  cl_mem buffer = cl_test_buffer(context, sizeof out, NULL);
  run("read_ui", image, buffer, W);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < W; i++) {
    for (int c = 0; c < 4; c++) bad += out[4 * i + c] != pixels[4 * i + 3 - c];
  }
  CHECK_INT(0, bad);
  cl_mem written = image_of(CL_ABGR, CL_UNSIGNED_INT8, NULL, CL_MEM_WRITE_ONLY);
  run("write_ui", written, buffer, W);
  cl_uchar bytes[W * 4];
  read_bytes(written, bytes);
  CHECK(memcmp(bytes, pixels, sizeof bytes) == 0);
  clReleaseMemObject(written);
  clReleaseMemObject(buffer);
  clReleaseMemObject(image);
}

/* A 2D image over another: an sRGB view of RGBA pixels reads them
 * decoded, a linear view of sRGBA pixels raw; both share the bytes. */
static void check_views(void) {
  cl_uchar pixels[W * 4];
  for (int i = 0; i < W * 4; i++) pixels[i] = (cl_uchar)(i * 13);
  cl_mem rgba = image_of(CL_RGBA, CL_UNORM_INT8, pixels, CL_MEM_READ_WRITE);
  const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = 1,
                        .mem_object = rgba};
  cl_int error = CL_SUCCESS;
  cl_mem view = clCreateImage(context, 0, &srgba, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_float out[W * 4];
  cl_mem buffer = cl_test_buffer(context, sizeof out, NULL);
  run("read_f", view, buffer, W);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < W * 4; i++) {
    double want = i % 4 == 3 ? pixels[i] / 255.0 : to_linear(pixels[i] / 255.0);
    bad += fabs(out[i] - want) > 2e-6 * (1.0 + want * 8);
  }
  CHECK_INT(0, bad);
  cl_mem associated = NULL, buffer_of = rgba;
  cl_image_format format = {0, 0};
  CHECK_CL_SUCCESS(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT,
                                      sizeof associated, &associated, NULL));
  CHECK(associated == rgba);
  CHECK_CL_SUCCESS(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof buffer_of,
                                  &buffer_of, NULL));
  CHECK(buffer_of == NULL);
  CHECK_CL_SUCCESS(
      clGetImageInfo(view, CL_IMAGE_FORMAT, sizeof format, &format, NULL));
  CHECK(format.image_channel_order == CL_sRGBA);

  /* Writes through the view land in the RGBA image, encoded. */
  cl_float white[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  cl_mem whites = cl_test_buffer(context, sizeof out, NULL);
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, whites, white, sizeof white, 0,
                                       sizeof out, 0, NULL, NULL));
  run("write_f", view, whites, W);
  cl_uchar bytes[W * 4];
  read_bytes(rgba, bytes);
  bad = 0;
  for (int i = 0; i < W * 4; i++) bad += bytes[i] != 255;
  CHECK_INT(0, bad);

  /* A linear view of sRGBA pixels, released after its source is. */
  cl_mem srgb_image =
      image_of(CL_sRGBA, CL_UNORM_INT8, pixels, CL_MEM_READ_ONLY);
  const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
  desc.mem_object = srgb_image;
  cl_mem raw = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  clReleaseMemObject(srgb_image);
  run("read_f", raw, buffer, W);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof out,
                                       out, 0, NULL, NULL));
  bad = 0;
  for (int i = 0; i < W * 4; i++) bad += out[i] != pixels[i] / 255.0f;
  CHECK_INT(0, bad);
  clReleaseMemObject(raw);

  /* Refused: the same order, another type, another size, a host pointer,
   * and a view of a 1D image. */
  desc.mem_object = rgba;
  CHECK(clCreateImage(context, 0, &rgba8, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  const cl_image_format srgba16 = {CL_sRGBA, CL_UNORM_INT16};
  CHECK(clCreateImage(context, 0, &srgba16, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  desc.image_width = W - 1;
  CHECK(clCreateImage(context, 0, &srgba, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error);
  desc.image_width = W;
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &srgba, &desc, pixels,
                      &error) == NULL);
  CHECK(error == CL_INVALID_VALUE || error == CL_INVALID_HOST_PTR);
  cl_image_desc one_d = {.image_type = CL_MEM_OBJECT_IMAGE1D,
                         .image_width = W};
  cl_mem line = clCreateImage(context, 0, &rgba8, &one_d, NULL, &error);
  CHECK_CL_SUCCESS(error);
  desc.mem_object = line;
  desc.image_height = 1;
  CHECK(clCreateImage(context, 0, &srgba, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error);
  clReleaseMemObject(line);
  clReleaseMemObject(whites);
  clReleaseMemObject(buffer);
  clReleaseMemObject(view);
  clReleaseMemObject(rgba);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  program = cl_test_build(context, device, source, "");
  check_formats();
  const cl_channel_order orders[] = {CL_sRGBA, CL_sBGRA, CL_sRGBx};
  for (int o = 0; o < 3; o++) {
    check_reads(orders[o]);
    check_writes(orders[o]);
  }
  check_abgr();
  check_views();
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

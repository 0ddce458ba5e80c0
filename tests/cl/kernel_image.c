/* clmux: OpenCL C kernels with image and sampler arguments, run through
 * the loader: a 3x3 box blur of a CL_RGBA/CL_FLOAT image through a
 * sampler argument (clamp-to-edge, nearest) written to a write_only
 * image, a program-scope sampler with normalized coordinates and linear
 * filtering, image queries, a CL_RGBA/CL_UNORM_INT8 write read back with
 * clEnqueueReadImage, a 1D image over a buffer, and images over
 * CL_MEM_USE_HOST_PTR with a row pitch, and kernels with as many image
 * and sampler arguments as the device reports. References are host
 * code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cl_test.h"

static const char source[] =
    "constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void blur(read_only image2d_t in, write_only image2d_t out,\n"
    "                 sampler_t s) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float4 sum = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++)\n"
    "    for (int dx = -1; dx <= 1; dx++)\n"
    "      sum += read_imagef(in, s, p + (int2)(dx, dy));\n"
    "  write_imagef(out, p, sum / 9.0f);\n"
    "}\n"
    "kernel void sample_linear(read_only image2d_t in, global float4 *out) {\n"
    "  float2 c = (float2)(get_global_id(0) * 0.25f + 0.1f, 0.3f);\n"
    "  out[get_global_id(0)] = read_imagef(in, linear, c);\n"
    "}\n"
    "kernel void queries(read_only image2d_t a, read_only image3d_t b,\n"
    "                    global int *out) {\n"
    "  out[0] = get_image_width(a); out[1] = get_image_height(a);\n"
    "  out[2] = get_image_channel_order(a);\n"
    "  out[3] = get_image_channel_data_type(a);\n"
    "  int4 d = get_image_dim(b);\n"
    "  out[4] = d.x; out[5] = d.y; out[6] = d.z;\n"
    "}\n"
    "kernel void write_bytes(write_only image2d_t out) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagef(out, p, (float4)(p.x / 7.0f, p.y / 5.0f, -0.5f, 2.0f));\n"
    "}\n"
    "kernel void from_buffer(read_only image1d_buffer_t in,\n"
    "                        global uint4 *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = read_imageui(in, i);\n"
    "}\n";

enum { W = 13, H = 9 };

static float pixel(const float *image, int x, int y, int c) {
  x = x < 0 ? 0 : x >= W ? W - 1 : x;
  y = y < 0 ? 0 : y >= H ? H - 1 : y;
  return image[(y * W + x) * 4 + c];
}

static void check_blur(cl_context context, cl_command_queue queue,
                       cl_program program) {
  static float input[W * H * 4], output[W * H * 4];
  for (int i = 0; i < W * H * 4; i++) input[i] = (float)((i * 37) % 101);
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_int error = CL_SUCCESS;
  cl_mem in = clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              &format, W, H, 0, input, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = clCreateImage2D(context, CL_MEM_WRITE_ONLY, &format, W, H, 0,
                               NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_sampler sampler = clCreateSampler(context, CL_FALSE,
                                       CL_ADDRESS_CLAMP_TO_EDGE,
                                       CL_FILTER_NEAREST, &error);
  CHECK_CL_SUCCESS(error);
  cl_kernel kernel = clCreateKernel(program, "blur", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof sampler, &sampler));
  size_t global[2] = {W, H};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global,
                                          NULL, 0, NULL, NULL));
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0,
                                      0, output, 0, NULL, NULL));
  int wrong = 0;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      for (int c = 0; c < 4; c++) {
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            sum += pixel(input, x + dx, y + dy, c);
        float want = sum / 9.0f, got = output[(y * W + x) * 4 + c];
        if (fabsf(got - want) > 1e-5f * fabsf(want) + 1e-6f) wrong++;
      }
    }
  }
  CHECK_INT(0, wrong);
  clReleaseKernel(kernel);
  clReleaseSampler(sampler);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

/* Normalized coordinates, bilinear, clamp to edge: a 4x2 CL_R/CL_FLOAT
 * image over host memory with a padded row pitch. */
static void check_linear(cl_context context, cl_command_queue queue,
                         cl_program program) {
  enum { PITCH = 6 }; /* floats per row, 4 used */
  float host[2 * PITCH] = {0, 10, 20, 30, -1, -1, 100, 110, 120, 130, -1, -1};
  cl_image_format format = {CL_R, CL_FLOAT};
  cl_int error = CL_SUCCESS;
  cl_mem in = clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                              &format, 4, 2, PITCH * sizeof(float), host,
                              &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, 5 * 16, NULL, &error);
  cl_kernel kernel = clCreateKernel(program, "sample_linear", &error);
  CHECK_CL_SUCCESS(error);
  clSetKernelArg(kernel, 0, sizeof in, &in);
  clSetKernelArg(kernel, 1, sizeof out, &out);
  size_t global = 5;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  float got[5 * 4];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  for (int i = 0; i < 5; i++) {
    /* u in pixels = (0.25 i + 0.1) * 4 - 0.5, v = 0.3 * 2 - 0.5 = 0.1 */
    float u = (0.25f * (float)i + 0.1f) * 4.0f - 0.5f, v = 0.1f;
    int i0 = (int)floorf(u);
    float a = u - (float)i0;
    int x0 = i0 < 0 ? 0 : i0 > 3 ? 3 : i0, x1 = i0 + 1 > 3 ? 3 : i0 + 1;
    if (i0 + 1 < 0) x1 = 0;
    float top = (1 - a) * host[x0] + a * host[x1];
    float bottom = (1 - a) * host[PITCH + x0] + a * host[PITCH + x1];
    float want = (1 - v) * top + v * bottom;
    CHECK(fabsf(got[i * 4] - want) <= 0.01f * fabsf(want) + 0.01f);
    CHECK(got[i * 4 + 1] == 0.0f && got[i * 4 + 2] == 0.0f &&
          got[i * 4 + 3] == 1.0f);
  }
  clReleaseKernel(kernel);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

static void check_queries_and_bytes(cl_context context, cl_command_queue queue,
                                    cl_program program) {
  cl_int error = CL_SUCCESS;
  cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
  cl_mem image = clCreateImage2D(context, CL_MEM_READ_WRITE, &rgba8, 7, 5, 0,
                                 NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_image_format r16 = {CL_R, CL_SIGNED_INT16};
  cl_mem volume = clCreateImage3D(context, CL_MEM_READ_WRITE, &r16, 3, 4, 6,
                                  0, 0, NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, 7 * 4, NULL, &error);
  cl_kernel queries = clCreateKernel(program, "queries", &error);
  CHECK_CL_SUCCESS(error);
  clSetKernelArg(queries, 0, sizeof image, &image);
  clSetKernelArg(queries, 1, sizeof volume, &volume);
  clSetKernelArg(queries, 2, sizeof out, &out);
  CHECK_CL_SUCCESS(clEnqueueTask(queue, queries, 0, NULL, NULL));
  int info[7];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof info,
                                       info, 0, NULL, NULL));
  CHECK(info[0] == 7 && info[1] == 5 && info[2] == CL_RGBA &&
        info[3] == CL_UNORM_INT8 && info[4] == 3 && info[5] == 4 &&
        info[6] == 6);

  cl_kernel write = clCreateKernel(program, "write_bytes", &error);
  CHECK_CL_SUCCESS(error);
  clSetKernelArg(write, 0, sizeof image, &image);
  size_t global[2] = {7, 5};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, write, 2, NULL, global, NULL,
                                          0, NULL, NULL));
  unsigned char bytes[5][7][4];
  size_t origin[3] = {0, 0, 0}, region[3] = {7, 5, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region,
                                      0, 0, bytes, 0, NULL, NULL));
  int wrong = 0;
  for (int y = 0; y < 5; y++) {
    for (int x = 0; x < 7; x++) {
      /* round to nearest, saturated: -0.5 -> 0, 2.0 -> 255 */
      wrong += bytes[y][x][0] != (unsigned char)lrintf(x / 7.0f * 255.0f);
      wrong += bytes[y][x][1] != (unsigned char)lrintf(y / 5.0f * 255.0f);
      wrong += bytes[y][x][2] != 0 || bytes[y][x][3] != 255;
    }
  }
  CHECK_INT(0, wrong);
  clReleaseKernel(queries);
  clReleaseKernel(write);
  clReleaseMemObject(image);
  clReleaseMemObject(volume);
  clReleaseMemObject(out);
}

static void check_image_from_buffer(cl_context context,
                                    cl_command_queue queue,
                                    cl_program program) {
  enum { N = 64 };
  unsigned short data[N * 4];
  for (int i = 0; i < N * 4; i++) data[i] = (unsigned short)(i * 1009);
  cl_int error = CL_SUCCESS;
  cl_mem buffer =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     sizeof data, data, &error);
  CHECK_CL_SUCCESS(error);
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  desc.image_width = N;
  desc.buffer = buffer;
  cl_mem image = clCreateImage(context, CL_MEM_READ_ONLY, &format, &desc,
                               NULL, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * 16, NULL, &error);
  cl_kernel kernel = clCreateKernel(program, "from_buffer", &error);
  CHECK_CL_SUCCESS(error);
  clSetKernelArg(kernel, 0, sizeof image, &image);
  clSetKernelArg(kernel, 1, sizeof out, &out);
  size_t global = N;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  unsigned got[N * 4];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  int wrong = 0;
  for (int i = 0; i < N * 4; i++) wrong += got[i] != data[i];
  CHECK_INT(0, wrong);
  clReleaseKernel(kernel);
  clReleaseMemObject(image);
  clReleaseMemObject(buffer);
  clReleaseMemObject(out);
}

/* Appends to `text` (of `size`, used `*used`). */
static void add(char *text, size_t size, size_t *used, const char *format,
                int a, int b) {
  int n = snprintf(text + *used, size - *used, format, a, b);
  REQUIRE(n >= 0 && (size_t)n < size - *used);
  *used += (size_t)n;
}

static cl_mem one_pixel(cl_context context, cl_mem_flags flags, float value) {
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  float rgba[4] = {value, 2 * value, 0, 1};
  cl_int error = CL_SUCCESS;
  cl_mem image = clCreateImage2D(
      context, flags | (value >= 0 ? CL_MEM_COPY_HOST_PTR : 0), &format, 1, 1,
      0, value >= 0 ? rgba : NULL, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

/* One kernel taking CL_DEVICE_MAX_READ_IMAGE_ARGS read images (pixel k
 * holds k), CL_DEVICE_MAX_WRITE_IMAGE_ARGS write images (written with
 * their index) and CL_DEVICE_MAX_SAMPLERS samplers: every image is read
 * or written, every sampler used. */
static void check_argument_limits(cl_context context, cl_device_id device,
                                  cl_command_queue queue) {
  cl_uint reads = 0, writes = 0, samplers = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof reads, &reads,
                  NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof writes,
                  &writes, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_SAMPLERS, sizeof samplers, &samplers,
                  NULL);
  CHECK(reads >= 128 && writes >= 8 && samplers >= 16);
  REQUIRE(reads <= 1024 && writes <= 1024 && samplers <= 1024);
  size_t size = 128u * (reads + writes + samplers) + 1024, used = 0;
  char *text = malloc(size);
  REQUIRE(text);
  add(text, size, &used, "kernel void limits(global float *sum", 0, 0);
  for (cl_uint i = 0; i < reads; i++) {
    add(text, size, &used, ",\n  read_only image2d_t r%d", (int)i, 0);
  }
  for (cl_uint i = 0; i < writes; i++) {
    add(text, size, &used, ",\n  write_only image2d_t w%d", (int)i, 0);
  }
  for (cl_uint i = 0; i < samplers; i++) {
    add(text, size, &used, ",\n  sampler_t s%d", (int)i, 0);
  }
  add(text, size, &used, ") {\n  float4 total = 0.0f;\n", 0, 0);
  for (cl_uint i = 0; i < reads; i++) {
    add(text, size, &used, "  total += read_imagef(r%d, s%d, (int2)(0, 0));\n",
        (int)i, (int)(i % samplers));
  }
  for (cl_uint i = 0; i < writes; i++) {
    add(text, size, &used, "  write_imagef(w%d, (int2)(0, 0), (float4)(%d));\n",
        (int)i, (int)i);
  }
  add(text, size, &used, "  sum[0] = total.x; sum[1] = total.y;\n}\n", 0, 0);
  cl_program program = cl_test_build(context, device, text, NULL);
  free(text);
  REQUIRE(program);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "limits", &error);
  CHECK_CL_SUCCESS(error);
  cl_mem sum = clCreateBuffer(context, CL_MEM_WRITE_ONLY, 8, NULL, &error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof sum, &sum));
  cl_uint count = reads + writes;
  cl_mem *images = calloc(count, sizeof *images);
  cl_sampler *sampler_list = calloc(samplers, sizeof *sampler_list);
  REQUIRE(images && sampler_list);
  for (cl_uint i = 0; i < count; i++) {
    images[i] = i < reads ? one_pixel(context, CL_MEM_READ_ONLY, (float)i)
                          : one_pixel(context, CL_MEM_WRITE_ONLY, -1.0f);
    CHECK_CL_SUCCESS(
        clSetKernelArg(kernel, 1 + i, sizeof images[i], &images[i]));
  }
  for (cl_uint i = 0; i < samplers; i++) {
    /* Every addressing mode that keeps (0, 0) on the pixel. */
    static const cl_addressing_mode modes[] = {
        CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP};
    sampler_list[i] = clCreateSampler(context, CL_FALSE, modes[i % 3],
                                      CL_FILTER_NEAREST, &error);
    CHECK_CL_SUCCESS(error);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1 + count + i,
                                    sizeof sampler_list[i], &sampler_list[i]));
  }
  size_t one = 1;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL,
                                          0, NULL, NULL));
  float got[2] = {0, 0};
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, sum, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  float want = (float)reads * (float)(reads - 1) / 2;
  CHECK(got[0] == want && got[1] == 2 * want);
  for (cl_uint i = 0; i < writes; i++) {
    float pixel_value[4] = {-1, -1, -1, -1};
    const size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, images[reads + i], CL_TRUE,
                                        origin, region, 0, 0, pixel_value, 0,
                                        NULL, NULL));
    CHECK(pixel_value[0] == (float)i && pixel_value[3] == (float)i);
  }
  for (cl_uint i = 0; i < count; i++) clReleaseMemObject(images[i]);
  for (cl_uint i = 0; i < samplers; i++) clReleaseSampler(sampler_list[i]);
  free(images);
  free(sampler_list);
  clReleaseMemObject(sum);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, NULL);
  REQUIRE(program);
  check_blur(context, queue, program);
  check_linear(context, queue, program);
  check_queries_and_bytes(context, queue, program);
  check_image_from_buffer(context, queue, program);
  check_argument_limits(context, device, queue);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* cl_khr_depth_images through the loader: CL_DEPTH images of CL_FLOAT and
 * CL_UNORM_INT16, 2D and 2D arrays (and no other type); image2d_depth_t
 * and image2d_array_depth_t kernel arguments read with and without a
 * sampler (linear filtering too), written, and queried, in OpenCL C 1.2
 * and 3.0; the host's fill. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { W = 7, H = 3, LAYERS = 2 };

static const char source[] =
    "#ifndef cl_khr_depth_images\n"
    "#error no cl_khr_depth_images\n"
    "#endif\n"
    "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t linear = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void read2d(read_only image2d_depth_t im, global float *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int i = y * get_image_width(im) + x;\n"
    "  out[3 * i] = read_imagef(im, nearest, (int2)(x, y));\n"
    "  out[3 * i + 1] = read_imagef(im, (int2)(x, y));\n"
    "  out[3 * i + 2] = read_imagef(im, linear, (float2)(x + 1.0f, y + 0.5f));\n"
    "}\n"
    "kernel void read_layers(read_only image2d_array_depth_t im,\n"
    "                        global float *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  int2 dim = get_image_dim(im);\n"
    "  int i = (z * dim.y + y) * dim.x + x;\n"
    "  out[2 * i] = read_imagef(im, nearest, (float4)(x + 0.5f, y + 0.5f,\n"
    "                                                 z, 0));\n"
    "  out[2 * i + 1] = read_imagef(im, (int4)(x, y, z, 0));\n"
    "}\n"
    "kernel void write2d(write_only image2d_depth_t im,\n"
    "                    global const float *in) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(im, (int2)(x, y), in[y * get_image_width(im) + x]);\n"
    "}\n"
    "kernel void write_layers(write_only image2d_array_depth_t im,\n"
    "                         global const float *in) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  write_imagef(im, (int4)(x, y, z, 0),\n"
    "               in[(z * get_image_height(im) + y) * get_image_width(im)\n"
    "                  + x]);\n"
    "}\n"
    "kernel void queries(read_only image2d_array_depth_t im,\n"
    "                    global int *out) {\n"
    "  out[0] = get_image_width(im);\n"
    "  out[1] = get_image_height(im);\n"
    "  out[2] = (int)get_image_array_size(im);\n"
    "  out[3] = get_image_channel_order(im);\n"
    "  out[4] = get_image_channel_data_type(im);\n"
    "}\n";

static bool listed(cl_mem_object_type type, cl_channel_type channel) {
  return cl_test_format_listed(context, CL_MEM_READ_WRITE, type, CL_DEPTH,
                               channel);
}

static void check_formats(void) {
  const cl_mem_object_type with[] = {CL_MEM_OBJECT_IMAGE2D,
                                     CL_MEM_OBJECT_IMAGE2D_ARRAY};
  const cl_mem_object_type without[] = {
      CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE3D};
  for (int i = 0; i < 2; i++) {
    CHECK(listed(with[i], CL_FLOAT) && listed(with[i], CL_UNORM_INT16));
    CHECK(!listed(with[i], CL_UNORM_INT8));
  }
  for (int i = 0; i < 4; i++) CHECK(!listed(without[i], CL_FLOAT));
  const cl_image_format depth = {CL_DEPTH, CL_FLOAT};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                        .image_width = 4,
                        .image_height = 4,
                        .image_depth = 4};
  cl_int error = CL_SUCCESS;
  CHECK(clCreateImage(context, 0, &depth, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED, error);
  CHECK(cl_test_has_extension(device, "cl_khr_depth_images"));
}

static cl_mem depth_image(cl_mem_object_type type, cl_channel_type channel,
                          const void *pixels, cl_mem_flags flags) {
  const cl_image_format format = {CL_DEPTH, channel};
  cl_image_desc desc = {.image_type = type,
                        .image_width = W,
                        .image_height = H,
                        .image_array_size = LAYERS};
  cl_int error = CL_SUCCESS;
  cl_mem image =
      clCreateImage(context, flags | (pixels ? CL_MEM_COPY_HOST_PTR : 0),
                    &format, &desc, (void *)pixels, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

static void run(cl_program program, const char *name, cl_mem image,
                cl_mem buffer, cl_uint dims) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof buffer, &buffer));
  size_t global[3] = {W, H, LAYERS};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseKernel(kernel);
}

static void read_buffer(cl_mem buffer, size_t size, void *out) {
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, out, 0,
                                       NULL, NULL));
}

/* The value of pixel i as stored (a float) and as read. */
static float depth_at(int i) { return (float)((i * 37) % 101) / 100.0f; }

static void check_2d(cl_program program) {
  float floats[W * H];
  cl_ushort unorms[W * H];
  for (int i = 0; i < W * H; i++) {
    floats[i] = depth_at(i);
    unorms[i] = (cl_ushort)(i * 3000);
  }
  for (int f = 0; f < 2; f++) {
    cl_channel_type channel = f ? CL_UNORM_INT16 : CL_FLOAT;
    cl_mem image = depth_image(CL_MEM_OBJECT_IMAGE2D, channel,
                               f ? (void *)unorms : (void *)floats,
                               CL_MEM_READ_ONLY);
    float out[3 * W * H];
    cl_mem buffer = cl_test_buffer(context, sizeof out, NULL);
    run(program, "read2d", image, buffer, 2);
    read_buffer(buffer, sizeof out, out);
    int bad = 0;
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        int i = y * W + x;
        float want = f ? unorms[i] / 65535.0f : floats[i];
        /* Halfway between x and x + 1 (the edge pixel repeats). */
        int right = y * W + (x + 1 < W ? x + 1 : x);
        float next = f ? unorms[right] / 65535.0f : floats[right];
        bad += out[3 * i] != want || out[3 * i + 1] != want;
        bad += fabsf(out[3 * i + 2] - (want + next) / 2) > 1e-6f;
      }
    }
    CHECK_INT(0, bad);
    clReleaseMemObject(buffer);
    clReleaseMemObject(image);
  }
}

/* Writes store the float, or the unorm rounded and saturated. */
static void check_writes(cl_program program) {
  float values[W * H * LAYERS];
  for (int i = 0; i < W * H * LAYERS; i++) values[i] = i * 0.05f - 0.2f;
  cl_mem in = cl_test_buffer(context, sizeof values, values);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  for (int f = 0; f < 2; f++) {
    cl_mem image = depth_image(CL_MEM_OBJECT_IMAGE2D,
                               f ? CL_UNORM_INT16 : CL_FLOAT, NULL,
                               CL_MEM_WRITE_ONLY);
    run(program, "write2d", image, in, 2);
    float floats[W * H];
    cl_ushort unorms[W * H];
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region,
                                        0, 0, f ? (void *)unorms : floats, 0,
                                        NULL, NULL));
    int bad = 0;
    for (int i = 0; i < W * H; i++) {
      float v = values[i];
      if (f) {
        float clamped = v < 0 ? 0 : v > 1 ? 1 : v;
        bad += unorms[i] != (cl_ushort)lrintf(clamped * 65535.0f);
      } else {
        bad += floats[i] != v;
      }
    }
    CHECK_INT(0, bad);
    /* The host's fill takes the colour's first component. */
    const float fill[4] = {0.25f, 9.0f, 9.0f, 9.0f};
    CHECK_CL_SUCCESS(clEnqueueFillImage(queue, image, fill, origin, region, 0,
                                        NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region,
                                        0, 0, f ? (void *)unorms : floats, 0,
                                        NULL, NULL));
    bad = 0;
    for (int i = 0; i < W * H; i++) {
      bad += f ? unorms[i] != 16384 : floats[i] != 0.25f;
    }
    CHECK_INT(0, bad);
    clReleaseMemObject(image);
  }
  clReleaseMemObject(in);
}

static void check_arrays(cl_program program) {
  float values[W * H * LAYERS];
  for (int i = 0; i < W * H * LAYERS; i++) values[i] = depth_at(i);
  cl_mem in = cl_test_buffer(context, sizeof values, values);
  cl_mem image = depth_image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_FLOAT, NULL,
                             CL_MEM_READ_WRITE);
  run(program, "write_layers", image, in, 3);
  float out[2 * W * H * LAYERS];
  cl_mem buffer = cl_test_buffer(context, sizeof out, NULL);
  run(program, "read_layers", image, buffer, 3);
  read_buffer(buffer, sizeof out, out);
  int bad = 0;
  for (int i = 0; i < W * H * LAYERS; i++) {
    bad += out[2 * i] != values[i] || out[2 * i + 1] != values[i];
  }
  CHECK_INT(0, bad);
  cl_int queried[5];
  cl_mem ints = cl_test_buffer(context, sizeof queried, NULL);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "queries", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof ints, &ints));
  CHECK_CL_SUCCESS(clEnqueueTask(queue, kernel, 0, NULL, NULL));
  read_buffer(ints, sizeof queried, queried);
  CHECK(queried[0] == W && queried[1] == H && queried[2] == LAYERS);
  CHECK(queried[3] == CL_DEPTH && queried[4] == CL_FLOAT);
  clReleaseKernel(kernel);
  clReleaseMemObject(ints);
  clReleaseMemObject(buffer);
  clReleaseMemObject(image);
  clReleaseMemObject(in);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  check_formats();
  const char *versions[] = {"", "-cl-std=CL3.0"};
  for (int v = 0; v < 2; v++) {
    cl_program program = cl_test_build(context, device, source, versions[v]);
    check_2d(program);
    check_writes(program);
    check_arrays(program);
    clReleaseProgram(program);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* The code an image kernel gets for its launches' formats, through the
 * loader: one kernel launched at a local size with images that share a
 * format (CL_INTENSITY/CL_FLOAT: its code has a version for them), then
 * with other shared formats and with images of two formats, which run the
 * general code of that same code, then at a second local size first with
 * mixed images (general code alone) and then shared ones; two launches
 * enqueued back to back, the images changed between them. Reads and
 * writes in every launch match the host's decoding and encoding. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_kernel kernel;

enum { W = 48 };
static size_t local_size = 16;

/* in's pixel x (of three neighbours summed) plus b's, written to out. */
static const char source[] =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void mix(read_only image2d_t a, read_only image2d_t b,\n"
    "                write_only image2d_t out) {\n"
    "  int x = get_global_id(0);\n"
    "  float4 sum = read_imagef(b, edge, (int2)(x, 0));\n"
    "  for (int dx = -1; dx <= 1; dx++)\n"
    "    sum += read_imagef(a, edge, (int2)(x + dx, 0));\n"
    "  write_imagef(out, (int2)(x, 0), sum * 0.125f);\n"
    "}\n";

typedef struct format {
  cl_channel_order order;
  cl_channel_type type;
} format;

static unsigned channels(cl_channel_order order) {
  return order == CL_RGBA ? 4 : 1;
}

static unsigned bytes_of(cl_channel_type type) {
  return type == CL_FLOAT ? 4 : 1;
}

/* Stored channel value c of pixel i, the same for every format: k/64. */
static double value_of(int i, unsigned c, unsigned salt) {
  return (double)((i * 7 + (int)c * 5 + (int)salt) % 60) / 64.0;
}

/* Pixel i as read_imagef returns it. */
static void rgba_of(format f, int i, unsigned salt, double out[4]) {
  double v = value_of(i, 0, salt);
  if (f.order == CL_RGBA) {
    for (unsigned c = 0; c < 4; c++) out[c] = value_of(i, c, salt);
  } else if (f.order == CL_INTENSITY) {
    out[0] = out[1] = out[2] = out[3] = v;
  } else { /* CL_R */
    out[0] = v;
    out[1] = out[2] = 0;
    out[3] = 1;
  }
}

static cl_mem image_of(format f, unsigned salt, cl_mem_flags flags) {
  unsigned n = channels(f.order), b = bytes_of(f.type);
  cl_uchar bytes[W * 16];
  for (int i = 0; i < W; i++) {
    for (unsigned c = 0; c < n; c++) {
      double v = value_of(i, c, salt);
      cl_uchar *p = bytes + (i * n + c) * b;
      if (f.type == CL_FLOAT) {
        float x = (float)v;
        memcpy(p, &x, 4);
      } else { /* CL_UNORM_INT8: a byte that decodes to a value near v */
        *p = (cl_uchar)lrint(v * 255.0);
      }
    }
  }
  const cl_image_format image_format = {f.order, f.type};
  cl_image_desc desc = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = 1};
  cl_int error = CL_SUCCESS;
  cl_mem image = clCreateImage(context, flags | CL_MEM_COPY_HOST_PTR,
                               &image_format, &desc, bytes, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

typedef struct launch {
  format a, b, out;
  cl_mem in_a, in_b, written;
} launch;

/* Enqueues mix on new images of the launch's formats. */
static void enqueue_mix(launch *l) {
  l->in_a = image_of(l->a, 1, CL_MEM_READ_ONLY);
  l->in_b = image_of(l->b, 2, CL_MEM_READ_ONLY);
  l->written = image_of(l->out, 3, CL_MEM_WRITE_ONLY);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof l->in_a, &l->in_a));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof l->in_b, &l->in_b));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof l->written, &l->written));
  size_t global = W, local = local_size;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
}

/* Checks what the launch wrote, and releases its images. */
static void check_mix(launch *l) {
  const size_t origin[3] = {0, 0, 0}, region[3] = {W, 1, 1};
  cl_uchar raw[W * 16];
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, l->written, CL_TRUE, origin,
                                      region, 0, 0, raw, 0, NULL, NULL));
  format a = l->a, b = l->b, out = l->out;
  unsigned n = channels(out.order), size = bytes_of(out.type);
  int bad = 0;
  double tolerance = out.type == CL_FLOAT ? 1e-6 : 0.6 / 255.0;
  double unorm = a.type == CL_FLOAT && b.type == CL_FLOAT ? 0 : 1.0 / 255.0;
  for (int i = 0; i < W; i++) {
    double want[4], texel[4];
    rgba_of(b, i, 2, want);
    for (int dx = -1; dx <= 1; dx++) {
      int j = i + dx < 0 ? 0 : i + dx >= W ? W - 1 : i + dx;
      rgba_of(a, j, 1, texel);
      for (unsigned c = 0; c < 4; c++) want[c] += texel[c];
    }
    for (unsigned c = 0; c < n; c++) {
      double expected = want[c] * 0.125, got;
      const cl_uchar *p = raw + (i * n + c) * size;
      if (out.type == CL_FLOAT) {
        float value;
        memcpy(&value, p, 4);
        got = value;
      } else {
        expected = expected > 1 ? 1 : expected;
        got = *p / 255.0;
      }
      if (fabs(got - expected) > tolerance + unorm && bad++ == 0) {
        fprintf(stderr,
                "mix %#x/%#x, %#x/%#x -> %#x/%#x: pixel %d channel %u "
                "%g, want %g\n",
                a.order, a.type, b.order, b.type, out.order, out.type, i, c,
                got, expected);
      }
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(l->in_a);
  clReleaseMemObject(l->in_b);
  clReleaseMemObject(l->written);
}

static void run_mix(format a, format b, format out) {
  launch l = {a, b, out, NULL, NULL, NULL};
  enqueue_mix(&l);
  check_mix(&l);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, "");
  cl_int error = CL_SUCCESS;
  kernel = clCreateKernel(program, "mix", &error);
  CHECK_CL_SUCCESS(error);
  const format intensity = {CL_INTENSITY, CL_FLOAT}, r = {CL_R, CL_FLOAT},
               rgba8 = {CL_RGBA, CL_UNORM_INT8}, rgbaf = {CL_RGBA, CL_FLOAT};
  run_mix(intensity, intensity, intensity);
  run_mix(r, r, r);
  run_mix(rgba8, rgba8, rgba8);
  run_mix(intensity, r, rgbaf);     /* mixed: the general code */
  run_mix(rgbaf, intensity, rgba8); /* mixed again */
  run_mix(intensity, intensity, intensity);
  /* At another local size, mixed images first: the general code alone. */
  local_size = 8;
  run_mix(intensity, rgbaf, r);
  run_mix(intensity, intensity, intensity);
  /* Two enqueues in a row, the arguments changed between them. */
  launch first = {rgbaf, rgbaf, rgbaf, NULL, NULL, NULL},
         second = {r, r, r, NULL, NULL, NULL};
  enqueue_mix(&first);
  enqueue_mix(&second);
  check_mix(&first);
  check_mix(&second);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

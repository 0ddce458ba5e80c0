/* clmux: image reads and writes under partial lane masks, the shape of
 * ffmpeg's pad_opencl: work-item g touches pixel x = g - off only when x
 * is within the image, so one vector holds lanes in range and lanes out of
 * it (x = -2, -1, 0, 1), at every lane alignment. For every image type, a
 * format of each decoding path (the inlined RGBA/FLOAT one and the out of
 * line one), every sampler (addressing mode, normalized or not, nearest or
 * linear) with integer and float coordinates, and sampler-less reads; the
 * in-range lanes must read their pixel (at its centre, so that filtering
 * changes nothing) and the others the kernel's -1; writes must land on
 * their pixel and nowhere else. */
#include <math.h>
#include <stdint.h>

#include "cl_test.h"

/* Pixel x of the row the kernels use: y = 1 and z (or the layer) = 1. */
#define KERNELS(T, ICOORD, FCOORD, NORM)                      \
  "kernel void read_" T "_f(read_only " T                     \
  "_t im, sampler_t s,\n"                                     \
  "    global float4 *out, int off, int width, int mode) {\n" \
  "  int g = get_global_id(0), x = g - off;\n"                \
  "  float u = (x + 0.5f) * (" NORM                           \
  ");\n"                                                      \
  "  float4 v = (float4)(-1.0f);\n"                           \
  "  if (x >= 0 && x < width) {\n"                            \
  "    if (mode == 0) v = read_imagef(im, s, " ICOORD         \
  ");\n"                                                      \
  "    else if (mode == 1) v = read_imagef(im, s, " FCOORD    \
  ");\n"                                                      \
  "    else v = read_imagef(im, " ICOORD                      \
  ");\n"                                                      \
  "  }\n"                                                     \
  "  out[g] = v;\n"                                           \
  "}\n"                                                       \
  "kernel void read_" T "_ui(read_only " T                    \
  "_t im, sampler_t s,\n"                                     \
  "    global uint4 *out, int off, int width, int mode) {\n"  \
  "  int g = get_global_id(0), x = g - off;\n"                \
  "  float u = (x + 0.5f) * (" NORM                           \
  ");\n"                                                      \
  "  uint4 v = (uint4)(0xffffffffu);\n"                       \
  "  if (x >= 0 && x < width) {\n"                            \
  "    if (mode == 0) v = read_imageui(im, s, " ICOORD        \
  ");\n"                                                      \
  "    else if (mode == 1) v = read_imageui(im, s, " FCOORD   \
  ");\n"                                                      \
  "    else v = read_imageui(im, " ICOORD                     \
  ");\n"                                                      \
  "  }\n"                                                     \
  "  out[g] = v;\n"                                           \
  "}\n"                                                       \
  "kernel void write_" T "_f(write_only " T                   \
  "_t im, global float4 *in,\n"                               \
  "    int off, int width) {\n"                               \
  "  int g = get_global_id(0), x = g - off;\n"                \
  "  if (x >= 0 && x < width) write_imagef(im, " ICOORD       \
  ", in[x]);\n"                                               \
  "}\n"                                                       \
  "kernel void write_" T "_ui(write_only " T                  \
  "_t im, global uint4 *in,\n"                                \
  "    int off, int width) {\n"                               \
  "  int g = get_global_id(0), x = g - off;\n"                \
  "  if ((uint)x < (uint)width) write_imageui(im, " ICOORD    \
  ", in[x]);\n"                                               \
  "}\n"

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n" KERNELS(
        "image1d", "x", "u", "s_norm ? 1.0f / width : 1.0f")
        KERNELS("image1d_array", "(int2)(x, 1)", "(float2)(u, 1.0f)",
                "s_norm ? 1.0f / width : 1.0f")
            KERNELS("image2d", "(int2)(x, 1)",
                    "(float2)(u, s_norm ? 1.5f / 3.0f : 1.5f)",
                    "s_norm ? 1.0f / width : 1.0f")
                KERNELS("image2d_array", "(int4)(x, 1, 1, 0)",
                        "(float4)(u, s_norm ? 1.5f / 3.0f : 1.5f, 1.0f, 0.0f)",
                        "s_norm ? 1.0f / width : 1.0f")
                    KERNELS("image3d", "(int4)(x, 1, 1, 0)",
                            "(float4)(u, s_norm ? 1.5f / 3.0f : 1.5f, "
                            "s_norm ? 1.5f / 3.0f : 1.5f, 0.0f)",
                            "s_norm ? 1.0f / width : 1.0f")
    /* pad_opencl's sampler: no addressing mode, known to the compiler. */
    "constant sampler_t pad = CLK_NORMALIZED_COORDS_FALSE |\n"
    "                         CLK_FILTER_NEAREST;\n"
    "kernel void read_image2d_const_f(read_only image2d_t im,\n"
    "    global float4 *out, int off, int width) {\n"
    "  int2 size = get_image_dim(im), xy = (int2)(off, -1);\n"
    "  int2 loc = (int2)(get_global_id(0), get_global_id(1));\n"
    "  out[loc.x + loc.y * get_global_size(0)] = loc.x >= size.x + xy.x || "
    "loc.y >= size.y + xy.y ||\n"
    "               loc.x < xy.x || loc.y < xy.y\n"
    "      ? (float4)(-1.0f) : read_imagef(im, pad, loc - xy);\n"
    "}\n"
    "kernel void read_image2d_const_ui(read_only image2d_t im,\n"
    "    global uint4 *out, int off, int width) {\n"
    "  int2 size = get_image_dim(im), xy = (int2)(off, -1);\n"
    "  int2 loc = (int2)(get_global_id(0), get_global_id(1));\n"
    "  out[loc.x + loc.y * get_global_size(0)] = loc.x >= size.x + xy.x || "
    "loc.y >= size.y + xy.y ||\n"
    "               loc.x < xy.x || loc.y < xy.y\n"
    "      ? (uint4)(0xffffffffu) : read_imageui(im, pad, loc - xy);\n"
    "}\n"
    /* pad_opencl's whole kernel: a picture copied into a bigger one at
     * (x, y), the rest filled with a colour. Its coordinates computed in
     * size_t keep the image read's own range test (`(uint)x < width`). */
    "kernel void pad_image(read_only image2d_t src, write_only image2d_t dst,\n"
    "                      float4 color, int2 xy) {\n"
    "  int2 size = get_image_dim(src);\n"
    "  int2 loc = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float4 v = loc.x >= size.x + xy.x || loc.y >= size.y + xy.y ||\n"
    "             loc.x < xy.x || loc.y < xy.y\n"
    "      ? color\n"
    "      : read_imagef(src, pad, (int2)(get_global_id(0) - xy.x,\n"
    "                                     get_global_id(1) - xy.y));\n"
    "  write_imagef(dst, loc, v);\n"
    "}\n"
    /* A buffer image has only sampler-less reads. */
    "kernel void read_image1d_buffer_f(read_only image1d_buffer_t im,\n"
    "    global float4 *out, int off, int width) {\n"
    "  int g = get_global_id(0), x = g - off;\n"
    "  out[g] = x >= 0 && x < width ? read_imagef(im, x) : (float4)(-1.0f);\n"
    "}\n"
    "kernel void read_image1d_buffer_ui(read_only image1d_buffer_t im,\n"
    "    global uint4 *out, int off, int width) {\n"
    "  int g = get_global_id(0), x = g - off;\n"
    "  out[g] = (uint)x < (uint)width ? read_imageui(im, x)\n"
    "                                 : (uint4)(0xffffffffu);\n"
    "}\n";

/* s_norm: the sampler is normalized; a macro the program is built with
 * for each sampler, so that the float coordinates are pixel centres. */

enum { width = 37, rows = 3, max_off = 9 };

typedef struct format {
  cl_image_format format;
  bool integer; /* read_imageui, else read_imagef */
  unsigned pixel_size;
} format;

static const format formats[] = {
    {{CL_R, CL_UNORM_INT8}, false, 1},      /* out of line decoding */
    {{CL_RGBA, CL_FLOAT}, false, 16},       /* inlined */
    {{CL_RGBA, CL_UNSIGNED_INT8}, true, 4}, /* out of line */
    {{CL_RG, CL_UNSIGNED_INT16}, true, 4},
};

typedef struct image_kind {
  const char *name;
  cl_mem_object_type type;
  bool writable;
} image_kind;

static const image_kind kinds[] = {
    {"image1d", CL_MEM_OBJECT_IMAGE1D, true},
    {"image1d_array", CL_MEM_OBJECT_IMAGE1D_ARRAY, true},
    {"image2d", CL_MEM_OBJECT_IMAGE2D, true},
    {"image2d_array", CL_MEM_OBJECT_IMAGE2D_ARRAY, true},
    {"image3d", CL_MEM_OBJECT_IMAGE3D, true},
    {"image1d_buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, false},
};

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* The bytes of pixel i of the image (every row, slice and layer). */
static uint8_t pixel_byte(unsigned i, unsigned b) {
  return (uint8_t)(i * 37 + b * 11 + 5);
}

/* Pixel x of row 1, layer or slice 1, as the reads return it. */
static void expected_pixel(const format *f, const uint8_t *p, float *fv,
                           uint32_t *uv) {
  switch (f->format.image_channel_data_type) {
    case CL_UNORM_INT8:
      fv[0] = p[0] / 255.0f, fv[1] = fv[2] = 0.0f, fv[3] = 1.0f;
      return;
    case CL_FLOAT:
      memcpy(fv, p, 16);
      return;
    case CL_UNSIGNED_INT8:
      for (int c = 0; c < 4; c++) uv[c] = p[c];
      return;
    default: { /* RG, UNSIGNED_INT16 */
      uint16_t rg[2];
      memcpy(rg, p, 4);
      uv[0] = rg[0], uv[1] = rg[1], uv[2] = 0, uv[3] = 1;
    }
  }
}

static cl_mem make_image(const image_kind *kind, const format *f,
                         const uint8_t *bytes, size_t size, cl_mem *buffer) {
  cl_image_desc desc = {0};
  desc.image_type = kind->type;
  desc.image_width = width;
  desc.image_height = kind->type == CL_MEM_OBJECT_IMAGE2D ||
                              kind->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                              kind->type == CL_MEM_OBJECT_IMAGE3D
                          ? rows
                          : 1;
  if (kind->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) desc.image_array_size = rows;
  if (kind->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) desc.image_array_size = rows;
  desc.image_depth = kind->type == CL_MEM_OBJECT_IMAGE3D ? rows : 1;
  *buffer = NULL;
  if (kind->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    *buffer = cl_test_buffer(context, size, bytes);
    desc.buffer = *buffer;
  }
  cl_int error = CL_SUCCESS;
  cl_mem image = clCreateImage(
      context,
      CL_MEM_READ_WRITE | (*buffer || !bytes ? 0 : CL_MEM_COPY_HOST_PTR),
      &f->format, &desc, *buffer ? NULL : (void *)bytes, &error);
  REQUIRE(error == CL_SUCCESS && image != NULL);
  return image;
}

/* Bytes of the whole image and where pixel x of the checked row is. */
static size_t image_bytes(const image_kind *kind, const format *f) {
  size_t pixels = width;
  if (kind->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) pixels *= rows;
  if (kind->type == CL_MEM_OBJECT_IMAGE2D) pixels *= rows;
  if (kind->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      kind->type == CL_MEM_OBJECT_IMAGE3D) {
    pixels *= rows * rows;
  }
  return pixels * f->pixel_size;
}

static size_t row_start(const image_kind *kind) {
  switch (kind->type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return 0;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
      return width; /* row (or layer) 1 */
    default:
      return width * rows + width; /* slice 1, row 1 */
  }
}

static cl_program build(bool normalized) {
  const char *text = source;
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  const char *options = normalized ? "-Ds_norm=1" : "-Ds_norm=0";
  if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "%s\n", cl_test_build_log(program, device));
    REQUIRE(!"the program builds");
  }
  return program;
}

/* Runs `name` over the row at every offset; returns the lanes whose
 * result is wrong. mode: 0 integer coordinates with the sampler, 1 float
 * ones, 2 no sampler (-1: a kernel without a sampler argument, -2 one
 * with a constant sampler, launched over two rows). */
static int check_reads(cl_program program, const char *name,
                       const image_kind *kind, const format *f,
                       cl_sampler sampler, int mode, bool exact) {
  size_t bytes = image_bytes(kind, f);
  uint8_t *data = malloc(bytes);
  REQUIRE(data != NULL);
  for (size_t i = 0; i < bytes / f->pixel_size; i++) {
    for (unsigned b = 0; b < f->pixel_size; b++) {
      data[i * f->pixel_size + b] = pixel_byte((unsigned)i, b);
    }
  }
  if (f->format.image_channel_data_type == CL_FLOAT) {
    for (size_t i = 0; i < bytes / 4; i++) {
      float v = (float)(i % 97) / 97.0f;
      memcpy(data + 4 * i, &v, 4);
    }
  }
  cl_mem buffer;
  cl_mem image = make_image(kind, f, data, bytes, &buffer);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  enum { slots = width + 2 * max_off + 64 };
  cl_mem out = cl_test_buffer(context, 2 * slots * 16, NULL);
  int bad = 0, w = width;
  for (int off = 0; off <= max_off; off++) {
    unsigned arg = 0;
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof image, &image));
    if (mode >= 0) {
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof sampler, &sampler));
    }
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof out, &out));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof off, &off));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof w, &w));
    if (mode >= 0) {
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, arg++, sizeof mode, &mode));
    }
    /* One local size: one specialization for every offset. */
    size_t local = 16, global = (width + 2 * off + local - 1) / local * local;
    /* pad_opencl's launch (mode -2): two rows, as a 2D NDRange of the
     * width the output has, the local size left to clmux. */
    size_t globals[2] = {width + 2 * off, 2};
    if (mode == -2) global = globals[0];
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
        queue, kernel, mode == -2 ? 2 : 1, NULL, mode == -2 ? globals : &global,
        mode == -2 ? NULL : &local, 0, NULL, NULL));
    uint8_t result[slots * 16];
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, global * 16,
                                         result, 0, NULL, NULL));
    for (int g = 0; g < (int)global; g++) {
      int x = g - off;
      float fe[4] = {-1, -1, -1, -1}, fg[4];
      uint32_t ue[4] = {~0u, ~0u, ~0u, ~0u}, ug[4];
      if (x >= 0 && x < width) {
        expected_pixel(f, data + (row_start(kind) + (size_t)x) * f->pixel_size,
                       fe, ue);
      }
      memcpy(fg, result + 16 * g, 16);
      memcpy(ug, result + 16 * g, 16);
      bool same = true;
      for (int c = 0; c < 4; c++) {
        same &= f->integer
                    ? ug[c] == ue[c]
                    : (exact ? fg[c] == fe[c] : fabsf(fg[c] - fe[c]) <= 1e-4f);
      }
      if (!same && bad++ < 2) {
        fprintf(stderr, "%s mode %d off %d: lane of x = %d wrong\n", name, mode,
                off, x);
      }
    }
  }
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseMemObject(image);
  if (buffer) clReleaseMemObject(buffer);
  free(data);
  return bad;
}

/* Writes the row at every offset into an image of zeros; returns the
 * pixels of the whole image that are wrong. */
static int check_writes(cl_program program, const char *name,
                        const image_kind *kind, const format *f) {
  size_t bytes = image_bytes(kind, f);
  uint8_t *zeros = calloc(1, bytes), *got = malloc(bytes);
  REQUIRE(zeros && got);
  /* Values every format stores exactly. */
  uint8_t in[width * 16];
  for (int x = 0; x < width; x++) {
    if (f->integer) {
      uint32_t v[4] = {(uint32_t)x + 1, (uint32_t)x * 3 % 250, 7, 1};
      if (f->format.image_channel_order == CL_RG) v[2] = 0;
      memcpy(in + 16 * x, v, 16);
    } else {
      float v[4] = {(float)(x % 17) / 255.0f, 0.0f, 0.0f, 1.0f};
      if (f->format.image_channel_order == CL_RGBA) v[1] = 0.25f, v[2] = 0.5f;
      memcpy(in + 16 * x, v, 16);
    }
  }
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem source_mem = cl_test_buffer(context, sizeof in, in);
  int bad = 0, w = width;
  for (int off = 0; off <= max_off; off++) {
    cl_mem buffer;
    cl_mem image = make_image(kind, f, zeros, bytes, &buffer);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof source_mem, &source_mem));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof off, &off));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof w, &w));
    /* One local size: one specialization for every offset. */
    size_t local = 16, global = (width + 2 * off + local - 1) / local * local;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            &local, 0, NULL, NULL));
    size_t origin[3] = {0, 0, 0};
    size_t region[3] = {width, 1, 1};
    if (kind->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) region[1] = rows;
    if (kind->type == CL_MEM_OBJECT_IMAGE2D) region[1] = rows;
    if (kind->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
        kind->type == CL_MEM_OBJECT_IMAGE3D) {
      region[1] = region[2] = rows;
    }
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, origin, region,
                                        0, 0, got, 0, NULL, NULL));
    for (size_t i = 0; i < bytes / f->pixel_size; i++) {
      size_t x = i - row_start(kind);
      uint8_t want[16] = {0};
      if (i >= row_start(kind) && x < width) {
        const uint8_t *v = in + 16 * x;
        if (f->integer) {
          uint32_t u[4];
          memcpy(u, v, 16);
          for (unsigned c = 0; c < 4; c++) {
            if (f->pixel_size == 4 &&
                f->format.image_channel_order == CL_RGBA) {
              want[c] = (uint8_t)u[c];
            } else if (c < 2) {
              uint16_t h = (uint16_t)u[c];
              memcpy(want + 2 * c, &h, 2);
            }
          }
        } else if (f->pixel_size == 16) {
          memcpy(want, v, 16);
        } else {
          float r;
          memcpy(&r, v, 4);
          want[0] = (uint8_t)lrintf(r * 255.0f);
        }
      }
      if (memcmp(got + i * f->pixel_size, want, f->pixel_size) != 0 &&
          bad++ < 2) {
        fprintf(stderr, "%s off %d: pixel %zu wrong\n", name, off, i);
      }
    }
    clReleaseMemObject(image);
    if (buffer) clReleaseMemObject(buffer);
  }
  clReleaseMemObject(source_mem);
  clReleaseKernel(kernel);
  free(zeros);
  free(got);
  return bad;
}

/* pad_image at x offsets 0..9 (and y 3) of a picture of `format`; returns
 * the pixels of the copy that differ from the picture's. */
static int check_pad(cl_program program, const format *f) {
  enum { w = 61, h = 5, dw = w + 70, dh = h + 50 };
  uint8_t picture[w * h * 16], out[dw * dh * 16];
  for (size_t i = 0; i < sizeof picture; i++) picture[i] = (uint8_t)(i * 7 + 1);
  if (f->format.image_channel_data_type == CL_FLOAT) {
    for (int i = 0; i < w * h * 4; i++) {
      float v = (float)(i % 89) / 89.0f;
      memcpy(picture + 4 * i, &v, 4);
    }
  }
  cl_int error = CL_SUCCESS;
  cl_mem src = clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               &f->format, w, h, 0, picture, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem dst = clCreateImage2D(context, CL_MEM_WRITE_ONLY, &f->format, dw, dh,
                               0, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "pad_image", &error);
  REQUIRE(error == CL_SUCCESS);
  int bad = 0;
  for (int x = 0; x < 10; x++) {
    cl_float4 color = {{0.5f, 0.5f, 0.5f, 1.0f}};
    cl_int2 xy = {{x, 3}};
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof src, &src));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof dst, &dst));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof color, &color));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof xy, &xy));
    size_t global[2] = {dw, dh}, origin[3] = {0, 0, 0}, region[3] = {dw, dh, 1};
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global,
                                            NULL, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0,
                                        0, out, 0, NULL, NULL));
    size_t p = f->pixel_size;
    for (int j = 0; j < h; j++) {
      for (int i = 0; i < w; i++) {
        if (memcmp(out + ((size_t)(j + 3) * dw + (size_t)(i + x)) * p,
                   picture + ((size_t)j * w + (size_t)i) * p, p) != 0 &&
            bad++ < 2) {
          fprintf(stderr, "pad_image at x %d: pixel (%d, %d) wrong\n", x, i, j);
        }
      }
    }
  }
  clReleaseKernel(kernel);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  return bad;
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  static const cl_addressing_mode unnormalized_modes[] = {
      CL_ADDRESS_NONE, CL_ADDRESS_CLAMP, CL_ADDRESS_CLAMP_TO_EDGE};
  static const cl_addressing_mode normalized_modes[] = {
      CL_ADDRESS_NONE, CL_ADDRESS_CLAMP, CL_ADDRESS_CLAMP_TO_EDGE,
      CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  for (int normalized = 0; normalized < 2; normalized++) {
    cl_program program = build(normalized);
    const cl_addressing_mode *modes =
        normalized ? normalized_modes : unnormalized_modes;
    size_t mode_count = normalized ? 5 : 3;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
      const image_kind *kind = &kinds[k];
      bool buffer = kind->type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
      for (size_t fi = 0; fi < sizeof formats / sizeof *formats; fi++) {
        const format *f = &formats[fi];
        if (!cl_test_format_listed(context, CL_MEM_READ_WRITE, kind->type,
                                   f->format.image_channel_order,
                                   f->format.image_channel_data_type)) {
          continue;
        }
        char name[64];
        snprintf(name, sizeof name, "read_%s_%s", kind->name,
                 f->integer ? "ui" : "f");
        if (kind->type == CL_MEM_OBJECT_IMAGE2D && !normalized) {
          char constant[64];
          snprintf(constant, sizeof constant, "read_image2d_const_%s",
                   f->integer ? "ui" : "f");
          CHECK_INT(0, check_reads(program, constant, kind, f, NULL, -2, true));
          if (!f->integer) CHECK_INT(0, check_pad(program, f));
        }
        if (buffer) {
          if (!normalized) {
            CHECK_INT(0, check_reads(program, name, kind, f, NULL, -1, true));
          }
          continue;
        }
        for (size_t m = 0; m < mode_count; m++) {
          for (int linear = 0; linear < 2; linear++) {
            if (linear && f->integer) continue; /* undefined */
            cl_int error = CL_SUCCESS;
            cl_sampler sampler = clCreateSampler(
                context, (cl_bool)normalized, modes[m],
                linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &error);
            REQUIRE(error == CL_SUCCESS);
            /* Integer coordinates only with unnormalized nearest. */
            if (!normalized && !linear) {
              CHECK_INT(0,
                        check_reads(program, name, kind, f, sampler, 0, true));
            }
            CHECK_INT(0, check_reads(program, name, kind, f, sampler, 1,
                                     !normalized));
            if (!normalized && !linear && m == 0) {
              CHECK_INT(0,
                        check_reads(program, name, kind, f, sampler, 2, true));
            }
            clReleaseSampler(sampler);
          }
        }
        if (!normalized && kind->writable) {
          snprintf(name, sizeof name, "write_%s_%s", kind->name,
                   f->integer ? "ui" : "f");
          CHECK_INT(0, check_writes(program, name, kind, f));
        }
      }
    }
    clReleaseProgram(program);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* Images over a buffer's bytes through the loader. cl_khr_image2d_from_buffer:
 * 2D images packed and with a row pitch, over a sub-buffer; what the host
 * and kernels see through the image is the buffer and the reverse; the
 * queries, the device's alignments, and every error of creating one.
 * cl_ext_image_from_buffer: 1D images, 1D and 2D arrays and 3D images with
 * padded rows and slices (a slice not a whole number of rows), read and
 * written by kernels and the host, and misaligned pitches refused. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { W = 13, H = 7, PITCH = 64 }; /* RGBA bytes: 52 of each 64 used */

static const char source[] =
    "kernel void add(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imageui(out, c, read_imageui(in, c) + (uint4)(1, 2, 3, 4));\n"
    "}\n";

static cl_mem image_over(cl_mem buffer, size_t pitch, cl_mem_flags flags,
                         cl_int *error) {
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = H,
                        .image_row_pitch = pitch,
                        .buffer = buffer};
  return clCreateImage(context, flags, &format, &desc, NULL, error);
}

/* Byte b of the buffer, and what add makes of it where it is a pixel's. */
static cl_uchar byte_at(size_t b) { return (cl_uchar)(b * 5 + 1); }

static void check_image_is_buffer(size_t pitch, size_t origin) {
  size_t rows = pitch ? pitch : W * 4;
  size_t size = origin + rows * H;
  cl_uchar *bytes = malloc(size), *seen = malloc(size);
  REQUIRE(bytes && seen);
  for (size_t b = 0; b < size; b++) bytes[b] = byte_at(b);
  cl_mem whole = cl_test_buffer(context, size, bytes);
  cl_mem buffer = whole;
  cl_int error = CL_SUCCESS;
  if (origin) {
    cl_buffer_region region = {origin, size - origin};
    buffer = clCreateSubBuffer(whole, CL_MEM_READ_WRITE,
                               CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
    CHECK_CL_SUCCESS(error);
  }
  cl_mem in = image_over(buffer, pitch, CL_MEM_READ_ONLY, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out_buffer = cl_test_buffer(context, rows * H, NULL);
  cl_mem out = image_over(out_buffer, pitch, CL_MEM_WRITE_ONLY, &error);
  CHECK_CL_SUCCESS(error);

  cl_mem queried = NULL;
  size_t row_pitch = 0;
  CHECK_CL_SUCCESS(
      clGetImageInfo(in, CL_IMAGE_BUFFER, sizeof queried, &queried, NULL));
  CHECK(queried == buffer);
  CHECK_CL_SUCCESS(clGetImageInfo(in, CL_IMAGE_ROW_PITCH, sizeof row_pitch,
                                  &row_pitch, NULL));
  CHECK_INT((int)rows, (int)row_pitch);

  /* The host reads the buffer's pixels through the image. */
  cl_uchar pixels[W * H * 4];
  size_t zero[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, in, CL_TRUE, zero, region, 0, 0,
                                      pixels, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t y = 0; y < H; y++) {
    for (size_t x = 0; x < W * 4; x++) {
      bad += pixels[y * W * 4 + x] != byte_at(origin + y * rows + x);
    }
  }
  CHECK(bad == 0);

  /* A kernel reads one image and writes the other: the second buffer
   * holds the results at the pitch. */
  cl_program program = cl_test_build(context, device, source, "");
  cl_kernel kernel = clCreateKernel(program, "add", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  size_t global[2] = {W, H};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0,
                                       rows * H, seen, 0, NULL, NULL));
  bad = 0;
  for (size_t y = 0; y < H; y++) {
    for (size_t x = 0; x < W * 4; x++) {
      unsigned want = byte_at(origin + y * rows + x) + 1 + x % 4;
      bad += seen[y * rows + x] != (want > 255 ? 255 : want);
    }
  }
  CHECK(bad == 0);

  /* The host writes the image: the buffer changes at the pitch. */
  for (size_t i = 0; i < sizeof pixels; i++) pixels[i] = (cl_uchar)(i ^ 0x5a);
  cl_mem rw = image_over(buffer, pitch, CL_MEM_READ_WRITE, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, rw, CL_TRUE, zero, region, 0, 0,
                                       pixels, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, whole, CL_TRUE, 0, size, seen, 0,
                                       NULL, NULL));
  bad = 0;
  for (size_t y = 0; y < H; y++) {
    for (size_t x = 0; x < rows; x++) {
      size_t b = origin + y * rows + x;
      cl_uchar want = x < W * 4 ? pixels[y * W * 4 + x] : byte_at(b);
      bad += seen[b] != want;
    }
  }
  CHECK(bad == 0);

  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(rw);
  clReleaseMemObject(out);
  clReleaseMemObject(out_buffer);
  clReleaseMemObject(in);
  if (buffer != whole) clReleaseMemObject(buffer);
  clReleaseMemObject(whole);
  free(bytes);
  free(seen);
}

static void check_errors(void) {
  cl_int error = CL_SUCCESS;
  cl_mem small = cl_test_buffer(context, W * 4 * H - 1, NULL);
  CHECK(image_over(small, 0, CL_MEM_READ_WRITE, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_SIZE, error);
  /* Row pitch x height bytes, the last row's padding too. */
  cl_mem short_one = cl_test_buffer(context, PITCH * H - 1, NULL);
  CHECK(image_over(short_one, PITCH, CL_MEM_READ_WRITE, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_SIZE, error);
  clReleaseMemObject(short_one);
  cl_mem exact = cl_test_buffer(context, PITCH * H, NULL);
  cl_mem fits = image_over(exact, PITCH, CL_MEM_READ_WRITE, &error);
  CHECK_CL_SUCCESS(error);
  if (fits) clReleaseMemObject(fits);
  CHECK(image_over(exact, W * 4 - 4, CL_MEM_READ_WRITE, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error); /* a pitch below a row */
  /* Not whole pixels: the pitch alignment broken (OpenCL 3.0, 5.3.1). */
  CHECK(image_over(exact, W * 4 + 1, CL_MEM_READ_WRITE, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);

  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = H,
                        .buffer = exact};
  cl_uchar host[PITCH * H];
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, host,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_HOST_PTR, error);

  /* More access than the buffer gives. */
  cl_mem read_only = clCreateBuffer(context, CL_MEM_READ_ONLY, PITCH * H, NULL,
                                    &error);
  CHECK_CL_SUCCESS(error);
  CHECK(image_over(read_only, 0, CL_MEM_WRITE_ONLY, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* Flags it gives none of come from the buffer. */
  cl_mem inherits = image_over(read_only, 0, 0, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem_flags flags = 0;
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(inherits, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK(flags & CL_MEM_READ_ONLY);
  clReleaseMemObject(inherits);

  /* Over an image of the same format: only an sRGB or linear view of it
   * may be (image_srgb.c makes them). */
  cl_mem image = image_over(exact, 0, CL_MEM_READ_WRITE, &error);
  CHECK_CL_SUCCESS(error);
  desc.buffer = image;
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  clReleaseMemObject(image);
  clReleaseMemObject(read_only);
  clReleaseMemObject(exact);
  clReleaseMemObject(small);
}

/* ---- cl_ext_image_from_buffer: every other kind ------------------------ */

enum { EW = 5, EH = 3, ED = 4, ELEMENT = 8 }; /* RGBA uint16 pixels */

static const char every_kind_source[] =
    "#define AT(x, y, z) \\\n"
    "  (((z) * get_global_size(1) + (y)) * get_global_size(0) + (x))\n"
    "#define IDS \\\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "#define VALUE (uint4)(x + 1, y + 2, z + 3, 9)\n"
    "kernel void read1d(read_only image1d_t im, global uint4 *out) {\n"
    "  IDS out[AT(x, y, z)] = read_imageui(im, x); }\n"
    "kernel void read1da(read_only image1d_array_t im, global uint4 *out) {\n"
    "  IDS out[AT(x, y, z)] = read_imageui(im, (int2)(x, z)); }\n"
    "kernel void read2da(read_only image2d_array_t im, global uint4 *out) {\n"
    "  IDS out[AT(x, y, z)] = read_imageui(im, (int4)(x, y, z, 0)); }\n"
    "kernel void read3d(read_only image3d_t im, global uint4 *out) {\n"
    "  IDS out[AT(x, y, z)] = read_imageui(im, (int4)(x, y, z, 0)); }\n"
    "kernel void write1d(write_only image1d_t im) {\n"
    "  IDS write_imageui(im, x, VALUE); }\n"
    "kernel void write1da(write_only image1d_array_t im) {\n"
    "  IDS write_imageui(im, (int2)(x, z), VALUE); }\n"
    "kernel void write2da(write_only image2d_array_t im) {\n"
    "  IDS write_imageui(im, (int4)(x, y, z, 0), VALUE); }\n"
    "kernel void write3d(write_only image3d_t im) {\n"
    "  IDS write_imageui(im, (int4)(x, y, z, 0), VALUE); }\n";

typedef struct kind {
  cl_mem_object_type type;
  const char *name;   /* of the kernels: read<name>, write<name> */
  size_t w, h, d;     /* the NDRange; d counts layers or slices */
  size_t row, slice;  /* pitches given (0: none) */
  size_t origin;      /* of a sub-buffer the image is over, 0: none */
} kind;

/* Where pixel (x, y, z) starts in the buffer: a 1D array's layers are its
 * slices (OpenCL's slice pitch), a 1D image has one row. */
static size_t pixel_offset(const kind *k, size_t x, size_t y, size_t z) {
  size_t row = k->row ? k->row : k->w * ELEMENT;
  size_t slice = k->slice ? k->slice : row * k->h;
  return x * ELEMENT + y * row + z * slice;
}

static size_t kind_bytes(const kind *k) {
  return pixel_offset(k, 0, 0, k->d);
}

static cl_ushort channel_at(const cl_uchar *bytes, size_t offset, int c) {
  return (cl_ushort)(bytes[offset + 2 * c] | bytes[offset + 2 * c + 1] << 8);
}

static cl_mem image_of_kind(const kind *k, cl_mem buffer, cl_mem_flags flags) {
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_image_desc desc = {.image_type = k->type,
                        .image_width = k->w,
                        .image_row_pitch = k->row,
                        .image_slice_pitch = k->slice,
                        .buffer = buffer};
  if (k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) desc.image_array_size = k->d;
  if (k->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
    desc.image_height = k->h;
    desc.image_array_size = k->d;
  }
  if (k->type == CL_MEM_OBJECT_IMAGE3D) {
    desc.image_height = k->h;
    desc.image_depth = k->d;
  }
  cl_int error = CL_SUCCESS;
  cl_mem image = clCreateImage(context, flags, &format, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

/* The buffer (or a sub-buffer at k->origin) of `bytes`, and the image. */
static cl_mem over_sub_buffer(const kind *k, cl_mem whole, cl_mem_flags flags,
                              cl_mem *sub) {
  *sub = whole;
  if (k->origin) {
    cl_int error = CL_SUCCESS;
    cl_buffer_region region = {k->origin, kind_bytes(k)};
    *sub = clCreateSubBuffer(whole, CL_MEM_READ_WRITE,
                             CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
    CHECK_CL_SUCCESS(error);
  }
  return image_of_kind(k, *sub, flags);
}

static void check_kind(cl_program program, const kind *k) {
  size_t bytes = k->origin + kind_bytes(k), pixels = k->w * k->h * k->d;
  cl_uchar *pattern = malloc(bytes), *seen = malloc(bytes);
  cl_uint *out = malloc(pixels * 4 * sizeof *out);
  REQUIRE(pattern && seen && out);
  for (size_t b = 0; b < bytes; b++) pattern[b] = (cl_uchar)(b * 7 + 3);
  cl_mem whole = cl_test_buffer(context, bytes, pattern), sub = NULL;
  cl_mem image = over_sub_buffer(k, whole, CL_MEM_READ_ONLY, &sub);

  size_t pitch = 0;
  CHECK_CL_SUCCESS(clGetImageInfo(image, CL_IMAGE_ROW_PITCH, sizeof pitch,
                                  &pitch, NULL));
  CHECK_INT((int)(k->row ? k->row : k->w * ELEMENT), (int)pitch);
  if (k->slice) {
    CHECK_CL_SUCCESS(clGetImageInfo(image, CL_IMAGE_SLICE_PITCH, sizeof pitch,
                                    &pitch, NULL));
    CHECK_INT((int)k->slice, (int)pitch);
  }
  cl_mem associated = NULL;
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_ASSOCIATED_MEMOBJECT,
                                      sizeof associated, &associated, NULL));
  CHECK(associated == sub);
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(image, CL_MEM_SIZE, sizeof size, &size, NULL));
  CHECK_INT((int)kind_bytes(k), (int)size);

  /* A kernel reads every pixel at its pitches. */
  char name[16];
  snprintf(name, sizeof name, "read%s", k->name);
  cl_int error = CL_SUCCESS;
  cl_kernel reader = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out_buffer = cl_test_buffer(context, pixels * 4 * sizeof *out, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(reader, 0, sizeof image, &image));
  CHECK_CL_SUCCESS(clSetKernelArg(reader, 1, sizeof out_buffer, &out_buffer));
  size_t global[3] = {k->w, k->h, k->d};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, reader, 3, NULL, global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0,
                                       pixels * 4 * sizeof *out, out, 0, NULL,
                                       NULL));
  size_t bad = 0;
  for (size_t z = 0; z < k->d; z++)
    for (size_t y = 0; y < k->h; y++)
      for (size_t x = 0; x < k->w; x++)
        for (int c = 0; c < 4; c++) {
          size_t at = k->origin + pixel_offset(k, x, y, z);
          bad += out[((z * k->h + y) * k->w + x) * 4 + c] !=
                 channel_at(pattern, at, c);
        }
  CHECK(bad == 0);

  /* The host reads the same pixels, packed. */
  size_t zero[3] = {0, 0, 0};
  size_t region[3] = {k->w, k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? k->d : k->h,
                      k->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : k->d};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, region, 0,
                                      0, seen, 0, NULL, NULL));
  bad = 0;
  for (size_t z = 0; z < k->d; z++)
    for (size_t y = 0; y < k->h; y++)
      for (size_t x = 0; x < k->w; x++)
        for (int c = 0; c < 4; c++) {
          size_t at = k->origin + pixel_offset(k, x, y, z);
          size_t packed = ((z * k->h + y) * k->w + x) * ELEMENT;
          bad += channel_at(seen, packed, c) != channel_at(pattern, at, c);
        }
  CHECK(bad == 0);

  /* A kernel writes every pixel of an image over a second buffer: the
   * padding between rows and slices keeps its bytes. */
  cl_mem target = cl_test_buffer(context, bytes, pattern), target_sub = NULL;
  cl_mem written = over_sub_buffer(k, target, CL_MEM_WRITE_ONLY, &target_sub);
  snprintf(name, sizeof name, "write%s", k->name);
  cl_kernel writer = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(writer, 0, sizeof written, &written));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, writer, 3, NULL, global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, target, CL_TRUE, 0, bytes, seen,
                                       0, NULL, NULL));
  cl_uchar *want = malloc(bytes);
  REQUIRE(want);
  memcpy(want, pattern, bytes);
  for (size_t z = 0; z < k->d; z++)
    for (size_t y = 0; y < k->h; y++)
      for (size_t x = 0; x < k->w; x++) {
        cl_ushort value[4] = {(cl_ushort)(x + 1), (cl_ushort)(y + 2),
                              (cl_ushort)(z + 3), 9};
        size_t at = k->origin + pixel_offset(k, x, y, z);
        for (int c = 0; c < 4; c++) {
          want[at + 2 * c] = (cl_uchar)value[c];
          want[at + 2 * c + 1] = (cl_uchar)(value[c] >> 8);
        }
      }
  CHECK(memcmp(want, seen, bytes) == 0);

  free(want);
  clReleaseKernel(writer);
  clReleaseKernel(reader);
  clReleaseMemObject(written);
  if (target_sub != target) clReleaseMemObject(target_sub);
  clReleaseMemObject(target);
  clReleaseMemObject(out_buffer);
  clReleaseMemObject(image);
  if (sub != whole) clReleaseMemObject(sub);
  clReleaseMemObject(whole);
  free(pattern);
  free(seen);
  free(out);
}

static void check_every_kind(void) {
  cl_uint align_bits = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                   sizeof align_bits, &align_bits, NULL));
  size_t origin = align_bits / 8;
  /* Rows two pixels wider than the image; slices not whole rows. */
  const size_t row = EW * ELEMENT + 2 * ELEMENT;
  const kind kinds[] = {
      {CL_MEM_OBJECT_IMAGE1D, "1d", EW, 1, 1, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE1D, "1d", EW, 1, 1, 0, 0, origin},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1da", EW, 1, ED, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1da", EW, 1, ED, row, row + ELEMENT, 0},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2da", EW, EH, ED, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2da", EW, EH, ED, row, row * EH + 3 * ELEMENT,
       origin},
      {CL_MEM_OBJECT_IMAGE3D, "3d", EW, EH, ED, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE3D, "3d", EW, EH, ED, row, row * EH + 3 * ELEMENT,
       origin},
  };
  cl_program program =
      cl_test_build(context, device, every_kind_source, "-cl-std=CL3.0");
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    check_kind(program, &kinds[i]);
  }
  clReleaseProgram(program);

  /* Misaligned pitches over a buffer: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
   * pitches too small: CL_INVALID_IMAGE_DESCRIPTOR; too few bytes:
   * CL_INVALID_IMAGE_SIZE. */
  kind k = kinds[7];
  cl_mem buffer = cl_test_buffer(context, 4096, NULL);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                        .image_width = k.w,
                        .image_height = k.h,
                        .image_depth = k.d,
                        .image_row_pitch = k.row + 1,
                        .image_slice_pitch = k.slice,
                        .buffer = buffer};
  cl_int error = CL_SUCCESS;
  CHECK(clCreateImage(context, 0, &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  desc.image_row_pitch = k.row;
  desc.image_slice_pitch = k.slice + 2;
  CHECK(clCreateImage(context, 0, &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  desc.image_slice_pitch = k.row * k.h - ELEMENT;
  CHECK(clCreateImage(context, 0, &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error);
  desc.image_slice_pitch = 1024 + ELEMENT; /* 4 slices: 4128 bytes */
  CHECK(clCreateImage(context, 0, &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_SIZE, error);
  desc.image_slice_pitch = 1024;
  cl_mem fits = clCreateImage(context, 0, &format, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (fits) clReleaseMemObject(fits);
  /* Without a buffer or host pointer, pitches mean nothing: refused. */
  desc.buffer = NULL;
  CHECK(clCreateImage(context, 0, &format, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error);
  clReleaseMemObject(buffer);
}

static void check_device(void) {
  cl_uint pitch = 0, base = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
                                   sizeof pitch, &pitch, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
                                   sizeof base, &base, NULL));
  CHECK(pitch == 1 && base == 1);
  CHECK(cl_test_has_extension(device, "cl_khr_image2d_from_buffer"));
  CHECK(cl_test_has_extension(device, "cl_ext_image_from_buffer"));
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  check_device();
  check_image_is_buffer(0, 0);
  check_image_is_buffer(PITCH, 0);
  size_t align = 0; /* bits */
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                   sizeof(cl_uint), &align, NULL));
  check_image_is_buffer(PITCH, align / 8);
  check_errors();
  check_every_kind();
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

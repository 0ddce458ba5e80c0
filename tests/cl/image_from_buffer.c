/* cl_khr_image2d_from_buffer through the loader: 2D images over a
 * buffer's bytes, packed and with a row pitch, over a sub-buffer; what the
 * host and kernels see through the image is the buffer and the reverse;
 * the queries, the device's alignments, and every error of creating one. */
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
  CHECK(image_over(exact, W * 4 + 1, CL_MEM_READ_WRITE, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR, error); /* not whole pixels */

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

  /* Over an image: not offered. */
  cl_mem image = image_over(exact, 0, CL_MEM_READ_WRITE, &error);
  CHECK_CL_SUCCESS(error);
  desc.buffer = image;
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_OPERATION, error);
  clReleaseMemObject(image);
  clReleaseMemObject(read_only);
  clReleaseMemObject(exact);
  clReleaseMemObject(small);
}

static void check_device(void) {
  cl_uint pitch = 0, base = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
                                   sizeof pitch, &pitch, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
                                   sizeof base, &base, NULL));
  CHECK(pitch == 1 && base == 1);
  char extensions[4096] = "";
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS,
                                   sizeof extensions, extensions, NULL));
  CHECK(strstr(extensions, "cl_khr_image2d_from_buffer") != NULL);
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
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

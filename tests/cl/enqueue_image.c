/* clmux OpenCL API tests: image commands — write/read round trips at
 * offsets with host pitches for every image type, image <-> image and
 * image <-> buffer copies, fills with exact encodings, map/unmap with
 * pitches, zero-copy host pointers, 1D images over buffers, and errors. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static const cl_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8};
enum { ELEM = 4 };

/* An image and a host model of it, in OpenCL coordinates: x, then y (rows
 * or 1D-array layers), then z (slices or 2D-array layers). */
typedef struct shape {
  cl_mem_object_type type;
  size_t size[3];
} shape;

static cl_mem make_image(const shape *s, cl_mem_flags flags, void *host) {
  cl_image_desc desc;
  memset(&desc, 0, sizeof(desc));
  desc.image_type = s->type;
  desc.image_width = s->size[0];
  switch (s->type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      desc.image_array_size = s->size[1];
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      desc.image_height = s->size[1];
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      desc.image_height = s->size[1];
      desc.image_array_size = s->size[2];
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      desc.image_height = s->size[1];
      desc.image_depth = s->size[2];
      break;
    default:
      break;
  }
  cl_int error = -1;
  cl_mem image = clCreateImage(context, flags, &rgba8, &desc, host, &error);
  CHECK_CL_SUCCESS(error);
  return image;
}

static size_t count_of(const size_t size[3]) {
  return size[0] * size[1] * size[2];
}

static uint8_t *model_at(uint8_t *model, const shape *s, size_t x, size_t y,
                         size_t z) {
  return model + ((z * s->size[1] + y) * s->size[0] + x) * ELEM;
}

/* Whether the type has slices (a slice pitch for host data). */
static bool sliced(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
}

/* Writes a pitched sub-region, reads the whole image back packed and
 * compares with the model; then reads a pitched sub-region back. */
static void round_trip(const shape *s, const size_t origin[3],
                       const size_t region[3]) {
  cl_mem image = make_image(s, CL_MEM_READ_WRITE, NULL);
  if (!image) return;
  size_t total = count_of(s->size) * ELEM;
  uint8_t *model = malloc(total), *back = malloc(total);
  REQUIRE(model && back);
  for (size_t i = 0; i < total; i++) model[i] = (uint8_t)(i * 7 + 1);
  size_t zero[3] = {0, 0, 0};
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, image, CL_TRUE, zero, s->size, 0,
                                       0, model, 0, NULL, NULL));

  /* The pitched host block: rows padded by 8 bytes, slices by one row. */
  bool is_1d_array = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  size_t row = region[0] * ELEM + 8;
  size_t rows_per_slice = is_1d_array ? 1 : region[1];
  size_t slice = sliced(s->type) ? row * rows_per_slice + row : 0;
  size_t layers = is_1d_array ? region[1] : region[2];
  size_t block_size =
      (slice ? slice : row * region[1]) * layers + row * region[1];
  uint8_t *block = calloc(block_size, 1);
  REQUIRE(block);
  for (size_t z = 0; z < region[2]; z++) {
    for (size_t y = 0; y < region[1]; y++) {
      for (size_t x = 0; x < region[0]; x++) {
        size_t at =
            is_1d_array ? y * slice + x * ELEM : z * slice + y * row + x * ELEM;
        uint8_t *m =
            model_at(model, s, origin[0] + x, origin[1] + y, origin[2] + z);
        for (int c = 0; c < ELEM; c++) {
          block[at + c] = (uint8_t)(200 + x + y * 3 + z * 5 + c);
          m[c] = block[at + c];
        }
      }
    }
  }
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, image, CL_FALSE, origin, region,
                                       row, slice, block, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, s->size, 0,
                                      0, back, 0, NULL, NULL));
  CHECK(memcmp(model, back, total) == 0);

  /* Read the region back through the same pitches into a fresh block. */
  uint8_t *again = calloc(block_size, 1);
  REQUIRE(again);
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_FALSE, origin, region,
                                      row, slice, again, 0, NULL, &event));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  cl_command_type type = 0;
  clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
  CHECK_INT(CL_COMMAND_READ_IMAGE, type);
  clReleaseEvent(event);
  CHECK(memcmp(block, again, block_size) == 0);
  free(again);
  free(block);
  free(back);
  free(model);
  clReleaseMemObject(image);
}

static void test_round_trips(void) {
  const shape shapes[] = {{CL_MEM_OBJECT_IMAGE1D, {37, 1, 1}},
                          {CL_MEM_OBJECT_IMAGE1D_ARRAY, {13, 6, 1}},
                          {CL_MEM_OBJECT_IMAGE2D, {11, 9, 1}},
                          {CL_MEM_OBJECT_IMAGE2D_ARRAY, {7, 5, 4}},
                          {CL_MEM_OBJECT_IMAGE3D, {6, 5, 7}}};
  const size_t origins[][3] = {
      {5, 0, 0}, {3, 2, 0}, {4, 3, 0}, {2, 1, 1}, {1, 2, 3}};
  const size_t regions[][3] = {
      {20, 1, 1}, {7, 3, 1}, {5, 4, 1}, {4, 3, 2}, {4, 2, 3}};
  for (int i = 0; i < 5; i++) round_trip(&shapes[i], origins[i], regions[i]);
}

static void test_copies(void) {
  /* 2D -> 3D slice, then 3D -> 2D elsewhere, then back to the host. */
  shape s2 = {CL_MEM_OBJECT_IMAGE2D, {8, 8, 1}};
  shape s3 = {CL_MEM_OBJECT_IMAGE3D, {8, 8, 4}};
  cl_mem a = make_image(&s2, 0, NULL), b = make_image(&s3, 0, NULL);
  REQUIRE(a && b);
  uint8_t pixels[8 * 8 * ELEM], back[8 * 8 * ELEM];
  for (size_t i = 0; i < sizeof(pixels); i++) pixels[i] = (uint8_t)(i ^ 0x5a);
  size_t zero[3] = {0, 0, 0}, whole[3] = {8, 8, 1};
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, a, CL_FALSE, zero, whole, 0, 0,
                                       pixels, 0, NULL, NULL));
  size_t to3[3] = {0, 0, 2};
  CHECK_CL_SUCCESS(
      clEnqueueCopyImage(queue, a, b, zero, to3, whole, 0, NULL, NULL));
  uint8_t slice[8 * 8 * ELEM];
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, b, CL_TRUE, to3, whole, 0, 0,
                                      slice, 0, NULL, NULL));
  CHECK(memcmp(slice, pixels, sizeof(slice)) == 0);

  /* Within one image without overlap: the top-left 4x4 to the bottom right. */
  size_t quarter[3] = {4, 4, 1}, corner[3] = {4, 4, 0};
  CHECK_CL_SUCCESS(
      clEnqueueCopyImage(queue, a, a, zero, corner, quarter, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, a, CL_TRUE, zero, whole, 0, 0,
                                      back, 0, NULL, NULL));
  bool same = true;
  for (size_t y = 0; y < 8; y++) {
    for (size_t x = 0; x < 8; x++) {
      size_t sx = x, sy = y;
      if (x >= 4 && y >= 4) sx -= 4, sy -= 4;
      same = same && memcmp(back + (y * 8 + x) * ELEM,
                            pixels + (sy * 8 + sx) * ELEM, ELEM) == 0;
    }
  }
  CHECK(same);
  size_t near[3] = {2, 2, 0};
  CHECK_CL(CL_MEM_COPY_OVERLAP,
           clEnqueueCopyImage(queue, a, a, zero, near, quarter, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyImage(queue, a, b, zero, zero, (size_t[3]){8, 8, 2}, 0,
                              NULL, NULL));
  size_t beyond[3] = {0, 0, 4};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyImage(queue, a, b, zero, beyond, whole, 0, NULL, NULL));
  cl_image_format other = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 8, .image_height = 8};
  cl_int error = -1;
  cl_mem c = clCreateImage(context, 0, &other, &desc, NULL, &error);
  REQUIRE(c);
  CHECK_CL(CL_IMAGE_FORMAT_MISMATCH,
           clEnqueueCopyImage(queue, a, c, zero, zero, whole, 0, NULL, NULL));

  /* Image -> buffer (packed, at an offset) -> image. */
  cl_mem buffer = clCreateBuffer(context, 0, 64 + sizeof(pixels), NULL, &error);
  REQUIRE(buffer);
  CHECK_CL_SUCCESS(clEnqueueCopyImageToBuffer(queue, b, buffer, to3, whole, 64,
                                              0, NULL, NULL));
  uint8_t bytes[sizeof(pixels)];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 64,
                                       sizeof(bytes), bytes, 0, NULL, NULL));
  CHECK(memcmp(bytes, pixels, sizeof(bytes)) == 0);
  size_t strip[3] = {8, 2, 1}, strip_at[3] = {0, 6, 1};
  CHECK_CL_SUCCESS(clEnqueueCopyBufferToImage(queue, buffer, b, 64, strip_at,
                                              strip, 0, NULL, NULL));
  uint8_t strip_back[8 * 2 * ELEM];
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, b, CL_TRUE, strip_at, strip, 0, 0,
                                      strip_back, 0, NULL, NULL));
  CHECK(memcmp(strip_back, pixels, sizeof(strip_back)) == 0);
  /* Buffer-side errors. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyImageToBuffer(queue, b, buffer, to3, whole, 65, 0, NULL,
                                      NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferToImage(queue, buffer, b, 65, zero, whole, 0,
                                      NULL, NULL));
  CHECK_CL(
      CL_INVALID_MEM_OBJECT,
      clEnqueueCopyImageToBuffer(queue, b, a, zero, whole, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueCopyBufferToImage(queue, buffer, buffer, 0, zero, whole, 0,
                                      NULL, NULL));
  CHECK_CL(
      CL_INVALID_MEM_OBJECT,
      clEnqueueCopyImage(queue, buffer, a, zero, zero, whole, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseMemObject(buffer);
  clReleaseMemObject(c);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

/* Fills a 3x2 region of a 4x4 image and checks a filled pixel's bytes and
 * that an unfilled one kept its zeros. */
static void check_fill(cl_channel_order order, cl_channel_type type,
                       const void *color, const void *expect, size_t size) {
  cl_image_format format = {order, type};
  cl_image_desc desc = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  cl_int error = -1;
  uint8_t zeros[4 * 4 * 16] = {0};
  cl_mem image = clCreateImage(context, CL_MEM_COPY_HOST_PTR, &format, &desc,
                               zeros, &error);
  CHECK_CL_SUCCESS(error);
  if (!image) return;
  size_t origin[3] = {1, 1, 0}, region[3] = {3, 2, 1};
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, color, origin, region, 0, NULL, NULL));
  uint8_t back[4 * 4 * 16];
  size_t zero[3] = {0, 0, 0}, whole[3] = {4, 4, 1};
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0, 0,
                                      back, 0, NULL, NULL));
  bool filled = true;
  for (size_t y = 1; y < 3; y++) {
    for (size_t x = 1; x < 4; x++) {
      filled = filled && memcmp(back + (y * 4 + x) * size, expect, size) == 0;
    }
  }
  if (!filled) {
    fprintf(stderr, "fill of order %#x type %#x:", order, type);
    for (size_t i = 0; i < size; i++)
      fprintf(stderr, " %02x", back[5 * size + i]);
    fprintf(stderr, "\n");
  }
  CHECK(filled);
  CHECK(memcmp(back, zeros, size) == 0);
  CHECK(memcmp(back + 15 * size, zeros, size) == 0);
  clReleaseMemObject(image);
}

static void test_fills(void) {
  const float unorm[4] = {0.5f, 0.2f, 1.5f, -1.0f};
  const uint8_t unorm8[4] = {128, 51, 255, 0};
  check_fill(CL_RGBA, CL_UNORM_INT8, unorm, unorm8, 4);
  const uint8_t bgra8[4] = {255, 51, 128, 0};
  check_fill(CL_BGRA, CL_UNORM_INT8, unorm, bgra8, 4);
  const uint8_t argb8[4] = {0, 128, 51, 255};
  check_fill(CL_ARGB, CL_UNORM_INT8, unorm, argb8, 4);
  const uint16_t unorm16[4] = {32768, 13107, 65535, 0};
  check_fill(CL_RGBA, CL_UNORM_INT16, unorm, unorm16, 8);
  const float snorm[4] = {-1.0f, 1.0f, 0.5f, -0.5f};
  const int8_t snorm8[4] = {-127, 127, 64, -64};
  check_fill(CL_RGBA, CL_SNORM_INT8, snorm, snorm8, 4);
  const int16_t snorm16[2] = {-32767, 32767};
  check_fill(CL_RG, CL_SNORM_INT16, snorm, snorm16, 4);
  const float halves[4] = {1.0f, -2.0f, 65504.0f, 5.9604645e-8f};
  const uint16_t half_bits[4] = {0x3c00, 0xc000, 0x7bff, 0x0001};
  check_fill(CL_RGBA, CL_HALF_FLOAT, halves, half_bits, 8);
  const float rounding[4] = {1.00048828125f, 1e6f, 3.0517578125e-05f, 0.0f};
  /* 1 + 2^-11 ties to even (1.0); 1e6 overflows to inf; 2^-15 subnormal. */
  const uint16_t rounded[4] = {0x3c00, 0x7c00, 0x0200, 0x0000};
  check_fill(CL_RGBA, CL_HALF_FLOAT, rounding, rounded, 8);
  const float floats[4] = {1.25f, -3.5f, 0.0f, 1e30f};
  check_fill(CL_RGBA, CL_FLOAT, floats, floats, 16);
  const int32_t ints[4] = {300, -300, 5, -5};
  const int8_t sint8[4] = {127, -128, 5, -5};
  check_fill(CL_RGBA, CL_SIGNED_INT8, ints, sint8, 4);
  const int16_t sint16[4] = {300, -300, 5, -5};
  check_fill(CL_RGBA, CL_SIGNED_INT16, ints, sint16, 8);
  check_fill(CL_RGBA, CL_SIGNED_INT32, ints, ints, 16);
  const uint32_t uints[4] = {70000, 1, 255, 256};
  const uint16_t uint16[4] = {65535, 1, 255, 256};
  check_fill(CL_RGBA, CL_UNSIGNED_INT16, uints, uint16, 8);
  const uint8_t uint8[4] = {255, 1, 255, 255};
  check_fill(CL_RGBA, CL_UNSIGNED_INT8, uints, uint8, 4);
  check_fill(CL_RGBA, CL_UNSIGNED_INT32, uints, uints, 16);
  const uint8_t red8[1] = {128};
  check_fill(CL_R, CL_UNORM_INT8, unorm, red8, 1);
  const uint8_t alpha8[1] = {0};
  check_fill(CL_A, CL_UNORM_INT8, unorm, alpha8, 1);
  const uint16_t luminance[1] = {32768};
  check_fill(CL_LUMINANCE, CL_UNORM_INT16, unorm, luminance, 2);
  check_fill(CL_INTENSITY, CL_FLOAT, floats, floats, 4);
  const uint8_t ra8[2] = {128, 0};
  check_fill(CL_RA, CL_UNORM_INT8, unorm, ra8, 2);

  /* Fill of a 3D region and a 1D array's layers. */
  shape s3 = {CL_MEM_OBJECT_IMAGE3D, {3, 3, 3}};
  cl_mem image = make_image(&s3, 0, NULL);
  REQUIRE(image);
  const uint32_t color[4] = {9, 8, 7, 6};
  size_t origin[3] = {0, 1, 1}, region[3] = {3, 2, 2}, zero[3] = {0, 0, 0};
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, color, zero, s3.size, 0, NULL, NULL));
  const uint32_t other[4] = {1, 2, 3, 4};
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, other, origin, region, 0, NULL, NULL));
  uint8_t back[27 * ELEM];
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, s3.size, 0,
                                      0, back, 0, NULL, NULL));
  int wrong = 0;
  for (size_t z = 0; z < 3; z++) {
    for (size_t y = 0; y < 3; y++) {
      for (size_t x = 0; x < 3; x++) {
        bool inside = y >= 1 && z >= 1;
        const uint8_t *p = back + ((z * 3 + y) * 3 + x) * ELEM;
        uint8_t want = inside ? 1 : 9;
        wrong += p[0] != want;
      }
    }
  }
  CHECK_INT(0, wrong);
  CHECK_CL(CL_INVALID_VALUE, clEnqueueFillImage(queue, image, NULL, zero,
                                                s3.size, 0, NULL, NULL));
  size_t too_far[3] = {3, 3, 4};
  CHECK_CL(CL_INVALID_VALUE, clEnqueueFillImage(queue, image, color, zero,
                                                too_far, 0, NULL, NULL));
  clReleaseMemObject(image);
}

static void test_map(void) {
  shape s3 = {CL_MEM_OBJECT_IMAGE3D, {5, 4, 3}};
  cl_mem image = make_image(&s3, 0, NULL);
  REQUIRE(image);
  size_t zero[3] = {0, 0, 0};
  const uint32_t color[4] = {0, 0, 0, 0};
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, color, zero, s3.size, 0, NULL, NULL));
  size_t origin[3] = {1, 2, 1}, region[3] = {3, 2, 2};
  size_t row = 0, slice = 0;
  cl_int error = -1;
  cl_event event = NULL;
  uint8_t *p = clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_WRITE, origin,
                                 region, &row, &slice, 0, NULL, &event, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(p);
  CHECK_INT(5 * ELEM, row);
  CHECK_INT(5 * 4 * ELEM, slice);
  cl_command_type type = 0;
  clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
  CHECK_INT(CL_COMMAND_MAP_IMAGE, type);
  clReleaseEvent(event);
  for (size_t z = 0; z < 2; z++) {
    for (size_t y = 0; y < 2; y++) {
      for (size_t x = 0; x < 3; x++) {
        memset(p + z * slice + y * row + x * ELEM, (int)(1 + x + y * 3 + z * 6),
               ELEM);
      }
    }
  }
  cl_uint maps = 0;
  clGetMemObjectInfo(image, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL);
  CHECK_INT(1, maps);
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, image, p, 0, NULL, NULL));
  uint8_t back[60 * ELEM];
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, s3.size, 0,
                                      0, back, 0, NULL, NULL));
  int wrong = 0;
  for (size_t z = 0; z < 3; z++) {
    for (size_t y = 0; y < 4; y++) {
      for (size_t x = 0; x < 5; x++) {
        int want = 0;
        if (x >= 1 && x < 4 && y >= 2 && z >= 1) {
          want = (int)(1 + (x - 1) + (y - 2) * 3 + (z - 1) * 6);
        }
        wrong += back[((z * 4 + y) * 5 + x) * ELEM] != want;
      }
    }
  }
  CHECK_INT(0, wrong);
  clGetMemObjectInfo(image, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL);
  CHECK_INT(0, maps);

  /* 2D: no slice pitch needed, 0 reported when asked. 1D array: layers at
   * the slice pitch. */
  shape s2 = {CL_MEM_OBJECT_IMAGE2D, {6, 3, 1}};
  cl_mem flat = make_image(&s2, 0, NULL);
  REQUIRE(flat);
  size_t o2[3] = {2, 1, 0}, r2[3] = {2, 2, 1};
  p = clEnqueueMapImage(queue, flat, CL_TRUE, CL_MAP_READ, o2, r2, &row, NULL,
                        0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_INT(6 * ELEM, row);
  if (p) clEnqueueUnmapMemObject(queue, flat, p, 0, NULL, NULL);
  slice = 99;
  p = clEnqueueMapImage(queue, flat, CL_TRUE, CL_MAP_READ, o2, r2, &row, &slice,
                        0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_INT(0, slice);
  if (p) clEnqueueUnmapMemObject(queue, flat, p, 0, NULL, NULL);

  shape s1a = {CL_MEM_OBJECT_IMAGE1D_ARRAY, {4, 3, 1}};
  cl_mem layers = make_image(&s1a, 0, NULL);
  REQUIRE(layers);
  uint8_t data[4 * 3 * ELEM];
  for (size_t i = 0; i < sizeof(data); i++) data[i] = (uint8_t)i;
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, layers, CL_TRUE, zero, s1a.size,
                                       0, 0, data, 0, NULL, NULL));
  size_t o1[3] = {1, 1, 0}, r1[3] = {2, 2, 1};
  p = clEnqueueMapImage(queue, layers, CL_TRUE, CL_MAP_READ, o1, r1, &row,
                        &slice, 0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (p) {
    CHECK(memcmp(p, data + (1 * 4 + 1) * ELEM, 2 * ELEM) == 0);
    CHECK(memcmp(p + slice, data + (2 * 4 + 1) * ELEM, 2 * ELEM) == 0);
    clEnqueueUnmapMemObject(queue, layers, p, 0, NULL, NULL);
  }

  /* Errors. */
  CHECK(clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region,
                          NULL, &slice, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region,
                          &row, NULL, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clEnqueueMapImage(queue, layers, CL_TRUE, CL_MAP_READ, o1, r1, &row,
                          NULL, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clEnqueueMapImage(queue, image, CL_TRUE,
                          CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, origin,
                          region, &row, &slice, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  size_t past[3] = {3, 3, 3};
  CHECK(clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, past,
                          &row, &slice, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clEnqueueMapImage(NULL, image, CL_TRUE, CL_MAP_READ, origin, region,
                          &row, &slice, 0, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_COMMAND_QUEUE, error);
  CHECK(clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region,
                          &row, &slice, 1, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_EVENT_WAIT_LIST, error);
  clGetMemObjectInfo(image, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL);
  CHECK_INT(0, maps);
  clReleaseMemObject(layers);
  clReleaseMemObject(flat);
  clReleaseMemObject(image);
}

/* USE_HOST_PTR with pitches: commands see and change the user's bytes. */
static void test_zero_copy(void) {
  enum { W = 3, H = 4, ROW = 20 };
  uint8_t host[ROW * H];
  memset(host, 0xee, sizeof(host));
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = W,
                        .image_height = H,
                        .image_row_pitch = ROW};
  cl_int error = -1;
  cl_mem image =
      clCreateImage(context, CL_MEM_USE_HOST_PTR, &rgba8, &desc, host, &error);
  CHECK_CL_SUCCESS(error);
  if (!image) return;
  const uint32_t color[4] = {1, 2, 3, 4};
  size_t origin[3] = {1, 2, 0}, region[3] = {2, 1, 1};
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, color, origin, region, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  const uint8_t want[4] = {1, 2, 3, 4};
  CHECK(memcmp(host + 2 * ROW + 1 * ELEM, want, 4) == 0);
  CHECK(memcmp(host + 2 * ROW + 2 * ELEM, want, 4) == 0);
  CHECK(host[2 * ROW] == 0xee && host[2 * ROW + 3 * ELEM] == 0xee);
  CHECK(host[ROW - 1] == 0xee); /* padding untouched */
  size_t row = 0;
  uint8_t *p = clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin,
                                 region, &row, NULL, 0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(p == host + 2 * ROW + ELEM);
  CHECK_INT(ROW, row);
  if (p) clEnqueueUnmapMemObject(queue, image, p, 0, NULL, NULL);
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseMemObject(image);
}

/* A 1D image over a buffer shares its bytes both ways. */
static void test_buffer_image(void) {
  cl_int error = -1;
  uint8_t bytes[64 * ELEM];
  for (size_t i = 0; i < sizeof(bytes); i++) bytes[i] = (uint8_t)(i * 3);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof(bytes),
                                 bytes, &error);
  REQUIRE(buffer);
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER,
                        .image_width = 64,
                        .buffer = buffer};
  cl_mem image = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    uint8_t back[sizeof(bytes)];
    size_t zero[3] = {0, 0, 0}, whole[3] = {64, 1, 1};
    CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0,
                                        0, back, 0, NULL, NULL));
    CHECK(memcmp(back, bytes, sizeof(bytes)) == 0);
    const uint32_t color[4] = {7, 7, 7, 7};
    size_t origin[3] = {10, 0, 0}, region[3] = {2, 1, 1};
    CHECK_CL_SUCCESS(
        clEnqueueFillImage(queue, image, color, origin, region, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0,
                                         sizeof(back), back, 0, NULL, NULL));
    CHECK(back[40] == 7 && back[47] == 7 && back[48] == bytes[48]);
    size_t bad[3] = {0, 1, 0};
    CHECK_CL(CL_INVALID_VALUE,
             clEnqueueReadImage(queue, image, CL_TRUE, bad, whole, 0, 0, back,
                                0, NULL, NULL));
    clReleaseMemObject(image);
  }
  /* Over a sub-buffer: the image starts at the sub-buffer's origin. */
  cl_buffer_region half = {128, 128};
  cl_mem sub =
      clCreateSubBuffer(buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &half, &error);
  CHECK_CL_SUCCESS(error);
  if (sub) {
    desc.buffer = sub;
    desc.image_width = 32;
    image = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
    CHECK_CL_SUCCESS(error);
    if (image) {
      uint8_t back[32 * ELEM];
      size_t zero[3] = {0, 0, 0}, whole[3] = {32, 1, 1};
      CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0,
                                          0, back, 0, NULL, NULL));
      CHECK(memcmp(back, bytes + 128, sizeof(back)) == 0);
      cl_mem parent = NULL;
      clGetMemObjectInfo(image, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent),
                         &parent, NULL);
      CHECK(parent == sub);
      clReleaseMemObject(image);
    }
    clReleaseMemObject(sub);
  }
  clReleaseMemObject(buffer);
}

static void test_errors(void) {
  shape s2 = {CL_MEM_OBJECT_IMAGE2D, {4, 4, 1}};
  cl_mem image = make_image(&s2, 0, NULL);
  REQUIRE(image);
  uint8_t host[4 * 4 * ELEM * 4];
  size_t zero[3] = {0, 0, 0}, whole[3] = {4, 4, 1};

  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueReadImage(NULL, image, CL_TRUE, zero, whole, 0, 0, host, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueWriteImage((cl_command_queue)context, image, CL_TRUE, zero,
                               whole, 0, 0, host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueReadImage(queue, NULL, CL_TRUE, zero, whole, 0, 0, host, 0,
                              NULL, NULL));
  cl_int error = -1;
  cl_mem buffer = clCreateBuffer(context, 0, 256, NULL, &error);
  REQUIRE(buffer);
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueReadImage(queue, buffer, CL_TRUE, zero, whole, 0, 0, host,
                              0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueFillImage(queue, buffer, host, zero, whole, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, image, CL_TRUE, NULL, whole, 0, 0, host, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, image, CL_TRUE, zero, NULL, 0, 0, host, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0, 0, NULL, 0,
                              NULL, NULL));
  /* Regions: empty, past the edge, and the unused coordinates of 2D. */
  const size_t bad_regions[][3] = {
      {0, 4, 1}, {4, 0, 1}, {5, 4, 1}, {4, 4, 2}, {4, 4, 0}};
  for (int i = 0; i < 5; i++) {
    CHECK_CL(CL_INVALID_VALUE,
             clEnqueueWriteImage(queue, image, CL_TRUE, zero, bad_regions[i], 0,
                                 0, host, 0, NULL, NULL));
  }
  size_t shifted[3] = {1, 0, 0}, deep[3] = {0, 0, 1};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueWriteImage(queue, image, CL_TRUE, shifted, whole, 0, 0,
                               host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWriteImage(queue, image, CL_TRUE, deep,
                                                 (size_t[3]){1, 1, 1}, 0, 0,
                                                 host, 0, NULL, NULL));
  /* Pitches: a row pitch below the region's, a slice pitch for 2D. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 8, 0, host, 0,
                              NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0, 64, host,
                              0, NULL, NULL));
  /* 1D: y and z unused; 1D array: z unused. */
  shape s1 = {CL_MEM_OBJECT_IMAGE1D, {8, 1, 1}};
  cl_mem line = make_image(&s1, 0, NULL);
  REQUIRE(line);
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, line, CL_TRUE, zero, (size_t[3]){8, 2, 1},
                              0, 0, host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, line, CL_TRUE, (size_t[3]){0, 0, 1},
                              (size_t[3]){8, 1, 1}, 0, 0, host, 0, NULL, NULL));
  shape s1a = {CL_MEM_OBJECT_IMAGE1D_ARRAY, {8, 3, 1}};
  cl_mem layers = make_image(&s1a, 0, NULL);
  REQUIRE(layers);
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, layers, CL_TRUE, zero,
                              (size_t[3]){8, 4, 1}, 0, 0, host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, layers, CL_TRUE, zero,
                              (size_t[3]){8, 3, 2}, 0, 0, host, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadImage(queue, layers, CL_TRUE, zero,
                                                (size_t[3]){8, 3, 1}, 32, 16,
                                                host, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, layers, CL_TRUE, zero,
                                      (size_t[3]){8, 3, 1}, 32, 32, host, 0,
                                      NULL, NULL));
  /* 2D array: layers in z. */
  shape s2a = {CL_MEM_OBJECT_IMAGE2D_ARRAY, {2, 2, 3}};
  cl_mem stack = make_image(&s2a, 0, NULL);
  REQUIRE(stack);
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadImage(queue, stack, CL_TRUE, (size_t[3]){0, 0, 1},
                              (size_t[3]){2, 2, 3}, 0, 0, host, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueReadImage(queue, stack, CL_TRUE, (size_t[3]){0, 0, 1},
                         (size_t[3]){2, 2, 2}, 0, 0, host, 0, NULL, NULL));

  /* Host access flags. */
  cl_image_desc desc = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  const cl_mem_flags host_flags[] = {
      CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
  for (int i = 0; i < 3; i++) {
    cl_mem limited =
        clCreateImage(context, host_flags[i], &rgba8, &desc, NULL, &error);
    REQUIRE(limited);
    bool can_read = host_flags[i] == CL_MEM_HOST_READ_ONLY;
    bool can_write = host_flags[i] == CL_MEM_HOST_WRITE_ONLY;
    CHECK_INT(can_read ? CL_SUCCESS : CL_INVALID_OPERATION,
              clEnqueueReadImage(queue, limited, CL_TRUE, zero, whole, 0, 0,
                                 host, 0, NULL, NULL));
    CHECK_INT(can_write ? CL_SUCCESS : CL_INVALID_OPERATION,
              clEnqueueWriteImage(queue, limited, CL_TRUE, zero, whole, 0, 0,
                                  host, 0, NULL, NULL));
    size_t row = 0;
    void *p = clEnqueueMapImage(queue, limited, CL_TRUE, CL_MAP_READ, zero,
                                whole, &row, NULL, 0, NULL, NULL, &error);
    CHECK_INT(can_read ? CL_SUCCESS : CL_INVALID_OPERATION, error);
    if (p) clEnqueueUnmapMemObject(queue, limited, p, 0, NULL, NULL);
    p = clEnqueueMapImage(queue, limited, CL_TRUE, CL_MAP_WRITE, zero, whole,
                          &row, NULL, 0, NULL, NULL, &error);
    CHECK_INT(can_write ? CL_SUCCESS : CL_INVALID_OPERATION, error);
    if (p) clEnqueueUnmapMemObject(queue, limited, p, 0, NULL, NULL);
    /* Fill and copy are device-side: always allowed. */
    const uint32_t color[4] = {0, 0, 0, 0};
    CHECK_CL_SUCCESS(
        clEnqueueFillImage(queue, limited, color, zero, whole, 0, NULL, NULL));
    clFinish(queue);
    clReleaseMemObject(limited);
  }

  /* Another context's image. */
  cl_context other = cl_test_context(device);
  cl_mem foreign = clCreateImage(other, 0, &rgba8, &desc, NULL, &error);
  REQUIRE(foreign);
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueReadImage(queue, foreign, CL_TRUE, zero, whole, 0, 0, host,
                              0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT, clEnqueueCopyImage(queue, image, foreign, zero,
                                                  zero, whole, 0, NULL, NULL));
  clReleaseMemObject(foreign);
  clReleaseContext(other);

  /* Wait lists. */
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0, 0, host, 1,
                              NULL, NULL));
  cl_event none = NULL;
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueFillImage(queue, image, host, zero, whole, 0, &none, NULL));

  /* A user event gates a non-blocking write. */
  cl_event gate = clCreateUserEvent(context, &error);
  REQUIRE(gate);
  uint8_t pixels[4 * 4 * ELEM], back[4 * 4 * ELEM];
  memset(pixels, 0x42, sizeof(pixels));
  cl_event done = NULL;
  CHECK_CL_SUCCESS(clEnqueueWriteImage(queue, image, CL_FALSE, zero, whole, 0,
                                       0, pixels, 1, &gate, &done));
  cl_int status = 0;
  clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                 &status, NULL);
  CHECK(status > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, image, CL_TRUE, zero, whole, 0, 0,
                                      back, 1, &done, NULL));
  CHECK(memcmp(back, pixels, sizeof(back)) == 0);
  clReleaseEvent(done);
  clReleaseEvent(gate);

  clReleaseMemObject(stack);
  clReleaseMemObject(layers);
  clReleaseMemObject(line);
  clReleaseMemObject(buffer);
  clReleaseMemObject(image);
}

/* The command holds the image: releasing it right after a non-blocking
 * enqueue is safe. */
static void test_release_while_queued(void) {
  shape s2 = {CL_MEM_OBJECT_IMAGE2D, {64, 64, 1}};
  cl_mem image = make_image(&s2, 0, NULL);
  REQUIRE(image);
  const uint32_t color[4] = {3, 3, 3, 3};
  size_t zero[3] = {0, 0, 0};
  cl_event event = NULL;
  CHECK_CL_SUCCESS(
      clEnqueueFillImage(queue, image, color, zero, s2.size, 0, NULL, &event));
  CHECK_CL_SUCCESS(clReleaseMemObject(image));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  cl_command_type type = 0;
  clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL);
  CHECK_INT(CL_COMMAND_FILL_IMAGE, type);
  clReleaseEvent(event);
}

/* Several threads, each with its own queue, create, fill, write, read and
 * release images at once; every thread sees exactly its own pixels. */
static void *image_worker(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  cl_int error = -1;
  cl_command_queue own = clCreateCommandQueue(context, device, 0, &error);
  if (!own) return (void *)1;
  uintptr_t wrong = 0;
  for (int round = 0; round < 20; round++) {
    /* No CHECK here: the counters belong to the main thread. */
    shape s = {CL_MEM_OBJECT_IMAGE2D, {16 + id, 8, 1}};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = s.size[0],
                          .image_height = s.size[1]};
    cl_mem image = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
    if (!image) return (void *)1;
    size_t zero[3] = {0, 0, 0}, row[3] = {s.size[0], 1, 1};
    const cl_uint color[4] = {(cl_uint)id, (cl_uint)round, 1, 2};
    clEnqueueFillImage(own, image, color, zero, s.size, 0, NULL, NULL);
    uint8_t line[32 * ELEM], back[32 * 8 * ELEM];
    memset(line, (int)(id * 16 + round), sizeof(line));
    size_t at[3] = {0, 3, 0};
    clEnqueueWriteImage(own, image, CL_FALSE, at, row, 0, 0, line, 0, NULL,
                        NULL);
    clEnqueueReadImage(own, image, CL_TRUE, zero, s.size, 0, 0, back, 0, NULL,
                       NULL);
    for (size_t y = 0; y < 8; y++) {
      for (size_t x = 0; x < s.size[0]; x++) {
        const uint8_t *p = back + (y * s.size[0] + x) * ELEM;
        if (y == 3) {
          wrong += p[0] != (uint8_t)(id * 16 + round);
        } else {
          wrong += p[0] != id || p[1] != round || p[2] != 1 || p[3] != 2;
        }
      }
    }
    clReleaseMemObject(image);
  }
  clReleaseCommandQueue(own);
  return (void *)wrong;
}

static void test_threads(void) {
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  for (uintptr_t i = 0; i < THREADS; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, image_worker, (void *)i) == 0);
  }
  for (int i = 0; i < THREADS; i++) {
    void *result = NULL;
    pthread_join(threads[i], &result);
    CHECK_INT(0, (uintptr_t)result);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  test_round_trips();
  test_copies();
  test_fills();
  test_map();
  test_zero_copy();
  test_buffer_image();
  test_errors();
  test_release_while_queued();
  test_threads();
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* clmux OpenCL API tests: images — every 1.2 image type created and
 * queried, the deprecated creators, supported formats (the mandatory list
 * included), USE_HOST_PTR with pitches, 1D images over a buffer, and every
 * class of creation error. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "cl_test.h"

static cl_context context;
static cl_device_id device;

static size_t image_info(cl_mem image, cl_image_info param) {
  size_t value = 12345, size = 0;
  CHECK_CL_SUCCESS(clGetImageInfo(image, param, sizeof(value), &value, &size));
  CHECK_INT(sizeof(size_t), size);
  return value;
}

static cl_image_desc desc_of(cl_mem_object_type type, size_t w, size_t h,
                             size_t d, size_t layers) {
  cl_image_desc desc;
  memset(&desc, 0, sizeof(desc));
  desc.image_type = type;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = layers;
  return desc;
}

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

/* Creates an image and checks every query against what was asked. */
static void check_type(cl_mem_object_type type, size_t w, size_t h, size_t d,
                       size_t layers, size_t expect_h, size_t expect_d,
                       size_t expect_layers) {
  cl_image_desc desc = desc_of(type, w, h, d, layers);
  cl_int error = -1;
  cl_mem image =
      clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (!image) return;
  cl_image_format format = {0, 0};
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof(format), &format, &size));
  CHECK_INT(sizeof(cl_image_format), size);
  CHECK_INT(CL_RGBA, format.image_channel_order);
  CHECK_INT(CL_UNORM_INT8, format.image_channel_data_type);
  CHECK_INT(4, image_info(image, CL_IMAGE_ELEMENT_SIZE));
  CHECK_INT(w, image_info(image, CL_IMAGE_WIDTH));
  CHECK_INT(expect_h, image_info(image, CL_IMAGE_HEIGHT));
  CHECK_INT(expect_d, image_info(image, CL_IMAGE_DEPTH));
  CHECK_INT(expect_layers, image_info(image, CL_IMAGE_ARRAY_SIZE));
  size_t row = image_info(image, CL_IMAGE_ROW_PITCH);
  CHECK_INT(w * 4, row);
  size_t slice = image_info(image, CL_IMAGE_SLICE_PITCH);
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      CHECK_INT(row, slice);
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      CHECK_INT(row * h, slice);
      break;
    default:
      CHECK_INT(0, slice);
      break;
  }
  cl_mem buffer = (cl_mem)1;
  CHECK_CL_SUCCESS(
      clGetImageInfo(image, CL_IMAGE_BUFFER, sizeof(buffer), &buffer, &size));
  CHECK_INT(sizeof(cl_mem), size);
  CHECK(buffer == NULL);
  cl_uint zero = 7;
  CHECK_CL_SUCCESS(clGetImageInfo(image, CL_IMAGE_NUM_MIP_LEVELS, sizeof(zero),
                                  &zero, &size));
  CHECK_INT(sizeof(cl_uint), size);
  CHECK_INT(0, zero);
  zero = 7;
  CHECK_CL_SUCCESS(
      clGetImageInfo(image, CL_IMAGE_NUM_SAMPLES, sizeof(zero), &zero, NULL));
  CHECK_INT(0, zero);

  /* The shared memory-object queries. */
  cl_mem_object_type got_type = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(got_type),
                                      &got_type, NULL));
  CHECK_INT(type, got_type);
  size_t mem_size = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_SIZE, sizeof(mem_size),
                                      &mem_size, NULL));
  size_t slices = type == CL_MEM_OBJECT_IMAGE3D ? d : layers ? layers : 1;
  CHECK(mem_size >= w * 4 * (h ? h : 1) * slices);

  /* Info errors. */
  CHECK_CL(CL_INVALID_VALUE,
           clGetImageInfo(image, CL_IMAGE_WIDTH, 1, &size, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetImageInfo(image, 0x7777, sizeof(size), &size, NULL));
  CHECK_CL_SUCCESS(clReleaseMemObject(image));
}

static void test_types(void) {
  check_type(CL_MEM_OBJECT_IMAGE1D, 33, 0, 0, 0, 0, 0, 0);
  check_type(CL_MEM_OBJECT_IMAGE1D_ARRAY, 17, 0, 0, 5, 0, 0, 5);
  check_type(CL_MEM_OBJECT_IMAGE2D, 19, 7, 0, 0, 7, 0, 0);
  check_type(CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 5, 0, 3, 5, 0, 3);
  check_type(CL_MEM_OBJECT_IMAGE3D, 8, 6, 4, 0, 6, 4, 0);

  /* Buffers are not images. */
  cl_int error = -1;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  size_t value = 0;
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof(value), &value, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clGetImageInfo((cl_mem)context, CL_IMAGE_WIDTH, sizeof(value),
                          &value, NULL));
  clReleaseMemObject(buffer);
}

static void test_legacy(void) {
  cl_int error = -1;
  cl_mem image = clCreateImage2D(context, CL_MEM_READ_ONLY, &rgba8, 16, 8, 0,
                                 NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    CHECK_INT(16, image_info(image, CL_IMAGE_WIDTH));
    CHECK_INT(8, image_info(image, CL_IMAGE_HEIGHT));
    cl_mem_object_type type = 0;
    clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(type), &type, NULL);
    CHECK_INT(CL_MEM_OBJECT_IMAGE2D, type);
    clReleaseMemObject(image);
  }
  image = clCreateImage3D(context, CL_MEM_READ_ONLY, &rgba8, 4, 4, 3, 0, 0,
                          NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    CHECK_INT(3, image_info(image, CL_IMAGE_DEPTH));
    CHECK_INT(4 * 4 * 4, image_info(image, CL_IMAGE_SLICE_PITCH));
    clReleaseMemObject(image);
  }
  /* Sizes and pitches are CL_INVALID_IMAGE_SIZE in the old forms. */
  CHECK(clCreateImage2D(context, 0, &rgba8, 0, 8, 0, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  CHECK(clCreateImage2D(context, 0, &rgba8, 8, 0, 0, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  CHECK(clCreateImage2D(context, 0, &rgba8, 1u << 20, 8, 0, NULL, &error) ==
        NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  CHECK(clCreateImage3D(context, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &error) ==
        NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  CHECK(clCreateImage3D(context, 0, &rgba8, 4, 4, 1u << 20, 0, 0, NULL,
                        &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  cl_image_format bad = {CL_RGB, CL_UNORM_INT8};
  CHECK(clCreateImage2D(context, 0, &bad, 4, 4, 0, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  CHECK(clCreateImage2D(NULL, 0, &rgba8, 4, 4, 0, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_CONTEXT, error);
  CHECK(clCreateImage2D(context, 0, &rgba8, 4, 4, 0, (void *)&error, &error) ==
        NULL);
  CHECK_INT(CL_INVALID_HOST_PTR, error);
}

static bool listed(const cl_image_format *formats, cl_uint count,
                   cl_channel_order order, cl_channel_type type) {
  for (cl_uint i = 0; i < count; i++) {
    if (formats[i].image_channel_order == order &&
        formats[i].image_channel_data_type == type) {
      return true;
    }
  }
  return false;
}

static void test_formats(void) {
  const cl_mem_object_type types[] = {
      CL_MEM_OBJECT_IMAGE1D,        CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
      CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  const cl_mem_flags flag_sets[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                    CL_MEM_READ_WRITE,
                                    CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR};
  const cl_channel_type rgba_types[] = {
      CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
      CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
      CL_HALF_FLOAT,   CL_FLOAT};
  for (size_t t = 0; t < 6; t++) {
    for (size_t f = 0; f < 4; f++) {
      cl_uint count = 0;
      CHECK_CL_SUCCESS(clGetSupportedImageFormats(context, flag_sets[f],
                                                  types[t], 0, NULL, &count));
      CHECK(count >= 11);
      cl_image_format *formats = calloc(count + 1, sizeof(*formats));
      REQUIRE(formats);
      cl_uint again = 0;
      CHECK_CL_SUCCESS(clGetSupportedImageFormats(
          context, flag_sets[f], types[t], count, formats, &again));
      CHECK_INT(count, again);
      for (size_t k = 0; k < sizeof(rgba_types) / sizeof(rgba_types[0]); k++) {
        CHECK(listed(formats, count, CL_RGBA, rgba_types[k]));
      }
      CHECK(listed(formats, count, CL_BGRA, CL_UNORM_INT8));
      /* Every reported format can be created (small 2D / matching type). */
      if (types[t] == CL_MEM_OBJECT_IMAGE2D &&
          !(flag_sets[f] & CL_MEM_USE_HOST_PTR)) {
        for (cl_uint i = 0; i < count; i++) {
          cl_image_desc desc = desc_of(CL_MEM_OBJECT_IMAGE2D, 3, 2, 0, 0);
          cl_int error = -1;
          cl_mem image = clCreateImage(context, flag_sets[f], &formats[i],
                                       &desc, NULL, &error);
          CHECK_CL_SUCCESS(error);
          if (image) clReleaseMemObject(image);
        }
      }
      /* A shorter array gets the first entries only. */
      cl_image_format two[3];
      memset(two, 0xab, sizeof(two));
      CHECK_CL_SUCCESS(clGetSupportedImageFormats(context, flag_sets[f],
                                                  types[t], 2, two, NULL));
      CHECK(two[0].image_channel_order == formats[0].image_channel_order);
      CHECK(two[2].image_channel_order == 0xabababab);
      free(formats);
    }
  }
  cl_uint count = 0;
  cl_image_format one;
  CHECK_CL(CL_INVALID_CONTEXT,
           clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                      &count));
  CHECK_CL(CL_INVALID_VALUE,
           clGetSupportedImageFormats(context, 0, CL_MEM_OBJECT_BUFFER, 0, NULL,
                                      &count));
  CHECK_CL(CL_INVALID_VALUE,
           clGetSupportedImageFormats(context, 0, 0x1234, 0, NULL, &count));
  CHECK_CL(CL_INVALID_VALUE, clGetSupportedImageFormats(
                                 context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                 CL_MEM_OBJECT_IMAGE2D, 0, NULL, &count));
  CHECK_CL(CL_INVALID_VALUE,
           clGetSupportedImageFormats(context, 0, CL_MEM_OBJECT_IMAGE2D, 0,
                                      &one, &count));
}

static void test_host_ptr(void) {
  /* 2D with a padded row pitch: zero-copy, pitches reported as given. */
  enum { W = 5, H = 3, ROW = 32 };
  uint8_t *pixels = calloc(ROW * H, 1);
  REQUIRE(pixels);
  cl_image_desc desc = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
  desc.image_row_pitch = ROW;
  cl_int error = -1;
  cl_mem image = clCreateImage(context, CL_MEM_USE_HOST_PTR, &rgba8, &desc,
                               pixels, &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    CHECK_INT(ROW, image_info(image, CL_IMAGE_ROW_PITCH));
    void *host = NULL;
    CHECK_CL_SUCCESS(
        clGetMemObjectInfo(image, CL_MEM_HOST_PTR, sizeof(host), &host, NULL));
    CHECK(host == pixels);
    clReleaseMemObject(image);
  }
  /* 3D with both pitches; COPY_HOST_PTR with pitches too. */
  enum { W3 = 2, H3 = 3, D3 = 2, ROW3 = 12, SLICE3 = 48 };
  uint8_t *volume = calloc(SLICE3 * D3, 1);
  REQUIRE(volume);
  cl_image_desc desc3 = desc_of(CL_MEM_OBJECT_IMAGE3D, W3, H3, D3, 0);
  desc3.image_row_pitch = ROW3;
  desc3.image_slice_pitch = SLICE3;
  const cl_mem_flags kinds[] = {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR};
  for (int k = 0; k < 2; k++) {
    image = clCreateImage(context, kinds[k], &rgba8, &desc3, volume, &error);
    CHECK_CL_SUCCESS(error);
    if (!image) continue;
    CHECK_INT(SLICE3, image_info(image, CL_IMAGE_SLICE_PITCH));
    clReleaseMemObject(image);
  }
  /* 1D array: the slice pitch is the distance between layers. */
  cl_image_desc desc1a = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 3, 0, 0, 4);
  desc1a.image_row_pitch = 12;
  desc1a.image_slice_pitch = 24;
  image = clCreateImage(context, CL_MEM_USE_HOST_PTR, &rgba8, &desc1a, volume,
                        &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    CHECK_INT(12, image_info(image, CL_IMAGE_ROW_PITCH));
    CHECK_INT(24, image_info(image, CL_IMAGE_SLICE_PITCH));
    clReleaseMemObject(image);
  }
  free(volume);
  free(pixels);
}

static void test_buffer_image(void) {
  cl_int error = -1;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_ONLY, 256, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_image_desc desc = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  desc.buffer = buffer;
  cl_mem image = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) {
    cl_mem got = NULL;
    CHECK_CL_SUCCESS(
        clGetImageInfo(image, CL_IMAGE_BUFFER, sizeof(got), &got, NULL));
    CHECK(got == buffer);
    CHECK_INT(64, image_info(image, CL_IMAGE_WIDTH));
    CHECK_INT(0, image_info(image, CL_IMAGE_HEIGHT));
    cl_mem_flags flags = 0;
    CHECK_CL_SUCCESS(
        clGetMemObjectInfo(image, CL_MEM_FLAGS, sizeof(flags), &flags, NULL));
    CHECK(flags & CL_MEM_READ_ONLY); /* inherited from the buffer */
    cl_uint refs = 0;
    CHECK_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_REFERENCE_COUNT,
                                        sizeof(refs), &refs, NULL));
    CHECK_INT(1, refs);
    /* The image holds its buffer past the user's release. */
    CHECK_CL_SUCCESS(clRetainMemObject(buffer));
    CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
    clReleaseMemObject(image);
  }
  /* Too wide for the buffer; more access than the buffer allows; host
   * pointer flags; no buffer; not a buffer. */
  desc.image_width = 65;
  CHECK(clCreateImage(context, 0, &rgba8, &desc, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  desc.image_width = 64;
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, NULL,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clCreateImage(context, CL_MEM_ALLOC_HOST_PTR, &rgba8, &desc, NULL,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  /* A row pitch for the buffer's one row: at least width * element size
   * and a multiple of it. */
  desc.image_width = 60;
  desc.image_row_pitch = 256;
  image = clCreateImage(context, 0, &rgba8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) clReleaseMemObject(image);
  desc.image_row_pitch = 200;
  CHECK(clCreateImage(context, 0, &rgba8, &desc, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  desc.image_row_pitch = 242;
  CHECK(clCreateImage(context, 0, &rgba8, &desc, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  desc.image_row_pitch = 0;
  desc.image_width = 64;
  /* Every other type may take a buffer too (cl_ext_image_from_buffer,
   * image_from_buffer.c tests them), sized as for the 1D-buffer type. */
  cl_image_desc other = desc_of(CL_MEM_OBJECT_IMAGE1D, 64, 0, 0, 0);
  other.buffer = buffer;
  cl_mem over = clCreateImage(context, 0, &rgba8, &other, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (over) clReleaseMemObject(over);
  other.image_width = 65;
  CHECK(clCreateImage(context, 0, &rgba8, &other, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  cl_image_desc missing = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  CHECK(clCreateImage(context, 0, &rgba8, &missing, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  cl_image_desc image_desc = desc_of(CL_MEM_OBJECT_IMAGE1D, 64, 0, 0, 0);
  cl_mem image1d = clCreateImage(context, 0, &rgba8, &image_desc, NULL, &error);
  REQUIRE(image1d);
  missing.buffer = image1d;
  CHECK(clCreateImage(context, 0, &rgba8, &missing, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  clReleaseMemObject(image1d);
  clReleaseMemObject(buffer);
}

static void test_errors(void) {
  cl_int error = CL_SUCCESS;
  cl_image_desc desc = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  uint8_t host[4 * 4 * 4 * 4];

  CHECK(clCreateImage(NULL, 0, &rgba8, &desc, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_CONTEXT, error);
  CHECK(clCreateImage((cl_context)device, 0, &rgba8, &desc, NULL, &error) ==
        NULL);
  CHECK_INT(CL_INVALID_CONTEXT, error);

  /* Flags as for buffers. */
  const cl_mem_flags bad_flags[] = {
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
      (cl_mem_flags)1 << 40};
  for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
    CHECK(clCreateImage(context, bad_flags[i], &rgba8, &desc, host, &error) ==
          NULL);
    CHECK_INT(CL_INVALID_VALUE, error);
  }

  /* Format descriptors: NULL, unknown values, pairs 1.2 does not define. */
  const cl_image_format bad_formats[] = {{CL_RGB, CL_UNORM_INT8},
                                         {CL_RGBA, CL_UNORM_SHORT_565},
                                         {CL_BGRA, CL_FLOAT},
                                         {CL_ARGB, CL_UNORM_INT16},
                                         {CL_INTENSITY, CL_SIGNED_INT8},
                                         {CL_LUMINANCE, CL_UNSIGNED_INT32},
                                         {0x1234, CL_FLOAT},
                                         {CL_R, 0x1234}};
  CHECK(clCreateImage(context, 0, NULL, &desc, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  for (size_t i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++) {
    CHECK(clCreateImage(context, 0, &bad_formats[i], &desc, NULL, &error) ==
          NULL);
    CHECK_INT(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  }
  /* Valid 1.2 pairs the device does not offer. */
  const cl_image_format unsupported[] = {{CL_RGB, CL_UNORM_SHORT_565},
                                         {CL_RGBx, CL_UNORM_INT_101010},
                                         {CL_Rx, CL_FLOAT}};
  for (size_t i = 0; i < 3; i++) {
    CHECK(clCreateImage(context, 0, &unsupported[i], &desc, NULL, &error) ==
          NULL);
    CHECK_INT(CL_IMAGE_FORMAT_NOT_SUPPORTED, error);
  }

  /* Descriptors. */
  CHECK(clCreateImage(context, 0, &rgba8, NULL, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  cl_image_desc d = desc;
  d.image_type = CL_MEM_OBJECT_BUFFER;
  CHECK(clCreateImage(context, 0, &rgba8, &d, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc;
  d.image_row_pitch = 64; /* a pitch without a host pointer */
  CHECK(clCreateImage(context, 0, &rgba8, &d, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc;
  d.image_row_pitch = 8; /* below width * element size */
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d.image_row_pitch = 18; /* not a multiple of the element size */
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc_of(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 0);
  d.image_slice_pitch = 32; /* without a host pointer */
  CHECK(clCreateImage(context, 0, &rgba8, &d, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d.image_row_pitch = 8;
  d.image_slice_pitch = 8; /* below row * height */
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d.image_slice_pitch = 20; /* not a multiple of the row pitch */
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 2, 0, 0, 2);
  d.image_row_pitch = 8;
  d.image_slice_pitch = 4; /* below the row pitch */
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc;
  d.num_mip_levels = 1;
  CHECK(clCreateImage(context, 0, &rgba8, &d, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);
  d = desc;
  d.num_samples = 2;
  CHECK(clCreateImage(context, 0, &rgba8, &d, NULL, &error) == NULL);
  CHECK_INT(CL_INVALID_IMAGE_DESCRIPTOR, error);

  /* Sizes: zero and beyond the device's limits, per type. */
  size_t max2d = 0, max3d = 0, max_array = 0;
  clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(max2d), &max2d,
                  NULL);
  clGetDeviceInfo(device, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(max3d), &max3d,
                  NULL);
  clGetDeviceInfo(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(max_array),
                  &max_array, NULL);
  CHECK(max2d >= 8192 && max3d >= 2048 && max_array >= 2048);
  const cl_image_desc bad_sizes[] = {
      desc_of(CL_MEM_OBJECT_IMAGE1D, 0, 0, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE1D, max2d + 1, 0, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 0, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE2D, max2d + 1, 4, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE2D, 4, max2d + 1, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, max3d + 1, 0),
      desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, max_array + 1),
      desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0),
      desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, max_array + 1)};
  for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
    CHECK(clCreateImage(context, 0, &rgba8, &bad_sizes[i], NULL, &error) ==
          NULL);
    CHECK_INT(CL_INVALID_IMAGE_SIZE, error);
  }

  /* Host pointers. */
  CHECK(clCreateImage(context, CL_MEM_USE_HOST_PTR, &rgba8, &desc, NULL,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_HOST_PTR, error);
  CHECK(clCreateImage(context, CL_MEM_COPY_HOST_PTR, &rgba8, &desc, NULL,
                      &error) == NULL);
  CHECK_INT(CL_INVALID_HOST_PTR, error);
  CHECK(clCreateImage(context, 0, &rgba8, &desc, host, &error) == NULL);
  CHECK_INT(CL_INVALID_HOST_PTR, error);

  /* errcode_ret may be NULL; flags 0 means READ_WRITE. */
  cl_mem image = clCreateImage(context, 0, &rgba8, &desc, NULL, NULL);
  CHECK(image != NULL);
  if (image) {
    cl_mem_flags flags = 0;
    clGetMemObjectInfo(image, CL_MEM_FLAGS, sizeof(flags), &flags, NULL);
    CHECK(flags & CL_MEM_READ_WRITE);
    clReleaseMemObject(image);
  }
}

/* Every supported format of every type can be created and reports its
 * element size. */
static void test_element_sizes(void) {
  const struct {
    cl_image_format format;
    size_t size;
  } cases[] = {
      {{CL_R, CL_UNORM_INT8}, 1},         {{CL_A, CL_FLOAT}, 4},
      {{CL_RG, CL_HALF_FLOAT}, 4},        {{CL_RA, CL_SNORM_INT16}, 4},
      {{CL_RGBA, CL_UNSIGNED_INT32}, 16}, {{CL_BGRA, CL_SNORM_INT8}, 4},
      {{CL_ARGB, CL_UNORM_INT8}, 4},      {{CL_INTENSITY, CL_FLOAT}, 4},
      {{CL_LUMINANCE, CL_UNORM_INT16}, 2}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    cl_image_desc desc = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 3, 0, 2);
    cl_int error = -1;
    cl_mem image = clCreateImage(context, CL_MEM_READ_ONLY, &cases[i].format,
                                 &desc, NULL, &error);
    CHECK_CL_SUCCESS(error);
    if (!image) continue;
    CHECK_INT(cases[i].size, image_info(image, CL_IMAGE_ELEMENT_SIZE));
    CHECK_INT(3 * cases[i].size, image_info(image, CL_IMAGE_ROW_PITCH));
    clReleaseMemObject(image);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  cl_bool images = CL_FALSE;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT,
                                   sizeof(images), &images, NULL));
  CHECK_INT(CL_TRUE, images);
  test_types();
  test_legacy();
  test_formats();
  test_host_ptr();
  test_buffer_image();
  test_errors();
  test_element_sizes();
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

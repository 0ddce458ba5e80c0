/* cl_ext_image_requirements_info through the loader: the entry point from
 * clGetExtensionFunctionAddressForPlatform; alignments that images over a
 * buffer then accept; sizes that are exactly what clCreateImage takes of a
 * buffer (one byte less is refused) and its CL_MEM_SIZE; limits equal to
 * the device's; every error the extension names. */
#define CL_TARGET_OPENCL_VERSION 300
#include "cl_test.h"

#include <CL/cl_ext.h>

static cl_device_id device;
static cl_context context;
static clGetImageRequirementsInfoEXT_fn requirements;

static const cl_image_format rgba16 = {CL_RGBA, CL_UNSIGNED_INT16};
static const cl_image_format r8 = {CL_R, CL_UNORM_INT8};

static size_t size_query(const cl_image_format *format,
                         const cl_image_desc *desc,
                         cl_image_requirements_info_ext param) {
  size_t value = 0, size = 0;
  CHECK_CL_SUCCESS(requirements(context, NULL, CL_MEM_READ_WRITE, format, desc,
                                param, sizeof value, &value, &size));
  CHECK_INT((int)sizeof value, (int)size);
  return value;
}

static cl_uint limit_query(const cl_image_desc *desc,
                           cl_image_requirements_info_ext param) {
  cl_uint value = 0;
  CHECK_CL_SUCCESS(requirements(context, NULL, 0, NULL, desc, param,
                                sizeof value, &value, NULL));
  return value;
}

static size_t device_size(cl_device_info param) {
  size_t value = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static void check_alignments(void) {
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = 9,
                        .image_height = 5};
  const cl_image_requirements_info_ext pitches[] = {
      CL_IMAGE_REQUIREMENTS_ROW_PITCH_ALIGNMENT_EXT,
      CL_IMAGE_REQUIREMENTS_SLICE_PITCH_ALIGNMENT_EXT};
  for (int i = 0; i < 2; i++) {
    CHECK_INT(8, (int)size_query(&rgba16, &desc, pitches[i]));
    CHECK_INT(1, (int)size_query(&r8, &desc, pitches[i]));
    /* For every format: the largest element. */
    CHECK_INT(16, (int)size_query(NULL, NULL, pitches[i]));
  }
  CHECK_INT(1, (int)size_query(&rgba16, &desc,
                               CL_IMAGE_REQUIREMENTS_BASE_ADDRESS_ALIGNMENT_EXT));
  CHECK_INT(1, (int)size_query(NULL, NULL,
                               CL_IMAGE_REQUIREMENTS_BASE_ADDRESS_ALIGNMENT_EXT));

  /* An image over a buffer takes a row pitch of any multiple of the
   * alignment, at any byte of the buffer (a sub-buffer's origin aside,
   * through an unaligned host pointer). */
  cl_uchar *host = malloc(4096 + 1);
  REQUIRE(host);
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, host + 1,
                                 &error);
  CHECK_CL_SUCCESS(error);
  desc.buffer = buffer;
  desc.image_row_pitch = 9 * 8 + 8;
  cl_mem image = clCreateImage(context, 0, &rgba16, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) clReleaseMemObject(image);
  desc.image_row_pitch = 9 * 8 + 4;
  CHECK(clCreateImage(context, 0, &rgba16, &desc, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, error);
  desc.image_row_pitch = 9 + 1;
  image = clCreateImage(context, 0, &r8, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (image) clReleaseMemObject(image);
  clReleaseMemObject(buffer);
  free(host);
}

/* Every type, packed and with pitches: the size is what an image over a
 * buffer of that size reports and needs. */
static void check_sizes(void) {
  const cl_image_desc descs[] = {
      {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 11},
      {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 11},
      {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY,
       .image_width = 11,
       .image_array_size = 3},
      {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY,
       .image_width = 11,
       .image_array_size = 3,
       .image_slice_pitch = 13 * 8},
      {.image_type = CL_MEM_OBJECT_IMAGE2D,
       .image_width = 11,
       .image_height = 4,
       .image_row_pitch = 12 * 8},
      {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY,
       .image_width = 11,
       .image_height = 4,
       .image_array_size = 2},
      {.image_type = CL_MEM_OBJECT_IMAGE3D,
       .image_width = 11,
       .image_height = 4,
       .image_depth = 3,
       .image_row_pitch = 12 * 8,
       .image_slice_pitch = 12 * 8 * 4 + 8},
  };
  const size_t expected[] = {88, 88, 264, 312, 384, 704, 1176};
  for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++) {
    size_t size = size_query(&rgba16, &descs[i], CL_IMAGE_REQUIREMENTS_SIZE_EXT);
    CHECK_INT((int)expected[i], (int)size);
    cl_int error = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(context, 0, size, NULL, &error);
    CHECK_CL_SUCCESS(error);
    cl_image_desc desc = descs[i];
    desc.buffer = buffer;
    cl_mem image = clCreateImage(context, 0, &rgba16, &desc, NULL, &error);
    CHECK_CL_SUCCESS(error);
    size_t mem_size = 0;
    if (image) {
      CHECK_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_SIZE, sizeof mem_size,
                                          &mem_size, NULL));
      clReleaseMemObject(image);
    }
    CHECK_INT((int)size, (int)mem_size);
    clReleaseMemObject(buffer);
    buffer = clCreateBuffer(context, 0, size - 1, NULL, &error);
    desc.buffer = buffer;
    CHECK(clCreateImage(context, 0, &rgba16, &desc, NULL, &error) == NULL);
    CHECK_CL(CL_INVALID_IMAGE_SIZE, error);
    clReleaseMemObject(buffer);
  }
}

static void check_limits(void) {
  size_t w2 = device_size(CL_DEVICE_IMAGE2D_MAX_WIDTH);
  size_t h2 = device_size(CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  size_t w3 = device_size(CL_DEVICE_IMAGE3D_MAX_WIDTH);
  size_t h3 = device_size(CL_DEVICE_IMAGE3D_MAX_HEIGHT);
  size_t d3 = device_size(CL_DEVICE_IMAGE3D_MAX_DEPTH);
  size_t layers = device_size(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  size_t texels = device_size(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
  size_t least_w = w2 < w3 ? w2 : w3, least_h = h2 < h3 ? h2 : h3;
  if (texels < least_w) least_w = texels;
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D};
  cl_image_desc d3d = {.image_type = CL_MEM_OBJECT_IMAGE3D};
  cl_image_desc a2 = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY};
  cl_image_desc b1 = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER};
  cl_image_desc any = {.image_type = 0};
  CHECK_INT((int)w2, (int)limit_query(&d2, CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT));
  CHECK_INT((int)h2,
            (int)limit_query(&d2, CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT));
  CHECK_INT((int)w3,
            (int)limit_query(&d3d, CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT));
  CHECK_INT((int)d3,
            (int)limit_query(&d3d, CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT));
  CHECK_INT((int)layers,
            (int)limit_query(&a2, CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT));
  cl_uint buffer_width = limit_query(&b1, CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT);
  CHECK(buffer_width ==
        (texels > CL_UINT_MAX ? CL_UINT_MAX : (cl_uint)texels));
  /* Without a type: what every type takes. */
  CHECK_INT((int)least_w,
            (int)limit_query(&any, CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT));
  CHECK_INT((int)least_w,
            (int)limit_query(NULL, CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT));
  CHECK_INT((int)least_h,
            (int)limit_query(NULL, CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT));
}

static void check_errors(void) {
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = 4,
                        .image_height = 4};
  size_t value = 0;
  cl_uint small = 0;
  const cl_image_requirements_info_ext size = CL_IMAGE_REQUIREMENTS_SIZE_EXT;
  CHECK_CL(CL_INVALID_CONTEXT, requirements(NULL, NULL, 0, &rgba16, &desc,
                                            size, sizeof value, &value, NULL));
  const cl_mem_properties properties[] = {0x4242, 1, 0};
  CHECK_CL(CL_INVALID_PROPERTY,
           requirements(context, properties, 0, &rgba16, &desc, size,
                        sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           requirements(context, NULL, (cl_mem_flags)-1, &rgba16, &desc, size,
                        sizeof value, &value, NULL));
  CHECK_CL_SUCCESS(requirements(context, NULL, CL_MEM_KERNEL_READ_AND_WRITE,
                                &rgba16, &desc, size, sizeof value, &value,
                                NULL));
  const cl_image_format bad_format = {CL_INTENSITY, CL_UNORM_SHORT_555};
  CHECK_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
           requirements(context, NULL, 0, &bad_format, &desc, size,
                        sizeof value, &value, NULL));
  cl_image_desc buffer_type = {.image_type = CL_MEM_OBJECT_BUFFER,
                               .image_width = 4};
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
           requirements(context, NULL, 0, &rgba16, &buffer_type, size,
                        sizeof value, &value, NULL));
  cl_image_desc no_width = {.image_type = CL_MEM_OBJECT_IMAGE1D};
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
           requirements(context, NULL, 0, &rgba16, &no_width,
                        CL_IMAGE_REQUIREMENTS_ROW_PITCH_ALIGNMENT_EXT,
                        sizeof value, &value, NULL));
  cl_image_desc short_row = desc;
  short_row.image_row_pitch = 8;
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
           requirements(context, NULL, 0, &rgba16, &short_row, size,
                        sizeof value, &value, NULL));
  /* A size needs both the format and the descriptor. */
  CHECK_CL(CL_INVALID_VALUE, requirements(context, NULL, 0, NULL, &desc, size,
                                          sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE, requirements(context, NULL, 0, &rgba16, NULL,
                                          size, sizeof value, &value, NULL));
  /* Limits of dimensions the type lacks. */
  const cl_mem_object_type flat[] = {CL_MEM_OBJECT_IMAGE1D,
                                     CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                     CL_MEM_OBJECT_IMAGE1D_ARRAY};
  for (int i = 0; i < 3; i++) {
    cl_image_desc d = {.image_type = flat[i]};
    CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
             requirements(context, NULL, 0, NULL, &d,
                          CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT, sizeof small,
                          &small, NULL));
  }
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
           requirements(context, NULL, 0, NULL, &desc,
                        CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT, sizeof small,
                        &small, NULL));
  CHECK_CL(CL_INVALID_IMAGE_DESCRIPTOR,
           requirements(context, NULL, 0, NULL, &desc,
                        CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT, sizeof small,
                        &small, NULL));
  /* Unknown names; room for less than the value. */
  CHECK_CL(CL_INVALID_VALUE,
           requirements(context, NULL, 0, &rgba16, &desc, CL_IMAGE_FORMAT,
                        sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           requirements(context, NULL, 0, &rgba16, &desc,
                        CL_IMAGE_REQUIREMENTS_ROW_PITCH_ALIGNMENT_EXT,
                        sizeof value - 1, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           requirements(context, NULL, 0, NULL, &desc,
                        CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT, sizeof small - 1,
                        &small, NULL));
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  CHECK(cl_test_has_extension(device, "cl_ext_image_requirements_info"));
  requirements = (clGetImageRequirementsInfoEXT_fn)
      clGetExtensionFunctionAddressForPlatform(cl_test_platform(),
                                               "clGetImageRequirementsInfoEXT");
  REQUIRE(requirements);
  check_alignments();
  check_sizes();
  check_limits();
  check_errors();
  clReleaseContext(context);
  return check_finish();
}

/* clmux OpenCL front-end: cl_ext_image_requirements_info, what an image
 * needs before it is made, with the slice pitch alignment of
 * cl_ext_image_from_buffer.
 *
 * The CPU target reads and writes pixels at any byte address, so the base
 * address needs no alignment; pitches are whole pixels (image.c's
 * clx_image_layout), and every element size is a power of two, so the
 * element size is the pitch alignment. Sizes and limits come from the
 * same functions clCreateImage checks with, so the two cannot disagree. */
#include "clx.h"

/* The largest element of any format: a pitch alignment for all of them. */
enum { largest_element = 16 };

static bool is_max_query(cl_image_requirements_info_ext param) {
  switch (param) {
    case CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT:
      return true;
    default:
      return false;
  }
}

/* The types a limit query may name: 0 means every type. */
static bool max_query_type_allowed(cl_image_requirements_info_ext param,
                                   cl_mem_object_type type) {
  if (type == 0) return true;
  switch (param) {
    case CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT:
      return type == CL_MEM_OBJECT_IMAGE2D ||
             type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
             type == CL_MEM_OBJECT_IMAGE3D;
    case CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT:
      return type == CL_MEM_OBJECT_IMAGE3D;
    case CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT:
      return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
             type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    default:
      return true;
  }
}

static size_t extent_member(const clx_image_extent *e,
                            cl_image_requirements_info_ext param) {
  switch (param) {
    case CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT:
      return e->height;
    case CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT:
      return e->depth;
    case CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT:
      return e->array_size;
    default:
      return e->width;
  }
}

/* A limit for `type`, or for every type that has the dimension (type 0). */
static cl_uint max_extent(cl_context context, cl_mem_object_type type,
                          cl_image_requirements_info_ext param) {
  static const cl_mem_object_type types[] = {
      CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
      CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
      CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  size_t least = SIZE_MAX;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (type != 0 && types[i] != type) continue;
    clx_image_extent max;
    clx_image_max_extent(context, types[i], &max);
    size_t value = extent_member(&max, param);
    if (value != 0 && value < least) least = value;
  }
  return least > CL_UINT_MAX ? CL_UINT_MAX : (cl_uint)least;
}

/* What clCreateImage would find wrong with the descriptor, as the
 * requirements query reports it: the descriptor is invalid. */
static cl_int check_desc(cl_context context, const cl_image_desc *desc,
                         size_t element, cl_image_desc *layout) {
  if (desc->num_mip_levels != 0 || desc->num_samples != 0) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (desc->buffer && !clx_image_over_buffer(desc)) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  /* Pitches are those of an image over a buffer, the kind asked about. */
  cl_int error = clx_image_layout(desc, element ? element : 1, true, layout);
  if (error == CL_INVALID_IMAGE_SIZE) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (error != CL_SUCCESS) return error;
  return clx_image_check_size(context, desc) == CL_SUCCESS
             ? CL_SUCCESS
             : CL_INVALID_IMAGE_DESCRIPTOR;
}

cl_int CL_API_CALL clx_get_image_requirements_info(
    cl_context context, const cl_mem_properties *properties,
    cl_mem_flags flags, const cl_image_format *image_format,
    const cl_image_desc *image_desc, cl_image_requirements_info_ext param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  /* clmux knows no memory property (as clCreateImageWithProperties). */
  if (properties && properties[0] != 0) return CL_INVALID_PROPERTY;
  flags &= ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE;
  if (clx_mem_check_flags(flags) != CL_SUCCESS) return CL_INVALID_VALUE;
  size_t element = 0;
  if (image_format) {
    element = clx_image_element_size(image_format);
    if (element == 0) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  }
  bool max_query = is_max_query(param_name);
  cl_image_desc layout = {0};
  if (image_desc) {
    cl_mem_object_type type = image_desc->image_type;
    if (max_query ? !(type == 0 || clx_image_type_valid(type)) ||
                        !max_query_type_allowed(param_name, type)
                  : !clx_image_type_valid(type)) {
      return CL_INVALID_IMAGE_DESCRIPTOR;
    }
    /* A limit query ignores the dimensions: they may be 0. */
    if (!max_query) {
      cl_int error = check_desc(context, image_desc, element, &layout);
      if (error != CL_SUCCESS) return error;
    }
  }

  size_t size_value = 0;
  switch (param_name) {
    case CL_IMAGE_REQUIREMENTS_ROW_PITCH_ALIGNMENT_EXT:
    case CL_IMAGE_REQUIREMENTS_SLICE_PITCH_ALIGNMENT_EXT:
      size_value = element ? element : largest_element;
      break;
    case CL_IMAGE_REQUIREMENTS_BASE_ADDRESS_ALIGNMENT_EXT:
      size_value = 1;
      break;
    case CL_IMAGE_REQUIREMENTS_SIZE_EXT:
      if (!image_format || !image_desc) return CL_INVALID_VALUE;
      if (!clx_image_bytes(&layout, element, &size_value)) {
        return CL_INVALID_IMAGE_DESCRIPTOR;
      }
      break;
    case CL_IMAGE_REQUIREMENTS_MAX_WIDTH_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_HEIGHT_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_DEPTH_EXT:
    case CL_IMAGE_REQUIREMENTS_MAX_ARRAY_SIZE_EXT: {
      cl_uint value = max_extent(
          context, image_desc ? image_desc->image_type : 0, param_name);
      return clx_info(&value, sizeof value, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
  return clx_info(&size_value, sizeof size_value, param_value_size,
                  param_value, param_value_size_ret);
}

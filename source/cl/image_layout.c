/* clmux OpenCL front-end: what an image descriptor means. Its dimensions
 * against every device's limits, its pitches (given with a host pointer or
 * a buffer, or packed), the bytes it spans, and a 2D image's view of
 * another 2D image; image.c creates images from what this checks,
 * image_requirements.c answers queries with it. */
#include "clx.h"

/* A device limit through the device's own query (so creation agrees with
 * what clGetDeviceInfo reports), never above what Mux accepts. */
static size_t device_limit(cl_device_id device, cl_device_info param,
                           size_t mux_limit) {
  size_t value = 0;
  if (clGetDeviceInfo(device, param, sizeof(value), &value, NULL) !=
          CL_SUCCESS ||
      value == 0 || value > mux_limit) {
    return mux_limit;
  }
  return value;
}

void clx_image_max_extent(cl_context context, cl_mem_object_type type,
                          clx_image_extent *max) {
  *max = (clx_image_extent){SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
  for (cl_uint i = 0; i < context->num_devices; i++) {
    cl_device_id device = context->devices[i];
    const struct mux_device_info_s *info = device->info;
    size_t max2d_w = device_limit(device, CL_DEVICE_IMAGE2D_MAX_WIDTH,
                                  info->max_image_dimension_2d);
    size_t max2d_h = device_limit(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                                  info->max_image_dimension_2d);
    size_t max3d_w = device_limit(device, CL_DEVICE_IMAGE3D_MAX_WIDTH,
                                  info->max_image_dimension_3d);
    size_t max3d_h = device_limit(device, CL_DEVICE_IMAGE3D_MAX_HEIGHT,
                                  info->max_image_dimension_3d);
    size_t max3d_d = device_limit(device, CL_DEVICE_IMAGE3D_MAX_DEPTH,
                                  info->max_image_dimension_3d);
    size_t max_array = device_limit(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
                                    info->max_image_array_layers);
    size_t max_buffer = device_limit(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
                                     info->max_image_dimension_1d);
    size_t max1d = max2d_w < info->max_image_dimension_1d
                       ? max2d_w
                       : info->max_image_dimension_1d;
    clx_image_extent here = {0, 0, 0, 0};
    switch (type) {
      case CL_MEM_OBJECT_IMAGE1D:
        here.width = max1d;
        break;
      case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        here.width = max_buffer;
        break;
      case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        here = (clx_image_extent){max1d, 0, 0, max_array};
        break;
      case CL_MEM_OBJECT_IMAGE2D:
        here = (clx_image_extent){max2d_w, max2d_h, 0, 0};
        break;
      case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        here = (clx_image_extent){max2d_w, max2d_h, 0, max_array};
        break;
      case CL_MEM_OBJECT_IMAGE3D:
        here = (clx_image_extent){max3d_w, max3d_h, max3d_d, 0};
        break;
    }
    if (here.width < max->width) max->width = here.width;
    if (here.height < max->height) max->height = here.height;
    if (here.depth < max->depth) max->depth = here.depth;
    if (here.array_size < max->array_size) max->array_size = here.array_size;
  }
}

static bool within(size_t value, size_t limit) {
  return value != 0 && value <= limit;
}

cl_int clx_image_check_size(cl_context context, const cl_image_desc *desc) {
  clx_image_extent max;
  clx_image_max_extent(context, desc->image_type, &max);
  bool ok = within(desc->image_width, max.width) &&
            (max.height == 0 || within(desc->image_height, max.height)) &&
            (max.depth == 0 || within(desc->image_depth, max.depth)) &&
            (max.array_size == 0 ||
             within(desc->image_array_size, max.array_size));
  return ok ? CL_SUCCESS : CL_INVALID_IMAGE_SIZE;
}

bool clx_image_is_array(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* Rows per slice: what the slice pitch must cover. */
static size_t rows_per_slice(const cl_image_desc *desc) {
  if (desc->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      desc->image_type == CL_MEM_OBJECT_IMAGE3D) {
    return desc->image_height;
  }
  return 1;
}

bool clx_image_has_slices(cl_mem_object_type type) {
  return clx_image_is_array(type) || type == CL_MEM_OBJECT_IMAGE3D;
}

/* The descriptor with its pitches checked and filled in (packed where 0).
 * With a host pointer they are whole pixels and a slice is whole rows, as
 * OpenCL 1.2 says. Over a buffer (cl_ext_image_from_buffer) they are
 * multiples of the alignments clGetImageRequirementsInfoEXT reports, the
 * element size for both, and a misaligned one is
 * CL_INVALID_IMAGE_FORMAT_DESCRIPTOR; a slice need not be whole rows there
 * (the CPU target addresses x, y and z with separate pitches). */
cl_int clx_image_layout(const cl_image_desc *desc, size_t element,
                        bool over_buffer, cl_image_desc *layout) {
  *layout = *desc;
  if (desc->image_width == 0) return CL_SUCCESS; /* a size error, later */
  bool aligned_pitches =
      over_buffer && desc->image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER;
  size_t packed_row;
  if (__builtin_mul_overflow(desc->image_width, element, &packed_row)) {
    return CL_INVALID_IMAGE_SIZE;
  }
  size_t row = desc->image_row_pitch ? desc->image_row_pitch : packed_row;
  if (row % element != 0) {
    return aligned_pitches ? CL_INVALID_IMAGE_FORMAT_DESCRIPTOR
                           : CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (row < packed_row) return CL_INVALID_IMAGE_DESCRIPTOR;
  layout->image_row_pitch = row;
  layout->image_slice_pitch = 0;
  if (clx_image_has_slices(desc->image_type)) {
    size_t packed_slice;
    if (__builtin_mul_overflow(row, rows_per_slice(desc), &packed_slice)) {
      return CL_INVALID_IMAGE_SIZE;
    }
    size_t slice =
        desc->image_slice_pitch ? desc->image_slice_pitch : packed_slice;
    if (aligned_pitches && slice % element != 0) {
      return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    }
    if (slice < packed_slice || (!aligned_pitches && slice % row != 0)) {
      return CL_INVALID_IMAGE_DESCRIPTOR;
    }
    layout->image_slice_pitch = slice;
  }
  return CL_SUCCESS;
}

bool clx_image_over_image(const cl_image_desc *desc) {
  return desc->image_type == CL_MEM_OBJECT_IMAGE2D && desc->buffer &&
         clx_is_image(desc->buffer);
}

/* A 2D image over another (OpenCL 2.0): the descriptor is the other's,
 * but for a row pitch it may leave 0; the layout is the other's. */
static cl_int check_view(const cl_image_desc *desc, const void *host_ptr,
                         cl_image_desc *layout) {
  const cl_image_desc *source = &desc->buffer->image_desc;
  if (source->image_type != CL_MEM_OBJECT_IMAGE2D ||
      desc->image_width != source->image_width ||
      desc->image_height != source->image_height ||
      (desc->image_row_pitch != 0 &&
       desc->image_row_pitch != source->image_row_pitch) ||
      desc->image_slice_pitch != 0 || desc->image_depth > 1 ||
      desc->image_array_size > 1) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (host_ptr) return CL_INVALID_HOST_PTR;
  *layout = *source;
  layout->buffer = desc->buffer;
  return CL_SUCCESS;
}

/* The orders a view may give an image's pixels: sRGB and linear of the
 * same channels (OpenCL 2.0, 5.3.1), the type unchanged. */
bool clx_image_view_format_allowed(const cl_image_format *view,
                                   const cl_image_format *source) {
  static const cl_channel_order pairs[][2] = {{CL_sRGBA, CL_RGBA},
                                              {CL_sBGRA, CL_BGRA},
                                              {CL_sRGBx, CL_RGBx},
                                              {CL_sRGB, CL_RGB}};
  if (view->image_channel_data_type != source->image_channel_data_type) {
    return false;
  }
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    for (int side = 0; side < 2; side++) {
      if (view->image_channel_order == pairs[i][side] &&
          source->image_channel_order == pairs[i][!side]) {
        return true;
      }
    }
  }
  return false;
}

/* CL_INVALID_IMAGE_DESCRIPTOR for what the descriptor itself gets wrong;
 * on success `layout` holds the descriptor with the pitches filled in. */
cl_int clx_image_check_descriptor(const cl_image_desc *desc, size_t element,
                                  const void *host_ptr,
                                  cl_image_desc *layout) {
  if (!desc || !clx_image_type_valid(desc->image_type)) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (desc->num_mip_levels != 0 || desc->num_samples != 0) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  bool over_buffer = clx_image_over_buffer(desc);
  if (desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !over_buffer) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (desc->buffer && !over_buffer) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (over_buffer && clx_image_over_image(desc)) {
    return check_view(desc, host_ptr, layout);
  }
  if (over_buffer && (!clx_valid(desc->buffer, clx_kind_mem) ||
                      desc->buffer->type != CL_MEM_OBJECT_BUFFER)) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  /* Over a buffer the image has its bytes, not the host's. */
  if (over_buffer && host_ptr) return CL_INVALID_HOST_PTR;
  /* Pitches describe the host pointer's or the buffer's layout (a
   * 1D-buffer image may give the row pitch of its single row: the CTS
   * does); a slice pitch only where there are slices. */
  if (!host_ptr &&
      ((desc->image_row_pitch != 0 && !over_buffer) ||
       (desc->image_slice_pitch != 0 &&
        !(over_buffer && clx_image_has_slices(desc->image_type))))) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  return clx_image_layout(desc, element, over_buffer, layout);
}

/* Bytes the image occupies with its pitches. */
bool clx_image_bytes(const cl_image_desc *layout, size_t element,
                        size_t *bytes) {
  size_t slices = 1, per_slice = layout->image_slice_pitch;
  switch (layout->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      slices = layout->image_array_size;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      slices = layout->image_depth;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      per_slice = layout->image_row_pitch * layout->image_height;
      break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      per_slice = layout->image_width * element; /* one row, unpadded */
      break;
    default:
      per_slice = layout->image_row_pitch;
      break;
  }
  return !__builtin_mul_overflow(per_slice, slices, bytes);
}


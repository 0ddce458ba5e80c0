/* clmux Mux API layer: image entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

static bool api_dimension_invalid(uint32_t value, uint32_t max) {
  return value == 0 || value > max;
}

/* The spec's size rules per image type; unused dimensions must be 1. */
static bool api_image_size_invalid(const struct mux_device_info_s *info,
                                   mux_image_type_e type, uint32_t width,
                                   uint32_t height, uint32_t depth) {
  switch (type) {
    case mux_image_type_1d:
      return api_dimension_invalid(width, info->max_image_dimension_1d) ||
             height != 1 || depth != 1;
    case mux_image_type_2d:
      return api_dimension_invalid(width, info->max_image_dimension_2d) ||
             api_dimension_invalid(height, info->max_image_dimension_2d) ||
             depth != 1;
    case mux_image_type_3d:
      return api_dimension_invalid(width, info->max_image_dimension_3d) ||
             api_dimension_invalid(height, info->max_image_dimension_3d) ||
             api_dimension_invalid(depth, info->max_image_dimension_3d);
    default:
      return true; /* not a mux_image_type_e */
  }
}

mux_result_t muxCreateImage(mux_device_t device, mux_image_type_e type,
                            mux_image_format_e format, uint32_t width,
                            uint32_t height, uint32_t depth,
                            uint32_t array_layers, uint64_t row_size,
                            uint64_t slice_size,
                            mux_allocator_info_t allocator_info,
                            mux_image_t *out_image) {
  if (!api_valid_device(device) || device->info == NULL) {
    return mux_error_invalid_value;
  }
  const struct mux_device_info_s *info = device->info;
  if (api_image_size_invalid(info, type, width, height, depth)) {
    return mux_error_invalid_value;
  }
  if (array_layers > info->max_image_array_layers) {
    return mux_error_invalid_value;
  }
  if (out_image == NULL) return mux_error_null_out_parameter;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  return cpuCreateImage(device, type, format, width, height, depth,
                        array_layers, row_size, slice_size, allocator_info,
                        out_image);
}

void muxDestroyImage(mux_device_t device, mux_image_t image,
                     mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_image(image) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyImage(device, image, allocator_info);
}

mux_result_t muxBindImageMemory(mux_device_t device, mux_memory_t memory,
                                mux_image_t image, uint64_t offset) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_memory(memory)) return mux_error_invalid_value;
  if (!api_valid_image(image)) return mux_error_invalid_value;
  if (api_exceeds(offset, image->memory_requirements.size, memory->size)) {
    return mux_error_invalid_value;
  }
  uint32_t alignment = image->memory_requirements.alignment;
  if (alignment != 0 && offset % alignment != 0) {
    return mux_error_invalid_value;
  }
  return cpuBindImageMemory(device, memory, image, offset);
}

mux_result_t muxGetSupportedImageFormats(mux_device_t device,
                                         mux_image_type_e image_type,
                                         mux_allocation_type_e allocation_type,
                                         uint32_t count,
                                         mux_image_format_e *out_formats,
                                         uint32_t *out_count) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (image_type != mux_image_type_1d && image_type != mux_image_type_2d &&
      image_type != mux_image_type_3d) {
    return mux_error_invalid_value;
  }
  if (allocation_type != mux_allocation_type_alloc_host &&
      allocation_type != mux_allocation_type_alloc_device) {
    return mux_error_invalid_value;
  }
  if (count == 0 && out_formats != NULL) return mux_error_invalid_value;
  /* Valid usage, not in the list: a count needs an array to fill. */
  if (count != 0 && out_formats == NULL) return mux_error_invalid_value;
  return cpuGetSupportedImageFormats(device, image_type, allocation_type,
                                     count, out_formats, out_count);
}

/* clmux Mux API layer: command buffer entry points and the commands they
 * record. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

/* The largest fill pattern: the size of the largest vector type. */
#define API_MAX_PATTERN_SIZE 128u
/* The largest fill colour: four 32-bit channels. */
#define API_MAX_COLOR_SIZE 16u

mux_result_t muxCreateCommandBuffer(mux_device_t device,
                                    mux_callback_info_t callback_info,
                                    mux_allocator_info_t allocator_info,
                                    mux_command_buffer_t *out_command_buffer) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_command_buffer == NULL) return mux_error_null_out_parameter;
  return cpuCreateCommandBuffer(device, callback_info, allocator_info,
                                out_command_buffer);
}

mux_result_t muxFinalizeCommandBuffer(mux_command_buffer_t command_buffer) {
  if (command_buffer == NULL) return mux_error_null_out_parameter;
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  return cpuFinalizeCommandBuffer(command_buffer);
}

mux_result_t muxCloneCommandBuffer(mux_device_t device,
                                   mux_allocator_info_t allocator_info,
                                   mux_command_buffer_t command_buffer,
                                   mux_command_buffer_t *out_command_buffer) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (device->info == NULL || !device->info->can_clone_command_buffers) {
    return mux_error_feature_unsupported;
  }
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (out_command_buffer == NULL) return mux_error_null_out_parameter;
  return cpuCloneCommandBuffer(device, allocator_info, command_buffer,
                               out_command_buffer);
}

void muxDestroyCommandBuffer(mux_device_t device,
                             mux_command_buffer_t command_buffer,
                             mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_command_buffer(command_buffer) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyCommandBuffer(device, command_buffer, allocator_info);
}

mux_result_t muxResetCommandBuffer(mux_command_buffer_t command_buffer) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  return cpuResetCommandBuffer(command_buffer);
}

/* ---- Buffers ------------------------------------------------------------ */

/* The size rules shared by the single-range buffer commands. */
static bool api_buffer_range_invalid(mux_buffer_t buffer, uint64_t offset,
                                     uint64_t size) {
  uint64_t buffer_size = buffer->memory_requirements.size;
  return offset > buffer_size || api_exceeds(offset, size, buffer_size) ||
         size == 0 || size > buffer_size;
}

mux_result_t muxCommandReadBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  void *host_pointer, uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  if (api_buffer_range_invalid(buffer, offset, size)) {
    return mux_error_invalid_value;
  }
  if (host_pointer == NULL) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandReadBuffer(command_buffer, buffer, offset, host_pointer,
                              size, num_sync_points_in_wait_list,
                              sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteBuffer(mux_command_buffer_t command_buffer,
                                   mux_buffer_t buffer, uint64_t offset,
                                   const void *host_pointer, uint64_t size,
                                   uint32_t num_sync_points_in_wait_list,
                                   const mux_sync_point_t *sync_point_wait_list,
                                   mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  if (api_buffer_range_invalid(buffer, offset, size)) {
    return mux_error_invalid_value;
  }
  if (host_pointer == NULL) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandWriteBuffer(command_buffer, buffer, offset, host_pointer,
                               size, num_sync_points_in_wait_list,
                               sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t src_buffer, uint64_t src_offset,
                                  mux_buffer_t dst_buffer, uint64_t dst_offset,
                                  uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(src_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(dst_buffer)) return mux_error_invalid_value;
  if (api_buffer_range_invalid(src_buffer, src_offset, size) ||
      api_buffer_range_invalid(dst_buffer, dst_offset, size)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandCopyBuffer(command_buffer, src_buffer, src_offset,
                              dst_buffer, dst_offset, size,
                              num_sync_points_in_wait_list,
                              sync_point_wait_list, sync_point);
}

mux_result_t muxCommandFillBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  uint64_t size, const void *pattern_pointer,
                                  uint64_t pattern_size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  if (api_buffer_range_invalid(buffer, offset, size)) {
    return mux_error_invalid_value;
  }
  if (pattern_pointer == NULL) return mux_error_invalid_value;
  /* The spec states the 128-byte maximum beside the parameter rather than
   * in the list; a larger pattern is refused with the zero-size rule. */
  if (pattern_size == 0 || pattern_size > API_MAX_PATTERN_SIZE) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandFillBuffer(command_buffer, buffer, offset, size,
                              pattern_pointer, pattern_size,
                              num_sync_points_in_wait_list,
                              sync_point_wait_list, sync_point);
}

/* ---- Buffer regions ----------------------------------------------------- */

/* The per-region rules: no zero extent, pitches at least the region, inside
 * the buffer on each buffer side (a NULL buffer is a host side, unbounded),
 * and no two regions overlapping on the sides asked for. */
typedef struct api_region_rules {
  mux_buffer_t src_buffer;
  mux_buffer_t dst_buffer;
  bool src_must_not_overlap;
  bool dst_must_not_overlap;
} api_region_rules;

static bool api_regions_invalid(const mux_buffer_region_info_t *regions,
                                uint64_t regions_length,
                                api_region_rules rules) {
  for (uint64_t i = 0; i < regions_length; i++) {
    const mux_buffer_region_info_t *r = &regions[i];
    if (api_region_has_zero_extent(&r->region)) return true;
    if (api_region_desc_too_small(r)) return true;
    api_region_side src = api_region_src(r), dst = api_region_dst(r);
    if (rules.src_buffer &&
        api_region_out_of_bounds(&r->region, &src,
                                 rules.src_buffer->memory_requirements.size)) {
      return true;
    }
    if (rules.dst_buffer &&
        api_region_out_of_bounds(&r->region, &dst,
                                 rules.dst_buffer->memory_requirements.size)) {
      return true;
    }
  }
  return (rules.src_must_not_overlap &&
          api_any_regions_overlap(regions, regions_length, false)) ||
         (rules.dst_must_not_overlap &&
          api_any_regions_overlap(regions, regions_length, true));
}

mux_result_t muxCommandReadBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  if (host_pointer == NULL) return mux_error_invalid_value;
  if (regions == NULL) return mux_error_invalid_value;
  /* The spec forbids overlap on the buffer (source) side; overlap on the
   * host (destination) side would make the result depend on copy order, so
   * it is refused too. */
  api_region_rules rules = {buffer, NULL, true, true};
  if (api_regions_invalid(regions, regions_length, rules)) {
    return mux_error_invalid_value;
  }
  if (regions_length == 0) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandReadBufferRegions(command_buffer, buffer, host_pointer,
                                     regions, regions_length,
                                     num_sync_points_in_wait_list,
                                     sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(buffer)) return mux_error_invalid_value;
  if (host_pointer == NULL) return mux_error_invalid_value;
  if (regions == NULL) return mux_error_invalid_value;
  api_region_rules rules = {NULL, buffer, false, true};
  if (api_regions_invalid(regions, regions_length, rules)) {
    return mux_error_invalid_value;
  }
  if (regions_length == 0) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandWriteBufferRegions(command_buffer, buffer, host_pointer,
                                      regions, regions_length,
                                      num_sync_points_in_wait_list,
                                      sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_buffer_t dst_buffer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(src_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(dst_buffer)) return mux_error_invalid_value;
  /* The spec's list here was written for another signature (host_pointer,
   * dst_offset, size); its intent is the region rules of the read and write
   * variants, with both sides bounded and destination overlap refused. */
  if (regions == NULL) return mux_error_invalid_value;
  api_region_rules rules = {src_buffer, dst_buffer, false, true};
  if (api_regions_invalid(regions, regions_length, rules)) {
    return mux_error_invalid_value;
  }
  if (regions_length == 0) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandCopyBufferRegions(command_buffer, src_buffer, dst_buffer,
                                     regions, regions_length,
                                     num_sync_points_in_wait_list,
                                     sync_point_wait_list, sync_point);
}

/* ---- Images ------------------------------------------------------------- */

mux_result_t muxCommandReadImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent, uint64_t row_size,
                                 uint64_t slice_size, void *pointer,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(image)) return mux_error_invalid_value;
  if (!api_image_region_fits(image, offset, extent)) {
    return mux_error_invalid_value;
  }
  if (pointer == NULL) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandReadImage(command_buffer, image, offset, extent, row_size,
                             slice_size, pointer, num_sync_points_in_wait_list,
                             sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteImage(mux_command_buffer_t command_buffer,
                                  mux_image_t image, mux_offset_3d_t offset,
                                  mux_extent_3d_t extent, uint64_t row_size,
                                  uint64_t slice_size, const void *pointer,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(image)) return mux_error_invalid_value;
  if (!api_image_region_fits(image, offset, extent)) {
    return mux_error_invalid_value;
  }
  /* Missing from this entry point's list but present in muxCommandReadImage's:
   * a write needs data to read from. */
  if (pointer == NULL) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandWriteImage(command_buffer, image, offset, extent, row_size,
                              slice_size, pointer,
                              num_sync_points_in_wait_list,
                              sync_point_wait_list, sync_point);
}

mux_result_t muxCommandFillImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, const void *color,
                                 uint32_t color_size, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(image)) return mux_error_invalid_value;
  if (color == NULL) return mux_error_invalid_value;
  if (color_size == 0 || color_size > API_MAX_COLOR_SIZE) {
    return mux_error_invalid_value;
  }
  if (!api_image_region_fits(image, offset, extent)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandFillImage(command_buffer, image, color, color_size, offset,
                             extent, num_sync_points_in_wait_list,
                             sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyImage(mux_command_buffer_t command_buffer,
                                 mux_image_t src_image, mux_image_t dst_image,
                                 mux_offset_3d_t src_offset,
                                 mux_offset_3d_t dst_offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(src_image)) return mux_error_invalid_value;
  if (!api_valid_image(dst_image)) return mux_error_invalid_value;
  if (!api_image_region_fits(src_image, src_offset, extent)) {
    return mux_error_invalid_value;
  }
  if (!api_image_region_fits(dst_image, dst_offset, extent)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandCopyImage(command_buffer, src_image, dst_image, src_offset,
                             dst_offset, extent, num_sync_points_in_wait_list,
                             sync_point_wait_list, sync_point);
}

/* Whether the tightly packed bytes of `extent` pixels of `image`, placed at
 * `offset`, lie inside `buffer`. */
static bool api_packed_pixels_fit(mux_image_t image, mux_extent_3d_t extent,
                                  mux_buffer_t buffer, uint64_t offset) {
  uint64_t bytes = 0;
  return api_image_extent_bytes(image, extent, &bytes) &&
         !api_exceeds(offset, bytes, buffer->memory_requirements.size);
}

mux_result_t muxCommandCopyImageToBuffer(
    mux_command_buffer_t command_buffer, mux_image_t src_image,
    mux_buffer_t dst_buffer, mux_offset_3d_t src_offset, uint64_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(src_image)) return mux_error_invalid_value;
  /* The spec says "dst_image"; the destination here is dst_buffer. */
  if (!api_valid_buffer(dst_buffer)) return mux_error_invalid_value;
  if (!api_image_region_fits(src_image, src_offset, extent)) {
    return mux_error_invalid_value;
  }
  if (!api_packed_pixels_fit(src_image, extent, dst_buffer, dst_offset)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandCopyImageToBuffer(command_buffer, src_image, dst_buffer,
                                     src_offset, dst_offset, extent,
                                     num_sync_points_in_wait_list,
                                     sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBufferToImage(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_image_t dst_image, uint32_t src_offset, mux_offset_3d_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_buffer(src_buffer)) return mux_error_invalid_value;
  if (!api_valid_image(dst_image)) return mux_error_invalid_value;
  if (!api_packed_pixels_fit(dst_image, extent, src_buffer, src_offset)) {
    return mux_error_invalid_value;
  }
  if (!api_image_region_fits(dst_image, dst_offset, extent)) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandCopyBufferToImage(command_buffer, src_buffer, dst_image,
                                     src_offset, dst_offset, extent,
                                     num_sync_points_in_wait_list,
                                     sync_point_wait_list, sync_point);
}

/* ---- Kernels ------------------------------------------------------------ */

mux_result_t muxCommandNDRange(mux_command_buffer_t command_buffer,
                               mux_kernel_t kernel,
                               mux_ndrange_options_t options,
                               uint32_t num_sync_points_in_wait_list,
                               const mux_sync_point_t *sync_point_wait_list,
                               mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_kernel(kernel)) return mux_error_invalid_value;
  if (!api_valid_list(options.descriptors_length, options.descriptors)) {
    return mux_error_invalid_value;
  }
  if (options.local_size[0] == 0 || options.local_size[1] == 0 ||
      options.local_size[2] == 0) {
    return mux_error_invalid_value;
  }
  if (options.global_offset == NULL) return mux_error_invalid_value;
  if (options.global_size == NULL) return mux_error_invalid_value;
  if (options.length == 0 || options.length > 3) {
    return mux_error_invalid_value;
  }
  if (api_has_unsupported_custom_buffer(
          options.descriptors, options.descriptors_length,
          api_device_info(command_buffer->device))) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  /* After the spec's list: what the target needs to pack the arguments. */
  if (!api_valid_descriptors(options.descriptors, options.descriptors_length)) {
    return mux_error_invalid_value;
  }
  return cpuCommandNDRange(command_buffer, kernel, options,
                           num_sync_points_in_wait_list, sync_point_wait_list,
                           sync_point);
}

mux_result_t muxUpdateDescriptors(mux_command_buffer_t command_buffer,
                                  mux_command_id_t command_id,
                                  uint64_t num_args, uint64_t *arg_indices,
                                  mux_descriptor_info_t *descriptors) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  const struct mux_device_info_s *info =
      api_device_info(command_buffer->device);
  if (info == NULL || !info->descriptors_updatable) {
    return mux_error_feature_unsupported;
  }
  /* Not in the spec's list: the arrays must match num_args, and the new
   * descriptors obey muxCommandNDRange's rules. */
  if (!api_valid_list(num_args, arg_indices) ||
      !api_valid_list(num_args, descriptors)) {
    return mux_error_invalid_value;
  }
  if (api_has_unsupported_custom_buffer(descriptors, num_args, info) ||
      !api_valid_descriptors(descriptors, num_args)) {
    return mux_error_invalid_value;
  }
  return cpuUpdateDescriptors(command_buffer, command_id, num_args,
                              arg_indices, descriptors);
}

mux_result_t muxCommandUserCallback(mux_command_buffer_t command_buffer,
                                    mux_command_user_callback_t user_function,
                                    void *user_data,
                                    uint32_t num_sync_points_in_wait_list,
                                    const mux_sync_point_t *sync_point_wait_list,
                                    mux_sync_point_t *sync_point) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (user_function == NULL) return mux_error_invalid_value;
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return cpuCommandUserCallback(command_buffer, user_function, user_data,
                                num_sync_points_in_wait_list,
                                sync_point_wait_list, sync_point);
}

/* ---- Queries ------------------------------------------------------------ */

/* The rules the three query commands share, in the spec's order. */
static mux_result_t api_check_query_command(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list) {
  if (!api_valid_command_buffer(command_buffer)) return mux_error_invalid_value;
  if (!api_valid_query_pool(query_pool)) return mux_error_invalid_value;
  if (query_index >= query_pool->count) return mux_error_invalid_value;
  if ((uint64_t)query_index + query_count > query_pool->count) {
    return mux_error_invalid_value;
  }
  if (!api_valid_sync_points(num_sync_points_in_wait_list,
                             sync_point_wait_list)) {
    return mux_error_invalid_value;
  }
  return mux_success;
}

mux_result_t muxCommandBeginQuery(mux_command_buffer_t command_buffer,
                                  mux_query_pool_t query_pool,
                                  uint32_t query_index, uint32_t query_count,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  mux_result_t error = api_check_query_command(
      command_buffer, query_pool, query_index, query_count,
      num_sync_points_in_wait_list, sync_point_wait_list);
  if (error != mux_success) return error;
  return cpuCommandBeginQuery(command_buffer, query_pool, query_index,
                              query_count, num_sync_points_in_wait_list,
                              sync_point_wait_list, sync_point);
}

mux_result_t muxCommandEndQuery(mux_command_buffer_t command_buffer,
                                mux_query_pool_t query_pool,
                                uint32_t query_index, uint32_t query_count,
                                uint32_t num_sync_points_in_wait_list,
                                const mux_sync_point_t *sync_point_wait_list,
                                mux_sync_point_t *sync_point) {
  /* Whether the queries were begun is the target's to check (the spec's
   * note); all these rules return invalid_value, so their order is moot. */
  mux_result_t error = api_check_query_command(
      command_buffer, query_pool, query_index, query_count,
      num_sync_points_in_wait_list, sync_point_wait_list);
  if (error != mux_success) return error;
  return cpuCommandEndQuery(command_buffer, query_pool, query_index,
                            query_count, num_sync_points_in_wait_list,
                            sync_point_wait_list, sync_point);
}

mux_result_t muxCommandResetQueryPool(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  mux_result_t error = api_check_query_command(
      command_buffer, query_pool, query_index, query_count,
      num_sync_points_in_wait_list, sync_point_wait_list);
  if (error != mux_success) return error;
  return cpuCommandResetQueryPool(command_buffer, query_pool, query_index,
                                  query_count, num_sync_points_in_wait_list,
                                  sync_point_wait_list, sync_point);
}

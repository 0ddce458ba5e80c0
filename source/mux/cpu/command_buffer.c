/* clmux CPU target: command buffer. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateCommandBuffer(mux_device_t device,
                                    mux_callback_info_t callback_info,
                                    mux_allocator_info_t allocator_info,
                                    mux_command_buffer_t *out_command_buffer) {
  (void)device;
  (void)callback_info;
  (void)allocator_info;
  (void)out_command_buffer;
  return mux_error_feature_unsupported;
}

mux_result_t cpuFinalizeCommandBuffer(mux_command_buffer_t command_buffer) {
  (void)command_buffer;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCloneCommandBuffer(mux_device_t device,
                                   mux_allocator_info_t allocator_info,
                                   mux_command_buffer_t command_buffer,
                                   mux_command_buffer_t *out_command_buffer) {
  (void)device;
  (void)allocator_info;
  (void)command_buffer;
  (void)out_command_buffer;
  return mux_error_feature_unsupported;
}

void cpuDestroyCommandBuffer(mux_device_t device,
                             mux_command_buffer_t command_buffer,
                             mux_allocator_info_t allocator_info) {
  (void)device;
  (void)command_buffer;
  (void)allocator_info;
}

mux_result_t cpuResetCommandBuffer(mux_command_buffer_t command_buffer) {
  (void)command_buffer;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandReadBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  void *host_pointer, uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)buffer;
  (void)offset;
  (void)host_pointer;
  (void)size;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandReadBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)buffer;
  (void)host_pointer;
  (void)regions;
  (void)regions_length;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandWriteBuffer(mux_command_buffer_t command_buffer,
                                   mux_buffer_t buffer, uint64_t offset,
                                   const void *host_pointer, uint64_t size,
                                   uint32_t num_sync_points_in_wait_list,
                                   const mux_sync_point_t *sync_point_wait_list,
                                   mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)buffer;
  (void)offset;
  (void)host_pointer;
  (void)size;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandWriteBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)buffer;
  (void)host_pointer;
  (void)regions;
  (void)regions_length;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandCopyBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t src_buffer, uint64_t src_offset,
                                  mux_buffer_t dst_buffer, uint64_t dst_offset,
                                  uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)src_buffer;
  (void)src_offset;
  (void)dst_buffer;
  (void)dst_offset;
  (void)size;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandCopyBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_buffer_t dst_buffer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)src_buffer;
  (void)dst_buffer;
  (void)regions;
  (void)regions_length;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandFillBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  uint64_t size, const void *pattern_pointer,
                                  uint64_t pattern_size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)buffer;
  (void)offset;
  (void)size;
  (void)pattern_pointer;
  (void)pattern_size;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandReadImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent, uint64_t row_size,
                                 uint64_t slice_size, void *pointer,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)image;
  (void)offset;
  (void)extent;
  (void)row_size;
  (void)slice_size;
  (void)pointer;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandWriteImage(mux_command_buffer_t command_buffer,
                                  mux_image_t image, mux_offset_3d_t offset,
                                  mux_extent_3d_t extent, uint64_t row_size,
                                  uint64_t slice_size, const void *pointer,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)image;
  (void)offset;
  (void)extent;
  (void)row_size;
  (void)slice_size;
  (void)pointer;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandFillImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, const void *color,
                                 uint32_t color_size, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)image;
  (void)color;
  (void)color_size;
  (void)offset;
  (void)extent;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandCopyImage(mux_command_buffer_t command_buffer,
                                 mux_image_t src_image, mux_image_t dst_image,
                                 mux_offset_3d_t src_offset,
                                 mux_offset_3d_t dst_offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)src_image;
  (void)dst_image;
  (void)src_offset;
  (void)dst_offset;
  (void)extent;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandCopyImageToBuffer(
    mux_command_buffer_t command_buffer, mux_image_t src_image,
    mux_buffer_t dst_buffer, mux_offset_3d_t src_offset, uint64_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)src_image;
  (void)dst_buffer;
  (void)src_offset;
  (void)dst_offset;
  (void)extent;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandCopyBufferToImage(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_image_t dst_image, uint32_t src_offset, mux_offset_3d_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)src_buffer;
  (void)dst_image;
  (void)src_offset;
  (void)dst_offset;
  (void)extent;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandNDRange(mux_command_buffer_t command_buffer,
                               mux_kernel_t kernel,
                               mux_ndrange_options_t options,
                               uint32_t num_sync_points_in_wait_list,
                               const mux_sync_point_t *sync_point_wait_list,
                               mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)kernel;
  (void)options;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuUpdateDescriptors(mux_command_buffer_t command_buffer,
                                  mux_command_id_t command_id,
                                  uint64_t num_args, uint64_t *arg_indices,
                                  mux_descriptor_info_t *descriptors) {
  (void)command_buffer;
  (void)command_id;
  (void)num_args;
  (void)arg_indices;
  (void)descriptors;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandUserCallback(mux_command_buffer_t command_buffer,
                                    mux_command_user_callback_t user_function,
                                    void *user_data,
                                    uint32_t num_sync_points_in_wait_list,
                                    const mux_sync_point_t *sync_point_wait_list,
                                    mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)user_function;
  (void)user_data;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandBeginQuery(mux_command_buffer_t command_buffer,
                                  mux_query_pool_t query_pool,
                                  uint32_t query_index, uint32_t query_count,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)query_pool;
  (void)query_index;
  (void)query_count;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandEndQuery(mux_command_buffer_t command_buffer,
                                mux_query_pool_t query_pool,
                                uint32_t query_index, uint32_t query_count,
                                uint32_t num_sync_points_in_wait_list,
                                const mux_sync_point_t *sync_point_wait_list,
                                mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)query_pool;
  (void)query_index;
  (void)query_count;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCommandResetQueryPool(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)command_buffer;
  (void)query_pool;
  (void)query_index;
  (void)query_count;
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  (void)sync_point;
  return mux_error_feature_unsupported;
}

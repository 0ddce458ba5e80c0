/* clmux Mux API layer: command buffer entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateCommandBuffer(mux_device_t device,
                                    mux_callback_info_t callback_info,
                                    mux_allocator_info_t allocator_info,
                                    mux_command_buffer_t *out_command_buffer) {
  return cpuCreateCommandBuffer(device, callback_info, allocator_info, out_command_buffer);
}

mux_result_t muxFinalizeCommandBuffer(mux_command_buffer_t command_buffer) {
  return cpuFinalizeCommandBuffer(command_buffer);
}

mux_result_t muxCloneCommandBuffer(mux_device_t device,
                                   mux_allocator_info_t allocator_info,
                                   mux_command_buffer_t command_buffer,
                                   mux_command_buffer_t *out_command_buffer) {
  return cpuCloneCommandBuffer(device, allocator_info, command_buffer, out_command_buffer);
}

void muxDestroyCommandBuffer(mux_device_t device,
                             mux_command_buffer_t command_buffer,
                             mux_allocator_info_t allocator_info) {
  cpuDestroyCommandBuffer(device, command_buffer, allocator_info);
}

mux_result_t muxResetCommandBuffer(mux_command_buffer_t command_buffer) {
  return cpuResetCommandBuffer(command_buffer);
}

mux_result_t muxCommandReadBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  void *host_pointer, uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  return cpuCommandReadBuffer(command_buffer, buffer, offset, host_pointer, size, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandReadBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandReadBufferRegions(command_buffer, buffer, host_pointer, regions, regions_length, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteBuffer(mux_command_buffer_t command_buffer,
                                   mux_buffer_t buffer, uint64_t offset,
                                   const void *host_pointer, uint64_t size,
                                   uint32_t num_sync_points_in_wait_list,
                                   const mux_sync_point_t *sync_point_wait_list,
                                   mux_sync_point_t *sync_point) {
  return cpuCommandWriteBuffer(command_buffer, buffer, offset, host_pointer, size, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandWriteBufferRegions(command_buffer, buffer, host_pointer, regions, regions_length, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t src_buffer, uint64_t src_offset,
                                  mux_buffer_t dst_buffer, uint64_t dst_offset,
                                  uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  return cpuCommandCopyBuffer(command_buffer, src_buffer, src_offset, dst_buffer, dst_offset, size, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_buffer_t dst_buffer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandCopyBufferRegions(command_buffer, src_buffer, dst_buffer, regions, regions_length, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandFillBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  uint64_t size, const void *pattern_pointer,
                                  uint64_t pattern_size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  return cpuCommandFillBuffer(command_buffer, buffer, offset, size, pattern_pointer, pattern_size, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandReadImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent, uint64_t row_size,
                                 uint64_t slice_size, void *pointer,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  return cpuCommandReadImage(command_buffer, image, offset, extent, row_size, slice_size, pointer, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandWriteImage(mux_command_buffer_t command_buffer,
                                  mux_image_t image, mux_offset_3d_t offset,
                                  mux_extent_3d_t extent, uint64_t row_size,
                                  uint64_t slice_size, const void *pointer,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  return cpuCommandWriteImage(command_buffer, image, offset, extent, row_size, slice_size, pointer, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandFillImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, const void *color,
                                 uint32_t color_size, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  return cpuCommandFillImage(command_buffer, image, color, color_size, offset, extent, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyImage(mux_command_buffer_t command_buffer,
                                 mux_image_t src_image, mux_image_t dst_image,
                                 mux_offset_3d_t src_offset,
                                 mux_offset_3d_t dst_offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  return cpuCommandCopyImage(command_buffer, src_image, dst_image, src_offset, dst_offset, extent, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyImageToBuffer(
    mux_command_buffer_t command_buffer, mux_image_t src_image,
    mux_buffer_t dst_buffer, mux_offset_3d_t src_offset, uint64_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandCopyImageToBuffer(command_buffer, src_image, dst_buffer, src_offset, dst_offset, extent, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandCopyBufferToImage(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_image_t dst_image, uint32_t src_offset, mux_offset_3d_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandCopyBufferToImage(command_buffer, src_buffer, dst_image, src_offset, dst_offset, extent, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandNDRange(mux_command_buffer_t command_buffer,
                               mux_kernel_t kernel,
                               mux_ndrange_options_t options,
                               uint32_t num_sync_points_in_wait_list,
                               const mux_sync_point_t *sync_point_wait_list,
                               mux_sync_point_t *sync_point) {
  return cpuCommandNDRange(command_buffer, kernel, options, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxUpdateDescriptors(mux_command_buffer_t command_buffer,
                                  mux_command_id_t command_id,
                                  uint64_t num_args, uint64_t *arg_indices,
                                  mux_descriptor_info_t *descriptors) {
  return cpuUpdateDescriptors(command_buffer, command_id, num_args, arg_indices, descriptors);
}

mux_result_t muxCommandUserCallback(mux_command_buffer_t command_buffer,
                                    mux_command_user_callback_t user_function,
                                    void *user_data,
                                    uint32_t num_sync_points_in_wait_list,
                                    const mux_sync_point_t *sync_point_wait_list,
                                    mux_sync_point_t *sync_point) {
  return cpuCommandUserCallback(command_buffer, user_function, user_data, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandBeginQuery(mux_command_buffer_t command_buffer,
                                  mux_query_pool_t query_pool,
                                  uint32_t query_index, uint32_t query_count,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  return cpuCommandBeginQuery(command_buffer, query_pool, query_index, query_count, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandEndQuery(mux_command_buffer_t command_buffer,
                                mux_query_pool_t query_pool,
                                uint32_t query_index, uint32_t query_count,
                                uint32_t num_sync_points_in_wait_list,
                                const mux_sync_point_t *sync_point_wait_list,
                                mux_sync_point_t *sync_point) {
  return cpuCommandEndQuery(command_buffer, query_pool, query_index, query_count, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

mux_result_t muxCommandResetQueryPool(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  return cpuCommandResetQueryPool(command_buffer, query_pool, query_index, query_count, num_sync_points_in_wait_list, sync_point_wait_list, sync_point);
}

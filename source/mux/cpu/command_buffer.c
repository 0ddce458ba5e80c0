/* clmux CPU target: command buffers. Recording appends tagged commands to a
 * growable array, copying everything the caller may reuse once the call
 * returns (fill patterns and colours, region lists, NDRange descriptors).
 * Execution is in command_run.c. */
#include <string.h>

#include "../target.h"
#include "command.h"
#include "cpu.h"

#define CPU_SYNC_POINTS_PER_BLOCK 32u

/* Sync points live in blocks so that handles stay put while the command
 * array grows; they stay valid until reset or destruction. */
typedef struct cpu_sync_point_block {
  struct cpu_sync_point_block *next;
  uint32_t used;
  struct mux_sync_point_s points[CPU_SYNC_POINTS_PER_BLOCK];
} cpu_sync_point_block;

/* What a command buffer needs beyond the cpu.h struct, which comes first so
 * a handle still converts with a cast. */
typedef struct cpu_recording_buffer {
  cpu_command_buffer base;
  /* Recording is specified thread-safe per command buffer for some
   * commands; an uncontended flag costs next to nothing. */
  atomic_flag recording;
  cpu_sync_point_block *sync_points;
  cpu_sync_point_block *sync_point_block; /* the one handing out points */
} cpu_recording_buffer;

static inline cpu_recording_buffer *cpu_recording(mux_command_buffer_t handle) {
  return (cpu_recording_buffer *)handle;
}

/* ---- Ownership of a command's copies ------------------------------------- */

static void cpu_command_release(cpu_command *command,
                                cpu_command_buffer *buffer) {
  mux_allocator_info_t allocator = buffer->allocator;
  switch (command->kind) {
    case cpu_command_read_buffer_regions:
    case cpu_command_write_buffer_regions:
    case cpu_command_copy_buffer_regions:
      cpu_free(allocator, command->regions.regions);
      command->regions.regions = NULL;
      break;
    case cpu_command_ndrange:
      cpu_ndrange_release(&command->ndrange, allocator, &buffer->spares);
      break;
    default:
      break;
  }
}

static mux_buffer_region_info_t *cpu_regions_copy(
    const mux_buffer_region_info_t *regions, uint64_t count,
    mux_allocator_info_t allocator) {
  if (count > SIZE_MAX / sizeof(*regions)) return NULL;
  mux_buffer_region_info_t *copy =
      cpu_alloc(allocator, (size_t)count * sizeof(*regions),
                _Alignof(mux_buffer_region_info_t));
  if (copy) memcpy(copy, regions, (size_t)count * sizeof(*regions));
  return copy;
}

/* Deep-copies `src` into `dst`, a command of `buffer` (on `device`). */
static mux_result_t cpu_command_copy(cpu_command *dst, const cpu_command *src,
                                     cpu_device *device,
                                     cpu_command_buffer *buffer) {
  mux_allocator_info_t allocator = buffer->allocator;
  *dst = *src;
  switch (src->kind) {
    case cpu_command_read_buffer_regions:
    case cpu_command_write_buffer_regions:
    case cpu_command_copy_buffer_regions:
      dst->regions.regions =
          cpu_regions_copy(src->regions.regions, src->regions.count, allocator);
      return dst->regions.regions ? mux_success : mux_error_out_of_memory;
    case cpu_command_ndrange:
      memset(&dst->ndrange, 0, sizeof(dst->ndrange));
      return cpu_ndrange_copy(&dst->ndrange, &src->ndrange, device, allocator,
                              &buffer->spares);
    default:
      return mux_success;
  }
}

/* ---- Recording ------------------------------------------------------------ */

static mux_result_t cpu_reserve_commands(cpu_command_buffer *buffer,
                                         uint32_t needed) {
  if (needed <= buffer->capacity) return mux_success;
  uint32_t capacity = buffer->capacity ? buffer->capacity : 8;
  while (capacity < needed) {
    if (capacity > UINT32_MAX / 2) return mux_error_out_of_memory;
    capacity *= 2;
  }
  cpu_command *grown = cpu_alloc(buffer->allocator,
                                 (size_t)capacity * sizeof(cpu_command),
                                 _Alignof(cpu_command));
  if (!grown) return mux_error_out_of_memory;
  if (buffer->count) {
    memcpy(grown, buffer->commands, buffer->count * sizeof(cpu_command));
  }
  cpu_free(buffer->allocator, buffer->commands);
  buffer->commands = grown;
  buffer->capacity = capacity;
  return mux_success;
}

static struct mux_sync_point_s *cpu_next_sync_point(
    cpu_recording_buffer *recording) {
  cpu_sync_point_block *block = recording->sync_point_block;
  if (block && block->used == CPU_SYNC_POINTS_PER_BLOCK) {
    block = block->next; /* kept from before a reset, if any */
    if (block) {
      block->used = 0;
      recording->sync_point_block = block;
    }
  }
  if (!block) {
    block = cpu_calloc(recording->base.allocator, sizeof(*block),
                       _Alignof(cpu_sync_point_block));
    if (!block) return NULL;
    if (recording->sync_point_block) {
      recording->sync_point_block->next = block;
    } else {
      recording->sync_points = block;
    }
    recording->sync_point_block = block;
  }
  struct mux_sync_point_s *point = &block->points[block->used++];
  point->id = CPU_ID(mux_object_id_sync_point);
  point->command_buffer = &recording->base.base;
  return point;
}

/* Appends `command`, which then belongs to the buffer. On failure the
 * buffer is unchanged and the caller still owns the command's copies. */
static mux_result_t cpu_record(mux_command_buffer_t handle,
                               const cpu_command *command,
                               mux_sync_point_t *sync_point) {
  cpu_recording_buffer *recording = cpu_recording(handle);
  cpu_command_buffer *buffer = &recording->base;
  while (atomic_flag_test_and_set_explicit(&recording->recording,
                                           memory_order_acquire)) {
  }
  mux_result_t error = mux_success;
  if (buffer->finalized) {
    error = mux_error_invalid_value;
  } else {
    error = cpu_reserve_commands(buffer, buffer->count + 1);
  }
  if (error == mux_success && sync_point) {
    *sync_point = cpu_next_sync_point(recording);
    if (!*sync_point) error = mux_error_out_of_memory;
  }
  if (error == mux_success) buffer->commands[buffer->count++] = *command;
  atomic_flag_clear_explicit(&recording->recording, memory_order_release);
  return error;
}

/* Records a command that owns copies, releasing them if recording fails. */
static mux_result_t cpu_record_owned(mux_command_buffer_t handle,
                                     cpu_command *command,
                                     mux_sync_point_t *sync_point) {
  mux_result_t error = cpu_record(handle, command, sync_point);
  if (error != mux_success) {
    cpu_command_release(command, &cpu_recording(handle)->base);
  }
  return error;
}

static mux_result_t cpu_record_regions(
    mux_command_buffer_t handle, cpu_command_kind kind, cpu_buffer *src,
    cpu_buffer *dst, void *host, const mux_buffer_region_info_t *regions,
    uint64_t count, mux_sync_point_t *sync_point) {
  cpu_command command = {.kind = kind};
  command.regions.src = src;
  command.regions.dst = dst;
  command.regions.host = host;
  command.regions.count = count;
  command.regions.regions =
      cpu_regions_copy(regions, count, cpu_recording(handle)->base.allocator);
  if (!command.regions.regions) return mux_error_out_of_memory;
  return cpu_record_owned(handle, &command, sync_point);
}

static mux_result_t cpu_record_query(mux_command_buffer_t handle,
                                     cpu_command_kind kind,
                                     mux_query_pool_t pool, uint32_t index,
                                     uint32_t count,
                                     mux_sync_point_t *sync_point) {
  cpu_command command = {.kind = kind};
  command.query.pool = (cpu_query_pool *)pool;
  command.query.index = index;
  command.query.count = count;
  return cpu_record(handle, &command, sync_point);
}

/* ---- Lifetime --------------------------------------------------------------- */

static cpu_recording_buffer *cpu_recording_create(
    mux_device_t device, mux_allocator_info_t allocator,
    const struct mux_callback_info_s *callback) {
  cpu_recording_buffer *recording = cpu_calloc(
      allocator, sizeof(cpu_recording_buffer), _Alignof(cpu_recording_buffer));
  if (!recording) return NULL;
  recording->base.base.id = CPU_ID(mux_object_id_command_buffer);
  recording->base.base.device = device;
  recording->base.allocator = allocator;
  if (callback) recording->base.callback = *callback;
  atomic_flag_clear(&recording->recording);
  atomic_flag_clear(&recording->base.spares.lock);
  return recording;
}

static void cpu_release_commands(cpu_command_buffer *buffer) {
  for (uint32_t i = 0; i < buffer->count; i++) {
    cpu_command_release(&buffer->commands[i], buffer);
  }
  buffer->count = 0;
}

mux_result_t cpuCreateCommandBuffer(mux_device_t device,
                                    mux_callback_info_t callback_info,
                                    mux_allocator_info_t allocator_info,
                                    mux_command_buffer_t *out_command_buffer) {
  cpu_recording_buffer *recording =
      cpu_recording_create(device, allocator_info, callback_info);
  if (!recording) return mux_error_out_of_memory;
  *out_command_buffer = &recording->base.base;
  return mux_success;
}

mux_result_t cpuFinalizeCommandBuffer(mux_command_buffer_t command_buffer) {
  ((cpu_command_buffer *)command_buffer)->finalized = true;
  return mux_success;
}

mux_result_t cpuResetCommandBuffer(mux_command_buffer_t command_buffer) {
  cpu_recording_buffer *recording = cpu_recording(command_buffer);
  cpu_release_commands(&recording->base);
  recording->base.finalized = false;
  /* Keep the sync-point blocks for the next recording. */
  recording->sync_point_block = recording->sync_points;
  if (recording->sync_points) recording->sync_points->used = 0;
  return mux_success;
}

void cpuDestroyCommandBuffer(mux_device_t device,
                             mux_command_buffer_t command_buffer,
                             mux_allocator_info_t allocator_info) {
  (void)device;
  cpu_recording_buffer *recording = cpu_recording(command_buffer);
  cpu_release_commands(&recording->base);
  cpu_spares_free(&recording->base.spares, allocator_info);
  cpu_free(allocator_info, recording->base.commands);
  while (recording->sync_points) {
    cpu_sync_point_block *next = recording->sync_points->next;
    cpu_free(allocator_info, recording->sync_points);
    recording->sync_points = next;
  }
  recording->base.base.id = 0;
  cpu_free(allocator_info, recording);
}

mux_result_t cpuCloneCommandBuffer(mux_device_t device,
                                   mux_allocator_info_t allocator_info,
                                   mux_command_buffer_t command_buffer,
                                   mux_command_buffer_t *out_command_buffer) {
  const cpu_command_buffer *source = (const cpu_command_buffer *)command_buffer;
  cpu_recording_buffer *clone =
      cpu_recording_create(device, allocator_info, &source->callback);
  if (!clone) return mux_error_out_of_memory;
  mux_result_t error = cpu_reserve_commands(&clone->base, source->count);
  for (uint32_t i = 0; error == mux_success && i < source->count; i++) {
    error = cpu_command_copy(&clone->base.commands[i], &source->commands[i],
                             (cpu_device *)device, &clone->base);
    if (error == mux_success) clone->base.count = i + 1;
  }
  if (error != mux_success) {
    cpuDestroyCommandBuffer(device, &clone->base.base, allocator_info);
    return error;
  }
  clone->base.finalized = true;
  *out_command_buffer = &clone->base.base;
  return mux_success;
}

mux_result_t muxCpuCommandReplay(mux_command_buffer_t command_buffer,
                                 mux_command_buffer_t source) {
  cpu_recording_buffer *recording = cpu_recording(command_buffer);
  cpu_command_buffer *buffer = &recording->base;
  const cpu_command_buffer *from = (const cpu_command_buffer *)source;
  if (!from->finalized) return mux_error_invalid_value;
  while (atomic_flag_test_and_set_explicit(&recording->recording,
                                           memory_order_acquire)) {
  }
  mux_result_t error = mux_success;
  uint32_t first = buffer->count;
  if (buffer->finalized || from->count > UINT32_MAX - first) {
    error = mux_error_invalid_value;
  } else {
    error = cpu_reserve_commands(buffer, first + from->count);
  }
  for (uint32_t i = 0; error == mux_success && i < from->count; i++) {
    error = cpu_command_copy(&buffer->commands[first + i], &from->commands[i],
                             (cpu_device *)command_buffer->device, buffer);
    if (error == mux_success) buffer->count = first + i + 1;
  }
  if (error != mux_success) {
    while (buffer->count > first) {
      cpu_command_release(&buffer->commands[--buffer->count], buffer);
    }
  }
  atomic_flag_clear_explicit(&recording->recording, memory_order_release);
  return error;
}

mux_result_t cpuUpdateDescriptors(mux_command_buffer_t command_buffer,
                                  mux_command_id_t command_id,
                                  uint64_t num_args, uint64_t *arg_indices,
                                  mux_descriptor_info_t *descriptors) {
  cpu_command_buffer *buffer = (cpu_command_buffer *)command_buffer;
  if (command_id >= buffer->count ||
      buffer->commands[command_id].kind != cpu_command_ndrange) {
    return mux_error_invalid_value;
  }
  return cpu_ndrange_update(&buffer->commands[command_id].ndrange, num_args,
                            arg_indices, descriptors, buffer->allocator);
}

/* ---- Buffer commands ---------------------------------------------------- */

mux_result_t cpuCommandReadBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  void *host_pointer, uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  /* Commands run in order, so every sync-point wait is met already. */
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_read_buffer};
  command.transfer.buffer = (cpu_buffer *)buffer;
  command.transfer.offset = offset;
  command.transfer.host = host_pointer;
  command.transfer.size = size;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandWriteBuffer(mux_command_buffer_t command_buffer,
                                   mux_buffer_t buffer, uint64_t offset,
                                   const void *host_pointer, uint64_t size,
                                   uint32_t num_sync_points_in_wait_list,
                                   const mux_sync_point_t *sync_point_wait_list,
                                   mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_write_buffer};
  command.transfer.buffer = (cpu_buffer *)buffer;
  command.transfer.offset = offset;
  command.transfer.host = (void *)host_pointer;
  command.transfer.size = size;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandCopyBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t src_buffer, uint64_t src_offset,
                                  mux_buffer_t dst_buffer, uint64_t dst_offset,
                                  uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_copy_buffer};
  command.copy.src = (cpu_buffer *)src_buffer;
  command.copy.dst = (cpu_buffer *)dst_buffer;
  command.copy.src_offset = src_offset;
  command.copy.dst_offset = dst_offset;
  command.copy.size = size;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandFillBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  uint64_t size, const void *pattern_pointer,
                                  uint64_t pattern_size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  if (pattern_size == 0 || pattern_size > CPU_FILL_PATTERN_MAX) {
    return mux_error_invalid_value;
  }
  cpu_command command = {.kind = cpu_command_fill_buffer};
  command.fill.buffer = (cpu_buffer *)buffer;
  command.fill.offset = offset;
  command.fill.size = size;
  command.fill.pattern_size = (uint32_t)pattern_size;
  memcpy(command.fill.pattern, pattern_pointer, (size_t)pattern_size);
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandReadBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  return cpu_record_regions(command_buffer, cpu_command_read_buffer_regions,
                            (cpu_buffer *)buffer, NULL, host_pointer, regions,
                            regions_length, sync_point);
}

mux_result_t cpuCommandWriteBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  return cpu_record_regions(command_buffer, cpu_command_write_buffer_regions,
                            NULL, (cpu_buffer *)buffer, host_pointer, regions,
                            regions_length, sync_point);
}

mux_result_t cpuCommandCopyBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_buffer_t dst_buffer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  return cpu_record_regions(command_buffer, cpu_command_copy_buffer_regions,
                            (cpu_buffer *)src_buffer, (cpu_buffer *)dst_buffer,
                            NULL, regions, regions_length, sync_point);
}

/* ---- Image commands ------------------------------------------------------ */

mux_result_t cpuCommandReadImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent, uint64_t row_size,
                                 uint64_t slice_size, void *pointer,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_read_image};
  command.image_transfer.image = (cpu_image *)image;
  command.image_transfer.offset = offset;
  command.image_transfer.extent = extent;
  command.image_transfer.row_size = row_size;
  command.image_transfer.slice_size = slice_size;
  command.image_transfer.host = pointer;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandWriteImage(mux_command_buffer_t command_buffer,
                                  mux_image_t image, mux_offset_3d_t offset,
                                  mux_extent_3d_t extent, uint64_t row_size,
                                  uint64_t slice_size, const void *pointer,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_write_image};
  command.image_transfer.image = (cpu_image *)image;
  command.image_transfer.offset = offset;
  command.image_transfer.extent = extent;
  command.image_transfer.row_size = row_size;
  command.image_transfer.slice_size = slice_size;
  command.image_transfer.host = (void *)pointer;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandFillImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, const void *color,
                                 uint32_t color_size, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  if (color_size == 0 || color_size > CPU_FILL_COLOR_MAX) {
    return mux_error_invalid_value;
  }
  cpu_command command = {.kind = cpu_command_fill_image};
  command.image_fill.image = (cpu_image *)image;
  command.image_fill.offset = offset;
  command.image_fill.extent = extent;
  command.image_fill.color_size = color_size;
  memcpy(command.image_fill.color, color, color_size);
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandCopyImage(mux_command_buffer_t command_buffer,
                                 mux_image_t src_image, mux_image_t dst_image,
                                 mux_offset_3d_t src_offset,
                                 mux_offset_3d_t dst_offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_copy_image};
  command.image_copy.src = (cpu_image *)src_image;
  command.image_copy.dst = (cpu_image *)dst_image;
  command.image_copy.src_offset = src_offset;
  command.image_copy.dst_offset = dst_offset;
  command.image_copy.extent = extent;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandCopyImageToBuffer(
    mux_command_buffer_t command_buffer, mux_image_t src_image,
    mux_buffer_t dst_buffer, mux_offset_3d_t src_offset, uint64_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_copy_image_to_buffer};
  command.image_buffer.image = (cpu_image *)src_image;
  command.image_buffer.buffer = (cpu_buffer *)dst_buffer;
  command.image_buffer.image_offset = src_offset;
  command.image_buffer.buffer_offset = dst_offset;
  command.image_buffer.extent = extent;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandCopyBufferToImage(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_image_t dst_image, uint32_t src_offset, mux_offset_3d_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_copy_buffer_to_image};
  command.image_buffer.image = (cpu_image *)dst_image;
  command.image_buffer.buffer = (cpu_buffer *)src_buffer;
  command.image_buffer.image_offset = dst_offset;
  command.image_buffer.buffer_offset = src_offset;
  command.image_buffer.extent = extent;
  return cpu_record(command_buffer, &command, sync_point);
}

/* ---- Kernels, callbacks, queries ----------------------------------------- */

mux_result_t cpuCommandNDRange(mux_command_buffer_t command_buffer,
                               mux_kernel_t kernel,
                               mux_ndrange_options_t options,
                               uint32_t num_sync_points_in_wait_list,
                               const mux_sync_point_t *sync_point_wait_list,
                               mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command_buffer *buffer = (cpu_command_buffer *)command_buffer;
  /* Fail early rather than pack arguments for a command that cannot go in. */
  if (buffer->finalized) return mux_error_invalid_value;
  cpu_command command = {.kind = cpu_command_ndrange};
  mux_result_t error = cpu_ndrange_prepare(
      &command.ndrange, (cpu_kernel *)kernel, (cpu_device *)buffer->base.device,
      &options, buffer->allocator, &buffer->spares);
  if (error != mux_success) return error;
  return cpu_record_owned(command_buffer, &command, sync_point);
}

mux_result_t muxCpuCommandSetNDRange(mux_command_buffer_t command_buffer,
                                     mux_command_id_t command_id,
                                     mux_kernel_t kernel,
                                     mux_ndrange_options_t options) {
  cpu_command_buffer *buffer = (cpu_command_buffer *)command_buffer;
  if (command_id >= buffer->count) return mux_error_invalid_value;
  cpu_command command = {.kind = cpu_command_ndrange};
  mux_result_t error = cpu_ndrange_prepare(
      &command.ndrange, (cpu_kernel *)kernel, (cpu_device *)buffer->base.device,
      &options, buffer->allocator, &buffer->spares);
  if (error != mux_success) return error;
  cpu_command_release(&buffer->commands[command_id], buffer);
  buffer->commands[command_id] = command;
  return mux_success;
}

mux_result_t cpuCommandUserCallback(mux_command_buffer_t command_buffer,
                                    mux_command_user_callback_t user_function,
                                    void *user_data,
                                    uint32_t num_sync_points_in_wait_list,
                                    const mux_sync_point_t *sync_point_wait_list,
                                    mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  cpu_command command = {.kind = cpu_command_user_callback};
  command.user_callback.function = user_function;
  command.user_callback.user_data = user_data;
  return cpu_record(command_buffer, &command, sync_point);
}

mux_result_t cpuCommandBeginQuery(mux_command_buffer_t command_buffer,
                                  mux_query_pool_t query_pool,
                                  uint32_t query_index, uint32_t query_count,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  return cpu_record_query(command_buffer, cpu_command_begin_query, query_pool,
                          query_index, query_count, sync_point);
}

/* The spec leaves this check to the target: an end query needs an earlier
 * begin query in the same command buffer covering its slots. */
static bool cpu_query_begun(const cpu_command_buffer *buffer,
                            const cpu_query_pool *pool, uint32_t index,
                            uint32_t count) {
  for (uint32_t i = buffer->count; i-- > 0;) {
    const cpu_command *command = &buffer->commands[i];
    if (command->kind == cpu_command_begin_query &&
        command->query.pool == pool && command->query.index <= index &&
        (uint64_t)index + count <=
            (uint64_t)command->query.index + command->query.count) {
      return true;
    }
  }
  return false;
}

mux_result_t cpuCommandEndQuery(mux_command_buffer_t command_buffer,
                                mux_query_pool_t query_pool,
                                uint32_t query_index, uint32_t query_count,
                                uint32_t num_sync_points_in_wait_list,
                                const mux_sync_point_t *sync_point_wait_list,
                                mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  const cpu_command_buffer *buffer = (const cpu_command_buffer *)command_buffer;
  if (!cpu_query_begun(buffer, (const cpu_query_pool *)query_pool, query_index,
                       query_count)) {
    return mux_error_invalid_value;
  }
  return cpu_record_query(command_buffer, cpu_command_end_query, query_pool,
                          query_index, query_count, sync_point);
}

mux_result_t cpuCommandResetQueryPool(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point) {
  (void)num_sync_points_in_wait_list;
  (void)sync_point_wait_list;
  return cpu_record_query(command_buffer, cpu_command_reset_query_pool,
                          query_pool, query_index, query_count, sync_point);
}

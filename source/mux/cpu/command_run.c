/* clmux CPU target: running a command buffer — its commands in order, on
 * the calling thread, NDRanges spread over the worker pool. */
#include <string.h>

#include "command.h"
#include "cpu.h"

/* ---- Execution ------------------------------------------------------------ */

/* One rectangular copy: x in bytes, y in rows, z in slices; desc.x is the
 * row pitch and desc.y the slice pitch of each side. */
static void cpu_copy_region(uint8_t *dst, const uint8_t *src,
                            const mux_buffer_region_info_t *region) {
  for (size_t z = 0; z < region->region.z; z++) {
    for (size_t y = 0; y < region->region.y; y++) {
      size_t src_at = (region->src_origin.z + z) * region->src_desc.y +
                      (region->src_origin.y + y) * region->src_desc.x +
                      region->src_origin.x;
      size_t dst_at = (region->dst_origin.z + z) * region->dst_desc.y +
                      (region->dst_origin.y + y) * region->dst_desc.x +
                      region->dst_origin.x;
      memcpy(dst + dst_at, src + src_at, region->region.x);
    }
  }
}

/* Repeats the pattern by doubling what is already written, so a fill costs
 * about log2(size / pattern_size) memcpy calls. */
static void cpu_fill(uint8_t *dst, uint64_t size, const uint8_t *pattern,
                     uint32_t pattern_size) {
  if (pattern_size == 1) {
    memset(dst, pattern[0], (size_t)size);
    return;
  }
  uint64_t filled = size < pattern_size ? size : pattern_size;
  memcpy(dst, pattern, (size_t)filled);
  while (filled < size) {
    uint64_t chunk = filled < size - filled ? filled : size - filled;
    memcpy(dst + filled, dst, (size_t)chunk);
    filled += chunk;
  }
}

static void cpu_run_queries(const cpu_command *command) {
  struct mux_query_duration_result_s *slots =
      command->query.pool->durations + command->query.index;
  uint32_t count = command->query.count;
  if (command->kind == cpu_command_reset_query_pool) {
    memset(slots, 0, count * sizeof(*slots));
    return;
  }
  uint64_t now = cpu_now_ns();
  for (uint32_t i = 0; i < count; i++) {
    if (command->kind == cpu_command_begin_query) {
      slots[i].start = now;
    } else {
      slots[i].end = now;
    }
  }
}

static mux_result_t cpu_run_command(cpu_command_buffer *buffer,
                                    const cpu_command *command,
                                    mux_queue_t queue) {
  switch (command->kind) {
    case cpu_command_read_buffer:
      memcpy(command->transfer.host,
             command->transfer.buffer->data + command->transfer.offset,
             (size_t)command->transfer.size);
      break;
    case cpu_command_write_buffer:
      memcpy(command->transfer.buffer->data + command->transfer.offset,
             command->transfer.host, (size_t)command->transfer.size);
      break;
    case cpu_command_copy_buffer:
      memmove(command->copy.dst->data + command->copy.dst_offset,
              command->copy.src->data + command->copy.src_offset,
              (size_t)command->copy.size);
      break;
    case cpu_command_fill_buffer:
      cpu_fill(command->fill.buffer->data + command->fill.offset,
               command->fill.size, command->fill.pattern,
               command->fill.pattern_size);
      break;
    case cpu_command_read_buffer_regions:
    case cpu_command_write_buffer_regions:
    case cpu_command_copy_buffer_regions: {
      const uint8_t *src = command->regions.src ? command->regions.src->data
                                                : command->regions.host;
      uint8_t *dst = command->regions.dst ? command->regions.dst->data
                                          : command->regions.host;
      for (uint64_t i = 0; i < command->regions.count; i++) {
        cpu_copy_region(dst, src, &command->regions.regions[i]);
      }
      break;
    }
    case cpu_command_read_image:
      cpu_image_read(command->image_transfer.image,
                     command->image_transfer.offset,
                     command->image_transfer.extent,
                     command->image_transfer.row_size,
                     command->image_transfer.slice_size,
                     command->image_transfer.host);
      break;
    case cpu_command_write_image:
      cpu_image_write(command->image_transfer.image,
                      command->image_transfer.offset,
                      command->image_transfer.extent,
                      command->image_transfer.row_size,
                      command->image_transfer.slice_size,
                      command->image_transfer.host);
      break;
    case cpu_command_fill_image:
      cpu_image_fill(command->image_fill.image, command->image_fill.color,
                     command->image_fill.color_size, command->image_fill.offset,
                     command->image_fill.extent);
      break;
    case cpu_command_copy_image:
      cpu_image_copy(command->image_copy.src, command->image_copy.dst,
                     command->image_copy.src_offset,
                     command->image_copy.dst_offset, command->image_copy.extent);
      break;
    case cpu_command_copy_image_to_buffer:
      cpu_image_copy_to_buffer(
          command->image_buffer.image,
          command->image_buffer.buffer->data +
              command->image_buffer.buffer_offset,
          command->image_buffer.image_offset, command->image_buffer.extent);
      break;
    case cpu_command_copy_buffer_to_image:
      cpu_image_copy_from_buffer(
          command->image_buffer.image,
          command->image_buffer.buffer->data +
              command->image_buffer.buffer_offset,
          command->image_buffer.image_offset, command->image_buffer.extent);
      break;
    case cpu_command_ndrange:
      return cpu_ndrange_run((cpu_device *)buffer->base.device,
                             &command->ndrange);
    case cpu_command_user_callback:
      command->user_callback.function(queue, &buffer->base,
                                      command->user_callback.user_data);
      break;
    case cpu_command_begin_query:
    case cpu_command_end_query:
    case cpu_command_reset_query_pool:
      cpu_run_queries(command);
      break;
  }
  return mux_success;
}

mux_result_t cpu_command_buffer_run(cpu_command_buffer *command_buffer,
                                    mux_queue_t queue) {
  for (uint32_t i = 0; i < command_buffer->count; i++) {
    mux_result_t error =
        cpu_run_command(command_buffer, &command_buffer->commands[i], queue);
    if (error != mux_success) {
      if (command_buffer->callback.callback) {
        command_buffer->callback.callback(
            command_buffer->callback.user_data,
            "clmux: a command failed; the rest of the command buffer was "
            "skipped",
            &i, sizeof(i));
      }
      return error;
    }
  }
  return mux_success;
}

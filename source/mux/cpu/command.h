/* clmux CPU target: the commands a command buffer holds, shared by
 * recording (command_buffer.c) and execution (command_run.c). */
#ifndef CLMUX_CPU_COMMAND_H
#define CLMUX_CPU_COMMAND_H

#include "cpu.h"

#define CPU_FILL_PATTERN_MAX 128u
#define CPU_FILL_COLOR_MAX 16u

typedef enum cpu_command_kind {
  cpu_command_read_buffer,
  cpu_command_write_buffer,
  cpu_command_copy_buffer,
  cpu_command_fill_buffer,
  cpu_command_read_buffer_regions,
  cpu_command_write_buffer_regions,
  cpu_command_copy_buffer_regions,
  cpu_command_read_image,
  cpu_command_write_image,
  cpu_command_fill_image,
  cpu_command_copy_image,
  cpu_command_copy_image_to_buffer,
  cpu_command_copy_buffer_to_image,
  cpu_command_ndrange,
  cpu_command_user_callback,
  cpu_command_begin_query,
  cpu_command_end_query,
  cpu_command_reset_query_pool
} cpu_command_kind;

struct cpu_command {
  cpu_command_kind kind;
  union {
    struct {
      cpu_buffer *buffer;
      uint64_t offset;
      void *host; /* const for a write; never written through then */
      uint64_t size;
    } transfer; /* read_buffer, write_buffer */
    struct {
      cpu_buffer *src;
      cpu_buffer *dst;
      uint64_t src_offset;
      uint64_t dst_offset;
      uint64_t size;
    } copy;
    struct {
      cpu_buffer *buffer;
      uint64_t offset;
      uint64_t size;
      uint32_t pattern_size;
      uint8_t pattern[CPU_FILL_PATTERN_MAX];
    } fill;
    struct {
      cpu_buffer *src; /* NULL: host memory at `host` */
      cpu_buffer *dst; /* NULL: host memory at `host` */
      void *host;
      mux_buffer_region_info_t *regions; /* owned copy */
      uint64_t count;
    } regions; /* read/write/copy_buffer_regions */
    struct {
      cpu_image *image;
      mux_offset_3d_t offset;
      mux_extent_3d_t extent;
      uint64_t row_size;
      uint64_t slice_size;
      void *host;
    } image_transfer; /* read_image, write_image */
    struct {
      cpu_image *image;
      mux_offset_3d_t offset;
      mux_extent_3d_t extent;
      uint32_t color_size;
      uint8_t color[CPU_FILL_COLOR_MAX];
    } image_fill;
    struct {
      cpu_image *src;
      cpu_image *dst;
      mux_offset_3d_t src_offset;
      mux_offset_3d_t dst_offset;
      mux_extent_3d_t extent;
    } image_copy;
    struct {
      cpu_image *image;
      cpu_buffer *buffer;
      mux_offset_3d_t image_offset;
      uint64_t buffer_offset;
      mux_extent_3d_t extent;
    } image_buffer; /* copy_image_to_buffer, copy_buffer_to_image */
    cpu_ndrange ndrange;
    struct {
      mux_command_user_callback_t function;
      void *user_data;
    } user_callback;
    struct {
      cpu_query_pool *pool;
      uint32_t index;
      uint32_t count;
    } query; /* begin_query, end_query, reset_query_pool */
  };
};

#endif /* CLMUX_CPU_COMMAND_H */

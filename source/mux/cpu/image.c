/* clmux CPU target: images and the pixel movers that copy, fill, read and
 * write their regions. Images are linear: pixel (x, y, z) lives at
 * data + x * pixel_size + y * row_size + z * slice_size (cpu.h), with the
 * layers of a 1D array in y and those of a 2D array in z. */
#include <string.h>

#include "../target.h"
#include "cpu.h"

/* ---- Image objects ------------------------------------------------------ */

/* The packed pitch when `given` is 0, else `given` if it is large enough;
 * 0 signals a pitch smaller than the packed one. */
static uint64_t cpu_image_pitch(uint64_t given, uint64_t packed) {
  if (given == 0) return packed;
  return given >= packed ? given : 0;
}

mux_result_t cpuCreateImage(mux_device_t device, mux_image_type_e type,
                            mux_image_format_e format, uint32_t width,
                            uint32_t height, uint32_t depth,
                            uint32_t array_layers, uint64_t row_size,
                            uint64_t slice_size,
                            mux_allocator_info_t allocator_info,
                            mux_image_t *out_image) {
  uint32_t pixel_size = cpu_image_format_pixel_size(format);
  if (pixel_size == 0 || width == 0) return mux_error_invalid_value;

  /* Extent in pixels, and how many slices the memory holds: the depth of a
   * 3D image, the layers of an array, else one. */
  uint64_t h = 1, d = 1, slices = 1;
  switch (type) {
    case mux_image_type_1d:
      if (array_layers) slices = array_layers;
      break;
    case mux_image_type_2d:
      h = height ? height : 1;
      if (array_layers) slices = array_layers;
      break;
    case mux_image_type_3d:
      if (array_layers) return mux_error_invalid_value;
      h = height ? height : 1;
      d = depth ? depth : 1;
      slices = d;
      break;
    default:
      return mux_error_invalid_value;
  }

  uint64_t row = cpu_image_pitch(row_size, (uint64_t)width * pixel_size);
  if (row == 0) return mux_error_invalid_value;
  uint64_t packed_slice;
  if (__builtin_mul_overflow(row, h, &packed_slice)) {
    return mux_error_out_of_memory;
  }
  uint64_t slice = cpu_image_pitch(slice_size, packed_slice);
  if (slice == 0) return mux_error_invalid_value;
  if (type == mux_image_type_1d && array_layers) {
    /* A 1D array steps through its layers with y, so the row pitch is the
     * layer pitch; a slice pitch, when given, is the one to honour. */
    row = slice;
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(slice, slices, &bytes)) {
    return mux_error_out_of_memory;
  }

  cpu_image *image =
      cpu_calloc(allocator_info, sizeof(cpu_image), _Alignof(cpu_image));
  if (!image) return mux_error_out_of_memory;
  image->base.id = CPU_ID(mux_object_id_image);
  image->base.memory_requirements.size = bytes;
  image->base.memory_requirements.alignment = device->info->buffer_alignment;
  image->base.memory_requirements.supported_heaps = 1;
  image->base.type = type;
  image->base.format = format;
  image->base.pixel_size = pixel_size;
  image->base.size.x = width;
  image->base.size.y = (size_t)h;
  image->base.size.z = (size_t)d;
  image->base.array_layers = array_layers;
  image->base.row_size = row;
  image->base.slice_size = slice;
  image->base.tiling = mux_image_tiling_linear;
  cpu_image_view *view = &image->view;
  view->row_pitch = row;
  view->slice_pitch = slice;
  view->width = width;
  view->height = (uint32_t)h;
  view->depth = (uint32_t)d;
  view->array_size = array_layers;
  view->channel_order = (uint32_t)format & 0xffffu;
  view->channel_type = (uint32_t)format >> 16;
  view->pixel_size = pixel_size;
  view->dimensions = type == mux_image_type_1d   ? 1
                     : type == mux_image_type_2d ? 2
                                                 : 3;
  *out_image = &image->base;
  return mux_success;
}

void cpuDestroyImage(mux_device_t device, mux_image_t image,
                     mux_allocator_info_t allocator_info) {
  (void)device;
  image->id = 0;
  cpu_free(allocator_info, image);
}

mux_result_t cpuBindImageMemory(mux_device_t device, mux_memory_t memory,
                                mux_image_t image, uint64_t offset) {
  (void)device;
  cpu_image *cpu = (cpu_image *)image;
  cpu->memory = (cpu_memory *)memory;
  cpu->data = (uint8_t *)(uintptr_t)memory->handle + offset;
  cpu->view.data = cpu->data;
  return mux_success;
}

/* ---- Pixel movers ------------------------------------------------------- */

/* Copies `slices` slices of `rows` rows of `row_bytes` bytes between two
 * pitched layouts, in as few memcpy calls as the pitches allow. */
static void cpu_copy_pitched(uint8_t *dst, uint64_t dst_row, uint64_t dst_slice,
                             const uint8_t *src, uint64_t src_row,
                             uint64_t src_slice, size_t row_bytes, size_t rows,
                             size_t slices) {
  if (row_bytes == 0 || rows == 0 || slices == 0) return;
  if (dst_row == row_bytes && src_row == row_bytes) {
    size_t slice_bytes = row_bytes * rows;
    if (dst_slice == slice_bytes && src_slice == slice_bytes) {
      memcpy(dst, src, slice_bytes * slices);
      return;
    }
    for (size_t z = 0; z < slices; z++) {
      memcpy(dst + z * dst_slice, src + z * src_slice, slice_bytes);
    }
    return;
  }
  for (size_t z = 0; z < slices; z++) {
    uint8_t *dst_plane = dst + z * dst_slice;
    const uint8_t *src_plane = src + z * src_slice;
    for (size_t y = 0; y < rows; y++) {
      memcpy(dst_plane + y * dst_row, src_plane + y * src_row, row_bytes);
    }
  }
}

static uint8_t *cpu_image_address(const cpu_image *image,
                                  mux_offset_3d_t offset) {
  return image->data + (uint64_t)offset.x * image->base.pixel_size +
         (uint64_t)offset.y * image->base.row_size +
         (uint64_t)offset.z * image->base.slice_size;
}

/* Host pitches of 0 mean tightly packed rows and slices. */
static void cpu_host_pitches(const cpu_image *image, mux_extent_3d_t extent,
                             uint64_t *row_size, uint64_t *slice_size) {
  if (*row_size == 0) *row_size = extent.x * image->base.pixel_size;
  if (*slice_size == 0) *slice_size = *row_size * extent.y;
}

void cpu_image_read(const cpu_image *image, mux_offset_3d_t offset,
                    mux_extent_3d_t extent, uint64_t row_size,
                    uint64_t slice_size, void *pointer) {
  cpu_host_pitches(image, extent, &row_size, &slice_size);
  cpu_copy_pitched(pointer, row_size, slice_size,
                   cpu_image_address(image, offset), image->base.row_size,
                   image->base.slice_size, extent.x * image->base.pixel_size,
                   extent.y, extent.z);
}

void cpu_image_write(cpu_image *image, mux_offset_3d_t offset,
                     mux_extent_3d_t extent, uint64_t row_size,
                     uint64_t slice_size, const void *pointer) {
  cpu_host_pitches(image, extent, &row_size, &slice_size);
  cpu_copy_pitched(cpu_image_address(image, offset), image->base.row_size,
                   image->base.slice_size, pointer, row_size, slice_size,
                   extent.x * image->base.pixel_size, extent.y, extent.z);
}

void cpu_image_fill(cpu_image *image, const void *pixel, uint32_t pixel_size,
                    mux_offset_3d_t offset, mux_extent_3d_t extent) {
  size_t stride = image->base.pixel_size;
  size_t row_bytes = extent.x * stride;
  if (row_bytes == 0 || extent.y == 0 || extent.z == 0) return;
  /* The image's own pixel size governs the layout; a shorter colour is
   * padded with zeros rather than read past its end. */
  uint8_t encoded[16] = {0};
  if (stride > sizeof(encoded)) return;
  memcpy(encoded, pixel, pixel_size < stride ? pixel_size : stride);

  /* Build the first row by doubling, then copy it to every other row. */
  uint8_t *first = cpu_image_address(image, offset);
  memcpy(first, encoded, stride);
  for (size_t done = stride; done < row_bytes;) {
    size_t chunk = done <= row_bytes - done ? done : row_bytes - done;
    memcpy(first + done, first, chunk);
    done += chunk;
  }
  for (size_t z = 0; z < extent.z; z++) {
    uint8_t *plane = first + z * image->base.slice_size;
    for (size_t y = (z == 0); y < extent.y; y++) {
      memcpy(plane + y * image->base.row_size, first, row_bytes);
    }
  }
}

void cpu_image_copy(const cpu_image *src, cpu_image *dst,
                    mux_offset_3d_t src_offset, mux_offset_3d_t dst_offset,
                    mux_extent_3d_t extent) {
  cpu_copy_pitched(cpu_image_address(dst, dst_offset), dst->base.row_size,
                   dst->base.slice_size, cpu_image_address(src, src_offset),
                   src->base.row_size, src->base.slice_size,
                   extent.x * src->base.pixel_size, extent.y, extent.z);
}

void cpu_image_copy_to_buffer(const cpu_image *src, uint8_t *dst,
                              mux_offset_3d_t src_offset,
                              mux_extent_3d_t extent) {
  cpu_image_read(src, src_offset, extent, 0, 0, dst);
}

void cpu_image_copy_from_buffer(cpu_image *dst, const uint8_t *src,
                                mux_offset_3d_t dst_offset,
                                mux_extent_3d_t extent) {
  cpu_image_write(dst, dst_offset, extent, 0, 0, src);
}

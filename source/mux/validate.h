/* clmux Mux API layer: checks shared by the entry points. They read only the
 * public fields of mux.h, so the API layer needs nothing from the target to
 * reject bad arguments. Handle checks are best effort: a handle is accepted
 * when it is non-NULL and its id names the expected kind of object; targets
 * zero the id on destruction, so a destroyed handle is usually caught too. */
#ifndef CLMUX_MUX_VALIDATE_H
#define CLMUX_MUX_VALIDATE_H

#include <mux/mux.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Allocators and handles --------------------------------------------- */

static inline bool api_valid_allocator(mux_allocator_info_t allocator) {
  return allocator.alloc != NULL && allocator.free != NULL;
}

static inline bool api_id_is(mux_id_t id, uint32_t kind) {
  return (id & (uint32_t)mux_object_id_mask) == kind;
}

#define API_DEFINE_HANDLE_CHECK(kind, type)                   \
  static inline bool api_valid_##kind(type handle) {          \
    return handle != NULL &&                                  \
           api_id_is(handle->id, (uint32_t)mux_object_id_##kind); \
  }

API_DEFINE_HANDLE_CHECK(device, mux_device_t)
API_DEFINE_HANDLE_CHECK(memory, mux_memory_t)
API_DEFINE_HANDLE_CHECK(buffer, mux_buffer_t)
API_DEFINE_HANDLE_CHECK(image, mux_image_t)
API_DEFINE_HANDLE_CHECK(queue, mux_queue_t)
API_DEFINE_HANDLE_CHECK(command_buffer, mux_command_buffer_t)
API_DEFINE_HANDLE_CHECK(semaphore, mux_semaphore_t)
API_DEFINE_HANDLE_CHECK(fence, mux_fence_t)
API_DEFINE_HANDLE_CHECK(executable, mux_executable_t)
API_DEFINE_HANDLE_CHECK(kernel, mux_kernel_t)
API_DEFINE_HANDLE_CHECK(query_pool, mux_query_pool_t)

#undef API_DEFINE_HANDLE_CHECK

/* The device info behind an object's device pointer, or NULL when the
 * pointer does not name a device: capability checks then see "no support"
 * instead of reading through a bad pointer. */
static inline const struct mux_device_info_s *api_device_info(
    mux_device_t device) {
  return api_valid_device(device) ? device->info : NULL;
}

/* ---- Lists and ranges --------------------------------------------------- */

/* A length and its array must agree: both zero/NULL or both set. */
static inline bool api_valid_list(uint64_t length, const void *list) {
  return (length == 0) == (list == NULL);
}

static inline bool api_valid_sync_points(uint32_t length,
                                         const mux_sync_point_t *list) {
  return api_valid_list(length, list);
}

/* offset + size > limit, without the sum overflowing. */
static inline bool api_exceeds(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset > limit || size > limit - offset;
}

static inline bool api_is_power_of_two(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

/* ---- Images ------------------------------------------------------------- */

/* The extent of an image in the coordinates commands address it with: a 1D
 * array's layers are its y, a 2D array's layers its z. */
static inline mux_extent_3d_t api_image_bounds(mux_image_t image) {
  mux_extent_3d_t bounds = image->size;
  if (image->array_layers != 0) {
    if (image->type == mux_image_type_1d) bounds.y = image->array_layers;
    if (image->type == mux_image_type_2d) bounds.z = image->array_layers;
  }
  return bounds;
}

/* Whether offset + extent lies inside the image in every dimension. */
static inline bool api_image_region_fits(mux_image_t image,
                                         mux_offset_3d_t offset,
                                         mux_extent_3d_t extent) {
  mux_extent_3d_t bounds = api_image_bounds(image);
  return !api_exceeds(offset.x, extent.x, bounds.x) &&
         !api_exceeds(offset.y, extent.y, bounds.y) &&
         !api_exceeds(offset.z, extent.z, bounds.z);
}

/* Bytes of a tightly packed copy of `extent` pixels of `image`; false when
 * the product overflows. */
static inline bool api_image_extent_bytes(mux_image_t image,
                                          mux_extent_3d_t extent,
                                          uint64_t *out_bytes) {
  uint64_t bytes = image->pixel_size;
  if (__builtin_mul_overflow(bytes, (uint64_t)extent.x, &bytes) ||
      __builtin_mul_overflow(bytes, (uint64_t)extent.y, &bytes) ||
      __builtin_mul_overflow(bytes, (uint64_t)extent.z, &bytes)) {
    return false;
  }
  *out_bytes = bytes;
  return true;
}

/* ---- Buffer regions ----------------------------------------------------- */

/* One side (source or destination) of a rectangular copy: origin in bytes,
 * rows and slices; desc.x the row pitch and desc.y the slice pitch. */
typedef struct api_region_side {
  mux_extent_3d_t origin;
  mux_extent_2d_t desc;
} api_region_side;

static inline api_region_side api_region_src(const mux_buffer_region_info_t *r) {
  api_region_side side = {r->src_origin, r->src_desc};
  return side;
}

static inline api_region_side api_region_dst(const mux_buffer_region_info_t *r) {
  api_region_side side = {r->dst_origin, r->dst_desc};
  return side;
}

/* Byte offset of (x, y, z) on one side; false on overflow. */
static inline bool api_region_offset(const api_region_side *side, uint64_t x,
                                     uint64_t y, uint64_t z, uint64_t *out) {
  uint64_t row, slice, sum;
  if (__builtin_mul_overflow(y, (uint64_t)side->desc.x, &row) ||
      __builtin_mul_overflow(z, (uint64_t)side->desc.y, &slice) ||
      __builtin_add_overflow(x, row, &sum) ||
      __builtin_add_overflow(sum, slice, &sum)) {
    return false;
  }
  *out = sum;
  return true;
}

/* The bytes [*begin, *end) a region spans on one side (it touches only the
 * rows inside that span); false when the arithmetic overflows. Extents must
 * be non-zero. */
static inline bool api_region_span(const mux_extent_3d_t *region,
                                   const api_region_side *side,
                                   uint64_t *begin, uint64_t *end) {
  uint64_t x = side->origin.x, y = side->origin.y, z = side->origin.z;
  uint64_t last_y, last_z, last_row;
  return !__builtin_add_overflow(y, (uint64_t)region->y - 1, &last_y) &&
         !__builtin_add_overflow(z, (uint64_t)region->z - 1, &last_z) &&
         api_region_offset(side, x, y, z, begin) &&
         api_region_offset(side, x, last_y, last_z, &last_row) &&
         !__builtin_add_overflow(last_row, (uint64_t)region->x, end);
}

static inline bool api_region_has_zero_extent(const mux_extent_3d_t *region) {
  return region->x == 0 || region->y == 0 || region->z == 0;
}

/* The spec compares each pitch with the region component of the same name. */
static inline bool api_region_desc_too_small(const mux_buffer_region_info_t *r) {
  return r->src_desc.x < r->region.x || r->src_desc.y < r->region.y ||
         r->dst_desc.x < r->region.x || r->dst_desc.y < r->region.y;
}

static inline bool api_region_out_of_bounds(const mux_extent_3d_t *region,
                                            const api_region_side *side,
                                            uint64_t size) {
  uint64_t begin, end;
  return !api_region_span(region, side, &begin, &end) || end > size;
}

/* A region's bytes as a box of (byte in row, row, slice) coordinates. */
typedef struct api_box {
  uint64_t origin[3];
  uint64_t extent[3];
} api_box;

/* Splits a region's bytes into a box when every byte has one coordinate:
 * its rows must not wrap past the row pitch and, for `slices`, its rows not
 * past a slice (the slice pitch then a whole number of rows). Without
 * `slices` the region must be 2D and rows count from byte 0. */
static inline bool api_region_box(const mux_extent_3d_t *region,
                                  const api_region_side *side, bool slices,
                                  api_box *box) {
  uint64_t start, row_pitch = side->desc.x, slice_pitch = side->desc.y;
  if (!api_region_offset(side, side->origin.x, side->origin.y, side->origin.z,
                         &start) ||
      row_pitch == 0 || region->x > row_pitch - start % row_pitch) {
    return false;
  }
  uint64_t row = start / row_pitch;
  box->origin[0] = start % row_pitch;
  box->extent[0] = region->x;
  box->extent[1] = region->y;
  box->extent[2] = region->z;
  if (!slices) {
    box->origin[1] = row;
    box->origin[2] = 0;
    return region->z == 1;
  }
  if (slice_pitch % row_pitch != 0) return false;
  uint64_t rows_per_slice = slice_pitch / row_pitch;
  box->origin[1] = row % rows_per_slice;
  box->origin[2] = row / rows_per_slice;
  return region->y <= rows_per_slice - box->origin[1];
}

/* [a, a + a_length) and [b, b + b_length) share a value; no sums, so no
 * overflow. */
static inline bool api_intervals_overlap(uint64_t a, uint64_t a_length,
                                         uint64_t b, uint64_t b_length) {
  return a <= b ? b - a < a_length : a - b < b_length;
}

static inline bool api_boxes_overlap(const api_box *a, const api_box *b) {
  for (int i = 0; i < 3; i++) {
    if (!api_intervals_overlap(a->origin[i], a->extent[i], b->origin[i],
                               b->extent[i])) {
      return false;
    }
  }
  return true;
}

/* Whether two regions touch a common byte on one side. Exact when both
 * sides share their pitches and split into boxes (every 2D region whose
 * rows fit the row pitch; 3D ones whose slices hold whole rows); otherwise
 * it compares byte spans, which may refuse interleaved regions but never
 * misses an overlap. A span that overflows counts as overlapping. */
static inline bool api_regions_overlap(const mux_buffer_region_info_t *a,
                                       const mux_buffer_region_info_t *b,
                                       bool destination) {
  api_region_side sa = destination ? api_region_dst(a) : api_region_src(a);
  api_region_side sb = destination ? api_region_dst(b) : api_region_src(b);
  if (sa.desc.x == sb.desc.x && sa.desc.y == sb.desc.y) {
    bool slices = a->region.z != 1 || b->region.z != 1;
    api_box box_a, box_b;
    if (api_region_box(&a->region, &sa, slices, &box_a) &&
        api_region_box(&b->region, &sb, slices, &box_b)) {
      return api_boxes_overlap(&box_a, &box_b);
    }
  }
  uint64_t a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
  if (!api_region_span(&a->region, &sa, &a_begin, &a_end) ||
      !api_region_span(&b->region, &sb, &b_begin, &b_end)) {
    return true;
  }
  return a_begin < b_end && b_begin < a_end;
}

static inline bool api_any_regions_overlap(const mux_buffer_region_info_t *regions,
                                           uint64_t length, bool destination) {
  for (uint64_t i = 0; i < length; i++) {
    for (uint64_t j = i + 1; j < length; j++) {
      if (api_regions_overlap(&regions[i], &regions[j], destination)) {
        return true;
      }
    }
  }
  return false;
}

/* ---- Kernel argument descriptors ---------------------------------------- */

/* What the target relies on when it packs arguments, beyond the spec's
 * list: a known type, live buffer and image handles, data behind a
 * plain-old-data length and at most 16 embedded bytes. */
static inline bool api_valid_descriptors(
    const mux_descriptor_info_t *descriptors, uint64_t length) {
  for (uint64_t i = 0; i < length; i++) {
    const mux_descriptor_info_t *d = &descriptors[i];
    switch (d->type) {
      case mux_descriptor_info_type_buffer:
        if (!api_valid_buffer(d->buffer_descriptor.buffer)) {
          return false;
        }
        break;
      case mux_descriptor_info_type_image:
        if (!api_valid_image(d->image_descriptor.image)) {
          return false;
        }
        break;
      case mux_descriptor_info_type_plain_old_data:
        if (d->plain_old_data_descriptor.length != 0 &&
            d->plain_old_data_descriptor.data == NULL) {
          return false;
        }
        break;
      case mux_descriptor_info_type_plain_old_embedded_data:
        if (d->plain_old_embedded_data_descriptor.length >
            sizeof d->plain_old_embedded_data_descriptor.data) {
          return false;
        }
        break;
      case mux_descriptor_info_type_custom_buffer:
      case mux_descriptor_info_type_sampler:
      case mux_descriptor_info_type_shared_local_buffer:
      case mux_descriptor_info_type_null_buffer:
        break;
      default:
        return false;
    }
  }
  return true;
}

/* The spec's own rule: a custom buffer needs custom buffer capabilities. */
static inline bool api_has_unsupported_custom_buffer(
    const mux_descriptor_info_t *descriptors, uint64_t length,
    const struct mux_device_info_s *info) {
  if (info && info->custom_buffer_capabilities != 0) return false;
  for (uint64_t i = 0; i < length; i++) {
    if (descriptors[i].type == mux_descriptor_info_type_custom_buffer) {
      return true;
    }
  }
  return false;
}

#endif /* CLMUX_MUX_VALIDATE_H */

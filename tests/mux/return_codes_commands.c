/* Return codes of the command buffer entry points and of every muxCommand*:
 * one check per code the spec lists, plus the success case. */
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

#define BUFFER_SIZE 256u

static const mux_allocator_info_t null_allocator = {NULL, NULL, NULL};

/* A dummy sync-point list: only its length and presence are checked. */
static mux_sync_point_t no_sync_point;
static const mux_sync_point_t *some_list = &no_sync_point;

static mux_command_buffer_t new_command_buffer(mux_device_t device) {
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  return command_buffer;
}

static void test_command_buffer_objects(mux_device_t device) {
  mux_command_buffer_t command_buffer = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateCommandBuffer(NULL, NULL, mux_test_allocator,
                                      &command_buffer));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateCommandBuffer(device, NULL, null_allocator,
                                      &command_buffer));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateCommandBuffer(device, NULL, mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateCommandBuffer(device, NULL, null_allocator, NULL));
  CHECK_SUCCESS(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                       &command_buffer));
  REQUIRE(command_buffer != NULL);
  CHECK(command_buffer->device == device);

  CHECK_RESULT(mux_error_null_out_parameter, muxFinalizeCommandBuffer(NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxFinalizeCommandBuffer((mux_command_buffer_t)device));
  CHECK_RESULT(mux_error_invalid_value, muxResetCommandBuffer(NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxResetCommandBuffer((mux_command_buffer_t)device));
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer)); /* no effect */

  mux_command_buffer_t clone = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCloneCommandBuffer(NULL, mux_test_allocator, command_buffer,
                                     &clone));
  if (!device->info->can_clone_command_buffers) {
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxCloneCommandBuffer(device, mux_test_allocator,
                                       command_buffer, &clone));
    /* Unsupported comes first of all. */
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxCloneCommandBuffer(device, null_allocator, NULL, NULL));
  } else {
    CHECK_RESULT(mux_error_null_allocator_callback,
                 muxCloneCommandBuffer(device, null_allocator, command_buffer,
                                       &clone));
    CHECK_RESULT(mux_error_invalid_value,
                 muxCloneCommandBuffer(device, mux_test_allocator, NULL,
                                       &clone));
    CHECK_RESULT(mux_error_null_out_parameter,
                 muxCloneCommandBuffer(device, mux_test_allocator,
                                       command_buffer, NULL));
    CHECK_SUCCESS(muxCloneCommandBuffer(device, mux_test_allocator,
                                        command_buffer, &clone));
    if (clone) muxDestroyCommandBuffer(device, clone, mux_test_allocator);
  }

  muxDestroyCommandBuffer(device, NULL, mux_test_allocator);
  muxDestroyCommandBuffer(NULL, command_buffer, mux_test_allocator);
  muxDestroyCommandBuffer(device, command_buffer, null_allocator);
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer)); /* still alive */
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
}

static void test_read_write_buffer(mux_command_buffer_t cb,
                                   mux_buffer_t buffer) {
  uint8_t host[BUFFER_SIZE];
  const uint64_t size = buffer->memory_requirements.size;
  mux_sync_point_t sync_point = NULL;

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(NULL, buffer, 0, host, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, NULL, 0, host, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, (mux_buffer_t)cb, 0, host, 8, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, size + 1, host, 1, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 8, host, size - 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 8, host, UINT64_MAX - 4, 0,
                                    NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 0, NULL, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 0, host, 0, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 0, host, size + 1, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 0, host, 8, 0, some_list,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadBuffer(cb, buffer, 0, host, 8, 1, NULL, NULL));
  CHECK_SUCCESS(muxCommandReadBuffer(cb, buffer, 8, host, BUFFER_SIZE - 8, 0,
                                     NULL, &sync_point));

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(NULL, buffer, 0, host, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, NULL, 0, host, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, size + 1, host, 1, 0, NULL,
                                     NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 8, host, size - 4, 0, NULL,
                                     NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, UINT64_MAX, host, 2, 0, NULL,
                                     NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 0, NULL, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 0, host, 0, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 0, host, size + 1, 0, NULL,
                                     NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 0, host, 8, 0, some_list,
                                     NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(cb, buffer, 0, host, 8, 1, NULL, NULL));
  CHECK_SUCCESS(muxCommandWriteBuffer(cb, buffer, 0, host, BUFFER_SIZE, 0,
                                      NULL, NULL));
}

static void test_copy_fill_buffer(mux_command_buffer_t cb, mux_buffer_t src,
                                  mux_buffer_t dst) {
  const uint64_t size = src->memory_requirements.size;
  CHECK(dst->memory_requirements.size == size);
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(NULL, src, 0, dst, 0, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, NULL, 0, dst, 0, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, NULL, 0, 8, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, size + 1, dst, 0, 1, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 8, dst, 0, size - 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, size + 1, 1, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, 8, size - 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, UINT64_MAX, 2, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, 0, 0, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, 0, size + 1, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, 0, 8, 0, some_list,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBuffer(cb, src, 0, dst, 0, 8, 2, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyBuffer(cb, src, 8, dst, 0, size - 8, 0, NULL,
                                     NULL));

  const uint32_t pattern[4] = {1, 2, 3, 4};
  uint8_t big_pattern[256] = {0};
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(NULL, dst, 0, 16, pattern, 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, NULL, 0, 16, pattern, 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, size + 4, 4, pattern, 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 16, size - 8, pattern, 4, 0,
                                    NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 0, pattern, 4, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, size + 4, pattern, 4, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 16, NULL, 4, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 16, pattern, 0, 0, NULL,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 256, big_pattern, 256, 0,
                                    NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 16, pattern, 4, 0, some_list,
                                    NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(cb, dst, 0, 16, pattern, 4, 1, NULL,
                                    NULL));
  CHECK_SUCCESS(muxCommandFillBuffer(cb, dst, 16, size - 16, pattern,
                                     sizeof pattern, 0, NULL, NULL));
}

/* A 2D region of `width` bytes by `rows` rows, both sides with row pitch
 * `pitch` and slice pitch pitch * 16. */
static mux_buffer_region_info_t region(size_t src_x, size_t src_y,
                                       size_t dst_x, size_t dst_y,
                                       size_t width, size_t rows,
                                       size_t pitch) {
  mux_buffer_region_info_t r = {{width, rows, 1},
                                {src_x, src_y, 0},
                                {dst_x, dst_y, 0},
                                {pitch, pitch * 16},
                                {pitch, pitch * 16}};
  return r;
}

typedef mux_result_t (*regions_fn)(mux_command_buffer_t cb,
                                   mux_buffer_t buffer, void *host,
                                   mux_buffer_region_info_t *regions,
                                   uint64_t length, uint32_t num_sync_points,
                                   const mux_sync_point_t *wait_list,
                                   mux_sync_point_t *sync_point);

/* The rules muxCommandReadBufferRegions and muxCommandWriteBufferRegions
 * share; `buffer_side_is_dst` says which side of a region is the buffer. */
static void test_host_regions(mux_command_buffer_t cb, mux_buffer_t buffer,
                              regions_fn command, bool buffer_side_is_dst) {
  uint8_t host[BUFFER_SIZE];
  /* The buffer is 16 rows of 16 bytes. */
  mux_buffer_region_info_t ok[2] = {region(0, 0, 0, 0, 8, 4, 16),
                                    region(8, 0, 8, 0, 8, 4, 16)};
  mux_buffer_region_info_t bad[2];
#define RESET_BAD() memcpy(bad, ok, sizeof ok)
#define BUFFER_ORIGIN(r) \
  (*(buffer_side_is_dst ? &(r).dst_origin : &(r).src_origin))
#define HOST_ORIGIN(r) \
  (*(buffer_side_is_dst ? &(r).src_origin : &(r).dst_origin))
  CHECK_RESULT(mux_error_invalid_value,
               command(NULL, buffer, host, ok, 2, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, NULL, host, ok, 2, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, NULL, ok, 2, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, NULL, 2, 0, NULL, NULL));
  RESET_BAD();
  bad[1].region.x = 0;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  RESET_BAD();
  bad[1].region.y = 0;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  RESET_BAD();
  bad[0].region.z = 0;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  RESET_BAD();
  bad[0].src_desc.x = 4;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  RESET_BAD();
  bad[1].dst_desc.y = 2;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  /* Out of the buffer: the last row is one past the buffer's rows. */
  const size_t rows = buffer->memory_requirements.size / 16;
  RESET_BAD();
  BUFFER_ORIGIN(bad[1]).y = rows - 3;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  RESET_BAD();
  BUFFER_ORIGIN(bad[1]).z = SIZE_MAX / 2;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  /* Overlapping buffer-side regions. */
  RESET_BAD();
  BUFFER_ORIGIN(bad[1]).x = 4;
  BUFFER_ORIGIN(bad[1]).y = 3;
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, bad, 0, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, ok, 2, 0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, buffer, host, ok, 2, 1, NULL, NULL));
  /* Side by side in the same rows, on both sides: no overlap. */
  CHECK_SUCCESS(command(cb, buffer, host, ok, 2, 0, NULL, NULL));
  /* The same host rectangle twice is fine when the host is read; when it
   * is written, the regions overlap. */
  RESET_BAD();
  HOST_ORIGIN(bad[1]).x = 0;
  if (buffer_side_is_dst) {
    CHECK_SUCCESS(command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  } else {
    CHECK_RESULT(mux_error_invalid_value,
                 command(cb, buffer, host, bad, 2, 0, NULL, NULL));
  }
#undef RESET_BAD
#undef BUFFER_ORIGIN
#undef HOST_ORIGIN
}

static void test_copy_regions(mux_command_buffer_t cb, mux_buffer_t src,
                              mux_buffer_t dst) {
  mux_buffer_region_info_t ok[2] = {region(0, 0, 0, 0, 8, 4, 16),
                                    region(0, 4, 8, 0, 8, 4, 16)};
  mux_buffer_region_info_t bad[2];
#define RESET_BAD() memcpy(bad, ok, sizeof ok)
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(NULL, src, dst, ok, 2, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, NULL, dst, ok, 2, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, NULL, ok, 2, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, NULL, 2, 0, NULL,
                                           NULL));
  RESET_BAD();
  bad[0].region.y = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                           NULL));
  RESET_BAD();
  bad[1].dst_desc.x = 7;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                           NULL));
  RESET_BAD();
  bad[1].src_origin.y = src->memory_requirements.size / 16 - 3;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                           NULL));
  RESET_BAD();
  /* The last row ends one byte past the buffer. */
  bad[1].dst_origin.x = 9;
  bad[1].dst_origin.y = dst->memory_requirements.size / 16 - 4;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                           NULL));
  RESET_BAD();
  bad[1].dst_origin.x = 7; /* one column into region 0 */
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, ok, 0, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, ok, 2, 0, some_list,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, ok, 2, 3, NULL,
                                           NULL));
  CHECK_SUCCESS(muxCommandCopyBufferRegions(cb, src, dst, ok, 2, 0, NULL,
                                            NULL));
  /* Reading one source rectangle twice is allowed. */
  RESET_BAD();
  bad[1].src_origin.y = 0;
  CHECK_SUCCESS(muxCommandCopyBufferRegions(cb, src, dst, bad, 2, 0, NULL,
                                            NULL));
#undef RESET_BAD

  /* Side by side in rows 2..5, slices of 4 rows: the destination rows
   * cross a slice boundary, yet the regions share no byte. */
  mux_buffer_region_info_t flat[2] = {region(0, 0, 0, 2, 8, 4, 16),
                                      region(8, 0, 8, 2, 8, 4, 16)};
  for (int i = 0; i < 2; i++) flat[i].src_desc.y = flat[i].dst_desc.y = 64;
  CHECK_SUCCESS(muxCommandCopyBufferRegions(cb, src, dst, flat, 2, 0, NULL,
                                            NULL));
  flat[1].dst_origin.x = 4;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, flat, 2, 0, NULL,
                                           NULL));
  /* 3D: two 8x2x2 boxes in slices of 4 rows, side by side, then not. */
  mux_buffer_region_info_t deep[2] = {region(0, 0, 0, 0, 8, 2, 16),
                                      region(8, 0, 8, 0, 8, 2, 16)};
  for (int i = 0; i < 2; i++) {
    deep[i].region.z = 2;
    deep[i].src_desc.y = deep[i].dst_desc.y = 64;
  }
  CHECK_SUCCESS(muxCommandCopyBufferRegions(cb, src, dst, deep, 2, 0, NULL,
                                            NULL));
  deep[1].dst_origin.y = 1;
  deep[1].dst_origin.x = 7;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, deep, 2, 0, NULL,
                                           NULL));
  /* Interleaved slices: box 1 starts a slice later but its second slice
   * lands on box 0's second slice. */
  deep[1].dst_origin.x = 0;
  deep[1].dst_origin.y = 0;
  deep[1].dst_origin.z = 1;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferRegions(cb, src, dst, deep, 2, 0, NULL,
                                           NULL));
  deep[1].dst_origin.z = 2;
  CHECK_SUCCESS(muxCommandCopyBufferRegions(cb, src, dst, deep, 2, 0, NULL,
                                            NULL));
}

/* An image bound to fresh memory; NULL if the device cannot make it. */
static mux_image_t new_image(mux_device_t device, mux_image_type_e type,
                             uint32_t width, uint32_t height, uint32_t depth,
                             uint32_t layers, mux_memory_t *out_memory) {
  const uint64_t row = width * 4ull;
  mux_image_t image = NULL;
  if (muxCreateImage(device, type, mux_image_format_R8G8B8A8_unorm, width,
                     height, depth, layers, row, row * height,
                     mux_test_allocator, &image) != mux_success) {
    return NULL;
  }
  REQUIRE(muxAllocateMemory(device, image->memory_requirements.size, 1,
                            mux_memory_property_host_visible |
                                mux_memory_property_host_coherent,
                            mux_allocation_type_alloc_host,
                            image->memory_requirements.alignment,
                            mux_test_allocator, out_memory) == mux_success);
  REQUIRE(muxBindImageMemory(device, *out_memory, image, 0) == mux_success);
  return image;
}

static void test_image_commands(mux_device_t device, mux_command_buffer_t cb,
                                mux_buffer_t buffer) {
  mux_memory_t memory_2d = NULL, memory_1da = NULL, memory_2da = NULL;
  mux_image_t image = new_image(device, mux_image_type_2d, 8, 8, 1, 0,
                                &memory_2d);
  mux_image_t array_1d = new_image(device, mux_image_type_1d, 8, 1, 1, 4,
                                   &memory_1da);
  mux_image_t array_2d = new_image(device, mux_image_type_2d, 4, 4, 1, 3,
                                   &memory_2da);
  CHECK(image != NULL && array_1d != NULL && array_2d != NULL);
  if (!image || !array_1d || !array_2d) return;

  uint32_t pixels[8 * 8] = {0};
  const uint32_t color[4] = {0, 0, 0, 0};
  const uint64_t row = 8 * 4, slice = row * 8;
  const mux_offset_3d_t origin = {0, 0, 0};
  const mux_extent_3d_t all = {8, 8, 1}, quarter = {4, 4, 1};
  const mux_offset_3d_t offsets_out[3] = {{5, 0, 0}, {0, 5, 0}, {0, 0, 1}};

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(NULL, image, origin, all, row, slice,
                                   pixels, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, NULL, origin, all, row, slice, pixels,
                                   0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, (mux_image_t)buffer, origin, all, row,
                                   slice, pixels, 0, NULL, NULL));
  for (int i = 0; i < 3; i++) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxCommandReadImage(cb, image, offsets_out[i], quarter, row,
                                     slice, pixels, 0, NULL, NULL));
  }
  mux_extent_3d_t huge = {SIZE_MAX, 1, 1};
  mux_offset_3d_t one = {1, 0, 0};
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, image, one, huge, row, slice, pixels,
                                   0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, image, origin, all, row, slice, NULL,
                                   0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, image, origin, all, row, slice, pixels,
                                   0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandReadImage(cb, image, origin, all, row, slice, pixels,
                                   1, NULL, NULL));
  CHECK_SUCCESS(muxCommandReadImage(cb, image, origin, all, row, slice,
                                    pixels, 0, NULL, NULL));

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(NULL, image, origin, all, row, slice,
                                    pixels, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(cb, NULL, origin, all, row, slice, pixels,
                                    0, NULL, NULL));
  for (int i = 0; i < 3; i++) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxCommandWriteImage(cb, image, offsets_out[i], quarter, row,
                                      slice, pixels, 0, NULL, NULL));
  }
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(cb, image, origin, all, row, slice,
                                    pixels, 0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(cb, image, origin, all, row, slice,
                                    pixels, 1, NULL, NULL));
  CHECK_SUCCESS(muxCommandWriteImage(cb, image, origin, all, row, slice,
                                     pixels, 0, NULL, NULL));

  /* Arrays: a 1D array's layers are its y, a 2D array's its z. */
  const mux_offset_3d_t last_1d_layer = {0, 3, 0}, past_1d_layers = {0, 4, 0};
  const mux_offset_3d_t last_2d_layer = {0, 0, 2}, past_2d_layers = {0, 0, 3};
  const mux_extent_3d_t one_row = {8, 1, 1}, one_slice = {4, 4, 1};
  CHECK_SUCCESS(muxCommandWriteImage(cb, array_1d, last_1d_layer, one_row, 32,
                                     32, pixels, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(cb, array_1d, past_1d_layers, one_row, 32,
                                    32, pixels, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandWriteImage(cb, array_2d, last_2d_layer, one_slice,
                                     16, 64, pixels, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteImage(cb, array_2d, past_2d_layers, one_slice,
                                    16, 64, pixels, 0, NULL, NULL));

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(NULL, image, color, 4, origin, all, 0,
                                   NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, NULL, color, 4, origin, all, 0, NULL,
                                   NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, NULL, 4, origin, all, 0, NULL,
                                   NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, color, 0, origin, all, 0, NULL,
                                   NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, pixels, 17, origin, all, 0,
                                   NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, color, 4, offsets_out[1],
                                   quarter, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, color, 4, origin, all, 0,
                                   some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillImage(cb, image, color, 4, origin, all, 1, NULL,
                                   NULL));
  CHECK_SUCCESS(muxCommandFillImage(cb, image, color, 4, origin, all, 0, NULL,
                                    NULL));

  const mux_offset_3d_t middle = {4, 4, 0};
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(NULL, image, array_2d, middle, origin,
                                   quarter, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, NULL, array_2d, middle, origin,
                                   quarter, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, image, NULL, middle, origin, quarter,
                                   0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, image, array_2d, offsets_out[0],
                                   origin, quarter, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, image, array_2d, middle, middle,
                                   quarter, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, image, array_2d, middle, origin,
                                   quarter, 0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImage(cb, image, array_2d, middle, origin,
                                   quarter, 1, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyImage(cb, image, array_2d, middle,
                                    last_2d_layer, quarter, 0, NULL, NULL));

  /* The buffer holds at least the 64 pixels of the whole 8x8 image. */
  const uint64_t bytes = 8 * 8 * 4, size = buffer->memory_requirements.size;
  REQUIRE(size >= bytes);
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(NULL, image, buffer, origin, 0,
                                           all, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, NULL, buffer, origin, 0, all,
                                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, NULL, origin, 0, all, 0,
                                           NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, buffer, middle, 0, all,
                                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, buffer, origin,
                                           size - bytes + 4, all, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, buffer, origin,
                                           UINT64_MAX, quarter, 0, NULL,
                                           NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, buffer, origin, 0, all,
                                           0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyImageToBuffer(cb, image, buffer, origin, 0, all,
                                           1, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyImageToBuffer(cb, image, buffer, origin, 0, all,
                                            0, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyImageToBuffer(cb, image, buffer, middle,
                                            size - 64, quarter, 0, NULL,
                                            NULL));

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(NULL, buffer, image, 0, origin, all,
                                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, NULL, image, 0, origin, all, 0,
                                           NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, buffer, NULL, 0, origin, all,
                                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, buffer, image,
                                           (uint32_t)(size - bytes + 4),
                                           origin, all, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, buffer, image, 0, middle, all,
                                           0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, buffer, image, 0, origin, all,
                                           0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandCopyBufferToImage(cb, buffer, image, 0, origin, all,
                                           1, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyBufferToImage(cb, buffer, image, 0, origin, all,
                                            0, NULL, NULL));

  muxDestroyImage(device, image, mux_test_allocator);
  muxDestroyImage(device, array_1d, mux_test_allocator);
  muxDestroyImage(device, array_2d, mux_test_allocator);
  muxFreeMemory(device, memory_2d, mux_test_allocator);
  muxFreeMemory(device, memory_1da, mux_test_allocator);
  muxFreeMemory(device, memory_2da, mux_test_allocator);
}

static mux_kernel_t copy_buffer_kernel(mux_device_t device) {
  mux_kernel_t kernel = NULL;
  if (muxCreateBuiltInKernel(device, "copy_buffer", 11, mux_test_allocator,
                             &kernel) != mux_success) {
    return NULL;
  }
  return kernel;
}

static void test_ndrange(mux_device_t device, mux_command_buffer_t cb,
                         mux_buffer_t src, mux_buffer_t dst) {
  mux_kernel_t kernel = copy_buffer_kernel(device);
  CHECK(kernel != NULL);
  if (!kernel) return;
  mux_descriptor_info_t descriptors[2];
  memset(descriptors, 0, sizeof descriptors);
  descriptors[0].type = mux_descriptor_info_type_buffer;
  descriptors[0].buffer_descriptor.buffer = src;
  descriptors[1].type = mux_descriptor_info_type_buffer;
  descriptors[1].buffer_descriptor.buffer = dst;
  const size_t global_offset[1] = {0};
  const size_t global_size[1] = {BUFFER_SIZE};
  const mux_ndrange_options_t ok = {
      descriptors, 2, {4, 1, 1}, global_offset, global_size, 1};
  mux_ndrange_options_t bad;

  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(NULL, kernel, ok, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, NULL, ok, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, (mux_kernel_t)src, ok, 0, NULL, NULL));
  bad = ok;
  bad.descriptors_length = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  bad = ok;
  bad.descriptors = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  for (int i = 0; i < 3; i++) {
    bad = ok;
    bad.local_size[i] = 0;
    CHECK_RESULT(mux_error_invalid_value,
                 muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  }
  bad = ok;
  bad.global_offset = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  bad = ok;
  bad.global_size = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  bad = ok;
  bad.length = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  bad = ok;
  bad.length = 4;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  mux_descriptor_info_t odd[2];
  memcpy(odd, descriptors, sizeof odd);
  bad = ok;
  bad.descriptors = odd;
  if (device->info->custom_buffer_capabilities == 0) {
    odd[1].type = mux_descriptor_info_type_custom_buffer;
    CHECK_RESULT(mux_error_invalid_value,
                 muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  }
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, ok, 0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, ok, 1, NULL, NULL));
  /* Beyond the list: descriptors the target could not pack. */
  memcpy(odd, descriptors, sizeof odd);
  odd[0].buffer_descriptor.buffer = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  memcpy(odd, descriptors, sizeof odd);
  odd[1].type = 99;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandNDRange(cb, kernel, bad, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandNDRange(cb, kernel, ok, 0, NULL, NULL));

  /* Updating descriptors is optional and works on a finalized buffer. */
  uint64_t index = 1;
  mux_descriptor_info_t update = descriptors[0];
  CHECK_RESULT(mux_error_invalid_value,
               muxUpdateDescriptors(NULL, 0, 1, &index, &update));
  if (!device->info->descriptors_updatable) {
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxUpdateDescriptors(cb, 0, 1, &index, &update));
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxUpdateDescriptors(cb, 0, 1, NULL, NULL));
  } else {
    mux_command_buffer_t finalized = new_command_buffer(device);
    CHECK_SUCCESS(muxCommandNDRange(finalized, kernel, ok, 0, NULL, NULL));
    CHECK_SUCCESS(muxFinalizeCommandBuffer(finalized));
    CHECK_RESULT(mux_error_invalid_value,
                 muxUpdateDescriptors(finalized, 0, 1, NULL, &update));
    CHECK_RESULT(mux_error_invalid_value,
                 muxUpdateDescriptors(finalized, 0, 1, &index, NULL));
    CHECK_SUCCESS(muxUpdateDescriptors(finalized, 0, 1, &index, &update));
    muxDestroyCommandBuffer(device, finalized, mux_test_allocator);
  }
  muxDestroyKernel(device, kernel, mux_test_allocator);
}

static void user_callback(mux_queue_t queue, mux_command_buffer_t cb,
                          void *const user_data) {
  (void)queue;
  (void)cb;
  (void)user_data;
}

static void test_user_callback(mux_command_buffer_t cb) {
  int data = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandUserCallback(NULL, user_callback, &data, 0, NULL,
                                      NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandUserCallback(cb, NULL, &data, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandUserCallback(cb, user_callback, &data, 0, some_list,
                                      NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandUserCallback(cb, user_callback, &data, 1, NULL,
                                      NULL));
  CHECK_SUCCESS(muxCommandUserCallback(cb, user_callback, &data, 0, NULL,
                                       NULL));
  CHECK_SUCCESS(muxCommandUserCallback(cb, user_callback, NULL, 0, NULL,
                                       NULL));
}

typedef mux_result_t (*query_command_fn)(mux_command_buffer_t cb,
                                         mux_query_pool_t pool,
                                         uint32_t index, uint32_t count,
                                         uint32_t num_sync_points,
                                         const mux_sync_point_t *wait_list,
                                         mux_sync_point_t *sync_point);

static void test_query_command(mux_command_buffer_t cb, mux_query_pool_t pool,
                               query_command_fn command) {
  CHECK_RESULT(mux_error_invalid_value,
               command(NULL, pool, 0, 1, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, NULL, 0, 1, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, (mux_query_pool_t)cb, 0, 1, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value, command(cb, pool, 4, 1, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value, command(cb, pool, 2, 3, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, pool, 1, UINT32_MAX, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               command(cb, pool, 0, 1, 0, some_list, NULL));
  CHECK_RESULT(mux_error_invalid_value, command(cb, pool, 0, 1, 1, NULL, NULL));
}

static void test_queries(mux_device_t device, mux_command_buffer_t cb) {
  mux_queue_t queue = mux_test_queue(device);
  mux_query_pool_t pool = NULL;
  REQUIRE(muxCreateQueryPool(queue, mux_query_type_duration, 4, NULL,
                             mux_test_allocator, &pool) == mux_success);
  test_query_command(cb, pool, muxCommandBeginQuery);
  CHECK_SUCCESS(muxCommandBeginQuery(cb, pool, 0, 1, 0, NULL, NULL));
  test_query_command(cb, pool, muxCommandEndQuery);
  CHECK_SUCCESS(muxCommandEndQuery(cb, pool, 0, 1, 0, NULL, NULL));
  test_query_command(cb, pool, muxCommandResetQueryPool);
  CHECK_SUCCESS(muxCommandResetQueryPool(cb, pool, 0, 4, 0, NULL, NULL));
  muxDestroyQueryPool(queue, pool, mux_test_allocator);
}

int main(void) {
  mux_device_t device = mux_test_create_device();
  test_command_buffer_objects(device);

  mux_memory_t src_memory = NULL, dst_memory = NULL;
  mux_buffer_t src = mux_test_buffer(device, BUFFER_SIZE, &src_memory);
  mux_buffer_t dst = mux_test_buffer(device, BUFFER_SIZE, &dst_memory);
  mux_command_buffer_t cb = new_command_buffer(device);
  test_read_write_buffer(cb, src);
  test_copy_fill_buffer(cb, src, dst);
  test_host_regions(cb, src, muxCommandReadBufferRegions, false);
  test_host_regions(cb, dst, muxCommandWriteBufferRegions, true);
  test_copy_regions(cb, src, dst);
  if (device->info->image_support) {
    test_image_commands(device, cb, dst);
  } else {
    CHECK(!"the device supports images");
  }
  test_ndrange(device, cb, src, dst);
  test_user_callback(cb);
  test_queries(device, cb);
  CHECK_SUCCESS(muxFinalizeCommandBuffer(cb));

  muxDestroyCommandBuffer(device, cb, mux_test_allocator);
  muxDestroyBuffer(device, src, mux_test_allocator);
  muxDestroyBuffer(device, dst, mux_test_allocator);
  muxFreeMemory(device, src_memory, mux_test_allocator);
  muxFreeMemory(device, dst_memory, mux_test_allocator);
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

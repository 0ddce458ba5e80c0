/* Command buffers: every buffer command produces the right bytes, commands
 * run in recording order, sync points, finalize/reset/re-record, clones,
 * and the CPU target's replay of one buffer's commands in another. */
#include <mux/mux_cpu.h>
#include <string.h>
#include <unistd.h>

#include "mux_test.h"

#define SIZE 1024u
#define TIMEOUT_NS 10000000000ull /* against hangs only */

static mux_device_t device;
static mux_queue_t queue;

static mux_command_buffer_t new_command_buffer(void) {
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  return command_buffer;
}

/* Finalizes (again: finalizing twice is harmless), dispatches, waits. */
static void run(mux_command_buffer_t command_buffer) {
  mux_fence_t fence = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0,
                            NULL, NULL));
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  muxDestroyFence(device, fence, mux_test_allocator);
}

typedef struct {
  mux_buffer_t buffer;
  mux_memory_t memory;
} test_buffer;

static test_buffer new_buffer(void) {
  test_buffer b;
  b.buffer = mux_test_buffer(device, SIZE, &b.memory);
  return b;
}

static void free_buffer(test_buffer b) {
  muxDestroyBuffer(device, b.buffer, mux_test_allocator);
  muxFreeMemory(device, b.memory, mux_test_allocator);
}

/* Sets every byte of the buffer to `value` through a command. */
static void clear(test_buffer b, uint8_t value) {
  mux_command_buffer_t command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandFillBuffer(command_buffer, b.buffer, 0, SIZE, &value,
                                     1, 0, NULL, NULL));
  run(command_buffer);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
}

static void read_all(test_buffer b, uint8_t *out) {
  mux_command_buffer_t command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, b.buffer, 0, out, SIZE, 0,
                                     NULL, NULL));
  run(command_buffer);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
}

static uint8_t byte_at(size_t i) { return (uint8_t)(i * 7u + 3u); }

static void test_write_read(void) {
  test_buffer b = new_buffer();
  clear(b, 0);
  uint8_t source[SIZE], result[SIZE];
  for (size_t i = 0; i < SIZE; i++) source[i] = byte_at(i);

  mux_command_buffer_t command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, b.buffer, 100, source,
                                      300, 0, NULL, NULL));
  memset(result, 0xee, sizeof(result));
  CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, b.buffer, 50, result + 50,
                                     400, 0, NULL, NULL));
  run(command_buffer);
  bool ok = true;
  for (size_t i = 0; i < SIZE; i++) {
    uint8_t expected = 0xee;
    if (i >= 50 && i < 450) expected = (i >= 100 && i < 400) ? source[i - 100] : 0;
    if (result[i] != expected) ok = false;
  }
  CHECK(ok);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  free_buffer(b);
}

/* write -> copy -> read in one command buffer: only in-order execution
 * gives the written bytes back. */
static void test_in_order(void) {
  test_buffer src = new_buffer(), dst = new_buffer();
  clear(src, 0x11);
  clear(dst, 0x22);
  uint8_t source[SIZE], result[SIZE];
  for (size_t i = 0; i < SIZE; i++) source[i] = byte_at(i);

  mux_command_buffer_t command_buffer = new_command_buffer();
  mux_sync_point_t points[3] = {NULL, NULL, NULL};
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, src.buffer, 0, source,
                                      SIZE, 0, NULL, &points[0]));
  CHECK_SUCCESS(muxCommandCopyBuffer(command_buffer, src.buffer, 8, dst.buffer,
                                     16, 512, 1, &points[0], &points[1]));
  CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, dst.buffer, 0, result,
                                     SIZE, 1, &points[1], &points[2]));
  /* Sync points: one per command, distinct, naming this command buffer. */
  CHECK(points[0] && points[1] && points[2]);
  CHECK(points[0] != points[1] && points[1] != points[2] &&
        points[0] != points[2]);
  for (int i = 0; i < 3; i++) {
    CHECK(points[i] && (points[i]->id & (mux_id_t)mux_object_id_mask) ==
                           (mux_id_t)mux_object_id_sync_point);
    CHECK(points[i] && points[i]->command_buffer == command_buffer);
  }
  run(command_buffer);
  bool ok = true;
  for (size_t i = 0; i < SIZE; i++) {
    uint8_t expected = (i >= 16 && i < 528) ? source[i - 16 + 8] : 0x22;
    if (result[i] != expected) ok = false;
  }
  CHECK(ok);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  free_buffer(src);
  free_buffer(dst);
}

/* Every pattern size from 1 to 128 bytes, each filling a range at an odd
 * offset, in one command buffer of 384 commands. */
static void test_fill_patterns(void) {
  test_buffer b = new_buffer();
  static uint8_t results[128][SIZE];
  mux_command_buffer_t command_buffer = new_command_buffer();
  uint8_t background = 0xee;
  for (uint32_t size = 1; size <= 128; size++) {
    uint8_t pattern[128];
    for (uint32_t i = 0; i < size; i++) pattern[i] = (uint8_t)(size + i * 13);
    uint64_t offset = size % 7;
    uint64_t length = size * (size < 8 ? 37u : 900u / size);
    CHECK_SUCCESS(muxCommandFillBuffer(command_buffer, b.buffer, 0, SIZE,
                                       &background, 1, 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandFillBuffer(command_buffer, b.buffer, offset,
                                       length, pattern, size, 0, NULL, NULL));
    /* The pattern is copied when recorded. */
    memset(pattern, 0, sizeof(pattern));
    CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, b.buffer, 0,
                                       results[size - 1], SIZE, 0, NULL,
                                       NULL));
  }
  run(command_buffer);
  for (uint32_t size = 1; size <= 128; size++) {
    uint64_t offset = size % 7;
    uint64_t length = size * (size < 8 ? 37u : 900u / size);
    bool ok = true;
    for (uint64_t i = 0; i < SIZE; i++) {
      uint8_t expected = background;
      if (i >= offset && i < offset + length) {
        expected = (uint8_t)(size + ((i - offset) % size) * 13);
      }
      if (results[size - 1][i] != expected) ok = false;
    }
    if (!ok) fprintf(stderr, "fill with a %u-byte pattern is wrong\n", size);
    CHECK(ok);
  }
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  free_buffer(b);
}

/* Byte offset of (x, y, z) in a pitched layout. */
static size_t at(mux_extent_3d_t origin, mux_extent_2d_t desc, size_t x,
                 size_t y, size_t z) {
  return (origin.z + z) * desc.y + (origin.y + y) * desc.x + origin.x + x;
}

/* Checks `dst` against copying `regions` from `src` onto `before`. */
static bool regions_match(const uint8_t *src, const uint8_t *before,
                          const uint8_t *dst, size_t dst_size,
                          const mux_buffer_region_info_t *regions,
                          size_t count) {
  static uint8_t expected[SIZE * 2];
  memcpy(expected, before, dst_size);
  for (size_t r = 0; r < count; r++) {
    const mux_buffer_region_info_t *g = &regions[r];
    for (size_t z = 0; z < g->region.z; z++) {
      for (size_t y = 0; y < g->region.y; y++) {
        for (size_t x = 0; x < g->region.x; x++) {
          expected[at(g->dst_origin, g->dst_desc, x, y, z)] =
              src[at(g->src_origin, g->src_desc, x, y, z)];
        }
      }
    }
  }
  return memcmp(expected, dst, dst_size) == 0;
}

static void test_regions(void) {
  /* Two 3D regions between differently pitched layouts: the buffer side has
   * rows of 16 bytes and slices of 8 rows, the host side rows of 24 bytes
   * and slices of 10 rows. Their byte spans do not overlap on either side. */
  mux_buffer_region_info_t to_host[2] = {
      {.region = {5, 3, 2}, .src_origin = {2, 1, 1}, .dst_origin = {3, 2, 0},
       .src_desc = {16, 128}, .dst_desc = {24, 240}},
      {.region = {7, 2, 3}, .src_origin = {8, 5, 4}, .dst_origin = {10, 6, 1},
       .src_desc = {16, 128}, .dst_desc = {24, 240}},
  };
  mux_buffer_region_info_t to_buffer[2];
  for (int i = 0; i < 2; i++) {
    to_buffer[i] = to_host[i];
    to_buffer[i].src_origin = to_host[i].dst_origin;
    to_buffer[i].dst_origin = to_host[i].src_origin;
    to_buffer[i].src_desc = to_host[i].dst_desc;
    to_buffer[i].dst_desc = to_host[i].src_desc;
  }
  /* Buffer to buffer: rows of 32 bytes, slices of 4 rows on both sides. */
  mux_buffer_region_info_t between[1] = {
      {.region = {9, 3, 4}, .src_origin = {1, 0, 2}, .dst_origin = {20, 1, 0},
       .src_desc = {32, 128}, .dst_desc = {32, 128}}};

  test_buffer a = new_buffer(), c = new_buffer();
  static uint8_t pattern[SIZE], host[SIZE], host_before[SIZE], result[SIZE];
  static uint8_t zeros[SIZE], a_content[SIZE];
  for (size_t i = 0; i < SIZE; i++) pattern[i] = byte_at(i);
  for (size_t i = 0; i < SIZE; i++) host_before[i] = (uint8_t)(0x80 | i);

  /* Read regions: buffer (pattern) -> host. */
  mux_command_buffer_t command_buffer = new_command_buffer();
  memcpy(host, host_before, SIZE);
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, a.buffer, 0, pattern,
                                      SIZE, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandReadBufferRegions(command_buffer, a.buffer, host,
                                            to_host, 2, 0, NULL, NULL));
  /* The region list is copied when recorded. */
  mux_buffer_region_info_t saved[2];
  memcpy(saved, to_host, sizeof(saved));
  memset(to_host, 0, sizeof(to_host));
  run(command_buffer);
  memcpy(to_host, saved, sizeof(saved));
  CHECK(regions_match(pattern, host_before, host, SIZE, to_host, 2));
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);

  /* Write regions: host (pattern) -> zeroed buffer. */
  clear(a, 0);
  command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandWriteBufferRegions(command_buffer, a.buffer, pattern,
                                             to_buffer, 2, 0, NULL, NULL));
  run(command_buffer);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  read_all(a, a_content);
  CHECK(regions_match(pattern, zeros, a_content, SIZE, to_buffer, 2));

  /* Copy regions: buffer a (pattern) -> buffer c (0x5a). */
  clear(c, 0x5a);
  command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, a.buffer, 0, pattern,
                                      SIZE, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyBufferRegions(command_buffer, a.buffer, c.buffer,
                                            between, 1, 0, NULL, NULL));
  run(command_buffer);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  read_all(c, result);
  static uint8_t fives[SIZE];
  memset(fives, 0x5a, SIZE);
  CHECK(regions_match(pattern, fives, result, SIZE, between, 1));

  free_buffer(a);
  free_buffer(c);
}

static void test_finalize_reset(void) {
  test_buffer b = new_buffer();
  clear(b, 0);
  uint8_t ones[64], twos[64], result[SIZE];
  memset(ones, 1, sizeof(ones));
  memset(twos, 2, sizeof(twos));

  mux_command_buffer_t command_buffer = new_command_buffer();
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, b.buffer, 0, ones, 64, 0,
                                      NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  /* Nothing more goes into a finalized command buffer. */
  mux_sync_point_t point = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandWriteBuffer(command_buffer, b.buffer, 128, twos, 64,
                                     0, NULL, &point));
  uint8_t pattern = 9;
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(command_buffer, b.buffer, 0, 8, &pattern,
                                    1, 0, NULL, NULL));

  /* Reset drops the commands; the buffer records afresh. */
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, b.buffer, 128, twos, 64,
                                      0, NULL, &point));
  CHECK(point != NULL);
  run(command_buffer);
  read_all(b, result);
  bool ok = true;
  for (size_t i = 0; i < SIZE; i++) {
    if (result[i] != ((i >= 128 && i < 192) ? 2 : 0)) ok = false;
  }
  CHECK(ok); /* the first recording's write did not run */

  /* A finalized, dispatched buffer can be reset and recorded again. */
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, b.buffer, 0, ones, 64, 0,
                                      NULL, NULL));
  run(command_buffer);
  read_all(b, result);
  CHECK(result[0] == 1 && result[63] == 1 && result[64] == 0 &&
        result[128] == 2);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  free_buffer(b);
}

static void test_clone(void) {
  test_buffer src = new_buffer(), dst = new_buffer();
  static uint8_t source[SIZE], first[SIZE], second[SIZE];
  for (size_t i = 0; i < SIZE; i++) source[i] = byte_at(i);
  mux_buffer_region_info_t region = {
      .region = {10, 4, 1}, .src_origin = {3, 2, 0}, .dst_origin = {0, 0, 0},
      .src_desc = {32, 1024}, .dst_desc = {10, 40}};

  mux_command_buffer_t original = new_command_buffer();
  uint8_t pattern[3] = {7, 8, 9};
  CHECK_SUCCESS(muxCommandFillBuffer(original, dst.buffer, 0, 999, pattern, 3,
                                     0, NULL, NULL));
  CHECK_SUCCESS(muxCommandWriteBuffer(original, src.buffer, 0, source, SIZE, 0,
                                      NULL, NULL));
  CHECK_SUCCESS(muxCommandCopyBufferRegions(original, src.buffer, dst.buffer,
                                            &region, 1, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandReadBuffer(original, dst.buffer, 0, first, SIZE, 0,
                                     NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(original));

  mux_command_buffer_t clone = NULL;
  mux_result_t cloned =
      muxCloneCommandBuffer(device, mux_test_allocator, original, &clone);
  CHECK_SUCCESS(cloned);
  if (cloned != mux_success) {
    muxDestroyCommandBuffer(device, original, mux_test_allocator);
    free_buffer(src);
    free_buffer(dst);
    return;
  }
  CHECK(clone != original);

  clear(dst, 0);
  run(original);
  /* The clone is finalized already. */
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandFillBuffer(clone, dst.buffer, 0, 8, pattern, 1, 0,
                                    NULL, NULL));

  /* Change and then destroy the original: the clone keeps its own copy. */
  CHECK_SUCCESS(muxResetCommandBuffer(original));
  CHECK_SUCCESS(muxCommandFillBuffer(original, dst.buffer, 0, SIZE, pattern, 1,
                                     0, NULL, NULL));
  muxDestroyCommandBuffer(device, original, mux_test_allocator);

  memcpy(second, first, SIZE);
  memset(first, 0, SIZE);
  clear(dst, 0);
  CHECK_SUCCESS(muxDispatch(queue, clone, NULL, NULL, 0, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxWaitAll(queue));
  CHECK(memcmp(first, second, SIZE) == 0);
  bool ok = true;
  for (size_t i = 0; i < SIZE; i++) {
    uint8_t expected = i < 999 ? pattern[i % 3] : 0;
    if (i < 40) expected = source[(2 + i / 10) * 32 + 3 + i % 10];
    if (first[i] != expected) ok = false;
  }
  CHECK(ok);
  muxDestroyCommandBuffer(device, clone, mux_test_allocator);
  free_buffer(src);
  free_buffer(dst);
}

static void count_call(mux_queue_t q, mux_command_buffer_t cb,
                       void *const data) {
  (void)q;
  (void)cb;
  (*(int *)data)++;
}

/* Many sync points (more than one allocation block), each command waiting
 * on the previous one's; after a reset the buffer hands out points again. */
static void test_sync_points(void) {
  enum { FIRST = 100, SECOND = 70 };
  static mux_sync_point_t points[FIRST];
  int calls = 0;
  mux_command_buffer_t command_buffer = new_command_buffer();
  for (int round = 0; round < 2; round++) {
    int count = round ? SECOND : FIRST;
    for (int i = 0; i < count; i++) {
      points[i] = NULL;
      CHECK_SUCCESS(muxCommandUserCallback(command_buffer, count_call, &calls,
                                           i ? 1 : 0, i ? &points[i - 1] : NULL,
                                           &points[i]));
    }
    bool distinct = true;
    for (int i = 0; i < count; i++) {
      if (!points[i] || points[i]->command_buffer != command_buffer) {
        distinct = false;
      }
      for (int j = 0; j < i && distinct; j++) {
        if (points[i] == points[j]) distinct = false;
      }
    }
    CHECK(distinct);
    calls = 0;
    run(command_buffer);
    CHECK(calls == count);
    CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  }
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
}

/* NDRange through a clone and muxUpdateDescriptors: the built-in kernel
 * fill_buffer(global uint* dst, uint value) fills 64 uints. The clone gets
 * its own descriptors, so updating it leaves the original alone. */
static void test_clone_ndrange_update(void) {
  mux_kernel_t kernel = NULL;
  mux_result_t created = muxCreateBuiltInKernel(
      device, "fill_buffer", strlen("fill_buffer"), mux_test_allocator, &kernel);
  CHECK_SUCCESS(created);
  if (created != mux_success) return;
  test_buffer a = new_buffer(), b = new_buffer();
  clear(a, 0);
  clear(b, 0);

  uint32_t value = 5;
  mux_descriptor_info_t descriptors[2];
  descriptors[0].type = mux_descriptor_info_type_buffer;
  descriptors[0].buffer_descriptor.buffer = a.buffer;
  descriptors[0].buffer_descriptor.offset = 0;
  descriptors[1].type = mux_descriptor_info_type_plain_old_data;
  descriptors[1].plain_old_data_descriptor.data = &value;
  descriptors[1].plain_old_data_descriptor.length = sizeof(value);
  size_t global_size = 64, global_offset = 0;
  mux_ndrange_options_t options = {
      .descriptors = descriptors, .descriptors_length = 2,
      .local_size = {16, 1, 1}, .global_offset = &global_offset,
      .global_size = &global_size, .length = 1};

  mux_command_buffer_t original = new_command_buffer();
  int calls = 0;
  CHECK_SUCCESS(muxCommandUserCallback(original, count_call, &calls, 0, NULL,
                                       NULL)); /* command 0 */
  CHECK_SUCCESS(
      muxCommandNDRange(original, kernel, options, 0, NULL, NULL)); /* 1 */
  value = 6; /* the argument was copied when recorded */
  CHECK_SUCCESS(muxFinalizeCommandBuffer(original));

  mux_command_buffer_t clone = NULL;
  CHECK_SUCCESS(
      muxCloneCommandBuffer(device, mux_test_allocator, original, &clone));
  REQUIRE(clone != NULL);

  /* The clone fills buffer b with 9; only NDRange commands update. */
  uint32_t new_value = 9;
  mux_descriptor_info_t updates[2] = {descriptors[0], descriptors[1]};
  updates[0].buffer_descriptor.buffer = b.buffer;
  updates[1].plain_old_data_descriptor.data = &new_value;
  uint64_t indices[2] = {0, 1};
  CHECK_SUCCESS(muxUpdateDescriptors(clone, 1, 2, indices, updates));
  CHECK_RESULT(mux_error_invalid_value,
               muxUpdateDescriptors(clone, 0, 2, indices, updates));
  CHECK_RESULT(mux_error_invalid_value,
               muxUpdateDescriptors(clone, 2, 2, indices, updates));

  run(original);
  run(clone);
  uint8_t in_a[SIZE], in_b[SIZE];
  read_all(a, in_a);
  read_all(b, in_b);
  bool ok = true;
  for (size_t i = 0; i < 64; i++) {
    uint32_t got_a, got_b;
    memcpy(&got_a, in_a + 4 * i, 4);
    memcpy(&got_b, in_b + 4 * i, 4);
    if (got_a != 5 || got_b != 9) ok = false;
  }
  CHECK(ok);
  CHECK(in_a[256] == 0 && in_b[256] == 0);
  CHECK(calls == 2);

  muxDestroyCommandBuffer(device, original, mux_test_allocator);
  muxDestroyCommandBuffer(device, clone, mux_test_allocator);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  free_buffer(a);
  free_buffer(b);
}

/* An empty command buffer runs and completes. */
/* muxCpuCommandReplay appends copies of a finalized buffer's commands after
 * the target's own, as often as asked; the source stays usable. */
static void test_replay(void) {
  test_buffer b = new_buffer();
  static uint8_t result[SIZE], seen[SIZE];
  mux_command_buffer_t recorded = new_command_buffer();
  uint8_t five = 5, nine = 9;
  CHECK_SUCCESS(muxCommandFillBuffer(recorded, b.buffer, 64, 64, &five, 1, 0,
                                     NULL, NULL));
  CHECK_SUCCESS(
      muxCommandReadBuffer(recorded, b.buffer, 0, seen, SIZE, 0, NULL, NULL));
  mux_command_buffer_t target = new_command_buffer();
  /* Not finalized yet: nothing to replay. */
  CHECK_RESULT(mux_error_invalid_value, muxCpuCommandReplay(target, recorded));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(recorded));

  CHECK_SUCCESS(
      muxCommandFillBuffer(target, b.buffer, 0, SIZE, &nine, 1, 0, NULL, NULL));
  CHECK_SUCCESS(muxCpuCommandReplay(target, recorded));
  CHECK_SUCCESS(
      muxCommandFillBuffer(target, b.buffer, 0, 8, &five, 1, 0, NULL, NULL));
  CHECK_SUCCESS(muxCpuCommandReplay(target, recorded));
  clear(b, 0);
  run(target);
  read_all(b, result);
  bool ok = true;
  for (size_t i = 0; i < SIZE; i++) {
    uint8_t expected = i < 8 || (i >= 64 && i < 128) ? 5 : 9;
    ok &= result[i] == expected && seen[i] == expected;
  }
  CHECK(ok); /* the second read saw the fill recorded between replays */
  /* Finalized by run(): it takes no more commands. */
  CHECK_RESULT(mux_error_invalid_value, muxCpuCommandReplay(target, recorded));
  muxDestroyCommandBuffer(device, target, mux_test_allocator);
  muxDestroyCommandBuffer(device, recorded, mux_test_allocator);
  free_buffer(b);
}

static void test_empty(void) {
  mux_command_buffer_t command_buffer = new_command_buffer();
  run(command_buffer);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_empty();
  test_sync_points();
  test_write_read();
  test_in_order();
  test_fill_patterns();
  test_regions();
  test_finalize_reset();
  test_clone();
  test_clone_ndrange_update();
  test_replay();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

/* NDRange execution, checked with the record_ids built-in kernel: every
 * work-item of 1-, 2- and 3-dimensional ranges, with and without global
 * offsets, runs exactly once and sees the right global, local and group
 * ids; descriptors update in place; a cloned command buffer runs alone. */
#include <mux/mux_cpu.h>
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

/* record_ids writes: global id x y z, local id x y z, group id x y z,
 * work_dim, per work-item at its linear global id. */
#define FIELDS 10u

static mux_device_t device;
static mux_queue_t queue;
static mux_kernel_t record_ids;

/* Dispatches a finalized command buffer and waits for it. */
static mux_result_t dispatch_and_wait(mux_command_buffer_t command_buffer) {
  return mux_test_dispatch_and_wait(device, queue, command_buffer);
}

typedef struct range {
  size_t dims;
  size_t global[3];
  size_t offset[3];
  size_t local[3];
} range;

static mux_ndrange_options_t range_options(const range *r,
                                           mux_descriptor_info_t *descriptors,
                                           uint64_t count) {
  mux_ndrange_options_t options;
  memset(&options, 0, sizeof options);
  options.descriptors = descriptors;
  options.descriptors_length = count;
  memcpy(options.local_size, r->local, sizeof options.local_size);
  options.global_size = r->global;
  options.global_offset = r->offset;
  options.length = r->dims;
  return options;
}

static size_t range_items(const range *r) {
  size_t items = 1;
  for (size_t d = 0; d < r->dims; d++) items *= r->global[d];
  return items;
}

typedef struct target {
  mux_buffer_t ids, counts;
  mux_memory_t ids_memory, counts_memory;
  size_t items;
} target;

static void target_create(target *t, size_t items) {
  t->items = items;
  t->ids = mux_test_buffer(device, items * FIELDS * 4, &t->ids_memory);
  t->counts = mux_test_buffer(device, items * 4, &t->counts_memory);
}

static void target_destroy(target *t) {
  muxDestroyBuffer(device, t->ids, mux_test_allocator);
  muxDestroyBuffer(device, t->counts, mux_test_allocator);
  muxFreeMemory(device, t->ids_memory, mux_test_allocator);
  muxFreeMemory(device, t->counts_memory, mux_test_allocator);
}

static void *map(mux_memory_t memory, size_t size) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, memory, 0, size, &mapped) == mux_success);
  return mapped;
}

static void target_clear(const target *t) {
  memset(map(t->ids_memory, t->items * FIELDS * 4), 0xff,
         t->items * FIELDS * 4);
  REQUIRE(muxUnmapMemory(device, t->ids_memory) == mux_success);
  memset(map(t->counts_memory, t->items * 4), 0, t->items * 4);
  REQUIRE(muxUnmapMemory(device, t->counts_memory) == mux_success);
}

static void target_descriptors(const target *t,
                               mux_descriptor_info_t descriptors[2]) {
  memset(descriptors, 0, 2 * sizeof *descriptors);
  descriptors[0].type = mux_descriptor_info_type_buffer;
  descriptors[0].buffer_descriptor.buffer = t->ids;
  descriptors[1].type = mux_descriptor_info_type_buffer;
  descriptors[1].buffer_descriptor.buffer = t->counts;
}

/* True if every work-item of `r` ran once and recorded the right ids. */
static bool target_verify(const target *t, const range *r) {
  const uint32_t *ids = map(t->ids_memory, t->items * FIELDS * 4);
  const uint32_t *counts = map(t->counts_memory, t->items * 4);
  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {1, 1, 1};
  for (size_t d = 0; d < r->dims; d++) {
    global[d] = r->global[d];
    offset[d] = r->offset[d];
    local[d] = r->local[d];
  }
  bool good = true;
  size_t reported = 0;
  for (size_t linear = 0; linear < t->items && good; linear++) {
    size_t position[3] = {linear % global[0], linear / global[0] % global[1],
                          linear / (global[0] * global[1])};
    const uint32_t *record = ids + linear * FIELDS;
    good &= counts[linear] == 1;
    for (size_t d = 0; d < 3; d++) {
      good &= record[d] == offset[d] + position[d];
      good &= record[3 + d] == position[d] % local[d];
      good &= record[6 + d] == position[d] / local[d];
    }
    good &= record[9] == r->dims;
    if (!good && reported++ < 1) {
      fprintf(stderr,
              "work-item %zu: count %u, ids %u %u %u / %u %u %u / %u %u %u / "
              "%u\n",
              linear, counts[linear], record[0], record[1], record[2],
              record[3], record[4], record[5], record[6], record[7], record[8],
              record[9]);
    }
  }
  REQUIRE(muxUnmapMemory(device, t->ids_memory) == mux_success);
  REQUIRE(muxUnmapMemory(device, t->counts_memory) == mux_success);
  return good;
}

/* Records `r` into a fresh command buffer, runs it, checks the ids. */
static void check_range(const range *r) {
  target t;
  target_create(&t, range_items(r));
  target_clear(&t);
  mux_descriptor_info_t descriptors[2];
  target_descriptors(&t, descriptors);
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  CHECK_SUCCESS(muxCommandNDRange(command_buffer, record_ids,
                                  range_options(r, descriptors, 2), 0, NULL,
                                  NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  bool good = target_verify(&t, r);
  if (!good) {
    fprintf(stderr, "range %zuD global %zu %zu %zu local %zu %zu %zu\n",
            r->dims, r->global[0], r->global[1], r->global[2], r->local[0],
            r->local[1], r->local[2]);
  }
  CHECK(good);
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  target_destroy(&t);
}

static void test_ranges(void) {
  const range ranges[] = {
      {1, {1000, 1, 1}, {0, 0, 0}, {8, 1, 1}},
      {1, {64, 1, 1}, {5, 0, 0}, {16, 1, 1}},
      {1, {333, 1, 1}, {0, 0, 0}, {1, 1, 1}},
      {2, {12, 10, 1}, {3, 7, 0}, {4, 5, 1}},
      {2, {1, 256, 1}, {0, 0, 0}, {1, 64, 1}},
      {3, {7, 13, 3}, {0, 0, 0}, {7, 1, 3}},
      {3, {7, 13, 3}, {1, 2, 3}, {7, 1, 3}},
      {3, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}},
      {3, {4, 6, 8}, {100, 200, 300}, {2, 3, 4}},
      {3, {2, 2, 64}, {0, 0, 0}, {1, 1, 64}},
      {1, {1u << 20, 1, 1}, {0, 0, 0}, {256, 1, 1}},
      {1, {1u << 16, 1, 1}, {7, 0, 0}, {1, 1, 1}},
      /* Non-uniform: a built-in kernel runs any local size, so the last
       * group in a dimension may be smaller. */
      {1, {63, 1, 1}, {0, 0, 0}, {2, 1, 1}},
      {2, {8, 9, 1}, {0, 0, 0}, {4, 2, 1}},
      {3, {10, 7, 5}, {1, 2, 3}, {4, 3, 2}},
      {1, {5, 1, 1}, {0, 0, 0}, {8, 1, 1}},
  };
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    check_range(&ranges[i]);
  }
}

static void test_invalid_ranges(void) {
  target t;
  target_create(&t, 64);
  mux_descriptor_info_t descriptors[2];
  target_descriptors(&t, descriptors);
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  /* Edge code is for code made for one local size; built-in kernels run
   * any. */
  CHECK_RESULT(mux_error_invalid_value,
               muxCpuKernelSetEdges(record_ids, record_ids));
  size_t max_x = device->info->max_work_group_size_x;
  const range invalid[] = {
      {1,
       {2 * max_x + 2, 1, 1},
       {0, 0, 0},
       {max_x + 1, 1, 1}}, /* above the maximum */
      /* more work-items than a work-group may have */
      {2, {max_x, 4, 1}, {0, 0, 0}, {max_x, 4, 1}},
  };
  REQUIRE((uint64_t)max_x * 4 > device->info->max_concurrent_work_items);
  for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxCommandNDRange(command_buffer, record_ids,
                                   range_options(&invalid[i], descriptors, 2),
                                   0, NULL, NULL));
  }
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  target_destroy(&t);
}

/* Update the buffers of a recorded NDRange, run again: the new buffers are
 * written, the old ones are not. Then clone it and run the clone alone. */
static void test_update_and_clone(void) {
  const range r = {2, {16, 8, 1}, {2, 1, 0}, {4, 4, 1}};
  size_t items = range_items(&r);
  target first, second;
  target_create(&first, items);
  target_create(&second, items);
  target_clear(&first);
  target_clear(&second);
  mux_descriptor_info_t descriptors[2];
  target_descriptors(&first, descriptors);

  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  CHECK_SUCCESS(muxCommandNDRange(command_buffer, record_ids,
                                  range_options(&r, descriptors, 2), 0, NULL,
                                  NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  CHECK(target_verify(&first, &r));

  /* Bad updates change nothing. */
  uint64_t indices[2] = {0, 1};
  mux_descriptor_info_t updates[2];
  target_descriptors(&second, updates);
  uint64_t out_of_range = 2;
  CHECK_RESULT(
      mux_error_invalid_value,
      muxUpdateDescriptors(command_buffer, 0, 1, &out_of_range, updates));
  mux_descriptor_info_t data;
  memset(&data, 0, sizeof data);
  uint64_t value = 0;
  data.type = mux_descriptor_info_type_plain_old_data;
  data.plain_old_data_descriptor.data = &value;
  data.plain_old_data_descriptor.length = sizeof value;
  mux_descriptor_info_t mixed[2] = {updates[0], data};
  CHECK_RESULT(mux_error_invalid_value,
               muxUpdateDescriptors(command_buffer, 0, 2, indices, mixed));
  target_clear(&first);
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  CHECK(target_verify(&first, &r));

  /* Buffer -> null buffer -> buffer is allowed; the last one wins. */
  mux_descriptor_info_t null_buffer;
  memset(&null_buffer, 0, sizeof null_buffer);
  null_buffer.type = mux_descriptor_info_type_null_buffer;
  CHECK_SUCCESS(
      muxUpdateDescriptors(command_buffer, 0, 1, &indices[0], &null_buffer));
  CHECK_SUCCESS(muxUpdateDescriptors(command_buffer, 0, 2, indices, updates));
  target_clear(&first);
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  CHECK(target_verify(&second, &r));
  bool first_untouched = true;
  const uint32_t *counts = map(first.counts_memory, items * 4);
  for (size_t i = 0; i < items; i++) first_untouched &= counts[i] == 0;
  REQUIRE(muxUnmapMemory(device, first.counts_memory) == mux_success);
  CHECK(first_untouched);

  /* The clone keeps running after the original is gone, and updating it
   * leaves the original alone. */
  mux_command_buffer_t clone = NULL;
  CHECK_SUCCESS(muxCloneCommandBuffer(device, mux_test_allocator,
                                      command_buffer, &clone));
  REQUIRE(clone != NULL);
  mux_descriptor_info_t back[2];
  target_descriptors(&first, back);
  CHECK_SUCCESS(muxUpdateDescriptors(clone, 0, 2, indices, back));
  target_clear(&first);
  target_clear(&second);
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  CHECK(target_verify(&second, &r));
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  CHECK_SUCCESS(dispatch_and_wait(clone));
  CHECK(target_verify(&first, &r));
  target_clear(&first);
  CHECK_SUCCESS(dispatch_and_wait(clone));
  CHECK(target_verify(&first, &r));
  muxDestroyCommandBuffer(device, clone, mux_test_allocator);

  target_destroy(&first);
  target_destroy(&second);
}

/* Two NDRanges in one command buffer, and one with no work at all. */
static void test_two_in_one(void) {
  const range a = {1, {96, 1, 1}, {0, 0, 0}, {32, 1, 1}};
  const range b = {3, {3, 5, 7}, {1, 1, 1}, {3, 5, 1}};
  target ta, tb;
  target_create(&ta, range_items(&a));
  target_create(&tb, range_items(&b));
  target_clear(&ta);
  target_clear(&tb);
  mux_descriptor_info_t da[2], db[2];
  target_descriptors(&ta, da);
  target_descriptors(&tb, db);
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  CHECK_SUCCESS(muxCommandNDRange(command_buffer, record_ids,
                                  range_options(&a, da, 2), 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandNDRange(command_buffer, record_ids,
                                  range_options(&b, db, 2), 0, NULL, NULL));
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(dispatch_and_wait(command_buffer));
  CHECK(target_verify(&ta, &a));
  CHECK(target_verify(&tb, &b));
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  target_destroy(&ta);
  target_destroy(&tb);
}

int main(void) {
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  REQUIRE(muxCreateBuiltInKernel(device, "record_ids", 10, mux_test_allocator,
                                 &record_ids) == mux_success);
  test_ranges();
  test_invalid_ranges();
  test_update_and_clone();
  test_two_in_one();
  muxDestroyKernel(device, record_ids, mux_test_allocator);
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

/* Built-in kernels: the declarations string follows the specification's
 * syntax, every declared kernel can be created, and each one computes the
 * right thing when run through a command buffer on the queue. */
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

/* Generous: a run that takes longer has hung. */

static mux_device_t device;
static mux_queue_t queue;

/* Records one NDRange, runs it and waits; returns the first failure. */
static mux_result_t run_ndrange(mux_kernel_t kernel,
                                mux_descriptor_info_t *descriptors,
                                uint64_t descriptors_length, size_t dims,
                                const size_t *global_size,
                                const size_t *global_offset,
                                const size_t local_size[3]) {
  return mux_test_run_ndrange(device, queue, kernel, descriptors,
                              descriptors_length, dims, global_size,
                              global_offset, local_size);
}

static void memory_write(mux_memory_t memory, const void *data, size_t size) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, memory, 0, size, &mapped) == mux_success);
  memcpy(mapped, data, size);
  REQUIRE(muxUnmapMemory(device, memory) == mux_success);
}

static void memory_read(mux_memory_t memory, void *data, size_t size) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, memory, 0, size, &mapped) == mux_success);
  memcpy(data, mapped, size);
  REQUIRE(muxUnmapMemory(device, memory) == mux_success);
}

static mux_descriptor_info_t buffer_descriptor(mux_buffer_t buffer) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_buffer;
  descriptor.buffer_descriptor.buffer = buffer;
  descriptor.buffer_descriptor.offset = 0;
  return descriptor;
}

static mux_kernel_t create_kernel(const char *name) {
  mux_kernel_t kernel = NULL;
  REQUIRE(muxCreateBuiltInKernel(device, name, strlen(name), mux_test_allocator,
                                 &kernel) == mux_success);
  return kernel;
}

/* A small deterministic generator, so failures reproduce. */
static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* ---- The declarations string ---------------------------------------------*/

static bool is_identifier(const char *begin, size_t length) {
  if (length == 0) return false;
  for (size_t i = 0; i < length; i++) {
    char c = begin[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

/* Checks one "name(params)" declaration; copies the name out. */
static bool declaration_valid(const char *begin, size_t length, char *name,
                              size_t name_capacity) {
  const char *open = memchr(begin, '(', length);
  if (!open || begin[length - 1] != ')') return false;
  size_t name_length = (size_t)(open - begin);
  /* The name with its NUL fits CL_NAME_VERSION_KHR (64). */
  if (!is_identifier(begin, name_length) || name_length + 1 > 64 ||
      name_length + 1 > name_capacity) {
    return false;
  }
  memcpy(name, begin, name_length);
  name[name_length] = '\0';
  if (!strcmp(name, "void") || !strcmp(name, "kernel") ||
      !strcmp(name, "__kernel")) {
    return false;
  }
  for (size_t i = 0; i < length; i++) {
    char c = begin[i];
    if (c == '[' || c == ']' || c == '\t' || c == '\n' || c == '\r' ||
        c == '\v' || c == '\f') {
      return false;
    }
    if (c == ' ' && (i + 1 == length || begin[i + 1] == ' ')) return false;
  }
  if (memmem(begin, length, "__attribute__", 13) ||
      memmem(begin, length, "struct", 6)) {
    return false;
  }
  /* Parameters: non-empty, separated by ", ", none starting with a space. */
  const char *params = open + 1;
  const char *end = begin + length - 1;
  if (params == end) return true;
  const char *param = params;
  while (param < end) {
    const char *comma = memchr(param, ',', (size_t)(end - param));
    const char *param_end = comma ? comma : end;
    if (param_end == param || *param == ' ' || param_end[-1] == ' ') {
      return false;
    }
    if (comma && (comma + 1 >= end || comma[1] != ' ')) return false;
    param = comma ? comma + 2 : end;
  }
  return true;
}

static void test_declarations(void) {
  const char *declarations = device->info->builtin_kernel_declarations;
  REQUIRE(declarations != NULL);
  CHECK(strlen(declarations) > 0);
  CHECK(device->info->supports_builtin_kernels);

  const char *expected[] = {"copy_buffer", "fill_buffer", "vector_add",
                            "record_ids", "local_reduce"};
  bool found[5] = {false};
  unsigned declared = 0;
  const char *cursor = declarations;
  while (*cursor) {
    const char *semicolon = strchr(cursor, ';');
    size_t length = semicolon ? (size_t)(semicolon - cursor) : strlen(cursor);
    char name[128];
    bool valid =
        length > 0 && declaration_valid(cursor, length, name, sizeof name);
    CHECK(valid);
    if (valid) {
      declared++;
      mux_kernel_t kernel = NULL;
      CHECK_SUCCESS(muxCreateBuiltInKernel(device, name, strlen(name),
                                           mux_test_allocator, &kernel));
      if (kernel) {
        CHECK(kernel->preferred_local_size_x >= 1 &&
              kernel->preferred_local_size_x <=
                  device->info->max_work_group_size_x);
        CHECK(kernel->preferred_local_size_y >= 1 &&
              kernel->preferred_local_size_y <=
                  device->info->max_work_group_size_y);
        CHECK(kernel->preferred_local_size_z >= 1 &&
              kernel->preferred_local_size_z <=
                  device->info->max_work_group_size_z);
        CHECK(kernel->local_memory_size == 0);
        CHECK(kernel->device == device);
        muxDestroyKernel(device, kernel, mux_test_allocator);
      }
      for (unsigned i = 0; i < 5; i++) {
        if (!strcmp(name, expected[i])) found[i] = true;
      }
    }
    if (!semicolon) break;
    cursor = semicolon + 1;
    CHECK(*cursor != '\0'); /* no empty declaration after a ';' */
  }
  CHECK(declared >= 5);
  for (unsigned i = 0; i < 5; i++) CHECK(found[i]);
}

static void test_missing_and_queries(void) {
  mux_kernel_t kernel = NULL;
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateBuiltInKernel(device, "no_such_kernel", 14,
                                      mux_test_allocator, &kernel));
  /* A prefix or an extension of a real name is not that name. */
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateBuiltInKernel(device, "copy_buffer", 8,
                                      mux_test_allocator, &kernel));
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateBuiltInKernel(device, "copy_bufferx", 12,
                                      mux_test_allocator, &kernel));

  /* The length, not a NUL, ends the name. */
  CHECK_SUCCESS(muxCreateBuiltInKernel(device, "vector_add_and_more", 10,
                                       mux_test_allocator, &kernel));
  if (kernel) {
    size_t size = 0;
    /* Built-in kernels run one work-item at a time: sub-groups of one. */
    CHECK_SUCCESS(muxQuerySubGroupSizeForLocalSize(kernel, 8, 1, 1, &size));
    CHECK_INT(1, size);
    size_t x = 0, y = 0, z = 0;
    CHECK_SUCCESS(muxQueryLocalSizeForSubGroupCount(kernel, 3, &x, &y, &z));
    CHECK(x == 3 && y == 1 && z == 1);
    mux_wfv_status_e status = mux_wfv_status_none;
    CHECK_RESULT(
        mux_error_feature_unsupported,
        muxQueryWFVInfoForLocalSize(kernel, 8, 1, 1, &status, &x, &y, &z));
    CHECK(kernel->max_sub_group_count ==
          device->info->max_concurrent_work_items);
    muxDestroyKernel(device, kernel, mux_test_allocator);
  }
}

/* ---- Running them
 * ----------------------------------------------------------*/

static void test_copy_buffer(void) {
  enum { size = 64 * 67 };
  mux_memory_t src_memory, dst_memory;
  mux_buffer_t src = mux_test_buffer(device, size, &src_memory);
  mux_buffer_t dst = mux_test_buffer(device, size, &dst_memory);
  static uint8_t input[size], output[size];
  uint32_t state = 1;
  for (size_t i = 0; i < size; i++) input[i] = (uint8_t)next_random(&state);
  memset(output, 0, size);
  memory_write(src_memory, input, size);
  memory_write(dst_memory, output, size);

  mux_kernel_t kernel = create_kernel("copy_buffer");
  mux_descriptor_info_t descriptors[2] = {buffer_descriptor(src),
                                          buffer_descriptor(dst)};
  /* Skip the first 64 bytes through the global offset. */
  size_t global = size - 64, offset = 64, local[3] = {64, 1, 1};
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 2, 1, &global, &offset, local));
  memory_read(dst_memory, output, size);
  bool head_untouched = true, body_copied = true;
  for (size_t i = 0; i < 64; i++) head_untouched &= output[i] == 0;
  for (size_t i = 64; i < size; i++) body_copied &= output[i] == input[i];
  CHECK(head_untouched);
  CHECK(body_copied);

  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyBuffer(device, src, mux_test_allocator);
  muxDestroyBuffer(device, dst, mux_test_allocator);
  muxFreeMemory(device, src_memory, mux_test_allocator);
  muxFreeMemory(device, dst_memory, mux_test_allocator);
}

static void test_fill_buffer(void) {
  enum { count = 32 * 129 };
  mux_memory_t memory;
  mux_buffer_t buffer = mux_test_buffer(device, count * 4, &memory);
  static uint32_t values[count];
  memset(values, 0, sizeof values);
  memory_write(memory, values, sizeof values);

  mux_kernel_t kernel = create_kernel("fill_buffer");
  uint32_t value = 0xdeadbeefu;
  mux_descriptor_info_t descriptors[2] = {buffer_descriptor(buffer)};
  descriptors[1].type = mux_descriptor_info_type_plain_old_data;
  descriptors[1].plain_old_data_descriptor.data = &value;
  descriptors[1].plain_old_data_descriptor.length = sizeof value;
  size_t global = count, offset = 0, local[3] = {32, 1, 1};
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 2, 1, &global, &offset, local));
  memory_read(memory, values, sizeof values);
  bool filled = true;
  for (size_t i = 0; i < count; i++) filled &= values[i] == 0xdeadbeefu;
  CHECK(filled);

  /* The same value, embedded in the descriptor. */
  memset(&descriptors[1], 0, sizeof descriptors[1]);
  descriptors[1].type = mux_descriptor_info_type_plain_old_embedded_data;
  descriptors[1].plain_old_embedded_data_descriptor.length = 4;
  uint32_t embedded = 0x01234567u;
  memcpy(descriptors[1].plain_old_embedded_data_descriptor.data, &embedded, 4);
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 2, 1, &global, &offset, local));
  memory_read(memory, values, sizeof values);
  filled = true;
  for (size_t i = 0; i < count; i++) filled &= values[i] == 0x01234567u;
  CHECK(filled);

  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);
}

static void test_vector_add(void) {
  enum { count = 1 << 16 };
  size_t bytes = count * sizeof(float);
  mux_memory_t memories[3];
  mux_buffer_t buffers[3];
  for (int i = 0; i < 3; i++) {
    buffers[i] = mux_test_buffer(device, bytes, &memories[i]);
  }
  static float a[count], b[count], c[count];
  for (size_t i = 0; i < count; i++) {
    a[i] = (float)i * 0.5f;
    b[i] = 1000.0f - (float)i;
    c[i] = -1.0f;
  }
  memory_write(memories[0], a, bytes);
  memory_write(memories[1], b, bytes);
  memory_write(memories[2], c, bytes);

  mux_kernel_t kernel = create_kernel("vector_add");
  mux_descriptor_info_t descriptors[3];
  for (int i = 0; i < 3; i++) descriptors[i] = buffer_descriptor(buffers[i]);
  size_t global = count, offset = 0, local[3] = {256, 1, 1};
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 3, 1, &global, &offset, local));
  memory_read(memories[2], c, bytes);
  bool added = true;
  for (size_t i = 0; i < count; i++) added &= c[i] == a[i] + b[i];
  CHECK(added);

  /* Non-uniform: the last group has 255 work-items, and the last element
   * is left alone. */
  for (size_t i = 0; i < count; i++) c[i] = -1.0f;
  memory_write(memories[2], c, bytes);
  size_t uneven = count - 1;
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 3, 1, &uneven, &offset, local));
  memory_read(memories[2], c, bytes);
  added = c[count - 1] == -1.0f;
  for (size_t i = 0; i < count - 1; i++) added &= c[i] == a[i] + b[i];
  CHECK(added);

  /* Arguments are checked when recorded. */
  size_t too_big[3] = {device->info->max_work_group_size_x * 2u, 1, 1};
  size_t big_global = too_big[0];
  CHECK_RESULT(
      mux_error_invalid_value,
      run_ndrange(kernel, descriptors, 3, 1, &big_global, &offset, too_big));

  muxDestroyKernel(device, kernel, mux_test_allocator);
  for (int i = 0; i < 3; i++) {
    muxDestroyBuffer(device, buffers[i], mux_test_allocator);
    muxFreeMemory(device, memories[i], mux_test_allocator);
  }
}

/* local_reduce over `dims` dimensions: out[linear group] is the sum of in
 * over the group's work-items. */
static void check_local_reduce(mux_kernel_t kernel, size_t dims,
                               const size_t global[3], const size_t local[3]) {
  size_t items = global[0] * global[1] * global[2];
  size_t groups[3] = {global[0] / local[0], global[1] / local[1],
                      global[2] / local[2]};
  size_t group_count = groups[0] * groups[1] * groups[2];
  size_t group_size = local[0] * local[1] * local[2];
  int32_t *in = malloc(items * sizeof *in);
  int32_t *out = malloc(group_count * sizeof *out);
  int32_t *expected = calloc(group_count, sizeof *expected);
  REQUIRE(in && out && expected);
  uint32_t state = 7;
  for (size_t i = 0; i < items; i++) {
    in[i] = (int32_t)(next_random(&state) % 2001) - 1000;
  }
  for (size_t z = 0; z < global[2]; z++) {
    for (size_t y = 0; y < global[1]; y++) {
      for (size_t x = 0; x < global[0]; x++) {
        size_t group = (z / local[2] * groups[1] + y / local[1]) * groups[0] +
                       x / local[0];
        expected[group] += in[(z * global[1] + y) * global[0] + x];
      }
    }
  }
  mux_memory_t in_memory, out_memory;
  mux_buffer_t in_buffer = mux_test_buffer(device, items * 4, &in_memory);
  mux_buffer_t out_buffer =
      mux_test_buffer(device, group_count * 4, &out_memory);
  memory_write(in_memory, in, items * 4);
  memset(out, 0x55, group_count * 4);
  memory_write(out_memory, out, group_count * 4);

  mux_descriptor_info_t descriptors[3] = {buffer_descriptor(in_buffer),
                                          buffer_descriptor(out_buffer)};
  descriptors[2].type = mux_descriptor_info_type_shared_local_buffer;
  descriptors[2].shared_local_buffer_descriptor.size = group_size * 4;
  size_t offset[3] = {0, 0, 0};
  CHECK_SUCCESS(
      run_ndrange(kernel, descriptors, 3, dims, global, offset, local));
  memory_read(out_memory, out, group_count * 4);
  CHECK(memcmp(out, expected, group_count * 4) == 0);

  muxDestroyBuffer(device, in_buffer, mux_test_allocator);
  muxDestroyBuffer(device, out_buffer, mux_test_allocator);
  muxFreeMemory(device, in_memory, mux_test_allocator);
  muxFreeMemory(device, out_memory, mux_test_allocator);
  free(in);
  free(out);
  free(expected);
}

static void test_local_reduce(void) {
  mux_kernel_t kernel = create_kernel("local_reduce");
  size_t global_1d[3] = {128 * 97, 1, 1}, local_1d[3] = {128, 1, 1};
  check_local_reduce(kernel, 1, global_1d, local_1d);
  size_t global_2d[3] = {16, 12, 1}, local_2d[3] = {4, 3, 1};
  check_local_reduce(kernel, 2, global_2d, local_2d);
  size_t global_3d[3] = {6, 4, 10}, local_3d[3] = {3, 2, 5};
  check_local_reduce(kernel, 3, global_3d, local_3d);

  /* More local memory than a work-group has cannot be recorded. */
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  mux_memory_t memory;
  mux_buffer_t buffer = mux_test_buffer(device, 4096, &memory);
  mux_descriptor_info_t descriptors[3] = {buffer_descriptor(buffer),
                                          buffer_descriptor(buffer)};
  descriptors[2].type = mux_descriptor_info_type_shared_local_buffer;
  descriptors[2].shared_local_buffer_descriptor.size =
      device->info->shared_local_memory_size + 1;
  size_t global = 64, offset = 0;
  mux_ndrange_options_t options;
  memset(&options, 0, sizeof options);
  options.descriptors = descriptors;
  options.descriptors_length = 3;
  options.local_size[0] = 64;
  options.local_size[1] = 1;
  options.local_size[2] = 1;
  options.global_size = &global;
  options.global_offset = &offset;
  options.length = 1;
  CHECK_RESULT(
      mux_error_out_of_memory,
      muxCommandNDRange(command_buffer, kernel, options, 0, NULL, NULL));
  descriptors[2].shared_local_buffer_descriptor.size =
      device->info->shared_local_memory_size;
  CHECK_SUCCESS(
      muxCommandNDRange(command_buffer, kernel, options, 0, NULL, NULL));
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);
  muxDestroyKernel(device, kernel, mux_test_allocator);
}

int main(void) {
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_declarations();
  test_missing_and_queries();
  test_copy_buffer();
  test_fill_buffer();
  test_vector_add();
  test_local_reduce();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

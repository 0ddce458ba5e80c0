/* Memory and buffers through the public Mux API: allocation with alignment,
 * map/flush/unmap, zero-copy memory from host, buffers bound at offsets,
 * refusal of impossible allocations, concurrent use, and no leaks. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

static mux_device_t device;
static mux_queue_t queue;

static const uint32_t host_visible =
    mux_memory_property_host_visible | mux_memory_property_host_coherent;

static uint8_t pattern_byte(uint64_t index, uint32_t seed) {
  return (uint8_t)((index * 2654435761u + seed) >> 7);
}

/* Finalizes and runs a command buffer. */
static mux_result_t run(mux_command_buffer_t command_buffer) {
  mux_result_t result = muxFinalizeCommandBuffer(command_buffer);
  if (result != mux_success) return result;
  return mux_test_dispatch_and_wait(device, queue, command_buffer);
}

static mux_command_buffer_t new_command_buffer(void) {
  mux_command_buffer_t command_buffer = NULL;
  mux_result_t result = muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                               &command_buffer);
  CHECK_SUCCESS(result);
  return result == mux_success ? command_buffer : NULL;
}

/* Every size and alignment: the handle honours the alignment, mapped bytes
 * persist across unmap/map, a map at an offset points there. */
static void test_allocate_and_map(void) {
  const size_t sizes[] = {1, 3, 64, 1000, 4096, 65537, 3u << 20,
                          (9u << 20) + 5};
  const uint32_t alignments[] = {0, 1, 16, 128, 256, 4096, 1u << 16};
  uint32_t seed = 1;
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    for (size_t a = 0; a < sizeof(alignments) / sizeof(alignments[0]); a++) {
      size_t size = sizes[s];
      uint32_t alignment = alignments[a];
      mux_memory_t memory = NULL;
      mux_allocation_type_e type = (a % 2) ? mux_allocation_type_alloc_device
                                           : mux_allocation_type_alloc_host;
      CHECK_SUCCESS(muxAllocateMemory(device, size, 1, host_visible, type,
                                      alignment, mux_test_allocator, &memory));
      if (!memory) continue;
      CHECK((memory->id & (mux_id_t)mux_object_id_mask) ==
            (mux_id_t)mux_object_id_memory);
      CHECK(memory->size == size);
      CHECK(memory->properties == host_visible);

      uint8_t *data = NULL;
      CHECK_SUCCESS(muxMapMemory(device, memory, 0, size, (void **)&data));
      REQUIRE(data != NULL);
      uint64_t want = alignment > device->info->buffer_alignment
                          ? alignment
                          : device->info->buffer_alignment;
      CHECK((uintptr_t)data % want == 0);
      CHECK((uintptr_t)data == memory->handle);
      for (size_t i = 0; i < size; i++) data[i] = pattern_byte(i, seed);
      CHECK_SUCCESS(muxFlushMappedMemoryToDevice(device, memory, 0, size));
      CHECK_SUCCESS(muxUnmapMemory(device, memory));

      uint64_t offset = size / 2;
      uint8_t *tail = NULL;
      CHECK_SUCCESS(muxMapMemory(device, memory, offset, size - offset,
                                 (void **)&tail));
      CHECK_SUCCESS(
          muxFlushMappedMemoryFromDevice(device, memory, 0, size));
      if (tail) {
        CHECK(tail == data + offset);
        int same = 1;
        for (size_t i = offset; i < size; i++) {
          if (tail[i - offset] != pattern_byte(i, seed)) same = 0;
        }
        CHECK(same);
      }
      CHECK_SUCCESS(muxUnmapMemory(device, memory));
      muxFreeMemory(device, memory, mux_test_allocator);
      seed++;
    }
  }

  /* Device-local memory can be allocated even though it is never mapped. */
  mux_memory_t local = NULL;
  CHECK_SUCCESS(muxAllocateMemory(device, 256, 1,
                                  mux_memory_property_device_local,
                                  mux_allocation_type_alloc_device, 0,
                                  mux_test_allocator, &local));
  if (local) {
    CHECK(local->properties == mux_memory_property_device_local);
    CHECK(local->handle != 0);
    muxFreeMemory(device, local, mux_test_allocator);
  }
}

/* More memory than the machine has fails cleanly, never crashes. */
static void test_huge_allocation(void) {
  uint64_t ram = device->info->memory_size;
  const uint64_t huge[] = {ram ? ram * 2 : (uint64_t)1 << 50,
                           (uint64_t)1 << 50, (uint64_t)SIZE_MAX / 2};
  for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
    mux_memory_t memory = NULL;
    CHECK_RESULT(mux_error_out_of_memory,
                 muxAllocateMemory(device, (size_t)huge[i], 1, host_visible,
                                   mux_allocation_type_alloc_host, 0,
                                   mux_test_allocator, &memory));
  }
  /* A buffer is only a description: a huge one costs nothing until bound. */
  mux_buffer_t buffer = NULL;
  CHECK_SUCCESS(muxCreateBuffer(device, (size_t)1 << 50, mux_test_allocator,
                                &buffer));
  if (buffer) {
    CHECK(buffer->memory_requirements.size == (uint64_t)1 << 50);
    muxDestroyBuffer(device, buffer, mux_test_allocator);
  }
}

/* Memory from host is the user's array: mapping returns it, commands on a
 * buffer bound to it write into it, and freeing the memory leaves it be. */
static void test_memory_from_host(void) {
  static uint8_t user[4096];
  for (size_t i = 0; i < sizeof(user); i++) user[i] = pattern_byte(i, 7);

  mux_memory_t memory = NULL;
  CHECK_SUCCESS(muxCreateMemoryFromHost(device, sizeof(user), user,
                                        mux_test_allocator, &memory));
  REQUIRE(memory != NULL);
  CHECK(memory->properties == host_visible);
  CHECK(memory->size == sizeof(user));
  uint8_t *mapped = NULL;
  CHECK_SUCCESS(muxMapMemory(device, memory, 100, 200, (void **)&mapped));
  CHECK(mapped == user + 100);
  if (mapped) mapped[0] = 0xa5;
  CHECK(user[100] == 0xa5);
  CHECK_SUCCESS(muxUnmapMemory(device, memory));

  mux_buffer_t buffer = NULL;
  CHECK_SUCCESS(muxCreateBuffer(device, 1024, mux_test_allocator, &buffer));
  REQUIRE(buffer != NULL);
  CHECK_SUCCESS(muxBindBufferMemory(device, memory, buffer, 512));

  uint8_t source[100], before[sizeof(user)], readback[64];
  for (size_t i = 0; i < sizeof(source); i++) source[i] = (uint8_t)(200 - i);
  user[512 + 300] = 0x3c; /* a host write the device must read */
  memcpy(before, user, sizeof(user));
  mux_command_buffer_t command_buffer = new_command_buffer();
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, buffer, 16, source,
                                        sizeof(source), 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, buffer, 300, readback,
                                       sizeof(readback), 0, NULL, NULL));
    CHECK_SUCCESS(run(command_buffer));
    CHECK(memcmp(user + 512 + 16, source, sizeof(source)) == 0);
    CHECK(memcmp(user, before, 512 + 16) == 0);
    CHECK(memcmp(user + 512 + 16 + sizeof(source),
                 before + 512 + 16 + sizeof(source),
                 sizeof(user) - 512 - 16 - sizeof(source)) == 0);
    CHECK(memcmp(readback, before + 512 + 300, sizeof(readback)) == 0);
    muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  }
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);
  /* Still ours and intact after the memory object is gone. */
  user[0] ^= 0xff;
  CHECK(user[1] == before[1] && user[4095] == before[4095]);
}

/* Buffers at different offsets of one memory land exactly there, and a
 * re-bound buffer moves with its binding. */
static void test_buffer_offsets(void) {
  enum { memory_size = 65536, buffer_size = 1000 };
  const uint64_t offsets[] = {0, 4096, memory_size - buffer_size};
  mux_memory_t memory = NULL;
  CHECK_SUCCESS(muxAllocateMemory(device, memory_size, 1, host_visible,
                                  mux_allocation_type_alloc_host, 0,
                                  mux_test_allocator, &memory));
  REQUIRE(memory != NULL);
  uint8_t *data = NULL;
  CHECK_SUCCESS(muxMapMemory(device, memory, 0, memory_size, (void **)&data));
  REQUIRE(data != NULL);
  memset(data, 0, memory_size);

  mux_buffer_t buffers[3] = {NULL, NULL, NULL};
  static uint8_t sources[3][buffer_size];
  mux_command_buffer_t command_buffer = new_command_buffer();
  for (int b = 0; b < 3; b++) {
    CHECK_SUCCESS(
        muxCreateBuffer(device, buffer_size, mux_test_allocator, &buffers[b]));
    REQUIRE(buffers[b] != NULL);
    CHECK((buffers[b]->id & (mux_id_t)mux_object_id_mask) ==
          (mux_id_t)mux_object_id_buffer);
    CHECK(buffers[b]->memory_requirements.size == buffer_size);
    CHECK(buffers[b]->memory_requirements.alignment ==
          device->info->buffer_alignment);
    CHECK(buffers[b]->memory_requirements.supported_heaps & 1);
    CHECK_SUCCESS(muxBindBufferMemory(device, memory, buffers[b], offsets[b]));
    for (size_t i = 0; i < buffer_size; i++) {
      sources[b][i] = pattern_byte(i, 40 + (uint32_t)b) | 1;
    }
    if (command_buffer) {
      CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, buffers[b], 0,
                                          sources[b], buffer_size, 0, NULL,
                                          NULL));
    }
  }
  if (command_buffer) {
    CHECK_SUCCESS(run(command_buffer));
    size_t written = 0;
    for (int b = 0; b < 3; b++) {
      CHECK(memcmp(data + offsets[b], sources[b], buffer_size) == 0);
      written += buffer_size;
    }
    size_t nonzero = 0;
    for (size_t i = 0; i < memory_size; i++) nonzero += data[i] != 0;
    CHECK(nonzero == written); /* nothing outside the three buffers */
    muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  }

  /* Re-bind the first buffer elsewhere: commands follow the new binding. */
  CHECK_SUCCESS(muxBindBufferMemory(device, memory, buffers[0], 20000));
  command_buffer = new_command_buffer();
  if (command_buffer) {
    uint8_t value = 0x77;
    CHECK_SUCCESS(muxCommandFillBuffer(command_buffer, buffers[0], 0,
                                       buffer_size, &value, 1, 0, NULL, NULL));
    CHECK_SUCCESS(run(command_buffer));
    int filled = 1;
    for (size_t i = 0; i < buffer_size; i++) filled &= data[20000 + i] == 0x77;
    CHECK(filled);
    CHECK(memcmp(data, sources[0], buffer_size) == 0); /* old place kept */
    muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  }
  for (int b = 0; b < 3; b++) {
    muxDestroyBuffer(device, buffers[b], mux_test_allocator);
  }
  CHECK_SUCCESS(muxUnmapMemory(device, memory));
  muxFreeMemory(device, memory, mux_test_allocator);
}

/* Allocation, mapping and freeing are thread-safe. */
enum { thread_count = 4, rounds_per_thread = 150 };
static atomic_int thread_failures;

static void *allocate_in_thread(void *argument) {
  uint32_t seed = (uint32_t)(uintptr_t)argument;
  for (int round = 0; round < rounds_per_thread; round++) {
    size_t size = 1 + (pattern_byte((uint64_t)round, seed) * 97u) % 20000;
    if (round % 50 == 0) size = 3u << 20; /* the mapped-pages path too */
    mux_memory_t memory = NULL;
    if (muxAllocateMemory(device, size, 1, host_visible,
                          mux_allocation_type_alloc_host, 256,
                          mux_test_allocator, &memory) != mux_success) {
      atomic_fetch_add(&thread_failures, 1);
      continue;
    }
    uint8_t *data = NULL;
    if (muxMapMemory(device, memory, 0, size, (void **)&data) != mux_success ||
        (uintptr_t)data % 256 != 0) {
      atomic_fetch_add(&thread_failures, 1);
    } else {
      memset(data, (int)seed, size);
      if (data[0] != (uint8_t)seed || data[size - 1] != (uint8_t)seed) {
        atomic_fetch_add(&thread_failures, 1);
      }
      muxUnmapMemory(device, memory);
    }
    muxFreeMemory(device, memory, mux_test_allocator);
  }
  return NULL;
}

static void test_threads(void) {
  pthread_t threads[thread_count];
  for (uintptr_t t = 0; t < thread_count; t++) {
    REQUIRE(pthread_create(&threads[t], NULL, allocate_in_thread,
                           (void *)(t + 1)) == 0);
  }
  for (int t = 0; t < thread_count; t++) pthread_join(threads[t], NULL);
  CHECK(atomic_load(&thread_failures) == 0);
}

int main(void) {
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_allocate_and_map();
  test_huge_allocation();
  test_memory_from_host();
  test_buffer_offsets();
  test_threads();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

/* clmux compiler tests — code generation: loading Clang's bitcode, building
 * containers with cc_codegen_build and running their kernels through the
 * public Mux API on the CPU device. */
#ifndef CLMUX_TESTS_CODEGEN_TEST_H
#define CLMUX_TESTS_CODEGEN_TEST_H

#include <string.h>

#include "bitcode.h"
#include "build_one.h"
#include "codegen.h"
#include "mux_test.h"

static mux_device_t device;
static mux_queue_t queue;

/* A loaded executable holding the requested kernels, or NULL (reported). */
static inline mux_executable_t build_executable(
    const cc_target *target, LLVMModuleRef source,
    const cc_kernel_request *requests, uint32_t count) {
  uint8_t *binary = NULL;
  size_t size = 0;
  cc_log log = {""};
  cc_status status = cc_codegen_build(target, source, requests, count, &binary,
                                      &size, NULL, &log);
  CHECK_INT(cc_success, status);
  if (status != cc_success) {
    fprintf(stderr, "build: %s\n", log.text);
    return NULL;
  }
  mux_executable_t executable = NULL;
  mux_result_t result = muxCreateExecutable(device, binary, size,
                                            mux_test_allocator, &executable);
  CHECK_SUCCESS(result);
  free(binary);
  return result == mux_success ? executable : NULL;
}

/* build_executable of kernel `name` for a local size of (local_x, 1, 1),
 * or for any local size with 0. */
static inline mux_executable_t build_executable_1d(const cc_target *target,
                                                   LLVMModuleRef module,
                                                   const char *name,
                                                   uint32_t local_x) {
  cc_kernel_request request = {
      name,     {local_x, local_x ? 1 : 0, local_x ? 1 : 0}, false, NULL, false,
      {0, 0, 0}};
  return build_executable(target, module, &request, 1);
}

static inline mux_kernel_t create_kernel(mux_executable_t executable,
                                         const char *name) {
  mux_kernel_t kernel = NULL;
  mux_result_t result = muxCreateKernel(device, executable, name, strlen(name),
                                        mux_test_allocator, &kernel);
  CHECK_SUCCESS(result);
  REQUIRE(result == mux_success);
  return kernel;
}

/* Records one NDRange, runs it and waits; returns the first failure. */
static inline mux_result_t run_ndrange(mux_kernel_t kernel,
                                       mux_descriptor_info_t *descriptors,
                                       uint64_t count, size_t dims,
                                       const size_t *global,
                                       const size_t *offset,
                                       const size_t local[3]) {
  return mux_test_run_ndrange(device, queue, kernel, descriptors, count, dims,
                              global, offset, local);
}

static inline mux_result_t run_1d(mux_kernel_t kernel,
                                  mux_descriptor_info_t *descriptors,
                                  uint64_t count, size_t global, size_t local) {
  size_t offset = 0;
  size_t locals[3] = {local, 1, 1};
  return run_ndrange(kernel, descriptors, count, 1, &global, &offset, locals);
}

typedef struct host_buffer {
  mux_buffer_t buffer;
  mux_memory_t memory;
  size_t size;
} host_buffer;

static inline host_buffer host_buffer_create(const void *data, size_t size) {
  host_buffer b = {NULL, NULL, size};
  b.buffer = mux_test_buffer(device, size, &b.memory);
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, b.memory, 0, size, &mapped) == mux_success);
  if (data) {
    memcpy(mapped, data, size);
  } else {
    memset(mapped, 0, size);
  }
  REQUIRE(muxUnmapMemory(device, b.memory) == mux_success);
  return b;
}

static inline void host_buffer_write(const host_buffer *b, const void *data) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, b->memory, 0, b->size, &mapped) == mux_success);
  memcpy(mapped, data, b->size);
  REQUIRE(muxUnmapMemory(device, b->memory) == mux_success);
}

static inline void host_buffer_read(const host_buffer *b, void *data) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, b->memory, 0, b->size, &mapped) == mux_success);
  memcpy(data, mapped, b->size);
  REQUIRE(muxUnmapMemory(device, b->memory) == mux_success);
}

static inline void host_buffer_destroy(host_buffer *b) {
  muxDestroyBuffer(device, b->buffer, mux_test_allocator);
  muxFreeMemory(device, b->memory, mux_test_allocator);
}

static inline mux_descriptor_info_t buffer_arg(const host_buffer *b) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_buffer;
  descriptor.buffer_descriptor.buffer = b->buffer;
  return descriptor;
}

static inline mux_descriptor_info_t value_arg(const void *data, size_t size) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_plain_old_data;
  descriptor.plain_old_data_descriptor.data = data;
  descriptor.plain_old_data_descriptor.length = size;
  return descriptor;
}

static inline void codegen_test_start(void) {
  device = mux_test_create_device();
  queue = mux_test_queue(device);
}

static inline int codegen_test_finish(void) {
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

#endif /* CLMUX_TESTS_CODEGEN_TEST_H */

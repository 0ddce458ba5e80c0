/* Return codes of the object entry points (devices, executables, kernels,
 * memory, buffers, images, query pools): one check per code the spec lists,
 * in its order where two could apply, plus the success case. */
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

static const mux_allocator_info_t null_allocator = {NULL, NULL, NULL};
static const mux_allocator_info_t no_free_allocator = {mux_test_alloc, NULL,
                                                       NULL};

static void test_devices(void) {
  uint64_t count = 0;
  mux_device_info_t info = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxGetDeviceInfos(0, 0, NULL, &count));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetDeviceInfos(mux_device_type_cpu, 0, &info, NULL));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxGetDeviceInfos(mux_device_type_cpu, 1, NULL, &count));
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_all, 0, NULL, &count));
  CHECK(count >= 1);
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL));
  REQUIRE(info != NULL);

  mux_device_t device = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateDevices(1, NULL, mux_test_allocator, &device));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateDevices(1, &info, mux_test_allocator, NULL));
  /* A copy of the info did not come from muxGetDeviceInfos: no target can
   * initialize it. It also wins over the allocator rule listed after it. */
  struct mux_device_info_s stranger = *info;
  mux_device_info_t stranger_info = &stranger;
  CHECK_RESULT(mux_error_feature_unsupported,
               muxCreateDevices(1, &stranger_info, mux_test_allocator,
                                &device));
  CHECK_RESULT(mux_error_feature_unsupported,
               muxCreateDevices(1, &stranger_info, null_allocator, &device));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateDevices(1, &info, null_allocator, &device));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateDevices(1, &info, no_free_allocator, &device));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateDevices(0, NULL, mux_test_allocator, NULL));
  CHECK(device == NULL);

  CHECK_SUCCESS(muxCreateDevices(1, &info, mux_test_allocator, &device));
  REQUIRE(device != NULL);
  CHECK(device->info == info);
  /* Bad destroys do nothing: the device still works afterwards. */
  muxDestroyDevice(NULL, mux_test_allocator);
  muxDestroyDevice(device, null_allocator);
  muxDestroyDevice(device, no_free_allocator);
  mux_queue_t queue = NULL;
  CHECK_SUCCESS(muxGetQueue(device, mux_queue_type_compute, 0, &queue));
  muxDestroyDevice(device, mux_test_allocator);
}

static void test_executables(mux_device_t device) {
  static const unsigned char garbage[] = "this is not an executable binary";
  mux_executable_t executable = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateExecutable(NULL, garbage, sizeof garbage,
                                   mux_test_allocator, &executable));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateExecutable(device, NULL, sizeof garbage,
                                   mux_test_allocator, &executable));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateExecutable(device, garbage, 0, mux_test_allocator,
                                   &executable));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateExecutable(device, garbage, sizeof garbage,
                                   null_allocator, &executable));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateExecutable(device, garbage, sizeof garbage,
                                   mux_test_allocator, NULL));
  /* Order: a NULL binary is reported before a missing allocator. */
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateExecutable(device, NULL, sizeof garbage,
                                   null_allocator, &executable));
  mux_result_t result = muxCreateExecutable(
      device, garbage, sizeof garbage, mux_test_allocator, &executable);
  CHECK(result != mux_success);
  if (result == mux_success) {
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  muxDestroyExecutable(device, NULL, mux_test_allocator);
}

/* The first built-in kernel the device declares, preferring copy_buffer;
 * false if it declares none. */
static bool first_builtin_kernel(mux_device_t device, char *name,
                                 size_t capacity) {
  const char *declarations = device->info->builtin_kernel_declarations;
  if (declarations == NULL) return false;
  if (strstr(declarations, "copy_buffer(") != NULL) {
    snprintf(name, capacity, "copy_buffer");
    return true;
  }
  while (*declarations == ' ' || *declarations == ';') declarations++;
  size_t length = strcspn(declarations, "( ;");
  if (length == 0 || length >= capacity) return false;
  memcpy(name, declarations, length);
  name[length] = '\0';
  return true;
}

static void test_create_kernels(mux_device_t device) {
  /* No executable can be built here. The checks below are decided before
   * the kernel lookup, so a stand-in with the executable id serves; the
   * later rules (missing kernel, allocator, out) need a real executable and
   * are covered by the executable tests. */
  struct mux_executable_s stand_in = {
      (mux_id_t)mux_object_id_executable | 1u, device};
  mux_executable_t executable = &stand_in;
  mux_kernel_t kernel = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(NULL, executable, "k", 1, mux_test_allocator,
                               &kernel));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, NULL, "k", 1, mux_test_allocator,
                               &kernel));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, (mux_executable_t)device, "k", 1,
                               mux_test_allocator, &kernel));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, executable, NULL, 1,
                               mux_test_allocator, &kernel));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, executable, "k", 0,
                               mux_test_allocator, &kernel));
  /* A length that only counts the terminating NUL is still empty. */
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, executable, "", 1, mux_test_allocator,
                               &kernel));
  /* Order: name rules come before the allocator and out rules. */
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, executable, NULL, 1, null_allocator,
                               NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateKernel(device, executable, "k", 0, null_allocator,
                               NULL));

  char name[64];
  bool have_builtin = first_builtin_kernel(device, name, sizeof name);
  uint64_t length = strlen(name);
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuiltInKernel(NULL, "copy_buffer", 11,
                                      mux_test_allocator, &kernel));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuiltInKernel(device, NULL, 11, mux_test_allocator,
                                      &kernel));
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateBuiltInKernel(device, "no_such_kernel", 14,
                                      mux_test_allocator, &kernel));
  /* A prefix of a declared name is not that name. */
  if (have_builtin && length > 1) {
    CHECK_RESULT(mux_error_missing_kernel,
                 muxCreateBuiltInKernel(device, name, length - 1,
                                        mux_test_allocator, &kernel));
  }
  /* Order: a missing kernel is reported before the allocator and out. */
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateBuiltInKernel(device, "no_such_kernel", 14,
                                      null_allocator, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuiltInKernel(device, "copy_buffer", 0,
                                      mux_test_allocator, &kernel));
  CHECK(have_builtin);
  if (!have_builtin) return;
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateBuiltInKernel(device, name, length, null_allocator,
                                      &kernel));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateBuiltInKernel(device, name, length,
                                      mux_test_allocator, NULL));
  kernel = NULL;
  CHECK_SUCCESS(muxCreateBuiltInKernel(device, name, length,
                                       mux_test_allocator, &kernel));
  CHECK(kernel != NULL);
  if (kernel) {
    CHECK(kernel->device == device);
    muxDestroyKernel(device, NULL, mux_test_allocator);
    muxDestroyKernel(device, kernel, null_allocator); /* does nothing */
    muxDestroyKernel(device, kernel, mux_test_allocator);
  }
}

static void test_kernel_queries(mux_device_t device) {
  char name[64];
  mux_kernel_t kernel = NULL;
  if (!first_builtin_kernel(device, name, sizeof name) ||
      muxCreateBuiltInKernel(device, name, strlen(name), mux_test_allocator,
                             &kernel) != mux_success) {
    CHECK(!"a built-in kernel to query");
    return;
  }
  bool sub_groups = device->info->max_sub_group_count != 0;
  size_t size = 0, x = 0, y = 0, z = 0;

  CHECK_RESULT(mux_error_invalid_value,
               muxQuerySubGroupSizeForLocalSize(NULL, 1, 1, 1, &size));
  CHECK_RESULT(mux_error_invalid_value,
               muxQuerySubGroupSizeForLocalSize(kernel, 0, 1, 1, &size));
  CHECK_RESULT(mux_error_invalid_value,
               muxQuerySubGroupSizeForLocalSize(kernel, 1, 0, 1, &size));
  CHECK_RESULT(mux_error_invalid_value,
               muxQuerySubGroupSizeForLocalSize(kernel, 1, 1, 0, &size));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxQuerySubGroupSizeForLocalSize(kernel, 1, 1, 1, NULL));
  CHECK_RESULT(sub_groups ? mux_success : mux_error_feature_unsupported,
               muxQuerySubGroupSizeForLocalSize(kernel, 4, 1, 1, &size));

  CHECK_RESULT(mux_error_invalid_value,
               muxQueryLocalSizeForSubGroupCount(NULL, 1, &x, &y, &z));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxQueryLocalSizeForSubGroupCount(kernel, 1, NULL, &y, &z));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxQueryLocalSizeForSubGroupCount(kernel, 1, &x, NULL, &z));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxQueryLocalSizeForSubGroupCount(kernel, 1, &x, &y, NULL));
  CHECK_RESULT(sub_groups ? mux_success : mux_error_feature_unsupported,
               muxQueryLocalSizeForSubGroupCount(kernel, 1, &x, &y, &z));

  mux_wfv_status_e status;
  CHECK_RESULT(mux_error_invalid_value,
               muxQueryWFVInfoForLocalSize(NULL, 1, 1, 1, &status, &x, &y,
                                           &z));
  CHECK_RESULT(mux_error_invalid_value,
               muxQueryWFVInfoForLocalSize(kernel, 0, 1, 1, &status, &x, &y,
                                           &z));
  CHECK_RESULT(mux_error_invalid_value,
               muxQueryWFVInfoForLocalSize(kernel, 1, 0, 1, &status, &x, &y,
                                           &z));
  CHECK_RESULT(mux_error_invalid_value,
               muxQueryWFVInfoForLocalSize(kernel, 1, 1, 0, &status, &x, &y,
                                           &z));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxQueryWFVInfoForLocalSize(kernel, 1, 1, 1, NULL, &x, NULL,
                                           &z));
  /* Either output alone is enough; whether the device vectorizes whole
   * functions is its own business. */
  mux_result_t result =
      muxQueryWFVInfoForLocalSize(kernel, 1, 1, 1, NULL, &x, &y, &z);
  CHECK(result == mux_success || result == mux_error_feature_unsupported);
  result = muxQueryWFVInfoForLocalSize(kernel, 1, 1, 1, &status, NULL, NULL,
                                       NULL);
  CHECK(result == mux_success || result == mux_error_feature_unsupported);

  muxDestroyKernel(device, kernel, mux_test_allocator);
}

static mux_memory_t allocate(mux_device_t device, size_t size) {
  mux_memory_t memory = NULL;
  REQUIRE(muxAllocateMemory(device, size, 1,
                            mux_memory_property_host_visible |
                                mux_memory_property_host_coherent,
                            mux_allocation_type_alloc_host, 0,
                            mux_test_allocator, &memory) == mux_success);
  return memory;
}

static void test_allocate_memory(mux_device_t device) {
  const uint32_t properties =
      mux_memory_property_host_visible | mux_memory_property_host_coherent;
  const mux_allocation_type_e host = mux_allocation_type_alloc_host;
  mux_memory_t memory = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(NULL, 64, 1, properties, host, 0,
                                 mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(device, 0, 1, properties, host, 0,
                                 mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(device, 64, 0, properties, host, 0,
                                 mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(device, 64, 1, 0, host, 0,
                                 mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(device, 64, 1, properties, host, 24,
                                 mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxAllocateMemory(device, 64, 1, properties, host, 0,
                                 null_allocator, &memory));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxAllocateMemory(device, 64, 1, properties, host, 0,
                                 mux_test_allocator, NULL));
  /* Order: a zero size is reported before a missing allocator. */
  CHECK_RESULT(mux_error_invalid_value,
               muxAllocateMemory(device, 0, 1, properties, host, 0,
                                 null_allocator, NULL));

  CHECK_SUCCESS(muxAllocateMemory(device, 100, 1, properties, host, 256,
                                  mux_test_allocator, &memory));
  REQUIRE(memory != NULL);
  CHECK(memory->size >= 100);
  CHECK(memory->handle % 256 == 0);
  muxFreeMemory(device, NULL, mux_test_allocator);
  muxFreeMemory(NULL, memory, mux_test_allocator);
  muxFreeMemory(device, memory, null_allocator); /* does nothing */
  void *data = NULL;
  CHECK_SUCCESS(muxMapMemory(device, memory, 0, 100, &data));
  CHECK_SUCCESS(muxUnmapMemory(device, memory));
  muxFreeMemory(device, memory, mux_test_allocator);
}

static void test_memory_from_host(mux_device_t device) {
  uint64_t host[16] = {0};
  mux_memory_t memory = NULL;
  if (!(device->info->allocation_capabilities &
        mux_allocation_capabilities_cached_host)) {
    /* Optional: unsupported wins over every later rule. */
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxCreateMemoryFromHost(device, sizeof host, host,
                                         mux_test_allocator, &memory));
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxCreateMemoryFromHost(device, 0, NULL, null_allocator,
                                         NULL));
    return;
  }
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateMemoryFromHost(NULL, sizeof host, host,
                                       mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateMemoryFromHost(device, 0, host, mux_test_allocator,
                                       &memory));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateMemoryFromHost(device, sizeof host, NULL,
                                       mux_test_allocator, &memory));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateMemoryFromHost(device, sizeof host, host,
                                       null_allocator, &memory));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateMemoryFromHost(device, sizeof host, host,
                                       mux_test_allocator, NULL));
  CHECK_SUCCESS(muxCreateMemoryFromHost(device, sizeof host, host,
                                        mux_test_allocator, &memory));
  REQUIRE(memory != NULL);
  void *data = NULL;
  CHECK_SUCCESS(muxMapMemory(device, memory, 8, 16, &data));
  CHECK(data == (void *)((char *)host + 8));
  CHECK_SUCCESS(muxUnmapMemory(device, memory));
  muxFreeMemory(device, memory, mux_test_allocator);
}

static void test_map_memory(mux_device_t device) {
  mux_memory_t memory = allocate(device, 64);
  uint64_t size = memory->size;
  void *data = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(NULL, memory, 0, 8, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, NULL, 0, 8, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, (mux_memory_t)device, 0, 8, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, size + 1, 1, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, 0, size + 1, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, 8, size - 4, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, 8, UINT64_MAX - 4, &data));
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, 0, 0, &data));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxMapMemory(device, memory, 0, 8, NULL));
  /* Order: a bad range is reported before the out parameter. */
  CHECK_RESULT(mux_error_invalid_value,
               muxMapMemory(device, memory, 0, 0, NULL));

  CHECK_SUCCESS(muxMapMemory(device, memory, 8, size - 8, &data));
  CHECK(data == (void *)(uintptr_t)(memory->handle + 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryToDevice(NULL, memory, 0, 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryToDevice(device, NULL, 0, 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryToDevice(device, memory, 8, size));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryToDevice(device, memory, 8, UINT64_MAX));
  CHECK_SUCCESS(muxFlushMappedMemoryToDevice(device, memory, 8, size - 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryFromDevice(NULL, memory, 0, 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryFromDevice(device, NULL, 0, 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxFlushMappedMemoryFromDevice(device, memory, size, 1));
  CHECK_SUCCESS(muxFlushMappedMemoryFromDevice(device, memory, 0, size));
  CHECK_RESULT(mux_error_invalid_value, muxUnmapMemory(NULL, memory));
  CHECK_RESULT(mux_error_invalid_value, muxUnmapMemory(device, NULL));
  CHECK_SUCCESS(muxUnmapMemory(device, memory));
  muxFreeMemory(device, memory, mux_test_allocator);

  /* Device-local memory cannot be mapped, if the device can make it. */
  mux_memory_t local = NULL;
  if ((device->info->allocation_capabilities &
       mux_allocation_capabilities_alloc_device) &&
      muxAllocateMemory(device, 64, 1, mux_memory_property_device_local,
                        mux_allocation_type_alloc_device, 0,
                        mux_test_allocator, &local) == mux_success) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxMapMemory(device, local, 0, 8, &data));
    muxFreeMemory(device, local, mux_test_allocator);
  }
}

static void test_buffers(mux_device_t device) {
  mux_buffer_t buffer = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuffer(NULL, 64, mux_test_allocator, &buffer));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuffer(device, 0, mux_test_allocator, &buffer));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateBuffer(device, 64, null_allocator, &buffer));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateBuffer(device, 64, no_free_allocator, &buffer));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateBuffer(device, 64, mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateBuffer(device, 0, null_allocator, NULL));
  CHECK_SUCCESS(muxCreateBuffer(device, 64, mux_test_allocator, &buffer));
  REQUIRE(buffer != NULL);
  uint64_t size = buffer->memory_requirements.size;
  CHECK(size >= 64);

  mux_memory_t memory = allocate(device, 2 * size);
  uint64_t memory_size = memory->size;
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(NULL, memory, buffer, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, NULL, buffer, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, memory, NULL, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, (mux_memory_t)buffer,
                                   (mux_buffer_t)memory, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, memory, buffer, memory_size + 1));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, memory, buffer,
                                   memory_size - size + 1));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindBufferMemory(device, memory, buffer, UINT64_MAX));
  mux_memory_t small = allocate(device, 8);
  if (small->size < size) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxBindBufferMemory(device, small, buffer, 0));
  }
  CHECK_SUCCESS(muxBindBufferMemory(device, memory, buffer,
                                    memory_size - size));
  CHECK_SUCCESS(muxBindBufferMemory(device, memory, buffer, 0));

  muxDestroyBuffer(device, NULL, mux_test_allocator);
  muxDestroyBuffer(device, buffer, null_allocator); /* does nothing */
  muxDestroyBuffer(device, (mux_buffer_t)memory, mux_test_allocator);
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxFreeMemory(device, small, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);
}

static void test_create_images(mux_device_t device) {
  const struct mux_device_info_s *info = device->info;
  const mux_image_format_e format = mux_image_format_R8G8B8A8_unorm;
  const mux_image_type_e d1 = mux_image_type_1d, d2 = mux_image_type_2d,
                         d3 = mux_image_type_3d;
  mux_image_t image = NULL;
  /* Tightly packed rows and slices of 4-byte pixels. */
#define CREATE(type, w, h, d, layers, allocator, out)                   \
  muxCreateImage(device, type, format, w, h, d, layers, (w) * 4ull,     \
                 (w) * 4ull * (h), allocator, out)
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateImage(NULL, d2, format, 4, 4, 1, 0, 0, 0,
                              mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d1, 0, 1, 1, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d1, info->max_image_dimension_1d + 1, 1, 1, 0,
                      mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d1, 4, 2, 1, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d1, 4, 1, 2, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, 0, 4, 1, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, info->max_image_dimension_2d + 1, 4, 1, 0,
                      mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, 4, 0, 1, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, 4, info->max_image_dimension_2d + 1, 1, 0,
                      mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, 4, 4, 2, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d3, 0, 4, 4, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d3, 4, 0, 4, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d3, 4, 4, 0, 0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d3, 4, 4, info->max_image_dimension_3d + 1, 0,
                      mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE((mux_image_type_e)7, 4, 4, 1, 0, mux_test_allocator,
                      &image));
  CHECK_RESULT(mux_error_invalid_value,
               CREATE(d2, 4, 4, 1, info->max_image_array_layers + 1,
                      mux_test_allocator, &image));
  CHECK_RESULT(mux_error_null_out_parameter,
               CREATE(d2, 4, 4, 1, 0, mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_null_allocator_callback,
               CREATE(d2, 4, 4, 1, 0, null_allocator, &image));
  /* Order: this entry point lists the out parameter before the
   * allocator. */
  CHECK_RESULT(mux_error_null_out_parameter,
               CREATE(d2, 4, 4, 1, 0, null_allocator, NULL));
  CHECK(info->image_support);
  if (!info->image_support) return;

  CHECK_SUCCESS(CREATE(d2, 4, 4, 1, 0, mux_test_allocator, &image));
  REQUIRE(image != NULL);
  CHECK(image->size.x == 4 && image->size.y == 4 && image->size.z == 1);
  mux_memory_t memory =
      allocate(device, image->memory_requirements.size + 256);
  uint64_t image_size = image->memory_requirements.size;
  uint32_t alignment = image->memory_requirements.alignment;
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(NULL, memory, image, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(device, NULL, image, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(device, memory, NULL, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(device, memory, (mux_image_t)memory, 0));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(device, memory, image,
                                  memory->size - image_size + 1));
  CHECK_RESULT(mux_error_invalid_value,
               muxBindImageMemory(device, memory, image, UINT64_MAX));
  if (alignment > 1) {
    CHECK_RESULT(mux_error_invalid_value,
                 muxBindImageMemory(device, memory, image, alignment / 2));
  }
  CHECK_SUCCESS(muxBindImageMemory(device, memory, image, 0));

  muxDestroyImage(device, NULL, mux_test_allocator);
  muxDestroyImage(device, image, null_allocator); /* does nothing */
  muxDestroyImage(device, image, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);

  /* Arrays: a 1D array has height 1 and its layers. */
  CHECK_SUCCESS(CREATE(d1, 8, 1, 1, 3, mux_test_allocator, &image));
  if (image) muxDestroyImage(device, image, mux_test_allocator);
  image = NULL;
  CHECK_SUCCESS(CREATE(d2, 8, 8, 1, 3, mux_test_allocator, &image));
  if (image) muxDestroyImage(device, image, mux_test_allocator);
#undef CREATE
}

static void test_image_formats(mux_device_t device) {
  mux_image_format_e formats[64];
  uint32_t count = 0;
  const mux_allocation_type_e host = mux_allocation_type_alloc_host;
  CHECK_RESULT(mux_error_invalid_value,
               muxGetSupportedImageFormats(NULL, mux_image_type_2d, host, 0,
                                           NULL, &count));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetSupportedImageFormats(device, (mux_image_type_e)9, host,
                                           0, NULL, &count));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetSupportedImageFormats(device, mux_image_type_2d,
                                           (mux_allocation_type_e)9, 0, NULL,
                                           &count));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetSupportedImageFormats(device, mux_image_type_2d, host, 0,
                                           formats, &count));
  CHECK_SUCCESS(muxGetSupportedImageFormats(device, mux_image_type_2d, host,
                                            0, NULL, &count));
  CHECK(count > 0 || !device->info->image_support);
  /* A shorter array takes the first formats; the count stays the total. */
  uint32_t total = count, again = 0;
  if (count > 64) count = 64;
  if (count > 0) {
    CHECK_SUCCESS(muxGetSupportedImageFormats(device, mux_image_type_2d, host,
                                              count, formats, &again));
    CHECK(again == total);
  }
}

static void test_query_pools(mux_device_t device, mux_queue_t queue) {
  const mux_query_type_e duration = mux_query_type_duration;
  mux_query_pool_t pool = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateQueryPool(NULL, duration, 4, NULL, mux_test_allocator,
                                  &pool));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateQueryPool((mux_queue_t)device, duration, 4, NULL,
                                  mux_test_allocator, &pool));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateQueryPool(queue, (mux_query_type_e)5, 4, NULL,
                                  mux_test_allocator, &pool));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateQueryPool(queue, duration, 0, NULL,
                                  mux_test_allocator, &pool));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxCreateQueryPool(queue, duration, 4, NULL,
                                  mux_test_allocator, NULL));
  CHECK_RESULT(mux_error_null_allocator_callback,
               muxCreateQueryPool(queue, duration, 4, NULL, null_allocator,
                                  &pool));
  if (!device->info->query_counter_support) {
    mux_query_counter_config_t config = {0, NULL};
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxCreateQueryPool(queue, mux_query_type_counter, 1, &config,
                                    mux_test_allocator, &pool));
  }
  pool = NULL;
  CHECK_SUCCESS(muxCreateQueryPool(queue, duration, 4, NULL,
                                   mux_test_allocator, &pool));
  REQUIRE(pool != NULL);
  CHECK(pool->count == 4 && pool->type == duration);

  struct mux_query_duration_result_s results[4];
  const size_t one = sizeof results[0];
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(NULL, pool, 0, 1, one, results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, NULL, 0, 1, one, results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 4, 1, one, results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 2, 3, sizeof results,
                                      results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 1, UINT32_MAX,
                                      sizeof results, results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 0, 2, one, results, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 0, 1, one, NULL, one));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 0, 2, sizeof results,
                                      results, one - 1));
  CHECK_SUCCESS(muxGetQueryPoolResults(queue, pool, 0, 4, sizeof results,
                                       results, one));
  CHECK_SUCCESS(muxGetQueryPoolResults(queue, pool, 1, 2, 2 * one, results,
                                       one));

  muxDestroyQueryPool(queue, NULL, mux_test_allocator);
  muxDestroyQueryPool(NULL, pool, mux_test_allocator);
  muxDestroyQueryPool(queue, pool, null_allocator); /* does nothing */
  muxDestroyQueryPool(queue, pool, mux_test_allocator);
}

static void test_query_counters(mux_device_t device, mux_queue_t queue) {
  bool supported = device->info->query_counter_support;
  mux_query_counter_t counters[4];
  mux_query_counter_description_t descriptions[4];
  uint32_t count = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxGetSupportedQueryCounters(NULL, mux_queue_type_compute, 0,
                                            NULL, NULL, &count));
  if (!supported) {
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxGetSupportedQueryCounters(device, mux_queue_type_compute,
                                              0, NULL, NULL, &count));
    /* Unsupported comes before every rule about the arguments. */
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxGetSupportedQueryCounters(device, (mux_queue_type_e)7, 0,
                                              counters, NULL, &count));
  } else {
    CHECK_RESULT(mux_error_invalid_value,
                 muxGetSupportedQueryCounters(device, (mux_queue_type_e)7, 0,
                                              NULL, NULL, &count));
    CHECK_RESULT(mux_error_invalid_value,
                 muxGetSupportedQueryCounters(device, mux_queue_type_compute,
                                              0, counters, NULL, &count));
    CHECK_RESULT(mux_error_invalid_value,
                 muxGetSupportedQueryCounters(device, mux_queue_type_compute,
                                              0, NULL, descriptions, &count));
    CHECK_RESULT(mux_error_null_out_parameter,
                 muxGetSupportedQueryCounters(device, mux_queue_type_compute,
                                              4, NULL, NULL, &count));
    CHECK_SUCCESS(muxGetSupportedQueryCounters(
        device, mux_queue_type_compute, 0, NULL, NULL, &count));
  }

  mux_query_counter_config_t config = {0, NULL};
  uint32_t passes = 0;
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryCounterRequiredPasses(NULL, 1, &config, &passes));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryCounterRequiredPasses(queue, 0, &config, &passes));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryCounterRequiredPasses(queue, 1, NULL, &passes));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxGetQueryCounterRequiredPasses(queue, 1, &config, NULL));
  if (!supported) {
    CHECK_RESULT(mux_error_feature_unsupported,
                 muxGetQueryCounterRequiredPasses(queue, 1, &config,
                                                  &passes));
  }
}

int main(void) {
  test_devices();
  mux_device_t device = mux_test_create_device();
  mux_queue_t queue = mux_test_queue(device);
  test_executables(device);
  test_create_kernels(device);
  test_kernel_queries(device);
  test_allocate_memory(device);
  test_memory_from_host(device);
  test_map_memory(device);
  test_buffers(device);
  test_create_images(device);
  test_image_formats(device);
  test_query_pools(device, queue);
  test_query_counters(device, queue);
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

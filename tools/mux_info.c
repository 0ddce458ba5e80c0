/* clmux-mux-info: describes the Mux CPU device and runs a built-in kernel on
 * it, to show a fresh installation works end to end. Exit status 0 only if
 * the kernel's results are right. */
#include <mux/mux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_allocator.h"

static int fail(const char *what, mux_result_t error) {
  fprintf(stderr, "clmux-mux-info: %s failed (mux error %d)\n", what,
          (int)error);
  return 1;
}

static void print_info(const struct mux_device_info_s *info) {
  printf("Mux %d.%d.%d CPU device\n", MUX_MAJOR_VERSION, MUX_MINOR_VERSION,
         MUX_PATCH_VERSION);
  printf("  name                      %s\n", info->device_name);
  printf("  compute units             %u\n", info->compute_units);
  printf("  clock frequency           %u MHz\n", info->clock_frequency);
  printf("  memory                    %llu MiB\n",
         (unsigned long long)(info->memory_size >> 20));
  printf("  max allocation            %llu MiB\n",
         (unsigned long long)(info->allocation_size >> 20));
  printf("  cache / cacheline         %llu KiB / %llu B\n",
         (unsigned long long)(info->cache_size >> 10),
         (unsigned long long)info->cacheline_size);
  printf("  local memory              %llu KiB\n",
         (unsigned long long)(info->shared_local_memory_size >> 10));
  printf("  vector width (native)     %u bytes\n", info->native_vector_width);
  printf("  max work-group size       %u (%u, %u, %u)\n",
         info->max_concurrent_work_items, info->max_work_group_size_x,
         info->max_work_group_size_y, info->max_work_group_size_z);
  printf("  images                    %s (2D up to %u, 3D up to %u)\n",
         info->image_support ? "yes" : "no", info->max_image_dimension_2d,
         info->max_image_dimension_3d);
  printf("  built-in kernels          %s\n", info->builtin_kernel_declarations);
}

/* c = a + b over `count` floats with the built-in vector_add kernel. */
static int run_vector_add(mux_device_t device, size_t count) {
  const size_t bytes = count * sizeof(float);
  mux_buffer_t buffers[3];
  mux_memory_t memories[3];
  float *host[3];
  for (int i = 0; i < 3; i++) {
    mux_result_t error = muxCreateBuffer(device, bytes, allocator, &buffers[i]);
    if (error) return fail("muxCreateBuffer", error);
    error = muxAllocateMemory(
        device, bytes, 1,
        mux_memory_property_host_visible | mux_memory_property_host_coherent,
        mux_allocation_type_alloc_host, buffers[i]->memory_requirements.alignment,
        allocator, &memories[i]);
    if (error) return fail("muxAllocateMemory", error);
    error = muxBindBufferMemory(device, memories[i], buffers[i], 0);
    if (error) return fail("muxBindBufferMemory", error);
    error = muxMapMemory(device, memories[i], 0, bytes, (void **)&host[i]);
    if (error) return fail("muxMapMemory", error);
  }
  for (size_t i = 0; i < count; i++) {
    host[0][i] = (float)i;
    host[1][i] = 0.5f * (float)i;
    host[2][i] = -1.0f;
  }

  const char name[] = "vector_add";
  mux_kernel_t kernel;
  mux_result_t error =
      muxCreateBuiltInKernel(device, name, strlen(name), allocator, &kernel);
  if (error) return fail("muxCreateBuiltInKernel(vector_add)", error);

  mux_descriptor_info_t descriptors[3];
  for (int i = 0; i < 3; i++) {
    descriptors[i].type = mux_descriptor_info_type_buffer;
    descriptors[i].buffer_descriptor.buffer = buffers[i];
    descriptors[i].buffer_descriptor.offset = 0;
  }
  const size_t global_offset[1] = {0};
  const size_t global_size[1] = {count};
  mux_ndrange_options_t options = {descriptors, 3, {64, 1, 1}, global_offset,
                                   global_size, 1};

  mux_command_buffer_t command_buffer;
  mux_queue_t queue;
  mux_fence_t fence;
  if ((error = muxCreateCommandBuffer(device, NULL, allocator, &command_buffer)))
    return fail("muxCreateCommandBuffer", error);
  if ((error = muxCommandNDRange(command_buffer, kernel, options, 0, NULL, NULL)))
    return fail("muxCommandNDRange", error);
  if ((error = muxFinalizeCommandBuffer(command_buffer)))
    return fail("muxFinalizeCommandBuffer", error);
  if ((error = muxGetQueue(device, mux_queue_type_compute, 0, &queue)))
    return fail("muxGetQueue", error);
  if ((error = muxCreateFence(device, allocator, &fence)))
    return fail("muxCreateFence", error);
  if ((error = muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0, NULL,
                           NULL)))
    return fail("muxDispatch", error);
  if ((error = muxWait(queue, fence))) return fail("muxWait", error);

  size_t wrong = 0;
  for (size_t i = 0; i < count; i++) {
    if (host[2][i] != 1.5f * (float)i) wrong++;
  }
  printf("built-in kernel vector_add over %zu floats: %s\n", count,
         wrong ? "WRONG RESULTS" : "results correct");

  muxDestroyFence(device, fence, allocator);
  muxDestroyCommandBuffer(device, command_buffer, allocator);
  muxDestroyKernel(device, kernel, allocator);
  for (int i = 0; i < 3; i++) {
    muxUnmapMemory(device, memories[i]);
    muxDestroyBuffer(device, buffers[i], allocator);
    muxFreeMemory(device, memories[i], allocator);
  }
  return wrong ? 1 : 0;
}

int main(void) {
  mux_device_info_t info;
  mux_result_t error = muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL);
  if (error) return fail("muxGetDeviceInfos", error);
  print_info(info);

  mux_device_t device;
  error = muxCreateDevices(1, &info, allocator, &device);
  if (error) return fail("muxCreateDevices", error);
  int status = run_vector_add(device, (size_t)1 << 20);
  muxDestroyDevice(device, allocator);
  return status;
}

/* Device information through the public API: muxGetDeviceInfos in both of
 * its configurations and its return codes, then every field of the CPU
 * device against the spec's valid usage, the OpenCL 1.2 full-profile
 * minimums and what hwloc says about this machine. */
#include <dirent.h>
#include <hwloc.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mux_test.h"

#define KIB ((uint64_t)1024)
#define MIB (KIB * 1024)

/* Physical cores with at least one PU this process may run on: the
 * allowed cpuset (cgroups) narrowed by the binding (taskset). */
static unsigned hwloc_usable_cores(void) {
  hwloc_topology_t topology;
  REQUIRE(hwloc_topology_init(&topology) == 0);
  REQUIRE(hwloc_topology_load(topology) == 0);
  hwloc_bitmap_t usable =
      hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topology));
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
      hwloc_bitmap_intersects(bound, usable)) {
    hwloc_bitmap_and(usable, usable, bound);
  }
  unsigned cores = 0;
  for (hwloc_obj_t core = NULL;
       (core = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_CORE, core));) {
    if (hwloc_bitmap_intersects(core->cpuset, usable)) cores++;
  }
  if (cores == 0) cores = (unsigned)hwloc_bitmap_weight(usable);
  hwloc_bitmap_free(bound);
  hwloc_bitmap_free(usable);
  hwloc_topology_destroy(topology);
  return cores;
}

static int is_power_of_two(uint64_t value) {
  return value && (value & (value - 1)) == 0;
}

/* Runs before anything else initializes the device info in this process:
 * a child restricted to one CPU (like `taskset -c N`) must see one compute
 * unit. Exit status 0 on success. */
static int child_sees_one_core(void) {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) _exit(2);
    int first = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; cpu++) {
      if (CPU_ISSET(cpu, &set)) first = cpu;
    }
    CPU_ZERO(&set);
    CPU_SET(first, &set);
    /* Like taskset: every thread of the process (a sanitizer runtime may
     * have started some), not only this one. */
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) _exit(3);
    for (struct dirent *task; (task = readdir(tasks)) != NULL;) {
      if (task->d_name[0] == '.') continue;
      if (sched_setaffinity((pid_t)atoi(task->d_name), sizeof(set), &set) != 0)
        _exit(3);
    }
    closedir(tasks);
    mux_device_info_t info = NULL;
    if (muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL) != mux_success ||
        !info) {
      _exit(4);
    }
    _exit(info->compute_units == 1 ? 0 : 5);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static void test_configurations(mux_device_info_t *out_info) {
  uint64_t count = 99;
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_cpu, 0, NULL, &count));
  CHECK(count == 1);
  count = 99;
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_all, 0, NULL, &count));
  CHECK(count == 1);
  count = 99;
  CHECK_SUCCESS(muxGetDeviceInfos(
      mux_device_type_gpu_discrete | mux_device_type_accelerator, 0, NULL,
      &count));
  CHECK(count == 0);

  mux_device_info_t infos[2] = {NULL, NULL};
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_cpu, 1, infos, NULL));
  CHECK(infos[0] != NULL);
  mux_device_info_t again = NULL;
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_all, 1, &again, NULL));
  CHECK(again == infos[0]); /* static lifetime: always the same one */
  /* Both outputs at once is allowed too. */
  count = 0;
  CHECK_SUCCESS(muxGetDeviceInfos(mux_device_type_cpu, 2, infos, &count));
  CHECK(count == 1 && infos[0] == again);

  /* Return codes. */
  count = 0;
  CHECK_RESULT(mux_error_invalid_value, muxGetDeviceInfos(0, 0, NULL, &count));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetDeviceInfos(mux_device_type_cpu, 0, infos, NULL));
  CHECK_RESULT(mux_error_null_out_parameter,
               muxGetDeviceInfos(mux_device_type_cpu, 1, NULL, NULL));
  *out_info = again;
}

static void *get_info_thread(void *argument) {
  mux_device_info_t info = NULL;
  for (int i = 0; i < 100; i++) {
    if (muxGetDeviceInfos(mux_device_type_cpu, 1, &info, NULL) != mux_success) {
      return NULL;
    }
  }
  *(mux_device_info_t *)argument = info;
  return NULL;
}

/* muxGetDeviceInfos is thread-safe: every thread gets the same info. */
static void test_threads(mux_device_info_t expected) {
  enum { THREADS = 8 };
  pthread_t threads[THREADS];
  mux_device_info_t got[THREADS] = {NULL};
  for (int i = 0; i < THREADS; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, get_info_thread, &got[i]) == 0);
  }
  int same = 1;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    if (got[i] != expected) same = 0;
  }
  CHECK(same);
}

static void test_fields(mux_device_info_t info) {
  /* Identity. */
  CHECK(info->device_type == mux_device_type_cpu);
  CHECK(info->device_name && info->device_name[0] != '\0' &&
        strlen(info->device_name) < 256);
  CHECK(info->endianness == mux_endianness_little);
  CHECK(info->device_priority == 0);
  CHECK(info->khronos_vendor_id != 0);

  /* Compute: the cores hwloc sees, whatever CLMUX_NUM_THREADS says. */
  CHECK(info->compute_units >= 1);
  CHECK(info->compute_units == hwloc_usable_cores());
  CHECK(info->clock_frequency >= 1 && info->clock_frequency < 100000);
  CHECK(info->max_work_group_size_x == 1024);
  CHECK(info->max_work_group_size_y == 1024);
  CHECK(info->max_work_group_size_z == 1024);
  CHECK(info->max_concurrent_work_items >= info->max_work_group_size_x);
  CHECK(info->max_work_width >= 1 &&
        info->max_work_width <= info->max_concurrent_work_items);

  /* Memory. */
  CHECK(info->memory_size > 0);
  CHECK(info->allocation_size > 0 &&
        info->allocation_size <= info->memory_size);
  CHECK(info->allocation_size >= 128 * MIB);
  CHECK(info->allocation_size >= info->memory_size / 4);
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    /* hwloc and the kernel may count differently, but not wildly so. */
    CHECK(info->memory_size <= 2 * (uint64_t)pages * (uint64_t)page_size);
  }
  CHECK(is_power_of_two(info->buffer_alignment));
  CHECK(info->buffer_alignment >= 128);
  CHECK(info->shared_local_memory_type == mux_shared_local_memory_physical);
  CHECK(info->shared_local_memory_size >= 64 * KIB &&
        info->shared_local_memory_size <= 1 * MIB);
  CHECK(info->cacheline_size == 0 || is_power_of_two(info->cacheline_size));
  CHECK(info->cache_size >= info->cacheline_size);

  /* Vectors: bytes of the widest SIMD register. */
  uint32_t width = info->native_vector_width;
  CHECK(width == 16 || width == 32 || width == 64);
  CHECK(info->preferred_vector_width == width);
  __builtin_cpu_init();
  uint32_t expected =
      __builtin_cpu_supports("avx512f")                                 ? 64
      : __builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx") ? 32
                                                                        : 16;
  CHECK(width == expected);

  /* Capabilities. */
  CHECK(info->allocation_capabilities &
        (mux_allocation_capabilities_coherent_host |
         mux_allocation_capabilities_alloc_device));
  CHECK(info->allocation_capabilities ==
        (mux_allocation_capabilities_coherent_host |
         mux_allocation_capabilities_cached_host |
         mux_allocation_capabilities_alloc_device));
  CHECK(info->source_capabilities & mux_source_capabilities_builtin_kernel);
  CHECK(info->builtin_kernel_declarations != NULL);
  CHECK(info->supports_builtin_kernels);
  CHECK(info->address_capabilities == mux_address_capabilities_bits64);
  const uint32_t atomics =
      mux_atomic_capabilities_8bit | mux_atomic_capabilities_16bit |
      mux_atomic_capabilities_32bit | mux_atomic_capabilities_64bit;
  CHECK((info->atomic_capabilities & atomics) == atomics);
  CHECK(info->cache_capabilities ==
        (mux_cache_capabilities_read | mux_cache_capabilities_write));
  /* OpenCL 1.2 full profile: round to nearest and inf/nan for float;
   * cl_khr_fp64 needs all roundings, denormals and fma. */
  const uint32_t float_min = mux_floating_point_capabilities_rte |
                             mux_floating_point_capabilities_inf_nan;
  const uint32_t double_min =
      float_min | mux_floating_point_capabilities_denorm |
      mux_floating_point_capabilities_rtz |
      mux_floating_point_capabilities_rtp |
      mux_floating_point_capabilities_rtn | mux_floating_point_capabilities_fma;
  CHECK((info->float_capabilities & float_min) == float_min);
  CHECK(info->float_capabilities & mux_floating_point_capabilities_full);
  CHECK(info->float_capabilities & mux_floating_point_capabilities_fma);
  CHECK(!(info->float_capabilities & mux_floating_point_capabilities_soft));
  CHECK((info->double_capabilities & double_min) == double_min);
  /* cl_khr_fp16: to nearest, infinities and NaNs, denormals, fma. */
  const uint32_t half_min = float_min | mux_floating_point_capabilities_denorm |
                            mux_floating_point_capabilities_fma;
  CHECK((info->half_capabilities & half_min) == half_min);
  const uint32_t integers =
      mux_integer_capabilities_8bit | mux_integer_capabilities_16bit |
      mux_integer_capabilities_32bit | mux_integer_capabilities_64bit;
  CHECK(info->integer_capabilities == integers);

  /* Images, at least the full-profile minimums. */
  CHECK(info->image_support);
  CHECK(info->image2d_array_writes && info->image3d_writes);
  CHECK(info->max_image_dimension_1d >= 65536);
  CHECK(info->max_image_dimension_2d >= 8192);
  CHECK(info->max_image_dimension_3d >= 2048);
  CHECK(info->max_image_array_layers >= 2048);
  CHECK(info->max_sampled_images >= 128);
  CHECK(info->max_storage_images >= 8);
  CHECK(info->max_samplers >= 16);

  /* Queues and the rest. */
  CHECK(info->queue_types[mux_queue_type_compute] == 1);
  CHECK(!info->query_counter_support);
  CHECK(info->max_hardware_counters == 0);
  CHECK(info->descriptors_updatable);
  CHECK(info->can_clone_command_buffers);
  /* Sub-groups of one in a group one item wide; run one after another. */
  CHECK(info->max_sub_group_count == info->max_concurrent_work_items &&
        !info->sub_groups_support_ifp);
  CHECK(!info->supports_work_group_collectives);
  CHECK(!info->supports_generic_address_space);
}

/* The device created from the info points back at it. */
static void test_device(mux_device_info_t info) {
  mux_device_t device = NULL;
  mux_device_info_t infos[1] = {info};
  CHECK_SUCCESS(muxCreateDevices(1, infos, mux_test_allocator, &device));
  if (device) {
    CHECK(device->info == info);
    muxDestroyDevice(device, mux_test_allocator);
  }
}

int main(void) {
  alarm(60);
  CHECK(child_sees_one_core() == 0);
  /* compute_units must not follow the thread-count override. */
  unsigned cores = hwloc_usable_cores();
  setenv("CLMUX_NUM_THREADS", cores == 3 ? "5" : "3", 1);

  mux_device_info_t info = NULL;
  test_configurations(&info);
  REQUIRE(info);
  test_threads(info);
  test_fields(info);
  unsetenv("CLMUX_NUM_THREADS");
  test_device(info);
  return mux_test_finish();
}

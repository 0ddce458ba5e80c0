/* clmux CPU target: the device description, read once from hwloc, and the
 * placement of worker threads on that topology. */
#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"

#define KIB ((uint64_t)1024)
#define MIB (KIB * 1024)

/* The topology stays loaded for the life of the process: workers of every
 * pool are bound through it, and hwloc allows concurrent read-only use. */
static struct {
  hwloc_topology_t topology; /* NULL when hwloc failed */
  hwloc_bitmap_t usable;     /* allowed cpuset ∩ the process's binding */
  unsigned cores;            /* physical cores with a usable PU */
  unsigned pus;              /* usable PUs */
} cpu_topo;

static struct mux_device_info_s cpu_info;
static char cpu_name[128];
static pthread_once_t cpu_info_once = PTHREAD_ONCE_INIT;

static bool cpu_topology_load(void) {
  if (hwloc_topology_init(&cpu_topo.topology) != 0) {
    cpu_topo.topology = NULL;
    return false;
  }
  if (hwloc_topology_load(cpu_topo.topology) != 0) {
    hwloc_topology_destroy(cpu_topo.topology);
    cpu_topo.topology = NULL;
    return false;
  }
  hwloc_topology_t topology = cpu_topo.topology;
  cpu_topo.usable =
      hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topology));
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (!cpu_topo.usable || !bound) {
    hwloc_bitmap_free(bound);
    hwloc_bitmap_free(cpu_topo.usable);
    hwloc_topology_destroy(topology);
    cpu_topo.topology = NULL;
    return false;
  }
  /* The allowed cpuset reflects cgroups; taskset only shows in the binding.
   * An empty intersection means something odd: keep the allowed set. */
  if (hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS) == 0 ||
      hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_THREAD) == 0) {
    if (hwloc_bitmap_intersects(bound, cpu_topo.usable)) {
      hwloc_bitmap_and(cpu_topo.usable, cpu_topo.usable, bound);
    }
  }
  hwloc_bitmap_free(bound);

  for (hwloc_obj_t core = NULL;
       (core = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_CORE, core));) {
    if (hwloc_bitmap_intersects(core->cpuset, cpu_topo.usable)) {
      cpu_topo.cores++;
    }
  }
  int pus = hwloc_bitmap_weight(cpu_topo.usable);
  cpu_topo.pus = pus > 0 ? (unsigned)pus : 0;
  /* Some platforms expose no CORE objects: treat each PU as a core. */
  if (cpu_topo.cores == 0) cpu_topo.cores = cpu_topo.pus;
  if (cpu_topo.cores == 0) {
    hwloc_bitmap_free(cpu_topo.usable);
    hwloc_topology_destroy(topology);
    cpu_topo.topology = NULL;
    return false;
  }
  return true;
}

/* CPUs this process may run on, when hwloc could not say. */
static unsigned cpu_fallback_cpu_count(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    return (unsigned)CPU_COUNT(&set);
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (unsigned)online : 1;
}

static uint64_t cpu_sysconf_bytes(int name) {
  long value = sysconf(name);
  return value > 0 ? (uint64_t)value : 0;
}

static void cpu_read_name(void) {
  const char *model = NULL;
  if (cpu_topo.topology) {
    hwloc_obj_t package =
        hwloc_get_obj_by_type(cpu_topo.topology, HWLOC_OBJ_PACKAGE, 0);
    if (package) model = hwloc_obj_get_info_by_name(package, "CPUModel");
    if (!model) {
      model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(cpu_topo.topology),
                                         "CPUModel");
    }
  }
  if (model) {
    while (*model == ' ' || *model == '\t') model++;
    snprintf(cpu_name, sizeof(cpu_name), "%s", model);
    size_t length = strlen(cpu_name);
    while (length &&
           (cpu_name[length - 1] == ' ' || cpu_name[length - 1] == '\t' ||
            cpu_name[length - 1] == '\n')) {
      cpu_name[--length] = '\0';
    }
  }
  if (cpu_name[0] == '\0') snprintf(cpu_name, sizeof(cpu_name), "cpu");
}

/* The deepest data (or unified) cache: what kernels share across cores. */
static hwloc_obj_t cpu_last_level_cache(void) {
  static const hwloc_obj_type_t levels[] = {
      HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
      HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
  if (!cpu_topo.topology) return NULL;
  for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
    hwloc_obj_t cache = hwloc_get_obj_by_type(cpu_topo.topology, levels[i], 0);
    if (cache && cache->attr && cache->attr->cache.size) return cache;
  }
  return NULL;
}

/* The L2 share of one core: an L2 shared by several cores is divided. */
static uint64_t cpu_l2_per_core(void) {
  if (cpu_topo.topology) {
    hwloc_obj_t l2 =
        hwloc_get_obj_by_type(cpu_topo.topology, HWLOC_OBJ_L2CACHE, 0);
    if (l2 && l2->attr && l2->attr->cache.size) {
      int cores = hwloc_get_nbobjs_inside_cpuset_by_type(
          cpu_topo.topology, l2->cpuset, HWLOC_OBJ_CORE);
      return l2->attr->cache.size / (uint64_t)(cores > 1 ? cores : 1);
    }
  }
  return cpu_sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
}

/* Maximum clock in MHz: cpufreq knows the real maximum; /proc/cpuinfo only
 * the current speed, which is still better than nothing. */
static uint32_t cpu_clock_mhz(void) {
  FILE *file =
      fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
  if (file) {
    unsigned long khz = 0;
    int read = fscanf(file, "%lu", &khz);
    fclose(file);
    if (read == 1 && khz >= 1000) return (uint32_t)(khz / 1000);
  }
  file = fopen("/proc/cpuinfo", "r");
  if (file) {
    char line[256];
    double mhz = 0;
    while (fgets(line, sizeof(line), file)) {
      if (strncmp(line, "cpu MHz", 7) == 0) {
        const char *colon = strchr(line, ':');
        if (colon) mhz = strtod(colon + 1, NULL);
        break;
      }
    }
    fclose(file);
    if (mhz >= 1.0 && mhz < 1e6) return (uint32_t)(mhz + 0.5);
  }
  return 1000;
}

/* Bytes of the widest SIMD register the CPU has. */
static uint32_t cpu_vector_bytes(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx")) {
    return 32;
  }
#endif
  return 16;
}

static void cpu_fill_info(void) {
  bool have_topology = cpu_topology_load();
  struct mux_device_info_s *info = &cpu_info;

  cpu_read_name();
  info->id = CPU_ID(mux_object_id_device);
  info->device_name = cpu_name;
  info->device_type = mux_device_type_cpu;
  info->builtin_kernel_declarations = cpu_builtin_kernel_declarations;
  info->khronos_vendor_id = 0x10006;
  info->device_priority = 0;
  info->endianness = mux_endianness_little;

  info->compute_units =
      have_topology ? cpu_topo.cores : cpu_fallback_cpu_count();
  info->clock_frequency = cpu_clock_mhz();

  /* Physical RAM as the kernel counts it: hwloc's NUMA totals can miss
   * memory on virtual machines (seen: 5.6 GB of 24 GB). */
  uint64_t memory =
      cpu_sysconf_bytes(_SC_PHYS_PAGES) * cpu_sysconf_bytes(_SC_PAGESIZE);
  if (memory == 0 && have_topology)
    memory = hwloc_get_root_obj(cpu_topo.topology)->total_memory;
  if (memory == 0) memory = 1024 * MIB;
  info->memory_size = memory;
  uint64_t allocation = memory / 4 > 128 * MIB ? memory / 4 : 128 * MIB;
  info->allocation_size = allocation < memory ? allocation : memory;

  hwloc_obj_t llc = cpu_last_level_cache();
  if (llc) {
    info->cache_size = llc->attr->cache.size;
    info->cacheline_size = llc->attr->cache.linesize;
  } else {
    info->cache_size = cpu_sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
    if (!info->cache_size)
      info->cache_size = cpu_sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
  }
  if (!info->cacheline_size) {
    info->cacheline_size = cpu_sysconf_bytes(_SC_LEVEL1_DCACHE_LINESIZE);
  }
  if (!info->cacheline_size) info->cacheline_size = 64;

  /* Local memory lives in each worker's own cache, so one core's L2 is the
   * natural size; OpenCL wants at least 32 KiB. */
  uint64_t local = cpu_l2_per_core();
  if (local < 64 * KIB) local = 64 * KIB;
  if (local > 1 * MIB) local = 1 * MIB;
  info->shared_local_memory_size = local;
  info->shared_local_memory_type = mux_shared_local_memory_physical;

  info->buffer_alignment = 128; /* a double16 */
  info->native_vector_width = cpu_vector_bytes();
  info->preferred_vector_width = info->native_vector_width;

  info->max_concurrent_work_items = CPU_MAX_WORK_GROUP_SIZE;
  info->max_work_group_size_x = CPU_MAX_WORK_GROUP_SIZE;
  info->max_work_group_size_y = CPU_MAX_WORK_GROUP_SIZE;
  info->max_work_group_size_z = CPU_MAX_WORK_GROUP_SIZE;
  info->max_work_width = CPU_MAX_WORK_GROUP_SIZE;

  info->allocation_capabilities = mux_allocation_capabilities_coherent_host |
                                  mux_allocation_capabilities_cached_host |
                                  mux_allocation_capabilities_alloc_device;
  info->source_capabilities = mux_source_capabilities_builtin_kernel;
  info->address_capabilities = mux_address_capabilities_bits64;
  info->atomic_capabilities =
      mux_atomic_capabilities_8bit | mux_atomic_capabilities_16bit |
      mux_atomic_capabilities_32bit | mux_atomic_capabilities_64bit;
  info->cache_capabilities =
      mux_cache_capabilities_read | mux_cache_capabilities_write;
  const uint32_t ieee = mux_floating_point_capabilities_denorm |
                        mux_floating_point_capabilities_inf_nan |
                        mux_floating_point_capabilities_rte |
                        mux_floating_point_capabilities_rtz |
                        mux_floating_point_capabilities_rtp |
                        mux_floating_point_capabilities_rtn |
                        mux_floating_point_capabilities_fma |
                        mux_floating_point_capabilities_full;
  /* cl_khr_fp16: arithmetic widened to float and rounded once, fma
   * through double (compiler/builtins/half): to nearest, with denormals. */
  info->half_capabilities = mux_floating_point_capabilities_denorm |
                            mux_floating_point_capabilities_inf_nan |
                            mux_floating_point_capabilities_rte |
                            mux_floating_point_capabilities_fma |
                            mux_floating_point_capabilities_full;
  info->float_capabilities = ieee;
  info->double_capabilities = ieee;
  info->integer_capabilities =
      mux_integer_capabilities_8bit | mux_integer_capabilities_16bit |
      mux_integer_capabilities_32bit | mux_integer_capabilities_64bit;
  info->custom_buffer_capabilities = 0;

  info->image_support = true;
  info->image2d_array_writes = true;
  info->image3d_writes = true;
  info->max_image_dimension_1d = 65536;
  info->max_image_dimension_2d = 16384;
  info->max_image_dimension_3d = 2048;
  info->max_image_array_layers = 2048;
  info->max_storage_images = 64;
  info->max_sampled_images = 128;
  info->max_samplers = 16;

  info->queue_types[mux_queue_type_compute] = 1;
  info->query_counter_support = false;
  info->descriptors_updatable = true;
  info->can_clone_command_buffers = true;
  info->supports_builtin_kernels = true;
  /* Sub-groups of one item each in a group one item wide. */
  info->max_sub_group_count = CPU_MAX_WORK_GROUP_SIZE;
  info->sub_groups_support_ifp = false;
  info->max_hardware_counters = 0;
  info->supports_work_group_collectives = false;
  info->supports_generic_address_space = false;
}

struct mux_device_info_s *cpu_device_info(void) {
  pthread_once(&cpu_info_once, cpu_fill_info);
  return &cpu_info;
}

/* Read on every call (not cached) so that a change of CLMUX_NUM_THREADS
 * takes effect for the next pool. */
unsigned cpu_worker_count(void) {
  unsigned cores = cpu_device_info()->compute_units;
  const char *text = getenv("CLMUX_NUM_THREADS");
  if (text && *text) {
    char *end = NULL;
    unsigned long count = strtoul(text, &end, 10);
    if (*end == '\0' && text[0] != '-' && count >= 1 && count <= 1024) {
      return (unsigned)count;
    }
  }
  unsigned workers = cores ? cores : 1;
  /* A quota of 2.5 CPUs is three workers' worth of time, not 64 cores'. */
  double quota = cpu_cgroup_quota("");
  if (quota > 0) {
    unsigned allowed = (unsigned)quota + ((double)(unsigned)quota < quota);
    if (allowed < workers) workers = allowed ? allowed : 1;
  }
  return workers;
}

bool cpu_bind_worker_thread(unsigned index, unsigned count) {
  cpu_device_info();
  hwloc_topology_t topology = cpu_topo.topology;
  if (!topology || cpu_topo.pus == 0) return false;
  if (count > cpu_topo.cores) {
    /* More workers than cores: one PU each, round-robin. */
    hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(
        topology, cpu_topo.usable, HWLOC_OBJ_PU, index % cpu_topo.pus);
    return pu &&
           hwloc_set_cpubind(topology, pu->cpuset, HWLOC_CPUBIND_THREAD) == 0;
  }
  /* One core each: all of the core's usable PUs (its hyper-threads). */
  unsigned seen = 0;
  for (hwloc_obj_t core = NULL;
       (core = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_CORE, core));) {
    if (!hwloc_bitmap_intersects(core->cpuset, cpu_topo.usable)) continue;
    if (seen++ != index % cpu_topo.cores) continue;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return false;
    hwloc_bitmap_and(set, core->cpuset, cpu_topo.usable);
    bool bound = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
    return bound;
  }
  /* No CORE objects: cores were counted as PUs. */
  hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(
      topology, cpu_topo.usable, HWLOC_OBJ_PU, index % cpu_topo.pus);
  return pu &&
         hwloc_set_cpubind(topology, pu->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

/* The usable core (or PU, where hwloc shows no cores) of index `index`, in
 * the order cpu_bind_worker_thread counts them. */
static hwloc_obj_t usable_core(unsigned index) {
  hwloc_topology_t topology = cpu_topo.topology;
  unsigned seen = 0;
  for (hwloc_obj_t core = NULL;
       (core = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_CORE, core));) {
    if (!hwloc_bitmap_intersects(core->cpuset, cpu_topo.usable)) continue;
    if (seen++ == index) return core;
  }
  if (seen) return NULL;
  return hwloc_get_obj_inside_cpuset_by_type(topology, cpu_topo.usable,
                                             HWLOC_OBJ_PU, index);
}

bool cpu_bind_thread_to_cores(const uint32_t *cores, unsigned count) {
  cpu_device_info();
  hwloc_topology_t topology = cpu_topo.topology;
  if (!topology || count == 0) return false;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (!set) return false;
  for (unsigned i = 0; i < count; i++) {
    hwloc_obj_t core = cores[i] < cpu_topo.cores ? usable_core(cores[i]) : NULL;
    if (core) hwloc_bitmap_or(set, set, core->cpuset);
  }
  hwloc_bitmap_and(set, set, cpu_topo.usable);
  bool bound = !hwloc_bitmap_iszero(set) &&
               hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0;
  hwloc_bitmap_free(set);
  return bound;
}

int cpu_core_domain(unsigned core, mux_cpu_domain_e domain) {
  cpu_device_info();
  if (!cpu_topo.topology || core >= cpu_topo.cores) return -1;
  hwloc_obj_t object = usable_core(core);
  if (!object) return -1;
  if (domain == mux_cpu_domain_numa) {
    /* NUMA nodes hang off the tree as memory children: match by cpuset. */
    for (hwloc_obj_t node = NULL;
         (node = hwloc_get_next_obj_by_type(cpu_topo.topology,
                                            HWLOC_OBJ_NUMANODE, node));) {
      if (hwloc_bitmap_intersects(node->cpuset, object->cpuset)) {
        return (int)node->logical_index;
      }
    }
    return -1;
  }
  static const hwloc_obj_type_t caches[] = {
      [mux_cpu_domain_l4_cache] = HWLOC_OBJ_L4CACHE,
      [mux_cpu_domain_l3_cache] = HWLOC_OBJ_L3CACHE,
      [mux_cpu_domain_l2_cache] = HWLOC_OBJ_L2CACHE,
      [mux_cpu_domain_l1_cache] = HWLOC_OBJ_L1CACHE};
  if ((unsigned)domain >= sizeof caches / sizeof caches[0]) return -1;
  hwloc_obj_t cache =
      hwloc_get_ancestor_obj_by_type(cpu_topo.topology, caches[domain], object);
  return cache ? (int)cache->logical_index : -1;
}

int32_t muxCpuCoreDomain(uint32_t core, mux_cpu_domain_e domain) {
  return cpu_core_domain(core, domain);
}

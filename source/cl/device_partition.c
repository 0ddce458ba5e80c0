/* clmux OpenCL front-end: sub-devices (clCreateSubDevices), their
 * reference counts and their partition queries.
 *
 * A sub-device is a set of the root device's cores; it gets a Mux device of
 * its own from the CPU target (muxCpuCreatePartition), so its kernels run on
 * workers pinned to its cores and two sub-devices never share workers.
 * Memory, programs and kernels are shared between all devices (mux_cpu.h):
 * a program built for a device runs on its sub-devices as the 1.2
 * specification requires. */
#include <mux/mux_cpu.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "engine.h"

/* Affinity levels in NEXT_PARTITIONABLE's order, largest first. */
static const struct {
  cl_device_affinity_domain bit;
  mux_cpu_domain_e level;
} levels[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, mux_cpu_domain_numa},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, mux_cpu_domain_l4_cache},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, mux_cpu_domain_l3_cache},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, mux_cpu_domain_l2_cache},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, mux_cpu_domain_l1_cache},
};
#define LEVELS (sizeof levels / sizeof levels[0])

static const cl_device_partition_property supported_partitions[] = {
    CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
    CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};

bool clx_device_within(cl_device_id device, cl_device_id ancestor) {
  for (; device; device = device->parent) {
    if (device == ancestor) return true;
  }
  return false;
}

static uint32_t compute_units(cl_device_id device) {
  return device->info->compute_units;
}

/* The root's core index of the device's core `i`. */
static uint32_t core_of(cl_device_id device, uint32_t i) {
  return device->cores ? device->cores[i] : i;
}

/* A partition: `count` groups; group g has the device's cores (positions
 * in device order) group_of[i] == g. */
typedef struct partition {
  uint32_t count;
  uint32_t *group_of; /* per core of the device */
} partition;

/* Groups the device's cores by their domain at `level`; the number of
 * groups, or 0 if the machine has no such level. */
static uint32_t group_by_level(cl_device_id device, mux_cpu_domain_e level,
                               uint32_t *group_of) {
  uint32_t units = compute_units(device), count = 0;
  int32_t *domain_of_group = calloc(units, sizeof *domain_of_group);
  if (!domain_of_group) return 0;
  for (uint32_t i = 0; i < units; i++) {
    int32_t domain = muxCpuCoreDomain(core_of(device, i), level);
    if (domain < 0) {
      free(domain_of_group);
      return 0;
    }
    uint32_t g = 0;
    while (g < count && domain_of_group[g] != domain) g++;
    if (g == count) domain_of_group[count++] = domain;
    group_of[i] = g;
  }
  free(domain_of_group);
  return count;
}

/* The affinity levels that divide `device`: those with at least two
 * domains among its cores. Only these are reported, so a level asked for
 * always gives sub-devices (the CTS's buffers/buffer_migrate partitions by
 * every level reported and wants each to work). */
static cl_device_affinity_domain dividing_domains(cl_device_id device) {
  uint32_t units = compute_units(device);
  if (units < 2) return 0;
  uint32_t *group_of = calloc(units, sizeof *group_of);
  if (!group_of) return 0;
  cl_device_affinity_domain domains = 0;
  for (size_t i = 0; i < LEVELS; i++) {
    if (group_by_level(device, levels[i].level, group_of) >= 2) {
      domains |= levels[i].bit;
    }
  }
  free(group_of);
  return domains ? domains | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

/* Length of the property list, 0 included; 0 when it is malformed. */
static size_t properties_length(const cl_device_partition_property *p) {
  switch (p[0]) {
    case CL_DEVICE_PARTITION_EQUALLY:
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      return p[2] == 0 ? 3 : 0;
    case CL_DEVICE_PARTITION_BY_COUNTS: {
      size_t n = 1;
      while (p[n] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END) n++;
      return p[n + 1] == 0 ? n + 2 : 0;
    }
    default:
      return 0;
  }
}

/* Works out the partition `properties` asks of `device`. */
static cl_int plan(cl_device_id device,
                   const cl_device_partition_property *properties,
                   partition *out) {
  uint32_t units = compute_units(device);
  out->group_of = calloc(units, sizeof *out->group_of);
  if (!out->group_of) return CL_OUT_OF_HOST_MEMORY;
  switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY: {
      cl_device_partition_property n = properties[1];
      if (n <= 0) return CL_INVALID_VALUE;
      if ((uint64_t)n > units) return CL_INVALID_DEVICE_PARTITION_COUNT;
      /* All the cores in one sub-device would be the device again. */
      if ((uint64_t)n == units) return CL_DEVICE_PARTITION_FAILED;
      out->count = units / (uint32_t)n;
      for (uint32_t i = 0; i < units; i++) {
        /* Cores past count * n are left out. */
        out->group_of[i] =
            i / (uint32_t)n < out->count ? i / (uint32_t)n : UINT32_MAX;
      }
      return CL_SUCCESS;
    }
    case CL_DEVICE_PARTITION_BY_COUNTS: {
      uint64_t total = 0;
      uint32_t groups = 0;
      for (size_t i = 1;
           properties[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
        /* (A count of 0 would end the list.) */
        if (properties[i] < 0 || (uint64_t)properties[i] > units ||
            ++groups > units) {
          return CL_INVALID_DEVICE_PARTITION_COUNT;
        }
        total += (uint64_t)properties[i];
      }
      if (groups == 0) return CL_INVALID_VALUE;
      if (total > units) return CL_INVALID_DEVICE_PARTITION_COUNT;
      uint32_t core = 0;
      for (uint32_t i = 0; i < units; i++) out->group_of[i] = UINT32_MAX;
      for (uint32_t g = 0; g < groups; g++) {
        for (cl_device_partition_property k = 0; k < properties[1 + g]; k++) {
          out->group_of[core++] = g;
        }
      }
      out->count = groups;
      return CL_SUCCESS;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
      cl_device_affinity_domain asked =
          (cl_device_affinity_domain)properties[1];
      if (!(asked & dividing_domains(device)) || (asked & (asked - 1))) {
        return CL_INVALID_VALUE;
      }
      for (size_t i = 0; i < LEVELS; i++) {
        if (asked != levels[i].bit &&
            asked != CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
          continue;
        }
        out->count = group_by_level(device, levels[i].level, out->group_of);
        if (out->count >= 2) return CL_SUCCESS;
      }
      return CL_DEVICE_PARTITION_FAILED;
    }
    default:
      return CL_INVALID_VALUE;
  }
}

/* Runs on the callback thread: stopping a device joins its threads, and
 * its last hold may go on one of them. */
static void sub_device_free(void *data) {
  cl_device_id device = data;
  if (device->mux_device) muxDestroyDevice(device->mux_device, clx_allocator);
  clx_unhold(CLX_OBJ(device->parent));
  free(device->cores);
  free(device->partition);
  free(device);
}

static void sub_device_destroy(clx_object *object) {
  clx_defer(sub_device_free, object);
}

/* Group `g` of the plan as a new sub-device; NULL if out of memory or the
 * CPU target refused. */
static cl_device_id make_sub_device(cl_device_id parent, const partition *p,
                                    uint32_t g,
                                    const cl_device_partition_property *props,
                                    size_t props_length) {
  cl_device_id device = calloc(1, sizeof *device);
  if (!device) return NULL;
  uint32_t units = compute_units(parent), count = 0;
  device->cores = calloc(units, sizeof *device->cores);
  device->partition = malloc(props_length * sizeof *props);
  if (!device->cores || !device->partition) goto failed;
  for (uint32_t i = 0; i < units; i++) {
    if (p->group_of[i] == g) device->cores[count++] = core_of(parent, i);
  }
  memcpy(device->partition, props, props_length * sizeof *props);
  device->partition_length = props_length;
  device->own_info = *parent->info;
  device->own_info.compute_units = count;
  device->info = &device->own_info;
  device->platform = parent->platform;
  if (muxCpuCreatePartition(parent->mux_device, device->cores, count,
                            &device->own_info, clx_allocator,
                            &device->mux_device) != mux_success) {
    goto failed;
  }
  if (muxGetQueue(device->mux_device, mux_queue_type_compute, 0,
                  &device->mux_queue) != mux_success) {
    muxDestroyDevice(device->mux_device, clx_allocator);
    goto failed;
  }
  device->parent = parent;
  clx_hold(CLX_OBJ(parent));
  clx_object_init(CLX_OBJ(device), clx_kind_device, sub_device_destroy);
  return device;
failed:
  free(device->cores);
  free(device->partition);
  free(device);
  return NULL;
}

cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property *properties,
    cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret) {
  if (!clx_device_valid(in_device)) return CL_INVALID_DEVICE;
  if (!properties) return CL_INVALID_VALUE;
  size_t length = properties_length(properties);
  if (length == 0) return CL_INVALID_VALUE;
  partition p = {0};
  cl_int error = plan(in_device, properties, &p);
  if (error == CL_SUCCESS && out_devices && num_devices < p.count) {
    error = CL_INVALID_VALUE;
  }
  if (error == CL_SUCCESS && out_devices) {
    for (uint32_t g = 0; g < p.count; g++) {
      out_devices[g] = make_sub_device(in_device, &p, g, properties, length);
      if (!out_devices[g]) {
        while (g-- > 0) clx_release(CLX_OBJ(out_devices[g]));
        error = CL_OUT_OF_RESOURCES;
        break;
      }
    }
  }
  if (error == CL_SUCCESS && num_devices_ret) *num_devices_ret = p.count;
  free(p.group_of);
  return error;
}

/* Root devices are not reference counted (OpenCL 1.2: retain and release
 * of a root-level device succeed and change nothing). */
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  if (!clx_device_valid(device)) return CL_INVALID_DEVICE;
  if (device->parent) clx_retain(CLX_OBJ(device));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  if (!clx_device_valid(device)) return CL_INVALID_DEVICE;
  if (device->parent && !clx_release(CLX_OBJ(device))) {
    return CL_INVALID_DEVICE;
  }
  return CL_SUCCESS;
}

cl_int clx_device_partition_info(cl_device_id device, cl_device_info param,
                                 size_t size, void *value, size_t *size_ret) {
  switch (param) {
    case CL_DEVICE_PARENT_DEVICE:
      return clx_info(&device->parent, sizeof device->parent, size, value,
                      size_ret);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: {
      /* One core cannot be divided. */
      cl_uint most = compute_units(device) > 1 ? compute_units(device) : 0;
      return clx_info(&most, sizeof most, size, value, size_ret);
    }
    case CL_DEVICE_PARTITION_PROPERTIES: {
      static const cl_device_partition_property none = 0;
      if (compute_units(device) < 2) {
        return clx_info(&none, sizeof none, size, value, size_ret);
      }
      /* By affinity only when some level divides the device. */
      size_t count = sizeof supported_partitions / sizeof *supported_partitions;
      if (!dividing_domains(device)) count--;
      return clx_info(supported_partitions,
                      count * sizeof *supported_partitions, size, value,
                      size_ret);
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: {
      cl_device_affinity_domain domains = dividing_domains(device);
      return clx_info(&domains, sizeof domains, size, value, size_ret);
    }
    case CL_DEVICE_PARTITION_TYPE:
      /* A root device: an empty list (1.2 allows size 0 or one 0). */
      if (!device->parent) return clx_info(NULL, 0, size, value, size_ret);
      return clx_info(device->partition,
                      device->partition_length * sizeof *device->partition,
                      size, value, size_ret);
    case CL_DEVICE_REFERENCE_COUNT: {
      cl_uint count = device->parent ? clx_user_references(CLX_OBJ(device)) : 1;
      return clx_info(&count, sizeof count, size, value, size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

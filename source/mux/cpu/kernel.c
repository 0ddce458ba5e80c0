/* clmux CPU target: kernels, from an executable's kernel table or from the
 * built-in kernels. A kernel is a work-group function plus what an NDRange
 * needs to know about it; it owns nothing else. */
#include <clmux/cpu_abi/binary_format.h>
#include <string.h>

#include "../target.h"
#include "cpu.h"

/* Built-in kernels suggest this many work-items in x: enough for the loop
 * over x to vectorize and amortize the call. */
#define CPU_BUILTIN_PREFERRED_LOCAL_SIZE_X 64u

/* The kernel plus what only this target reads: the local size its code was
 * specialized for (cpu_kernel_required_local_size). */
typedef struct cpu_kernel_object {
  cpu_kernel kernel;
  uint32_t required_local_size[3];
} cpu_kernel_object;

/* Callers may count a terminating NUL in name_length; it is not part of
 * the name. */
static uint64_t name_length_without_nul(const char *name, uint64_t length) {
  while (length > 0 && name[length - 1] == '\0') length--;
  return length;
}

static size_t clamp_local_size(uint64_t size, uint32_t device_max) {
  if (size < 1) return 1;
  return size > device_max ? device_max : (size_t)size;
}

static cpu_kernel_object *kernel_new(mux_device_t device, const char *name,
                                     uint64_t name_length,
                                     cpu_work_group_fn function,
                                     mux_allocator_info_t allocator) {
  cpu_kernel_object *object = cpu_calloc(allocator, sizeof(cpu_kernel_object),
                                         _Alignof(cpu_kernel_object));
  if (!object) return NULL;
  cpu_kernel *kernel = &object->kernel;
  kernel->base.id = CPU_ID(mux_object_id_kernel);
  kernel->base.device = device;
  /* Groups of one item in x and many in y have sub-groups of one. */
  kernel->base.max_sub_group_count = CPU_MAX_WORK_GROUP_SIZE;
  kernel->sub_group_size = 1;
  kernel->function = function;
  atomic_init(&kernel->edges, NULL);
  atomic_init(&kernel->group_cost_ps, 0);
  cpu_variant_init(&kernel->variant);
  /* A name longer than the field is cut: it is only ever displayed. */
  size_t copied = name_length < sizeof kernel->name ? (size_t)name_length
                                                    : sizeof kernel->name - 1;
  memcpy(kernel->name, name, copied);
  kernel->name[copied] = '\0';
  return object;
}

mux_result_t cpuCreateKernel(mux_device_t device, mux_executable_t executable,
                             const char *name, uint64_t name_length,
                             mux_allocator_info_t allocator_info,
                             mux_kernel_t *out_kernel) {
  name_length = name_length_without_nul(name, name_length);
  const cpu_executable_kernel *entry = cpu_executable_find_kernel(
      (const cpu_executable *)executable, name, name_length);
  if (!entry) return mux_error_missing_kernel;

  cpu_kernel_object *object =
      kernel_new(device, name, name_length, entry->function, allocator_info);
  if (!object) return mux_error_out_of_memory;
  const struct mux_device_info_s *info = device->info;
  cpu_kernel *kernel = &object->kernel;
  kernel->executable = (cpu_executable *)executable;
  kernel->scratch_per_work_item = entry->scratch_per_work_item;
  kernel->merges_groups =
      (entry->flags & CPU_BINARY_KERNEL_MERGES_GROUPS) != 0;
  kernel->scalar_variant =
      (entry->flags & CPU_BINARY_KERNEL_SCALAR_VARIANT) != 0;
  kernel->sub_group_size = entry->sub_group_size;
  kernel->base.local_memory_size = entry->local_memory_size;
  bool required = entry->required_local_size[0] != 0;
  const uint32_t *preferred =
      required ? entry->required_local_size : entry->preferred_local_size;
  kernel->base.preferred_local_size_x =
      clamp_local_size(preferred[0], info->max_work_group_size_x);
  kernel->base.preferred_local_size_y =
      clamp_local_size(preferred[1], info->max_work_group_size_y);
  kernel->base.preferred_local_size_z =
      clamp_local_size(preferred[2], info->max_work_group_size_z);
  memcpy(object->required_local_size, entry->required_local_size,
         sizeof object->required_local_size);
  *out_kernel = &kernel->base;
  return mux_success;
}

mux_result_t cpuCreateBuiltInKernel(mux_device_t device, const char *name,
                                    uint64_t name_length,
                                    mux_allocator_info_t allocator_info,
                                    mux_kernel_t *out_kernel) {
  name_length = name_length_without_nul(name, name_length);
  cpu_work_group_fn function = cpu_builtin_kernel_lookup(name, name_length);
  if (!function) return mux_error_missing_kernel;

  cpu_kernel_object *object =
      kernel_new(device, name, name_length, function, allocator_info);
  if (!object) return mux_error_out_of_memory;
  cpu_kernel *kernel = &object->kernel;
  kernel->base.preferred_local_size_x = clamp_local_size(
      CPU_BUILTIN_PREFERRED_LOCAL_SIZE_X, device->info->max_work_group_size_x);
  kernel->base.preferred_local_size_y = 1;
  kernel->base.preferred_local_size_z = 1;
  *out_kernel = &kernel->base;
  return mux_success;
}

void cpu_kernel_required_local_size(const cpu_kernel *kernel,
                                    uint32_t out_size[3]) {
  const cpu_kernel_object *object = (const cpu_kernel_object *)kernel;
  memcpy(out_size, object->required_local_size,
         sizeof object->required_local_size);
}

static bool any_local_size(const cpu_kernel *kernel) {
  uint32_t required[3];
  cpu_kernel_required_local_size(kernel, required);
  return required[0] == 0;
}

mux_result_t muxCpuKernelSetEdges(mux_kernel_t kernel, mux_kernel_t edges) {
  cpu_kernel *whole = (cpu_kernel *)kernel, *any = (cpu_kernel *)edges;
  if (!whole || !any || any_local_size(whole) || !any_local_size(any)) {
    return mux_error_invalid_value;
  }
  cpu_kernel *none = NULL;
  atomic_compare_exchange_strong(&whole->edges, &none, any);
  return mux_success;
}

/* Sub-groups run along x, `sub_group_size` items (fewer at a row's end);
 * every row of a group has its own. */
static size_t sub_groups_in_row(const cpu_kernel *kernel, size_t items) {
  return (items + kernel->sub_group_size - 1) / kernel->sub_group_size;
}

mux_result_t cpuQuerySubGroupSizeForLocalSize(mux_kernel_t kernel,
                                              size_t local_size_x,
                                              size_t local_size_y,
                                              size_t local_size_z,
                                              size_t *out_sub_group_size) {
  (void)local_size_y;
  (void)local_size_z;
  const cpu_kernel *k = (const cpu_kernel *)kernel;
  *out_sub_group_size =
      local_size_x < k->sub_group_size ? local_size_x : k->sub_group_size;
  return mux_success;
}

/* A row of `count` full sub-groups, if the code runs that local size. */
mux_result_t cpuQueryLocalSizeForSubGroupCount(mux_kernel_t kernel,
                                               size_t sub_group_count,
                                               size_t *out_local_size_x,
                                               size_t *out_local_size_y,
                                               size_t *out_local_size_z) {
  const cpu_kernel *k = (const cpu_kernel *)kernel;
  uint32_t required[3];
  cpu_kernel_required_local_size(k, required);
  size_t x = 0;
  if (required[0]) {
    bool row = required[1] == 1 && required[2] == 1 &&
               required[0] % k->sub_group_size == 0;
    if (row && sub_groups_in_row(k, required[0]) == sub_group_count) {
      x = required[0];
    }
  } else if (sub_group_count <= CPU_MAX_WORK_GROUP_SIZE / k->sub_group_size) {
    x = sub_group_count * k->sub_group_size;
  }
  *out_local_size_x = x;
  *out_local_size_y = x ? 1 : 0;
  *out_local_size_z = x ? 1 : 0;
  return mux_success;
}

/* Whole-function vectorization is not done by this target (the compiler
 * vectorizes the work-item loop instead), so the query is unsupported. */
mux_result_t cpuQueryWFVInfoForLocalSize(
    mux_kernel_t kernel, size_t local_size_x, size_t local_size_y,
    size_t local_size_z, mux_wfv_status_e *out_wfv_status,
    size_t *out_work_width_x, size_t *out_work_width_y,
    size_t *out_work_width_z) {
  (void)kernel;
  (void)local_size_x;
  (void)local_size_y;
  (void)local_size_z;
  (void)out_wfv_status;
  (void)out_work_width_x;
  (void)out_work_width_y;
  (void)out_work_width_z;
  return mux_error_feature_unsupported;
}

void cpuDestroyKernel(mux_device_t device, mux_kernel_t kernel,
                      mux_allocator_info_t allocator_info) {
  (void)device;
  kernel->id = 0;
  cpu_free(allocator_info, (cpu_kernel_object *)kernel);
}

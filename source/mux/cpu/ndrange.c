/* clmux CPU target: NDRange argument packing and execution.
 *
 * Recording (cpu_ndrange_prepare) does all the work that can fail: it
 * checks the sizes, packs the descriptors into the argument block of
 * work_group_abi.h and allocates what the launch will need, so that
 * cpu_ndrange_run allocates nothing.
 *
 * One allocation holds, in this order, each part CPU_ARG_BLOCK_ALIGN'd:
 *   cpu_ndrange_extra   the launch's own bookkeeping (below)
 *   argument block      ndrange->args points here
 *   per-slot blocks     one copy of the block per pool slot, only when a
 *                       shared-local-buffer argument exists
 *   per-slot scratch    scratch_per_work_item * work-group size per slot,
 *                       only when the kernel asks for scratch
 *   descriptors         the kept copy (ndrange->descriptors), for updates
 *                       and copies of the command
 * A shared local buffer's pointer differs per worker (it points into that
 * worker's local memory), so the block itself holds NULL there; each call
 * of the pool's range function copies the block into its slot's copy and
 * writes the pointers in. Slots never run two ranges at once (the pool
 * serves one loop at a time), so the copies need no locking. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"

typedef struct cpu_ndrange_extra {
  unsigned slots;         /* pool slots the per-slot parts were made for */
  bool has_local_buffers; /* per-slot argument blocks exist */
  size_t block_stride;    /* bytes from one argument block to the next */
  uint8_t *slot_args;     /* slots * block_stride, or NULL */
  size_t scratch_stride;  /* bytes of scratch per slot */
  uint8_t *scratch;       /* slots * scratch_stride, or NULL */
  size_t allocated;       /* bytes of the whole allocation */
} cpu_ndrange_extra;

#define CPU_EXTRA_SIZE                                     \
  ((sizeof(cpu_ndrange_extra) + CPU_ARG_BLOCK_ALIGN - 1) & \
   ~(size_t)(CPU_ARG_BLOCK_ALIGN - 1))

/* No single plain-old-data argument may be larger (OpenCL's limit on all
 * arguments together is far smaller); keeps the size sums from wrapping. */
#define CPU_MAX_ARG_SIZE ((size_t)1 << 24)

static cpu_ndrange_extra *ndrange_extra(const cpu_ndrange *ndrange) {
  return (cpu_ndrange_extra *)(ndrange->args - CPU_EXTRA_SIZE);
}

static size_t align_up(size_t value, size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

static cpu_device *kernel_device(const cpu_kernel *kernel) {
  return (cpu_device *)kernel->base.device;
}

/* ---- Descriptors ---------------------------------------------------------*/

/* Bytes the descriptor occupies in the argument block. */
static size_t descriptor_arg_size(const mux_descriptor_info_t *descriptor) {
  switch (descriptor->type) {
    case mux_descriptor_info_type_sampler:
      return sizeof(uint64_t);
    case mux_descriptor_info_type_plain_old_data:
      return descriptor->plain_old_data_descriptor.length;
    case mux_descriptor_info_type_plain_old_embedded_data:
      return descriptor->plain_old_embedded_data_descriptor.length;
    default:
      return sizeof(void *);
  }
}

/* Whether the descriptor can be packed; packing itself cannot fail. */
static mux_result_t descriptor_check(const mux_descriptor_info_t *descriptor,
                                     const cpu_kernel *kernel) {
  switch (descriptor->type) {
    case mux_descriptor_info_type_buffer: {
      const cpu_buffer *buffer =
          (const cpu_buffer *)descriptor->buffer_descriptor.buffer;
      if (!buffer || !buffer->data ||
          descriptor->buffer_descriptor.offset > buffer->size) {
        return mux_error_invalid_value;
      }
      return mux_success;
    }
    case mux_descriptor_info_type_image:
      return descriptor->image_descriptor.image ? mux_success
                                                : mux_error_invalid_value;
    case mux_descriptor_info_type_plain_old_data: {
      size_t length = descriptor->plain_old_data_descriptor.length;
      return descriptor->plain_old_data_descriptor.data && length > 0 &&
                     length <= CPU_MAX_ARG_SIZE
                 ? mux_success
                 : mux_error_invalid_value;
    }
    case mux_descriptor_info_type_plain_old_embedded_data: {
      size_t length = descriptor->plain_old_embedded_data_descriptor.length;
      return length > 0 &&
                     length <= sizeof descriptor
                                   ->plain_old_embedded_data_descriptor.data
                 ? mux_success
                 : mux_error_invalid_value;
    }
    case mux_descriptor_info_type_shared_local_buffer: {
      size_t size = descriptor->shared_local_buffer_descriptor.size;
      return size > 0 && size <= CPU_MAX_ARG_SIZE * 64
                 ? mux_success
                 : mux_error_invalid_value;
    }
    case mux_descriptor_info_type_custom_buffer:
      return kernel_device(kernel)->base.info->custom_buffer_capabilities
                 ? mux_success
                 : mux_error_invalid_value;
    case mux_descriptor_info_type_sampler:
    case mux_descriptor_info_type_null_buffer:
      return mux_success;
    default:
      return mux_error_invalid_value;
  }
}

static uint32_t sampler_bits(mux_sampler_t sampler) {
  uint32_t bits = sampler.normalize_coords ? cpu_sampler_normalized_coords : 0;
  switch (sampler.address_mode) {
    case mux_address_mode_clamp_edge:
      bits |= cpu_sampler_address_clamp_to_edge;
      break;
    case mux_address_mode_clamp:
      bits |= cpu_sampler_address_clamp;
      break;
    case mux_address_mode_repeat:
      bits |= cpu_sampler_address_repeat;
      break;
    case mux_address_mode_repeat_mirror:
      bits |= cpu_sampler_address_mirrored_repeat;
      break;
    default:
      bits |= cpu_sampler_address_none;
      break;
  }
  bits |= sampler.filter_mode == mux_filter_mode_linear
              ? cpu_sampler_filter_linear
              : cpu_sampler_filter_nearest;
  return bits;
}

/* Writes a checked descriptor's value at `slot`. Shared local buffers get
 * NULL here; the launch writes each worker's pointer (patch_local_buffers). */
static void descriptor_pack(uint8_t *slot,
                            const mux_descriptor_info_t *descriptor) {
  void *pointer = NULL;
  switch (descriptor->type) {
    case mux_descriptor_info_type_buffer: {
      const cpu_buffer *buffer =
          (const cpu_buffer *)descriptor->buffer_descriptor.buffer;
      pointer = buffer->data + descriptor->buffer_descriptor.offset;
      break;
    }
    case mux_descriptor_info_type_image:
      pointer = &((cpu_image *)descriptor->image_descriptor.image)->view;
      break;
    case mux_descriptor_info_type_custom_buffer:
      pointer = descriptor->custom_buffer_descriptor.data;
      break;
    case mux_descriptor_info_type_sampler: {
      uint64_t bits = sampler_bits(descriptor->sampler_descriptor.sampler);
      memcpy(slot, &bits, sizeof bits);
      return;
    }
    case mux_descriptor_info_type_plain_old_data:
      memcpy(slot, descriptor->plain_old_data_descriptor.data,
             descriptor->plain_old_data_descriptor.length);
      return;
    case mux_descriptor_info_type_plain_old_embedded_data:
      memcpy(slot, descriptor->plain_old_embedded_data_descriptor.data,
             descriptor->plain_old_embedded_data_descriptor.length);
      return;
    default: /* null buffer, shared local buffer */
      break;
  }
  memcpy(slot, &pointer, sizeof pointer);
}

/* ---- Layout ----------------------------------------------------------------
 * Walks the descriptors in order as the ABI lays them out: each argument at
 * the next offset aligned to cpu_arg_alignment(its size); each shared local
 * buffer after the kernel's static local memory and the buffers before it,
 * each CPU_LOCAL_ALIGN'd. */

typedef struct cpu_arg_cursor {
  size_t arg_end;   /* end of the last argument in the block */
  size_t local_end; /* end of the last local buffer in local memory */
} cpu_arg_cursor;

/* The static __local data of the code that runs, both kernels' where an
 * NDRange's edges run code of their own, comes first. */
static cpu_arg_cursor cursor_start(const cpu_ndrange *ndrange) {
  uint64_t size = ndrange->kernel->base.local_memory_size;
  if (ndrange->edges && ndrange->edges->base.local_memory_size > size) {
    size = ndrange->edges->base.local_memory_size;
  }
  cpu_arg_cursor cursor = {0, align_up(size, CPU_LOCAL_ALIGN)};
  return cursor;
}

/* Places the next argument; returns its offset in the block and, for a
 * shared local buffer, its offset in local memory through `local_offset`. */
static size_t cursor_place(cpu_arg_cursor *cursor,
                           const mux_descriptor_info_t *descriptor,
                           size_t *local_offset) {
  size_t size = descriptor_arg_size(descriptor);
  size_t offset = align_up(cursor->arg_end, cpu_arg_alignment(size));
  cursor->arg_end = offset + size;
  if (descriptor->type == mux_descriptor_info_type_shared_local_buffer) {
    *local_offset = cursor->local_end;
    cursor->local_end += align_up(
        descriptor->shared_local_buffer_descriptor.size, CPU_LOCAL_ALIGN);
  }
  return offset;
}

/* Offset of argument `index` in the block. */
static size_t argument_offset(const cpu_ndrange *ndrange, uint64_t index) {
  cpu_arg_cursor cursor = cursor_start(ndrange);
  size_t local_offset = 0;
  size_t offset = 0;
  for (uint64_t i = 0; i <= index; i++) {
    offset = cursor_place(&cursor, &ndrange->descriptors[i], &local_offset);
  }
  return offset;
}

/* Writes this worker's local memory addresses into its argument block. */
static void patch_local_buffers(const cpu_ndrange *ndrange, uint8_t *block,
                                uint8_t *local_memory) {
  cpu_arg_cursor cursor = cursor_start(ndrange);
  for (uint64_t i = 0; i < ndrange->descriptors_length; i++) {
    size_t local_offset = 0;
    size_t offset =
        cursor_place(&cursor, &ndrange->descriptors[i], &local_offset);
    if (ndrange->descriptors[i].type ==
        mux_descriptor_info_type_shared_local_buffer) {
      void *pointer = local_memory + local_offset;
      memcpy(block + offset, &pointer, sizeof pointer);
    }
  }
}

/* Plain-old-data descriptors in the kept copy point at the block's bytes:
 * the caller's data may be gone once the command is recorded. */
static void descriptor_keep(cpu_ndrange *ndrange, uint64_t index,
                            const mux_descriptor_info_t *descriptor,
                            size_t offset) {
  ndrange->descriptors[index] = *descriptor;
  if (descriptor->type == mux_descriptor_info_type_plain_old_data) {
    ndrange->descriptors[index].plain_old_data_descriptor.data =
        ndrange->args + offset;
  }
}

/* ---- Sizes ----------------------------------------------------------------*/

static mux_result_t sizes_check(cpu_ndrange *ndrange, const cpu_kernel *kernel,
                                const mux_ndrange_options_t *options) {
  if (options->length < 1 || options->length > 3 || !options->global_size ||
      !options->global_offset ||
      (options->descriptors_length != 0) != (options->descriptors != NULL)) {
    return mux_error_invalid_value;
  }
  const struct mux_device_info_s *info = kernel_device(kernel)->base.info;
  const uint32_t max_local[3] = {info->max_work_group_size_x,
                                 info->max_work_group_size_y,
                                 info->max_work_group_size_z};
  uint32_t required[3];
  cpu_kernel_required_local_size(kernel, required);
  uint64_t work_group_size = 1;
  ndrange->work_dim = (uint32_t)options->length;
  ndrange->uniform = true;
  for (unsigned d = 0; d < 3; d++) {
    bool used = d < options->length;
    uint64_t global = used ? options->global_size[d] : 1;
    uint64_t offset = used ? options->global_offset[d] : 0;
    uint64_t local = used ? options->local_size[d] : 1;
    bool whole = local != 0 && global % local == 0;
    /* Code for one local size runs only NDRanges of that size, uniform
     * ones unless it has code for the edges. */
    if (local == 0 || local > max_local[d] || global > UINT64_MAX - offset ||
        (required[0] != 0 &&
         (local != required[d] || (!whole && !ndrange->edges)))) {
      return mux_error_invalid_value;
    }
    work_group_size *= local;
    ndrange->uniform &= whole;
    ndrange->global_size[d] = global;
    ndrange->global_offset[d] = offset;
    ndrange->local_size[d] = (uint32_t)local;
    ndrange->num_groups[d] = global / local + !whole;
  }
  if (ndrange->uniform) ndrange->edges = NULL;
  uint64_t groups = ndrange->num_groups[0];
  for (unsigned d = 1; d < 3; d++) {
    uint64_t count = ndrange->num_groups[d];
    if (count != 0 && groups > UINT64_MAX / count) {
      return mux_error_invalid_value; /* the group counter would wrap */
    }
    groups *= count;
  }
  return work_group_size <= info->max_concurrent_work_items
             ? mux_success
             : mux_error_invalid_value;
}

static uint64_t items_per_group(const cpu_ndrange *ndrange) {
  return (uint64_t)ndrange->local_size[0] * ndrange->local_size[1] *
         ndrange->local_size[2];
}

/* ---- Recording ------------------------------------------------------------*/

mux_result_t cpu_ndrange_prepare(cpu_ndrange *ndrange, cpu_kernel *kernel,
                                 cpu_device *device,
                                 const mux_ndrange_options_t *options,
                                 mux_allocator_info_t allocator,
                                 cpu_spares *spares) {
  cpu_ndrange prepared;
  memset(&prepared, 0, sizeof prepared);
  memset(ndrange, 0, sizeof *ndrange);
  prepared.kernel = kernel;
  prepared.edges = atomic_load(&kernel->edges);
  mux_result_t result = sizes_check(&prepared, kernel, options);
  if (result != mux_success) return result;

  /* Check every descriptor and lay the arguments out. */
  cpu_arg_cursor cursor = cursor_start(&prepared);
  bool has_local_buffers = false;
  for (uint64_t i = 0; i < options->descriptors_length; i++) {
    const mux_descriptor_info_t *descriptor = &options->descriptors[i];
    result = descriptor_check(descriptor, kernel);
    if (result != mux_success) return result;
    size_t local_offset = 0;
    cursor_place(&cursor, descriptor, &local_offset);
    if (cursor.arg_end > SIZE_MAX / 4 || cursor.local_end > SIZE_MAX / 4) {
      return mux_error_invalid_value;
    }
    has_local_buffers |=
        descriptor->type == mux_descriptor_info_type_shared_local_buffer;
  }
  if (cursor.local_end > cpu_pool_local_memory_size(device->pool)) {
    return mux_error_out_of_memory;
  }

  /* Size the one allocation described at the top of this file. */
  unsigned slots = cpu_pool_slots(device->pool);
  size_t block_stride =
      align_up(cursor.arg_end ? cursor.arg_end : 1, CPU_ARG_BLOCK_ALIGN);
  uint64_t per_item = kernel->scratch_per_work_item;
  if (prepared.edges && prepared.edges->scratch_per_work_item > per_item) {
    per_item = prepared.edges->scratch_per_work_item;
  }
  uint64_t scratch = per_item * items_per_group(&prepared);
  if (scratch > SIZE_MAX / 4 / slots) return mux_error_out_of_memory;
  size_t scratch_stride = align_up((size_t)scratch, CPU_LOCAL_ALIGN);
  size_t slot_args_size = has_local_buffers ? slots * block_stride : 0;
  size_t total = CPU_EXTRA_SIZE + block_stride + slot_args_size;
  if (slots * scratch_stride > SIZE_MAX - total) return mux_error_out_of_memory;
  total += slots * scratch_stride;
  /* One allocation for everything: launches are microseconds. */
  size_t descriptors_at = align_up(total, _Alignof(mux_descriptor_info_t));
  if (options->descriptors_length >
      (SIZE_MAX - descriptors_at) / sizeof(mux_descriptor_info_t)) {
    return mux_error_out_of_memory;
  }
  total = descriptors_at +
          options->descriptors_length * sizeof(mux_descriptor_info_t);

  /* Only the bookkeeping and the block start zeroed (padding included);
   * the per-slot parts are written before they are read. */
  size_t allocated = 0;
  uint8_t *memory = cpu_spares_take(spares, allocator, total,
                                    CPU_ARG_BLOCK_ALIGN, &allocated);
  if (!memory) return mux_error_out_of_memory;
  memset(memory, 0, CPU_EXTRA_SIZE + block_stride);
  prepared.args = memory + CPU_EXTRA_SIZE;
  prepared.args_size = cursor.arg_end;
  prepared.local_memory_size = cursor.local_end;
  cpu_ndrange_extra *extra = ndrange_extra(&prepared);
  extra->slots = slots;
  extra->has_local_buffers = has_local_buffers;
  extra->block_stride = block_stride;
  extra->slot_args = has_local_buffers ? prepared.args + block_stride : NULL;
  extra->scratch_stride = scratch_stride;
  extra->allocated = allocated;
  extra->scratch =
      scratch ? prepared.args + block_stride + slot_args_size : NULL;

  prepared.descriptors_length = options->descriptors_length;
  if (prepared.descriptors_length) {
    prepared.descriptors = (mux_descriptor_info_t *)(memory + descriptors_at);
  }
  cursor = cursor_start(&prepared);
  for (uint64_t i = 0; i < prepared.descriptors_length; i++) {
    size_t local_offset = 0;
    size_t offset =
        cursor_place(&cursor, &options->descriptors[i], &local_offset);
    descriptor_pack(prepared.args + offset, &options->descriptors[i]);
    descriptor_keep(&prepared, i, &options->descriptors[i], offset);
  }
  *ndrange = prepared;
  return mux_success;
}

/* A descriptor may only be replaced by one that packs the same way:
 * buffer and null buffer swap freely; data keeps its length. */
static bool descriptor_compatible(const mux_descriptor_info_t *old,
                                  const mux_descriptor_info_t *new) {
  bool old_buffer = old->type == mux_descriptor_info_type_buffer ||
                    old->type == mux_descriptor_info_type_null_buffer;
  bool new_buffer = new->type == mux_descriptor_info_type_buffer ||
                    new->type == mux_descriptor_info_type_null_buffer;
  if (old_buffer || new_buffer) return old_buffer && new_buffer;
  return old->type == new->type &&descriptor_arg_size(old) ==
         descriptor_arg_size(new);
}

mux_result_t cpu_ndrange_update(cpu_ndrange *ndrange, uint64_t num_args,
                                const uint64_t *arg_indices,
                                const mux_descriptor_info_t *descriptors,
                                mux_allocator_info_t allocator) {
  (void)allocator;
  if (num_args && (!arg_indices || !descriptors)) {
    return mux_error_invalid_value;
  }
  /* Check everything first: a failed update changes nothing. */
  size_t local_memory_size = ndrange->local_memory_size;
  for (uint64_t i = 0; i < num_args; i++) {
    uint64_t index = arg_indices[i];
    if (index >= ndrange->descriptors_length ||
        !descriptor_compatible(&ndrange->descriptors[index], &descriptors[i])) {
      return mux_error_invalid_value;
    }
    mux_result_t result = descriptor_check(&descriptors[i], ndrange->kernel);
    if (result != mux_success) return result;
    if (descriptors[i].type == mux_descriptor_info_type_shared_local_buffer) {
      local_memory_size -= align_up(
          ndrange->descriptors[index].shared_local_buffer_descriptor.size,
          CPU_LOCAL_ALIGN);
      local_memory_size += align_up(
          descriptors[i].shared_local_buffer_descriptor.size, CPU_LOCAL_ALIGN);
    }
  }
  if (local_memory_size >
      cpu_pool_local_memory_size(kernel_device(ndrange->kernel)->pool)) {
    return mux_error_out_of_memory;
  }
  for (uint64_t i = 0; i < num_args; i++) {
    size_t offset = argument_offset(ndrange, arg_indices[i]);
    descriptor_pack(ndrange->args + offset, &descriptors[i]);
    descriptor_keep(ndrange, arg_indices[i], &descriptors[i], offset);
  }
  ndrange->local_memory_size = local_memory_size;
  return mux_success;
}

/* A copy is the same NDRange recorded again from the kept descriptors, so
 * it gets its own block, per-slot copies and scratch. */
mux_result_t cpu_ndrange_copy(cpu_ndrange *dst, const cpu_ndrange *src,
                              cpu_device *device,
                              mux_allocator_info_t allocator,
                              cpu_spares *spares) {
  size_t global_size[3];
  size_t global_offset[3];
  mux_ndrange_options_t options;
  memset(&options, 0, sizeof options);
  for (unsigned d = 0; d < 3; d++) {
    global_size[d] = src->global_size[d];
    global_offset[d] = src->global_offset[d];
    options.local_size[d] = src->local_size[d];
  }
  options.descriptors = src->descriptors;
  options.descriptors_length = src->descriptors_length;
  options.global_size = global_size;
  options.global_offset = global_offset;
  options.length = src->work_dim;
  return cpu_ndrange_prepare(dst, src->kernel, device, &options, allocator,
                             spares);
}

void cpu_ndrange_release(cpu_ndrange *ndrange, mux_allocator_info_t allocator,
                         cpu_spares *spares) {
  if (ndrange->args) {
    cpu_spares_give(spares, allocator, ndrange->args - CPU_EXTRA_SIZE,
                    ndrange_extra(ndrange)->allocated);
  }
  memset(ndrange, 0, sizeof *ndrange);
}

/* ---- Launch ---------------------------------------------------------------*/

/* The items of group `group` in dimension d: the enqueued local size, or
 * fewer at a non-uniform NDRange's end. */
static uint32_t items_in_group(const cpu_ndrange *ndrange, unsigned d,
                               uint64_t group) {
  uint64_t left = ndrange->global_size[d] - group * ndrange->local_size[d];
  return left < ndrange->local_size[d] ? (uint32_t)left
                                       : ndrange->local_size[d];
}

/* Groups begin..end of a uniform NDRange, one call each. */
static void run_groups(const cpu_ndrange *ndrange, const uint8_t *args,
                       cpu_work_group *wg, uint64_t begin, uint64_t end) {
  /* Linear group index, x fastest; divide once, then count up. */
  uint64_t x = begin % wg->num_groups[0];
  uint64_t rest = begin / wg->num_groups[0];
  uint64_t y = rest % wg->num_groups[1];
  uint64_t z = rest / wg->num_groups[1];
  cpu_work_group_fn function = ndrange->kernel->function;
  /* printf records of a group are written out as soon as it returns; a
   * kernel without printf leaves none, which costs one load to see. */
  cpu_printf_buffer *printf_buffer = cpu_printf_thread_buffer();
  for (uint64_t group = begin; group < end; group++) {
    wg->group_id[0] = x;
    wg->group_id[1] = y;
    wg->group_id[2] = z;
    function(args, wg);
    if (printf_buffer->used) cpu_printf_flush(printf_buffer);
    if (++x == wg->num_groups[0]) {
      x = 0;
      if (++y == wg->num_groups[1]) {
        y = 0;
        z++;
      }
    }
  }
}

/* Groups begin..end of a kernel that does not observe how work-groups
 * are cut (CPU_BINARY_KERNEL_MERGES_GROUPS): each row of consecutive
 * groups in x runs as one call, as one group spanning the row from its
 * first global x id, with its first group's id. Fewer calls, and groups
 * narrower than a vector still run the vectorized work-item loop. */
static void run_group_rows(const cpu_ndrange *ndrange, const uint8_t *args,
                           cpu_work_group *wg, uint64_t begin, uint64_t end) {
  uint64_t row = ndrange->num_groups[0];
  uint64_t width = ndrange->local_size[0];
  uint64_t longest = UINT32_MAX / width; /* local_size[0] is 32 bits */
  for (uint64_t group = begin; group < end;) {
    uint64_t x = group % row, rest = group / row;
    uint64_t groups = row - x;
    if (groups > end - group) groups = end - group;
    if (groups > longest) groups = longest;
    wg->group_id[1] = rest % ndrange->num_groups[1];
    wg->group_id[2] = rest / ndrange->num_groups[1];
    wg->group_id[0] = x;
    wg->global_offset[0] = ndrange->global_offset[0] + x * width;
    wg->local_size[0] = (uint32_t)(groups * width);
    ndrange->kernel->function(args, wg);
    group += groups;
  }
}

/* Groups begin..end of a non-uniform NDRange, one call each: the groups at
 * its edges, smaller, run the edge code if there is some. Code that merges
 * rows takes its group's first global x id as the row's (one group). */
static void run_groups_non_uniform(const cpu_ndrange *ndrange,
                                   const uint8_t *args, cpu_work_group *wg,
                                   uint64_t begin, uint64_t end) {
  const cpu_kernel *whole = ndrange->kernel;
  const cpu_kernel *edges = ndrange->edges ? ndrange->edges : whole;
  uint64_t offset_x = ndrange->global_offset[0];
  cpu_printf_buffer *printf_buffer = cpu_printf_thread_buffer();
  for (uint64_t group = begin; group < end; group++) {
    uint64_t rest = group / ndrange->num_groups[0];
    wg->group_id[0] = group % ndrange->num_groups[0];
    wg->group_id[1] = rest % ndrange->num_groups[1];
    wg->group_id[2] = rest / ndrange->num_groups[1];
    bool edge = false;
    for (unsigned d = 0; d < 3; d++) {
      wg->local_size[d] = items_in_group(ndrange, d, wg->group_id[d]);
      edge |= wg->local_size[d] != ndrange->local_size[d];
    }
    const cpu_kernel *kernel = edge ? edges : whole;
    wg->global_offset[0] =
        kernel->merges_groups
            ? offset_x + wg->group_id[0] * ndrange->local_size[0]
            : offset_x;
    kernel->function(args, wg);
    if (printf_buffer->used) cpu_printf_flush(printf_buffer);
  }
}

/* Work-items a probe's call of merged groups has at least: a vector
 * variant gets whole vectors, as outside probes. */
#define PROBE_ITEMS 256u

/* Groups from `begin` on of a uniform NDRange while the kernel's variants
 * are measured (kernel_variant.c): calls alternate between the two, each
 * timed; merged rows are cut into pieces of PROBE_ITEMS items or so, so
 * that the calls compare. A thread's first call of each variant of a
 * kernel is not counted: it took 200 µs where the next took 1 (the code's
 * first run). Returns the first group not run (`end`, unless the probe
 * ended). */
static uint64_t run_probe(const cpu_ndrange *ndrange, const uint8_t *args,
                          cpu_work_group *wg, uint64_t begin, uint64_t end) {
  cpu_kernel *kernel = ndrange->kernel;
  uint64_t row = ndrange->num_groups[0];
  uint64_t width = ndrange->local_size[0];
  uint64_t piece =
      kernel->merges_groups && width < PROBE_ITEMS ? PROBE_ITEMS / width : 1;
  uint64_t pieces_in_row = (row + piece - 1) / piece;
  uint64_t group_items =
      width * ndrange->local_size[1] * ndrange->local_size[2];
  cpu_printf_buffer *printf_buffer = cpu_printf_thread_buffer();
  static _Thread_local const cpu_kernel *warm_kernel;
  static _Thread_local bool warm[2];
  if (warm_kernel != kernel) {
    warm_kernel = kernel;
    warm[0] = warm[1] = false;
  }
  uint64_t group = begin;
  while (group < end &&
         atomic_load_explicit(&kernel->variant.probing, memory_order_relaxed)) {
    uint64_t x = group % row, rest = group / row;
    uint64_t groups = piece - x % piece;
    if (groups > row - x) groups = row - x;
    if (groups > end - group) groups = end - group;
    wg->group_id[0] = x;
    wg->group_id[1] = rest % ndrange->num_groups[1];
    wg->group_id[2] = rest / ndrange->num_groups[1];
    if (kernel->merges_groups) {
      wg->global_offset[0] = ndrange->global_offset[0] + x * width;
      wg->local_size[0] = (uint32_t)(groups * width);
    }
    wg->variant = (uint32_t)((rest * pieces_in_row + x / piece) & 1);
    uint64_t start = cpu_now_ns();
    kernel->function(args, wg);
    uint64_t ns = cpu_now_ns() - start;
    if (printf_buffer->used) cpu_printf_flush(printf_buffer);
    if (warm[wg->variant]) {
      cpu_variant_sample(&kernel->variant, kernel->name, wg->variant, ns,
                         groups * group_items);
    }
    warm[wg->variant] = true;
    group += groups;
  }
  return group;
}

static void run_work_groups(void *context, uint64_t begin, uint64_t end,
                            unsigned worker, uint8_t *local_memory) {
  const cpu_ndrange *ndrange = context;
  const cpu_ndrange_extra *extra = ndrange_extra(ndrange);
  cpu_work_group wg;
  for (unsigned d = 0; d < 3; d++) {
    wg.num_groups[d] = ndrange->num_groups[d];
    wg.global_offset[d] = ndrange->global_offset[d];
    wg.global_size[d] = ndrange->global_size[d];
    wg.local_size[d] = ndrange->local_size[d];
    wg.enqueued_local_size[d] = ndrange->local_size[d];
  }
  wg.work_dim = ndrange->work_dim;
  wg.local_memory = local_memory;
  wg.scratch =
      extra->scratch ? extra->scratch + worker * extra->scratch_stride : NULL;
  wg.local_memory_size = ndrange->local_memory_size;
  wg.scratch_size = extra->scratch ? extra->scratch_stride : 0;
  wg.scratch_block = extra->scratch;
  wg.scratch_block_size =
      extra->scratch ? extra->scratch_stride * extra->slots : 0;
  wg.stack_end = cpu_thread_stack_end();
  const uint8_t *args = ndrange->args;
  if (extra->has_local_buffers) {
    uint8_t *block = extra->slot_args + worker * extra->block_stride;
    memcpy(block, ndrange->args, ndrange->args_size);
    patch_local_buffers(ndrange, block, local_memory);
    args = block;
  }

  /* Kernels run in the environment OpenCL promises (denormals kept), and
   * the thread gets its own back when the chunk is done. */
  uint32_t fp_env = cpu_fp_env_enter(false);
  cpu_kernel *kernel = ndrange->kernel;
  if (kernel->scalar_variant && ndrange->uniform &&
      atomic_load_explicit(&kernel->variant.probing, memory_order_relaxed)) {
    begin = run_probe(ndrange, args, &wg, begin, end);
  }
  wg.variant =
      kernel->scalar_variant
          ? atomic_load_explicit(&kernel->variant.current, memory_order_relaxed)
          : 0;
  if (begin == end) {
    /* the probe ran them all */
  } else if (!ndrange->uniform) {
    run_groups_non_uniform(ndrange, args, &wg, begin, end);
  } else if (ndrange->kernel->merges_groups) {
    run_group_rows(ndrange, args, &wg, begin, end);
  } else {
    run_groups(ndrange, args, &wg, begin, end);
  }
  cpu_fp_env_leave(fp_env);
}

/* One line on stderr: the kernel, the signal, the address and, when it
 * lies within 64 KiB of a buffer argument (its padding and the guard page
 * after it, device_heap.c), that argument and the offset from the
 * buffer's start. */
static void report_fault(const cpu_ndrange *ndrange, const cpu_fault *fault) {
  const char *what = fault->signal == SIGSEGV  ? "SIGSEGV"
                     : fault->signal == SIGBUS ? "SIGBUS"
                     : fault->signal == SIGFPE ? "SIGFPE"
                                               : "SIGILL";
  char near[160] = "";
  const uint8_t *address = fault->address;
  const uint64_t window = 64 << 10;
  for (uint64_t i = 0; i < ndrange->descriptors_length; i++) {
    const mux_descriptor_info_t *d = &ndrange->descriptors[i];
    if (d->type != mux_descriptor_info_type_buffer) continue;
    const cpu_buffer *buffer = (const cpu_buffer *)d->buffer_descriptor.buffer;
    if (!buffer || !buffer->data) continue;
    const uint8_t *start = buffer->data + d->buffer_descriptor.offset;
    uint64_t size = buffer->size - d->buffer_descriptor.offset;
    if (address + window < start || address >= start + size + window) continue;
    snprintf(near, sizeof near,
             ", %s argument %" PRIu64 " (a buffer of %" PRIu64
             " bytes) at offset %" PRId64,
             address < start + size && address >= start ? "in" : "near", i,
             size, (int64_t)(address - start));
    break;
  }
  char where[40] = "an address the CPU does not report";
  if (fault->address)
    snprintf(where, sizeof where, "address %p", fault->address);
  fprintf(stderr,
          "clmux: kernel %s: %s at %s%s; its NDRange was abandoned and its "
          "event fails\n",
          ndrange->kernel->name, what, where, near);
}

/* An NDRange expected to take less than this, all threads' time summed,
 * runs on the calling thread: handing it to the workers (waking them,
 * passing cache lines between cores) costs a microsecond or two. The
 * expectation is the kernel's last cost per group; should it be wrong,
 * the caller hands the rest over once it has run this long. */
#define CPU_ALONE_NS 4000u

static uint64_t alone_budget(const cpu_kernel *kernel, uint64_t groups) {
  uint64_t cost_ps =
      atomic_load_explicit(&kernel->group_cost_ps, memory_order_relaxed);
  if (cost_ps == 0 || groups > UINT64_MAX / cost_ps) return 0;
  return cost_ps * groups / 1000 < CPU_ALONE_NS ? CPU_ALONE_NS : 0;
}

mux_result_t cpu_ndrange_run(cpu_device *device, const cpu_ndrange *ndrange) {
  uint64_t total =
      ndrange->num_groups[0] * ndrange->num_groups[1] * ndrange->num_groups[2];
  if (total == 0) return mux_success;
  unsigned slots = cpu_pool_slots(device->pool);
  /* The per-slot parts were sized for the pool at recording time. */
  if (slots > ndrange_extra(ndrange)->slots) return mux_error_internal;
  /* The smallest chunk a worker takes (the pool's chunks shrink towards
   * it as the groups run out): small enough to even out uneven groups at
   * the end, at least one group. */
  uint64_t workers = cpu_pool_workers(device->pool);
  uint64_t chunk = total / ((workers ? workers : 1) * 32);
  if (chunk == 0) chunk = 1;
  cpu_kernel *kernel = ndrange->kernel;
  if (kernel->scalar_variant) cpu_variant_launch(&kernel->variant);
  uint64_t busy_ns = 0;
  cpu_fault fault;
  if (!cpu_pool_parallel_for(device->pool, total, chunk,
                             alone_budget(kernel, total), run_work_groups,
                             (void *)ndrange, kernel->name, &busy_ns, &fault)) {
    report_fault(ndrange, &fault);
    return mux_error_failure;
  }
  if (chunk < total && busy_ns) {
    uint64_t cost_ps = busy_ns < UINT64_MAX / 1000 ? busy_ns * 1000 / total
                                                   : UINT64_MAX / total;
    atomic_store_explicit(&kernel->group_cost_ps, cost_ps ? cost_ps : 1,
                          memory_order_relaxed);
  }
  return mux_success;
}

/* clmux CPU target: the built-in kernels, written in C against the
 * work-group ABI (work_group_abi.h): one call runs a whole work-group.
 * Arguments arrive packed as the ABI says; every kernel here takes only
 * pointers and 4-byte values, so argument i of a pointer list is at 8 * i.
 *
 * Each work-item's global id in a dimension is
 *   global_offset + group_id * enqueued_local_size + local_id
 * (local_size is smaller in a non-uniform NDRange's last groups),
 * and the kernels that index by "linear global id" use
 *   (gz - offz) * gx * gy + (gy - offy) * gx + (gx - offx)
 * with gx, gy the global sizes, as an OpenCL C kernel would compute it. */
#include <string.h>

#include "cpu.h"

/* The same kernels, in the specification's declaration syntax. */
const char cpu_builtin_kernel_declarations[] =
    "copy_buffer(global const uchar* src, global uchar* dst);"
    "fill_buffer(global uint* dst, uint value);"
    "vector_add(global const float* a, global const float* b, global float* c);"
    "record_ids(global uint* ids, global uint* counts);"
    "local_reduce(global const int* in, global int* out, local int* scratch);"
    "empty()";

/* record_ids writes this many uints per work-item: global id x, y, z,
 * local id x, y, z, group id x, y, z, work_dim. */
#define CPU_RECORD_IDS_FIELDS 10u

static void *arg_pointer(const uint8_t *args, size_t index) {
  void *pointer;
  memcpy(&pointer, args + 8 * index, sizeof pointer);
  return pointer;
}

static uint32_t arg_uint(const uint8_t *args, size_t offset) {
  uint32_t value;
  memcpy(&value, args + offset, sizeof value);
  return value;
}

/* Global id in dimension d of the group's first work-item. */
static uint64_t group_base(const cpu_work_group *wg, unsigned d) {
  return wg->global_offset[d] + wg->group_id[d] * wg->enqueued_local_size[d];
}

/* The work-items that differ only in y and z all touch the same x range
 * in the one-index kernels below, so one pass per (y, z) row repeats it. */
static uint64_t rows(const cpu_work_group *wg) {
  return (uint64_t)wg->local_size[1] * wg->local_size[2];
}

/* copy_buffer: dst[gid0] = src[gid0], one byte per work-item. */
static void copy_buffer(const uint8_t *args, const cpu_work_group *wg) {
  const uint8_t *src = arg_pointer(args, 0);
  uint8_t *dst = arg_pointer(args, 1);
  uint64_t begin = group_base(wg, 0);
  for (uint64_t row = 0; row < rows(wg); row++) {
    memmove(dst + begin, src + begin, wg->local_size[0]);
  }
}

/* fill_buffer: dst[gid0] = value. */
static void fill_buffer(const uint8_t *args, const cpu_work_group *wg) {
  uint32_t *dst = arg_pointer(args, 0);
  uint32_t value = arg_uint(args, 8);
  uint32_t *row_dst = dst + group_base(wg, 0);
  uint32_t count = wg->local_size[0];
  for (uint64_t row = 0; row < rows(wg); row++) {
    for (uint32_t x = 0; x < count; x++) row_dst[x] = value;
  }
}

/* vector_add: c[gid0] = a[gid0] + b[gid0]. The loop over x is a plain
 * counted loop over three pointers so that the C compiler vectorizes it
 * (behind its own overlap check); it backs the bandwidth benchmark. */
static void vector_add(const uint8_t *args, const cpu_work_group *wg) {
  uint64_t begin = group_base(wg, 0);
  const float *a = (const float *)arg_pointer(args, 0) + begin;
  const float *b = (const float *)arg_pointer(args, 1) + begin;
  float *c = (float *)arg_pointer(args, 2) + begin;
  uint32_t count = wg->local_size[0];
  for (uint64_t row = 0; row < rows(wg); row++) {
    for (uint32_t x = 0; x < count; x++) c[x] = a[x] + b[x];
  }
}

static uint64_t linear_global_id(const cpu_work_group *wg,
                                 const uint64_t global_id[3]) {
  return (global_id[2] - wg->global_offset[2]) * wg->global_size[0] *
             wg->global_size[1] +
         (global_id[1] - wg->global_offset[1]) * wg->global_size[0] +
         (global_id[0] - wg->global_offset[0]);
}

/* record_ids: each work-item adds 1 to counts[linear global id] and writes
 * its ids (CPU_RECORD_IDS_FIELDS uints) at ids[linear global id * 10], so
 * a test can see that every work-item ran once, with the right ids. */
static void record_ids(const uint8_t *args, const cpu_work_group *wg) {
  uint32_t *ids = arg_pointer(args, 0);
  uint32_t *counts = arg_pointer(args, 1);
  uint64_t local_id[3];
  for (local_id[2] = 0; local_id[2] < wg->local_size[2]; local_id[2]++) {
    for (local_id[1] = 0; local_id[1] < wg->local_size[1]; local_id[1]++) {
      for (local_id[0] = 0; local_id[0] < wg->local_size[0]; local_id[0]++) {
        uint64_t global_id[3];
        for (unsigned d = 0; d < 3; d++) {
          global_id[d] = group_base(wg, d) + local_id[d];
        }
        uint64_t linear = linear_global_id(wg, global_id);
        __atomic_fetch_add(&counts[linear], 1u, __ATOMIC_RELAXED);
        uint32_t *record = ids + linear * CPU_RECORD_IDS_FIELDS;
        for (unsigned d = 0; d < 3; d++) {
          record[d] = (uint32_t)global_id[d];
          record[3 + d] = (uint32_t)local_id[d];
          record[6 + d] = (uint32_t)wg->group_id[d];
        }
        record[9] = wg->work_dim;
      }
    }
  }
}

/* local_reduce: every work-item stores in[linear global id] into the
 * shared local buffer at its linear local id; after the (implicit) barrier
 * one work-item sums the buffer into out[linear group id]. Sums wrap like
 * OpenCL's int addition. */
static void local_reduce(const uint8_t *args, const cpu_work_group *wg) {
  const int32_t *in = arg_pointer(args, 0);
  int32_t *out = arg_pointer(args, 1);
  int32_t *scratch = arg_pointer(args, 2);
  uint64_t items = (uint64_t)wg->local_size[0] * rows(wg);
  uint64_t local_linear = 0;
  uint64_t local_id[3];
  for (local_id[2] = 0; local_id[2] < wg->local_size[2]; local_id[2]++) {
    for (local_id[1] = 0; local_id[1] < wg->local_size[1]; local_id[1]++) {
      for (local_id[0] = 0; local_id[0] < wg->local_size[0]; local_id[0]++) {
        uint64_t global_id[3];
        for (unsigned d = 0; d < 3; d++) {
          global_id[d] = group_base(wg, d) + local_id[d];
        }
        scratch[local_linear++] = in[linear_global_id(wg, global_id)];
      }
    }
  }
  uint32_t sum = 0;
  for (uint64_t i = 0; i < items; i++) sum += (uint32_t)scratch[i];
  uint64_t group_linear =
      (wg->group_id[2] * wg->num_groups[1] + wg->group_id[1]) *
          wg->num_groups[0] +
      wg->group_id[0];
  out[group_linear] = (int32_t)sum;
}

/* Does nothing: measures the cost of a launch itself. */
static void empty(const uint8_t *args, const cpu_work_group *wg) {
  (void)args;
  (void)wg;
}

static const struct cpu_builtin_kernel {
  const char *name;
  cpu_work_group_fn function;
} cpu_builtin_kernels[] = {
    {"copy_buffer", copy_buffer},   {"fill_buffer", fill_buffer},
    {"vector_add", vector_add},     {"record_ids", record_ids},
    {"local_reduce", local_reduce}, {"empty", empty},
};

cpu_work_group_fn cpu_builtin_kernel_lookup(const char *name,
                                            uint64_t name_length) {
  size_t count = sizeof cpu_builtin_kernels / sizeof cpu_builtin_kernels[0];
  for (size_t i = 0; i < count; i++) {
    const char *candidate = cpu_builtin_kernels[i].name;
    if (strlen(candidate) == name_length &&
        memcmp(candidate, name, name_length) == 0) {
      return cpu_builtin_kernels[i].function;
    }
  }
  return NULL;
}

/* Work-group collective functions (OpenCL C 3.0 section 6.15.13): every
 * work-item of the group calls them with the same arguments where those
 * must be uniform. Each work-item writes its value to a __local scratch
 * slot (scratch.ll); after a barrier the first work-item combines the
 * slots in order (the CPU runs a group's work-items on one thread, so the
 * serial pass costs what a tree would and keeps float sums in work-item
 * order); after another barrier every work-item reads its result; a last
 * barrier lets the next call reuse the scratch. */

#define OVL __attribute__((overloadable))

local void *__clmux_work_group_scratch(void);

static size_t group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define SCRATCH(T) ((local T *)__clmux_work_group_scratch())
/* The result's slot, after one per work-item of the largest group. */
#define RESULT_SLOT 1024

#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))

#define REDUCE(T, NAME, OP)                                   \
  OVL T work_group_reduce_##NAME(T x) {                       \
    local T *slots = SCRATCH(T);                              \
    size_t i = get_local_linear_id();                         \
    slots[i] = x;                                             \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    if (i == 0) {                                             \
      T r = slots[0];                                         \
      for (size_t j = 1, n = group_items(); j < n; j++)       \
        r = OP(r, slots[j]);                                  \
      slots[RESULT_SLOT] = r;                                 \
    }                                                         \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    T r = slots[RESULT_SLOT];                                 \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    return r;                                                 \
  }

/* Inclusive prefixes in place; an exclusive scan reads the slot before
 * its own (the identity for the first work-item). */
#define SCAN(T, NAME, OP, IDENTITY)                           \
  static void scan_##NAME##_##T(local T *slots, T x) {        \
    size_t i = get_local_linear_id();                         \
    slots[i] = x;                                             \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    if (i == 0) {                                             \
      for (size_t j = 1, n = group_items(); j < n; j++)       \
        slots[j] = OP(slots[j - 1], slots[j]);                \
    }                                                         \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
  }                                                           \
  OVL T work_group_scan_inclusive_##NAME(T x) {               \
    local T *slots = SCRATCH(T);                              \
    scan_##NAME##_##T(slots, x);                              \
    T r = slots[get_local_linear_id()];                       \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    return r;                                                 \
  }                                                           \
  OVL T work_group_scan_exclusive_##NAME(T x) {               \
    local T *slots = SCRATCH(T);                              \
    scan_##NAME##_##T(slots, x);                              \
    size_t i = get_local_linear_id();                         \
    T r = i ? slots[i - 1] : (IDENTITY);                      \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                  \
    return r;                                                 \
  }

/* The work-item at `target` (a linear local id) hands its value to all. */
#define BROADCAST(T)                                                   \
  static T broadcast_##T(T x, size_t target) {                         \
    local T *slots = SCRATCH(T);                                       \
    if (get_local_linear_id() == target) slots[RESULT_SLOT] = x;       \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                           \
    T r = slots[RESULT_SLOT];                                          \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                           \
    return r;                                                          \
  }                                                                    \
  OVL T work_group_broadcast(T x, size_t local_id) {                   \
    return broadcast_##T(x, local_id);                                 \
  }                                                                    \
  OVL T work_group_broadcast(T x, size_t local_id_x, size_t local_id_y) { \
    return broadcast_##T(x, local_id_x + get_local_size(0) * local_id_y); \
  }                                                                    \
  OVL T work_group_broadcast(T x, size_t local_id_x, size_t local_id_y, \
                             size_t local_id_z) {                      \
    return broadcast_##T(                                              \
        x, local_id_x + get_local_size(0) *                            \
                            (local_id_y + get_local_size(1) * local_id_z)); \
  }

#define ALL_OF_TYPE(T, LOWEST, HIGHEST) \
  REDUCE(T, add, ADD)                   \
  REDUCE(T, min, MIN)                   \
  REDUCE(T, max, MAX)                   \
  SCAN(T, add, ADD, (T)0)               \
  SCAN(T, min, MIN, HIGHEST)            \
  SCAN(T, max, MAX, LOWEST)             \
  BROADCAST(T)

ALL_OF_TYPE(int, INT_MIN, INT_MAX)
ALL_OF_TYPE(uint, 0, UINT_MAX)
ALL_OF_TYPE(long, LONG_MIN, LONG_MAX)
ALL_OF_TYPE(ulong, 0, ULONG_MAX)
ALL_OF_TYPE(float, -INFINITY, INFINITY)
ALL_OF_TYPE(double, -(double)INFINITY, (double)INFINITY)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
ALL_OF_TYPE(half, -(half)INFINITY, (half)INFINITY)

/* Predicates: any non-zero value is true. */
#define AND(a, b) ((a) && (b))
#define OR(a, b) ((a) || (b))
#define PREDICATE(NAME, OP)                                     \
  OVL int work_group_##NAME(int predicate) {                    \
    local int *slots = SCRATCH(int);                            \
    size_t i = get_local_linear_id();                           \
    slots[i] = predicate != 0;                                  \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                    \
    if (i == 0) {                                               \
      int r = slots[0];                                         \
      for (size_t j = 1, n = group_items(); j < n; j++)         \
        r = OP(r, slots[j]);                                    \
      slots[RESULT_SLOT] = r;                                   \
    }                                                           \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                    \
    int r = slots[RESULT_SLOT];                                 \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                    \
    return r;                                                   \
  }

PREDICATE(all, AND)
PREDICATE(any, OR)

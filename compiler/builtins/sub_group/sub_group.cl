/* Sub-group functions (OpenCL C 3.0 section 6.15.16). A sub-group is the
 * work-items one call of a kernel's vectorized body runs in its lanes:
 * consecutive work-items of a row in x, the last of a row possibly fewer;
 * a kernel that is not vectorized has sub-groups of one work-item. The
 * `__clmux_sub_group_*` primitives below are what codegen knows
 * (compiler/codegen/sub_groups.c and wfv_sub_groups.c); everything else
 * is built from them and the work-item functions. They are `const` (no
 * memory) and, as every OpenCL call, convergent: the optimizer may not
 * move them across control flow, which decides the lanes they see. */

#define OVL __attribute__((overloadable))
#define PRIMITIVE __attribute__((const))

/* The lane of the calling work-item, and the lanes of a sub-group. */
PRIMITIVE uint __clmux_sub_group_lane(void);
PRIMITIVE uint __clmux_sub_group_width(void);
/* Bit l set when lane l runs this call and its predicate is non-zero. */
PRIMITIVE ulong __clmux_sub_group_ballot(int predicate);
/* x of lane `lane` (which must run this call). */
PRIMITIVE uchar __clmux_sub_group_shuffle_i8(uchar x, uint lane);
PRIMITIVE ushort __clmux_sub_group_shuffle_i16(ushort x, uint lane);
PRIMITIVE uint __clmux_sub_group_shuffle_i32(uint x, uint lane);
PRIMITIVE ulong __clmux_sub_group_shuffle_i64(ulong x, uint lane);

/* ---- Work-item functions ---- */

static uint width(void) {
  return min(__clmux_sub_group_width(), (uint)get_enqueued_local_size(0));
}

/* Sub-groups per row in x, of a group of `items` in x. */
static uint per_row(size_t items) {
  uint w = __clmux_sub_group_width();
  return ((uint)items + w - 1) / w;
}

OVL uint get_sub_group_local_id(void) { return __clmux_sub_group_lane(); }

OVL uint get_max_sub_group_size(void) { return width(); }

/* The first work-item of the caller's sub-group, in x. */
static uint first_in_x(void) {
  return (uint)get_local_id(0) - __clmux_sub_group_lane();
}

OVL uint get_sub_group_size(void) {
  return min(__clmux_sub_group_width(),
             (uint)get_local_size(0) - first_in_x());
}

OVL uint get_num_sub_groups(void) {
  return per_row(get_local_size(0)) * (uint)get_local_size(1) *
         (uint)get_local_size(2);
}

OVL uint get_enqueued_num_sub_groups(void) {
  return per_row(get_enqueued_local_size(0)) *
         (uint)get_enqueued_local_size(1) * (uint)get_enqueued_local_size(2);
}

OVL uint get_sub_group_id(void) {
  uint row = (uint)(get_local_id(2) * get_local_size(1) + get_local_id(1));
  return row * per_row(get_local_size(0)) +
         first_in_x() / __clmux_sub_group_width();
}

/* A sub-group's work-items run in lock step in one thread: memory is
 * ordered between them by program order. */
OVL void sub_group_barrier(cl_mem_fence_flags flags) { (void)flags; }
OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)flags;
  (void)scope;
}

/* ---- Votes ---- */

OVL int sub_group_all(int predicate) {
  return __clmux_sub_group_ballot(predicate) == __clmux_sub_group_ballot(1);
}

OVL int sub_group_any(int predicate) {
  return __clmux_sub_group_ballot(predicate) != 0;
}

/* ---- Broadcast ---- */

#define BROADCAST(T, BITS, U)                                            \
  OVL T sub_group_broadcast(T x, uint lane) {                            \
    return as_##T(__clmux_sub_group_shuffle_i##BITS(as_##U(x), lane));   \
  }
BROADCAST(int, 32, uint)
BROADCAST(uint, 32, uint)
BROADCAST(long, 64, ulong)
BROADCAST(ulong, 64, ulong)
BROADCAST(float, 32, uint)
BROADCAST(double, 64, ulong)

/* ---- Reductions and scans ---- */

/* OP names the primitive's combination: add, mul, and, or, xor, smin,
 * umin, smax, umax for integers; fadd, fmul, fmin, fmax for floats. */
#define COMBINE(T, NAME, OP)                                             \
  PRIMITIVE T __clmux_sub_group_reduce_##OP##_##T(T x);                  \
  PRIMITIVE T __clmux_sub_group_scan_##OP##_##T(T x);                    \
  PRIMITIVE T __clmux_sub_group_xscan_##OP##_##T(T x);                   \
  OVL T sub_group_reduce_##NAME(T x) {                                   \
    return __clmux_sub_group_reduce_##OP##_##T(x);                       \
  }                                                                      \
  OVL T sub_group_scan_inclusive_##NAME(T x) {                           \
    return __clmux_sub_group_scan_##OP##_##T(x);                         \
  }                                                                      \
  OVL T sub_group_scan_exclusive_##NAME(T x) {                           \
    return __clmux_sub_group_xscan_##OP##_##T(x);                        \
  }

#define SIGNED(T)            \
  COMBINE(T, add, add)       \
  COMBINE(T, min, smin)      \
  COMBINE(T, max, smax)
#define UNSIGNED(T)          \
  COMBINE(T, add, add)       \
  COMBINE(T, min, umin)      \
  COMBINE(T, max, umax)
#define FLOATING(T)          \
  COMBINE(T, add, fadd)      \
  COMBINE(T, min, fmin)      \
  COMBINE(T, max, fmax)

SIGNED(int)
UNSIGNED(uint)
SIGNED(long)
UNSIGNED(ulong)
FLOATING(float)
FLOATING(double)

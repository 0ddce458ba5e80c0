/* Sub-group functions (OpenCL C 3.0 section 6.15.16). A sub-group is the
 * work-items one call of a kernel's vectorized body runs in its lanes:
 * consecutive work-items of a row in x, the last of a row possibly fewer;
 * a kernel that is not vectorized has sub-groups of one work-item. The
 * `__clmux_sub_group_*` primitives below are what codegen knows
 * (compiler/codegen/sub_groups.c and wfv_sub_groups.c); everything else
 * is built from them and the work-item functions. They are `const` (no
 * memory) and, as every OpenCL call, convergent: the optimizer may not
 * move them across control flow, which decides the lanes they see. */

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

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

/* ---- The types ----
 * Each scalar type with: the unsigned integer of its size (shuffles move
 * bits), its bits, and the names of its min and max combinations. */
#define FOR_EACH_TYPE(F)                  \
  F(char, uchar, 8, smin, smax)           \
  F(uchar, uchar, 8, umin, umax)          \
  F(short, ushort, 16, smin, smax)        \
  F(ushort, ushort, 16, umin, umax)       \
  F(int, uint, 32, smin, smax)            \
  F(uint, uint, 32, umin, umax)           \
  F(long, ulong, 64, smin, smax)          \
  F(ulong, ulong, 64, umin, umax)         \
  F(float, uint, 32, fmin, fmax)          \
  F(double, ulong, 64, fmin, fmax)        \
  F(half, ushort, 16, fmin, fmax)
#define FOR_EACH_INTEGER(F)  \
  F(char) F(uchar) F(short) F(ushort) F(int) F(uint) F(long) F(ulong)

/* Bit l of a ballot is lane l; sub-groups have at most 64 lanes. The
 * bits a ballot's queries and masks consider: those of the largest
 * sub-group (the CTS's reading of "the sub-group's"). */
static ulong members(void) {
  uint size = get_max_sub_group_size();
  return size >= 64 ? ~0ul : (1ul << size) - 1;
}
static ulong running(void) { return __clmux_sub_group_ballot(1); }
static uint first_running(void) { return (uint)ctz(running()); }
static ulong low_bits(uint4 value) {
  return (ulong)value.x | (ulong)value.y << 32;
}
static uint4 as_ballot(ulong bits) {
  return (uint4)((uint)bits, (uint)(bits >> 32), 0, 0);
}

/* ---- Votes (and cl_khr_subgroup_non_uniform_vote) ---- */

OVL int sub_group_all(int predicate) {
  return __clmux_sub_group_ballot(predicate) == running();
}
OVL int sub_group_any(int predicate) {
  return __clmux_sub_group_ballot(predicate) != 0;
}
OVL int sub_group_non_uniform_all(int predicate) {
  return sub_group_all(predicate);
}
OVL int sub_group_non_uniform_any(int predicate) {
  return sub_group_any(predicate);
}
OVL int sub_group_elect(void) {
  return __clmux_sub_group_lane() == first_running();
}

/* ---- Moving values between lanes (broadcast, cl_khr_subgroup_shuffle,
 * _shuffle_relative, _rotate, _ballot's broadcasts) ---- */

/* A rotation by `delta` lanes among `count`, as a step forward. */
static uint forward(int delta, uint count) {
  int step = delta % (int)count;
  return (uint)(step < 0 ? step + (int)count : step);
}

#define MOVES(T, U, BITS, MIN, MAX)                                       \
  static T from_lane_##T(T x, uint lane) {                                \
    return as_##T(__clmux_sub_group_shuffle_i##BITS(as_##U(x), lane));   \
  }                                                                       \
  OVL T sub_group_broadcast(T x, uint lane) {                             \
    return from_lane_##T(x, lane);                                        \
  }                                                                       \
  OVL T sub_group_non_uniform_broadcast(T x, uint lane) {                 \
    return from_lane_##T(x, lane);                                        \
  }                                                                       \
  OVL T sub_group_broadcast_first(T x) {                                  \
    return from_lane_##T(x, first_running());                             \
  }                                                                       \
  OVL int sub_group_non_uniform_all_equal(T x) {                          \
    return sub_group_all(x == sub_group_broadcast_first(x));              \
  }                                                                       \
  OVL T sub_group_shuffle(T x, uint lane) { return from_lane_##T(x, lane); } \
  OVL T sub_group_shuffle_xor(T x, uint mask) {                           \
    return from_lane_##T(x, __clmux_sub_group_lane() ^ mask);             \
  }                                                                       \
  OVL T sub_group_shuffle_up(T x, uint delta) {                           \
    return from_lane_##T(x, __clmux_sub_group_lane() - delta);            \
  }                                                                       \
  OVL T sub_group_shuffle_down(T x, uint delta) {                         \
    return from_lane_##T(x, __clmux_sub_group_lane() + delta);            \
  }                                                                       \
  OVL T sub_group_rotate(T x, int delta) {                                \
    uint size = get_sub_group_size();                                     \
    uint lane = (__clmux_sub_group_lane() + forward(delta, size)) % size; \
    return from_lane_##T(x, lane);                                        \
  }                                                                       \
  OVL T sub_group_clustered_rotate(T x, int delta, uint cluster) {        \
    uint lane = __clmux_sub_group_lane();                                 \
    uint base = lane - lane % cluster;                                    \
    uint within = (lane - base + forward(delta, cluster)) % cluster;      \
    return from_lane_##T(x, base + within);                               \
  }                                                                       \
  VECTOR_BROADCASTS(T, 2)                                                 \
  VECTOR_BROADCASTS(T, 3)                                                 \
  VECTOR_BROADCASTS(T, 4)                                                 \
  VECTOR_BROADCASTS(T, 8)                                                 \
  VECTOR_BROADCASTS(T, 16)

/* cl_khr_subgroup_extended_types and _ballot: vectors, a component at a
 * time. */
#define VECTOR_BROADCASTS(T, N)                                           \
  OVL T##N sub_group_broadcast(T##N x, uint lane) {                       \
    T##N r;                                                               \
    for (int i = 0; i < N; i++) r[i] = from_lane_##T(x[i], lane);         \
    return r;                                                             \
  }                                                                       \
  OVL T##N sub_group_non_uniform_broadcast(T##N x, uint lane) {           \
    return sub_group_broadcast(x, lane);                                  \
  }

FOR_EACH_TYPE(MOVES)

/* ---- Ballots (cl_khr_subgroup_ballot) ---- */

OVL uint4 sub_group_ballot(int predicate) {
  return as_ballot(__clmux_sub_group_ballot(predicate));
}
OVL int sub_group_inverse_ballot(uint4 value) {
  return (low_bits(value) >> __clmux_sub_group_lane()) & 1;
}
OVL int sub_group_ballot_bit_extract(uint4 value, uint index) {
  uint word = index < 32 ? value.x
              : index < 64 ? value.y
              : index < 96 ? value.z
                           : value.w;
  return (word >> (index & 31)) & 1;
}
OVL uint sub_group_ballot_bit_count(uint4 value) {
  return (uint)popcount(low_bits(value) & members());
}
/* The lanes up to the caller (inclusive) or before it, as bits. */
static ulong up_to_lane(void) {
  uint lane = __clmux_sub_group_lane();
  return lane >= 63 ? ~0ul : (2ul << lane) - 1;
}
static ulong below_lane(void) {
  return (1ul << __clmux_sub_group_lane()) - 1;
}
OVL uint sub_group_ballot_inclusive_scan(uint4 value) {
  return (uint)popcount(low_bits(value) & up_to_lane());
}
OVL uint sub_group_ballot_exclusive_scan(uint4 value) {
  return (uint)popcount(low_bits(value) & below_lane());
}
OVL uint sub_group_ballot_find_lsb(uint4 value) {
  return (uint)ctz(low_bits(value) & members());
}
OVL uint sub_group_ballot_find_msb(uint4 value) {
  return 63 - (uint)clz(low_bits(value) & members());
}
OVL uint4 get_sub_group_eq_mask(void) {
  return as_ballot(1ul << __clmux_sub_group_lane());
}
OVL uint4 get_sub_group_ge_mask(void) {
  return as_ballot(members() & ~below_lane());
}
OVL uint4 get_sub_group_gt_mask(void) {
  return as_ballot(members() & ~up_to_lane());
}
OVL uint4 get_sub_group_le_mask(void) {
  return as_ballot(members() & up_to_lane());
}
OVL uint4 get_sub_group_lt_mask(void) {
  return as_ballot(below_lane());
}

/* ---- Reductions and scans ----
 * OP names the primitive's combination: add, mul, and, or, xor, smin,
 * umin, smax, umax for integers; fadd, fmul, fmin, fmax for floats. The
 * uniform forms (cl_khr_subgroups, _extended_types), the non-uniform ones
 * (cl_khr_subgroup_non_uniform_arithmetic) and the clustered ones
 * (cl_khr_subgroup_clustered_reduce) all combine the running lanes. */
#define COMBINE(T, NAME, OP)                                             \
  PRIMITIVE T __clmux_sub_group_reduce_##OP##_##T(T x);                  \
  PRIMITIVE T __clmux_sub_group_scan_##OP##_##T(T x);                    \
  PRIMITIVE T __clmux_sub_group_xscan_##OP##_##T(T x);                   \
  PRIMITIVE T __clmux_sub_group_clustered_##OP##_##T(T x, uint cluster); \
  OVL T sub_group_non_uniform_reduce_##NAME(T x) {                       \
    return __clmux_sub_group_reduce_##OP##_##T(x);                       \
  }                                                                      \
  OVL T sub_group_non_uniform_scan_inclusive_##NAME(T x) {               \
    return __clmux_sub_group_scan_##OP##_##T(x);                         \
  }                                                                      \
  OVL T sub_group_non_uniform_scan_exclusive_##NAME(T x) {               \
    return __clmux_sub_group_xscan_##OP##_##T(x);                        \
  }                                                                      \
  OVL T sub_group_clustered_reduce_##NAME(T x, uint cluster) {           \
    return __clmux_sub_group_clustered_##OP##_##T(x, cluster);           \
  }
#define UNIFORM(T, NAME, OP)                                             \
  OVL T sub_group_reduce_##NAME(T x) {                                   \
    return __clmux_sub_group_reduce_##OP##_##T(x);                       \
  }                                                                      \
  OVL T sub_group_scan_inclusive_##NAME(T x) {                           \
    return __clmux_sub_group_scan_##OP##_##T(x);                         \
  }                                                                      \
  OVL T sub_group_scan_exclusive_##NAME(T x) {                           \
    return __clmux_sub_group_xscan_##OP##_##T(x);                        \
  }

#define ADD_OF_smin add
#define ADD_OF_umin add
#define ADD_OF_fmin fadd
#define MUL_OF_smin mul
#define MUL_OF_umin mul
#define MUL_OF_fmin fmul
/* One more level, so that ADD_OF_##MIN becomes the primitive's name
 * before COMBINE pastes it. */
#define COMBINE_(T, NAME, OP) COMBINE(T, NAME, OP)
#define UNIFORM_(T, NAME, OP) UNIFORM(T, NAME, OP)
#define ARITHMETIC(T, U, BITS, MIN, MAX)                                 \
  COMBINE_(T, add, ADD_OF_##MIN)                                         \
  COMBINE_(T, mul, MUL_OF_##MIN)                                         \
  COMBINE_(T, min, MIN)                                                  \
  COMBINE_(T, max, MAX)                                                  \
  UNIFORM_(T, add, ADD_OF_##MIN)                                         \
  UNIFORM_(T, min, MIN)                                                  \
  UNIFORM_(T, max, MAX)

FOR_EACH_TYPE(ARITHMETIC)

#define BITWISE(T) COMBINE(T, and, and) COMBINE(T, or, or) COMBINE(T, xor, xor)
FOR_EACH_INTEGER(BITWISE)

/* Predicates: the bitwise combinations of (predicate != 0), as 0 or 1
 * (and's identity, all ones, is true). */
#define LOGICAL(NAME)                                                    \
  OVL int sub_group_non_uniform_reduce_logical_##NAME(int predicate) {   \
    return sub_group_non_uniform_reduce_##NAME(predicate != 0) != 0;     \
  }                                                                      \
  OVL int sub_group_non_uniform_scan_inclusive_logical_##NAME(int p) {   \
    return sub_group_non_uniform_scan_inclusive_##NAME(p != 0) != 0;     \
  }                                                                      \
  OVL int sub_group_non_uniform_scan_exclusive_logical_##NAME(int p) {   \
    return sub_group_non_uniform_scan_exclusive_##NAME(p != 0) != 0;     \
  }                                                                      \
  OVL int sub_group_clustered_reduce_logical_##NAME(int p, uint cluster) { \
    return sub_group_clustered_reduce_##NAME(p != 0, cluster) != 0;      \
  }
LOGICAL(and)
LOGICAL(or)
LOGICAL(xor)

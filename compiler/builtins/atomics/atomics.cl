/* 32-bit atomic functions (OpenCL 1.2 section 6.12.11), the atom_* names
 * of the cl_khr_{global,local}_int32_{base,extended}_atomics extensions,
 * and the 64-bit atom_* of cl_khr_int64_{base,extended}_atomics.
 *
 * Every operation is sequentially consistent: the spec asks only for
 * atomicity, and on x86-64 a locked read-modify-write already is a full
 * fence, so the stronger order costs nothing and keeps the mixing of atomic
 * and plain accesses in user kernels predictable. */

#define OVL __attribute__((overloadable))
#define SC __ATOMIC_SEQ_CST

/* One read-modify-write with an operand, under both names, for one type
 * and address space. The builtin picks signed/unsigned min/max from T. */
#define ATOMIC_RMW(name, builtin, T, AS)                                   \
  OVL T atomic_##name(volatile AS T *p, T v) { return builtin(p, v, SC); } \
  OVL T atom_##name(volatile AS T *p, T v) { return builtin(p, v, SC); }

#define ATOMIC_UNARY(name, builtin, T, AS)                                 \
  OVL T atomic_##name(volatile AS T *p) { return builtin(p, (T)1, SC); }   \
  OVL T atom_##name(volatile AS T *p) { return builtin(p, (T)1, SC); }

/* cmpxchg returns the old value whether or not it stored. */
#define ATOMIC_CMPXCHG(T, AS)                                              \
  OVL T atomic_cmpxchg(volatile AS T *p, T cmp, T v) {                     \
    __atomic_compare_exchange_n(p, &cmp, v, false, SC, SC);                \
    return cmp;                                                            \
  }                                                                        \
  OVL T atom_cmpxchg(volatile AS T *p, T cmp, T v) {                       \
    return atomic_cmpxchg(p, cmp, v);                                      \
  }

#define ATOMIC_ALL(T, AS)                                                  \
  ATOMIC_RMW(add, __atomic_fetch_add, T, AS)                               \
  ATOMIC_RMW(sub, __atomic_fetch_sub, T, AS)                               \
  ATOMIC_RMW(xchg, __atomic_exchange_n, T, AS)                             \
  ATOMIC_RMW(min, __atomic_fetch_min, T, AS)                               \
  ATOMIC_RMW(max, __atomic_fetch_max, T, AS)                               \
  ATOMIC_RMW(and, __atomic_fetch_and, T, AS)                               \
  ATOMIC_RMW(or, __atomic_fetch_or, T, AS)                                 \
  ATOMIC_RMW(xor, __atomic_fetch_xor, T, AS)                               \
  ATOMIC_UNARY(inc, __atomic_fetch_add, T, AS)                             \
  ATOMIC_UNARY(dec, __atomic_fetch_sub, T, AS)                             \
  ATOMIC_CMPXCHG(T, AS)

ATOMIC_ALL(int, __global)
ATOMIC_ALL(uint, __global)
ATOMIC_ALL(int, __local)
ATOMIC_ALL(uint, __local)

/* 64-bit: the extensions name only atom_* (no atomic_* forms in 1.2). */
#define ATOM_RMW(name, builtin, T, AS)                                     \
  OVL T atom_##name(volatile AS T *p, T v) { return builtin(p, v, SC); }
#define ATOM_UNARY(name, builtin, T, AS)                                   \
  OVL T atom_##name(volatile AS T *p) { return builtin(p, (T)1, SC); }
#define ATOM64_ALL(T, AS)                                                  \
  ATOM_RMW(add, __atomic_fetch_add, T, AS)                                 \
  ATOM_RMW(sub, __atomic_fetch_sub, T, AS)                                 \
  ATOM_RMW(xchg, __atomic_exchange_n, T, AS)                               \
  ATOM_RMW(min, __atomic_fetch_min, T, AS)                                 \
  ATOM_RMW(max, __atomic_fetch_max, T, AS)                                 \
  ATOM_RMW(and, __atomic_fetch_and, T, AS)                                 \
  ATOM_RMW(or, __atomic_fetch_or, T, AS)                                   \
  ATOM_RMW(xor, __atomic_fetch_xor, T, AS)                                 \
  ATOM_UNARY(inc, __atomic_fetch_add, T, AS)                               \
  ATOM_UNARY(dec, __atomic_fetch_sub, T, AS)                               \
  OVL T atom_cmpxchg(volatile AS T *p, T cmp, T v) {                       \
    __atomic_compare_exchange_n(p, &cmp, v, false, SC, SC);                \
    return cmp;                                                            \
  }
ATOM64_ALL(long, __global)
ATOM64_ALL(ulong, __global)
ATOM64_ALL(long, __local)
ATOM64_ALL(ulong, __local)

/* float exchange: the same bits through an int exchange (only atomic_xchg
 * has a float form; the extensions' atom_xchg does not). */
#define ATOMIC_XCHG_FLOAT(AS)                                              \
  OVL float atomic_xchg(volatile AS float *p, float v) {                   \
    return as_float(                                                       \
        __atomic_exchange_n((volatile AS int *)p, as_int(v), SC));         \
  }
ATOMIC_XCHG_FLOAT(__global)
ATOMIC_XCHG_FLOAT(__local)

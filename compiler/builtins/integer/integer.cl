/* Integer functions (OpenCL 1.2 section 6.12.3) for char ... ulong and
 * their vectors. Scalar forms are written so that work-item loops
 * vectorize (plain arithmetic, Clang's element-wise builtins, clz/popcount
 * intrinsics, a twice-as-wide type for products); vector forms either use
 * the element-wise builtins directly or apply the scalar form per element,
 * which the optimizer turns back into vector code where it can. */

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))

/* ---- Vector forms by element ------------------------------------------ */

#define VEC1(R, name, A, n)                                                  \
  OVL R##n name(A##n x) {                                                    \
    R##n r;                                                                  \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) r[i] = name(x[i]);                           \
    return r;                                                                \
  }
#define VEC2(R, name, A, B, n)                                               \
  OVL R##n name(A##n x, B##n y) {                                            \
    R##n r;                                                                  \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) r[i] = name(x[i], y[i]);                     \
    return r;                                                                \
  }
#define VEC3(R, name, A, n)                                                  \
  OVL R##n name(A##n x, A##n y, A##n z) {                                    \
    R##n r;                                                                  \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) r[i] = name(x[i], y[i], z[i]);               \
    return r;                                                                \
  }
#define ALL_WIDTHS(M, ...)                                                   \
  M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 8)    \
  M(__VA_ARGS__, 16)
/* Scalar (empty width) and every vector width. */
#define EVERY_WIDTH(M, ...) M(__VA_ARGS__, ) ALL_WIDTHS(M, __VA_ARGS__)

/* ---- Functions that are one element-wise expression -------------------- */

/* A scalar char or short would be promoted to int by the element-wise
 * saturating builtins (saturating at int's bounds), so those two take the
 * scalar forms below; vectors are not promoted. */
#define SATURATING(T, n)                                                     \
  OVL T##n add_sat(T##n x, T##n y) {                                         \
    return __builtin_elementwise_add_sat(x, y);                              \
  }                                                                          \
  OVL T##n sub_sat(T##n x, T##n y) {                                         \
    return __builtin_elementwise_sub_sat(x, y);                              \
  }
#define NARROW_SATURATING(T, LO, HI)                                         \
  OVL T add_sat(T x, T y) {                                                  \
    int r = (int)x + (int)y;                                                 \
    return (T)(r < LO ? LO : r > HI ? HI : r);                               \
  }                                                                          \
  OVL T sub_sat(T x, T y) {                                                  \
    int r = (int)x - (int)y;                                                 \
    return (T)(r < LO ? LO : r > HI ? HI : r);                               \
  }

#define ELEMENTWISE(T, n)                                                    \
  OVL T##n max(T##n x, T##n y) { return __builtin_elementwise_max(x, y); }   \
  OVL T##n min(T##n x, T##n y) { return __builtin_elementwise_min(x, y); }   \
  OVL T##n clamp(T##n x, T##n lo, T##n hi) {                                 \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);  \
  }                                                                          \
  /* floor((x + y) / 2) and ceil((x + y) / 2) without overflow */            \
  OVL T##n hadd(T##n x, T##n y) {                                            \
    return (T##n)((x >> 1) + (y >> 1) + (x & y & (T##n)1));                  \
  }                                                                          \
  OVL T##n rhadd(T##n x, T##n y) {                                           \
    return (T##n)((x >> 1) + (y >> 1) + ((x | y) & (T##n)1));                \
  }

/* The vector forms that take a scalar bound. */
#define SCALAR_BOUNDS(T, n)                                                  \
  OVL T##n max(T##n x, T y) { return max(x, (T##n)y); }                      \
  OVL T##n min(T##n x, T y) { return min(x, (T##n)y); }                      \
  OVL T##n clamp(T##n x, T lo, T hi) { return clamp(x, (T##n)lo, (T##n)hi); }

/* ---- Scalar forms that need the type's details ------------------------- */

/* T, its unsigned twin U, its width in bits, a type twice as wide W. */
#define SCALAR_COMMON(T, U, BITS, W)                                         \
  OVL U abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); } \
  OVL T mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> BITS); }              \
  OVL T mad_hi(T x, T y, T z) { return (T)(mul_hi(x, y) + z); }              \
  OVL T rotate(T v, T by) {                                                  \
    U bits = (U)v;                                                           \
    uint s = (uint)((U)by & (BITS - 1));                                     \
    return (T)(s ? (U)(bits << s) | (U)(bits >> (BITS - s)) : bits);        \
  }                                                                          \
  OVL T clz(T x) { return (T)clmux_clz_##U((U)x); }                          \
  OVL T ctz(T x) { return (T)clmux_ctz_##U((U)x); }                          \
  OVL T popcount(T x) { return (T)clmux_popcount_##U((U)x); }

/* clz and popcount on the unsigned types; 0 has BITS leading zeros. */
static uint clmux_clz_uint(uint x) { return x ? (uint)__builtin_clz(x) : 32; }
static uint clmux_clz_ulong(ulong x) { return x ? (uint)__builtin_clzl(x) : 64; }
static uint clmux_clz_uchar(uchar x) { return clmux_clz_uint(x) - 24; }
static uint clmux_clz_ushort(ushort x) { return clmux_clz_uint(x) - 16; }
/* ctz (OpenCL C 2.0, but the CTS tests it on 1.2 devices too); 0 has BITS
 * trailing zeros: a bit just above the type's width gives that for free. */
static uint clmux_ctz_uint(uint x) { return x ? (uint)__builtin_ctz(x) : 32; }
static uint clmux_ctz_ulong(ulong x) { return x ? (uint)__builtin_ctzl(x) : 64; }
static uint clmux_ctz_uchar(uchar x) { return (uint)__builtin_ctz((uint)x | 0x100u); }
static uint clmux_ctz_ushort(ushort x) { return (uint)__builtin_ctz((uint)x | 0x10000u); }
static uint clmux_popcount_uint(uint x) { return (uint)__builtin_popcount(x); }
static uint clmux_popcount_ulong(ulong x) { return (uint)__builtin_popcountl(x); }
static uint clmux_popcount_uchar(uchar x) { return clmux_popcount_uint(x); }
static uint clmux_popcount_ushort(ushort x) { return clmux_popcount_uint(x); }

/* mad_sat: the exact a*b+c fits the wider type (also for 64 bits in 128:
 * (2^64-1)^2 + 2^64-1 < 2^128), then saturate. */
#define SCALAR_MAD_SAT(T, W, LO, HI)                                         \
  OVL T mad_sat(T x, T y, T z) {                                             \
    W r = (W)x * (W)y + (W)z;                                                \
    return (T)(r < (W)LO ? (W)LO : r > (W)HI ? (W)HI : r);                   \
  }

#define SCALAR_SIGNED(T, U)                                                  \
  OVL U abs(T x) { return (U)__builtin_elementwise_abs(x); }
#define SCALAR_UNSIGNED(T)                                                   \
  OVL T abs(T x) { return x; }

#define VECTOR_FORMS(T, U, n)                                                \
  VEC1(U, abs, T, n)                                                         \
  VEC2(U, abs_diff, T, T, n)                                                 \
  VEC2(T, mul_hi, T, T, n)                                                   \
  VEC3(T, mad_hi, T, n)                                                      \
  VEC3(T, mad_sat, T, n)                                                     \
  VEC2(T, rotate, T, T, n)                                                   \
  VEC1(T, clz, T, n)                                                         \
  VEC1(T, ctz, T, n)                                                         \
  VEC1(T, popcount, T, n)                                                    \
  SCALAR_BOUNDS(T, n)

#define INTEGER_TYPE(T, U, BITS, W, LO, HI)                                  \
  EVERY_WIDTH(ELEMENTWISE, T)                                                \
  ALL_WIDTHS(SATURATING, T)                                                  \
  SCALAR_COMMON(T, U, BITS, W)                                               \
  SCALAR_MAD_SAT(T, W, LO, HI)                                               \
  ALL_WIDTHS(VECTOR_FORMS, T, U)

SCALAR_SIGNED(char, uchar)
SCALAR_SIGNED(short, ushort)
SCALAR_SIGNED(int, uint)
SCALAR_SIGNED(long, ulong)
SCALAR_UNSIGNED(uchar)
SCALAR_UNSIGNED(ushort)
SCALAR_UNSIGNED(uint)
SCALAR_UNSIGNED(ulong)

NARROW_SATURATING(char, CHAR_MIN, CHAR_MAX)
NARROW_SATURATING(uchar, 0, UCHAR_MAX)
NARROW_SATURATING(short, SHRT_MIN, SHRT_MAX)
NARROW_SATURATING(ushort, 0, USHRT_MAX)
SATURATING(int, )
SATURATING(uint, )
SATURATING(long, )
SATURATING(ulong, )

INTEGER_TYPE(char, uchar, 8, int, CHAR_MIN, CHAR_MAX)
INTEGER_TYPE(uchar, uchar, 8, uint, 0, UCHAR_MAX)
INTEGER_TYPE(short, ushort, 16, int, SHRT_MIN, SHRT_MAX)
INTEGER_TYPE(ushort, ushort, 16, uint, 0, USHRT_MAX)
INTEGER_TYPE(int, uint, 32, long, INT_MIN, INT_MAX)
INTEGER_TYPE(uint, uint, 32, ulong, 0, UINT_MAX)
INTEGER_TYPE(long, ulong, 64, __int128, LONG_MIN, LONG_MAX)
INTEGER_TYPE(ulong, ulong, 64, unsigned __int128, 0, ULONG_MAX)

/* ---- upsample: hi << bits | lo, into the twice-as-wide type ------------ */

#define UPSAMPLE(R, H, L, BITS)                                              \
  OVL R upsample(H hi, L lo) { return (R)(((R)hi << BITS) | (R)lo); }        \
  ALL_WIDTHS(VEC2, R, upsample, H, L)

UPSAMPLE(short, char, uchar, 8)
UPSAMPLE(ushort, uchar, uchar, 8)
UPSAMPLE(int, short, ushort, 16)
UPSAMPLE(uint, ushort, ushort, 16)
UPSAMPLE(long, int, uint, 32)
UPSAMPLE(ulong, uint, uint, 32)

/* ---- mul24 / mad24: 32-bit products (inputs are 24-bit by contract) ---- */

#define MUL24(T)                                                             \
  OVL T mul24(T x, T y) { return (T)((uint)x * (uint)y); }                   \
  OVL T mad24(T x, T y, T z) { return (T)((uint)x * (uint)y + (uint)z); }    \
  ALL_WIDTHS(VEC2, T, mul24, T, T)                                           \
  ALL_WIDTHS(VEC3, T, mad24, T)

MUL24(int)
MUL24(uint)

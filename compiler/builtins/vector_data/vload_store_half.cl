/* vload_half[n], vloada_halfn, vstore_half[n], vstorea_halfn with the four
 * rounding modes (OpenCL 1.2 section 6.12.7). Without cl_khr_fp16 a half
 * is only storage, so the conversions work on its bits with integer
 * arithmetic: exact for every input, denormals, infinities and NaNs
 * included, and free of branches so work-item loops still vectorize. */

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))

/* half bits -> float (always exact). Exponent and mantissa shifted into
 * a float's place read as 2^-112 times the value (a half denormal lands
 * on a float denormal), so one multiplication by 2^112 rebiases normals
 * and normalizes denormals alike; infinities and NaNs (exponent all ones)
 * then only need the float's exponent set to all ones. A single select,
 * no branches: work-item loops calling this vectorize. */
static float clmux_half_to_float(ushort h) {
  uint shifted = (uint)(h & 0x7fff) << 13;
  uint bits = as_uint(as_float(shifted) * 0x1p112f);
  bits |= (h & 0x7c00) == 0x7c00 ? 0x7f800000u : 0u;
  return as_float(bits | ((uint)(h & 0x8000) << 16));
}

/* The rounding modes, as the increment decision on the dropped bits. */
#define CLMUX_RTE 0
#define CLMUX_RTZ 1
#define CLMUX_RTP 2
#define CLMUX_RTN 3

/* float -> half bits, rounded by `mode`. The 24-bit significand is shifted
 * right so that the result has the half's 11 bits (fewer for a half
 * denormal); adding the exponent on top lets a rounding carry run into the
 * exponent, and from the largest finite value on to infinity. */
static ushort clmux_float_to_half(float f, int mode) {
  uint bits = as_uint(f);
  uint sign = (bits >> 16) & 0x8000;
  uint magnitude = bits & 0x7fffffff;
  int exponent = (int)(magnitude >> 23) - 127;
  uint significand = (magnitude & 0x7fffff) | 0x800000;
  if ((magnitude >> 23) == 0) { /* float denormal: no implicit bit */
    exponent = -126;
    significand = magnitude;
  }
  /* 13 bits go for a normal half; a half denormal (exponent < -14) loses
   * one more per step below; beyond 25 nothing but a sticky rest is left. */
  int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
  shift = shift > 25 ? 25 : shift;
  uint kept = significand >> shift;
  uint rest = significand & ((1u << shift) - 1);
  uint halfway = 1u << (shift - 1);
  uint result = exponent < -14 ? kept : ((uint)(exponent + 14) << 10) + kept;
  bool negative = sign != 0;
  /* Bitwise, not short-circuit: no branch to stop vectorization. */
  bool up = mode == CLMUX_RTE ? (rest > halfway) | ((rest == halfway) & (kept & 1))
          : mode == CLMUX_RTP ? (rest != 0) & !negative
          : mode == CLMUX_RTN ? (rest != 0) & negative
          : false;
  result += up ? 1 : 0;
  /* Beyond the largest finite half (65504 < 2^16): infinity when rounding
   * away from zero in that direction, else the largest finite. */
  bool to_infinity = (mode == CLMUX_RTE) | ((mode == CLMUX_RTP) & !negative) |
                     ((mode == CLMUX_RTN) & negative);
  if (exponent > 15) result = to_infinity ? 0x7c00 : 0x7bff;
  if (magnitude == 0x7f800000) result = 0x7c00;
  if (magnitude > 0x7f800000) result = 0x7e00 | ((magnitude >> 13) & 0x3ff); /* quiet */
  return (ushort)(sign | result);
}

/* ---- loads ------------------------------------------------------------ */

/* n halves from p + offset * step (step is n, or 4 for vloada_half3). */
#define VLOAD_HALF_N(name, n, step, AS)                                     \
  OVL float##n name(size_t offset, const AS half *p) {                      \
    const AS ushort *h = (const AS ushort *)p + offset * step;              \
    float##n r;                                                             \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) r[i] = clmux_half_to_float(h[i]);           \
    return r;                                                               \
  }

#define VLOAD_HALF_ALL(AS)                                                  \
  OVL float vload_half(size_t offset, const AS half *p) {                   \
    return clmux_half_to_float(((const AS ushort *)p)[offset]);             \
  }                                                                         \
  VLOAD_HALF_N(vload_half2, 2, 2, AS)                                       \
  VLOAD_HALF_N(vload_half3, 3, 3, AS)                                       \
  VLOAD_HALF_N(vload_half4, 4, 4, AS)                                       \
  VLOAD_HALF_N(vload_half8, 8, 8, AS)                                       \
  VLOAD_HALF_N(vload_half16, 16, 16, AS)                                    \
  VLOAD_HALF_N(vloada_half2, 2, 2, AS)                                      \
  VLOAD_HALF_N(vloada_half3, 3, 4, AS)                                      \
  VLOAD_HALF_N(vloada_half4, 4, 4, AS)                                      \
  VLOAD_HALF_N(vloada_half8, 8, 8, AS)                                      \
  VLOAD_HALF_N(vloada_half16, 16, 16, AS)

VLOAD_HALF_ALL(__global)
VLOAD_HALF_ALL(__local)
VLOAD_HALF_ALL(__constant)
VLOAD_HALF_ALL()

/* ---- stores ----------------------------------------------------------- */

/* F is the source type (float or double), CVT its scalar converter. */
#define VSTORE_HALF_1(name, F, CVT, mode, AS)                               \
  OVL void name(F data, size_t offset, AS half *p) {                        \
    ((AS ushort *)p)[offset] = CVT(data, mode);                             \
  }

#define VSTORE_HALF_N(name, F, CVT, n, step, mode, AS)                      \
  OVL void name(F##n data, size_t offset, AS half *p) {                     \
    AS ushort *h = (AS ushort *)p + offset * step;                          \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) h[i] = CVT(data[i], mode);                  \
  }

#define VSTORE_HALF_MODE(suffix, F, CVT, mode, AS)                          \
  VSTORE_HALF_1(vstore_half##suffix, F, CVT, mode, AS)                      \
  VSTORE_HALF_N(vstore_half2##suffix, F, CVT, 2, 2, mode, AS)               \
  VSTORE_HALF_N(vstore_half3##suffix, F, CVT, 3, 3, mode, AS)               \
  VSTORE_HALF_N(vstore_half4##suffix, F, CVT, 4, 4, mode, AS)               \
  VSTORE_HALF_N(vstore_half8##suffix, F, CVT, 8, 8, mode, AS)               \
  VSTORE_HALF_N(vstore_half16##suffix, F, CVT, 16, 16, mode, AS)            \
  VSTORE_HALF_N(vstorea_half2##suffix, F, CVT, 2, 2, mode, AS)              \
  VSTORE_HALF_N(vstorea_half3##suffix, F, CVT, 3, 4, mode, AS)              \
  VSTORE_HALF_N(vstorea_half4##suffix, F, CVT, 4, 4, mode, AS)              \
  VSTORE_HALF_N(vstorea_half8##suffix, F, CVT, 8, 8, mode, AS)              \
  VSTORE_HALF_N(vstorea_half16##suffix, F, CVT, 16, 16, mode, AS)

/* Without a suffix: the default rounding mode, to nearest even. */
#define VSTORE_HALF_ALL(F, CVT, AS)                                         \
  VSTORE_HALF_MODE(, F, CVT, CLMUX_RTE, AS)                                 \
  VSTORE_HALF_MODE(_rte, F, CVT, CLMUX_RTE, AS)                             \
  VSTORE_HALF_MODE(_rtz, F, CVT, CLMUX_RTZ, AS)                             \
  VSTORE_HALF_MODE(_rtp, F, CVT, CLMUX_RTP, AS)                             \
  VSTORE_HALF_MODE(_rtn, F, CVT, CLMUX_RTN, AS)

VSTORE_HALF_ALL(float, clmux_float_to_half, __global)
VSTORE_HALF_ALL(float, clmux_float_to_half, __local)
VSTORE_HALF_ALL(float, clmux_float_to_half, )

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* double -> half bits directly (through float would round twice): the
 * float algorithm with a 53-bit significand, 42 bits dropped for a normal
 * half. */
static ushort clmux_double_to_half(double d, int mode) {
  ulong bits = as_ulong(d);
  uint sign = (uint)(bits >> 48) & 0x8000;
  ulong magnitude = bits & 0x7fffffffffffffffUL;
  int exponent = (int)(magnitude >> 52) - 1023;
  ulong significand = (magnitude & 0xfffffffffffffUL) | 0x10000000000000UL;
  if ((magnitude >> 52) == 0) {
    exponent = -1022;
    significand = magnitude;
  }
  int shift = exponent < -14 ? 42 + (-14 - exponent) : 42;
  shift = shift > 54 ? 54 : shift;
  ulong kept = significand >> shift;
  ulong rest = significand & ((1UL << shift) - 1);
  ulong halfway = 1UL << (shift - 1);
  uint result = (uint)(exponent < -14 ? kept : ((ulong)(exponent + 14) << 10) + kept);
  bool negative = sign != 0;
  bool up = mode == CLMUX_RTE ? (rest > halfway) | ((rest == halfway) & (kept & 1))
          : mode == CLMUX_RTP ? (rest != 0) & !negative
          : mode == CLMUX_RTN ? (rest != 0) & negative
          : false;
  result += up ? 1 : 0;
  bool to_infinity = (mode == CLMUX_RTE) | ((mode == CLMUX_RTP) & !negative) |
                     ((mode == CLMUX_RTN) & negative);
  if (exponent > 15) result = to_infinity ? 0x7c00 : 0x7bff;
  if (magnitude == 0x7ff0000000000000UL) result = 0x7c00;
  if (magnitude > 0x7ff0000000000000UL)
    result = 0x7e00 | (uint)((magnitude >> 42) & 0x3ff); /* quiet */
  return (ushort)(sign | result);
}

VSTORE_HALF_ALL(double, clmux_double_to_half, __global)
VSTORE_HALF_ALL(double, clmux_double_to_half, __local)
VSTORE_HALF_ALL(double, clmux_double_to_half, )
#endif

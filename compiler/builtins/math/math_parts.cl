/* Exact math on a float's parts: exponent and mantissa, integral and
 * fractional parts, neighbours, magnitudes (remainders.cl: fmod,
 * remainder, remquo). */
#include "builtins_internal.h"

#define BITS(x) __builtin_bit_cast(uint, (x))
#define FLOAT(u) __builtin_bit_cast(float, (uint)(u))

CLMUX_OVL int ilogb(float x) {
  uint magnitude = BITS(x) & 0x7fffffffu;
  if (magnitude == 0) return FP_ILOGB0;
  if (magnitude >= 0x7f800000u) {
    return magnitude == 0x7f800000u ? INT_MAX : FP_ILOGBNAN;
  }
  if (magnitude < 0x00800000u) { /* subnormal: from its top bit */
    return 31 - (int)__builtin_clz(magnitude) - 149;
  }
  return (int)(magnitude >> 23) - 127;
}
CLMUX_SPLIT_1(int, ilogb, float)

CLMUX_OVL float logb(float x) {
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return INFINITY;
  if (x == 0.0f) return -INFINITY;
  return (float)ilogb(x);
}
CLMUX_SPLIT_1(float, logb, float)

/* In double, where x * 2^n is exact for |n| <= 350 (beyond, every float
 * has overflowed or vanished already), then one rounding: no libm call,
 * so it vectorizes. */
CLMUX_OVL float ldexp(float x, int n) {
  int clamped = n < -350 ? -350 : n > 350 ? 350 : n;
  double scale = __builtin_bit_cast(double, (ulong)(clamped + 1023) << 52);
  return (float)((double)x * scale);
}
CLMUX_SPLIT_2(float, ldexp, float, int)
CLMUX_SPLIT_2S(float, ldexp, float, int)

/* By bits, branch-free (vectorizable): subnormals are first scaled by
 * 2^24; zeros, infinities and NaN come back with exponent 0. */
CLMUX_OVL float frexp(float x, int *exp) {
  uint magnitude = BITS(x) & 0x7fffffffu;
  bool special = magnitude == 0 || magnitude >= 0x7f800000u;
  bool subnormal = magnitude < 0x00800000u;
  float scaled = subnormal ? x * 0x1p24f : x;
  uint bits = BITS(scaled);
  int exponent = (int)((bits >> 23) & 0xffu) - 126 - (subnormal ? 24 : 0);
  *exp = special ? 0 : exponent;
  return special ? x : FLOAT((bits & 0x807fffffu) | 0x3f000000u);
}
CLMUX_ALL_PTR(float, frexp, float, int)

/* The integral part keeps x's sign; an infinity has no fraction. */
CLMUX_OVL float modf(float x, float *iptr) {
  float integral = __builtin_truncf(x);
  *iptr = integral;
  float fraction = __builtin_isinf(x) ? 0.0f : x - integral;
  return __builtin_copysignf(fraction, x);
}
CLMUX_ALL_PTR(float, modf, float, float)

/* As the CTS reference: from modf, moved up by one when negative and kept
 * below 1. */
CLMUX_OVL float fract(float x, float *iptr) {
  if (__builtin_isnan(x)) {
    *iptr = x;
    return x;
  }
  float integral;
  float fraction = modf(x, &integral);
  if (fraction < 0.0f) {
    fraction = 1.0f + fraction;
    integral -= 1.0f;
    if (fraction == 1.0f) fraction = 0x1.fffffep-1f;
  }
  *iptr = integral;
  return fraction;
}
CLMUX_ALL_PTR(float, fract, float, float)

CLMUX_OVL float nan(uint nancode) { return FLOAT(nancode | 0x7fc00000u); }
CLMUX_SPLIT_1(float, nan, uint)

CLMUX_OVL float nextafter(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  if (x == y) return y;
  if (x == 0.0f) return __builtin_copysignf(FLOAT(1), y);
  uint bits = BITS(x);
  /* Away from zero when y is farther out on x's side. */
  bits += ((x < y) == (x > 0.0f)) ? 1 : (uint)-1;
  return FLOAT(bits);
}
CLMUX_SPLIT_2(float, nextafter, float, float)

CLMUX_OVL float fdim(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  return x > y ? x - y : 0.0f;
}
CLMUX_SPLIT_2(float, fdim, float, float)

CLMUX_OVL float maxmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax > ay ? x : ay > ax ? y : __builtin_fmaxf(x, y);
}
CLMUX_OVL float minmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax < ay ? x : ay < ax ? y : __builtin_fminf(x, y);
}
CLMUX_SPLIT_2(float, maxmag, float, float)
CLMUX_SPLIT_2(float, minmag, float, float)

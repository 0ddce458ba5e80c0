/* Exact math on a double's parts, as math_parts.cl does for float:
 * exponent and mantissa, integral and fractional parts, neighbours,
 * magnitudes. */
#include "builtins_internal.h"

#define BITS(x) __builtin_bit_cast(ulong, (x))
#define DOUBLE(u) __builtin_bit_cast(double, (ulong)(u))
#define MAGNITUDE 0x7fffffffffffffffUL
#define INFINITE_BITS 0x7ff0000000000000UL
#define SMALLEST_NORMAL_BITS 0x0010000000000000UL

CLMUX_OVL int ilogb(double x) {
  ulong magnitude = BITS(x) & MAGNITUDE;
  if (magnitude == 0) return FP_ILOGB0;
  if (magnitude >= INFINITE_BITS) {
    return magnitude == INFINITE_BITS ? INT_MAX : FP_ILOGBNAN;
  }
  if (magnitude < SMALLEST_NORMAL_BITS) { /* subnormal: its top bit */
    return 63 - (int)__builtin_clzl(magnitude) - 1074;
  }
  return (int)(magnitude >> 52) - 1023;
}
CLMUX_SPLIT_1(int, ilogb, double)

CLMUX_OVL double logb(double x) {
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return INFINITY;
  if (x == 0.0) return -INFINITY;
  return (double)ilogb(x);
}
CLMUX_SPLIT_1(double, logb, double)

/* Branch-free with at most one rounding: the exponent is set directly
 * when the result is normal; a subnormal result is first made normal
 * 2^600 too large and then scaled down by one multiplication. */
CLMUX_OVL double ldexp(double x, int n) {
  ulong magnitude = BITS(x) & MAGNITUDE;
  bool special = magnitude == 0 || magnitude >= INFINITE_BITS;
  bool subnormal = magnitude < SMALLEST_NORMAL_BITS;
  double normal = subnormal ? x * 0x1p54 : x;
  ulong bits = BITS(normal);
  int exponent = (int)((bits >> 52) & 0x7ff) - 1023 - (subnormal ? 54 : 0);
  int clamped = n < -4000 ? -4000 : n > 4000 ? 4000 : n;
  int target = exponent + clamped;
  /* Below 2^-1076 everything rounds to zero; keep the field in range. */
  int field = target < -1022 ? (target < -1076 ? -1076 : target) + 600
                             : target;
  double scaled =
      DOUBLE((bits & 0x800fffffffffffffUL) | ((ulong)(field + 1023) << 52));
  double result = target < -1022 ? scaled * 0x1p-600 : scaled;
  double overflow = __builtin_copysign(INFINITY, x);
  return special || n == 0 ? x : target > 1023 ? overflow : result;
}
CLMUX_SPLIT_2(double, ldexp, double, int)
CLMUX_SPLIT_2S(double, ldexp, double, int)

CLMUX_OVL double frexp(double x, int *exp) {
  ulong magnitude = BITS(x) & MAGNITUDE;
  bool special = magnitude == 0 || magnitude >= INFINITE_BITS;
  bool subnormal = magnitude < SMALLEST_NORMAL_BITS;
  double scaled = subnormal ? x * 0x1p54 : x;
  ulong bits = BITS(scaled);
  int exponent = (int)((bits >> 52) & 0x7ff) - 1022 - (subnormal ? 54 : 0);
  *exp = special ? 0 : exponent;
  return special ? x
                 : DOUBLE((bits & 0x800fffffffffffffUL) | 0x3fe0000000000000UL);
}
CLMUX_ALL_PTR(double, frexp, double, int)

CLMUX_OVL double modf(double x, double *iptr) {
  double integral = __builtin_trunc(x);
  *iptr = integral;
  double fraction = __builtin_isinf(x) ? 0.0 : x - integral;
  return __builtin_copysign(fraction, x);
}
CLMUX_ALL_PTR(double, modf, double, double)

CLMUX_OVL double fract(double x, double *iptr) {
  if (__builtin_isnan(x)) {
    *iptr = x;
    return x;
  }
  double integral;
  double fraction = modf(x, &integral);
  if (fraction < 0.0) {
    fraction = 1.0 + fraction;
    integral -= 1.0;
    if (fraction == 1.0) fraction = 0x1.fffffffffffffp-1;
  }
  *iptr = integral;
  return fraction;
}
CLMUX_ALL_PTR(double, fract, double, double)

CLMUX_OVL double nan(ulong nancode) {
  return DOUBLE(nancode | 0x7ff8000000000000UL);
}
CLMUX_SPLIT_1(double, nan, ulong)

CLMUX_OVL double nextafter(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  if (x == y) return y;
  if (x == 0.0) return __builtin_copysign(DOUBLE(1), y);
  ulong bits = BITS(x);
  bits += ((x < y) == (x > 0.0)) ? 1 : (ulong)-1;
  return DOUBLE(bits);
}
CLMUX_SPLIT_2(double, nextafter, double, double)

CLMUX_OVL double fdim(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  return x > y ? x - y : 0.0;
}
CLMUX_SPLIT_2(double, fdim, double, double)

CLMUX_OVL double maxmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax > ay ? x : ay > ax ? y : __builtin_fmax(x, y);
}
CLMUX_OVL double minmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax < ay ? x : ay < ax ? y : __builtin_fmin(x, y);
}
CLMUX_SPLIT_2(double, maxmag, double, double)
CLMUX_SPLIT_2(double, minmag, double, double)

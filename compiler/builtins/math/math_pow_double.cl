/* Double powers and roots beyond pow itself: powr, pown, rootn, rsqrt. */
#include "builtins_internal.h"

CLMUX_OVL double powr(double x, double y) {
  double nan = __builtin_nan("");
  if (x < 0.0 || __builtin_isnan(x) || __builtin_isnan(y)) return nan;
  if (x == 0.0 && y == 0.0) return nan;
  if (__builtin_isinf(x) && y == 0.0) return nan;
  if (x == 1.0 && __builtin_isinf(y)) return nan;
  return pow(__builtin_fabs(x), y);
}
CLMUX_SPLIT_2(double, powr, double, double)

/* Every int is a double: pow with the exponent's parity for the sign. */
CLMUX_OVL double pown(double x, int n) {
  double magnitude = pow(__builtin_fabs(x), (double)n);
  return (n & 1) ? __builtin_copysign(magnitude, x) : magnitude;
}
CLMUX_SPLIT_2(double, pown, double, int)

/* 2^(log2|x| / n) is off by up to ~750/n ulp (log2|x| carries its
 * rounding into the exponent); one Newton step on y^n = |x| brings it
 * within about 2 ulp: y += y (|x| / y^n - 1) / n. For |n| <= 64, tiny
 * and huge |x| are first scaled by 2^(n k) so that y^n stays normal,
 * then y by 2^-k; larger |n| are within 12 ulp without the step. */
CLMUX_OVL double rootn(double x, int n) {
  if (n == 0 || (x < 0.0 && !(n & 1)) || __builtin_isnan(x)) {
    return __builtin_nan("");
  }
  if (n == 1) return x;
  if (n == -1) return 1.0 / x;
  double magnitude = __builtin_fabs(x);
  if (magnitude == 0.0 || __builtin_isinf(magnitude)) {
    /* pow's special cases, with x's sign for odd n. */
    double special = pow(magnitude, 1.0 / (double)n);
    return (n & 1) ? __builtin_copysign(special, x) : special;
  }
  int size = n < 0 ? -n : n;
  bool extreme = magnitude < 0x1p-900 || magnitude > 0x1p900;
  int k = 0; /* y = rootn(|x| 2^(n k)) 2^-k */
  if (extreme && size <= 64) {
    k = magnitude < 0x1p-900 ? 900 / size : -(900 / size);
    if (n < 0) k = -k;
    magnitude = ldexp(magnitude, n * k);
    extreme = false;
  }
  double y = exp2(log2(magnitude) / (double)n);
  if (!extreme) {
    double power = pow(y, (double)n);
    y += y * ((magnitude / power - 1.0) / (double)n);
  }
  y = ldexp(y, -k);
  return (n & 1) ? __builtin_copysign(y, x) : y;
}
CLMUX_SPLIT_2(double, rootn, double, int)

/* Correctly rounded sqrt, then one division: under 2 ulp. */
CLMUX_OVL double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
CLMUX_SPLIT_1(double, rsqrt, double)

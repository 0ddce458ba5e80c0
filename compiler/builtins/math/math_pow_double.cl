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
 * then y by 2^-k; larger |n| are within 12 ulp without the step.
 * Every case is computed and the special ones chosen at the end: early
 * returns on n became a switch, which the loop vectorizer refuses. */
CLMUX_OVL double rootn(double x, int n) {
  double magnitude = __builtin_fabs(x);
  uint size = n < 0 ? 0u - (uint)n : (uint)n;
  bool tiny = magnitude < 0x1p-900, huge = magnitude > 0x1p900;
  bool scaled = (tiny || huge) && size - 1u < 64u; /* 1 <= |n| <= 64 */
  int k = scaled ? 900 / (int)(scaled ? size : 1u) : 0;
  if (huge != (n < 0)) k = -k; /* y = rootn(|x| 2^(n k)) 2^-k */
  double m = ldexp(magnitude, n * k);
  double y = exp2(log2(m) / (double)n);
  double power = pow(y, (double)n);
  double refined = y + y * ((m / power - 1.0) / (double)n);
  bool refine = scaled || !(tiny || huge);
  y = ldexp(refine ? refined : y, -k);
  /* |x| = 0 or inf: 0 or inf by n's sign, as pow gives. */
  double edge = (magnitude == 0.0) == (n > 0) ? 0.0 : __builtin_inf();
  double result = magnitude == 0.0 || __builtin_isinf(magnitude) ? edge : y;
  result = (n & 1) ? __builtin_copysign(result, x) : result;
  result = n == -1 ? 1.0 / x : result;
  result = n == 1 ? x : result;
  bool invalid = n == 0 || (x < 0.0 && !(n & 1)) || __builtin_isnan(x);
  return invalid ? __builtin_nan("") : result;
}
CLMUX_SPLIT_2(double, rootn, double, int)

/* Correctly rounded sqrt, then one division: under 2 ulp. */
CLMUX_OVL double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
CLMUX_SPLIT_1(double, rsqrt, double)

/* Powers and roots beyond pow itself: powr, pown, rootn, rsqrt. */
#include "builtins_internal.h"

double Sleef_log2_u10(double) CLMUX_PURE;
double Sleef_exp2_u10(double) CLMUX_PURE;

/* pow for x >= 0 only, with NaN where pow picks a value by convention
 * (0^0, inf^0, 1^inf) as 6.12.2 specifies. */
CLMUX_OVL float powr(float x, float y) {
  float nan = __builtin_nanf("");
  if (x < 0.0f || __builtin_isnan(x) || __builtin_isnan(y)) return nan;
  if (x == 0.0f && y == 0.0f) return nan;
  if (__builtin_isinf(x) && y == 0.0f) return nan;
  if (x == 1.0f && __builtin_isinf(y)) return nan;
  return pow(__builtin_fabsf(x), y);
}
CLMUX_SPLIT_2(float, powr, float, float)

/* |x|^n as 2^(n log2|x|) in double: every int is a double (as a float
 * exponent it would round), and where the result is a float (|n log2|x||
 * <= 150) the double error stays below 2^-44, so the result rounds once
 * to float as if exact; two SLEEF calls cost less than half of one pow.
 * x^0 is 1 for every x (0 * log2 0 would be NaN). The exponent's parity
 * decides the sign. */
CLMUX_OVL float pown(float x, int n) {
  double exponent = (double)n * Sleef_log2_u10((double)__builtin_fabsf(x));
  float magnitude = n == 0 ? 1.0f : (float)Sleef_exp2_u10(exponent);
  return (n & 1) ? __builtin_copysignf(magnitude, x) : magnitude;
}
CLMUX_SPLIT_2(float, pown, float, int)

/* x^(1/n) as 2^(log2|x| / n) in double: 1/n is not a float, and the
 * double computation rounds once to float. */
CLMUX_OVL float rootn(float x, int n) {
  if (n == 0 || (x < 0.0f && !(n & 1))) return __builtin_nanf("");
  double magnitude =
      Sleef_exp2_u10(Sleef_log2_u10((double)__builtin_fabsf(x)) / (double)n);
  float result = (float)magnitude;
  return (n & 1) ? __builtin_copysignf(result, x) : result;
}
CLMUX_SPLIT_2(float, rootn, float, int)

/* Two correctly rounded float steps: at most 1.49 ulp over every
 * non-negative float (checked exhaustively against 1/sqrt in double; the
 * bound from the two roundings alone is 2 ulp), and far cheaper than
 * double's square root and division when the loop stays scalar (an N-body
 * step over 4096 bodies: 26.6 -> 19.6 ms). */
CLMUX_OVL float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
CLMUX_SPLIT_1(float, rsqrt, float)

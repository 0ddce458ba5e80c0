/* Transcendental math through SLEEF's scalar functions of at most 1 ulp
 * (u05/u10/u15); cc_builtins_link gives each call SLEEF's vector forms,
 * so these stay vectorizable across work-items. The CTS limits are 3 to
 * 16 ulp: one SLEEF call, or one call and one rounding, fits all. */
#include "builtins_internal.h"

#define SLEEF_1(F, S)                                                       \
  float S(float) CLMUX_PURE;                                                \
  CLMUX_OVL float F(float x) { return S(x); }                               \
  CLMUX_SPLIT_1(float, F, float)
/* Where SLEEF's float form loses range (asinh and
 * acosh overflow past 1e19, sinh and cosh just below 89, log1p near
 * FLT_MAX), its double form, rounded once. */
#define SLEEF_1D(F, S)                                                      \
  double S(double) CLMUX_PURE;                                              \
  CLMUX_OVL float F(float x) { return (float)S((double)x); }                \
  CLMUX_SPLIT_1(float, F, float)
#define SLEEF_2(F, S)                                                       \
  float S(float, float) CLMUX_PURE;                                         \
  CLMUX_OVL float F(float x, float y) { return S(x, y); }                   \
  CLMUX_SPLIT_2(float, F, float, float)

SLEEF_1(acos, Sleef_acosf_u10)
SLEEF_1D(acosh, Sleef_acosh_u10)
SLEEF_1(asin, Sleef_asinf_u10)
SLEEF_1D(asinh, Sleef_asinh_u10)
SLEEF_1(atan, Sleef_atanf_u10)
SLEEF_1(atanh, Sleef_atanhf_u10)
SLEEF_1(cbrt, Sleef_cbrtf_u10)
SLEEF_1(cos, Sleef_cosf_u10)
SLEEF_1D(cosh, Sleef_cosh_u10)
SLEEF_1(erf, Sleef_erff_u10)
SLEEF_1(erfc, Sleef_erfcf_u15)
SLEEF_1(exp, Sleef_expf_u10)
SLEEF_1(exp2, Sleef_exp2f_u10)
SLEEF_1(exp10, Sleef_exp10f_u10)
SLEEF_1(expm1, Sleef_expm1f_u10)
SLEEF_1(lgamma, Sleef_lgammaf_u10)
SLEEF_1(log, Sleef_logf_u10)
SLEEF_1(log2, Sleef_log2f_u10)
SLEEF_1(log10, Sleef_log10f_u10)
SLEEF_1D(log1p, Sleef_log1p_u10)
SLEEF_1(sin, Sleef_sinf_u10)
SLEEF_1D(sinh, Sleef_sinh_u10)
SLEEF_1(tan, Sleef_tanf_u10)
SLEEF_1(tanh, Sleef_tanhf_u10)
SLEEF_2(atan2, Sleef_atan2f_u10)
SLEEF_2(hypot, Sleef_hypotf_u05)
SLEEF_2(pow, Sleef_powf_u10)

/* Divided by the float nearest pi: exact at the ends (asin(1) is
 * M_PI_F / 2), within 3 ulp elsewhere. */
CLMUX_OVL float asinpi(float x) { return asin(x) / M_PI_F; }
CLMUX_OVL float acospi(float x) { return acos(x) / M_PI_F; }
CLMUX_OVL float atanpi(float x) { return atan(x) / M_PI_F; }
CLMUX_OVL float atan2pi(float y, float x) { return atan2(y, x) / M_PI_F; }
CLMUX_SPLIT_1(float, asinpi, float)
CLMUX_SPLIT_1(float, acospi, float)
CLMUX_SPLIT_1(float, atanpi, float)
CLMUX_SPLIT_2(float, atan2pi, float, float)

/* SLEEF's sinpi and cospi go wrong from about 2^22 on: reduce to
 * [-1, 1] first, exactly (x - 2 rint(x / 2)). Integers give sinpi the
 * zero of x's sign, as 6.12.2 asks. */
float Sleef_sinpif_u05(float) CLMUX_PURE;
float Sleef_cospif_u05(float) CLMUX_PURE;
CLMUX_OVL float sinpi(float x) {
  float reduced = x - 2.0f * __builtin_rintf(0.5f * x);
  bool integral = x == __builtin_truncf(x) && __builtin_fabsf(x) < INFINITY;
  return integral ? __builtin_copysignf(0.0f, x) : Sleef_sinpif_u05(reduced);
}
/* Its only zeros, at n + 1/2, are +0 (SLEEF may give -0): adding +0
 * makes them so. */
CLMUX_OVL float cospi(float x) {
  return Sleef_cospif_u05(x - 2.0f * __builtin_rintf(0.5f * x)) + 0.0f;
}
CLMUX_SPLIT_1(float, sinpi, float)
CLMUX_SPLIT_1(float, cospi, float)

/* tanpi(n + 1/2) is +inf for even n and -inf for odd n: sinpi gives the
 * sign when cospi's zero is made +0. sinpi's signed zeros at integers
 * give tanpi's. */
CLMUX_OVL float tanpi(float x) { return sinpi(x) / (cospi(x) + 0.0f); }
CLMUX_SPLIT_1(float, tanpi, float)

/* SLEEF's double tgamma; a result that underflows keeps the sign of
 * gamma(x), negative between -2k-1 and -2k. */
double Sleef_tgamma_u10(double) CLMUX_PURE;
CLMUX_OVL float tgamma(float x) {
  float result = (float)Sleef_tgamma_u10((double)x);
  float below = __builtin_floorf(x);
  bool negative = x < 0.0f && x != below && __builtin_fmodf(below, 2.0f) != 0.0f;
  return result == 0.0f && negative ? -0.0f : result;
}
CLMUX_SPLIT_1(float, tgamma, float)

CLMUX_OVL float sincos(float x, float *cosval) {
  *cosval = cos(x);
  return sin(x);
}
CLMUX_ALL_PTR(float, sincos, float, float)

/* The sign of gamma(x): negative between -2k-1 and -2k (floor(x) odd;
 * halving an integer-valued float is exact), and at -0. */
CLMUX_OVL float lgamma_r(float x, int *signp) {
  float result = lgamma(x);
  float below = __builtin_floorf(x), halved = below * 0.5f;
  int sign = 1;
  if (__builtin_isnan(x)) {
    sign = 0;
  } else if (x == 0.0f) {
    sign = __builtin_signbit(x) ? -1 : 1;
  } else if (x < 0.0f && x != below) {
    sign = halved == __builtin_floorf(halved) ? 1 : -1;
  }
  *signp = sign;
  return result;
}
CLMUX_ALL_PTR(float, lgamma_r, float, int)

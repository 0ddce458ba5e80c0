/* Double transcendental math through SLEEF's double functions of at most
 * 1 ulp (u05/u10/u15), vectorizable like the float ones; the CTS limits
 * for doubles are 2 to 16 ulp. Where SLEEF's double form loses range,
 * an identity takes over near the ends. */
#include "builtins_internal.h"

#define SLEEF_1(F, S)                                                       \
  double S(double) CLMUX_PURE;                                              \
  CLMUX_OVL double F(double x) { return S(x); }                             \
  CLMUX_SPLIT_1(double, F, double)
#define SLEEF_2(F, S)                                                       \
  double S(double, double) CLMUX_PURE;                                      \
  CLMUX_OVL double F(double x, double y) { return S(x, y); }                \
  CLMUX_SPLIT_2(double, F, double, double)

SLEEF_1(acos, Sleef_acos_u10)
SLEEF_1(asin, Sleef_asin_u10)
SLEEF_1(atan, Sleef_atan_u10)
SLEEF_1(atanh, Sleef_atanh_u10)
SLEEF_1(cbrt, Sleef_cbrt_u10)
SLEEF_1(cos, Sleef_cos_u10)
SLEEF_1(erf, Sleef_erf_u10)
SLEEF_1(erfc, Sleef_erfc_u15)
SLEEF_1(exp2, Sleef_exp2_u10)
SLEEF_1(exp10, Sleef_exp10_u10)
SLEEF_1(expm1, Sleef_expm1_u10)
SLEEF_1(lgamma, Sleef_lgamma_u10)
SLEEF_1(log, Sleef_log_u10)
SLEEF_1(log2, Sleef_log2_u10)
SLEEF_1(log10, Sleef_log10_u10)
SLEEF_1(sin, Sleef_sin_u10)
SLEEF_1(tan, Sleef_tan_u10)
SLEEF_1(tanh, Sleef_tanh_u10)
SLEEF_2(atan2, Sleef_atan2_u10)
SLEEF_2(hypot, Sleef_hypot_u05)

/* SLEEF's exp overflows from about 709.7827 on, a little before DBL_MAX
 * does: past 709, e^x is e^(x-1) e (x - 1 exact, within 2 ulp), one call
 * either way so that it vectorizes as one. */
double Sleef_exp_u10(double) CLMUX_PURE;
CLMUX_OVL double exp(double x) {
  bool high = x > 709.0;
  double result = Sleef_exp_u10(high ? x - 1.0 : x);
  return high ? result * M_E : result;
}
CLMUX_SPLIT_1(double, exp, double)

/* Results within a hair of DBL_MAX come back infinite from SLEEF (its
 * exp step overflows first): where x's bits say x^y may reach 2^1023,
 * x^y is (|x|^(y/2))^2 (about 2.5 ulp) with the sign or NaN a negative x
 * gives; x^1 is x (the square could round past DBL_MAX). One SLEEF call
 * either way, so that vector code makes one. */
double Sleef_pow_u10(double, double) CLMUX_PURE;
CLMUX_OVL double pow(double x, double y) {
  /* log2|x| lies in [t, t + 0.0861] for normal x = 2^e (1 + m), t = e + m
   * (log2(1 + m) - m peaks at 0.0861), in [-1075, -1022] if subnormal. */
  long bits = as_long(x);
  int field = (int)((bits >> 52) & 0x7ff);
  double t = (double)(field - 1023) + (double)(bits & 0xfffffffffffffL) *
                                          0x1p-52;
  double low = field ? t : -1075.0, high = field ? t + 0.0861 : -1022.0;
  bool big = __builtin_isfinite(x) & __builtin_isfinite(y) & (x != 0.0) &
             ((y > 0.0 ? y * high : y * low) > 1023.0);
  double root = Sleef_pow_u10(big ? __builtin_fabs(x) : x, big ? 0.5 * y : y);
  /* No branch: one on `big` (or &&'s, once inlined into powr or pown)
   * would let the optimizer split the call. */
  double square = root * root;
  bool odd = 0.5 * y != __builtin_trunc(0.5 * y);
  double from_negative = y != __builtin_trunc(y) ? __builtin_nan("")
                         : odd                   ? -square
                                                 : square;
  double result = big ? (x < 0.0 ? from_negative : square) : root;
  return y == 1.0 ? x : result;
}
CLMUX_SPLIT_2(double, pow, double, double)

double Sleef_asinh_u10(double) CLMUX_PURE;
double Sleef_acosh_u10(double) CLMUX_PURE;
double Sleef_log1p_u10(double) CLMUX_PURE;
double Sleef_sinh_u10(double) CLMUX_PURE;
double Sleef_cosh_u10(double) CLMUX_PURE;

/* SLEEF's asinh and acosh overflow past sqrt(DBL_MAX): beyond 2^500 the
 * result is log(2|x|) = log|x| + ln 2 to far below an ulp. */
CLMUX_OVL double asinh(double x) {
  double big = __builtin_copysign(log(__builtin_fabs(x)) + M_LN2, x);
  return __builtin_fabs(x) > 0x1p500 ? big : Sleef_asinh_u10(x);
}
CLMUX_OVL double acosh(double x) {
  return x > 0x1p500 ? log(x) + M_LN2 : Sleef_acosh_u10(x);
}
/* Near DBL_MAX SLEEF's log1p overflows inside; there 1 + x is x. */
CLMUX_OVL double log1p(double x) {
  return x > 0x1p1000 ? log(x) : Sleef_log1p_u10(x);
}
/* SLEEF's sinh and cosh compute exp(|x|) and overflow from 709.78 on,
 * though the results stay finite to 710.47: there they are
 * e^(|x|/2) * (e^(|x|/2) / 2), each factor finite. */
CLMUX_OVL double sinh(double x) {
  double root = exp(0.5 * __builtin_fabs(x));
  double big = __builtin_copysign(root * (0.5 * root), x);
  return __builtin_fabs(x) > 709.0 ? big : Sleef_sinh_u10(x);
}
CLMUX_OVL double cosh(double x) {
  double root = exp(0.5 * __builtin_fabs(x));
  return __builtin_fabs(x) > 709.0 ? root * (0.5 * root) : Sleef_cosh_u10(x);
}
CLMUX_SPLIT_1(double, asinh, double)
CLMUX_SPLIT_1(double, acosh, double)
CLMUX_SPLIT_1(double, log1p, double)
CLMUX_SPLIT_1(double, sinh, double)
CLMUX_SPLIT_1(double, cosh, double)

/* Divided by the double nearest pi, as for float. */
CLMUX_OVL double asinpi(double x) { return asin(x) / M_PI; }
CLMUX_OVL double acospi(double x) { return acos(x) / M_PI; }
CLMUX_OVL double atanpi(double x) { return atan(x) / M_PI; }
CLMUX_OVL double atan2pi(double y, double x) { return atan2(y, x) / M_PI; }
CLMUX_SPLIT_1(double, asinpi, double)
CLMUX_SPLIT_1(double, acospi, double)
CLMUX_SPLIT_1(double, atanpi, double)
CLMUX_SPLIT_2(double, atan2pi, double, double)

/* Exact reduction to [-1, 1] first, as for float. */
double Sleef_sinpi_u05(double) CLMUX_PURE;
double Sleef_cospi_u05(double) CLMUX_PURE;
CLMUX_OVL double sinpi(double x) {
  double reduced = x - 2.0 * __builtin_rint(0.5 * x);
  bool integral = x == __builtin_trunc(x) && __builtin_fabs(x) < INFINITY;
  return integral ? __builtin_copysign(0.0, x) : Sleef_sinpi_u05(reduced);
}
CLMUX_OVL double cospi(double x) {
  return Sleef_cospi_u05(x - 2.0 * __builtin_rint(0.5 * x)) + 0.0;
}
CLMUX_OVL double tanpi(double x) { return sinpi(x) / (cospi(x) + 0.0); }
CLMUX_SPLIT_1(double, sinpi, double)
CLMUX_SPLIT_1(double, cospi, double)
CLMUX_SPLIT_1(double, tanpi, double)

/* SLEEF's tgamma loses accuracy for negative x near the poles (1600 ulp
 * at -172.00000000003) and in the subnormal results: there the
 * reflection gamma(x) = pi / (sinpi(x) gamma(1 - x)) is used, with
 * sinpi reducing x exactly, 1 - x kept as a double-double z + dz
 * (gamma(z + dz) = gamma(z) (1 + psi(z) dz), psi(z) ~ log z - 1/2z -
 * 1/12z^2), and, past z = 150 where gamma(z) overflows, gamma(z) =
 * gamma(z - 16) (z - 1) ... (z - 16), the product divided last so the
 * result rounds once. An underflowed result keeps gamma's sign. */
double Sleef_tgamma_u10(double) CLMUX_PURE;
CLMUX_OVL double tgamma(double x) {
  bool reflect = x < -0.5 && x > -190.0 && x != __builtin_trunc(x);
  double z = 1.0 - x; /* TwoSum: dz is what rounding dropped */
  double b = z - 1.0;
  double dz = (1.0 - (z - b)) + (-x - b);
  bool shift = z > 150.0;
  /* One SLEEF call either way and no branch (a branch on `reflect`
   * would let the optimizer split the call in two again), so that vector
   * code makes one call. */
  double gamma =
      Sleef_tgamma_u10(reflect ? (shift ? z - 16.0 : z) : x);
  double product = 1.0;
  for (int i = 1; i <= 16; i++) product *= shift ? z - (double)i : 1.0;
  double psi = log(z) - 0.5 / z - 1.0 / (12.0 * z * z);
  double gamma_z = gamma * (1.0 + psi * dz);
  double result =
      reflect ? (M_PI / (sinpi(x) * gamma_z)) / product : gamma;
  /* gamma is negative between -2k-1 and -2k: floor(x) odd. */
  double half_below = 0.5 * __builtin_floor(x);
  bool negative = x < 0.0 && x != __builtin_trunc(x) &&
                  half_below != __builtin_trunc(half_below);
  return result == 0.0 && negative ? -0.0 : result;
}
CLMUX_SPLIT_1(double, tgamma, double)

CLMUX_OVL double sincos(double x, double *cosval) {
  *cosval = cos(x);
  return sin(x);
}
CLMUX_ALL_PTR(double, sincos, double, double)

/* As the float form: floor(x) odd gives a negative gamma. */
CLMUX_OVL double lgamma_r(double x, int *signp) {
  double result = lgamma(x);
  double below = __builtin_floor(x), halved = below * 0.5;
  int sign = 1;
  if (__builtin_isnan(x)) {
    sign = 0;
  } else if (x == 0.0) {
    sign = __builtin_signbit(x) ? -1 : 1;
  } else if (x < 0.0 && x != below) {
    sign = halved == __builtin_floor(halved) ? 1 : -1;
  }
  *signp = sign;
  return result;
}
CLMUX_ALL_PTR(double, lgamma_r, double, int)

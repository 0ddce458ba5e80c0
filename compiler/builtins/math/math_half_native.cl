/* half_* (at most 8192 ulp; sin, cos and tan on |x| <= 2^16) and native_*
 * (implementation-defined accuracy). Where SLEEF has a 3.5-ulp form more
 * than 1.5x faster than the 1-ulp one (sin, cos, tan, log, log2, exp10)
 * both use it; log10 and powr are built on log2's; the rest are the
 * full-accuracy functions, which are as fast, or a plain operation.
 * -cl-fast-relaxed-math and -cl-unsafe-math-optimizations send calls of
 * the full-accuracy functions here (relaxed_calls.c), and the half forms
 * of sin, cos, tan, log, log2, log10 and exp10 call these (gen_half.py):
 * they rely on a few float ulp, not the 8192 allowed. All of these have
 * vector forms, so they vectorize like the rest. */
#include "builtins_internal.h"

#define FAST_1(F, S)                                                        \
  float S(float) CLMUX_PURE;                                                \
  CLMUX_OVL float half_##F(float x) { return S(x); }                        \
  CLMUX_OVL float native_##F(float x) { return S(x); }                      \
  CLMUX_SPLIT_1(float, half_##F, float)                                     \
  CLMUX_SPLIT_1(float, native_##F, float)

FAST_1(cos, Sleef_cosf_u35)
FAST_1(exp10, Sleef_exp10f_u35)
FAST_1(log, Sleef_logf_u35)
FAST_1(log2, Sleef_log2f_u35)
FAST_1(sin, Sleef_sinf_u35)
FAST_1(tan, Sleef_tanf_u35)

#define FULL_1(F)                                                           \
  CLMUX_OVL float half_##F(float x) { return F(x); }                        \
  CLMUX_OVL float native_##F(float x) { return F(x); }                      \
  CLMUX_SPLIT_1(float, half_##F, float)                                     \
  CLMUX_SPLIT_1(float, native_##F, float)

FULL_1(exp)
FULL_1(exp2)
FULL_1(rsqrt)
FULL_1(sqrt)

/* log2's relative error carries over; log10(1) stays exactly 0. */
#define LOG10_OF_2 0.301029995663981195f
CLMUX_OVL float half_log10(float x) { return Sleef_log2f_u35(x) * LOG10_OF_2; }
CLMUX_OVL float native_log10(float x) {
  return Sleef_log2f_u35(x) * LOG10_OF_2;
}
CLMUX_SPLIT_1(float, half_log10, float)
CLMUX_SPLIT_1(float, native_log10, float)

/* 2^(y log2 x): a few hundred ulp where |y log2 x| nears 128, against
 * 8192 allowed. IEEE arithmetic on log2's results gives powr's special
 * cases: x < 0 and 0 * inf (powr(0, 0), powr(1, inf), powr(inf, 0)) are
 * NaN; log2(0) = -inf gives +inf for y < 0 and 0 for y > 0. A result near
 * FLT_MAX may overflow early, which the 8192-ulp limit allows for. */
CLMUX_OVL float half_powr(float x, float y) {
  return exp2(y * Sleef_log2f_u35(x));
}
CLMUX_OVL float native_powr(float x, float y) { return half_powr(x, y); }
CLMUX_SPLIT_2(float, half_powr, float, float)
CLMUX_SPLIT_2(float, native_powr, float, float)

#define PLAIN_FLOATN(T)                                                     \
  CLMUX_OVL T half_divide(T x, T y) { return x / y; }                       \
  CLMUX_OVL T native_divide(T x, T y) { return x / y; }                     \
  CLMUX_OVL T half_recip(T x) { return 1.0f / x; }                          \
  CLMUX_OVL T native_recip(T x) { return 1.0f / x; }
CLMUX_EACH_FLOATN(PLAIN_FLOATN)

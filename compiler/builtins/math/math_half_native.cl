/* half_* (at most 8192 ulp, inputs in a reduced range) and native_*
 * (implementation-defined accuracy): the full-accuracy functions, which
 * vectorize as well, or a plain operation where one exists. */
#include "builtins_internal.h"

#define BOTH_1(F)                                                           \
  CLMUX_OVL float half_##F(float x) { return F(x); }                        \
  CLMUX_OVL float native_##F(float x) { return F(x); }                      \
  CLMUX_SPLIT_1(float, half_##F, float)                                     \
  CLMUX_SPLIT_1(float, native_##F, float)

BOTH_1(cos)
BOTH_1(exp)
BOTH_1(exp2)
BOTH_1(exp10)
BOTH_1(log)
BOTH_1(log2)
BOTH_1(log10)
BOTH_1(rsqrt)
BOTH_1(sin)
BOTH_1(sqrt)
BOTH_1(tan)

#define BOTH_FLOATN(T)                                                      \
  CLMUX_OVL T half_divide(T x, T y) { return x / y; }                       \
  CLMUX_OVL T native_divide(T x, T y) { return x / y; }                     \
  CLMUX_OVL T half_recip(T x) { return 1.0f / x; }                          \
  CLMUX_OVL T native_recip(T x) { return 1.0f / x; }                        \
  CLMUX_OVL T half_powr(T x, T y) { return powr(x, y); }                    \
  CLMUX_OVL T native_powr(T x, T y) { return powr(x, y); }
CLMUX_EACH_FLOATN(BOTH_FLOATN)

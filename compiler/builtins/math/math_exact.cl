/* Math functions that are one LLVM intrinsic each, exact and vectorizable
 * as they are: Clang's element-wise builtins take scalars and vectors. */
#include "builtins_internal.h"

#define EXACT(T)                                                            \
  CLMUX_OVL T sqrt(T x) { return __builtin_elementwise_sqrt(x); }           \
  CLMUX_OVL T fabs(T x) { return __builtin_elementwise_abs(x); }            \
  CLMUX_OVL T floor(T x) { return __builtin_elementwise_floor(x); }         \
  CLMUX_OVL T ceil(T x) { return __builtin_elementwise_ceil(x); }           \
  CLMUX_OVL T trunc(T x) { return __builtin_elementwise_trunc(x); }         \
  CLMUX_OVL T rint(T x) { return __builtin_elementwise_rint(x); }           \
  CLMUX_OVL T round(T x) { return __builtin_elementwise_round(x); }         \
  CLMUX_OVL T copysign(T x, T y) {                                          \
    return __builtin_elementwise_copysign(x, y);                            \
  }                                                                         \
  CLMUX_OVL T fma(T a, T b, T c) {                                          \
    return __builtin_elementwise_fma(a, b, c);                              \
  }                                                                         \
  /* mad may be any accuracy: the fused form is the fast one here. */       \
  CLMUX_OVL T mad(T a, T b, T c) {                                          \
    return __builtin_elementwise_fma(a, b, c);                              \
  }                                                                         \
  /* maxnum/minnum: a NaN operand yields the other one, as 6.12.2 says. */  \
  CLMUX_OVL T fmax(T x, T y) { return __builtin_elementwise_max(x, y); }    \
  CLMUX_OVL T fmin(T x, T y) { return __builtin_elementwise_min(x, y); }
CLMUX_EACH_FLOATN(EXACT)
CLMUX_EACH_DOUBLEN(EXACT)

#define EXACT_WITH_SCALAR(T, N)                                             \
  CLMUX_OVL T##N fmax(T##N x, T y) {                                        \
    return __builtin_elementwise_max(x, (T##N)(y));                         \
  }                                                                         \
  CLMUX_OVL T##N fmin(T##N x, T y) {                                        \
    return __builtin_elementwise_min(x, (T##N)(y));                         \
  }
#define EXACT_WITH_SCALAR_ALL(T)                                            \
  EXACT_WITH_SCALAR(T, 2)                                                   \
  EXACT_WITH_SCALAR(T, 3)                                                   \
  EXACT_WITH_SCALAR(T, 4)                                                   \
  EXACT_WITH_SCALAR(T, 8)                                                   \
  EXACT_WITH_SCALAR(T, 16)
EXACT_WITH_SCALAR_ALL(float)
EXACT_WITH_SCALAR_ALL(double)

/* Common functions (OpenCL 1.2 section 6.12.4), float and double forms.
 * Integer clamp, max and min live with the integer functions. */
#include "builtins_internal.h"

/* Scalar and vector forms apart: a vector comparison yields an integer
 * vector (-1 for true), a scalar one an int. `PI` is T's nearest pi. */
#define COMMON_SCALAR(T, PI)                                                \
  CLMUX_OVL T max(T x, T y) { return __builtin_elementwise_max(x, y); }     \
  CLMUX_OVL T min(T x, T y) { return __builtin_elementwise_min(x, y); }     \
  CLMUX_OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }        \
  CLMUX_OVL T degrees(T radians) { return ((T)180 / PI) * radians; }        \
  CLMUX_OVL T radians(T degrees) { return (PI / (T)180) * degrees; }        \
  CLMUX_OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                \
  CLMUX_OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }          \
  CLMUX_OVL T smoothstep(T edge0, T edge1, T x) {                           \
    T t = clamp((x - edge0) / (edge1 - edge0), (T)0, (T)1);                 \
    return t * t * ((T)3 - (T)2 * t);                                       \
  }                                                                         \
  CLMUX_OVL T sign(T x) {                                                   \
    if (x != x) return (T)0;                                                \
    return x == (T)0 ? x : __builtin_elementwise_copysign((T)1, x);         \
  }

#define COMMON_VECTOR(T, N, PI)                                             \
  CLMUX_OVL T##N max(T##N x, T##N y) {                                      \
    return __builtin_elementwise_max(x, y);                                 \
  }                                                                         \
  CLMUX_OVL T##N min(T##N x, T##N y) {                                      \
    return __builtin_elementwise_min(x, y);                                 \
  }                                                                         \
  CLMUX_OVL T##N max(T##N x, T y) { return max(x, (T##N)(y)); }             \
  CLMUX_OVL T##N min(T##N x, T y) { return min(x, (T##N)(y)); }             \
  CLMUX_OVL T##N clamp(T##N x, T##N lo, T##N hi) {                          \
    return min(max(x, lo), hi);                                             \
  }                                                                         \
  CLMUX_OVL T##N clamp(T##N x, T lo, T hi) { return min(max(x, lo), hi); }  \
  CLMUX_OVL T##N degrees(T##N r) { return ((T)180 / PI) * r; }              \
  CLMUX_OVL T##N radians(T##N d) { return (PI / (T)180) * d; }              \
  CLMUX_OVL T##N mix(T##N x, T##N y, T##N a) { return x + (y - x) * a; }    \
  CLMUX_OVL T##N mix(T##N x, T##N y, T a) { return x + (y - x) * a; }       \
  CLMUX_OVL T##N step(T##N edge, T##N x) {                                  \
    return x < edge ? (T##N)(0) : (T##N)(1);                                \
  }                                                                         \
  CLMUX_OVL T##N step(T edge, T##N x) { return step((T##N)(edge), x); }     \
  CLMUX_OVL T##N smoothstep(T##N e0, T##N e1, T##N x) {                     \
    T##N t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                       \
    return t * t * ((T)3 - (T)2 * t);                                       \
  }                                                                         \
  CLMUX_OVL T##N smoothstep(T e0, T e1, T##N x) {                           \
    return smoothstep((T##N)(e0), (T##N)(e1), x);                           \
  }                                                                         \
  CLMUX_OVL T##N sign(T##N x) {                                             \
    T##N one = __builtin_elementwise_copysign((T##N)(1), x);                \
    T##N zero_or_x = x == (T)0 ? x : one;                                   \
    return x != x ? (T##N)(0) : zero_or_x;                                  \
  }

#define COMMON_ALL(T, PI)                                                   \
  COMMON_SCALAR(T, PI)                                                      \
  COMMON_VECTOR(T, 2, PI)                                                   \
  COMMON_VECTOR(T, 3, PI)                                                   \
  COMMON_VECTOR(T, 4, PI)                                                   \
  COMMON_VECTOR(T, 8, PI)                                                   \
  COMMON_VECTOR(T, 16, PI)
COMMON_ALL(float, M_PI_F)
COMMON_ALL(double, M_PI)

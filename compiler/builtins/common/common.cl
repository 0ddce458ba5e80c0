/* Common functions (OpenCL 1.2 section 6.12.4), float forms. Integer
 * clamp, max and min live with the integer functions. */
#include "builtins_internal.h"

/* Scalar and vector forms apart: a vector comparison yields an int vector
 * (-1 for true), a scalar one an int. */
CLMUX_OVL float max(float x, float y) { return __builtin_fmaxf(x, y); }
CLMUX_OVL float min(float x, float y) { return __builtin_fminf(x, y); }
CLMUX_OVL float clamp(float x, float lo, float hi) {
  return __builtin_fminf(__builtin_fmaxf(x, lo), hi);
}
CLMUX_OVL float degrees(float radians) { return (180.0f / M_PI_F) * radians; }
CLMUX_OVL float radians(float degrees) { return (M_PI_F / 180.0f) * degrees; }
CLMUX_OVL float mix(float x, float y, float a) { return x + (y - x) * a; }
CLMUX_OVL float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
CLMUX_OVL float smoothstep(float edge0, float edge1, float x) {
  float t = clamp((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}
CLMUX_OVL float sign(float x) {
  if (x != x) return 0.0f;
  return x == 0.0f ? x : __builtin_copysignf(1.0f, x);
}

#define COMMON_VECTOR(N)                                                    \
  CLMUX_OVL float##N max(float##N x, float##N y) {                          \
    return __builtin_elementwise_max(x, y);                                 \
  }                                                                         \
  CLMUX_OVL float##N min(float##N x, float##N y) {                          \
    return __builtin_elementwise_min(x, y);                                 \
  }                                                                         \
  CLMUX_OVL float##N max(float##N x, float y) { return max(x, (float##N)(y)); } \
  CLMUX_OVL float##N min(float##N x, float y) { return min(x, (float##N)(y)); } \
  CLMUX_OVL float##N clamp(float##N x, float##N lo, float##N hi) {          \
    return min(max(x, lo), hi);                                             \
  }                                                                         \
  CLMUX_OVL float##N clamp(float##N x, float lo, float hi) {                \
    return min(max(x, lo), hi);                                             \
  }                                                                         \
  CLMUX_OVL float##N degrees(float##N r) { return (180.0f / M_PI_F) * r; }  \
  CLMUX_OVL float##N radians(float##N d) { return (M_PI_F / 180.0f) * d; }  \
  CLMUX_OVL float##N mix(float##N x, float##N y, float##N a) {              \
    return x + (y - x) * a;                                                 \
  }                                                                         \
  CLMUX_OVL float##N mix(float##N x, float##N y, float a) {                 \
    return x + (y - x) * a;                                                 \
  }                                                                         \
  CLMUX_OVL float##N step(float##N edge, float##N x) {                      \
    return x < edge ? (float##N)(0.0f) : (float##N)(1.0f);                  \
  }                                                                         \
  CLMUX_OVL float##N step(float edge, float##N x) {                         \
    return step((float##N)(edge), x);                                       \
  }                                                                         \
  CLMUX_OVL float##N smoothstep(float##N e0, float##N e1, float##N x) {     \
    float##N t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);                   \
    return t * t * (3.0f - 2.0f * t);                                       \
  }                                                                         \
  CLMUX_OVL float##N smoothstep(float e0, float e1, float##N x) {           \
    return smoothstep((float##N)(e0), (float##N)(e1), x);                   \
  }                                                                         \
  CLMUX_OVL float##N sign(float##N x) {                                     \
    float##N one = __builtin_elementwise_copysign((float##N)(1.0f), x);     \
    float##N zero_or_x = x == 0.0f ? x : one;                               \
    return x != x ? (float##N)(0.0f) : zero_or_x;                           \
  }
COMMON_VECTOR(2)
COMMON_VECTOR(3)
COMMON_VECTOR(4)
COMMON_VECTOR(8)
COMMON_VECTOR(16)

/* Geometric functions (OpenCL 1.2 section 6.12.5) on float, float2,
 * float3 and float4. length, distance and normalize take their sums of
 * squares in double: no overflow or underflow for any float input, and
 * one rounding at the end. */
#include "builtins_internal.h"

static double clmux_sum_sq2(float2 p) {
  double x = p.x, y = p.y;
  return x * x + y * y;
}
static double clmux_sum_sq3(float3 p) {
  double x = p.x, y = p.y, z = p.z;
  return x * x + y * y + z * z;
}
static double clmux_sum_sq4(float4 p) {
  double x = p.x, y = p.y, z = p.z, w = p.w;
  return x * x + y * y + z * z + w * w;
}

/* dot sums in float, products fused into the additions where the target
 * has FMA (OpenCL C contracts by default), pairwise for four elements:
 * a few roundings of the sum of the products' magnitudes, inside the
 * CTS's (2n-1)-epsilon bound, and as many lanes per vector as any float
 * code, where a double sum would halve them (an N-body's dot(d, d)). */
CLMUX_OVL float dot(float p0, float p1) { return p0 * p1; }
CLMUX_OVL float dot(float2 p0, float2 p1) {
  return p0.x * p1.x + p0.y * p1.y;
}
CLMUX_OVL float dot(float3 p0, float3 p1) {
  return p0.x * p1.x + p0.y * p1.y + p0.z * p1.z;
}
CLMUX_OVL float dot(float4 p0, float4 p1) {
  return (p0.x * p1.x + p0.y * p1.y) + (p0.z * p1.z + p0.w * p1.w);
}

CLMUX_OVL float3 cross(float3 a, float3 b) {
  return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                  a.x * b.y - a.y * b.x);
}
CLMUX_OVL float4 cross(float4 a, float4 b) {
  return (float4)(cross(a.xyz, b.xyz), 0.0f);
}

CLMUX_OVL float length(float p) { return __builtin_fabsf(p); }
CLMUX_OVL float length(float2 p) { return (float)__builtin_sqrt(clmux_sum_sq2(p)); }
CLMUX_OVL float length(float3 p) { return (float)__builtin_sqrt(clmux_sum_sq3(p)); }
CLMUX_OVL float length(float4 p) { return (float)__builtin_sqrt(clmux_sum_sq4(p)); }

CLMUX_OVL float distance(float p0, float p1) { return length(p0 - p1); }
CLMUX_OVL float distance(float2 p0, float2 p1) { return length(p0 - p1); }
CLMUX_OVL float distance(float3 p0, float3 p1) { return length(p0 - p1); }
CLMUX_OVL float distance(float4 p0, float4 p1) { return length(p0 - p1); }

/* Zero vectors come back unchanged; with an infinite element (the only
 * way a double sum of float squares is infinite) the vector becomes +-1
 * where infinite and 0 elsewhere, then is normalized; a NaN makes every
 * element NaN (through the sum). */
#define NORMALIZE(N, SUM)                                                   \
  CLMUX_OVL float##N normalize(float##N p) {                                \
    double sum = SUM(p);                                                    \
    if (__builtin_isinf(sum)) {                                             \
      int##N infinite = __builtin_elementwise_abs(p) == INFINITY;           \
      p = infinite ? __builtin_elementwise_copysign((float##N)(1.0f), p)    \
                   : 0.0f * p;                                              \
      sum = SUM(p);                                                         \
    }                                                                       \
    if (sum == 0.0) return p;                                               \
    double##N scaled = __builtin_convertvector(p, double##N) *              \
                       (1.0 / __builtin_sqrt(sum));                         \
    return __builtin_convertvector(scaled, float##N);                       \
  }
CLMUX_OVL float normalize(float p) {
  if (p == 0.0f || p != p) return p;
  return __builtin_copysignf(1.0f, p);
}
NORMALIZE(2, clmux_sum_sq2)
NORMALIZE(3, clmux_sum_sq3)
NORMALIZE(4, clmux_sum_sq4)

/* fast_*: plain float arithmetic (8192 ulp allowed, no range care). */
CLMUX_OVL float fast_length(float p) { return __builtin_fabsf(p); }
CLMUX_OVL float fast_length(float2 p) { return __builtin_sqrtf(dot(p, p)); }
CLMUX_OVL float fast_length(float3 p) { return __builtin_sqrtf(dot(p, p)); }
CLMUX_OVL float fast_length(float4 p) { return __builtin_sqrtf(dot(p, p)); }
CLMUX_OVL float fast_distance(float p0, float p1) { return fast_length(p0 - p1); }
CLMUX_OVL float fast_distance(float2 p0, float2 p1) { return fast_length(p0 - p1); }
CLMUX_OVL float fast_distance(float3 p0, float3 p1) { return fast_length(p0 - p1); }
CLMUX_OVL float fast_distance(float4 p0, float4 p1) { return fast_length(p0 - p1); }
CLMUX_OVL float fast_normalize(float p) { return normalize(p); }
#define FAST_NORMALIZE(N)                                                   \
  CLMUX_OVL float##N fast_normalize(float##N p) {                           \
    float sum = dot(p, p);                                                  \
    return sum == 0.0f ? p : p * (1.0f / __builtin_sqrtf(sum));             \
  }
FAST_NORMALIZE(2)
FAST_NORMALIZE(3)
FAST_NORMALIZE(4)

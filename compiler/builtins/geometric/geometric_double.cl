/* Geometric functions (OpenCL 1.2 section 6.12.5) on double, double2,
 * double3 and double4 (no fast_* forms for double). A double has no
 * wider type to square into: length and normalize first scale by a power
 * of two (exact) that brings the largest element near 1. */
#include "builtins_internal.h"

CLMUX_OVL double dot(double p0, double p1) { return p0 * p1; }
CLMUX_OVL double dot(double2 p0, double2 p1) {
  return p0.x * p1.x + p0.y * p1.y;
}
CLMUX_OVL double dot(double3 p0, double3 p1) {
  return p0.x * p1.x + p0.y * p1.y + p0.z * p1.z;
}
CLMUX_OVL double dot(double4 p0, double4 p1) {
  return p0.x * p1.x + p0.y * p1.y + p0.z * p1.z + p0.w * p1.w;
}

CLMUX_OVL double3 cross(double3 a, double3 b) {
  return (double3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                   a.x * b.y - a.y * b.x);
}
CLMUX_OVL double4 cross(double4 a, double4 b) {
  return (double4)(cross(a.xyz, b.xyz), 0.0);
}

static double clmux_max_abs2(double2 p) {
  return __builtin_fmax(__builtin_fabs(p.x), __builtin_fabs(p.y));
}
static double clmux_max_abs3(double3 p) {
  return __builtin_fmax(clmux_max_abs2(p.xy), __builtin_fabs(p.z));
}
static double clmux_max_abs4(double4 p) {
  return __builtin_fmax(clmux_max_abs2(p.xy), clmux_max_abs2(p.zw));
}

/* The exponent that scales the largest finite nonzero element into
 * [1, 2); 0 when no scaling is needed. */
static int clmux_scale_exponent(double largest) {
  bool extreme = largest > 0x1p500 || (largest < 0x1p-500 && largest > 0.0);
  return extreme && largest < INFINITY ? ilogb(largest) : 0;
}

CLMUX_OVL double length(double p) { return __builtin_fabs(p); }
CLMUX_OVL double distance(double p0, double p1) { return length(p0 - p1); }
CLMUX_OVL double normalize(double p) {
  if (p == 0.0 || p != p) return p;
  return __builtin_copysign(1.0, p);
}

/* An infinite element makes length infinite (the sum overflows); in
 * normalize the vector becomes +-1 where infinite and 0 elsewhere first.
 * A NaN gives NaN through the sum. */
#define GEOMETRIC(N)                                                        \
  CLMUX_OVL double length(double##N p) {                                    \
    int e = clmux_scale_exponent(clmux_max_abs##N(p));                      \
    double##N scaled = ldexp(p, -e);                                        \
    return ldexp(__builtin_sqrt(dot(scaled, scaled)), e);                   \
  }                                                                         \
  CLMUX_OVL double distance(double##N p0, double##N p1) {                   \
    return length(p0 - p1);                                                 \
  }                                                                         \
  CLMUX_OVL double##N normalize(double##N p) {                              \
    if (clmux_max_abs##N(p) == INFINITY) {                                  \
      long##N infinite = __builtin_elementwise_abs(p) == INFINITY;          \
      p = infinite ? __builtin_elementwise_copysign((double##N)(1.0), p)    \
                   : 0.0 * p;                                               \
    }                                                                       \
    int e = clmux_scale_exponent(clmux_max_abs##N(p));                      \
    double##N scaled = ldexp(p, -e);                                        \
    double sum = dot(scaled, scaled);                                       \
    if (sum == 0.0) return p;                                               \
    return scaled / __builtin_sqrt(sum);                                    \
  }
GEOMETRIC(2)
GEOMETRIC(3)
GEOMETRIC(4)

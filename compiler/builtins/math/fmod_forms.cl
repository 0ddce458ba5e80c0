/* The exact fmod reduction as out-of-line functions with vector forms
 * (CC_VECTOR_VARIANT_PREFIX): __clmux_vv_fmodf and __clmux_vv_fmod, and
 * __clmux_vv_fmodf4/8/16 and __clmux_vv_fmodd2/4/8 that vectorized loops
 * call instead (vector_variants.c). libm's fmod loops over the exponent
 * gap one element at a time; here the loop runs over whole vectors while
 * any lane has not finished: one round for a gap up to 51 bits, at most
 * 41 for the extreme doubles. Compiled with AVX-512 enabled (meson.build)
 * so that wide vectors pass in registers, as the vectorizer passes them.
 * remainders.cl builds fmod, remainder and remquo on them. */
#include "builtins_internal.h"

/* ax mod ay, exact, for finite ax >= 0 and finite ay > 0 (doubles, so
 * floats' gaps fit one round). A round scales ay by 2^s, s = gap - 51,
 * so q = trunc(ax / ays) < 2^52 is exact and within one above the true
 * quotient: ax - q * ays is then a multiple of ays's ulp below ays in
 * magnitude, so the fma gives it exactly, and a negative one gets ays
 * back. A lane that is done (ax < ay) has s = 0 and q = 0: unchanged.
 * Exponents of subnormals come from the value scaled by 2^54; 2^s is
 * applied in two halves, each a normal power of two. REDUCE turns the
 * lanes' "not done" mask into one truth value. */
#define CLMUX_FMOD_CORE(N, REDUCE)                                          \
  static double##N fmod_core##N(double##N ax, double##N ay) {               \
    while (REDUCE(ax >= ay)) {                                              \
      long##N s = __builtin_elementwise_max(                                \
          exponent##N(ax) - exponent##N(ay) - 51, (long##N)(0));            \
      long##N first = s >> 1;                                               \
      double##N ays = ay * power_of_two##N(first) *                         \
                      power_of_two##N(s - first);                           \
      double##N q = __builtin_elementwise_trunc(ax / ays);                  \
      ax = __builtin_elementwise_fma(-q, ays, ax);                          \
      ax = ax < (double##N)(0.0) ? ax + ays : ax;                           \
    }                                                                       \
    return ax;                                                              \
  }

#define CLMUX_FMOD_HELPERS(N)                                               \
  static long##N exponent##N(double##N v) {                                 \
    long##N subnormal = v < (double##N)(0x1p-1022);                         \
    double##N scaled = subnormal ? v * 0x1p54 : v;                          \
    long##N biased = __builtin_bit_cast(long##N, scaled) >> 52;             \
    return biased - 1023 - (subnormal ? (long##N)(54) : (long##N)(0));      \
  }                                                                         \
  /* 2^k for 0 <= k <= 1023. */                                             \
  static double##N power_of_two##N(long##N k) {                             \
    return __builtin_bit_cast(double##N, (k + 1023) << 52);                 \
  }

#define CLMUX_NO_REDUCE(mask) (mask)
CLMUX_FMOD_HELPERS()
CLMUX_FMOD_CORE(, CLMUX_NO_REDUCE)
#define CLMUX_FMOD_WIDTH(N)                                                 \
  CLMUX_FMOD_HELPERS(N) CLMUX_FMOD_CORE(N, __builtin_reduce_or)
CLMUX_FMOD_WIDTH(2)
CLMUX_FMOD_WIDTH(4)
CLMUX_FMOD_WIDTH(8)
CLMUX_FMOD_WIDTH(16)

/* fmod with its special cases: NaN for a NaN, an infinite x or a zero y;
 * x for an infinite y (kept out of the core: there q = 0 times ays = inf
 * would be NaN in lanes already done). The result has x's sign.
 * SCALAR_ATTRIBUTE keeps the scalar form out of line until codegen takes
 * over (which does the same by name). */
#define CLMUX_FMOD_FORM(T, N, MAX, NAME, SCALAR_ATTRIBUTE, CONVERT)         \
  SCALAR_ATTRIBUTE T##N NAME(T##N x, T##N y) {                              \
    T##N ax = __builtin_elementwise_abs(x);                                 \
    T##N ay = __builtin_elementwise_abs(y);                                 \
    __typeof__(ax < ay) defined = (ax <= (T##N)(MAX)) & (ay > (T##N)(0));   \
    __typeof__(ax < ay) reduce = defined & (ay <= (T##N)(MAX));             \
    double##N r =                                                           \
        fmod_core##N(CONVERT(reduce ? ax : (T##N)(0), double##N),           \
                     CONVERT(reduce ? ay : (T##N)(1), double##N));          \
    T##N result = __builtin_elementwise_copysign(CONVERT(r, T##N), x);      \
    return reduce ? result : defined ? x : (T##N)(NAN);                     \
  }

/* No library function is called with a vector: compiled with AVX-512
 * here, its 256- and 512-bit vectors would not pass as it expects. */
#define CLMUX_NOINLINE __attribute__((noinline))
#define CLMUX_CAST(v, T) ((T)(v))
#define CLMUX_CONVERT __builtin_convertvector
CLMUX_FMOD_FORM(float, , FLT_MAX, __clmux_vv_fmodf, CLMUX_NOINLINE, CLMUX_CAST)
CLMUX_FMOD_FORM(float, 4, FLT_MAX, __clmux_vv_fmodf4, , CLMUX_CONVERT)
CLMUX_FMOD_FORM(float, 8, FLT_MAX, __clmux_vv_fmodf8, , CLMUX_CONVERT)
CLMUX_FMOD_FORM(float, 16, FLT_MAX, __clmux_vv_fmodf16, , CLMUX_CONVERT)
CLMUX_FMOD_FORM(double, , DBL_MAX, __clmux_vv_fmod, CLMUX_NOINLINE, CLMUX_CAST)
CLMUX_FMOD_FORM(double, 2, DBL_MAX, __clmux_vv_fmodd2, , CLMUX_CONVERT)
CLMUX_FMOD_FORM(double, 4, DBL_MAX, __clmux_vv_fmodd4, , CLMUX_CONVERT)
CLMUX_FMOD_FORM(double, 8, DBL_MAX, __clmux_vv_fmodd8, , CLMUX_CONVERT)


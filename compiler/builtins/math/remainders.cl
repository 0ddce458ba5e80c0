/* fmod, remainder and remquo, float and double: exact, and vectorizable.
 * All three reduce |x| with the exact fmod of fmod_forms.cl, whose calls
 * a vectorized work-item loop replaces by vector forms. */
#include "builtins_internal.h"

/* Pure and always returning (each round of its loop takes 51 bits off
 * the exponent gap), so a call under a condition can still be widened to
 * a vector form. */
float __clmux_vv_fmodf(float x, float y) CLMUX_PURE;
double __clmux_vv_fmod(double x, double y) CLMUX_PURE;

/* remainder and remquo from |x| reduced exactly: r = |x| mod m|y| keeps
 * the quotient modulo m (2 for remainder's parity, 128 for remquo's 7
 * bits; m|y| overflows only when the quotient is below m anyway). Then
 * rounding the quotient to nearest even takes |y| off r once more. The
 * result is r with x's sign (a zero one too). */
#define CLMUX_REMAINDERS(T, MAX, FMOD)                                      \
  CLMUX_OVL T fmod(T x, T y) { return FMOD(x, y); }                         \
  CLMUX_SPLIT_2(T, fmod, T, T)                                              \
                                                                            \
  CLMUX_OVL T remainder(T x, T y) {                                         \
    T ax = __builtin_elementwise_abs(x);                                    \
    T ay = __builtin_elementwise_abs(y);                                    \
    T r = ay <= MAX / 2 ? FMOD(ax, 2 * ay) : ax;                            \
    bool odd = r >= ay;                                                     \
    r = odd ? r - ay : r;                                                   \
    bool up = (2 * r > ay) | ((2 * r == ay) & odd);                         \
    r = up ? r - ay : r;                                                    \
    bool defined = (ax <= MAX) & (ay > 0);                                  \
    return defined ? __builtin_signbit(x) ? -r : r : (T)NAN;                \
  }                                                                         \
  CLMUX_SPLIT_2(T, remainder, T, T)                                         \
                                                                            \
  CLMUX_OVL T remquo(T x, T y, int *quo) {                                  \
    T ax = __builtin_elementwise_abs(x);                                    \
    T ay = __builtin_elementwise_abs(y);                                    \
    bool defined = (ax <= MAX) & (ay > 0);                                  \
    ax = defined ? ax : 0;                                                  \
    ay = defined ? ay : 1;                                                  \
    T reduced = ay <= MAX / 128 ? FMOD(ax, 128 * ay) : ax;                  \
    T r = FMOD(reduced, ay);                                                \
    /* reduced - r is k|y| for k < 128: its rounding is far below 1/2. */   \
    int k = (int)__builtin_elementwise_rint((reduced - r) / ay);            \
    bool up = (2 * r > ay) | ((2 * r == ay) & ((k & 1) != 0));              \
    r = up ? r - ay : r;                                                    \
    int bits = (k + up) & 127;                                              \
    bool negative = __builtin_signbit(x) != __builtin_signbit(y);           \
    *quo = defined ? negative ? -bits : bits : 0;                           \
    return defined ? __builtin_signbit(x) ? -r : r : (T)NAN;                \
  }                                                                         \
  CLMUX_REMQUO_FORMS(T)

CLMUX_REMAINDERS(float, FLT_MAX, __clmux_vv_fmodf)
CLMUX_REMAINDERS(double, DBL_MAX, __clmux_vv_fmod)

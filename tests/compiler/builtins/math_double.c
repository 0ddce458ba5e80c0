/* The builtin library's double-precision (cl_khr_fp64) math (OpenCL 1.2
 * 6.12.2), common (6.12.4) and geometric (6.12.5) functions, scalar and
 * vector (double3, double16; double2..4 for geometric), pointer outputs
 * through __global and private pointers. References are the host's long
 * double (x87, 64-bit significand) libm, so double results are measured
 * in ulps against something 11 bits better; the limits are the OpenCL 1.2
 * double ULP table, exact functions to the bit (signs of zero included
 * where Annex F or 6.12.2 fix them). A function whose double form does not
 * build yet fails its own check and the others still run. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* exp10l, lgammal_r, M_PIl under -std=c11 */
#endif
#include <limits.h>
#include <stdarg.h>

#include "builtins_test.h"

#define COUNT 6144 /* inputs per function: whole groups at widths 1, 3, 16 */
#define LOCAL 16
#define PAIRS 48 /* the first PAIRS specials are crossed for two arguments */

/* ---- Measuring -------------------------------------------------------- */

/* Error of `got` in ulps of the double nearest `ref`, as the CTS measures
 * it: 0 if ref rounds to got (overflow to inf included), NaN only against
 * NaN, subnormal steps below DBL_MIN. */
static double ulp_error(double got, long double ref) {
  if (isnan(ref)) return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got)) return INFINITY;
  if ((double)ref == got) return 0.0;
  if (isinf(ref) || isinf(got)) return INFINITY;
  int e = ref == 0.0L ? -1022 : ilogbl(ref);
  if (e < -1022) e = -1022;
  return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, e - 52));
}

/* Same bits or both NaN. */
static int same_double(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- Inputs ----------------------------------------------------------- */

/* The first PAIRS are the core; the rest aim at particular functions:
 * trig reduction (1e22, 2^1000, the hardest-to-reduce double), exp/sinh/
 * cosh/exp2/exp10 overflow and underflow edges, tgamma's, and integers
 * and half-integers around 2^52 for the pi functions and rounding. */
static double specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
    1.5, -1.5, 3.0, -3.0, 0.25, 2.5, -2.5, 10.0, -10.0, 100.0, -100.0,
    DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN,
    0x1p-1050, -0x1.8p-1040, 0x0.fffffffffffffp-1022, DBL_EPSILON,
    1.0 + DBL_EPSILON, 1.0 - DBL_EPSILON / 2, 0.1, -0.1, M_PI, -M_PI,
    M_PI_2, 1e22, -1e22, 0x1p1000, -0x1p1000, 1e300, 1e-300, 0.75, 7.5,
    -0.75,
    /* past PAIRS */
    -1e300, 709.78, 709.782712893384, 709.79, -708.4, -745.1332191019411,
    -745.2, 710.4758600739439, 710.48, -710.5, 1023.99, 1024.0, -1022.5,
    -1074.0, -1075.0, 308.25, 308.26, -307.5, -323.3, -324.5, 171.62,
    171.63, -171.5, -0.000001, 0x1p51 + 0.5, 0x1p52 - 0.5, 0x1p52, 0x1p53,
    0x1p53 + 2.0, -0x1p52 - 1.0, 4503599627370497.0, 1e-8, 1e-20, 1e10,
    1e15, 1e16, -1e16, 1e6, -1e6, 1e-310, -1e-320, 0.999999, 1.000001, 0.3,
    4.0, 5.0, -3.5, 0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1,
    6381956970095103.0 * 0x1p797, 0x1.fffffffffffffp1023 / 3,
    /* tgamma near large negative poles (SLEEF alone: 1600 ulp), remquo
     * with quotients far above 7 bits and near overflow */
    -0x1.5800000000200p+7, -0x1.36000000004p+7, -100.00000000001,
    -0x1.5357c8p+46, 0x1.bc00000000743p+1023, 0x1.59ffffffff894p+1022,
};
#define SPECIALS (sizeof specials / sizeof *specials)

static uint64_t random64(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Random bit patterns (every exponent, NaN payloads) or uniform values
 * in [-range, range], alternately. */
static double random_double(uint64_t *state, double range, size_t i) {
  uint64_t bits = random64(state);
  if (i % 2) { /* NaNs quiet: OpenCL need not honour signalling ones */
    if ((bits & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
        (bits & 0x000fffffffffffffu)) {
      bits |= UINT64_C(1) << 51;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  return range * (2.0 * (double)(bits >> 11) / 0x1p53 - 1.0);
}

/* ---- Kernel source ---------------------------------------------------- */

static void begin_source(void) {
  bt_source_length = 0;
  bt_emit("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
}

/* Element group i of `p` as a value of width w (vloadn, or p[i]); with
 * `scalar`, element i*w alone (the gentype-with-scalar overloads). */
static void load(char *out, size_t size, const char *p, int w, int scalar) {
  if (w == 1 || scalar) {
    snprintf(out, size, "%s[i * %d]", p, w);
  } else {
    snprintf(out, size, "vload%d(i, %s)", w, p);
  }
}

static void store(const char *p, const char *v, int w) {
  if (w == 1) bt_emit("  %s[i] = %s;\n", p, v);
  else bt_emit("  vstore%d(%s, i, %s);\n", w, v, p);
}

static const char *suffix(int w) {
  static char text[4][4];
  static int next;
  char *s = text[next++ % 4];
  if (w == 1) s[0] = 0;
  else snprintf(s, 4, "%d", w);
  return s;
}

/* An executable of the kernels `names`, or NULL (one failed check, and
 * why) if the source does not compile or the library lacks something.
 * Unlike bt_build it does not exit: missing double forms are failures of
 * those functions only. */
static mux_executable_t build(const char *const *names, uint32_t count,
                              const char *what) {
  LLVMModuleRef module = NULL;
  char *text = NULL;
  cc_frontend_result result = cc_compile_opencl_c(
      bt_context, bt_source, bt_source_length, NULL, NULL, 0, &module, &text);
  if (result != CC_FRONTEND_SUCCESS) {
    fprintf(stderr, "%s: compile failed (%d):\n%s\n", what, (int)result,
            text ? text : "");
    free(text);
    if (module) LLVMDisposeModule(module);
    CHECK(!"kernels compile");
    return NULL;
  }
  free(text);
  cc_log log = {""};
  if (cc_builtins_link(module, &log) != cc_success) {
    fprintf(stderr, "%s: cc_builtins_link: %s\n", what, log.text);
    LLVMDisposeModule(module);
    CHECK(!"builtins link");
    return NULL;
  }
  mux_executable_t exe = bt_build_module(module, names, count, LOCAL, NULL);
  if (!exe) fprintf(stderr, "%s: no executable (see above)\n", what);
  return exe;
}

/* ======================================================================
 * Math (6.12.2)
 * ====================================================================== */

/* ---- References in long double ---------------------------------------- */

#define R1(name, expr) \
  static long double r_##name(double x) { return expr; }
#define R2(name, expr) \
  static long double r_##name(double x, double y) { return expr; }

R1(acos, acosl(x)) R1(acosh, acoshl(x)) R1(acospi, acosl(x) / M_PIl)
R1(asin, asinl(x)) R1(asinh, asinhl(x)) R1(asinpi, asinl(x) / M_PIl)
R1(atan, atanl(x)) R1(atanh, atanhl(x)) R1(atanpi, atanl(x) / M_PIl)
R1(cbrt, cbrtl(x)) R1(cos, cosl(x)) R1(cosh, coshl(x)) R1(erf, erfl(x))
R1(erfc, erfcl(x)) R1(exp, expl(x)) R1(exp2, exp2l(x)) R1(exp10, exp10l(x))
R1(expm1, expm1l(x)) R1(log, logl(x)) R1(log2, log2l(x))
R1(log10, log10l(x)) R1(log1p, log1pl(x)) R1(sin, sinl(x))
R1(sinh, sinhl(x)) R1(tan, tanl(x)) R1(tanh, tanhl(x))
R1(tgamma, tgammal(x)) R1(lgamma, lgammal(x))
R1(rsqrt, 1.0L / sqrtl(x))
/* Exact functions: the host's double libm is exact. */
R1(ceil, ceil(x)) R1(fabs, fabs(x)) R1(floor, floor(x)) R1(logb, logb(x))
R1(rint, rint(x)) R1(round, round(x)) R1(sqrt, sqrt(x)) R1(trunc, trunc(x))
R2(atan2, atan2l(x, y)) R2(atan2pi, atan2l(x, y) / M_PIl)
R2(copysign, copysign(x, y)) R2(fdim, fdim(x, y))
/* Not the host's fmax/fmin: glibc gives NaN for a signalling NaN, and
 * 6.12.2 returns the other argument for any NaN. */
R2(fmax, isnan(y) ? x : isnan(x) ? y : fmax(x, y))
R2(fmin, isnan(y) ? x : isnan(x) ? y : fmin(x, y))
R2(fmod, fmod(x, y)) R2(hypot, hypotl(x, y))
R2(nextafter, nextafter(x, y)) R2(pow, powl(x, y))
R2(remainder, remainder(x, y))
R2(maxmag, fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : r_fmax(x, y))
R2(minmag, fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : r_fmin(x, y))

/* sin(pi x) folded exactly (fmod, 1 - a and a - 1 are exact) into
 * [0, 1/2], so pi * a loses nothing near the zeros. */
static long double sinpi_l(double x) {
  if (!isfinite(x)) return NAN;
  double r = fmod(x, 2.0);
  if (r == trunc(r)) return copysignl(0.0L, x); /* sinpi(n) = ±0, sign of n */
  double a = fabs(r);
  long double sign = r < 0 ? -1.0L : 1.0L;
  if (a > 1.0) {
    a -= 1.0;
    sign = -sign;
  }
  if (a > 0.5) a = 1.0 - a;
  return sign * sinl(M_PIl * a);
}
static long double cospi_l(double x) {
  if (!isfinite(x)) return NAN;
  double a = fabs(fmod(x, 2.0));
  long double sign = 1.0L;
  if (a > 1.0) {
    a -= 1.0;
    sign = -1.0L;
  }
  if (a == 0.5) return 0.0L; /* cospi(n + 1/2) = +0 */
  return sign * (a <= 0.25 ? cosl(M_PIl * a) : sinl(M_PIl * (0.5 - a)));
}
/* tanpi(n) = copysign(0, n) for even n, copysign(0, -n) for odd n;
 * tanpi(n + 1/2) = +inf for even n, -inf for odd n. */
static long double tanpi_l(double x) {
  if (!isfinite(x)) return NAN;
  double r = fmod(x, 2.0);
  if (r == trunc(r)) return copysignl(0.0L, fabs(r) == 1.0 ? -x : x);
  if (fabs(r) == 0.5 || fabs(r) == 1.5) {
    return fmod(fabs(floor(x)), 2.0) == 0.0 ? INFINITY : -INFINITY;
  }
  return sinpi_l(x) / cospi_l(x);
}
R1(sinpi, sinpi_l(x)) R1(cospi, cospi_l(x)) R1(tanpi, tanpi_l(x))

/* powr's own table (6.12.2): NaN for x < 0, 0^0, inf^0, 1^inf. */
static long double r_powr(double x, double y) {
  if (isnan(x) || isnan(y) || x < 0) return NAN;
  if ((x == 0 && y == 0) || (isinf(x) && y == 0) || (x == 1 && isinf(y))) {
    return NAN;
  }
  return powl(fabs(x), y); /* -0 behaves as +0 */
}
static long double r_pown(double x, int n) { return powl(x, (long double)n); }
/* rootn: NaN for n = 0 and for x < 0 with n even; odd roots keep the
 * sign (of ±0 too). Exact roots where libm has them. */
static long double r_rootn(double x, int n) {
  if (n == 0 || isnan(x) || (x < 0 && n % 2 == 0)) return NAN;
  long double a = fabsl(x), r;
  switch (n) {
    case 1: r = a; break;
    case -1: r = 1.0L / a; break;
    case 2: r = sqrtl(a); break;
    case -2: r = 1.0L / sqrtl(a); break;
    case 3: r = cbrtl(a); break;
    case -3: r = 1.0L / cbrtl(a); break;
    default: r = powl(a, 1.0L / n);
  }
  return n % 2 ? copysignl(r, x) : r;
}
static long double r_ldexp(double x, int n) { return ldexp(x, n); }
static long double r_fma(double a, double b, double c) { return fma(a, b, c); }
static long double r_mad(double a, double b, double c) {
  return (long double)a * b + c;
}
/* fract = fmin(x - floor(x), 0x1.fffffffffffffp-1), *iptr = floor(x). */
static long double r_fract(double x, long double *ip) {
  *ip = floor(x);
  if (isnan(x)) return NAN;
  if (isinf(x)) return 0.0;
  return fmin(x - floor(x), 0x1.fffffffffffffp-1);
}
static long double r_modf(double x, long double *ip) {
  double i, f = modf(x, &i);
  *ip = i;
  return f;
}
static long double r_sincos(double x, long double *c) {
  *c = cosl(x);
  return sinl(x);
}
static long double r_frexp(double x, int *e) { return frexp(x, e); }
static long double r_lgamma_r(double x, int *sign) {
  return lgammal_r(x, sign);
}
static double remquo_y; /* the second argument of the element checked */
/* The remainder from libm (exact); the quotient's 7 low bits (OpenCL's
 * minimum; glibc gives only 3) from |x| mod 128|y| in long double, where
 * 128|y| and the reduction are exact and the division is far better
 * than 1/2. NaN results give 0. */
static long double r_remquo(double x, int *quo) {
  int ignored = 0;
  double remainder_value = remquo(x, remquo_y, &ignored);
  long double ax = fabsl((long double)x), ay = fabsl((long double)remquo_y);
  if (isnan(remainder_value)) {
    *quo = 0;
    return remainder_value;
  }
  int bits = (int)rintl(fmodl(ax, 128.0L * ay) / ay) & 127;
  *quo = !signbit(x) != !signbit(remquo_y) ? -bits : bits;
  return remainder_value;
}

/* ---- The table -------------------------------------------------------- */

typedef enum signature {
  D_D,     /* double f(double) */
  D_DD,    /* double f(double, double) */
  D_DDD,   /* double f(double, double, double) */
  D_DI,    /* double f(double, int) */
  D_D_PD,  /* double f(double, double *) */
  D_D_PI,  /* double f(double, int *) */
  D_DD_PI, /* double f(double, double, int *): remquo */
} signature;

typedef struct math_case {
  const char *name;
  signature kind;
  double ulps;  /* 0: exact to the bit; < 0: any accuracy */
  double range; /* of the uniform random values */
  long double (*f1)(double);
  long double (*f2)(double, double);
  long double (*f3)(double, double, double);
  long double (*fi)(double, int);
  long double (*fpd)(double, long double *);
  long double (*fpi)(double, int *);
  int scalar_b;       /* vector forms take argument 2 as a scalar */
  int zero_sign_free; /* which zero is open (fmax(-0, +0), fract) */
} math_case;

#define U(n, u, r) {#n, D_D, u, r, r_##n, 0, 0, 0, 0, 0, 0, 0}
#define B(n, u, r) {#n, D_DD, u, r, 0, r_##n, 0, 0, 0, 0, 0, 0}
static const math_case cases[] = {
    U(acos, 4, 1.5), U(acosh, 4, 1e4), U(acospi, 5, 1.5), U(asin, 4, 1.5),
    U(asinh, 4, 1e4), U(asinpi, 5, 1.5), U(atan, 5, 1e3), U(atanh, 5, 1.5),
    U(atanpi, 5, 1e3), U(cbrt, 2, 1e6), U(ceil, 0, 1e3), U(cos, 4, 1e3),
    U(cosh, 4, 720), U(cospi, 4, 1e3), U(erf, 16, 6), U(erfc, 16, 28),
    U(exp, 3, 720), U(exp2, 3, 1100), U(exp10, 3, 320), U(expm1, 3, 720),
    U(fabs, 0, 1e3), U(floor, 0, 1e3), U(lgamma, -1, 200), U(log, 3, 1e4),
    U(log2, 3, 1e4), U(log10, 3, 1e4), U(log1p, 2, 1e4), U(logb, 0, 1e4),
    U(rint, 0, 1e3), U(round, 0, 1e3), U(rsqrt, 2, 1e4), U(sin, 4, 1e3),
    U(sinh, 4, 720), U(sinpi, 4, 1e3), U(sqrt, 0, 1e4), U(tan, 5, 1e3),
    U(tanh, 5, 25), U(tanpi, 6, 1e3), U(tgamma, 16, 180), U(trunc, 0, 1e3),
    B(atan2, 6, 1e3), B(atan2pi, 6, 1e3), B(copysign, 0, 1e3),
    B(fdim, 0, 1e3), B(fmod, 0, 1e3), B(hypot, 4, 1e3),
    B(nextafter, 0, 1e3), B(pow, 16, 40), B(powr, 16, 40),
    B(remainder, 0, 1e3),
    {"fmax", D_DD, 0, 1e3, 0, r_fmax, 0, 0, 0, 0, 0, 1},
    {"fmax", D_DD, 0, 1e3, 0, r_fmax, 0, 0, 0, 0, 1, 1},
    {"fmin", D_DD, 0, 1e3, 0, r_fmin, 0, 0, 0, 0, 0, 1},
    {"fmin", D_DD, 0, 1e3, 0, r_fmin, 0, 0, 0, 0, 1, 1},
    {"maxmag", D_DD, 0, 1e3, 0, r_maxmag, 0, 0, 0, 0, 0, 1},
    {"minmag", D_DD, 0, 1e3, 0, r_minmag, 0, 0, 0, 0, 0, 1},
    {"fma", D_DDD, 0, 1e3, 0, 0, r_fma, 0, 0, 0, 0, 0},
    {"mad", D_DDD, -1, 1e3, 0, 0, r_mad, 0, 0, 0, 0, 0},
    {"ldexp", D_DI, 0, 1e3, 0, 0, 0, r_ldexp, 0, 0, 0, 0},
    {"ldexp", D_DI, 0, 1e3, 0, 0, 0, r_ldexp, 0, 0, 1, 0},
    {"pown", D_DI, 16, 20, 0, 0, 0, r_pown, 0, 0, 0, 0},
    {"rootn", D_DI, 16, 1e6, 0, 0, 0, r_rootn, 0, 0, 0, 0},
    {"fract", D_D_PD, 0, 1e3, 0, 0, 0, 0, r_fract, 0, 0, 1},
    {"modf", D_D_PD, 0, 1e3, 0, 0, 0, 0, r_modf, 0, 0, 0},
    {"sincos", D_D_PD, 4, 1e3, 0, 0, 0, 0, r_sincos, 0, 0, 0},
    {"frexp", D_D_PI, 0, 1e3, 0, 0, 0, 0, 0, r_frexp, 0, 0},
    {"lgamma_r", D_D_PI, -1, 200, 0, 0, 0, 0, 0, r_lgamma_r, 0, 0},
    {"remquo", D_DD_PI, 0, 1e3, 0, 0, 0, 0, 0, r_remquo, 0, 0},
};
#define CASES (sizeof cases / sizeof *cases)
#define WIDTHS 3
static const int widths[WIDTHS] = {1, 3, 16};

/* Kernel k<w>_<index>(a, b, c, r, p): r = f(a[, b[, c]]) with pointer
 * outputs in p: through a __global pointer at widths 1 and 16, a private
 * one at width 3. */
static void math_kernel(const math_case *c, size_t index, int w) {
  const char *s = suffix(w);
  int int_b = c->kind == D_DI;
  const char *ptype = c->kind == D_D_PI || c->kind == D_DD_PI ? "int" : "double";
  char a[64], b[64], d[64];
  load(a, sizeof a, "a", w, 0);
  load(b, sizeof b, "b", w, c->scalar_b);
  load(d, sizeof d, "c", w, 0);
  bt_emit("kernel void k%d_%zu(global const double *a, global const %s *b, "
       "global const double *c, global double *r, global %s *p) {\n"
       "  size_t i = get_global_id(0);\n",
       w, index, int_b ? "int" : "double", ptype);
  char args[200];
  switch (c->kind) {
    case D_D: case D_D_PD: case D_D_PI: snprintf(args, sizeof args, "%s", a); break;
    case D_DD: case D_DI: case D_DD_PI: snprintf(args, sizeof args, "%s, %s", a, b); break;
    case D_DDD: snprintf(args, sizeof args, "%s, %s, %s", a, b, d); break;
  }
  if (c->kind >= D_D_PD && w == 3) {
    bt_emit("  %s3 q;\n  double3 v = %s(%s, &q);\n", ptype, c->name, args);
    store("p", "q", 3);
  } else if (c->kind >= D_D_PD) {
    bt_emit("  double%s v = %s(%s, (global %s%s *)p + i);\n", s, c->name, args,
         ptype, s);
  } else {
    bt_emit("  double%s v = %s(%s);\n", s, c->name, args);
  }
  store("r", "v", w);
  bt_emit("}\n");
}

static double a_in[COUNT], b_in[COUNT], c_in[COUNT];
static int n_in[COUNT];
static double r_out[COUNT];
static union { double d[COUNT]; int i[COUNT]; } p_out;

static const int rootn_ns[] = {1, 2, 3, -3, 5, 7, -8, 64, 1000, -1, -2, 0, 4};
static const int pown_ns[] = {0, 1, -1, 2, -2, 3, -3, 5, -5, 7, 10, -10, 31,
                              64, -64, 1000, -1000, 1025, -1075, INT_MAX, INT_MIN};
static const int ldexp_ns[] = {0, 1, -1, 52, -52, 1023, -1022, -1074, 1074,
                               2046, -2098, 2100, -2200, INT_MAX, INT_MIN};
#define N_OF(array) (sizeof array / sizeof *array)

/* Specials first (crossed for two arguments, or with each special n),
 * then random values; a few function-specific families after that. */
static void make_inputs(const math_case *c, uint64_t seed) {
  uint64_t state = seed * 0x9e3779b97f4a7c15u + 1;
  for (size_t i = 0; i < COUNT; i++) {
    a_in[i] = i < SPECIALS ? specials[i] : random_double(&state, c->range, i);
    b_in[i] = random_double(&state, c->range, i + 1);
    c_in[i] = i < SPECIALS ? specials[(i * 7) % SPECIALS]
                           : random_double(&state, c->range, i);
  }
  size_t next = SPECIALS;
  if (c->kind == D_DD || c->kind == D_DDD || c->kind == D_DD_PI) {
    for (size_t i = 0; i < PAIRS * PAIRS; i++) {
      a_in[i] = specials[i / PAIRS];
      b_in[i] = specials[i % PAIRS];
    }
    next = PAIRS * PAIRS;
  }
  const int *ns = NULL;
  size_t n_count = 0;
  if (c->kind == D_DI) {
    int rootn = strcmp(c->name, "rootn") == 0, pown = strcmp(c->name, "pown") == 0;
    ns = rootn ? rootn_ns : pown ? pown_ns : ldexp_ns;
    n_count = rootn ? N_OF(rootn_ns) : pown ? N_OF(pown_ns) : N_OF(ldexp_ns);
    if (c->scalar_b) n_count = 0; /* n is per group there: keep it random */
    for (size_t i = 0; i < n_count * SPECIALS && i < COUNT; i++) {
      a_in[i] = specials[i / n_count];
    }
    next = n_count * SPECIALS;
  }
  for (size_t i = 0; i < COUNT; i++) {
    uint64_t bits = random64(&state);
    if (i < n_count * SPECIALS) {
      n_in[i] = ns[i % n_count];
    } else if (ns && strcmp(c->name, "ldexp") == 0) {
      n_in[i] = (int)(bits % 4401) - 2200;
    } else if (ns && strcmp(c->name, "rootn") == 0 && i % 2) {
      n_in[i] = rootn_ns[bits % N_OF(rootn_ns)];
    } else {
      n_in[i] = (int)(bits % 81) - 40;
    }
  }
  /* Families where random values rarely land. */
  for (size_t i = next; i < COUNT; i += 4) {
    uint64_t bits = random64(&state);
    double u = (double)(bits >> 11) / 0x1p53; /* [0, 1) */
    if (!strcmp(c->name, "pow") || !strcmp(c->name, "powr")) {
      /* results near overflow and deep in the subnormals */
      a_in[i] = 1.01 + 100.0 * u;
      double edge = (bits & 1) ? 1024.0 : -1074.0;
      b_in[i] = (edge + (u - 0.5) * 0.25) / log2(a_in[i]);
      if ((bits & 6) == 6 && !strcmp(c->name, "pow")) {
        /* negative x, integer y (odd or even), and tiny |x| */
        b_in[i] = rint(b_in[i]);
        a_in[i] = (bits & 8) ? -a_in[i] : -1.0 / a_in[i];
        if (bits & 8) continue;
        b_in[i] = -b_in[i];
      }
    } else if (!strcmp(c->name, "pown")) {
      a_in[i] = 1.5 + 10.0 * u;
      n_in[i] = (int)((bits & 1 ? 1024.0 : -1074.0) / log2(a_in[i]));
    } else if (!strcmp(c->name, "rootn")) {
      /* tiny, huge and subnormal x for every listed n */
      int e = (int)(bits % 2098) - 1074;
      a_in[i] = ldexp(1.0 + u, e) * ((bits >> 20) & 1 ? -1 : 1);
      n_in[i] = rootn_ns[(bits >> 24) % N_OF(rootn_ns)];
    } else if (!strcmp(c->name, "fma") || !strcmp(c->name, "mad")) {
      c_in[i] = -(a_in[i] * b_in[i]) * (1.0 + (u - 0.5) * 0x1p-50); /* cancel */
    } else if (c->kind == D_D && c->range >= 1e3 && c->range <= 1e4) {
      /* near multiples of pi/2 and of 1/2, near 1 */
      double k = floor(u * 2e6) - 1e6;
      a_in[i] = (bits & 2) ? k * M_PI_2 : k * 0.5 + ((bits & 4) ? 0x1p-40 : 0);
      if (bits & 8) a_in[i] = 1.0 + (u - 0.5) * 0x1p-20;
    }
  }
}

/* Whether one result is good enough for the case. */
static int close_enough(const math_case *c, double got, long double ref,
                        const double *inputs, int n_inputs) {
  if (c->zero_sign_free && got == 0.0 && ref == 0.0L) return 1;
  if (c->ulps == 0) return same_double(got, (double)ref);
  if (c->ulps < 0) { /* any accuracy: NaN in, NaN out; lgamma's poles */
    for (int k = 0; k < n_inputs; k++) {
      if (isnan(inputs[k])) return isnan(got);
    }
    if (!strncmp(c->name, "lgamma", 6) && isinf(ref)) return same_double(got, (double)ref);
    return 1;
  }
  /* An exact zero keeps its sign (sin(-0) = -0, log(1) = +0). */
  if (ref == 0.0L) return same_double(got, (double)ref);
  return ulp_error(got, ref) <= c->ulps;
}

/* remquo's quotient: the sign of x/y and 7 low bits. */
static int same_quotient(int got, int ref) {
  if ((abs(got) & 127) != (abs(ref) & 127)) return 0;
  return (got & 127) == 0 || ref == 0 || (got < 0) == (ref < 0);
}

static int check_math(mux_executable_t exe, const math_case *c, size_t index,
                      int w, bt_buffer *buffers) {
  char name[32];
  snprintf(name, sizeof name, "k%d_%zu", w, index);
  bt_buffer_write(&buffers[3], NULL);
  bt_buffer_write(&buffers[4], NULL);
  mux_descriptor_info_t args[5];
  for (int k = 0; k < 5; k++) args[k] = bt_buffer_arg(&buffers[k]);
  size_t items = (COUNT / (size_t)w) / LOCAL * LOCAL;
  bt_run(exe, name, args, 5, items, LOCAL);
  bt_buffer_read(&buffers[3], r_out);
  bt_buffer_read(&buffers[4], &p_out);
  int failures = 0;
  for (size_t e = 0; e < items * (size_t)w; e++) {
    size_t j = c->scalar_b ? e - e % (size_t)w : e; /* argument 2's index */
    double x = a_in[e], y = b_in[j], z = c_in[e];
    int n = n_in[j];
    long double p_ref = 0;
    int i_ref = 0;
    long double ref = 0;
    switch (c->kind) {
      case D_D: ref = c->f1(x); break;
      case D_DD: ref = c->f2(x, y); break;
      case D_DDD: ref = c->f3(x, y, z); break;
      case D_DI: ref = c->fi(x, n); break;
      case D_D_PD: ref = c->fpd(x, &p_ref); break;
      case D_D_PI: ref = c->fpi(x, &i_ref); break;
      case D_DD_PI: remquo_y = y; ref = c->fpi(x, &i_ref); break;
    }
    double inputs[3] = {x, y, z};
    int n_inputs = c->kind == D_DDD ? 3 : c->kind == D_DD || c->kind == D_DD_PI ? 2 : 1;
    double got = r_out[e];
    int ok = close_enough(c, got, ref, inputs, n_inputs);
    if (c->kind == D_D_PD) { /* iptr exact; sincos's cosine within ulps */
      math_case second = *c;
      second.zero_sign_free = 0;
      ok = ok && close_enough(&second, p_out.d[e], p_ref, inputs, 1);
    }
    if (c->kind == D_D_PI && c->ulps == 0 && isfinite(x)) { /* frexp */
      ok = ok && p_out.i[e] == i_ref;
    }
    if (c->kind == D_D_PI && c->ulps < 0 && isfinite(x) && x != trunc(x)) {
      ok = ok && p_out.i[e] == i_ref; /* lgamma_r: the sign of gamma */
    }
    if (c->kind == D_DD_PI && !isnan(ref)) ok = ok && same_quotient(p_out.i[e], i_ref);
    if (!ok && failures++ < 4) {
      fprintf(stderr,
              "FAIL %s%s double%s: x=%a y=%a z=%a n=%d got %a (p %a / %d) "
              "expected %a (p %a / %d), %.3g ulp\n",
              c->name, c->scalar_b ? " (scalar arg 2)" : "", suffix(w), x, y,
              z, n, got, p_out.d[e], p_out.i[e], (double)ref, (double)p_ref,
              i_ref, ulp_error(got, ref));
    }
  }
  if (failures > 4) {
    fprintf(stderr, "FAIL %s double%s: %d of %zu wrong\n", c->name, suffix(w),
            failures, items * (size_t)w);
  }
  CHECK(failures == 0);
  return failures;
}

static void run_math(void) {
  bt_buffer buffers[5];
  for (int k = 0; k < 5; k++) buffers[k] = bt_buffer_create(NULL, COUNT * 8);
  for (size_t index = 0; index < CASES; index++) {
    const math_case *c = &cases[index];
    const char *names[WIDTHS];
    char name_text[WIDTHS][32];
    begin_source();
    for (int j = 0; j < WIDTHS; j++) {
      math_kernel(c, index, widths[j]);
      snprintf(name_text[j], sizeof name_text[j], "k%d_%zu", widths[j], index);
      names[j] = name_text[j];
    }
    mux_executable_t exe = build(names, WIDTHS, c->name);
    if (!exe) continue;
    make_inputs(c, index + 1);
    bt_buffer_write(&buffers[0], a_in);
    if (c->kind == D_DI) {
      static int n_padded[COUNT * 2];
      memcpy(n_padded, n_in, sizeof n_in);
      bt_buffer_write(&buffers[1], n_padded);
    } else {
      bt_buffer_write(&buffers[1], b_in);
    }
    bt_buffer_write(&buffers[2], c_in);
    for (int j = 0; j < WIDTHS; j++) check_math(exe, c, index, widths[j], buffers);
    bt_executable_destroy(exe);
  }
  for (int k = 0; k < 5; k++) bt_buffer_destroy(&buffers[k]);
}

/* ilogb (FP_ILOGB0 = INT_MIN, FP_ILOGBNAN = INT_MAX, ilogb(inf) = INT_MAX)
 * and nan(ulong) (a quiet NaN carrying the code in its significand), at
 * widths 1, 3 and 16. */
static int host_ilogb(double x) {
  if (isnan(x) || isinf(x)) return INT_MAX;
  if (x == 0.0) return INT_MIN;
  return ilogb(x);
}

static void run_int_results(void) {
  begin_source();
  const char *names[WIDTHS];
  char name_text[WIDTHS][16];
  for (int j = 0; j < WIDTHS; j++) {
    int w = widths[j];
    char a[64], code[64];
    load(a, sizeof a, "a", w, 0);
    load(code, sizeof code, "codes", w, 0);
    bt_emit("kernel void ints%d(global const double *a, global const ulong *codes,"
         " global int *e, global double *n) {\n"
         "  size_t i = get_global_id(0);\n"
         "  int%s x = ilogb(%s);\n  double%s y = nan(%s);\n",
         w, suffix(w), a, suffix(w), code);
    store("e", "x", w);
    store("n", "y", w);
    bt_emit("}\n");
    snprintf(name_text[j], sizeof name_text[j], "ints%d", w);
    names[j] = name_text[j];
  }
  mux_executable_t exe = build(names, WIDTHS, "ilogb/nan");
  if (!exe) return;
  static uint64_t codes[COUNT];
  static int e_out[COUNT];
  uint64_t state = 99;
  for (size_t i = 0; i < COUNT; i++) {
    a_in[i] = i < SPECIALS ? specials[i] : random_double(&state, 1e3, i);
    /* codes that fit the significand below the quiet bit */
    codes[i] = (random64(&state) >> (i % 64)) & ((UINT64_C(1) << 51) - 1);
  }
  bt_buffer a = bt_buffer_create(a_in, sizeof a_in);
  bt_buffer c = bt_buffer_create(codes, sizeof codes);
  bt_buffer e = bt_buffer_create(NULL, sizeof e_out);
  bt_buffer n = bt_buffer_create(NULL, sizeof r_out);
  mux_descriptor_info_t args[4] = {bt_buffer_arg(&a), bt_buffer_arg(&c),
                                   bt_buffer_arg(&e), bt_buffer_arg(&n)};
  for (int j = 0; j < WIDTHS; j++) {
    int w = widths[j];
    size_t items = (COUNT / (size_t)w) / LOCAL * LOCAL;
    bt_buffer_write(&e, NULL);
    bt_buffer_write(&n, NULL);
    bt_run(exe, names[j], args, 4, items, LOCAL);
    bt_buffer_read(&e, e_out);
    bt_buffer_read(&n, r_out);
    int failures = 0;
    for (size_t i = 0; i < items * (size_t)w; i++) {
      uint64_t bits;
      memcpy(&bits, &r_out[i], 8);
      uint64_t want = codes[i] | UINT64_C(0x7ff8000000000000);
      int ok = e_out[i] == host_ilogb(a_in[i]) && bits == want;
      if (!ok && failures++ < 4) {
        fprintf(stderr, "FAIL ilogb/nan double%s: ilogb(%a) = %d (expected %d), "
                "nan(%#llx) = %#llx (expected %#llx)\n", suffix(w), a_in[i],
                e_out[i], host_ilogb(a_in[i]), (unsigned long long)codes[i],
                (unsigned long long)bits, (unsigned long long)want);
      }
    }
    CHECK(failures == 0);
  }
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&c);
  bt_buffer_destroy(&e);
  bt_buffer_destroy(&n);
  bt_executable_destroy(exe);
}

/* ======================================================================
 * Common (6.12.4)
 * ====================================================================== */

static long double c_max(double x, double y, double z) { (void)z; return fmax(x, y); }
static long double c_min(double x, double y, double z) { (void)z; return fmin(x, y); }
static long double c_clamp(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
static long double c_degrees(double x, double y, double z) { (void)y; (void)z; return x * (180.0L / M_PIl); }
static long double c_radians(double x, double y, double z) { (void)y; (void)z; return x * (M_PIl / 180.0L); }
static long double c_mix(double x, double y, double a) { return x + ((long double)y - x) * a; }
static long double c_step(double edge, double x, double z) { (void)z; return x < edge ? 0.0 : 1.0; }
static long double c_smoothstep(double e0, double e1, double x) {
  long double t = fminl(fmaxl(((long double)x - e0) / ((long double)e1 - e0), 0), 1);
  return t * t * (3 - 2 * t);
}
static long double c_sign(double x, double y, double z) {
  (void)y; (void)z;
  return isnan(x) ? 0.0 : x == 0.0 ? x : copysign(1.0, x);
}

/* EXACT: same value (zero sign open: max(-0, +0) is either); ULPS2:
 * degrees/radians; MIX: 4 eps of the larger end point (x + (y - x) a);
 * SMOOTH: 1e-12 absolute, far above double rounding, far below float's. */
typedef enum tolerance { EXACT, ULPS2, MIX, SMOOTH } tolerance;

typedef struct common_case {
  const char *name;
  int args;
  unsigned scalar_args; /* bit k: argument k is a scalar in vector forms */
  tolerance check;
  int ordered;          /* 1: arguments 1 < 2; 2: arguments 0 < 1 */
  long double (*ref)(double, double, double);
} common_case;

static const common_case common_cases[] = {
    {"max", 2, 0, EXACT, 0, c_max},         {"max", 2, 2, EXACT, 0, c_max},
    {"min", 2, 0, EXACT, 0, c_min},         {"min", 2, 2, EXACT, 0, c_min},
    {"clamp", 3, 0, EXACT, 1, c_clamp},     {"clamp", 3, 6, EXACT, 1, c_clamp},
    {"degrees", 1, 0, ULPS2, 0, c_degrees}, {"radians", 1, 0, ULPS2, 0, c_radians},
    {"mix", 3, 0, MIX, 0, c_mix},           {"mix", 3, 4, MIX, 0, c_mix},
    {"step", 2, 0, EXACT, 0, c_step},       {"step", 2, 1, EXACT, 0, c_step},
    {"smoothstep", 3, 0, SMOOTH, 2, c_smoothstep},
    {"smoothstep", 3, 3, SMOOTH, 2, c_smoothstep},
    {"sign", 1, 0, EXACT, 0, c_sign},
};
#define COMMON_CASES (sizeof common_cases / sizeof *common_cases)

static void common_kernel(const common_case *c, size_t index, int w) {
  char args[3][64];
  static const char *const p[3] = {"a", "b", "c"};
  for (int k = 0; k < 3; k++) {
    load(args[k], sizeof args[k], p[k], w, (c->scalar_args >> k) & 1);
  }
  bt_emit("kernel void c%d_%zu(global const double *a, global const double *b, "
       "global const double *c, global double *r) {\n"
       "  size_t i = get_global_id(0);\n  double%s v = %s(%s%s%s%s%s);\n",
       w, index, suffix(w), c->name, args[0], c->args > 1 ? ", " : "",
       c->args > 1 ? args[1] : "", c->args > 2 ? ", " : "",
       c->args > 2 ? args[2] : "");
  store("r", "v", w);
  bt_emit("}\n");
}

static double common_in[3][COUNT];

/* Finite inputs of every size up to 1e6 (the functions are undefined on
 * NaN and inf, but sign); limits in order where the function needs it. */
static void common_inputs(const common_case *c, uint64_t seed) {
  uint64_t state = seed * 0x2545f4914f6cdd1du + 3;
  int sign = strcmp(c->name, "sign") == 0;
  for (int k = 0; k < 3; k++) {
    for (size_t i = 0; i < COUNT; i++) {
      double x = i < SPECIALS ? specials[(i + 11 * (size_t)k) % SPECIALS]
                              : random_double(&state, 100.0, i);
      if (!(fabs(x) <= 1e6) && !(sign && i < SPECIALS)) x = (double)i - 3000.5;
      common_in[k][i] = x;
    }
  }
  if (!strcmp(c->name, "mix")) {
    for (size_t i = 0; i < COUNT; i++) common_in[2][i] = fabs(fmod(common_in[2][i], 1.0));
  }
  if (c->ordered) {
    int lo = c->ordered == 1 ? 1 : 0;
    for (size_t i = 0; i < COUNT; i++) {
      double x = common_in[lo][i], y = common_in[lo + 1][i];
      if (x == y) y = x + 1.0;
      common_in[lo][i] = fmin(x, y);
      common_in[lo + 1][i] = fmax(x, y);
    }
  }
}

static int common_close(tolerance check, double got, long double ref, double x,
                        double y) {
  switch (check) {
    case EXACT: return (got == 0.0 && ref == 0.0L) || same_double(got, (double)ref);
    case ULPS2: return ulp_error(got, ref) <= 2.0;
    case MIX: return fabsl(got - ref) <= 4.0L * fmax(fabs(x), fabs(y)) * DBL_EPSILON;
    case SMOOTH: return fabsl(got - ref) <= 1e-12L;
  }
  return 0;
}

static void run_common(void) {
  bt_buffer buffers[4];
  for (int k = 0; k < 4; k++) buffers[k] = bt_buffer_create(NULL, COUNT * 8);
  for (size_t index = 0; index < COMMON_CASES; index++) {
    const common_case *c = &common_cases[index];
    begin_source();
    const char *names[WIDTHS];
    char name_text[WIDTHS][32];
    for (int j = 0; j < WIDTHS; j++) {
      common_kernel(c, index, widths[j]);
      snprintf(name_text[j], sizeof name_text[j], "c%d_%zu", widths[j], index);
      names[j] = name_text[j];
    }
    mux_executable_t exe = build(names, WIDTHS, c->name);
    if (!exe) continue;
    common_inputs(c, index + 1);
    for (int k = 0; k < 3; k++) bt_buffer_write(&buffers[k], common_in[k]);
    for (int j = 0; j < WIDTHS; j++) {
      int w = widths[j];
      bt_buffer_write(&buffers[3], NULL);
      mux_descriptor_info_t args[4];
      for (int k = 0; k < 4; k++) args[k] = bt_buffer_arg(&buffers[k]);
      size_t items = (COUNT / (size_t)w) / LOCAL * LOCAL;
      bt_run(exe, names[j], args, 4, items, LOCAL);
      bt_buffer_read(&buffers[3], r_out);
      int failures = 0;
      for (size_t e = 0; e < items * (size_t)w; e++) {
        size_t group = e - e % (size_t)w; /* where scalar arguments come from */
        double x[3];
        for (int k = 0; k < 3; k++) {
          x[k] = common_in[k][(c->scalar_args >> k) & 1 ? group : e];
        }
        long double ref = c->ref(x[0], x[1], x[2]);
        if (!common_close(c->check, r_out[e], ref, x[0], x[1]) && failures++ < 4) {
          fprintf(stderr, "FAIL %s%s double%s: %a %a %a gave %a, expected %a "
                  "(%.3g ulp)\n", c->name, c->scalar_args ? " (scalar args)" : "",
                  suffix(w), x[0], x[1], x[2], r_out[e], (double)ref,
                  ulp_error(r_out[e], ref));
        }
      }
      CHECK(failures == 0);
    }
    bt_executable_destroy(exe);
  }
  for (int k = 0; k < 4; k++) bt_buffer_destroy(&buffers[k]);
}

/* ======================================================================
 * Geometric (6.12.5)
 * ====================================================================== */

#define VECTORS 1024

typedef enum geometric_kind { DOT, LENGTH, DISTANCE, NORMALIZE, CROSS } geometric_kind;
static const char *const geometric_names[] = {"dot", "length", "distance",
                                              "normalize", "cross"};

static void geometric_kernel(geometric_kind kind, int n) {
  char a[64], b[64];
  load(a, sizeof a, "a", n, 0);
  load(b, sizeof b, "b", n, 0);
  int two = kind == DOT || kind == DISTANCE || kind == CROSS;
  int vector = kind == NORMALIZE || kind == CROSS;
  bt_emit("kernel void g%d_%s(global const double *a, global const double *b, "
       "global double *r) {\n  size_t i = get_global_id(0);\n"
       "  double%s v = %s(%s%s%s);\n",
       n, geometric_names[kind], vector ? suffix(n) : "", geometric_names[kind],
       a, two ? ", " : "", two ? b : "");
  store("r", "v", vector ? n : 1);
  bt_emit("}\n");
}

/* Sums of squares in long double cannot overflow or underflow (its
 * exponent reaches 16383): the exact-ish length of any double vector. */
static long double sum_sq(const double *p, int n) {
  long double s = 0;
  for (int k = 0; k < n; k++) s += (long double)p[k] * p[k];
  return s;
}

/* Limits of the CTS (test_geometrics_double.cpp) before the factor of 2
 * it adds for its own reference's error: ours is long double. */
static double geometric_ulps(geometric_kind kind, int n) {
  switch (kind) {
    case LENGTH: return 3.0 + 0.5 * (0.5 * n + 0.5 * (n - 1));
    case DISTANCE: return 3.0 + 0.5 * (1.5 * n + 0.5 * (n - 1));
    case NORMALIZE: return 2.5 + 0.5 * (0.5 * n + 0.5 * (n - 1));
    default: return 0;
  }
}

static int any_of(const double *p, int n, int (*test)(double)) {
  for (int k = 0; k < n; k++) if (test(p[k])) return 1;
  return 0;
}
static int is_nan(double x) { return isnan(x); }
static int is_inf(double x) { return isinf(x); }

/* Whether element k of the result is right; 1 also where the function's
 * double arithmetic is undefined by definition (dot and cross products
 * that overflow). */
static int geometric_ok(geometric_kind kind, const double *a, const double *b,
                        int n, int k, double got, long double *ref_out) {
  long double ref = 0;
  switch (kind) {
    case DOT: {
      long double s = 0, bound = 0;
      for (int e = 0; e < n; e++) {
        long double product = (long double)a[e] * b[e];
        s += product;
        bound += fabsl(product);
        if (fabsl(product) > DBL_MAX || fabsl(s) > DBL_MAX) return 1;
      }
      *ref_out = s;
      if (isnan(s) || isinf(s)) return same_double(got, (double)s);
      /* the textbook bound of an n-term dot product, twice over */
      return fabsl(got - s) <= (2 * n - 1) * DBL_EPSILON * bound + n * DBL_TRUE_MIN;
    }
    case CROSS: {
      if (k == 3) return *ref_out = 0, got == 0.0;
      int u = (k + 1) % 3, v = (k + 2) % 3;
      long double p = (long double)a[u] * b[v], q = (long double)a[v] * b[u];
      if (fabsl(p) > DBL_MAX || fabsl(q) > DBL_MAX) return 1;
      ref = *ref_out = p - q;
      if (isnan(ref) || isinf(ref)) return same_double(got, (double)ref);
      if (fabsl(ref) > DBL_MAX) { /* the difference overflows */
        return fabs(got) >= DBL_MAX && !signbit(got) == !signbit(ref);
      }
      /* cancellation: 3 eps of the larger product, as the CTS allows */
      return fabsl(got - ref) <= 3 * DBL_EPSILON * fmaxl(fabsl(p), fabsl(q)) +
                                     2 * DBL_TRUE_MIN;
    }
    case LENGTH:
    case DISTANCE: {
      double d[4];
      for (int e = 0; e < n; e++) d[e] = kind == DISTANCE ? a[e] - b[e] : a[e];
      ref = *ref_out = sqrtl(sum_sq(d, n));
      if (any_of(d, n, is_inf)) { /* +inf; with a NaN too, either */
        return (isinf(got) && got > 0) || (isnan(got) && any_of(d, n, is_nan));
      }
      return ulp_error(got, ref) <= geometric_ulps(kind, n);
    }
    case NORMALIZE: {
      /* infinite elements replaced as 6.12.5 says; a zero vector returns
       * itself; NaN anywhere makes NaN everywhere */
      double p[4];
      int inf = any_of(a, n, is_inf);
      for (int e = 0; e < n; e++) {
        p[e] = inf ? (isinf(a[e]) ? copysign(1.0, a[e]) : 0.0 * a[e]) : a[e];
      }
      long double s = sum_sq(p, n);
      if (any_of(a, n, is_nan)) return *ref_out = NAN, isnan(got);
      if (s == 0) return *ref_out = p[k], same_double(got, p[k]);
      ref = *ref_out = p[k] / sqrtl(s);
      if (ref == 0.0L) return got == 0.0;
      return ulp_error(got, ref) <= geometric_ulps(kind, n);
    }
  }
  return 0;
}

static double g_a[VECTORS * 4], g_b[VECTORS * 4], g_r[VECTORS * 4];

/* Random bit patterns and moderate values, then whole vectors of one
 * size class whose squares overflow (1e200, 2^512) or underflow (1e-200,
 * subnormals), zero vectors of both signs, and infinite and NaN elements. */
static void geometric_inputs(void) {
  uint64_t state = 12345;
  for (size_t i = 0; i < VECTORS * 4; i++) {
    g_a[i] = random_double(&state, 1e3, i);
    g_b[i] = random_double(&state, 1e3, i + 1);
  }
  static const double classes[] = {1e200, 0x1p512, 0x1.8p511, DBL_MAX / 2,
                                   1e-200, 0x1p-512, 1e-310, DBL_TRUE_MIN,
                                   1e300, 1e-320};
  for (size_t v = 0; v < 192; v++) {
    double scale = classes[v % N_OF(classes)];
    for (size_t e = 0; e < 4; e++) {
      double u = (double)(random64(&state) >> 11) / 0x1p53;
      g_a[v * 4 + e] = scale * (0.5 + u) * (e % 3 ? 1 : -1);
      g_b[v * 4 + e] = v % 2 ? scale * (1.0 - u) : g_b[v * 4 + e];
    }
  }
  for (size_t v = 192; v < 224; v++) {
    for (size_t e = 0; e < 4; e++) g_a[v * 4 + e] = (v + e) % 2 ? 0.0 : -0.0;
  }
  for (size_t v = 224; v < 256; v++) {
    g_a[v * 4 + v % 4] = v % 8 < 4 ? INFINITY : -INFINITY;
    if (v % 5 == 0) g_a[v * 4 + (v + 1) % 4] = -INFINITY;
  }
  for (size_t v = 256; v < 272; v++) g_a[v * 4 + v % 4] = NAN;
  /* vectors of 1 to 4 read consecutive elements: every class also lands
   * across vector boundaries at widths 2 and 3, which is fine */
}

static void run_geometric(void) {
  geometric_inputs();
  bt_buffer a = bt_buffer_create(g_a, sizeof g_a);
  bt_buffer b = bt_buffer_create(g_b, sizeof g_b);
  bt_buffer r = bt_buffer_create(NULL, sizeof g_r);
  mux_descriptor_info_t args[3] = {bt_buffer_arg(&a), bt_buffer_arg(&b),
                                   bt_buffer_arg(&r)};
  for (int kind = DOT; kind <= CROSS; kind++) {
    int first = kind == CROSS ? 3 : 1;
    begin_source();
    const char *names[4];
    char name_text[4][32];
    uint32_t count = 0;
    for (int n = first; n <= 4; n++, count++) {
      geometric_kernel((geometric_kind)kind, n);
      snprintf(name_text[count], sizeof name_text[count], "g%d_%s", n,
               geometric_names[kind]);
      names[count] = name_text[count];
    }
    mux_executable_t exe = build(names, count, geometric_names[kind]);
    if (!exe) continue;
    for (int n = first; n <= 4; n++) {
      int vector = kind == NORMALIZE || kind == CROSS;
      bt_buffer_write(&r, NULL);
      bt_run(exe, names[n - first], args, 3, VECTORS, LOCAL);
      bt_buffer_read(&r, g_r);
      int failures = 0;
      for (size_t i = 0; i < VECTORS; i++) {
        const double *pa = g_a + i * (size_t)n, *pb = g_b + i * (size_t)n;
        for (int k = 0; k < (vector ? n : 1); k++) {
          double got = g_r[vector ? i * (size_t)n + (size_t)k : i];
          long double ref = 0;
          if (!geometric_ok((geometric_kind)kind, pa, pb, n, k, got, &ref) &&
              failures++ < 4) {
            fprintf(stderr, "FAIL %s double%s #%zu.%d: a=(%a %a %a %a) "
                    "b=(%a %a %a %a) gave %a, expected %a (%.3g ulp)\n",
                    geometric_names[kind], suffix(n), i, k, pa[0],
                    n > 1 ? pa[1] : 0.0, n > 2 ? pa[2] : 0.0, n > 3 ? pa[3] : 0.0,
                    pb[0], n > 1 ? pb[1] : 0.0, n > 2 ? pb[2] : 0.0,
                    n > 3 ? pb[3] : 0.0, got, (double)ref, ulp_error(got, ref));
          }
        }
      }
      CHECK(failures == 0);
    }
    bt_executable_destroy(exe);
  }
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&b);
  bt_buffer_destroy(&r);
}

int main(void) {
  bt_start();
  run_int_results();
  run_common();
  run_geometric();
  run_math();
  return bt_finish();
}

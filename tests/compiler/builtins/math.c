/* The builtin library's math functions (OpenCL 1.2 section 6.12.2) on
 * special values and random inputs, in scalar, float3 and float16 forms
 * (pointer outputs through __global and private pointers), against the
 * host's double-precision libm within the CTS's ulp limits; exact
 * functions to the bit. Also: __local pointer outputs agree with private
 * ones, and ilogb and nan (integer in or out). */
#include <limits.h>
#include <stdarg.h>

#include "builtins_test.h"

#define COUNT 4096 /* inputs per function; each width runs whole groups */
#define LOCAL 16

/* ---- Host references in double ----------------------------------------- */

static double pi_reduce(double x) { return fmod(x, 2.0); } /* exact */
static double ref_sinpi(double x) {
  double r = pi_reduce(x);
  if (r == trunc(r)) return copysign(0.0, x);
  return sin(M_PI * r);
}
static double ref_cospi(double x) {
  double r = fabs(pi_reduce(x));
  if (r == 0.5 || r == 1.5) return 0.0;
  if (isinf(x)) return NAN;
  return cos(M_PI * r);
}
static double ref_tanpi(double x) {
  double r = pi_reduce(x);
  if (isinf(x) || isnan(x)) return NAN;
  if (r == trunc(r)) { /* even: sign of x; odd: opposite */
    int odd = fmod(fabs(r), 2.0) == 1.0;
    return copysign(0.0, odd ? -x : x);
  }
  double h = fabs(r);
  if (h == 0.5 || h == 1.5) { /* tanpi(n + 0.5): +inf for even n */
    double n = floor(x);
    return fmod(fabs(n), 2.0) == 0.0 ? INFINITY : -INFINITY;
  }
  return ref_sinpi(x) / ref_cospi(x);
}
static double ref_asinpi(double x) { return asin(x) / M_PI; }
static double ref_acospi(double x) { return acos(x) / M_PI; }
static double ref_atanpi(double x) { return atan(x) / M_PI; }
static double ref_atan2pi(double y, double x) { return atan2(y, x) / M_PI; }
static double ref_divide(double x, double y) { return x / y; }
static double ref_rsqrt(double x) { return 1.0 / sqrt(x); }
static double ref_maxmag(double x, double y) {
  return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y);
}
static double ref_minmag(double x, double y) {
  return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y);
}
static double ref_nextafter(double x, double y) {
  return nextafterf((float)x, (float)y);
}
static double ref_powr(double x, double y) {
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if (x == 0 && y == 0) return NAN;
  if (isinf(x) && y == 0) return NAN;
  if (x == 1 && isinf(y)) return NAN;
  return pow(fabs(x), y); /* -0 counts as +0 */
}
static double ref_pown(double x, int n) { return pow(x, (double)n); }
static double ref_rootn(double x, int n) {
  if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
  double r = pow(fabs(x), 1.0 / n);
  return (n % 2) ? copysign(r, x) : r;
}
static double ref_ldexp(double x, int n) { return ldexpf((float)x, n); }
static double ref_fma(double a, double b, double c) {
  return fmaf((float)a, (float)b, (float)c);
}
static double ref_mad(double a, double b, double c) { return a * b + c; }
static double ref_fract(double x, double *ip) {
  float i, f = modff((float)x, &i);
  if (isnan(x)) {
    *ip = NAN;
    return NAN;
  }
  if (f < 0.0f) {
    f = 1.0f + f;
    i -= 1.0f;
    if (f == 1.0f) f = 0x1.fffffep-1f;
  }
  *ip = i;
  return f;
}
static double ref_modf(double x, double *ip) {
  float i, f = modff((float)x, &i);
  *ip = i;
  return f;
}
static double ref_sincos(double x, double *c) {
  *c = cos(x);
  return sin(x);
}
static double ref_frexp(double x, int *e) { return frexpf((float)x, e); }
static double ref_lgamma_r(double x, int *sign) { return lgamma_r(x, sign); }
static float remquo_y; /* the second argument of the element being checked */
/* The remainder from libm (exact); the quotient's 7 low bits (OpenCL's
 * minimum; glibc gives 3) from |x| mod 128|y| in double, where 128|y|
 * and the reduction are exact and the division is far better than 1/2.
 * NaN results give 0. */
static double ref_remquo(double x, int *quo) {
  int ignored = 0;
  float remainder_value = remquof((float)x, remquo_y, &ignored);
  double ax = fabs(x), ay = fabs((double)remquo_y);
  int bits = (int)rint(fmod(ax, 128.0 * ay) / ay) & 127;
  *quo = isnan(remainder_value) ? 0
         : !signbit(x) != !signbit(remquo_y) ? -bits : bits;
  return remainder_value;
}

/* ---- The table ----------------------------------------------------------- */

typedef enum signature {
  F_F,      /* float f(float) */
  F_FF,     /* float f(float, float) */
  F_FFF,    /* float f(float, float, float) */
  F_FI,     /* float f(float, int) */
  F_F_PF,   /* float f(float, float *) */
  F_F_PI,   /* float f(float, int *) */
  F_FF_PI,  /* float f(float, float, int *): remquo */
} signature;

typedef struct math_case {
  const char *name;
  signature kind;
  double ulps; /* 0: exact to the bit; < 0: any accuracy (NaN kind only) */
  float range; /* of the random values */
  double (*f1)(double);
  double (*f2)(double, double);
  double (*f3)(double, double, double);
  double (*fi)(double, int);
  double (*fpf)(double, double *);
  double (*fpi)(double, int *);
  int zero_sign_free;
} math_case;

#define U(n, u, r, f) {#n, F_F, u, r, f, 0, 0, 0, 0, 0, 0}
#define B(n, u, r, f) {#n, F_FF, u, r, 0, f, 0, 0, 0, 0, 0}
static const math_case cases[] = {
    U(acos, 4, 1.5f, acos), U(acosh, 4, 1e4f, acosh), U(acospi, 5, 1.5f, ref_acospi),
    U(asin, 4, 1.5f, asin), U(asinh, 4, 1e4f, asinh), U(asinpi, 5, 1.5f, ref_asinpi),
    U(atan, 5, 1e3f, atan), U(atanh, 5, 1.5f, atanh), U(atanpi, 5, 1e3f, ref_atanpi),
    U(cbrt, 2, 1e6f, cbrt), U(ceil, 0, 1e3f, ceil), U(cos, 4, 1e3f, cos),
    U(cosh, 4, 90.0f, cosh), U(cospi, 4, 1e3f, ref_cospi), U(erf, 16, 5.0f, erf),
    U(erfc, 16, 12.0f, erfc), U(exp, 3, 100.0f, exp), U(exp2, 3, 150.0f, exp2),
    U(exp10, 3, 40.0f, exp10), U(expm1, 3, 90.0f, expm1), U(fabs, 0, 1e3f, fabs),
    U(floor, 0, 1e3f, floor), U(lgamma, -1, 100.0f, lgamma), U(log, 3, 1e4f, log),
    U(log2, 3, 1e4f, log2), U(log10, 3, 1e4f, log10), U(log1p, 2, 1e4f, log1p),
    U(logb, 0, 1e4f, logb), U(rint, 0, 1e3f, rint), U(round, 0, 1e3f, round),
    U(rsqrt, 2, 1e4f, ref_rsqrt), U(sin, 4, 1e3f, sin), U(sinh, 4, 90.0f, sinh),
    U(sinpi, 4, 1e3f, ref_sinpi), U(sqrt, 3, 1e4f, sqrt), U(tan, 5, 1e3f, tan),
    U(tanh, 5, 20.0f, tanh), U(tanpi, 6, 1e3f, ref_tanpi), U(tgamma, 16, 40.0f, tgamma),
    U(trunc, 0, 1e3f, trunc),
    /* half_: 8192 ulp (sin, cos and tan on |x| <= 2^16); native_ has no
     * limit, but clmux's are the same functions. */
    U(half_cos, 8192, 6e4f, cos), U(half_sin, 8192, 6e4f, sin),
    U(half_tan, 8192, 6e4f, tan), U(half_exp, 8192, 80.0f, exp),
    U(half_exp2, 8192, 120.0f, exp2), U(half_exp10, 8192, 35.0f, exp10),
    U(half_log, 8192, 1e4f, log), U(half_log2, 8192, 1e4f, log2),
    U(half_log10, 8192, 1e4f, log10), U(half_sqrt, 8192, 1e4f, sqrt),
    U(half_rsqrt, 8192, 1e4f, ref_rsqrt), U(native_rsqrt, 3, 1e4f, ref_rsqrt),
    U(native_cos, 8192, 1e3f, cos), U(native_sin, 8192, 1e3f, sin),
    U(native_tan, 8192, 1e3f, tan), U(native_exp, 8192, 80.0f, exp),
    U(native_exp2, 8192, 120.0f, exp2), U(native_exp10, 8192, 35.0f, exp10),
    U(native_log, 8192, 1e4f, log), U(native_log2, 8192, 1e4f, log2),
    U(native_log10, 8192, 1e4f, log10),
    B(atan2, 6, 1e3f, atan2), B(atan2pi, 6, 1e3f, ref_atan2pi),
    B(copysign, 0, 1e3f, copysign), B(fdim, 0, 1e3f, fdim), {"fmax", F_FF, 0, 1e3f, 0, fmax, 0, 0, 0, 0, 1},
    {"fmin", F_FF, 0, 1e3f, 0, fmin, 0, 0, 0, 0, 1}, B(fmod, 0, 1e3f, fmod), B(hypot, 4, 1e3f, hypot),
    {"maxmag", F_FF, 0, 1e3f, 0, ref_maxmag, 0, 0, 0, 0, 1}, {"minmag", F_FF, 0, 1e3f, 0, ref_minmag, 0, 0, 0, 0, 1},
    B(nextafter, 0, 1e3f, ref_nextafter), B(pow, 16, 20.0f, pow),
    B(powr, 16, 20.0f, ref_powr), B(remainder, 0, 1e3f, remainder),
    B(half_divide, 8192, 1e3f, ref_divide), B(native_divide, -1, 1e3f, ref_divide),
    B(half_powr, 8192, 20.0f, ref_powr), B(native_powr, 8192, 20.0f, ref_powr),
    {"fma", F_FFF, 0, 1e3f, 0, 0, ref_fma, 0, 0, 0, 0},
    {"mad", F_FFF, -1, 1e3f, 0, 0, ref_mad, 0, 0, 0, 0},
    {"ldexp", F_FI, 0, 1e3f, 0, 0, 0, ref_ldexp, 0, 0, 0},
    {"pown", F_FI, 1, 4.0f, 0, 0, 0, ref_pown, 0, 0, 0}, /* 16 allowed */
    {"rootn", F_FI, 16, 1e4f, 0, 0, 0, ref_rootn, 0, 0, 0},
    {"fract", F_F_PF, 0, 1e3f, 0, 0, 0, 0, ref_fract, 0, 0},
    {"modf", F_F_PF, 0, 1e3f, 0, 0, 0, 0, ref_modf, 0, 0},
    {"sincos", F_F_PF, 4, 1e3f, 0, 0, 0, 0, ref_sincos, 0, 0},
    {"frexp", F_F_PI, 0, 1e3f, 0, 0, 0, 0, 0, ref_frexp, 0},
    {"lgamma_r", F_F_PI, -1, 100.0f, 0, 0, 0, 0, 0, ref_lgamma_r, 0},
    {"remquo", F_FF_PI, 0, 1e3f, 0, 0, 0, 0, 0, ref_remquo, 0},
};
#define CASES (sizeof cases / sizeof *cases)

/* ---- Kernel source ------------------------------------------------------- */

/* Loads element group i of `p` (type T) as a value of width w. */
static void load(char *out, size_t size, const char *T, const char *p, int w) {
  if (w == 1) snprintf(out, size, "%s[i]", p);
  if (w == 3)
    snprintf(out, size, "(%s3)(%s[3*i], %s[3*i+1], %s[3*i+2])", T, p, p, p);
  if (w == 16) snprintf(out, size, "((global const %s16 *)%s)[i]", T, p);
}

static const char *suffix(int w) { return w == 1 ? "" : w == 3 ? "3" : "16"; }

/* Stores the value named v (element type T) of width w into `p`. */
static void store(const char *p, const char *v, int w, const char *T) {
  if (w == 1) bt_emit("  %s[i] = %s;\n", p, v);
  if (w == 3)
    bt_emit("  %s[3*i] = %s.s0; %s[3*i+1] = %s.s1; %s[3*i+2] = %s.s2;\n", p, v,
         p, v, p, v);
  if (w == 16) bt_emit("  ((global %s16 *)%s)[i] = %s;\n", T, p, v);
}

static void kernel_for(const math_case *c, int w) {
  const char *s = suffix(w);
  char a[128], b[128], d[128];
  load(a, sizeof a, "float", "a", w);
  load(b, sizeof b, c->kind == F_FI ? "int" : "float", "b", w);
  load(d, sizeof d, "float", "c", w);
  const char *ptype = c->kind == F_F_PI || c->kind == F_FF_PI ? "int" : "float";
  char ab[300];
  snprintf(ab, sizeof ab, c->kind == F_FF_PI ? "%s, %s" : "%s", a, b);
  bt_emit("kernel void k%d_%s(global const float *a, global const %s *b, "
       "global const float *c, global float *r, global %s *p) {\n"
       "  size_t i = get_global_id(0);\n",
       w, c->name, c->kind == F_FI ? "int" : "float", ptype);
  switch (c->kind) {
    case F_F: bt_emit("  float%s v = %s(%s);\n", s, c->name, a); break;
    case F_FF:
    case F_FI: bt_emit("  float%s v = %s(%s, %s);\n", s, c->name, a, b); break;
    case F_FFF: bt_emit("  float%s v = %s(%s, %s, %s);\n", s, c->name, a, b, d); break;
    case F_F_PF:
    case F_F_PI:
    case F_FF_PI:
      if (w == 3) { /* private pointer */
        bt_emit("  %s3 q; float3 v = %s(%s, &q);\n", ptype, c->name, ab);
        store("p", "q", 3, ptype);
      } else { /* global pointer */
        bt_emit("  float%s v = %s(%s, (global %s%s *)p + i);\n", s, c->name, ab,
             ptype, s);
      }
      break;
  }
  store("r", "v", w, "float");
  bt_emit("}\n");
}

/* ---- Inputs and checks --------------------------------------------------- */

static const int special_ints[] = {0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 10,
                                   -10, 31, 127, -126, 128, -149, 300, -300,
                                   INT_MAX, INT_MIN, 16777217, -16777217};
#define SPECIAL_INTS (sizeof special_ints / sizeof *special_ints)

static float a_in[COUNT], b_in[COUNT], c_in[COUNT];
static int n_in[COUNT];
static float r_out[COUNT];
static union { float f[COUNT]; int i[COUNT]; } p_out;

/* Pairs of special values first, then random values. */
static void make_inputs(const math_case *c, uint32_t seed) {
  bt_fill_floats(a_in, COUNT, c->range, seed);
  bt_fill_floats(b_in, COUNT, c->range, seed * 7 + 1);
  bt_fill_floats(c_in, COUNT, c->range, seed * 13 + 5);
  if (c->kind == F_FF || c->kind == F_FFF || c->kind == F_FF_PI) {
    for (size_t i = 0; i < BT_SPECIAL_COUNT * BT_SPECIAL_COUNT && i < COUNT;
         i++) {
      a_in[i] = bt_special_floats[i / BT_SPECIAL_COUNT];
      b_in[i] = bt_special_floats[i % BT_SPECIAL_COUNT];
    }
  }
  uint32_t state = seed;
  for (size_t i = 0; i < COUNT; i++) {
    n_in[i] = i < SPECIAL_INTS * 8 ? special_ints[i % SPECIAL_INTS]
                                   : (int)(bt_random(&state) % 81) - 40;
    if (c->kind == F_FI && i < SPECIAL_INTS * 8) {
      a_in[i] = bt_special_floats[(i / SPECIAL_INTS) * 5 % BT_SPECIAL_COUNT];
    }
  }
}

/* Whether `got` is within the case's limit of `reference`. */
static int close_enough(const math_case *c, float got, double reference) {
  /* Which zero fmin/fmax-like functions pick between -0 and +0 is open. */
  if (c->zero_sign_free && got == 0.0f && reference == 0.0) return 1;
  if (c->ulps == 0) return bt_same_float(got, (float)reference);
  if (c->ulps < 0) return 1;
  /* An exact zero result has its sign (sin(-0) is -0, cospi(0.5) +0). */
  if (reference == 0.0) return bt_same_float(got, (float)reference);
  return bt_ulp_error(got, reference) <= c->ulps;
}

static double reference(const math_case *c, size_t i, double *p_ref,
                        int *i_ref) {
  double a = a_in[i];
  switch (c->kind) {
    case F_F: return c->f1(a);
    case F_FF: return c->f2(a, b_in[i]);
    case F_FFF: return c->f3(a, b_in[i], c_in[i]);
    case F_FI: return c->fi(a, n_in[i]);
    case F_F_PF: return c->fpf(a, p_ref);
    case F_F_PI: return c->fpi(a, i_ref);
    case F_FF_PI: remquo_y = b_in[i]; return c->fpi(a, i_ref);
  }
  return 0;
}

static void check_case(mux_executable_t exe, const math_case *c, int w,
                       bt_buffer *buffers) {
  char name[64];
  snprintf(name, sizeof name, "k%d_%s", w, c->name);
  bt_buffer_write(&buffers[3], NULL);
  bt_buffer_write(&buffers[4], NULL);
  mux_descriptor_info_t args[5];
  for (int k = 0; k < 5; k++) args[k] = bt_buffer_arg(&buffers[k]);
  size_t items = (COUNT / w) / LOCAL * LOCAL;
  bt_run(exe, name, args, 5, items, LOCAL);
  bt_buffer_read(&buffers[3], r_out);
  bt_buffer_read(&buffers[4], &p_out);
  int failures = 0;
  for (size_t i = 0; i < items * (size_t)w; i++) {
    double p_ref = 0;
    int i_ref = 0;
    double ref = reference(c, i, &p_ref, &i_ref);
    int ok = close_enough(c, r_out[i], ref);
    if (c->kind == F_F_PF) {
      math_case second = *c;
      ok = ok && close_enough(&second, p_out.f[i], p_ref);
    }
    if ((c->kind == F_F_PI || c->kind == F_FF_PI) && c->ulps == 0) {
      ok = ok && p_out.i[i] == i_ref;
    }
    if (c->kind == F_F_PI && c->ulps < 0 && a_in[i] > 0 &&
        !isinf(a_in[i])) {
      ok = ok && p_out.i[i] == 1;
    }
    if (!ok && failures++ < 3) {
      fprintf(stderr,
              "%s (width %d): x=%a y=%a n=%d got %a (%a, %d) expected %a "
              "(%a, %d)\n",
              c->name, w, a_in[i], b_in[i], n_in[i], r_out[i], p_out.f[i],
              p_out.i[i], ref, p_ref, i_ref);
    }
  }
  CHECK(failures == 0);
}

/* The __local pointer forms (scalar and float4) give what the private
 * ones give, which the table above checks against the host: each
 * work-item writes its outputs into local arrays, and after a barrier a
 * neighbour compares them. */
static const char *const local_source =
    "#define ALL1(c) (c)\n"
    "#define ALL4(c) (((c).x & (c).y & (c).z & (c).w) != 0)\n"
    "#define SAME(ALL, F, T, P, out, ...) { \\\n"
    "  P mine; \\\n"
    "  T r1 = F(__VA_ARGS__, &out[l]); T r2 = F(__VA_ARGS__, &mine); \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  ok &= ALL(r1 == r2 || r1 != r1); \\\n"
    "  P theirs = out[l ^ 1]; barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  out[l] = mine; barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  ok &= ALL(theirs == out[l ^ 1] || theirs != theirs); \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "kernel void local_pointers(global const float *a, global const float *b,\n"
    "                           global int *result) {\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  float x = a[i], y = b[i];\n"
    "  float4 x4 = (float4)(x, y, -x, 1.0f / x), y4 = (float4)(y, x, 3.0f, y);\n"
    "  local float lf[LOCAL]; local int li[LOCAL];\n"
    "  local float4 lf4[LOCAL]; local int4 li4[LOCAL];\n"
    "  int ok = 1;\n"
    "  SAME(ALL1, fract, float, float, lf, x)\n"
    "  SAME(ALL1, modf, float, float, lf, x)\n"
    "  SAME(ALL1, sincos, float, float, lf, x)\n"
    "  SAME(ALL1, frexp, float, int, li, x)\n"
    "  SAME(ALL1, lgamma_r, float, int, li, x)\n"
    "  SAME(ALL1, remquo, float, int, li, x, y)\n"
    "  SAME(ALL4, fract, float4, float4, lf4, x4)\n"
    "  SAME(ALL4, modf, float4, float4, lf4, x4)\n"
    "  SAME(ALL4, sincos, float4, float4, lf4, x4)\n"
    "  SAME(ALL4, frexp, float4, int4, li4, x4)\n"
    "  SAME(ALL4, lgamma_r, float4, int4, li4, x4)\n"
    "  SAME(ALL4, remquo, float4, int4, li4, x4, y4)\n"
    "  result[i] = ok;\n"
    "}\n";

static void check_local_pointers(void) {
  char text[4096];
  snprintf(text, sizeof text, "#define LOCAL %d\n%s", LOCAL, local_source);
  const char *name = "local_pointers";
  mux_executable_t exe = bt_build(text, &name, 1, LOCAL, NULL);
  if (!exe) return;
  bt_fill_floats(a_in, COUNT, 1e3f, 77);
  bt_fill_floats(b_in, COUNT, 1e3f, 78);
  bt_buffer a = bt_buffer_create(a_in, sizeof a_in);
  bt_buffer b = bt_buffer_create(b_in, sizeof b_in);
  bt_buffer r = bt_buffer_create(NULL, sizeof n_in);
  mux_descriptor_info_t args[3] = {bt_buffer_arg(&a), bt_buffer_arg(&b),
                                   bt_buffer_arg(&r)};
  bt_run(exe, name, args, 3, COUNT, LOCAL);
  bt_buffer_read(&r, n_in);
  int failures = 0;
  for (size_t i = 0; i < COUNT; i++) {
    if (n_in[i] != 1 && failures++ < 3) {
      fprintf(stderr, "local pointers: work-item %zu (x=%a y=%a) differs\n",
              i, a_in[i], b_in[i]);
    }
  }
  CHECK(failures == 0);
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&b);
  bt_buffer_destroy(&r);
  bt_executable_destroy(exe);
}

/* ilogb (int results, FP_ILOGB0 and FP_ILOGBNAN) and nan (a quiet NaN
 * carrying the code), scalar and float16. */
static const char *const int_source =
    "kernel void int_results(global const float *a, global const uint *codes,\n"
    "                        global int *e, global float *n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  e[i] = ilogb(a[i]);\n"
    "  n[i] = nan(codes[i]);\n"
    "  if (i < 64) {\n"
    "    int16 e16 = ilogb(((global const float16 *)a)[i]);\n"
    "    float16 n16 = nan(((global const uint16 *)codes)[i]);\n"
    "    e[%d + i] = e16.s5 - ilogb(a[16 * i + 5]);\n"
    "    n[%d + i] = as_float(as_uint(n16.sc) ^ as_uint(nan(codes[16 * i + 12])));\n"
    "  }\n"
    "}\n";

static int host_ilogb(float x) {
  if (isnan(x)) return INT_MAX;      /* FP_ILOGBNAN in OpenCL C */
  if (x == 0.0f) return INT_MIN;     /* FP_ILOGB0 */
  if (isinf(x)) return INT_MAX;
  return ilogbf(x);
}

static void check_int_results(void) {
  enum { ITEMS = COUNT - 64 };
  char text[2048];
  snprintf(text, sizeof text, int_source, ITEMS, ITEMS);
  const char *name = "int_results";
  mux_executable_t exe = bt_build(text, &name, 1, LOCAL, NULL);
  if (!exe) return;
  static uint32_t codes[COUNT];
  bt_fill_floats(a_in, COUNT, 1e3f, 91);
  uint32_t state = 5;
  for (size_t i = 0; i < COUNT; i++) codes[i] = bt_random(&state) >> (i % 32);
  bt_buffer a = bt_buffer_create(a_in, sizeof a_in);
  bt_buffer c = bt_buffer_create(codes, sizeof codes);
  bt_buffer e = bt_buffer_create(NULL, sizeof n_in);
  bt_buffer n = bt_buffer_create(NULL, sizeof r_out);
  mux_descriptor_info_t args[4] = {bt_buffer_arg(&a), bt_buffer_arg(&c),
                                   bt_buffer_arg(&e), bt_buffer_arg(&n)};
  bt_run(exe, name, args, 4, ITEMS, LOCAL);
  bt_buffer_read(&e, n_in);
  bt_buffer_read(&n, r_out);
  int failures = 0;
  for (size_t i = 0; i < ITEMS; i++) {
    uint32_t bits;
    memcpy(&bits, &r_out[i], 4);
    int ok = n_in[i] == host_ilogb(a_in[i]) && bits == (codes[i] | 0x7fc00000u);
    if (!ok && failures++ < 3) {
      fprintf(stderr, "ilogb(%a) = %d (expected %d), nan(%#x) = %#x\n",
              a_in[i], n_in[i], host_ilogb(a_in[i]), codes[i], bits);
    }
  }
  for (size_t i = 0; i < 64; i++) { /* vector forms: same as scalar ones */
    uint32_t bits;
    memcpy(&bits, &r_out[ITEMS + i], 4);
    if ((n_in[ITEMS + i] != 0 || bits != 0) && failures++ < 3) {
      fprintf(stderr, "vector ilogb/nan differ at %zu\n", i);
    }
  }
  CHECK(failures == 0);
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&c);
  bt_buffer_destroy(&e);
  bt_buffer_destroy(&n);
  bt_executable_destroy(exe);
}

int main(void) {
  bt_start();
  check_local_pointers();
  check_int_results();
  static const int widths[3] = {1, 3, 16};
  bt_buffer buffers[5];
  for (int k = 0; k < 5; k++) buffers[k] = bt_buffer_create(NULL, COUNT * 4);
  /* Two functions per program: codegen clones the whole module for each
   * kernel, so build time grows with kernels x module size. */
  enum { PER_PROGRAM = 2 };
  for (size_t first = 0; first < CASES; first += PER_PROGRAM) {
    size_t last = first + PER_PROGRAM < CASES ? first + PER_PROGRAM : CASES;
    const char *names[PER_PROGRAM * 3];
    char name_text[PER_PROGRAM * 3][64];
    uint32_t count = 0;
    bt_source_length = 0;
    for (size_t k = first; k < last; k++) {
      for (int j = 0; j < 3; j++, count++) {
        kernel_for(&cases[k], widths[j]);
        snprintf(name_text[count], 64, "k%d_%s", widths[j], cases[k].name);
        names[count] = name_text[count];
      }
    }
    mux_executable_t exe = bt_build(bt_source, names, count, LOCAL, NULL);
    if (!exe) continue;
    for (size_t k = first; k < last; k++) {
      make_inputs(&cases[k], (uint32_t)k + 1);
      bt_buffer_write(&buffers[0], a_in);
      bt_buffer_write(&buffers[1], cases[k].kind == F_FI ? (void *)n_in : b_in);
      bt_buffer_write(&buffers[2], c_in);
      for (int j = 0; j < 3; j++) check_case(exe, &cases[k], widths[j], buffers);
    }
    bt_executable_destroy(exe);
  }
  for (int k = 0; k < 5; k++) bt_buffer_destroy(&buffers[k]);
  return bt_finish();
}

/* The builtin library's common functions (OpenCL 1.2 section 6.12.4) in
 * scalar, float3 and float16 forms, including the forms that take scalar
 * limits or weights, against host references. */
#include <stdarg.h>

#include "builtins_test.h"

#define COUNT 3072 /* a multiple of 3 * 16 * 16 */
#define LOCAL 16

static double ref_max(double x, double y, double z) { (void)z; return fmax(x, y); }
static double ref_min(double x, double y, double z) { (void)z; return fmin(x, y); }
static double ref_clamp(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
static double ref_degrees(double x, double y, double z) { (void)y; (void)z; return x * (180.0 / M_PI); }
static double ref_radians(double x, double y, double z) { (void)y; (void)z; return x * (M_PI / 180.0); }
static double ref_mix(double x, double y, double a) { return x + (y - x) * a; }
static double ref_step(double edge, double x, double z) { (void)z; return x < edge ? 0.0 : 1.0; }
static double ref_smoothstep(double e0, double e1, double x) {
  double t = fmin(fmax((x - e0) / (e1 - e0), 0.0), 1.0);
  return t * t * (3.0 - 2.0 * t);
}
static double ref_sign(double x, double y, double z) {
  (void)y; (void)z;
  return isnan(x) ? 0.0 : x == 0.0 ? x : copysign(1.0, x);
}

typedef enum tolerance { EXACT, ULPS2, MIX, ABS } tolerance;

typedef struct common_case {
  const char *name;
  int args;
  unsigned scalar_args; /* bit k: argument k is a scalar in vector forms */
  tolerance check;
  int ordered;          /* arguments 1 and 2 (or 0 and 1) ordered */
  double (*ref)(double, double, double);
} common_case;

static const common_case cases[] = {
    {"max", 2, 0, EXACT, 0, ref_max},
    {"max", 2, 2, EXACT, 0, ref_max},
    {"min", 2, 0, EXACT, 0, ref_min},
    {"min", 2, 2, EXACT, 0, ref_min},
    {"clamp", 3, 0, EXACT, 1, ref_clamp},
    {"clamp", 3, 6, EXACT, 1, ref_clamp},
    {"degrees", 1, 0, ULPS2, 0, ref_degrees},
    {"radians", 1, 0, ULPS2, 0, ref_radians},
    {"mix", 3, 0, MIX, 0, ref_mix},
    {"mix", 3, 4, MIX, 0, ref_mix},
    {"step", 2, 0, EXACT, 0, ref_step},
    {"step", 2, 1, EXACT, 0, ref_step},
    {"smoothstep", 3, 0, ABS, 2, ref_smoothstep},
    {"smoothstep", 3, 3, ABS, 2, ref_smoothstep},
    {"sign", 1, 0, EXACT, 0, ref_sign},
};
#define CASES (sizeof cases / sizeof *cases)

/* Argument k of kernel width w: a vector load, or element i*w alone. */
static void argument(char *out, size_t size, const common_case *c, int k,
                     int w) {
  const char *p = k == 0 ? "a" : k == 1 ? "b" : "c";
  if (w == 1 || (c->scalar_args & (1u << k))) {
    snprintf(out, size, "%s[i * %d]", p, w);
  } else if (w == 3) {
    snprintf(out, size, "(float3)(%s[3*i], %s[3*i+1], %s[3*i+2])", p, p, p);
  } else {
    snprintf(out, size, "((global const float16 *)%s)[i]", p);
  }
}

static void kernel_for(const common_case *c, size_t index, int w) {
  char args[3][96];
  for (int k = 0; k < 3; k++) argument(args[k], sizeof args[k], c, k, w);
  bt_emit("kernel void k%d_%zu(global const float *a, global const float *b, "
       "global const float *c, global float *r) {\n"
       "  size_t i = get_global_id(0);\n"
       "  float%s v = %s(%s%s%s%s%s);\n",
       w, index, w == 1 ? "" : w == 3 ? "3" : "16", c->name, args[0],
       c->args > 1 ? ", " : "", c->args > 1 ? args[1] : "",
       c->args > 2 ? ", " : "", c->args > 2 ? args[2] : "");
  if (w == 1) bt_emit("  r[i] = v;\n");
  if (w == 3) bt_emit("  r[3*i] = v.s0; r[3*i+1] = v.s1; r[3*i+2] = v.s2;\n");
  if (w == 16) bt_emit("  ((global float16 *)r)[i] = v;\n");
  bt_emit("}\n");
}

static float in[3][COUNT], out[COUNT];

/* Finite inputs (the functions are undefined on NaN and inf, but sign);
 * limits in order where the function needs them. */
static void make_inputs(const common_case *c, uint32_t seed) {
  for (int k = 0; k < 3; k++) {
    bt_fill_floats(in[k], COUNT, 100.0f, seed * 3 + (uint32_t)k);
    for (size_t i = 0; i < COUNT; i++) {
      if (!isfinite(in[k][i]) || fabsf(in[k][i]) > 1e6f) {
        in[k][i] = c->args == 1 && i < 40 ? in[k][i] : (float)i - 1000.0f;
      }
    }
  }
  if (c->args == 1 && strcmp(c->name, "sign") != 0) {
    for (size_t i = 0; i < COUNT; i++) {
      if (!isfinite(in[0][i])) in[0][i] = 1.0f;
    }
  }
  if (strcmp(c->name, "mix") == 0) {
    for (size_t i = 0; i < COUNT; i++) in[2][i] = fabsf(fmodf(in[2][i], 1.0f));
  }
  if (c->ordered) {
    int lo = c->ordered == 1 ? 1 : 0;
    for (size_t i = 0; i < COUNT; i++) {
      float x = in[lo][i], y = in[lo + 1][i];
      if (x == y) y = x + 1.0f;
      in[lo][i] = fminf(x, y);
      in[lo + 1][i] = fmaxf(x, y);
    }
  }
}

static int close_enough(tolerance check, float got, double ref, size_t i) {
  switch (check) {
    case EXACT:
      return (got == 0.0f && ref == 0.0) || bt_same_float(got, (float)ref);
    case ULPS2: return bt_ulp_error(got, ref) <= 2.0;
    case MIX: { /* relative to the larger end point */
      double scale = fmax(fabs(in[0][i]), fabs(in[1][i]));
      return fabs(got - ref) <= 4.0 * scale * FLT_EPSILON;
    }
    case ABS: return fabs(got - ref) <= 1e-5;
  }
  return 0;
}

int main(void) {
  bt_start();
  static const int widths[3] = {1, 3, 16};
  bt_buffer buffers[4];
  for (int k = 0; k < 4; k++) buffers[k] = bt_buffer_create(NULL, COUNT * 4);
  for (size_t n = 0; n < CASES; n++) {
    const common_case *c = &cases[n];
    bt_source_length = 0;
    const char *names[3];
    char name_text[3][32];
    for (int j = 0; j < 3; j++) {
      kernel_for(c, n, widths[j]);
      snprintf(name_text[j], sizeof name_text[j], "k%d_%zu", widths[j], n);
      names[j] = name_text[j];
    }
    mux_executable_t exe = bt_build(bt_source, names, 3, LOCAL, NULL);
    if (!exe) continue;
    make_inputs(c, (uint32_t)n + 1);
    for (int k = 0; k < 3; k++) bt_buffer_write(&buffers[k], in[k]);
    for (int j = 0; j < 3; j++) {
      int w = widths[j];
      bt_buffer_write(&buffers[3], NULL);
      mux_descriptor_info_t args[4];
      for (int k = 0; k < 4; k++) args[k] = bt_buffer_arg(&buffers[k]);
      size_t items = (COUNT / (size_t)w) / LOCAL * LOCAL;
      bt_run(exe, names[j], args, 4, items, LOCAL);
      bt_buffer_read(&buffers[3], out);
      int failures = 0;
      for (size_t e = 0; e < items * (size_t)w; e++) {
        size_t group = e - e % (size_t)w; /* where scalar arguments come from */
        double x[3];
        for (int k = 0; k < 3; k++) {
          x[k] = in[k][(c->scalar_args & (1u << k)) ? group : e];
        }
        double ref = c->ref(x[0], x[1], x[2]);
        if (!close_enough(c->check, out[e], ref, e) && failures++ < 3) {
          fprintf(stderr, "%s (case %zu, width %d): %a %a %a gave %a, expected %a\n",
                  c->name, n, w, x[0], x[1], x[2], out[e], ref);
        }
      }
      CHECK(failures == 0);
    }
    bt_executable_destroy(exe);
  }
  for (int k = 0; k < 4; k++) bt_buffer_destroy(&buffers[k]);
  return bt_finish();
}

/* The builtin library's geometric functions (OpenCL 1.2 section 6.12.5)
 * for float to float4 against double-precision host references, with
 * huge, tiny, zero, infinite and NaN elements. */
#include <stdarg.h>

#include "builtins_test.h"

#define VECTORS 1024
#define LOCAL 16

typedef enum geometric_kind { SCALAR_OF_2, SCALAR_OF_1, VECTOR_OF_2, VECTOR_OF_1 } geometric_kind;

typedef struct geometric_case {
  const char *name;
  geometric_kind kind;
  double ulps;
  int widths; /* bit n: defined for n elements */
} geometric_case;

static const geometric_case cases[] = {
    {"dot", SCALAR_OF_2, 1, 0x1e},          {"length", SCALAR_OF_1, 2, 0x1e},
    {"distance", SCALAR_OF_2, 2, 0x1e},     {"normalize", VECTOR_OF_1, 2, 0x1e},
    {"cross", VECTOR_OF_2, 3, 0x18},        {"fast_length", SCALAR_OF_1, 8192, 0x1e},
    {"fast_distance", SCALAR_OF_2, 8192, 0x1e},
    {"fast_normalize", VECTOR_OF_1, 8192, 0x1e},
};
#define CASES (sizeof cases / sizeof *cases)

static void load(char *out, size_t size, const char *p, int n) {
  if (n == 1) snprintf(out, size, "%s[i]", p);
  if (n == 2) snprintf(out, size, "(float2)(%s[2*i], %s[2*i+1])", p, p);
  if (n == 3) snprintf(out, size, "(float3)(%s[3*i], %s[3*i+1], %s[3*i+2])", p, p, p);
  if (n == 4) snprintf(out, size, "(float4)(%s[4*i], %s[4*i+1], %s[4*i+2], %s[4*i+3])", p, p, p, p);
}

static void kernel_for(const geometric_case *c, int n) {
  char a[128], b[128];
  load(a, sizeof a, "a", n);
  load(b, sizeof b, "b", n);
  int two = c->kind == SCALAR_OF_2 || c->kind == VECTOR_OF_2;
  int vector = c->kind == VECTOR_OF_1 || c->kind == VECTOR_OF_2;
  const char *type = n == 1 ? "float" : n == 2 ? "float2" : n == 3 ? "float3" : "float4";
  bt_emit("kernel void k%d_%s(global const float *a, global const float *b, "
       "global float *r) {\n  size_t i = get_global_id(0);\n"
       "  %s v = %s(%s%s%s);\n",
       n, c->name, vector ? type : "float", c->name, a, two ? ", " : "", two ? b : "");
  if (!vector || n == 1) {
    bt_emit("  r[i * %d] = v;\n", vector ? n : 1);
  } else {
    static const char *const lanes[] = {"x", "y", "z", "w"};
    for (int k = 0; k < n; k++) bt_emit("  r[%d*i+%d] = v.%s;\n", n, k, lanes[k]);
  }
  bt_emit("}\n");
}

/* ---- References ----------------------------------------------------------- */

static double sum_sq(const float *p, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += (double)p[k] * p[k];
  return s;
}

/* Element k of the reference result (k = 0 for scalar results). */
static double reference(const geometric_case *c, const float *a, const float *b,
                        int n, int k) {
  const char *f = c->name;
  if (strncmp(f, "fast_", 5) == 0) f += 5;
  if (strcmp(f, "dot") == 0) {
    double s = 0;
    for (int e = 0; e < n; e++) s += (double)a[e] * b[e];
    return s;
  }
  if (strcmp(f, "length") == 0) return sqrt(sum_sq(a, n));
  if (strcmp(f, "distance") == 0) {
    float d[4];
    for (int e = 0; e < n; e++) d[e] = a[e] - b[e];
    return sqrt(sum_sq(d, n));
  }
  if (strcmp(f, "cross") == 0) {
    if (k == 3) return 0.0;
    int u = (k + 1) % 3, v = (k + 2) % 3;
    return (double)a[u] * b[v] - (double)a[v] * b[u];
  }
  /* normalize, with infinite elements replaced as 6.12.5 says */
  float p[4];
  int any_inf = 0;
  for (int e = 0; e < n; e++) any_inf |= isinf(a[e]);
  for (int e = 0; e < n; e++) {
    p[e] = any_inf ? (isinf(a[e]) ? copysignf(1.0f, a[e]) : 0.0f * a[e]) : a[e];
  }
  double s = sum_sq(p, n);
  if (s == 0.0) return p[k];
  return p[k] / sqrt(s);
}

/* Whether float arithmetic as the function is defined stays in range:
 * the products of cross and dot and the fast_* sums of squares may
 * overflow or underflow by definition; the others must not. */
static int in_float_range(const geometric_case *c, const float *a,
                          const float *b, int n) {
  if (strcmp(c->name, "cross") == 0) {
    for (int u = 0; u < 3; u++) {
      for (int v = 0; v < 3; v++) {
        double product = fabs((double)a[u] * b[v]);
        if (!(product <= FLT_MAX)) return 0;
      }
    }
    return 1;
  }
  if (strcmp(c->name, "dot") == 0) {
    for (int e = 0; e < n; e++) {
      if (!(fabs((double)a[e] * b[e]) <= FLT_MAX)) return 0;
    }
    return 1;
  }
  if (strncmp(c->name, "fast_", 5) != 0) return 1;
  float d[4];
  int two = strcmp(c->name, "fast_distance") == 0;
  for (int e = 0; e < n; e++) d[e] = two ? a[e] - b[e] : a[e];
  double s = sum_sq(d, n);
  return s <= FLT_MAX && (s == 0.0 || s >= FLT_MIN) && !isinf(d[0]) &&
         (s != 0.0 || strcmp(c->name, "fast_normalize") != 0);
}

/* Cross products cancel: allow ulps of the larger product, not of the
 * difference. dot sums in float: n roundings of at most the sum of the
 * products' magnitudes each (n epsilons of it), and of the smallest
 * subnormal where products underflow; beyond float, infinity. */
static int close_enough(const geometric_case *c, float got, double ref,
                        const float *a, const float *b, int n, int k) {
  if (strcmp(c->name, "dot") == 0 && isfinite((float)ref)) {
    double magnitudes = 0;
    for (int e = 0; e < n; e++) magnitudes += fabs((double)a[e] * b[e]);
    return fabs(got - ref) <=
           n * (c->ulps * magnitudes * FLT_EPSILON + 0x1p-149);
  }
  if (strcmp(c->name, "cross") == 0 && k < 3 && isfinite(ref)) {
    int u = (k + 1) % 3, v = (k + 2) % 3;
    double big = fmax(fabs((double)a[u] * b[v]), fabs((double)a[v] * b[u]));
    return fabs(got - ref) <= c->ulps * big * FLT_EPSILON + FLT_MIN;
  }
  return bt_ulp_error(got, ref) <= c->ulps;
}

static float a_in[VECTORS * 4], b_in[VECTORS * 4], r_out[VECTORS * 4];

int main(void) {
  bt_start();
  bt_fill_floats(a_in, VECTORS * 4, 1e3f, 11);
  bt_fill_floats(b_in, VECTORS * 4, 1e3f, 29);
  /* Some vectors of one size class: near overflow, near underflow, zero. */
  for (int e = 0; e < 16; e++) {
    a_in[256 + e] = (e % 3 ? 1e30f : -3e29f) * (1.0f + (float)e / 16);
    a_in[300 + e] = (e % 3 ? 1e-30f : -3e-40f) * (1.0f + (float)e / 16);
    a_in[400 + e] = 0.0f;
  }
  bt_buffer a = bt_buffer_create(a_in, sizeof a_in);
  bt_buffer b = bt_buffer_create(b_in, sizeof b_in);
  bt_buffer r = bt_buffer_create(NULL, sizeof r_out);
  mux_descriptor_info_t args[3] = {bt_buffer_arg(&a), bt_buffer_arg(&b), bt_buffer_arg(&r)};
  for (size_t n = 0; n < CASES; n++) {
    const geometric_case *c = &cases[n];
    bt_source_length = 0;
    const char *names[4];
    char name_text[4][48];
    int count = 0, widths[4];
    for (int w = 1; w <= 4; w++) {
      if (!(c->widths & (1 << w))) continue;
      kernel_for(c, w);
      snprintf(name_text[count], sizeof name_text[count], "k%d_%s", w, c->name);
      names[count] = name_text[count];
      widths[count++] = w;
    }
    mux_executable_t exe = bt_build(bt_source, names, (uint32_t)count, LOCAL, NULL);
    if (!exe) continue;
    for (int j = 0; j < count; j++) {
      int w = widths[j];
      int vector = c->kind == VECTOR_OF_1 || c->kind == VECTOR_OF_2;
      bt_buffer_write(&r, NULL);
      bt_run(exe, names[j], args, 3, VECTORS, LOCAL);
      bt_buffer_read(&r, r_out);
      int failures = 0;
      for (size_t i = 0; i < VECTORS; i++) {
        const float *pa = a_in + i * (size_t)w, *pb = b_in + i * (size_t)w;
        if (!in_float_range(c, pa, pb, w)) continue;
        for (int k = 0; k < (vector ? w : 1); k++) {
          float got = r_out[vector ? i * (size_t)w + (size_t)k : i];
          double ref = reference(c, pa, pb, w, k);
          if (!close_enough(c, got, ref, pa, pb, w, k) && failures++ < 3) {
            fprintf(stderr, "%s (%d elements) #%zu.%d: a0=%a b0=%a gave %a, expected %a\n",
                    c->name, w, i, k, pa[0], pb[0], got, ref);
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
  return bt_finish();
}

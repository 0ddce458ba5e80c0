/* Builtin library tests — explicit conversions convert_<type>[_sat][_rte|
 * _rtz|_rtp|_rtn] (OpenCL 1.2 section 6.2.3) between char ... ulong and
 * float: every scalar function on edge values (type limits and the values
 * just past them, halfway cases, float precision limits, NaN, ±inf) and
 * random ones, and for every type pair a vector width with a rounding
 * mode, against a host reference (directed int -> float rounding through
 * the host's own rounding modes on exact long double values). Float to
 * integer without _sat is undefined out of range and not checked there.
 * The double forms (the front-end does not enable cl_khr_fp64 yet) are
 * called from kernels written in LLVM IR, scalar, to and from double. */
#include <fenv.h>
#include <stdarg.h>

#include <llvm-c/IRReader.h>

#include "builtins_test.h"

#define N 480 /* divisible by every vector width */
#define LOCAL 32

typedef struct conv_type {
  const char *name;
  int size;
  int is_signed;
  int is_float;
} conv_type;

static const conv_type types[] = {
    {"char", 1, 1, 0}, {"uchar", 1, 0, 0}, {"short", 2, 1, 0},
    {"ushort", 2, 0, 0}, {"int", 4, 1, 0}, {"uint", 4, 0, 0},
    {"long", 8, 1, 0}, {"ulong", 8, 0, 0}, {"float", 4, 1, 1},
};
#define TYPES 9
static const char *modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int widths[] = {2, 3, 4, 8, 16};

static void append(char **text, size_t *length, const char *format, ...) {
  va_list args, copy;
  va_start(args, format);
  va_copy(copy, args);
  int n = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  REQUIRE(n >= 0);
  *text = realloc(*text, *length + (size_t)n + 1);
  REQUIRE(*text);
  vsnprintf(*text + *length, (size_t)n + 1, format, args);
  va_end(args);
  *length += (size_t)n;
}

/* The outputs of kernel cv_<dst>_<src>, each N elements: the scalar
 * functions (sat outer, mode inner), then a vector form with a mode and
 * sat chosen from the pair, then the plain vector form. */
static int scalar_count(const conv_type *d) { return d->is_float ? 5 : 10; }
/* Every pair has a vector form, its width, mode and sat spread over the
 * pairs (all vector forms would multiply the compile time). */
static int has_vector(int d, int s) { (void)d; (void)s; return 1; }
static int vector_width(int d, int s) { return widths[(d + 2 * s) % 5]; }
static int vector_mode(int d, int s) { return (d + s) % 5; }
static int vector_sat(int d, int s) { return !types[d].is_float && (d + s) % 2; }

static void append_kernel(char **s, size_t *len, int d, int src) {
  const conv_type *dt = &types[d], *st = &types[src];
  append(s, len,
         "kernel void cv_%s_%s(global const %s *x, global %s *o) {\n"
         "  size_t i = get_global_id(0);\n  %s v = x[i];\n",
         dt->name, st->name, st->name, dt->name, st->name);
  int k = 0;
  for (int sat = 0; sat < (dt->is_float ? 1 : 2); sat++) {
    for (int m = 0; m < 5; m++, k++) {
      append(s, len, "  o[%d * %d + i] = convert_%s%s%s(v);\n", k, N, dt->name,
             sat ? "_sat" : "", modes[m]);
    }
  }
  if (!has_vector(d, src)) {
    append(s, len, "}\n");
    return;
  }
  int w = vector_width(d, src);
  append(s, len,
         "  if (i < %d / %d) {\n"
         "    vstore%d(convert_%s%d%s%s(vload%d(i, x)), i, o + %d * %d);\n"
         "    vstore%d(convert_%s%d(vload%d(i, x)), i, o + %d * %d);\n  }\n}\n",
         N, w, w, dt->name, w, vector_sat(d, src) ? "_sat" : "",
         modes[vector_mode(d, src)], w, k, N, w, dt->name, w, w, k + 1, N);
}

/* ---- host reference ------------------------------------------------------ */

/* A source value, exactly: integers in long double (64-bit significand),
 * floats as they are. */
static long double source_value(const conv_type *t, const uint8_t *p) {
  if (t->is_float && t->size == 8) { double d; memcpy(&d, p, 8); return d; }
  if (t->is_float) { float f; memcpy(&f, p, 4); return f; }
  uint64_t bits = 0;
  memcpy(&bits, p, t->size);
  if (t->is_signed && t->size < 8 && (bits >> (8 * t->size - 1)) & 1) {
    bits |= ~(uint64_t)0 << (8 * t->size);
  }
  return t->is_signed ? (long double)(int64_t)bits : (long double)bits;
}

static long double type_min(const conv_type *t) {
  return t->is_signed ? -ldexpl(1, 8 * t->size - 1) : 0;
}
static long double type_max(const conv_type *t) {
  return ldexpl(1, 8 * t->size - (t->is_signed ? 1 : 0)) - 1;
}

static const int fe_modes[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO,
                               FE_UPWARD, FE_DOWNWARD};

/* Writes the expected bytes of the conversion; returns 0 when the result
 * is undefined (float to integer without _sat, out of range or NaN). */
static int reference(const conv_type *d, const conv_type *s, int sat, int mode,
                     const uint8_t *in, uint8_t *out) {
  long double v = source_value(s, in);
  if (d->is_float) {
    fesetround(fe_modes[mode]);
    volatile long double exact = v;
    if (d->size == 8) {
      volatile double f = (double)exact;
      fesetround(FE_TONEAREST);
      double r = f;
      memcpy(out, &r, 8);
    } else {
      volatile float f = (float)exact;
      fesetround(FE_TONEAREST);
      float r = f;
      memcpy(out, &r, 4);
    }
    return 1;
  }
  if (s->is_float) {
    if (isnan(v)) {
      if (!sat) return 0;
      memset(out, 0, d->size);
      return 1;
    }
    /* integer conversions default to rounding toward zero */
    int m = mode == 0 ? 2 : mode;
    v = m == 1 ? nearbyintl(v) : m == 2 ? truncl(v) : m == 3 ? ceill(v) : floorl(v);
  }
  if (v < type_min(d) || v > type_max(d)) {
    if (s->is_float && !sat) return 0;
    if (sat) v = v < type_min(d) ? type_min(d) : type_max(d);
  }
  uint64_t bits;
  if (!s->is_float && !sat) {
    memcpy(&bits, in, 8 < s->size ? 8 : s->size); /* truncate: low bytes */
    bits = 0;
    memcpy(&bits, in, s->size);
    if (s->is_signed && s->size < 8 && (bits >> (8 * s->size - 1)) & 1) {
      bits |= ~(uint64_t)0 << (8 * s->size);
    }
  } else {
    bits = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
  }
  memcpy(out, &bits, d->size);
  return 1;
}

static int both_nan(const conv_type *t, const uint8_t *a, const uint8_t *b) {
  return isnan(source_value(t, a)) && isnan(source_value(t, b));
}

/* ---- inputs -------------------------------------------------------------- */

static uint32_t rng = 2024;

static void fill_inputs(const conv_type *t, uint8_t *p) {
  static const double edges[] = {
      0, 1, -1, 2, -2, 127, 128, 129, -128, -129, 255, 256, -255, 32767, 32768,
      -32768, -32769, 65535, 65536, 16777217, 16777216, -16777217, 2147483647.0,
      2147483648.0, -2147483648.0, -2147483649.0, 4294967295.0, 4294967296.0,
      9007199254740993.0, 9223372036854775807.0, -9223372036854775808.0,
      18446744073709551615.0};
  static const float float_edges[] = {
      0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f,
      127.5f, 127.49999f, 128.0f, -128.5f, -128.49998f, -129.0f, 255.5f,
      256.0f, 32767.5f, -32768.5f, 65535.5f, 65536.0f, 2147483520.0f,
      2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f,
      4294967296.0f, 9223371487098961920.0f, 9223372036854775808.0f,
      -9223372036854775808.0f, -9223373136366403584.0f,
      18446742974197923840.0f, 18446744073709551616.0f, 1e-45f, -1e-45f,
      0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e30f, -1e30f, 8388607.5f,
      -8388607.5f, 0.99999994f, -0.99999994f};
  int edge_count = (int)(sizeof edges / sizeof *edges);
  int float_count = (int)(sizeof float_edges / sizeof *float_edges);
  for (int i = 0; i < N; i++) {
    uint8_t *e = p + (size_t)i * t->size;
    uint64_t r = ((uint64_t)bt_random(&rng) << 32) | bt_random(&rng);
    if (t->is_float) {
      float f;
      if (i < float_count) {
        f = float_edges[i];
      } else if (i < float_count + edge_count) {
        f = (float)edges[i - float_count];
      } else if (i % 3 == 0) { /* random bits: every exponent */
        uint32_t b = (uint32_t)r;
        memcpy(&f, &b, 4);
      } else { /* random magnitudes up to 2^66, with fractions */
        f = ldexpf((float)(r & 0xffffff), (int)((r >> 32) % 68) - 26);
        if ((r >> 40) & 1) f = -f;
      }
      if (t->size == 4) {
        memcpy(e, &f, 4);
      } else { /* double: also values between floats, and tiny and huge */
        double v = f;
        if (i >= float_count + edge_count && i % 4 == 1) {
          v += ldexp(v, -30) * (double)((r >> 8) & 0xff);
        } else if (i >= float_count + edge_count && i % 4 == 2) {
          v = ldexp((double)(r >> 11), (int)(r % 400) - 200 - 53);
        } else if (i == 0) {
          v = DBL_MAX;
        } else if (i == 1) {
          v = 4.9e-324; /* the smallest denormal */
        } else if (i == 2) {
          v = (double)FLT_MAX * (1 + ldexp(1, -25)); /* rounds to inf or max */
        }
        memcpy(e, &v, 8);
      }
    } else {
      uint64_t bits;
      if (i < edge_count) {
        double v = edges[i];
        bits = v < 0 ? (uint64_t)(int64_t)v
               : v >= 18446744073709551615.0 ? ~(uint64_t)0
                                             : (uint64_t)v;
      } else if (i % 2) { /* random bits */
        bits = r;
      } else { /* a random magnitude: near each float precision limit */
        bits = r >> (r % 64);
      }
      memcpy(e, &bits, t->size);
    }
  }
}

/* ---- double, through kernels in LLVM IR ---------------------------------- */

static const conv_type double_type = {"double", 8, 1, 1};
static const char mangle_codes[] = "chstijlmf"; /* types[] order; double: d */
static const char *ir_types[] = {"i8", "i8", "i16", "i16", "i32", "i32",
                                 "i64", "i64", "float", "double"};

/* Declarations of the called functions, appended after the kernels. */
static char *declarations;
static size_t declarations_length;

/* Appends one call: result `k` goes to out + (k * N + id) * 8. */
static void append_call(char **s, size_t *len, int k, const char *dst,
                        const char *suffix, char code, const char *ret,
                        const char *arg) {
  char name[64];
  snprintf(name, sizeof name, "convert_%s%s", dst, suffix);
  append(s, len,
         "  %%r%d = call %s @_Z%zu%s%c(%s %%x)\n"
         "  %%i%d = add i64 %%id, %d\n"
         "  %%b%d = mul i64 %%i%d, 8\n"
         "  %%p%d = getelementptr i8, ptr addrspace(1) %%out, i64 %%b%d\n"
         "  store %s %%r%d, ptr addrspace(1) %%p%d\n",
         k, ret, strlen(name), name, code, arg, k, k * N, k, k, k, k, ret, k, k);
  append(&declarations, &declarations_length, "declare %s @_Z%zu%s%c(%s)\n",
         ret, strlen(name), name, code, arg);
}

static void append_kernel_head(char **s, size_t *len, const char *name,
                               const char *arg) {
  append(s, len,
         "define spir_kernel void @%s(ptr addrspace(1) %%in, ptr addrspace(1) %%out) {\n"
         "  %%id = call i64 @_Z13get_global_idj(i32 0)\n"
         "  %%xp = getelementptr %s, ptr addrspace(1) %%in, i64 %%id\n"
         "  %%x = load %s, ptr addrspace(1) %%xp\n",
         name, arg, arg);
}

/* Kernel from_double: every convert_<T>[_sat][_rt?](double); kernels
 * to_double_<T>: every convert_double[_rt?](T). Their result index k
 * follows the loops below. */
static char *double_ir(void) {
  char *s = NULL;
  size_t len = 0;
  append(&s, &len, "target triple = \"x86_64-unknown-linux-gnu\"\n"
                   "declare i64 @_Z13get_global_idj(i32)\n");
  append_kernel_head(&s, &len, "from_double", "double");
  int k = 0;
  for (int d = 0; d <= TYPES; d++) {
    const char *name = d < TYPES ? types[d].name : "double";
    int sats = d < TYPES && !types[d].is_float ? 2 : 1;
    for (int sat = 0; sat < sats; sat++) {
      for (int m = 0; m < 5; m++, k++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "%s%s", sat ? "_sat" : "", modes[m]);
        append_call(&s, &len, k, name, suffix, 'd', ir_types[d], "double");
      }
    }
  }
  append(&s, &len, "  ret void\n}\n");
  for (int src = 0; src < TYPES; src++) {
    char kernel[32];
    snprintf(kernel, sizeof kernel, "to_double_%s", types[src].name);
    append_kernel_head(&s, &len, kernel, ir_types[src]);
    for (int m = 0; m < 5; m++) {
      append_call(&s, &len, m, "double", modes[m], mangle_codes[src], "double",
                  ir_types[src]);
    }
    append(&s, &len, "  ret void\n}\n");
  }
  append(&s, &len, "%s", declarations);
  free(declarations);
  declarations = NULL;
  declarations_length = 0;
  return s;
}

static int check_double_outputs(mux_executable_t exe, const char *kernel,
                                const conv_type *src, const uint8_t *in,
                                int outputs, const conv_type *(*dst_of)(int),
                                int (*sat_of)(int), int *checked) {
  bt_buffer bin = bt_buffer_create(in, (size_t)N * src->size);
  bt_buffer bout = bt_buffer_create(NULL, (size_t)outputs * N * 8);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&bin), bt_buffer_arg(&bout)};
  bt_run(exe, kernel, args, 2, N, LOCAL);
  uint8_t *out = malloc(bout.size);
  REQUIRE(out);
  bt_buffer_read(&bout, out);
  int failures = 0;
  for (int k = 0; k < outputs; k++) {
    const conv_type *dt = dst_of(k);
    for (int i = 0; i < N; i++) {
      uint8_t want[8];
      const uint8_t *x = in + (size_t)i * src->size;
      if (!reference(dt, src, sat_of(k), k % 5, x, want)) continue;
      (*checked)++;
      const uint8_t *got = out + ((size_t)k * N + i) * 8;
      int same = !memcmp(got, want, dt->size) ||
                 (dt->is_float && both_nan(dt, got, want));
      if (!same && failures++ < 8) {
        uint64_t gb = 0, wb = 0, xb = 0;
        memcpy(&gb, got, dt->size);
        memcpy(&wb, want, dt->size);
        memcpy(&xb, x, src->size);
        fprintf(stderr, "%s output %d: convert_%s(%s 0x%llx) gave 0x%llx, expected 0x%llx\n",
                kernel, k, dt->name, src->name, (unsigned long long)xb,
                (unsigned long long)gb, (unsigned long long)wb);
      }
    }
  }
  free(out);
  bt_buffer_destroy(&bin);
  bt_buffer_destroy(&bout);
  return failures;
}

/* from_double's output k: destination and sat (see double_ir) */
static const conv_type *from_double_dst(int k) {
  int d = 0;
  for (;; d++) {
    int count = d < TYPES && !types[d].is_float ? 10 : 5;
    if (k < count) break;
    k -= count;
  }
  return d < TYPES ? &types[d] : &double_type;
}
static int from_double_sat(int k) {
  for (int d = 0;; d++) {
    int count = d < TYPES && !types[d].is_float ? 10 : 5;
    if (k < count) return k >= 5;
    k -= count;
  }
}
static const conv_type *to_double_dst(int k) { (void)k; return &double_type; }
static int no_sat(int k) { (void)k; return 0; }

static void check_double(void) {
  char *text = double_ir();
  LLVMModuleRef module = bt_parse_ir(text);
  free(text);
  const char *names[1 + TYPES];
  char storage[1 + TYPES][32];
  for (int k = 0; k <= TYPES; k++) {
    if (k == 0) snprintf(storage[k], 32, "from_double");
    else snprintf(storage[k], 32, "to_double_%s", types[k - 1].name);
    names[k] = storage[k];
  }
  mux_executable_t exe = bt_build_module(module, names, 1 + TYPES, LOCAL, NULL);
  if (!exe) return;
  int failures = 0, checked = 0;
  uint8_t in[N * 8];
  fill_inputs(&double_type, in);
  failures += check_double_outputs(exe, "from_double", &double_type, in,
                                   8 * 10 + 2 * 5, from_double_dst,
                                   from_double_sat, &checked);
  for (int src = 0; src < TYPES; src++) {
    fill_inputs(&types[src], in);
    failures += check_double_outputs(exe, names[1 + src], &types[src], in, 5,
                                     to_double_dst, no_sat, &checked);
  }
  CHECK_INT(0, failures);
  CHECK(checked > 40000);
  bt_executable_destroy(exe);
}

/* One executable per source type: the codegen's cost grows with the
 * number of kernels times the size of the module, so small programs
 * build much faster than one of 81 kernels. */
static mux_executable_t build_for_source(int src, const char **names) {
  char *s = NULL;
  size_t len = 0;
  append(&s, &len, "%s", "");
  for (int d = 0; d < TYPES; d++) append_kernel(&s, &len, d, src);
  mux_executable_t exe = bt_build(s, names, TYPES, LOCAL, NULL);
  free(s);
  return exe;
}

int main(void) {
  bt_start();
  int failures = 0, checked = 0;
  for (int src = 0; src < TYPES; src++) {
    const conv_type *st = &types[src];
    char name_text[TYPES][32];
    const char *names[TYPES];
    for (int d = 0; d < TYPES; d++) {
      snprintf(name_text[d], 32, "cv_%s_%s", types[d].name, st->name);
      names[d] = name_text[d];
    }
    mux_executable_t exe = build_for_source(src, names);
    REQUIRE(exe);
    uint8_t in[N * 8];
    fill_inputs(st, in);
    bt_buffer bin = bt_buffer_create(in, (size_t)N * st->size);
    for (int d = 0; d < TYPES; d++) {
      const conv_type *dt = &types[d];
      int outputs = scalar_count(dt) + (has_vector(d, src) ? 2 : 0);
      bt_buffer bout = bt_buffer_create(NULL, (size_t)outputs * N * dt->size);
      mux_descriptor_info_t args[] = {bt_buffer_arg(&bin), bt_buffer_arg(&bout)};
      bt_run(exe, names[d], args, 2, N, LOCAL);
      uint8_t *out = malloc(bout.size);
      REQUIRE(out);
      bt_buffer_read(&bout, out);
      for (int k = 0; k < outputs; k++) {
        int sat, mode;
        if (k < scalar_count(dt)) {
          sat = k / 5;
          mode = k % 5;
        } else if (k == scalar_count(dt)) {
          sat = vector_sat(d, src);
          mode = vector_mode(d, src);
        } else {
          sat = 0;
          mode = 0;
        }
        for (int i = 0; i < N; i++) {
          uint8_t want[8];
          const uint8_t *x = in + (size_t)i * st->size;
          if (!reference(dt, st, sat, mode, x, want)) continue;
          checked++;
          const uint8_t *got = out + ((size_t)k * N + i) * dt->size;
          int same = !memcmp(got, want, dt->size);
          if (dt->is_float && !same) same = both_nan(dt, got, want);
          if (!same && failures++ < 8) {
            uint64_t gb = 0, wb = 0, xb = 0;
            memcpy(&gb, got, dt->size);
            memcpy(&wb, want, dt->size);
            memcpy(&xb, x, st->size);
            fprintf(stderr,
                    "convert_%s%s%s%s(%s 0x%llx) gave 0x%llx, expected 0x%llx\n",
                    dt->name,
                    k == scalar_count(dt) ? "(vector)" : k > scalar_count(dt) ? "(plain vector)" : "",
                    sat ? "_sat" : "", modes[mode], st->name,
                    (unsigned long long)xb, (unsigned long long)gb,
                    (unsigned long long)wb);
          }
        }
      }
      free(out);
      bt_buffer_destroy(&bout);
    }
    bt_buffer_destroy(&bin);
    bt_executable_destroy(exe);
  }
  CHECK_INT(0, failures);
  CHECK(checked > 350000);
  check_double();
  return bt_finish();
}

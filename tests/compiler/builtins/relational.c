/* Builtin library tests — relational functions (OpenCL 1.2 section
 * 6.12.6): the float comparisons and classifications (NaN, ±inf, ±0,
 * denormals) for scalars (1/0) and every vector width (-1/0), any/all on
 * the sign bits, bitselect and select with signed and unsigned masks (a
 * scalar mask tests != 0, a vector mask the most significant bit). The
 * scalar double forms (the front-end does not enable cl_khr_fp64 yet) are
 * called from a kernel in LLVM IR. */
#include <stdarg.h>

#include <llvm-c/IRReader.h>

#include "builtins_test.h"

#define ITEMS 128
#define LOCAL 32
static const int widths[] = {1, 2, 3, 4, 8, 16};
#define WIDTHS 6
#define FLOAT_FUNCTIONS 14
static const char *float_functions[FLOAT_FUNCTIONS] = {
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isordered", "isunordered", "isfinite",
    "isinf", "isnan", "isnormal", "signbit"};

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

static void type_name(char *out, const char *t, int n) {
  if (n == 1) snprintf(out, 32, "%s", t);
  else snprintf(out, 32, "%s%d", t, n);
}

/* float x, y -> fn(x, y) for each function (unary ones take x) */
static int float_reference(int f, float x, float y) {
  switch (f) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
    case 6: return x < y || x > y;
    case 7: return !isnan(x) && !isnan(y);
    case 8: return isnan(x) || isnan(y);
    case 9: return isfinite(x) != 0;
    case 10: return isinf(x) != 0;
    case 11: return isnan(x) != 0;
    case 12: return isnormal(x) != 0;
    default: return signbit(x) != 0;
  }
}

static const char *int_types[] = {"char", "uchar", "short", "ushort", "int",
                                  "uint", "long", "ulong", "float"};
static const int int_sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4};
/* the vector width each type's select/bitselect is tested at */
static const int select_widths[] = {16, 3, 8, 2, 4, 16, 3, 8, 4};

static uint32_t rng = 4242;

static void random_bytes(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)bt_random(&rng);
}

static int sign_bit(const uint8_t *p, int size) { return p[size - 1] >> 7; }
static int is_zero(const uint8_t *p, int size) {
  for (int i = 0; i < size; i++) if (p[i]) return 0;
  return 1;
}

/* double x, y -> the 14 relational results (i32), then bitselect(x, y, z),
 * select(x, y, (long)z bits) and select(x, y, (ulong)z bits). */
static char *double_ir(void) {
  static const char *mangled[FLOAT_FUNCTIONS] = {
      "_Z7isequaldd", "_Z10isnotequaldd", "_Z9isgreaterdd",
      "_Z14isgreaterequaldd", "_Z6islessdd", "_Z11islessequaldd",
      "_Z13islessgreaterdd", "_Z9isordereddd", "_Z11isunordereddd",
      "_Z8isfinited", "_Z5isinfd", "_Z5isnand", "_Z8isnormald",
      "_Z7signbitd"};
  char *s = NULL;
  size_t len = 0;
  append(&s, &len,
         "target triple = \"x86_64-unknown-linux-gnu\"\n"
         "declare i64 @_Z13get_global_idj(i32)\n"
         "declare double @_Z9bitselectddd(double, double, double)\n"
         "declare double @_Z6selectddl(double, double, i64)\n"
         "declare double @_Z6selectddm(double, double, i64)\n");
  for (int k = 0; k < FLOAT_FUNCTIONS; k++) {
    append(&s, &len, k < 9 ? "declare i32 @%s(double, double)\n"
                           : "declare i32 @%s(double)\n", mangled[k]);
  }
  append(&s, &len,
         "define spir_kernel void @rel_double(ptr addrspace(1) %%x, ptr addrspace(1) %%y,\n"
         "    ptr addrspace(1) %%z, ptr addrspace(1) %%o, ptr addrspace(1) %%od) {\n"
         "  %%id = call i64 @_Z13get_global_idj(i32 0)\n"
         "  %%xp = getelementptr double, ptr addrspace(1) %%x, i64 %%id\n"
         "  %%a = load double, ptr addrspace(1) %%xp\n"
         "  %%yp = getelementptr double, ptr addrspace(1) %%y, i64 %%id\n"
         "  %%b = load double, ptr addrspace(1) %%yp\n"
         "  %%zp = getelementptr double, ptr addrspace(1) %%z, i64 %%id\n"
         "  %%c = load double, ptr addrspace(1) %%zp\n"
         "  %%ci = load i64, ptr addrspace(1) %%zp\n"
         "  %%base = mul i64 %%id, %d\n", FLOAT_FUNCTIONS);
  for (int k = 0; k < FLOAT_FUNCTIONS; k++) {
    append(&s, &len,
           k < 9 ? "  %%r%d = call i32 @%s(double %%a, double %%b)\n"
                 : "  %%r%d = call i32 @%s(double %%a)\n",
           k, mangled[k]);
    append(&s, &len,
           "  %%i%d = add i64 %%base, %d\n"
           "  %%p%d = getelementptr i32, ptr addrspace(1) %%o, i64 %%i%d\n"
           "  store i32 %%r%d, ptr addrspace(1) %%p%d\n",
           k, k, k, k, k, k);
  }
  append(&s, &len,
         "  %%s0 = call double @_Z9bitselectddd(double %%a, double %%b, double %%c)\n"
         "  %%s1 = call double @_Z6selectddl(double %%a, double %%b, i64 %%ci)\n"
         "  %%s2 = call double @_Z6selectddm(double %%a, double %%b, i64 %%ci)\n"
         "  %%db = mul i64 %%id, 3\n"
         "  %%q0 = getelementptr double, ptr addrspace(1) %%od, i64 %%db\n"
         "  store double %%s0, ptr addrspace(1) %%q0\n"
         "  %%q1 = getelementptr double, ptr addrspace(1) %%q0, i64 1\n"
         "  store double %%s1, ptr addrspace(1) %%q1\n"
         "  %%q2 = getelementptr double, ptr addrspace(1) %%q0, i64 2\n"
         "  store double %%s2, ptr addrspace(1) %%q2\n"
         "  ret void\n}\n");
  return s;
}

static int double_reference(int f, double x, double y) {
  switch (f) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
    case 6: return x < y || x > y;
    case 7: return !isnan(x) && !isnan(y);
    case 8: return isnan(x) || isnan(y);
    case 9: return isfinite(x) != 0;
    case 10: return isinf(x) != 0;
    case 11: return isnan(x) != 0;
    case 12: return isnormal(x) != 0;
    default: return signbit(x) != 0;
  }
}

static void check_double(void) {
  char *text = double_ir();
  static const char *const names[] = {"rel_double"};
  mux_executable_t exe = bt_build_module(bt_parse_ir(text), names, 1, LOCAL,
                                         NULL);
  free(text);
  if (!exe) return;
  enum { COUNT = 1024 };
  static double x[COUNT], y[COUNT], z[COUNT];
  static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0,
                                    -1.0, DBL_MIN, -DBL_MIN, DBL_MAX, 4.9e-324,
                                    -4.9e-324, 2.2250738585072009e-308, 1e300};
  size_t special_count = sizeof specials / sizeof *specials;
  for (int i = 0; i < COUNT; i++) {
    uint64_t r = ((uint64_t)bt_random(&rng) << 32) | bt_random(&rng);
    uint64_t q = ((uint64_t)bt_random(&rng) << 32) | bt_random(&rng);
    memcpy(&x[i], &r, 8);
    memcpy(&z[i], &q, 8);
    if (i % 4 == 0) x[i] = specials[(i / 4) % special_count];
    if (i % 8 == 1) z[i] = 0.0; /* select: mask zero */
    switch (i % 3) {
      case 0: y[i] = x[i]; break;
      case 1: y[i] = specials[(i / 3) % special_count]; break;
      default: y[i] = -x[i] * 0.5; break;
    }
  }
  bt_buffer bx = bt_buffer_create(x, sizeof x), by = bt_buffer_create(y, sizeof y);
  bt_buffer bz = bt_buffer_create(z, sizeof z);
  bt_buffer bo = bt_buffer_create(NULL, COUNT * FLOAT_FUNCTIONS * 4);
  bt_buffer bd = bt_buffer_create(NULL, COUNT * 3 * 8);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&bx), bt_buffer_arg(&by),
                                  bt_buffer_arg(&bz), bt_buffer_arg(&bo),
                                  bt_buffer_arg(&bd)};
  bt_run(exe, "rel_double", args, 5, COUNT, LOCAL);
  static int32_t o[COUNT * FLOAT_FUNCTIONS];
  static uint64_t od[COUNT * 3];
  bt_buffer_read(&bo, o);
  bt_buffer_read(&bd, od);
  int failures = 0;
  for (int i = 0; i < COUNT; i++) {
    for (int k = 0; k < FLOAT_FUNCTIONS; k++) {
      int want = double_reference(k, x[i], y[i]);
      if (o[i * FLOAT_FUNCTIONS + k] != want && failures++ < 5) {
        fprintf(stderr, "%s(double %a, %a) gave %d, expected %d\n",
                float_functions[k], x[i], y[i], o[i * FLOAT_FUNCTIONS + k], want);
      }
    }
    uint64_t a, b, c;
    memcpy(&a, &x[i], 8);
    memcpy(&b, &y[i], 8);
    memcpy(&c, &z[i], 8);
    uint64_t bits = (a & ~c) | (b & c), chosen = c ? b : a;
    if ((od[3 * i] != bits || od[3 * i + 1] != chosen || od[3 * i + 2] != chosen) &&
        failures++ < 5) {
      fprintf(stderr, "bitselect/select(double) item %d wrong\n", i);
    }
  }
  CHECK_INT(0, failures);
  bt_buffer_destroy(&bx);
  bt_buffer_destroy(&by);
  bt_buffer_destroy(&bz);
  bt_buffer_destroy(&bo);
  bt_buffer_destroy(&bd);
  bt_executable_destroy(exe);
}

int main(void) {
  bt_start();
  char *s = NULL;
  size_t len = 0;
  const char *names[64];
  char name_text[64][48];
  int count = 0;
  append(&s, &len, "%s", "");
  for (int w = 0; w < WIDTHS; w++) {
    char f[32], r[32];
    type_name(f, "float", widths[w]);
    type_name(r, "int", widths[w]);
    append(&s, &len,
           "kernel void rel%d(global %s *x, global %s *y, global %s *o) {\n"
           "  size_t i = get_global_id(0);\n  %s a = x[i], b = y[i];\n"
           "  global %s *p = o + i * %d;\n",
           widths[w], f, f, r, f, r, FLOAT_FUNCTIONS);
    for (int k = 0; k < FLOAT_FUNCTIONS; k++) {
      append(&s, &len, k < 9 ? "  p[%d] = %s(a, b);\n" : "  p[%d] = %s(a);\n",
             k, float_functions[k]);
    }
    append(&s, &len, "}\n");
    snprintf(name_text[count], 48, "rel%d", widths[w]);
    names[count] = name_text[count];
    count++;
  }
  /* any/all for the signed types at every width */
  for (int t = 0; t < 8; t += 2) {
    for (int w = 0; w < WIDTHS; w++) {
      char v[32];
      type_name(v, int_types[t], widths[w]);
      append(&s, &len,
             "kernel void aa_%s(global %s *x, global int *o) {\n"
             "  size_t i = get_global_id(0);\n"
             "  o[2 * i] = any(x[i]); o[2 * i + 1] = all(x[i]);\n}\n",
             v, v);
      snprintf(name_text[count], 48, "aa_%s", v);
      names[count] = name_text[count];
      count++;
    }
  }
  /* select (signed and unsigned mask) and bitselect, scalar and vector */
  for (int t = 0; t < 9; t++) {
    for (int scalar = 0; scalar < 2; scalar++) {
      int n = scalar ? 1 : select_widths[t];
      char v[32], sm[32], um[32];
      static const char *signed_of[] = {"char", "char", "short", "short", "int",
                                        "int", "long", "long", "int"};
      type_name(v, int_types[t], n);
      type_name(sm, signed_of[t], n);
      char unsigned_name[16];
      snprintf(unsigned_name, sizeof unsigned_name, "u%s", signed_of[t]);
      type_name(um, unsigned_name, n);
      append(&s, &len,
             "kernel void sel_%s(global %s *a, global %s *b, global %s *c,\n"
             "                   global %s *o) {\n"
             "  size_t i = get_global_id(0);\n"
             "  o[3 * i] = select(a[i], b[i], c[i]);\n"
             "  o[3 * i + 1] = select(a[i], b[i], as_%s(c[i]));\n"
             "  o[3 * i + 2] = bitselect(a[i], b[i], as_%s(c[i]));\n}\n",
             v, v, v, sm, v, um, v);
      snprintf(name_text[count], 48, "sel_%s", v);
      names[count] = name_text[count];
      count++;
    }
  }
  mux_executable_t exe = bt_build(s, names, (uint32_t)count, LOCAL, NULL);
  free(s);
  REQUIRE(exe);

  /* ---- float comparisons ---- */
  static float x[ITEMS * 16], y[ITEMS * 16];
  bt_fill_floats(x, ITEMS * 16, 10.0f, 5);
  bt_fill_floats(y, ITEMS * 16, 10.0f, 6);
  for (int i = 0; i < ITEMS * 16; i++) {
    switch (i % 5) { /* equal, negated and special partners */
      case 0: y[i] = x[i]; break;
      case 1: y[i] = -x[i]; break;
      case 2: y[i] = bt_special_floats[(i / 5) % BT_SPECIAL_COUNT]; break;
      default: break;
    }
  }
  int failures = 0;
  for (int w = 0; w < WIDTHS; w++) {
    int n = widths[w], stride = n == 3 ? 4 : n;
    bt_buffer bx = bt_buffer_create(x, sizeof x), by = bt_buffer_create(y, sizeof y);
    bt_buffer bo = bt_buffer_create(NULL, (size_t)ITEMS * FLOAT_FUNCTIONS * stride * 4);
    mux_descriptor_info_t args[] = {bt_buffer_arg(&bx), bt_buffer_arg(&by), bt_buffer_arg(&bo)};
    char name[32];
    snprintf(name, 32, "rel%d", n);
    bt_run(exe, name, args, 3, ITEMS, LOCAL);
    int32_t *o = malloc(bo.size);
    REQUIRE(o);
    bt_buffer_read(&bo, o);
    for (int i = 0; i < ITEMS; i++) {
      for (int k = 0; k < FLOAT_FUNCTIONS; k++) {
        for (int e = 0; e < n; e++) {
          float a = x[i * stride + e], b = y[i * stride + e];
          int want = float_reference(k, a, b) ? (n == 1 ? 1 : -1) : 0;
          int got = o[(i * FLOAT_FUNCTIONS + k) * stride + e];
          if (got != want && failures++ < 5) {
            fprintf(stderr, "%s(%a, %a) width %d gave %d, expected %d\n",
                    float_functions[k], (double)a, (double)b, n, got, want);
          }
        }
      }
    }
    free(o);
    bt_buffer_destroy(&bx);
    bt_buffer_destroy(&by);
    bt_buffer_destroy(&bo);
  }
  CHECK_INT(0, failures);

  /* ---- any / all ---- */
  failures = 0;
  for (int t = 0; t < 8; t += 2) {
    int size = int_sizes[t];
    for (int w = 0; w < WIDTHS; w++) {
      int n = widths[w], stride = n == 3 ? 4 : n;
      size_t bytes = (size_t)ITEMS * stride * size;
      uint8_t *in = malloc(bytes);
      REQUIRE(in);
      random_bytes(in, bytes);
      /* make all-set and none-set vectors common */
      for (int i = 0; i < ITEMS; i++) {
        for (int e = 0; e < n; e++) {
          uint8_t *top = in + ((size_t)i * stride + e) * size + size - 1;
          if (i % 3 == 0) *top |= 0x80;
          if (i % 3 == 1) *top &= 0x7f;
        }
      }
      bt_buffer bi = bt_buffer_create(in, bytes), bo = bt_buffer_create(NULL, ITEMS * 8);
      mux_descriptor_info_t args[] = {bt_buffer_arg(&bi), bt_buffer_arg(&bo)};
      char v[32], name[40];
      type_name(v, int_types[t], n);
      snprintf(name, sizeof name, "aa_%s", v);
      bt_run(exe, name, args, 2, ITEMS, LOCAL);
      int32_t o[ITEMS * 2];
      bt_buffer_read(&bo, o);
      for (int i = 0; i < ITEMS; i++) {
        int any = 0, all = 1;
        for (int e = 0; e < n; e++) {
          int bit = sign_bit(in + ((size_t)i * stride + e) * size, size);
          any |= bit;
          all &= bit;
        }
        if ((o[2 * i] != any || o[2 * i + 1] != all) && failures++ < 5) {
          fprintf(stderr, "%s: any/all gave %d/%d, expected %d/%d\n", name,
                  o[2 * i], o[2 * i + 1], any, all);
        }
      }
      free(in);
      bt_buffer_destroy(&bi);
      bt_buffer_destroy(&bo);
    }
  }
  CHECK_INT(0, failures);

  /* ---- select / bitselect ---- */
  failures = 0;
  for (int t = 0; t < 9; t++) {
    int size = int_sizes[t];
    for (int scalar = 0; scalar < 2; scalar++) {
      int n = scalar ? 1 : select_widths[t], stride = n == 3 ? 4 : n;
      size_t bytes = (size_t)ITEMS * stride * size;
      uint8_t *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *o = malloc(3 * bytes);
      REQUIRE(a && b && c && o);
      random_bytes(a, bytes);
      random_bytes(b, bytes);
      random_bytes(c, bytes);
      /* masks: zero, small nonzero (MSB clear), MSB only, random */
      for (size_t e = 0; e < bytes / size; e++) {
        uint8_t *m = c + e * size;
        if (e % 4 == 0) memset(m, 0, size);
        if (e % 4 == 1) { memset(m, 0, size); m[0] = 1; }
        if (e % 4 == 2) { memset(m, 0, size); m[size - 1] = 0x80; }
      }
      bt_buffer ba = bt_buffer_create(a, bytes), bb = bt_buffer_create(b, bytes);
      bt_buffer bc = bt_buffer_create(c, bytes), bo = bt_buffer_create(NULL, 3 * bytes);
      mux_descriptor_info_t args[] = {bt_buffer_arg(&ba), bt_buffer_arg(&bb),
                                      bt_buffer_arg(&bc), bt_buffer_arg(&bo)};
      char v[32], name[40];
      type_name(v, int_types[t], n);
      snprintf(name, sizeof name, "sel_%s", v);
      bt_run(exe, name, args, 4, ITEMS, LOCAL);
      bt_buffer_read(&bo, o);
      for (int i = 0; i < ITEMS; i++) {
        for (int e = 0; e < n; e++) {
          size_t at = ((size_t)i * stride + e) * size;
          const uint8_t *m = c + at;
          int take_b = n == 1 ? !is_zero(m, size) : sign_bit(m, size);
          const uint8_t *want = take_b ? b + at : a + at;
          uint8_t bits[8];
          for (int k = 0; k < size; k++) bits[k] = (a[at + k] & ~m[k]) | (b[at + k] & m[k]);
          for (int which = 0; which < 3; which++) {
            const uint8_t *expect = which == 2 ? bits : want;
            const uint8_t *got = o + ((size_t)(3 * i + which) * stride + e) * size;
            if (memcmp(got, expect, size) && failures++ < 5) {
              fprintf(stderr, "%s: %s element %d of item %d wrong\n", name,
                      which == 2 ? "bitselect" : "select", e, i);
            }
          }
        }
      }
      free(a); free(b); free(c); free(o);
      bt_buffer_destroy(&ba);
      bt_buffer_destroy(&bb);
      bt_buffer_destroy(&bc);
      bt_buffer_destroy(&bo);
    }
  }
  CHECK_INT(0, failures);
  bt_executable_destroy(exe);
  check_double();
  return bt_finish();
}

/* Builtin library tests — integer functions (OpenCL 1.2 section 6.12.3)
 * for char ... ulong, scalar and every vector width: edge values (MIN, MAX,
 * 0, ±1, single bits, shifts by 0 and by the width) and random bits,
 * against an exact host reference in 128-bit arithmetic. */
#include <stdarg.h>

#include "builtins_test.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

typedef struct int_type {
  const char *name;
  int bits;
  int is_signed;
} int_type;

static const int_type types[] = {
    {"char", 8, 1},  {"uchar", 8, 0}, {"short", 16, 1}, {"ushort", 16, 0},
    {"int", 32, 1},  {"uint", 32, 0}, {"long", 64, 1},  {"ulong", 64, 0},
};
#define TYPE_COUNT 8
/* Every type at the scalar and every vector width. */
#define WIDTH_COUNT 6
static const int widths[TYPE_COUNT][WIDTH_COUNT] = {
    {1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16},
    {1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16},
    {1, 2, 3, 4, 8, 16}, {1, 2, 3, 4, 8, 16},
};

#define ITEMS 128 /* work-items per kernel */
#define LOCAL 32

/* The functions each kernel writes, in this order, one output each. */
enum {
  F_ABS, F_ABS_DIFF, F_ADD_SAT, F_SUB_SAT, F_HADD, F_RHADD, F_CLAMP, F_CLZ,
  F_MAD_HI, F_MAD_SAT, F_MAX, F_MIN, F_MUL_HI, F_ROTATE, F_POPCOUNT,
  F_MAX_SCALAR, F_MIN_SCALAR, F_CLAMP_SCALAR, F_CTZ, F_COUNT
};
static const char *function_names[F_COUNT] = {
    "abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "clamp", "clz",
    "mad_hi", "mad_sat", "max", "min", "mul_hi", "rotate", "popcount",
    "max(v, scalar)", "min(v, scalar)", "clamp(v, scalar, scalar)", "ctz"};

/* ctz is OpenCL C 2.0, so Clang declares it only for 2.0; the CTS calls it
 * on 1.2 devices too, and the library defines it. Until the front-end
 * declares it for 1.2 kernels, the test declares it itself. */
static const char *ctz_declarations =
    "#define CTZ_DECL(T) T __attribute__((overloadable, const)) ctz(T);\\\n"
    "  T##2 __attribute__((overloadable, const)) ctz(T##2);\\\n"
    "  T##3 __attribute__((overloadable, const)) ctz(T##3);\\\n"
    "  T##4 __attribute__((overloadable, const)) ctz(T##4);\\\n"
    "  T##8 __attribute__((overloadable, const)) ctz(T##8);\\\n"
    "  T##16 __attribute__((overloadable, const)) ctz(T##16);\n"
    "CTZ_DECL(char) CTZ_DECL(uchar) CTZ_DECL(short) CTZ_DECL(ushort)\n"
    "CTZ_DECL(int) CTZ_DECL(uint) CTZ_DECL(long) CTZ_DECL(ulong)\n";

/* ---- host reference ------------------------------------------------------ */

static i128 type_min(const int_type *t) {
  return t->is_signed ? -((i128)1 << (t->bits - 1)) : 0;
}
static i128 type_max(const int_type *t) {
  return t->is_signed ? ((i128)1 << (t->bits - 1)) - 1
                      : ((i128)1 << t->bits) - 1;
}
static uint64_t mask(int bits) {
  return bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}
/* The value of `bits` (low t->bits bits) as the type reads it. */
static i128 value_of(const int_type *t, uint64_t bits) {
  bits &= mask(t->bits);
  if (t->is_signed && (bits >> (t->bits - 1)) & 1) {
    return (i128)bits - ((i128)1 << t->bits);
  }
  return (i128)bits;
}
static i128 saturate(const int_type *t, i128 v) {
  return v < type_min(t) ? type_min(t) : v > type_max(t) ? type_max(t) : v;
}
static int ctz_of(uint64_t bits, int width) {
  int n = 0;
  for (int i = 0; i < width && !((bits >> i) & 1); i++) n++;
  return n;
}
static int clz_of(uint64_t bits, int width) {
  int n = 0;
  for (int i = width - 1; i >= 0 && !((bits >> i) & 1); i--) n++;
  return n;
}
/* floor((x*y) / 2^bits): exact for every type (the 64-bit unsigned
 * product needs the unsigned 128-bit type). */
static i128 mul_hi_of(const int_type *t, i128 x, i128 y) {
  if (t->bits == 64 && !t->is_signed) {
    return (i128)(((u128)x * (u128)y) >> 64);
  }
  return (x * y) >> t->bits;
}
static i128 mad_sat_of(const int_type *t, i128 x, i128 y, i128 z) {
  if (t->bits == 64 && !t->is_signed) {
    u128 r = (u128)x * (u128)y + (u128)z; /* < 2^128: no wrap */
    return r > (u128)type_max(t) ? type_max(t) : (i128)r;
  }
  return saturate(t, x * y + z);
}

/* The expected bits of function f on the operand bits. */
static uint64_t reference(int f, const int_type *t, uint64_t a, uint64_t b,
                          uint64_t c, uint64_t b0) {
  i128 x = value_of(t, a), y = value_of(t, b), z = value_of(t, c);
  i128 s = value_of(t, b0); /* the scalar operand: b's first component */
  i128 lo = y < z ? y : z, hi = y < z ? z : y;
  int w = t->bits;
  uint64_t ux = a & mask(w);
  i128 r = 0;
  switch (f) {
    case F_ABS: r = x < 0 ? -x : x; break;
    case F_ABS_DIFF: r = x > y ? x - y : y - x; break;
    case F_ADD_SAT: r = saturate(t, x + y); break;
    case F_SUB_SAT: r = saturate(t, x - y); break;
    case F_HADD: r = (x + y) >> 1; break;
    case F_RHADD: r = (x + y + 1) >> 1; break;
    case F_CLAMP: r = x < lo ? lo : x > hi ? hi : x; break;
    case F_CLZ: r = clz_of(ux, w); break;
    case F_CTZ: r = ctz_of(ux, w); break;
    case F_MAD_HI: r = mul_hi_of(t, x, y) + z; break;
    case F_MAD_SAT: r = mad_sat_of(t, x, y, z); break;
    case F_MAX: r = x > y ? x : y; break;
    case F_MIN: r = x < y ? x : y; break;
    case F_MUL_HI: r = mul_hi_of(t, x, y); break;
    case F_ROTATE: {
      int k = (int)(b & (uint64_t)(w - 1));
      r = (i128)(k ? ((ux << k) | (ux >> (w - k))) : ux);
      break;
    }
    case F_POPCOUNT: r = __builtin_popcountll(ux); break;
    case F_MAX_SCALAR: r = x > s ? x : s; break;
    case F_MIN_SCALAR: r = x < s ? x : s; break;
    case F_CLAMP_SCALAR: { /* bounds min(s, 0) .. max(s, 0) */
      i128 l = s < 0 ? s : 0, h = s < 0 ? 0 : s;
      r = x < l ? l : x > h ? h : x;
      break;
    }
  }
  return (uint64_t)r & mask(w);
}

/* ---- kernels ------------------------------------------------------------- */

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

/* Kernel t_<type><n>: out[i * F_COUNT + f] = function f on a[i], b[i], c[i]. */
static void append_kernel(char **text, size_t *length, const int_type *t,
                          int n) {
  char v[32], u[32], s[32];
  const char *unsigned_name = t->name;
  char uname[16];
  snprintf(uname, sizeof uname, "%s%s", t->is_signed ? "u" : "",
           unsigned_name);
  if (n == 1) {
    snprintf(v, sizeof v, "%s", t->name);
    snprintf(u, sizeof u, "%s", uname);
    snprintf(s, sizeof s, "y");
  } else {
    snprintf(v, sizeof v, "%s%d", t->name, n);
    snprintf(u, sizeof u, "%s%d", uname, n);
    snprintf(s, sizeof s, "y.s0");
  }
  append(text, length,
         "kernel void t_%s(global %s *a, global %s *b, global %s *c,\n"
         "                 global %s *out) {\n"
         "  size_t i = get_global_id(0);\n"
         "  %s x = a[i], y = b[i], z = c[i];\n"
         "  %s sc = %s;\n"
         "  global %s *o = out + i * %d;\n"
         "  o[0] = as_%s(abs(x)); o[1] = as_%s(abs_diff(x, y));\n"
         "  o[2] = add_sat(x, y); o[3] = sub_sat(x, y);\n"
         "  o[4] = hadd(x, y); o[5] = rhadd(x, y);\n"
         "  o[6] = clamp(x, min(y, z), max(y, z)); o[7] = clz(x);\n"
         "  o[8] = mad_hi(x, y, z); o[9] = mad_sat(x, y, z);\n"
         "  o[10] = max(x, y); o[11] = min(x, y); o[12] = mul_hi(x, y);\n"
         "  o[13] = rotate(x, y); o[14] = popcount(x);\n"
         "  o[15] = max(x, sc); o[16] = min(x, sc);\n"
         "  o[17] = clamp(x, min(sc, (%s)0), max(sc, (%s)0));\n"
         "  o[18] = ctz(x);\n"
         "}\n",
         v, v, v, v, v, v, t->name, s, v, F_COUNT, v, v, t->name, t->name);
}

static uint32_t rng = 12345;

/* Operand bits: edge values first, then random bits. */
static uint64_t operand(const int_type *t, size_t k, int which) {
  int w = t->bits;
  uint64_t top = (uint64_t)1 << (w - 1);
  const uint64_t edges[] = {0, 1, mask(w), top, top - 1, top + 1, 2, mask(w) - 1,
                            (uint64_t)w, (uint64_t)w - 1, 0x5555555555555555u,
                            0xaaaaaaaaaaaaaaaau, (uint64_t)w + 1};
  const size_t edge_count = sizeof edges / sizeof *edges;
  /* a and b run through all edge pairs; c cycles more slowly */
  size_t pair = k % (edge_count * edge_count);
  if (k < edge_count * edge_count) {
    if (which == 0) return edges[pair / edge_count];
    if (which == 1) return edges[pair % edge_count];
    return edges[(k / 7) % edge_count];
  }
  uint64_t r = ((uint64_t)bt_random(&rng) << 32) | bt_random(&rng);
  /* small magnitudes too, so hadd/mad_sat/clamp see unsaturated cases */
  if (bt_random(&rng) % 3 == 0) r = (uint64_t)(int64_t)(int8_t)r;
  return r & mask(w);
}

static void store_bits(uint8_t *p, int bytes, uint64_t v) { memcpy(p, &v, (size_t)bytes); }
static uint64_t load_bits(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  memcpy(&v, p, (size_t)bytes);
  return v;
}

static void check_kernel(mux_executable_t exe, const int_type *t, int n) {
  int bytes = t->bits / 8;
  int stride = n == 3 ? 4 : n; /* a 3-vector occupies 4 elements */
  size_t elements = (size_t)ITEMS * stride;
  uint8_t *in[3];
  for (int j = 0; j < 3; j++) {
    in[j] = calloc(elements, (size_t)bytes);
    REQUIRE(in[j]);
  }
  size_t k = 0;
  for (size_t i = 0; i < ITEMS; i++) {
    for (int e = 0; e < n; e++, k++) {
      for (int j = 0; j < 3; j++) {
        store_bits(in[j] + ((size_t)i * stride + e) * bytes, bytes,
                   operand(t, k, j));
      }
    }
  }
  bt_buffer a = bt_buffer_create(in[0], elements * bytes);
  bt_buffer b = bt_buffer_create(in[1], elements * bytes);
  bt_buffer c = bt_buffer_create(in[2], elements * bytes);
  bt_buffer out = bt_buffer_create(NULL, elements * bytes * F_COUNT);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&a), bt_buffer_arg(&b),
                                  bt_buffer_arg(&c), bt_buffer_arg(&out)};
  char name[32];
  if (n == 1) snprintf(name, sizeof name, "t_%s", t->name);
  else snprintf(name, sizeof name, "t_%s%d", t->name, n);
  bt_run(exe, name, args, 4, ITEMS, LOCAL);
  uint8_t *result = malloc(out.size);
  REQUIRE(result);
  bt_buffer_read(&out, result);
  int failures = 0;
  for (size_t i = 0; i < ITEMS; i++) {
    uint64_t b0 = load_bits(in[1] + (size_t)i * stride * bytes, bytes);
    for (int f = 0; f < F_COUNT; f++) {
      for (int e = 0; e < n; e++) {
        size_t at = (size_t)i * stride + e;
        uint64_t x = load_bits(in[0] + at * bytes, bytes);
        uint64_t y = load_bits(in[1] + at * bytes, bytes);
        uint64_t z = load_bits(in[2] + at * bytes, bytes);
        uint64_t want = reference(f, t, x, y, z, b0);
        uint64_t got = load_bits(
            result + (((size_t)i * F_COUNT + f) * stride + e) * bytes, bytes);
        if (got != want && failures++ < 5) {
          fprintf(stderr,
                  "%s: %s(0x%llx, 0x%llx, 0x%llx) gave 0x%llx, expected 0x%llx\n",
                  name, function_names[f], (unsigned long long)x,
                  (unsigned long long)y, (unsigned long long)z,
                  (unsigned long long)got, (unsigned long long)want);
        }
      }
    }
  }
  CHECK_INT(0, failures);
  for (int j = 0; j < 3; j++) free(in[j]);
  free(result);
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&b);
  bt_buffer_destroy(&c);
  bt_buffer_destroy(&out);
}

/* upsample and mul24/mad24, scalar and 4-wide and 3-wide. */
static const char *small_source =
    "kernel void ups(global char *h8, global uchar *l8, global short *h16,\n"
    "                global ushort *l16, global int *h32, global uint *l32,\n"
    "                global short *o16, global ushort *uo16, global int *o32,\n"
    "                global uint *uo32, global long *o64, global ulong *uo64) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o16[i] = upsample(h8[i], l8[i]);\n"
    "  uo16[i] = upsample(as_uchar(h8[i]), l8[i]);\n"
    "  o32[i] = upsample(h16[i], l16[i]);\n"
    "  uo32[i] = upsample(as_ushort(h16[i]), l16[i]);\n"
    "  o64[i] = upsample(h32[i], l32[i]);\n"
    "  uo64[i] = upsample(as_uint(h32[i]), l32[i]);\n"
    "}\n"
    "kernel void ups4(global char4 *h8, global uchar4 *l8, global int3 *h32,\n"
    "                 global uint3 *l32, global short4 *o16, global long3 *o64) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o16[i] = upsample(h8[i], l8[i]);\n"
    "  o64[i] = upsample(h32[i], l32[i]);\n"
    "}\n"
    "kernel void m24(global int *a, global int *b, global int *c,\n"
    "                global int *o, global uint *uo) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[2 * i] = mul24(a[i], b[i]);\n"
    "  o[2 * i + 1] = mad24(a[i], b[i], c[i]);\n"
    "  uo[2 * i] = mul24(as_uint(a[i]) & 0xffffffu, as_uint(b[i]) & 0xffffffu);\n"
    "  uo[2 * i + 1] = mad24(as_uint(a[i]) & 0xffffffu, as_uint(b[i]) & 0xffffffu, as_uint(c[i]));\n"
    "}\n"
    "kernel void m24v(global int2 *a, global int2 *b, global int2 *c, global int2 *o) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[i] = mad24(a[i], b[i], c[i]) ^ mul24(a[i], c[i]);\n"
    "}\n";

#define SMALL 256

static void check_small(void) {
  const char *names[] = {"ups", "ups4", "m24", "m24v"};
  mux_executable_t exe = bt_build(small_source, names, 4, LOCAL, NULL);
  REQUIRE(exe);
  static int8_t h8[SMALL];
  static uint8_t l8[SMALL];
  static int16_t h16[SMALL];
  static uint16_t l16[SMALL];
  static int32_t h32[SMALL];
  static uint32_t l32[SMALL];
  for (int i = 0; i < SMALL; i++) {
    uint32_t r = bt_random(&rng), q = bt_random(&rng);
    h8[i] = (int8_t)(i < 4 ? (i & 1 ? -128 : 127) : (int)(r & 0xff));
    l8[i] = (uint8_t)(i < 4 ? (i & 2 ? 255 : 0) : r >> 8);
    h16[i] = (int16_t)(i < 4 ? (i & 1 ? -32768 : 32767) : (int)(r >> 16));
    l16[i] = (uint16_t)(i < 4 ? (i & 2 ? 65535 : 0) : q);
    h32[i] = (int32_t)(i < 4 ? (i & 1 ? INT32_MIN : INT32_MAX) : (int32_t)q);
    l32[i] = i < 4 ? (i & 2 ? 0xffffffffu : 0) : r;
  }
  bt_buffer bh8 = bt_buffer_create(h8, sizeof h8), bl8 = bt_buffer_create(l8, sizeof l8);
  bt_buffer bh16 = bt_buffer_create(h16, sizeof h16), bl16 = bt_buffer_create(l16, sizeof l16);
  bt_buffer bh32 = bt_buffer_create(h32, sizeof h32), bl32 = bt_buffer_create(l32, sizeof l32);
  bt_buffer o16 = bt_buffer_create(NULL, SMALL * 2), uo16 = bt_buffer_create(NULL, SMALL * 2);
  bt_buffer o32 = bt_buffer_create(NULL, SMALL * 4), uo32 = bt_buffer_create(NULL, SMALL * 4);
  bt_buffer o64 = bt_buffer_create(NULL, SMALL * 8), uo64 = bt_buffer_create(NULL, SMALL * 8);
  mux_descriptor_info_t args[] = {
      bt_buffer_arg(&bh8), bt_buffer_arg(&bl8), bt_buffer_arg(&bh16),
      bt_buffer_arg(&bl16), bt_buffer_arg(&bh32), bt_buffer_arg(&bl32),
      bt_buffer_arg(&o16), bt_buffer_arg(&uo16), bt_buffer_arg(&o32),
      bt_buffer_arg(&uo32), bt_buffer_arg(&o64), bt_buffer_arg(&uo64)};
  bt_run(exe, "ups", args, 12, SMALL, LOCAL);
  static int16_t r16[SMALL];
  static uint16_t ur16[SMALL];
  static int32_t r32[SMALL];
  static uint32_t ur32[SMALL];
  static int64_t r64[SMALL];
  static uint64_t ur64[SMALL];
  bt_buffer_read(&o16, r16);
  bt_buffer_read(&uo16, ur16);
  bt_buffer_read(&o32, r32);
  bt_buffer_read(&uo32, ur32);
  bt_buffer_read(&o64, r64);
  bt_buffer_read(&uo64, ur64);
  int bad = 0;
  for (int i = 0; i < SMALL; i++) {
    bad += r16[i] != (int16_t)(uint16_t)(((uint16_t)(uint8_t)h8[i] << 8) | l8[i]);
    bad += ur16[i] != (uint16_t)(((uint16_t)(uint8_t)h8[i] << 8) | l8[i]);
    bad += r32[i] != (int32_t)(((uint32_t)(uint16_t)h16[i] << 16) | l16[i]);
    bad += ur32[i] != (((uint32_t)(uint16_t)h16[i] << 16) | l16[i]);
    bad += r64[i] != (int64_t)(((uint64_t)(uint32_t)h32[i] << 32) | l32[i]);
    bad += ur64[i] != (((uint64_t)(uint32_t)h32[i] << 32) | l32[i]);
  }
  CHECK_INT(0, bad);

  /* vector upsample: char4 -> short4 and int3 -> long3 (stride 4) */
  mux_descriptor_info_t vargs[] = {bt_buffer_arg(&bh8), bt_buffer_arg(&bl8),
                                   bt_buffer_arg(&bh32), bt_buffer_arg(&bl32),
                                   bt_buffer_arg(&o16), bt_buffer_arg(&o64)};
  bt_run(exe, "ups4", vargs, 6, SMALL / 4, LOCAL);
  bt_buffer_read(&o16, r16);
  bt_buffer_read(&o64, r64);
  bad = 0;
  for (int i = 0; i < SMALL; i++) {
    bad += r16[i] != (int16_t)(uint16_t)(((uint16_t)(uint8_t)h8[i] << 8) | l8[i]);
    if (i % 4 != 3) {
      bad += r64[i] != (int64_t)(((uint64_t)(uint32_t)h32[i] << 32) | l32[i]);
    }
  }
  CHECK_INT(0, bad);

  /* mul24/mad24: signed operands in [-2^23, 2^23), unsigned in [0, 2^24) */
  static int32_t a[SMALL], b[SMALL], c[SMALL];
  for (int i = 0; i < SMALL; i++) {
    a[i] = i == 0 ? -(1 << 23) : i == 1 ? (1 << 23) - 1 : (int32_t)(bt_random(&rng) << 8) >> 8;
    b[i] = i == 0 ? -(1 << 23) : i == 1 ? (1 << 23) - 1 : (int32_t)(bt_random(&rng) << 8) >> 8;
    c[i] = (int32_t)bt_random(&rng);
  }
  bt_buffer ba = bt_buffer_create(a, sizeof a), bb = bt_buffer_create(b, sizeof b);
  bt_buffer bc = bt_buffer_create(c, sizeof c);
  bt_buffer o = bt_buffer_create(NULL, SMALL * 8), uo = bt_buffer_create(NULL, SMALL * 8);
  mux_descriptor_info_t margs[] = {bt_buffer_arg(&ba), bt_buffer_arg(&bb),
                                   bt_buffer_arg(&bc), bt_buffer_arg(&o),
                                   bt_buffer_arg(&uo)};
  bt_run(exe, "m24", margs, 5, SMALL, LOCAL);
  static int32_t got[2 * SMALL];
  static uint32_t ugot[2 * SMALL];
  bt_buffer_read(&o, got);
  bt_buffer_read(&uo, ugot);
  bad = 0;
  for (int i = 0; i < SMALL; i++) {
    int64_t p = (int64_t)a[i] * b[i];
    uint64_t up = (uint64_t)((uint32_t)a[i] & 0xffffff) * ((uint32_t)b[i] & 0xffffff);
    bad += got[2 * i] != (int32_t)(uint32_t)p;
    bad += got[2 * i + 1] != (int32_t)(uint32_t)(p + c[i]);
    bad += ugot[2 * i] != (uint32_t)up;
    bad += ugot[2 * i + 1] != (uint32_t)(up + (uint32_t)c[i]);
  }
  CHECK_INT(0, bad);
  mux_descriptor_info_t m2args[] = {bt_buffer_arg(&ba), bt_buffer_arg(&bb),
                                    bt_buffer_arg(&bc), bt_buffer_arg(&o)};
  bt_run(exe, "m24v", m2args, 4, SMALL / 2, LOCAL);
  bt_buffer_read(&o, got);
  bad = 0;
  for (int i = 0; i < SMALL; i++) {
    uint32_t mad = (uint32_t)((int64_t)a[i] * b[i] + c[i]);
    uint32_t mul = (uint32_t)((int64_t)a[i] * (c[i] << 8 >> 8));
    (void)mul;
    /* mul24(a, c) with c outside 24 bits is undefined: use only mad24 bits
     * where c is a 24-bit value */
    if (c[i] == (c[i] << 8 >> 8)) {
      bad += (uint32_t)got[i] != (mad ^ (uint32_t)((int64_t)a[i] * c[i]));
    }
  }
  CHECK_INT(0, bad);
  bt_buffer *all[] = {&bh8, &bl8, &bh16, &bl16, &bh32, &bl32, &o16, &uo16,
                      &o32, &uo32, &o64, &uo64, &ba, &bb, &bc, &o, &uo};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) bt_buffer_destroy(all[i]);
  bt_executable_destroy(exe);
}

int main(void) {
  bt_start();
  /* one small program per type: codegen cost grows with kernels x module */
  for (int t = 0; t < TYPE_COUNT; t++) {
    char *source = NULL;
    size_t length = 0;
    append(&source, &length, "%s", ctz_declarations);
    const char *names[WIDTH_COUNT];
    char name_text[WIDTH_COUNT][32];
    for (int w = 0; w < WIDTH_COUNT; w++) {
      int n = widths[t][w];
      append_kernel(&source, &length, &types[t], n);
      if (n == 1) snprintf(name_text[w], 32, "t_%s", types[t].name);
      else snprintf(name_text[w], 32, "t_%s%d", types[t].name, n);
      names[w] = name_text[w];
    }
    mux_executable_t exe = bt_build(source, names, WIDTH_COUNT, LOCAL, NULL);
    free(source);
    REQUIRE(exe);
    for (int w = 0; w < WIDTH_COUNT; w++) check_kernel(exe, &types[t], widths[t][w]);
    bt_executable_destroy(exe);
  }
  check_small();
  return bt_finish();
}

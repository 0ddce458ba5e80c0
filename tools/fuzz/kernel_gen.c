/* clmux kernel fuzzer: the generator (kernel_gen.h).
 *
 * Why each construct is defined behaviour:
 *   - all arithmetic is on uint (it wraps); signed values appear only as
 *     casts for comparisons, shifts and min/max; divisors are `| 1u`,
 *     shift counts `& 31u`, indices reduced modulo their array's size;
 *   - every loop has a bound of at most 8 (a `while` also counts);
 *   - a kernel either has barriers or early returns, never both; barriers
 *     stand only where control flow is uniform: outside ifs on varying
 *     conditions, in loops whose bound and breaks are uniform;
 *   - atomics combine with add, or, xor, max, so their end values do not
 *     depend on the order the work-items ran in, and their old values are
 *     never used;
 *   - floating point is built from small integers with +, -, * and fma,
 *     each exact or correctly rounded, FP_CONTRACT off, and converted
 *     back with saturation;
 *   - image reads are in range or use a sampler that clamps; each
 *     work-item writes only its own pixel of the output image. */
#include "kernel_gen.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kernel_gen_feature_names[FEATURE_COUNT] = {
    "divergent if",  "uniform if",    "divergent loop", "uniform loop",
    "break",         "continue",      "early return",   "barrier",
    "__local array", "global atomic", "local atomic",   "vector",
    "struct",        "private array", "float",          "builtin",
    "image read",    "image write",   "helper call",    "wrapping index"};

enum { VARS = 6, MAX_DEPTH = 3 };

typedef struct text {
  char *data;
  size_t length, capacity;
} text;

typedef struct gen {
  uint64_t state;
  text out;
  int indent;
  int loops;     /* counters declared so far, for unique names */
  bool barriers; /* this kernel's mode: barriers, or early returns */
  bool images;
  bool group_ids; /* lid and lsz are the launch's (not the implementation's) */
  int scope[8];   /* loop counters in scope ... */
  bool scope_uniform[8];
  int scope_count;
  unsigned *features;
} gen;

/* Where a statement stands. */
typedef struct context {
  bool uniform; /* every work-item of the group gets here together */
  bool in_loop;
  bool breaks;         /* break/continue may stand here */
  bool uniform_breaks; /* ... but only on uniform conditions */
  int depth;
} context;

static uint64_t next(gen *g) {
  /* splitmix64 */
  uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static unsigned pick(gen *g, unsigned n) { return (unsigned)(next(g) % n); }
static bool chance(gen *g, unsigned percent) { return pick(g, 100) < percent; }

static void vemit(gen *g, const char *format, va_list args) {
  va_list again;
  va_copy(again, args);
  int n = vsnprintf(NULL, 0, format, args);
  if (n < 0) n = 0;
  if (g->out.length + (size_t)n + 1 > g->out.capacity) {
    size_t capacity = (g->out.capacity + (size_t)n + 1) * 2;
    char *data = realloc(g->out.data, capacity);
    if (!data) abort();
    g->out.data = data;
    g->out.capacity = capacity;
  }
  vsnprintf(g->out.data + g->out.length, (size_t)n + 1, format, again);
  va_end(again);
  g->out.length += (size_t)n;
}

static void emit(gen *g, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vemit(g, format, args);
  va_end(args);
}

/* One indented line. */
static void line(gen *g, const char *format, ...) {
  for (int i = 0; i < g->indent; i++) emit(g, "  ");
  va_list args;
  va_start(args, format);
  vemit(g, format, args);
  va_end(args);
  emit(g, "\n");
}

static void feature(gen *g, int f) { g->features[f]++; }

/* ---- Expressions: written into a small buffer, uint-valued ---- */

typedef struct expr {
  char s[8192];
} expr;

/* e = the formatted text; an expression too long for it becomes v0. */
static void set(expr *e, const char *format, ...) {
  va_list args;
  va_start(args, format);
  char buffer[sizeof e->s];
  int n = vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n < 0 || (size_t)n >= sizeof buffer) {
    strcpy(e->s, "v0");
  } else {
    memcpy(e->s, buffer, (size_t)n + 1);
  }
}

static void expr_uniform(gen *g, expr *e, int depth);
static void expr_varying(gen *g, expr *e, int depth);

static const uint32_t constants[] = {
    0u,   1u,          2u,          3u,          7u,          8u,    31u,
    255u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x9e3779b9u, 12345u};

static void leaf_uniform(gen *g, expr *e) {
  int uniform_counters = 0;
  for (int i = 0; i < g->scope_count; i++)
    uniform_counters += g->scope_uniform[i];
  switch (pick(g, uniform_counters ? 5 : 4)) {
    case 0:
      set(e, "k0");
      break;
    case 1:
      set(e, "k1");
      break;
    case 2:
      set(e, g->group_ids ? "lsz" : "n");
      break;
    case 3:
      set(e, "%uu", constants[pick(g, sizeof constants / sizeof *constants)]);
      break;
    default: {
      int k = (int)pick(g, (unsigned)uniform_counters);
      for (int i = 0; i < g->scope_count; i++) {
        if (g->scope_uniform[i] && k-- == 0) {
          set(e, "i%d", g->scope[i]);
        }
      }
    }
  }
}

static void leaf_varying(gen *g, expr *e) {
  switch (pick(g, g->scope_count ? 6 : 5)) {
    case 0:
      set(e, "gid");
      break;
    case 1:
      set(e, g->group_ids ? "lid" : "(gid %% 13u)");
      break;
    case 2: {
      expr i;
      expr_varying(g, &i, 1);
      set(e, "in[(%s) %% n]", i.s);
      break;
    }
    case 5:
      set(e, "i%d", g->scope[pick(g, (unsigned)g->scope_count)]);
      break;
    default:
      set(e, "v%u", pick(g, VARS));
  }
}

static const char *const binary_ops[] = {"+", "-", "*", "^", "&", "|"};

/* One operator or builtin over operands made by `operand`. */
static void combine(gen *g, expr *e, int depth,
                    void (*operand)(gen *, expr *, int)) {
  expr a, b, c;
  operand(g, &a, depth - 1);
  operand(g, &b, depth - 1);
  unsigned k = pick(g, 40);
  if (k < 14) {
    set(e, "(%s %s %s)", a.s, binary_ops[k % 6], b.s);
    return;
  }
  if (k >= 30) feature(g, FEATURE_BUILTIN);
  switch (k) {
    case 14:
      set(e, "(%s << (%s & 31u))", a.s, b.s);
      return;
    case 15:
      set(e, "(%s >> (%s & 31u))", a.s, b.s);
      return;
    case 16:
      set(e, "(%s / (%s | 1u))", a.s, b.s);
      return;
    case 17:
      set(e, "(%s %% (%s | 1u))", a.s, b.s);
      return;
    case 18:
      set(e, "(uint)((int)%s >> (%s & 31u))", a.s, b.s);
      return;
    case 19:
      set(e, "((int)%s < (int)%s ? %s : %s)", a.s, b.s, b.s, a.s);
      return;
    case 20:
      set(e, "(%s < %s ? %s : %s ^ 5u)", a.s, b.s, a.s, b.s);
      return;
    case 21:
      set(e, "(uint)(%s == %s)", a.s, b.s);
      return;
    case 22:
      set(e, "(uint)(%s & 0xffffu)", a.s);
      return;
    case 23:
      set(e, "(uint)(uchar)%s", a.s);
      return;
    case 24:
      set(e, "(uint)(short)%s", a.s);
      return;
    case 25:
      set(e, "(uint)((ulong)%s * %s >> 16)", a.s, b.s);
      return;
    case 26:
      set(e, "(~%s)", a.s);
      return;
    case 27:
      set(e, "(uint)(-(int)(%s & 0xfffu))", a.s);
      return;
    case 28:
      set(e, "hash2(%s, %s)", a.s, b.s);
      return;
    case 29:
      set(e, "(%s - (%s & 7u))", a.s, b.s);
      return;
    case 30:
      set(e, "min(%s, %s)", a.s, b.s);
      return;
    case 31:
      set(e, "max(%s, %s)", a.s, b.s);
      return;
    case 32:
      operand(g, &c, depth - 1);
      set(e, "clamp(%s, min(%s, %s), max(%s, %s))", a.s, b.s, c.s, b.s, c.s);
      return;
    case 33: {
      static const char *const two[] = {"abs_diff", "add_sat", "sub_sat",
                                        "hadd",     "rhadd",   "mul_hi",
                                        "rotate"};
      set(e, "%s(%s, %s)", two[pick(g, 7)], a.s, b.s);
      return;
    }
    case 34: {
      static const char *const one[] = {"popcount", "clz"};
      set(e, "%s(%s)", one[pick(g, 2)], a.s);
      return;
    }
    case 35:
      operand(g, &c, depth - 1);
      set(e, "%s(%s, %s, %s)", pick(g, 2) ? "mad_hi" : "mad_sat", a.s, b.s,
          c.s);
      return;
    case 36:
      operand(g, &c, depth - 1);
      set(e, "mad24(%s & 0xffffffu, %s & 0xffffffu, %s)", a.s, b.s, c.s);
      return;
    case 37:
      set(e, "upsample((ushort)%s, (ushort)%s)", a.s, b.s);
      return;
    case 38:
      operand(g, &c, depth - 1);
      set(e, "bitselect(%s, %s, %s)", a.s, b.s, c.s);
      return;
    default:
      /* Not of INT_MIN: PoCL 3.1 folds abs(INT_MIN) as overflow and drops
       * the store (clmux gives 0x80000000u, as the spec says). */
      set(e, "abs((int)(%s | 1u))", a.s);
  }
}

static void expr_uniform(gen *g, expr *e, int depth) {
  if (depth <= 0 || chance(g, 35)) {
    leaf_uniform(g, e);
  } else {
    combine(g, e, depth, expr_uniform);
  }
}

static void expr_varying(gen *g, expr *e, int depth) {
  if (depth <= 0 || chance(g, 30)) {
    if (chance(g, 25)) {
      leaf_uniform(g, e);
    } else {
      leaf_varying(g, e);
    }
  } else {
    combine(g, e, depth, expr_varying);
  }
}

/* A condition: varying or uniform. Some test ranges of ids minus an
 * offset, whose lanes cross 0 within one vector. */
static void condition(gen *g, expr *e, bool uniform) {
  expr a, b;
  if (uniform) {
    expr_uniform(g, &a, 2);
    expr_uniform(g, &b, 2);
  } else {
    expr_varying(g, &a, 2);
    expr_varying(g, &b, 2);
  }
  if (!uniform && chance(g, 25)) {
    feature(g, FEATURE_WRAPPING_INDEX);
    switch (pick(g, 3)) {
      case 0:
        set(e, "gid - (%s & 7u) < n - (%s & 15u)", b.s, a.s);
        return;
      case 1:
        set(e, "(int)(%s - (%s & 7u)) >= 0", g->group_ids ? "lid" : "gid", b.s);
        return;
      default:
        set(e, "(uint)(%s - 3u) < %s - (%s & 3u)", g->group_ids ? "lid" : "gid",
            g->group_ids ? "lsz" : "n", a.s);
        return;
    }
  }
  static const char *const compare[] = {"<", "<=", ">", ">=", "==", "!="};
  switch (pick(g, 4)) {
    case 0:
      set(e, "(%s & %uu) == %uu", a.s, 1u << pick(g, 4), 0u);
      return;
    case 1:
      set(e, "(int)%s %s (int)%s", a.s, compare[pick(g, 6)], b.s);
      return;
    default:
      set(e, "%s %s %s", a.s, compare[pick(g, 6)], b.s);
  }
}

/* ---- Statements ---- */

static void statements(gen *g, context c, int count);

static const char *var(gen *g) {
  static const char *const names[VARS] = {"v0", "v1", "v2", "v3", "v4", "v5"};
  return names[pick(g, VARS)];
}

static void final_hash(gen *g) {
  line(g,
       "out[gid] = hash2(hash2(hash2(v0, v1), hash2(v2, v3)), hash2(v4, v5));");
}

static void statement_assign(gen *g) {
  expr e;
  expr_varying(g, &e, 3);
  static const char *const ops[] = {"=", "+=", "^=", "-="};
  line(g, "%s %s %s;", var(g), ops[pick(g, 4)], e.s);
}

static void statement_if(gen *g, context c) {
  bool uniform = c.uniform && chance(g, 40);
  feature(g, uniform ? FEATURE_UNIFORM_IF : FEATURE_DIVERGENT_IF);
  expr e;
  condition(g, &e, uniform);
  line(g, "if (%s) {", e.s);
  context inner = c;
  inner.uniform = uniform;
  inner.depth++;
  if (!uniform && c.uniform_breaks) inner.breaks = false;
  g->indent++;
  statements(g, inner, 1 + (int)pick(g, 3));
  g->indent--;
  if (chance(g, 50)) {
    line(g, "} else {");
    g->indent++;
    statements(g, inner, 1 + (int)pick(g, 2));
    g->indent--;
  }
  line(g, "}");
}

static void statement_loop(gen *g, context c) {
  if (g->scope_count >= 8) return statement_assign(g);
  bool uniform = c.uniform && chance(g, 50);
  int id = g->loops++;
  context inner = c;
  inner.uniform = uniform;
  inner.in_loop = true;
  inner.breaks = true;
  /* A barrier may follow in this loop: its breaks must be uniform. */
  inner.uniform_breaks = uniform && g->barriers;
  inner.depth++;
  expr bound;
  if (uniform) {
    feature(g, FEATURE_UNIFORM_LOOP);
    expr_uniform(g, &bound, 2);
    line(g, "for (uint i%d = 0; i%d < (%s & 3u) + 1u; i%d++) {", id, id,
         bound.s, id);
  } else {
    feature(g, FEATURE_DIVERGENT_LOOP);
    expr_varying(g, &bound, 2);
    if (chance(g, 30)) {
      expr more;
      condition(g, &more, false);
      line(g, "for (uint i%d = 0; i%d < 8u && (%s); i%d++) {", id, id, more.s,
           id);
    } else {
      line(g, "for (uint i%d = 0; i%d < (%s & 7u); i%d++) {", id, id, bound.s,
           id);
    }
  }
  g->scope[g->scope_count] = id;
  g->scope_uniform[g->scope_count++] = uniform;
  g->indent++;
  statements(g, inner, 1 + (int)pick(g, 3));
  g->indent--;
  g->scope_count--;
  line(g, "}");
}

static void statement_break(gen *g, context c) {
  bool uniform = c.uniform_breaks || (c.uniform && chance(g, 30));
  expr e;
  condition(g, &e, uniform);
  bool is_break = chance(g, 50);
  feature(g, is_break ? FEATURE_BREAK : FEATURE_CONTINUE);
  line(g, "if (%s) %s;", e.s, is_break ? "break" : "continue");
}

static void statement_return(gen *g, context c) {
  expr e;
  condition(g, &e, c.uniform && chance(g, 20));
  feature(g, FEATURE_EARLY_RETURN);
  line(g, "if (%s) {", e.s);
  g->indent++;
  final_hash(g);
  line(g, "return;");
  g->indent--;
  line(g, "}");
}

static void statement_barrier(gen *g) {
  expr e, u;
  expr_varying(g, &e, 2);
  expr_uniform(g, &u, 1);
  feature(g, FEATURE_BARRIER);
  feature(g, FEATURE_LOCAL_ARRAY);
  line(g, "lm[lid] = %s;", e.s);
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  line(g, "%s ^= lm[(lid + %s) %% lsz];", var(g), u.s);
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
}

static void statement_local_atomic(gen *g) {
  expr e, f, c;
  expr_varying(g, &e, 2);
  expr_varying(g, &f, 2);
  feature(g, FEATURE_BARRIER);
  feature(g, FEATURE_LOCAL_ATOMIC);
  line(g, "for (uint j = lid; j < 16u; j += lsz) lh[j] = 0u;");
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  /* Adds on lh[0..7], maxima on lh[8..15]. */
  if (chance(g, 60)) {
    condition(g, &c, false);
    line(g, "if (%s) atomic_add(&lh[(%s) & 7u], (%s) & 255u);", c.s, e.s, f.s);
  } else {
    line(g, "atomic_max(&lh[8u + ((%s) & 7u)], %s);", e.s, f.s);
  }
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  line(g, "%s += lh[%s & 15u];", var(g), var(g));
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
}

static void statement_global_atomic(gen *g) {
  expr e, f;
  expr_varying(g, &e, 2);
  expr_varying(g, &f, 2);
  /* Each counter has one operation: add and max, say, would not commute. */
  static const char *const ops[] = {"atomic_add", "atomic_or", "atomic_xor",
                                    "atomic_max", "atomic_min"};
  static const char *const slots[] = {"(%s) & 1u", "2u + ((%s) & 1u)",
                                      "4u + ((%s) & 1u)", "6u", "7u"};
  feature(g, FEATURE_GLOBAL_ATOMIC);
  unsigned op = pick(g, 5);
  char slot[sizeof e.s + 32];
  snprintf(slot, sizeof slot, slots[op], e.s);
  if (op == 0 && chance(g, 30)) {
    line(g, "atomic_inc(&counters[%s]);", slot);
  } else {
    line(g, "%s(&counters[%s], %s);", ops[op], slot, f.s);
  }
}

static void statement_vector(gen *g) {
  expr a, b;
  expr_varying(g, &a, 2);
  expr_uniform(g, &b, 1);
  feature(g, FEATURE_VECTOR);
  const char *x = var(g), *y = var(g);
  line(g, "{");
  g->indent++;
  line(g, "uint4 w = (uint4)(%s, %s, v%u, %s);", x, y, pick(g, VARS), a.s);
  line(g, "w = w * (uint4)(3u, 5u, 7u, 9u) + w.yzwx;");
  switch (pick(g, 3)) {
    case 0:
      line(g, "w = select(w, w.wzyx, w > (uint4)(%s));", b.s);
      break;
    case 1:
      line(g, "w = rotate(w, (uint4)(%s)) ^ min(w, w.zwxy);", b.s);
      break;
    default:
      line(g, "w.xy = w.xy * w.zw + (uint2)(%s);", b.s);
  }
  line(g, "int2 s = as_int2(w.xy) >> (int2)(3, 5);");
  line(g, "%s ^= w.x + w.y * 3u + (uint)s.y;", x);
  line(g, "%s += w.z ^ w.w;", y);
  g->indent--;
  line(g, "}");
}

static void statement_struct(gen *g) {
  expr a;
  expr_varying(g, &a, 2);
  feature(g, FEATURE_STRUCT);
  const char *x = var(g);
  line(g, "{");
  g->indent++;
  line(g, "rec s = {%s, %s, (uint4)(v1, v2, %s, 1u)};", x, a.s, var(g));
  if (chance(g, 50)) {
    feature(g, FEATURE_HELPER_CALL);
    line(g, "s = rec_step(s, %s);", var(g));
  }
  line(g, "s.b += s.v.z;");
  line(g, "%s = s.a ^ s.b ^ s.v.x ^ s.v.w;", x);
  g->indent--;
  line(g, "}");
}

static void statement_private_array(gen *g) {
  expr a, b;
  expr_varying(g, &a, 2);
  expr_varying(g, &b, 2);
  feature(g, FEATURE_PRIVATE_ARRAY);
  line(g, "{");
  g->indent++;
  line(g, "uint arr[8];");
  line(g, "for (uint j = 0; j < 8u; j++) arr[j] = %s + j * %s;", var(g),
       var(g));
  line(g, "arr[(%s) & 7u] ^= %s;", a.s, var(g));
  line(g, "%s += arr[(%s) & 7u] + arr[%s >> 29];", var(g), b.s, var(g));
  g->indent--;
  line(g, "}");
}

static void statement_float(gen *g) {
  feature(g, FEATURE_FLOAT);
  const char *x = var(g);
  line(g, "{");
  g->indent++;
  line(g, "float f = (float)(%s & 0xffffu) * 0.5f - (float)(%s & 0xffu);",
       var(g), var(g));
  line(g, "f = fmax(f, (float)(%s & 0x3ffu) * 1.25f);", var(g));
  switch (pick(g, 3)) {
    case 0:
      line(g, "f = floor(f * 0.75f);");
      break;
    case 1:
      line(g, "f = fma(f, 3.0f, (float)%s);", var(g));
      break;
    default:
      line(g, "f = fabs(f - 300.0f) + rint(f * 0.125f);");
  }
  line(g, "%s += convert_uint_sat(f) ^ (isless(f, 100.0f) ? 1u : 0u);", x);
  g->indent--;
  line(g, "}");
}

static void statement_image_read(gen *g) {
  expr a, b;
  expr_varying(g, &a, 2);
  expr_varying(g, &b, 2);
  feature(g, FEATURE_IMAGE_READ);
  const char *x = var(g);
  switch (pick(g, 4)) {
    case 0:
      line(g,
           "%s += read_imageui(img, to_edge, (int2)((int)((%s) %% 31u) - 4,"
           " (int)((%s) %% 11u) - 2)).x;",
           x, a.s, b.s);
      break;
    case 1:
      line(g,
           "%s ^= read_imageui(img, border, (int2)((int)((%s) %% 31u) - 4,"
           " (int)((%s) %% 11u) - 2)).w;",
           x, a.s, b.s);
      break;
    case 2:
      line(g, "%s += read_imageui(img, (int2)((%s) %% %uu, (%s) %% %uu)).y;", x,
           a.s, KERNEL_GEN_IMAGE_W, b.s, KERNEL_GEN_IMAGE_H);
      break;
    default:
      line(g,
           "%s -= read_imageui(img, to_edge, (float2)((float)((%s) %% 60u) * "
           "0.5f - 3.0f, (float)((%s) %% 20u) * 0.5f - 1.0f)).z;",
           x, a.s, b.s);
  }
}

static void statement(gen *g, context c) {
  unsigned k = pick(g, 100);
  bool nest = c.depth < MAX_DEPTH;
  if (k < 22 || (!nest && k < 45)) return statement_assign(g);
  if (k < 38) return nest ? statement_if(g, c) : statement_assign(g);
  if (k < 50) return nest ? statement_loop(g, c) : statement_assign(g);
  if (k < 56 && c.in_loop && c.breaks) return statement_break(g, c);
  if (k < 60 && !g->barriers) return statement_return(g, c);
  if (k < 66 && g->barriers && c.uniform) return statement_barrier(g);
  if (k < 70 && g->barriers && c.uniform) return statement_local_atomic(g);
  if (k < 75) return statement_global_atomic(g);
  if (k < 81) return statement_vector(g);
  if (k < 85) return statement_struct(g);
  if (k < 89) return statement_private_array(g);
  if (k < 94) return statement_float(g);
  if (g->images) return statement_image_read(g);
  statement_assign(g);
}

static void statements(gen *g, context c, int count) {
  for (int i = 0; i < count; i++) statement(g, c);
}

/* ---- The kernel ---- */

uint32_t kernel_gen_input(uint64_t seed, size_t i) {
  uint64_t z = seed * 0x2545f4914f6cdd1dull + i * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
  z ^= z >> 29;
  /* Small values now and then, so that conditions go both ways. */
  return (i % 3 == 0) ? (uint32_t)(z % 64) : (uint32_t)z;
}

static const size_t local_sizes[] = {1,  2,  3,  4,  7,   8,   13, 16,
                                     17, 32, 33, 64, 100, 128, 256};

void kernel_gen(uint64_t seed, int size, kernel_case *out) {
  memset(out, 0, sizeof *out);
  gen g = {0};
  g.state = seed * 0xd1342543de82ef95ull + 1;
  g.features = out->features;
  g.barriers = chance(&g, 45);
  g.images = chance(&g, 25);
  out->images = g.images;
  out->k0 = (uint32_t)next(&g);
  out->k1 = chance(&g, 50) ? (uint32_t)pick(&g, 16) : (uint32_t)next(&g);
  size_t local =
      local_sizes[pick(&g, sizeof local_sizes / sizeof *local_sizes)];
  if (!g.barriers && chance(&g, 30)) {
    out->local = 0;
    out->global = 1 + pick(&g, 700);
  } else {
    out->local = local;
    out->global = local * (1 + pick(&g, local > 64 ? 3 : 6));
  }
  /* With the local size left to the implementation, the local ids are
   * its choice: such kernels do not read them. */
  g.group_ids = out->local != 0;

  emit(&g, "/* clmux kernel fuzzer, seed %llu */\n", (unsigned long long)seed);
  emit(&g, "#pragma OPENCL FP_CONTRACT OFF\n");
  emit(&g, "typedef struct { uint a; uint b; uint4 v; } rec;\n");
  emit(&g,
       "uint hash2(uint a, uint b) { return (a ^ (b >> 7)) * 0x9e3779b1u + b; "
       "}\n");
  emit(&g,
       "rec rec_step(rec s, uint k) {\n"
       "  s.a = s.a * 5u + k;\n"
       "  if (k & 1u) s.v += (uint4)(s.b);\n"
       "  else s.v = s.v.wzyx;\n"
       "  return s;\n"
       "}\n");
  if (g.images) {
    emit(&g,
         "constant sampler_t to_edge = CLK_NORMALIZED_COORDS_FALSE |\n"
         "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
         "constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE |\n"
         "    CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n");
  }
  emit(
      &g,
      "kernel void fuzz(global const uint *in, global uint *out,\n"
      "                 global uint *counters, uint n, uint k0, uint k1%s) {\n",
      g.images ? ",\n                 read_only image2d_t img, write_only "
                 "image2d_t oimg"
               : "");
  g.indent = 1;
  line(&g, "uint gid = get_global_id(0), lid = get_local_id(0);");
  line(&g, "uint lsz = get_local_size(0);");
  if (g.barriers) {
    line(&g, "local uint lm[256];");
    line(&g, "local uint lh[16];");
  }
  line(&g, "uint v0 = in[gid], v1 = in[(gid * 7u + 3u) %% n], v2 = k0 ^ gid;");
  line(&g,
       "uint v3 = k1 + %s, v4 = in[(gid + k1) %% n], v5 = gid * 0x9e3779b9u;",
       g.group_ids ? "lid" : "gid");
  context top = {true, false, false, false, 0};
  statements(&g, top, 4 + 4 * size + (int)pick(&g, 4 * (unsigned)size));
  if (g.images && chance(&g, 70)) {
    expr e;
    condition(&g, &e, false);
    feature(&g, FEATURE_IMAGE_WRITE);
    line(&g,
         "if (%s) write_imageui(oimg, (int2)(gid %% 64u, gid / 64u),"
         " (uint4)(v0, v1, v2, v3));",
         e.s);
  }
  final_hash(&g);
  emit(&g, "}\n");
  out->source = g.out.data;
}

void kernel_case_free(kernel_case *c) {
  free(c->source);
  c->source = NULL;
}

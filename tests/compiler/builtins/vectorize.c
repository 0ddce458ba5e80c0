/* Builtin math keeps kernels vectorized: exp(x) * sin(x) over floats
 * must call SLEEF's vector functions at the host's full width (16 floats with AVX-512) in the optimized module of
 * cc_codegen_build, and give the right results. Then it times it over
 * 16M floats through Mux (best of 5; printed, not asserted), beside a
 * kernel of one multiply-add for scale. Last, every math, common and
 * geometric function must leave a work-item loop calling it vectorized,
 * in float and in double (fmod, remainder and remquo through the vector
 * forms of the exact reduction). The same
 * exp(x) * sin(x) on float4 values must vectorize across work-items as
 * well (codegen splits the float4s) and give the right element order.
 * vstore_half[n] of float, float2, ... float16 must store whole vectors of
 * halves, no half alone (a per-component loop left rolled, or a float2
 * left unsplit, keeps the work-item loop scalar).
 * Set CLMUX_BUILTINS_DUMP=1 to print the optimized IR of exp_sin, or to
 * a function's name (fmod) for that of its kernels. */
#include <time.h>

#include "builtins_test.h"

#define LOCAL 256
#define BIG (16u << 20)

static const char *const source =
    "kernel void exp_sin(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = exp(in[i]) * sin(in[i]);\n"
    "}\n"
    "kernel void exp_sin4(global const float4 *in, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = exp(in[i]) * sin(in[i]);\n"
    "}\n"
    "kernel void mad_only(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * 2.0f + 1.0f;\n"
    "}\n";

/* Runs kernel `name` of `exe` once over `items` work-items with two
 * buffer arguments, input then output (or output then input), the output
 * starting as `out` holds it, and reads the output back. */
static void run_in_out(mux_executable_t exe, const char *name,
                       const void *in, size_t in_size, void *out,
                       size_t out_size, size_t items, bool out_first) {
  bt_buffer in_buffer = bt_buffer_create(in, in_size);
  bt_buffer out_buffer = bt_buffer_create(out, out_size);
  mux_descriptor_info_t args[2] = {bt_buffer_arg(&in_buffer),
                                   bt_buffer_arg(&out_buffer)};
  if (out_first) {
    args[0] = bt_buffer_arg(&out_buffer);
    args[1] = bt_buffer_arg(&in_buffer);
  }
  bt_run(exe, name, args, 2, items, LOCAL);
  bt_buffer_read(&out_buffer, out);
  bt_buffer_destroy(&in_buffer);
  bt_buffer_destroy(&out_buffer);
}

/* How many instructions of `module` call `callee` directly. */
static int count_calls(LLVMModuleRef module, const char *callee) {
  LLVMValueRef function = LLVMGetNamedFunction(module, callee);
  int count = 0;
  for (LLVMUseRef use = function ? LLVMGetFirstUse(function) : NULL; use;
       use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    count += LLVMIsACallInst(user) && LLVMGetCalledValue(user) == function;
  }
  return count;
}

/* The same for every function whose name begins with `prefix` (a math
 * function's scalar and vector forms). */
static int count_calls_of_all(LLVMModuleRef module, const char *prefix) {
  int count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (length >= strlen(prefix) && !strncmp(name, prefix, strlen(prefix))) {
      count += count_calls(module, name);
    }
  }
  return count;
}

static int calls(LLVMModuleRef module, const char *callee) {
  return count_calls(module, callee) > 0;
}

/* pow's guard against early overflow near DBL_MAX computes its call's
 * arguments without branches, so that one call serves every case; once
 * inlined into powr and pown (which know x >= 0) branches on the guard let
 * the optimizer make three calls of it, each a vector pow: 2-4x slower.
 * Checked in one vector body (local size 1: rows of merged groups, no
 * unrolled work-item loop to multiply the calls): one pow, called once
 * per register of its value, two at most. */
static void check_one_pow_call(void) {
  static const char *const calls_of_pow[] = {
      "pow(a[i], a[i + 1])", "powr(a[i], a[i + 1])", "pown(a[i], n[i])"};
  for (size_t i = 0; i < sizeof calls_of_pow / sizeof *calls_of_pow; i++) {
    char text[512];
    snprintf(text, sizeof text,
             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
             "kernel void k(global const double *a, global const int *n,\n"
             "              global double *r) {\n"
             "  size_t i = get_global_id(0);\n"
             "  r[i] = %s;\n"
             "}\n", calls_of_pow[i]);
    const char *name = "k";
    LLVMModuleRef optimized = NULL;
    mux_executable_t exe = bt_build(text, &name, 1, 1, &optimized);
    REQUIRE(optimized);
    int count = count_calls_of_all(optimized, "Sleef_pow");
    if (count < 1 || count > 2) {
      fprintf(stderr, "%s (double): %d calls of pow\n", calls_of_pow[i],
              count);
    }
    CHECK(count >= 1 && count <= 2);
    LLVMDisposeModule(optimized);
    bt_executable_destroy(exe);
  }
}

/* Whether the optimized module of a kernel calling `call` (a format with
 * the function's name) over a `type` (float or double) array works on
 * vectors of it, and calls `callee` if one is named. */
static int vectorizes_calling(const char *type, const char *call,
                              const char *function, const char *callee) {
  char source_text[640], expression[128];
  snprintf(expression, sizeof expression, call, function);
  snprintf(source_text, sizeof source_text,
           "kernel void k(global const %s *a, global const int *n,\n"
           "              global %s *r, global %s *p, global int *q) {\n"
           "  size_t i = get_global_id(0);\n"
           "  r[i] = %s;\n"
           "}\n", type, type, type, expression);
  const char *name = "k";
  LLVMModuleRef optimized = NULL;
  mux_executable_t exe = bt_build(source_text, &name, 1, LOCAL, &optimized);
  if (!optimized) return 0;
  /* The kernel's own function: the library's vector forms (fmod's) that
   * the module also holds work on vectors whether the kernel does or not. */
  LLVMValueRef kernel = LLVMGetNamedFunction(optimized, "__clmux_wg_k");
  REQUIRE(kernel);
  char *text = LLVMPrintValueToString(kernel);
  const char *dump = getenv("CLMUX_BUILTINS_DUMP");
  if (dump && strcmp(dump, function) == 0) printf("%s\n", text);
  char wide[32];
  int vector = 0;
  for (unsigned lanes = 2; lanes <= 64; lanes *= 2) {
    snprintf(wide, sizeof wide, "<%u x %s>", lanes, type);
    vector = vector || strstr(text, wide);
  }
  LLVMDisposeMessage(text);
  if (vector && callee && !calls(optimized, callee)) {
    fprintf(stderr, "%s (%s) does not call %s\n", expression, type, callee);
    vector = 0;
  }
  LLVMDisposeModule(optimized);
  bt_executable_destroy(exe);
  if (!vector) fprintf(stderr, "%s (%s) stays scalar\n", expression, type);
  return vector;
}

static int vectorizes(const char *type, const char *call,
                      const char *function) {
  return vectorizes_calling(type, call, function, NULL);
}

/* Whether a kernel storing `width` floats per work-item as halves with
 * vstore_half<width><rounding> stores only vectors of halves. */
static int stores_half_vectors(const char *width, const char *rounding) {
  char source_text[320];
  snprintf(source_text, sizeof source_text,
           "kernel void k(global const float%s *p, global half *f) {\n"
           "  size_t i = get_global_id(0);\n"
           "  vstore_half%s%s(p[i], i, f);\n"
           "}\n", width, width, rounding);
  const char *name = "k";
  LLVMModuleRef optimized = NULL;
  mux_executable_t exe = bt_build(source_text, &name, 1, LOCAL, &optimized);
  if (!optimized) return 0;
  char *text = LLVMPrintModuleToString(optimized);
  int vectors = strstr(text, "store i16 ") == NULL;
  LLVMDisposeMessage(text);
  LLVMDisposeModule(optimized);
  bt_executable_destroy(exe);
  if (!vectors) fprintf(stderr, "vstore_half%s%s stores halves one by one\n",
                        width, rounding);
  return vectors;
}

static const char *const unary[] = {
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh",
    "atanpi", "cbrt", "ceil", "cos", "cosh", "cospi", "erf", "erfc", "exp",
    "exp2", "exp10", "expm1", "fabs", "floor", "lgamma", "log", "log2",
    "log10", "log1p", "logb", "rint", "round", "rsqrt", "sin", "sinh",
    "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc", "half_exp",
    "half_log", "native_sin", "native_cos", "degrees", "radians", "sign",
    "normalize", "length", "fast_length"};
static const char *const binary[] = {
    "atan2", "atan2pi", "copysign", "fdim", "fmax", "fmin", "hypot",
    "maxmag", "minmag", "nextafter", "pow", "powr", "max", "min", "step",
    "distance", "dot", "half_divide", "native_powr"};

/* half_*, native_* and fast_* have no double forms. */
static int has_form(const char *type, const char *function) {
  return strcmp(type, "double") != 0 ||
         (strncmp(function, "half_", 5) != 0 &&
          strncmp(function, "native_", 7) != 0 &&
          strncmp(function, "fast_", 5) != 0);
}

static void check_functions_vectorize(const char *type) {
  for (size_t i = 0; i < sizeof unary / sizeof *unary; i++) {
    if (has_form(type, unary[i]))
      CHECK(vectorizes(type, "%s(a[i])", unary[i]));
  }
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) {
    if (has_form(type, binary[i]))
      CHECK(vectorizes(type, "%s(a[i], a[i + 1])", binary[i]));
  }
  static const char *const ternary[] = {"fma", "mad", "clamp", "mix",
                                        "smoothstep"};
  for (size_t i = 0; i < sizeof ternary / sizeof *ternary; i++) {
    CHECK(vectorizes(type, "%s(a[i], a[i + 1], a[i + 2])", ternary[i]));
  }
  CHECK(vectorizes(type, "%s(a[i], n[i])", "ldexp"));
  CHECK(vectorizes(type, "%s(a[i], n[i])", "pown"));
  CHECK(vectorizes(type, "%s(a[i], n[i])", "rootn"));
  CHECK(vectorizes(type, "%s(a[i], p + i)", "fract"));
  CHECK(vectorizes(type, "%s(a[i], p + i)", "modf"));
  CHECK(vectorizes(type, "%s(a[i], p + i)", "sincos"));
  CHECK(vectorizes(type, "%s(a[i], q + i)", "frexp"));
  CHECK(vectorizes(type, "%s(a[i], q + i)", "lgamma_r"));
  /* fmod, remainder and remquo call the exact reduction's widest vector
   * form (a loop over whole vectors), not libm per element. */
  char form[64];
  snprintf(form, sizeof form, "__clmux_vv_fmod%s%u",
           strcmp(type, "float") == 0 ? "f" : "d",
           cc_target_vector_bits(bt_target) /
               (strcmp(type, "float") == 0 ? 32 : 64));
  CHECK(vectorizes_calling(type, "%s(a[i], a[i + 1])", "fmod", form));
  CHECK(vectorizes_calling(type, "%s(a[i], a[i + 1])", "remainder", form));
  CHECK(vectorizes_calling(type, "%s(a[i], a[i + 1], q + i)", "remquo", form));
  if (strcmp(type, "float") != 0) return;
  /* half_ and native_ forms call SLEEF's 3.5-ulp vector functions (log10
   * and powr through log2's), 2-3x faster than the 1-ulp ones. */
  static const char *const fast[][2] = {
      {"sin", "sin"}, {"cos", "cos"}, {"tan", "tan"}, {"log", "log"},
      {"log2", "log2"}, {"log10", "log2"}, {"exp10", "exp10"}};
  unsigned lanes = cc_target_vector_bits(bt_target) / 32;
  for (size_t i = 0; i < sizeof fast / sizeof *fast; i++) {
    char callee[64];
    snprintf(callee, sizeof callee, "Sleef_%sf%u_u35", fast[i][1], lanes);
    for (int native = 0; native < 2; native++) {
      char function[32];
      snprintf(function, sizeof function, "%s_%s",
               native ? "native" : "half", fast[i][0]);
      CHECK(vectorizes_calling(type, "%s(a[i])", function, callee));
    }
  }
  char log2_form[64];
  snprintf(log2_form, sizeof log2_form, "Sleef_log2f%u_u35", lanes);
  CHECK(vectorizes_calling(type, "%s(a[i], a[i + 1])", "half_powr",
                           log2_form));
  CHECK(vectorizes_calling(type, "%s(a[i], a[i + 1])", "native_powr",
                           log2_form));
}

/* The CTS's 3-element kernels: vload3/vstore3 for every work-item but the
 * last, which reads and writes only the elements that exist (a switch with
 * fall-through). Math on the loaded vector must still vectorize across
 * work-items (built element by element, the float3 is split before the
 * loops are made: it was one scalar call per element, 10x slower than
 * float), and give the right elements on both paths. */
static void check_vec3_math(const char *type, const char *function,
                            double (*reference)(double)) {
  char source_text[1024];
  snprintf(source_text, sizeof source_text,
           "kernel void k(global %s *out, global const %s *in) {\n"
           "  size_t i = get_global_id(0);\n"
           "  if (i + 1 < get_global_size(0)) {\n"
           "    vstore3(%s(vload3(0, in + 3 * i)), 0, out + 3 * i);\n"
           "  } else {\n"
           "    %s3 a = (%s3)(NAN, NAN, NAN);\n"
           "    switch (i & 1) {\n"
           "      case 0: a.y = in[3 * i + 1];\n"
           "      case 1: a.x = in[3 * i]; break;\n"
           "    }\n"
           "    %s3 r = %s(a);\n"
           "    switch (i & 1) {\n"
           "      case 0: out[3 * i + 1] = r.y;\n"
           "      case 1: out[3 * i] = r.x; break;\n"
           "    }\n"
           "  }\n"
           "}\n",
           type, type, function, type, type, type, function);
  const char *name = "k";
  LLVMModuleRef optimized = NULL;
  mux_executable_t exe = bt_build(source_text, &name, 1, LOCAL, &optimized);
  REQUIRE(exe && optimized);
  unsigned scalar = 0, vector = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(optimized); f;
       f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
         b = LLVMGetNextBasicBlock(b)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
           i = LLVMGetNextInstruction(i)) {
        LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
        size_t length = 0;
        if (!callee ||
            strncmp(LLVMGetValueName2(callee, &length), "Sleef_", 6) != 0) {
          continue;
        }
        if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVectorTypeKind) {
          vector++;
        } else {
          scalar++;
        }
      }
    }
  }
  LLVMDisposeModule(optimized);
  CHECK(vector > 0 && scalar == 0);
  if (scalar || !vector) {
    fprintf(stderr, "%s3 %s: %u scalar and %u vector SLEEF calls\n", type,
            function, scalar, vector);
  }

  enum { ITEMS = 4 * LOCAL, VALUES = 3 * ITEMS };
  bool is_float = strcmp(type, "float") == 0;
  size_t size = is_float ? sizeof(float) : sizeof(double);
  static double in[VALUES], out[VALUES];
  static float in_f[VALUES], out_f[VALUES];
  for (size_t i = 0; i < VALUES; i++) {
    in[i] = (double)(i % 97) / 8.0 - 6.0;
    in_f[i] = (float)in[i];
    out[i] = out_f[i] = 12345.0f;
  }
  run_in_out(exe, name, is_float ? (void *)in_f : (void *)in, VALUES * size,
             is_float ? (void *)out_f : (void *)out, VALUES * size, ITEMS,
             true);
  size_t wrong = 0;
  /* The last item is odd: it writes only its x. */
  for (size_t v = 0; v < VALUES; v++) {
    bool written = v < VALUES - 2;
    double got = is_float ? (double)out_f[v] : out[v];
    double expected = written ? reference(is_float ? (double)in_f[v] : in[v])
                              : 12345.0;
    bool right = is_float ? bt_ulp_error((float)got, expected) <= 4.0
                          : fabs(got - expected) <= 1e-14 * fabs(expected);
    if (!right && wrong++ < 3) {
      fprintf(stderr, "%s3 %s element %zu: %a, expected %a\n", type,
              function, v, got, expected);
    }
  }
  CHECK(wrong == 0);
  bt_executable_destroy(exe);
}

/* Geometric functions on a float3 read with vload3 (built element by
 * element, no vector load to split) vectorize across work-items too: the
 * kernel's function works on vectors of 8 or more floats or doubles (the
 * vectorizer picks 8 where the work is in double). normalize is also
 * checked against the host. */
static void check_vload3_geometric(void) {
  unsigned lanes = cc_target_vector_bits(bt_target) / 32;
  if (lanes < 8) return; /* 4 lanes would not tell a float3 from a row */
  static const char *const statements[] = {
      "vstore3(normalize(vload3(i, a)), i, r);",
      "r[i] = dot(vload3(i, a), vload3(i, a + 1));",
      "vstore3(cross(vload3(i, a), vload3(i, a + 1)), i, r);",
      "r[i] = length(vload3(i, a));"};
  enum { ITEMS = 4 * LOCAL };
  static float in[3 * ITEMS + 3], out[3 * ITEMS];
  for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
    in[i] = (float)(i % 13) - 6.0f + 0.25f;
  }
  for (size_t s = 0; s < sizeof statements / sizeof *statements; s++) {
    char source_text[320], wide[32];
    snprintf(source_text, sizeof source_text,
             "kernel void k(global const float *a, global float *r) {\n"
             "  size_t i = get_global_id(0);\n"
             "  %s\n"
             "}\n", statements[s]);
    const char *name = "k";
    LLVMModuleRef optimized = NULL;
    mux_executable_t exe = bt_build(source_text, &name, 1, LOCAL, &optimized);
    REQUIRE(exe && optimized);
    char *text = LLVMPrintValueToString(LLVMGetNamedFunction(optimized,
                                                             "__clmux_wg_k"));
    /* 8 or more lanes: a float3 kept whole has 3 or 4 (in double too);
     * or the float3s of 2 or more work-items loaded as one (AVX2 may sum
     * 4 work-items' squares in <4 x double>, after a <12 x float> load). */
    bool vector = false;
    for (unsigned width = 8; width <= 4 * lanes; width *= 2) {
      snprintf(wide, sizeof wide, "<%u x float>", width);
      vector = vector || strstr(text, wide);
      snprintf(wide, sizeof wide, "<%u x double>", width);
      vector = vector || strstr(text, wide);
      snprintf(wide, sizeof wide, "<%u x float>", 3 * width / 4);
      vector = vector || strstr(text, wide);
    }
    CHECK(vector);
    if (!vector) fprintf(stderr, "%s stays scalar\n", statements[s]);
    LLVMDisposeMessage(text);
    LLVMDisposeModule(optimized);
    if (s == 0) { /* normalize: every element against the host */
      run_in_out(exe, name, in, sizeof in, out, sizeof out, ITEMS, false);
      size_t wrong = 0;
      for (size_t i = 0; i < ITEMS; i++) {
        double x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
        double norm = sqrt(x * x + y * y + z * z);
        double want[3] = {x / norm, y / norm, z / norm};
        for (int c = 0; c < 3; c++) {
          if (fabs(out[3 * i + c] - want[c]) > 1e-6 && wrong++ < 3) {
            fprintf(stderr, "normalize item %zu.%d: %a, expected %a\n", i, c,
                    out[3 * i + c], want[c]);
          }
        }
      }
      CHECK(wrong == 0);
    }
    bt_executable_destroy(exe);
  }
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  bt_start();
  unsigned lanes = cc_target_vector_bits(bt_target) / 32;
  const char *names[] = {"exp_sin", "mad_only"};
  {
    LLVMModuleRef optimized = NULL;
    mux_executable_t exe = bt_build(source, names, 1, LOCAL, &optimized);
    REQUIRE(exe && optimized);
    if (getenv("CLMUX_BUILTINS_DUMP")) {
      char *text = LLVMPrintModuleToString(optimized);
      printf("%s\n", text);
      LLVMDisposeMessage(text);
    }
    char exp_name[64], sin_name[64];
    snprintf(exp_name, sizeof exp_name, "Sleef_expf%u_u10", lanes);
    snprintf(sin_name, sizeof sin_name, "Sleef_sinf%u_u10", lanes);
    CHECK(calls(optimized, exp_name));
    CHECK(calls(optimized, sin_name));
    /* Every work-item's call is a vector call: no scalar ones are left. */
    CHECK(!calls(optimized, "Sleef_expf_u10"));
    CHECK(!calls(optimized, "Sleef_sinf_u10"));
    LLVMDisposeModule(optimized);
    bt_executable_destroy(exe);
  }

  /* float4: the same vector calls, right results element by element. */
  {
    const char *name4 = "exp_sin4";
    LLVMModuleRef optimized = NULL;
    mux_executable_t exe = bt_build(source, &name4, 1, LOCAL, &optimized);
    REQUIRE(exe && optimized);
    char exp_name[64], sin_name[64];
    snprintf(exp_name, sizeof exp_name, "Sleef_expf%u_u10", lanes);
    snprintf(sin_name, sizeof sin_name, "Sleef_sinf%u_u10", lanes);
    CHECK(calls(optimized, exp_name));
    CHECK(calls(optimized, sin_name));
    CHECK(!calls(optimized, "Sleef_expf_u10"));
    CHECK(!calls(optimized, "Sleef_sinf_u10"));
    LLVMDisposeModule(optimized);
    enum { ITEMS = 16 * LOCAL };
    static float in4[4 * ITEMS], out4[4 * ITEMS];
    for (size_t i = 0; i < 4 * ITEMS; i++) {
      in4[i] = (float)(i % 160) - 80.0f + (float)(i % 7) * 0.125f;
    }
    run_in_out(exe, name4, in4, sizeof in4, out4, sizeof out4, ITEMS, false);
    size_t wrong = 0;
    for (size_t i = 0; i < 4 * ITEMS; i++) {
      double ref = exp((double)in4[i]) * sin((double)in4[i]);
      if (bt_ulp_error(out4[i], ref) > 8.0 && wrong++ < 3) {
        fprintf(stderr, "exp_sin4 element %zu: %a, expected %a\n", i,
                out4[i], ref);
      }
    }
    CHECK(wrong == 0);
    bt_executable_destroy(exe);
  }

  /* Results and time over 16M floats. */
  float *in = malloc(BIG * sizeof *in), *out = malloc(BIG * sizeof *out);
  REQUIRE(in && out);
  bt_fill_floats(in, BIG, 20.0f, 7);
  for (size_t i = 0; i < BIG; i++) {
    if (!(fabsf(in[i]) <= 80.0f)) in[i] = (float)(i % 160) - 80.0f;
  }
  bt_buffer a = bt_buffer_create(in, BIG * sizeof *in);
  bt_buffer b = bt_buffer_create(NULL, BIG * sizeof *out);
  mux_descriptor_info_t args[2] = {bt_buffer_arg(&a), bt_buffer_arg(&b)};
  mux_executable_t exe = bt_build(source, names, 2, LOCAL, NULL);
  double best[2] = {INFINITY, INFINITY};
  for (int k = 1; k >= 0; k--) { /* exp_sin last: its output is checked */
    for (int run = 0; run < 5; run++) {
      double start = seconds();
      bt_run(exe, names[k], args, 2, BIG, LOCAL);
      double elapsed = seconds() - start;
      if (elapsed < best[k]) best[k] = elapsed;
    }
  }
  bt_buffer_read(&b, out);
  size_t wrong = 0;
  for (size_t i = 0; i < BIG; i += 97) {
    double ref = exp((double)in[i]) * sin((double)in[i]);
    /* two calls of <= 3 and 4 ulp and a product */
    if (bt_ulp_error(out[i], ref) > 8.0 && wrong++ < 3) {
      fprintf(stderr, "exp_sin(%a) = %a, expected %a\n", in[i], out[i], ref);
    }
  }
  CHECK(wrong == 0);
  printf("over %u floats through Mux, best of 5: exp(x)*sin(x) %.2f ms, "
         "x*2+1 %.2f ms; %u lanes\n", BIG, best[0] * 1e3, best[1] * 1e3, lanes);
  bt_executable_destroy(exe);
  bt_buffer_destroy(&a);
  bt_buffer_destroy(&b);
  free(in);
  free(out);
  check_functions_vectorize("float");
  check_functions_vectorize("double");
  check_one_pow_call();
  check_vec3_math("float", "exp", exp);
  check_vec3_math("float", "sinh", sinh); /* computed in double */
  check_vec3_math("double", "exp", exp);
  check_vec3_math("double", "sinh", sinh);
  check_vload3_geometric();
  static const char *const widths[] = {"", "2", "4", "8", "16"};
  for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
    CHECK(stores_half_vectors(widths[w], ""));
    CHECK(stores_half_vectors(widths[w], "_rtp"));
  }
  return bt_finish();
}

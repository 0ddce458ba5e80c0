/* Relaxed math: with -cl-fast-relaxed-math or -cl-unsafe-math-optimizations
 * at compile time, or -cl-fast-relaxed-math at link time, sin, cos, tan,
 * log, log2, log10, exp10 and powr on floats (scalar and float4) give
 * exactly what native_sin ... native_powr give; without them (or with
 * -cl-finite-math-only alone) they keep their full accuracy, which
 * differs from native_'s somewhere in the inputs. Doubles have no native_
 * forms and stay as they are. Everything runs through Mux. */
#include <math.h>
#include <string.h>

#include "module_test.h"

#define FUNCTIONS 8
#define FLOAT4_SLOT FUNCTIONS       /* sin of a float4 */
#define DOUBLE_SLOT (FUNCTIONS + 1) /* sin of a double, as a float */
#define SLOTS (FUNCTIONS + 2)

/* PREFIX is nothing or native_: both kernels in one program. */
static const char *const source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define BODY(PREFIX)                                                \\\n"
    "  size_t i = get_global_id(0);                                      \\\n"
    "  float x = a[i], y = b[i];                                         \\\n"
    "  global float *out = r + 10 * i;                                   \\\n"
    "  out[0] = PREFIX##sin(x); out[1] = PREFIX##cos(x);                 \\\n"
    "  out[2] = PREFIX##tan(x); out[3] = PREFIX##log(y);                 \\\n"
    "  out[4] = PREFIX##log2(y); out[5] = PREFIX##log10(y);              \\\n"
    "  out[6] = PREFIX##exp10(x * 0.3f);                                 \\\n"
    "  out[7] = PREFIX##powr(y, x * 0.1f);                               \\\n"
    "  out[8] = PREFIX##sin((float4)(x, y, -x, 2.0f * x)).s2;\n"
    "kernel void full(global const float *a, global const float *b,\n"
    "                 global float *r) {\n"
    "  BODY()\n"
    "  out[9] = (float)sin((double)x);\n"
    "}\n"
    "kernel void native(global const float *a, global const float *b,\n"
    "                   global float *r) {\n"
    "  BODY(native_)\n"
    "  out[9] = (float)sin((double)x);\n"
    "}\n";

enum { items = 4096, local_x = 64 };
static float a_in[items], b_in[items];

static void run(cc_module *module, const char *name, float *out) {
  const uint32_t local[3] = {local_x, 1, 1};
  mux_executable_t executable = load_specialized(module, name, local);
  REQUIRE(executable);
  mux_kernel_t kernel = create_kernel(executable, name);
  host_buffer a = host_buffer_create(a_in, sizeof a_in);
  host_buffer b = host_buffer_create(b_in, sizeof b_in);
  host_buffer r = host_buffer_create(NULL, sizeof(float) * SLOTS * items);
  mux_descriptor_info_t args[3] = {buffer_arg(&a), buffer_arg(&b),
                                   buffer_arg(&r)};
  CHECK_SUCCESS(run_1d(kernel, args, 3, items, local_x));
  host_buffer_read(&r, out);
  host_buffer_destroy(&a);
  host_buffer_destroy(&b);
  host_buffer_destroy(&r);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static bool same(float x, float y) {
  return memcmp(&x, &y, sizeof x) == 0 || (isnan(x) && isnan(y));
}

/* Builds with these options and counts, per slot, the inputs where the
 * plain functions differ from the native_ ones. */
static void count_differences(const char *compile_options,
                              const char *link_options,
                              int differences[SLOTS]) {
  cc_module *object = compile_ok(source, compile_options);
  cc_module *program = link_ok(&object, 1, link_options);
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(program, NULL));
  static float full[SLOTS * items], native[SLOTS * items];
  run(program, "full", full);
  run(program, "native", native);
  for (int s = 0; s < SLOTS; s++) differences[s] = 0;
  for (int i = 0; i < items * SLOTS; i++) {
    differences[i % SLOTS] += !same(full[i], native[i]);
  }
  cc_module_destroy(program);
  cc_module_destroy(object);
}

static void check(const char *compile_options, const char *link_options,
                  bool relaxed) {
  int differences[SLOTS];
  count_differences(compile_options, link_options, differences);
  for (int s = 0; s <= FLOAT4_SLOT; s++) {
    bool ok = relaxed ? differences[s] == 0 : differences[s] > 0;
    if (!ok) {
      fprintf(stderr, "compile '%s', link '%s': slot %d differs from native_ "
              "in %d of %d inputs\n", compile_options ? compile_options : "",
              link_options ? link_options : "", s,
              differences[s], items);
    }
    CHECK(ok);
  }
  CHECK_INT(0, differences[DOUBLE_SLOT]); /* the same double sin in both */
}

int main(void) {
  codegen_test_start();
  /* Wide ranges, where the 1-ulp and 3.5-ulp functions part somewhere. */
  uint32_t state = 12345;
  for (int i = 0; i < items; i++) {
    state = state * 1664525u + 1013904223u;
    a_in[i] = ((float)(state >> 8) / 16777216.0f - 0.5f) * 200.0f;
    state = state * 1664525u + 1013904223u;
    b_in[i] = (float)(state >> 8) / 16777216.0f * 1000.0f + 1e-3f;
  }
  check(NULL, NULL, false);
  check("-cl-finite-math-only", NULL, false);
  check("-cl-fast-relaxed-math", NULL, true);
  check("-cl-unsafe-math-optimizations", NULL, true);
  check(NULL, "-cl-fast-relaxed-math", true);
  check(NULL, "-cl-unsafe-math-optimizations", true);
  return codegen_test_finish();
}

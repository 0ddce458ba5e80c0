/* Kernels with loops bounded by their arguments (kernels/loops.cl, bitcode
 * path in argv), built by cc_codegen_build for local sizes 16, 64, 16x4,
 * 4 and generic (0), run through Mux against host references: loops that
 * only some work-items reach (after a divergent return, under a uniform
 * test inside a divergent one), divergent continue, uniform break,
 * private arrays, nested loops; an integer sum along a row must keep the
 * loop vectorizer's own vectorization along the row (no gathers). The
 * loop over points of `pairs` and the one over k of `matmul_naive` must
 * run on whole vectors of floats (the host's width, or twice it) at the
 * specialized sizes, through the whole-function vectorizer: left to the
 * loop vectorizer, a loop inside the work-item loop stays scalar. So must
 * `pairs_guarded` behind `if (i >= count) return;` and `matmul_guarded`
 * behind `if (row < rows && col < cols)`, with groups inside, across and
 * outside each bound, and a group whose int ids wrap past INT_MAX.
 * (These loops once ran "in step" behind barriers the compiler added.)
 * Set CLMUX_CODEGEN_DUMP=1 to print the IR. */
#include <clmux/cpu_abi/binary_format.h>
#include <math.h>
#include <stdbool.h>

#include "codegen_test.h"

static cc_target *target;
static LLVMModuleRef module;

/* Kernel `name` built for `local` (all 0: generic), or NULL (reported);
 * *ir gets the optimized IR when ir is not NULL. */
static mux_executable_t build(const char *name, const uint32_t local[3],
                              char **ir) {
  size_t size = 0;
  LLVMModuleRef built = NULL;
  uint8_t *binary = build_one(target, module, name, local, &size, &built);
  if (!binary) return NULL;
  if (ir) *ir = LLVMPrintModuleToString(built);
  if (ir && getenv("CLMUX_CODEGEN_DUMP")) fputs(*ir, stdout);
  LLVMDisposeModule(built);
  mux_executable_t executable = NULL;
  mux_result_t result = muxCreateExecutable(device, binary, size,
                                            mux_test_allocator, &executable);
  CHECK_SUCCESS(result);
  if (result != mux_success) fprintf(stderr, "  (kernel %s)\n", name);
  free(binary);
  return result == mux_success ? executable : NULL;
}

/* Runs kernel `name` built for `local` over `global` items with `args`;
 * the local size it runs at is `local`, or 16x1x1 for generic code. */
static bool run(const char *name, const uint32_t local[3], int dims,
                const size_t global[2], mux_descriptor_info_t *args,
                unsigned arg_count, char **ir) {
  mux_executable_t executable = build(name, local, ir);
  if (!executable) return false;
  mux_kernel_t kernel = create_kernel(executable, name);
  size_t sizes[3] = {local[0] ? local[0] : 16, local[1] ? local[1] : 1, 1};
  size_t offset[2] = {0, 0};
  mux_result_t result =
      run_ndrange(kernel, args, arg_count, (size_t)dims, global, offset, sizes);
  CHECK_SUCCESS(result);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
  return result == mux_success;
}

static void report(const char *name, const uint32_t local[3], int wrong) {
  if (wrong) {
    fprintf(stderr, "%s, local %ux%ux%u: %d wrong\n", name, local[0],
            local[1], local[2], wrong);
  }
  CHECK_INT(0, wrong);
}

/* Lines of `ir` that hold both `a` and `b`. */
static int lines_with(const char *ir, const char *a, const char *b) {
  int count = 0;
  for (const char *line = ir; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    const char *found_a = strstr(line, a), *found_b = strstr(line, b);
    count += found_a && found_b && found_a < line + length &&
             found_b < line + length;
    line = end ? end + 1 : NULL;
  }
  return count;
}

enum { items = 256, points = 256 };

static const uint32_t sizes_1d[][3] = {
    {16, 1, 1}, {64, 1, 1}, {4, 1, 1}, {0, 0, 0}};
#define SIZE_COUNT (sizeof sizes_1d / sizeof sizes_1d[0])

static bool close_to(float got, double want) {
  return fabs(got - want) <= 1e-4 * (fabs(want) + 1.0);
}

/* `pairs` (arg_count 3), or `pairs_guarded` (4) with its bound `count`:
 * the work-items below count run the loop across the lanes; those of the
 * group across it and above it still give each its own result. */
static void test_pairs(const char *name, unsigned arg_count, int32_t count,
                       unsigned lanes) {
  static float pos[points], out[points];
  for (int i = 0; i < points; i++) pos[i] = (float)((i * 37) % 101) / 7.0f;
  host_buffer bpos = host_buffer_create(pos, sizeof pos);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  int32_t n = points;
  char vector_div[32], double_div[32];
  snprintf(vector_div, sizeof vector_div, "<%u x float>", lanes);
  snprintf(double_div, sizeof double_div, "<%u x float>", 2 * lanes);
  for (size_t s = 0; s < SIZE_COUNT; s++) {
    for (int i = 0; i < points; i++) out[i] = -7.0f;
    host_buffer_write(&bout, out);
    mux_descriptor_info_t args[4] = {buffer_arg(&bpos), buffer_arg(&bout),
                                     value_arg(&n, 4), value_arg(&count, 4)};
    size_t global[2] = {points, 1};
    char *ir = NULL;
    if (!run(name, sizes_1d[s], 1, global, args, arg_count, &ir)) continue;
    host_buffer_read(&bout, out);
    int wrong = 0;
    for (int i = 0; i < points; i++) {
      double a = 0.0;
      for (int j = 0; j < points; j++) {
        double d = (double)pos[j] - pos[i];
        a += d / (d * d + 0.5);
      }
      wrong += i < count ? !close_to(out[i], a) : out[i] != -7.0f;
    }
    report(name, sizes_1d[s], wrong);
    if (sizes_1d[s][0] >= 16) {
      /* The host's width, or twice it (two registers a value). */
      int divisions =
          lines_with(ir, "fdiv", vector_div) + lines_with(ir, "fdiv", double_div);
      if (!divisions) {
        fprintf(stderr, "%s, local %u: no fdiv on %s\n", name, sizes_1d[s][0],
                vector_div);
      }
      CHECK(divisions > 0);
    }
    LLVMDisposeMessage(ir);
  }
  host_buffer_destroy(&bpos);
  host_buffer_destroy(&bout);
}

/* One group of 64 at global offset 2^31 - 32: the int id runs up to
 * INT_MAX and wraps to INT_MIN. With limit INT_MIN + 10 the first and
 * last ids pass `i < limit` alike, but ten ids between do not: the
 * group must not take the copy for groups that agree. */
static void test_wrapped_guard(void) {
  enum { count = 64 };
  static float in[count], out[count];
  for (int i = 0; i < count; i++) in[i] = (float)(i % 5);
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  int32_t n = count, limit = INT32_MIN + 10;
  const uint32_t local[3] = {64, 1, 1};
  mux_executable_t executable = build("wrapped_guard", local, NULL);
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, "wrapped_guard");
    mux_descriptor_info_t args[4] = {buffer_arg(&bout), buffer_arg(&bin),
                                     value_arg(&n, 4), value_arg(&limit, 4)};
    size_t global[2] = {count, 1}, offset[2] = {0x7fffffe0u, 0},
           sizes[3] = {64, 1, 1};
    CHECK_SUCCESS(run_ndrange(kernel, args, 4, 1, global, offset, sizes));
    host_buffer_read(&bout, out);
    double sum = 0.0;
    for (int j = 0; j < count; j++) sum += in[j];
    int wrong = 0;
    for (int slot = 0; slot < count; slot++) {
      int32_t i = (int32_t)(uint32_t)(0x7fffffe0u + (unsigned)slot);
      double want = i < limit ? -1.0 : sum * (slot + 1);
      wrong += !close_to(out[slot], want);
    }
    report("wrapped_guard", local, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

/* `matmul_naive` (rows and cols 0: no bounds), or `matmul_guarded` with
 * bounds `rows` and `cols`: products outside them are not written. */
static void test_matmul(const char *name, int32_t rows, int32_t cols,
                        unsigned lanes) {
  enum { n = 64 };
  static float a[n * n], b[n * n], c[n * n];
  for (int i = 0; i < n * n; i++) {
    a[i] = (float)((i * 13) % 17) - 8.0f;
    b[i] = (float)((i * 7) % 11) * 0.5f;
  }
  host_buffer ba = host_buffer_create(a, sizeof a);
  host_buffer bb = host_buffer_create(b, sizeof b);
  host_buffer bc = host_buffer_create(NULL, sizeof c);
  int32_t size = n;
  bool bounded = rows > 0;
  char fma[64], fma2[64];
  snprintf(fma, sizeof fma, "@llvm.fmuladd.v%uf32(", lanes);
  snprintf(fma2, sizeof fma2, "@llvm.fmuladd.v%uf32(", 2 * lanes);
  const uint32_t locals[][3] = {{16, 4, 1}, {64, 1, 1}, {4, 4, 1}, {0, 0, 0}};
  for (size_t s = 0; s < sizeof locals / sizeof locals[0]; s++) {
    for (int i = 0; i < n * n; i++) c[i] = -7.0f;
    host_buffer_write(&bc, c);
    mux_descriptor_info_t args[6] = {buffer_arg(&ba),    buffer_arg(&bb),
                                     buffer_arg(&bc),    value_arg(&size, 4),
                                     value_arg(&rows, 4), value_arg(&cols, 4)};
    size_t global[2] = {n, n};
    char *ir = NULL;
    if (!run(name, locals[s], 2, global, args, bounded ? 6 : 4, &ir)) continue;
    host_buffer_read(&bc, c);
    int wrong = 0;
    for (int row = 0; row < n; row++) {
      for (int col = 0; col < n; col++) {
        double sum = 0.0;
        for (int k = 0; k < n; k++) sum += (double)a[row * n + k] * b[k * n + col];
        bool inside = !bounded || (row < rows && col < cols);
        wrong += inside ? !close_to(c[row * n + col], sum)
                        : c[row * n + col] != -7.0f;
      }
    }
    report(name, locals[s], wrong);
    if (locals[s][0] >= 16) {
      int fmas = lines_with(ir, "call", fma) + lines_with(ir, "call", fma2);
      if (!fmas) fprintf(stderr, "%s: no %s\n", name, fma);
      CHECK(fmas > 0);
    }
    LLVMDisposeMessage(ir);
  }
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
}

static int int_loops_reference(const int32_t *in, int n, int stop, int i,
                               int group) {
  int acc = 0;
  float f = 0.0f;
  for (int j = 0; j < n; j++) {
    acc += in[j] * (i + 1) + (in[(i + j) % n] & 3);
    f += (float)in[j];
  }
  if (i & 1) {
    for (int j = 0; j < n; j++) {
      acc ^= in[j];
      f += 1.0f;
    }
  }
  for (int j = 0; j < n; j++) {
    if (in[j] == i) continue;
    acc -= 1;
    f += 2.0f;
  }
  for (int j = 0; j < n; j++) {
    if (j == stop) break;
    acc += j * i;
    f += (float)j;
  }
  int k = 0;
  while (k < n + group) {
    acc += k++ & i;
    f += 0.5f;
  }
  int hist[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++) {
    hist[in[j] & 3] += i + j;
    f += (float)(hist[j & 3] & 1);
  }
  return acc + hist[0] - hist[1] + hist[2] * 3 - hist[3] + (int)f;
}

/* Runs one of the int kernels taking (out, in, n, extra) over `items`. */
static void run_int_kernel(const char *name, int32_t n, int32_t extra,
                           int (*reference)(const int32_t *, int, int, int,
                                            int)) {
  static int32_t in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = (i * 29) % 67;
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  for (size_t s = 0; s < SIZE_COUNT; s++) {
    mux_descriptor_info_t args[4] = {buffer_arg(&bout), buffer_arg(&bin),
                                     value_arg(&n, 4), value_arg(&extra, 4)};
    size_t global[2] = {items, 1};
    if (!run(name, sizes_1d[s], 1, global, args, 4, NULL)) continue;
    host_buffer_read(&bout, out);
    int local = sizes_1d[s][0] ? (int)sizes_1d[s][0] : 16, wrong = 0;
    for (int i = 0; i < items; i++) {
      wrong += out[i] != reference(in, n, extra, i, i / local);
    }
    report(name, sizes_1d[s], wrong);
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

static int early_exit_reference(const int32_t *in, int n, int limit, int i,
                                int group) {
  (void)group;
  if (i >= limit) return -1;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += (float)(in[j] ^ i);
  return (int)acc;
}

static int guarded_reference(const int32_t *in, int n, int limit, int i,
                             int group) {
  (void)group;
  float acc = 1.0f;
  if (in[i] < limit && n > 3) {
    for (int j = 0; j < n; j++) acc += (float)(in[j] * i);
  }
  return (int)acc;
}

static int window_reference(const int32_t *in, int n, int r, int i,
                            int group) {
  (void)group;
  int acc = 0;
  for (int y = 0; y < r; y++) {
    float row = 0.0f;
    for (int x = 0; x < r; x++) row += (float)(in[(i + y * r + x) % n] * (x + 1));
    acc ^= (int)row + y;
  }
  return acc;
}

static int row_sums_reference(const int32_t *in, int n, int width, int i,
                              int group) {
  (void)n;
  (void)group;
  int sum = 0;
  for (int j = 0; j < width; j++) sum += in[(i % 4) * width + j];
  return sum;
}

/* The integer row sum keeps its own vectorization along the row: no
 * gathers, which running it across the work-items would need. */
static void test_row_sums_left_alone(void) {
  const uint32_t local[3] = {64, 1, 1};
  char *ir = NULL;
  mux_executable_t executable = build("row_sums", local, &ir);
  if (!executable) return;
  int gathers = lines_with(ir, "call", "@llvm.masked.gather");
  int vector_adds = lines_with(ir, "add <", " x i32>");
  if (gathers || !vector_adds) {
    fprintf(stderr, "row_sums: %d gathers, %d vector adds\n", gathers,
            vector_adds);
  }
  CHECK_INT(0, gathers);
  CHECK(vector_adds > 0);
  LLVMDisposeMessage(ir);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s loops.bc\n", argv[0]);
    return 1;
  }
  codegen_test_start();
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  unsigned lanes = cc_target_vector_bits(target) / 32;
  LLVMContextRef context = LLVMContextCreate();
  module = load_bitcode(context, argv[1]);
  test_pairs("pairs", 3, points, lanes);
  /* a bound inside a group of 16 or 64 */
  test_pairs("pairs_guarded", 4, points - 88, lanes);
  test_wrapped_guard();
  test_matmul("matmul_naive", 0, 0, lanes);
  test_matmul("matmul_guarded", 57, 40, lanes);
  run_int_kernel("int_loops", 40, 17, int_loops_reference);
  run_int_kernel("int_loops", 40, 100, int_loops_reference);
  run_int_kernel("early_exit", 40, 100, early_exit_reference);
  run_int_kernel("guarded", 40, 30, guarded_reference);
  run_int_kernel("guarded", 3, 30, guarded_reference);
  run_int_kernel("window", 60, 5, window_reference);
  run_int_kernel("row_sums", 256, 64, row_sums_reference);
  test_row_sums_left_alone();
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

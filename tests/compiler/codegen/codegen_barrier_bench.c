/* Not a test: kernels with barriers through Mux, best and median of
 * several runs — the tiled SGEMM (1024 x 1024, 16 x 16 __local tiles, two
 * barriers per k step) and the __local tree reduction over 16M floats at
 * local size 256 (meson test --benchmark). Bitcode path in argv[1]. */
#include <time.h>

#include "codegen_test.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

enum { runs = 7 };

/* Runs the NDRange `runs` times and prints the best and the median. */
static void time_runs(const char *what, mux_kernel_t kernel,
                      mux_descriptor_info_t *args, uint64_t count, size_t dims,
                      const size_t *global, const size_t local[3],
                      double work, const char *unit) {
  size_t offset[3] = {0, 0, 0};
  double times[runs];
  for (int r = 0; r < runs; r++) {
    double start = now_ms();
    CHECK_SUCCESS(run_ndrange(kernel, args, count, dims, global, offset, local));
    times[r] = now_ms() - start;
  }
  qsort(times, runs, sizeof times[0], compare);
  printf("%-32s best %8.2f ms, median %8.2f ms (%.1f %s)\n", what, times[0],
         times[runs / 2], work / (times[0] * 1e6), unit);
}

static mux_kernel_t build_kernel(const cc_target *target, LLVMModuleRef module,
                                 const char *name, const uint32_t local[3],
                                 mux_executable_t *executable) {
  cc_kernel_request request = {
      name, {local[0], local[1], local[2]}, false, NULL, false, {0, 0, 0}};
  *executable = build_executable(target, module, &request, 1);
  REQUIRE(*executable != NULL);
  return create_kernel(*executable, name);
}

static void bench_sgemm(const cc_target *target, LLVMModuleRef module) {
  enum { n = 1024 };
  float *a = malloc(sizeof(float) * n * n), *b = malloc(sizeof(float) * n * n);
  float *c = malloc(sizeof(float) * n * n);
  REQUIRE(a && b && c);
  for (int i = 0; i < n * n; i++) {
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) - 2.0f;
  }
  host_buffer ba = host_buffer_create(a, sizeof(float) * n * n);
  host_buffer bb = host_buffer_create(b, sizeof(float) * n * n);
  host_buffer bc = host_buffer_create(NULL, sizeof(float) * n * n);
  int32_t size = n;
  mux_descriptor_info_t args[4] = {buffer_arg(&ba), buffer_arg(&bb),
                                   buffer_arg(&bc), value_arg(&size, 4)};
  size_t global[2] = {n, n}, local[3] = {16, 16, 1};
  const uint32_t specialized[3] = {16, 16, 1}, generic[3] = {0, 0, 0};
  const uint32_t *ways[2] = {specialized, generic};
  for (int w = 0; w < 2; w++) {
    mux_executable_t executable = NULL;
    mux_kernel_t kernel =
        build_kernel(target, module, "matmul_tiled", ways[w], &executable);
    time_runs(w ? "sgemm 1024 (generic)" : "sgemm 1024 (16x16)", kernel, args,
              4, 2, global, local, 2.0 * n * n * n, "GFLOP/s");
    host_buffer_read(&bc, c);
    /* Spot checks against the host. */
    int wrong = 0;
    for (int k = 0; k < 64; k++) {
      int row = (k * 37) % n, col = (k * 101) % n;
      float sum = 0.0f;
      for (int i = 0; i < n; i++) sum += a[row * n + i] * b[i * n + col];
      wrong += c[row * n + col] != sum;
    }
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
  free(a);
  free(b);
  free(c);
}

static void bench_reduction(const cc_target *target, LLVMModuleRef module) {
  enum { n = 16 << 20, group = 256 };
  float *in = malloc(sizeof(float) * n), *out = malloc(sizeof(float) * n);
  REQUIRE(in && out);
  for (int i = 0; i < n; i++) in[i] = (float)(i % 9) - 4.0f;
  host_buffer bin = host_buffer_create(in, sizeof(float) * n);
  host_buffer bout = host_buffer_create(NULL, sizeof(float) * (n / group));
  mux_descriptor_info_t args[3] = {buffer_arg(&bin), buffer_arg(&bout),
                                   buffer_arg(&bout)};
  args[2].type = mux_descriptor_info_type_shared_local_buffer;
  args[2].shared_local_buffer_descriptor.size = group * sizeof(float);
  size_t global[1] = {n}, local[3] = {group, 1, 1};
  const uint32_t specialized[3] = {group, 1, 1}, generic[3] = {0, 0, 0};
  const char *names[2] = {"reduce_sum", "reduce_static"};
  for (int k = 0; k < 2; k++) {
    for (int w = 0; w < 2; w++) {
      mux_executable_t executable = NULL;
      mux_kernel_t kernel = build_kernel(target, module, names[k],
                                         w ? generic : specialized,
                                         &executable);
      char what[64];
      snprintf(what, sizeof what, "%s 16M (%s)", names[k],
               w ? "generic" : "256");
      time_runs(what, kernel, args, k == 0 ? 3 : 2, 1, global, local,
                (double)n * sizeof(float), "GB/s");
      host_buffer_read(&bout, out);
      int wrong = 0;
      for (int g = 0; g < n / group; g++) {
        float sum = 0.0f;
        for (int i = 0; i < group; i++) sum += in[g * group + i];
        wrong += out[g] != sum;
      }
      CHECK_INT(0, wrong);
      muxDestroyKernel(device, kernel, mux_test_allocator);
      muxDestroyExecutable(device, executable, mux_test_allocator);
    }
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
  free(in);
  free(out);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s barrier.bc\n", argv[0]);
    return 1;
  }
  codegen_test_start();
  cc_target *target = NULL;
  REQUIRE(cc_target_create_host(&target, NULL) == cc_success);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = load_bitcode(context, argv[1]);
  bench_sgemm(target, module);
  bench_reduction(target, module);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

/* Not a test (meson test --benchmark): vector_add over 16M floats, the
 * compiled OpenCL C kernel (specialized and generic) against the CPU
 * target's built-in C vector_add, same buffers, same local size; prints
 * the best and median of several runs. Bitcode path in argv[1]. */
#include <time.h>

#include "codegen_test.h"

enum { items = 16 << 20, runs = 9, local = 1024 };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void measure(const char *what, mux_kernel_t kernel,
                    mux_descriptor_info_t *args, const host_buffer *out,
                    const float *a, const float *b) {
  double times[runs];
  for (int r = 0; r < runs; r++) {
    double start = now_ms();
    CHECK_SUCCESS(run_1d(kernel, args, 3, items, local));
    times[r] = now_ms() - start;
  }
  qsort(times, runs, sizeof times[0], compare);
  float *c = malloc(out->size);
  REQUIRE(c);
  host_buffer_read(out, c);
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += c[i] != a[i] + b[i];
  CHECK_INT(0, wrong);
  free(c);
  printf("%-28s best %7.2f ms, median %7.2f ms (%.1f GB/s)\n", what, times[0],
         times[runs / 2], 3.0 * items * sizeof(float) / (times[0] * 1e6));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s vector_add.bc\n", argv[0]);
    return 1;
  }
  cc_target *target = NULL;
  REQUIRE(cc_target_create_host(&target, NULL) == cc_success);
  codegen_test_start();
  float *a = malloc(items * sizeof *a), *b = malloc(items * sizeof *b);
  REQUIRE(a && b);
  for (int i = 0; i < items; i++) {
    a[i] = (float)(i % 1000);
    b[i] = (float)(i % 7) * 0.5f;
  }
  host_buffer ba = host_buffer_create(a, items * sizeof *a);
  host_buffer bb = host_buffer_create(b, items * sizeof *b);
  host_buffer bc = host_buffer_create(NULL, items * sizeof *a);
  mux_descriptor_info_t args[3] = {buffer_arg(&ba), buffer_arg(&bb),
                                   buffer_arg(&bc)};
  printf("vector_add, %d floats, local size %d, host %s\n", items, local,
         cc_target_cpu_name(target));

  mux_kernel_t builtin = NULL;
  REQUIRE(muxCreateBuiltInKernel(device, "vector_add", 10, mux_test_allocator,
                                 &builtin) == mux_success);
  measure("built-in C vector_add", builtin, args, &bc, a, b);
  muxDestroyKernel(device, builtin, mux_test_allocator);

  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = load_bitcode(context, argv[1]);
  const uint32_t sizes[2][3] = {{local, 1, 1}, {0, 0, 0}};
  const char *names[2] = {"compiled, specialized 1024", "compiled, generic"};
  for (int s = 0; s < 2; s++) {
    cc_kernel_request request = {
        "vector_add", {sizes[s][0], sizes[s][1], sizes[s][2]},
        false,        NULL,
        false,        {0, 0, 0}};
    double start = now_ms();
    mux_executable_t executable = build_executable(target, module, &request, 1);
    double build = now_ms() - start;
    if (!executable) continue;
    mux_kernel_t kernel = create_kernel(executable, "vector_add");
    printf("(%s: generated, optimized, emitted and loaded in %.1f ms)\n",
           names[s], build);
    measure(names[s], kernel, args, &bc, a, b);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
  free(a);
  free(b);
  cc_target_destroy(target);
  return codegen_test_finish();
}

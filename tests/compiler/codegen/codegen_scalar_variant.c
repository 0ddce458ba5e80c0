/* A kernel whose lanes may leave a loop apart gets a scalar variant
 * (CPU_BINARY_KERNEL_SCALAR_VARIANT) beside its vector code, and each
 * gives the right results: forced to the vector code, forced to the
 * scalar one, and probing (calls alternating between them), at local
 * sizes of whole vectors, of a tail only, and in code for any size. A
 * loop as long in every work-item, or a barrier, gets no variant. */
#include <stdlib.h>

#include "codegen_test.h"
#include "cpu.h"

static cc_target *target;

enum { count = 1680 }; /* a multiple of 16, 7 and 5 */

/* Whether the optimized work-group function of `name` (local size 16)
 * reads wg's variant and branches on it. */
static bool reads_variant(LLVMModuleRef module, const char *name) {
  const uint32_t local[3] = {16, 1, 1};
  char *ir = build_one_ir(target, module, name, local);
  if (!ir) return false;
  bool reads = strstr(ir, "%variant = load i32") != NULL;
  LLVMDisposeMessage(ir);
  return reads;
}

static bool has_variant(LLVMModuleRef module, const char *name) {
  mux_executable_t executable = build_executable_1d(target, module, name, 16);
  if (!executable) return false;
  mux_kernel_t kernel = create_kernel(executable, name);
  bool variant = ((cpu_kernel *)kernel)->scalar_variant;
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
  return variant;
}

enum mode { vector_code, scalar_code, probe };

static void test_rows(LLVMModuleRef module) {
  static uint32_t start[count + 1], value[count * 40], out[count],
      expected[count];
  start[0] = 0;
  for (uint32_t r = 0; r < count; r++) {
    /* Mostly short rows, now and then a long one. */
    uint32_t length = (r * 7919u) % 13u + (r % 29u == 0 ? 300u : 0u);
    start[r + 1] = start[r] + length;
  }
  for (uint32_t k = 0; k < start[count]; k++) value[k] = k * 2654435761u;
  for (uint32_t r = 0; r < count; r++) {
    uint32_t s = 0;
    for (uint32_t k = start[r]; k < start[r + 1]; k++) s += value[k] * (k % 7);
    expected[r] = s;
  }
  host_buffer bs = host_buffer_create(start, sizeof start);
  host_buffer bv = host_buffer_create(value, sizeof value);
  host_buffer bo = host_buffer_create(NULL, sizeof out);
  mux_descriptor_info_t args[3] = {buffer_arg(&bs), buffer_arg(&bv),
                                   buffer_arg(&bo)};
  const uint32_t built[] = {16, 7, 0, 0};
  const size_t run[] = {16, 7, 16, 5};
  for (int t = 0; t < 4; t++) {
    mux_executable_t executable =
        build_executable_1d(target, module, "rows", built[t]);
    if (!executable) continue;
    mux_kernel_t kernel = create_kernel(executable, "rows");
    cpu_kernel *cpu = (cpu_kernel *)kernel;
    CHECK(cpu->scalar_variant);
    for (int mode = vector_code; mode <= probe; mode++) {
      if (mode == probe) {
        cpu_variant_init(&cpu->variant);
      } else {
        atomic_store(&cpu->variant.probing, 0);
        atomic_store(&cpu->variant.launches_left, 1000);
        atomic_store(&cpu->variant.current, (uint32_t)mode);
      }
      /* A probe counts a thread's calls after its first of each variant. */
      int wrong = 0;
      for (int launch = 0; launch < (mode == probe ? 4 : 1); launch++) {
        memset(out, 0, sizeof out);
        host_buffer_write(&bo, out);
        CHECK_SUCCESS(run_1d(kernel, args, 3, count, run[t]));
        host_buffer_read(&bo, out);
        for (int i = 0; i < count; i++) wrong += out[i] != expected[i];
      }
      if (wrong) {
        fprintf(stderr, "rows, local %zu, mode %d: %d wrong\n", run[t], mode,
                wrong);
      }
      CHECK_INT(0, wrong);
    }
    /* The probe ran calls of both. */
    CHECK(atomic_load(&cpu->variant.taken[0]) > 0);
    CHECK(atomic_load(&cpu->variant.taken[1]) > 0);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&bs);
  host_buffer_destroy(&bv);
  host_buffer_destroy(&bo);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s variant.bc\n", argv[0]);
    return 1;
  }
  cc_log log = {""};
  if (cc_target_create_host(&target, &log) != cc_success) {
    fprintf(stderr, "%s\n", log.text);
    return 1;
  }
  codegen_test_start();
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = load_bitcode(context, argv[1]);
  REQUIRE(module);
  test_rows(module);
  CHECK(reads_variant(module, "rows"));
  CHECK(!reads_variant(module, "uniform_rows"));
  CHECK(!has_variant(module, "uniform_rows"));
  CHECK(!has_variant(module, "rows_barrier"));
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

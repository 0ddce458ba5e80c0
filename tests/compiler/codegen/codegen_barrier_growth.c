/* Kernels with 17 and 65 barriers (kernels/barrier_chain.cl, bitcode path
 * in argv), built by cc_codegen_build for a local size of 64 and run
 * through Mux against a host reference. The code made for them must be
 * about linear in the number of barriers: 4x the steps, at most 4.8x the
 * instructions after the work-group loops were built and after the
 * optimizer. (Reading every barrier's flag after every region made it
 * quadratic: 9x, and seconds of compile time at 100 barriers.) */
#include "codegen_test.h"
#include "stages.h"

enum { items = 1024, local = 64 };

static cc_target *target;
static LLVMModuleRef module;

static uint32_t input(uint32_t i) { return i * 2654435761u; }

/* The kernel `steps` steps long for work-group `group`'s items. */
static void reference(unsigned steps, uint32_t group, uint32_t *out) {
  uint32_t v[local], lm[local];
  for (uint32_t l = 0; l < local; l++) lm[l] = v[l] = input(group * local + l);
  for (unsigned k = 0; k < steps; k++) {
    for (uint32_t l = 0; l < local; l++) {
      uint32_t gid = group * local + l;
      v[l] = (v[l] * 3u + lm[(l + k) % local]) ^ (v[l] >> 3);
      if (v[l] & 4u) v[l] += input((gid + k) % items);
    }
    for (uint32_t l = 0; l < local; l++) lm[l] = v[l];
  }
  for (uint32_t l = 0; l < local; l++) {
    out[l] = v[l] + lm[(l + 1) % local];
  }
}

/* Builds and runs `name`; the optimized module's instructions. */
static uint64_t build_and_run(const char *name, unsigned steps) {
  const uint32_t local_size[3] = {local, 1, 1};
  size_t size = 0;
  LLVMModuleRef built = NULL;
  uint8_t *binary = build_one(target, module, name, local_size, &size, &built);
  if (!binary) return 0;
  uint64_t instructions = cc_module_instructions(built);
  LLVMDisposeModule(built);
  mux_executable_t executable = NULL;
  REQUIRE(muxCreateExecutable(device, binary, size, mux_test_allocator,
                              &executable) == mux_success);
  free(binary);
  mux_kernel_t kernel = create_kernel(executable, name);
  static uint32_t in[items], out[items], want[local];
  for (uint32_t i = 0; i < items; i++) in[i] = input(i);
  host_buffer in_buffer = host_buffer_create(in, sizeof in);
  host_buffer out_buffer = host_buffer_create(NULL, sizeof out);
  uint32_t count = items;
  mux_descriptor_info_t args[3] = {buffer_arg(&in_buffer),
                                   buffer_arg(&out_buffer),
                                   value_arg(&count, sizeof count)};
  CHECK_SUCCESS(run_1d(kernel, args, 3, items, local));
  host_buffer_read(&out_buffer, out);
  int wrong = 0;
  for (uint32_t group = 0; group < items / local; group++) {
    reference(steps, group, want);
    for (uint32_t l = 0; l < local; l++) {
      wrong += out[group * local + l] != want[l];
    }
  }
  if (wrong) fprintf(stderr, "%s: %d items wrong\n", name, wrong);
  CHECK_INT(0, wrong);
  host_buffer_destroy(&in_buffer);
  host_buffer_destroy(&out_buffer);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
  return instructions;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s barrier_chain.bc\n", argv[0]);
    return 1;
  }
  codegen_test_start();
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  LLVMContextRef context = LLVMContextCreate();
  module = load_bitcode(context, argv[1]);
  uint64_t short_chain = build_and_run("chain8", 8);
  uint64_t long_chain = build_and_run("chain32", 32);
  printf("instructions after the optimizer: 8 steps %llu, 32 steps %llu\n",
         (unsigned long long)short_chain, (unsigned long long)long_chain);
  CHECK(short_chain > 0 && long_chain * 10 <= short_chain * 48);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

/* A hash kernel on uint16 values (kernels/wide_vectors.cl, bitcode path in
 * argv) built by cc_codegen_build for local sizes 1 and 16 and run through
 * Mux against a host reference. At local size 1 the whole-function
 * vectorizer has no rows to widen, and the uint16 values must stay whole:
 * the work-group function then holds about as many instructions as the
 * body the vectorizer was given (stages.h counts both). Split into
 * scalars, this kernel grew 4x there, and hashcat's NetNTLMv2 kernel 8x,
 * which took its back-end four minutes and ran it 5x slower. */
#include "codegen_test.h"
#include "stages.h"

enum { items = 64 };

static cc_target *target;
static LLVMModuleRef module;

static uint32_t input(uint32_t i) { return i * 2654435761u + 12345u; }

static uint32_t rotate_left(uint32_t x, unsigned n) {
  return x << n | x >> (32 - n);
}

/* kernels/wide_vectors.cl for one component `lane` of work-item `gid`'s
 * candidates: a and d after the 64 steps. */
static void md5_like(const uint32_t *in, uint32_t gid, uint32_t lane,
                     uint32_t *a_out, uint32_t *d_out) {
  static const unsigned shift[4][4] = {
      {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
  uint32_t w[16], v[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  for (int i = 0; i < 16; i++) w[i] = in[gid * 16 + i] + lane;
  for (unsigned r = 0; r < 4; r++) {
    for (unsigned i = 0; i < 16; i++) {
      unsigned word = r == 0   ? i
                      : r == 1 ? (1 + 5 * i) % 16
                      : r == 2 ? (5 + 3 * i) % 16
                               : 7 * i % 16;
      /* Steps rotate the roles: a, then d, c, b. */
      uint32_t *a = &v[(4 - i % 4) % 4], b = v[(5 - i % 4) % 4],
               c = v[(6 - i % 4) % 4], d = v[(7 - i % 4) % 4];
      uint32_t f = (b & c) | (~b & d);
      *a = b + rotate_left(*a + f + w[word] + (r * 16 + i) * 0x9e3779b9u,
                           shift[r][i % 4]);
    }
  }
  *a_out = v[0];
  *d_out = v[3];
}

static uint32_t reference(const uint32_t *in, const uint32_t *key,
                          uint32_t gid, uint32_t group) {
  uint32_t found = key[0] + group;
  for (uint32_t lane = 0; lane < 16; lane++) {
    uint32_t a, d;
    md5_like(in, gid, lane, &a, &d);
    if (a == key[1]) {
      found |= 1u << lane;
    } else {
      found += a ^ d;
    }
  }
  return found;
}

/* Builds rounds16 for `local` items a group and runs it; the growth of the
 * work-group loops stage over the body the vectorizer was given. */
static double build_and_run(uint32_t local) {
  const uint32_t local_size[3] = {local, 1, 1};
  size_t size = 0;
  cc_stages_start("rounds16", local_size);
  uint8_t *binary =
      build_one(target, module, "rounds16", local_size, &size, NULL);
  int64_t given = cc_stage_instructions("vectorize");
  int64_t loops = cc_stage_instructions("work-group loops");
  cc_stages_finish();
  if (!binary) return 0;
  CHECK(given > 0 && loops > 0);
  mux_executable_t executable = NULL;
  REQUIRE(muxCreateExecutable(device, binary, size, mux_test_allocator,
                              &executable) == mux_success);
  free(binary);
  mux_kernel_t kernel = create_kernel(executable, "rounds16");
  static uint32_t in[items * 16], out[items];
  /* The first lane of item 5 matches key[1]. */
  uint32_t key[2] = {77, 0};
  for (uint32_t i = 0; i < items * 16; i++) in[i] = input(i);
  uint32_t d;
  md5_like(in, 5, 0, &key[1], &d);
  host_buffer in_buffer = host_buffer_create(in, sizeof in);
  host_buffer out_buffer = host_buffer_create(NULL, sizeof out);
  host_buffer key_buffer = host_buffer_create(key, sizeof key);
  mux_descriptor_info_t args[3] = {buffer_arg(&in_buffer),
                                   buffer_arg(&out_buffer),
                                   buffer_arg(&key_buffer)};
  CHECK_SUCCESS(run_1d(kernel, args, 3, items, local));
  host_buffer_read(&out_buffer, out);
  int wrong = 0;
  for (uint32_t gid = 0; gid < items; gid++) {
    wrong += out[gid] != reference(in, key, gid, gid / local);
  }
  if (wrong) fprintf(stderr, "local %u: %d items wrong\n", local, wrong);
  CHECK_INT(0, wrong);
  host_buffer_destroy(&in_buffer);
  host_buffer_destroy(&out_buffer);
  host_buffer_destroy(&key_buffer);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
  printf("local size %u: %lld instructions given to the vectorizer, %lld "
         "after the work-group loops\n",
         local, (long long)given, (long long)loops);
  return given > 0 ? (double)loops / (double)given : 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s wide_vectors.bc\n", argv[0]);
    return 1;
  }
  setenv("CLMUX_DEBUG", "1", 1); /* the stage record counts instructions */
  codegen_test_start();
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  LLVMContextRef context = LLVMContextCreate();
  module = load_bitcode(context, argv[1]);
  double growth = build_and_run(1);
  CHECK(growth > 0 && growth < 1.5);
  build_and_run(16);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

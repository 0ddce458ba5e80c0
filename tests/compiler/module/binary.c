/* CL_PROGRAM_BINARIES through cc_module_serialize/deserialize: every kind
 * survives the round trip with its options and kernels, a reloaded
 * executable specializes and runs through Mux against a host reference,
 * reloaded objects and libraries link, and damaged bytes are refused. */
#include "module_test.h"

static const char *const source =
    "kernel void poly(global const int *in, global int *out, int k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * in[i] + k * in[i] - 3;\n"
    "}\n"
    "int helper(int x) { return x ^ 0x55; }\n";

enum { items = 200 };

static cc_module *round_trip(cc_module *module) {
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_serialize(module, &bytes, &size));
  REQUIRE(bytes && size > 40);
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *copy = cc_module_deserialize(bytes, size, &log, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  if (!copy) fprintf(stderr, "deserialize: %s\n", log ? log : "");
  free(log);
  free(bytes);
  REQUIRE(copy);
  CHECK_INT(cc_module_get_kind(module), cc_module_get_kind(copy));
  CHECK(strcmp(cc_module_options(module), cc_module_options(copy)) == 0);
  CHECK_INT(cc_module_option_flags(module), cc_module_option_flags(copy));
  CHECK_INT(cc_module_kernel_count(module), cc_module_kernel_count(copy));
  return copy;
}

static void run_poly(cc_module *module, uint32_t local) {
  static int32_t in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = i * 7 - 300;
  int32_t k = 5;
  const uint32_t size[3] = {local, 1, 1};
  mux_executable_t executable = load_specialized(module, "poly", size);
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "poly");
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  mux_descriptor_info_t args[3] = {buffer_arg(&bin), buffer_arg(&bout),
                                   value_arg(&k, sizeof k)};
  CHECK_SUCCESS(run_1d(kernel, args, 3, items, local));
  host_buffer_read(&bout, out);
  int wrong = 0;
  for (int i = 0; i < items; i++)
    wrong += out[i] != in[i] * in[i] + k * in[i] - 3;
  CHECK_INT(0, wrong);
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static void test_round_trips(void) {
  cc_module *object = compile_ok(source, "-cl-kernel-arg-info -DUNUSED=1");
  cc_module *object_copy = round_trip(object);
  CHECK(cc_module_find_kernel(object_copy, "poly")->arg_info);
  CHECK(strcmp(cc_module_find_kernel(object_copy, "poly")->args[2].name, "k") ==
        0);

  cc_module *library = link_ok(&object_copy, 1, "-create-library");
  cc_module *library_copy = round_trip(library);
  CHECK_INT(CC_MODULE_LIBRARY, cc_module_get_kind(library_copy));

  cc_module *executable = link_ok(&library_copy, 1, NULL);
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(executable, NULL));
  run_poly(executable, 8);
  cc_module *executable_copy = round_trip(executable);
  CHECK_INT(CC_MODULE_EXECUTABLE, cc_module_get_kind(executable_copy));
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(executable_copy, NULL));
  run_poly(executable_copy, 8);
  run_poly(executable_copy, 20);
  CHECK_INT(2, cc_module_build_count(executable_copy));

  cc_module_destroy(executable_copy);
  cc_module_destroy(executable);
  cc_module_destroy(library_copy);
  cc_module_destroy(library);
  cc_module_destroy(object_copy);
  cc_module_destroy(object);
}

/* Expects `bytes` to be refused cleanly. */
static int refused(const uint8_t *bytes, size_t size) {
  char *log = NULL;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *module = cc_module_deserialize(bytes, size, &log, &result);
  int ok = module == NULL && result == CC_MODULE_INVALID_BINARY && log &&
           strstr(log, "error:") != NULL;
  cc_module_destroy(module);
  free(log);
  return ok;
}

/* The format's checksum: FNV-1a 64 over bytes 0..31 and the payload. */
static uint64_t checksum(const uint8_t *bytes, size_t size) {
  uint64_t hash = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < size; i++) {
    if (i >= 32 && i < 40) continue;
    hash = (hash ^ bytes[i]) * UINT64_C(0x100000001b3);
  }
  return hash;
}

/* Rewrites the header's lengths and checksum for a changed payload, so the
 * damage reaches the bitcode reader. */
static void reseal(uint8_t *bytes, size_t size, size_t options_length) {
  uint64_t code = size - 40 - options_length;
  for (int i = 0; i < 8; i++) bytes[24 + i] = (uint8_t)(code >> (8 * i));
  uint64_t hash = checksum(bytes, size);
  for (int i = 0; i < 8; i++) bytes[32 + i] = (uint8_t)(hash >> (8 * i));
}

static void test_corrupt(void) {
  cc_module *object = compile_ok(source, "-DA=1");
  cc_module *executable = link_ok(&object, 1, NULL);
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_serialize(executable, &bytes, &size));
  REQUIRE(bytes);
  uint8_t *damaged = malloc(size);
  REQUIRE(damaged);

  int bad = 0;
  for (size_t length = 0; length < size; length++) {
    bad += !refused(bytes, length);
  }
  CHECK_INT(0, bad);
  bad = 0;
  for (size_t at = 0; at < size; at++) {
    memcpy(damaged, bytes, size);
    damaged[at] ^= (uint8_t)(1u << (at % 8));
    bad += !refused(damaged, size);
  }
  CHECK_INT(0, bad);
  CHECK(refused(NULL, 0));
  CHECK(refused((const uint8_t *)"CLMUXMOD", 8));
  CHECK(refused((const uint8_t *)"CLMUXEXE and more bytes than a header has!",
                43));

  /* Damage behind a valid header and checksum: the bitcode reader and the
   * verifier refuse it. Options "-DA=1" are 5 bytes. */
  const size_t options_length = 5;
  size_t cuts[] = {40 + options_length,
                   40 + options_length + 3,
                   40 + options_length + 64,
                   size / 2,
                   size - 4,
                   size - 1};
  bad = 0;
  for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
    memcpy(damaged, bytes, cuts[c]);
    reseal(damaged, cuts[c], options_length);
    bad += !refused(damaged, cuts[c]);
  }
  CHECK_INT(0, bad);
  memcpy(damaged, bytes, size);
  for (size_t at = 40 + options_length; at < size; at += 3) {
    damaged[at] = (uint8_t)(at * 131);
  }
  reseal(damaged, size, options_length);
  CHECK(refused(damaged, size));
  /* A kind out of range. */
  memcpy(damaged, bytes, size);
  damaged[12] = 9;
  CHECK(refused(damaged, size));

  /* The undamaged bytes still load. */
  cc_module *fine = cc_module_deserialize(bytes, size, NULL, NULL);
  CHECK(fine != NULL);
  cc_module_destroy(fine);
  free(damaged);
  free(bytes);
  cc_module_destroy(executable);
  cc_module_destroy(object);
}

int main(void) {
  codegen_test_start();
  test_round_trips();
  test_corrupt();
  return codegen_test_finish();
}

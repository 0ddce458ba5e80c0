/* The codegen interface without running anything: argument layouts as the
 * work-group ABI defines them, the shape of a generated module, that the
 * source module is left alone, static __local and scratch sizes, and
 * every refusal — unknown kernels,
 * bad local sizes and symbols, bad container requests. Bitcode paths in argv: args,
 * unsupported. */
#include <clmux/cpu_abi/binary_format.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "check.h"
#include "codegen.h"

static void test_layout(LLVMModuleRef args) {
  cc_kernel_info info;
  cc_log log = {""};
  REQUIRE(cc_codegen_kernel_info(args, "args", &info, &log) == cc_success);
  /* out, params (24 bytes), float4, float3 (16), uchar, in, short. */
  const cc_arg_layout expected[7] = {
      {cc_arg_global_pointer, 8, 0}, {cc_arg_value, 24, 32},
      {cc_arg_value, 16, 64},        {cc_arg_value, 16, 80},
      {cc_arg_value, 1, 96},         {cc_arg_global_pointer, 8, 104},
      {cc_arg_value, 2, 112}};
  CHECK_INT(7, info.arg_count);
  for (uint32_t i = 0; i < info.arg_count && i < 7; i++) {
    CHECK_INT(expected[i].kind, info.args[i].kind);
    CHECK_INT(expected[i].size, info.args[i].size);
    CHECK_INT(expected[i].offset, info.args[i].offset);
  }
  CHECK_INT(114, info.args_size);
  CHECK(info.reqd_local_size[0] == 0 && info.reqd_local_size[2] == 0);
  cc_kernel_info_release(&info);
  CHECK_INT(cc_error_no_kernel,
            cc_codegen_kernel_info(args, "pick", &info, &log));
  CHECK(strstr(log.text, "pick") != NULL);
  CHECK(info.args == NULL && info.arg_count == 0);
}

/* Static __local bytes and the scratch bound before specialization. */
static void test_memory_sizes(LLVMModuleRef unsupported) {
  static const struct {
    const char *name;
    uint64_t local;
    bool scratch;
  } kernels[] = {{"with_local", 256, false},
                 {"local_arg", 0, false},
                 {"fine", 0, false},
                 {"with_barrier", 0, true},
                 {"calls_barrier", 0, true}};
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    cc_kernel_info info;
    REQUIRE(cc_codegen_kernel_info(unsupported, kernels[k].name, &info,
                                   NULL) == cc_success);
    CHECK_INT(kernels[k].local, info.local_memory_size);
    CHECK(kernels[k].scratch == (info.scratch_size > 0));
    CHECK_INT(0, info.scratch_size % 16);
    cc_kernel_info_release(&info);
  }
}

static void test_layout_kinds(LLVMModuleRef unsupported) {
  cc_kernel_info info;
  REQUIRE(cc_codegen_kernel_info(unsupported, "local_arg", &info, NULL) ==
          cc_success);
  CHECK_INT(2, info.arg_count);
  CHECK_INT(cc_arg_local_pointer, info.args[1].kind);
  CHECK_INT(8, info.args[1].offset);
  cc_kernel_info_release(&info);
  REQUIRE(cc_codegen_kernel_info(unsupported, "fixed", &info, NULL) ==
          cc_success);
  CHECK(info.reqd_local_size[0] == 8 && info.reqd_local_size[1] == 2 &&
        info.reqd_local_size[2] == 1);
  cc_kernel_info_release(&info);
}

/* One external definition, the symbol, of type void(ptr, ptr). */
static void test_module_shape(LLVMModuleRef args) {
  char *before = LLVMPrintModuleToString(args);
  const uint32_t local[3] = {8, 1, 1};
  LLVMModuleRef out = NULL;
  cc_log log = {""};
  CHECK_INT(cc_success,
            cc_codegen_work_group(args, "args", local, "wg_args", &out, &log));
  REQUIRE(out != NULL);
  char *after = LLVMPrintModuleToString(args);
  CHECK(strcmp(before, after) == 0); /* the source is untouched */
  LLVMDisposeMessage(before);
  LLVMDisposeMessage(after);
  CHECK(!LLVMVerifyModule(out, LLVMReturnStatusAction, NULL));
  int external = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(out); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage) {
      external++;
    }
  }
  CHECK_INT(1, external);
  LLVMValueRef wg = LLVMGetNamedFunction(out, "wg_args");
  REQUIRE(wg != NULL);
  CHECK_INT(2, LLVMCountParams(wg));
  CHECK(LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(wg))) ==
        LLVMVoidTypeKind);
  CHECK(LLVMGetNamedFunction(out, "args") == NULL);
  CHECK(LLVMGetNamedFunction(out, "_Z13get_global_idj") == NULL);
  LLVMDisposeModule(out);
}

static void expect_refusal(LLVMModuleRef module, const char *name,
                           const uint32_t local[3], const char *symbol,
                           cc_status expected, const char *why) {
  LLVMModuleRef out = NULL;
  cc_log log = {""};
  cc_status status =
      cc_codegen_work_group(module, name, local, symbol, &out, &log);
  if (status != expected) {
    fprintf(stderr, "%s: got %d (%s)\n", name, (int)status, log.text);
  }
  CHECK_INT(expected, status);
  CHECK((out != NULL) == (expected == cc_success));
  if (out) LLVMDisposeModule(out);
  if (why) CHECK(strstr(log.text, why) != NULL);
}

static void test_refusals(LLVMModuleRef args, LLVMModuleRef unsupported) {
  const uint32_t local[3] = {16, 1, 1}, generic[3] = {0, 0, 0},
                 partial[3] = {4, 0, 1}, other[3] = {4, 4, 1};
  /* What earlier steps refused now builds. */
  expect_refusal(unsupported, "with_image", local, "wg", cc_success, NULL);
  expect_refusal(unsupported, "with_barrier", local, "wg", cc_success, NULL);
  expect_refusal(unsupported, "calls_barrier", generic, "wg", cc_success,
                 NULL);
  expect_refusal(unsupported, "with_local", local, "wg", cc_success, NULL);
  expect_refusal(unsupported, "missing", local, "wg", cc_error_no_kernel, NULL);
  expect_refusal(unsupported, "sync_helper", local, "wg", cc_error_no_kernel,
                 NULL);
  expect_refusal(args, "args", partial, "wg", cc_error_invalid_value, NULL);
  expect_refusal(unsupported, "fixed", other, "wg", cc_error_invalid_value,
                 "required");
  expect_refusal(args, "args", local, "pick", cc_error_invalid_value, NULL);
  expect_refusal(args, "args", local, "", cc_error_invalid_value, NULL);
  /* A supported kernel of the same module still builds. */
  expect_refusal(unsupported, "fine", local, "wg", cc_success, NULL);

  /* cc_codegen_build passes refusals on and leaves nothing behind. */
  cc_target *target = NULL;
  REQUIRE(cc_target_create_host(&target, NULL) == cc_success);
  cc_kernel_request requests[2] = {{"fine", {16, 1, 1}, false, NULL, false, {0, 0, 0}},
                                   {"missing", {0, 0, 0}, false, NULL, false, {0, 0, 0}}};
  uint8_t *binary = (uint8_t *)1;
  size_t size = 1;
  LLVMModuleRef module = (LLVMModuleRef)1;
  CHECK_INT(cc_error_no_kernel,
            cc_codegen_build(target, unsupported, requests, 2, &binary, &size,
                             &module, NULL));
  CHECK(binary == NULL && size == 0 && module == NULL);
  CHECK_INT(cc_error_invalid_value,
            cc_codegen_build(target, unsupported, requests, 0, &binary, &size,
                             NULL, NULL));
  cc_target_destroy(target);
}

static uint32_t get_u32(const uint8_t *at) {
  return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 |
         (uint32_t)at[3] << 24;
}

static void test_binary_writer(void) {
  const uint8_t object[5] = {1, 2, 3, 4, 5};
  cc_binary_kernel kernels[2] = {
      {"a", "sym_a", 0, 0, {64, 1, 1}, {0, 0, 0}, 0, 1},
      {"bb", "sym_bb", 256, 4, {8, 2, 1}, {8, 2, 1},
       CPU_BINARY_KERNEL_MERGES_GROUPS, 16}};
  uint8_t *out = NULL;
  size_t size = 0;
  REQUIRE(cc_binary_write(kernels, 2, object, 5, &out, &size, NULL) ==
          cc_success);
  CHECK(memcmp(out, CPU_BINARY_MAGIC, CPU_BINARY_MAGIC_SIZE) == 0);
  CHECK_INT(CPU_BINARY_VERSION, get_u32(out + cpu_binary_header_version));
  CHECK_INT(2, get_u32(out + cpu_binary_header_kernel_count));
  uint32_t object_at = get_u32(out + cpu_binary_header_object_offset);
  CHECK_INT(0, object_at % 16);
  CHECK_INT(size, object_at + 5);
  CHECK(memcmp(out + object_at, object, 5) == 0);
  const uint8_t *second = out + CPU_BINARY_HEADER_SIZE + CPU_BINARY_KERNEL_SIZE;
  uint32_t strings = get_u32(out + cpu_binary_header_strings_offset);
  CHECK(strcmp((const char *)out + strings +
                   get_u32(second + cpu_binary_kernel_symbol_offset),
               "sym_bb") == 0);
  CHECK_INT(256, get_u32(second + cpu_binary_kernel_local_memory));
  CHECK_INT(2, get_u32(second + cpu_binary_kernel_required_local_size + 4));
  CHECK_INT(CPU_BINARY_KERNEL_MERGES_GROUPS,
            get_u32(second + cpu_binary_kernel_flags));
  CHECK_INT(16, get_u32(second + cpu_binary_kernel_sub_group_size));
  free(out);

  cc_binary_kernel bad[2] = {kernels[0], kernels[0]};
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(bad, 2, object, 5, &out, &size, NULL));
  bad[1] = kernels[1];
  bad[1].preferred_local_size[2] = 0;
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(bad, 2, object, 5, &out, &size, NULL));
  bad[1] = kernels[1];
  bad[1].required_local_size[1] = 0;
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(bad, 2, object, 5, &out, &size, NULL));
  bad[1] = kernels[1];
  bad[1].flags = 0x80; /* no such flag */
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(bad, 2, object, 5, &out, &size, NULL));
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(kernels, 0, object, 5, &out, &size, NULL));
  CHECK_INT(cc_error_invalid_value,
            cc_binary_write(kernels, 1, object, 0, &out, &size, NULL));
  CHECK(out == NULL && size == 0);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s args.bc unsupported.bc\n", argv[0]);
    return 1;
  }
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef args = load_bitcode(context, argv[1]);
  LLVMModuleRef unsupported = load_bitcode(context, argv[2]);
  test_layout(args);
  test_layout_kinds(unsupported);
  test_memory_sizes(unsupported);
  test_module_shape(args);
  test_refusals(args, unsupported);
  test_binary_writer();
  LLVMDisposeModule(args);
  LLVMDisposeModule(unsupported);
  LLVMContextDispose(context);
  return check_finish();
}

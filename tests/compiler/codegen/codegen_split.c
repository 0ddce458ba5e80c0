/* Splitting a program into one module per kernel (cc_codegen_split) and
 * the pruning every build does first: the source stays as it was, each
 * part holds its kernel (still external) and no other kernel it does not
 * call, describes it the same way, and builds into the very same
 * container as the whole program does — for kernels sharing helpers,
 * __local variables declared among other kernels' and a kernel calling
 * another. Bitcode paths in argv: barrier, vector_add. */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "build_one.h"
#include "check.h"
#include "codegen.h"

enum { max_kernels = 64 };

static bool is_kernel(LLVMValueRef f) {
  return !LLVMIsDeclaration(f) &&
         LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

static unsigned kernel_names(LLVMModuleRef module, const char **names) {
  unsigned count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    if (is_kernel(f) && count < max_kernels) {
      names[count++] = LLVMGetValueName2(f, &length);
    }
  }
  return count;
}

static unsigned function_count(LLVMModuleRef module) {
  unsigned count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    count++;
  }
  return count;
}

static void check_same_info(LLVMModuleRef whole, LLVMModuleRef part,
                            const char *name) {
  cc_kernel_info a, b;
  REQUIRE(cc_codegen_kernel_info(whole, name, &a, NULL) == cc_success);
  REQUIRE(cc_codegen_kernel_info(part, name, &b, NULL) == cc_success);
  CHECK_INT(a.arg_count, b.arg_count);
  CHECK_INT(a.args_size, b.args_size);
  CHECK_INT(a.local_memory_size, b.local_memory_size);
  CHECK_INT(a.scratch_size, b.scratch_size);
  CHECK(memcmp(a.reqd_local_size, b.reqd_local_size,
               sizeof a.reqd_local_size) == 0);
  for (uint32_t i = 0; i < a.arg_count && i < b.arg_count; i++) {
    CHECK_INT(a.args[i].kind, b.args[i].kind);
    CHECK_INT(a.args[i].size, b.args[i].size);
    CHECK_INT(a.args[i].offset, b.args[i].offset);
  }
  cc_kernel_info_release(&a);
  cc_kernel_info_release(&b);
}

/* Only `name` is a kernel with external linkage; another kernel may be
 * left only as an internal helper it calls. */
static void check_only_kernel(LLVMModuleRef part, const char *name) {
  unsigned external = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(part); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    if (!is_kernel(f) || LLVMGetLinkage(f) == LLVMInternalLinkage) continue;
    external++;
    CHECK(strcmp(LLVMGetValueName2(f, &length), name) == 0);
  }
  CHECK_INT(1, external);
  char *message = NULL;
  CHECK(!LLVMVerifyModule(part, LLVMReturnStatusAction, &message));
  LLVMDisposeMessage(message);
}

static void check_same_binary(const cc_target *target, LLVMModuleRef whole,
                              LLVMModuleRef part, const char *name,
                              uint32_t size) {
  cc_kernel_request request = {
      name, {size, size ? 2 : 0, size ? 1 : 0}, false, NULL, false, {0, 0, 0}};
  cc_log log = {""};
  uint8_t *a = NULL, *b = NULL;
  size_t a_size = 0, b_size = 0;
  cc_status whole_status =
      cc_codegen_build(target, whole, &request, 1, &a, &a_size, NULL, &log);
  cc_status part_status =
      cc_codegen_build(target, part, &request, 1, &b, &b_size, NULL, &log);
  CHECK_INT(whole_status, part_status);
  if (whole_status == cc_success && part_status == cc_success) {
    CHECK_INT(a_size, b_size);
    CHECK(a_size == b_size && memcmp(a, b, a_size) == 0);
  } else {
    fprintf(stderr, "%s: %s\n", name, log.text);
  }
  free(a);
  free(b);
}

static void test_split(const cc_target *target, LLVMModuleRef whole) {
  const char *names[max_kernels];
  unsigned count = kernel_names(whole, names);
  REQUIRE(count >= 2);
  unsigned functions = function_count(whole);
  LLVMModuleRef parts[max_kernels];
  cc_log log = {""};
  REQUIRE(cc_codegen_split(whole, names, count, parts, &log) == cc_success);
  CHECK_INT(functions, function_count(whole));
  CHECK_INT(count, kernel_names(whole, names));
  for (unsigned i = 0; i < count; i++) {
    REQUIRE(parts[i]);
    CHECK(LLVMGetModuleContext(parts[i]) == LLVMGetModuleContext(whole));
    check_only_kernel(parts[i], names[i]);
    check_same_info(whole, parts[i], names[i]);
    check_same_binary(target, whole, parts[i], names[i], i % 2 ? 0 : 16);
  }
  for (unsigned i = 0; i < count; i++) LLVMDisposeModule(parts[i]);
}

/* A subset, in any order, and one kernel alone. */
static void test_subset(LLVMModuleRef whole) {
  const char *names[max_kernels];
  unsigned count = kernel_names(whole, names);
  REQUIRE(count >= 3);
  const char *picked[2] = {names[count - 1], names[0]};
  LLVMModuleRef parts[2];
  REQUIRE(cc_codegen_split(whole, picked, 2, parts, NULL) == cc_success);
  check_only_kernel(parts[0], picked[0]);
  check_only_kernel(parts[1], picked[1]);
  LLVMDisposeModule(parts[0]);
  LLVMDisposeModule(parts[1]);
  REQUIRE(cc_codegen_split(whole, picked, 1, parts, NULL) == cc_success);
  check_only_kernel(parts[0], picked[0]);
  LLVMDisposeModule(parts[0]);
}

static void test_refusals(LLVMModuleRef whole) {
  const char *names[2] = {"vector_add", "no_such_kernel"};
  LLVMModuleRef parts[2] = {whole, whole};
  cc_log log = {""};
  CHECK_INT(cc_error_no_kernel,
            cc_codegen_split(whole, names, 2, parts, &log));
  CHECK(parts[0] == NULL && parts[1] == NULL);
  CHECK(strstr(log.text, "no_such_kernel") != NULL);
  CHECK_INT(cc_error_invalid_value,
            cc_codegen_split(whole, names, 0, parts, NULL));
}

/* A vector variant kept alive through @llvm.compiler.used (how the
 * builtin library offers SLEEF's vector forms) survives the pruning. */
static void test_compiler_used(const cc_target *target, LLVMModuleRef source) {
  LLVMModuleRef module = LLVMCloneModule(source);
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMTypeRef f16 = LLVMVectorType(LLVMFloatTypeInContext(context), 16);
  LLVMValueRef variant = LLVMAddFunction(module, "_ZGVeN16v_clmux_test",
                                         LLVMFunctionType(f16, &f16, 1, 0));
  LLVMValueRef array = LLVMConstArray2(ptr, &variant, 1);
  LLVMValueRef used =
      LLVMAddGlobal(module, LLVMTypeOf(array), "llvm.compiler.used");
  LLVMSetInitializer(used, array);
  LLVMSetLinkage(used, LLVMAppendingLinkage);
  LLVMSetSection(used, "llvm.metadata");
  const uint32_t local[3] = {16, 1, 1};
  size_t size = 0;
  LLVMModuleRef built = NULL;
  uint8_t *binary =
      build_one(target, module, "vector_add", local, &size, &built);
  if (binary) {
    CHECK(LLVMGetNamedGlobal(built, "llvm.compiler.used") != NULL);
    CHECK(LLVMGetNamedFunction(built, "_ZGVeN16v_clmux_test") != NULL);
    LLVMDisposeModule(built);
  }
  free(binary);
  LLVMDisposeModule(module);
}

int main(int argc, char **argv) {
  REQUIRE(argc == 3);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef barrier = load_bitcode(context, argv[1]);
  LLVMModuleRef vector_add = load_bitcode(context, argv[2]);
  cc_target *target = NULL;
  REQUIRE(cc_target_create_host(&target, NULL) == cc_success);
  test_split(target, barrier);
  test_subset(barrier);
  test_refusals(vector_add);
  test_compiler_used(target, vector_add);
  cc_target_destroy(target);
  LLVMDisposeModule(barrier);
  LLVMDisposeModule(vector_add);
  LLVMContextDispose(context);
  return check_finish();
}

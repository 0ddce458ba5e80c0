/* A kernel becomes a module with a spir_kernel function, the kernel_arg_*
 * metadata and the fake address-space map (global 1, constant 2, local 3). */
#include <stdio.h>

#include <llvm-c/Analysis.h>

#include "frontend_test.h"

static const char source[] =
    "typedef struct { int a; float b; } pair;\n"
    "__kernel __attribute__((reqd_work_group_size(8, 1, 1)))\n"
    "void scale(__global float *out, __constant float *factor,\n"
    "           __local int *scratch, const uint n, __global const pair *p,\n"
    "           __global volatile int *flag) {\n"
    "  size_t i = get_global_id(0);\n"
    "  scratch[get_local_id(0)] = (int)i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (i < n) out[i] = factor[0] * p[i].b + scratch[0] + *flag;\n"
    "}\n"
    "int helper(int x) { return x + 1; }\n";

/* The i-th operand of a function's metadata node `kind`, as a string or
 * integer. */
static LLVMValueRef md_operand(LLVMValueRef function, const char *kind,
                               unsigned index) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
  unsigned kind_id = LLVMGetMDKindIDInContext(context, kind, strlen(kind));
  LLVMValueRef node = LLVMGetMetadata(function, kind_id);
  if (!node || index >= LLVMGetMDNodeNumOperands(node)) return NULL;
  LLVMValueRef operands[16];
  LLVMGetMDNodeOperands(node, operands);
  return operands[index];
}

static int md_string_is(LLVMValueRef function, const char *kind,
                        unsigned index, const char *expected) {
  LLVMValueRef operand = md_operand(function, kind, index);
  if (!operand) return 0;
  unsigned length = 0;
  const char *text = LLVMGetMDString(operand, &length);
  int same = text && length == strlen(expected) &&
             memcmp(text, expected, length) == 0;
  if (!same)
    fprintf(stderr, "%s[%u] is '%.*s', expected '%s'\n", kind, index,
            (int)length, text ? text : "", expected);
  return same;
}

static long long md_int(LLVMValueRef function, const char *kind,
                        unsigned index) {
  LLVMValueRef operand = md_operand(function, kind, index);
  return operand ? LLVMConstIntGetSExtValue(operand) : -1;
}

static unsigned param_address_space(LLVMValueRef function, unsigned index) {
  return LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetParam(function, index)));
}

int main(void) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = NULL;
  char *log = NULL;
  cc_frontend_result result = cc_compile_opencl_c(
      context, source, strlen(source), "", NULL, 0, &module, &log);
  CHECK_INT(CC_FRONTEND_SUCCESS, result);
  REQUIRE(log != NULL);
  if (*log) fprintf(stderr, "log: %s\n", log);
  CHECK_INT(0, strlen(log)); /* no warnings for a clean program */
  REQUIRE(module != NULL);

  size_t length = 0;
  CHECK(strcmp(LLVMGetTarget(module), "x86_64-unknown-linux-gnu") == 0);
  (void)LLVMGetModuleIdentifier(module, &length);

  LLVMValueRef kernel = LLVMGetNamedFunction(module, "scale");
  REQUIRE(kernel != NULL);
  CHECK_INT(LLVMSPIRKERNELCallConv, LLVMGetFunctionCallConv(kernel));
  CHECK(!LLVMIsDeclaration(kernel));
  CHECK_INT(6, LLVMCountParams(kernel));
  CHECK_INT(1, param_address_space(kernel, 0));
  CHECK_INT(2, param_address_space(kernel, 1));
  CHECK_INT(3, param_address_space(kernel, 2));
  CHECK_INT(1, param_address_space(kernel, 4));

  /* SPIR numbering in the metadata: private 0, global 1, constant 2,
   * local 3. */
  long long spaces[] = {1, 2, 3, 0, 1, 1};
  for (unsigned i = 0; i < 6; i++)
    CHECK_INT(spaces[i], md_int(kernel, "kernel_arg_addr_space", i));
  CHECK(md_string_is(kernel, "kernel_arg_access_qual", 0, "none"));
  CHECK(md_string_is(kernel, "kernel_arg_type", 0, "float*"));
  CHECK(md_string_is(kernel, "kernel_arg_type", 3, "uint"));
  CHECK(md_string_is(kernel, "kernel_arg_type", 4, "pair*"));
  CHECK(md_string_is(kernel, "kernel_arg_base_type", 3, "uint"));
  /* Clang reports const only for pointees, not by-value arguments. */
  CHECK(md_string_is(kernel, "kernel_arg_type_qual", 3, ""));
  CHECK(md_string_is(kernel, "kernel_arg_type_qual", 4, "const"));
  CHECK(md_string_is(kernel, "kernel_arg_type_qual", 5, "volatile"));
  CHECK(md_string_is(kernel, "kernel_arg_type_qual", 1, "const"));
  CHECK(md_string_is(kernel, "kernel_arg_name", 0, "out"));
  CHECK(md_string_is(kernel, "kernel_arg_name", 5, "flag"));
  CHECK_INT(8, md_int(kernel, "reqd_work_group_size", 0));
  CHECK_INT(1, md_int(kernel, "reqd_work_group_size", 2));

  /* A plain function is not a kernel; builtins are declarations. */
  LLVMValueRef helper = LLVMGetNamedFunction(module, "helper");
  REQUIRE(helper != NULL);
  CHECK(LLVMGetFunctionCallConv(helper) != LLVMSPIRKERNELCallConv);
  LLVMValueRef gid = LLVMGetNamedFunction(module, "_Z13get_global_idj");
  CHECK(gid != NULL && LLVMIsDeclaration(gid));
  CHECK(LLVMGetNamedFunction(module, "_Z7barrierj") != NULL);

  /* -O2 -disable-llvm-passes: no optnone, and still unoptimized (allocas). */
  unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
  CHECK(LLVMGetEnumAttributeAtIndex(kernel, LLVMAttributeFunctionIndex,
                                    optnone) == NULL);
  CHECK(LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(kernel)) != NULL);
  CHECK(LLVMIsAAllocaInst(
            LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(kernel))) != NULL);

  /* The module lives in the caller's context and verifies. */
  CHECK(LLVMGetModuleContext(module) == context);
  char *message = NULL;
  CHECK(!LLVMVerifyModule(module, LLVMReturnStatusAction, &message));
  LLVMDisposeMessage(message);

  /* OpenCL version flag. */
  CHECK(LLVMGetNamedMetadataNumOperands(module, "opencl.ocl.version") == 1);
  LLVMDisposeModule(module);
  free(log);
  LLVMContextDispose(context);
  return check_finish();
}

/* clmux compiler — code generation: small helpers shared by its files. */
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

cc_status cc_fail(cc_log *log, cc_status status, const char *format, ...) {
  if (log) {
    va_list list;
    va_start(list, format);
    vsnprintf(log->text, sizeof log->text, format, list);
    va_end(list);
  }
  return status;
}

cc_status cc_run_passes(LLVMModuleRef module, const char *passes, cc_log *log) {
  LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
  LLVMErrorRef error = LLVMRunPasses(module, passes, NULL, options);
  LLVMDisposePassBuilderOptions(options);
  if (!error) return cc_success;
  char *message = LLVMGetErrorMessage(error);
  cc_fail(log, cc_error_llvm, "passes %s: %s", passes, message);
  LLVMDisposeErrorMessage(message);
  return cc_error_llvm;
}

LLVMValueRef cc_find_kernel(LLVMModuleRef module, const char *name) {
  LLVMValueRef function = LLVMGetNamedFunction(module, name);
  if (!function || LLVMIsDeclaration(function) ||
      LLVMGetFunctionCallConv(function) != LLVMSPIRKERNELCallConv) {
    return NULL;
  }
  return function;
}

const char *cc_callee_name(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee)) return "";
  size_t length = 0;
  return LLVMGetValueName2(callee, &length);
}

LLVMValueRef cc_load_wg_field(LLVMBuilderRef builder, LLVMValueRef wg,
                              LLVMTypeRef type, size_t offset,
                              const char *name) {
  LLVMContextRef context = LLVMGetTypeContext(type);
  LLVMValueRef index = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
  LLVMValueRef field = LLVMBuildInBoundsGEP2(
      builder, LLVMInt8TypeInContext(context), wg, &index, 1, "");
  LLVMValueRef value = LLVMBuildLoad2(builder, type, field, name);
  LLVMSetAlignment(value, (unsigned)LLVMGetIntTypeWidth(type) / 8);
  return value;
}

LLVMValueRef cc_load_wg_pointer(LLVMBuilderRef builder, LLVMValueRef wg,
                                size_t offset, const char *name) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(wg));
  LLVMValueRef index = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
  LLVMValueRef field = LLVMBuildInBoundsGEP2(
      builder, LLVMInt8TypeInContext(context), wg, &index, 1, "");
  LLVMValueRef value = LLVMBuildLoad2(
      builder, LLVMPointerTypeInContext(context, 0), field, name);
  LLVMSetAlignment(value, 8);
  return value;
}

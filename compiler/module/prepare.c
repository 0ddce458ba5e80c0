/* clmux compiler — the module layer: what turns a linked program into one
 * codegen can specialize. What no kernel reaches goes first (a program
 * may include a whole library of helpers: hashcat's sources carry every
 * cipher's code and tables), printf calls become records for the runtime,
 * the builtin library supplies what the program calls (only that), and every
 * builtin the library does not have yet is named, so a kernel using one
 * fails with a clear reason instead of a loader error. Math calls that
 * relaxed-math options cover go to the faster native_ forms first. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#ifdef CC_HAVE_BUILTINS
#include "builtins.h"
#endif
#ifdef CC_HAVE_PRINTF
#include "printf_lower.h"
#endif

/* A declaration the loader cannot satisfy: an OpenCL builtin (mangled)
 * that neither codegen nor the library defines. */
static bool missing_builtin(LLVMValueRef function) {
  if (!LLVMIsDeclaration(function) || !LLVMGetFirstUse(function)) return false;
  size_t length = 0;
  const char *name = LLVMGetValueName2(function, &length);
  return strncmp(name, "_Z", 2) == 0 && strncmp(name, "_ZGV", 4) != 0 &&
         !cc_codegen_lowers(name);
}

cc_module_result cc_prepare_executable(LLVMModuleRef llvm, bool relaxed_math,
                                       cc_text *log) {
  {
    cc_log reason = {""};
    if (cc_codegen_drop_unreached(llvm, &reason) != cc_success) {
      cc_text_add(log, "error: %s\n", reason.text);
      return CC_MODULE_INTERNAL_ERROR;
    }
  }
#ifdef CC_HAVE_PRINTF
  {
    cc_log reason = {""};
    if (cc_printf_lower(llvm, &reason) != cc_success) {
      cc_text_add(log, "error: %s\n", reason.text);
      return CC_MODULE_LINK_FAILED;
    }
  }
#endif
#ifdef CC_HAVE_BUILTINS
  cc_builtins_relax_calls(llvm, relaxed_math);
  /* Reading the library costs tens of ms: only when something needs it. */
  bool needs_library = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(llvm); f && !needs_library;
       f = LLVMGetNextFunction(f)) {
    needs_library = missing_builtin(f);
  }
  if (needs_library) {
    cc_log reason = {""};
    cc_status status = cc_builtins_link(llvm, &reason);
    if (status == cc_error_out_of_memory) return CC_MODULE_OUT_OF_MEMORY;
    if (status != cc_success) {
      cc_text_add(log, "error: builtin library: %s\n", reason.text);
      return CC_MODULE_INTERNAL_ERROR;
    }
  }
#else
  (void)relaxed_math;
#endif
  for (LLVMValueRef f = LLVMGetFirstFunction(llvm); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    if (missing_builtin(f)) {
      cc_text_add(log, "warning: builtin '%s' is not implemented yet; "
                  "kernels calling it cannot run\n",
                  LLVMGetValueName2(f, &length));
    }
  }
  return CC_MODULE_SUCCESS;
}

/* Depth-first over the calls of `function`; `seen` holds visited
 * functions (a small list: programs have few functions). */
static const char *find_missing(LLVMValueRef function, LLVMValueRef *seen,
                                size_t *count, size_t capacity) {
  if (missing_builtin(function)) {
    size_t length = 0;
    return LLVMGetValueName2(function, &length);
  }
  if (LLVMIsDeclaration(function)) return NULL;
  for (size_t i = 0; i < *count; i++) {
    if (seen[i] == function) return NULL;
  }
  if (*count == capacity) return NULL; /* give up: the loader will tell */
  seen[(*count)++] = function;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i)) continue;
      LLVMValueRef callee = LLVMGetCalledValue(i);
      if (!callee || !LLVMIsAFunction(callee)) continue;
      const char *missing = find_missing(callee, seen, count, capacity);
      if (missing) return missing;
    }
  }
  return NULL;
}

const char *cc_kernel_missing_builtin(LLVMModuleRef llvm, const char *name) {
  LLVMValueRef kernel = LLVMGetNamedFunction(llvm, name);
  if (!kernel) return NULL;
  enum { capacity = 1024 };
  LLVMValueRef *seen = malloc(capacity * sizeof *seen);
  if (!seen) return NULL;
  size_t count = 0;
  const char *missing = find_missing(kernel, seen, &count, capacity);
  free(seen);
  return missing;
}

/* clmux compiler — builtin library: calls that may be approximate.
 *
 * -cl-fast-relaxed-math and -cl-unsafe-math-optimizations let a program
 * give up the accuracy of section 7.4 for speed (OpenCL 1.2, 5.6.4.2);
 * Clang marks every call they cover with the approx-func flag. Such a
 * call of a float function whose native_ form is faster goes to that form
 * (math_half_native.cl: SLEEF's 3.5-ulp functions) under the same
 * mangling, e.g. _Z3sinDv4_f -> _Z10native_sinDv4_f. Doubles have no
 * native_ forms and keep their functions. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The functions whose native_ form is faster than the full one. */
static const char *const relaxable[] = {"cos",  "exp10", "log", "log10",
                                        "log2", "powr",  "sin", "tan"};

/* The parameters of a mangled name are all float (scalar or vector). */
static bool float_parameters(const char *parameters) {
  if (parameters[0] == 'f') return true;
  if (strncmp(parameters, "Dv", 2) != 0) return false;
  const char *at = parameters + 2;
  while (*at >= '0' && *at <= '9') at++;
  return at[0] == '_' && at[1] == 'f';
}

/* The native_ counterpart's name of mangled `name` (into out), if `name`
 * is a relaxable float function. */
static bool native_name(const char *name, char *out, size_t size) {
  if (strncmp(name, "_Z", 2) != 0) return false;
  for (size_t i = 0; i < sizeof relaxable / sizeof *relaxable; i++) {
    char prefix[32];
    size_t length = strlen(relaxable[i]);
    snprintf(prefix, sizeof prefix, "_Z%zu%s", length, relaxable[i]);
    size_t prefix_length = strlen(prefix);
    if (strncmp(name, prefix, prefix_length) != 0) continue;
    const char *parameters = name + prefix_length;
    if (!float_parameters(parameters)) return false;
    int written = snprintf(out, size, "_Z%zunative_%s%s", length + 7,
                           relaxable[i], parameters);
    return written > 0 && (size_t)written < size;
  }
  return false;
}

static bool may_approximate(LLVMValueRef call, bool all) {
  if (all) return true;
  return LLVMCanValueUseFastMathFlags(call) &&
         (LLVMGetFastMathFlags(call) & LLVMFastMathApproxFunc);
}

/* The calls of `function` that may be approximate now call `native`. */
static void redirect_calls(LLVMModuleRef module, LLVMValueRef function,
                           const char *native, bool all) {
  LLVMValueRef replacement = NULL;
  for (LLVMUseRef use = LLVMGetFirstUse(function), next; use; use = next) {
    next = LLVMGetNextUse(use); /* before this use moves to `replacement` */
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != function ||
        !may_approximate(user, all)) {
      continue;
    }
    if (!replacement) replacement = LLVMGetNamedFunction(module, native);
    if (!replacement) {
      replacement = LLVMAddFunction(module, native,
                                    LLVMGlobalGetValueType(function));
    }
    /* The callee is a call's last operand. */
    LLVMSetOperand(user, LLVMGetNumOperands(user) - 1, replacement);
  }
}

void cc_builtins_relax_calls(LLVMModuleRef module, bool all) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f)) continue;
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    char native[128];
    if (native_name(name, native, sizeof native)) {
      redirect_calls(module, f, native, all);
    }
  }
}

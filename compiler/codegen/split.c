/* clmux compiler — code generation: keeping only what some kernels reach.
 * Every step of building a work-group function costs in the size of the
 * module it works on, and a program's module holds all its kernels and
 * the builtins they call; so the steps work on a copy that holds one
 * kernel and what it reaches, and a program can be split once into such
 * copies, one per kernel, in about log2(kernels) copies of the whole. */
#include <stdlib.h>

#include "internal.h"

static bool is_kept(LLVMValueRef value, const LLVMValueRef *keep,
                    unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    if (keep[i] == value) return true;
  }
  return false;
}

/* Appending globals (llvm.used, llvm.compiler.used) keep their special
 * linkage: the builtins' vector variants stay alive through them. */
void cc_internalize(LLVMModuleRef module, const LLVMValueRef *keep,
                    unsigned count) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) && !is_kept(f, keep, count)) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) != LLVMAppendingLinkage) {
      LLVMSetLinkage(g, LLVMInternalLinkage);
      LLVMSetVisibility(g, LLVMDefaultVisibility);
    }
  }
}

cc_status cc_keep_only(LLVMModuleRef module, const LLVMValueRef *keep,
                       unsigned count, cc_log *log) {
  cc_internalize(module, keep, count);
  return cc_run_passes(module, "globaldce", log);
}

cc_status cc_codegen_drop_unreached(LLVMModuleRef module, cc_log *log) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) &&
        LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
  }
  /* __constant variables (address space 2) the host cannot see: tables of
   * ciphers a program does not use would be copied with every copy. */
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) != LLVMAppendingLinkage &&
        LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 2) {
      LLVMSetLinkage(g, LLVMInternalLinkage);
      LLVMSetVisibility(g, LLVMDefaultVisibility);
    }
  }
  return cc_run_passes(module, "globaldce", log);
}

/* Keeps in `module` the kernels names[0 .. count) (found beforehand). */
static cc_status keep_kernels(LLVMModuleRef module, const char *const *names,
                              uint32_t count, cc_log *log) {
  LLVMValueRef *kernels = calloc(count, sizeof *kernels);
  if (!kernels) return cc_fail(log, cc_error_out_of_memory, "no memory");
  for (uint32_t i = 0; i < count; i++) {
    kernels[i] = cc_find_kernel(module, names[i]);
  }
  cc_status status = cc_keep_only(module, kernels, count, log);
  free(kernels);
  return status;
}

/* Gives `module` (owned) to modules[0 .. count), halving it each time. */
static cc_status split(LLVMModuleRef module, const char *const *names,
                       uint32_t count, LLVMModuleRef *modules, cc_log *log) {
  if (count == 1) {
    modules[0] = module;
    return keep_kernels(module, names, 1, log);
  }
  uint32_t half = count / 2;
  LLVMModuleRef second = LLVMCloneModule(module);
  cc_status status = keep_kernels(module, names, half, log);
  if (status == cc_success) {
    status = keep_kernels(second, names + half, count - half, log);
  }
  if (status != cc_success) {
    LLVMDisposeModule(module);
    LLVMDisposeModule(second);
    return status;
  }
  status = split(module, names, half, modules, log);
  if (status != cc_success) {
    LLVMDisposeModule(second);
    return status;
  }
  status = split(second, names + half, count - half, modules + half, log);
  if (status != cc_success) {
    for (uint32_t i = 0; i < half; i++) {
      LLVMDisposeModule(modules[i]);
      modules[i] = NULL;
    }
  }
  return status;
}

cc_status cc_codegen_split(LLVMModuleRef source, const char *const *names,
                           uint32_t count, LLVMModuleRef *modules,
                           cc_log *log) {
  for (uint32_t i = 0; i < count; i++) modules[i] = NULL;
  if (count == 0) return cc_fail(log, cc_error_invalid_value, "no kernels");
  for (uint32_t i = 0; i < count; i++) {
    if (!cc_find_kernel(source, names[i])) {
      return cc_fail(log, cc_error_no_kernel, "no kernel named %s",
                     names[i]);
    }
  }
  return split(LLVMCloneModule(source), names, count, modules, log);
}

/* clmux compiler — builtin library: linking the embedded bitcode into a
 * program's module. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static cc_status fail(cc_log *log, cc_status status, const char *text) {
  if (log) snprintf(log->text, sizeof log->text, "builtins: %s", text);
  return status;
}

/* Public definitions become linkonce_odr: the linker then copies only those
 * the module uses, and they still satisfy its external declarations. */
static void make_linkonce(LLVMModuleRef library) {
  for (LLVMValueRef f = LLVMGetFirstFunction(library); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage) {
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(library); g;
       g = LLVMGetNextGlobal(g)) {
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage) {
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
    }
  }
}

/* Links the definitions `module` uses or declares from one part. */
static cc_status link_part(LLVMModuleRef module, const cc_builtins_part *part,
                           cc_log *log) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)part->bitcode, part->size, part->name, 0);
  if (!buffer) return fail(log, cc_error_out_of_memory, "no memory");
  /* Lazily: only the bodies the linker copies are read (a full parse of
   * the library costs ~350 ms). The module owns the buffer. */
  LLVMModuleRef library = NULL;
  LLVMBool failed = LLVMGetBitcodeModuleInContext2(
      LLVMGetModuleContext(module), buffer, &library);
  if (failed || !library) {
    return fail(log, cc_error_llvm, "the embedded bitcode does not parse");
  }
  LLVMSetTarget(library, LLVMGetTarget(module));
  LLVMSetDataLayout(library, LLVMGetDataLayoutStr(module));
  make_linkonce(library);
  if (LLVMLinkModules2(module, library)) { /* library is gone either way */
    return fail(log, cc_error_llvm, "linking the library failed");
  }
  return cc_success;
}

static int compare_symbol(const void *name, const void *entry) {
  return strcmp(name, ((const cc_builtins_symbol *)entry)->name);
}

/* The part defining `name`, or -1. */
static int part_defining(const char *name) {
  const cc_builtins_symbol *found =
      bsearch(name, cc_builtins_index, cc_builtins_index_count,
              sizeof *cc_builtins_index, compare_symbol);
  return found ? found->part : -1;
}

/* Links every part that defines a function `module` declares and uses,
 * again until none is missing (parts call into each other, and a part
 * linked before brought only what was called then). A cap on the rounds
 * turns an index that does not match the parts into an error, not a
 * loop. */
static cc_status link_needed_parts(LLVMModuleRef module, cc_log *log) {
  for (unsigned round = 0;; round++) {
    bool wanted[CC_BUILTINS_MAX_PARTS] = {false}, any = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
         f = LLVMGetNextFunction(f)) {
      if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f)) continue;
      size_t length = 0;
      int part = part_defining(LLVMGetValueName2(f, &length));
      if (part >= 0) wanted[part] = any = true;
    }
    if (!any) return cc_success;
    if (round == 2 * CC_BUILTINS_MAX_PARTS) {
      return fail(log, cc_error_llvm, "a part lacks what its index says");
    }
    for (size_t part = 0; part < cc_builtins_part_count; part++) {
      if (!wanted[part]) continue;
      cc_status status = link_part(module, &cc_builtins_parts[part], log);
      if (status != cc_success) return status;
    }
  }
}

cc_status cc_builtins_link(LLVMModuleRef module, cc_log *log) {
  if (cc_builtins_part_count > CC_BUILTINS_MAX_PARTS) {
    return fail(log, cc_error_llvm, "more library parts than expected");
  }
  cc_builtins_define_generic_forms(module, part_defining);
  cc_status status = link_needed_parts(module, log);
  if (status != cc_success) return status;
  cc_builtins_add_vector_variants(module);
  /* The variants may name vector forms: nothing called them before. */
  return link_needed_parts(module, log);
}

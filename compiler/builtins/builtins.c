/* clmux compiler — builtin library: linking the embedded bitcode into a
 * program's module. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* builtins_bitcode.c, generated at build time by embed_bitcode.py. */
extern const uint8_t cc_builtins_bitcode_data[];
extern const size_t cc_builtins_bitcode_length;

const uint8_t *cc_builtins_bitcode(size_t *size) {
  if (size) *size = cc_builtins_bitcode_length;
  return cc_builtins_bitcode_data;
}

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

/* Links the library's definitions of what `module` uses or declares. */
static cc_status link_library(LLVMModuleRef module, cc_log *log) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)cc_builtins_bitcode_data, cc_builtins_bitcode_length,
      "clmux-builtins", 0);
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

/* Whether a vector form of the library's own (declared by
 * cc_builtins_add_vector_variants) still lacks its definition. */
static bool lacks_vector_forms(LLVMModuleRef module) {
  size_t prefix = strlen(CC_VECTOR_VARIANT_PREFIX);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (LLVMIsDeclaration(f) && length > prefix &&
        strncmp(name, CC_VECTOR_VARIANT_PREFIX, prefix) == 0) {
      return true;
    }
  }
  return false;
}

cc_status cc_builtins_link(LLVMModuleRef module, cc_log *log) {
  cc_status status = link_library(module, log);
  if (status != cc_success) return status;
  cc_builtins_add_vector_variants(module);
  /* Nothing called the library's own vector forms before the variants
   * named them, so the link left them out. A second link brings them in:
   * ~12 ms, paid only by programs that call such functions (declaring
   * them before the first link would cost every program ~2 ms). */
  if (lacks_vector_forms(module)) status = link_library(module, log);
  return status;
}

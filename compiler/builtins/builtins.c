/* clmux compiler — builtin library: linking the embedded bitcode into a
 * program's module. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* builtins_bitcode.c, generated at build time by embed_bitcode.py: the
 * library in three parts (meson.build says why). */
extern const uint8_t cc_builtins_main_data[];
extern const size_t cc_builtins_main_length;
extern const uint8_t cc_builtins_conversions_data[];
extern const size_t cc_builtins_conversions_length;
extern const uint8_t cc_builtins_vector_forms_data[];
extern const size_t cc_builtins_vector_forms_length;

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
static cc_status link_part(LLVMModuleRef module, const uint8_t *data,
                           size_t length, cc_log *log) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)data, length, "clmux-builtins", 0);
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

/* What the module's calls still need, by part. */
typedef struct needs {
  bool main, conversions, vector_forms;
} needs;

/* convert_<type>[_sat][_<rounding>], mangled: _Z<length>convert_... */
static bool is_conversion(const char *name) {
  if (strncmp(name, "_Z", 2) != 0) return false;
  name += 2;
  while (*name >= '0' && *name <= '9') name++;
  return strncmp(name, "convert_", 8) == 0;
}

static needs find_needs(LLVMModuleRef module) {
  needs found = {false, false, false};
  size_t own = strlen(CC_VECTOR_VARIANT_PREFIX);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) != 0) continue;
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (strncmp(name, CC_VECTOR_VARIANT_PREFIX, own) == 0) {
      found.vector_forms = true;
    } else if (is_conversion(name)) {
      found.conversions = true;
    } else if (LLVMGetFirstUse(f) && strncmp(name, "Sleef_", 6) != 0 &&
               !cc_codegen_lowers(name)) {
      found.main = true;
    }
  }
  return found;
}

cc_status cc_builtins_link(LLVMModuleRef module, cc_log *log) {
  cc_status status = cc_success;
  if (find_needs(module).main) {
    status = link_part(module, cc_builtins_main_data,
                       cc_builtins_main_length, log);
    if (status != cc_success) return status;
    cc_builtins_add_vector_variants(module);
  }
  /* The main part's own calls may need the other two (image functions
   * convert; the variants just declared name vector forms). */
  needs later = find_needs(module);
  if (later.vector_forms) {
    status = link_part(module, cc_builtins_vector_forms_data,
                       cc_builtins_vector_forms_length, log);
    if (status != cc_success) return status;
  }
  if (later.conversions) {
    status = link_part(module, cc_builtins_conversions_data,
                       cc_builtins_conversions_length, log);
  }
  return status;
}

/* clmux compiler: the translator's SPIR IR in the OpenCL C front-end's
 * conventions. Both use SPIR's address spaces, spir_kernel kernels, the
 * kernel_arg_* metadata and Itanium-mangled builtin names. They differ in
 * two things:
 * - the calling convention of everything else: SPIR's spir_func against
 *   the C convention the builtin library is compiled with. A call whose
 *   convention differs from its callee's is undefined in LLVM (the
 *   optimizer turns it into unreachable), so every function and call
 *   moves to the C convention;
 * - how a pointer's address space is mangled: SPIR's `U3AS1` against
 *   Clang's `U8CLglobal` (with -ffake-address-space-map; generic `U3AS4`
 *   becomes `U9CLgeneric`, which compiler/builtins/generic_calls.c then
 *   serves). Both are one
 *   vendor qualifier, so swapping the text leaves the substitution
 *   numbering of the rest of the name intact. */
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

#include "spirv.h"

static void calls_to_c(LLVMValueRef function) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsACallInst(inst) &&
          LLVMGetInstructionCallConv(inst) == LLVMSPIRFUNCCallConv) {
        LLVMSetInstructionCallConv(inst, LLVMCCallConv);
      }
    }
  }
}

static const char *const spaces[][2] = {
    {"U3AS1", "U8CLglobal"},
    {"U3AS2", "U10CLconstant"},
    {"U3AS3", "U7CLlocal"},
    {"U3AS4", "U9CLgeneric"}, /* then compiler/builtins/generic_calls.c */
};
enum { space_count = sizeof spaces / sizeof spaces[0] };

/* `name` with Clang's address-space qualifiers (malloc'd), or NULL when
 * it has none of SPIR's or memory ran out. */
static char *clang_mangling(const char *name, size_t length) {
  size_t found = 0;
  for (size_t k = 0; k < space_count; k++) {
    for (const char *at = name; (at = strstr(at, spaces[k][0])); at++) found++;
  }
  if (!found || strncmp(name, "_Z", 2) != 0) return NULL;
  char *renamed = malloc(length + found * 8 + 1);
  if (!renamed) return NULL;
  char *out = renamed;
  for (const char *at = name; *at;) {
    size_t k = 0;
    while (k < space_count &&
           strncmp(at, spaces[k][0], strlen(spaces[k][0])) != 0) {
      k++;
    }
    if (k < space_count) {
      out = stpcpy(out, spaces[k][1]);
      at += strlen(spaces[k][0]);
    } else {
      *out++ = *at++;
    }
  }
  *out = '\0';
  return renamed;
}

/* Gives a builtin the name the builtin library defines. Functions defined
 * here are renamed alike, so that an object's calls still find another
 * object's definitions at link time. */
static void rename_function(LLVMModuleRef module, LLVMValueRef function) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(function, &length);
  char *renamed = clang_mangling(name, length);
  if (!renamed) return;
  LLVMValueRef existing = LLVMGetNamedFunction(module, renamed);
  if (existing && LLVMIsDeclaration(function)) {
    LLVMReplaceAllUsesWith(function, existing);
    LLVMDeleteFunction(function);
  } else {
    LLVMSetValueName2(function, renamed, strlen(renamed));
  }
  free(renamed);
}

void cc_spirv_adopt_conventions(LLVMModuleRef module) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv) {
      LLVMSetFunctionCallConv(f, LLVMCCallConv);
    }
    calls_to_c(f);
    if (LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv) {
      rename_function(module, f);
    }
  }
}

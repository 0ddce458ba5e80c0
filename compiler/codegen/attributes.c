/* clmux compiler — code generation: attributes Clang leaves that would
 * defeat inlining or vectorization. Clang stamps every function with its
 * default x86-64 features (SSE2), which override the host target machine,
 * and marks builtins convergent, which the loop vectorizer refuses to
 * widen. Only barrier needs convergent, and barrier calls are gone (cut
 * into regions, barriers.c) before the vectorizer runs; and the
 * sub-group primitives, which the vectorizer replaces (sub_groups.h). */
#include <string.h>

#include "internal.h"
#include "sub_groups.h"

static const char *const enum_attributes[] = {"convergent", "noinline",
                                              "optnone"};
static const char *const string_attributes[] = {
    "target-cpu", "target-features", "tune-cpu", "min-legal-vector-width"};
#define COUNT(array) (sizeof array / sizeof array[0])

static void strip_call_sites(LLVMValueRef function, const unsigned *kinds) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (!LLVMIsACallInst(inst) || cc_sub_group_primitive(inst, NULL)) {
        continue;
      }
      for (size_t k = 0; k < COUNT(enum_attributes); k++) {
        LLVMRemoveCallSiteEnumAttribute(inst, LLVMAttributeFunctionIndex,
                                        kinds[k]);
      }
    }
  }
}

void cc_strip_attributes(LLVMModuleRef module) {
  unsigned kinds[COUNT(enum_attributes)];
  for (size_t k = 0; k < COUNT(enum_attributes); k++) {
    kinds[k] = LLVMGetEnumAttributeKindForName(enum_attributes[k],
                                               strlen(enum_attributes[k]));
  }
  for (LLVMValueRef function = LLVMGetFirstFunction(module); function;
       function = LLVMGetNextFunction(function)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(function, &length);
    bool primitive = strncmp(name, CC_SUB_GROUP_PREFIX,
                             strlen(CC_SUB_GROUP_PREFIX)) == 0;
    for (size_t k = 0; k < COUNT(enum_attributes) && !primitive; k++) {
      LLVMRemoveEnumAttributeAtIndex(function, LLVMAttributeFunctionIndex,
                                     kinds[k]);
    }
    for (size_t k = 0; k < COUNT(string_attributes); k++) {
      LLVMRemoveStringAttributeAtIndex(function, LLVMAttributeFunctionIndex,
                                       string_attributes[k],
                                       (unsigned)strlen(string_attributes[k]));
    }
    strip_call_sites(function, kinds);
  }
}

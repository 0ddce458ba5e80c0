/* clmux compiler — builtin library: the generic address space overloads.
 *
 * OpenCL C 3.0 with __opencl_c_generic_address_space declares every builtin
 * that takes a pointer also for generic pointers (fract(float, float *) is
 * _Z5fractfPU9CLgenericf). On the CPU every address space is the same flat
 * memory, so such a call does what the library's named form does: each
 * generic declaration the module uses becomes a small definition that
 * casts its generic pointers and calls the private, global or local form
 * (whichever the library defines; the same for every pointer of the call,
 * as C11 atomics have global and local forms only). Codegen inlines it. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define GENERIC "PU9CLgeneric"
#define GENERIC_AS 4u

static const struct {
  const char *mangled;
  unsigned address_space;
} named_forms[] = {
    {"PU9CLprivate", 0},
    {"PU8CLglobal", 1},
    {"PU7CLlocal", 3},
};

/* `name` with every GENERIC replaced by `with` (malloc'd), or NULL. */
static char *replace_generic(const char *name, const char *with) {
  size_t count = 0, generic = strlen(GENERIC), length = strlen(with);
  for (const char *at = name; (at = strstr(at, GENERIC)); at += generic) {
    count++;
  }
  char *out = malloc(strlen(name) + count * length + 1);
  if (!out) return NULL;
  char *to = out;
  for (const char *from = name;;) {
    const char *at = strstr(from, GENERIC);
    size_t keep = at ? (size_t)(at - from) : strlen(from);
    memcpy(to, from, keep);
    to += keep;
    if (!at) break;
    memcpy(to, with, length);
    to += length;
    from = at + generic;
  }
  *to = '\0';
  return out;
}

static void copy_attributes(LLVMValueRef from, LLVMValueRef function,
                            LLVMValueRef call, unsigned count) {
  /* Indices: return (0), function (-1), parameters (1..count). */
  for (long index = -1; index <= (long)count; index++) {
    LLVMAttributeIndex at = (LLVMAttributeIndex)index;
    unsigned n = LLVMGetAttributeCountAtIndex(from, at);
    if (!n) continue;
    LLVMAttributeRef *attributes = malloc(n * sizeof *attributes);
    if (!attributes) return;
    LLVMGetAttributesAtIndex(from, at, attributes);
    for (unsigned i = 0; i < n; i++) {
      if (function) LLVMAddAttributeAtIndex(function, at, attributes[i]);
      if (call && index >= 0) {
        LLVMAddCallSiteAttribute(call, at, attributes[i]);
      }
    }
    free(attributes);
  }
}

/* Gives the generic declaration `generic` a body calling `target_name`,
 * whose pointers are in `address_space`. */
static void define_generic(LLVMModuleRef module, LLVMValueRef generic,
                           const char *target_name, unsigned address_space) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef type = LLVMGlobalGetValueType(generic);
  unsigned count = LLVMCountParamTypes(type);
  LLVMTypeRef *params = malloc((count + 1) * sizeof *params);
  LLVMValueRef *args = malloc((count + 1) * sizeof *args);
  if (!params || !args) {
    free(params);
    free(args);
    return;
  }
  LLVMGetParamTypes(type, params);
  LLVMTypeRef named = LLVMPointerTypeInContext(context, address_space);
  for (unsigned i = 0; i < count; i++) {
    if (LLVMGetTypeKind(params[i]) == LLVMPointerTypeKind &&
        LLVMGetPointerAddressSpace(params[i]) == GENERIC_AS) {
      params[i] = named;
    }
  }
  LLVMTypeRef target_type = LLVMFunctionType(LLVMGetReturnType(type), params,
                                             count, LLVMIsFunctionVarArg(type));
  LLVMValueRef target = LLVMGetNamedFunction(module, target_name);
  bool declared_here = !target;
  if (declared_here) target = LLVMAddFunction(module, target_name, target_type);

  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMPositionBuilderAtEnd(builder,
                           LLVMAppendBasicBlockInContext(context, generic, ""));
  for (unsigned i = 0; i < count; i++) {
    LLVMValueRef param = LLVMGetParam(generic, i);
    args[i] = LLVMTypeOf(param) == params[i]
                  ? param
                  : LLVMBuildAddrSpaceCast(builder, param, params[i], "");
  }
  LLVMValueRef call =
      LLVMBuildCall2(builder, target_type, target, args, count, "");
  copy_attributes(generic, declared_here ? target : NULL, call, count);
  if (LLVMGetTypeKind(LLVMGetReturnType(type)) == LLVMVoidTypeKind) {
    LLVMBuildRetVoid(builder);
  } else {
    LLVMBuildRet(builder, call);
  }
  LLVMDisposeBuilder(builder);
  LLVMSetLinkage(generic, LLVMInternalLinkage);
  unsigned inline_kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(generic, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(context, inline_kind, 0));
  free(params);
  free(args);
}

void cc_builtins_define_generic_forms(LLVMModuleRef module,
                                      int (*part_defining)(const char *)) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (!LLVMIsDeclaration(f) || !strstr(name, GENERIC) ||
        part_defining(name) >= 0) {
      continue;
    }
    for (size_t i = 0; i < sizeof named_forms / sizeof *named_forms; i++) {
      char *target = replace_generic(name, named_forms[i].mangled);
      if (!target) return;
      bool found = part_defining(target) >= 0;
      if (found) {
        define_generic(module, f, target, named_forms[i].address_space);
      }
      free(target);
      if (found) break;
    }
  }
}

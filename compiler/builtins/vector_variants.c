/* clmux compiler — builtin library: vector variants of scalar calls.
 *
 * The library's transcendental math calls SLEEF's scalar functions, named
 * Sleef_<f>f_<accuracy> (float) and Sleef_<f>_<accuracy> (double), whose
 * vector forms are Sleef_<f>f<N>_<accuracy> and Sleef_<f>d<N>_<accuracy>.
 * Its own out-of-line functions (CC_VECTOR_VARIANT_PREFIX, e.g.
 * __clmux_vv_fmodf and __clmux_vv_fmod) name theirs the same way without
 * the accuracy (__clmux_vv_fmodf16, __clmux_vv_fmodd8) and are defined
 * in the library: declared here, they are linked in afterwards
 * (builtins.c). Only the widest is offered: each one is compiled into
 * every kernel that may call it.
 * LLVM has no C API for a vector library, so each call gets the
 * "vector-function-abi-variant" attribute the loop vectorizer reads; the
 * vector functions must exist and survive global DCE until then, hence
 * @llvm.compiler.used. Widths go up to the host's vector registers only:
 * SLEEF's wide forms need the ISA they are named for. */
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static unsigned host_vector_bits = 128;

static bool has_feature(const char *features, const char *name) {
  size_t length = strlen(name);
  for (const char *at = features; (at = strstr(at, name)); at += length) {
    if (at > features && at[-1] == '+' &&
        (at[length] == ',' || at[length] == '\0')) {
      return true;
    }
  }
  return false;
}

static void find_host_vector_bits(void) {
  char *features = LLVMGetHostCPUFeatures();
  if (!features) return;
  host_vector_bits = has_feature(features, "avx512f") ? 512
                     : has_feature(features, "avx")   ? 256
                                                      : 128;
  LLVMDisposeMessage(features);
}

static bool has_prefix(const char *name, size_t length, const char *prefix) {
  size_t size = strlen(prefix);
  return length > size && strncmp(name, prefix, size) == 0;
}

/* A scalar math function with vector forms: a SLEEF declaration or one of
 * the library's own; float or double in, same out, 1 or 2 parameters.
 * Sets *element_bits (32 or 64). */
static bool is_vectorizable_scalar(LLVMValueRef function,
                                   unsigned *element_bits, unsigned *arity) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(function, &length);
  bool sleef = has_prefix(name, length, "Sleef_") &&
               LLVMIsDeclaration(function);
  if (!sleef && !has_prefix(name, length, CC_VECTOR_VARIANT_PREFIX)) {
    return false;
  }
  LLVMTypeRef type = LLVMGlobalGetValueType(function);
  LLVMTypeRef result = LLVMGetReturnType(type);
  LLVMTypeKind kind = LLVMGetTypeKind(result);
  if (kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind) return false;
  unsigned count = LLVMCountParamTypes(type);
  if (count < 1 || count > 2 || LLVMIsFunctionVarArg(type)) return false;
  LLVMTypeRef params[2];
  LLVMGetParamTypes(type, params);
  for (unsigned i = 0; i < count; i++) {
    if (params[i] != result) return false;
  }
  *element_bits = kind == LLVMFloatTypeKind ? 32 : 64;
  *arity = count;
  return true;
}

/* "Sleef_expf_u10", 16 -> "Sleef_expf16_u10"; "Sleef_exp_u10", 8 ->
 * "Sleef_expd8_u10"; "__clmux_vv_fmod", 8 -> "__clmux_vv_fmodd8". False
 * if a SLEEF name has no accuracy suffix. */
static bool vector_name(const char *scalar, unsigned element_bits,
                        unsigned lanes, char *out, size_t size) {
  const char *suffix = "";
  int stem = (int)strlen(scalar);
  if (strncmp(scalar, "Sleef_", 6) == 0) {
    suffix = strrchr(scalar, '_');
    if (!suffix || suffix == scalar + 5 || suffix[1] != 'u') return false;
    stem = (int)(suffix - scalar);
  }
  int written = snprintf(out, size, "%.*s%s%u%s", stem, scalar,
                         element_bits == 64 ? "d" : "", lanes, suffix);
  return written > 0 && (size_t)written < size;
}

typedef struct used_list {
  LLVMValueRef *items;
  size_t count, capacity;
} used_list;

static void used_add(used_list *list, LLVMValueRef value) {
  for (size_t i = 0; i < list->count; i++) {
    if (list->items[i] == value) return;
  }
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 16;
    LLVMValueRef *items = realloc(list->items, capacity * sizeof *items);
    if (!items) return; /* the loop stays scalar, still correct */
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->count++] = value;
}

/* Declares the vector forms of `scalar` and returns the attribute value
 * naming them (malloc'd), or NULL. */
static char *variants_of(LLVMModuleRef module, LLVMValueRef scalar,
                         used_list *used) {
  unsigned element_bits = 0, arity = 0;
  if (!is_vectorizable_scalar(scalar, &element_bits, &arity)) return NULL;
  size_t length = 0;
  const char *name = LLVMGetValueName2(scalar, &length);
  LLVMTypeRef element = LLVMGetReturnType(LLVMGlobalGetValueType(scalar));
  LLVMContextRef context = LLVMGetModuleContext(module);
  size_t size = 512;
  char *text = calloc(1, size);
  if (!text) return NULL;
  /* Only the widest of the library's own (see the top). */
  bool own = strncmp(name, "Sleef_", 6) != 0;
  for (unsigned bits = own ? host_vector_bits : 128; bits <= host_vector_bits;
       bits *= 2) {
    unsigned lanes = bits / element_bits;
    char vector[128];
    if (!vector_name(name, element_bits, lanes, vector, sizeof vector)) break;
    LLVMValueRef function = LLVMGetNamedFunction(module, vector);
    if (!function) {
      LLVMTypeRef type = LLVMVectorType(element, lanes);
      LLVMTypeRef params[2] = {type, type};
      function =
          LLVMAddFunction(module, vector, LLVMFunctionType(type, params, arity, 0));
      unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
      LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex,
                              LLVMCreateEnumAttribute(context, nounwind, 0));
    }
    used_add(used, function);
    size_t at = strlen(text);
    snprintf(text + at, size - at, "%s_ZGV_LLVM_N%u%s_%s(%s)",
             at ? "," : "", lanes, arity == 2 ? "vv" : "v", name, vector);
  }
  if (!text[0]) {
    free(text);
    return NULL;
  }
  return text;
}

/* Rebuilds @llvm.compiler.used with its old entries plus `used`. */
static void keep_used(LLVMModuleRef module, used_list *used) {
  LLVMValueRef old = LLVMGetNamedGlobal(module, "llvm.compiler.used");
  if (old) {
    LLVMValueRef init = LLVMGetInitializer(old);
    int count = init ? LLVMGetNumOperands(init) : 0;
    for (int i = 0; i < count; i++) used_add(used, LLVMGetOperand(init, i));
    LLVMDeleteGlobal(old);
  }
  if (used->count == 0) return;
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMValueRef array =
      LLVMConstArray2(ptr, used->items, (uint64_t)used->count);
  LLVMValueRef global =
      LLVMAddGlobal(module, LLVMTypeOf(array), "llvm.compiler.used");
  LLVMSetInitializer(global, array);
  LLVMSetLinkage(global, LLVMAppendingLinkage);
  LLVMSetSection(global, "llvm.metadata");
}

void cc_builtins_add_vector_variants(LLVMModuleRef module) {
  pthread_once(&host_once, find_host_vector_bits);
  used_list used = {NULL, 0, 0};
  LLVMContextRef context = LLVMGetModuleContext(module);
  static const char key[] = "vector-function-abi-variant";
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(f); block;
         block = LLVMGetNextBasicBlock(block)) {
      for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
           inst = LLVMGetNextInstruction(inst)) {
        if (!LLVMIsACallInst(inst)) continue;
        LLVMValueRef callee = LLVMGetCalledValue(inst);
        if (!LLVMIsAFunction(callee)) continue;
        char *value = variants_of(module, callee, &used);
        if (!value) continue;
        LLVMAddCallSiteAttribute(
            inst, LLVMAttributeFunctionIndex,
            LLVMCreateStringAttribute(context, key, sizeof key - 1, value,
                                      (unsigned)strlen(value)));
        free(value);
      }
    }
  }
  if (used.count) keep_used(module, &used);
  free(used.items);
}

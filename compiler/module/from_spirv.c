/* clmux compiler — the module layer: compiling SPIR-V into an object
 * (clCompileProgram, clBuildProgram of a program made with
 * clCreateProgramWithIL). After the translator (compiler/spirv) the
 * module joins OpenCL C's path: the same objects, links, binaries and disk
 * cache. */
#include <stdlib.h>

#include "build_options.h"
#include "internal.h"
#include "spirv.h"

/* Options are those of OpenCL C builds; the preprocessor's and -cl-std
 * have nothing to act on, the code-generation ones apply as for source. */
static bool parse_options(const char *options, unsigned *flags, cc_text *log) {
  cc_build_options parsed;
  char *error = NULL;
  if (!cc_parse_build_options(options, &parsed, &error)) {
    cc_text_add(log, "error: %s\n", error ? error : "out of memory");
    free(error);
    return false;
  }
  *flags = parsed.flags;
  cc_build_options_free(&parsed);
  return true;
}

/* -cl-uniform-work-group-size: the mark Clang gives OpenCL C's kernels. */
static void mark_uniform(LLVMModuleRef llvm) {
  static const char name[] = "uniform-work-group-size";
  LLVMContextRef context = LLVMGetModuleContext(llvm);
  for (LLVMValueRef f = LLVMGetFirstFunction(llvm); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv) continue;
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(context, name, sizeof name - 1, "true", 4));
  }
}

cc_module *cc_module_compile_spirv(const void *il, size_t length,
                                   const cc_spirv_value *values, size_t count,
                                   const char *options, char **log,
                                   cc_module_result *out) {
  cc_module *cached =
      cc_disk_cache_find_spirv(il, length, values, count, options);
  if (cached) { /* only translations with an empty log are kept */
    if (log) *log = calloc(1, 1);
    if (out) *out = CC_MODULE_SUCCESS;
    return cached;
  }
  cc_text text = {0};
  unsigned flags = 0;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *module = NULL;
  if (!parse_options(options, &flags, &text)) {
    result = CC_MODULE_INVALID_OPTIONS;
  } else if (!(module = cc_module_new(CC_MODULE_OBJECT, options, flags))) {
    result = CC_MODULE_OUT_OF_MEMORY;
  }
  LLVMModuleRef llvm = NULL;
  if (module) {
    char *translator_log = NULL;
    cc_spirv_result translated = cc_spirv_translate(
        module->context, il, length, values, count, &llvm, &translator_log);
    if (translator_log) cc_text_add(&text, "%s", translator_log);
    free(translator_log);
    result = translated == CC_SPIRV_SUCCESS  ? CC_MODULE_SUCCESS
             : translated == CC_SPIRV_FAILED ? CC_MODULE_COMPILE_FAILED
                                             : CC_MODULE_OUT_OF_MEMORY;
  }
  if (result == CC_MODULE_SUCCESS) {
    cc_log reason;
    if (cc_target_create_host(&module->target, &reason) != cc_success) {
      cc_text_add(&text, "error: %s\n", reason.text);
      LLVMDisposeModule(llvm);
      result = CC_MODULE_INTERNAL_ERROR;
    } else {
      if (flags & CC_OPTION_UNIFORM_WORK_GROUPS) mark_uniform(llvm);
      cc_target_adopt_module(module->target, llvm);
      result = cc_module_adopt(module, llvm, &text);
    }
  }
  if (text.failed) result = CC_MODULE_OUT_OF_MEMORY;
  if (result == CC_MODULE_SUCCESS && text.length == 0) {
    cc_disk_cache_store_spirv(module, il, length, values, count, options);
  }
  return cc_module_finish(module, result, &text, log, out);
}

/* clmux compiler — the module layer: clLinkProgram. Each input is copied
 * into the new module's context as bitcode (contexts cannot share IR),
 * then LLVMLinkModules2 merges them; its errors reach the log through the
 * context's diagnostic handler. */
#include <ctype.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdlib.h>
#include <string.h>

#include "build_options.h"
#include "compiler_threads.h"
#include "internal.h"

typedef struct link_options {
  bool library;
  bool enable_link_options;
  unsigned flags;
} link_options;

static bool token_is(const char *at, size_t length, const char *name) {
  return strlen(name) == length && strncmp(at, name, length) == 0;
}

/* OpenCL 1.2, 5.6.5.2 and 5.6.5.3: the only link options. */
static bool parse_link_options(const char *text, link_options *out,
                               cc_text *log) {
  static const struct {
    const char *name;
    unsigned flags;
  } math[] = {
      {"-cl-denorms-are-zero", CC_OPTION_DENORMS_ARE_ZERO},
      {"-cl-no-signed-zeros", CC_OPTION_NO_SIGNED_ZEROS},
      {"-cl-unsafe-math-optimizations", CC_OPTION_UNSAFE_MATH},
      {"-cl-finite-math-only", CC_OPTION_FINITE_MATH_ONLY},
      {"-cl-fast-relaxed-math", CC_OPTION_FAST_RELAXED_MATH},
  };
  memset(out, 0, sizeof *out);
  const char *at = text ? text : "";
  for (;;) {
    while (isspace((unsigned char)*at)) at++;
    if (!*at) break;
    size_t length = 0;
    while (at[length] && !isspace((unsigned char)at[length])) length++;
    bool known = false;
    if (token_is(at, length, "-create-library")) {
      out->library = known = true;
    } else if (token_is(at, length, "-enable-link-options")) {
      out->enable_link_options = known = true;
    }
    for (size_t i = 0; !known && i < sizeof math / sizeof *math; i++) {
      if (token_is(at, length, math[i].name)) {
        out->flags |= math[i].flags;
        known = true;
      }
    }
    if (!known) {
      cc_text_add(log, "error: unknown link option '%.*s'\n", (int)length, at);
      return false;
    }
    at += length;
  }
  if (out->enable_link_options && !out->library) {
    cc_text_add(log, "error: -enable-link-options needs -create-library\n");
    return false;
  }
  return true;
}

/* Builtins (mangled), intrinsics, reserved names and printf are resolved
 * later by the builtin library, not by the user's modules. */
static bool is_external_builtin(const char *name) {
  return strncmp(name, "_Z", 2) == 0 || strncmp(name, "llvm.", 5) == 0 ||
         strncmp(name, "__", 2) == 0 || strcmp(name, "printf") == 0;
}

/* The function an instruction (or a constant used by one) sits in. */
static const char *user_function(LLVMValueRef value) {
  LLVMUseRef use = LLVMGetFirstUse(value);
  LLVMValueRef user = use ? LLVMGetUser(use) : NULL;
  for (int depth = 0; user && !LLVMIsAInstruction(user) && depth < 4; depth++) {
    use = LLVMGetFirstUse(user);
    user = use ? LLVMGetUser(use) : NULL;
  }
  if (!user || !LLVMIsAInstruction(user)) return "?";
  size_t length = 0;
  return LLVMGetValueName2(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)), &length);
}

/* The library the builtins' math calls: resolved when the kernel is
 * loaded (a name it lacks fails that load, not the process). */
static bool is_math_library(const char *name) {
  return strncmp(name, "Sleef_", 6) == 0;
}

bool cc_check_defined(LLVMModuleRef module, bool prepared, cc_text *log) {
  bool ok = true;
  size_t length = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    const char *name = LLVMGetValueName2(f, &length);
    if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) &&
        !is_external_builtin(name) && !(prepared && is_math_library(name))) {
      cc_text_add(log, "error: undefined function '%s' called from '%s'\n",
                  name, user_function(f));
      ok = false;
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    const char *name = LLVMGetValueName2(g, &length);
    if (LLVMIsDeclaration(g) && LLVMGetFirstUse(g) &&
        !is_external_builtin(name)) {
      cc_text_add(log, "error: undefined variable '%s' used in '%s'\n", name,
                  user_function(g));
      ok = false;
    }
  }
  return ok;
}

/* Parses an input's bitcode into `context` (*copy), errors logged. */
static cc_module_result copy_input(cc_module *input, LLVMContextRef context,
                                   size_t index, LLVMModuleRef *copy,
                                   cc_text *log) {
  *copy = NULL;
  LLVMMemoryBufferRef bitcode = cc_module_bitcode(input);
  if (!bitcode) return CC_MODULE_OUT_OF_MEMORY;
  cc_module_result result = CC_MODULE_SUCCESS;
  if (LLVMParseBitcodeInContext2(context, bitcode, copy)) {
    cc_text_add(log, "error: input %zu cannot be read back\n", index);
    *copy = NULL;
    result = CC_MODULE_INTERNAL_ERROR;
  }
  LLVMDisposeMemoryBuffer(bitcode);
  return result;
}

static cc_module_result link_into(cc_module *module, cc_module *const *inputs,
                                  size_t count, bool relaxed_math,
                                  cc_text *log) {
  LLVMModuleRef linked = NULL;
  module->diagnostics = log;
  cc_module_result result = CC_MODULE_SUCCESS;
  for (size_t i = 0; i < count && result == CC_MODULE_SUCCESS; i++) {
    LLVMModuleRef copy = NULL;
    result = copy_input(inputs[i], module->context, i, &copy, log);
    if (result != CC_MODULE_SUCCESS) {
      break;
    } else if (!linked) {
      linked = copy;
    } else if (LLVMLinkModules2(linked, copy)) { /* consumes copy */
      cc_text_add(log, "error: linking input %zu failed\n", i);
      result = CC_MODULE_LINK_FAILED;
    }
  }
  module->diagnostics = NULL;
  if (result == CC_MODULE_SUCCESS && module->kind == CC_MODULE_EXECUTABLE) {
    result = cc_check_defined(linked, false, log)
                 ? cc_prepare_executable(linked, relaxed_math, log)
                 : CC_MODULE_LINK_FAILED;
  }
  if (result != CC_MODULE_SUCCESS) {
    if (linked) LLVMDisposeModule(linked);
    return result;
  }
  return cc_module_adopt(module, linked, log);
}

static cc_module *link_here(cc_module *const *inputs, size_t count,
                            const char *options, char **log,
                            cc_module_result *out) {
  cc_text text = {0};
  cc_module_result result = CC_MODULE_SUCCESS;
  link_options parsed;
  if (!parse_link_options(options, &parsed, &text)) {
    result = CC_MODULE_INVALID_OPTIONS;
  } else if (!inputs || count == 0) {
    cc_text_add(&text, "error: nothing to link\n");
    result = CC_MODULE_INVALID_VALUE;
  }
  unsigned flags = parsed.flags;
  for (size_t i = 0; result == CC_MODULE_SUCCESS && i < count; i++) {
    if (!inputs[i] || inputs[i]->kind == CC_MODULE_EXECUTABLE) {
      cc_text_add(&text,
                  "error: input %zu is not a compiled object or library\n", i);
      result = CC_MODULE_INVALID_OPERATION;
    } else {
      flags |= inputs[i]->flags;
    }
  }
  cc_module *module = NULL;
  if (result == CC_MODULE_SUCCESS) {
    module =
        cc_module_new(parsed.library ? CC_MODULE_LIBRARY : CC_MODULE_EXECUTABLE,
                      options, flags);
    /* Compile options mark the calls they relax; link options relax all. */
    bool relaxed_math =
        parsed.flags & (CC_OPTION_FAST_RELAXED_MATH | CC_OPTION_UNSAFE_MATH);
    result = module ? link_into(module, inputs, count, relaxed_math, &text)
                    : CC_MODULE_OUT_OF_MEMORY;
  }
  if (text.failed) result = CC_MODULE_OUT_OF_MEMORY;
  if (result == CC_MODULE_SUCCESS) {
    cc_disk_cache_name_link(module, inputs, count, options);
  }
  cc_text_give(&text, log);
  if (out) *out = result;
  if (result != CC_MODULE_SUCCESS) {
    cc_module_destroy(module);
    return NULL;
  }
  return module;
}

typedef struct link_call {
  cc_module *const *inputs;
  size_t count;
  const char *options;
  char **log;
  cc_module_result *out;
  cc_module *module;
} link_call;

static void link_call_run(void *data) {
  link_call *c = data;
  c->module = link_here(c->inputs, c->count, c->options, c->log, c->out);
}

cc_module *cc_module_link(cc_module *const *inputs, size_t count,
                          const char *options, char **log,
                          cc_module_result *out) {
  link_call call = {inputs, count, options, log, out, NULL};
  cc_on_compiler_thread(link_call_run, &call);
  return call.module;
}

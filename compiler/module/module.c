/* clmux compiler — the module layer: a module's life (one LLVMContext
 * each), compiling OpenCL C into one, logs and LLVM diagnostics. */
#include <llvm-c/BitWriter.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_options.h"
#include "compiler_threads.h"
#include "internal.h"

void cc_text_add(cc_text *text, const char *format, ...) {
  if (text->failed) return;
  va_list list;
  va_start(list, format);
  int needed = vsnprintf(NULL, 0, format, list);
  va_end(list);
  if (needed < 0) return;
  size_t want = text->length + (size_t)needed + 1;
  if (want > text->capacity) {
    size_t capacity = want * 2;
    char *grown = realloc(text->data, capacity);
    if (!grown) {
      text->failed = true;
      return;
    }
    text->data = grown;
    text->capacity = capacity;
  }
  va_start(list, format);
  vsnprintf(text->data + text->length, (size_t)needed + 1, format, list);
  va_end(list);
  text->length += (size_t)needed;
}

void cc_text_give(cc_text *text, char **out) {
  if (!text->failed && !text->data) {
    text->data = calloc(1, 1);
    text->failed = !text->data;
  }
  if (text->failed) {
    free(text->data);
    text->data = NULL;
  }
  if (out) {
    *out = text->data;
  } else {
    free(text->data);
  }
  memset(text, 0, sizeof *text);
}

char *cc_module_strdup(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (copy) memcpy(copy, text, length);
  return copy;
}

/* LLVM's errors (linker, bitcode reader) into the current log; without a
 * handler the context would print them and exit the process. */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *data) {
  cc_module *module = data;
  LLVMDiagnosticSeverity severity = LLVMGetDiagInfoSeverity(info);
  if (severity != LLVMDSError || !module->diagnostics) return;
  char *message = LLVMGetDiagInfoDescription(info);
  cc_text_add(module->diagnostics, "error: %s\n", message ? message : "?");
  LLVMDisposeMessage(message);
}

cc_module *cc_module_new(cc_module_kind kind, const char *options,
                         unsigned flags) {
  cc_module *module = calloc(1, sizeof *module);
  if (!module) return NULL;
  module->options = cc_module_strdup(options ? options : "");
  module->context = LLVMContextCreate();
  if (!module->options || !module->context) {
    free(module->options);
    if (module->context) LLVMContextDispose(module->context);
    free(module);
    return NULL;
  }
  module->kind = kind;
  module->flags = flags;
  pthread_mutex_init(&module->llvm_lock, NULL);
  pthread_mutex_init(&module->cache_lock, NULL);
  pthread_cond_init(&module->cache_done, NULL);
  LLVMContextSetDiagnosticHandler(module->context, on_diagnostic, module);
  return module;
}

cc_module_result cc_module_adopt(cc_module *module, LLVMModuleRef llvm,
                                 cc_text *log) {
  module->llvm = llvm;
  return cc_kernels_read(module, log);
}

void cc_module_destroy(cc_module *module) {
  if (!module) return;
  for (cc_spec *spec = module->cache, *next; spec; spec = next) {
    next = spec->next;
    free(spec->binary);
    free(spec->reason);
    free(spec);
  }
  for (size_t k = 0; module->parts && k < module->kernel_count; k++) {
    LLVMDisposeModule(module->parts[k]);
  }
  free(module->parts);
  cc_program_globals_release(&module->globals);
  cc_kernels_free(module);
  cc_target_destroy(module->target);
  if (module->llvm) LLVMDisposeModule(module->llvm);
  LLVMContextDispose(module->context);
  pthread_cond_destroy(&module->cache_done);
  pthread_mutex_destroy(&module->cache_lock);
  pthread_mutex_destroy(&module->llvm_lock);
  free(module->options);
  free(module);
}

/* Records which kernels may report their argument info. */
static void mark_arg_info(LLVMModuleRef llvm) {
  LLVMContextRef context = LLVMGetModuleContext(llvm);
  for (LLVMValueRef f = LLVMGetFirstFunction(llvm); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) ||
        LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv) {
      continue;
    }
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    LLVMValueRef string =
        LLVMMDStringInContext(context, name, (unsigned)length);
    LLVMAddNamedMetadataOperand(llvm, CC_ARG_INFO_METADATA,
                                LLVMMDNodeInContext(context, &string, 1));
  }
}

static void set_result(cc_module_result *out, cc_module_result result) {
  if (out) *out = result;
}

static cc_module *compile_here(const char *source, size_t length,
                               const char *options, const cc_header *headers,
                               size_t num_headers, char **log,
                               cc_module_result *out) {
  cc_module *cached =
      cc_disk_cache_find_object(source, length, options, headers, num_headers);
  if (cached) {
    cc_disk_cache_name_object(cached, source, length, options, headers,
                              num_headers);
    if (log) *log = calloc(1, 1);
    set_result(out, CC_MODULE_SUCCESS);
    return cached;
  }
  cc_build_options parsed;
  char *error = NULL;
  unsigned flags = 0;
  if (cc_parse_build_options(options, &parsed, &error)) {
    flags = parsed.flags;
    cc_build_options_free(&parsed);
  }
  free(error); /* the front-end reports bad options itself */
  cc_module *module = cc_module_new(CC_MODULE_OBJECT, options, flags);
  if (!module) {
    set_result(out, CC_MODULE_OUT_OF_MEMORY);
    return NULL;
  }
  LLVMModuleRef llvm = NULL;
  char *frontend_log = NULL;
  cc_frontend_result compiled =
      cc_compile_opencl_c(module->context, source, length, options, headers,
                          num_headers, &llvm, &frontend_log);
  /* Clang may swap the context's handler while it runs: ours again. */
  LLVMContextSetDiagnosticHandler(module->context, on_diagnostic, module);
  cc_text text = {0};
  if (frontend_log) cc_text_add(&text, "%s", frontend_log);
  free(frontend_log);
  cc_module_result result =
      compiled == CC_FRONTEND_SUCCESS           ? CC_MODULE_SUCCESS
      : compiled == CC_FRONTEND_INVALID_OPTIONS ? CC_MODULE_INVALID_OPTIONS
      : compiled == CC_FRONTEND_COMPILE_FAILED  ? CC_MODULE_COMPILE_FAILED
                                                : CC_MODULE_OUT_OF_MEMORY;
  if (result == CC_MODULE_SUCCESS) {
    if (flags & CC_OPTION_KERNEL_ARG_INFO) mark_arg_info(llvm);
    result = cc_module_adopt(module, llvm, &text);
  }
  if (text.failed) result = CC_MODULE_OUT_OF_MEMORY;
  if (result == CC_MODULE_SUCCESS) {
    cc_disk_cache_name_object(module, source, length, options, headers,
                              num_headers);
  }
  /* Only silent compiles are stored: a hit must give the same log. */
  if (result == CC_MODULE_SUCCESS && text.length == 0) {
    cc_disk_cache_store_object(module, source, length, options, headers,
                               num_headers);
  }
  return cc_module_finish(module, result, &text, log, out);
}

cc_module *cc_module_finish(cc_module *module, cc_module_result result,
                            cc_text *text, char **log, cc_module_result *out) {
  cc_text_give(text, log);
  set_result(out, result);
  if (result != CC_MODULE_SUCCESS) {
    cc_module_destroy(module);
    return NULL;
  }
  return module;
}

typedef struct compile_call {
  const char *source;
  size_t length;
  const char *options;
  const cc_header *headers;
  size_t num_headers;
  char **log;
  cc_module_result *out;
  cc_module *module;
} compile_call;

static void compile_call_run(void *data) {
  compile_call *c = data;
  c->module = compile_here(c->source, c->length, c->options, c->headers,
                           c->num_headers, c->log, c->out);
}

cc_module *cc_module_compile(const char *source, size_t length,
                             const char *options, const cc_header *headers,
                             size_t num_headers, char **log,
                             cc_module_result *out) {
  if (log) *log = NULL;
  compile_call call = {source,      length, options, headers,
                       num_headers, log,    out,     NULL};
  cc_on_compiler_thread(compile_call_run, &call);
  return call.module;
}

LLVMMemoryBufferRef cc_module_bitcode(cc_module *module) {
  pthread_mutex_lock(&module->llvm_lock);
  LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(module->llvm);
  pthread_mutex_unlock(&module->llvm_lock);
  return buffer;
}

cc_module_kind cc_module_get_kind(const cc_module *module) {
  return module->kind;
}

const char *cc_module_options(const cc_module *module) {
  return module->options;
}

unsigned cc_module_option_flags(const cc_module *module) {
  return module->flags;
}

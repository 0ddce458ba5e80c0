/* clmux compiler — code generation: the host target machine, the O3
 * pipeline and object emission. */
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct cc_target {
  LLVMTargetMachineRef machine;
  LLVMTargetDataRef layout;
  char *triple;
  char *cpu;
  char *features;
  unsigned vector_bits;
};

static pthread_once_t native_once = PTHREAD_ONCE_INIT;
static int native_failed;

static void initialize_native(void) {
  native_failed =
      LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter();
}

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

/* Takes cpu and features (LLVM's messages). */
static cc_status create(char *cpu, char *features, cc_target **out,
                        cc_log *log) {
  *out = NULL;
  pthread_once(&native_once, initialize_native);
  cc_target *target = calloc(1, sizeof *target);
  if (!target || native_failed) {
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    free(target);
    return native_failed
               ? cc_fail(log, cc_error_llvm, "LLVM has no native target")
               : cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  target->triple = LLVMGetDefaultTargetTriple();
  target->cpu = cpu;
  target->features = features;
  LLVMTargetRef llvm_target = NULL;
  char *message = NULL;
  if (LLVMGetTargetFromTriple(target->triple, &llvm_target, &message)) {
    cc_fail(log, cc_error_llvm, "target %s: %s", target->triple, message);
    LLVMDisposeMessage(message);
    cc_target_destroy(target);
    return cc_error_llvm;
  }
  target->machine = LLVMCreateTargetMachine(
      llvm_target, target->triple, target->cpu, target->features,
      LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelDefault);
  if (!target->machine) {
    cc_fail(log, cc_error_llvm, "no target machine for %s", target->cpu);
    cc_target_destroy(target);
    return cc_error_llvm;
  }
  target->layout = LLVMCreateTargetDataLayout(target->machine);
  target->vector_bits = has_feature(target->features, "avx512f") ? 512
                        : has_feature(target->features, "avx")   ? 256
                                                                 : 128;
  *out = target;
  return cc_success;
}

cc_status cc_target_create_host(cc_target **out, cc_log *log) {
  return create(LLVMGetHostCPUName(), LLVMGetHostCPUFeatures(), out, log);
}

cc_status cc_target_create_named(const char *cpu, const char *features,
                                 cc_target **out, cc_log *log) {
  return create(LLVMCreateMessage(cpu), LLVMCreateMessage(features), out, log);
}

void cc_target_destroy(cc_target *target) {
  if (!target) return;
  if (target->layout) LLVMDisposeTargetData(target->layout);
  if (target->machine) LLVMDisposeTargetMachine(target->machine);
  LLVMDisposeMessage(target->triple);
  LLVMDisposeMessage(target->cpu);
  LLVMDisposeMessage(target->features);
  free(target);
}

unsigned cc_target_vector_bits(const cc_target *target) {
  return target->vector_bits;
}

const char *cc_target_cpu_name(const cc_target *target) { return target->cpu; }

void cc_target_adopt_module(const cc_target *target, LLVMModuleRef module) {
  LLVMSetTarget(module, target->triple);
  LLVMSetModuleDataLayout(module, target->layout);
}

static void ignore_diagnostic(LLVMDiagnosticInfoRef info, void *context) {
  (void)info;
  (void)context;
}

cc_status cc_codegen_optimize(const cc_target *target, LLVMModuleRef module,
                              cc_log *log) {
  cc_target_adopt_module(target, module);
  /* The host's full width, not a tuning default (some CPUs prefer 256). */
  char bits[16];
  snprintf(bits, sizeof bits, "%u", target->vector_bits);
  LLVMContextRef context = LLVMGetModuleContext(module);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(context, "prefer-vector-width", 19, bits,
                                  (unsigned)strlen(bits)));
  }
  LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
  /* Missed-optimization warnings would go to the application's stderr. */
  LLVMDiagnosticHandler handler = LLVMContextGetDiagnosticHandler(context);
  void *handler_context = LLVMContextGetDiagnosticContext(context);
  LLVMContextSetDiagnosticHandler(context, ignore_diagnostic, NULL);
  LLVMErrorRef error =
      LLVMRunPasses(module, "default<O3>", target->machine, options);
  LLVMContextSetDiagnosticHandler(context, handler, handler_context);
  LLVMDisposePassBuilderOptions(options);
  if (!error) {
    cc_unpredicate_divisions(module);
    return cc_success;
  }
  char *message = LLVMGetErrorMessage(error);
  cc_fail(log, cc_error_llvm, "default<O3>: %s", message);
  LLVMDisposeErrorMessage(message);
  return cc_error_llvm;
}

static cc_status emit(const cc_target *target, LLVMModuleRef module,
                      LLVMCodeGenFileType type, LLVMMemoryBufferRef *out,
                      cc_log *log) {
  cc_target_adopt_module(target, module);
  char *message = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(target->machine, module, type,
                                          &message, out)) {
    cc_fail(log, cc_error_llvm, "emission failed: %s", message ? message : "");
    LLVMDisposeMessage(message);
    *out = NULL;
    return cc_error_llvm;
  }
  return cc_success;
}

cc_status cc_codegen_emit_object(const cc_target *target, LLVMModuleRef module,
                                 LLVMMemoryBufferRef *object, cc_log *log) {
  return emit(target, module, LLVMObjectFile, object, log);
}

cc_status cc_codegen_emit_assembly(const cc_target *target,
                                   LLVMModuleRef module, char **text,
                                   cc_log *log) {
  LLVMMemoryBufferRef buffer = NULL;
  *text = NULL;
  cc_status status = emit(target, module, LLVMAssemblyFile, &buffer, log);
  if (status != cc_success) return status;
  size_t size = LLVMGetBufferSize(buffer);
  *text = malloc(size + 1);
  if (*text) {
    memcpy(*text, LLVMGetBufferStart(buffer), size);
    (*text)[size] = '\0';
  }
  LLVMDisposeMemoryBuffer(buffer);
  return *text ? cc_success : cc_fail(log, cc_error_out_of_memory, "no memory");
}

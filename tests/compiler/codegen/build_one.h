/* clmux compiler tests — code generation: one kernel built by
 * cc_codegen_build for one local size, for tests that read its optimized
 * IR, count it or load it. Only check.h: tests that never run a kernel
 * need no Mux device. */
#ifndef CLMUX_TESTS_CODEGEN_BUILD_ONE_H
#define CLMUX_TESTS_CODEGEN_BUILD_ONE_H

#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "codegen.h"

/* The container's bytes (free them) with its size in *size, and, when
 * `optimized` is not NULL, the optimized module there (dispose of it); or
 * NULL after a failed check that printed the build log. */
static inline uint8_t *build_one(const cc_target *target, LLVMModuleRef source,
                                 const char *name, const uint32_t local[3],
                                 size_t *size, LLVMModuleRef *optimized) {
  cc_kernel_request request = {
      name, {local[0], local[1], local[2]}, false, NULL, false, {0, 0, 0}};
  uint8_t *binary = NULL;
  cc_log log = {""};
  cc_status status = cc_codegen_build(target, source, &request, 1, &binary,
                                      size, optimized, &log);
  CHECK_INT(cc_success, status);
  if (status != cc_success) {
    fprintf(stderr, "%s (local %ux%ux%u): %s\n", name, local[0], local[1],
            local[2], log.text);
    return NULL;
  }
  return binary;
}

/* The optimized IR of `name` built for `local` (dispose with
 * LLVMDisposeMessage; printed too with CLMUX_CODEGEN_DUMP set), or NULL
 * after a failed check. */
static inline char *build_one_ir(const cc_target *target, LLVMModuleRef source,
                                 const char *name, const uint32_t local[3]) {
  size_t size = 0;
  LLVMModuleRef module = NULL;
  uint8_t *binary = build_one(target, source, name, local, &size, &module);
  if (!binary) return NULL;
  free(binary);
  char *ir = LLVMPrintModuleToString(module);
  LLVMDisposeModule(module);
  if (getenv("CLMUX_CODEGEN_DUMP")) fputs(ir, stdout);
  return ir;
}

#endif /* CLMUX_TESTS_CODEGEN_BUILD_ONE_H */

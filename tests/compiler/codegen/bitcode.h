/* clmux compiler tests — code generation: the Clang-built .bc files the
 * tests start from (kernels/, compiled at build time). Only check.h: tests
 * that never run a kernel need no Mux device. */
#ifndef CLMUX_TESTS_CODEGEN_BITCODE_H
#define CLMUX_TESTS_CODEGEN_BITCODE_H

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* The module of a .bc file built by Clang at build time. */
static inline LLVMModuleRef load_bitcode(LLVMContextRef context,
                                         const char *path) {
  LLVMMemoryBufferRef buffer = NULL;
  char *message = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &message)) {
    fprintf(stderr, "cannot read %s: %s\n", path, message);
    exit(1);
  }
  LLVMModuleRef module = NULL;
  REQUIRE(!LLVMParseBitcodeInContext2(context, buffer, &module));
  LLVMDisposeMemoryBuffer(buffer);
  return module;
}

#endif /* CLMUX_TESTS_CODEGEN_BITCODE_H */

/* clmux compiler — builtin library: what its C files share. */
#ifndef CLMUX_COMPILER_BUILTINS_INTERNAL_H
#define CLMUX_COMPILER_BUILTINS_INTERNAL_H

#include "builtins.h"

/* Gives every call of a SLEEF scalar function (or of the library's own
 * CC_VECTOR_VARIANT_PREFIX ones) in `module` the vector variants the host
 * can run, declared and kept in @llvm.compiler.used. */
void cc_builtins_add_vector_variants(LLVMModuleRef module);

#endif /* CLMUX_COMPILER_BUILTINS_INTERNAL_H */

/* clmux compiler — the OpenCL C builtin library.
 *
 * The library is OpenCL C compiled to bitcode at build time with the
 * front-end's flags and embedded here. Its transcendental math calls
 * SLEEF's scalar u10 functions, u35 ones for some half_ and native_ forms
 * (resolved at load time: the CPU target's loader opens libsleef
 * globally); after linking, those calls carry
 * "vector-function-abi-variant" attributes naming SLEEF's vector forms up
 * to the host's vector width, so a work-item loop calling exp() or sin()
 * vectorizes like one calling +.
 *
 * Threads: like the rest of the compiler, calls on modules of one LLVM
 * context must not overlap; different contexts may be used at once. */
#ifndef CLMUX_COMPILER_BUILTINS_H
#define CLMUX_COMPILER_BUILTINS_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codegen.h"

/* Links into `module` the definitions of the builtins it uses (and what
 * they use), then marks their SLEEF calls (and the library's own
 * CC_VECTOR_VARIANT_PREFIX ones) with their vector variants.
 * Call it once on a program's module after linking its parts and before
 * cc_codegen_build; the module must not define builtins itself. */
cc_status cc_builtins_link(LLVMModuleRef module, cc_log *log);

/* Before cc_builtins_link: calls of float math that may be approximate
 * (marked approx-func by -cl-fast-relaxed-math or
 * -cl-unsafe-math-optimizations, or all of them if `all`) go to the
 * faster native_ forms where the library has them (relaxed_calls.c). */
void cc_builtins_relax_calls(LLVMModuleRef module, bool all);

#endif /* CLMUX_COMPILER_BUILTINS_H */

/* clmux compiler — printf in kernels (OpenCL 1.2 §6.12.13).
 *
 * cc_printf_lower rewrites every call of printf in a module as Clang emits
 * it (i32 @printf(ptr addrspace(2), ...)) into a record on the stack and a
 * call of the CPU target's entry point CPU_PRINTF_SYMBOL (record layout in
 * include/clmux/cpu_abi/printf_record.h); the call's result (0, or -1 when the work-group's
 * printf buffer is full) replaces printf's. The record holds the
 * work-item's local linear id (from get_local_id/get_local_size, which
 * code generation lowers), the format's address and each argument's bytes;
 * the target reads the types from the format when it prints, so a format
 * need not be a literal. Run it on the linked module, before codegen. */
#ifndef CLMUX_COMPILER_PRINTF_LOWER_H
#define CLMUX_COMPILER_PRINTF_LOWER_H

#include <llvm-c/Core.h>

#include "codegen.h"

/* cc_success also when the module has no printf; cc_error_unsupported if
 * printf is used other than by direct calls (its address taken). */
cc_status cc_printf_lower(LLVMModuleRef module, cc_log *log);

#endif /* CLMUX_COMPILER_PRINTF_LOWER_H */

/* clmux compiler — code generation: helpers shared by its files. */
#ifndef CLMUX_COMPILER_CODEGEN_INTERNAL_H
#define CLMUX_COMPILER_CODEGEN_INTERNAL_H

#include <stdbool.h>

#include "codegen.h"

/* Writes a formatted reason into `log` (if any); returns `status`. */
cc_status cc_fail(cc_log *log, cc_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Runs a textual new-PM pipeline with no target machine. */
cc_status cc_run_passes(LLVMModuleRef module, const char *passes, cc_log *log);

/* The function `name` if it is a kernel (spir_kernel with a body). */
LLVMValueRef cc_find_kernel(LLVMModuleRef module, const char *name);

/* The name of the function a call instruction calls directly, or "". */
const char *cc_callee_name(LLVMValueRef call);

/* Removes from every function and call site what Clang puts there that
 * stops inlining or vectorization at the host width: target-cpu and
 * target-features, min-legal-vector-width, convergent, noinline, optnone. */
void cc_strip_attributes(LLVMModuleRef module);

/* Replaces in `function` each call of a work-item function (and of
 * mem_fence, a no-op for work-items run one after another) with its value;
 * `wg` is the cpu_work_group pointer, `local_id`/`global_id` the
 * work-item's ids (i64), `local_size` the group's if specialized (each 0
 * reads wg). */
void cc_lower_work_items(LLVMValueRef function, LLVMValueRef wg,
                         LLVMValueRef local_id[3], LLVMValueRef global_id[3],
                         const uint32_t local_size[3]);

/* Builds the work-group function `symbol` around `body`, a function that
 * takes the kernel's arguments (by-value aggregates, where `by_pointer`,
 * as pointers into the argument block) then wg, local ids x, y, z and
 * global ids x, y, z. `parallel` marks the x loop's accesses independent
 * across work-items (else the vectorizer checks aliasing itself). */
LLVMValueRef cc_build_work_group_loops(LLVMModuleRef module, LLVMValueRef body,
                                       const cc_kernel_info *info,
                                       const bool *by_pointer,
                                       const uint32_t local_size[3],
                                       const char *symbol, bool parallel);

/* An i8 pointer to field `offset` of the cpu_work_group at `wg`, loaded as
 * `type`. */
LLVMValueRef cc_load_wg_field(LLVMBuilderRef builder, LLVMValueRef wg,
                              LLVMTypeRef type, size_t offset,
                              const char *name);

#endif /* CLMUX_COMPILER_CODEGEN_INTERNAL_H */

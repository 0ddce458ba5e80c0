/* clmux compiler — code generation: what each stage of a specialization
 * costs, for CLMUX_DEBUG and the timeline (CLMUX_TRACE). A build runs on
 * one thread from start to finish, so the record is the thread's own: the
 * stages mark their ends wherever they are, with no record passed down.
 * Off (neither set), a mark costs one thread-local read. */
#ifndef CLMUX_COMPILER_CODEGEN_STAGES_H
#define CLMUX_COMPILER_CODEGEN_STAGES_H

#include <llvm-c/Core.h>
#include <stdint.h>

/* Starts recording the calling thread's build of `kernel` at `local_size`
 * (0x0x0: any). */
void cc_stages_start(const char *kernel, const uint32_t local_size[3]);

/* Ends the current stage, `name`: its time since the last mark and, when
 * `module` is given, the instructions the module holds after it. */
void cc_stage_done(const char *name, LLVMModuleRef module);

/* The instructions counted after the last stage `name` of the calling
 * thread's record, not yet ended; -1 if not recorded or not counted. */
int64_t cc_stage_instructions(const char *name);

/* Ends the record: CLMUX_DEBUG prints one line with every stage, the
 * timeline gets one slice a stage on the calling thread's track. */
void cc_stages_finish(void);

/* The instructions of `module`'s function bodies. */
uint64_t cc_module_instructions(LLVMModuleRef module);

#endif /* CLMUX_COMPILER_CODEGEN_STAGES_H */

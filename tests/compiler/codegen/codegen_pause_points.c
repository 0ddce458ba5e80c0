/* Pause points (progress.c): a kernel with a loop in which one sub-group
 * may wait for another (an atomic, a fence or a volatile access in the
 * loop) calls the CPU target's pause point in that loop and runs its
 * sub-groups in turns; a kernel whose atomics are outside every loop
 * does neither. Covers a loop of one block branching to itself and two
 * nested loops. Bitcode path in argv: progress. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "check.h"
#include "codegen.h"

/* Calls of `symbol` in `module`'s defined functions. */
static unsigned calls_of(LLVMModuleRef module, const char *symbol) {
  unsigned count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
         b = LLVMGetNextBasicBlock(b)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
           i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsACallInst(i)) continue;
        LLVMValueRef callee = LLVMGetCalledValue(i);
        size_t length = 0;
        const char *name = LLVMGetValueName2(callee, &length);
        if (name && strcmp(name, symbol) == 0) count++;
      }
    }
  }
  return count;
}

typedef struct {
  unsigned pauses, turns;
} progress_calls;

static progress_calls compile(LLVMModuleRef source, const char *kernel,
                              uint32_t width) {
  LLVMModuleRef module = NULL;
  cc_log log = {""};
  const uint32_t local_size[3] = {width, width ? 1 : 0, width ? 1 : 0};
  cc_status status =
      cc_codegen_work_group(source, kernel, local_size, "wg", &module, &log);
  if (status != cc_success) fprintf(stderr, "%s: %s\n", kernel, log.text);
  CHECK_INT(cc_success, status);
  progress_calls calls = {0, 0};
  if (!module) return calls;
  calls.pauses = calls_of(module, CPU_PAUSE_SYMBOL);
  calls.turns = calls_of(module, CPU_SUB_GROUPS_SYMBOL);
  LLVMDisposeModule(module);
  return calls;
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef source = load_bitcode(context, argv[1]);

  /* Local sizes 64 (vector bodies) and 0 (any size). */
  const uint32_t widths[2] = {64, 0};
  for (unsigned w = 0; w < 2; w++) {
    progress_calls spin = compile(source, "spin", widths[w]);
    CHECK(spin.pauses >= 1);
    CHECK(spin.turns >= 1);

    progress_calls self = compile(source, "self_loop", widths[w]);
    CHECK(self.pauses >= 1);
    CHECK(self.turns >= 1);

    /* Each loop synchronizes, so each gets its own. */
    progress_calls nested = compile(source, "nested", widths[w]);
    CHECK(nested.pauses >= 2);
    CHECK(nested.turns >= 1);

    progress_calls once = compile(source, "atomic_once", widths[w]);
    CHECK_INT(0, once.pauses);
    CHECK_INT(0, once.turns);

    progress_calls after = compile(source, "after_loop", widths[w]);
    CHECK_INT(0, after.pauses);
    CHECK_INT(0, after.turns);
  }

  LLVMDisposeModule(source);
  LLVMContextDispose(context);
  return check_finish();
}

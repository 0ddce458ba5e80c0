/* clmux compiler — code generation: independent forward progress of
 * sub-groups. A sub-group can wait for another of its work-group only in
 * a loop that reads memory the other writes: a loop with an atomic
 * access, a fence or a volatile access (a plain load in such a loop is a
 * data race, which the language leaves undefined). Such loops get a call
 * of the CPU target's pause point (work_group_abi.h), which now and then
 * lets the group's other sub-groups run; the work-group function then
 * runs its sub-groups through the target's scheduler (loops.c). */
#include <stdlib.h>

#include "internal.h"
#include "work_group_abi.h"

/* Whether `inst` can see, or make, another sub-group's progress. */
static bool synchronizes(LLVMValueRef inst) {
  if (LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) ||
      LLVMIsAFenceInst(inst)) {
    return true;
  }
  if (LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) {
    return LLVMGetVolatile(inst) ||
           LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic;
  }
  return false;
}

static LLVMValueRef first_synchronizing(LLVMBasicBlockRef block) {
  for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
       inst = LLVMGetNextInstruction(inst)) {
    if (synchronizes(inst)) return inst;
  }
  return NULL;
}

/* in_cycle[b]: block b reaches itself. One search from each block that
 * synchronizes (only those are asked about). */
static bool mark_cycles(const cc_blocks *blocks, bool *in_cycle) {
  size_t n = blocks->count;
  bool *seen = malloc(n * sizeof *seen);
  size_t *stack = malloc(n * sizeof *stack);
  bool ok = seen && stack;
  for (size_t b = 0; ok && b < n; b++) {
    in_cycle[b] = false;
    if (!first_synchronizing(blocks->list[b])) continue;
    for (size_t i = 0; i < n; i++) seen[i] = false;
    size_t top = 0;
    stack[top++] = b;
    while (top && !in_cycle[b]) {
      size_t at = stack[--top];
      unsigned count = cc_successor_count(blocks->list[at]);
      for (unsigned s = 0; s < count; s++) {
        long next = cc_successor_index(blocks, at, s);
        if (next < 0) continue;
        if ((size_t)next == b) in_cycle[b] = true;
        if (!seen[next]) {
          seen[next] = true;
          stack[top++] = (size_t)next;
        }
      }
    }
  }
  free(seen);
  free(stack);
  return ok;
}

/* The blocks of `function` in a cycle that synchronizes, or NULL. */
static LLVMBasicBlockRef *waiting_blocks(LLVMValueRef function, size_t *count,
                                         bool *failed) {
  cc_blocks blocks;
  *count = 0;
  *failed = false;
  LLVMBasicBlockRef *found = NULL;
  bool *in_cycle = NULL;
  if (!cc_blocks_init(&blocks, function) ||
      !(in_cycle = calloc(blocks.count + 1, sizeof *in_cycle)) ||
      !(found = calloc(blocks.count + 1, sizeof *found)) ||
      !mark_cycles(&blocks, in_cycle)) {
    *failed = true;
  }
  for (size_t b = 0; !*failed && b < blocks.count; b++) {
    if (in_cycle[b]) found[(*count)++] = blocks.list[b];
  }
  cc_blocks_free(&blocks);
  free(in_cycle);
  if (*failed || !*count) {
    free(found);
    return NULL;
  }
  return found;
}

bool cc_may_wait_for_others(LLVMValueRef function) {
  size_t count = 0;
  bool failed = false;
  free(waiting_blocks(function, &count, &failed));
  return count > 0 || failed;
}

long cc_add_pause_points(LLVMModuleRef module, LLVMValueRef function) {
  size_t count = 0;
  bool failed = false;
  LLVMBasicBlockRef *blocks = waiting_blocks(function, &count, &failed);
  if (failed) return -1;
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef type =
      LLVMFunctionType(LLVMVoidTypeInContext(context), NULL, 0, 0);
  LLVMValueRef pause = LLVMGetNamedFunction(module, CPU_PAUSE_SYMBOL);
  if (count && !pause) {
    pause = LLVMAddFunction(module, CPU_PAUSE_SYMBOL, type);
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(pause, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(context, nounwind, 0));
  }
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  for (size_t i = 0; i < count; i++) {
    LLVMPositionBuilderBefore(builder, first_synchronizing(blocks[i]));
    LLVMBuildCall2(builder, type, pause, NULL, 0, "");
  }
  LLVMDisposeBuilder(builder);
  free(blocks);
  return (long)count;
}

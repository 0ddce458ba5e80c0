/* clmux compiler — code generation: independent forward progress of
 * sub-groups. A sub-group can wait for another of its work-group only in
 * a loop that reads memory the other writes: a loop with an atomic
 * access, a fence or a volatile access (a plain load in such a loop is a
 * data race, which the language leaves undefined). Such loops get a call
 * of the CPU target's pause point (work_group_abi.h), which now and then
 * lets the group's other sub-groups run; the work-group function then
 * runs its sub-groups through the target's scheduler (loops.c). */
#include <clmux/cpu_abi/work_group_abi.h>
#include <stdlib.h>

#include "internal.h"

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

/* One block's state in mark_cycles' search. */
typedef struct search_state {
  size_t order; /* when the search found it, from 1; 0: not yet */
  size_t low;   /* the earliest block on the stack it reaches */
  unsigned next_successor;
  bool on_stack;
} search_state;

/* in_cycle[b]: block b reaches itself, that is its strongly connected
 * component has more than one block, or it branches to itself. Tarjan's
 * search without recursion: linear in blocks and edges, however many
 * blocks synchronize. */
static bool mark_cycles(const cc_blocks *blocks, bool *in_cycle) {
  size_t n = blocks->count;
  search_state *state = calloc(n + 1, sizeof *state);
  size_t *component = malloc((n + 1) * sizeof *component);
  size_t *path = malloc((n + 1) * sizeof *path);
  bool ok = state && component && path;
  size_t found = 0, pending = 0;
  for (size_t root = 0; ok && root < n; root++) {
    if (state[root].order) continue;
    size_t depth = 0;
    path[depth++] = root;
    state[root].order = state[root].low = ++found;
    state[root].on_stack = true;
    component[pending++] = root;
    while (depth) {
      size_t v = path[depth - 1];
      search_state *at = &state[v];
      if (at->next_successor < cc_successor_count(blocks->list[v])) {
        long w = cc_successor_index(blocks, v, at->next_successor++);
        if (w < 0) continue;
        if ((size_t)w == v) in_cycle[v] = true;
        if (!state[w].order) {
          state[w].order = state[w].low = ++found;
          state[w].on_stack = true;
          component[pending++] = (size_t)w;
          path[depth++] = (size_t)w;
        } else if (state[w].on_stack && state[w].order < at->low) {
          at->low = state[w].order;
        }
        continue;
      }
      /* Every successor done: pass low up; a root pops its component. */
      if (--depth && at->low < state[path[depth - 1]].low) {
        state[path[depth - 1]].low = at->low;
      }
      if (at->low != at->order) continue;
      size_t end = pending, w;
      do {
        w = component[--pending];
        state[w].on_stack = false;
      } while (w != v);
      for (size_t i = pending; end - pending > 1 && i < end; i++) {
        in_cycle[component[i]] = true;
      }
    }
  }
  free(state);
  free(component);
  free(path);
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
    if (in_cycle[b] && first_synchronizing(blocks.list[b])) {
      found[(*count)++] = blocks.list[b];
    }
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

/* clmux compiler — code generation: repairs what LLVM 19's loop vectorizer
 * makes of a division of loop-invariant values under a branch (`in[k % n]`
 * in an if, widened across work-items; llvm/llvm-project#142957, fixed
 * after 19). It takes the division for uniform and computes it under a
 * condition that may not hold where the result is read: in a block of its
 * own, taken when the vector's first lane takes the branch, read through
 * `phi [poison, skipped], [q, taken]` in every lane (seeds 1644, 30892);
 * or once per lane, each under its lane's condition, inserted into a
 * vector whose first lane then addresses every lane's load (seed 34028,
 * where a nested branch used the same division). When the first lane
 * skips the branch, every lane reads poison: a garbage address.
 *
 * clmux's divisions cannot trap (division.c), so the quotient can be
 * computed where it is read, provided its operands still hold there what
 * they held where LLVM computed it. The phi or the lane becomes the
 * division itself (with the casts LLVM sank next to it: seed 30892's
 * zext), which refines poison to the value the other lanes need. Run
 * after the optimizer, on its output. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Whether `value` cannot be 0: the forms division.c's guard takes after
 * instcombine (umax(d, 1), a select of 1), and non-zero constants. A
 * division whose divisor the optimizer proved non-zero only under the
 * branch (`if (d) x / d`) has none of them and stays where it is. */
static bool nonzero(LLVMValueRef value, int depth) {
  if (LLVMIsAConstantInt(value)) return LLVMConstIntGetZExtValue(value) != 0;
  if (depth > 4 || !LLVMIsAInstruction(value)) return false;
  switch (LLVMGetInstructionOpcode(value)) {
    case LLVMZExt:
      return nonzero(LLVMGetOperand(value, 0), depth + 1);
    case LLVMOr:
      return nonzero(LLVMGetOperand(value, 0), depth + 1) ||
             nonzero(LLVMGetOperand(value, 1), depth + 1);
    case LLVMSelect:
      return nonzero(LLVMGetOperand(value, 1), depth + 1) &&
             nonzero(LLVMGetOperand(value, 2), depth + 1);
    case LLVMCall: {
      size_t length = 0;
      const char *name = LLVMGetValueName2(LLVMGetCalledValue(value), &length);
      if (length < 9 || strncmp(name, "llvm.umax", 9) != 0) return false;
      return nonzero(LLVMGetOperand(value, 0), depth + 1) ||
             nonzero(LLVMGetOperand(value, 1), depth + 1);
    }
    default:
      return false;
  }
}

/* What may be computed again at the join: integer casts and arithmetic
 * that cannot trap, and unsigned divisions by a divisor that cannot be 0
 * (LLVM sinks a zext of the quotient into the division's block too). */
static bool recomputable(LLVMValueRef value, LLVMBasicBlockRef taken, int depth,
                         bool *divides) {
  if (!LLVMIsAInstruction(value) || LLVMGetInstructionParent(value) != taken) {
    return true; /* from before the branch */
  }
  if (depth > 6) return false;
  switch (LLVMGetInstructionOpcode(value)) {
    case LLVMUDiv:
    case LLVMURem:
      if (!nonzero(LLVMGetOperand(value, 1), 0)) return false;
      *divides = true;
      break;
    case LLVMZExt:
    case LLVMSExt:
    case LLVMTrunc:
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
      break;
    default:
      return false;
  }
  int operands = LLVMGetNumOperands(value);
  for (int o = 0; o < operands; o++) {
    if (!recomputable(LLVMGetOperand(value, o), taken, depth + 1, divides)) {
      return false;
    }
  }
  return true;
}

/* A copy of `value` at the builder, without the flags that may have come
 * from the branch's condition (nneg, nuw, nsw, disjoint; a trunc's nuw
 * and nsw, which the C API cannot clear, stay). */
static LLVMValueRef recompute(LLVMBuilderRef builder, LLVMValueRef value,
                              LLVMBasicBlockRef taken) {
  if (!LLVMIsAInstruction(value) || LLVMGetInstructionParent(value) != taken) {
    return value;
  }
  LLVMValueRef copy = LLVMInstructionClone(value);
  int operands = LLVMGetNumOperands(value);
  for (int o = 0; o < operands; o++) {
    LLVMSetOperand(copy, (unsigned)o,
                   recompute(builder, LLVMGetOperand(value, o), taken));
  }
  switch (LLVMGetInstructionOpcode(copy)) {
    case LLVMZExt:
      LLVMSetNNeg(copy, 0);
      break;
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
      LLVMSetNUW(copy, 0);
      LLVMSetNSW(copy, 0);
      break;
    case LLVMOr:
      LLVMSetIsDisjoint(copy, 0);
      break;
    default:
      break;
  }
  LLVMInsertIntoBuilder(builder, copy);
  return copy;
}

/* A function's blocks (blocks.c) and a mark for each, for the walks. */
typedef struct {
  cc_blocks blocks;
  bool *seen;
} block_set;

static bool *seen_of(block_set *set, LLVMBasicBlockRef block) {
  long at = cc_block_index(&set->blocks, block);
  return at >= 0 ? &set->seen[at] : NULL;
}

/* Whether a path from `from` (its successors on) reaches `target` without
 * passing through `stop` (NULL: nothing stops it) or entering `avoid`. */
static bool reaches(block_set *set, LLVMBasicBlockRef from,
                    LLVMBasicBlockRef target, LLVMBasicBlockRef stop,
                    LLVMBasicBlockRef avoid) {
  memset(set->seen, 0, set->blocks.count * sizeof *set->seen);
  LLVMBasicBlockRef *stack = malloc((set->blocks.count + 1) * sizeof *stack);
  if (!stack) return true; /* the answer that changes nothing */
  size_t depth = 0;
  stack[depth++] = from;
  bool found = false;
  while (depth && !found) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--depth]);
    unsigned successors = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned s = 0; s < successors && !found; s++) {
      LLVMBasicBlockRef next = LLVMGetSuccessor(term, s);
      bool *seen = seen_of(set, next);
      if (!seen || *seen || next == avoid) continue;
      *seen = true;
      found = next == target;
      if (next != stop) stack[depth++] = next;
    }
  }
  free(stack);
  return found;
}

/* Whether what `value` reads from outside `taken` holds at `at` the value
 * it held in `taken`: defined in a block that dominates `at`'s (no path
 * from the entry avoids it) and that is not run again between `taken` and
 * `at`. */
static bool available(block_set *set, LLVMValueRef value,
                      LLVMBasicBlockRef taken, LLVMValueRef at,
                      LLVMBasicBlockRef entry) {
  if (!LLVMIsAInstruction(value)) return true;
  LLVMBasicBlockRef home = LLVMGetInstructionParent(value);
  LLVMBasicBlockRef here = LLVMGetInstructionParent(at);
  if (home == taken) {
    int operands = LLVMGetNumOperands(value);
    for (int o = 0; o < operands; o++) {
      if (!available(set, LLVMGetOperand(value, o), taken, at, entry)) {
        return false;
      }
    }
    return true;
  }
  if (home == here || here == entry) return false; /* run again on the way */
  if (home != entry && reaches(set, entry, here, NULL, home)) return false;
  return !reaches(set, taken, home, here, NULL);
}

/* What a scalar holds when it is not poison: POISON, one instruction, or
 * NULL when that is not one value. */
static LLVMValueRef poison_marker(void) {
  static char marker;
  return (LLVMValueRef)(void *)&marker;
}

static LLVMValueRef merge(LLVMValueRef a, LLVMValueRef b) {
  if (a == poison_marker()) return b;
  if (b == poison_marker() || a == b) return a;
  return NULL;
}

/* Lane `lane` of vector `vector` as LLVM replicates a value over lanes:
 * inserts into poison, one per lane, each under its own condition and
 * joined by phis. */
static LLVMValueRef lane_of(LLVMValueRef vector, unsigned long long lane,
                            int *budget) {
  if (LLVMIsPoison(vector) || LLVMIsUndef(vector)) return poison_marker();
  if (--*budget < 0 || !LLVMIsAInstruction(vector)) return NULL;
  if (LLVMIsAInsertElementInst(vector)) {
    LLVMValueRef index = LLVMGetOperand(vector, 2);
    if (!LLVMIsAConstantInt(index)) return NULL;
    if (LLVMConstIntGetZExtValue(index) == lane) {
      return LLVMGetOperand(vector, 1);
    }
    return lane_of(LLVMGetOperand(vector, 0), lane, budget);
  }
  if (!LLVMIsAPHINode(vector) || LLVMCountIncoming(vector) != 2) return NULL;
  LLVMValueRef a = LLVMGetIncomingValue(vector, 0);
  LLVMValueRef b = LLVMGetIncomingValue(vector, 1);
  for (int swap = 0; swap < 2; swap++) {
    /* phi [prev], [insert prev, x, i]: one walk down prev, not two. */
    if (LLVMIsAInsertElementInst(b) && LLVMGetOperand(b, 0) == a) {
      LLVMValueRef index = LLVMGetOperand(b, 2);
      if (!LLVMIsAConstantInt(index)) return NULL;
      LLVMValueRef before = lane_of(a, lane, budget);
      if (!before || LLVMConstIntGetZExtValue(index) != lane) return before;
      return merge(before, LLVMGetOperand(b, 1));
    }
    LLVMValueRef t = a;
    a = b;
    b = t;
  }
  LLVMValueRef x = lane_of(a, lane, budget);
  return x ? merge(x, lane_of(b, lane, budget)) : NULL;
}

/* A division LLVM computed under a condition that `value` reads while the
 * condition may not hold: `phi [poison], [q]`, or one lane of a vector of
 * such values (`extractelement`, through casts: the first lane of a
 * vector LLVM took for uniform). NULL if `value` is not one; the casts
 * between are stored in `casts`. */
static LLVMValueRef guarded_division(LLVMValueRef value, LLVMValueRef *casts,
                                     int *cast_count) {
  LLVMValueRef q = NULL;
  *cast_count = 0;
  if (LLVMIsAPHINode(value)) {
    if (LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMIntegerTypeKind) return NULL;
    q = poison_marker();
    unsigned incoming = LLVMCountIncoming(value);
    for (unsigned i = 0; q && i < incoming; i++) {
      LLVMValueRef in = LLVMGetIncomingValue(value, i);
      q = merge(q, LLVMIsPoison(in) ? poison_marker() : in);
    }
  } else if (LLVMIsAExtractElementInst(value)) {
    LLVMValueRef index = LLVMGetOperand(value, 1);
    if (!LLVMIsAConstantInt(index)) return NULL;
    LLVMValueRef vector = LLVMGetOperand(value, 0);
    while (LLVMIsAZExtInst(vector) || LLVMIsASExtInst(vector) ||
           LLVMIsATruncInst(vector)) {
      if (*cast_count == 4) return NULL;
      casts[(*cast_count)++] = vector;
      vector = LLVMGetOperand(vector, 0);
    }
    int budget = 4096; /* a chain is one phi and insert a lane; loops fail */
    q = lane_of(vector, LLVMConstIntGetZExtValue(index), &budget);
  }
  if (!q || q == poison_marker() || !LLVMIsAInstruction(q)) return NULL;
  bool divides = false;
  LLVMBasicBlockRef taken = LLVMGetInstructionParent(q);
  if (!recomputable(q, taken, 0, &divides) || !divides) return NULL;
  return q;
}

static void repair(LLVMBuilderRef builder, LLVMValueRef function) {
  block_set set = {{0}, NULL};
  if (!cc_blocks_init(&set.blocks, function)) goto done;
  set.seen = malloc(set.blocks.count * sizeof *set.seen);
  if (!set.seen) goto done;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef first = LLVMGetFirstInstruction(b);
    while (first && LLVMIsAPHINode(first))
      first = LLVMGetNextInstruction(first);
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      LLVMValueRef casts[4];
      int cast_count = 0;
      LLVMValueRef q = guarded_division(i, casts, &cast_count);
      /* A phi's value is computed after the block's phis. */
      LLVMValueRef at = LLVMIsAPHINode(i) ? first : i;
      if (q && at &&
          available(&set, q, LLVMGetInstructionParent(q), at, entry)) {
        LLVMPositionBuilderBefore(builder, at);
        LLVMValueRef copy = recompute(builder, q, LLVMGetInstructionParent(q));
        for (int c = cast_count - 1; c >= 0; c--) {
          LLVMTypeRef type = LLVMGetElementType(LLVMTypeOf(casts[c]));
          copy = LLVMBuildCast(builder, LLVMGetInstructionOpcode(casts[c]),
                               copy, type, "");
        }
        LLVMReplaceAllUsesWith(i, copy);
        LLVMInstructionEraseFromParent(i);
      }
      i = next;
    }
  }
done:
  cc_blocks_free(&set.blocks);
  free(set.seen);
}

void cc_unpredicate_divisions(LLVMModuleRef module) {
  LLVMBuilderRef builder =
      LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f)) repair(builder, f);
  }
  LLVMDisposeBuilder(builder);
}

/* clmux compiler — code generation: repairs what LLVM 19's loop vectorizer
 * makes of a division of loop-invariant values under a branch (`in[k % n]`
 * in an if, widened across work-items). It computes the division in a
 * block of its own, taken when the vector's first lane takes the branch,
 * and reads the result through `phi [poison, skipped], [q, taken]` in
 * every lane: when the first lane skips the branch, all lanes get poison,
 * a garbage address (llvm/llvm-project#142957, fixed after 19).
 *
 * clmux's divisions cannot trap (division.c), so the quotient can be
 * computed where the phi is: its operands come from before the branch.
 * The phi becomes the division itself (with the casts LLVM sank next to
 * it: seed 30892's zext), which refines poison to the value the other
 * lanes need. Run after the optimizer, on its output. */
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

/* How many terminators of `function` branch to `block` (edges counted). */
static unsigned predecessors(LLVMValueRef function, LLVMBasicBlockRef block) {
  unsigned count = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    unsigned successors = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned s = 0; s < successors; s++) {
      count += LLVMGetSuccessor(term, s) == block;
    }
  }
  return count;
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

/* `phi` in `join` is [poison, skipped], [q, taken]: q computed in `taken`
 * from values from before the branch, through a division; `taken`'s only
 * way in is from `skipped` and its only way out goes to `join`. */
static LLVMValueRef skipped_division(LLVMValueRef function, LLVMValueRef phi,
                                     LLVMBasicBlockRef join,
                                     LLVMBasicBlockRef *taken_out) {
  if (LLVMCountIncoming(phi) != 2) return NULL;
  for (unsigned i = 0; i < 2; i++) {
    LLVMValueRef q = LLVMGetIncomingValue(phi, i);
    LLVMValueRef other = LLVMGetIncomingValue(phi, 1 - i);
    LLVMBasicBlockRef taken = LLVMGetIncomingBlock(phi, i);
    LLVMBasicBlockRef skipped = LLVMGetIncomingBlock(phi, 1 - i);
    if (!LLVMIsPoison(other) || !LLVMIsAInstruction(q)) continue;
    if (LLVMGetInstructionParent(q) != taken) continue;
    LLVMValueRef out = LLVMGetBasicBlockTerminator(taken);
    if (!out || LLVMGetNumSuccessors(out) != 1 ||
        LLVMGetSuccessor(out, 0) != join) {
      continue;
    }
    LLVMValueRef in = LLVMGetBasicBlockTerminator(skipped);
    bool branches_to_taken = false;
    for (unsigned s = 0; in && s < LLVMGetNumSuccessors(in); s++) {
      branches_to_taken |= LLVMGetSuccessor(in, s) == taken;
    }
    if (!branches_to_taken || predecessors(function, taken) != 1) continue;
    bool divides = false;
    if (recomputable(q, taken, 0, &divides) && divides) {
      *taken_out = taken;
      return q;
    }
  }
  return NULL;
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

static void repair(LLVMBuilderRef builder, LLVMValueRef function) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef i = LLVMGetFirstInstruction(b);
    while (i && LLVMIsAPHINode(i)) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      LLVMBasicBlockRef taken = NULL;
      LLVMValueRef q = skipped_division(function, i, b, &taken);
      if (q) {
        LLVMValueRef first = LLVMGetFirstInstruction(b);
        while (LLVMIsAPHINode(first)) first = LLVMGetNextInstruction(first);
        LLVMPositionBuilderBefore(builder, first);
        LLVMReplaceAllUsesWith(i, recompute(builder, q, taken));
        LLVMInstructionEraseFromParent(i);
      }
      i = next;
    }
  }
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

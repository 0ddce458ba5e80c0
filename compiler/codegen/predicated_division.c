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
 * The phi becomes the division itself, which refines poison to the value
 * the other lanes need. Run after the optimizer, on its output. */
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

static bool is_unsigned_division(LLVMValueRef value) {
  if (!LLVMIsAInstruction(value)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(value);
  return op == LLVMUDiv || op == LLVMURem;
}

/* `phi` in `join` is [poison, skipped], [q, taken]: q a division in
 * `taken`, whose only way in is from `skipped` and whose only way out
 * goes to `join`; q's operands are from before the branch. */
static LLVMValueRef skipped_division(LLVMValueRef function, LLVMValueRef phi,
                                     LLVMBasicBlockRef join) {
  if (LLVMCountIncoming(phi) != 2) return NULL;
  for (unsigned i = 0; i < 2; i++) {
    LLVMValueRef q = LLVMGetIncomingValue(phi, i);
    LLVMValueRef other = LLVMGetIncomingValue(phi, 1 - i);
    LLVMBasicBlockRef taken = LLVMGetIncomingBlock(phi, i);
    LLVMBasicBlockRef skipped = LLVMGetIncomingBlock(phi, 1 - i);
    if (!LLVMIsPoison(other) || !is_unsigned_division(q)) continue;
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
    bool operands_before = true;
    for (unsigned o = 0; o < 2; o++) {
      LLVMValueRef operand = LLVMGetOperand(q, o);
      operands_before &= !LLVMIsAInstruction(operand) ||
                         LLVMGetInstructionParent(operand) != taken;
    }
    if (operands_before && nonzero(LLVMGetOperand(q, 1), 0)) return q;
  }
  return NULL;
}

static void repair(LLVMBuilderRef builder, LLVMValueRef function) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef i = LLVMGetFirstInstruction(b);
    while (i && LLVMIsAPHINode(i)) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      LLVMValueRef q = skipped_division(function, i, b);
      if (q) {
        LLVMValueRef first = LLVMGetFirstInstruction(b);
        while (LLVMIsAPHINode(first)) first = LLVMGetNextInstruction(first);
        LLVMPositionBuilderBefore(builder, first);
        LLVMValueRef whole =
            LLVMBuildBinOp(builder, LLVMGetInstructionOpcode(q),
                           LLVMGetOperand(q, 0), LLVMGetOperand(q, 1), "");
        LLVMReplaceAllUsesWith(i, whole);
        LLVMInstructionEraseFromParent(i);
        if (!LLVMGetFirstUse(q)) LLVMInstructionEraseFromParent(q);
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

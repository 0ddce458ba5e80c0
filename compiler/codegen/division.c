/* clmux compiler — code generation: integer division that cannot trap.
 * x86's div/idiv raise SIGFPE for a zero divisor and for MIN / -1, which
 * would kill the application; OpenCL only makes those results undefined.
 * So every division whose divisor is not a known-safe constant divides by
 * 1 instead in those cases: a select, which keeps loops vectorizable. */
#include "internal.h"

/* A constant divisor (scalar or vector) with no zero and, for signed
 * division, no -1 lane: nothing to guard. */
static bool safe_constant(LLVMValueRef divisor, bool is_signed) {
  if (LLVMIsAConstantInt(divisor)) {
    if (LLVMConstIntGetZExtValue(divisor) == 0) return false;
    return !is_signed || LLVMConstIntGetSExtValue(divisor) != -1;
  }
  if (LLVMIsAConstantDataVector(divisor) || LLVMIsAConstantVector(divisor)) {
    unsigned lanes = LLVMGetVectorSize(LLVMTypeOf(divisor));
    for (unsigned i = 0; i < lanes; i++) {
      LLVMValueRef lane = LLVMGetAggregateElement(divisor, i);
      if (!lane || !safe_constant(lane, is_signed)) return false;
    }
    return true;
  }
  return false;
}

/* `value` of `type` (integer or vector of integers) in every lane. */
static LLVMValueRef splat(LLVMTypeRef type, unsigned long long value,
                          bool sign_extend) {
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) {
    return LLVMConstInt(type, value, sign_extend);
  }
  unsigned lanes = LLVMGetVectorSize(type);
  LLVMValueRef lane = LLVMConstInt(LLVMGetElementType(type), value, sign_extend);
  LLVMValueRef elements[1024]; /* up to 64 work-items of int16 */
  if (lanes > 1024) return NULL;
  for (unsigned i = 0; i < lanes; i++) elements[i] = lane;
  return LLVMConstVector(elements, lanes);
}

static void guard(LLVMBuilderRef builder, LLVMValueRef division,
                  bool is_signed) {
  LLVMValueRef dividend = LLVMGetOperand(division, 0);
  LLVMValueRef divisor = LLVMGetOperand(division, 1);
  if (safe_constant(divisor, is_signed)) return;
  LLVMTypeRef type = LLVMTypeOf(divisor);
  LLVMTypeRef scalar = LLVMGetTypeKind(type) == LLVMVectorTypeKind
                           ? LLVMGetElementType(type)
                           : type;
  unsigned bits = LLVMGetIntTypeWidth(scalar);
  LLVMValueRef zero = splat(type, 0, false), one = splat(type, 1, false);
  if (!zero || !one) return;
  LLVMPositionBuilderBefore(builder, division);
  LLVMValueRef bad = LLVMBuildICmp(builder, LLVMIntEQ, divisor, zero, "");
  if (is_signed) {
    LLVMValueRef minus_one = splat(type, ~0ull, true);
    LLVMValueRef min = splat(type, 1ull << (bits - 1), false);
    LLVMValueRef overflow = LLVMBuildAnd(
        builder, LLVMBuildICmp(builder, LLVMIntEQ, divisor, minus_one, ""),
        LLVMBuildICmp(builder, LLVMIntEQ, dividend, min, ""), "");
    bad = LLVMBuildOr(builder, bad, overflow, "");
  }
  LLVMSetOperand(division, 1, LLVMBuildSelect(builder, bad, one, divisor, ""));
}

void cc_guard_divisions(LLVMModuleRef module) {
  LLVMBuilderRef builder =
      LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
         b = LLVMGetNextBasicBlock(b)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
           i = LLVMGetNextInstruction(i)) {
        switch (LLVMGetInstructionOpcode(i)) {
          case LLVMSDiv:
          case LLVMSRem:
            guard(builder, i, true);
            break;
          case LLVMUDiv:
          case LLVMURem:
            guard(builder, i, false);
            break;
          default:
            break;
        }
      }
    }
  }
  LLVMDisposeBuilder(builder);
}

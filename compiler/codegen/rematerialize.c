/* clmux compiler — code generation: values a region after a barrier can
 * compute again instead of keeping them in scratch (barriers.c): pure
 * arithmetic on constants, parameters (the kernel's arguments, the ids)
 * and the read-only work-group state, e.g. a __local array's address, the
 * local id as an int, row * n. Uniform ones then stay visibly uniform for
 * the vectorizer, and scratch holds less. */
#include "internal.h"

LLVMValueRef cc_only_stored_value(LLVMValueRef alloca) {
  LLVMValueRef value = NULL;
  for (LLVMUseRef use = LLVMGetFirstUse(alloca); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsAStoreInst(user)) continue;
    if (value) return NULL;
    value = LLVMGetOperand(user, 0);
  }
  return value;
}

bool cc_points_into_wg(LLVMValueRef pointer, LLVMValueRef wg) {
  for (unsigned depth = 0; depth < 4 && pointer; depth++) {
    if (pointer == wg) return true;
    if (!LLVMIsAGetElementPtrInst(pointer)) return false;
    pointer = LLVMGetOperand(pointer, 0);
  }
  return false;
}

bool cc_can_recompute(LLVMValueRef value, LLVMValueRef wg, unsigned *budget) {
  if (LLVMIsAConstant(value) || LLVMIsAArgument(value)) return true;
  if (!LLVMIsAInstruction(value) || *budget == 0) return false;
  --*budget;
  switch (LLVMGetInstructionOpcode(value)) {
    case LLVMLoad: {
      LLVMValueRef pointer = LLVMGetOperand(value, 0);
      if (LLVMIsAAllocaInst(pointer)) {
        LLVMValueRef stored = cc_is_plain_slot(pointer)
                                  ? cc_only_stored_value(pointer)
                                  : NULL;
        return stored && cc_can_recompute(stored, wg, budget);
      }
      return !LLVMGetVolatile(value) && cc_points_into_wg(pointer, wg) &&
             cc_can_recompute(pointer, wg, budget);
    }
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr:
    case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFAdd:
    case LLVMFSub: case LLVMFMul: case LLVMFNeg: case LLVMTrunc:
    case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
    case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
    case LLVMAddrSpaceCast: case LLVMGetElementPtr: case LLVMICmp:
    case LLVMFCmp: case LLVMSelect: case LLVMExtractElement:
    case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue:
    case LLVMInsertValue: break;
    default:
      return false;
  }
  int count = LLVMGetNumOperands(value);
  if (count > 8) return false; /* recompute's limit */
  for (int i = 0; i < count; i++) {
    if (!cc_can_recompute(LLVMGetOperand(value, (unsigned)i), wg, budget)) {
      return false;
    }
  }
  return true;
}

/* The value stored once into slot `alloca`, noted before the resume
 * blocks add stores of their own. */
static LLVMValueRef slot_definition(const LLVMValueRef *slots,
                                    const LLVMValueRef *definitions,
                                    unsigned count, LLVMValueRef alloca) {
  for (unsigned a = 0; a < count; a++) {
    if (slots[a] == alloca) return definitions[a];
  }
  return NULL;
}

/* A copy of `value` (can_recompute holds) at the builder. */
LLVMValueRef cc_recompute(LLVMBuilderRef builder, const LLVMValueRef *slots,
                          const LLVMValueRef *definitions, unsigned count,
                          LLVMValueRef value) {
  if (!value || !LLVMIsAInstruction(value)) return value;
  if (LLVMIsALoadInst(value) && LLVMIsAAllocaInst(LLVMGetOperand(value, 0))) {
    return cc_recompute(builder, slots, definitions, count,
                     slot_definition(slots, definitions, count,
                                     LLVMGetOperand(value, 0)));
  }
  int operand_count = LLVMGetNumOperands(value);
  LLVMValueRef operands[8];
  if (operand_count > 8) return NULL;
  for (int i = 0; i < operand_count; i++) {
    operands[i] = cc_recompute(builder, slots, definitions, count,
                            LLVMGetOperand(value, (unsigned)i));
    if (!operands[i]) return NULL;
  }
  LLVMValueRef copy = LLVMInstructionClone(value);
  for (int i = 0; i < operand_count; i++) {
    LLVMSetOperand(copy, (unsigned)i, operands[i]);
  }
  LLVMInsertIntoBuilder(builder, copy);
  return copy;
}


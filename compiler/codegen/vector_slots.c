/* clmux compiler — code generation: in a step function, a stack slot of
 * vector type becomes one slot per element before scratch is laid out
 * (barriers.c). Scratch keeps each slot's values work-item after
 * work-item, so a float4 slot put element x of neighbouring items 16
 * bytes apart: the region loops read it with strided loads and wrote it
 * back with scatters. Per element, they load and store whole vectors. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Vectors wider than this stay whole (and double16 is rare in slots). */
#define MAX_SPLIT_ELEMENTS 16

static bool splittable(LLVMValueRef alloca) {
  LLVMTypeRef type = LLVMGetAllocatedType(alloca);
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) return false;
  LLVMTypeRef element = LLVMGetElementType(type);
  if (LLVMGetTypeKind(element) == LLVMIntegerTypeKind &&
      LLVMGetIntTypeWidth(element) % 8 != 0) {
    return false; /* bool vectors: not in bytes */
  }
  LLVMValueRef count = LLVMGetOperand(alloca, 0);
  return LLVMGetVectorSize(type) <= MAX_SPLIT_ELEMENTS &&
         LLVMIsAConstantInt(count) && LLVMConstIntGetZExtValue(count) == 1 &&
         cc_is_plain_slot(alloca);
}

static void split_slot(LLVMBuilderRef builder, LLVMValueRef alloca) {
  LLVMTypeRef type = LLVMGetAllocatedType(alloca);
  LLVMTypeRef element = LLVMGetElementType(type);
  unsigned count = LLVMGetVectorSize(type);
  LLVMContextRef context = LLVMGetTypeContext(type);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMValueRef parts[MAX_SPLIT_ELEMENTS];
  LLVMPositionBuilderBefore(builder, alloca);
  for (unsigned k = 0; k < count; k++) {
    parts[k] = LLVMBuildAlloca(builder, element, "element");
  }
  LLVMUseRef use;
  while ((use = LLVMGetFirstUse(alloca))) {
    LLVMValueRef user = LLVMGetUser(use);
    LLVMPositionBuilderBefore(builder, user);
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef value = LLVMGetOperand(user, 0);
      for (unsigned k = 0; k < count; k++) {
        LLVMValueRef part = LLVMBuildExtractElement(
            builder, value, LLVMConstInt(i32, k, 0), "");
        LLVMBuildStore(builder, part, parts[k]);
      }
    } else if (LLVMIsALoadInst(user)) {
      LLVMValueRef whole = LLVMGetPoison(type);
      for (unsigned k = 0; k < count; k++) {
        LLVMValueRef part = LLVMBuildLoad2(builder, element, parts[k], "");
        whole = LLVMBuildInsertElement(builder, whole, part,
                                       LLVMConstInt(i32, k, 0), "");
      }
      LLVMReplaceAllUsesWith(user, whole);
    }
    /* Stores, loads and lifetime markers (cc_is_plain_slot) all go. */
    LLVMInstructionEraseFromParent(user);
  }
  LLVMInstructionEraseFromParent(alloca);
}

void cc_split_vector_slots(LLVMValueRef function, LLVMBuilderRef builder) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
  LLVMValueRef inst = LLVMGetFirstInstruction(entry);
  while (inst) {
    LLVMValueRef next = LLVMGetNextInstruction(inst);
    if (LLVMIsAAllocaInst(inst) && splittable(inst)) split_slot(builder, inst);
    inst = next;
  }
}

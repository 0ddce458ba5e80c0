/* clmux compiler — whole-function vectorizer: the sub-group primitives
 * (sub_groups.h) across the lanes, a sub-group being the lanes of one call
 * of the vector body. Lanes that do not run the call (the mask) take no
 * part: they hold the operation's identity. */
#include <stdlib.h>

#include "sub_groups.h"
#include "wfv.h"

static LLVMValueRef splat_constant(wfv *w, LLVMValueRef scalar) {
  LLVMValueRef lanes[64];
  for (unsigned l = 0; l < w->lanes; l++) lanes[l] = scalar;
  return LLVMConstVector(lanes, w->lanes);
}

/* x's lanes, the identity of `op` where the mask is off. */
static LLVMValueRef running(wfv *w, LLVMValueRef x, int at, LLVMValueRef mask,
                            cc_sub_group_op op) {
  LLVMValueRef wide = wfv_vector(w, x, at);
  if (!wide) return NULL;
  return LLVMBuildSelect(w->builder, mask, wide,
                         cc_sub_group_identity(op, LLVMTypeOf(wide), false),
                         "");
}

static const char *reduction_name(cc_sub_group_op op) {
  switch (op) {
    case cc_sub_group_add:
      return "llvm.vector.reduce.add";
    case cc_sub_group_mul:
      return "llvm.vector.reduce.mul";
    case cc_sub_group_and:
      return "llvm.vector.reduce.and";
    case cc_sub_group_or:
      return "llvm.vector.reduce.or";
    case cc_sub_group_xor:
      return "llvm.vector.reduce.xor";
    case cc_sub_group_smin:
      return "llvm.vector.reduce.smin";
    case cc_sub_group_umin:
      return "llvm.vector.reduce.umin";
    case cc_sub_group_smax:
      return "llvm.vector.reduce.smax";
    case cc_sub_group_umax:
      return "llvm.vector.reduce.umax";
    case cc_sub_group_fadd:
      return "llvm.vector.reduce.fadd";
    case cc_sub_group_fmul:
      return "llvm.vector.reduce.fmul";
    case cc_sub_group_fmin:
      return "llvm.vector.reduce.fmin";
    case cc_sub_group_fmax:
      return "llvm.vector.reduce.fmax";
  }
  return NULL;
}

/* Sums and products of floats in lane order, from the identity (no
 * reassociation: the work-items' order, as a serial loop would add). */
static LLVMValueRef reduce(wfv *w, LLVMValueRef values, cc_sub_group_op op) {
  LLVMTypeRef type = LLVMTypeOf(values);
  if (op == cc_sub_group_fadd || op == cc_sub_group_fmul) {
    LLVMValueRef args[2] = {
        cc_sub_group_identity(op, LLVMGetElementType(type), false), values};
    return wfv_call_intrinsic(w, reduction_name(op), &type, 1, args, 2);
  }
  return wfv_call_intrinsic(w, reduction_name(op), &type, 1, &values, 1);
}

/* Inclusive prefixes in log2(lanes) steps: each lane combines with the
 * one `step` below it (the identity below lane 0). */
static LLVMValueRef scan(wfv *w, LLVMValueRef values, cc_sub_group_op op) {
  LLVMValueRef identity = cc_sub_group_identity(op, LLVMTypeOf(values), false);
  int indices[64];
  for (unsigned step = 1; step < w->lanes; step *= 2) {
    for (unsigned l = 0; l < w->lanes; l++) {
      indices[l] = l >= step ? (int)(l - step) : (int)(w->lanes + l);
    }
    LLVMValueRef below = wfv_shuffle(w, values, identity, indices, w->lanes);
    if (!below) return NULL;
    values = cc_sub_group_combine(w->builder, w->module, op, below, values);
  }
  return values;
}

/* The lane before each, the identity (of an exclusive scan's result) in
 * lane 0. */
static LLVMValueRef shift_up(wfv *w, LLVMValueRef values, cc_sub_group_op op) {
  int indices[64];
  for (unsigned l = 0; l < w->lanes; l++) {
    indices[l] = l ? (int)(l - 1) : (int)w->lanes;
  }
  return wfv_shuffle(w, values,
                     cc_sub_group_identity(op, LLVMTypeOf(values), true),
                     indices, w->lanes);
}

/* Within clusters of `cluster` lanes (uniform, a power of two): a
 * butterfly, each step combining lanes `step` apart while step < cluster
 * (the steps of wider clusters select the values they had). */
static LLVMValueRef clustered(wfv *w, LLVMValueRef values, LLVMValueRef cluster,
                              cc_sub_group_op op) {
  int indices[64];
  LLVMTypeRef type = LLVMTypeOf(cluster);
  for (unsigned step = 1; step < w->lanes; step *= 2) {
    for (unsigned l = 0; l < w->lanes; l++) indices[l] = (int)(l ^ step);
    LLVMValueRef partner = wfv_shuffle(w, values, NULL, indices, w->lanes);
    if (!partner) return NULL;
    LLVMValueRef combined =
        cc_sub_group_combine(w->builder, w->module, op, values, partner);
    LLVMValueRef within = LLVMBuildICmp(w->builder, LLVMIntULT,
                                        LLVMConstInt(type, step, 0), cluster,
                                        "");
    values = LLVMBuildSelect(w->builder, within, combined, values, "");
  }
  return values;
}

/* Each lane's x of lane index[l] (taken modulo the lanes): through a stack
 * copy of the lanes, as x86 permutes only some widths by variable index. */
static LLVMValueRef shuffle_varying(wfv *w, LLVMValueRef x, LLVMValueRef index,
                                    int at, LLVMValueRef mask) {
  LLVMValueRef wide = wfv_vector(w, x, at);
  LLVMValueRef lanes = wfv_vector(w, index, at);
  if (!wide || !lanes) return NULL;
  LLVMTypeRef type = LLVMTypeOf(wide);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(w->builder);
  LLVMValueRef first = LLVMGetFirstInstruction(w->alloca_block);
  if (first) {
    LLVMPositionBuilderBefore(w->builder, first);
  } else {
    LLVMPositionBuilderAtEnd(w->builder, w->alloca_block);
  }
  LLVMValueRef copy = LLVMBuildAlloca(w->builder, type, "sub_group");
  LLVMPositionBuilderAtEnd(w->builder, here);
  LLVMBuildStore(w->builder, wide, copy);
  LLVMTypeRef index_type = LLVMTypeOf(lanes);
  LLVMValueRef within = LLVMBuildAnd(
      w->builder, lanes,
      splat_constant(
          w, LLVMConstInt(LLVMGetElementType(index_type), w->lanes - 1, 0)),
      "");
  LLVMTypeRef element = LLVMGetElementType(type);
  LLVMValueRef pointers =
      LLVMBuildGEP2(w->builder, element, copy, &within, 1, "");
  LLVMTypeRef types[2] = {type, LLVMTypeOf(pointers)};
  LLVMValueRef args[4] = {
      pointers,
      LLVMConstInt(LLVMInt32TypeInContext(w->context),
                   LLVMABIAlignmentOfType(w->data, element), 0),
      mask, LLVMGetPoison(type)};
  return wfv_call_intrinsic(w, "llvm.masked.gather", types, 2, args, 4);
}

bool wfv_widen_sub_group(wfv *w, LLVMValueRef call, int at, LLVMValueRef mask,
                         const cc_sub_group_call *sg) {
  LLVMTypeRef type = LLVMTypeOf(call);
  LLVMValueRef x = LLVMGetNumArgOperands(call) ? LLVMGetOperand(call, 0) : NULL;
  LLVMValueRef scalar = NULL, vector = NULL;
  switch (sg->kind) {
    case cc_sub_group_lane: /* strided: lane 0's */
      scalar = LLVMConstInt(type, 0, 0);
      break;
    case cc_sub_group_width:
      scalar = LLVMConstInt(type, w->lanes, 0);
      break;
    case cc_sub_group_ballot: {
      LLVMValueRef wide = wfv_vector(w, x, at);
      if (!wide) return wfv_fail(w, "out of memory");
      LLVMValueRef on =
          LLVMBuildAnd(w->builder, mask,
                       LLVMBuildICmp(w->builder, LLVMIntNE, wide,
                                     LLVMConstNull(LLVMTypeOf(wide)), ""),
                       "");
      LLVMValueRef bits = LLVMBuildBitCast(
          w->builder, on, LLVMIntTypeInContext(w->context, w->lanes), "");
      scalar = LLVMBuildZExtOrBitCast(w->builder, bits, type, "ballot");
      break;
    }
    case cc_sub_group_shuffle: {
      LLVMValueRef index = LLVMGetOperand(call, 1);
      if (wfv_operand_shape(w, x, at).kind == wfv_uniform) {
        scalar = wfv_scalar(w, x, at);
      } else if (wfv_operand_shape(w, index, at).kind == wfv_uniform) {
        LLVMValueRef wide = wfv_vector(w, x, at);
        LLVMValueRef lane = wfv_scalar(w, index, at);
        if (!wide || !lane) return wfv_fail(w, "out of memory");
        LLVMValueRef within =
            LLVMBuildAnd(w->builder, lane,
                         LLVMConstInt(LLVMTypeOf(lane), w->lanes - 1, 0), "");
        scalar = LLVMBuildExtractElement(w->builder, wide, within, "");
      } else {
        vector = shuffle_varying(w, x, index, at, mask);
      }
      break;
    }
    case cc_sub_group_reduce: {
      LLVMValueRef values = running(w, x, at, mask, sg->op);
      scalar = values ? reduce(w, values, sg->op) : NULL;
      break;
    }
    case cc_sub_group_clustered: {
      LLVMValueRef values = running(w, x, at, mask, sg->op);
      LLVMValueRef cluster = wfv_scalar(w, LLVMGetOperand(call, 1), at);
      vector = values && cluster ? clustered(w, values, cluster, sg->op)
                                 : NULL;
      break;
    }
    case cc_sub_group_scan:
    case cc_sub_group_xscan: {
      LLVMValueRef values = running(w, x, at, mask, sg->op);
      vector = values ? scan(w, values, sg->op) : NULL;
      if (vector && sg->kind == cc_sub_group_xscan) {
        vector = shift_up(w, vector, sg->op);
      }
      break;
    }
  }
  if (!scalar && !vector) return wfv_fail(w, "out of memory");
  wfv_set(w, call, scalar, vector);
  return true;
}

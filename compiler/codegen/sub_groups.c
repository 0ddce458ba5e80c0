/* clmux compiler — code generation: the sub-group primitives
 * (sub_groups.h), and sub-groups of one work-item. */
#include "sub_groups.h"

#include <string.h>

#include "internal.h"

static const struct {
  const char *name;
  cc_sub_group_kind kind;
  bool combines; /* followed by _OP_T */
} kinds[] = {
    {"lane", cc_sub_group_lane, false},
    {"width", cc_sub_group_width, false},
    {"ballot", cc_sub_group_ballot, false},
    {"shuffle_", cc_sub_group_shuffle, false},
    {"reduce_", cc_sub_group_reduce, true},
    {"scan_", cc_sub_group_scan, true},
    {"xscan_", cc_sub_group_xscan, true},
    {"clustered_", cc_sub_group_clustered, true},
};

static const struct {
  const char *name;
  cc_sub_group_op op;
} ops[] = {
    {"add_", cc_sub_group_add},   {"mul_", cc_sub_group_mul},
    {"and_", cc_sub_group_and},   {"or_", cc_sub_group_or},
    {"xor_", cc_sub_group_xor},   {"smin_", cc_sub_group_smin},
    {"umin_", cc_sub_group_umin}, {"smax_", cc_sub_group_smax},
    {"umax_", cc_sub_group_umax}, {"fadd_", cc_sub_group_fadd},
    {"fmul_", cc_sub_group_fmul}, {"fmin_", cc_sub_group_fmin},
    {"fmax_", cc_sub_group_fmax},
};

#define COUNT(array) (sizeof array / sizeof array[0])

bool cc_sub_group_primitive(LLVMValueRef call, cc_sub_group_call *out) {
  if (!LLVMIsACallInst(call)) return false;
  const char *name = cc_callee_name(call);
  size_t prefix = strlen(CC_SUB_GROUP_PREFIX);
  if (strncmp(name, CC_SUB_GROUP_PREFIX, prefix) != 0) return false;
  name += prefix;
  for (size_t k = 0; k < COUNT(kinds); k++) {
    size_t length = strlen(kinds[k].name);
    if (strncmp(name, kinds[k].name, length) != 0) continue;
    if (!kinds[k].combines) {
      if (kinds[k].name[length - 1] != '_' && name[length]) continue;
      if (out) *out = (cc_sub_group_call){kinds[k].kind, cc_sub_group_add};
      return true;
    }
    for (size_t o = 0; o < COUNT(ops); o++) {
      if (strncmp(name + length, ops[o].name, strlen(ops[o].name)) == 0) {
        if (out) *out = (cc_sub_group_call){kinds[k].kind, ops[o].op};
        return true;
      }
    }
  }
  return false;
}

bool cc_uses_sub_groups(LLVMValueRef function) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (cc_sub_group_primitive(inst, NULL)) return true;
    }
  }
  return false;
}

bool cc_module_uses_sub_groups(LLVMModuleRef module) {
  size_t prefix = strlen(CC_SUB_GROUP_PREFIX);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (length > prefix && strncmp(name, CC_SUB_GROUP_PREFIX, prefix) == 0 &&
        LLVMGetFirstUse(f)) {
      return true;
    }
  }
  return false;
}

static LLVMValueRef splat_or_scalar(LLVMTypeRef type, LLVMValueRef scalar) {
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) return scalar;
  unsigned n = LLVMGetVectorSize(type);
  LLVMValueRef lanes[64];
  for (unsigned l = 0; l < n && l < 64; l++) lanes[l] = scalar;
  return LLVMConstVector(lanes, n);
}

LLVMValueRef cc_sub_group_identity(cc_sub_group_op op, LLVMTypeRef type,
                                   bool result) {
  LLVMTypeRef element = LLVMGetTypeKind(type) == LLVMVectorTypeKind
                            ? LLVMGetElementType(type)
                            : type;
  LLVMValueRef value;
  if (LLVMGetTypeKind(element) == LLVMIntegerTypeKind) {
    unsigned bits = LLVMGetIntTypeWidth(element);
    unsigned long long ones = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    unsigned long long top = 1ull << (bits - 1);
    unsigned long long v = 0;
    switch (op) {
      case cc_sub_group_mul:
        v = 1;
        break;
      case cc_sub_group_and:
      case cc_sub_group_umin:
        v = ones;
        break;
      case cc_sub_group_smin:
        v = top - 1;
        break;
      case cc_sub_group_smax:
        v = top;
        break;
      default:
        v = 0;
        break;
    }
    value = LLVMConstInt(element, v, 0);
  } else {
    double v = op == cc_sub_group_fmul   ? 1.0
               : op == cc_sub_group_fmin ? __builtin_inf()
               : op == cc_sub_group_fmax ? -__builtin_inf()
               : result                  ? 0.0
                                         : -0.0;
    value = LLVMConstReal(element, v);
  }
  return splat_or_scalar(type, value);
}

static LLVMValueRef call_intrinsic(LLVMBuilderRef builder, LLVMModuleRef module,
                                   const char *name, LLVMValueRef a,
                                   LLVMValueRef b) {
  LLVMTypeRef type = LLVMTypeOf(a);
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef function = LLVMGetIntrinsicDeclaration(module, id, &type, 1);
  LLVMValueRef args[2] = {a, b};
  return LLVMBuildCall2(
      builder, LLVMIntrinsicGetType(LLVMGetModuleContext(module), id, &type, 1),
      function, args, 2, "");
}

LLVMValueRef cc_sub_group_combine(LLVMBuilderRef builder, LLVMModuleRef module,
                                  cc_sub_group_op op, LLVMValueRef a,
                                  LLVMValueRef b) {
  switch (op) {
    case cc_sub_group_add:
      return LLVMBuildAdd(builder, a, b, "");
    case cc_sub_group_mul:
      return LLVMBuildMul(builder, a, b, "");
    case cc_sub_group_and:
      return LLVMBuildAnd(builder, a, b, "");
    case cc_sub_group_or:
      return LLVMBuildOr(builder, a, b, "");
    case cc_sub_group_xor:
      return LLVMBuildXor(builder, a, b, "");
    case cc_sub_group_fadd:
      return LLVMBuildFAdd(builder, a, b, "");
    case cc_sub_group_fmul:
      return LLVMBuildFMul(builder, a, b, "");
    case cc_sub_group_smin:
      return call_intrinsic(builder, module, "llvm.smin", a, b);
    case cc_sub_group_umin:
      return call_intrinsic(builder, module, "llvm.umin", a, b);
    case cc_sub_group_smax:
      return call_intrinsic(builder, module, "llvm.smax", a, b);
    case cc_sub_group_umax:
      return call_intrinsic(builder, module, "llvm.umax", a, b);
    case cc_sub_group_fmin:
      return call_intrinsic(builder, module, "llvm.minnum", a, b);
    case cc_sub_group_fmax:
      return call_intrinsic(builder, module, "llvm.maxnum", a, b);
  }
  return a;
}

/* One work-item a sub-group: lane 0 of 1; its own value is the
 * reduction, the inclusive scan and every shuffle's; nothing is before
 * it. */
static LLVMValueRef scalar_value(LLVMBuilderRef builder, LLVMValueRef call,
                                 const cc_sub_group_call *sg) {
  LLVMTypeRef type = LLVMTypeOf(call);
  switch (sg->kind) {
    case cc_sub_group_lane:
      return LLVMConstInt(type, 0, 0);
    case cc_sub_group_width:
      return LLVMConstInt(type, 1, 0);
    case cc_sub_group_ballot: {
      LLVMValueRef predicate = LLVMGetOperand(call, 0);
      LLVMValueRef on =
          LLVMBuildICmp(builder, LLVMIntNE, predicate,
                        LLVMConstInt(LLVMTypeOf(predicate), 0, 0), "");
      return LLVMBuildZExt(builder, on, type, "");
    }
    case cc_sub_group_shuffle:
    case cc_sub_group_reduce:
    case cc_sub_group_scan:
    case cc_sub_group_clustered:
      return LLVMGetOperand(call, 0);
    case cc_sub_group_xscan:
      return cc_sub_group_identity(sg->op, type, true);
  }
  return NULL;
}

void cc_lower_sub_groups_scalar(LLVMValueRef function) {
  LLVMBuilderRef builder =
      LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(function)));
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef inst = LLVMGetFirstInstruction(block);
    while (inst) {
      LLVMValueRef next = LLVMGetNextInstruction(inst);
      cc_sub_group_call sg;
      if (cc_sub_group_primitive(inst, &sg)) {
        LLVMPositionBuilderBefore(builder, inst);
        LLVMReplaceAllUsesWith(inst, scalar_value(builder, inst, &sg));
        LLVMInstructionEraseFromParent(inst);
      }
      inst = next;
    }
  }
  LLVMDisposeBuilder(builder);
}

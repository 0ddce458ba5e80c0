/* clmux compiler — whole-function vectorizer: the shape of every value
 * (uniform, strided, varying) and the divergence of ifs and loops (wfv.h).
 * A fixed point from the work-item ids: x's local and global ids are
 * strided by 1, every other argument uniform. A phi at the join of a
 * divergent if, a value seen after a divergent loop it is computed in, and
 * what a side effect returns are varying. */
#include <stdlib.h>
#include <string.h>

#include "sub_groups.h"
#include "wfv.h"

static const wfv_shape uniform = {wfv_uniform, 0, false};
static const wfv_shape varying = {wfv_varying, 0, false};
static const wfv_shape unknown = {wfv_unknown, 0, false};

static wfv_shape strided_wrapping(int64_t stride, bool no_wrap) {
  return stride == 0 ? uniform : (wfv_shape){wfv_strided, stride, no_wrap};
}

static wfv_shape strided(int64_t stride) {
  return strided_wrapping(stride, false);
}

static int64_t stride_of(wfv_shape s) {
  return s.kind == wfv_strided ? s.stride : 0;
}

static bool is_linear(wfv_shape s) {
  return s.kind == wfv_uniform || s.kind == wfv_strided;
}

/* Two shapes a value may have on different paths. */
static wfv_shape join(wfv_shape a, wfv_shape b) {
  if (a.kind == wfv_unknown) return b;
  if (b.kind == wfv_unknown) return a;
  if (a.kind == b.kind && a.stride == b.stride) {
    a.no_wrap = a.no_wrap && b.no_wrap;
    return a;
  }
  return varying;
}

bool wfv_is_widenable(LLVMTypeRef type) {
  switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMHalfTypeKind:
    case LLVMPointerTypeKind:
      return true;
    case LLVMVectorTypeKind: {
      LLVMTypeKind element = LLVMGetTypeKind(LLVMGetElementType(type));
      return element != LLVMVectorTypeKind &&
             wfv_is_widenable(LLVMGetElementType(type));
    }
    default:
      return false;
  }
}

/* Memory effects of a call (the "memory" attribute): two bits per
 * location (argument, inaccessible, other), 1 Ref and 2 Mod; all of them
 * when the call does not say. */
static uint64_t memory_effects(LLVMValueRef call) {
  /* Looked up each time: builds run on many threads at once. */
  unsigned kind = LLVMGetEnumAttributeKindForName("memory", 6);
  LLVMAttributeRef a =
      LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind);
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!a && LLVMIsAFunction(callee)) {
    a = LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind);
  }
  return a ? LLVMGetEnumAttributeValue(a) : 0x3f;
}

static bool may_write(LLVMValueRef call) {
  return (memory_effects(call) & 0x2a) != 0;
}

bool wfv_reads_memory(LLVMValueRef inst) {
  if (LLVMIsALoadInst(inst) || LLVMIsAAtomicRMWInst(inst) ||
      LLVMIsAAtomicCmpXchgInst(inst) || LLVMIsAFenceInst(inst)) {
    return true;
  }
  return LLVMIsACallInst(inst) && (memory_effects(inst) & 0x15) != 0;
}

bool wfv_has_side_effects(LLVMValueRef inst) {
  if (LLVMIsAStoreInst(inst) || LLVMIsAAtomicRMWInst(inst) ||
      LLVMIsAAtomicCmpXchgInst(inst) || LLVMIsAFenceInst(inst)) {
    return true;
  }
  if (LLVMIsALoadInst(inst)) {
    return LLVMGetVolatile(inst) ||
           LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic;
  }
  if (LLVMIsACallInst(inst)) return may_write(inst);
  return false;
}

int wfv_left_loop(const wfv *w, long value, int at, int inner_than) {
  int def = w->values[value].block;
  if (def < 0) return -1;
  int l = inner_than >= 0 ? w->loops[inner_than].parent : w->blocks[def].loop;
  for (; l >= 0; l = w->loops[l].parent) {
    if (wfv_loop_contains(w, l, at)) return -1;
    if (w->loops[l].divergent) return l;
  }
  return -1;
}

wfv_shape wfv_operand_shape(const wfv *w, LLVMValueRef operand, int at) {
  long v = wfv_map_get(&w->value_index, operand);
  if (v < 0) return uniform; /* constants, globals, functions */
  if (wfv_left_loop(w, v, at, -1) >= 0) return varying;
  return w->values[v].shape;
}

static wfv_shape gep_shape(const wfv *w, LLVMValueRef gep, int at) {
  wfv_shape base = wfv_operand_shape(w, LLVMGetOperand(gep, 0), at);
  if (base.kind == wfv_unknown) return unknown;
  if (base.kind == wfv_varying) return varying;
  int64_t stride = stride_of(base);
  LLVMTypeRef type = LLVMGetGEPSourceElementType(gep);
  int n = LLVMGetNumOperands(gep);
  for (int i = 1; i < n; i++) {
    LLVMValueRef index = LLVMGetOperand(gep, i);
    wfv_shape s = wfv_operand_shape(w, index, at);
    if (s.kind == wfv_unknown) return unknown;
    if (s.kind == wfv_varying) return varying;
    LLVMTypeRef step = type;
    if (i > 1) {
      if (LLVMGetTypeKind(type) == LLVMStructTypeKind) {
        type = LLVMStructGetTypeAtIndex(
            type, (unsigned)LLVMConstIntGetZExtValue(index));
        continue;
      }
      step = type = LLVMGetElementType(type);
    }
    stride += stride_of(s) * (int64_t)LLVMABISizeOfType(w->data, step);
  }
  return strided(stride);
}

/* Whether an operand of shape s keeps a sum's lanes from wrapping: a
 * strided operand that does not wrap, or a small constant (ids stay far
 * below 2^32, so a sequence of them plus such a constant does not cross
 * 0; a uniform of unknown sign might). */
static bool keeps_no_wrap(wfv_shape s, LLVMValueRef operand) {
  if (s.kind == wfv_strided) return s.no_wrap && s.stride > 0;
  if (!LLVMIsAConstantInt(operand)) return false;
  long long c = LLVMConstIntGetSExtValue(operand);
  return c >= 0 && c < (1 << 16);
}

/* A stride as the lanes of a `bits`-bit integer see it: modulo 2^bits. */
static int64_t wrap_stride(int64_t stride, unsigned bits) {
  if (bits >= 64) return stride;
  uint64_t mask = (1ull << bits) - 1, m = (uint64_t)stride & mask;
  if (m >> (bits - 1)) m |= ~mask;
  return (int64_t)m;
}

/* Whether the most lanes (64) of a stride stay below 2^(bits - 1): else
 * they cross the signed and unsigned limits of the type all the time
 * (gid * 0x9e3779b9). */
static bool small_stride(int64_t stride, unsigned bits) {
  uint64_t magnitude = stride < 0 ? -(uint64_t)stride : (uint64_t)stride;
  return magnitude < (1ull << (bits >= 64 ? 56 : bits - 1)) / 64;
}

/* add, sub, mul, shl, or: strides where they stay linear. */
static wfv_shape linear_shape(const wfv *w, LLVMValueRef inst, int at) {
  wfv_shape a = wfv_operand_shape(w, LLVMGetOperand(inst, 0), at);
  wfv_shape b = wfv_operand_shape(w, LLVMGetOperand(inst, 1), at);
  if (a.kind == wfv_unknown || b.kind == wfv_unknown) return unknown;
  if (a.kind == wfv_uniform && b.kind == wfv_uniform) return uniform;
  if (!is_linear(a) || !is_linear(b)) return varying;
  LLVMValueRef rhs = LLVMGetOperand(inst, 1);
  LLVMValueRef lhs = LLVMGetOperand(inst, 0);
  switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMAdd:
      return strided(stride_of(a) + stride_of(b));
    case LLVMSub:
      return strided(stride_of(a) - stride_of(b));
    case LLVMOr:
      return LLVMGetIsDisjoint(inst) ? strided(stride_of(a) + stride_of(b))
                                     : varying;
    case LLVMMul:
      if (LLVMIsAConstantInt(rhs) && b.kind == wfv_uniform) {
        return strided((int64_t)((uint64_t)stride_of(a) *
                                 (uint64_t)LLVMConstIntGetSExtValue(rhs)));
      }
      if (LLVMIsAConstantInt(lhs) && a.kind == wfv_uniform) {
        return strided((int64_t)((uint64_t)stride_of(b) *
                                 (uint64_t)LLVMConstIntGetSExtValue(lhs)));
      }
      return varying;
    case LLVMShl: {
      if (!LLVMIsAConstantInt(rhs) || b.kind != wfv_uniform) return varying;
      uint64_t k = LLVMConstIntGetZExtValue(rhs);
      int64_t t = stride_of(a);
      if (k >= 62 || t >= ((int64_t)1 << (62 - k)) ||
          t <= -((int64_t)1 << (62 - k))) {
        return varying;
      }
      return strided(t * ((int64_t)1 << k));
    }
    case LLVMAShr:
    case LLVMLShr: {
      /* ashr (shl x, 32), 32 is instcombine's sext (trunc x) of a 64-bit
       * id: strided like those casts (the lanes' added multiples of 2^k
       * shift out whole). */
      if (!LLVMIsAConstantInt(rhs) || b.kind != wfv_uniform) return varying;
      uint64_t k = LLVMConstIntGetZExtValue(rhs);
      int64_t t = stride_of(a);
      /* ... unless the lanes cross the type's limits: (short)(gid * big)
       * is ashr (shl x, 16), 16 of an i32, and (short)(gid * 255) is
       * ashr (mul x, 255 << 16), 16. The shift's result is a narrower
       * integer's: below 32 bits only ids' small multiples stay clear of
       * its limits (strides of at most 2^(bits/2) / 64). */
      unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(inst));
      bool narrow = k < width && width - k < 32;
      if (k >= 62 || t % ((int64_t)1 << k) != 0 || !small_stride(t, width) ||
          (narrow &&
           !small_stride(t / ((int64_t)1 << k), (width - k) / 2 + 1))) {
        return varying;
      }
      return strided(t / ((int64_t)1 << k));
    }
    default:
      return varying;
  }
}

/* ... reduced modulo the type's width, and whether the lanes wrap. */
static wfv_shape arithmetic_shape(const wfv *w, LLVMValueRef inst, int at) {
  wfv_shape r = linear_shape(w, inst, at);
  if (r.kind != wfv_strided) return r;
  LLVMTypeRef type = LLVMTypeOf(inst);
  if (LLVMGetTypeKind(type) == LLVMIntegerTypeKind) {
    r.stride = wrap_stride(r.stride, LLVMGetIntTypeWidth(type));
    if (r.stride == 0) return uniform;
  }
  LLVMValueRef lhs = LLVMGetOperand(inst, 0), rhs = LLVMGetOperand(inst, 1);
  wfv_shape a = wfv_operand_shape(w, lhs, at);
  wfv_shape b = wfv_operand_shape(w, rhs, at);
  switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMAdd:
    case LLVMOr:
    case LLVMMul:
    case LLVMShl:
      r.no_wrap = keeps_no_wrap(a, lhs) && keeps_no_wrap(b, rhs);
      return r;
    case LLVMAShr:
      r.no_wrap = a.no_wrap;
      return r;
    case LLVMLShr:
      /* A logical shift of lanes that cross 0 is no longer linear. */
      if (!a.no_wrap) return varying;
      r.no_wrap = true;
      return r;
    default: /* sub: x - 3 crosses 0 where x < 3 */
      r.no_wrap = false;
      return r;
  }
}

/* Casts that keep a linear sequence linear. */
static bool keeps_stride(LLVMOpcode op) {
  return op == LLVMTrunc || op == LLVMZExt || op == LLVMSExt ||
         op == LLVMPtrToInt || op == LLVMIntToPtr || op == LLVMAddrSpaceCast;
}

/* The shape of cast `inst` of strided operand a. A zext of lanes that
 * may cross 0 (-2, -1, 0, 1 as unsigned) is not linear, unless it is
 * `nneg`: then the lanes that are not poison are those sext gives, and
 * lane 0 is made with a sext (wfv_widen.c). A sext assumes that no
 * sequence of lanes crosses the largest signed value of 32 or more bits.
 * A trunc to fewer than 32 bits wraps ids. */
static wfv_shape cast_shape(LLVMValueRef inst, LLVMOpcode op, wfv_shape a) {
  LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(inst, 0));
  unsigned bits = LLVMGetTypeKind(from) == LLVMIntegerTypeKind
                      ? LLVMGetIntTypeWidth(from)
                      : 64;
  switch (op) {
    case LLVMZExt:
    case LLVMSExt:
      /* Narrow integers (a uchar of an id) and big strides wrap in the
       * lanes of one vector. */
      if (bits < 32 || !small_stride(a.stride, bits)) return varying;
      if (op == LLVMSExt || a.no_wrap) return a;
      return LLVMGetNNeg(inst) ? a : varying;
    case LLVMTrunc: {
      unsigned to = LLVMGetIntTypeWidth(LLVMTypeOf(inst));
      a.stride = wrap_stride(a.stride, to);
      if (a.stride == 0) return uniform;
      a.no_wrap = a.no_wrap && to >= 32;
      return a;
    }
    default: /* pointers */
      a.no_wrap = false;
      return a;
  }
}

/* An undefined incoming value (the structurizer's, on the path where the
 * phi's value is not used) may be any value: the phi's other one. */
static bool is_undefined(LLVMValueRef value) {
  return LLVMIsUndef(value) || LLVMIsPoison(value);
}

static wfv_shape phi_shape(const wfv *w, LLVMValueRef phi, int at) {
  int head = w->blocks[at].head;
  unsigned n = LLVMCountIncoming(phi);
  if (head >= 0 && w->blocks[head].divergent) {
    LLVMValueRef defined = NULL;
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef value = LLVMGetIncomingValue(phi, i);
      if (is_undefined(value)) continue;
      if (defined && value != defined) return varying;
      defined = value;
    }
  }
  wfv_shape s = unknown;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef value = LLVMGetIncomingValue(phi, i);
    if (!is_undefined(value)) s = join(s, wfv_operand_shape(w, value, at));
  }
  return s.kind == wfv_unknown ? uniform : s;
}

static wfv_shape any_operand(const wfv *w, LLVMValueRef inst, int at,
                             int count) {
  wfv_shape s = uniform;
  for (int i = 0; i < count; i++) {
    wfv_shape o = wfv_operand_shape(w, LLVMGetOperand(inst, i), at);
    if (o.kind == wfv_unknown) return unknown;
    if (o.kind != wfv_uniform) s = varying;
  }
  return s;
}

/* The lane is strided by 1 from 0; a vote, a reduction and a shuffle of
 * one lane's value are the same in every lane; scans differ. */
static wfv_shape sub_group_shape(const wfv *w, LLVMValueRef call, int at,
                                 const cc_sub_group_call *sg) {
  switch (sg->kind) {
    case cc_sub_group_lane:
      return strided_wrapping(1, true);
    case cc_sub_group_width:
    case cc_sub_group_ballot:
    case cc_sub_group_reduce:
      return uniform;
    case cc_sub_group_shuffle: {
      wfv_shape x = wfv_operand_shape(w, LLVMGetOperand(call, 0), at);
      wfv_shape lane = wfv_operand_shape(w, LLVMGetOperand(call, 1), at);
      if (x.kind == wfv_unknown || lane.kind == wfv_unknown) return unknown;
      return x.kind == wfv_uniform || lane.kind == wfv_uniform ? uniform
                                                               : varying;
    }
    default:
      return varying;
  }
}

static wfv_shape compute(const wfv *w, LLVMValueRef inst, int at) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  int n = LLVMGetNumOperands(inst);
  switch (op) {
    case LLVMPHI:
      return phi_shape(w, inst, at);
    case LLVMAlloca:
      return strided(
          (int64_t)LLVMABISizeOfType(w->data, LLVMGetAllocatedType(inst)));
    case LLVMGetElementPtr:
      return gep_shape(w, inst, at);
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
    case LLVMAShr:
    case LLVMLShr:
    case LLVMOr:
      return arithmetic_shape(w, inst, at);
    case LLVMSelect: {
      wfv_shape c = wfv_operand_shape(w, LLVMGetOperand(inst, 0), at);
      if (c.kind == wfv_unknown) return unknown;
      if (c.kind != wfv_uniform) return varying;
      wfv_shape a = wfv_operand_shape(w, LLVMGetOperand(inst, 1), at);
      wfv_shape b = wfv_operand_shape(w, LLVMGetOperand(inst, 2), at);
      if (a.kind == wfv_unknown || b.kind == wfv_unknown) return unknown;
      return join(a, b);
    }
    case LLVMLoad:
      if (wfv_has_side_effects(inst)) return varying;
      return any_operand(w, inst, at, 1);
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
      return varying;
    case LLVMCall: {
      cc_sub_group_call sg;
      if (cc_sub_group_primitive(inst, &sg)) {
        return sub_group_shape(w, inst, at, &sg);
      }
      if (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind) {
        return uniform;
      }
      if (wfv_has_side_effects(inst)) return varying;
      return any_operand(w, inst, at, n - 1);
    }
    default:
      if (keeps_stride(op)) {
        wfv_shape a = wfv_operand_shape(w, LLVMGetOperand(inst, 0), at);
        return a.kind == wfv_strided ? cast_shape(inst, op, a)
                                     : any_operand(w, inst, at, 1);
      }
      return any_operand(w, inst, at, n);
  }
}

static bool index_values(wfv *w) {
  unsigned params = LLVMCountParams(w->body);
  unsigned count = params;
  for (unsigned b = 0; b < w->block_count; b++) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(w->blocks[b].old); i;
         i = LLVMGetNextInstruction(i)) {
      count++;
    }
  }
  w->values = calloc(count, sizeof *w->values);
  if (!w->values || !wfv_map_init(&w->value_index, count)) {
    return wfv_fail(w, "out of memory");
  }
  unsigned v = 0;
  for (unsigned p = 0; p < params; p++) {
    LLVMValueRef param = LLVMGetParam(w->body, p);
    bool x_id = p == w->arg_count + 1 || p == w->arg_count + 4;
    w->values[v] = (wfv_value){
        param, -1, x_id ? strided_wrapping(1, true) : uniform, NULL, NULL,
        NULL,  0};
    wfv_map_put(&w->value_index, param, v++);
  }
  for (unsigned b = 0; b < w->block_count; b++) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(w->blocks[b].old); i;
         i = LLVMGetNextInstruction(i)) {
      w->values[v] = (wfv_value){i, (int)b, unknown, NULL, NULL, NULL, 0};
      wfv_map_put(&w->value_index, i, v++);
    }
  }
  w->value_count = v;
  return true;
}

static bool branch_diverges(const wfv *w, int b) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(w->blocks[b].old);
  wfv_shape c = wfv_operand_shape(w, LLVMGetCondition(term), b);
  return c.kind != wfv_uniform && c.kind != wfv_unknown;
}

bool wfv_analyze_shapes(wfv *w) {
  if (!index_values(w)) return false;
  unsigned params = LLVMCountParams(w->body);
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned l = 0; l < w->loop_count; l++) {
      bool d = branch_diverges(w, w->loops[l].latch);
      changed |= d != w->loops[l].divergent;
      w->loops[l].divergent |= d;
    }
    for (unsigned b = 0; b < w->block_count; b++) {
      if (w->blocks[b].join < 0) continue;
      bool d = branch_diverges(w, (int)b);
      changed |= d != w->blocks[b].divergent;
      w->blocks[b].divergent |= d;
    }
    for (unsigned v = params; v < w->value_count; v++) {
      wfv_value *value = &w->values[v];
      wfv_shape s = compute(w, value->old, value->block);
      if (s.kind == wfv_unknown) continue;
      wfv_shape old = value->shape;
      wfv_shape next = old.kind == wfv_unknown ? s : join(old, s);
      if (next.kind != old.kind || next.stride != old.stride ||
          next.no_wrap != old.no_wrap) {
        value->shape = next;
        changed = true;
      }
    }
  }
  /* What is still unknown is never computed from the ids: uniform. */
  for (unsigned v = params; v < w->value_count; v++) {
    if (w->values[v].shape.kind == wfv_unknown) w->values[v].shape = uniform;
  }
  /* A varying value must have a vector form. */
  for (unsigned v = params; v < w->value_count; v++) {
    LLVMValueRef old = w->values[v].old;
    LLVMTypeRef type = LLVMTypeOf(old);
    if (w->values[v].shape.kind != wfv_varying ||
        LLVMGetTypeKind(type) == LLVMVoidTypeKind || wfv_is_widenable(type)) {
      continue;
    }
    if (LLVMIsAAtomicCmpXchgInst(old)) continue; /* kept per lane */
    return wfv_fail(w, "a varying value of a type with no vector form");
  }
  return true;
}

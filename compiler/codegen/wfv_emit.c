/* clmux compiler — whole-function vectorizer: the vector function, block by
 * block in reverse post-order, with a lane mask per block (wfv.h).
 *
 * Masks in the structured form: a join has its if's mask (every lane that
 * entered the if leaves it there); an if's first successor gets the lanes
 * that take it; a loop's header the lanes that entered it, then those
 * still in it; its exit again every lane that entered. A divergent if's
 * region is skipped when no lane takes it, so every block runs with at
 * least one lane on and a uniform load or store may run once for all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wfv.h"

static unsigned components(LLVMTypeRef type) {
  return LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetVectorSize(type)
                                                     : 1;
}

/* ---- Values leaving divergent loops ---- */

static wfv_live_out *find_live_out(wfv *w, int loop, unsigned value) {
  for (unsigned i = 0; i < w->live_out_count; i++) {
    if (w->live_outs[i].loop == loop && w->live_outs[i].value == value) {
      return &w->live_outs[i];
    }
  }
  return NULL;
}

static bool add_live_out(wfv *w, int loop, unsigned value) {
  if (find_live_out(w, loop, value)) return true;
  if (w->live_out_count == w->live_out_capacity) {
    unsigned capacity = w->live_out_capacity ? 2 * w->live_out_capacity : 16;
    wfv_live_out *more = realloc(w->live_outs, capacity * sizeof *more);
    if (!more) return wfv_fail(w, "out of memory");
    w->live_outs = more;
    w->live_out_capacity = capacity;
  }
  w->live_outs[w->live_out_count++] = (wfv_live_out){loop, value, NULL, NULL};
  return true;
}

LLVMValueRef wfv_live_out_value(wfv *w, long value, int at) {
  int loop = wfv_left_loop(w, value, at, -1);
  for (int outer; (outer = wfv_left_loop(w, value, at, loop)) >= 0;) {
    loop = outer;
  }
  wfv_live_out *out = find_live_out(w, loop, (unsigned)value);
  return out ? out->next : NULL;
}

static bool note_use(wfv *w, LLVMValueRef operand, int at) {
  long v = wfv_map_get(&w->value_index, operand);
  if (v < 0) return true;
  for (int l = wfv_left_loop(w, v, at, -1); l >= 0;
       l = wfv_left_loop(w, v, at, l)) {
    if (!add_live_out(w, l, (unsigned)v)) return false;
  }
  return true;
}

static bool find_live_outs(wfv *w) {
  for (unsigned b = 0; b < w->block_count; b++) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(w->blocks[b].old); i;
         i = LLVMGetNextInstruction(i)) {
      int n = LLVMGetNumOperands(i);
      for (int o = 0; o < n; o++) {
        if (!note_use(w, LLVMGetOperand(i, o), (int)b)) return false;
      }
    }
  }
  return true;
}

/* ---- Masks ---- */

static LLVMValueRef and_mask(wfv *w, LLVMValueRef mask, LLVMValueRef lanes,
                             bool negate) {
  if (negate) lanes = LLVMBuildNot(w->builder, lanes, "");
  return LLVMBuildAnd(w->builder, mask, lanes, "");
}

static bool is_latch(const wfv *w, int b) {
  int l = w->blocks[b].loop;
  return l >= 0 && w->loops[l].latch == b;
}

/* The lanes going from emitted block p to block b. */
static LLVMValueRef edge_mask(wfv *w, int p, int b) {
  wfv_block *from = &w->blocks[p];
  LLVMValueRef term = LLVMGetBasicBlockTerminator(from->old);
  if (LLVMGetNumSuccessors(term) < 2) return from->mask;
  if (is_latch(w, p)) {
    wfv_loop *loop = &w->loops[from->loop];
    if (loop->exit == b) return loop->entry_mask;
    return loop->divergent ? loop->continuing : from->mask;
  }
  bool then = wfv_block_of(w, LLVMGetSuccessor(term, 0)) == b;
  return then && from->divergent ? from->then_mask : from->mask;
}

static int single_predecessor(const wfv *w, int b) {
  LLVMUseRef use = LLVMGetFirstUse(LLVMBasicBlockAsValue(w->blocks[b].old));
  for (; use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (LLVMIsATerminatorInst(user)) {
      return (int)wfv_block_of(w, LLVMGetInstructionParent(user));
    }
  }
  return -1;
}

static int loop_of_header(const wfv *w, int b) {
  int l = w->blocks[b].loop;
  return l >= 0 && w->loops[l].header == b ? l : -1;
}

static bool enter_block(wfv *w, int b) {
  wfv_block *block = &w->blocks[b];
  int l = loop_of_header(w, b);
  if (b == 0) {
    block->mask = LLVMGetLastParam(w->function);
  } else if (l >= 0) {
    wfv_loop *loop = &w->loops[l];
    loop->entry_mask = edge_mask(w, loop->preheader, b);
    block->mask = loop->entry_mask;
    LLVMBasicBlockRef pre = w->blocks[loop->preheader].last;
    if (loop->divergent) {
      loop->mask_phi =
          LLVMBuildPhi(w->builder, LLVMTypeOf(block->mask), "lanes");
      LLVMAddIncoming(loop->mask_phi, &loop->entry_mask, &pre, 1);
      block->mask = loop->mask_phi;
    }
    for (unsigned i = 0; i < w->live_out_count; i++) {
      wfv_live_out *out = &w->live_outs[i];
      if (out->loop != l) continue;
      LLVMTypeRef type =
          wfv_wide_type(w, LLVMTypeOf(w->values[out->value].old));
      out->phi = LLVMBuildPhi(w->builder, type, "left");
      LLVMValueRef poison = LLVMGetPoison(type);
      LLVMAddIncoming(out->phi, &poison, &pre, 1);
    }
  } else if (block->head >= 0) {
    block->mask = w->blocks[block->head].mask;
  } else {
    int p = single_predecessor(w, b);
    if (p < 0) return wfv_fail(w, "a block without a predecessor");
    block->mask = edge_mask(w, p, b);
  }
  return true;
}

/* ---- Terminators ---- */

static LLVMBasicBlockRef first_of(wfv *w, LLVMBasicBlockRef old) {
  return w->blocks[wfv_block_of(w, old)].first;
}

static void leave_loop(wfv *w, int b, LLVMValueRef term) {
  wfv_block *block = &w->blocks[b];
  int l = block->loop;
  wfv_loop *loop = &w->loops[l];
  LLVMValueRef condition = wfv_vector(w, LLVMGetCondition(term), b);
  /* Exit when the condition is true on successor 0, false on 1. */
  loop->leaving = and_mask(w, block->mask, condition, loop->exit_successor);
  loop->continuing =
      and_mask(w, block->mask, condition, loop->exit_successor == 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(w->builder);
  for (unsigned i = 0; i < w->live_out_count; i++) {
    wfv_live_out *out = &w->live_outs[i];
    if (out->loop != l) continue;
    LLVMValueRef old = w->values[out->value].old;
    LLVMValueRef inner = wfv_vector(w, old, b);
    LLVMValueRef leaving =
        wfv_repeat_lanes(w, loop->leaving, components(LLVMTypeOf(old)));
    out->next = LLVMBuildSelect(w->builder, leaving, inner, out->phi, "kept");
    LLVMAddIncoming(out->phi, &out->next, &here, 1);
  }
  LLVMAddIncoming(loop->mask_phi, &loop->continuing, &here, 1);
  LLVMBuildCondBr(w->builder, wfv_any(w, loop->continuing),
                  w->blocks[loop->header].first, w->blocks[loop->exit].first);
}

static bool emit_terminator(wfv *w, int b) {
  wfv_block *block = &w->blocks[b];
  LLVMValueRef term = LLVMGetBasicBlockTerminator(block->old);
  if (LLVMIsAReturnInst(term)) {
    LLVMBuildRetVoid(w->builder);
    return true;
  }
  if (!LLVMIsConditional(term)) {
    LLVMBuildBr(w->builder, first_of(w, LLVMGetSuccessor(term, 0)));
    return true;
  }
  LLVMBasicBlockRef s0 = first_of(w, LLVMGetSuccessor(term, 0));
  LLVMBasicBlockRef s1 = first_of(w, LLVMGetSuccessor(term, 1));
  bool divergent =
      is_latch(w, b) ? w->loops[block->loop].divergent : block->divergent;
  if (!divergent) {
    LLVMBuildCondBr(w->builder, wfv_scalar(w, LLVMGetCondition(term), b), s0,
                    s1);
    return true;
  }
  if (is_latch(w, b)) {
    leave_loop(w, b, term);
    return true;
  }
  /* A divergent if: its region runs under the lanes that take it, and is
   * skipped when none does. */
  LLVMValueRef condition = wfv_vector(w, LLVMGetCondition(term), b);
  block->then_mask = and_mask(w, block->mask, condition, false);
  LLVMBuildCondBr(w->builder, wfv_any(w, block->then_mask), s0, s1);
  return true;
}

/* ---- Phis ---- */

static bool is_linear_shape(wfv_kind kind) {
  return kind == wfv_uniform || kind == wfv_strided;
}

static void create_phis(wfv *w, int b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(w->blocks[b].old);
       i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
    long v = wfv_map_get(&w->value_index, i);
    LLVMTypeRef type = LLVMTypeOf(i);
    if (is_linear_shape(w->values[v].shape.kind)) {
      wfv_set(w, i, LLVMBuildPhi(w->builder, type, ""), NULL);
    } else {
      wfv_set(w, i, NULL, LLVMBuildPhi(w->builder, wfv_wide_type(w, type), ""));
    }
  }
}

static void fill_phis(wfv *w, int b) {
  wfv_block *block = &w->blocks[b];
  int head = block->head;
  bool blend = head >= 0 && w->blocks[head].divergent;
  for (LLVMValueRef i = LLVMGetFirstInstruction(block->old);
       i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
    long v = wfv_map_get(&w->value_index, i);
    bool linear = is_linear_shape(w->values[v].shape.kind);
    LLVMValueRef phi = linear ? w->values[v].scalar : w->values[v].vector;
    LLVMValueRef from_head = NULL;
    unsigned n = LLVMCountIncoming(i);
    for (unsigned k = 0; k < n; k++) {
      if (wfv_block_of(w, LLVMGetIncomingBlock(i, k)) == head) {
        from_head = LLVMGetIncomingValue(i, k);
      }
    }
    for (unsigned k = 0; k < n; k++) {
      int p = (int)wfv_block_of(w, LLVMGetIncomingBlock(i, k));
      LLVMBasicBlockRef end = w->blocks[p].last;
      LLVMPositionBuilderBefore(w->builder, LLVMGetBasicBlockTerminator(end));
      LLVMValueRef old = LLVMGetIncomingValue(i, k);
      /* At a divergent join, the lanes that went through the if's region
       * and the others both come in from its end: an undefined value there
       * stands for the head's. */
      if (blend && p != head && from_head &&
          (LLVMIsUndef(old) || LLVMIsPoison(old))) {
        old = from_head;
      }
      bool head_undefined =
          from_head && (LLVMIsUndef(from_head) || LLVMIsPoison(from_head));
      LLVMValueRef value;
      if (linear) {
        value = wfv_scalar(w, old, b);
      } else {
        value = wfv_vector(w, old, b);
        if (blend && p != head && from_head && old != from_head &&
            !head_undefined) {
          /* Lanes that skipped the if's region come from its head. */
          LLVMValueRef took = wfv_repeat_lanes(w, w->blocks[head].then_mask,
                                               components(LLVMTypeOf(old)));
          value = LLVMBuildSelect(w->builder, took, value,
                                  wfv_vector(w, from_head, b), "");
        }
      }
      LLVMAddIncoming(phi, &value, &end, 1);
    }
  }
}

/* ---- The function ---- */

static bool create_function(wfv *w) {
  unsigned params = LLVMCountParams(w->body);
  LLVMTypeRef *types = calloc(params + 1, sizeof *types);
  if (!types) return wfv_fail(w, "out of memory");
  LLVMGetParamTypes(LLVMGlobalGetValueType(w->body), types);
  types[params] = LLVMVectorType(LLVMInt1TypeInContext(w->context), w->lanes);
  size_t length = 0;
  const char *name = LLVMGetValueName2(w->body, &length);
  char vector_name[256];
  snprintf(vector_name, sizeof vector_name, "%.*s.lanes%u", (int)length, name,
           w->lanes);
  w->function =
      LLVMAddFunction(w->module, vector_name,
                      LLVMFunctionType(LLVMVoidTypeInContext(w->context), types,
                                       params + 1, 0));
  free(types);
  LLVMSetLinkage(w->function, LLVMInternalLinkage);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(w->function, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(w->context, always, 0));
  for (unsigned p = 0; p < params; p++) {
    /* The parameter attributes that still hold (noalias, align, ...). */
    LLVMAttributeIndex at = (LLVMAttributeIndex)(p + 1);
    unsigned count = LLVMGetAttributeCountAtIndex(w->body, at);
    LLVMAttributeRef attributes[32];
    if (count > 0 && count <= 32) {
      LLVMGetAttributesAtIndex(w->body, at, attributes);
      for (unsigned a = 0; a < count; a++) {
        LLVMAddAttributeAtIndex(w->function, at, attributes[a]);
      }
    }
    w->values[p].scalar = LLVMGetParam(w->function, p);
  }
  w->alloca_block =
      LLVMAppendBasicBlockInContext(w->context, w->function, "entry");
  for (unsigned b = 0; b < w->block_count; b++) {
    w->blocks[b].first =
        LLVMAppendBasicBlockInContext(w->context, w->function, "");
  }
  return true;
}

static bool missing_value(wfv *w, LLVMValueRef user) {
  char *what = LLVMPrintValueToString(w->missing);
  char *where = user ? LLVMPrintValueToString(user) : NULL;
  wfv_fail(w, "%s used by %s before it was made", what,
           where ? where : "a phi");
  LLVMDisposeMessage(what);
  if (where) LLVMDisposeMessage(where);
  return false;
}

bool wfv_emit(wfv *w) {
  if (!create_function(w) || !find_live_outs(w)) return false;
  for (unsigned b = 0; b < w->block_count; b++) {
    wfv_block *block = &w->blocks[b];
    LLVMPositionBuilderAtEnd(w->builder, block->first);
    create_phis(w, (int)b);
    if (!enter_block(w, (int)b)) return false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(block->old); i;
         i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i) || LLVMIsATerminatorInst(i)) continue;
      if (!wfv_widen(w, i, (int)b, block->mask)) return false;
      if (w->missing) return missing_value(w, i);
    }
    if (!emit_terminator(w, (int)b)) return false;
    if (w->missing)
      return missing_value(w, LLVMGetBasicBlockTerminator(block->old));
    block->last = LLVMGetInsertBlock(w->builder);
    if (LLVMGetBasicBlockTerminator(block->last) == NULL) {
      return wfv_fail(w, "a block left open");
    }
  }
  for (unsigned b = 0; b < w->block_count; b++) fill_phis(w, (int)b);
  if (w->missing) return missing_value(w, NULL);
  LLVMPositionBuilderAtEnd(w->builder, w->alloca_block);
  LLVMBuildBr(w->builder, w->blocks[0].first);
  return true;
}

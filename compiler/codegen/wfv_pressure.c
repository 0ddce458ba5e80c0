/* clmux compiler — whole-function vectorizer: how many vector registers
 * the body's varying values hold at once, at a given lane count, so that
 * lanes are not doubled into spills (SHA-512 on ulong8: four lanes keep
 * ~96 zmm of message schedule and state live, and run 10-15% slower than
 * two). Within each block, a value holds its registers from its definition
 * (or the block's start) to its last use there (or the block's end). */
#include <limits.h>
#include <stdlib.h>

#include "wfv.h"

/* Registers a varying value of `type` takes at `lanes` lanes; masks (i1)
 * live in mask registers and count nothing. */
static unsigned registers_of(const wfv *w, LLVMTypeRef type, unsigned lanes,
                             unsigned register_bits) {
  unsigned components = 1;
  if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
    components = LLVMGetVectorSize(type);
    type = LLVMGetElementType(type);
  }
  switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind:
      if (LLVMGetIntTypeWidth(type) == 1) return 0;
      break;
    case LLVMHalfTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMPointerTypeKind:
      break;
    default:
      return 0;
  }
  unsigned long long bits =
      LLVMSizeOfTypeInBits(w->data, type) * components * lanes;
  return (unsigned)((bits + register_bits - 1) / register_bits);
}

/* The index of `value` if it is a varying instruction of the body. */
static long varying(const wfv *w, LLVMValueRef value) {
  long v = wfv_map_get(&w->value_index, value);
  if (v < 0 || w->values[v].block < 0) return -1;
  return w->values[v].shape.kind == wfv_varying ? v : -1;
}

/* The peak within block `b`. `start` and `end` (per value, -1 when unset)
 * and `touched` are scratch of value_count entries, `delta` of the block's
 * instructions plus two. */
static unsigned block_peak(const wfv *w, unsigned b, unsigned lanes,
                           unsigned register_bits, int *start, int *end,
                           unsigned *touched, long long *delta) {
  LLVMBasicBlockRef block = w->blocks[b].old;
  unsigned touched_count = 0;
  int n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(block); i;
       i = LLVMGetNextInstruction(i), n++) {
    int count = LLVMIsAPHINode(i) ? 0 : LLVMGetNumOperands(i);
    for (int k = 0; k < count; k++) {
      long u = varying(w, LLVMGetOperand(i, (unsigned)k));
      if (u < 0) continue;
      if (start[u] < 0) { /* live on entry */
        start[u] = 0;
        touched[touched_count++] = (unsigned)u;
      }
      if (end[u] < n) end[u] = n;
    }
    long v = varying(w, i);
    if (v < 0) continue;
    start[v] = n;
    end[v] = n;
    touched[touched_count++] = (unsigned)v;
    for (LLVMUseRef use = LLVMGetFirstUse(i); use; use = LLVMGetNextUse(use)) {
      LLVMValueRef user = LLVMGetUser(use);
      if (LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != block) {
        end[v] = INT_MAX; /* live out of the block */
      }
    }
  }
  for (int p = 0; p <= n + 1; p++) delta[p] = 0;
  for (unsigned t = 0; t < touched_count; t++) {
    unsigned v = touched[t];
    int last = end[v] > n ? n : end[v];
    long long r =
        registers_of(w, LLVMTypeOf(w->values[v].old), lanes, register_bits);
    delta[start[v]] += r;
    delta[last + 1] -= r;
    start[v] = end[v] = -1;
  }
  long long live = 0, peak = 0;
  for (int p = 0; p <= n; p++) {
    live += delta[p];
    if (live > peak) peak = live;
  }
  return (unsigned)peak;
}

unsigned wfv_peak_registers(const wfv *w, unsigned lanes,
                            unsigned register_bits) {
  size_t most = 0;
  for (unsigned b = 0; b < w->block_count; b++) {
    size_t n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(w->blocks[b].old); i;
         i = LLVMGetNextInstruction(i)) {
      n++;
    }
    if (n > most) most = n;
  }
  size_t count = w->value_count ? w->value_count : 1;
  int *start = malloc(count * sizeof *start);
  int *end = malloc(count * sizeof *end);
  unsigned *touched = malloc(count * sizeof *touched);
  long long *delta = malloc((most + 2) * sizeof *delta);
  unsigned peak = 0;
  if (start && end && touched && delta) {
    for (unsigned v = 0; v < w->value_count; v++) start[v] = end[v] = -1;
    for (unsigned b = 0; b < w->block_count; b++) {
      unsigned p =
          block_peak(w, b, lanes, register_bits, start, end, touched, delta);
      if (p > peak) peak = p;
    }
  }
  free(start);
  free(end);
  free(touched);
  free(delta);
  return peak;
}

/* clmux compiler — whole-function vectorizer: interleaved groups. A float4
 * (or a struct of floats) that scalarize.c split into its components is
 * read as four loads whose addresses stride by 16 bytes from lane to lane:
 * gathered one by one they would cost four gathers. Together they read
 * every byte of each lane's 16-byte record, so one consecutive load of the
 * lanes' records, shuffled apart, does the same; stores likewise, written
 * at the last member once every component is known. A group must cover
 * its records whole (nothing outside what the work-items touch is read or
 * written) and nothing between its members may see the difference. */
#include <stdlib.h>

#include "wfv.h"

#define MAX_MEMBERS 16
/* Blocks searched for members, whole so that every member finds the same
 * group (a store left to the last member must be written by it). */
#define MAX_BLOCK 4096

typedef struct group {
  LLVMValueRef member[MAX_MEMBERS]; /* by offset: member j at c0 + j * size */
  LLVMValueRef first, last;         /* in block order */
  LLVMValueRef root;
  int64_t first_offset;
  unsigned count;
} group;

static bool is_store(LLVMValueRef inst) { return LLVMIsAStoreInst(inst); }

static LLVMTypeRef type_of(LLVMValueRef access) {
  return is_store(access) ? LLVMTypeOf(LLVMGetOperand(access, 0))
                          : LLVMTypeOf(access);
}

static bool plain(LLVMValueRef access) {
  return (LLVMIsALoadInst(access) || LLVMIsAStoreInst(access)) &&
         !LLVMGetVolatile(access) &&
         LLVMGetOrdering(access) == LLVMAtomicOrderingNotAtomic;
}

/* `address` as `root` plus constant bytes, through GEPs of constant
 * indices. */
static LLVMValueRef split_offset(wfv *w, LLVMValueRef address,
                                 int64_t *offset) {
  *offset = 0;
  while (LLVMIsAGetElementPtrInst(address) ||
         (LLVMIsAConstantExpr(address) &&
          LLVMGetConstOpcode(address) == LLVMGetElementPtr)) {
    unsigned n = (unsigned)LLVMGetNumOperands(address);
    for (unsigned i = 1; i < n; i++) {
      if (!LLVMIsAConstantInt(LLVMGetOperand(address, i))) return address;
    }
    LLVMTypeRef type = LLVMGetGEPSourceElementType(address);
    int64_t bytes = LLVMConstIntGetSExtValue(LLVMGetOperand(address, 1)) *
                    (int64_t)LLVMABISizeOfType(w->data, type);
    for (unsigned i = 2; i < n; i++) {
      int64_t index = LLVMConstIntGetSExtValue(LLVMGetOperand(address, i));
      LLVMTypeKind kind = LLVMGetTypeKind(type);
      if (kind == LLVMStructTypeKind) {
        bytes += (int64_t)LLVMOffsetOfElement(w->data, type, (unsigned)index);
        type = LLVMStructGetTypeAtIndex(type, (unsigned)index);
      } else if (kind == LLVMArrayTypeKind) {
        type = LLVMGetElementType(type);
        bytes += index * (int64_t)LLVMABISizeOfType(w->data, type);
      } else {
        return address; /* into a vector: leave it whole */
      }
    }
    *offset += bytes;
    address = LLVMGetOperand(address, 0);
  }
  return address;
}

/* Whether `inst` (not a member) lies between members in a way the group
 * would change: a write between loads, any access between stores. */
static bool conflicts(LLVMValueRef inst, bool stores) {
  if (wfv_has_side_effects(inst)) return true;
  return stores && wfv_reads_memory(inst);
}

/* The group `access` belongs to, if it is a whole one. */
static bool find_group(wfv *w, LLVMValueRef access, int at, group *g) {
  LLVMTypeRef type = type_of(access);
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  if (kind == LLVMVectorTypeKind || kind == LLVMStructTypeKind ||
      kind == LLVMArrayTypeKind || !plain(access)) {
    return false;
  }
  int64_t size = (int64_t)LLVMABISizeOfType(w->data, type);
  if (size != (int64_t)LLVMStoreSizeOfType(w->data, type)) return false;
  wfv_shape shape = wfv_operand_shape(w, wfv_access_address(access), at);
  if (shape.kind != wfv_strided || shape.stride <= size ||
      shape.stride % size != 0 || shape.stride / size > MAX_MEMBERS) {
    return false;
  }
  unsigned m = (unsigned)(shape.stride / size);
  bool stores = is_store(access);
  int64_t own;
  LLVMValueRef root = split_offset(w, wfv_access_address(access), &own);
  /* Members: same kind, type and stride, offsets from the same root. */
  LLVMBasicBlockRef block = LLVMGetInstructionParent(access);
  LLVMValueRef begin = LLVMGetFirstInstruction(block);
  LLVMValueRef end = LLVMGetLastInstruction(block);
  LLVMValueRef found[MAX_MEMBERS];
  int64_t offsets[MAX_MEMBERS];
  unsigned n = 0, length = 0;
  int64_t low = own;
  for (LLVMValueRef i = begin; i; i = LLVMGetNextInstruction(i)) {
    if (++length > MAX_BLOCK) return false;
    int64_t offset;
    if (plain(i) && is_store(i) == stores && type_of(i) == type &&
        split_offset(w, wfv_access_address(i), &offset) == root) {
      wfv_shape s = wfv_operand_shape(w, wfv_access_address(i), at);
      if (s.kind == wfv_strided && s.stride == shape.stride) {
        if (n == m) return false; /* more than one record's worth */
        found[n] = i;
        offsets[n++] = offset;
        if (offset < low) low = offset;
      }
    }
  }
  /* Exactly one member per slot of a record: the same set whichever
   * member asks. */
  if (n != m) return false;
  *g = (group){{NULL}, NULL, NULL, root, low, 0};
  for (unsigned i = 0; i < n; i++) {
    int64_t slot = offsets[i] - low;
    if (slot % size != 0 || slot / size >= m) return false;
    if (g->member[slot / size]) return false; /* two accesses of a slot */
    g->member[slot / size] = found[i];
    g->count++;
  }
  if (g->count != m) return false;
  /* In block order: the first and last members, and nothing in between
   * that the merged access would reorder. */
  unsigned seen = 0;
  for (LLVMValueRef i = begin;; i = LLVMGetNextInstruction(i)) {
    bool member = false;
    for (unsigned j = 0; j < m && !member; j++) member = g->member[j] == i;
    if (member) {
      if (!g->first) g->first = i;
      g->last = i;
      seen++;
    } else if (g->first && seen < m && conflicts(i, stores)) {
      return false;
    }
    if (i == end || seen == m) break;
  }
  return seen == m;
}

/* lanes x m elements: lane l's member j at l * m + j. */
static LLVMValueRef record_base(wfv *w, const group *g, int at) {
  LLVMValueRef root = wfv_scalar(w, g->root, at);
  if (!root) return NULL;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(w->context);
  LLVMValueRef offset = LLVMConstInt(LLVMInt64TypeInContext(w->context),
                                     (unsigned long long)g->first_offset, 1);
  return LLVMBuildGEP2(w->builder, i8, root, &offset, 1, "record");
}

static bool load_group(wfv *w, const group *g, int at, LLVMValueRef mask) {
  LLVMTypeRef type = type_of(g->member[0]);
  unsigned m = g->count;
  LLVMValueRef base = record_base(w, g, at);
  if (!base) return false;
  LLVMTypeRef wide = LLVMVectorType(type, w->lanes * m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  unsigned align = LLVMGetAlignment(g->member[0]);
  LLVMValueRef args[4] = {base, LLVMConstInt(i32, align ? align : 1, 0),
                          wfv_repeat_lanes(w, mask, m), LLVMGetPoison(wide)};
  LLVMTypeRef types[2] = {wide, LLVMTypeOf(base)};
  LLVMValueRef all =
      wfv_call_intrinsic(w, "llvm.masked.load", types, 2, args, 4);
  int *indices = malloc(w->lanes * sizeof *indices);
  if (!all || !indices) {
    free(indices);
    return false;
  }
  for (unsigned j = 0; j < m; j++) {
    for (unsigned l = 0; l < w->lanes; l++) indices[l] = (int)(l * m + j);
    LLVMValueRef part =
        wfv_shuffle(w, all, LLVMGetPoison(wide), indices, w->lanes);
    wfv_set(w, g->member[j], NULL, part);
  }
  free(indices);
  return true;
}

static bool store_group(wfv *w, const group *g, int at, LLVMValueRef mask) {
  LLVMTypeRef type = type_of(g->member[0]);
  unsigned m = g->count, n = w->lanes * m;
  /* Concatenated pairwise, padded to a power of two (a float3's three
   * members and a poison one): member j's lanes at j * lanes. */
  unsigned padded = 1;
  while (padded < m) padded *= 2;
  LLVMValueRef parts[MAX_MEMBERS];
  for (unsigned j = 0; j < padded; j++) {
    parts[j] = j < m ? wfv_vector(w, LLVMGetOperand(g->member[j], 0), at)
                     : LLVMGetPoison(LLVMVectorType(type, w->lanes));
    if (!parts[j]) return false;
  }
  int *indices = malloc(w->lanes * padded * sizeof *indices);
  if (!indices) return false;
  for (unsigned width = w->lanes; width < w->lanes * padded; width *= 2) {
    for (unsigned i = 0; i < 2 * width; i++) indices[i] = (int)i;
    for (unsigned j = 0; j < w->lanes * padded / (2 * width); j++) {
      parts[j] =
          wfv_shuffle(w, parts[2 * j], parts[2 * j + 1], indices, 2 * width);
    }
  }
  for (unsigned l = 0; l < w->lanes; l++) {
    for (unsigned j = 0; j < m; j++)
      indices[l * m + j] = (int)(j * w->lanes + l);
  }
  LLVMValueRef all =
      wfv_shuffle(w, parts[0], LLVMGetPoison(LLVMTypeOf(parts[0])), indices, n);
  free(indices);
  LLVMValueRef base = record_base(w, g, at);
  if (!all || !base) return false;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  unsigned align = LLVMGetAlignment(g->member[0]);
  LLVMValueRef args[4] = {all, base, LLVMConstInt(i32, align ? align : 1, 0),
                          wfv_repeat_lanes(w, mask, m)};
  LLVMTypeRef types[2] = {LLVMVectorType(type, n), LLVMTypeOf(base)};
  return wfv_call_intrinsic(w, "llvm.masked.store", types, 2, args, 4) != NULL;
}

bool wfv_widen_interleaved(wfv *w, LLVMValueRef access, int at,
                           LLVMValueRef mask, bool *done) {
  *done = false;
  group g;
  if (!find_group(w, access, at, &g)) return false;
  if (is_store(access)) {
    /* Every store but the last waits for the others' values. */
    *done = access != g.last || store_group(w, &g, at, mask);
    return true;
  }
  /* The first member loads for all. */
  *done = load_group(w, &g, at, mask);
  return true;
}

bool wfv_has_interleaved_group(wfv *w) {
  for (unsigned v = 0; v < w->value_count; v++) {
    LLVMValueRef inst = w->values[v].old;
    group g;
    if (w->values[v].block >= 0 && (LLVMIsALoadInst(inst) || is_store(inst)) &&
        find_group(w, inst, w->values[v].block, &g)) {
      return true;
    }
  }
  return false;
}

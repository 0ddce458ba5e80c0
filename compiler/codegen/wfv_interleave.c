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

/* Where the records are: `base`, plus `index` (when not NULL) times
 * `scale` bytes: p[i] of a struct array, whose fields p[i].a, p[i].b are
 * GEPs of p, i and a constant each. */
typedef struct record_root {
  LLVMValueRef base, index;
  int64_t scale;
} record_root;

static bool same_root(record_root a, record_root b) {
  return a.base == b.base && a.index == b.index && a.scale == b.scale;
}

typedef struct wfv_group {
  LLVMValueRef member[MAX_MEMBERS]; /* by offset: member j at c0 + j * size */
  LLVMValueRef first, last;         /* in block order */
  record_root root;
  int64_t first_offset;
  unsigned count;
} group;

/* find_group once per group: the members' searches each scan the whole
 * block, which for a long straight-line body of records is quadratic. */
static bool find_group(wfv *w, LLVMValueRef access, int at, group *g);

static bool known_group(wfv *w, LLVMValueRef access, int at, group *g) {
  long v = wfv_map_get(&w->value_index, access);
  if (v < 0) return find_group(w, access, at, g);
  int known = w->values[v].group;
  if (known != 0) {
    if (known > 0) *g = w->groups[known - 1];
    return known > 0;
  }
  if (!find_group(w, access, at, g)) {
    w->values[v].group = -1;
    return false;
  }
  if (w->group_count == w->group_capacity) {
    unsigned capacity = w->group_capacity ? 2 * w->group_capacity : 16;
    group *grown = realloc(w->groups, capacity * sizeof *grown);
    if (!grown) return true; /* found, just not remembered */
    w->groups = grown;
    w->group_capacity = capacity;
  }
  w->groups[w->group_count++] = *g;
  for (unsigned j = 0; j < g->count; j++) {
    long member = wfv_map_get(&w->value_index, g->member[j]);
    if (member >= 0) w->values[member].group = (int)w->group_count;
  }
  return true;
}

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

/* Members may mix integers and floats of one size (a struct of a float
 * and an int): moved as the first member's type, bitcast to their own. */
static bool is_number(LLVMTypeRef type) {
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  return kind == LLVMIntegerTypeKind || kind == LLVMFloatTypeKind ||
         kind == LLVMDoubleTypeKind || kind == LLVMHalfTypeKind;
}

static bool same_size(wfv *w, LLVMTypeRef a, LLVMTypeRef b) {
  if (a == b) return true;
  return is_number(a) && is_number(b) &&
         LLVMABISizeOfType(w->data, a) == LLVMABISizeOfType(w->data, b) &&
         LLVMStoreSizeOfType(w->data, a) == LLVMABISizeOfType(w->data, a) &&
         LLVMStoreSizeOfType(w->data, b) == LLVMABISizeOfType(w->data, b);
}

/* `address` as `root` plus constant bytes, through GEPs of constant
 * indices and at most one GEP into an array of structs or arrays whose
 * first index alone is not constant. */
static record_root split_offset(wfv *w, LLVMValueRef address, int64_t *offset) {
  *offset = 0;
  record_root root = {address, NULL, 0};
  while (LLVMIsAGetElementPtrInst(address) ||
         (LLVMIsAConstantExpr(address) &&
          LLVMGetConstOpcode(address) == LLVMGetElementPtr)) {
    unsigned n = (unsigned)LLVMGetNumOperands(address);
    for (unsigned i = 2; i < n; i++) {
      if (!LLVMIsAConstantInt(LLVMGetOperand(address, i))) return root;
    }
    LLVMValueRef first = LLVMGetOperand(address, 1);
    LLVMTypeRef type = LLVMGetGEPSourceElementType(address);
    LLVMTypeKind element = LLVMGetTypeKind(type);
    bool variable = !LLVMIsAConstantInt(first);
    /* Only into an array of records: a flat array indexed by data keeps
     * the address as its root, so that two overlapping runs of it (two
     * vload3 at a and a + 1) stay two groups. */
    if (variable &&
        (root.index ||
         LLVMGetTypeKind(LLVMTypeOf(first)) != LLVMIntegerTypeKind ||
         (element != LLVMStructTypeKind && element != LLVMArrayTypeKind))) {
      return root;
    }
    int64_t size = (int64_t)LLVMABISizeOfType(w->data, type);
    int64_t bytes = variable ? 0 : LLVMConstIntGetSExtValue(first) * size;
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
        return root; /* into a vector: leave it whole */
      }
    }
    if (variable) {
      root.index = first;
      root.scale = size;
    }
    *offset += bytes;
    address = LLVMGetOperand(address, 0);
    root.base = address;
  }
  return root;
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
  record_root root = split_offset(w, wfv_access_address(access), &own);
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
    if (plain(i) && is_store(i) == stores && same_size(w, type_of(i), type) &&
        same_root(split_offset(w, wfv_access_address(i), &offset), root)) {
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
  LLVMValueRef root = wfv_scalar(w, g->root.base, at);
  if (!root) return NULL;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(w->context);
  if (g->root.index) {
    /* Lane 0's record: the index is strided, its scalar form lane 0's. */
    LLVMValueRef index = wfv_scalar(w, g->root.index, at);
    if (!index) return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(w->context);
    index = LLVMBuildSExtOrBitCast(w->builder, index, i64, "");
    LLVMValueRef bytes = LLVMBuildMul(
        w->builder, index,
        LLVMConstInt(i64, (unsigned long long)g->root.scale, 1), "");
    root = LLVMBuildGEP2(w->builder, i8, root, &bytes, 1, "");
  }
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
    LLVMTypeRef own = type_of(g->member[j]);
    if (part && own != type) {
      part =
          LLVMBuildBitCast(w->builder, part, LLVMVectorType(own, w->lanes), "");
    }
    wfv_set(w, g->member[j], NULL, part);
  }
  free(indices);
  return true;
}

/* A stored member's lanes as `type` (the group's). */
static LLVMValueRef member_vector(wfv *w, LLVMValueRef store, LLVMTypeRef type,
                                  int at) {
  LLVMValueRef value = wfv_vector(w, LLVMGetOperand(store, 0), at);
  if (!value || type_of(store) == type) return value;
  return LLVMBuildBitCast(w->builder, value, LLVMVectorType(type, w->lanes),
                          "");
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
    parts[j] = j < m ? member_vector(w, g->member[j], type, at)
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
  if (!known_group(w, access, at, &g)) return false;
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
    if (w->values[v].block >= 0 && wfv_access_address(inst) &&
        known_group(w, inst, w->values[v].block, &g)) {
      return true;
    }
  }
  return false;
}

/* clmux compiler — whole-function vectorizer: one instruction of the body
 * into its vector form at the builder (wfv.h). Uniform work is cloned once,
 * strided work computes lane 0, varying work is widened; memory goes
 * through masked loads and stores, gathers and scatters; what has side
 * effects, or no vector form, runs once per active lane in lane order. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <stdlib.h>
#include <string.h>

#include "sub_groups.h"
#include "wfv.h"

static unsigned components(LLVMTypeRef type) {
  return LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetVectorSize(type)
                                                     : 1;
}

static bool is_all_ones(LLVMValueRef mask) {
  if (!LLVMIsConstant(mask)) return false;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask));
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(mask, i);
    if (!e || !LLVMIsAConstantInt(e) || !LLVMConstIntGetZExtValue(e)) {
      return false;
    }
  }
  return true;
}

/* Clones `inst` at the builder with operands from `map`. */
typedef LLVMValueRef (*operand_map)(wfv *w, LLVMValueRef old, int at,
                                    unsigned lane);

static LLVMValueRef map_scalar(wfv *w, LLVMValueRef old, int at,
                               unsigned lane) {
  (void)lane;
  return wfv_scalar(w, old, at);
}

static LLVMValueRef clone_with(wfv *w, LLVMValueRef inst, int at,
                               operand_map map, unsigned lane) {
  LLVMValueRef operands[64];
  int n = LLVMGetNumOperands(inst);
  if (n > 64) return NULL;
  for (int i = 0; i < n; i++) {
    LLVMValueRef o = LLVMGetOperand(inst, i);
    operands[i] =
        LLVMIsABasicBlock(o) || LLVMIsAFunction(o) ? o : map(w, o, at, lane);
    if (!operands[i]) return NULL;
  }
  LLVMValueRef copy = LLVMInstructionClone(inst);
  for (int i = 0; i < n; i++) LLVMSetOperand(copy, (unsigned)i, operands[i]);
  LLVMInsertIntoBuilder(w->builder, copy);
  return copy;
}

/* ---- One call per active lane ---- */

static bool per_lane(wfv *w, LLVMValueRef inst, int at, LLVMValueRef mask) {
  LLVMTypeRef type = LLVMTypeOf(inst);
  bool has_result = LLVMGetTypeKind(type) != LLVMVoidTypeKind;
  LLVMValueRef *results = calloc(w->lanes, sizeof *results);
  if (!results) return wfv_fail(w, "out of memory");
  bool full = is_all_ones(mask);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  for (unsigned l = 0; l < w->lanes; l++) {
    LLVMBasicBlockRef before = LLVMGetInsertBlock(w->builder);
    LLVMBasicBlockRef then = NULL, after = NULL;
    if (!full) {
      then = LLVMAppendBasicBlockInContext(w->context, w->function, "lane");
      after =
          LLVMAppendBasicBlockInContext(w->context, w->function, "lane.next");
      LLVMValueRef on = LLVMBuildExtractElement(w->builder, mask,
                                                LLVMConstInt(i32, l, 0), "");
      LLVMBuildCondBr(w->builder, on, then, after);
      LLVMPositionBuilderAtEnd(w->builder, then);
    }
    LLVMValueRef r = clone_with(w, inst, at, wfv_lane, l);
    if (!r) {
      free(results);
      return wfv_fail(w, "an instruction with too many operands");
    }
    results[l] = r;
    if (!full) {
      LLVMBuildBr(w->builder, after);
      LLVMPositionBuilderAtEnd(w->builder, after);
      if (has_result) {
        LLVMValueRef phi = LLVMBuildPhi(w->builder, type, "");
        LLVMValueRef in[2] = {r, LLVMGetPoison(type)};
        LLVMBasicBlockRef from[2] = {then, before};
        LLVMAddIncoming(phi, in, from, 2);
        results[l] = phi;
      }
    }
  }
  long v = wfv_map_get(&w->value_index, inst);
  if (has_result && wfv_is_widenable(type)) {
    wfv_set(w, inst, NULL, wfv_assemble(w, type, results));
    free(results);
  } else if (has_result && v >= 0) {
    w->values[v].lanes = results; /* a struct: kept per lane */
  } else {
    free(results);
  }
  return true;
}

/* ---- Memory ---- */

static unsigned alignment_of(wfv *w, LLVMValueRef inst, LLVMTypeRef type) {
  unsigned a = LLVMGetAlignment(inst);
  return a ? a : LLVMABIAlignmentOfType(w->data, type);
}

/* A pointer vector to every component of every lane (lane-major). */
static LLVMValueRef component_pointers(wfv *w, LLVMValueRef address, int at,
                                       LLVMTypeRef type) {
  LLVMValueRef pointers = wfv_vector(w, address, at);
  unsigned k = components(type);
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) return pointers;
  LLVMTypeRef element = LLVMGetElementType(type);
  LLVMValueRef repeated = wfv_repeat_lanes(w, pointers, k);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(w->context);
  LLVMValueRef *offsets = malloc(w->lanes * k * sizeof *offsets);
  if (!offsets || !repeated) {
    free(offsets);
    return NULL;
  }
  for (unsigned i = 0; i < w->lanes * k; i++) {
    offsets[i] = LLVMConstInt(i64, i % k, 0);
  }
  LLVMValueRef index = LLVMConstVector(offsets, w->lanes * k);
  free(offsets);
  return LLVMBuildGEP2(w->builder, element, repeated, &index, 1, "");
}

static bool is_consecutive(wfv *w, LLVMValueRef address, int at,
                           LLVMTypeRef type) {
  wfv_shape s = wfv_operand_shape(w, address, at);
  return s.kind == wfv_strided &&
         s.stride == (int64_t)LLVMABISizeOfType(w->data, type) &&
         LLVMABISizeOfType(w->data, type) ==
             components(type) *
                 LLVMABISizeOfType(w->data,
                                   LLVMGetTypeKind(type) == LLVMVectorTypeKind
                                       ? LLVMGetElementType(type)
                                       : type);
}

static bool widen_load(wfv *w, LLVMValueRef load, int at, LLVMValueRef mask) {
  LLVMValueRef address = LLVMGetOperand(load, 0);
  LLVMTypeRef type = LLVMTypeOf(load);
  wfv_shape s = wfv_operand_shape(w, address, at);
  if (s.kind == wfv_uniform) {
    LLVMValueRef r = clone_with(w, load, at, map_scalar, 0);
    wfv_set(w, load, r, NULL);
    return r != NULL;
  }
  /* Loaded already with its interleaved group. */
  if (w->values[wfv_map_get(&w->value_index, load)].vector) return true;
  bool done = false;
  if (wfv_widen_interleaved(w, load, at, mask, &done)) {
    return done || wfv_fail(w, "out of memory");
  }
  LLVMTypeRef wide = wfv_wide_type(w, type);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  LLVMValueRef align = LLVMConstInt(i32, alignment_of(w, load, type), 0);
  LLVMValueRef lanes_mask = wfv_repeat_lanes(w, mask, components(type));
  LLVMValueRef r;
  if (is_consecutive(w, address, at, type)) {
    LLVMValueRef base = wfv_scalar(w, address, at);
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(base)};
    LLVMValueRef args[4] = {base, align, lanes_mask, LLVMGetPoison(wide)};
    r = wfv_call_intrinsic(w, "llvm.masked.load", types, 2, args, 4);
  } else {
    LLVMValueRef pointers = component_pointers(w, address, at, type);
    if (!pointers) return wfv_fail(w, "out of memory");
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(pointers)};
    LLVMValueRef args[4] = {pointers, align, lanes_mask, LLVMGetPoison(wide)};
    r = wfv_call_intrinsic(w, "llvm.masked.gather", types, 2, args, 4);
  }
  wfv_set(w, load, NULL, r);
  return true;
}

static bool widen_store(wfv *w, LLVMValueRef store, int at, LLVMValueRef mask) {
  LLVMValueRef value = LLVMGetOperand(store, 0);
  LLVMValueRef address = LLVMGetOperand(store, 1);
  LLVMTypeRef type = LLVMTypeOf(value);
  wfv_shape a = wfv_operand_shape(w, address, at);
  wfv_shape v = wfv_operand_shape(w, value, at);
  if (a.kind == wfv_uniform && v.kind == wfv_uniform) {
    return clone_with(w, store, at, map_scalar, 0) != NULL;
  }
  if (!wfv_is_widenable(type)) return per_lane(w, store, at, mask);
  bool done = false;
  if (wfv_widen_interleaved(w, store, at, mask, &done)) {
    return done || wfv_fail(w, "out of memory");
  }
  LLVMTypeRef wide = wfv_wide_type(w, type);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  LLVMValueRef align = LLVMConstInt(i32, alignment_of(w, store, type), 0);
  LLVMValueRef lanes_mask = wfv_repeat_lanes(w, mask, components(type));
  LLVMValueRef data = wfv_vector(w, value, at);
  if (is_consecutive(w, address, at, type)) {
    LLVMValueRef base = wfv_scalar(w, address, at);
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(base)};
    LLVMValueRef args[4] = {data, base, align, lanes_mask};
    wfv_call_intrinsic(w, "llvm.masked.store", types, 2, args, 4);
  } else {
    LLVMValueRef pointers = component_pointers(w, address, at, type);
    if (!pointers) return wfv_fail(w, "out of memory");
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(pointers)};
    LLVMValueRef args[4] = {data, pointers, align, lanes_mask};
    wfv_call_intrinsic(w, "llvm.masked.scatter", types, 2, args, 4);
  }
  return true;
}

/* ---- Calls ---- */

static bool has_prefix(const char *name, const char *prefix) {
  return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Intrinsics that mean nothing per lane. */
static bool is_droppable(const char *name) {
  return has_prefix(name, "llvm.lifetime.") ||
         has_prefix(name, "llvm.assume") ||
         has_prefix(name, "llvm.experimental.noalias.scope.decl") ||
         has_prefix(name, "llvm.dbg.");
}

/* Lane-wise intrinsics: overloaded on the result type alone, every operand
 * widened but an immediate flag (scalar_operand, or -1). */
static const struct lane_wise {
  const char *name;
  int scalar_operand;
} lane_wise[] = {
    {"llvm.fmuladd", -1},   {"llvm.fma", -1},        {"llvm.sqrt", -1},
    {"llvm.fabs", -1},      {"llvm.minnum", -1},     {"llvm.maxnum", -1},
    {"llvm.minimum", -1},   {"llvm.maximum", -1},    {"llvm.copysign", -1},
    {"llvm.floor", -1},     {"llvm.ceil", -1},       {"llvm.trunc", -1},
    {"llvm.rint", -1},      {"llvm.nearbyint", -1},  {"llvm.round", -1},
    {"llvm.roundeven", -1}, {"llvm.smin", -1},       {"llvm.smax", -1},
    {"llvm.umin", -1},      {"llvm.umax", -1},       {"llvm.ctpop", -1},
    {"llvm.bswap", -1},     {"llvm.bitreverse", -1}, {"llvm.fshl", -1},
    {"llvm.fshr", -1},      {"llvm.sadd.sat", -1},   {"llvm.uadd.sat", -1},
    {"llvm.ssub.sat", -1},  {"llvm.usub.sat", -1},   {"llvm.canonicalize", -1},
    {"llvm.abs", 1},        {"llvm.ctlz", 1},        {"llvm.cttz", 1},
};

static const struct lane_wise *find_lane_wise(const char *name, size_t length,
                                              size_t *stem) {
  for (size_t i = 0; i < sizeof lane_wise / sizeof *lane_wise; i++) {
    size_t n = strlen(lane_wise[i].name);
    if (length > n && strncmp(name, lane_wise[i].name, n) == 0 &&
        name[n] == '.') {
      *stem = n;
      return &lane_wise[i];
    }
  }
  return NULL;
}

static bool widen_intrinsic(wfv *w, LLVMValueRef call, int at,
                            const struct lane_wise *kind, size_t stem,
                            const char *name) {
  char base[64];
  if (stem >= sizeof base) return false;
  memcpy(base, name, stem);
  base[stem] = '\0';
  LLVMTypeRef wide = wfv_wide_type(w, LLVMTypeOf(call));
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMValueRef args[4];
  if (n > 4) return false;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetOperand(call, i);
    args[i] = (int)i == kind->scalar_operand ? a : wfv_vector(w, a, at);
  }
  wfv_set(w, call, NULL, wfv_call_intrinsic(w, base, &wide, 1, args, n));
  return true;
}

/* A vector variant from the builtins' "vector-function-abi-variant"
 * attribute, entries "_ZGV_LLVM_N<lanes><v...>_<scalar>(<vector>)": the
 * one of our lane count, else one that divides it. */
static LLVMValueRef find_variant(wfv *w, LLVMValueRef call, unsigned *lanes) {
  static const char key[] = "vector-function-abi-variant";
  LLVMAttributeRef a = LLVMGetCallSiteStringAttribute(
      call, LLVMAttributeFunctionIndex, key, sizeof key - 1);
  if (!a) return NULL;
  unsigned length = 0;
  const char *text = LLVMGetStringAttributeValue(a, &length);
  LLVMValueRef best = NULL;
  unsigned best_lanes = 0;
  for (unsigned at = 0; at < length;) {
    const char *entry = text + at;
    const char *end = memchr(entry, ',', length - at);
    unsigned size = end ? (unsigned)(end - entry) : length - at;
    unsigned n = 0;
    if (size > 11 && strncmp(entry, "_ZGV_LLVM_N", 11) == 0) {
      for (unsigned i = 11; i < size && entry[i] >= '0' && entry[i] <= '9';
           i++) {
        n = n * 10 + (unsigned)(entry[i] - '0');
      }
    }
    const char *open = memchr(entry, '(', size);
    if (n && open && entry[size - 1] == ')' &&
        (n == w->lanes ||
         (w->lanes % n == 0 && n > best_lanes && best_lanes != w->lanes))) {
      LLVMValueRef f = NULL;
      char name[128];
      size_t name_length = (size_t)(entry + size - 1 - (open + 1));
      if (name_length < sizeof name) {
        memcpy(name, open + 1, name_length);
        name[name_length] = '\0';
        f = LLVMGetNamedFunction(w->module, name);
      }
      if (f) {
        best = f;
        best_lanes = n;
      }
    }
    at += size + 1;
  }
  *lanes = best_lanes;
  return best;
}

static bool widen_variant(wfv *w, LLVMValueRef call, int at,
                          LLVMValueRef variant, unsigned lanes) {
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMValueRef wide_args[2];
  if (n > 2) return false;
  for (unsigned i = 0; i < n; i++) {
    wide_args[i] = wfv_vector(w, LLVMGetOperand(call, i), at);
  }
  LLVMTypeRef type = LLVMGlobalGetValueType(variant);
  unsigned pieces = w->lanes / lanes;
  LLVMValueRef parts[64];
  if (pieces > 64) return false;
  int indices[64];
  for (unsigned p = 0; p < pieces; p++) {
    LLVMValueRef args[2];
    for (unsigned i = 0; i < n; i++) {
      if (pieces == 1) {
        args[i] = wide_args[i];
        continue;
      }
      for (unsigned l = 0; l < lanes; l++) indices[l] = (int)(p * lanes + l);
      args[i] = wfv_shuffle(w, wide_args[i], NULL, indices, lanes);
    }
    parts[p] = LLVMBuildCall2(w->builder, type, variant, args, n, "");
  }
  /* Concatenate the pieces pairwise. */
  for (unsigned width = lanes; pieces > 1; width *= 2, pieces /= 2) {
    for (unsigned p = 0; p < pieces / 2; p++) {
      for (unsigned l = 0; l < 2 * width; l++) indices[l] = (int)l;
      parts[p] =
          wfv_shuffle(w, parts[2 * p], parts[2 * p + 1], indices, 2 * width);
    }
  }
  wfv_set(w, call, NULL, parts[0]);
  return true;
}

static bool widen_call(wfv *w, LLVMValueRef call, int at, LLVMValueRef mask) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t length = 0;
  const char *name =
      LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &length) : "";
  if (is_droppable(name)) return true;
  /* progress.c's pause point: once for the sub-group, whichever lanes
   * run. */
  if (strcmp(name, CPU_PAUSE_SYMBOL) == 0) {
    return clone_with(w, call, at, map_scalar, 0) != NULL;
  }
  cc_sub_group_call sg;
  if (cc_sub_group_primitive(call, &sg)) {
    return wfv_widen_sub_group(w, call, at, mask, &sg);
  }
  unsigned n = LLVMGetNumArgOperands(call);
  bool uniform = true;
  for (unsigned i = 0; i < n; i++) {
    uniform &=
        wfv_operand_shape(w, LLVMGetOperand(call, i), at).kind == wfv_uniform;
  }
  if (!wfv_has_side_effects(call) && uniform) {
    LLVMValueRef r = clone_with(w, call, at, map_scalar, 0);
    wfv_set(w, call, r, NULL);
    return r != NULL;
  }
  LLVMTypeRef type = LLVMTypeOf(call);
  if (!wfv_has_side_effects(call) && wfv_is_widenable(type)) {
    size_t stem = 0;
    const struct lane_wise *kind = find_lane_wise(name, length, &stem);
    if (kind && widen_intrinsic(w, call, at, kind, stem, name)) return true;
    unsigned lanes = 0;
    LLVMValueRef variant = find_variant(w, call, &lanes);
    if (variant && widen_variant(w, call, at, variant, lanes)) return true;
  }
  return per_lane(w, call, at, mask);
}

/* ---- Arithmetic and the rest ---- */

static void copy_flags(LLVMValueRef from, LLVMValueRef to) {
  if (!LLVMIsAInstruction(to)) return;
  LLVMOpcode op = LLVMGetInstructionOpcode(from);
  if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl) {
    LLVMSetNUW(to, LLVMGetNUW(from));
    LLVMSetNSW(to, LLVMGetNSW(from));
  }
  if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMLShr || op == LLVMAShr) {
    LLVMSetExact(to, LLVMGetExact(from));
  }
  if (LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to)) {
    LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
  }
}

/* A vector's element at an index not known at compile time (v[i],
 * shuffle() with a mask from memory): each component, taken across the
 * lanes, where the lane's index names it. An index out of range gives
 * poison, as extractelement's does. */
static LLVMValueRef extract_at_varying(wfv *w, LLVMValueRef inst, int at) {
  LLVMValueRef from = LLVMGetOperand(inst, 0);
  LLVMValueRef index = wfv_vector(w, LLVMGetOperand(inst, 1), at);
  LLVMValueRef all = wfv_vector(w, from, at);
  unsigned k = components(LLVMTypeOf(from));
  if (!index || !all || w->lanes > 64) return NULL;
  LLVMTypeRef index_type = LLVMGetElementType(LLVMTypeOf(index));
  LLVMValueRef result =
      LLVMGetPoison(LLVMVectorType(LLVMTypeOf(inst), w->lanes));
  int indices[64];
  for (unsigned e = 0; e < k; e++) {
    for (unsigned l = 0; l < w->lanes; l++) indices[l] = (int)(l * k + e);
    LLVMValueRef component = wfv_shuffle(w, all, NULL, indices, w->lanes);
    if (!component) return NULL;
    LLVMValueRef es[64];
    for (unsigned l = 0; l < w->lanes; l++) {
      es[l] = LLVMConstInt(index_type, e, 0);
    }
    LLVMValueRef is_e = LLVMBuildICmp(w->builder, LLVMIntEQ, index,
                                      LLVMConstVector(es, w->lanes), "");
    result = LLVMBuildSelect(w->builder, is_e, component, result, "");
  }
  return result;
}

/* The same for a store into a vector's element: the new element where
 * the component is the lane's index. */
static LLVMValueRef insert_at_varying(wfv *w, LLVMValueRef inst, int at) {
  LLVMValueRef into = wfv_vector(w, LLVMGetOperand(inst, 0), at);
  LLVMValueRef element = wfv_vector(w, LLVMGetOperand(inst, 1), at);
  LLVMValueRef index = wfv_vector(w, LLVMGetOperand(inst, 2), at);
  unsigned k = components(LLVMTypeOf(inst)), count = w->lanes * k;
  if (!into || !element || !index) return NULL;
  LLVMTypeRef index_type = LLVMGetElementType(LLVMTypeOf(index));
  LLVMValueRef *slots = malloc(count * sizeof *slots);
  if (!slots) return NULL;
  for (unsigned i = 0; i < count; i++) {
    slots[i] = LLVMConstInt(index_type, i % k, 0);
  }
  LLVMValueRef here =
      LLVMBuildICmp(w->builder, LLVMIntEQ, wfv_repeat_lanes(w, index, k),
                    LLVMConstVector(slots, count), "");
  free(slots);
  return LLVMBuildSelect(w->builder, here, wfv_repeat_lanes(w, element, k),
                         into, "");
}

static LLVMValueRef widen_vector_op(wfv *w, LLVMValueRef inst, int at) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef type = LLVMTypeOf(inst);
  if (op == LLVMExtractElement) {
    LLVMValueRef index = LLVMGetOperand(inst, 1);
    LLVMValueRef from = LLVMGetOperand(inst, 0);
    if (!LLVMIsAConstantInt(index)) return extract_at_varying(w, inst, at);
    unsigned k = components(LLVMTypeOf(from));
    unsigned e = (unsigned)LLVMConstIntGetZExtValue(index);
    int indices[64];
    if (w->lanes > 64 || e >= k) return NULL;
    for (unsigned l = 0; l < w->lanes; l++) indices[l] = (int)(l * k + e);
    return wfv_shuffle(w, wfv_vector(w, from, at), NULL, indices, w->lanes);
  }
  if (op == LLVMInsertElement) {
    LLVMValueRef index = LLVMGetOperand(inst, 2);
    if (!LLVMIsAConstantInt(index)) return insert_at_varying(w, inst, at);
    unsigned k = components(type);
    unsigned e = (unsigned)LLVMConstIntGetZExtValue(index);
    unsigned count = w->lanes * k;
    int *indices = malloc(count * sizeof *indices);
    if (!indices || e >= k) {
      free(indices);
      return NULL;
    }
    LLVMValueRef element =
        wfv_repeat_lanes(w, wfv_vector(w, LLVMGetOperand(inst, 1), at), k);
    for (unsigned i = 0; i < count; i++) {
      indices[i] = i % k == e ? (int)(count + i) : (int)i;
    }
    LLVMValueRef r = wfv_shuffle(w, wfv_vector(w, LLVMGetOperand(inst, 0), at),
                                 element, indices, count);
    free(indices);
    return r;
  }
  /* shufflevector */
  LLVMValueRef a = LLVMGetOperand(inst, 0);
  unsigned ka = components(LLVMTypeOf(a));
  unsigned kr = LLVMGetNumMaskElements(inst);
  unsigned count = w->lanes * kr;
  int *indices = malloc(count * sizeof *indices);
  if (!indices) return NULL;
  for (unsigned l = 0; l < w->lanes; l++) {
    for (unsigned j = 0; j < kr; j++) {
      int c = LLVMGetMaskValue(inst, j);
      indices[l * kr + j] =
          c == LLVMGetUndefMaskElem() ? -1
          : (unsigned)c < ka
              ? (int)(l * ka + (unsigned)c)
              : (int)(w->lanes * ka + l * ka + ((unsigned)c - ka));
    }
  }
  LLVMValueRef r =
      wfv_shuffle(w, wfv_vector(w, a, at),
                  wfv_vector(w, LLVMGetOperand(inst, 1), at), indices, count);
  free(indices);
  return r;
}

/* The condition of a select on wide operands of k components a lane. */
static LLVMValueRef wide_condition(wfv *w, LLVMValueRef condition, int at,
                                   LLVMTypeRef type) {
  if (LLVMGetTypeKind(LLVMTypeOf(condition)) == LLVMVectorTypeKind) {
    return wfv_vector(w, condition, at);
  }
  return wfv_repeat_lanes(w, wfv_vector(w, condition, at), components(type));
}

/* ---- Comparisons of a strided integer with a uniform bound ----
 * x < b for x = x0 + k, k = lane * s (s > 0): one small vector compare of
 * the constant offsets k against bounds computed once, instead of
 * materializing x in every lane (a grid-stride loop's bound, `if (gid <
 * n)`). The lanes are exact modulo 2^bits and may cross 0: gid - 2 is
 * -2, -1, 0, 1, and `(uint)x < w` must be false, false, true, true. With
 * t = -x0 mod 2^bits, the lanes before the crossing (k < t) are in while
 * k < b - x0, those after it (k >= t) while k < t + b. The bounds are
 * computed one bit wider, so that nothing in them wraps; a signed compare
 * is the unsigned one of both sides with the sign bit flipped. */

/* umin(v, span) of the (bits + 1)-bit v as an i32 (wider or narrower:
 * a char's bounds have 9 bits). */
static LLVMValueRef lane_bound(wfv *w, LLVMValueRef v, LLVMValueRef span) {
  LLVMBuilderRef b = w->builder;
  LLVMValueRef below = LLVMBuildICmp(b, LLVMIntULT, v, span, "");
  v = LLVMBuildSelect(b, below, v, span, "");
  return LLVMBuildIntCast2(b, v, LLVMInt32TypeInContext(w->context), 0, "");
}

static LLVMValueRef splat_i32(wfv *w, LLVMValueRef value) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  LLVMValueRef one =
      LLVMBuildInsertElement(w->builder, LLVMGetPoison(LLVMVectorType(i32, 1)),
                             value, LLVMConstInt(i32, 0, 0), "");
  int zeros[64] = {0};
  return wfv_shuffle(w, one, NULL, zeros, w->lanes);
}

static LLVMValueRef strided_compare(wfv *w, LLVMValueRef inst, int at) {
  LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
  LLVMIntPredicate predicate = LLVMGetICmpPredicate(inst);
  wfv_shape sa = wfv_operand_shape(w, a, at), sb = wfv_operand_shape(w, b, at);
  if (predicate < LLVMIntUGT || predicate > LLVMIntSLE) return NULL;
  if (sb.kind == wfv_strided && sa.kind == wfv_uniform) {
    /* b > a is a < b: swap to put the strided value first. */
    static const LLVMIntPredicate swapped[] = {
        [LLVMIntUGT] = LLVMIntULT, [LLVMIntUGE] = LLVMIntULE,
        [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE,
        [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE,
        [LLVMIntSLT] = LLVMIntSGT, [LLVMIntSLE] = LLVMIntSGE};
    predicate = swapped[predicate];
    LLVMValueRef t = a;
    a = b;
    b = t;
    wfv_shape st = sa;
    sa = sb;
    sb = st;
  }
  LLVMTypeRef type = LLVMTypeOf(a);
  if (sa.kind != wfv_strided || sb.kind != wfv_uniform || sa.stride <= 0 ||
      LLVMGetTypeKind(type) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(type) > 64 ||
      (uint64_t)sa.stride * w->lanes >= (1u << 30) ||
      (LLVMGetIntTypeWidth(type) < 31 &&
       (uint64_t)sa.stride * w->lanes >= (1ull << LLVMGetIntTypeWidth(type)))) {
    return NULL;
  }
  /* a >= b is !(a < b), a > b is !(a <= b). */
  bool negate = predicate == LLVMIntUGE || predicate == LLVMIntUGT ||
                predicate == LLVMIntSGE || predicate == LLVMIntSGT;
  bool or_equal = predicate == LLVMIntUGT || predicate == LLVMIntULE ||
                  predicate == LLVMIntSGT || predicate == LLVMIntSLE;
  bool is_signed = predicate >= LLVMIntSGT;
  LLVMBuilderRef builder = w->builder;
  LLVMValueRef first = wfv_scalar(w, a, at), bound = wfv_scalar(w, b, at);
  unsigned bits = LLVMGetIntTypeWidth(type);
  if (is_signed) {
    LLVMValueRef sign = LLVMConstInt(type, 1ull << (bits - 1), 0);
    first = LLVMBuildXor(builder, first, sign, "");
    bound = LLVMBuildXor(builder, bound, sign, "");
  }
  /* One bit wider: x0, the exclusive bound b (+ 1 for <=), 2^bits. */
  LLVMTypeRef wide = LLVMIntTypeInContext(w->context, bits + 1);
  LLVMValueRef x0 = LLVMBuildZExt(builder, first, wide, "");
  LLVMValueRef end = LLVMBuildZExt(builder, bound, wide, "");
  if (or_equal) end = LLVMBuildAdd(builder, end, LLVMConstInt(wide, 1, 0), "");
  uint64_t words[2] = {bits < 64 ? 1ull << bits : 0, bits < 64 ? 0 : 1};
  LLVMValueRef modulus = LLVMConstIntOfArbitraryPrecision(wide, 2, words);
  LLVMValueRef zero = LLVMConstInt(wide, 0, 0);
  LLVMValueRef to_zero =
      LLVMBuildSelect(builder, LLVMBuildICmp(builder, LLVMIntEQ, x0, zero, ""),
                      zero, LLVMBuildSub(builder, modulus, x0, ""), "");
  LLVMValueRef before =
      LLVMBuildSelect(builder, LLVMBuildICmp(builder, LLVMIntULT, x0, end, ""),
                      LLVMBuildSub(builder, end, x0, ""), zero, "");
  LLVMValueRef span = LLVMConstInt(wide, (uint64_t)sa.stride * w->lanes, 0);
  LLVMValueRef before_end = lane_bound(w, before, span);
  LLVMValueRef wrap_at = lane_bound(w, to_zero, span);
  LLVMValueRef after_end =
      lane_bound(w, LLVMBuildAdd(builder, to_zero, end, ""), span);
  /* min(b - x0, t) */
  before_end = LLVMBuildSelect(
      builder, LLVMBuildICmp(builder, LLVMIntULT, before_end, wrap_at, ""),
      before_end, wrap_at, "");

  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  LLVMValueRef *offsets = malloc(w->lanes * sizeof *offsets);
  if (!offsets) return NULL;
  for (unsigned l = 0; l < w->lanes; l++) {
    offsets[l] = LLVMConstInt(i32, (uint64_t)sa.stride * l, 0);
  }
  LLVMValueRef k = LLVMConstVector(offsets, w->lanes);
  free(offsets);
  LLVMValueRef in =
      LLVMBuildICmp(builder, LLVMIntULT, k, splat_i32(w, before_end), "");
  LLVMValueRef after = LLVMBuildAnd(
      builder, LLVMBuildICmp(builder, LLVMIntUGE, k, splat_i32(w, wrap_at), ""),
      LLVMBuildICmp(builder, LLVMIntULT, k, splat_i32(w, after_end), ""), "");
  in = LLVMBuildOr(builder, in, after, "");
  return negate ? LLVMBuildNot(builder, in, "") : in;
}

static LLVMValueRef widen_varying(wfv *w, LLVMValueRef inst, int at) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef type = LLVMTypeOf(inst);
  LLVMBuilderRef b = w->builder;
  LLVMValueRef r = NULL;
  if (op >= LLVMAdd && op <= LLVMXor) {
    LLVMValueRef x = wfv_vector(w, LLVMGetOperand(inst, 0), at);
    LLVMValueRef y = wfv_vector(w, LLVMGetOperand(inst, 1), at);
    r = LLVMBuildBinOp(b, op, x, y, "");
  } else if (op == LLVMFNeg) {
    r = LLVMBuildFNeg(b, wfv_vector(w, LLVMGetOperand(inst, 0), at), "");
  } else if ((op >= LLVMTrunc && op <= LLVMBitCast) ||
             op == LLVMAddrSpaceCast) {
    r = LLVMBuildCast(b, op, wfv_vector(w, LLVMGetOperand(inst, 0), at),
                      wfv_wide_type(w, type), "");
  } else if (op == LLVMICmp && (r = strided_compare(w, inst, at))) {
    /* done */
  } else if (op == LLVMICmp) {
    r = LLVMBuildICmp(b, LLVMGetICmpPredicate(inst),
                      wfv_vector(w, LLVMGetOperand(inst, 0), at),
                      wfv_vector(w, LLVMGetOperand(inst, 1), at), "");
  } else if (op == LLVMFCmp) {
    r = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(inst),
                      wfv_vector(w, LLVMGetOperand(inst, 0), at),
                      wfv_vector(w, LLVMGetOperand(inst, 1), at), "");
  } else if (op == LLVMSelect) {
    LLVMValueRef c = LLVMGetOperand(inst, 0);
    LLVMValueRef condition =
        wfv_operand_shape(w, c, at).kind == wfv_uniform &&
                LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMVectorTypeKind
            ? wfv_scalar(w, c, at)
            : wide_condition(w, c, at, type);
    r = LLVMBuildSelect(b, condition,
                        wfv_vector(w, LLVMGetOperand(inst, 1), at),
                        wfv_vector(w, LLVMGetOperand(inst, 2), at), "");
  } else if (op == LLVMFreeze) {
    r = LLVMBuildFreeze(b, wfv_vector(w, LLVMGetOperand(inst, 0), at), "");
  } else if (op == LLVMGetElementPtr) {
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) return NULL;
    LLVMValueRef base = LLVMGetOperand(inst, 0);
    LLVMValueRef pointer = wfv_operand_shape(w, base, at).kind == wfv_uniform
                               ? wfv_scalar(w, base, at)
                               : wfv_vector(w, base, at);
    int n = LLVMGetNumOperands(inst);
    LLVMValueRef indices[16];
    if (n - 1 > 16) return NULL;
    for (int i = 1; i < n; i++) {
      LLVMValueRef index = LLVMGetOperand(inst, i);
      indices[i - 1] = wfv_operand_shape(w, index, at).kind == wfv_uniform
                           ? wfv_scalar(w, index, at)
                           : wfv_vector(w, index, at);
    }
    r = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(inst), pointer, indices,
                      (unsigned)(n - 1), "");
    LLVMSetIsInBounds(r, LLVMIsInBounds(inst));
  } else if (op == LLVMExtractElement || op == LLVMInsertElement ||
             op == LLVMShuffleVector) {
    r = widen_vector_op(w, inst, at);
  } else if (op == LLVMExtractValue) {
    long v = wfv_map_get(&w->value_index, LLVMGetOperand(inst, 0));
    if (v < 0 || !w->values[v].lanes || LLVMGetNumIndices(inst) != 1) {
      return NULL;
    }
    LLVMValueRef *lanes = calloc(w->lanes, sizeof *lanes);
    if (!lanes) return NULL;
    unsigned index = LLVMGetIndices(inst)[0];
    for (unsigned l = 0; l < w->lanes; l++) {
      lanes[l] = LLVMBuildExtractValue(b, w->values[v].lanes[l], index, "");
    }
    r = wfv_assemble(w, type, lanes);
    free(lanes);
  }
  if (r) copy_flags(inst, r);
  return r;
}

/* Lane 0 of a strided value: the same operation on lane 0's, without
 * the flags that make a result poison (nsw, nuw, exact, nneg, disjoint,
 * inbounds). They hold in the lanes that run, and lane 0 may be one that
 * does not (x - 3 where x < 3), yet every lane is computed from it. So a
 * disjoint `or` is the add it stands for, and a `zext nneg` of lanes that
 * may cross 0 is the sext that agrees with it where it is not poison
 * (wfv_shapes.c). */
static LLVMValueRef strided_lane0(wfv *w, LLVMValueRef inst, int at) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMBuilderRef b = w->builder;
  if (op >= LLVMAdd && op <= LLVMXor) {
    LLVMValueRef x = wfv_scalar(w, LLVMGetOperand(inst, 0), at);
    LLVMValueRef y = wfv_scalar(w, LLVMGetOperand(inst, 1), at);
    return LLVMBuildBinOp(b, op == LLVMOr ? LLVMAdd : op, x, y, "");
  }
  if (op == LLVMTrunc || op == LLVMZExt || op == LLVMSExt) {
    LLVMValueRef x = LLVMGetOperand(inst, 0);
    if (op == LLVMZExt && LLVMGetNNeg(inst) &&
        !wfv_operand_shape(w, x, at).no_wrap) {
      op = LLVMSExt;
    }
    return LLVMBuildCast(b, op, wfv_scalar(w, x, at), LLVMTypeOf(inst), "");
  }
  LLVMValueRef r = clone_with(w, inst, at, map_scalar, 0);
  if (r && LLVMIsAGetElementPtrInst(r)) LLVMGEPSetNoWrapFlags(r, 0);
  return r;
}

bool wfv_widen(wfv *w, LLVMValueRef inst, int at, LLVMValueRef mask) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  long v = wfv_map_get(&w->value_index, inst);
  wfv_shape shape = w->values[v].shape;
  switch (op) {
    case LLVMAlloca: {
      LLVMBasicBlockRef here = LLVMGetInsertBlock(w->builder);
      LLVMValueRef first = LLVMGetFirstInstruction(w->alloca_block);
      if (first) {
        LLVMPositionBuilderBefore(w->builder, first);
      } else {
        LLVMPositionBuilderAtEnd(w->builder, w->alloca_block);
      }
      LLVMValueRef count = LLVMGetOperand(inst, 0);
      if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1) {
        return wfv_fail(w, "an alloca of several elements");
      }
      LLVMValueRef slots = LLVMBuildAlloca(
          w->builder, LLVMArrayType2(LLVMGetAllocatedType(inst), w->lanes),
          "lanes");
      LLVMSetAlignment(slots, LLVMGetAlignment(inst));
      LLVMPositionBuilderAtEnd(w->builder, here);
      wfv_set(w, inst, slots, NULL);
      return true;
    }
    case LLVMLoad:
      if (wfv_has_side_effects(inst)) return per_lane(w, inst, at, mask);
      return widen_load(w, inst, at, mask);
    case LLVMStore:
      if (LLVMGetVolatile(inst) ||
          LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic) {
        return per_lane(w, inst, at, mask);
      }
      return widen_store(w, inst, at, mask);
    case LLVMCall:
      return widen_call(w, inst, at, mask);
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
      return per_lane(w, inst, at, mask);
    case LLVMFence: {
      LLVMValueRef r = clone_with(w, inst, at, map_scalar, 0);
      return r != NULL;
    }
    default:
      break;
  }
  if (shape.kind == wfv_strided) {
    LLVMValueRef r = strided_lane0(w, inst, at);
    if (!r) return wfv_fail(w, "an instruction with too many operands");
    wfv_set(w, inst, r, NULL);
    return true;
  }
  if (shape.kind == wfv_uniform) {
    LLVMValueRef r = clone_with(w, inst, at, map_scalar, 0);
    if (!r) return wfv_fail(w, "an instruction with too many operands");
    wfv_set(w, inst, r, NULL);
    return true;
  }
  LLVMValueRef r = widen_varying(w, inst, at);
  if (!r) {
    return wfv_fail(w, "no vector form for a varying instruction (opcode %d)",
                    (int)op);
  }
  wfv_set(w, inst, NULL, r);
  return true;
}

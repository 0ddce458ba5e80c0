/* clmux compiler — whole-function vectorizer: the new forms of old values
 * at a point of the vector function: the scalar (uniform, or lane 0 of a
 * strided value), the vector (lane-major for OpenCL vectors) and one lane
 * (wfv.h). */
#include <stdlib.h>
#include <string.h>

#include "wfv.h"

LLVMTypeRef wfv_wide_type(const wfv *w, LLVMTypeRef type) {
  if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
    return LLVMVectorType(LLVMGetElementType(type),
                          LLVMGetVectorSize(type) * w->lanes);
  }
  return LLVMVectorType(type, w->lanes);
}

static unsigned components(LLVMTypeRef type) {
  return LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetVectorSize(type)
                                                     : 1;
}

void wfv_set(wfv *w, LLVMValueRef old, LLVMValueRef scalar,
             LLVMValueRef vector) {
  long v = wfv_map_get(&w->value_index, old);
  if (v < 0) return;
  w->values[v].scalar = scalar;
  w->values[v].vector = vector;
}

/* A shuffle mask of `count` i32 constants (-1: poison). */
static LLVMValueRef shuffle_mask(wfv *w, const int *indices, unsigned count) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  LLVMValueRef *elements = malloc(count * sizeof *elements);
  if (!elements) return NULL;
  for (unsigned i = 0; i < count; i++) {
    elements[i] = indices[i] < 0 ? LLVMGetPoison(i32)
                                 : LLVMConstInt(i32, (unsigned)indices[i], 0);
  }
  LLVMValueRef mask = LLVMConstVector(elements, count);
  free(elements);
  return mask;
}

LLVMValueRef wfv_shuffle(wfv *w, LLVMValueRef a, LLVMValueRef b,
                         const int *indices, unsigned count) {
  if (!b) b = LLVMGetPoison(LLVMTypeOf(a));
  LLVMValueRef mask = shuffle_mask(w, indices, count);
  return mask ? LLVMBuildShuffleVector(w->builder, a, b, mask, "") : NULL;
}

/* Each of the `lanes` elements of `vector` repeated `times` times. */
LLVMValueRef wfv_repeat_lanes(wfv *w, LLVMValueRef vector, unsigned times) {
  if (times == 1) return vector;
  unsigned count = w->lanes * times;
  int *indices = malloc(count * sizeof *indices);
  if (!indices) return NULL;
  for (unsigned i = 0; i < count; i++) indices[i] = (int)(i / times);
  LLVMValueRef result = wfv_shuffle(w, vector, NULL, indices, count);
  free(indices);
  return result;
}

/* `value` (scalar or <K x T>) in every lane. */
static LLVMValueRef splat(wfv *w, LLVMValueRef value) {
  LLVMTypeRef type = LLVMTypeOf(value);
  unsigned k = components(type);
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) {
    LLVMValueRef one = LLVMBuildInsertElement(
        w->builder, LLVMGetPoison(LLVMVectorType(type, 1)), value,
        LLVMConstInt(LLVMInt32TypeInContext(w->context), 0, 0), "");
    value = one;
  }
  unsigned count = w->lanes * k;
  int *indices = malloc(count * sizeof *indices);
  if (!indices) return NULL;
  for (unsigned i = 0; i < count; i++) indices[i] = (int)(i % k);
  LLVMValueRef result = wfv_shuffle(w, value, NULL, indices, count);
  free(indices);
  return result;
}

/* <0, s, 2s, ...> of integer type `element`. */
static LLVMValueRef steps(wfv *w, LLVMTypeRef element, int64_t stride) {
  LLVMValueRef *elements = malloc(w->lanes * sizeof *elements);
  if (!elements) return NULL;
  for (unsigned l = 0; l < w->lanes; l++) {
    elements[l] = LLVMConstInt(element, (unsigned long long)(stride * l), 1);
  }
  LLVMValueRef result = LLVMConstVector(elements, w->lanes);
  free(elements);
  return result;
}

/* Lane 0's value plus `offset` (bytes for pointers). */
static LLVMValueRef add_offset(wfv *w, LLVMValueRef base, int64_t offset) {
  if (offset == 0) return base;
  LLVMTypeRef type = LLVMTypeOf(base);
  if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
    LLVMValueRef by = LLVMConstInt(LLVMInt64TypeInContext(w->context),
                                   (unsigned long long)offset, 1);
    return LLVMBuildGEP2(w->builder, LLVMInt8TypeInContext(w->context), base,
                         &by, 1, "");
  }
  return LLVMBuildAdd(w->builder, base,
                      LLVMConstInt(type, (unsigned long long)offset, 1), "");
}

static long index_of(const wfv *w, LLVMValueRef old) {
  return wfv_map_get(&w->value_index, old);
}

/* A value the emission has not made (a bug, or an order it cannot
 * handle): noted, so that the vectorizer gives up, and stood in for. */
static LLVMValueRef missing(wfv *w, LLVMValueRef old, LLVMTypeRef type) {
  if (!w->missing) w->missing = old;
  return LLVMGetPoison(type);
}

LLVMValueRef wfv_scalar(wfv *w, LLVMValueRef old, int at) {
  (void)at;
  long v = index_of(w, old);
  if (v < 0) return old;
  return w->values[v].scalar ? w->values[v].scalar
                             : missing(w, old, LLVMTypeOf(old));
}

LLVMValueRef wfv_vector(wfv *w, LLVMValueRef old, int at) {
  long v = index_of(w, old);
  if (v < 0) return splat(w, old);
  LLVMTypeRef wide = wfv_wide_type(w, LLVMTypeOf(old));
  if (wfv_left_loop(w, v, at, -1) >= 0) {
    LLVMValueRef kept = wfv_live_out_value(w, v, at);
    return kept ? kept : missing(w, old, wide);
  }
  wfv_value *value = &w->values[v];
  if (value->shape.kind == wfv_varying ? !value->vector : !value->scalar) {
    return missing(w, old, wide);
  }
  switch (value->shape.kind) {
    case wfv_varying:
      return value->vector;
    case wfv_strided: {
      LLVMValueRef base = splat(w, value->scalar);
      LLVMTypeRef type = LLVMTypeOf(value->scalar);
      if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
        LLVMValueRef offsets =
            steps(w, LLVMInt64TypeInContext(w->context), value->shape.stride);
        return LLVMBuildGEP2(w->builder, LLVMInt8TypeInContext(w->context),
                             base, &offsets, 1, "");
      }
      return LLVMBuildAdd(w->builder, base, steps(w, type, value->shape.stride),
                          "");
    }
    default:
      return splat(w, value->scalar);
  }
}

/* Lane `lane` of a wide value of old type `type`. */
LLVMValueRef wfv_extract_lane(wfv *w, LLVMValueRef wide, LLVMTypeRef type,
                              unsigned lane) {
  unsigned k = components(type);
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) {
    return LLVMBuildExtractElement(
        w->builder, wide,
        LLVMConstInt(LLVMInt32TypeInContext(w->context), lane, 0), "");
  }
  int *indices = malloc(k * sizeof *indices);
  if (!indices) return NULL;
  for (unsigned e = 0; e < k; e++) indices[e] = (int)(lane * k + e);
  LLVMValueRef result = wfv_shuffle(w, wide, NULL, indices, k);
  free(indices);
  return result;
}

LLVMValueRef wfv_lane(wfv *w, LLVMValueRef old, int at, unsigned lane) {
  long v = index_of(w, old);
  if (v < 0) return old;
  wfv_value *value = &w->values[v];
  if (wfv_left_loop(w, v, at, -1) >= 0) {
    return wfv_extract_lane(w, wfv_vector(w, old, at), LLVMTypeOf(old), lane);
  }
  if (value->shape.kind == wfv_varying && !value->vector && !value->lanes) {
    return missing(w, old, LLVMTypeOf(old));
  }
  switch (value->shape.kind) {
    case wfv_varying:
      if (value->lanes) return value->lanes[lane];
      return wfv_extract_lane(w, value->vector, LLVMTypeOf(old), lane);
    case wfv_strided:
      return add_offset(w, value->scalar, value->shape.stride * (int64_t)lane);
    default:
      return value->scalar;
  }
}

/* A wide value of old type `type` from one value per lane. */
LLVMValueRef wfv_assemble(wfv *w, LLVMTypeRef type, LLVMValueRef *lanes) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(w->context);
  unsigned k = components(type);
  LLVMValueRef result = LLVMGetPoison(wfv_wide_type(w, type));
  for (unsigned l = 0; l < w->lanes; l++) {
    for (unsigned e = 0; e < k; e++) {
      LLVMValueRef element =
          k == 1 && LLVMGetTypeKind(type) != LLVMVectorTypeKind
              ? lanes[l]
              : LLVMBuildExtractElement(w->builder, lanes[l],
                                        LLVMConstInt(i32, e, 0), "");
      result = LLVMBuildInsertElement(w->builder, result, element,
                                      LLVMConstInt(i32, l * k + e, 0), "");
    }
  }
  return result;
}

static LLVMValueRef intrinsic(wfv *w, const char *name, LLVMTypeRef *types,
                              unsigned count) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  return LLVMGetIntrinsicDeclaration(w->module, id, types, count);
}

LLVMValueRef wfv_call_intrinsic(wfv *w, const char *name, LLVMTypeRef *types,
                                unsigned type_count, LLVMValueRef *args,
                                unsigned arg_count) {
  LLVMValueRef function = intrinsic(w, name, types, type_count);
  LLVMTypeRef type = LLVMIntrinsicGetType(
      w->context, LLVMLookupIntrinsicID(name, strlen(name)), types, type_count);
  return LLVMBuildCall2(w->builder, type, function, args, arg_count, "");
}

LLVMValueRef wfv_any(wfv *w, LLVMValueRef mask) {
  LLVMTypeRef type = LLVMTypeOf(mask);
  return wfv_call_intrinsic(w, "llvm.vector.reduce.or", &type, 1, &mask, 1);
}

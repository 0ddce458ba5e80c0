/* clmux compiler — code generation: OpenCL vector types the loop
 * vectorizer cannot widen. It widens scalars only: a kernel computing exp
 * on float4 values (four scalar exp calls once the library has split it)
 * would run its work-item loop one item at a time with scalar SLEEF calls,
 * and a kernel using a float2's components one by one (complex numbers,
 * vstore_half2) would run them scalar too. Splitting the body's vector
 * loads and stores element by element and then its arithmetic (LLVM's
 * scalarizer) lets the work-item loop vectorize, each element becoming a
 * full-width vector across work-items. Split are kernels that call such
 * math on vectors however made (loaded, or built element by element as
 * vload3 and the CTS's 3-element kernels do: the library's loops over
 * components are unrolled first), and kernels loading 2- to 4-element
 * vectors of 32/64-bit values and taking them apart; elsewhere the vector
 * types already give SIMD code, which the split could trade for gathers
 * (image pixels) or for slow-to-compile shuffles (8- and 16-bit
 * elements). */
#include <llvm-c/Target.h>
#include <string.h>

#include "internal.h"

#define VARIANT_KEY "vector-function-abi-variant"

/* Whether the call carries the vector variants of a math function. */
static bool calls_vector_math(LLVMValueRef call) {
  LLVMAttributeRef variant = LLVMGetCallSiteStringAttribute(
      call, LLVMAttributeFunctionIndex, VARIANT_KEY,
      (unsigned)strlen(VARIANT_KEY));
  if (variant) return true;
  LLVMValueRef callee = LLVMGetCalledValue(call);
  return callee && LLVMIsAFunction(callee) &&
         LLVMGetStringAttributeAtIndex(callee, LLVMAttributeFunctionIndex,
                                       VARIANT_KEY,
                                       (unsigned)strlen(VARIANT_KEY));
}

/* A fixed vector of integers or floats, as OpenCL C's vector types are. */
static bool is_data_vector(LLVMTypeRef type) {
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) return false;
  LLVMTypeKind element = LLVMGetTypeKind(LLVMGetElementType(type));
  return element == LLVMIntegerTypeKind || element == LLVMFloatTypeKind ||
         element == LLVMDoubleTypeKind || element == LLVMHalfTypeKind;
}

/* The element type's store size in bytes. */
static unsigned element_bytes(LLVMModuleRef module, LLVMTypeRef element) {
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
  return (unsigned)LLVMStoreSizeOfType(layout, element);
}

/* The alignment known of byte `offset` past an `align`-aligned address. */
static unsigned offset_alignment(unsigned align, unsigned offset) {
  unsigned known = align ? align : 1;
  while (offset % known) known /= 2;
  return known;
}

/* Copies every metadata attachment (TBAA, access groups) of `from`. */
static void copy_metadata(LLVMValueRef from, LLVMValueRef to) {
  size_t count = 0;
  LLVMValueMetadataEntry *entries =
      LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &count);
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(from));
  for (size_t i = 0; i < count; i++) {
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(entries, (unsigned)i),
                    LLVMMetadataAsValue(context,
                                        LLVMValueMetadataEntriesGetMetadata(
                                            entries, (unsigned)i)));
  }
  if (entries) LLVMDisposeValueMetadataEntries(entries);
}

/* The address of element `index` of the vector at `base`. */
static LLVMValueRef element_address(LLVMBuilderRef builder,
                                    LLVMTypeRef element, LLVMValueRef base,
                                    unsigned index) {
  LLVMValueRef at = LLVMConstInt(
      LLVMInt64TypeInContext(LLVMGetTypeContext(element)), index, 0);
  return LLVMBuildInBoundsGEP2(builder, element, base, &at, 1, "");
}

static void split_load(LLVMModuleRef module, LLVMBuilderRef builder,
                       LLVMValueRef load) {
  LLVMTypeRef type = LLVMTypeOf(load), element = LLVMGetElementType(type);
  unsigned lanes = LLVMGetVectorSize(type);
  unsigned bytes = element_bytes(module, element);
  unsigned align = LLVMGetAlignment(load);
  LLVMValueRef base = LLVMGetOperand(load, 0);
  LLVMPositionBuilderBefore(builder, load);
  LLVMValueRef vector = LLVMGetPoison(type);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(type));
  for (unsigned i = 0; i < lanes; i++) {
    LLVMValueRef lane = LLVMBuildLoad2(
        builder, element, element_address(builder, element, base, i), "");
    LLVMSetAlignment(lane, offset_alignment(align, i * bytes));
    copy_metadata(load, lane);
    vector = LLVMBuildInsertElement(builder, vector, lane,
                                    LLVMConstInt(i32, i, 0), "");
  }
  LLVMReplaceAllUsesWith(load, vector);
  LLVMInstructionEraseFromParent(load);
}

static void split_store(LLVMModuleRef module, LLVMBuilderRef builder,
                        LLVMValueRef store) {
  LLVMValueRef value = LLVMGetOperand(store, 0);
  LLVMValueRef base = LLVMGetOperand(store, 1);
  LLVMTypeRef type = LLVMTypeOf(value), element = LLVMGetElementType(type);
  unsigned lanes = LLVMGetVectorSize(type);
  unsigned bytes = element_bytes(module, element);
  unsigned align = LLVMGetAlignment(store);
  LLVMPositionBuilderBefore(builder, store);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(type));
  for (unsigned i = 0; i < lanes; i++) {
    LLVMValueRef lane = LLVMBuildExtractElement(builder, value,
                                                LLVMConstInt(i32, i, 0), "");
    LLVMValueRef put = LLVMBuildStore(
        builder, lane, element_address(builder, element, base, i));
    LLVMSetAlignment(put, offset_alignment(align, i * bytes));
    copy_metadata(store, put);
  }
  LLVMInstructionEraseFromParent(store);
}

/* Plain (not volatile, not atomic) loads and stores of data vectors. */
static bool splittable(LLVMValueRef i) {
  if (LLVMIsALoadInst(i)) {
    return !LLVMGetVolatile(i) &&
           LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
           is_data_vector(LLVMTypeOf(i));
  }
  if (LLVMIsAStoreInst(i)) {
    return !LLVMGetVolatile(i) &&
           LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
           is_data_vector(LLVMTypeOf(LLVMGetOperand(i, 0)));
  }
  return false;
}

/* The vector a splittable load reads or a store writes. */
static LLVMTypeRef vector_type_of(LLVMValueRef access) {
  return LLVMTypeOf(LLVMIsALoadInst(access) ? access
                                            : LLVMGetOperand(access, 0));
}

/* Vectors of 2 to 4 elements of 32 or 64 bits use a fraction of a SIMD
 * register per work-item; split, 16 work-items fill it. Wider vectors fill
 * it already, and split 8- and 16-bit elements vectorize 32 or 64 items
 * at a time into interleaving shuffles that take seconds to compile. */
static bool worth_splitting(LLVMModuleRef module, LLVMTypeRef vector) {
  unsigned bytes = element_bytes(module, LLVMGetElementType(vector));
  return LLVMGetVectorSize(vector) <= 4 && bytes >= 4;
}

/* Whether the instruction makes a data vector other than by loading it
 * (element by element, as vload3 does, or by arithmetic). */
static bool makes_data_vector(LLVMValueRef i) {
  return !LLVMIsALoadInst(i) && !LLVMIsACallInst(i) &&
         is_data_vector(LLVMTypeOf(i));
}

/* The library's loops over a vector's components (vload3, integer
 * functions) are still rolled here: while one is, its element index is a
 * variable the scalarizer cannot split by. Unrolled fully now (their trip
 * counts are constants), they leave element-wise code. */
static cc_status unroll_component_loops(LLVMModuleRef module, cc_log *log) {
  return cc_run_passes(module,
                       "function(loop-simplify,lcssa,"
                       "loop(loop-rotate,loop-unroll-full),sroa)",
                       log);
}

static void split_accesses(LLVMModuleRef module, LLVMValueRef body) {
  LLVMBuilderRef builder =
      LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(body); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef i = LLVMGetFirstInstruction(b);
    while (i) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (splittable(i)) {
        if (LLVMIsALoadInst(i)) {
          split_load(module, builder, i);
        } else {
          split_store(module, builder, i);
        }
      }
      i = next;
    }
  }
  LLVMDisposeBuilder(builder);
}

cc_status cc_scalarize_vector_types(LLVMModuleRef module, LLVMValueRef body,
                                    bool reads_images, cc_log *log) {
  bool math = false, per_element = false, narrow = true, accessed = false,
       made = false;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(body); b;
       b = LLVMGetNextBasicBlock(b)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
         i = LLVMGetNextInstruction(i)) {
      math = math || (LLVMIsACallInst(i) && calls_vector_math(i));
      per_element = per_element ||
                    (LLVMIsAExtractElementInst(i) &&
                     is_data_vector(LLVMTypeOf(LLVMGetOperand(i, 0))));
      made = made || makes_data_vector(i);
      if (splittable(i)) {
        accessed = true;
        narrow = narrow && worth_splitting(module, vector_type_of(i));
      }
    }
  }
  /* Vectors are split however they were made (a float3 read with vload3
   * is built element by element), except that kernels reading images
   * keep the pixel vectors they make unless math needs them split: their
   * texel loads at clamped addresses would become gathers (a 3x3 blur ran
   * 4x slower split). */
  bool split = math ? accessed || made
                    : per_element && narrow &&
                          (accessed || (made && !reads_images));
  if (!split) return cc_success;
  cc_status status = math ? unroll_component_loops(module, log) : cc_success;
  if (status != cc_success) return status;
  split_accesses(module, body);
  /* Not verifying instcombine's fixpoint: a miss would abort the process. */
  return cc_run_passes(
      module, "function(scalarizer,instcombine<no-verify-fixpoint>)", log);
}

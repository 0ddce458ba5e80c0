/* clmux compiler — code generation: program-scope global variables. A
 * program's addrspace(1) variables get places in one block (module order,
 * each at its alignment); a kernel reaches them through a hidden argument
 * holding the block's address, so that every kernel of the program and
 * every specialization of one shares them, and they keep their values
 * from launch to launch. The initial values are written into the block on
 * the host from the LLVM constants (a pointer to another variable becomes
 * its address in the block). */
#include <llvm-c/Target.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool is_program_global(LLVMValueRef g) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(g, &length);
  return LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == cc_space_global &&
         !LLVMIsDeclaration(g) && strncmp(name, "llvm.", 5) != 0;
}

void cc_program_globals_release(cc_program_globals *globals) {
  for (size_t i = 0; i < globals->count; i++) free(globals->names[i]);
  free(globals->names);
  free(globals->offsets);
  memset(globals, 0, sizeof *globals);
}

cc_status cc_program_globals_of(LLVMModuleRef module, cc_program_globals *out) {
  memset(out, 0, sizeof *out);
  size_t count = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    count += is_program_global(g);
  }
  if (!count) return cc_success;
  out->names = calloc(count, sizeof *out->names);
  out->offsets = calloc(count, sizeof *out->offsets);
  if (!out->names || !out->offsets) {
    cc_program_globals_release(out);
    return cc_error_out_of_memory;
  }
  LLVMTargetDataRef data = LLVMGetModuleDataLayout(module);
  uint64_t end = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    if (!is_program_global(g)) continue;
    size_t length = 0;
    out->names[out->count] = strdup(LLVMGetValueName2(g, &length));
    if (!out->names[out->count]) {
      cc_program_globals_release(out);
      return cc_error_out_of_memory;
    }
    out->offsets[out->count++] = cc_place_variable(data, g, &end);
  }
  out->size = end ? end : 1;
  return cc_success;
}

bool cc_lower_program_globals(LLVMModuleRef module, LLVMValueRef function,
                              LLVMValueRef base,
                              const cc_program_globals *globals) {
  if (!globals || !globals->size) return true;
  LLVMValueRef *variables = calloc(globals->count + 1, sizeof *variables);
  uint64_t *offsets = calloc(globals->count + 1, sizeof *offsets);
  bool ok = variables && offsets;
  uint32_t count = 0;
  for (size_t i = 0; ok && i < globals->count; i++) {
    /* What the kernel cannot reach was pruned from its module. */
    LLVMValueRef g = LLVMGetNamedGlobal(module, globals->names[i]);
    if (!g) continue;
    variables[count] = g;
    offsets[count++] = globals->offsets[i];
  }
  ok = ok && cc_lower_variables_at(function, base, variables, offsets, count);
  free(variables);
  free(offsets);
  return ok;
}

/* ---- Initial values ------------------------------------------------------ */

typedef struct writer {
  LLVMTargetDataRef data;
  const cc_program_globals *globals;
  uint8_t *block;
  cc_log *log;
} writer;

static bool unsupported(writer *w, const char *what) {
  cc_fail(w->log, cc_error_unsupported,
          "a program-scope variable's initial value holds %s, which clmux "
          "cannot lay out",
          what);
  return false;
}

/* The address `value` (a pointer constant) stands for, into *address. */
static bool address_of(writer *w, LLVMValueRef value, uint64_t *address,
                       unsigned depth) {
  if (depth > 32) return unsupported(w, "too deep an address");
  if (LLVMIsAConstantPointerNull(value)) {
    *address = 0;
    return true;
  }
  if (LLVMIsAGlobalVariable(value)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(value, &length);
    for (size_t i = 0; i < w->globals->count; i++) {
      if (strcmp(w->globals->names[i], name) == 0) {
        *address = (uint64_t)(uintptr_t)(w->block + w->globals->offsets[i]);
        return true;
      }
    }
    return unsupported(w, "the address of __constant data");
  }
  if (!LLVMIsAConstantExpr(value)) return unsupported(w, "an unknown address");
  LLVMOpcode opcode = LLVMGetConstOpcode(value);
  if (opcode == LLVMBitCast || opcode == LLVMAddrSpaceCast) {
    return address_of(w, LLVMGetOperand(value, 0), address, depth + 1);
  }
  if (opcode != LLVMGetElementPtr) return unsupported(w, "computed addresses");
  if (!address_of(w, LLVMGetOperand(value, 0), address, depth + 1)) {
    return false;
  }
  LLVMTypeRef type = LLVMGetGEPSourceElementType(value);
  unsigned count = (unsigned)LLVMGetNumOperands(value);
  for (unsigned i = 1; i < count; i++) {
    LLVMValueRef index = LLVMGetOperand(value, i);
    if (!LLVMIsAConstantInt(index)) return unsupported(w, "a vector index");
    long long n = LLVMConstIntGetSExtValue(index);
    if (i == 1) {
      *address += (uint64_t)(n * (long long)LLVMABISizeOfType(w->data, type));
    } else if (LLVMGetTypeKind(type) == LLVMStructTypeKind) {
      *address += LLVMOffsetOfElement(w->data, type, (unsigned)n);
      type = LLVMStructGetTypeAtIndex(type, (unsigned)n);
    } else {
      type = LLVMGetElementType(type);
      *address += (uint64_t)(n * (long long)LLVMABISizeOfType(w->data, type));
    }
  }
  return true;
}

/* A half's bits from its value, which a half constant holds exactly. */
static uint16_t half_bits(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  double magnitude = fabs(value);
  if (isnan(value)) return sign | 0x7e00;
  if (isinf(value)) return sign | 0x7c00;
  if (magnitude == 0) return sign;
  int exponent = 0;
  double fraction = frexp(magnitude, &exponent); /* in [0.5, 1) */
  if (exponent < -13) return sign | (uint16_t)ldexp(magnitude, 24);
  return sign | (uint16_t)((exponent + 14) << 10) |
         (uint16_t)(ldexp(fraction, 11) - 1024);
}

/* Writes constant `value` at `at` (the block starts zeroed). */
static bool write_value(writer *w, LLVMValueRef value, uint8_t *at,
                        unsigned depth) {
  if (depth > 64) return unsupported(w, "too deep a value");
  if (LLVMIsUndef(value) || LLVMIsPoison(value) ||
      LLVMIsAConstantAggregateZero(value) ||
      LLVMIsAConstantPointerNull(value)) {
    return true;
  }
  LLVMTypeRef type = LLVMTypeOf(value);
  switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind: {
      if (!LLVMIsAConstantInt(value))
        return unsupported(w, "a computed integer");
      if (LLVMGetIntTypeWidth(type) > 64)
        return unsupported(w, "a wide integer");
      uint64_t bits = LLVMConstIntGetZExtValue(value);
      memcpy(at, &bits, LLVMStoreSizeOfType(w->data, type)); /* little-endian */
      return true;
    }
    case LLVMHalfTypeKind: {
      LLVMBool loses = 0;
      uint16_t h = half_bits(LLVMConstRealGetDouble(value, &loses));
      memcpy(at, &h, sizeof h);
      return true;
    }
    case LLVMFloatTypeKind: {
      LLVMBool loses = 0;
      float f = (float)LLVMConstRealGetDouble(value, &loses);
      memcpy(at, &f, sizeof f);
      return true;
    }
    case LLVMDoubleTypeKind: {
      LLVMBool loses = 0;
      double d = LLVMConstRealGetDouble(value, &loses);
      memcpy(at, &d, sizeof d);
      return true;
    }
    case LLVMPointerTypeKind: {
      uint64_t address = 0;
      if (!address_of(w, value, &address, 0)) return false;
      memcpy(at, &address, sizeof address);
      return true;
    }
    case LLVMStructTypeKind: {
      unsigned count = LLVMCountStructElementTypes(type);
      for (unsigned i = 0; i < count; i++) {
        LLVMValueRef element = LLVMGetAggregateElement(value, i);
        if (!element ||
            !write_value(w, element, at + LLVMOffsetOfElement(w->data, type, i),
                         depth + 1)) {
          return element ? false : unsupported(w, "an unknown aggregate");
        }
      }
      return true;
    }
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind: {
      bool array = LLVMGetTypeKind(type) == LLVMArrayTypeKind;
      LLVMTypeRef element_type = LLVMGetElementType(type);
      uint64_t count =
          array ? LLVMGetArrayLength2(type) : LLVMGetVectorSize(type);
      uint64_t stride = array ? LLVMABISizeOfType(w->data, element_type)
                              : LLVMStoreSizeOfType(w->data, element_type);
      for (uint64_t i = 0; i < count; i++) {
        LLVMValueRef element = LLVMGetAggregateElement(value, (unsigned)i);
        if (!element) return unsupported(w, "an unknown aggregate");
        if (!write_value(w, element, at + i * stride, depth + 1)) return false;
      }
      return true;
    }
    default:
      return unsupported(w, "a value of an unsupported type (half?)");
  }
}

cc_status cc_program_globals_write(LLVMModuleRef module,
                                   const cc_program_globals *globals,
                                   uint8_t *block, cc_log *log) {
  writer w = {LLVMGetModuleDataLayout(module), globals, block, log};
  memset(block, 0, globals->size);
  for (size_t i = 0; i < globals->count; i++) {
    LLVMValueRef g = LLVMGetNamedGlobal(module, globals->names[i]);
    LLVMValueRef initial = g ? LLVMGetInitializer(g) : NULL;
    if (initial && !write_value(&w, initial, block + globals->offsets[i], 0)) {
      return cc_error_unsupported;
    }
  }
  return cc_success;
}

/* clmux compiler — code generation: kernel-scope __local variables. Clang
 * makes them addrspace(3) globals, but every worker thread has its own
 * local memory (wg->local_memory), so each variable the kernel reaches
 * (also through called functions and kernels) gets a fixed offset there,
 * in module order, and its uses in the body become pointers into it. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A growable set of values, small enough for linear search. */
typedef struct value_set {
  LLVMValueRef *items;
  size_t count, capacity;
} value_set;

static bool set_has(const value_set *set, LLVMValueRef value) {
  for (size_t i = 0; i < set->count; i++) {
    if (set->items[i] == value) return true;
  }
  return false;
}

static bool set_add(value_set *set, LLVMValueRef value) {
  if (set_has(set, value)) return true;
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? 2 * set->capacity : 16;
    LLVMValueRef *items = realloc(set->items, capacity * sizeof *items);
    if (!items) return false;
    set->items = items;
    set->capacity = capacity;
  }
  set->items[set->count++] = value;
  return true;
}

/* Records the functions and __local variables `value` names, looking
 * through constant expressions. */
static bool note_operand(LLVMValueRef value, value_set *functions,
                         value_set *locals, unsigned depth) {
  if (LLVMIsAFunction(value)) {
    return LLVMIsDeclaration(value) || set_add(functions, value);
  }
  if (LLVMIsAGlobalVariable(value)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(value)) != cc_space_local) {
      return true;
    }
    return set_add(locals, value);
  }
  if (!LLVMIsAConstantExpr(value) || depth > 16) return true;
  int count = LLVMGetNumOperands(value);
  for (int i = 0; i < count; i++) {
    if (!note_operand(LLVMGetOperand(value, (unsigned)i), functions, locals,
                      depth + 1)) {
      return false;
    }
  }
  return true;
}

cc_status cc_local_layout_of(LLVMModuleRef module, LLVMValueRef kernel,
                             cc_local_layout *layout) {
  memset(layout, 0, sizeof *layout);
  value_set functions = {0}, locals = {0};
  bool ok = set_add(&functions, kernel);
  for (size_t f = 0; ok && f < functions.count; f++) {
    for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(functions.items[f]);
         ok && block; block = LLVMGetNextBasicBlock(block)) {
      for (LLVMValueRef inst = LLVMGetFirstInstruction(block); ok && inst;
           inst = LLVMGetNextInstruction(inst)) {
        int count = LLVMGetNumOperands(inst);
        for (int i = 0; ok && i < count; i++) {
          ok = note_operand(LLVMGetOperand(inst, (unsigned)i), &functions,
                            &locals, 0);
        }
      }
    }
  }
  free(functions.items);
  if (ok && locals.count) {
    layout->variables = calloc(locals.count, sizeof *layout->variables);
    layout->offsets = calloc(locals.count, sizeof *layout->offsets);
    ok = layout->variables && layout->offsets;
  }
  if (!ok) {
    free(locals.items);
    cc_local_layout_release(layout);
    return cc_error_out_of_memory;
  }
  /* Module order, so that the layout does not depend on the walk. */
  LLVMTargetDataRef data = LLVMGetModuleDataLayout(module);
  uint64_t end = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    if (!set_has(&locals, g)) continue;
    layout->variables[layout->count] = g;
    layout->offsets[layout->count++] = cc_place_variable(data, g, &end);
  }
  layout->size = end;
  free(locals.items);
  return cc_success;
}

uint64_t cc_place_variable(LLVMTargetDataRef data, LLVMValueRef variable,
                           uint64_t *end) {
  LLVMTypeRef type = LLVMGlobalGetValueType(variable);
  uint64_t align = LLVMGetAlignment(variable);
  if (align == 0) align = LLVMABIAlignmentOfType(data, type);
  uint64_t offset = (*end + align - 1) / align * align;
  *end = offset + LLVMABISizeOfType(data, type);
  return offset;
}

void cc_local_layout_release(cc_local_layout *layout) {
  free(layout->variables);
  free(layout->offsets);
  memset(layout, 0, sizeof *layout);
}

/* `constant` (a constant expression using `from`) as an instruction that
 * uses `to` instead, or NULL for a kind this does not rebuild. */
static LLVMValueRef rebuild(LLVMBuilderRef builder, LLVMValueRef constant,
                            LLVMValueRef from, LLVMValueRef to) {
  unsigned count = (unsigned)LLVMGetNumOperands(constant);
  LLVMValueRef operands[16];
  if (count == 0 || count > 16) return NULL;
  for (unsigned i = 0; i < count; i++) {
    LLVMValueRef operand = LLVMGetOperand(constant, i);
    operands[i] = operand == from ? to : operand;
  }
  LLVMOpcode opcode = LLVMGetConstOpcode(constant);
  switch (opcode) {
    case LLVMGetElementPtr: {
      LLVMValueRef gep = LLVMBuildGEP2(
          builder, LLVMGetGEPSourceElementType(constant), operands[0],
          operands + 1, count - 1, "");
      if (LLVMIsAGetElementPtrInst(gep)) {
        LLVMSetIsInBounds(gep, LLVMIsInBounds(constant));
      }
      return gep;
    }
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMTrunc:
      return LLVMBuildCast(builder, opcode, operands[0], LLVMTypeOf(constant),
                           "");
    /* Address arithmetic, e.g. the distance between two __local objects. */
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMXor:
    case LLVMShl:
      return count == 2 ? LLVMBuildBinOp(builder, opcode, operands[0],
                                         operands[1], "")
                        : NULL;
    default:
      return NULL;
  }
}

bool cc_used_by_code(LLVMValueRef value) {
  for (LLVMUseRef use = LLVMGetFirstUse(value); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsAConstant(user) || cc_used_by_code(user)) return true;
  }
  return false;
}

/* Replaces `from` by `to` in the instructions of `function`; constant
 * expressions using `from` become instructions at the builder. */
static bool replace_in_function(LLVMBuilderRef builder, LLVMValueRef function,
                                LLVMValueRef from, LLVMValueRef to) {
  value_set users = {0};
  for (LLVMUseRef use = LLVMGetFirstUse(from); use; use = LLVMGetNextUse(use)) {
    if (!set_add(&users, LLVMGetUser(use))) {
      free(users.items);
      return false;
    }
  }
  bool ok = true;
  for (size_t u = 0; ok && u < users.count; u++) {
    LLVMValueRef user = users.items[u];
    if (LLVMIsAInstruction(user)) {
      if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) != function) {
        continue;
      }
      int count = LLVMGetNumOperands(user);
      for (int i = 0; i < count; i++) {
        if (LLVMGetOperand(user, (unsigned)i) == from) {
          LLVMSetOperand(user, (unsigned)i, to);
        }
      }
    } else if (LLVMIsAConstantExpr(user) && cc_used_by_code(user)) {
      /* (A rewritten expression stays behind unused: not again.) */
      LLVMValueRef rebuilt = rebuild(builder, user, from, to);
      if (rebuilt) ok = replace_in_function(builder, function, user, rebuilt);
    }
  }
  free(users.items);
  return ok;
}

/* The builder after the entry block's allocas, before anything else. */
static LLVMBuilderRef builder_at_entry(LLVMValueRef function) {
  LLVMBuilderRef builder =
      LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(function)));
  LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(function));
  while (LLVMIsAAllocaInst(first)) first = LLVMGetNextInstruction(first);
  LLVMPositionBuilderBefore(builder, first);
  return builder;
}

static bool lower_at(LLVMBuilderRef builder, LLVMValueRef function,
                     LLVMValueRef base, LLVMValueRef *variables,
                     const uint64_t *offsets, uint32_t count) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(base));
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  bool ok = true;
  for (uint32_t i = 0; ok && i < count; i++) {
    LLVMValueRef offset = LLVMConstInt(i64, offsets[i], 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(builder, i8, base, &offset, 1, "");
    LLVMValueRef pointer =
        LLVMBuildAddrSpaceCast(builder, at, LLVMTypeOf(variables[i]), "");
    ok = replace_in_function(builder, function, variables[i], pointer);
  }
  return ok;
}

bool cc_lower_variables_at(LLVMValueRef function, LLVMValueRef base,
                           LLVMValueRef *variables, const uint64_t *offsets,
                           uint32_t count) {
  if (count == 0) return true;
  LLVMBuilderRef builder = builder_at_entry(function);
  bool ok = lower_at(builder, function, base, variables, offsets, count);
  LLVMDisposeBuilder(builder);
  return ok;
}

bool cc_lower_local_variables(LLVMValueRef function, LLVMValueRef wg,
                              const cc_local_layout *layout) {
  if (layout->count == 0) return true;
  LLVMBuilderRef builder = builder_at_entry(function);
  LLVMValueRef base = cc_load_wg_pointer(
      builder, wg, offsetof(cpu_work_group, local_memory), "local_memory");
  bool ok = lower_at(builder, function, base, layout->variables,
                     layout->offsets, layout->count);
  LLVMDisposeBuilder(builder);
  return ok;
}

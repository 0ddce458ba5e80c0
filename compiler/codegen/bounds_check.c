/* clmux compiler — code generation: CLMUX_BOUNDS_CHECK. Each access of
 * the kernel body to __global, __constant or __local memory whose address
 * derives from one object (a buffer or __local argument, a kernel's
 * __local array, a program's __constant variable) runs only when it lies
 * within that object:
 *
 *   ok = size <= extent && offset <= extent - size
 *   br ok, access, fail     access: the load/store    fail: report
 *   join: phi [value, access], [0, fail]
 *
 * Arguments' extents come from the cpu_bounds_record of the hidden last
 * argument (work_group_abi.h); variables' from their types. The whole-
 * function vectorizer turns the two arms into masked regions, skipped
 * when no lane takes them, so the access stays a (masked) vector access.
 * An address built from something else (a pointer loaded from memory, a
 * select between two buffers) is not checked. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define REPORT_NAME "__clmux_bounds_report"
#define MAX_DEPTH 32

typedef struct checker {
  LLVMModuleRef module;
  LLVMContextRef context;
  LLVMBuilderRef builder;
  LLVMTargetDataRef data;
  LLVMTypeRef i1, i32, i64, ptr, report_type;
  LLVMValueRef body, record, report, global_id[3];
  unsigned user_args;
  const bool *checkable;
  unsigned invariant_kind;
} checker;

typedef struct access {
  LLVMValueRef inst;
  unsigned count; /* addresses: 2 for a memcpy */
  LLVMValueRef address[2];
  LLVMValueRef base[2];
  bool write[2];
  LLVMValueRef size; /* i64 bytes */
} access;

bool cc_add_hidden_arg(cc_kernel_info *info) {
  cc_arg_layout *args =
      realloc(info->args, (info->arg_count + 1) * sizeof *args);
  if (!args) return false;
  info->args = args;
  uint32_t offset = (info->args_size + 7u) & ~7u;
  args[info->arg_count++] = (cc_arg_layout){cc_arg_value, 8, offset};
  info->args_size = offset + 8;
  return true;
}

/* ---- What an address is based on ---- */

/* The object `value` points into: an argument or a variable; `pending`
 * for a PHI already being followed (a loop's increment); NULL if none or
 * several. */
static LLVMValueRef base_of(const checker *c, LLVMValueRef value,
                            LLVMValueRef *stack, int depth) {
  LLVMValueRef pending = c->body;
  for (;;) {
    if (LLVMIsAArgument(value)) {
      for (unsigned i = 0; i < c->user_args; i++) {
        if (LLVMGetParam(c->body, i) == value) {
          return c->checkable[i] ? value : NULL;
        }
      }
      return NULL;
    }
    if (LLVMIsAGlobalVariable(value)) {
      unsigned space = LLVMGetPointerAddressSpace(LLVMTypeOf(value));
      return space == cc_space_constant || space == cc_space_local ? value
                                                                   : NULL;
    }
    bool cast_or_gep = LLVMIsAGetElementPtrInst(value) ||
                       LLVMIsABitCastInst(value) ||
                       LLVMIsAAddrSpaceCastInst(value);
    if (LLVMIsAConstantExpr(value)) {
      LLVMOpcode op = LLVMGetConstOpcode(value);
      cast_or_gep = op == LLVMGetElementPtr || op == LLVMBitCast ||
                    op == LLVMAddrSpaceCast;
    }
    if (!cast_or_gep) break;
    value = LLVMGetOperand(value, 0);
  }
  bool phi = LLVMIsAPHINode(value) != NULL;
  if (!phi && !LLVMIsASelectInst(value)) return NULL;
  for (int i = 0; i < depth; i++) {
    if (stack[i] == value) return pending;
  }
  if (depth == MAX_DEPTH) return NULL;
  stack[depth] = value;
  LLVMValueRef found = pending;
  unsigned count = phi ? LLVMCountIncoming(value) : 2;
  for (unsigned i = 0; i < count; i++) {
    LLVMValueRef in =
        phi ? LLVMGetIncomingValue(value, i) : LLVMGetOperand(value, i + 1);
    LLVMValueRef base = base_of(c, in, stack, depth + 1);
    if (!base) return NULL;
    if (base == pending) continue;
    if (found != pending && found != base) return NULL;
    found = base;
  }
  return found;
}

static bool checked_space(LLVMValueRef address) {
  unsigned space = LLVMGetPointerAddressSpace(LLVMTypeOf(address));
  return space == cc_space_global || space == cc_space_constant ||
         space == cc_space_local;
}

static LLVMValueRef bytes_of(const checker *c, LLVMTypeRef type) {
  return LLVMConstInt(c->i64, LLVMStoreSizeOfType(c->data, type), 0);
}

/* Fills `a` for an instruction that touches memory through a checked
 * address; false for anything else. */
static bool describe(const checker *c, LLVMValueRef inst, access *a) {
  *a = (access){inst, 1, {NULL, NULL}, {NULL, NULL}, {false, false}, NULL};
  if (LLVMIsALoadInst(inst)) {
    a->address[0] = LLVMGetOperand(inst, 0);
    a->size = bytes_of(c, LLVMTypeOf(inst));
  } else if (LLVMIsAStoreInst(inst)) {
    a->address[0] = LLVMGetOperand(inst, 1);
    a->write[0] = true;
    a->size = bytes_of(c, LLVMTypeOf(LLVMGetOperand(inst, 0)));
  } else if (LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst)) {
    a->address[0] = LLVMGetOperand(inst, 0);
    a->write[0] = true;
    a->size = bytes_of(c, LLVMTypeOf(LLVMGetOperand(inst, 1)));
  } else if (LLVMIsACallInst(inst)) {
    const char *name = cc_callee_name(inst);
    bool set = strncmp(name, "llvm.memset.", 12) == 0;
    bool copy = strncmp(name, "llvm.memcpy.", 12) == 0 ||
                strncmp(name, "llvm.memmove.", 13) == 0;
    if (!set && !copy) return false;
    a->address[0] = LLVMGetOperand(inst, 0);
    a->write[0] = true;
    a->size = LLVMGetOperand(inst, 2);
    if (LLVMTypeOf(a->size) != c->i64) return false;
    if (copy) {
      a->address[1] = LLVMGetOperand(inst, 1);
      a->count = 2;
    }
  } else {
    return false;
  }
  unsigned kept = 0;
  for (unsigned i = 0; i < a->count; i++) {
    if (!checked_space(a->address[i])) continue;
    LLVMValueRef stack[MAX_DEPTH];
    LLVMValueRef base = base_of(c, a->address[i], stack, 0);
    if (!base || base == c->body) continue;
    a->address[kept] = a->address[i];
    a->write[kept] = a->write[i];
    a->base[kept++] = base;
  }
  a->count = kept;
  return kept > 0;
}

/* ---- The report ---- */

/* void report(record, i32 what, i64 offset, i64 size, i32 write,
 *             i64 gx, i64 gy, i64 gz): counts the violation; the first
 * one to claim the record describes itself there. Out of line and cold:
 * it runs only when something is wrong. */
static LLVMValueRef make_report(checker *c) {
  LLVMTypeRef params[8] = {c->ptr, c->i32, c->i64, c->i64,
                           c->i32, c->i64, c->i64, c->i64};
  c->report_type =
      LLVMFunctionType(LLVMVoidTypeInContext(c->context), params, 8, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->module, REPORT_NAME);
  if (f) return f;
  f = LLVMAddFunction(c->module, REPORT_NAME, c->report_type);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  const char *attributes[] = {"noinline", "cold", "nounwind"};
  for (int i = 0; i < 3; i++) {
    const char *name = attributes[i];
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(
            c->context, LLVMGetEnumAttributeKindForName(name, strlen(name)),
            0));
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->context);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->context, f, "");
  LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(c->context, f, "");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->context, f, "");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef record = LLVMGetParam(f, 0);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c->context);
#define FIELD(name)                                                 \
  LLVMBuildGEP2(b, i8, record,                                      \
                (LLVMValueRef[]){LLVMConstInt(                      \
                    c->i64, offsetof(cpu_bounds_record, name), 0)}, \
                1, "")
  LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd, FIELD(violations),
                     LLVMConstInt(c->i64, 1, 0), LLVMAtomicOrderingMonotonic,
                     0);
  LLVMValueRef pair = LLVMBuildAtomicCmpXchg(
      b, FIELD(claimed), LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, 1, 0),
      LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildCondBr(b, LLVMBuildExtractValue(b, pair, 1, ""), fill, done);
  LLVMPositionBuilderAtEnd(b, fill);
  LLVMBuildStore(b, LLVMGetParam(f, 1), FIELD(what));
  LLVMBuildStore(b, LLVMGetParam(f, 2), FIELD(offset));
  LLVMBuildStore(b, LLVMGetParam(f, 3), FIELD(size));
  LLVMBuildStore(b, LLVMGetParam(f, 4), FIELD(write));
  LLVMBuildStore(b, LLVMGetParam(f, 5), FIELD(global_id[0]));
  LLVMBuildStore(b, LLVMGetParam(f, 6), FIELD(global_id[1]));
  LLVMBuildStore(b, LLVMGetParam(f, 7), FIELD(global_id[2]));
#undef FIELD
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* ---- The check ---- */

/* The extent of `base`, computed at the builder. */
static LLVMValueRef extent_of(checker *c, LLVMValueRef base) {
  if (LLVMIsAGlobalVariable(base)) {
    return bytes_of(c, LLVMGlobalGetValueType(base));
  }
  unsigned index = 0;
  while (LLVMGetParam(c->body, index) != base) index++;
  LLVMValueRef at = LLVMConstInt(
      c->i64, offsetof(cpu_bounds_record, extents) + 8u * index, 0);
  LLVMValueRef slot = LLVMBuildGEP2(
      c->builder, LLVMInt8TypeInContext(c->context), c->record, &at, 1, "");
  LLVMValueRef extent = LLVMBuildLoad2(c->builder, c->i64, slot, "extent");
  /* Set before the launch: free to hoist out of loops. */
  LLVMSetMetadata(extent, c->invariant_kind,
                  LLVMMetadataAsValue(
                      c->context, LLVMMDNodeInContext2(c->context, NULL, 0)));
  return extent;
}

static uint32_t what_of(const checker *c, LLVMValueRef base) {
  if (LLVMIsAGlobalVariable(base)) {
    return LLVMGetPointerAddressSpace(LLVMTypeOf(base)) == cc_space_local
               ? cpu_bounds_local_variable
               : cpu_bounds_constant_variable;
  }
  uint32_t index = 0;
  while (LLVMGetParam(c->body, index) != base) index++;
  return index;
}

/* Moves what follows `inst` into a new block after its own, to which
 * PHIs of the successors now refer. */
static LLVMBasicBlockRef split_after(checker *c, LLVMValueRef inst) {
  LLVMBasicBlockRef block = LLVMGetInstructionParent(inst);
  LLVMBasicBlockRef tail =
      LLVMInsertBasicBlockInContext(c->context, block, "bounds.join");
  LLVMMoveBasicBlockAfter(tail, block);
  LLVMPositionBuilderAtEnd(c->builder, tail);
  for (LLVMValueRef i = LLVMGetNextInstruction(inst); i;) {
    LLVMValueRef next = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(c->builder, i);
    i = next;
  }
  LLVMValueRef terminator = LLVMGetBasicBlockTerminator(tail);
  unsigned successors = LLVMGetNumSuccessors(terminator);
  for (unsigned s = 0; s < successors; s++) {
    LLVMBasicBlockRef next = LLVMGetSuccessor(terminator, s);
    bool seen = false;
    for (unsigned t = 0; t < s; t++) {
      seen |= LLVMGetSuccessor(terminator, t) == next;
    }
    if (seen) continue;
    /* The C API cannot change a PHI's block: each PHI is rebuilt. */
    for (LLVMValueRef phi = LLVMGetFirstInstruction(next);
         phi && LLVMIsAPHINode(phi);) {
      LLVMValueRef following = LLVMGetNextInstruction(phi);
      unsigned n = LLVMCountIncoming(phi);
      LLVMPositionBuilderBefore(c->builder, phi);
      LLVMValueRef copy = LLVMBuildPhi(c->builder, LLVMTypeOf(phi), "");
      for (unsigned k = 0; k < n; k++) {
        LLVMValueRef value = LLVMGetIncomingValue(phi, k);
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
        if (from == block) from = tail;
        LLVMAddIncoming(copy, &value, &from, 1);
      }
      LLVMReplaceAllUsesWith(phi, copy);
      LLVMInstructionEraseFromParent(phi);
      phi = following;
    }
  }
  return tail;
}

static void instrument(checker *c, const access *a) {
  LLVMValueRef inst = a->inst;
  LLVMBuilderRef b = c->builder;
  LLVMPositionBuilderBefore(b, inst);
  LLVMValueRef ok = NULL, what = NULL, offset = NULL, write = NULL;
  for (unsigned i = 0; i < a->count; i++) {
    LLVMValueRef extent = extent_of(c, a->base[i]);
    LLVMValueRef here =
        LLVMBuildSub(b, LLVMBuildPtrToInt(b, a->address[i], c->i64, ""),
                     LLVMBuildPtrToInt(b, a->base[i], c->i64, ""), "offset");
    LLVMValueRef fits =
        LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, extent, a->size, ""),
                     LLVMBuildICmp(b, LLVMIntULE, here,
                                   LLVMBuildSub(b, extent, a->size, ""), ""),
                     "in.bounds");
    LLVMValueRef this_what = LLVMConstInt(c->i32, what_of(c, a->base[i]), 0);
    LLVMValueRef this_write = LLVMConstInt(c->i32, a->write[i], 0);
    if (!ok) {
      ok = fits, what = this_what, offset = here, write = this_write;
    } else {
      /* Report the first address that fails. */
      what = LLVMBuildSelect(b, ok, this_what, what, "");
      offset = LLVMBuildSelect(b, ok, here, offset, "");
      write = LLVMBuildSelect(b, ok, this_write, write, "");
      ok = LLVMBuildAnd(b, ok, fits, "");
    }
  }
  LLVMBasicBlockRef head = LLVMGetInstructionParent(inst);
  LLVMBasicBlockRef join = split_after(c, inst);
  LLVMBasicBlockRef run =
      LLVMInsertBasicBlockInContext(c->context, join, "bounds.access");
  LLVMBasicBlockRef fail =
      LLVMInsertBasicBlockInContext(c->context, join, "bounds.fail");
  LLVMInstructionRemoveFromParent(inst);
  LLVMPositionBuilderAtEnd(b, run);
  LLVMInsertIntoBuilder(b, inst);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMValueRef args[8] = {c->record,       what,           offset,
                          a->size,         write,          c->global_id[0],
                          c->global_id[1], c->global_id[2]};
  LLVMBuildCall2(b, c->report_type, c->report, args, 8, "");
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMBuildCondBr(b, ok, run, fail);
  LLVMTypeRef type = LLVMTypeOf(inst);
  if (LLVMGetTypeKind(type) != LLVMVoidTypeKind && LLVMGetFirstUse(inst)) {
    LLVMValueRef first = LLVMGetFirstInstruction(join);
    LLVMPositionBuilderBefore(b, first);
    LLVMValueRef phi = LLVMBuildPhi(b, type, "");
    LLVMReplaceAllUsesWith(inst, phi);
    LLVMValueRef values[2] = {inst, LLVMConstNull(type)};
    LLVMBasicBlockRef from[2] = {run, fail};
    LLVMAddIncoming(phi, values, from, 2);
  }
}

long cc_add_bounds_checks(LLVMModuleRef module, LLVMValueRef body,
                          unsigned user_args, const bool *checkable,
                          LLVMValueRef record, LLVMValueRef global_id[3]) {
  checker c = {0};
  c.module = module;
  c.context = LLVMGetModuleContext(module);
  c.data = LLVMGetModuleDataLayout(module);
  c.i1 = LLVMInt1TypeInContext(c.context);
  c.i32 = LLVMInt32TypeInContext(c.context);
  c.i64 = LLVMInt64TypeInContext(c.context);
  c.ptr = LLVMPointerTypeInContext(c.context, 0);
  c.body = body;
  c.record = record;
  c.user_args = user_args;
  c.checkable = checkable;
  for (int d = 0; d < 3; d++) c.global_id[d] = global_id[d];
  c.invariant_kind = LLVMGetMDKindIDInContext(c.context, "invariant.load", 14);
  c.report = make_report(&c);

  /* First list them: instrumenting changes the blocks being walked. */
  size_t count = 0, capacity = 0;
  access *list = NULL;
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(body); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      access a;
      if (!describe(&c, inst, &a)) continue;
      if (count == capacity) {
        capacity = capacity ? 2 * capacity : 64;
        access *grown = realloc(list, capacity * sizeof *list);
        if (!grown) {
          free(list);
          return -1;
        }
        list = grown;
      }
      list[count++] = a;
    }
  }
  c.builder = LLVMCreateBuilderInContext(c.context);
  for (size_t i = 0; i < count; i++) instrument(&c, &list[i]);
  LLVMDisposeBuilder(c.builder);
  free(list);
  return (long)count;
}

/* clmux compiler — printf calls become records for the CPU target's
 * printf runtime (see printf_lower.h and the record layout in
 * include/clmux/cpu_abi/printf_record.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clmux/cpu_abi/printf_record.h>
#include <clmux/cpu_abi/work_group_abi.h> /* CPU_MAX_WORK_GROUP_SIZE */
#include <llvm-c/Target.h>

#include "printf_lower.h"

static cc_status fail(cc_log *log, cc_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static cc_status fail(cc_log *log, cc_status status, const char *format, ...) {
  if (log) {
    va_list list;
    va_start(list, format);
    vsnprintf(log->text, sizeof log->text, format, list);
    va_end(list);
  }
  return status;
}

typedef struct lowering {
  LLVMModuleRef module;
  LLVMContextRef context;
  LLVMTargetDataRef data_layout;
  LLVMBuilderRef builder;
  LLVMTypeRef i8, i32, i64, ptr;
  LLVMTypeRef runtime_type;
  LLVMValueRef runtime; /* i32 __clmux_printf(ptr record, i32 size) */
  LLVMTypeRef query_type;
  LLVMValueRef local_id, local_size; /* i64 (i32) work-item functions */
} lowering;

/* The function `name` of type `type`, declared if missing; NULL if the
 * module has it with another type. */
static LLVMValueRef function_of_type(LLVMModuleRef module, const char *name,
                                     LLVMTypeRef type) {
  LLVMValueRef function = LLVMGetNamedFunction(module, name);
  if (!function) return LLVMAddFunction(module, name, type);
  return LLVMGlobalGetValueType(function) == type ? function : NULL;
}

static LLVMValueRef call_query(lowering *l, LLVMValueRef function,
                               unsigned dimension) {
  LLVMValueRef argument = LLVMConstInt(l->i32, dimension, 0);
  return LLVMBuildCall2(l->builder, l->query_type, function, &argument, 1, "");
}

/* x + size_x * (y + size_y * z), as a u32 (a work-group has at most
 * CPU_MAX_WORK_GROUP_SIZE items). */
static LLVMValueRef local_linear_id(lowering *l) {
  LLVMBuilderRef b = l->builder;
  LLVMValueRef id = call_query(l, l->local_id, 2);
  for (int d = 1; d >= 0; d--) {
    id = LLVMBuildMul(b, id, call_query(l, l->local_size, (unsigned)d), "");
    id = LLVMBuildAdd(b, id, call_query(l, l->local_id, (unsigned)d), "");
  }
  return LLVMBuildTrunc(b, id, l->i32, "printf.id");
}

static LLVMValueRef field(lowering *l, LLVMValueRef record, uint64_t offset) {
  LLVMValueRef index = LLVMConstInt(l->i64, offset, 0);
  return LLVMBuildInBoundsGEP2(l->builder, l->i8, record, &index, 1, "");
}

static void store_at(lowering *l, LLVMValueRef record, uint64_t offset,
                     LLVMValueRef value) {
  LLVMValueRef store =
      LLVMBuildStore(l->builder, value, field(l, record, offset));
  LLVMSetAlignment(store, offset % 8 == 0 ? 8 : 4);
}

/* How one argument lies in the record: `bytes` of value; for a by-value
 * aggregate Clang passes a pointer (byval), whose pointee is copied. */
typedef struct arg_plan {
  LLVMValueRef value;
  LLVMTypeRef byval_type; /* NULL unless passed byval */
  uint64_t bytes;
} arg_plan;

static arg_plan plan_arg(lowering *l, LLVMValueRef call, unsigned index) {
  arg_plan plan = {LLVMGetOperand(call, index), NULL, 0};
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef attribute = LLVMGetCallSiteEnumAttribute(
      call, (LLVMAttributeIndex)(index + 1), byval);
  LLVMTypeRef type = LLVMTypeOf(plan.value);
  if (attribute) {
    plan.byval_type = LLVMGetTypeAttributeValue(attribute);
    plan.bytes = LLVMStoreSizeOfType(l->data_layout, plan.byval_type);
  } else if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
    plan.bytes = 8;
  } else {
    plan.bytes = LLVMStoreSizeOfType(l->data_layout, type);
  }
  return plan;
}

static uint64_t round_up8(uint64_t value) { return (value + 7) & ~(uint64_t)7; }

/* The stack slot for records, in the entry block so it is allocated once
 * however often the call runs. */
static LLVMValueRef record_slot(lowering *l, LLVMValueRef call,
                                uint64_t size) {
  LLVMValueRef function = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
  LLVMPositionBuilderBefore(l->builder, LLVMGetFirstInstruction(entry));
  LLVMValueRef slot = LLVMBuildAlloca(
      l->builder, LLVMArrayType2(l->i8, size), "printf.record");
  LLVMSetAlignment(slot, 8);
  return slot;
}

static cc_status lower_call(lowering *l, LLVMValueRef call, cc_log *log) {
  unsigned operands = (unsigned)LLVMGetNumArgOperands(call);
  if (operands == 0) {
    return fail(log, cc_error_invalid_ir, "printf called without a format");
  }
  arg_plan *plans = calloc(operands, sizeof *plans);
  if (!plans) return cc_error_out_of_memory;
  uint64_t size = cpu_printf_header_size;
  for (unsigned i = 1; i < operands; i++) {
    plans[i] = plan_arg(l, call, i);
    size += cpu_printf_arg_header_size + round_up8(plans[i].bytes);
  }
  if (size > CPU_PRINTF_BUFFER_SIZE) {
    free(plans);
    return fail(log, cc_error_unsupported,
                "printf: %llu bytes of arguments exceed the printf buffer",
                (unsigned long long)size);
  }

  LLVMValueRef record = record_slot(l, call, size);
  LLVMBuilderRef b = l->builder;
  LLVMPositionBuilderBefore(b, call);
  store_at(l, record, 0, LLVMConstInt(l->i32, size, 0));
  store_at(l, record, 4, local_linear_id(l));
  store_at(l, record, 8,
           LLVMBuildPtrToInt(b, LLVMGetOperand(call, 0), l->i64, ""));
  uint64_t offset = cpu_printf_header_size;
  for (unsigned i = 1; i < operands; i++) {
    const arg_plan *plan = &plans[i];
    store_at(l, record, offset, LLVMConstInt(l->i32, plan->bytes, 0));
    store_at(l, record, offset + 4, LLVMConstInt(l->i32, 0, 0));
    LLVMValueRef destination = field(l, record, offset + 8);
    if (plan->byval_type) {
      LLVMBuildMemCpy(b, destination, 8, plan->value, 1,
                      LLVMConstInt(l->i64, plan->bytes, 0));
    } else if (LLVMGetTypeKind(LLVMTypeOf(plan->value)) ==
               LLVMPointerTypeKind) {
      store_at(l, record, offset + 8,
               LLVMBuildPtrToInt(b, plan->value, l->i64, ""));
    } else {
      store_at(l, record, offset + 8, plan->value);
    }
    offset += cpu_printf_arg_header_size + round_up8(plan->bytes);
  }
  free(plans);

  LLVMValueRef arguments[2] = {record, LLVMConstInt(l->i32, size, 0)};
  LLVMValueRef result = LLVMBuildCall2(b, l->runtime_type, l->runtime,
                                       arguments, 2, "printf.result");
  LLVMReplaceAllUsesWith(call, result);
  LLVMInstructionEraseFromParent(call);
  return cc_success;
}

/* Every call of `printf`, collected first: lowering changes its uses. */
static cc_status collect_calls(LLVMValueRef printf_function,
                               LLVMValueRef **out, size_t *count,
                               cc_log *log) {
  size_t n = 0;
  for (LLVMUseRef use = LLVMGetFirstUse(printf_function); use;
       use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsACallInst(user) ||
        LLVMGetCalledValue(user) != printf_function) {
      return fail(log, cc_error_unsupported,
                  "printf may only be called directly");
    }
    n++;
  }
  LLVMValueRef *calls = malloc((n ? n : 1) * sizeof *calls);
  if (!calls) return cc_error_out_of_memory;
  n = 0;
  for (LLVMUseRef use = LLVMGetFirstUse(printf_function); use;
       use = LLVMGetNextUse(use)) {
    calls[n++] = LLVMGetUser(use);
  }
  *out = calls;
  *count = n;
  return cc_success;
}

static cc_status lowering_start(lowering *l, LLVMModuleRef module,
                                cc_log *log) {
  l->module = module;
  l->context = LLVMGetModuleContext(module);
  l->i8 = LLVMInt8TypeInContext(l->context);
  l->i32 = LLVMInt32TypeInContext(l->context);
  l->i64 = LLVMInt64TypeInContext(l->context);
  l->ptr = LLVMPointerTypeInContext(l->context, 0);
  LLVMTypeRef runtime_params[2] = {l->ptr, l->i32};
  l->runtime_type = LLVMFunctionType(l->i32, runtime_params, 2, 0);
  l->query_type = LLVMFunctionType(l->i64, &l->i32, 1, 0);
  l->runtime = function_of_type(module, CPU_PRINTF_SYMBOL, l->runtime_type);
  l->local_id = function_of_type(module, "_Z12get_local_idj", l->query_type);
  l->local_size =
      function_of_type(module, "_Z14get_local_sizej", l->query_type);
  if (!l->runtime || !l->local_id || !l->local_size) {
    return fail(log, cc_error_invalid_ir,
                "printf: " CPU_PRINTF_SYMBOL
                ", get_local_id or get_local_size has an unexpected type");
  }
  LLVMAddAttributeAtIndex(
      l->runtime, LLVMAttributeFunctionIndex,
      LLVMCreateEnumAttribute(l->context,
                              LLVMGetEnumAttributeKindForName("nounwind", 8),
                              0));
  l->data_layout = LLVMCreateTargetData(LLVMGetDataLayoutStr(module));
  l->builder = LLVMCreateBuilderInContext(l->context);
  return cc_success;
}

cc_status cc_printf_lower(LLVMModuleRef module, cc_log *log) {
  LLVMValueRef printf_function = LLVMGetNamedFunction(module, "printf");
  if (!printf_function || !LLVMIsDeclaration(printf_function)) {
    return cc_success;
  }
  LLVMValueRef *calls = NULL;
  size_t count = 0;
  cc_status status = collect_calls(printf_function, &calls, &count, log);
  if (status != cc_success) return status;
  lowering l;
  memset(&l, 0, sizeof l);
  status = lowering_start(&l, module, log);
  for (size_t i = 0; i < count && status == cc_success; i++) {
    status = lower_call(&l, calls[i], log);
  }
  free(calls);
  if (l.builder) LLVMDisposeBuilder(l.builder);
  if (l.data_layout) LLVMDisposeTargetData(l.data_layout);
  if (status == cc_success) LLVMDeleteFunction(printf_function);
  return status;
}

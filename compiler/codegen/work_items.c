/* clmux compiler — code generation: the OpenCL work-item functions
 * (get_global_id and friends, by their Clang-mangled names) become values
 * computed from the work-item loop's indices and the cpu_work_group. */
#include <clmux/cpu_abi/printf_record.h>
#include <clmux/cpu_abi/work_group_abi.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "sub_groups.h"

typedef enum work_item_query {
  query_global_id,
  query_local_id,
  query_group_id,
  query_global_size,
  query_local_size,
  query_num_groups,
  query_global_offset,
  query_work_dim,
  query_enqueued_local_size,
  query_global_linear_id,
  query_local_linear_id,
  query_to_global, /* the generic address space's */
  query_to_local,
  query_to_private,
  query_get_fence,
  query_fence, /* mem_fence, read_mem_fence, write_mem_fence */
  query_none
} work_item_query;

static const struct {
  const char *mangled;
  work_item_query query;
} queries[] = {
    {"_Z13get_global_idj", query_global_id},
    {"_Z12get_local_idj", query_local_id},
    {"_Z12get_group_idj", query_group_id},
    {"_Z15get_global_sizej", query_global_size},
    {"_Z14get_local_sizej", query_local_size},
    {"_Z14get_num_groupsj", query_num_groups},
    {"_Z17get_global_offsetj", query_global_offset},
    {"_Z12get_work_dimv", query_work_dim},
    /* OpenCL C 2.0 on. */
    {"_Z23get_enqueued_local_sizej", query_enqueued_local_size},
    {"_Z20get_global_linear_idv", query_global_linear_id},
    {"_Z19get_local_linear_idv", query_local_linear_id},
    {"__to_global", query_to_global},
    {"__to_local", query_to_local},
    {"__to_private", query_to_private},
    {"_Z9get_fencePU9CLgenericv", query_get_fence},
    {"_Z9get_fencePU9CLgenericKv", query_get_fence},
    {"_Z9mem_fencej", query_fence},
    {"_Z14read_mem_fencej", query_fence},
    {"_Z15write_mem_fencej", query_fence},
};

static work_item_query query_named(const char *name) {
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
    if (strcmp(name, queries[i].mangled) == 0) return queries[i].query;
  }
  return query_none;
}

static work_item_query query_of(LLVMValueRef inst) {
  if (!LLVMIsACallInst(inst)) return query_none;
  return query_named(cc_callee_name(inst));
}

bool cc_is_group_uniform_query(const char *name) {
  switch (query_named(name)) {
    case query_group_id:
    case query_global_size:
    case query_local_size:
    case query_num_groups:
    case query_global_offset:
    case query_work_dim:
    case query_enqueued_local_size:
      return true;
    default:
      return false;
  }
}

bool cc_observes_work_groups(LLVMValueRef function,
                             const uint32_t local_size[3]) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (!LLVMIsACallInst(inst)) continue;
      /* A sub-group is part of one group. */
      if (cc_sub_group_primitive(inst, NULL)) return true;
      const char *name = cc_callee_name(inst);
      switch (query_named(name)) {
        case query_local_id:
        case query_group_id:
        case query_local_size:
        case query_enqueued_local_size:
        case query_local_linear_id:
          /* Computed from the row's item index when the group's width
           * is known (cc_lower_work_items). */
          if (!local_size[0]) return true;
          break;
        case query_global_offset:
        case query_global_linear_id:
          return true;
        default:
          break;
      }
      if (cc_is_barrier_name(name) || strcmp(name, CPU_PRINTF_SYMBOL) == 0) {
        return true;
      }
    }
  }
  return false;
}

bool cc_codegen_lowers(const char *name) {
  return query_named(name) != query_none || cc_is_barrier_name(name);
}

typedef struct lowering {
  LLVMBuilderRef builder;
  LLVMTypeRef i64;
  LLVMValueRef wg;
  LLVMValueRef *local_id;
  LLVMValueRef *global_id;
  const uint32_t *local_size;
  bool x_rows;
} lowering;

/* What a query answers outside dimensions 0..2: sizes 1, the rest 0. */
static uint64_t out_of_range_value(work_item_query query) {
  return query == query_global_size || query == query_local_size ||
                 query == query_enqueued_local_size || query == query_num_groups
             ? 1
             : 0;
}

static LLVMValueRef wg_u64(lowering *l, size_t offset) {
  return cc_load_wg_field(l->builder, l->wg, l->i64, offset, "");
}

/* The query's value in dimension d (0..2), as an i64. */
static LLVMValueRef dimension_value(lowering *l, work_item_query query,
                                    unsigned d) {
  switch (query) {
    case query_global_id:
      return l->global_id[d];
    case query_local_id:
      if (d == 0 && l->x_rows) {
        if (l->local_size[0] == 1) return LLVMConstInt(l->i64, 0, 0);
        return LLVMBuildURem(l->builder, l->local_id[0],
                             LLVMConstInt(l->i64, l->local_size[0], 0), "");
      }
      return l->local_id[d];
    case query_group_id: {
      LLVMValueRef first =
          wg_u64(l, offsetof(cpu_work_group, group_id) + 8 * d);
      if (d != 0 || !l->x_rows) return first;
      /* A row of groups: wg holds its first group, the item index
       * runs across the row. */
      LLVMValueRef within =
          l->local_size[0] == 1
              ? l->local_id[0]
              : LLVMBuildUDiv(l->builder, l->local_id[0],
                              LLVMConstInt(l->i64, l->local_size[0], 0), "");
      return LLVMBuildNUWAdd(l->builder, first, within, "");
    }
    case query_global_size:
      return wg_u64(l, offsetof(cpu_work_group, global_size) + 8 * d);
    case query_num_groups:
      return wg_u64(l, offsetof(cpu_work_group, num_groups) + 8 * d);
    case query_global_offset:
      return wg_u64(l, offsetof(cpu_work_group, global_offset) + 8 * d);
    case query_local_size:
    case query_enqueued_local_size:
      /* Code for one local size runs uniform NDRanges only. */
      if (l->local_size[d]) return LLVMConstInt(l->i64, l->local_size[d], 0);
      return LLVMBuildZExt(
          l->builder,
          cc_load_wg_field(l->builder, l->wg,
                           LLVMInt32TypeInContext(LLVMGetTypeContext(l->i64)),
                           query == query_local_size
                               ? offsetof(cpu_work_group, local_size) + 4 * d
                               : offsetof(cpu_work_group,
                                          enqueued_local_size) +
                                     4 * d,
                           ""),
          l->i64, "");
    default:
      return LLVMConstInt(l->i64, 0, 0);
  }
}

/* get_global_linear_id (from 0 whatever the offset) or get_local_linear_id:
 * ((id2 * size1) + id1) * size0 + id0, sizes of unused dimensions 1. */
static LLVMValueRef linear_id(lowering *l, work_item_query query) {
  bool global = query == query_global_linear_id;
  LLVMValueRef value = NULL;
  for (unsigned d = 3; d-- > 0;) {
    LLVMValueRef id =
        dimension_value(l, global ? query_global_id : query_local_id, d);
    if (global) {
      id = LLVMBuildSub(l->builder, id,
                        dimension_value(l, query_global_offset, d), "");
    }
    if (value) {
      LLVMValueRef size =
          dimension_value(l, global ? query_global_size : query_local_size, d);
      value = LLVMBuildAdd(l->builder,
                           LLVMBuildMul(l->builder, value, size, ""), id, "");
    } else {
      value = id;
    }
  }
  return value;
}

/* to_global, to_local, to_private and get_fence of `pointer`, from the
 * CPU target's CPU_ADDRESS_SPACE_SYMBOL (work_group_abi.h): it knows the
 * local memory, scratch and stacks of every work-group, so that a
 * pointer another work-item stored is placed right too. */
static LLVMValueRef address_space_query(lowering *l, work_item_query query,
                                        LLVMValueRef call) {
  LLVMBuilderRef b = l->builder;
  LLVMContextRef context = LLVMGetTypeContext(l->i64);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMValueRef pointer = LLVMGetOperand(call, 0);
  LLVMModuleRef module = LLVMGetGlobalParent(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMTypeRef type = LLVMFunctionType(i32, params, 2, 0);
  LLVMValueRef classify =
      LLVMGetNamedFunction(module, CPU_ADDRESS_SPACE_SYMBOL);
  if (!classify) {
    classify = LLVMAddFunction(module, CPU_ADDRESS_SPACE_SYMBOL, type);
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(classify, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(context, nounwind, 0));
  }
  LLVMValueRef args[2] = {LLVMBuildAddrSpaceCast(b, pointer, ptr, ""), l->wg};
  LLVMValueRef kind = LLVMBuildCall2(b, type, classify, args, 2, "space");
  LLVMValueRef is_local = LLVMBuildICmp(
      b, LLVMIntEQ, kind, LLVMConstInt(i32, cpu_address_local, 0), "");
  if (query == query_get_fence) {
    return LLVMBuildSelect(
        b, is_local, LLVMConstInt(LLVMTypeOf(call), 1, 0), /* LOCAL */
        LLVMConstInt(LLVMTypeOf(call), 2, 0), "");         /* GLOBAL */
  }
  unsigned wanted = query == query_to_global  ? cpu_address_global
                    : query == query_to_local ? cpu_address_local
                                              : cpu_address_private;
  LLVMValueRef kept =
      LLVMBuildICmp(b, LLVMIntEQ, kind, LLVMConstInt(i32, wanted, 0), "");
  LLVMTypeRef result = LLVMTypeOf(call);
  return LLVMBuildSelect(b, kept,
                         LLVMBuildAddrSpaceCast(b, pointer, result, ""),
                         LLVMConstPointerNull(result), "");
}

/* The query's value for a dimension argument that may be any i32. */
static LLVMValueRef query_value(lowering *l, work_item_query query,
                                LLVMValueRef dimension) {
  LLVMValueRef fallback = LLVMConstInt(l->i64, out_of_range_value(query), 0);
  if (LLVMIsAConstantInt(dimension)) {
    uint64_t d = LLVMConstIntGetZExtValue(dimension);
    return d < 3 ? dimension_value(l, query, (unsigned)d) : fallback;
  }
  LLVMValueRef value = fallback;
  for (unsigned d = 3; d-- > 0;) {
    LLVMValueRef is_d =
        LLVMBuildICmp(l->builder, LLVMIntEQ, dimension,
                      LLVMConstInt(LLVMTypeOf(dimension), d, 0), "");
    value = LLVMBuildSelect(l->builder, is_d, dimension_value(l, query, d),
                            value, "");
  }
  return value;
}

void cc_lower_work_items(LLVMValueRef function, LLVMValueRef wg,
                         LLVMValueRef local_id[3], LLVMValueRef global_id[3],
                         const uint32_t local_size[3], bool x_rows) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(wg));
  lowering l = {LLVMCreateBuilderInContext(context),
                LLVMInt64TypeInContext(context),
                wg,
                local_id,
                global_id,
                local_size,
                x_rows};
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef inst = LLVMGetFirstInstruction(block);
    while (inst) {
      LLVMValueRef next = LLVMGetNextInstruction(inst);
      work_item_query query = query_of(inst);
      if (query != query_none) {
        LLVMPositionBuilderBefore(l.builder, inst);
        LLVMValueRef value = NULL;
        if (query == query_work_dim) {
          value = cc_load_wg_field(l.builder, wg, LLVMTypeOf(inst),
                                   offsetof(cpu_work_group, work_dim), "");
        } else if (query == query_global_linear_id ||
                   query == query_local_linear_id) {
          value = linear_id(&l, query);
        } else if (query >= query_to_global && query <= query_get_fence) {
          value = address_space_query(&l, query, inst);
        } else if (query != query_fence) {
          value = query_value(&l, query, LLVMGetOperand(inst, 0));
          LLVMTypeRef type = LLVMTypeOf(inst);
          if (type != l.i64) value = LLVMBuildTrunc(l.builder, value, type, "");
        }
        if (value) LLVMReplaceAllUsesWith(inst, value);
        LLVMInstructionEraseFromParent(inst);
      }
      inst = next;
    }
  }
  LLVMDisposeBuilder(l.builder);
}

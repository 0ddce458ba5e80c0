/* clmux compiler — code generation: the work-group function, loops over the
 * work-items (z, y, x; x innermost) around a call of the kernel body. The
 * call carries an access group and the x loop lists it in
 * llvm.loop.parallel_accesses: work-items without barriers are independent,
 * and the inliner copies the group onto every access of the inlined body,
 * so the loop vectorizer widens x without runtime alias checks. A kernel
 * with barriers gets one such loop nest per region (barriers.c), each
 * calling the step function with its constant region number, so that after
 * inlining each nest holds only its region; after a nest, the barrier the
 * work-items stopped at selects the next nest. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/IRReader.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* C has no constructor for distinct metadata nodes; parse them. The nodes
 * belong to the context and outlive the template module. */
static const char loop_template[] =
    "define void @t() {\nentry:\n  br label %l\nl:\n"
    "  br label %l, !llvm.loop !0\n}\n"
    "!0 = distinct !{!0, !1, !2}\n"
    "!1 = !{!\"llvm.loop.vectorize.enable\", i1 true}\n"
    "!2 = !{!\"llvm.loop.parallel_accesses\", !3}\n"
    "!3 = distinct !{}\n";

/* The same for a short region loop, not to be unrolled: a region is
 * often small (a kernel's code between two barriers), and
 * over a few work-items the full unroller would get to it before the
 * vectorizer and leave a row of scalar copies. */
static const char region_loop_template[] =
    "define void @t() {\nentry:\n  br label %l\nl:\n"
    "  br label %l, !llvm.loop !0\n}\n"
    "!0 = distinct !{!0, !1, !2, !4}\n"
    "!1 = !{!\"llvm.loop.vectorize.enable\", i1 true}\n"
    "!2 = !{!\"llvm.loop.parallel_accesses\", !3}\n"
    "!3 = distinct !{}\n"
    "!4 = !{!\"llvm.loop.unroll.disable\"}\n";

/* A loop of vector-body calls, kept rolled: its body is a whole kernel's
 * code for a vector of work-items, often with loops of its own, and
 * copies of it would only cost compile time and code size. */
static const char rolled_loop_template[] =
    "define void @t() {\nentry:\n  br label %l\nl:\n"
    "  br label %l, !llvm.loop !0\n}\n"
    "!0 = distinct !{!0, !1}\n"
    "!1 = !{!\"llvm.loop.unroll.disable\"}\n";

/* Region loops up to this many work-items in x are kept rolled. */
#define SHORT_REGION_LOOP 32

/* A fresh loop ID and its access group, as values. */
static void loop_metadata(LLVMContextRef context, const char *text,
                          LLVMValueRef *loop_id, LLVMValueRef *access_group) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      text, strlen(text), "loop_template");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  *loop_id = NULL;
  if (access_group) *access_group = NULL;
  if (LLVMParseIRInContext(context, buffer, &module, &message)) {
    LLVMDisposeMessage(message); /* a fixed text: cannot happen */
    return;
  }
  LLVMValueRef t = LLVMGetNamedFunction(module, "t");
  LLVMValueRef branch = LLVMGetLastInstruction(LLVMGetLastBasicBlock(t));
  *loop_id = LLVMGetMetadata(branch,
                             LLVMGetMDKindIDInContext(context, "llvm.loop", 9));
  LLVMValueRef operands[4];
  if (access_group && LLVMGetMDNodeNumOperands(*loop_id) > 2) {
    LLVMGetMDNodeOperands(*loop_id, operands);
    LLVMValueRef pair[2];
    LLVMGetMDNodeOperands(operands[2], pair);
    *access_group = pair[1];
  }
  LLVMDisposeModule(module);
}

static void add_enum(LLVMValueRef function, LLVMAttributeIndex index,
                     const char *name) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(function, index,
                          LLVMCreateEnumAttribute(context, kind, 0));
}

/* i < bound as a rotated loop's exit test; `i` counts from 0. */
static LLVMValueRef next_index(LLVMBuilderRef builder, LLVMValueRef i,
                               unsigned step, LLVMValueRef *next) {
  LLVMTypeRef i64 = LLVMTypeOf(i);
  *next = LLVMBuildAdd(builder, i, LLVMConstInt(i64, step, 0), "");
  LLVMSetNUW(*next, 1);
  return *next;
}

/* What every loop nest of one work-group function shares. */
typedef struct nest_context {
  LLVMContextRef context;
  LLVMBuilderRef builder;
  LLVMValueRef function;
  LLVMValueRef body;
  LLVMTypeRef i64;
  LLVMValueRef *call_args; /* the kernel's arguments and wg filled in */
  unsigned arg_count;      /* the kernel's */
  LLVMValueRef size[3], base[3];
  bool parallel;
  LLVMValueRef *last_flags; /* step functions: the last item's barrier
                               flags, regions - 1 */
  unsigned flag_count;
  const cc_region_exits *exits; /* per region, or NULL: every flag */
  unsigned lanes;               /* a vector body's, else 0 */
  uint64_t x_multiple; /* the group's width, or 0: rows are multiples */
  /* What the entry reads the arguments and sizes with. */
  LLVMValueRef scalar_body;
  const cc_kernel_info *info;
  const bool *by_pointer;
  const uint32_t *local_size;
  bool x_rows;
  const char *symbol;
  LLVMValueRef args, wg; /* the work-group function's */
} nest_context;

/* The vector body's mask: the lanes from item `first` on that are below
 * `size` (all of them, as a constant, when every vector is whole). */
static LLVMValueRef lane_mask(nest_context *n, LLVMValueRef first,
                              LLVMValueRef size) {
  LLVMTypeRef i1 = LLVMInt1TypeInContext(n->context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(n->context);
  LLVMValueRef lanes[64];
  /* A row is a whole number of groups (one, unless merged). */
  if (n->x_multiple && n->x_multiple % n->lanes == 0) {
    for (unsigned l = 0; l < n->lanes; l++) lanes[l] = LLVMConstInt(i1, 1, 0);
    return LLVMConstVector(lanes, n->lanes);
  }
  LLVMTypeRef vector = LLVMVectorType(n->i64, n->lanes);
  LLVMValueRef zeros[64];
  for (unsigned l = 0; l < n->lanes; l++) {
    lanes[l] = LLVMConstInt(n->i64, l, 0);
    zeros[l] = LLVMConstInt(i32, 0, 0);
  }
  LLVMValueRef splat_mask = LLVMConstVector(zeros, n->lanes);
  LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
  LLVMValueRef at = LLVMBuildShuffleVector(
      n->builder,
      LLVMBuildInsertElement(n->builder, LLVMGetPoison(vector), first, zero,
                             ""),
      LLVMGetPoison(vector), splat_mask, "");
  LLVMValueRef end = LLVMBuildShuffleVector(
      n->builder,
      LLVMBuildInsertElement(n->builder, LLVMGetPoison(vector), size, zero, ""),
      LLVMGetPoison(vector), splat_mask, "");
  return LLVMBuildICmp(
      n->builder, LLVMIntULT,
      LLVMBuildAdd(n->builder, at, LLVMConstVector(lanes, n->lanes), ""), end,
      "lanes");
}

/* Whether the next region after `region` reads barrier j's flag: one of
 * the barriers it can stop at, unless it is the only way out (then the
 * next region is known) or the last one listed with no way to the end
 * (the default of the choice). */
static bool reads_flag(const nest_context *n, unsigned region, unsigned j) {
  if (!n->exits) return true;
  const cc_region_exits *e = &n->exits[region];
  for (unsigned k = 0; k < e->count; k++) {
    if (e->barriers[k] == j) return e->ends || k + 1 < e->count;
  }
  return false;
}

/* Stores zero into the last item's barrier flags that the choice after
 * `region` (a constant; NULL: no step function) reads. */
static void clear_last_flags(nest_context *n, LLVMValueRef region) {
  if (!region) return;
  unsigned r = (unsigned)LLVMConstIntGetZExtValue(region);
  for (unsigned j = 0; j < n->flag_count; j++) {
    if (!reads_flag(n, r, j)) continue;
    LLVMBuildStore(n->builder,
                   LLVMConstInt(LLVMInt8TypeInContext(n->context), 0, 0),
                   n->last_flags[j]);
  }
}

/* Calls the body for the work-item (a vector of them along x, with a
 * vector body) at local ids `id` and global ids `global`, with `region`
 * as its last argument if not NULL. */
static LLVMValueRef call_body(nest_context *n, LLVMValueRef id[3],
                              LLVMValueRef global[3], LLVMValueRef region) {
  unsigned a = n->arg_count;
  for (unsigned d = 0; d < 3; d++) {
    n->call_args[a + 1 + d] = id[d];
    n->call_args[a + 4 + d] = global[d];
  }
  if (region) n->call_args[a + 7] = region;
  if (n->lanes) {
    n->call_args[LLVMCountParams(n->body) - 1] =
        lane_mask(n, id[0], n->size[0]);
  }
  return LLVMBuildCall2(n->builder, LLVMGlobalGetValueType(n->body), n->body,
                        n->call_args, LLVMCountParams(n->body), "");
}

/* Appends a loop nest running every work-item through `body` (with
 * `region` as its last argument, if not NULL) and continuing at `exit`;
 * returns its first block. */
static LLVMBasicBlockRef build_nest(nest_context *n, LLVMValueRef region,
                                    LLVMBasicBlockRef exit) {
  LLVMContextRef context = n->context;
  LLVMBuilderRef builder = n->builder;
  LLVMBasicBlockRef z_loop =
      LLVMAppendBasicBlockInContext(context, n->function, "z");
  LLVMBasicBlockRef y_loop =
      LLVMAppendBasicBlockInContext(context, n->function, "y");
  LLVMBasicBlockRef x_loop =
      LLVMAppendBasicBlockInContext(context, n->function, "x");
  LLVMBasicBlockRef x_done =
      LLVMAppendBasicBlockInContext(context, n->function, "x.done");
  LLVMBasicBlockRef y_done =
      LLVMAppendBasicBlockInContext(context, n->function, "y.done");
  LLVMBasicBlockRef preheader =
      LLVMAppendBasicBlockInContext(context, n->function, "nest");
  LLVMPositionBuilderAtEnd(builder, preheader);
  clear_last_flags(n, region);
  LLVMBuildBr(builder, z_loop);

  LLVMValueRef zero = LLVMConstInt(n->i64, 0, 0);
  LLVMValueRef id[3], global[3], next[3];
  LLVMBasicBlockRef headers[3] = {x_loop, y_loop, z_loop};
  LLVMBasicBlockRef preheaders[3] = {y_loop, z_loop, preheader};
  for (unsigned d = 3; d-- > 0;) {
    LLVMPositionBuilderAtEnd(builder, headers[d]);
    id[d] = LLVMBuildPhi(builder, n->i64, d == 0 ? "lx" : d == 1 ? "ly" : "lz");
    global[d] = LLVMBuildAdd(builder, n->base[d], id[d], "");
    if (d > 0) LLVMBuildBr(builder, headers[d - 1]);
  }

  /* x: one work-item per iteration. */
  LLVMPositionBuilderAtEnd(builder, x_loop);
  LLVMValueRef call = call_body(n, id, global, region);
  LLVMValueRef loop_id = NULL, access_group = NULL;
  /* Not parallel: no forcing either; the cost model and runtime alias
   * checks decide, and a forced loop that cannot be widened would only
   * warn on stderr. */
  if (n->parallel) {
    /* Only short loops of known length are unrolled in full. */
    bool short_region =
        region && LLVMIsAConstantInt(n->size[0]) &&
        LLVMConstIntGetZExtValue(n->size[0]) <= SHORT_REGION_LOOP;
    loop_metadata(context, short_region ? region_loop_template : loop_template,
                  &loop_id, &access_group);
  }
  if (access_group) {
    unsigned kind = LLVMGetMDKindIDInContext(context, "llvm.access.group", 17);
    LLVMSetMetadata(call, kind, access_group);
  }
  LLVMBasicBlockRef latches[3] = {x_loop, x_done, y_done};
  LLVMBasicBlockRef exits[3] = {x_done, y_done, exit};
  for (unsigned d = 0; d < 3; d++) {
    if (d > 0) LLVMPositionBuilderAtEnd(builder, latches[d]);
    next_index(builder, id[d], d == 0 && n->lanes ? n->lanes : 1, &next[d]);
    LLVMValueRef more =
        LLVMBuildICmp(builder, LLVMIntULT, next[d], n->size[d], "");
    LLVMValueRef branch = LLVMBuildCondBr(builder, more, headers[d], exits[d]);
    LLVMValueRef id_of_loop = d == 0 ? loop_id : NULL;
    if (n->lanes)
      loop_metadata(context, rolled_loop_template, &id_of_loop, NULL);
    if (id_of_loop) {
      LLVMSetMetadata(branch, LLVMGetMDKindIDInContext(context, "llvm.loop", 9),
                      id_of_loop);
    }
    LLVMValueRef incoming[2] = {zero, next[d]};
    LLVMBasicBlockRef from[2] = {preheaders[d], latches[d]};
    LLVMAddIncoming(id[d], incoming, from, 2);
  }
  return preheader;
}

/* The entry's values: the kernel's arguments from the argument block,
 * wg, and the group's sizes and first global ids (all uniform), into n,
 * at the builder's position in a function taking `args` and `wg`. */
static void build_entry(nest_context *n, LLVMValueRef args, LLVMValueRef wg) {
  LLVMBuilderRef builder = n->builder;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(n->context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(n->context);
  LLVMTypeRef i64 = n->i64;
  for (unsigned i = 0; i < n->info->arg_count; i++) {
    LLVMValueRef index = LLVMConstInt(i64, n->info->args[i].offset, 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(builder, i8, args, &index, 1, "");
    if (n->by_pointer[i]) {
      n->call_args[i] = at;
    } else {
      n->call_args[i] = LLVMBuildLoad2(
          builder, LLVMTypeOf(LLVMGetParam(n->scalar_body, i)), at, "");
      LLVMSetAlignment(n->call_args[i],
                       (unsigned)cpu_arg_alignment(n->info->args[i].size));
    }
  }
  n->call_args[n->info->arg_count] = wg;
  for (unsigned d = 0; d < 3; d++) {
    bool runtime = !n->local_size[d] || (d == 0 && n->x_rows);
    LLVMValueRef items =
        runtime ? cc_load_wg_field(builder, wg, i32,
                                   offsetof(cpu_work_group, local_size) + 4 * d,
                                   "local_size")
                : NULL;
    if (!runtime) {
      n->size[d] = LLVMConstInt(i64, n->local_size[d], 0);
    } else if (!n->local_size[d]) {
      n->size[d] = LLVMBuildZExt(builder, items, i64, "");
    } else {
      /* A whole number of groups, ((items - 1) / width + 1) * width, the
       * subtraction in 32 bits: the vectorizer then knows the trip count a
       * non-zero multiple of the group width, and drops the scalar
       * remainder when that is a multiple of its vector. */
      LLVMValueRef width = LLVMConstInt(i64, n->local_size[d], 0);
      LLVMValueRef below = LLVMBuildZExt(
          builder, LLVMBuildSub(builder, items, LLVMConstInt(i32, 1, 0), ""),
          i64, "");
      LLVMValueRef groups =
          LLVMBuildNUWAdd(builder, LLVMBuildUDiv(builder, below, width, ""),
                          LLVMConstInt(i64, 1, 0), "groups");
      n->size[d] = LLVMBuildNUWMul(builder, groups, width, "row_items");
    }
    LLVMValueRef offset = cc_load_wg_field(
        builder, wg, i64, offsetof(cpu_work_group, global_offset) + 8 * d,
        "global_offset");
    LLVMValueRef group = cc_load_wg_field(
        builder, wg, i64, offsetof(cpu_work_group, group_id) + 8 * d,
        "group_id");
    /* A row of groups starts at its global offset; wg's group id is its
     * first group's (work_group_abi.h). Groups of code for any local size
     * may be the smaller ones at a non-uniform NDRange's edge: they start
     * at multiples of the enqueued size. */
    LLVMValueRef stride =
        n->local_size[d]
            ? n->size[d]
            : LLVMBuildZExt(
                  builder,
                  cc_load_wg_field(
                      builder, wg, i32,
                      offsetof(cpu_work_group, enqueued_local_size) + 4 * d,
                      "enqueued_local_size"),
                  i64, "");
    n->base[d] =
        d == 0 && n->x_rows
            ? offset
            : LLVMBuildAdd(builder, offset,
                           LLVMBuildMul(builder, group, stride, ""), "base");
  }
}

/* ---- Sub-groups in turns (progress.c) ---- */

/* Whether `function` calls the target's pause point. */
static bool calls_pause(LLVMValueRef function) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsACallInst(inst) &&
          strcmp(cc_callee_name(inst), CPU_PAUSE_SYMBOL) == 0) {
        return true;
      }
    }
  }
  return false;
}

/* The sub-groups of a region: vectors of lanes (single items without a
 * vector body) along x, then rows in y and z. */
static LLVMValueRef sub_groups_in_x(nest_context *n) {
  unsigned step = n->lanes ? n->lanes : 1;
  return LLVMBuildUDiv(n->builder,
                       LLVMBuildNUWAdd(n->builder, n->size[0],
                                       LLVMConstInt(n->i64, step - 1, 0), ""),
                       LLVMConstInt(n->i64, step, 0), "sub_groups_x");
}

/* run(args, wg, k) of work_group_abi.h: sub-group k through `region`. */
static LLVMValueRef build_sub_group_fn(const nest_context *outer,
                                       LLVMValueRef region) {
  nest_context n = *outer;
  LLVMModuleRef module = LLVMGetGlobalParent(outer->function);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(n.context, 0);
  LLVMTypeRef params[3] = {ptr, ptr, n.i64};
  char name[256];
  snprintf(name, sizeof name, "%s.sub_group.%llu", n.symbol,
           region ? (unsigned long long)LLVMConstIntGetZExtValue(region) : 0);
  LLVMValueRef function = LLVMAddFunction(
      module, name,
      LLVMFunctionType(LLVMVoidTypeInContext(n.context), params, 3, 0));
  LLVMSetLinkage(function, LLVMInternalLinkage);
  add_enum(function, LLVMAttributeFunctionIndex, "nounwind");
  n.function = function;
  n.builder = LLVMCreateBuilderInContext(n.context);
  n.call_args = calloc(LLVMCountParams(n.body), sizeof *n.call_args);
  if (!n.call_args) {
    LLVMDisposeBuilder(n.builder);
    LLVMDeleteFunction(function);
    return NULL;
  }
  LLVMPositionBuilderAtEnd(
      n.builder, LLVMAppendBasicBlockInContext(n.context, function, "entry"));
  build_entry(&n, LLVMGetParam(function, 0), LLVMGetParam(function, 1));
  LLVMValueRef k = LLVMGetParam(function, 2);
  LLVMValueRef in_x = sub_groups_in_x(&n);
  LLVMValueRef row = LLVMBuildUDiv(n.builder, k, in_x, "row");
  LLVMValueRef id[3] = {
      LLVMBuildNUWMul(n.builder, LLVMBuildURem(n.builder, k, in_x, ""),
                      LLVMConstInt(n.i64, n.lanes ? n.lanes : 1, 0), "lx"),
      LLVMBuildURem(n.builder, row, n.size[1], "ly"),
      LLVMBuildUDiv(n.builder, row, n.size[1], "lz")};
  LLVMValueRef global[3];
  for (unsigned d = 0; d < 3; d++) {
    global[d] = LLVMBuildAdd(n.builder, n.base[d], id[d], "");
  }
  call_body(&n, id, global, region);
  LLVMBuildRetVoid(n.builder);
  LLVMDisposeBuilder(n.builder);
  free(n.call_args);
  return function;
}

/* In place of a loop nest: the target runs the region's sub-groups in
 * turns (CPU_SUB_GROUPS_SYMBOL), so that one waiting for another in a
 * loop lets it run. */
static LLVMBasicBlockRef build_turns(nest_context *n, LLVMValueRef region,
                                     LLVMBasicBlockRef exit) {
  LLVMBuilderRef builder = n->builder;
  LLVMModuleRef module = LLVMGetGlobalParent(n->function);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(n->context, 0);
  LLVMTypeRef params[4] = {ptr, ptr, n->i64, ptr};
  LLVMTypeRef type =
      LLVMFunctionType(LLVMVoidTypeInContext(n->context), params, 4, 0);
  LLVMValueRef run_all = LLVMGetNamedFunction(module, CPU_SUB_GROUPS_SYMBOL);
  if (!run_all) {
    run_all = LLVMAddFunction(module, CPU_SUB_GROUPS_SYMBOL, type);
    add_enum(run_all, LLVMAttributeFunctionIndex, "nounwind");
  }
  LLVMValueRef run_one = build_sub_group_fn(n, region);
  /* Out of memory: the plain nest still runs every sub-group. */
  if (!run_one) return build_nest(n, region, exit);
  LLVMBasicBlockRef preheader =
      LLVMAppendBasicBlockInContext(n->context, n->function, "sub_groups");
  LLVMPositionBuilderAtEnd(builder, preheader);
  clear_last_flags(n, region);
  LLVMValueRef count = LLVMBuildNUWMul(
      builder, LLVMBuildNUWMul(builder, sub_groups_in_x(n), n->size[1], ""),
      n->size[2], "sub_groups");
  LLVMValueRef call_args[4] = {n->args, n->wg, count, run_one};
  LLVMBuildCall2(builder, type, run_all, call_args, 4, "");
  LLVMBuildBr(builder, exit);
  return preheader;
}

/* The nest of the scalar variant: the same work-items through `body`
 * alone, one at a time (the loop vectorizer may still widen it). */
static LLVMBasicBlockRef build_scalar_nest(const nest_context *vector_nest,
                                           bool parallel,
                                           LLVMBasicBlockRef exit) {
  nest_context n = *vector_nest;
  n.body = n.scalar_body;
  n.lanes = 0;
  n.parallel = parallel;
  return build_nest(&n, NULL, exit);
}

LLVMValueRef cc_build_work_group_loops(
    LLVMModuleRef module, LLVMValueRef body, LLVMValueRef vector_body,
    const cc_kernel_info *info, const bool *by_pointer,
    const uint32_t local_size[3], const char *symbol, bool parallel,
    bool x_rows, unsigned regions, uint64_t flags_offset,
    const cc_region_exits *exits, unsigned lanes, bool scalar_variant) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMValueRef function = LLVMAddFunction(
      module, symbol,
      LLVMFunctionType(LLVMVoidTypeInContext(context), params, 2, 0));
  for (unsigned p = 1; p <= 2; p++) {
    add_enum(function, p, "noalias");
    add_enum(function, p, "nocapture");
    add_enum(function, p, "readonly");
  }
  add_enum(function, LLVMAttributeFunctionIndex, "nounwind");
  LLVMValueRef args = LLVMGetParam(function, 0);
  LLVMValueRef wg = LLVMGetParam(function, 1);

  LLVMBasicBlockRef entry =
      LLVMAppendBasicBlockInContext(context, function, "entry");
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  nest_context n = {context,
                    builder,
                    function,
                    vector_body ? vector_body : body,
                    i64,
                    NULL,
                    info->arg_count,
                    {NULL},
                    {NULL},
                    parallel && !lanes,
                    NULL,
                    0,
                    NULL,
                    lanes,
                    local_size[0],
                    body,
                    info,
                    by_pointer,
                    local_size,
                    x_rows,
                    symbol,
                    args,
                    wg};
  LLVMBasicBlockRef (*build_region)(nest_context *, LLVMValueRef,
                                    LLVMBasicBlockRef) =
      calls_pause(n.body) ? build_turns : build_nest;

  /* Entry: the arguments and the group's first global id, uniform. */
  LLVMPositionBuilderAtEnd(builder, entry);
  n.call_args = calloc(LLVMCountParams(n.body), sizeof *n.call_args);
  if (!n.call_args) {
    LLVMDisposeBuilder(builder);
    LLVMDeleteFunction(function);
    return NULL;
  }
  build_entry(&n, args, wg);
  LLVMBasicBlockRef exit =
      LLVMAppendBasicBlockInContext(context, function, "exit");
  if (regions == 0) {
    LLVMBasicBlockRef nest = build_region(&n, NULL, exit);
    LLVMBasicBlockRef scalar_nest =
        scalar_variant ? build_scalar_nest(&n, parallel, exit) : NULL;
    LLVMPositionBuilderAtEnd(builder, entry);
    if (scalar_nest) {
      LLVMValueRef variant = cc_load_wg_field(
          builder, wg, i32, offsetof(cpu_work_group, variant), "variant");
      LLVMBuildCondBr(builder,
                      LLVMBuildICmp(builder, LLVMIntNE, variant,
                                    LLVMConstInt(i32, 0, 0), ""),
                      scalar_nest, nest);
    } else {
      LLVMBuildBr(builder, nest);
    }
  } else {
    /* Nest r runs region r; the region each ends at picks the next one
     * (0: the kernel returned). */
    LLVMBasicBlockRef *nests = calloc(regions, sizeof *nests);
    LLVMBasicBlockRef *afters = calloc(regions, sizeof *afters);
    n.last_flags = calloc(regions, sizeof *n.last_flags);
    if (!nests || !afters || !n.last_flags) {
      free(n.last_flags);
      free(nests);
      free(afters);
      free(n.call_args);
      LLVMDisposeBuilder(builder);
      LLVMDeleteFunction(function);
      return NULL;
    }
    /* The last item's barrier flags: all items stopped at the same
     * barrier, or returned. */
    LLVMPositionBuilderAtEnd(builder, entry);
    LLVMValueRef items = LLVMBuildNUWMul(
        builder, LLVMBuildNUWMul(builder, n.size[0], n.size[1], ""), n.size[2],
        "items");
    LLVMValueRef last =
        LLVMBuildNUWSub(builder, items, LLVMConstInt(i64, 1, 0), "");
    LLVMValueRef scratch = cc_load_wg_pointer(
        builder, wg, offsetof(cpu_work_group, scratch), "scratch");
    n.flag_count = regions - 1;
    n.exits = exits;
    for (unsigned j = 0; j < n.flag_count; j++) {
      LLVMValueRef at = LLVMBuildNUWAdd(
          builder,
          LLVMBuildNUWMul(builder, items,
                          LLVMConstInt(i64, flags_offset + j, 0), ""),
          last, "");
      n.last_flags[j] =
          LLVMBuildInBoundsGEP2(builder, i8, scratch, &at, 1, "last_flag");
    }
    for (unsigned r = 0; r < regions; r++) {
      afters[r] =
          LLVMAppendBasicBlockInContext(context, function, "region.done");
      nests[r] = build_region(&n, LLVMConstInt(i32, r, 0), afters[r]);
    }
    for (unsigned r = 0; r < regions; r++) {
      LLVMPositionBuilderAtEnd(builder, afters[r]);
      /* The sync region, once: the group's copies of uniform values. */
      unsigned a = info->arg_count;
      for (unsigned d = 0; d < 3; d++) {
        n.call_args[a + 1 + d] = LLVMConstInt(i64, 0, 0);
        n.call_args[a + 4 + d] = n.base[d];
      }
      n.call_args[a + 7] = LLVMConstInt(i32, regions, 0);
      LLVMBuildCall2(builder, LLVMGlobalGetValueType(body), body, n.call_args,
                     LLVMCountParams(body), "");
      /* Not a flag for the default: the end, or else the last barrier
       * the region can stop at. */
      const cc_region_exits *e = exits ? &exits[r] : NULL;
      unsigned fallback =
          e && !e->ends && e->count ? e->barriers[e->count - 1] + 1 : 0;
      LLVMValueRef next = LLVMConstInt(i32, fallback, 0);
      for (unsigned j = 0; j < n.flag_count; j++) {
        if (!reads_flag(&n, r, j)) continue;
        LLVMValueRef flag = LLVMBuildLoad2(builder, i8, n.last_flags[j], "");
        next = LLVMBuildSelect(
            builder,
            LLVMBuildICmp(builder, LLVMIntNE, flag, LLVMConstInt(i8, 0, 0), ""),
            LLVMConstInt(i32, j + 1, 0), next, "next");
      }
      LLVMValueRef choose = LLVMBuildSwitch(builder, next, exit, regions);
      for (unsigned to = 1; to < regions; to++) {
        LLVMAddCase(choose, LLVMConstInt(i32, to, 0), nests[to]);
      }
    }
    LLVMPositionBuilderAtEnd(builder, entry);
    LLVMBuildBr(builder, nests[0]);
    free(nests);
    free(afters);
    free(n.last_flags);
  }
  free(n.call_args);
  LLVMMoveBasicBlockAfter(exit, LLVMGetLastBasicBlock(function));
  LLVMPositionBuilderAtEnd(builder, exit);
  LLVMBuildRetVoid(builder);
  LLVMDisposeBuilder(builder);
  return function;
}

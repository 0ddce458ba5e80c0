/* clmux compiler — code generation: a second copy of a kernel's code after
 * a branch on the work-item's id (`if (i >= n) return;`, `if (i < n)`),
 * for the work-groups whose work-items all go the same way. Such a
 * branch makes what follows it run in some work-items only, so its loops
 * cannot run in step across the work-items (loop_barriers.c); in every
 * group but the one that straddles n they could.
 *
 * The branch compares the id, truncated, extended or shifted by values
 * the same in every work-item, with another such value. Over a group's
 * consecutive ids that is a monotone function unless it wraps around,
 * which the group's first and last id tell (the first is not above the
 * last); a monotone function crosses a threshold at most once, so the
 * comparison comes out the same in every work-item exactly when it does
 * at both ends. The branch block then tests that and goes either to the
 * original code or to the copy, where the branch tests the last id's
 * outcome: a value the same in every work-item, so the copy is not
 * partial and its loops can run in step. Guards inside the copied code
 * (the second test of `row < rows && col < cols`) join the first: the
 * copy is taken when each agrees, and branches on each one's outcome. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_DEPTH 16
#define MAX_CANDIDATES 4
#define MAX_GUARDS 3

static const char group_id_name[] = "_Z12get_group_idj";
static const char local_size_name[] = "_Z14get_local_sizej";
static const char global_offset_name[] = "_Z17get_global_offsetj";

static bool is_global_id_call(LLVMValueRef value) {
  return LLVMIsACallInst(value) &&
         strcmp(cc_callee_name(value), "_Z13get_global_idj") == 0 &&
         LLVMIsAConstantInt(LLVMGetOperand(value, 0));
}

/* The value a load reads: the only store to a plain slot, made in the
 * entry block before any load of it there. NULL if not so simple. */
static LLVMValueRef entry_stored_value(LLVMValueRef load) {
  LLVMValueRef slot = LLVMGetOperand(load, 0);
  if (!LLVMIsAAllocaInst(slot) || !cc_is_plain_slot(slot)) return NULL;
  LLVMValueRef value = cc_only_stored_value(slot);
  if (!value) return NULL;
  LLVMBasicBlockRef entry =
      LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(load)));
  for (LLVMValueRef inst = LLVMGetFirstInstruction(entry); inst;
       inst = LLVMGetNextInstruction(inst)) {
    if (inst == load) return NULL; /* read before the store */
    if (LLVMIsAStoreInst(inst) && LLVMGetOperand(inst, 1) == slot) {
      return value;
    }
  }
  return NULL;
}

/* The same in every work-item of a group: constants, the kernel's
 * arguments, the group's sizes and ids, arithmetic on them, and slots
 * set once from them on entry. */
static bool invariant(LLVMValueRef value, unsigned depth) {
  if (LLVMIsAConstant(value) || LLVMIsAArgument(value)) return true;
  if (!LLVMIsAInstruction(value) || depth > MAX_DEPTH) return false;
  if (LLVMIsALoadInst(value)) {
    LLVMValueRef stored = entry_stored_value(value);
    return stored && invariant(stored, depth + 1);
  }
  if (LLVMIsACallInst(value)) {
    return cc_is_group_uniform_query(cc_callee_name(value)) &&
           (LLVMGetNumArgOperands(value) == 0 ||
            LLVMIsAConstant(LLVMGetOperand(value, 0)));
  }
  switch (LLVMGetInstructionOpcode(value)) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr:
    case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMTrunc:
    case LLVMZExt: case LLVMSExt: case LLVMICmp: case LLVMSelect:
      break;
    default:
      return false;
  }
  int count = LLVMGetNumOperands(value);
  for (int i = 0; i < count; i++) {
    if (!invariant(LLVMGetOperand(value, (unsigned)i), depth + 1)) {
      return false;
    }
  }
  return true;
}

/* Whether `value` is get_global_id(d) through the steps that keep it
 * monotone over a group unless it wraps in one ring:
 *   outer := ext i32->i64 (inner) | inner
 *   inner := inner +- invariant | invariant + inner
 *          | trunc i64->i32 (id) | id
 * (loads of slots set once on entry are looked through). `stage` 2
 * allows an extension, 1 a truncation, 0 the id alone. */
static bool id_chain(LLVMValueRef value, int stage, unsigned depth) {
  if (depth > MAX_DEPTH || !LLVMIsAInstruction(value)) return false;
  if (is_global_id_call(value)) return true;
  if (LLVMIsALoadInst(value)) {
    LLVMValueRef stored = entry_stored_value(value);
    return stored && id_chain(stored, stage, depth + 1);
  }
  if (stage == 0) return false;
  LLVMTypeRef type = LLVMTypeOf(value);
  if (LLVMGetTypeKind(type) != LLVMIntegerTypeKind) return false;
  unsigned width = LLVMGetIntTypeWidth(type);
  LLVMValueRef a = LLVMGetOperand(value, 0);
  switch (LLVMGetInstructionOpcode(value)) {
    case LLVMZExt:
    case LLVMSExt:
      return stage == 2 && width == 64 &&
             LLVMGetIntTypeWidth(LLVMTypeOf(a)) == 32 && id_chain(a, 1, depth + 1);
    case LLVMTrunc:
      return width == 32 && id_chain(a, 0, depth + 1);
    case LLVMAdd:
    case LLVMSub: {
      LLVMValueRef b = LLVMGetOperand(value, 1);
      if (invariant(b, 0) && id_chain(a, 1, depth + 1)) return true;
      return LLVMGetInstructionOpcode(value) == LLVMAdd && invariant(a, 0) &&
             id_chain(b, 1, depth + 1);
    }
    default:
      return false;
  }
}

/* A call of the work-item function `name` (i64 (i32)) with `dimension`. */
static LLVMValueRef query(LLVMBuilderRef builder, LLVMModuleRef module,
                          const char *name, LLVMValueRef dimension) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef type = LLVMFunctionType(LLVMInt64TypeInContext(context), &i32, 1, 0);
  LLVMValueRef function = LLVMGetNamedFunction(module, name);
  if (!function) function = LLVMAddFunction(module, name, type);
  return LLVMBuildCall2(builder, type, function, &dimension, 1, "");
}

/* The invariant `value` (invariant() holds) at the builder's position,
 * which the entry block dominates: what is defined elsewhere is computed
 * again there (a guard's bound may be loaded in its own block). */
static LLVMValueRef materialize(LLVMBuilderRef builder, LLVMValueRef value) {
  if (!LLVMIsAInstruction(value)) return value;
  LLVMValueRef function = LLVMGetBasicBlockParent(LLVMGetInstructionParent(value));
  if (LLVMGetInstructionParent(value) == LLVMGetEntryBasicBlock(function)) {
    return value;
  }
  if (LLVMIsALoadInst(value)) {
    return materialize(builder, entry_stored_value(value));
  }
  LLVMValueRef copy = LLVMInstructionClone(value);
  int count = LLVMIsACallInst(value) ? (int)LLVMGetNumArgOperands(value)
                                     : LLVMGetNumOperands(value);
  for (int o = 0; o < count; o++) {
    LLVMSetOperand(copy, (unsigned)o,
                   materialize(builder, LLVMGetOperand(value, (unsigned)o)));
  }
  LLVMInsertIntoBuilder(builder, copy);
  return copy;
}

/* The chain `value` (id_chain holds) computed again with `id` for the
 * work-item's global id. */
static LLVMValueRef rebuild(LLVMBuilderRef builder, LLVMValueRef value,
                            LLVMValueRef id) {
  if (is_global_id_call(value)) return id;
  if (LLVMIsALoadInst(value)) {
    return rebuild(builder, entry_stored_value(value), id);
  }
  LLVMOpcode opcode = LLVMGetInstructionOpcode(value);
  LLVMValueRef a = LLVMGetOperand(value, 0);
  if (opcode != LLVMAdd && opcode != LLVMSub) {
    return LLVMBuildCast(builder, opcode, rebuild(builder, a, id),
                         LLVMTypeOf(value), "");
  }
  LLVMValueRef b = LLVMGetOperand(value, 1);
  bool chain_first = id_chain(a, 2, 0) && invariant(b, 0);
  return LLVMBuildBinOp(builder, opcode,
                        chain_first ? rebuild(builder, a, id)
                                    : materialize(builder, a),
                        chain_first ? materialize(builder, b)
                                    : rebuild(builder, b, id),
                        "");
}

/* The dimension of the global id in a chain. */
static LLVMValueRef chain_dimension(LLVMValueRef value) {
  while (!is_global_id_call(value)) {
    if (LLVMIsALoadInst(value)) {
      value = entry_stored_value(value);
    } else if (LLVMGetInstructionOpcode(value) == LLVMAdd &&
               !id_chain(LLVMGetOperand(value, 0), 2, 0)) {
      value = LLVMGetOperand(value, 1);
    } else {
      value = LLVMGetOperand(value, 0);
    }
  }
  return LLVMGetOperand(value, 0);
}

static bool is_signed(LLVMIntPredicate predicate) {
  return predicate == LLVMIntSLT || predicate == LLVMIntSLE ||
         predicate == LLVMIntSGT || predicate == LLVMIntSGE;
}

/* A branch on an ordering comparison of an id chain with an invariant:
 * which operand is the chain (0 or 1), or -1. */
static int guard_operand(LLVMValueRef branch) {
  if (!LLVMIsABranchInst(branch) || !LLVMIsConditional(branch) ||
      LLVMGetSuccessor(branch, 0) == LLVMGetSuccessor(branch, 1)) {
    return -1;
  }
  LLVMValueRef compare = LLVMGetCondition(branch);
  if (!LLVMIsAICmpInst(compare)) return -1;
  LLVMIntPredicate predicate = LLVMGetICmpPredicate(compare);
  if (predicate == LLVMIntEQ || predicate == LLVMIntNE) return -1;
  for (int side = 0; side < 2; side++) {
    if (id_chain(LLVMGetOperand(compare, (unsigned)side), 2, 0) &&
        invariant(LLVMGetOperand(compare, (unsigned)!side), 0)) {
      return side;
    }
  }
  return -1;
}

/* ---- The copy ----------------------------------------------------------- */

typedef struct region {
  cc_blocks blocks;             /* the function's */
  bool *inside;                 /* per block: copied */
  LLVMValueRef *from, *to;      /* value map, keys sorted in `map` */
  size_t mapped;
  cc_keyed *map;
} region;

/* A block holding only `ret void`: shared by both copies. */
static bool is_bare_return(LLVMBasicBlockRef block) {
  LLVMValueRef first = LLVMGetFirstInstruction(block);
  return first && LLVMIsAReturnInst(first) && LLVMGetNumOperands(first) == 0;
}

/* Marks what `branch_block`'s successors reach without passing through
 * it, but bare returns. False unless every marked block is entered only
 * from marked blocks and the branch block, which none reaches again. */
static bool mark_region(region *r, LLVMBasicBlockRef branch_block) {
  size_t *work = calloc(r->blocks.count + 1, sizeof *work), top = 0;
  if (!work) return false;
  long origin = cc_block_index(&r->blocks, branch_block);
  LLVMValueRef terminator = LLVMGetBasicBlockTerminator(branch_block);
  bool ok = origin >= 0;
  for (unsigned s = 0; ok && s < 2; s++) {
    long to = cc_block_index(&r->blocks, LLVMGetSuccessor(terminator, s));
    if (to < 0) ok = false;
    else if (!r->inside[to] && !is_bare_return(r->blocks.list[to])) {
      r->inside[to] = true;
      work[top++] = (size_t)to;
    }
  }
  while (ok && top) {
    size_t from = work[--top];
    unsigned successors = cc_successor_count(r->blocks.list[from]);
    for (unsigned s = 0; ok && s < successors; s++) {
      long to = cc_successor_index(&r->blocks, from, s);
      ok = to >= 0 && to != origin;
      if (ok && !r->inside[to] && !is_bare_return(r->blocks.list[to])) {
        r->inside[to] = true;
        work[top++] = (size_t)to;
      }
    }
  }
  free(work);
  /* Entered only from inside or from the branch block. */
  for (size_t b = 0; ok && b < r->blocks.count; b++) {
    if (r->inside[b] || (long)b == origin) continue;
    unsigned successors = cc_successor_count(r->blocks.list[b]);
    for (unsigned s = 0; ok && s < successors; s++) {
      long to = cc_successor_index(&r->blocks, b, s);
      ok = to < 0 || !r->inside[to];
    }
  }
  return ok;
}

static void map_add(region *r, LLVMValueRef from, LLVMValueRef to) {
  r->from[r->mapped] = from;
  r->to[r->mapped++] = to;
}

static LLVMValueRef mapped(const region *r, LLVMValueRef value) {
  long at = cc_keyed_find(r->map, r->mapped, value);
  return at < 0 ? value : r->to[at];
}

static bool used_only_inside(const region *r, LLVMValueRef value) {
  for (LLVMUseRef use = LLVMGetFirstUse(value); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    long b = LLVMIsAInstruction(user)
                 ? cc_block_index(&r->blocks, LLVMGetInstructionParent(user))
                 : -1;
    if (b < 0 || !r->inside[b]) return false;
  }
  return LLVMGetFirstUse(value) != NULL;
}

/* Room in the value map for the marked blocks, their instructions and
 * the entry block's slots. */
static bool reserve_map(region *r, LLVMValueRef function) {
  size_t values = 1;
  for (size_t b = 0; b < r->blocks.count; b++) {
    if (!r->inside[b]) continue;
    values++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(r->blocks.list[b]); i;
         i = LLVMGetNextInstruction(i)) {
      values++;
    }
  }
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(function));
       i; i = LLVMGetNextInstruction(i)) {
    values++;
  }
  r->from = calloc(values, sizeof *r->from);
  r->to = calloc(values, sizeof *r->to);
  r->map = calloc(values, sizeof *r->map);
  return r->from && r->to && r->map;
}

/* Copies the marked blocks to the end of the function (reserve_map
 * first); in the copy, edges from `origin` come from `copy_origin`. */
static void copy_region(region *r, LLVMBasicBlockRef origin,
                        LLVMBasicBlockRef copy_origin, LLVMBuilderRef builder) {
  LLVMValueRef function = LLVMGetBasicBlockParent(origin);
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
  map_add(r, LLVMBasicBlockAsValue(origin), LLVMBasicBlockAsValue(copy_origin));
  /* Slots used only in the copied code get their own in the copy: the
   * original's stores, in work-items that differ, must not make the
   * copy's loop counters look different between work-items. */
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i;
       i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAAllocaInst(i) || !used_only_inside(r, i)) continue;
    LLVMPositionBuilderBefore(builder, i);
    LLVMValueRef twin = LLVMBuildAlloca(builder, LLVMGetAllocatedType(i), "");
    LLVMSetAlignment(twin, LLVMGetAlignment(i));
    map_add(r, i, twin);
  }
  for (size_t b = 0; b < r->blocks.count; b++) {
    if (!r->inside[b]) continue;
    LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(context, function, "");
    map_add(r, LLVMBasicBlockAsValue(r->blocks.list[b]), LLVMBasicBlockAsValue(copy));
    LLVMPositionBuilderAtEnd(builder, copy);
    for (LLVMValueRef i = LLVMGetFirstInstruction(r->blocks.list[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef twin;
      if (LLVMIsAPHINode(i)) {
        twin = LLVMBuildPhi(builder, LLVMTypeOf(i), "");
      } else {
        twin = LLVMInstructionClone(i);
        LLVMInsertIntoBuilder(builder, twin);
      }
      map_add(r, i, twin);
    }
  }
  for (size_t m = 0; m < r->mapped; m++) r->map[m] = (cc_keyed){r->from[m], (unsigned)m};
  cc_keyed_sort(r->map, r->mapped);
  for (size_t m = 0; m < r->mapped; m++) {
    LLVMValueRef old = r->from[m], twin = r->to[m];
    if (!LLVMIsAInstruction(old)) continue;
    if (LLVMIsAPHINode(old)) {
      for (unsigned k = 0; k < LLVMCountIncoming(old); k++) {
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(old, k);
        LLVMValueRef value = mapped(r, LLVMGetIncomingValue(old, k));
        LLVMBasicBlockRef twin_from =
            LLVMValueAsBasicBlock(mapped(r, LLVMBasicBlockAsValue(from)));
        LLVMAddIncoming(twin, &value, &twin_from, 1);
      }
      continue;
    }
    int count = LLVMGetNumOperands(twin);
    for (int o = 0; o < count; o++) {
      LLVMValueRef operand = LLVMGetOperand(twin, (unsigned)o);
      LLVMValueRef replacement = mapped(r, operand);
      if (replacement != operand) LLVMSetOperand(twin, (unsigned)o, replacement);
    }
  }
}

/* PHIs of `block` that name `old` as a predecessor name `now` instead. */
static void rename_predecessor(LLVMBuilderRef builder, LLVMBasicBlockRef block,
                               LLVMBasicBlockRef old, LLVMBasicBlockRef now) {
  LLVMValueRef phi = LLVMGetFirstInstruction(block);
  while (phi && LLVMIsAPHINode(phi)) {
    LLVMValueRef next = LLVMGetNextInstruction(phi);
    LLVMPositionBuilderBefore(builder, phi);
    LLVMValueRef fresh = LLVMBuildPhi(builder, LLVMTypeOf(phi), "");
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
      LLVMValueRef value = LLVMGetIncomingValue(phi, k);
      if (from == old) from = now;
      LLVMAddIncoming(fresh, &value, &from, 1);
    }
    LLVMReplaceAllUsesWith(phi, fresh);
    LLVMInstructionEraseFromParent(phi);
    phi = next;
  }
}

/* At the end of `block`, before its branch: whether every work-item of
 * the group compares alike, and the outcome for the group's last id. */
static LLVMValueRef group_agrees(LLVMBuilderRef builder, LLVMModuleRef module,
                                 LLVMValueRef compare, int side,
                                 LLVMValueRef *last_outcome) {
  LLVMValueRef chain = LLVMGetOperand(compare, (unsigned)side);
  LLVMValueRef other =
      materialize(builder, LLVMGetOperand(compare, (unsigned)!side));
  LLVMValueRef dimension = chain_dimension(chain);
  LLVMValueRef size = query(builder, module, local_size_name, dimension);
  LLVMValueRef first = LLVMBuildAdd(
      builder,
      LLVMBuildMul(builder, query(builder, module, group_id_name, dimension),
                   size, ""),
      query(builder, module, global_offset_name, dimension), "");
  LLVMValueRef last = LLVMBuildSub(
      builder, LLVMBuildAdd(builder, first, size, ""),
      LLVMConstInt(LLVMTypeOf(size), 1, 0), "");
  LLVMValueRef at_first = rebuild(builder, chain, first);
  LLVMValueRef at_last = rebuild(builder, chain, last);
  LLVMIntPredicate predicate = LLVMGetICmpPredicate(compare);
  LLVMValueRef first_outcome =
      side == 0 ? LLVMBuildICmp(builder, predicate, at_first, other, "")
                : LLVMBuildICmp(builder, predicate, other, at_first, "");
  *last_outcome =
      side == 0 ? LLVMBuildICmp(builder, predicate, at_last, other, "")
                : LLVMBuildICmp(builder, predicate, other, at_last, "");
  LLVMValueRef no_wrap = LLVMBuildICmp(
      builder, is_signed(predicate) ? LLVMIntSLE : LLVMIntULE, at_first,
      at_last, "");
  return LLVMBuildAnd(
      builder, no_wrap,
      LLVMBuildICmp(builder, LLVMIntEQ, first_outcome, *last_outcome, ""), "");
}

/* Guard branches versioned together: the first ends the block whose
 * successors start the copied region, the others are inside it
 * (`if (row < rows && col < cols)` branches twice). */
typedef struct guards {
  LLVMValueRef branch[MAX_GUARDS];
  int side[MAX_GUARDS];
  unsigned count;
} guards;

/* Copies the region after the first guard's block; the block goes to
 * the copy when every guard compares alike in the whole group, and in
 * the copy each guard branches on the group's common outcome. */
static bool version(LLVMModuleRef module, const guards *g, region *r) {
  LLVMValueRef branch = g->branch[0];
  LLVMBasicBlockRef block = LLVMGetInstructionParent(branch);
  LLVMValueRef function = LLVMGetBasicBlockParent(block);
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMValueRef compare = LLVMGetCondition(branch);
  LLVMBasicBlockRef taken = LLVMGetSuccessor(branch, 0);
  LLVMBasicBlockRef other = LLVMGetSuccessor(branch, 1);
  if (!reserve_map(r, function)) return false;
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMBasicBlockRef original =
      LLVMAppendBasicBlockInContext(context, function, "");
  LLVMBasicBlockRef in_step =
      LLVMAppendBasicBlockInContext(context, function, "");
  copy_region(r, block, in_step, builder);
  LLVMPositionBuilderAtEnd(builder, original);
  LLVMBuildCondBr(builder, compare, taken, other);
  rename_predecessor(builder, taken, block, original);
  rename_predecessor(builder, other, block, original);
  LLVMPositionBuilderBefore(builder, branch);
  LLVMValueRef last_outcome[MAX_GUARDS], agrees = NULL;
  for (unsigned i = 0; i < g->count; i++) {
    LLVMValueRef agree =
        group_agrees(builder, module, LLVMGetCondition(g->branch[i]),
                     g->side[i], &last_outcome[i]);
    agrees = agrees ? LLVMBuildAnd(builder, agrees, agree, "") : agree;
  }
  LLVMBuildCondBr(builder, agrees, in_step, original);
  LLVMInstructionEraseFromParent(branch);
  for (unsigned i = 1; i < g->count; i++) {
    LLVMSetCondition(mapped(r, g->branch[i]), last_outcome[i]);
  }
  LLVMPositionBuilderAtEnd(builder, in_step);
  LLVMBuildCondBr(
      builder, last_outcome[0],
      LLVMValueAsBasicBlock(mapped(r, LLVMBasicBlockAsValue(taken))),
      LLVMValueAsBasicBlock(mapped(r, LLVMBasicBlockAsValue(other))));
  LLVMDisposeBuilder(builder);
  return true;
}

static void region_free(region *r) {
  cc_blocks_free(&r->blocks);
  free(r->inside);
  free(r->from);
  free(r->to);
  free(r->map);
}

/* How many loops `choose` takes with the guards' branches made to go one
 * way for every work-item: the most over their combinations of ways. */
static unsigned chosen_if_uniform(LLVMValueRef kernel, const guards *g,
                                  cc_loop_chooser choose) {
  LLVMValueRef condition[MAX_GUARDS];
  for (unsigned i = 0; i < g->count; i++) {
    condition[i] = LLVMGetCondition(g->branch[i]);
  }
  LLVMTypeRef i1 = LLVMTypeOf(LLVMGetCondition(g->branch[0]));
  unsigned best = 0;
  for (unsigned ways = 0; ways < 1u << g->count; ways++) {
    for (unsigned i = 0; i < g->count; i++) {
      LLVMSetCondition(g->branch[i], LLVMConstInt(i1, (ways >> i) & 1, 0));
    }
    unsigned chosen = choose(kernel);
    if (chosen > best) best = chosen;
  }
  for (unsigned i = 0; i < g->count; i++) {
    LLVMSetCondition(g->branch[i], condition[i]);
  }
  return best;
}

/* The guard ending block b, then those inside its marked region. */
static void collect_guards(const region *r, size_t b, int side, guards *g) {
  g->branch[0] = LLVMGetBasicBlockTerminator(r->blocks.list[b]);
  g->side[0] = side;
  g->count = 1;
  for (size_t i = 0; i < r->blocks.count && g->count < MAX_GUARDS; i++) {
    if (!r->inside[i]) continue;
    LLVMValueRef branch = LLVMGetBasicBlockTerminator(r->blocks.list[i]);
    int inner = branch ? guard_operand(branch) : -1;
    if (inner < 0) continue;
    g->branch[g->count] = branch;
    g->side[g->count++] = inner;
  }
}

bool cc_version_id_guard(LLVMModuleRef module, LLVMValueRef kernel,
                         cc_loop_chooser choose) {
  region r = {0};
  bool done = false;
  if (cc_blocks_init(&r.blocks, kernel) &&
      (r.inside = calloc(r.blocks.count + 1, sizeof *r.inside))) {
    unsigned tried = 0;
    for (size_t b = 0; b < r.blocks.count && !done && tried < MAX_CANDIDATES;
         b++) {
      LLVMValueRef branch = LLVMGetBasicBlockTerminator(r.blocks.list[b]);
      int side = branch ? guard_operand(branch) : -1;
      if (side < 0) continue;
      tried++;
      memset(r.inside, 0, r.blocks.count * sizeof *r.inside);
      if (!mark_region(&r, r.blocks.list[b])) continue;
      guards g;
      collect_guards(&r, b, side, &g);
      if (chosen_if_uniform(kernel, &g, choose) == 0) continue;
      done = version(module, &g, &r);
    }
  }
  region_free(&r);
  return done;
}

/* clmux compiler — code generation: kernels with barriers become a step
 * function, `i32 step(..., i32 region)`, that runs one work-item from the
 * start of `region` (0: the kernel's entry, j: just after barrier j) to the
 * next barrier, whose number it returns (0 at the end of the kernel). The
 * work-group function runs every work-item through one region, then the
 * next (loops.c); all work-items reach the same barrier, so the last
 * one's picks the next region: barrier j sets the item's flag j in
 * scratch (a flag per barrier: stores the optimizer cannot merge into
 * one, which would drop their parallel-access marks). Which barriers
 * each region can reach first is worked out here (cc_region_exits), so
 * that the choice after a region reads only their flags. A last region,
 * `sync`, run once after each region's loops, copies uniform values (see
 * uniformity.c) from the last item's slots to one copy for the group.
 *
 * What crosses a barrier lives in wg->scratch, one slot per value laid out
 * struct-of-arrays (slot base + linear local id * slot size), so work-item
 * x+1 uses the address after work-item x and the region loops vectorize.
 * Scalars live in scratch only across the barrier: a region loads the
 * slots live on its entry into ordinary stack slots (promoted to registers
 * later) and the barrier block stores them back. Stack objects that are
 * not plain scalars (private arrays, structs used through pointers) live
 * in scratch all the time: shared stack memory would be wrong for the
 * parallel x loop. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool cc_is_barrier_name(const char *name) {
  return strcmp(name, "_Z7barrierj") == 0 ||
         strncmp(name, "_Z18work_group_barrier", 22) == 0;
}

static bool is_barrier_call(LLVMValueRef inst) {
  return LLVMIsACallInst(inst) && cc_is_barrier_name(cc_callee_name(inst));
}

bool cc_has_barrier(LLVMValueRef function) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (is_barrier_call(inst)) return true;
    }
  }
  return false;
}

/* Moves `first` and the rest of its block into a new block placed after
 * it, to which the old block branches. No PHI may name the old block. */
static LLVMBasicBlockRef split_before(LLVMBuilderRef builder,
                                      LLVMValueRef first) {
  LLVMBasicBlockRef block = LLVMGetInstructionParent(first);
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(first));
  LLVMBasicBlockRef after = LLVMGetNextBasicBlock(block);
  LLVMBasicBlockRef tail =
      after ? LLVMInsertBasicBlockInContext(context, after, "")
            : LLVMAppendBasicBlockInContext(context,
                                            LLVMGetBasicBlockParent(block), "");
  LLVMPositionBuilderAtEnd(builder, tail);
  for (LLVMValueRef inst = first; inst;) {
    LLVMValueRef next = LLVMGetNextInstruction(inst);
    LLVMInstructionRemoveFromParent(inst);
    LLVMInsertIntoBuilder(builder, inst);
    inst = next;
  }
  LLVMPositionBuilderAtEnd(builder, block);
  LLVMBuildBr(builder, tail);
  return tail;
}

/* Gives each barrier a block of its own: {barrier; br after}. */
static void isolate_barriers(LLVMValueRef function, LLVMBuilderRef builder) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
  for (LLVMBasicBlockRef block = entry; block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (!is_barrier_call(inst)) continue;
      /* The entry block will get allocas: keep barriers out of it. */
      if (LLVMGetPreviousInstruction(inst) || block == entry) {
        block = split_before(builder, inst);
      }
      split_before(builder, LLVMGetNextInstruction(inst));
      break; /* the rest of the block is now the next block */
    }
  }
}

static bool is_lifetime_marker(LLVMValueRef inst) {
  if (!LLVMIsACallInst(inst)) return false;
  const char *name = cc_callee_name(inst);
  return strncmp(name, "llvm.lifetime.", 14) == 0;
}

/* A scalar stack slot: only whole, non-volatile loads and stores of its
 * type touch it (and lifetime markers, before they are dropped), so a copy
 * of the value is the whole object. */
bool cc_is_plain_slot(LLVMValueRef alloca) {
  LLVMTypeRef type = LLVMGetAllocatedType(alloca);
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  if (kind == LLVMArrayTypeKind || kind == LLVMStructTypeKind) return false;
  for (LLVMUseRef use = LLVMGetFirstUse(alloca); use;
       use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (LLVMIsALoadInst(user)) {
      if (LLVMTypeOf(user) != type || LLVMGetVolatile(user)) return false;
    } else if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 1) != alloca || LLVMGetVolatile(user) ||
          LLVMTypeOf(LLVMGetOperand(user, 0)) != type) {
        return false;
      }
    } else if (!is_lifetime_marker(user)) {
      return false;
    }
  }
  return true;
}

typedef struct step_state {
  LLVMContextRef context;
  LLVMBuilderRef builder;
  LLVMTargetDataRef data;
  LLVMTypeRef i8, i32, i64;
  LLVMValueRef function;
  LLVMValueRef *slots; /* every alloca of the function */
  unsigned slot_count;
  bool *in_scratch;            /* per slot */
  bool *recomputed;            /* per slot: computed again after barriers */
  LLVMValueRef *definitions;   /* per slot: its only stored value, or NULL */
  bool *plain;                 /* per slot: is_plain_slot */
  bool *uniform;               /* per slot: the same in every work-item */
  LLVMValueRef *scratch_last;  /* per uniform slot: the last item's copy */
  LLVMValueRef *shadow_at;     /* per uniform slot: the group's copy */
  LLVMValueRef shadow_scope;   /* alias scope list of the shadow copies */
  LLVMValueRef *scratch_at;    /* per slot: its address for this item */
  unsigned *align;             /* per slot */
  LLVMBasicBlockRef *barriers; /* blocks {barrier; br after} */
  unsigned barrier_count;
  uint64_t *live; /* barrier_count x words */
  size_t words;
  uint64_t scratch_size; /* per work-item */
  uint64_t flags_offset; /* of the barrier-reached flags */
  LLVMValueRef *flag_at; /* per barrier: this item's flag */
} step_state;

static bool bit(const uint64_t *set, unsigned i) {
  return (set[i / 64] >> (i % 64)) & 1;
}

static cc_status collect(step_state *s) {
  unsigned slot_capacity = 0, barrier_capacity = 0;
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(s->function); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef first = LLVMGetFirstInstruction(block);
    if (first && is_barrier_call(first)) barrier_capacity++;
    for (LLVMValueRef inst = first; inst; inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsAAllocaInst(inst)) slot_capacity++;
    }
  }
  s->slots = calloc(slot_capacity + 1, sizeof *s->slots);
  s->in_scratch = calloc(slot_capacity + 1, sizeof *s->in_scratch);
  s->recomputed = calloc(slot_capacity + 1, sizeof *s->recomputed);
  s->definitions = calloc(slot_capacity + 1, sizeof *s->definitions);
  s->plain = calloc(slot_capacity + 1, sizeof *s->plain);
  s->uniform = calloc(slot_capacity + 1, sizeof *s->uniform);
  s->scratch_last = calloc(slot_capacity + 1, sizeof *s->scratch_last);
  s->shadow_at = calloc(slot_capacity + 1, sizeof *s->shadow_at);
  s->scratch_at = calloc(slot_capacity + 1, sizeof *s->scratch_at);
  s->align = calloc(slot_capacity + 1, sizeof *s->align);
  s->barriers = calloc(barrier_capacity + 1, sizeof *s->barriers);
  s->words = (slot_capacity + 63) / 64;
  s->live = calloc(barrier_capacity * s->words + 1, sizeof *s->live);
  s->flag_at = calloc(barrier_capacity + 1, sizeof *s->flag_at);
  if (!s->slots || !s->in_scratch || !s->recomputed || !s->definitions ||
      !s->plain || !s->uniform || !s->scratch_last || !s->shadow_at ||
      !s->scratch_at || !s->align || !s->barriers || !s->live || !s->flag_at) {
    return cc_error_out_of_memory;
  }
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(s->function); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef first = LLVMGetFirstInstruction(block);
    if (first && is_barrier_call(first))
      s->barriers[s->barrier_count++] = block;
    for (LLVMValueRef inst = first; inst; inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsAAllocaInst(inst)) s->slots[s->slot_count++] = inst;
    }
  }
  return cc_success;
}

/* Drops lifetime markers (scratch slots are not allocas) and decides
 * which slots go to scratch. */
static cc_status choose_scratch_slots(step_state *s, unsigned arg_count) {
  LLVMValueRef wg = LLVMGetParam(s->function, arg_count);
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(s->function); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef inst = LLVMGetFirstInstruction(block);
    while (inst) {
      LLVMValueRef next = LLVMGetNextInstruction(inst);
      if (is_lifetime_marker(inst)) LLVMInstructionEraseFromParent(inst);
      inst = next;
    }
  }
  LLVMBasicBlockRef *after = calloc(s->barrier_count + 1, sizeof *after);
  if (!after) return cc_error_out_of_memory;
  for (unsigned j = 0; j < s->barrier_count; j++) {
    after[j] = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(s->barriers[j]), 0);
  }
  bool ok = cc_slot_liveness(s->function, s->slots, s->slot_count, after,
                             s->barrier_count, s->live);
  free(after);
  if (!ok) return cc_error_out_of_memory;
  for (unsigned a = 0; a < s->slot_count; a++) {
    s->plain[a] = cc_is_plain_slot(s->slots[a]);
    if (s->plain[a]) s->definitions[a] = cc_only_stored_value(s->slots[a]);
  }
  if (!cc_uniform_slots(s->function, arg_count, s->slots, s->plain,
                        s->slot_count, s->uniform)) {
    return cc_error_out_of_memory;
  }
  for (unsigned a = 0; a < s->slot_count; a++) {
    bool plain = cc_is_plain_slot(s->slots[a]);
    bool live = false;
    for (unsigned j = 0; plain && j < s->barrier_count && !live; j++) {
      live = bit(s->live + j * s->words, a);
    }
    if (live) {
      unsigned budget = 24;
      LLVMValueRef stored = s->definitions[a];
      s->recomputed[a] = stored && cc_can_recompute(stored, wg, &budget);
    }
    s->in_scratch[a] = !plain || (live && !s->recomputed[a]);
    /* Only plain slots are copied at barriers. */
    if (!plain) {
      for (unsigned j = 0; j < s->barrier_count; j++) {
        s->live[j * s->words + a / 64] &= ~(1ull << (a % 64));
      }
    }
  }
  return cc_success;
}

/* The size of a slot's object and its alignment. */
static uint64_t slot_size(step_state *s, unsigned a) {
  LLVMValueRef alloca = s->slots[a];
  LLVMTypeRef type = LLVMGetAllocatedType(alloca);
  uint64_t size = LLVMABISizeOfType(s->data, type);
  LLVMValueRef count = LLVMGetOperand(alloca, 0);
  if (LLVMIsAConstantInt(count)) size *= LLVMConstIntGetZExtValue(count);
  unsigned align = LLVMGetAlignment(alloca);
  unsigned abi = LLVMABIAlignmentOfType(s->data, type);
  s->align[a] = align > abi ? align : abi;
  return (size + s->align[a] - 1) / s->align[a] * s->align[a];
}

/* In the new entry block: every alloca, this work-item's scratch slot
 * addresses, then the jump to the region. */
static void build_dispatch(step_state *s, LLVMValueRef wg,
                           const LLVMValueRef local_id[3],
                           const uint32_t local_size[3], LLVMValueRef region,
                           LLVMBasicBlockRef *region_entries) {
  LLVMBasicBlockRef old_entry = LLVMGetEntryBasicBlock(s->function);
  LLVMBasicBlockRef dispatch =
      LLVMInsertBasicBlockInContext(s->context, old_entry, "dispatch");
  LLVMBuilderRef b = s->builder;
  LLVMPositionBuilderAtEnd(b, dispatch);
  for (unsigned a = 0; a < s->slot_count; a++) {
    LLVMInstructionRemoveFromParent(s->slots[a]);
    LLVMInsertIntoBuilder(b, s->slots[a]);
  }
  LLVMValueRef size[3];
  for (unsigned d = 0; d < 3; d++) {
    size[d] =
        local_size[d]
            ? LLVMConstInt(s->i64, local_size[d], 0)
            : LLVMBuildZExt(
                  b,
                  cc_load_wg_field(b, wg, s->i32,
                                   offsetof(cpu_work_group, local_size) + 4 * d,
                                   "local_size"),
                  s->i64, "");
  }
  LLVMValueRef items =
      LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, size[0], size[1], ""), size[2], "");
  LLVMValueRef linear = LLVMBuildNUWAdd(
      b, local_id[0],
      LLVMBuildNUWMul(
          b, size[0],
          LLVMBuildNUWAdd(b, local_id[1],
                          LLVMBuildNUWMul(b, size[1], local_id[2], ""), ""),
          ""),
      "linear_id");
  LLVMValueRef scratch =
      cc_load_wg_pointer(b, wg, offsetof(cpu_work_group, scratch), "scratch");
  uint64_t offset = 0;
  for (unsigned a = 0; a < s->slot_count; a++) {
    if (!s->in_scratch[a]) continue;
    uint64_t size_a = slot_size(s, a);
    offset = (offset + s->align[a] - 1) / s->align[a] * s->align[a];
    LLVMValueRef base_index =
        LLVMBuildNUWMul(b, items, LLVMConstInt(s->i64, offset, 0), "");
    LLVMValueRef base =
        LLVMBuildInBoundsGEP2(b, s->i8, scratch, &base_index, 1, "");
    LLVMValueRef item_index =
        LLVMBuildNUWMul(b, linear, LLVMConstInt(s->i64, size_a, 0), "");
    s->scratch_at[a] =
        LLVMBuildInBoundsGEP2(b, s->i8, base, &item_index, 1, "slot");
    if (s->plain[a] && s->uniform[a]) {
      LLVMValueRef last_index = LLVMBuildNUWMul(
          b, LLVMBuildNUWSub(b, items, LLVMConstInt(s->i64, 1, 0), ""),
          LLVMConstInt(s->i64, size_a, 0), "");
      s->scratch_last[a] =
          LLVMBuildInBoundsGEP2(b, s->i8, base, &last_index, 1, "uniform");
    }
    offset += size_a;
  }
  /* A byte per barrier: the work-group function reads the last item's
   * after a region's loops (a value leaving the loops would stop
   * vectorization once the optimizer threads branches on it). */
  s->flags_offset = offset;
  for (unsigned j = 0; j < s->barrier_count; j++) {
    LLVMValueRef base_index =
        LLVMBuildNUWMul(b, items, LLVMConstInt(s->i64, offset + j, 0), "");
    LLVMValueRef base =
        LLVMBuildInBoundsGEP2(b, s->i8, scratch, &base_index, 1, "");
    s->flag_at[j] = LLVMBuildInBoundsGEP2(b, s->i8, base, &linear, 1, "flag");
  }
  offset += s->barrier_count;
  /* After every item's part, one copy of each uniform slot for the whole
   * group, which the sync region fills from the last item's after each
   * region's loops: loaded but never stored inside them, so it is loop
   * invariant there. Counting it per item overstates, harmlessly. */
  LLVMValueRef shadow_index =
      LLVMBuildNUWMul(b, items, LLVMConstInt(s->i64, offset, 0), "");
  LLVMValueRef shadow =
      LLVMBuildInBoundsGEP2(b, s->i8, scratch, &shadow_index, 1, "shadow");
  uint64_t shadow_end = 0;
  for (unsigned a = 0; a < s->slot_count; a++) {
    if (!s->scratch_last[a]) continue;
    shadow_end = (shadow_end + s->align[a] - 1) / s->align[a] * s->align[a];
    LLVMValueRef at = LLVMConstInt(s->i64, shadow_end, 0);
    s->shadow_at[a] = LLVMBuildInBoundsGEP2(b, s->i8, shadow, &at, 1, "");
    shadow_end += LLVMABISizeOfType(s->data, LLVMGetAllocatedType(s->slots[a]));
  }
  s->scratch_size = (offset + shadow_end + 15) / 16 * 16;
  LLVMValueRef which =
      LLVMBuildSwitch(b, region, old_entry, s->barrier_count + 1);
  for (unsigned j = 0; j < s->barrier_count; j++) {
    LLVMAddCase(which, LLVMConstInt(s->i32, j + 1, 0), region_entries[j]);
  }
  LLVMAddCase(which, LLVMConstInt(s->i32, s->barrier_count + 1, 0),
              region_entries[s->barrier_count]);
}

/* The sync region: the last item's uniform slots to the group's copies. */
static void build_sync(step_state *s, LLVMBasicBlockRef block) {
  LLVMPositionBuilderAtEnd(s->builder, block);
  unsigned scope = LLVMGetMDKindIDInContext(s->context, "alias.scope", 11);
  for (unsigned a = 0; a < s->slot_count; a++) {
    if (!s->shadow_at[a]) continue;
    LLVMTypeRef type = LLVMGetAllocatedType(s->slots[a]);
    LLVMValueRef value =
        LLVMBuildLoad2(s->builder, type, s->scratch_last[a], "");
    LLVMSetAlignment(value, s->align[a]);
    LLVMValueRef store = LLVMBuildStore(s->builder, value, s->shadow_at[a]);
    LLVMSetAlignment(store, s->align[a]);
    if (s->shadow_scope) LLVMSetMetadata(store, scope, s->shadow_scope);
  }
  LLVMBuildRet(s->builder, LLVMConstInt(s->i32, 0, 0));
}

/* A fresh alias scope list (C has no constructor for distinct nodes). */
static LLVMValueRef new_alias_scope(LLVMContextRef context) {
  static const char text[] =
      "define void @t(ptr %p) {\n  %v = load i8, ptr %p, !alias.scope !0\n"
      "  ret void\n}\n!0 = !{!1}\n!1 = distinct !{!1, !2}\n"
      "!2 = distinct !{!2}\n";
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      text, strlen(text), "scope_template");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  if (LLVMParseIRInContext(context, buffer, &module, &message)) {
    LLVMDisposeMessage(message);
    return NULL;
  }
  LLVMValueRef load = LLVMGetFirstInstruction(
      LLVMGetEntryBasicBlock(LLVMGetNamedFunction(module, "t")));
  LLVMValueRef list = LLVMGetMetadata(
      load, LLVMGetMDKindIDInContext(context, "alias.scope", 11));
  LLVMDisposeModule(module);
  return list;
}

/* Every other memory access of the function misses the shadow copies. */
static void mark_not_shadow(step_state *s) {
  if (!s->shadow_scope) return;
  unsigned scope = LLVMGetMDKindIDInContext(s->context, "alias.scope", 11);
  unsigned noalias = LLVMGetMDKindIDInContext(s->context, "noalias", 7);
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(s->function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      bool access = LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst) ||
                    LLVMIsAMemIntrinsic(inst);
      if (access && !LLVMGetMetadata(inst, scope)) {
        LLVMSetMetadata(inst, noalias, s->shadow_scope);
      }
    }
  }
}

/* Objects that are not plain scalars now live in scratch for good. */
static void replace_object_slots(step_state *s) {
  for (unsigned a = 0; a < s->slot_count; a++) {
    if (!s->in_scratch[a] || cc_is_plain_slot(s->slots[a])) continue;
    LLVMReplaceAllUsesWith(s->slots[a], s->scratch_at[a]);
    LLVMInstructionEraseFromParent(s->slots[a]);
    s->slots[a] = NULL;
  }
}

/* Copies the slots live after barrier j between stack and scratch, or
 * computes them again. */
static void copy_live(step_state *s, unsigned j, bool to_scratch) {
  const uint64_t *live = s->live + j * s->words;
  for (unsigned a = 0; a < s->slot_count; a++) {
    if (!s->slots[a] || !bit(live, a)) continue;
    if (s->recomputed[a]) {
      if (!to_scratch) {
        LLVMValueRef value = cc_recompute(s->builder, s->slots, s->definitions,
                                          s->slot_count, s->definitions[a]);
        LLVMBuildStore(s->builder, value, s->slots[a]);
      }
      continue;
    }
    LLVMTypeRef type = LLVMGetAllocatedType(s->slots[a]);
    /* A uniform value comes from the group's copy: one address. */
    LLVMValueRef from = to_scratch        ? s->slots[a]
                        : s->shadow_at[a] ? s->shadow_at[a]
                                          : s->scratch_at[a];
    LLVMValueRef to = to_scratch ? s->scratch_at[a] : s->slots[a];
    LLVMValueRef value = LLVMBuildLoad2(s->builder, type, from, "");
    LLVMSetAlignment(value, s->align[a]);
    if (!to_scratch && s->shadow_at[a] && s->shadow_scope) {
      LLVMSetMetadata(value,
                      LLVMGetMDKindIDInContext(s->context, "alias.scope", 11),
                      s->shadow_scope);
    }
    LLVMSetAlignment(LLVMBuildStore(s->builder, value, to), s->align[a]);
  }
}

static void free_state(step_state *s) {
  free(s->slots);
  free(s->in_scratch);
  free(s->recomputed);
  free(s->definitions);
  free(s->plain);
  free(s->uniform);
  free(s->scratch_last);
  free(s->shadow_at);
  free(s->scratch_at);
  free(s->align);
  free(s->barriers);
  free(s->live);
  free(s->flag_at);
}

void cc_region_exits_free(cc_region_exits *exits, unsigned regions) {
  for (unsigned r = 0; exits && r < regions; r++) free(exits[r].barriers);
  free(exits);
}

/* Where region `start` (its first block) stops: the returns it reaches, a
 * barrier's `ret j + 1` or the kernel's `ret 0`. `seen` is scratch. */
static bool find_exits(const cc_blocks *blocks, long start, bool *seen,
                       long *stack, bool *reached, unsigned barrier_count,
                       cc_region_exits *exits) {
  memset(seen, 0, blocks->count * sizeof *seen);
  memset(reached, 0, barrier_count * sizeof *reached);
  size_t depth = 0;
  stack[depth++] = start;
  seen[start] = true;
  while (depth) {
    long b = stack[--depth];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks->list[b]);
    if (term && LLVMGetInstructionOpcode(term) == LLVMRet) {
      LLVMValueRef value =
          LLVMGetNumOperands(term) ? LLVMGetOperand(term, 0) : NULL;
      if (!value || !LLVMIsAConstantInt(value)) return false;
      unsigned long long code = LLVMConstIntGetZExtValue(value);
      if (code == 0) {
        exits->ends = true;
      } else if (code <= barrier_count) {
        reached[code - 1] = true;
      } else {
        return false;
      }
      continue;
    }
    unsigned successors = cc_successor_count(blocks->list[b]);
    for (unsigned s = 0; s < successors; s++) {
      long next = cc_successor_index(blocks, (size_t)b, s);
      if (next < 0) return false;
      if (seen[next]) continue;
      seen[next] = true;
      stack[depth++] = next;
    }
  }
  for (unsigned j = 0; j < barrier_count; j++) exits->count += reached[j];
  exits->barriers = malloc((exits->count + 1) * sizeof *exits->barriers);
  if (!exits->barriers) return false;
  unsigned at = 0;
  for (unsigned j = 0; j < barrier_count; j++) {
    if (reached[j]) exits->barriers[at++] = j;
  }
  return true;
}

/* The exits of every region of step function `function`: region 0 starts
 * where the dispatch's default goes, region j + 1 at entries[j]. NULL
 * when out of memory or the returns are not the step function's. */
static cc_region_exits *region_exits(LLVMValueRef function,
                                     unsigned barrier_count,
                                     LLVMBasicBlockRef *entries) {
  cc_blocks blocks = {0};
  unsigned regions = barrier_count + 1;
  cc_region_exits *exits = calloc(regions, sizeof *exits);
  bool *seen = NULL, *reached = NULL;
  long *stack = NULL;
  bool ok = exits && cc_blocks_init(&blocks, function);
  if (ok) {
    seen = malloc(blocks.count * sizeof *seen);
    stack = malloc(blocks.count * sizeof *stack);
    reached = malloc((barrier_count + 1) * sizeof *reached);
    ok = seen && stack && reached;
  }
  LLVMValueRef dispatch =
      LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(function));
  ok = ok && dispatch && LLVMIsASwitchInst(dispatch);
  for (unsigned r = 0; ok && r < regions; r++) {
    LLVMBasicBlockRef first =
        r == 0 ? LLVMGetSwitchDefaultDest(dispatch) : entries[r - 1];
    long start = cc_block_index(&blocks, first);
    ok = start >= 0 && find_exits(&blocks, start, seen, stack, reached,
                                  barrier_count, &exits[r]);
  }
  free(seen);
  free(stack);
  free(reached);
  cc_blocks_free(&blocks);
  if (!ok) {
    cc_region_exits_free(exits, regions);
    return NULL;
  }
  return exits;
}

cc_status cc_build_step_function(LLVMModuleRef module, LLVMValueRef function,
                                 unsigned arg_count,
                                 const uint32_t local_size[3],
                                 unsigned *region_count, uint64_t *scratch_size,
                                 uint64_t *flags_offset,
                                 cc_region_exits **exits, cc_log *log) {
  *exits = NULL;
  /* No PHIs, so blocks can be split; then demote what the split made
   * cross blocks. */
  cc_status status = cc_run_passes(module, "function(sroa,reg2mem)", log);
  if (status != cc_success) return status;
  step_state s = {0};
  s.context = LLVMGetModuleContext(module);
  s.builder = LLVMCreateBuilderInContext(s.context);
  s.data = LLVMGetModuleDataLayout(module);
  s.i8 = LLVMInt8TypeInContext(s.context);
  s.i32 = LLVMInt32TypeInContext(s.context);
  s.i64 = LLVMInt64TypeInContext(s.context);
  s.function = function;
  isolate_barriers(function, s.builder);
  status = cc_run_passes(module, "function(reg2mem)", log);
  if (status == cc_success) {
    cc_split_vector_slots(function, s.builder);
    status = collect(&s);
    if (status == cc_success) {
      status = choose_scratch_slots(&s, arg_count);
    }
    if (status != cc_success) {
      cc_fail(log, status, "no memory");
    }
  }
  LLVMBasicBlockRef *entries =
      status == cc_success ? calloc(s.barrier_count + 2, sizeof *entries)
                           : NULL;
  if (status == cc_success && !entries) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  if (status == cc_success) {
    /* Region j+1 starts with a block that loads what is live after
     * barrier j, then continues there. */
    for (unsigned j = 0; j < s.barrier_count; j++) {
      entries[j] = LLVMAppendBasicBlockInContext(s.context, function, "resume");
    }
    entries[s.barrier_count] =
        LLVMAppendBasicBlockInContext(s.context, function, "sync");
    s.shadow_scope = new_alias_scope(s.context);
    LLVMValueRef wg = LLVMGetParam(function, arg_count);
    LLVMValueRef ids[3];
    for (unsigned d = 0; d < 3; d++) {
      ids[d] = LLVMGetParam(function, arg_count + 1 + d);
    }
    LLVMValueRef region = LLVMGetParam(function, arg_count + 7);
    build_dispatch(&s, wg, ids, local_size, region, entries);
    replace_object_slots(&s);
    for (unsigned j = 0; j < s.barrier_count; j++) {
      LLVMBasicBlockRef barrier = s.barriers[j];
      LLVMBasicBlockRef after =
          LLVMGetSuccessor(LLVMGetBasicBlockTerminator(barrier), 0);
      LLVMPositionBuilderAtEnd(s.builder, entries[j]);
      copy_live(&s, j, false);
      LLVMBuildBr(s.builder, after);
      LLVMValueRef inst;
      while ((inst = LLVMGetFirstInstruction(barrier))) {
        LLVMInstructionEraseFromParent(inst);
      }
      LLVMPositionBuilderAtEnd(s.builder, barrier);
      copy_live(&s, j, true);
      LLVMBuildStore(s.builder, LLVMConstInt(s.i8, 1, 0), s.flag_at[j]);
      LLVMBuildRet(s.builder, LLVMConstInt(s.i32, j + 1, 0));
    }
    build_sync(&s, entries[s.barrier_count]);
    mark_not_shadow(&s);
    *region_count = s.barrier_count + 1;
    *scratch_size = s.scratch_size;
    *flags_offset = s.flags_offset;
    *exits = region_exits(function, s.barrier_count, entries);
  }
  free(entries);
  free_state(&s);
  LLVMDisposeBuilder(s.builder);
  return status;
}

/* Bytes of everything `function` and, inlined, its callees could keep in
 * scratch: every object and every value; whether a barrier is reached. */
static uint64_t scratch_bound(LLVMTargetDataRef data, LLVMValueRef function,
                              unsigned depth, bool *barrier) {
  uint64_t total = 0;
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      LLVMTypeRef type = LLVMIsAAllocaInst(inst) ? LLVMGetAllocatedType(inst)
                                                 : LLVMTypeOf(inst);
      if (LLVMTypeIsSized(type)) total += LLVMABISizeOfType(data, type) + 8;
      if (!LLVMIsACallInst(inst)) continue;
      if (is_barrier_call(inst)) *barrier = true;
      LLVMValueRef callee = LLVMGetCalledValue(inst);
      if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) &&
          depth < 64) {
        total += scratch_bound(data, callee, depth + 1, barrier);
      }
    }
  }
  return total;
}

uint64_t cc_scratch_estimate(LLVMModuleRef module, LLVMValueRef kernel) {
  bool barrier = false;
  uint64_t bound =
      scratch_bound(LLVMGetModuleDataLayout(module), kernel, 0, &barrier);
  return barrier ? (bound + 15) / 16 * 16 : 0;
}

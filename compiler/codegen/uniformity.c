/* clmux compiler — code generation: which stack slots of a step function
 * hold the same value in every work-item (a loop counter of a loop with a
 * barrier, n / 2, ...). Such a slot can be read back after a barrier from
 * one work-item's scratch, an address the vectorizer sees as uniform, so
 * what depends on it stays scalar.
 *
 * A value is uniform when built without the work-item ids, memory other
 * than the work-group state, calls (but the group's sizes and ids) or
 * other slots that are not uniform; a block is partial when a branch on a
 * non-uniform value, or any branch of a partial block, decides whether it
 * runs (it is control dependent on that branch: post-dominators): then
 * some work-items run it and others not. A slot is uniform when each of
 * its stores writes a uniform value in a block that is not partial. The
 * slots start uniform and lose it until nothing changes. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct uniformity {
  LLVMValueRef function;
  unsigned arg_count, param_count;
  cc_keyed *slot_table;
  unsigned slot_count;
  bool *uniform; /* per slot */
  /* A cache of value verdicts: open addressing, 0 unknown, 1 yes, 2 no. */
  LLVMValueRef *cache_keys;
  unsigned char *cache_values;
  size_t cache_size; /* a power of two */
} uniformity;

static size_t cache_slot(const uniformity *u, LLVMValueRef value) {
  size_t hash = ((uintptr_t)value >> 4) * 0x9E3779B97F4A7C15ull;
  size_t i = hash & (u->cache_size - 1);
  while (u->cache_keys[i] && u->cache_keys[i] != value) {
    i = (i + 1) & (u->cache_size - 1);
  }
  return i;
}

static bool value_is_uniform(uniformity *u, LLVMValueRef value,
                             unsigned depth) {
  if (LLVMIsAConstant(value) || LLVMIsABasicBlock(value)) return true;
  if (LLVMIsAArgument(value)) {
    for (unsigned d = 1; d <= 6 && u->arg_count + d < u->param_count; d++) {
      if (value == LLVMGetParam(u->function, u->arg_count + d)) return false;
    }
    return true;
  }
  if (!LLVMIsAInstruction(value) || depth > 64) return false;
  size_t at = cache_slot(u, value);
  if (u->cache_keys[at]) return u->cache_values[at] == 1;
  bool result;
  if (LLVMIsACallInst(value)) {
    /* A group query: uniform if its dimension is. */
    result = cc_is_group_uniform_query(cc_callee_name(value)) &&
             (LLVMGetNumArgOperands(value) == 0 ||
              value_is_uniform(u, LLVMGetOperand(value, 0), depth + 1));
  } else if (LLVMIsAAllocaInst(value) || LLVMIsAPHINode(value) ||
             LLVMIsAAtomicRMWInst(value) || LLVMIsAAtomicCmpXchgInst(value)) {
    result = false;
  } else if (LLVMIsALoadInst(value)) {
    LLVMValueRef pointer = LLVMGetOperand(value, 0);
    long slot = cc_keyed_find(u->slot_table, u->slot_count, pointer);
    if (slot >= 0) {
      result = u->uniform[slot];
    } else {
      result = !LLVMGetVolatile(value) && u->arg_count < u->param_count &&
               cc_points_into_wg(pointer,
                                 LLVMGetParam(u->function, u->arg_count)) &&
               value_is_uniform(u, pointer, depth + 1);
    }
  } else {
    result = true;
    int count = LLVMGetNumOperands(value);
    for (int i = 0; i < count && result; i++) {
      result = value_is_uniform(u, LLVMGetOperand(value, (unsigned)i),
                                depth + 1);
    }
  }
  /* The recursion may have moved entries; look the place up again. */
  at = cache_slot(u, value);
  u->cache_keys[at] = value;
  u->cache_values[at] = result ? 1 : 2;
  return result;
}

static bool bit(const uint64_t *set, size_t i) {
  return (set[i / 64] >> (i % 64)) & 1;
}

/* Post-dominator sets, one bit row of `words` per block. */
static void post_dominators(const cc_blocks *blocks, size_t words,
                            uint64_t *pdom) {
  size_t count = blocks->count;
  for (size_t b = 0; b < count; b++) {
    bool exit = cc_successor_count(blocks->list[b]) == 0;
    memset(pdom + b * words, exit ? 0 : 0xff, words * sizeof *pdom);
    pdom[b * words + b / 64] |= 1ull << (b % 64);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = count; b-- > 0;) {
      unsigned successors = cc_successor_count(blocks->list[b]);
      if (successors == 0) continue;
      for (size_t w = 0; w < words; w++) {
        uint64_t meet = ~0ull;
        for (unsigned s = 0; s < successors; s++) {
          long to = cc_successor_index(blocks, b, s);
          if (to >= 0) meet &= pdom[(size_t)to * words + w];
        }
        if (w == b / 64) meet |= 1ull << (b % 64);
        if (meet != pdom[b * words + w]) {
          pdom[b * words + w] = meet;
          changed = true;
        }
      }
    }
  }
}

/* The condition of a block's branch or switch, or NULL. */
static LLVMValueRef branch_condition(LLVMBasicBlockRef block) {
  LLVMValueRef terminator = LLVMGetBasicBlockTerminator(block);
  if (!terminator || LLVMGetNumSuccessors(terminator) < 2) return NULL;
  if (LLVMIsABranchInst(terminator)) return LLVMGetCondition(terminator);
  if (LLVMIsASwitchInst(terminator)) return LLVMGetOperand(terminator, 0);
  return terminator; /* anything else: treated as not uniform */
}

/* Whether block s runs or not depending on block a's branch. */
static bool control_dependent(const cc_blocks *blocks, size_t words,
                              const uint64_t *pdom, size_t s, size_t a) {
  if (bit(pdom + a * words, s) && s != a) return false;
  unsigned successors = cc_successor_count(blocks->list[a]);
  for (unsigned i = 0; i < successors; i++) {
    long to = cc_successor_index(blocks, a, i);
    if (to >= 0 && bit(pdom + (size_t)to * words, s)) return true;
  }
  return false;
}

/* Marks partial the blocks that a branch of a partial block or a branch on
 * a non-uniform value (`divergent`) decides whether to run, until none is
 * left. */
static void mark_partial(const cc_blocks *blocks, size_t words,
                         const uint64_t *pdom, const bool *divergent,
                         bool *partial) {
  size_t count = blocks->count;
  memset(partial, 0, count * sizeof *partial);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t d = 0; d < count; d++) {
      if (!divergent[d] && !partial[d]) continue;
      for (size_t b = 0; b < count; b++) {
        if (!partial[b] &&
            control_dependent(blocks, words, pdom, b, d)) {
          partial[b] = true;
          changed = true;
        }
      }
    }
  }
}

bool cc_uniform_slots(LLVMValueRef function, unsigned arg_count,
                      const LLVMValueRef *slots, const bool *plain,
                      unsigned slot_count, bool *uniform) {
  cc_blocks blocks;
  bool ok = cc_blocks_init(&blocks, function);
  size_t count = blocks.count, words = (count + 63) / 64;
  size_t instructions = 0;
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(block); i;
         i = LLVMGetNextInstruction(i)) {
      instructions++;
    }
  }
  uniformity u = {function, arg_count, LLVMCountParams(function), NULL,
                  slot_count, uniform, NULL, NULL, 16};
  while (u.cache_size < 2 * instructions + 16) u.cache_size *= 2;
  uint64_t *pdom = calloc(count * words + 1, sizeof *pdom);
  bool *divergent = calloc(count + 1, sizeof *divergent);
  bool *partial = calloc(count + 1, sizeof *partial);
  u.slot_table = calloc(slot_count + 1, sizeof *u.slot_table);
  u.cache_keys = calloc(u.cache_size, sizeof *u.cache_keys);
  u.cache_values = calloc(u.cache_size, sizeof *u.cache_values);
  ok = ok && pdom && divergent && partial && u.slot_table && u.cache_keys &&
       u.cache_values;
  if (ok) {
    unsigned plain_count = 0;
    for (unsigned a = 0; a < slot_count; a++) {
      uniform[a] = plain[a];
      if (plain[a]) u.slot_table[plain_count++] = (cc_keyed){slots[a], a};
    }
    u.slot_count = plain_count;
    cc_keyed_sort(u.slot_table, plain_count);
    post_dominators(&blocks, words, pdom);
  }
  for (bool changed = ok; changed;) {
    changed = false;
    memset(u.cache_keys, 0, u.cache_size * sizeof *u.cache_keys);
    for (size_t b = 0; b < count; b++) {
      LLVMValueRef condition = branch_condition(blocks.list[b]);
      divergent[b] = condition && !value_is_uniform(&u, condition, 0);
    }
    mark_partial(&blocks, words, pdom, divergent, partial);
    for (unsigned a = 0; a < slot_count; a++) {
      if (!uniform[a]) continue;
      for (LLVMUseRef use = LLVMGetFirstUse(slots[a]); use && uniform[a];
           use = LLVMGetNextUse(use)) {
        LLVMValueRef store = LLVMGetUser(use);
        if (!LLVMIsAStoreInst(store)) continue;
        long s = cc_block_index(&blocks, LLVMGetInstructionParent(store));
        if (s < 0 || partial[s] ||
            !value_is_uniform(&u, LLVMGetOperand(store, 0), 0)) {
          uniform[a] = false;
          changed = true;
        }
      }
    }
  }
  if (!ok) memset(uniform, 0, slot_count * sizeof *uniform);
  cc_blocks_free(&blocks);
  free(pdom);
  free(divergent);
  free(partial);
  free(u.slot_table);
  free(u.cache_keys);
  free(u.cache_values);
  return ok;
}


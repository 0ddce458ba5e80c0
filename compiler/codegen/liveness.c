/* clmux compiler — code generation: which stack slots hold a value on entry
 * to given blocks. After reg2mem every value that crosses a block boundary
 * lives in an alloca used only by whole loads and stores, so a backward
 * data-flow over blocks (a slot is live where it may be loaded before being
 * stored) tells which of them must survive a barrier. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef cc_keyed keyed;

static int compare_keyed(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const keyed *)a)->key;
  uintptr_t y = (uintptr_t)((const keyed *)b)->key;
  return x < y ? -1 : x > y;
}

void cc_keyed_sort(cc_keyed *table, size_t count) {
  qsort(table, count, sizeof *table, compare_keyed);
}

long cc_keyed_find(const cc_keyed *table, size_t count, LLVMValueRef key) {
  keyed probe = {key, 0};
  const keyed *hit = bsearch(&probe, table, count, sizeof *table, compare_keyed);
  return hit ? (long)hit->index : -1;
}

/* Sets gen (loaded before any store) and kill (stored before any load)
 * bits of one block. */
static void scan_block(LLVMBasicBlockRef block, const keyed *slots,
                       size_t slot_count, uint64_t *gen, uint64_t *kill) {
  for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
       inst = LLVMGetNextInstruction(inst)) {
    bool load = LLVMIsALoadInst(inst) != NULL;
    if (!load && !LLVMIsAStoreInst(inst)) continue;
    long a = cc_keyed_find(slots, slot_count, LLVMGetOperand(inst, load ? 0 : 1));
    if (a < 0) continue;
    uint64_t bit = 1ull << (a % 64);
    size_t word = (size_t)a / 64;
    if (load && !(kill[word] & bit)) gen[word] |= bit;
    if (!load && !(gen[word] & bit)) kill[word] |= bit;
  }
}

bool cc_slot_liveness(LLVMValueRef function, const LLVMValueRef *slots,
                      unsigned slot_count, const LLVMBasicBlockRef *queries,
                      unsigned query_count, uint64_t *live) {
  size_t words = (slot_count + 63) / 64;
  cc_blocks blocks;
  bool ok = cc_blocks_init(&blocks, function);
  size_t block_count = blocks.count;
  keyed *slot_table = calloc(slot_count + 1, sizeof *slot_table);
  uint64_t *bits = calloc(3 * block_count * words + 1, sizeof *bits);
  ok = ok && slot_table && bits;
  if (ok) {
    for (unsigned a = 0; a < slot_count; a++) slot_table[a] = (keyed){slots[a], a};
    cc_keyed_sort(slot_table, slot_count);
    uint64_t *gen = bits, *kill = bits + block_count * words,
             *in = bits + 2 * block_count * words;
    for (size_t b = 0; b < block_count; b++) {
      scan_block(blocks.list[b], slot_table, slot_count, gen + b * words,
                 kill + b * words);
      memcpy(in + b * words, gen + b * words, words * sizeof *in);
    }
    /* in = gen | (union of the successors' in & ~kill), to a fixed point;
     * visiting blocks backwards converges in few rounds. */
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = block_count; b-- > 0;) {
        unsigned successors = cc_successor_count(blocks.list[b]);
        for (unsigned s = 0; s < successors; s++) {
          long to = cc_successor_index(&blocks, b, s);
          if (to < 0) continue;
          for (size_t w = 0; w < words; w++) {
            uint64_t next = in[b * words + w] |
                            (in[(size_t)to * words + w] & ~kill[b * words + w]);
            if (next != in[b * words + w]) {
              in[b * words + w] = next;
              changed = true;
            }
          }
        }
      }
    }
    for (unsigned q = 0; q < query_count; q++) {
      long b = cc_block_index(&blocks, queries[q]);
      if (b < 0) {
        memset(live + q * words, 0xff, words * sizeof *live);
      } else {
        memcpy(live + q * words, in + (size_t)b * words, words * sizeof *live);
      }
    }
  }
  cc_blocks_free(&blocks);
  free(slot_table);
  free(bits);
  return ok;
}

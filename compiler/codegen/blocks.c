/* clmux compiler — code generation: a function's blocks in order, with a
 * table to find a block's position, for the passes that walk the
 * control-flow graph by index (liveness, uniformity, loop and guard
 * analysis). */
#include <stdlib.h>

#include "internal.h"

bool cc_blocks_init(cc_blocks *blocks, LLVMValueRef function) {
  blocks->count = LLVMCountBasicBlocks(function);
  blocks->list = calloc(blocks->count + 1, sizeof *blocks->list);
  blocks->table = calloc(blocks->count + 1, sizeof *blocks->table);
  if (!blocks->list || !blocks->table) return false;
  LLVMGetBasicBlocks(function, blocks->list);
  for (size_t b = 0; b < blocks->count; b++) {
    blocks->table[b] =
        (cc_keyed){LLVMBasicBlockAsValue(blocks->list[b]), (unsigned)b};
  }
  cc_keyed_sort(blocks->table, blocks->count);
  return true;
}

void cc_blocks_free(cc_blocks *blocks) {
  free(blocks->list);
  free(blocks->table);
}

long cc_block_index(const cc_blocks *blocks, LLVMBasicBlockRef block) {
  return cc_keyed_find(blocks->table, blocks->count,
                       LLVMBasicBlockAsValue(block));
}

unsigned cc_successor_count(LLVMBasicBlockRef block) {
  LLVMValueRef terminator = LLVMGetBasicBlockTerminator(block);
  return terminator ? LLVMGetNumSuccessors(terminator) : 0;
}

long cc_successor_index(const cc_blocks *blocks, size_t b, unsigned s) {
  return cc_block_index(
      blocks, LLVMGetSuccessor(LLVMGetBasicBlockTerminator(blocks->list[b]), s));
}

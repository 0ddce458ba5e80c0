/* clmux compiler — whole-function vectorizer: the structured body's blocks
 * in reverse post-order, their dominators, loops and if-joins (wfv.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "wfv.h"

/* ---- Pointer map: open addressing, never shrinks ---- */

static size_t slot_of(const wfv_map *map, LLVMValueRef key) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15u;
  return (size_t)(h >> 7) & (map->capacity - 1);
}

bool wfv_map_init(wfv_map *map, size_t count) {
  map->capacity = 16;
  while (map->capacity < 2 * count + 2) map->capacity *= 2;
  map->keys = calloc(map->capacity, sizeof *map->keys);
  map->values = calloc(map->capacity, sizeof *map->values);
  return map->keys && map->values;
}

void wfv_map_free(wfv_map *map) {
  free(map->keys);
  free(map->values);
  map->keys = NULL;
  map->values = NULL;
}

bool wfv_map_put(wfv_map *map, LLVMValueRef key, unsigned value) {
  size_t at = slot_of(map, key);
  for (size_t probes = 0; probes < map->capacity; probes++) {
    if (!map->keys[at] || map->keys[at] == key) {
      map->keys[at] = key;
      map->values[at] = value;
      return true;
    }
    at = (at + 1) & (map->capacity - 1);
  }
  return false;
}

long wfv_map_get(const wfv_map *map, LLVMValueRef key) {
  size_t at = slot_of(map, key);
  for (size_t probes = 0; probes < map->capacity; probes++) {
    if (!map->keys[at]) return -1;
    if (map->keys[at] == key) return (long)map->values[at];
    at = (at + 1) & (map->capacity - 1);
  }
  return -1;
}

bool wfv_fail(wfv *w, const char *format, ...) {
  if (w->log) {
    va_list args;
    va_start(args, format);
    vsnprintf(w->log->text, sizeof w->log->text, format, args);
    va_end(args);
  }
  return false;
}

long wfv_block_of(const wfv *w, LLVMBasicBlockRef block) {
  return wfv_map_get(&w->block_index, LLVMBasicBlockAsValue(block));
}

/* ---- Reverse post-order ---- */

static bool order_blocks(wfv *w) {
  unsigned total = LLVMCountBasicBlocks(w->body);
  LLVMBasicBlockRef *all = calloc(total, sizeof *all);
  LLVMBasicBlockRef *post = calloc(total, sizeof *post);
  LLVMBasicBlockRef *stack = calloc(total, sizeof *stack);
  unsigned *next = calloc(total, sizeof *next);
  wfv_map seen = {NULL, NULL, 0};
  bool ok = all && post && stack && next && wfv_map_init(&seen, total);
  unsigned count = 0;
  if (ok) {
    LLVMGetBasicBlocks(w->body, all);
    for (unsigned i = 0; i < total; i++) {
      wfv_map_put(&seen, LLVMBasicBlockAsValue(all[i]), i);
    }
    bool *visited = calloc(total, sizeof *visited);
    ok = visited != NULL;
    unsigned depth = 0;
    if (ok) {
      stack[depth++] = all[0];
      visited[0] = true;
    }
    while (ok && depth > 0) {
      LLVMBasicBlockRef block = stack[depth - 1];
      unsigned at = (unsigned)wfv_map_get(&seen, LLVMBasicBlockAsValue(block));
      LLVMValueRef term = LLVMGetBasicBlockTerminator(block);
      unsigned successors = term ? LLVMGetNumSuccessors(term) : 0;
      if (next[at] < successors) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(term, next[at]++);
        unsigned si = (unsigned)wfv_map_get(&seen, LLVMBasicBlockAsValue(s));
        if (!visited[si]) {
          visited[si] = true;
          stack[depth++] = s;
        }
      } else {
        post[count++] = block;
        depth--;
      }
    }
    free(visited);
  }
  if (ok) {
    w->blocks = calloc(count, sizeof *w->blocks);
    ok = w->blocks && wfv_map_init(&w->block_index, count);
  }
  if (ok) {
    w->block_count = count;
    for (unsigned i = 0; i < count; i++) {
      wfv_block *b = &w->blocks[i];
      b->old = post[count - 1 - i];
      b->idom = -1;
      b->loop = -1;
      b->head = -1;
      b->join = -1;
      wfv_map_put(&w->block_index, LLVMBasicBlockAsValue(b->old), i);
    }
  }
  if (seen.keys) wfv_map_free(&seen);
  free(all);
  free(post);
  free(stack);
  free(next);
  return ok ? true : wfv_fail(w, "out of memory");
}

/* ---- Dominators (Cooper, Harvey and Kennedy), over RPO indices ---- */

static int intersect(const wfv *w, int a, int b) {
  while (a != b) {
    while (a > b) a = w->blocks[a].idom;
    while (b > a) b = w->blocks[b].idom;
  }
  return a;
}

static unsigned predecessors(const wfv *w, unsigned b, int *out, unsigned max) {
  unsigned count = 0;
  LLVMUseRef use = LLVMGetFirstUse(LLVMBasicBlockAsValue(w->blocks[b].old));
  for (; use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsATerminatorInst(user)) continue;
    long p = wfv_block_of(w, LLVMGetInstructionParent(user));
    if (p < 0) continue; /* unreachable */
    bool known = false;
    for (unsigned i = 0; i < count && i < max; i++) known |= out[i] == p;
    if (known) continue;
    if (count < max) out[count] = (int)p;
    count++;
  }
  return count;
}

static void dominators(wfv *w) {
  w->blocks[0].idom = 0;
  bool changed = true;
  int preds[64];
  while (changed) {
    changed = false;
    for (unsigned b = 1; b < w->block_count; b++) {
      unsigned count = predecessors(w, b, preds, 64);
      int idom = -1;
      for (unsigned i = 0; i < count && i < 64; i++) {
        int p = preds[i];
        if (w->blocks[p].idom < 0) continue;
        idom = idom < 0 ? p : intersect(w, p, idom);
      }
      if (idom != w->blocks[b].idom) {
        w->blocks[b].idom = idom;
        changed = true;
      }
    }
  }
  w->blocks[0].idom = -1;
}

static bool dominates(const wfv *w, int a, int b) {
  while (b > a) b = w->blocks[b].idom;
  return a == b;
}

/* ---- Loops: one per back edge; structurizecfg leaves one per header --- */

bool wfv_loop_contains(const wfv *w, int loop, int block) {
  for (int l = block >= 0 ? w->blocks[block].loop : -1; l >= 0;
       l = w->loops[l].parent) {
    if (l == loop) return true;
  }
  return false;
}

static bool find_loops(wfv *w) {
  w->loops = calloc(w->block_count, sizeof *w->loops);
  int *stack = calloc(w->block_count, sizeof *stack);
  bool *in = calloc(w->block_count, sizeof *in);
  if (!w->loops || !stack || !in) {
    free(stack);
    free(in);
    return wfv_fail(w, "out of memory");
  }
  /* Headers in RPO: an outer loop's header comes before its inner ones', so
   * a block's innermost loop is the last one found that holds it. */
  for (unsigned h = 0; h < w->block_count; h++) {
    int preds[64];
    unsigned count = predecessors(w, h, preds, 64);
    int latch = -1, outside = -1, latches = 0, outsides = 0;
    for (unsigned i = 0; i < count && i < 64; i++) {
      if (dominates(w, (int)h, preds[i])) {
        latch = preds[i];
        latches++;
      } else {
        outside = preds[i];
        outsides++;
      }
    }
    if (latches == 0) continue;
    if (latches > 1 || outsides != 1 || count > 64) {
      free(stack);
      free(in);
      return wfv_fail(w, "a loop with %d back edges and %d entries", latches,
                      outsides);
    }
    unsigned l = w->loop_count++;
    wfv_loop *loop = &w->loops[l];
    loop->header = (int)h;
    loop->latch = latch;
    loop->preheader = outside;
    loop->parent = w->blocks[h].loop;
    loop->exit = -1;
    /* The body: what reaches the latch backwards without the header. */
    for (unsigned i = 0; i < w->block_count; i++) in[i] = false;
    unsigned depth = 0;
    in[h] = true;
    if (!in[latch]) {
      in[latch] = true;
      stack[depth++] = latch;
    }
    while (depth > 0) {
      int b = stack[--depth];
      int p[64];
      unsigned n = predecessors(w, (unsigned)b, p, 64);
      for (unsigned i = 0; i < n && i < 64; i++) {
        if (!in[p[i]]) {
          in[p[i]] = true;
          stack[depth++] = p[i];
        }
      }
    }
    for (unsigned i = 0; i < w->block_count; i++) {
      if (in[i]) w->blocks[i].loop = (int)l;
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->blocks[latch].old);
    if (LLVMGetNumSuccessors(term) != 2) {
      free(stack);
      free(in);
      return wfv_fail(w, "a loop latch without a conditional exit");
    }
    for (unsigned s = 0; s < 2; s++) {
      long target = wfv_block_of(w, LLVMGetSuccessor(term, s));
      if (target != (long)h) {
        loop->exit_successor = s;
        loop->exit = (int)target;
      }
    }
    if (loop->exit < 0 || loop->exit == (int)h ||
        wfv_block_of(w, LLVMGetSuccessor(term, 1 - loop->exit_successor)) !=
            (long)h) {
      free(stack);
      free(in);
      return wfv_fail(w, "a loop latch that does not exit");
    }
  }
  free(stack);
  free(in);
  /* Every exit leaves from the latch (one exit per loop). */
  for (unsigned b = 0; b < w->block_count; b++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->blocks[b].old);
    unsigned n = LLVMGetNumSuccessors(term);
    for (unsigned s = 0; s < n; s++) {
      long t = wfv_block_of(w, LLVMGetSuccessor(term, s));
      for (int l = w->blocks[b].loop; l >= 0; l = w->loops[l].parent) {
        if (!wfv_loop_contains(w, l, (int)t) &&
            !(w->loops[l].latch == (int)b && w->loops[l].exit == t)) {
          return wfv_fail(w, "a loop with an exit not from its latch");
        }
      }
    }
  }
  return true;
}

/* ---- Ifs and their joins ---- */

static bool is_latch(const wfv *w, unsigned b) {
  int l = w->blocks[b].loop;
  return l >= 0 && w->loops[l].latch == (int)b;
}

static bool find_joins(wfv *w) {
  for (unsigned b = 0; b < w->block_count; b++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->blocks[b].old);
    if (!term) return wfv_fail(w, "a block without a terminator");
    if (LLVMIsAUnreachableInst(term)) {
      return wfv_fail(w, "an unreachable instruction");
    }
    if (!LLVMIsABranchInst(term) && !LLVMIsAReturnInst(term)) {
      return wfv_fail(w, "a terminator other than br and ret");
    }
    if (LLVMGetNumSuccessors(term) != 2 || is_latch(w, b)) continue;
    /* An if: its second successor is the join its first one's region
     * flows into (the structurizer's form). */
    long join = wfv_block_of(w, LLVMGetSuccessor(term, 1));
    long then = wfv_block_of(w, LLVMGetSuccessor(term, 0));
    if (join < 0 || then < 0 || join == then) {
      return wfv_fail(w, "a conditional branch of an unknown form");
    }
    w->blocks[b].join = (int)join;
  }
  /* Each block with several predecessors is a loop header or the join of
   * exactly one if, reached from that if and from the end of its region. */
  for (unsigned b = 1; b < w->block_count; b++) {
    int preds[64];
    unsigned count = predecessors(w, b, preds, 64);
    int l = w->blocks[b].loop;
    if (count <= 1 || (l >= 0 && w->loops[l].header == (int)b)) continue;
    int head = -1;
    for (unsigned i = 0; i < count && i < 64; i++) {
      if (w->blocks[preds[i]].join == (int)b) head = preds[i];
    }
    if (count != 2 || head < 0 || head != w->blocks[b].idom) {
      return wfv_fail(w, "a join of %u edges not of one if", count);
    }
    w->blocks[b].head = head;
  }
  /* And every if has such a join: its lanes meet again there. */
  for (unsigned b = 0; b < w->block_count; b++) {
    int join = w->blocks[b].join;
    if (join >= 0 && w->blocks[join].head != (int)b) {
      return wfv_fail(w, "an if whose paths do not meet at its join");
    }
  }
  return true;
}

bool wfv_analyze_cfg(wfv *w) {
  if (!order_blocks(w)) return false;
  if (w->block_count != LLVMCountBasicBlocks(w->body)) {
    return wfv_fail(w, "unreachable blocks");
  }
  dominators(w);
  return find_loops(w) && find_joins(w);
}

/* clmux compiler — code generation: a loop that every work-item of a group
 * runs the same number of times (its exits test values the same in every
 * work-item, uniformity.c) and whose bound comes from the kernel's
 * arguments gets a barrier at the top of its header. The kernel then
 * becomes a step function (barriers.c) whose region loops run one
 * iteration of that loop for every work-item: the work-item loop moves
 * inside the kernel's loop, where the vectorizer can widen it (an
 * all-pairs N-body's loop over bodies, a matrix product's loop over k);
 * left outside, the vectorizer sees a loop nest whose inner loop it will
 * not widen across work-items. Running the work-items in step is one of
 * the orders OpenCL allows, so the kernel means the same.
 *
 * Only innermost loops that carry floating-point state (below), in
 * kernels without barriers of their own, with a local size known to span
 * vectors in x: for a few work-items per group the copies of live values
 * at each iteration cost more than they give. Loops that only a bound on
 * the id keeps from running in step (`if (i >= n) return;`) run in step
 * in a copy for the groups on one side of it (guard_versions.c). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Below this many work-items in x the region loops hardly vectorize. */
#define MIN_LOCAL_X 8

/* The blocks, with their predecessors in compressed rows: block b's are
 * preds[pred_start[b] .. pred_start[b + 1]). */
typedef struct cfg {
  cc_blocks blocks;
  unsigned *pred_start, *preds;
} cfg;

static void cfg_free(cfg *g) {
  cc_blocks_free(&g->blocks);
  free(g->pred_start);
  free(g->preds);
}

static bool cfg_build(LLVMValueRef function, cfg *g) {
  memset(g, 0, sizeof *g);
  if (!cc_blocks_init(&g->blocks, function)) return false;
  size_t count = g->blocks.count, edges = 0;
  g->pred_start = calloc(count + 2, sizeof *g->pred_start);
  if (!g->pred_start) return false;
  for (size_t b = 0; b < count; b++) {
    edges += cc_successor_count(g->blocks.list[b]);
  }
  g->preds = calloc(edges + 1, sizeof *g->preds);
  if (!g->preds) return false;
  for (size_t b = 0; b < count; b++) {
    for (unsigned s = 0; s < cc_successor_count(g->blocks.list[b]); s++) {
      long to = cc_successor_index(&g->blocks, b, s);
      if (to >= 0) g->pred_start[to + 2]++;
    }
  }
  for (size_t b = 0; b < count; b++) {
    g->pred_start[b + 2] += g->pred_start[b + 1];
  }
  for (size_t b = 0; b < count; b++) {
    for (unsigned s = 0; s < cc_successor_count(g->blocks.list[b]); s++) {
      long to = cc_successor_index(&g->blocks, b, s);
      if (to >= 0) g->preds[g->pred_start[to + 1]++] = (unsigned)b;
    }
  }
  return true;
}

/* Depth-first from the entry: back[b] when an edge into b comes from a
 * block still on the search's stack (a loop header). */
static bool find_headers(const cfg *g, bool *header) {
  unsigned char *state = calloc(g->blocks.count + 1, 1); /* 0 new, 1 open, 2 done */
  size_t *stack = calloc(g->blocks.count + 1, sizeof *stack);
  unsigned *next = calloc(g->blocks.count + 1, sizeof *next);
  bool ok = state && stack && next;
  size_t depth = 0;
  if (ok && g->blocks.count) {
    stack[depth++] = 0;
    state[0] = 1;
  }
  while (ok && depth) {
    size_t b = stack[depth - 1];
    if (next[b] == cc_successor_count(g->blocks.list[b])) {
      state[b] = 2;
      depth--;
      continue;
    }
    long to = cc_successor_index(&g->blocks, b, next[b]++);
    if (to < 0) continue;
    if (state[to] == 1) header[to] = true;
    if (state[to] == 0) {
      state[to] = 1;
      stack[depth++] = (size_t)to;
    }
  }
  free(state);
  free(stack);
  free(next);
  return ok;
}

/* outside[b]: block b is reached from the entry without passing through
 * `header`. */
static void reach_around(const cfg *g, size_t header, bool *outside,
                         unsigned *work) {
  memset(outside, 0, g->blocks.count * sizeof *outside);
  if (header == 0) return;
  size_t top = 0;
  outside[0] = true;
  work[top++] = 0;
  while (top) {
    unsigned b = work[--top];
    for (unsigned s = 0; s < cc_successor_count(g->blocks.list[b]); s++) {
      long to = cc_successor_index(&g->blocks, b, s);
      if (to >= 0 && (size_t)to != header && !outside[to]) {
        outside[to] = true;
        work[top++] = (unsigned)to;
      }
    }
  }
}

/* The loop at `header`: the blocks that reach one of its latches (the
 * predecessors the header dominates) without passing through it. False
 * if the loop has another way in than its header. */
static bool loop_blocks(const cfg *g, size_t header, const bool *outside,
                        bool *in_loop, unsigned *work) {
  memset(in_loop, 0, g->blocks.count * sizeof *in_loop);
  in_loop[header] = true;
  size_t top = 0;
  for (unsigned p = g->pred_start[header]; p < g->pred_start[header + 1];
       p++) {
    unsigned latch = g->preds[p];
    if (!outside[latch] && !in_loop[latch]) {
      in_loop[latch] = true;
      work[top++] = latch;
    }
  }
  while (top) {
    unsigned b = work[--top];
    for (unsigned p = g->pred_start[b]; p < g->pred_start[b + 1]; p++) {
      unsigned from = g->preds[p];
      if (!in_loop[from]) {
        in_loop[from] = true;
        work[top++] = from;
      }
    }
  }
  for (size_t b = 0; b < g->blocks.count; b++) {
    if (in_loop[b] && outside[b]) return false;
  }
  return true;
}

/* Whether `value` is computed from a kernel argument or a group query
 * (through stack slots), not from constants alone: a loop bounded by
 * constants is left to the unroller. */
static bool from_arguments(LLVMValueRef value, unsigned depth) {
  if (depth > 16) return false;
  if (LLVMIsAArgument(value)) return true;
  if (!LLVMIsAInstruction(value)) return false;
  if (LLVMIsACallInst(value)) {
    return cc_is_group_uniform_query(cc_callee_name(value));
  }
  if (LLVMIsALoadInst(value)) {
    LLVMValueRef slot = LLVMGetOperand(value, 0);
    if (!LLVMIsAAllocaInst(slot)) return false;
    for (LLVMUseRef use = LLVMGetFirstUse(slot); use; use = LLVMGetNextUse(use)) {
      LLVMValueRef store = LLVMGetUser(use);
      if (LLVMIsAStoreInst(store) && LLVMGetOperand(store, 1) == slot &&
          from_arguments(LLVMGetOperand(store, 0), depth + 1)) {
        return true;
      }
    }
    return false;
  }
  int count = LLVMGetNumOperands(value);
  for (int i = 0; i < count; i++) {
    if (from_arguments(LLVMGetOperand(value, (unsigned)i), depth + 1)) {
      return true;
    }
  }
  return false;
}

/* Whether one of the loop's exits tests a value from the arguments. */
static bool bounded_by_arguments(const cfg *g, const bool *in_loop) {
  for (size_t b = 0; b < g->blocks.count; b++) {
    if (!in_loop[b]) continue;
    LLVMValueRef terminator = LLVMGetBasicBlockTerminator(g->blocks.list[b]);
    if (!terminator || !LLVMIsABranchInst(terminator) ||
        !LLVMIsConditional(terminator)) {
      continue;
    }
    bool exits = false;
    for (unsigned s = 0; s < 2; s++) {
      long to = cc_successor_index(&g->blocks, b, s);
      exits |= to < 0 || !in_loop[to];
    }
    if (exits && from_arguments(LLVMGetCondition(terminator), 0)) return true;
  }
  return false;
}

static bool is_floating(LLVMTypeRef type) {
  if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
    type = LLVMGetElementType(type);
  }
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  return kind == LLVMFloatTypeKind || kind == LLVMDoubleTypeKind ||
         kind == LLVMHalfTypeKind;
}

/* Whether the loop carries floating-point state from one iteration to the
 * next: a floating slot live on entry to the header and stored in the
 * loop (a sum, say). Without reassociation the loop vectorizer cannot
 * widen such a loop itself, so running it across the work-items is the
 * only way to vectorize it; a loop it can widen on its own (an integer
 * sum along a row) is left to it: across work-items the row would be
 * gathered. */
static bool carries_floating(const cfg *g, size_t header, const bool *in_loop,
                             const LLVMValueRef *slots, unsigned slot_count,
                             uint64_t *live) {
  LLVMBasicBlockRef query = g->blocks.list[header];
  if (!cc_slot_liveness(LLVMGetBasicBlockParent(query), slots, slot_count,
                        &query, 1, live)) {
    return false;
  }
  for (unsigned a = 0; a < slot_count; a++) {
    if (!((live[a / 64] >> (a % 64)) & 1) ||
        !is_floating(LLVMGetAllocatedType(slots[a]))) {
      continue;
    }
    for (LLVMUseRef use = LLVMGetFirstUse(slots[a]); use;
         use = LLVMGetNextUse(use)) {
      LLVMValueRef store = LLVMGetUser(use);
      if (!LLVMIsAStoreInst(store)) continue;
      long b = cc_block_index(&g->blocks, LLVMGetInstructionParent(store));
      if (b >= 0 && in_loop[b]) return true;
    }
  }
  return false;
}

/* Whether the loop holds the header of another loop. */
static bool has_inner_loop(const cfg *g, size_t header, const bool *in_loop,
                           const bool *is_header) {
  for (size_t b = 0; b < g->blocks.count; b++) {
    if (b != header && in_loop[b] && is_header[b]) return true;
  }
  return false;
}

static void insert_barrier(LLVMModuleRef module, LLVMBasicBlockRef header) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef type =
      LLVMFunctionType(LLVMVoidTypeInContext(context), &i32, 1, 0);
  LLVMValueRef barrier = LLVMGetNamedFunction(module, "_Z7barrierj");
  if (!barrier) barrier = LLVMAddFunction(module, "_Z7barrierj", type);
  LLVMValueRef first = LLVMGetFirstInstruction(header);
  while (first && LLVMIsAPHINode(first)) first = LLVMGetNextInstruction(first);
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMPositionBuilderBefore(builder, first);
  LLVMValueRef flags = LLVMConstInt(i32, 0, 0); /* no memory fence */
  LLVMBuildCall2(builder, type, barrier, &flags, 1, "");
  LLVMDisposeBuilder(builder);
}

static unsigned collect_slots(LLVMValueRef function, LLVMValueRef *slots) {
  unsigned count = 0;
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsAAllocaInst(inst)) {
        if (slots) slots[count] = inst;
        count++;
      }
    }
  }
  return count;
}

/* The loops of `kernel` to run in step: how many, and their headers in
 * `headers` (room for every block) unless NULL. */
static unsigned choose_loops(LLVMValueRef kernel, LLVMBasicBlockRef *headers) {
  cfg g;
  unsigned slot_count = collect_slots(kernel, NULL), chosen = 0;
  LLVMValueRef *slots = calloc(slot_count + 1, sizeof *slots);
  bool *uniform = calloc(slot_count + 1, sizeof *uniform);
  bool ok = cfg_build(kernel, &g) && slots && uniform;
  size_t count = g.blocks.count;
  bool *partial = calloc(count + 1, sizeof *partial);
  bool *is_header = calloc(count + 1, sizeof *is_header);
  bool *in_loop = calloc(count + 1, sizeof *in_loop);
  bool *outside = calloc(count + 1, sizeof *outside);
  unsigned *work = calloc(count + 1, sizeof *work);
  uint64_t *live = calloc(slot_count / 64 + 1, sizeof *live);
  ok = ok && partial && is_header && in_loop && outside && work && live;
  ok = ok && find_headers(&g, is_header);
  bool loops = false;
  for (size_t h = 0; ok && h < count; h++) loops |= is_header[h];
  /* The uniformity analysis is the costly part: only for kernels with
   * loops. */
  if (ok && loops) {
    collect_slots(kernel, slots);
    ok = cc_partial_blocks(kernel, slots, slot_count, uniform, partial);
  }
  for (size_t h = 0; ok && loops && h < count; h++) {
    if (!is_header[h] || partial[h]) continue;
    reach_around(&g, h, outside, work);
    if (loop_blocks(&g, h, outside, in_loop, work) &&
        !has_inner_loop(&g, h, in_loop, is_header) &&
        bounded_by_arguments(&g, in_loop) &&
        carries_floating(&g, h, in_loop, slots, slot_count, live)) {
      if (headers) headers[chosen] = g.blocks.list[h];
      chosen++;
    }
  }
  cfg_free(&g);
  free(slots);
  free(uniform);
  free(partial);
  free(is_header);
  free(in_loop);
  free(outside);
  free(work);
  free(live);
  return chosen;
}

static unsigned count_loops(LLVMValueRef kernel) {
  return choose_loops(kernel, NULL);
}

/* The loops to run in step, in a fresh array; how many in *count. */
static LLVMBasicBlockRef *chosen_headers(LLVMValueRef kernel, unsigned *count) {
  LLVMBasicBlockRef *headers =
      calloc(LLVMCountBasicBlocks(kernel) + 1, sizeof *headers);
  *count = headers ? choose_loops(kernel, headers) : 0;
  return headers;
}

unsigned cc_add_loop_barriers(LLVMModuleRef module, LLVMValueRef kernel,
                              const uint32_t local_size[3]) {
  if (local_size[0] < MIN_LOCAL_X || cc_has_barrier(kernel)) return 0;
  unsigned added = 0;
  LLVMBasicBlockRef *headers = chosen_headers(kernel, &added);
  /* None may be only because a branch on the id comes first: then a copy
   * for the groups where every work-item takes the same way may have
   * some. */
  if (headers && added == 0 &&
      cc_version_id_guard(module, kernel, count_loops)) {
    free(headers);
    headers = chosen_headers(kernel, &added);
  }
  /* Inserting changes no block list: the barriers go in at the end. */
  for (unsigned h = 0; h < added; h++) insert_barrier(module, headers[h]);
  free(headers);
  return added;
}

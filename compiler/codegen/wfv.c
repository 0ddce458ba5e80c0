/* clmux compiler — whole-function vectorizer: the entry point (wfv.h). */
#include "wfv.h"

#include "sub_groups.h"

#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static unsigned host_vector_bits = 128;

static void find_host_vector_bits(void) {
  char *features = LLVMGetHostCPUFeatures();
  if (!features) return;
  host_vector_bits = strstr(features, "+avx512f") ? 512
                     : strstr(features, "+avx2")  ? 256
                                                  : 128;
  LLVMDisposeMessage(features);
}

/* What the body computes with: whether doubles, and the most components
 * of an OpenCL vector value it computes on (a float3 counting as 4).
 * Vectors only loaded, stored, taken apart or put together do not count:
 * their components are computed one by one (convert_uchar4_sat). */
static void widest_values(LLVMValueRef function, bool *doubles,
                          unsigned *components) {
  *doubles = false;
  *components = 1;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b;
       b = LLVMGetNextBasicBlock(b)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef type = LLVMTypeOf(i);
      if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
        unsigned k = LLVMGetVectorSize(type);
        if (k == 3) k = 4;
        bool computed = !LLVMIsALoadInst(i) && !LLVMIsAPHINode(i) &&
                        !LLVMIsAInsertElementInst(i) &&
                        !LLVMIsAExtractElementInst(i) &&
                        !LLVMIsAShuffleVectorInst(i);
        if (computed && k > *components) *components = k;
        type = LLVMGetElementType(type);
      }
      if (LLVMGetTypeKind(type) == LLVMDoubleTypeKind) *doubles = true;
    }
  }
}

unsigned cc_widest_vector(LLVMValueRef body) {
  bool doubles = false;
  unsigned components = 1;
  widest_values(body, &doubles, &components);
  return components;
}

unsigned cc_wfv_lanes(LLVMValueRef body) {
  pthread_once(&host_once, find_host_vector_bits);
  bool doubles = false;
  unsigned components = 1;
  widest_values(body, &doubles, &components);
  unsigned lanes = host_vector_bits / (doubles ? 64 : 32) / components;
  return lanes ? lanes : 1;
}

/* Whether `value` is computed (through address arithmetic, never through
 * memory or calls) from a counter of loop `l` or of a loop around it. */
static bool follows_loop_counter(const wfv *w, LLVMValueRef value, int l,
                                 unsigned depth) {
  if (!LLVMIsAInstruction(value) || depth > 16) return false;
  if (LLVMIsAPHINode(value)) {
    LLVMBasicBlockRef block = LLVMGetInstructionParent(value);
    for (; l >= 0; l = w->loops[l].parent) {
      if (w->blocks[w->loops[l].header].old == block) return true;
    }
    return false;
  }
  /* Clamped coordinates (min, max, select) are still along the loop. */
  LLVMValueRef callee =
      LLVMIsACallInst(value) ? LLVMGetCalledValue(value) : NULL;
  bool intrinsic = callee && LLVMIsAFunction(callee) &&
                   LLVMGetIntrinsicID(callee) != 0 &&
                   !LLVMIsAMemIntrinsic(value);
  if (!LLVMIsAGetElementPtrInst(value) && !LLVMIsACastInst(value) &&
      !LLVMIsABinaryOperator(value) && !LLVMIsASelectInst(value) &&
      !intrinsic) {
    return false;
  }
  int count = LLVMGetNumOperands(value);
  for (int i = 0; i < count; i++) {
    if (follows_loop_counter(w, LLVMGetOperand(value, (unsigned)i), l,
                             depth + 1)) {
      return true;
    }
  }
  return false;
}

/* Kernels whose loops all run equally often in every work-item and reach
 * memory the lanes would gather or scatter along the loop's counter (a
 * row of a matrix per work-item): the loop vectorizer widens such a loop
 * along itself, with plain vector loads, which is better. Lookups whose
 * address comes from data (a table indexed by a hash) it cannot widen. */
static bool gathers_in_uniform_loops(wfv *w) {
  for (unsigned l = 0; l < w->loop_count; l++) {
    if (w->loops[l].divergent) return false;
  }
  for (unsigned v = 0; v < w->value_count; v++) {
    LLVMValueRef inst = w->values[v].old;
    int b = w->values[v].block;
    if (b < 0 || w->blocks[b].loop < 0) continue;
    LLVMValueRef address = wfv_access_address(inst);
    if (!address) continue;
    wfv_shape s = wfv_operand_shape(w, address, b);
    LLVMTypeRef type = LLVMIsALoadInst(inst)
                           ? LLVMTypeOf(inst)
                           : LLVMTypeOf(LLVMGetOperand(inst, 0));
    bool consecutive = s.kind == wfv_strided &&
                       s.stride == (int64_t)LLVMABISizeOfType(w->data, type);
    if (s.kind != wfv_uniform && !consecutive &&
        follows_loop_counter(w, address, w->blocks[b].loop, 0)) {
      return !wfv_fail(w,
                       "its loops, the same in every work-item, gather "
                       "from memory: left to the loop vectorizer");
    }
  }
  return false;
}

static void release(wfv *w) {
  for (unsigned v = 0; v < w->value_count; v++) free(w->values[v].lanes);
  free(w->values);
  free(w->blocks);
  free(w->loops);
  free(w->live_outs);
  free(w->groups);
  if (w->value_index.keys) wfv_map_free(&w->value_index);
  if (w->block_index.keys) wfv_map_free(&w->block_index);
  if (w->builder) LLVMDisposeBuilder(w->builder);
}

/* Loops that mostly move memory (a grid-stride sum, a naive matrix
 * product's loop over k): one access whose address differs between lanes
 * in eight instructions or fewer. Twice the lanes then keep twice the
 * accesses in flight per step (measured: the grid-stride reduction 48 ->
 * 63% of triad, naive sgemm 1.7x faster); loops that compute (a fractal,
 * mad chains) lose to the extra divergence and registers. */
static bool moves_memory(const wfv *w) {
  unsigned accesses = 0, instructions = 0;
  for (unsigned v = 0; v < w->value_count; v++) {
    LLVMValueRef inst = w->values[v].old;
    int b = w->values[v].block;
    if (b < 0 || w->blocks[b].loop < 0 || LLVMIsAPHINode(inst) ||
        LLVMIsATerminatorInst(inst)) {
      continue;
    }
    instructions++;
    LLVMValueRef address = wfv_access_address(inst);
    if (address && wfv_operand_shape(w, address, b).kind != wfv_uniform) {
      accesses++;
    }
  }
  return accesses > 0 && 8 * accesses >= instructions;
}

/* The longest chain of arithmetic, within one iteration of loop `l` (of
 * the work-item loop for -1: the body), that `value` ends (loads, casts
 * and address arithmetic cost nothing). `depth` memoizes per value (-1:
 * not yet known). */
static unsigned chain_depth(const wfv *w, LLVMValueRef value, int l, int *depth,
                            unsigned level) {
  long v = wfv_map_get(&w->value_index, value);
  if (v < 0 || w->values[v].block < 0 || level > 512) return 0;
  if (l >= 0 && !wfv_loop_contains(w, l, w->values[v].block)) return 0;
  if (l >= 0 && LLVMIsAPHINode(value) &&
      w->values[v].block == w->loops[l].header) {
    return 0; /* the previous iteration's */
  }
  if (depth[v] >= 0) return (unsigned)depth[v];
  unsigned deepest = 0;
  int count = LLVMGetNumOperands(value);
  for (int i = 0; i < count; i++) {
    unsigned d =
        chain_depth(w, LLVMGetOperand(value, (unsigned)i), l, depth, level + 1);
    if (d > deepest) deepest = d;
  }
  bool costs = LLVMIsABinaryOperator(value) || LLVMIsACallInst(value) ||
               LLVMIsAFCmpInst(value) || LLVMIsAICmpInst(value) ||
               LLVMIsAUnaryOperator(value);
  depth[v] = (int)(deepest + costs);
  return (unsigned)depth[v];
}

/* Whether the body's busiest innermost loop (or, without loops, the body)
 * is one long chain: the values its iterations carry (the phis of its
 * header; the body's stores) take, one after the other, at least half of
 * its arithmetic (clpeak's x = mad(y, x, y); y = mad(x, y, x) ...). Then
 * each step waits for the one before, and only more lanes put more
 * operations in flight. */
static bool is_one_chain(const wfv *w) {
  int *depth = malloc(w->value_count * sizeof *depth);
  if (!depth) return false;
  unsigned busiest = 0, chain = 0;
  for (int l = w->loop_count ? 0 : -1; l < (int)w->loop_count; l++) {
    bool innermost = true;
    for (unsigned k = 0; k < w->loop_count && l >= 0; k++) {
      innermost = innermost && w->loops[k].parent != l;
    }
    if (!innermost) continue;
    for (unsigned v = 0; v < w->value_count; v++) depth[v] = -1;
    unsigned work = 0, longest = 0;
    for (unsigned v = 0; v < w->value_count; v++) {
      LLVMValueRef inst = w->values[v].old;
      int b = w->values[v].block;
      if (b < 0 || (l >= 0 && !wfv_loop_contains(w, l, b))) continue;
      LLVMValueRef callee =
          LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
      if (callee && (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))) {
        /* A math call's own code has the parallelism more lanes would
         * add, and each lane more is another call: no doubling. */
        free(depth);
        return false;
      }
      work += LLVMIsABinaryOperator(inst) || LLVMIsACallInst(inst) ||
              LLVMIsAUnaryOperator(inst);
      bool carried = l >= 0 ? LLVMIsAPHINode(inst) && b == w->loops[l].header
                            : LLVMIsAStoreInst(inst) != NULL;
      unsigned n = carried ? (unsigned)LLVMGetNumOperands(inst) : 0;
      for (unsigned i = 0; i < n; i++) {
        unsigned d = chain_depth(w, LLVMGetOperand(inst, i), l, depth, 0);
        if (d > longest) longest = d;
      }
    }
    if (work > busiest) {
      busiest = work;
      chain = longest;
    }
  }
  free(depth);
  return busiest >= 8 && 2 * chain >= busiest;
}

/* The lanes for a body whose widest values fill a register at `base`
 * lanes, within `max_lanes` (a row's items). Two registers a value: the
 * work-item loop's own cost (masks, flags, a step function's stores) is
 * then spread over twice the items, and a loop-carried chain (a sum, a
 * recurrence) has two independent operations in flight per step, which
 * hides half of an FMA's latency (measured: N-body and a naive matrix
 * product 1.5-2x faster than at one register, the escape-time fractal
 * 1.3x, vector_add and a barrier-stepped tree reduction 1.3x). Only one
 * for straight-line bodies that move whole records (a float4 a lane, as
 * interleaved groups): each lane is already several values' work, and
 * twice the lanes spill and shuffle across twice the registers
 * (exp_sin on float4 and convert_uchar4_sat 1.2x slower). Loops that move
 * memory get twice that again (moves_memory), and so do bodies that are
 * one long chain (is_one_chain): four operations in flight instead of
 * two. No doubling, though, into more live values than the registers
 * hold (wfv_pressure.c): the spills cost more than the lanes bring
 * (SHA-512 on ulong8, hashcat's mode 1700: 10-15% slower at four lanes
 * than at two; N-body as fast at 32 lanes as at 64). At least two lanes:
 * a kernel on float16 values runs two work-items, a register each. */
static unsigned choose_lanes(wfv *w, unsigned base, unsigned max_lanes) {
  unsigned lanes = base;
  if (w->loop_count > 0 || !wfv_has_interleaved_group(w)) lanes *= 2;
  if ((w->loop_count > 0 && moves_memory(w)) || is_one_chain(w)) lanes *= 2;
  if (lanes < 2) lanes = 2;
  while (lanes > max_lanes && lanes > 1) lanes /= 2;
  /* x86-64's vector registers: 32 with AVX-512, else 16. */
  unsigned registers = host_vector_bits == 512 ? 32 : 16;
  while (lanes > 2 && lanes > base &&
         wfv_peak_registers(w, lanes, host_vector_bits) > registers) {
    lanes /= 2;
  }
  return lanes;
}

LLVMValueRef cc_vectorize_body(LLVMModuleRef module, LLVMValueRef body,
                               unsigned arg_count, unsigned *lanes,
                               unsigned max_lanes, bool *divergent,
                               cc_log *log) {
  wfv w;
  memset(&w, 0, sizeof w);
  w.module = module;
  w.context = LLVMGetModuleContext(module);
  w.data = LLVMGetModuleDataLayout(module);
  w.body = body;
  w.lanes = *lanes;
  w.arg_count = arg_count;
  w.log = log;
  w.builder = LLVMCreateBuilderInContext(w.context);
  /* Sub-groups are the lanes: a body that uses them stays here. */
  bool ok = wfv_analyze_cfg(&w) && wfv_analyze_shapes(&w) &&
            (cc_uses_sub_groups(body) || !gathers_in_uniform_loops(&w));
  if (ok && cc_uses_sub_groups(body)) {
    /* A sub-group is the lanes: one register of the widest values, the
     * same for every local size, so that the code for a non-uniform
     * NDRange's edge groups has the sub-groups of the code for its full
     * ones (rows narrower than that leave lanes idle). */
    w.lanes = w.lanes < 2 ? 2 : w.lanes;
  } else if (ok) {
    w.lanes = choose_lanes(&w, w.lanes, max_lanes);
    ok = w.lanes >= 2 || !wfv_fail(&w, "rows too short for two lanes");
  }
  ok = ok && wfv_emit(&w);
  *lanes = w.lanes;
  *divergent = false;
  for (unsigned l = 0; ok && l < w.loop_count; l++) {
    *divergent |= w.loops[l].divergent;
  }
  LLVMValueRef function = w.function;
  if (!ok && function) {
    LLVMDeleteFunction(function);
    function = NULL;
  }
  release(&w);
  return function;
}

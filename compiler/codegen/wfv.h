/* clmux compiler — the whole-function vectorizer (wfv_*.c): a kernel body
 * (one work-item) becomes a function that runs `lanes` consecutive
 * work-items of x at once under a lane mask.
 *
 * The body is first made structured (LLVM's structurizecfg: every
 * conditional branch is either an if, whose second successor is the join
 * the first one's region flows into, or a loop's only back edge, from its
 * only latch to its only header). Then:
 *   - wfv_cfg.c finds blocks, dominators, loops and if-joins, and checks
 *     the structure;
 *   - wfv_shapes.c tells for each value whether it is the same in every
 *     lane (uniform), lane 0's value plus lane * stride (strided), or
 *     anything (varying), and which branches and loops diverge;
 *   - wfv_emit.c builds the vector function block by block: uniform
 *     branches stay branches, a divergent if runs its region under the
 *     lanes that take it (skipped when none does) and its join blends per
 *     lane; a divergent loop runs until no lane is left, each lane's
 *     values leaving the loop kept from the iteration it left in;
 *   - wfv_values.c keeps the new forms of old values at each point (the
 *     scalar, the vector, one lane) and builds lanes and shuffles;
 *   - wfv_widen.c turns each instruction into its vector form: masked
 *     loads and stores where the address is consecutive, gathers and
 *     scatters where not, vector math through the builtins' vector
 *     variants, and one call per active lane, in lane order, for what has
 *     side effects (atomics, printf, unknown calls); wfv_interleave.c
 *     reads a split float4's (or struct's) components as one consecutive
 *     load shuffled apart, and wfv_sub_groups.c runs the sub-group
 *     primitives across the lanes;
 *   - wfv_pressure.c estimates the registers the widened values hold at
 *     once, so that the lanes chosen (wfv.c) do not spill.
 * OpenCL vector values (<K x T>) of a varying kind become <lanes*K x T>,
 * lane-major, so float4 code stays vector code. */
#ifndef CLMUX_COMPILER_CODEGEN_WFV_H
#define CLMUX_COMPILER_CODEGEN_WFV_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

#include "internal.h"

/* ---- A map from LLVM values (blocks as values too) to indices ---- */
typedef struct wfv_map {
  LLVMValueRef *keys;
  unsigned *values;
  size_t capacity; /* a power of two */
} wfv_map;

bool wfv_map_init(wfv_map *map, size_t count);
void wfv_map_free(wfv_map *map);
bool wfv_map_put(wfv_map *map, LLVMValueRef key, unsigned value);
/* The value stored for key, or -1. */
long wfv_map_get(const wfv_map *map, LLVMValueRef key);

/* ---- Shapes ---- */
typedef enum wfv_kind {
  wfv_unknown = 0, /* not computed yet (the analysis' bottom) */
  wfv_uniform,
  wfv_strided, /* lane l: lane 0 + l * stride (bytes for pointers) */
  wfv_varying
} wfv_kind;

/* A strided value's lanes are exact modulo 2^bits: lane 0 plus l * stride
 * wraps where the integer does. `no_wrap` says they never cross from the
 * largest unsigned value to 0 (a sequence of ids, or of ids plus small
 * constants), which a zext or lshr needs to stay strided; `x - 3` may,
 * in lanes that an `if (x >= 3)` leaves off. */
typedef struct wfv_shape {
  wfv_kind kind;
  int64_t stride;
  bool no_wrap;
} wfv_shape;

/* ---- The control flow of the structured body ---- */
typedef struct wfv_loop {
  int header, latch, exit, preheader; /* block indices */
  int parent;                         /* enclosing loop, or -1 */
  unsigned exit_successor;            /* the latch's successor that exits */
  bool divergent;                     /* lanes may leave it apart */
  /* Emission: */
  LLVMValueRef entry_mask, mask_phi, continuing, leaving;
} wfv_loop;

typedef struct wfv_block {
  LLVMBasicBlockRef old;
  int idom;       /* immediate dominator, -1 for the entry */
  int loop;       /* innermost loop, or -1 */
  int head;       /* for a join (2 predecessors, no header): its if's block */
  int join;       /* for an if's block: the successor its region flows into */
  bool divergent; /* an if whose lanes may go apart */
  /* Emission: */
  LLVMBasicBlockRef first, last; /* its new blocks: entered, left */
  LLVMValueRef mask, then_mask;
} wfv_block;

/* One value of the body: an argument or an instruction. */
typedef struct wfv_value {
  LLVMValueRef old;
  int block; /* -1 for arguments */
  wfv_shape shape;
  /* Emission: the uniform value or lane 0's (strided); the vector form
   * (varying, or strided once asked); per-lane values of a varying struct
   * (a cmpxchg's). */
  LLVMValueRef scalar, vector, *lanes;
  /* Its interleaved group (wfv_interleave.c): 0 not yet looked for, -1
   * none, else the group's index in wfv::groups plus 1. */
  int group;
} wfv_value;

struct wfv_group;

/* A value seen after a divergent loop it is computed in: kept per lane
 * from the iteration each lane left. */
typedef struct wfv_live_out {
  int loop;
  unsigned value;
  LLVMValueRef phi, next;
} wfv_live_out;

typedef struct wfv {
  LLVMModuleRef module;
  LLVMContextRef context;
  LLVMTargetDataRef data;
  LLVMValueRef body, function;
  LLVMBuilderRef builder;
  unsigned lanes;
  unsigned arg_count; /* the kernel's */
  /* Blocks in reverse post-order (index 0 the entry). */
  wfv_block *blocks;
  unsigned block_count;
  wfv_map block_index;
  wfv_loop *loops;
  unsigned loop_count;
  wfv_value *values;
  unsigned value_count;
  wfv_map value_index;
  wfv_live_out *live_outs;
  unsigned live_out_count, live_out_capacity;
  struct wfv_group *groups; /* found so far, each looked for once */
  unsigned group_count, group_capacity;
  LLVMBasicBlockRef alloca_block;
  LLVMValueRef missing; /* the first old value used before it was made */
  cc_log *log;
} wfv;

/* wfv_cfg.c: fills blocks, loops; false (with a reason in the log) when the
 * body is not in the structured form. */
bool wfv_analyze_cfg(wfv *w);
/* Whether loop `loop` contains block `block`. */
bool wfv_loop_contains(const wfv *w, int loop, int block);
/* Index of an instruction's or block's entry (-1 if none). */
long wfv_block_of(const wfv *w, LLVMBasicBlockRef block);

/* wfv_shapes.c: shapes of every value, divergence of ifs and loops. */
bool wfv_analyze_shapes(wfv *w);
/* The shape operand `operand` has where block `at` uses it (varying when it
 * leaves a divergent loop to get there). */
wfv_shape wfv_operand_shape(const wfv *w, LLVMValueRef operand, int at);
/* The outermost divergent loop that `value`'s definition is in and block
 * `at` is not, or -1. */
int wfv_left_loop(const wfv *w, long value, int at, int inner_than);
bool wfv_is_widenable(LLVMTypeRef type);
/* The address a load or store accesses; NULL for other instructions. */
static inline LLVMValueRef wfv_access_address(LLVMValueRef inst) {
  return LLVMIsALoadInst(inst)    ? LLVMGetOperand(inst, 0)
         : LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1)
                                  : NULL;
}
/* Instructions that write memory or have other effects, done per lane. */
bool wfv_has_side_effects(LLVMValueRef inst);
bool wfv_reads_memory(LLVMValueRef inst);

/* wfv_pressure.c: the most vector registers of `register_bits` that the
 * body's varying values hold at once, widened to `lanes` lanes. */
unsigned wfv_peak_registers(const wfv *w, unsigned lanes,
                            unsigned register_bits);

/* wfv_emit.c */
bool wfv_emit(wfv *w);
bool wfv_fail(wfv *w, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* wfv_widen.c: values at block `at` (the builder's position). */
LLVMTypeRef wfv_wide_type(const wfv *w, LLVMTypeRef type);
LLVMValueRef wfv_scalar(wfv *w, LLVMValueRef old, int at);
LLVMValueRef wfv_vector(wfv *w, LLVMValueRef old, int at);
LLVMValueRef wfv_lane(wfv *w, LLVMValueRef old, int at, unsigned lane);
LLVMValueRef wfv_any(wfv *w, LLVMValueRef mask);
/* Emits instruction `inst` of block `at` under `mask`. */
bool wfv_widen(wfv *w, LLVMValueRef inst, int at, LLVMValueRef mask);
LLVMValueRef wfv_shuffle(wfv *w, LLVMValueRef a, LLVMValueRef b,
                         const int *indices, unsigned count);
/* Each of the lanes of a <lanes x T> value repeated `times` times. */
LLVMValueRef wfv_repeat_lanes(wfv *w, LLVMValueRef vector, unsigned times);
/* Lane `lane` of a wide value whose old type is `type`, and the reverse. */
LLVMValueRef wfv_extract_lane(wfv *w, LLVMValueRef wide, LLVMTypeRef type,
                              unsigned lane);
LLVMValueRef wfv_assemble(wfv *w, LLVMTypeRef type, LLVMValueRef *lanes);
LLVMValueRef wfv_call_intrinsic(wfv *w, const char *name, LLVMTypeRef *types,
                                unsigned type_count, LLVMValueRef *args,
                                unsigned arg_count);
/* wfv_interleave.c: `access`, a load or store of block `at` whose
 * address is strided, as one of a group that together covers each lane's
 * whole record (a float4 split into four floats): the group's one
 * consecutive access, shuffled. False when it is no such member; else
 * *done says whether it was emitted (or is left to the group's last
 * store). */
bool wfv_widen_interleaved(wfv *w, LLVMValueRef access, int at,
                           LLVMValueRef mask, bool *done);
/* Whether some access of the body is a member of such a group. */
bool wfv_has_interleaved_group(wfv *w);
/* wfv_sub_groups.c: a sub-group primitive's call (sub_groups.h). */
struct cc_sub_group_call;
bool wfv_widen_sub_group(wfv *w, LLVMValueRef call, int at, LLVMValueRef mask,
                         const struct cc_sub_group_call *sg);
/* wfv_emit.c: the per-lane value of a divergent loop's live-out. */
LLVMValueRef wfv_live_out_value(wfv *w, long value, int at);
/* Records the new form of old value `old` (an instruction or argument). */
void wfv_set(wfv *w, LLVMValueRef old, LLVMValueRef scalar,
             LLVMValueRef vector);

#endif /* CLMUX_COMPILER_CODEGEN_WFV_H */

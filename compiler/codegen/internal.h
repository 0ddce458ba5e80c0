/* clmux compiler — code generation: helpers shared by its files. */
#ifndef CLMUX_COMPILER_CODEGEN_INTERNAL_H
#define CLMUX_COMPILER_CODEGEN_INTERNAL_H

#include <llvm-c/Target.h>
#include <stdbool.h>

#include "codegen.h"

/* Address spaces of -ffake-address-space-map. */
enum { cc_space_global = 1, cc_space_constant = 2, cc_space_local = 3 };

/* Writes a formatted reason into `log` (if any); returns `status`. */
cc_status cc_fail(cc_log *log, cc_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Runs a textual new-PM pipeline with no target machine. */
cc_status cc_run_passes(LLVMModuleRef module, const char *passes, cc_log *log);
/* Integer divisions that would trap (by zero, MIN / -1) divide by 1
 * instead (division.c). */
void cc_guard_divisions(LLVMModuleRef module);
/* After the optimizer: a division LLVM 19's loop vectorizer took for
 * uniform but left under a condition (its first lane's, or each lane's)
 * is computed again where it is read (predicated_division.c). */
void cc_unpredicate_divisions(LLVMModuleRef module);

/* The function `name` if it is a kernel (spir_kernel with a body). */
LLVMValueRef cc_find_kernel(LLVMModuleRef module, const char *name);

/* Operand `index` of the function's metadata `kind` as a value (an MDString
 * or a constant), or NULL (kernel_info.c). */
LLVMValueRef cc_function_metadata_operand(LLVMValueRef function,
                                          const char *kind, unsigned index);

/* The name of the function a call instruction calls directly, or "". */
const char *cc_callee_name(LLVMValueRef call);

/* Makes every definition but the `count` of `keep` internal (appending
 * globals such as llvm.compiler.used stay as they are). */
void cc_internalize(LLVMModuleRef module, const LLVMValueRef *keep,
                    unsigned count);
/* cc_internalize, then drops whatever nothing kept reaches. */
cc_status cc_keep_only(LLVMModuleRef module, const LLVMValueRef *keep,
                       unsigned count, cc_log *log);

/* Removes from every function and call site what Clang puts there that
 * stops inlining or vectorization at the host width: target-cpu and
 * target-features, min-legal-vector-width, convergent, noinline, optnone. */
void cc_strip_attributes(LLVMModuleRef module);

/* Replaces in `function` each call of a work-item function (and of
 * mem_fence, a no-op for work-items run one after another) with its value;
 * `wg` is the cpu_work_group pointer, `local_id`/`global_id` the
 * work-item's ids (i64), `local_size` the group's if specialized (each 0
 * reads wg); with `x_rows` the call runs a row of groups and the x local
 * id is the index in the row. */
void cc_lower_work_items(LLVMValueRef function, LLVMValueRef wg,
                         LLVMValueRef local_id[3], LLVMValueRef global_id[3],
                         const uint32_t local_size[3], bool x_rows);

/* Whether `function` (inlined), run for groups of `local_size`, would see
 * rows of groups run as one (CPU_BINARY_KERNEL_MERGES_GROUPS): through
 * barriers or printf (records per group), the global offset, or local
 * and group ids or local sizes when the group's width is not known (when
 * it is, `x_rows` lowering computes them from the row's item index). */
bool cc_observes_work_groups(LLVMValueRef function,
                             const uint32_t local_size[3]);

/* Whether the work-item function `name` (mangled) gives every work-item
 * of a group the same value: group ids, sizes, counts, offset, work_dim. */
bool cc_is_group_uniform_query(const char *name);

/* Where a region of a step function can stop: the barriers it can reach
 * before any other (their 0-based numbers, ascending) and whether it can
 * reach the kernel's end. The work-group function reads only those
 * barriers' flags after the region's loops, so that its code is linear in
 * the number of barriers, not quadratic. */
typedef struct cc_region_exits {
  unsigned *barriers;
  unsigned count;
  bool ends;
} cc_region_exits;
void cc_region_exits_free(cc_region_exits *exits, unsigned regions);

/* Builds the work-group function `symbol` around `body`, a function that
 * takes the kernel's arguments (by-value aggregates, where `by_pointer`,
 * as pointers into the argument block) then wg, local ids x, y, z and
 * global ids x, y, z. `parallel` marks the x loop's accesses independent
 * across work-items (else the vectorizer checks aliasing itself). With
 * `regions` > 0, `body` is a step function (cc_build_step_function) whose
 * barrier flags lie at `flags_offset`. With `x_rows`, a call may run a row
 * of groups (CPU_BINARY_KERNEL_MERGES_GROUPS): the x loop runs wg's
 * local_size[0] items, a multiple of local_size[0] if that is not 0. With
 * a `vector_body` (cc_vectorize_body of `body`, `lanes` wide), the loops
 * run it instead, the x loop stepping by `lanes` and passing the mask of
 * the items that exist; a step function's sync region still runs `body`.
 * With `scalar_variant` too (a vector body, no regions), wg's variant
 * picks the loops:
 * 0 those of `vector_body`, else those of `body` alone
 * (CPU_BINARY_KERNEL_SCALAR_VARIANT). */
LLVMValueRef cc_build_work_group_loops(
    LLVMModuleRef module, LLVMValueRef body, LLVMValueRef vector_body,
    const cc_kernel_info *info, const bool *by_pointer,
    const uint32_t local_size[3], const char *symbol, bool parallel,
    bool x_rows, unsigned regions, uint64_t flags_offset,
    const cc_region_exits *exits, unsigned lanes, bool scalar_variant);

/* ---- The whole-function vectorizer (wfv.h) ---- */

/* A new internal function running `lanes` consecutive work-items of x of
 * `body` (a body as cc_build_work_group_loops takes, or a step function, in
 * the structured form of LLVM's structurizecfg) at once: its parameters
 * are the body's, the x ids those of the first lane, then a <lanes x i1>
 * mask of the lanes to run (at least one). *lanes comes in as
 * cc_wfv_lanes's register's worth and goes out as the width chosen, at
 * most `max_lanes` (wfv.c's choose_lanes says how). It returns nothing (a step
 * function's barrier number is not used: its flags are in scratch). NULL,
 * with the reason in `log`, when the body has what it cannot vectorize.
 * *divergent tells whether lanes may leave one of its loops apart. */
LLVMValueRef cc_vectorize_body(LLVMModuleRef module, LLVMValueRef body,
                               unsigned arg_count, unsigned *lanes,
                               unsigned max_lanes, bool *divergent,
                               cc_log *log);
/* The lanes of one of the host's vector registers' worth of `body`'s
 * widest values (32-bit, 64-bit if it computes with doubles, times its
 * widest OpenCL vector); at least 1. */
unsigned cc_wfv_lanes(LLVMValueRef body);
/* The most elements of an OpenCL vector value `body` computes with (1 if
 * none; a 3-element vector counts as 4). */
unsigned cc_widest_vector(LLVMValueRef body);

/* An i8 pointer to field `offset` of the cpu_work_group at `wg`, loaded as
 * `type`. */
LLVMValueRef cc_load_wg_field(LLVMBuilderRef builder, LLVMValueRef wg,
                              LLVMTypeRef type, size_t offset,
                              const char *name);

/* The cpu_work_group pointer field at `offset` of `wg`. */
LLVMValueRef cc_load_wg_pointer(LLVMBuilderRef builder, LLVMValueRef wg,
                                size_t offset, const char *name);

/* Independent forward progress (progress.c): whether `function` has a
 * loop with an atomic, a fence or a volatile access (where a sub-group
 * may wait for another); and the pause points put into such loops, -1
 * when out of memory. */
bool cc_may_wait_for_others(LLVMValueRef function);
long cc_add_pause_points(LLVMModuleRef module, LLVMValueRef function);

/* What a work-group function needs from the target. */
typedef struct cc_work_group_facts {
  uint64_t local_memory;   /* static __local bytes */
  uint64_t scratch;        /* bytes per work-item kept across barriers */
  bool merges_groups;      /* CPU_BINARY_KERNEL_MERGES_GROUPS holds */
  bool scalar_variant;     /* CPU_BINARY_KERNEL_SCALAR_VARIANT holds */
  uint32_t sub_group_size; /* the vector body's lanes, else 1 */
} cc_work_group_facts;

/* cc_codegen_work_group for `request` (codegen.h), also telling what the
 * function needs (`facts` may be NULL). With program globals it takes
 * their block's address after its arguments; with bounds checks, the
 * kernel's accesses are checked (bounds_check.c) and it takes the record's
 * address after those. */
cc_status cc_build_work_group(LLVMModuleRef source,
                              const cc_kernel_request *request,
                              const char *symbol, LLVMModuleRef *out,
                              cc_work_group_facts *facts, cc_log *log);

/* ---- OpenCL vector types split for the vectorizer (scalarize.c) ---- */

/* If `body` uses OpenCL vector types and calls math with vector variants
 * or takes narrow vectors apart, splits their loads and stores and the
 * arithmetic on them into scalars, so that the work-item loop can
 * vectorize. `reads_images`: the kernel has image arguments (its pixel
 * vectors are kept unless math needs them split). */
cc_status cc_scalarize_vector_types(LLVMModuleRef module, LLVMValueRef body,
                                    bool reads_images, cc_log *log);

/* ---- Image-format versions (image_versions.c) ---- */

/* Marks in is_image (one entry per parameter; NULL to only count) the
 * kernel's image arguments; returns how many there are. */
unsigned cc_image_args(LLVMValueRef kernel, bool *is_image);

/* In `module` (a copy of a kernel's source), makes every image view the
 * library opens say `format`, and lets the library's pixel decoding and
 * encoding be inlined, where the format folds away. *pinned tells whether
 * the kernel opens any view at all. */
void cc_pin_image_format(LLVMModuleRef module, const cpu_image_format *format,
                         bool *pinned);

/* Adds to `module`, which holds the work-group functions `pinned` and
 * `general` of one kernel, the work-group function `symbol` running the
 * first when every image argument (is_image, laid out as `info` says) has
 * `format` (order, type and pixel size), else the second. */
cc_status cc_build_format_dispatch(LLVMModuleRef module, const char *symbol,
                                   const char *pinned, const char *general,
                                   const cc_kernel_info *info,
                                   const bool *is_image,
                                   const cpu_image_format *format,
                                   cc_log *log);

/* ---- __local variables (local_memory.c) ---- */

/* Where each addrspace(3) global that `kernel` reaches (through calls too)
 * lies in wg->local_memory: module order, each at its alignment. */
typedef struct cc_local_layout {
  uint32_t count;
  LLVMValueRef *variables;
  uint64_t *offsets;
  uint64_t size; /* end of the last */
} cc_local_layout;

cc_status cc_local_layout_of(LLVMModuleRef module, LLVMValueRef kernel,
                             cc_local_layout *layout);
void cc_local_layout_release(cc_local_layout *layout);
/* Places `variable` at the next multiple of its alignment from *end and
 * moves *end past it; returns its offset. */
uint64_t cc_place_variable(LLVMTargetDataRef data, LLVMValueRef variable,
                           uint64_t *end);
/* Replaces the uses in `function` of the layout's variables with pointers
 * into wg->local_memory; false if out of memory. */
/* Whether an instruction uses `value`, directly or through constant
 * expressions (rewritten ones stay behind unused and do not count). */
bool cc_used_by_code(LLVMValueRef value);
bool cc_lower_local_variables(LLVMValueRef function, LLVMValueRef wg,
                              const cc_local_layout *layout);
/* The same for `count` variables placed at `offsets` from `base`, a
 * pointer available in the entry block. */
bool cc_lower_variables_at(LLVMValueRef function, LLVMValueRef base,
                           LLVMValueRef *variables, const uint64_t *offsets,
                           uint32_t count);
/* Program-scope global variables (program_globals.c): their uses in
 * `function` become pointers into the block at `base`. */
bool cc_lower_program_globals(LLVMModuleRef module, LLVMValueRef function,
                              LLVMValueRef base,
                              const cc_program_globals *globals);

/* ---- Barriers (barriers.c, liveness.c) ---- */

bool cc_is_barrier_name(const char *name);
/* An upper bound of the scratch bytes per work-item the kernel needs (0
 * without barriers), before any transformation. */
uint64_t cc_scratch_estimate(LLVMModuleRef module, LLVMValueRef kernel);
bool cc_has_barrier(LLVMValueRef function);

/* Turns `function`, a body as cc_build_work_group_loops takes plus a last
 * i32 `region` parameter and returning i32 (every return 0), into the step
 * function of barriers.c; `arg_count` is the kernel's. Regions: 0 the
 * kernel's start, j + 1 after barrier j, barriers + 1 the sync region to
 * run once (any ids) after each region's loops. Sets the number of
 * regions (barriers + 1), the scratch bytes per work-item and where in
 * scratch barrier j (0-based) sets an item's byte on reaching it:
 * items * (flags_offset + j) + linear id; and *exits, one entry a region
 * but the sync one (NULL when out of memory: every flag is read). */
cc_status cc_build_step_function(LLVMModuleRef module, LLVMValueRef function,
                                 unsigned arg_count,
                                 const uint32_t local_size[3],
                                 unsigned *region_count, uint64_t *scratch_size,
                                 uint64_t *flags_offset,
                                 cc_region_exits **exits, cc_log *log);

/* Splits the plain vector-typed stack slots in `function`'s entry into
 * one slot per element (vector_slots.c). */
void cc_split_vector_slots(LLVMValueRef function, LLVMBuilderRef builder);

/* A value (a block as a value, an alloca) and its index, in tables sorted
 * by cc_keyed_sort for cc_keyed_find (the index, or -1). */
typedef struct cc_keyed {
  LLVMValueRef key;
  unsigned index;
} cc_keyed;
void cc_keyed_sort(cc_keyed *table, size_t count);
long cc_keyed_find(const cc_keyed *table, size_t count, LLVMValueRef key);

/* A function's blocks in order (`list`) and a table finding a block's
 * position in it (blocks.c). cc_blocks_free also after a failed init. */
typedef struct cc_blocks {
  LLVMBasicBlockRef *list;
  size_t count;
  cc_keyed *table;
} cc_blocks;
bool cc_blocks_init(cc_blocks *blocks, LLVMValueRef function);
void cc_blocks_free(cc_blocks *blocks);
/* The block's position, or -1 when it is not the function's. */
long cc_block_index(const cc_blocks *blocks, LLVMBasicBlockRef block);
/* A block's successors: how many (0 without a terminator), and the
 * position of block b's successor s. */
unsigned cc_successor_count(LLVMBasicBlockRef block);
long cc_successor_index(const cc_blocks *blocks, size_t b, unsigned s);

/* Sets uniform[a] for the `slots` (allocas; only plain ones, used by whole
 * loads and stores, can be) whose every store writes the same value in
 * every work-item and is reached by all work-items or none: no branch on
 * a value that differs between work-items (the ids are parameters
 * arg_count + 1 .. + 6, or calls of get_global_id and friends) decides,
 * directly or through other branches, whether it runs. False if out of
 * memory. */
bool cc_uniform_slots(LLVMValueRef function, unsigned arg_count,
                      const LLVMValueRef *slots, const bool *plain,
                      unsigned slot_count, bool *uniform);

/* A scalar stack slot: only whole, non-volatile loads and stores of its
 * type touch it. */
bool cc_is_plain_slot(LLVMValueRef alloca);

/* ---- Computing values again after a barrier (rematerialize.c) ---- */

/* The value of the only store to a plain slot, or NULL. */
LLVMValueRef cc_only_stored_value(LLVMValueRef alloca);
/* Whether `pointer` is `wg`, the work-group state, or a field of it. */
bool cc_points_into_wg(LLVMValueRef pointer, LLVMValueRef wg);
/* Whether `value` is pure arithmetic on constants, parameters, work-group
 * state and single-store plain slots, within `budget` instructions. */
bool cc_can_recompute(LLVMValueRef value, LLVMValueRef wg, unsigned *budget);
/* A copy of `value` (cc_can_recompute holds) at the builder; a plain
 * slot's value is definitions[a] for slots[a], a < count. */
LLVMValueRef cc_recompute(LLVMBuilderRef builder, const LLVMValueRef *slots,
                          const LLVMValueRef *definitions, unsigned count,
                          LLVMValueRef value);

/* For each of `queries`, which of `slots` (allocas used only by loads and
 * stores; others are ignored) may be loaded before being stored on some
 * path from its start: bit a of live[q * words], words = (slots + 63) / 64.
 * False if out of memory. */
bool cc_slot_liveness(LLVMValueRef function, const LLVMValueRef *slots,
                      unsigned slot_count, const LLVMBasicBlockRef *queries,
                      unsigned query_count, uint64_t *live);

/* ---- CLMUX_BOUNDS_CHECK (bounds_check.c) ---- */

/* Appends a hidden argument: 8 bytes at the next multiple of 8, an
 * address (the program globals' block, a bounds-checked kernel's
 * cpu_bounds_record of work_group_abi.h). */
bool cc_add_hidden_arg(cc_kernel_info *info);
/* Checks every access of `body` to __global, __constant or __local memory
 * based on one of its first `user_args` parameters where `checkable` (a
 * buffer or __local pointer, not an image) or on a __local or __constant
 * variable, against that object's extent: out of bounds it is not
 * performed (a load gives 0) and is reported into the record `record`
 * points to, with the work-item's `global_id`. Returns how many accesses
 * it checks, or -1 when out of memory. */
long cc_add_bounds_checks(LLVMModuleRef module, LLVMValueRef body,
                          unsigned user_args, const bool *checkable,
                          LLVMValueRef record, LLVMValueRef global_id[3]);

#endif /* CLMUX_COMPILER_CODEGEN_INTERNAL_H */

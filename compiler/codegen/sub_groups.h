/* clmux compiler — code generation: the sub-group primitives that the
 * builtin library's sub-group functions call (compiler/builtins/sub_group):
 *   __clmux_sub_group_lane()            the caller's lane
 *   __clmux_sub_group_width()           the lanes of a sub-group
 *   __clmux_sub_group_ballot(p)         i64: the running lanes whose p != 0
 *   __clmux_sub_group_shuffle_iN(x, l)  x of lane l
 *   __clmux_sub_group_reduce_OP_T(x)    x combined over the running lanes
 *   __clmux_sub_group_scan_OP_T(x)      ... over those up to the caller's
 *   __clmux_sub_group_xscan_OP_T(x)     ... over those before it
 *   __clmux_sub_group_clustered_OP_T(x, c)  ... over those of its cluster
 *                                       (lanes c*k .. c*k+c-1, c a power
 *                                       of two)
 * The whole-function vectorizer widens them across its lanes
 * (wfv_sub_groups.c); a body left scalar runs sub-groups of one
 * (cc_lower_sub_groups_scalar). */
#ifndef CLMUX_COMPILER_CODEGEN_SUB_GROUPS_H
#define CLMUX_COMPILER_CODEGEN_SUB_GROUPS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#define CC_SUB_GROUP_PREFIX "__clmux_sub_group_"

typedef enum cc_sub_group_kind {
  cc_sub_group_lane,
  cc_sub_group_width,
  cc_sub_group_ballot,
  cc_sub_group_shuffle,
  cc_sub_group_reduce,
  cc_sub_group_scan,  /* inclusive */
  cc_sub_group_xscan, /* exclusive */
  cc_sub_group_clustered, /* reduce within clusters of lanes */
} cc_sub_group_kind;

typedef enum cc_sub_group_op {
  cc_sub_group_add,
  cc_sub_group_mul,
  cc_sub_group_and,
  cc_sub_group_or,
  cc_sub_group_xor,
  cc_sub_group_smin,
  cc_sub_group_umin,
  cc_sub_group_smax,
  cc_sub_group_umax,
  cc_sub_group_fadd,
  cc_sub_group_fmul,
  cc_sub_group_fmin,
  cc_sub_group_fmax,
} cc_sub_group_op;

typedef struct cc_sub_group_call {
  cc_sub_group_kind kind;
  cc_sub_group_op op; /* reduce and scans */
} cc_sub_group_call;

/* Whether `call` calls a primitive, and which. */
bool cc_sub_group_primitive(LLVMValueRef call, cc_sub_group_call *out);
/* Whether `function` calls any primitive. */
bool cc_uses_sub_groups(LLVMValueRef function);
/* Whether anything in `module` calls one. */
bool cc_module_uses_sub_groups(LLVMModuleRef module);
/* The value that `op` leaves unchanged, of `type`; for an exclusive scan's
 * first lane (`result`), +0.0 rather than the -0.0 that adds exactly. */
LLVMValueRef cc_sub_group_identity(cc_sub_group_op op, LLVMTypeRef type,
                                   bool result);
/* a op b, scalars or vectors alike. */
LLVMValueRef cc_sub_group_combine(LLVMBuilderRef builder, LLVMModuleRef module,
                                  cc_sub_group_op op, LLVMValueRef a,
                                  LLVMValueRef b);
/* Replaces the primitives of a body run one work-item at a time. */
void cc_lower_sub_groups_scalar(LLVMValueRef function);

#endif /* CLMUX_COMPILER_CODEGEN_SUB_GROUPS_H */

/* clmux compiler — code generation: one kernel becomes one work-group
 * function. In a clone of the source module, cut down to what the kernel
 * reaches: inline every helper into the kernel, move the kernel's blocks
 * into a body function that also takes the work-item's ids, replace the
 * work-item functions by those ids and the __local variables by pointers into
 * the group's local memory, cut a kernel with barriers into regions
 * (barriers.c), wrap the body in work-item loops, internalize the rest. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/Analysis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stages.h"
#include "sub_groups.h"

/* Names a module-local helper cannot clash with (the user's cannot start
 * with a double underscore). */
#define BODY_NAME "__clmux_kernel_body"

/* The builtin library's cold paths (the decoding and encoding of every
 * image format) stay out of line, so that loops calling them remain small
 * enough to be unswitched and vectorized on their hot paths. They use no
 * work-item function, barrier or __local memory. */
#define COLD_PREFIX "__clmux_cold_"

/* Every other helper the kernel calls, at any depth, is inlined into it
 * (those out of line use no work-item function, barrier or __local). */
static cc_status inline_helpers(LLVMModuleRef module, LLVMValueRef kernel,
                                cc_log *log) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  unsigned never = LLVMGetEnumAttributeKindForName("noinline", 8);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (f == kernel || LLVMIsDeclaration(f)) continue;
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    bool out_of_line = strncmp(name, COLD_PREFIX, strlen(COLD_PREFIX)) == 0 ||
                       strncmp(name, CC_VECTOR_VARIANT_PREFIX,
                               strlen(CC_VECTOR_VARIANT_PREFIX)) == 0;
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(context, out_of_line ? never : always, 0));
  }
  return cc_run_passes(module, "always-inline", log);
}

/* Keeps what Clang knows of a parameter (noalias from restrict, align,
 * readonly for const) for the optimizer. */
static void copy_param_attributes(LLVMValueRef from, LLVMValueRef to,
                                  unsigned index) {
  LLVMAttributeIndex at = (LLVMAttributeIndex)(index + 1);
  unsigned count = LLVMGetAttributeCountAtIndex(from, at);
  LLVMAttributeRef attributes[32];
  if (count == 0 || count > 32) return;
  LLVMGetAttributesAtIndex(from, at, attributes);
  for (unsigned a = 0; a < count; a++) {
    LLVMAddAttributeAtIndex(to, at, attributes[a]);
  }
}

/* Moves the kernel's code into a new internal function taking the kernel's
 * parameters (by-value aggregates as plain pointers, copied on entry as
 * byval would) then wg and the six ids; lowers the work-item functions. */
/* With barriers (`stepped`) the body also takes the region to run and
 * returns the barrier it stopped at (0 when it returned). */
static void return_zero(LLVMValueRef body, LLVMTypeRef i32) {
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetTypeContext(i32));
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(body); block;
       block = LLVMGetNextBasicBlock(block)) {
    LLVMValueRef last = LLVMGetBasicBlockTerminator(block);
    if (!last || !LLVMIsAReturnInst(last)) continue;
    LLVMPositionBuilderBefore(builder, last);
    LLVMBuildRet(builder, LLVMConstInt(i32, 0, 0));
    LLVMInstructionEraseFromParent(last);
  }
  LLVMDisposeBuilder(builder);
}

static LLVMValueRef make_body(LLVMModuleRef module, LLVMValueRef kernel,
                              const cc_kernel_info *info, bool *by_pointer,
                              const uint32_t local_size[3], bool stepped,
                              bool x_rows) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  unsigned n = info->arg_count;
  /* A bounds-checked kernel has one argument more than its source. */
  unsigned own = LLVMCountParams(kernel);
  unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef *types = calloc(n + 8, sizeof *types);
  LLVMTypeRef *byval_types = calloc(n + 1, sizeof *byval_types);
  if (!types || !byval_types) {
    free(types);
    free(byval_types);
    return NULL;
  }
  for (unsigned i = 0; i < n; i++) {
    if (i >= own) {
      types[i] = ptr;
      continue;
    }
    LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(
        kernel, (LLVMAttributeIndex)(i + 1), byval_kind);
    by_pointer[i] = byval != NULL;
    byval_types[i] = byval ? LLVMGetTypeAttributeValue(byval) : NULL;
    types[i] = byval ? ptr : LLVMTypeOf(LLVMGetParam(kernel, i));
  }
  types[n] = ptr;
  for (unsigned i = 1; i <= 6; i++) types[n + i] = i64;
  types[n + 7] = i32;
  LLVMValueRef body = LLVMAddFunction(
      module, BODY_NAME,
      LLVMFunctionType(stepped ? i32 : LLVMVoidTypeInContext(context), types,
                       n + (stepped ? 8 : 7), 0));
  free(types);
  LLVMSetLinkage(body, LLVMInternalLinkage);
  LLVMAddAttributeAtIndex(
      body, LLVMAttributeFunctionIndex,
      LLVMCreateEnumAttribute(
          context, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));

  LLVMBasicBlockRef block;
  while ((block = LLVMGetFirstBasicBlock(kernel))) {
    LLVMRemoveBasicBlockFromParent(block);
    LLVMAppendExistingBasicBlock(body, block);
  }
  if (stepped) return_zero(body, i32);
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMPositionBuilderBefore(
      builder, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(body)));
  for (unsigned i = 0; i < own; i++) {
    LLVMValueRef value = LLVMGetParam(body, i);
    if (by_pointer[i]) {
      /* The kernel may write its copy; the block is shared. */
      unsigned align = (unsigned)cpu_arg_alignment(info->args[i].size);
      LLVMValueRef copy = LLVMBuildAlloca(builder, byval_types[i], "byval");
      LLVMSetAlignment(copy, align);
      LLVMBuildMemCpy(builder, copy, align, value, align,
                      LLVMConstInt(i64, info->args[i].size, 0));
      value = copy;
    } else {
      copy_param_attributes(kernel, body, i);
    }
    LLVMReplaceAllUsesWith(LLVMGetParam(kernel, i), value);
  }
  LLVMDisposeBuilder(builder);
  free(byval_types);

  LLVMValueRef local_id[3], global_id[3];
  for (unsigned d = 0; d < 3; d++) {
    local_id[d] = LLVMGetParam(body, n + 1 + d);
    global_id[d] = LLVMGetParam(body, n + 4 + d);
  }
  cc_lower_work_items(body, LLVMGetParam(body, n), local_id, global_id,
                      local_size, x_rows);
  return body;
}

static bool has_alloca(LLVMValueRef function) {
  for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
       block = LLVMGetNextBasicBlock(block)) {
    for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst;
         inst = LLVMGetNextInstruction(inst)) {
      if (LLVMIsAAllocaInst(inst)) return true;
    }
  }
  return false;
}

/* What survives dead-code elimination and this step cannot do yet. */
static cc_status check_supported(LLVMModuleRef module, const char *name,
                                 cc_log *log) {
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    if (LLVMGetFirstUse(f) &&
        cc_is_barrier_name(LLVMGetValueName2(f, &length))) {
      return cc_fail(log, cc_error_unsupported,
                     "kernel %s: a barrier was left in the code", name);
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g;
       g = LLVMGetNextGlobal(g)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && cc_used_by_code(g)) {
      return cc_fail(log, cc_error_unsupported,
                     "kernel %s: a use of a __local variable was left in "
                     "the code",
                     name);
    }
  }
  return cc_success;
}

/* The local size the code is specialized for, from the request and the
 * kernel's reqd_work_group_size. */
static cc_status choose_local_size(const cc_kernel_info *info,
                                   const uint32_t requested[3],
                                   bool non_uniform, uint32_t chosen[3],
                                   const char *name, cc_log *log) {
  if (non_uniform) {
    memset(chosen, 0, 3 * sizeof *chosen);
    return cc_success;
  }
  bool any = requested[0] || requested[1] || requested[2];
  bool all = requested[0] && requested[1] && requested[2];
  if (any && !all) {
    return cc_fail(log, cc_error_invalid_value,
                   "kernel %s: local size %ux%ux%u is zero in part", name,
                   requested[0], requested[1], requested[2]);
  }
  const uint32_t *reqd = info->reqd_local_size;
  bool has_reqd = reqd[0] && reqd[1] && reqd[2];
  if (has_reqd && all && memcmp(reqd, requested, 3 * sizeof *reqd) != 0) {
    return cc_fail(log, cc_error_invalid_value,
                   "kernel %s: local size %ux%ux%u is not the required "
                   "%ux%ux%u",
                   name, requested[0], requested[1], requested[2], reqd[0],
                   reqd[1], reqd[2]);
  }
  memcpy(chosen, has_reqd ? reqd : requested, 3 * sizeof *chosen);
  return cc_success;
}

typedef struct clone_result {
  uint64_t local_memory, scratch, flags_offset;
  bool merges_groups;
  bool scalar_variant; /* CPU_BINARY_KERNEL_SCALAR_VARIANT */
  bool waits;          /* sub-groups of a group may wait for each other */
  uint32_t sub_group_size;
  cc_region_exits *exits; /* a step function's, per region */
} clone_result;

static bool has_local_pointer_arg(const cc_kernel_info *info) {
  for (unsigned i = 0; i < info->arg_count; i++) {
    if (info->args[i].kind == cc_arg_local_pointer) return true;
  }
  return false;
}

/* The kernel's body with its __local variables lowered; for a kernel with
 * barriers, its step function with the number of regions. */
/* CLMUX_BOUNDS_CHECK: the checks go into the body, which then reaches the
 * record through its last kernel argument. */
static cc_status check_bounds(LLVMModuleRef module, LLVMValueRef kernel,
                              LLVMValueRef body, const cc_kernel_info *info) {
  unsigned own = info->arg_count - 1;
  bool *checkable = calloc(own + 1, sizeof *checkable);
  if (!checkable) return cc_error_out_of_memory;
  cc_image_args(kernel, checkable);
  for (unsigned i = 0; i < own; i++) {
    checkable[i] = info->args[i].kind != cc_arg_value && !checkable[i];
  }
  LLVMValueRef global_id[3];
  for (unsigned d = 0; d < 3; d++) {
    global_id[d] = LLVMGetParam(body, info->arg_count + 4 + d);
  }
  long checked = cc_add_bounds_checks(module, body, own, checkable,
                                      LLVMGetParam(body, own), global_id);
  free(checkable);
  if (checked < 0) return cc_error_out_of_memory;
  if (getenv("CLMUX_DEBUG")) {
    fprintf(stderr, "clmux: kernel %s: %ld accesses bounds-checked\n",
            LLVMGetValueName2(kernel, &(size_t){0}), checked);
  }
  return cc_success;
}

static cc_status shape_body(LLVMModuleRef module, LLVMValueRef kernel,
                            const cc_kernel_info *info, bool *by_pointer,
                            const uint32_t local_size[3], bool bounds_check,
                            const cc_program_globals *globals,
                            LLVMValueRef *body, unsigned *regions,
                            clone_result *result, cc_log *log) {
  /* The globals' block is the first hidden argument. */
  unsigned globals_arg = LLVMCountParams(kernel);
  cc_local_layout layout;
  if (cc_local_layout_of(module, kernel, &layout) != cc_success) {
    return cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  result->local_memory = layout.size;
  cc_status status = inline_helpers(module, kernel, log);
  cc_stage_done("inline", module);
  bool stepped = status == cc_success && cc_has_barrier(kernel);
  /* Groups of one work-item have one sub-group, which waits for none.
   * A row of merged groups has no sub-groups of its own: none may wait
   * for another. */
  result->waits = status == cc_success &&
                  local_size[0] * local_size[1] * local_size[2] != 1 &&
                  cc_may_wait_for_others(kernel);
  result->merges_groups = status == cc_success && layout.size == 0 &&
                          !has_local_pointer_arg(info) &&
                          !cc_observes_work_groups(kernel, local_size) &&
                          !result->waits;
  *body = status == cc_success
              ? make_body(module, kernel, info, by_pointer, local_size, stepped,
                          result->merges_groups)
              : NULL;
  if (status == cc_success && !*body) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  /* Clang keeps the arguments in stack slots at first: in registers, each
   * address shows the argument it is based on. */
  if (status == cc_success && bounds_check) {
    status = cc_run_passes(module, "function(sroa)", log);
  }
  if (status == cc_success && bounds_check) {
    status = check_bounds(module, kernel, *body, info);
    if (status != cc_success) cc_fail(log, status, "no memory");
  }
  if (status == cc_success) {
    LLVMGlobalClearMetadata(kernel);
    if (!LLVMGetFirstUse(kernel)) LLVMDeleteFunction(kernel);
  }
  /* In a step function, after the cut, so that the __local addresses are
   * computed once in its entry for every region (uniform, never in
   * scratch). */
  if (status == cc_success && stepped) {
    status = cc_build_step_function(module, *body, info->arg_count, local_size,
                                    regions, &result->scratch,
                                    &result->flags_offset, &result->exits, log);
  }
  if (status == cc_success &&
      (!cc_lower_local_variables(*body, LLVMGetParam(*body, info->arg_count),
                                 &layout) ||
       !cc_lower_program_globals(
           module, *body, globals ? LLVMGetParam(*body, globals_arg) : NULL,
           globals))) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  cc_local_layout_release(&layout);
  cc_stage_done("barriers", module);
  return status;
}

static bool vectorizes = true;

static void read_vectorize(void) {
  const char *value = getenv("CLMUX_VECTORIZE");
  vectorizes = !value || strcmp(value, "0") != 0;
}

bool cc_codegen_vectorizes(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, read_vectorize);
  return vectorizes;
}

/* The body runs through the whole-function vectorizer: *vector_body,
 * *lanes wide. When it cannot, the body stays (the loop vectorizer then
 * widens the work-item loop if it can), and CLMUX_DEBUG says why. `items`
 * are the work-items a row has in x (0: any number); *divergent tells
 * whether the lanes may leave a loop of the vector body apart. */
static cc_status vectorize_whole(LLVMModuleRef module, const char *name,
                                 unsigned arg_count, uint32_t items,
                                 LLVMValueRef body, LLVMValueRef *vector_body,
                                 unsigned *lanes, bool *divergent,
                                 cc_log *log) {
  if (!cc_codegen_vectorizes()) return cc_success;
  if (items == 1) {
    if (getenv("CLMUX_DEBUG")) {
      fprintf(stderr,
              "clmux: kernel %s: not vectorized as a whole (rows too short "
              "for two lanes)\n",
              name);
    }
    return cc_success;
  }
  /* As AMDGPU runs them: structurizecfg needs loops of one exit (a loop
   * of barrier regions has several); given more, it lost the path out of
   * a bitonic sort's inner loop. */
  cc_status status = cc_run_passes(
      module,
      "function(lower-switch,mergereturn,fix-irreducible,unify-loop-exits,"
      "structurizecfg)",
      log);
  if (status != cc_success) return status;
  cc_log reason = {{0}};
  /* Within a row of the group's items (any row of merged groups), and
   * within what the loops' lane masks are built for. */
  unsigned max_lanes = items == 0 || items >= 64 ? 64 : items;
  unsigned width = cc_wfv_lanes(body);
  LLVMValueRef vector = cc_vectorize_body(module, body, arg_count, &width,
                                          max_lanes, divergent, &reason);
  if (getenv("CLMUX_DEBUG")) {
    if (vector) {
      fprintf(stderr, "clmux: kernel %s: vectorized as a whole, %u lanes\n",
              name, width);
    } else {
      fprintf(stderr, "clmux: kernel %s: not vectorized as a whole (%s)\n",
              name, reason.text);
    }
  }
  if (vector) {
    *vector_body = vector;
    *lanes = width;
  }
  return cc_success;
}

static cc_status build_in_clone(LLVMModuleRef module, const char *name,
                                const cc_kernel_info *info,
                                const uint32_t local_size[3],
                                const char *symbol, bool bounds_check,
                                const cc_program_globals *globals,
                                clone_result *result, cc_log *log) {
  LLVMValueRef kernel = cc_find_kernel(module, name);
  /* A program's other kernels and the builtins only they call would be
   * inlined, cleaned and scanned for nothing: each step below costs in
   * the size of the module, so first drop what the kernel cannot reach. */
  cc_status pruned = cc_keep_only(module, &kernel, 1, log);
  cc_stage_done("prune", module);
  if (pruned != cc_success) return pruned;
  cc_strip_attributes(module);
  bool *by_pointer = calloc(info->arg_count + 1, sizeof *by_pointer);
  if (!by_pointer) return cc_fail(log, cc_error_out_of_memory, "no memory");
  bool reads_images = cc_image_args(kernel, NULL) > 0;
  LLVMValueRef body = NULL;
  unsigned regions = 0;
  cc_status status =
      shape_body(module, kernel, info, by_pointer, local_size, bounds_check,
                 globals, &body, &regions, result, log);

  /* Private arrays that stay in memory would be shared by the work-items
   * of one vector: then let the vectorizer check dependences itself. A
   * step function keeps such objects in per-item scratch. */
  if (status == cc_success) {
    status = cc_run_passes(module, "function(sroa,early-cse)", log);
  }
  /* Short loops of known length (over a vector's components, say) are
   * unrolled first: their accesses then form whole records (interleaved
   * groups, wfv_interleave.c), and the components are known, for the
   * split of OpenCL vectors. */
  if (status == cc_success) {
    status = cc_run_passes(
        module, "function(simplifycfg,loop(loop-unroll-full),simplifycfg)",
        log);
  }
  cc_stage_done("simplify", module);
  /* Every kernel goes through the whole-function vectorizer, which widens
   * OpenCL vectors as they are; for vectors of 8 or 16 elements that is
   * better than splitting them: a uint16 stays a register's worth a
   * work-item, split it would be sixteen narrow values (hashcat's WPA
   * loop 5x slower). Narrower ones are split first (scalarize.c): their
   * elements are mostly taken apart (.x, .y), and the loop vectorizer,
   * which takes a kernel the whole-function one refuses, needs them so.
   * Wide ones stay whole even then: split, each uint16 operation is
   * sixteen scalar ones, a register's worth across work-items at best,
   * with no rows to widen at all (one item a row), and the code grows
   * eightfold (hashcat's NetNTLMv2 kernel: four minutes in the back-end,
   * 5x slower). */
  bool keep_vectors = status == cc_success && cc_widest_vector(body) >= 8;
  if (status == cc_success && !keep_vectors) {
    status = cc_scalarize_vector_types(module, body, reads_images, log);
  }
  /* Loops where a sub-group may wait for another let the others run: a
   * pause point per iteration, which the vectorizer keeps one call. */
  if (status == cc_success && result->waits &&
      cc_add_pause_points(module, body) < 0) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  cc_stage_done("scalarize", module);
  unsigned lanes = 0;
  LLVMValueRef vector_body = NULL;
  bool divergent = false;
  if (status == cc_success) {
    /* A row of merged groups has any number of items. */
    uint32_t items = result->merges_groups ? 0 : local_size[0];
    status = vectorize_whole(module, name, info->arg_count, items, body,
                             &vector_body, &lanes, &divergent, log);
  }
  cc_stage_done("vectorize", module);
  /* Lanes that leave a loop apart idle until the last one is done: when
   * their trip counts differ much (a sparse matrix's rows), or each
   * iteration gathers, the work-items one at a time are faster, and which
   * is only shows at run time (ndrange.c measures both). Not where the
   * lanes are visible: sub-groups, barriers, waiting sub-groups. */
  result->scalar_variant = vector_body && divergent && regions == 0 &&
                           !result->waits && !cc_uses_sub_groups(body);
  if (result->scalar_variant && getenv("CLMUX_DEBUG")) {
    fprintf(stderr,
            "clmux: kernel %s: its lanes may leave a loop apart: also built "
            "to run one work-item at a time\n",
            name);
  }
  /* The vector body has widened the sub-group primitives across its lanes;
   * the scalar body (run alone, or as a step function's sync region) runs
   * sub-groups of one. */
  if (status == cc_success) cc_lower_sub_groups_scalar(body);
  result->sub_group_size = vector_body && !result->merges_groups ? lanes : 1;
  bool parallel = regions > 0 || (body && !has_alloca(body));
  LLVMValueRef wrapper =
      status == cc_success
          ? cc_build_work_group_loops(
                module, body, vector_body, info, by_pointer, local_size, symbol,
                parallel, result->merges_groups, regions, result->flags_offset,
                result->exits, lanes, result->scalar_variant)
          : NULL;
  free(by_pointer);
  cc_region_exits_free(result->exits, regions);
  result->exits = NULL;
  if (status != cc_success) return status;
  if (!wrapper) return cc_fail(log, cc_error_out_of_memory, "no memory");
  if (lanes) {
    /* Says in the IR (dumps, tests) how the kernel was vectorized. */
    char text[16];
    snprintf(text, sizeof text, "%u", lanes);
    LLVMAddAttributeAtIndex(
        wrapper, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(LLVMGetModuleContext(module),
                                  CC_VECTOR_LANES_ATTRIBUTE,
                                  (unsigned)strlen(CC_VECTOR_LANES_ATTRIBUTE),
                                  text, (unsigned)strlen(text)));
  }
  status = cc_keep_only(module, &wrapper, 1, log);
  if (status == cc_success) status = check_supported(module, name, log);
  if (status != cc_success) return status;
  char *message = NULL;
  if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
    cc_fail(log, cc_error_invalid_ir, "kernel %s: %s", name, message);
    LLVMDisposeMessage(message);
    return cc_error_invalid_ir;
  }
  LLVMDisposeMessage(message);
  cc_stage_done("work-group loops", module);
  return cc_success;
}

cc_status cc_codegen_work_group(LLVMModuleRef source, const char *name,
                                const uint32_t local_size[3],
                                const char *symbol, LLVMModuleRef *out,
                                cc_log *log) {
  cc_kernel_request request = {name, {0, 0, 0}, false, NULL, false, {0, 0, 0}};
  memcpy(request.local_size, local_size, sizeof request.local_size);
  return cc_build_work_group(source, &request, symbol, out, NULL, log);
}

cc_status cc_build_work_group(LLVMModuleRef source,
                              const cc_kernel_request *request,
                              const char *symbol, LLVMModuleRef *out,
                              cc_work_group_facts *facts, cc_log *log) {
  const char *name = request->name;
  bool bounds_check = request->bounds_check;
  const cc_program_globals *globals = request->globals;
  *out = NULL;
  if (!symbol || !*symbol || LLVMGetNamedFunction(source, symbol) ||
      LLVMGetNamedGlobal(source, symbol)) {
    return cc_fail(log, cc_error_invalid_value,
                   "symbol %s is empty or taken in the module",
                   symbol ? symbol : "(null)");
  }
  cc_kernel_info info;
  cc_status status = cc_codegen_kernel_info(source, name, &info, log);
  if (status != cc_success) return status;
  /* Hidden arguments: the globals' block, then the bounds record. */
  if (globals && !globals->size) globals = NULL;
  if (status == cc_success && ((globals && !cc_add_hidden_arg(&info)) ||
                               (bounds_check && !cc_add_hidden_arg(&info)))) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  uint32_t chosen[3];
  if (status == cc_success) {
    status = choose_local_size(&info, request->local_size, request->non_uniform,
                               chosen, name, log);
  }
  if (status == cc_success) {
    LLVMModuleRef module = LLVMCloneModule(source);
    cc_stage_done("clone", module);
    clone_result result = {0, 0, 0, false, false, false, 1, NULL};
    status = build_in_clone(module, name, &info, chosen, symbol, bounds_check,
                            globals, &result, log);
    if (status != cc_success && log && getenv("CLMUX_DEBUG")) {
      fprintf(stderr, "clmux: kernel %s: %s\n", name, log->text);
    }
    if (status == cc_success) {
      *out = module;
      if (facts) {
        facts->local_memory = result.local_memory;
        facts->scratch = result.scratch;
        facts->merges_groups = result.merges_groups;
        facts->scalar_variant = result.scalar_variant;
        facts->sub_group_size = result.sub_group_size;
      }
    } else {
      LLVMDisposeModule(module);
    }
  }
  cc_kernel_info_release(&info);
  return status;
}

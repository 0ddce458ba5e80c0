/* clmux compiler — code generation: several kernels of one module into one
 * optimized object and one executable container. */
#include <clmux/cpu_abi/binary_format.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stages.h"
#include "sub_groups.h"

#define SYMBOL_PREFIX "__clmux_wg_"

/* The container entry of a request: code for one local size is required
 * to run at that size; generic code prefers a few vectors' worth of x. */
static void describe(const cc_target *target, const cc_kernel_info *info,
                     const cc_kernel_request *request,
                     cc_binary_kernel *entry) {
  static const uint32_t any[3] = {0, 0, 0};
  const uint32_t *reqd = info->reqd_local_size;
  const uint32_t *size = request->non_uniform ? any
                         : reqd[0]            ? reqd
                                              : request->local_size;
  for (int d = 0; d < 3; d++) {
    entry->required_local_size[d] = size[d];
    entry->preferred_local_size[d] = size[0] ? size[d]
                                     : d == 0
                                         ? cc_target_vector_bits(target) / 8
                                         : 1;
  }
  entry->flags = CPU_BINARY_KERNEL_MERGES_GROUPS; /* until a version says no */
}

/* Builds work-group function `symbol` of kernel `name` from `source` and
 * links it into `linked`; local memory and scratch grow to its needs, and
 * groups merge only if every version lets them. */
static cc_status add_version(const cc_target *target, LLVMModuleRef source,
                             LLVMModuleRef linked,
                             const cc_kernel_request *request,
                             const char *symbol, cc_binary_kernel *entry,
                             cc_log *log) {
  LLVMModuleRef module = NULL;
  cc_work_group_facts facts = {0, 0, false, false, 1};
  const char *name = request->name;
  cc_status status =
      cc_build_work_group(source, request, symbol, &module, &facts, log);
  if (status != cc_success) return status;
  if (facts.local_memory > entry->local_memory) {
    entry->local_memory = facts.local_memory;
  }
  if (facts.scratch > entry->scratch) entry->scratch = facts.scratch;
  if (!facts.merges_groups) entry->flags &= ~CPU_BINARY_KERNEL_MERGES_GROUPS;
  /* One version with the variant is enough: the others ignore it. */
  if (facts.scalar_variant) entry->flags |= CPU_BINARY_KERNEL_SCALAR_VARIANT;
  entry->sub_group_size = facts.sub_group_size;
  cc_target_adopt_module(target, module);
  if (LLVMLinkModules2(linked, module)) {
    return cc_fail(log, cc_error_llvm, "kernel %s: linking failed", name);
  }
  return cc_success;
}

/* A kernel with image arguments: a version for images of the request's
 * format, one for any format and the dispatcher between them
 * (image_versions.c). */
static cc_status add_format_versions(const cc_target *target,
                                     LLVMModuleRef source, LLVMModuleRef linked,
                                     const cc_kernel_request *request,
                                     const cc_kernel_info *info,
                                     const bool *is_image, LLVMModuleRef pinned,
                                     cc_binary_kernel *entry, cc_log *log) {
  const char *symbol = entry->symbol;
  size_t length = strlen(symbol) + sizeof ".any_format";
  char *general = malloc(length), *one_format = malloc(length);
  cc_status status = cc_success;
  if (!general || !one_format) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  } else {
    snprintf(general, length, "%s.any_format", symbol);
    snprintf(one_format, length, "%s.one_format", symbol);
    status = add_version(target, source, linked, request, general, entry, log);
  }
  if (status == cc_success) {
    status =
        add_version(target, pinned, linked, request, one_format, entry, log);
  }
  if (status == cc_success) {
    status = cc_build_format_dispatch(linked, symbol, one_format, general, info,
                                      is_image, &request->image_format, log);
  }
  free(general);
  free(one_format);
  return status;
}

static cc_status add_kernel(const cc_target *target, LLVMModuleRef source,
                            LLVMModuleRef linked,
                            const cc_kernel_request *request,
                            cc_binary_kernel *entry, cc_log *log) {
  size_t length = strlen(SYMBOL_PREFIX) + strlen(request->name) + 1;
  char *symbol = malloc(length);
  if (!symbol) return cc_fail(log, cc_error_out_of_memory, "no memory");
  snprintf(symbol, length, SYMBOL_PREFIX "%s", request->name);
  entry->name = request->name;
  entry->symbol = symbol;
  cc_kernel_info info;
  cc_status status = cc_codegen_kernel_info(source, request->name, &info, log);
  if (status != cc_success) return status;
  describe(target, &info, request, entry);
  LLVMValueRef kernel = cc_find_kernel(source, request->name);
  bool *is_image = calloc(info.arg_count + 1, sizeof *is_image);
  if (!is_image) {
    cc_kernel_info_release(&info);
    return cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  LLVMModuleRef pinned = NULL;
  /* Not for sub-groups: both versions would have to run the same lanes,
   * which their different bodies need not choose. */
  if (request->image_format.channel_order && kernel &&
      cc_image_args(kernel, is_image) > 0 &&
      !cc_module_uses_sub_groups(source)) {
    pinned = LLVMCloneModule(source);
    bool opens_views = false;
    cc_pin_image_format(pinned, &request->image_format, &opens_views);
    if (!opens_views) {
      LLVMDisposeModule(pinned);
      pinned = NULL;
    }
  }
  if (pinned) {
    status = add_format_versions(target, source, linked, request, &info,
                                 is_image, pinned, entry, log);
    LLVMDisposeModule(pinned);
  } else {
    status = add_version(target, source, linked, request, symbol, entry, log);
  }
  free(is_image);
  cc_kernel_info_release(&info);
  return status;
}

static cc_status split_requests(LLVMModuleRef source,
                                const cc_kernel_request *kernels,
                                uint32_t count, LLVMModuleRef **parts,
                                cc_log *log) {
  const char **names = calloc(count, sizeof *names);
  *parts = calloc(count, sizeof **parts);
  cc_status status = cc_success;
  if (!names || !*parts) {
    status = cc_fail(log, cc_error_out_of_memory, "no memory");
  } else {
    for (uint32_t i = 0; i < count; i++) names[i] = kernels[i].name;
    status = cc_codegen_split(source, names, count, *parts, log);
  }
  free(names);
  if (status != cc_success) {
    free(*parts);
    *parts = NULL;
  }
  return status;
}

/* With CLMUX_DUMP_DIR set, the optimized IR of each build goes to
 * <dir>/<first kernel>.<local size>.ll, for people reading the code. */
static void dump_module(LLVMModuleRef module, const cc_kernel_request *first) {
  const char *dir = getenv("CLMUX_DUMP_DIR");
  if (!dir || !*dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%ux%ux%u.ll", dir, first->name,
           first->local_size[0], first->local_size[1], first->local_size[2]);
  char *message = NULL;
  if (LLVMPrintModuleToFile(module, path, &message)) {
    fprintf(stderr, "clmux: cannot write %s: %s\n", path, message);
  }
  LLVMDisposeMessage(message);
}

cc_status cc_codegen_build(const cc_target *target, LLVMModuleRef source,
                           const cc_kernel_request *kernels, uint32_t count,
                           uint8_t **binary, size_t *binary_size,
                           LLVMModuleRef *module_out, cc_log *log) {
  *binary = NULL;
  *binary_size = 0;
  if (module_out) *module_out = NULL;
  if (count == 0) return cc_fail(log, cc_error_invalid_value, "no kernels");
  cc_binary_kernel *entries = calloc(count, sizeof *entries);
  if (!entries) return cc_fail(log, cc_error_out_of_memory, "no memory");
  LLVMModuleRef linked = LLVMModuleCreateWithNameInContext(
      "clmux.kernels", LLVMGetModuleContext(source));
  cc_target_adopt_module(target, linked);
  /* Several kernels: each from its own part of the source, split once,
   * rather than each from a copy of the whole. */
  LLVMModuleRef *parts = NULL;
  cc_status status = count > 1
                         ? split_requests(source, kernels, count, &parts, log)
                         : cc_success;
  for (uint32_t i = 0; i < count && status == cc_success; i++) {
    status = add_kernel(target, parts ? parts[i] : source, linked, &kernels[i],
                        &entries[i], log);
  }
  for (uint32_t i = 0; parts && i < count; i++) LLVMDisposeModule(parts[i]);
  free(parts);
  cc_stage_done("link", linked);
  if (status == cc_success) {
    cc_guard_divisions(linked);
    status = cc_codegen_optimize(target, linked, log);
  }
  cc_stage_done("optimize", linked);
  if (status == cc_success) dump_module(linked, &kernels[0]);
  LLVMMemoryBufferRef object = NULL;
  if (status == cc_success) {
    status = cc_codegen_emit_object(target, linked, &object, log);
  }
  cc_stage_done("emit", NULL);
  if (status == cc_success) {
    status =
        cc_binary_write(entries, count, LLVMGetBufferStart(object),
                        LLVMGetBufferSize(object), binary, binary_size, log);
    LLVMDisposeMemoryBuffer(object);
  }
  for (uint32_t i = 0; i < count; i++) free((char *)entries[i].symbol);
  free(entries);
  if (status == cc_success && module_out) {
    *module_out = linked;
  } else {
    LLVMDisposeModule(linked);
  }
  return status;
}

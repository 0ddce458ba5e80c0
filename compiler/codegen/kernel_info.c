/* clmux compiler — code generation: where each kernel argument lies in the
 * argument block of the work-group ABI (work_group_abi.h), read from the
 * kernel's parameter types and Clang's kernel_arg metadata. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

LLVMValueRef cc_function_metadata_operand(LLVMValueRef function,
                                          const char *kind, unsigned index) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
  unsigned kind_id =
      LLVMGetMDKindIDInContext(context, kind, (unsigned)strlen(kind));
  size_t count = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(function, &count);
  LLVMValueRef operand = NULL;
  for (size_t i = 0; i < count; i++) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != kind_id) {
      continue;
    }
    LLVMValueRef node = LLVMMetadataAsValue(
        context, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
    unsigned operands = LLVMGetMDNodeNumOperands(node);
    if (index < operands) {
      LLVMValueRef *values = malloc(operands * sizeof *values);
      if (values) {
        LLVMGetMDNodeOperands(node, values);
        operand = values[index];
        free(values);
      }
    }
    break;
  }
  if (entries) LLVMDisposeValueMetadataEntries(entries);
  return operand;
}

cc_status cc_codegen_kernel_info(LLVMModuleRef module, const char *name,
                                 cc_kernel_info *info, cc_log *log) {
  memset(info, 0, sizeof *info);
  LLVMValueRef function = name ? cc_find_kernel(module, name) : NULL;
  if (!function) {
    return cc_fail(log, cc_error_no_kernel, "no kernel named %s",
                   name ? name : "(null)");
  }
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
  unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
  info->arg_count = LLVMCountParams(function);
  if (info->arg_count) {
    info->args = calloc(info->arg_count, sizeof *info->args);
    if (!info->args) return cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  size_t end = 0;
  for (unsigned i = 0; i < info->arg_count; i++) {
    LLVMValueRef param = LLVMGetParam(function, i);
    LLVMTypeRef type = LLVMTypeOf(param);
    cc_arg_layout *arg = &info->args[i];
    LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(
        function, (LLVMAttributeIndex)(i + 1), byval_kind);
    if (byval) {
      arg->kind = cc_arg_value;
      arg->size =
          (uint32_t)LLVMABISizeOfType(layout, LLVMGetTypeAttributeValue(byval));
    } else if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
      unsigned space = LLVMGetPointerAddressSpace(type);
      arg->kind = space == cc_space_local      ? cc_arg_local_pointer
                  : space == cc_space_constant ? cc_arg_constant_pointer
                                               : cc_arg_global_pointer;
      arg->size = sizeof(void *);
    } else {
      arg->kind = cc_arg_value;
      arg->size = (uint32_t)LLVMABISizeOfType(layout, type);
    }
    size_t align = cpu_arg_alignment(arg->size);
    arg->offset = (uint32_t)((end + align - 1) / align * align);
    end = arg->offset + (size_t)arg->size;
  }
  info->args_size = (uint32_t)end;
  for (unsigned d = 0; d < 3; d++) {
    LLVMValueRef size =
        cc_function_metadata_operand(function, "reqd_work_group_size", d);
    if (size && LLVMIsAConstantInt(size)) {
      info->reqd_local_size[d] = (uint32_t)LLVMConstIntGetZExtValue(size);
    }
  }
  cc_local_layout locals;
  if (cc_local_layout_of(module, function, &locals) != cc_success) {
    cc_kernel_info_release(info);
    return cc_fail(log, cc_error_out_of_memory, "no memory");
  }
  info->local_memory_size = locals.size;
  cc_local_layout_release(&locals);
  info->scratch_size = cc_scratch_estimate(module, function);
  return cc_success;
}

void cc_kernel_info_release(cc_kernel_info *info) {
  free(info->args);
  memset(info, 0, sizeof *info);
}

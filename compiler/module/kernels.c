/* clmux compiler — the module layer: the kernel table, read once from
 * Clang's kernel metadata (kernel_arg_*, reqd_work_group_size,
 * work_group_size_hint, vec_type_hint) and the argument layout of codegen. */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The metadata node `kind` of `function` as a value, or NULL. */
static LLVMValueRef function_node(LLVMValueRef function, const char *kind) {
  LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(function));
  unsigned id = LLVMGetMDKindIDInContext(context, kind, (unsigned)strlen(kind));
  size_t count = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(function, &count);
  LLVMValueRef node = NULL;
  for (size_t i = 0; i < count && !node; i++) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) == id) {
      node = LLVMMetadataAsValue(
          context, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
    }
  }
  if (entries) LLVMDisposeValueMetadataEntries(entries);
  return node;
}

/* Operand `index` of a node, or NULL. */
static LLVMValueRef operand(LLVMValueRef node, unsigned index) {
  if (!node || index >= LLVMGetMDNodeNumOperands(node)) return NULL;
  unsigned count = LLVMGetMDNodeNumOperands(node);
  LLVMValueRef *values = malloc(count * sizeof *values);
  if (!values) return NULL;
  LLVMGetMDNodeOperands(node, values);
  LLVMValueRef value = values[index];
  free(values);
  return value;
}

static const char *string_operand(LLVMValueRef node, unsigned index) {
  LLVMValueRef value = operand(node, index);
  unsigned length = 0;
  const char *text = value ? LLVMGetMDString(value, &length) : NULL;
  return text ? text : "";
}

static uint32_t int_operand(LLVMValueRef node, unsigned index) {
  LLVMValueRef value = operand(node, index);
  return value && LLVMIsAConstantInt(value)
             ? (uint32_t)LLVMConstIntGetZExtValue(value)
             : 0;
}

/* Clang already writes `uint`, `uchar4*`; this also folds the long forms
 * and drops access qualifiers from image type names. */
static char *canonical_type(const char *clang_name) {
  static const char *const prefixes[] = {"__read_only ",  "__write_only ",
                                         "__read_write ", "read_only ",
                                         "write_only ",   "read_write "};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(clang_name, prefixes[i], n) == 0) clang_name += n;
  }
  static const char *const longs[][2] = {{"unsigned char", "uchar"},
                                         {"unsigned short", "ushort"},
                                         {"unsigned int", "uint"},
                                         {"unsigned long", "ulong"}};
  for (size_t i = 0; i < sizeof longs / sizeof *longs; i++) {
    size_t n = strlen(longs[i][0]);
    if (strncmp(clang_name, longs[i][0], n) == 0) {
      const char *rest = clang_name + n;
      char *name = malloc(strlen(longs[i][1]) + strlen(rest) + 1);
      if (name) {
        strcpy(name, longs[i][1]);
        strcat(name, rest);
      }
      return name;
    }
  }
  return cc_module_strdup(clang_name);
}

static bool has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *at = text; (at = strstr(at, word)); at += n) {
    if ((at == text || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0')) {
      return true;
    }
  }
  return false;
}

/* "float4", "uint", "double2" from vec_type_hint's type and signedness. */
static bool vec_type_name(LLVMValueRef node, char *out, size_t size) {
  LLVMValueRef sample = operand(node, 0);
  if (!sample) return false;
  LLVMTypeRef type = LLVMTypeOf(sample);
  unsigned lanes = 0;
  if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
    lanes = LLVMGetVectorSize(type);
    type = LLVMGetElementType(type);
  }
  const char *base = NULL;
  bool is_signed = int_operand(node, 1) != 0;
  switch (LLVMGetTypeKind(type)) {
    case LLVMHalfTypeKind:
      base = "half";
      break;
    case LLVMFloatTypeKind:
      base = "float";
      break;
    case LLVMDoubleTypeKind:
      base = "double";
      break;
    case LLVMIntegerTypeKind:
      switch (LLVMGetIntTypeWidth(type)) {
        case 8:
          base = is_signed ? "char" : "uchar";
          break;
        case 16:
          base = is_signed ? "short" : "ushort";
          break;
        case 32:
          base = is_signed ? "int" : "uint";
          break;
        case 64:
          base = is_signed ? "long" : "ulong";
          break;
        default:
          break;
      }
      break;
    default:
      break;
  }
  if (!base) return false;
  if (lanes) {
    snprintf(out, size, "%s%u", base, lanes);
  } else {
    snprintf(out, size, "%s", base);
  }
  return true;
}

/* Kind and size when codegen cannot describe the kernel (images). */
static void fallback_layout(LLVMModuleRef llvm, LLVMValueRef function,
                            unsigned index, cc_module_arg *arg) {
  LLVMValueRef param = LLVMGetParam(function, index);
  LLVMTypeRef type = LLVMTypeOf(param);
  LLVMAttributeRef byval =
      LLVMGetEnumAttributeAtIndex(function, (LLVMAttributeIndex)(index + 1),
                                  LLVMGetEnumAttributeKindForName("byval", 5));
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(llvm);
  if (byval) {
    arg->kind = CC_ARG_VALUE;
    arg->size =
        (uint32_t)LLVMABISizeOfType(layout, LLVMGetTypeAttributeValue(byval));
  } else if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
    unsigned space = LLVMGetPointerAddressSpace(type);
    arg->kind = space == 3   ? CC_ARG_LOCAL_POINTER
                : space == 2 ? CC_ARG_CONSTANT_POINTER
                             : CC_ARG_GLOBAL_POINTER;
    arg->size = 8;
  } else {
    arg->kind = CC_ARG_VALUE;
    arg->size = (uint32_t)LLVMABISizeOfType(layout, type);
  }
}

static bool listed_for_arg_info(LLVMModuleRef llvm, const char *name) {
  unsigned count = LLVMGetNamedMetadataNumOperands(llvm, CC_ARG_INFO_METADATA);
  if (!count) return false;
  LLVMValueRef *nodes = malloc(count * sizeof *nodes);
  if (!nodes) return false;
  LLVMGetNamedMetadataOperands(llvm, CC_ARG_INFO_METADATA, nodes);
  bool found = false;
  for (unsigned i = 0; i < count && !found; i++) {
    found = strcmp(string_operand(nodes[i], 0), name) == 0;
  }
  free(nodes);
  return found;
}

static cc_module_result read_args(LLVMModuleRef llvm, LLVMValueRef function,
                                  cc_module_kernel *kernel, cc_text *log) {
  unsigned count = LLVMCountParams(function);
  cc_module_arg *args = calloc(count + 1, sizeof *args);
  if (!args) return CC_MODULE_OUT_OF_MEMORY;
  kernel->args = args;
  kernel->arg_count = count;
  LLVMValueRef spaces = function_node(function, "kernel_arg_addr_space");
  LLVMValueRef access = function_node(function, "kernel_arg_access_qual");
  LLVMValueRef types = function_node(function, "kernel_arg_type");
  /* Typedefs resolved: what decides an argument's kind. */
  LLVMValueRef base_types = function_node(function, "kernel_arg_base_type");
  LLVMValueRef quals = function_node(function, "kernel_arg_type_qual");
  LLVMValueRef names = function_node(function, "kernel_arg_name");
  cc_kernel_info info;
  cc_log reason;
  cc_status status = cc_codegen_kernel_info(llvm, kernel->name, &info, &reason);
  if (status == cc_error_out_of_memory) return CC_MODULE_OUT_OF_MEMORY;
  if (status != cc_success && status != cc_error_unsupported) {
    cc_text_add(log, "error: kernel %s: %s\n", kernel->name, reason.text);
    return CC_MODULE_INTERNAL_ERROR;
  }
  for (unsigned i = 0; i < count; i++) {
    cc_module_arg *arg = &args[i];
    arg->name = cc_module_strdup(string_operand(names, i));
    arg->type_name = canonical_type(string_operand(types, i));
    if (!arg->name || !arg->type_name) {
      if (status == cc_success) cc_kernel_info_release(&info);
      return CC_MODULE_OUT_OF_MEMORY;
    }
    uint32_t space = int_operand(spaces, i);
    arg->address =
        space <= 3 ? (cc_address_qualifier)space : CC_ADDRESS_PRIVATE;
    const char *acc = string_operand(access, i);
    arg->access = strcmp(acc, "read_only") == 0    ? CC_ACCESS_READ_ONLY
                  : strcmp(acc, "write_only") == 0 ? CC_ACCESS_WRITE_ONLY
                  : strcmp(acc, "read_write") == 0 ? CC_ACCESS_READ_WRITE
                                                   : CC_ACCESS_NONE;
    char *base = canonical_type(
        string_operand(base_types ? base_types : types, i));
    if (!base) {
      if (status == cc_success) cc_kernel_info_release(&info);
      return CC_MODULE_OUT_OF_MEMORY;
    }
    bool image = cc_is_image_type(base, strlen(base));
    bool sampler = strcmp(base, "sampler_t") == 0;
    free(base);
    if (image) {
      arg->kind = CC_ARG_IMAGE;
      arg->size = 8;
    } else if (sampler) {
      arg->kind = CC_ARG_SAMPLER;
      arg->size = 8;
    } else if (status == cc_success) {
      static const cc_module_arg_kind kinds[] = {
          [cc_arg_global_pointer] = CC_ARG_GLOBAL_POINTER,
          [cc_arg_constant_pointer] = CC_ARG_CONSTANT_POINTER,
          [cc_arg_local_pointer] = CC_ARG_LOCAL_POINTER,
          [cc_arg_value] = CC_ARG_VALUE};
      arg->kind = kinds[info.args[i].kind];
      arg->size = info.args[i].size;
    } else {
      fallback_layout(llvm, function, i, arg);
    }
    /* 1.2: only pointers carry qualifiers; __constant ones are const. */
    bool pointer = arg->kind == CC_ARG_GLOBAL_POINTER ||
                   arg->kind == CC_ARG_CONSTANT_POINTER ||
                   arg->kind == CC_ARG_LOCAL_POINTER;
    if (pointer) {
      const char *q = string_operand(quals, i);
      arg->type_qualifiers = (has_word(q, "const") ? CC_TYPE_CONST : 0) |
                             (has_word(q, "restrict") ? CC_TYPE_RESTRICT : 0) |
                             (has_word(q, "volatile") ? CC_TYPE_VOLATILE : 0);
      if (arg->address == CC_ADDRESS_CONSTANT) {
        arg->type_qualifiers |= CC_TYPE_CONST;
      }
    }
  }
  if (status == cc_success) {
    kernel->static_local_size = info.local_memory_size;
    kernel->private_size = info.scratch_size;
    cc_kernel_info_release(&info);
  }
  return CC_MODULE_SUCCESS;
}

/* Clang marks every kernel; a module without the mark (SPIR-V's) allows
 * non-uniform work-groups, as OpenCL 2.0 on does by default. */
static bool uniform_work_groups(LLVMValueRef function) {
  static const char name[] = "uniform-work-group-size";
  LLVMAttributeRef attribute = LLVMGetStringAttributeAtIndex(
      function, LLVMAttributeFunctionIndex, name, sizeof name - 1);
  if (!attribute) return false;
  unsigned length = 0;
  const char *value = LLVMGetStringAttributeValue(attribute, &length);
  return length == 4 && memcmp(value, "true", 4) == 0;
}

static cc_module_result read_kernel(LLVMModuleRef llvm, LLVMValueRef function,
                                    cc_module_kernel *kernel, cc_text *log) {
  size_t length = 0;
  kernel->name = cc_module_strdup(LLVMGetValueName2(function, &length));
  if (!kernel->name) return CC_MODULE_OUT_OF_MEMORY;
  cc_module_result result = read_args(llvm, function, kernel, log);
  if (result != CC_MODULE_SUCCESS) return result;
  LLVMValueRef reqd = function_node(function, "reqd_work_group_size");
  kernel->uniform_work_groups = uniform_work_groups(function);
  LLVMValueRef hint = function_node(function, "work_group_size_hint");
  LLVMValueRef vec = function_node(function, "vec_type_hint");
  for (unsigned d = 0; d < 3; d++) {
    kernel->reqd_work_group_size[d] = reqd ? int_operand(reqd, d) : 0;
    kernel->work_group_size_hint[d] = hint ? int_operand(hint, d) : 0;
  }
  char vec_name[32] = "";
  if (vec && vec_type_name(vec, vec_name, sizeof vec_name)) {
    kernel->vec_type_hint = cc_module_strdup(vec_name);
    if (!kernel->vec_type_hint) return CC_MODULE_OUT_OF_MEMORY;
  }
  cc_text attributes = {0};
  const uint32_t *r = kernel->reqd_work_group_size;
  const uint32_t *h = kernel->work_group_size_hint;
  if (reqd) {
    cc_text_add(&attributes, "reqd_work_group_size(%u,%u,%u)", r[0], r[1],
                r[2]);
  }
  if (hint) {
    cc_text_add(&attributes, "%swork_group_size_hint(%u,%u,%u)",
                attributes.length ? " " : "", h[0], h[1], h[2]);
  }
  if (vec_name[0]) {
    cc_text_add(&attributes, "%svec_type_hint(%s)",
                attributes.length ? " " : "", vec_name);
  }
  char *text = NULL;
  cc_text_give(&attributes, &text);
  kernel->attributes = text;
  kernel->arg_info = listed_for_arg_info(llvm, kernel->name);
  return text ? CC_MODULE_SUCCESS : CC_MODULE_OUT_OF_MEMORY;
}

static bool is_kernel(LLVMValueRef f) {
  return !LLVMIsDeclaration(f) &&
         LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

cc_module_result cc_kernels_read(cc_module *module, cc_text *log) {
  size_t count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module->llvm); f;
       f = LLVMGetNextFunction(f)) {
    count += is_kernel(f);
  }
  module->kernels = calloc(count + 1, sizeof *module->kernels);
  if (!module->kernels) return CC_MODULE_OUT_OF_MEMORY;
  for (LLVMValueRef f = LLVMGetFirstFunction(module->llvm); f;
       f = LLVMGetNextFunction(f)) {
    if (!is_kernel(f)) continue;
    cc_module_kernel *kernel = &module->kernels[module->kernel_count++];
    cc_module_result result = read_kernel(module->llvm, f, kernel, log);
    if (result != CC_MODULE_SUCCESS) return result;
  }
  return CC_MODULE_SUCCESS;
}

void cc_kernels_free(cc_module *module) {
  for (size_t k = 0; k < module->kernel_count; k++) {
    cc_module_kernel *kernel = &module->kernels[k];
    for (uint32_t i = 0; kernel->args && i < kernel->arg_count; i++) {
      free((char *)kernel->args[i].name);
      free((char *)kernel->args[i].type_name);
    }
    free((cc_module_arg *)kernel->args);
    free((char *)kernel->name);
    free((char *)kernel->vec_type_hint);
    free((char *)kernel->attributes);
  }
  free(module->kernels);
  module->kernels = NULL;
  module->kernel_count = 0;
}

size_t cc_module_kernel_count(const cc_module *module) {
  return module->kernel_count;
}

const cc_module_kernel *cc_module_kernel_at(const cc_module *module,
                                            size_t index) {
  return index < module->kernel_count ? &module->kernels[index] : NULL;
}

const cc_module_kernel *cc_module_find_kernel(const cc_module *module,
                                              const char *name) {
  for (size_t k = 0; name && k < module->kernel_count; k++) {
    if (strcmp(module->kernels[k].name, name) == 0) return &module->kernels[k];
  }
  return NULL;
}

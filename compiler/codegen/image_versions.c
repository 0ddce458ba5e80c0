/* clmux compiler — code generation: a kernel with image arguments whose
 * launches bind images of one format gets two work-group functions and a
 * dispatcher. The builtin library decodes and encodes pixels by the format
 * in each image's view, out of line for all but CL_RGBA/CL_FLOAT; a loop
 * over pixels then calls out and branches on the format per pixel (silx's
 * 3D convolution on CL_INTENSITY/CL_FLOAT textures: 10x slower than on
 * buffers). The second version is built from a copy of the kernel in
 * which every view says that format and the decoding is inlined, so its
 * loops hold nothing but the format's loads, arithmetic and stores; the
 * dispatcher runs it when every image argument of the launch has that
 * format, else the general version. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LOAD_VIEW "__clmux_image_load_view"
/* The library's out-of-line pixel coding (compiler/builtins/image/) and
 * the names under which the pinned copy inlines it. */
static const char *const coders[][2] = {
    {"__clmux_cold_decode", "__clmux_pinned_decode"},
    {"__clmux_cold_encode", "__clmux_pinned_encode"},
};

bool cc_is_image_type(const char *name, size_t length) {
  static const char *const images[] = {
      "image1d_t",       "image1d_buffer_t",     "image1d_array_t",
      "image2d_t",       "image2d_array_t",      "image3d_t",
      "image2d_depth_t", "image2d_array_depth_t"};
  const char *space = memchr(name, ' ', length);
  if (space) {
    length -= (size_t)(space + 1 - name);
    name = space + 1;
  }
  for (size_t i = 0; i < sizeof images / sizeof *images; i++) {
    if (strlen(images[i]) == length && !memcmp(name, images[i], length)) {
      return true;
    }
  }
  return false;
}

unsigned cc_image_args(LLVMValueRef kernel, bool *is_image) {
  unsigned count = LLVMCountParams(kernel), found = 0;
  for (unsigned i = 0; i < count; i++) {
    LLVMValueRef name =
        cc_function_metadata_operand(kernel, "kernel_arg_base_type", i);
    unsigned length = 0;
    const char *text = name ? LLVMGetMDString(name, &length) : NULL;
    bool image = text && cc_is_image_type(text, length);
    if (is_image) is_image[i] = image;
    found += image;
  }
  return found;
}

void cc_pin_image_format(LLVMModuleRef module, const cpu_image_format *format,
                         bool *pinned) {
  *pinned = false;
  LLVMValueRef original = LLVMGetNamedFunction(module, LOAD_VIEW);
  if (!original || LLVMIsDeclaration(original)) return;
  LLVMSetValueName2(original, LOAD_VIEW ".any_format",
                    strlen(LOAD_VIEW ".any_format"));
  LLVMTypeRef type = LLVMGlobalGetValueType(original);
  LLVMValueRef pinned_view = LLVMAddFunction(module, LOAD_VIEW, type);
  LLVMReplaceAllUsesWith(original, pinned_view);
  LLVMSetLinkage(pinned_view, LLVMInternalLinkage);

  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMPositionBuilderAtEnd(
      builder, LLVMAppendBasicBlockInContext(context, pinned_view, "entry"));
  LLVMValueRef args[2] = {LLVMGetParam(pinned_view, 0),
                          LLVMGetParam(pinned_view, 1)};
  LLVMBuildCall2(builder, type, original, args, 2, "");
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  const struct {
    size_t offset;
    uint32_t value;
  } fields[] = {
      {offsetof(cpu_image_view, channel_order), format->channel_order},
      {offsetof(cpu_image_view, channel_type), format->channel_type},
      {offsetof(cpu_image_view, pixel_size), format->pixel_size}};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    LLVMValueRef offset = LLVMConstInt(i64, fields[f].offset, 0);
    LLVMValueRef at =
        LLVMBuildInBoundsGEP2(builder, i8, args[1], &offset, 1, "");
    LLVMBuildStore(builder, LLVMConstInt(i32, fields[f].value, 0), at);
  }
  LLVMBuildRetVoid(builder);
  LLVMDisposeBuilder(builder);
  for (size_t c = 0; c < sizeof coders / sizeof *coders; c++) {
    LLVMValueRef coder = LLVMGetNamedFunction(module, coders[c][0]);
    if (coder) LLVMSetValueName2(coder, coders[c][1], strlen(coders[c][1]));
  }
  *pinned = true;
}

/* The i32 view field at `offset`. */
static LLVMValueRef view_field(LLVMBuilderRef builder, LLVMContextRef context,
                               LLVMValueRef view, size_t offset) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMValueRef at_offset =
      LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
  LLVMValueRef at = LLVMBuildInBoundsGEP2(builder, i8, view, &at_offset, 1, "");
  return LLVMBuildLoad2(builder, LLVMInt32TypeInContext(context), at, "");
}

cc_status cc_build_format_dispatch(LLVMModuleRef module, const char *symbol,
                                   const char *pinned, const char *general,
                                   const cc_kernel_info *info,
                                   const bool *is_image,
                                   const cpu_image_format *format,
                                   cc_log *log) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMTypeRef type =
      LLVMFunctionType(LLVMVoidTypeInContext(context), params, 2, 0);
  LLVMValueRef dispatch = LLVMAddFunction(module, symbol, type);
  LLVMValueRef fast = LLVMGetNamedFunction(module, pinned);
  LLVMValueRef slow = LLVMGetNamedFunction(module, general);
  if (!fast || !slow) {
    return cc_fail(log, cc_error_llvm, "%s: a format version is missing",
                   symbol);
  }
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  LLVMBasicBlockRef entry =
      LLVMAppendBasicBlockInContext(context, dispatch, "entry");
  LLVMBasicBlockRef fast_block =
      LLVMAppendBasicBlockInContext(context, dispatch, "pinned_format");
  LLVMBasicBlockRef slow_block =
      LLVMAppendBasicBlockInContext(context, dispatch, "any_format");
  LLVMPositionBuilderAtEnd(builder, entry);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMValueRef args = LLVMGetParam(dispatch, 0);
  LLVMValueRef all = LLVMConstInt(LLVMInt1TypeInContext(context), 1, 0);
  for (uint32_t i = 0; i < info->arg_count; i++) {
    if (!is_image[i]) continue;
    LLVMValueRef offset =
        LLVMConstInt(LLVMInt64TypeInContext(context), info->args[i].offset, 0);
    LLVMValueRef slot =
        LLVMBuildInBoundsGEP2(builder, i8, args, &offset, 1, "");
    LLVMValueRef view = LLVMBuildLoad2(builder, ptr, slot, "view");
    LLVMValueRef order = view_field(builder, context, view,
                                    offsetof(cpu_image_view, channel_order));
    LLVMValueRef channel_type = view_field(
        builder, context, view, offsetof(cpu_image_view, channel_type));
    LLVMValueRef pixel_size = view_field(builder, context, view,
                                         offsetof(cpu_image_view, pixel_size));
    LLVMValueRef same_order =
        LLVMBuildICmp(builder, LLVMIntEQ, order,
                      LLVMConstInt(i32, format->channel_order, 0), "");
    LLVMValueRef same_type =
        LLVMBuildICmp(builder, LLVMIntEQ, channel_type,
                      LLVMConstInt(i32, format->channel_type, 0), "");
    LLVMValueRef same_size =
        LLVMBuildICmp(builder, LLVMIntEQ, pixel_size,
                      LLVMConstInt(i32, format->pixel_size, 0), "");
    LLVMValueRef same =
        LLVMBuildAnd(builder, LLVMBuildAnd(builder, same_order, same_type, ""),
                     same_size, "");
    all = LLVMBuildAnd(builder, all, same, "");
  }
  LLVMBuildCondBr(builder, all, fast_block, slow_block);
  LLVMValueRef call_args[2] = {args, LLVMGetParam(dispatch, 1)};
  LLVMPositionBuilderAtEnd(builder, fast_block);
  LLVMBuildCall2(builder, type, fast, call_args, 2, "");
  LLVMBuildRetVoid(builder);
  LLVMPositionBuilderAtEnd(builder, slow_block);
  LLVMBuildCall2(builder, type, slow, call_args, 2, "");
  LLVMBuildRetVoid(builder);
  LLVMDisposeBuilder(builder);
  /* The versions are the dispatcher's alone (and each is inlined into
   * it: one call per work-group either way). */
  LLVMSetLinkage(fast, LLVMInternalLinkage);
  LLVMSetLinkage(slow, LLVMInternalLinkage);
  return cc_success;
}

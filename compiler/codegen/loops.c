/* clmux compiler — code generation: the work-group function, loops over the
 * work-items (z, y, x; x innermost) around a call of the kernel body. The
 * call carries an access group and the x loop lists it in
 * llvm.loop.parallel_accesses: work-items without barriers are independent,
 * and the inliner copies the group onto every access of the inlined body,
 * so the loop vectorizer widens x without runtime alias checks. */
#include <llvm-c/IRReader.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "work_group_abi.h"

/* C has no constructor for distinct metadata nodes; parse them. The nodes
 * belong to the context and outlive the template module. */
static const char loop_template[] =
    "define void @t() {\nentry:\n  br label %l\nl:\n"
    "  br label %l, !llvm.loop !0\n}\n"
    "!0 = distinct !{!0, !1, !2}\n"
    "!1 = !{!\"llvm.loop.vectorize.enable\", i1 true}\n"
    "!2 = !{!\"llvm.loop.parallel_accesses\", !3}\n"
    "!3 = distinct !{}\n";

/* A fresh loop ID and its access group, as values. */
static void loop_metadata(LLVMContextRef context, LLVMValueRef *loop_id,
                          LLVMValueRef *access_group) {
  const char *text = loop_template;
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      text, strlen(text), "loop_template");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  *loop_id = *access_group = NULL;
  if (LLVMParseIRInContext(context, buffer, &module, &message)) {
    LLVMDisposeMessage(message); /* a fixed text: cannot happen */
    return;
  }
  LLVMValueRef t = LLVMGetNamedFunction(module, "t");
  LLVMValueRef branch = LLVMGetLastInstruction(LLVMGetLastBasicBlock(t));
  *loop_id = LLVMGetMetadata(branch,
                             LLVMGetMDKindIDInContext(context, "llvm.loop", 9));
  LLVMValueRef operands[3];
  LLVMGetMDNodeOperands(*loop_id, operands);
  LLVMValueRef pair[2];
  LLVMGetMDNodeOperands(operands[2], pair);
  *access_group = pair[1];
  LLVMDisposeModule(module);
}

static void add_enum(LLVMValueRef function, LLVMAttributeIndex index,
                     const char *name) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(function, index,
                          LLVMCreateEnumAttribute(context, kind, 0));
}

/* i < bound as a rotated loop's exit test; `i` counts from 0. */
static LLVMValueRef next_index(LLVMBuilderRef builder, LLVMValueRef i,
                               LLVMValueRef *next) {
  LLVMTypeRef i64 = LLVMTypeOf(i);
  *next = LLVMBuildAdd(builder, i, LLVMConstInt(i64, 1, 0), "");
  LLVMSetNUW(*next, 1);
  return *next;
}

LLVMValueRef cc_build_work_group_loops(LLVMModuleRef module, LLVMValueRef body,
                                       const cc_kernel_info *info,
                                       const bool *by_pointer,
                                       const uint32_t local_size[3],
                                       const char *symbol, bool parallel) {
  LLVMContextRef context = LLVMGetModuleContext(module);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(context);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMValueRef function = LLVMAddFunction(
      module, symbol,
      LLVMFunctionType(LLVMVoidTypeInContext(context), params, 2, 0));
  for (unsigned p = 1; p <= 2; p++) {
    add_enum(function, p, "noalias");
    add_enum(function, p, "nocapture");
    add_enum(function, p, "readonly");
  }
  add_enum(function, LLVMAttributeFunctionIndex, "nounwind");
  LLVMValueRef args = LLVMGetParam(function, 0);
  LLVMValueRef wg = LLVMGetParam(function, 1);

  LLVMBasicBlockRef entry =
      LLVMAppendBasicBlockInContext(context, function, "entry");
  LLVMBasicBlockRef z_loop =
      LLVMAppendBasicBlockInContext(context, function, "z");
  LLVMBasicBlockRef y_loop =
      LLVMAppendBasicBlockInContext(context, function, "y");
  LLVMBasicBlockRef x_loop =
      LLVMAppendBasicBlockInContext(context, function, "x");
  LLVMBasicBlockRef x_done =
      LLVMAppendBasicBlockInContext(context, function, "x.done");
  LLVMBasicBlockRef y_done =
      LLVMAppendBasicBlockInContext(context, function, "y.done");
  LLVMBasicBlockRef exit =
      LLVMAppendBasicBlockInContext(context, function, "exit");
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);

  /* Entry: the arguments and the group's first global id, uniform. */
  LLVMPositionBuilderAtEnd(builder, entry);
  unsigned body_params = LLVMCountParams(body);
  LLVMValueRef *call_args = calloc(body_params, sizeof *call_args);
  if (!call_args) {
    LLVMDisposeBuilder(builder);
    LLVMDeleteFunction(function);
    return NULL;
  }
  for (unsigned i = 0; i < info->arg_count; i++) {
    LLVMValueRef index = LLVMConstInt(i64, info->args[i].offset, 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(builder, i8, args, &index, 1, "");
    if (by_pointer[i]) {
      call_args[i] = at;
    } else {
      call_args[i] =
          LLVMBuildLoad2(builder, LLVMTypeOf(LLVMGetParam(body, i)), at, "");
      LLVMSetAlignment(call_args[i],
                       (unsigned)cpu_arg_alignment(info->args[i].size));
    }
  }
  LLVMValueRef size[3], base[3];
  for (unsigned d = 0; d < 3; d++) {
    size[d] =
        local_size[d]
            ? LLVMConstInt(i64, local_size[d], 0)
            : LLVMBuildZExt(
                  builder,
                  cc_load_wg_field(builder, wg, i32,
                                   offsetof(cpu_work_group, local_size) + 4 * d,
                                   "local_size"),
                  i64, "");
    LLVMValueRef offset = cc_load_wg_field(
        builder, wg, i64, offsetof(cpu_work_group, global_offset) + 8 * d,
        "global_offset");
    LLVMValueRef group = cc_load_wg_field(
        builder, wg, i64, offsetof(cpu_work_group, group_id) + 8 * d,
        "group_id");
    base[d] = LLVMBuildAdd(builder, offset,
                           LLVMBuildMul(builder, group, size[d], ""), "base");
  }
  LLVMBuildBr(builder, z_loop);

  LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
  LLVMValueRef id[3], global[3], next[3];
  LLVMBasicBlockRef headers[3] = {x_loop, y_loop, z_loop};
  LLVMBasicBlockRef preheaders[3] = {y_loop, z_loop, entry};
  for (unsigned d = 3; d-- > 0;) {
    LLVMPositionBuilderAtEnd(builder, headers[d]);
    id[d] = LLVMBuildPhi(builder, i64, d == 0 ? "lx" : d == 1 ? "ly" : "lz");
    global[d] = LLVMBuildAdd(builder, base[d], id[d], "");
    if (d > 0) LLVMBuildBr(builder, headers[d - 1]);
  }

  /* x: one work-item per iteration. */
  LLVMPositionBuilderAtEnd(builder, x_loop);
  unsigned n = info->arg_count;
  call_args[n] = wg;
  for (unsigned d = 0; d < 3; d++) {
    call_args[n + 1 + d] = id[d];
    call_args[n + 4 + d] = global[d];
  }
  LLVMValueRef call = LLVMBuildCall2(builder, LLVMGlobalGetValueType(body),
                                     body, call_args, body_params, "");
  free(call_args);
  LLVMValueRef loop_id = NULL, access_group = NULL;
  /* Not parallel: no forcing either; the cost model and runtime alias
   * checks decide, and a forced loop that cannot be widened would only
   * warn on stderr. */
  if (parallel) loop_metadata(context, &loop_id, &access_group);
  if (access_group) {
    LLVMSetMetadata(call,
                    LLVMGetMDKindIDInContext(context, "llvm.access.group", 17),
                    access_group);
  }
  LLVMBasicBlockRef latches[3] = {x_loop, x_done, y_done};
  LLVMBasicBlockRef exits[3] = {x_done, y_done, exit};
  for (unsigned d = 0; d < 3; d++) {
    if (d > 0) LLVMPositionBuilderAtEnd(builder, latches[d]);
    next_index(builder, id[d], &next[d]);
    LLVMValueRef more =
        LLVMBuildICmp(builder, LLVMIntULT, next[d], size[d], "");
    LLVMValueRef branch = LLVMBuildCondBr(builder, more, headers[d], exits[d]);
    if (d == 0 && loop_id) {
      LLVMSetMetadata(branch, LLVMGetMDKindIDInContext(context, "llvm.loop", 9),
                      loop_id);
    }
    LLVMValueRef incoming[2] = {zero, next[d]};
    LLVMBasicBlockRef from[2] = {preheaders[d], latches[d]};
    LLVMAddIncoming(id[d], incoming, from, 2);
  }
  LLVMPositionBuilderAtEnd(builder, exit);
  LLVMBuildRetVoid(builder);
  LLVMDisposeBuilder(builder);
  return function;
}

/* clmux compiler: the OpenCL C front-end. Turns OpenCL C source and the
 * build options of clBuildProgram/clCompileProgram into an LLVM module in
 * the caller's LLVMContext, using Clang 19 in-process.
 *
 * The module targets x86_64-unknown-linux-gnu with the fake address-space
 * map (private 0, global 1, constant 2, local 3); kernels use the
 * spir_kernel calling convention and always carry the kernel_arg_*
 * metadata (including kernel_arg_name). Builtins are declared, not defined:
 * a later stage links the builtin library. */
#ifndef CLMUX_COMPILER_FRONTEND_H
#define CLMUX_COMPILER_FRONTEND_H

#include <llvm-c/Types.h>
#include <stddef.h>

#include "opencl_version.h"

/* OpenCL C 3.0's optional features the CPU device has, in the order
 * CL_DEVICE_OPENCL_C_FEATURES lists them; -cl-std=CL3.0 compiles with
 * exactly these. */
extern const char *const cc_opencl_c_features[];
extern const size_t cc_opencl_c_feature_count;

/* One in-memory header, as clCompileProgram's input_headers and
 * header_include_names give it: `#include "name"` finds `text`. */
typedef struct cc_header {
  const char *name;
  const char *text; /* NUL-terminated */
} cc_header;

typedef enum cc_frontend_result {
  CC_FRONTEND_SUCCESS = 0,
  /* Unknown or malformed build option: CL_INVALID_BUILD_OPTIONS. */
  CC_FRONTEND_INVALID_OPTIONS,
  /* The source did not compile: CL_BUILD_PROGRAM_FAILURE (or
   * CL_COMPILE_PROGRAM_FAILURE); the log says why. */
  CC_FRONTEND_COMPILE_FAILED,
  CC_FRONTEND_OUT_OF_MEMORY,
} cc_frontend_result;

/* Compiles `source_length` bytes of OpenCL C. `options` may be NULL or
 * blank. On success *out_module is a new module owned by the caller (in
 * `context`); otherwise it is NULL. *out_log (if out_log is not NULL) is
 * always set: a malloc'd, NUL-terminated log (Clang's diagnostics with
 * file:line:column, warnings included; possibly empty) for the caller to
 * free(), or NULL when out of memory. Safe to call from several threads at
 * once, each with its own context. */
cc_frontend_result cc_compile_opencl_c(LLVMContextRef context,
                                       const char *source,
                                       size_t source_length,
                                       const char *options,
                                       const cc_header *headers,
                                       size_t num_headers,
                                       LLVMModuleRef *out_module,
                                       char **out_log);

#endif /* CLMUX_COMPILER_FRONTEND_H */

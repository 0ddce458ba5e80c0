/* clmux compiler: the C entry point of the C++ Clang shim. Everything that
 * need not be C++ (options, argument lists, logs) stays in C. */
#ifndef CLMUX_COMPILER_CLANG_SHIM_H
#define CLMUX_COMPILER_CLANG_SHIM_H

#include <stddef.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A file that exists only in memory for the compile. */
typedef struct cc_shim_file {
  const char *path; /* absolute */
  const char *text;
  size_t length;
} cc_shim_file;

typedef enum cc_shim_result {
  CC_SHIM_SUCCESS = 0,
  CC_SHIM_INVALID_ARGS, /* clang -cc1 rejected the argument list */
  CC_SHIM_FAILED,       /* the compile reported errors */
} cc_shim_result;

/* Runs `clang -cc1 args...` (args name the input file, which must be one
 * of `files`) with its own CompilerInstance, emitting LLVM IR into
 * `context`. *out_module is set on success; *out_log gets a malloc'd copy
 * of the diagnostics (NULL if out of memory). */
cc_shim_result cc_shim_compile(LLVMContextRef context,
                               const char *const *args, size_t num_args,
                               const cc_shim_file *files, size_t num_files,
                               LLVMModuleRef *out_module, char **out_log);

#ifdef __cplusplus
}
#endif

#endif /* CLMUX_COMPILER_CLANG_SHIM_H */

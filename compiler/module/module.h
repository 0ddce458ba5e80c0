/* clmux compiler — the module layer the OpenCL front-end calls: a program's
 * LLVM module with its own LLVMContext, compiled (clCompileProgram), linked
 * (clLinkProgram, clBuildProgram), serialized (CL_PROGRAM_BINARIES) and
 * reloaded, its kernels listed with the metadata clGetKernel*Info needs, and
 * each kernel specialized per local size into the executable container of
 * include/clmux/cpu_abi/binary_format.h, cached in memory.
 *
 * clBuildProgram = cc_module_compile + cc_module_link (one input) +
 * cc_module_finalize. A program created from a binary of ours is
 * cc_module_deserialize (+ link/finalize as its kind requires).
 *
 * Threads: each module owns its context, so different modules may be used
 * from different threads at once. One module's queries are read-only and
 * safe from any thread; cc_module_specialize, cc_module_serialize and
 * cc_module_link (on its inputs) serialize their LLVM work on the module.
 * cc_module_destroy must not overlap any other call on that module. */
#ifndef CLMUX_COMPILER_MODULE_H
#define CLMUX_COMPILER_MODULE_H

#include <clmux/cpu_abi/work_group_abi.h> /* cpu_bounds_record */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend.h" /* cc_header */
#include "spirv.h"    /* cc_spirv_value */

typedef struct cc_module cc_module;

typedef enum cc_module_result {
  CC_MODULE_SUCCESS = 0,
  CC_MODULE_INVALID_OPTIONS,    /* CL_INVALID_{BUILD,COMPILER,LINKER}_OPTIONS */
  CC_MODULE_COMPILE_FAILED,     /* CL_{COMPILE,BUILD}_PROGRAM_FAILURE */
  CC_MODULE_LINK_FAILED,        /* CL_LINK_PROGRAM_FAILURE */
  CC_MODULE_INVALID_BINARY,     /* CL_INVALID_BINARY */
  CC_MODULE_INVALID_OPERATION,  /* wrong kind of module for the call */
  CC_MODULE_INVALID_VALUE,      /* bad argument (no inputs, zero local size) */
  CC_MODULE_NO_KERNEL,          /* CL_INVALID_KERNEL_NAME */
  CC_MODULE_INVALID_LOCAL_SIZE, /* not the reqd_work_group_size */
  CC_MODULE_UNSUPPORTED,        /* valid OpenCL C codegen cannot do yet */
  CC_MODULE_INTERNAL_ERROR,     /* LLVM target, passes or emission failed */
  CC_MODULE_OUT_OF_MEMORY,
} cc_module_result;

/* CL_PROGRAM_BINARY_TYPE. */
typedef enum cc_module_kind {
  CC_MODULE_OBJECT = 1,     /* compiled, not linked */
  CC_MODULE_LIBRARY = 2,    /* linked with -create-library */
  CC_MODULE_EXECUTABLE = 3, /* linked: kernels can be specialized */
} cc_module_kind;

/* ---- Making modules --------------------------------------------------- */

/* Compiles OpenCL C (clCompileProgram; `options` may be NULL or blank) into
 * a new CC_MODULE_OBJECT, or NULL. *log (if log is not NULL) is always set
 * to a malloc'd NUL-terminated log (possibly empty; NULL when out of
 * memory) for the caller to free(); *out (if not NULL) gets the result. */
cc_module *cc_module_compile(const char *source, size_t length,
                             const char *options, const cc_header *headers,
                             size_t num_headers, char **log,
                             cc_module_result *out);

/* Compiles a SPIR-V module that passed cc_spirv_check, its
 * specialization constants set to `values` (the others keep their
 * defaults), into a new CC_MODULE_OBJECT, or NULL. Options as for
 * cc_module_compile (those of the preprocessor do nothing). Log and result
 * as for cc_module_compile; a module the translator refuses is
 * CC_MODULE_COMPILE_FAILED with its reasons in the log. */
cc_module *cc_module_compile_spirv(const void *il, size_t length,
                                   const cc_spirv_value *values, size_t count,
                                   const char *options, char **log,
                                   cc_module_result *out);

/* Links `count` objects and libraries (none changed) into a new module
 * (clLinkProgram): a CC_MODULE_LIBRARY with -create-library, else a
 * CC_MODULE_EXECUTABLE in which every non-builtin symbol must be defined.
 * Link options: -create-library, -enable-link-options (with
 * -create-library only) and the five math options of 5.6.5.2; options are
 * checked first, so cc_module_link(NULL, 0, options, ...) answers
 * CC_MODULE_INVALID_OPTIONS for bad ones (and INVALID_VALUE otherwise)
 * without linking anything. Duplicate
 * and undefined symbols are logged, CC_MODULE_LINK_FAILED. Log and result
 * as for cc_module_compile. */
cc_module *cc_module_link(cc_module *const *inputs, size_t count,
                          const char *options, char **log,
                          cc_module_result *out);

/* The module's code, kind and options as bytes (malloc'd into *bytes) that
 * cc_module_deserialize reads back: CL_PROGRAM_BINARIES. */
cc_module_result cc_module_serialize(cc_module *module, uint8_t **bytes,
                                     size_t *size);

/* A new module from cc_module_serialize's bytes, or NULL: anything that is
 * not such bytes (truncated, corrupted, other data) is
 * CC_MODULE_INVALID_BINARY with a reason in the log, never a crash. */
cc_module *cc_module_deserialize(const void *bytes, size_t size, char **log,
                                 cc_module_result *out);

/* Ends the build of an executable: specializes now every kernel that has a
 * reqd_work_group_size (for images of any format: its launches' are not
 * known yet). A kernel codegen cannot do yet (barriers...) does
 * not fail the build: its reason is cached and reported by
 * cc_module_specialize. Idempotent. */
cc_module_result cc_module_finalize(cc_module *module, char **log);

void cc_module_destroy(cc_module *module);

/* ---- What a module is ------------------------------------------------- */

cc_module_kind cc_module_get_kind(const cc_module *module);
/* The options it was compiled, linked or reloaded with ("" if none). */
const char *cc_module_options(const cc_module *module);
/* CC_OPTION_* flags of build_options.h (link math options included). */
unsigned cc_module_option_flags(const cc_module *module);

/* ---- Kernels and their arguments -------------------------------------- */

typedef enum cc_address_qualifier {
  CC_ADDRESS_PRIVATE = 0, /* by-value arguments and samplers */
  CC_ADDRESS_GLOBAL,      /* includes images */
  CC_ADDRESS_CONSTANT,
  CC_ADDRESS_LOCAL,
} cc_address_qualifier;

typedef enum cc_access_qualifier {
  CC_ACCESS_NONE = 0,
  CC_ACCESS_READ_ONLY,
  CC_ACCESS_WRITE_ONLY,
  CC_ACCESS_READ_WRITE,
} cc_access_qualifier;

/* Type qualifiers, OpenCL 1.2 rules: only pointer arguments have any;
 * __constant pointers are always const. */
enum {
  CC_TYPE_CONST = 1u << 0,
  CC_TYPE_RESTRICT = 1u << 1,
  CC_TYPE_VOLATILE = 1u << 2,
};

/* How clSetKernelArg takes the argument. */
typedef enum cc_module_arg_kind {
  CC_ARG_GLOBAL_POINTER,   /* a cl_mem buffer (or NULL) */
  CC_ARG_CONSTANT_POINTER, /* a cl_mem buffer (or NULL) */
  CC_ARG_LOCAL_POINTER,    /* a size, value NULL */
  CC_ARG_VALUE,            /* `size` bytes */
  CC_ARG_IMAGE,            /* a cl_mem image */
  CC_ARG_SAMPLER,          /* a cl_sampler */
} cc_module_arg_kind;

typedef struct cc_module_arg {
  const char *name;      /* CL_KERNEL_ARG_NAME */
  const char *type_name; /* canonical: "uint*", "float4", "image2d_t" */
  cc_address_qualifier address;
  cc_access_qualifier access;
  unsigned type_qualifiers; /* CC_TYPE_* */
  cc_module_arg_kind kind;
  uint32_t size; /* the arg_size clSetKernelArg expects for values; 8 for
                    pointers, images and samplers */
} cc_module_arg;

typedef struct cc_module_kernel {
  const char *name;
  uint32_t arg_count;
  const cc_module_arg *args;
  uint32_t reqd_work_group_size[3]; /* all 0 when absent */
  /* Its NDRanges must be uniform: OpenCL C 1.x, -cl-uniform-work-group-size
   * (Clang's "uniform-work-group-size" attribute says which). */
  bool uniform_work_groups;
  uint32_t work_group_size_hint[3]; /* all 0 when absent */
  const char *vec_type_hint;        /* "float4", or NULL */
  const char *attributes;           /* CL_KERNEL_ATTRIBUTES, may be "" */
  bool arg_info; /* its source was compiled with -cl-kernel-arg-info */
  uint64_t static_local_size; /* bytes of kernel-scope __local variables */
  uint64_t private_size;      /* scratch bytes per work-item (estimate) */
} cc_module_kernel;

/* Kernels in definition order; pointers live as long as the module. */
size_t cc_module_kernel_count(const cc_module *module);
const cc_module_kernel *cc_module_kernel_at(const cc_module *module,
                                            size_t index);
const cc_module_kernel *cc_module_find_kernel(const cc_module *module,
                                              const char *name);

/* ---- Code for one local size ------------------------------------------ */

/* The executable container (for muxCreateExecutable) of kernel `name` of an
 * executable module, specialized for `local_size` (each >= 1), or for all 0
 * code for any local size that runs non-uniform NDRanges (even of a kernel
 * with reqd_work_group_size, whose edge groups are smaller), built on the
 * first request and cached: later requests return the same pointer, valid
 * until the module is destroyed. Concurrent first requests build once. On
 * failure *reason (if not NULL) points at a module-owned message (e.g. why
 * the kernel is unsupported); failures are cached too. With an
 * `image_format` (not NULL, channel_order not 0: every image of the launch
 * has it) the code of an image kernel also holds a faster version for such
 * images; without, it is the code for any format alone, which compiles in
 * half the time. Either runs any images correctly, so the first request's
 * code serves every later one at that local size, whatever its format. */
cc_module_result cc_module_specialize(cc_module *module, const char *name,
                                      const uint32_t local_size[3],
                                      const cpu_image_format *image_format,
                                      const void **binary, size_t *size,
                                      const char **reason);

/* Whether the containers cc_module_specialize builds for this module check
 * their kernels' accesses: built with -clmux-bounds-check, or
 * CLMUX_BOUNDS_CHECK=1 in the environment (read once per process). Their
 * work-group functions then take a cpu_bounds_record's address after the
 * kernel's arguments (work_group_abi.h). */
bool cc_module_checks_bounds(const cc_module *module);

/* Program-scope global variables (OpenCL C 2.0 on): the bytes of the block
 * that holds them all (0: the program has none), which the caller
 * allocates once per program and passes to every kernel after its
 * arguments (before a bounds record); cc_module_write_globals writes their
 * initial values into it, at the address kernels will see, or fails with
 * a malloc'd reason in *error. */
uint64_t cc_module_globals_size(cc_module *module);
bool cc_module_write_globals(cc_module *module, uint8_t *block, char **error);

/* How many containers this module has built (cache misses), for tests. */
size_t cc_module_build_count(cc_module *module);

#endif /* CLMUX_COMPILER_MODULE_H */

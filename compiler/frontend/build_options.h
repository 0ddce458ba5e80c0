/* clmux compiler: the build options of clBuildProgram and clCompileProgram
 * (OpenCL 3.0 API specification, section 5.8.6; -cl-std up to CL3.0),
 * parsed and checked in C and translated into clang -cc1 arguments. */
#ifndef CLMUX_COMPILER_BUILD_OPTIONS_H
#define CLMUX_COMPILER_BUILD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* What later stages may need to know beyond the Clang arguments. */
enum {
  CC_OPTION_OPT_DISABLE = 1u << 0,       /* -cl-opt-disable */
  CC_OPTION_MAD_ENABLE = 1u << 1,        /* -cl-mad-enable */
  CC_OPTION_FAST_RELAXED_MATH = 1u << 2, /* -cl-fast-relaxed-math */
  CC_OPTION_FINITE_MATH_ONLY = 1u << 3,  /* -cl-finite-math-only */
  CC_OPTION_NO_SIGNED_ZEROS = 1u << 4,   /* -cl-no-signed-zeros */
  CC_OPTION_UNSAFE_MATH = 1u << 5,       /* -cl-unsafe-math-optimizations */
  CC_OPTION_DENORMS_ARE_ZERO = 1u << 6,  /* -cl-denorms-are-zero */
  CC_OPTION_SINGLE_PRECISION_CONST = 1u
                                     << 7,  /* -cl-single-precision-constant */
  CC_OPTION_STRICT_ALIASING = 1u << 8,      /* -cl-strict-aliasing */
  CC_OPTION_KERNEL_ARG_INFO = 1u << 9,      /* -cl-kernel-arg-info */
  CC_OPTION_NO_WARNINGS = 1u << 10,         /* -w */
  CC_OPTION_WARNINGS_ARE_ERRORS = 1u << 11, /* -Werror */
  CC_OPTION_BOUNDS_CHECK = 1u << 12,        /* -clmux-bounds-check */
  CC_OPTION_UNIFORM_WORK_GROUPS = 1u << 13, /* -cl-uniform-work-group-size */
};

typedef struct cc_build_options {
  char **args;      /* clang -cc1 arguments, each malloc'd */
  size_t num_args;
  size_t capacity;
  /* "CL1.1", "CL1.2" (the default) or "CL3.0" (the OpenCL layer allows it
   * only for a device that reports OpenCL 3.0) */
  const char *cl_std;
  unsigned flags;     /* CC_OPTION_* */
} cc_build_options;

/* Parses `options` (NULL or blank is fine). Returns true on success; on
 * false, *out_error (if not NULL) is a malloc'd message naming the bad
 * option (NULL when out of memory) and `out` holds nothing. */
bool cc_parse_build_options(const char *options, cc_build_options *out,
                            char **out_error);

void cc_build_options_free(cc_build_options *options);

#endif /* CLMUX_COMPILER_BUILD_OPTIONS_H */

/* clmux kernel fuzzer: random OpenCL C kernels, free of undefined
 * behaviour by construction, and the launch each is run with. The same
 * seed gives the same kernel and inputs on every machine, so a seed is a
 * whole reproducer. */
#ifndef CLMUX_TOOLS_FUZZ_KERNEL_GEN_H
#define CLMUX_TOOLS_FUZZ_KERNEL_GEN_H

#include <stddef.h>
#include <stdint.h>

/* What a kernel uses, counted in the fuzzer's summary. */
enum {
  FEATURE_DIVERGENT_IF,
  FEATURE_UNIFORM_IF,
  FEATURE_DIVERGENT_LOOP,
  FEATURE_UNIFORM_LOOP,
  FEATURE_BREAK,
  FEATURE_CONTINUE,
  FEATURE_EARLY_RETURN,
  FEATURE_BARRIER,
  FEATURE_LOCAL_ARRAY,
  FEATURE_GLOBAL_ATOMIC,
  FEATURE_LOCAL_ATOMIC,
  FEATURE_VECTOR,
  FEATURE_STRUCT,
  FEATURE_PRIVATE_ARRAY,
  FEATURE_FLOAT,
  FEATURE_BUILTIN,
  FEATURE_IMAGE_READ,
  FEATURE_IMAGE_WRITE,
  FEATURE_HELPER_CALL,
  FEATURE_WRAPPING_INDEX,
  FEATURE_COUNT
};

extern const char *const kernel_gen_feature_names[FEATURE_COUNT];

/* Image sizes the generated kernels assume (CL_RGBA, CL_UNSIGNED_INT32). */
enum {
  KERNEL_GEN_IMAGE_W = 23,
  KERNEL_GEN_IMAGE_H = 7,
  KERNEL_GEN_COUNTERS = 8
};

typedef struct kernel_case {
  char *source;         /* malloc'd; the kernel is named "fuzz" */
  size_t global, local; /* local 0: the implementation chooses */
  uint32_t k0, k1;      /* the uniform arguments */
  int images;           /* 1: the kernel takes an input and an output image */
  unsigned features[FEATURE_COUNT];
} kernel_case;

/* Generates case `seed`; `size` scales the statements (1 is typical). */
void kernel_gen(uint64_t seed, int size, kernel_case *out);
void kernel_case_free(kernel_case *c);

/* The input buffer's word i, and the input image's word i, for a seed. */
uint32_t kernel_gen_input(uint64_t seed, size_t i);

#endif

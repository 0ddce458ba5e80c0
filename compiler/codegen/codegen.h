/* clmux compiler — code generation for the CPU target.
 *
 * From an OpenCL kernel in LLVM IR (as Clang 19 emits it for OpenCL C 1.2
 * with -ffake-address-space-map -fdeclare-opencl-builtins
 * -finclude-default-header -O2 -disable-llvm-passes) to a work-group
 * function with the ABI of include/clmux/cpu_abi/work_group_abi.h,
 * optimized and vectorized across work-item x for the host CPU, emitted as
 * an object and wrapped in the container of
 * include/clmux/cpu_abi/binary_format.h.
 *
 * Barriers (also in called functions, loops and uniform conditionals) cut
 * the kernel into regions, each its own vectorized work-item loop nest;
 * what lives across a barrier goes to wg->scratch. Kernel-scope __local
 * variables lie at fixed offsets at the start of wg->local_memory.
 *
 * Threads: LLVM contexts are not thread-safe, so calls on modules of one
 * context must not overlap; a cc_target serves one thread at a time. */
#ifndef CLMUX_COMPILER_CODEGEN_H
#define CLMUX_COMPILER_CODEGEN_H

#include <clmux/cpu_abi/work_group_abi.h> /* cpu_image_format */
#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cc_status {
  cc_success = 0,
  cc_error_no_kernel,     /* no spir_kernel function of that name */
  cc_error_unsupported,   /* valid OpenCL C this step cannot compile yet */
  cc_error_invalid_value, /* bad request, e.g. a local size of 0 in part */
  cc_error_invalid_ir,    /* the verifier refused the generated module */
  cc_error_llvm,          /* target, pass pipeline or emission failed */
  cc_error_out_of_memory
} cc_status;

/* A human-readable reason for the last failure; may be passed as NULL. */
typedef struct cc_log {
  char text[512];
} cc_log;

/* ---- Kernel arguments: how each one lies in the argument block -------- */

typedef enum cc_arg_kind {
  cc_arg_global_pointer,   /* __global T*: a buffer */
  cc_arg_constant_pointer, /* __constant T*: a buffer */
  cc_arg_local_pointer,    /* __local T*: a shared local buffer */
  cc_arg_value             /* scalars, vectors, structs: the bytes */
} cc_arg_kind;

typedef struct cc_arg_layout {
  cc_arg_kind kind;
  uint32_t size;   /* bytes in the block: 8 for pointers, else sizeof */
  uint32_t offset; /* aligned to cpu_arg_alignment(size) */
} cc_arg_layout;

typedef struct cc_kernel_info {
  uint32_t arg_count;
  cc_arg_layout *args;         /* arg_count entries (malloc'd) */
  uint32_t args_size;          /* end of the last argument */
  uint32_t reqd_local_size[3]; /* reqd_work_group_size, or all 0 */
  uint64_t local_memory_size;  /* static __local bytes it reaches */
  uint64_t scratch_size;       /* per work-item bytes kept across barriers:
                                  an upper bound, 0 without barriers */
} cc_kernel_info;

/* Whether `name` (`length` bytes, as kernel_arg_base_type spells it,
 * perhaps after an access qualifier) is one of OpenCL C 1.2's image
 * types: exactly, as a struct may well be called image_something. */
bool cc_is_image_type(const char *name, size_t length);

/* Describes kernel `name` of `module` without changing the module. */
cc_status cc_codegen_kernel_info(LLVMModuleRef module, const char *name,
                                 cc_kernel_info *info, cc_log *log);
void cc_kernel_info_release(cc_kernel_info *info);

/* ---- One work-group function ------------------------------------------ */

/* The function attribute a work-group function carries when the
 * whole-function vectorizer widened its kernel: the lanes, in decimal. */
#define CC_VECTOR_LANES_ATTRIBUTE "clmux-vector-lanes"

/* Builds, in a new module of the source's context (the source is not
 * changed), the external function `symbol` of type
 *   void (const uint8_t *args, const cpu_work_group *wg)
 * that runs kernel `name` for every work-item of one work-group. With a
 * local size of all 1..N the loops have constant trip counts and the code
 * runs only with that local size; all 0 reads it from wg at run time (the
 * kernel's reqd_work_group_size, if any, wins). Everything but `symbol` is
 * internal. The result is verified but not yet optimized. The function
 * expects the kernel's static __local data at the start of
 * wg->local_memory and, for a kernel with barriers, the scratch that
 * cc_codegen_build writes into the container (cc_binary_kernel::scratch
 * bytes per work-item) at wg->scratch. */
cc_status cc_codegen_work_group(LLVMModuleRef source, const char *name,
                                const uint32_t local_size[3],
                                const char *symbol, LLVMModuleRef *out,
                                cc_log *log);

/* ---- Programs with many kernels ----------------------------------------
 *
 * Building a work-group function costs in the size of the module it
 * starts from (it copies it). For a program of many kernels, split it once
 * and build each kernel from its own module: same code, in time that does
 * not grow with the program. */

/* One new module per kernel names[i] (in the source's context, not
 * changed) into modules[i]: that kernel, still external, and only what it
 * reaches, all else internal. Costs about log2(count) copies of the
 * source. The caller disposes of the modules. */
cc_status cc_codegen_split(LLVMModuleRef source, const char *const *names,
                           uint32_t count, LLVMModuleRef *modules,
                           cc_log *log);

/* Drops from `module` (a linked program) every function no kernel
 * reaches: a program including a library of helpers (hashcat's
 * KERNEL_STATIC sources) would otherwise carry them through every copy
 * and build. So go __constant variables none reaches; __global ones stay
 * (the host sees their sizes). */
cc_status cc_codegen_drop_unreached(LLVMModuleRef module, cc_log *log);

/* Builtin library functions whose names start with this stay out of line
 * (every other helper is inlined into the kernel): their calls carry
 * vector variants that the loop vectorizer calls instead (their vector
 * forms loop over whole vectors, which inlined would stop it). */
#define CC_VECTOR_VARIANT_PREFIX "__clmux_vv_"

/* Whether codegen itself lowers the builtin of that mangled name (the
 * work-item functions, fences, barriers): no library needs to define it. */
bool cc_codegen_lowers(const char *name);

/* ---- The host target -------------------------------------------------- */

typedef struct cc_target cc_target;

/* A target machine for the host CPU (name and features), PIC, aggressive
 * optimization. One target must not be used by two threads at once. */
cc_status cc_target_create_host(cc_target **out, cc_log *log);
/* The same for another x86-64 CPU (LLVM's name, and features as
 * "+avx512f,+avx512fp16"): what clmux makes of a kernel on it. */
cc_status cc_target_create_named(const char *cpu, const char *features,
                                 cc_target **out, cc_log *log);
void cc_target_destroy(cc_target *target);
/* The widest vector registers the host has, in bits (512, 256 or 128): the
 * width the work-item loops are vectorized at. */
unsigned cc_target_vector_bits(const cc_target *target);
const char *cc_target_cpu_name(const cc_target *target);

/* Sets the module's triple and data layout to the target's. */
void cc_target_adopt_module(const cc_target *target, LLVMModuleRef module);
/* default<O3> for the target. */
cc_status cc_codegen_optimize(const cc_target *target, LLVMModuleRef module,
                              cc_log *log);
/* An x86-64 ELF relocatable object of the module, in memory. */
cc_status cc_codegen_emit_object(const cc_target *target, LLVMModuleRef module,
                                 LLVMMemoryBufferRef *object, cc_log *log);
/* The module's assembly text (malloc'd), for inspection and tests. */
cc_status cc_codegen_emit_assembly(const cc_target *target,
                                   LLVMModuleRef module, char **text,
                                   cc_log *log);

/* ---- The executable container (binary_format.h) ----------------------- */

typedef struct cc_binary_kernel {
  const char *name;   /* the OpenCL kernel name */
  const char *symbol; /* its work-group function in the object */
  uint64_t local_memory; /* static __local bytes */
  uint64_t scratch;      /* bytes per work-item kept across barriers */
  uint32_t preferred_local_size[3]; /* each >= 1 */
  uint32_t required_local_size[3];  /* all 0, or each >= 1 */
  uint32_t flags;                   /* CPU_BINARY_KERNEL_* */
  uint32_t sub_group_size;          /* work-items a sub-group, >= 1 */
} cc_binary_kernel;

/* Writes a container (malloc'd into *out) holding `object`. */
cc_status cc_binary_write(const cc_binary_kernel *kernels, uint32_t count,
                          const void *object, size_t object_size, uint8_t **out,
                          size_t *out_size, cc_log *log);

/* ---- Program-scope global variables (program_globals.c) ----------------- */

/* The program's addrspace(1) variables (OpenCL C 2.0 on: program-scope and
 * static __global ones) live in one block per program, which the caller
 * allocates and which every kernel of the program reaches through a
 * hidden argument: their places in it, in module order, by name (a
 * module split per kernel keeps the names, not the order). */
typedef struct cc_program_globals {
  size_t count;
  char **names;
  uint64_t *offsets;
  uint64_t size; /* the block's bytes; 0: no variable, no hidden argument */
} cc_program_globals;

cc_status cc_program_globals_of(LLVMModuleRef module, cc_program_globals *out);
void cc_program_globals_release(cc_program_globals *globals);
/* Writes the variables' initial values into `block` (globals->size bytes
 * at the address kernels will see): pointers to other variables become
 * their addresses in the block. Fails (with the reason in *log) for an
 * initializer it cannot lay out, such as a pointer to __constant data. */
cc_status cc_program_globals_write(LLVMModuleRef module,
                                   const cc_program_globals *globals,
                                   uint8_t *block, cc_log *log);

/* ---- All of it --------------------------------------------------------- */

typedef struct cc_kernel_request {
  const char *name;
  uint32_t local_size[3]; /* as for cc_codegen_work_group */
  /* CLMUX_BOUNDS_CHECK: every access to __global, __constant and __local
   * memory is checked; the function then takes, after the kernel's
   * arguments (and the globals' block), at the next multiple of 8, the
   * address of a cpu_bounds_record (work_group_abi.h) that the caller
   * fills with each argument's extent and reads after the launch. */
  bool bounds_check;
  /* The program's global variables (NULL or size 0: none); with some, the
   * function takes the block's address after the kernel's arguments, at
   * the next multiple of 8. */
  const cc_program_globals *globals;
  /* Code for every local size (local_size all 0), reqd_work_group_size or
   * not: it runs the groups of a non-uniform NDRange, whose sizes differ
   * at its edges (cpu_work_group's enqueued_local_size). */
  bool non_uniform;
  /* A kernel with image arguments whose launches have images all of one
   * format: a version for that format beside the one for any, and a
   * dispatcher (image_versions.c); channel_order 0: only the version for
   * any format, half the compile. */
  cpu_image_format image_format;
} cc_kernel_request;

/* False when CLMUX_VECTORIZE=0: kernels then keep their control flow and
 * run one work-item at a time (no whole-function vectorizer), the
 * reference that tools/fuzz/kernel_fuzz.c compares the vector code with. */
bool cc_codegen_vectorizes(void);

/* Generates, links, optimizes and emits `count` work-group functions of
 * `source` (not changed) into one object and wraps it into a container
 * (malloc'd into *binary). If `module_out` is not NULL it receives the
 * optimized module (the caller disposes of it), for inspection. */
cc_status cc_codegen_build(const cc_target *target, LLVMModuleRef source,
                           const cc_kernel_request *kernels, uint32_t count,
                           uint8_t **binary, size_t *binary_size,
                           LLVMModuleRef *module_out, cc_log *log);

#endif /* CLMUX_COMPILER_CODEGEN_H */

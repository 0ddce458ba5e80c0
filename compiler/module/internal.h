/* clmux compiler — the module layer: what its files share. */
#ifndef CLMUX_COMPILER_MODULE_INTERNAL_H
#define CLMUX_COMPILER_MODULE_INTERNAL_H

#include <llvm-c/Core.h>
#include <pthread.h>

#include "codegen.h"
#include "module.h"

/* A growing log; `failed` records that memory ran out on the way. */
typedef struct cc_text {
  char *data;
  size_t length, capacity;
  bool failed;
} cc_text;

void cc_text_add(cc_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* Hands the text to the caller's *out (or frees it); NULL if it failed. */
void cc_text_give(cc_text *text, char **out);
char *cc_module_strdup(const char *text);

/* One specialization: building (another thread waits) or done. */
typedef struct cc_spec {
  struct cc_spec *next;
  size_t kernel;
  uint32_t local_size[3];
  cpu_image_format image_format; /* cc_module_specialize's, or all 0 */
  bool done;
  cc_module_result result;
  uint8_t *binary;
  size_t size;
  char *reason;
} cc_spec;

struct cc_module {
  LLVMContextRef context;
  LLVMModuleRef llvm;
  cc_module_kind kind;
  char *options;
  unsigned flags;
  cc_module_kernel *kernels;
  size_t kernel_count;
  /* LLVM contexts are not thread-safe: all LLVM work on this one holds
   * llvm_lock. The cache has its own lock so hits never wait on a build. */
  pthread_mutex_t llvm_lock;
  pthread_mutex_t cache_lock;
  pthread_cond_t cache_done;
  cc_spec *cache;
  size_t builds;
  cc_target *target;
  cc_text *diagnostics; /* where LLVM's errors go while set */
  uint8_t digest[32];    /* SHA-256 of the bitcode, for disk-cache keys */
  /* One module per kernel (cc_codegen_split), made at the first build of
   * a program with many kernels, so each build starts from a small copy. */
  LLVMModuleRef *parts;
  bool split_tried;
  bool digest_ready;
  /* The program's global variables (program_globals.c of codegen), laid
   * out at the first need, under llvm_lock. */
  cc_program_globals globals;
  bool globals_ready;
};

/* module->globals, laid out if not yet (llvm_lock held); false without
 * memory. */
bool cc_module_lay_out_globals(cc_module *module);

/* A module of `kind` with a fresh context and no code yet, or NULL. */
cc_module *cc_module_new(cc_module_kind kind, const char *options,
                         unsigned flags);
/* Ends a compile: hands `text` to *log, `result` to *out, and returns
 * `module`, or NULL (having destroyed it) unless the result is success. */
cc_module *cc_module_finish(cc_module *module, cc_module_result result,
                            cc_text *text, char **log, cc_module_result *out);
/* Takes `llvm` (in module->context) and lists its kernels. */
cc_module_result cc_module_adopt(cc_module *module, LLVMModuleRef llvm,
                                 cc_text *log);

/* The kernel table of module->llvm (kernels.c). */
cc_module_result cc_kernels_read(cc_module *module, cc_text *log);
void cc_kernels_free(cc_module *module);

/* The named metadata listing kernels compiled with -cl-kernel-arg-info. */
#define CC_ARG_INFO_METADATA "clmux.kernel_arg_info"

/* Bitcode of module->llvm, under its lock. */
LLVMMemoryBufferRef cc_module_bitcode(cc_module *module);

/* Functions and globals an executable must not leave undefined. A
 * `prepared` executable (one read back from a binary, its builtins
 * linked) may also call the math library the builtins call (SLEEF). */
bool cc_check_defined(LLVMModuleRef module, bool prepared, cc_text *log);

/* An executable's module after linking (prepare.c): printf lowered, the
 * builtin library linked in, unimplemented builtins warned about.
 * `relaxed_math`: the link options allow approximate math in every call. */
cc_module_result cc_prepare_executable(LLVMModuleRef llvm, bool relaxed_math,
                                       cc_text *log);
/* The first builtin kernel `name` calls (transitively) that nothing
 * implements, or NULL. */
const char *cc_kernel_missing_builtin(LLVMModuleRef llvm, const char *name);

/* The disk cache (disk_cache.c): a compiled object for exactly these
 * inputs, or NULL; and a kernel's container (malloc'd) for that local
 * size. The kernel calls run under module->llvm_lock. */
cc_module *cc_disk_cache_find_object(const char *source, size_t length,
                                     const char *options,
                                     const cc_header *headers,
                                     size_t num_headers);
void cc_disk_cache_store_object(cc_module *module, const char *source,
                                size_t length, const char *options,
                                const cc_header *headers, size_t num_headers);
/* The same for a SPIR-V module's object (from_spirv.c), keyed by its words,
 * specialization values, options and the translator installed. */
cc_module *cc_disk_cache_find_spirv(const void *il, size_t length,
                                    const cc_spirv_value *values, size_t count,
                                    const char *options);
void cc_disk_cache_store_spirv(cc_module *module, const void *il, size_t length,
                               const cc_spirv_value *values, size_t count,
                               const char *options);
/* cc_module_deserialize without naming the module by its bytes: for the
 * disk cache's objects, which are named by their compile key. */
cc_module *cc_module_read_serialized(const void *bytes, size_t size, char **log,
                                     cc_module_result *out);
/* Names `module` for the kernel entries by what it was made from: the
 * same inputs give the same code, and writing a big program's bitcode to
 * hash it takes long (hashcat's: 0.8 s at its first launch). */
void cc_disk_cache_name_object(cc_module *module, const char *source,
                               size_t length, const char *options,
                               const cc_header *headers, size_t num_headers);
void cc_disk_cache_name_link(cc_module *module, cc_module *const *inputs,
                             size_t count, const char *options);
void cc_disk_cache_name_binary(cc_module *module, const void *bytes,
                               size_t size);
/* The container of `spec` (its kernel, local size and image versions). */
bool cc_disk_cache_find_kernel(cc_module *module, const cc_spec *spec,
                               uint8_t **binary, size_t *size);
void cc_disk_cache_store_kernel(cc_module *module, const cc_spec *spec,
                                const uint8_t *binary, size_t size);

#endif /* CLMUX_COMPILER_MODULE_INTERNAL_H */

/* clmux compiler: the SPIR-V front-end (clCreateProgramWithIL).
 *
 * clmux reads SPIR-V through Khronos' SPIRV-LLVM-Translator, which Debian
 * ships for LLVM 15 only (`llvm-spirv-15`). It runs as a child process:
 * SPIR-V in, LLVM 15 bitcode out, which LLVM 19 reads. A crash, hang or
 * assertion of the translator on bad input fails the build with a log and
 * cannot touch the application. Around it, clmux's own code checks a
 * module's structure before anything runs, lists and sets its
 * specialization constants in the words themselves (exact for every type),
 * and turns the translator's SPIR IR into the shape the OpenCL C
 * front-end gives (frontend.h), so everything after Clang is shared. */
#ifndef CLMUX_COMPILER_SPIRV_H
#define CLMUX_COMPILER_SPIRV_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The newest SPIR-V version clmux reads: 1.6. The translator reads 1.4
 * modules but aborts on 1.4's new instructions; those and what 1.5 and 1.6
 * add for kernels (pointer bitcasts, uniform decorations, the
 * nontemporal image operand) lower.c rewrites. */
#define CC_SPIRV_MAX_MINOR 6

/* ---- The words themselves (reader.c) ---------------------------------- */

/* NULL if `length` bytes are a SPIR-V module made of whole instructions
 * (either byte order, version 1.0 to 1.6), else why not (static text). */
const char *cc_spirv_check(const void *il, size_t length);

/* The minor version of a module cc_spirv_check accepted (1.x). */
unsigned cc_spirv_minor_version(const void *il, size_t length);

/* A specialization constant: its SpecId and the size of its value in
 * bytes as clSetProgramSpecializationConstant takes it (1 for booleans). */
typedef struct cc_spirv_constant {
  uint32_t id;
  uint32_t size;
} cc_spirv_constant;

/* The module's specialization constants, malloc'd into *constants (NULL
 * when there are none); false when out of memory. The module must have
 * passed cc_spirv_check. */
bool cc_spirv_constants(const void *il, size_t length,
                        cc_spirv_constant **constants, size_t *count);

/* A value given to a specialization constant (size as listed above). */
typedef struct cc_spirv_value {
  uint32_t id;
  uint32_t size;
  uint64_t bits; /* the value's bytes, little-endian */
} cc_spirv_value;

/* The module as the translator gets it (malloc'd, *prepared_length
 * bytes), or NULL when out of memory: in host byte order, the given
 * values written over the defaults of their constants, and scalar
 * OpConstantNull (valid, but the translator asserts) as OpConstant. */
uint32_t *cc_spirv_prepare(const void *il, size_t length,
                           const cc_spirv_value *values, size_t count,
                           size_t *prepared_length);

/* The module (host byte order, `words` taken) with what the translator
 * cannot read written in terms it can (lower.c): SPIR-V 1.4 to 1.6's new
 * instructions and operands (the header then says 1.3) and OpCopyMemory.
 * NULL with
 * *reason (static text) if something cannot be rewritten (an OpPtrDiff
 * over a type of unknown size, say) or memory ran out. *length is
 * updated. */
uint32_t *cc_spirv_lower(uint32_t *words, size_t *length, const char **reason);

/* ---- Into LLVM (translate.c, conventions.c) --------------------------- */

typedef enum cc_spirv_result {
  CC_SPIRV_SUCCESS = 0,
  CC_SPIRV_FAILED, /* the log says why */
  CC_SPIRV_OUT_OF_MEMORY,
} cc_spirv_result;

/* Whether the translator this build was configured with can be run, and
 * its path. */
bool cc_spirv_available(void);
const char *cc_spirv_translator(void);

/* Translates a module that passed cc_spirv_check, specialized with
 * `values`, into a new module in `context` with the OpenCL C front-end's
 * conventions; the caller gives it the host's triple and data layout (the
 * translator's are SPIR's). *out_log is always set (malloc'd, possibly empty;
 * NULL only when out of memory). */
cc_spirv_result cc_spirv_translate(LLVMContextRef context, const void *il,
                                   size_t length, const cc_spirv_value *values,
                                   size_t count, LLVMModuleRef *out_module,
                                   char **out_log);

/* The translator's SPIR IR given the front-end's conventions: functions
 * and calls of the C convention, not spir_func. */
void cc_spirv_adopt_conventions(LLVMModuleRef module);

#endif /* CLMUX_COMPILER_SPIRV_H */

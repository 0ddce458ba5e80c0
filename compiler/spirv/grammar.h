/* clmux compiler: SPIRV-Tools' parser for the SPIR-V front-end's own
 * reading. Only grammar.c includes libspirv.h (whose C form defines a
 * constant in the header). */
#ifndef CLMUX_COMPILER_SPIRV_GRAMMAR_H
#define CLMUX_COMPILER_SPIRV_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One instruction as the parser saw it: where it starts (in words from
 * the module's start), its length, opcode, result type and result id
 * (0 when it has none). */
typedef struct cc_spirv_instruction {
  size_t at;
  uint32_t count, opcode, type, result;
} cc_spirv_instruction;

/* Parses `count` words (host or reversed byte order, aligned) against the
 * SPIR-V grammar of every version, calling `each` (if not NULL) for every
 * instruction; `each` returns false to stop. Whether the whole module
 * parsed. */
bool cc_spirv_parse(const uint32_t *words, size_t count,
                    bool (*each)(void *data,
                                 const cc_spirv_instruction *instruction),
                    void *data);

#endif /* CLMUX_COMPILER_SPIRV_GRAMMAR_H */

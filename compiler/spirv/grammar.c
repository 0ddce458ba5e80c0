/* clmux compiler: cc_spirv_parse over SPIRV-Tools' spvBinaryParse, which
 * checks every instruction's operands against the grammar and is fuzzed
 * for untrusted input. */
#include "grammar.h"

#include <spirv-tools/libspirv.h>

typedef struct parse_state {
  const uint32_t *words;
  bool (*each)(void *data, const cc_spirv_instruction *instruction);
  void *data;
} parse_state;

static spv_result_t on_instruction(void *data,
                                   const spv_parsed_instruction_t *parsed) {
  parse_state *state = data;
  cc_spirv_instruction instruction = {(size_t)(parsed->words - state->words),
                                      parsed->num_words, parsed->opcode,
                                      parsed->type_id, parsed->result_id};
  return state->each(state->data, &instruction) ? SPV_SUCCESS
                                                : SPV_REQUESTED_TERMINATION;
}

bool cc_spirv_parse(const uint32_t *words, size_t count,
                    bool (*each)(void *data,
                                 const cc_spirv_instruction *instruction),
                    void *data) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  if (!context) return false;
  parse_state state = {words, each, data};
  bool parsed =
      spvBinaryParse(context, &state, words, count, NULL,
                     each ? on_instruction : NULL, NULL) == SPV_SUCCESS;
  spvContextDestroy(context);
  return parsed;
}

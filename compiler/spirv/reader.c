/* clmux compiler: what clmux reads of SPIR-V words itself: the header and
 * instruction structure, the specialization constants, and their values.
 * Everything else is the translator's. Ids come from the input, so they
 * index nothing: tables are sorted lists, searched. */
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "spirv.h"

enum {
  SPIRV_MAGIC = 0x07230203u,
  SPIRV_HEADER_WORDS = 5,
  OP_DECORATE = 71,
  OP_CONSTANT_FALSE = 42,
  OP_CONSTANT = 43,
  OP_CONSTANT_NULL = 46,
  OP_TYPE_BOOL = 20,
  OP_TYPE_INT = 21,
  OP_TYPE_FLOAT = 22,
  OP_SPEC_CONSTANT_TRUE = 48,
  OP_SPEC_CONSTANT_FALSE = 49,
  OP_SPEC_CONSTANT = 50,
  DECORATION_SPEC_ID = 1,
};

static uint32_t swap32(uint32_t word) {
  return (word >> 24) | ((word >> 8) & 0xff00u) | ((word << 8) & 0xff0000u) |
         (word << 24);
}

/* Word `index` in host order (modules may be of either byte order). */
static uint32_t word_at(const void *il, size_t index, bool swapped) {
  uint32_t word;
  memcpy(&word, (const uint8_t *)il + index * 4, 4);
  return swapped ? swap32(word) : word;
}

static bool is_swapped(const void *il) {
  return word_at(il, 0, false) != SPIRV_MAGIC;
}

/* SPIRV-Tools' parser checks every instruction's operands against the
 * SPIR-V grammar (it is fuzzed for untrusted input): the translator, given
 * an instruction with too few operands, can run for minutes before it
 * asserts. Any version parses; the build refuses those clmux cannot read,
 * with a log. */
static bool operands_match_grammar(const void *il, size_t length) {
  uint32_t *words = malloc(length); /* `il` need not be aligned */
  bool parsed = false;
  if (words) {
    memcpy(words, il, length);
    parsed = cc_spirv_parse(words, length / 4, NULL, NULL);
  }
  free(words);
  return parsed;
}

const char *cc_spirv_check(const void *il, size_t length) {
  if (!il || length < SPIRV_HEADER_WORDS * 4) return "shorter than a header";
  if (length % 4) return "not a whole number of 32-bit words";
  uint32_t magic = word_at(il, 0, false);
  if (magic != SPIRV_MAGIC && magic != swap32(SPIRV_MAGIC)) {
    return "no SPIR-V magic number";
  }
  bool swapped = is_swapped(il);
  uint32_t version = word_at(il, 1, swapped);
  if ((version & 0xff0000ffu) != 0 || (version >> 16) != 1 ||
      ((version >> 8) & 0xff) > 6) {
    return "not a SPIR-V version from 1.0 to 1.6";
  }
  if (word_at(il, 3, swapped) == 0) return "an id bound of 0";
  if (word_at(il, 4, swapped) != 0) return "a reserved header word not 0";
  size_t words = length / 4;
  if (words == SPIRV_HEADER_WORDS) return "no instructions";
  for (size_t at = SPIRV_HEADER_WORDS; at < words;) {
    uint32_t count = word_at(il, at, swapped) >> 16;
    if (count == 0) return "an instruction of zero words";
    if (count > words - at) return "an instruction cut off by the end";
    at += count;
  }
  if (!operands_match_grammar(il, length)) {
    return "an instruction whose operands do not match the SPIR-V grammar";
  }
  return NULL;
}

unsigned cc_spirv_minor_version(const void *il, size_t length) {
  (void)length;
  return (word_at(il, 1, is_swapped(il)) >> 8) & 0xff;
}

/* ---- Specialization constants ------------------------------------------ */

typedef struct id_entry {
  uint32_t id;
  uint32_t value; /* a SpecId, a type id, or a type's size */
  uint32_t extra; /* types: a type_kind */
} id_entry;

/* What kind of scalar a type entry is: booleans and 8-bit integers are
 * both one byte. */
enum type_kind { TYPE_UNSIGNED_OR_FLOAT, TYPE_SIGNED, TYPE_BOOL };

typedef struct id_list {
  id_entry *entries;
  size_t count, capacity;
  bool failed;
} id_list;

static void list_add(id_list *list, uint32_t id, uint32_t value,
                     uint32_t extra) {
  if (list->failed) return;
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 16;
    id_entry *grown = realloc(list->entries, capacity * sizeof *grown);
    if (!grown) {
      list->failed = true;
      return;
    }
    list->entries = grown;
    list->capacity = capacity;
  }
  list->entries[list->count++] = (id_entry){id, value, extra};
}

static int by_id(const void *a, const void *b) {
  uint32_t x = ((const id_entry *)a)->id, y = ((const id_entry *)b)->id;
  return (x > y) - (x < y);
}

static const id_entry *list_find(const id_list *list, uint32_t id) {
  id_entry key = {id, 0, 0};
  return bsearch(&key, list->entries, list->count, sizeof key, by_id);
}

/* The module's SpecId decorations, spec constants (id -> type) and scalar
 * types (id -> size in bytes), each sorted by id. */
typedef struct spec_tables {
  id_list decorations, constants, types;
} spec_tables;

static void tables_free(spec_tables *tables) {
  free(tables->decorations.entries);
  free(tables->constants.entries);
  free(tables->types.entries);
}

static bool read_tables(const void *il, size_t length, spec_tables *tables) {
  memset(tables, 0, sizeof *tables);
  bool swapped = is_swapped(il);
  size_t words = length / 4;
  for (size_t at = SPIRV_HEADER_WORDS; at < words;) {
    uint32_t first = word_at(il, at, swapped);
    uint32_t count = first >> 16, opcode = first & 0xffff;
    uint32_t w1 = count > 1 ? word_at(il, at + 1, swapped) : 0;
    uint32_t w2 = count > 2 ? word_at(il, at + 2, swapped) : 0;
    uint32_t w3 = count > 3 ? word_at(il, at + 3, swapped) : 0;
    if (opcode == OP_DECORATE && count >= 4 && w2 == DECORATION_SPEC_ID) {
      list_add(&tables->decorations, w1, w3, 0);
    } else if (opcode == OP_TYPE_BOOL && count >= 2) {
      list_add(&tables->types, w1, 1, TYPE_BOOL);
    } else if ((opcode == OP_TYPE_INT && count >= 4) ||
               (opcode == OP_TYPE_FLOAT && count >= 3)) {
      bool known = w2 == 8 || w2 == 16 || w2 == 32 || w2 == 64;
      list_add(&tables->types, w1, known ? w2 / 8 : 0,
               opcode == OP_TYPE_INT && w3 == 1 ? TYPE_SIGNED
                                                : TYPE_UNSIGNED_OR_FLOAT);
    } else if ((opcode == OP_SPEC_CONSTANT_TRUE ||
                opcode == OP_SPEC_CONSTANT_FALSE ||
                opcode == OP_SPEC_CONSTANT) &&
               count >= 3) {
      list_add(&tables->constants, w2, w1, 0);
    }
    at += count;
  }
  if (tables->decorations.failed || tables->constants.failed ||
      tables->types.failed) {
    tables_free(tables);
    return false;
  }
  qsort(tables->decorations.entries, tables->decorations.count,
        sizeof(id_entry), by_id);
  qsort(tables->constants.entries, tables->constants.count, sizeof(id_entry),
        by_id);
  qsort(tables->types.entries, tables->types.count, sizeof(id_entry), by_id);
  return true;
}

/* The type entry of the constant a SpecId decoration names, or NULL. */
static const id_entry *decorated_type(const spec_tables *tables,
                                      const id_entry *decoration) {
  const id_entry *constant = list_find(&tables->constants, decoration->id);
  if (!constant) return NULL;
  const id_entry *type = list_find(&tables->types, constant->value);
  return type && type->value ? type : NULL;
}

bool cc_spirv_constants(const void *il, size_t length,
                        cc_spirv_constant **constants, size_t *count) {
  *constants = NULL;
  *count = 0;
  spec_tables tables;
  if (!read_tables(il, length, &tables)) return false;
  size_t n = tables.decorations.count;
  cc_spirv_constant *list = n ? malloc(n * sizeof *list) : NULL;
  if (n && !list) {
    tables_free(&tables);
    return false;
  }
  size_t found = 0;
  for (size_t i = 0; i < n; i++) {
    const id_entry *decoration = &tables.decorations.entries[i];
    const id_entry *type = decorated_type(&tables, decoration);
    if (type)
      list[found++] = (cc_spirv_constant){decoration->value, type->value};
  }
  tables_free(&tables);
  if (!found) {
    free(list);
    list = NULL;
  }
  *constants = list;
  *count = found;
  return true;
}

/* The value given for SpecId `spec_id`, or NULL. */
static const cc_spirv_value *value_for(const cc_spirv_value *values,
                                       size_t count, uint32_t spec_id) {
  for (size_t i = 0; i < count; i++) {
    if (values[i].id == spec_id) return &values[i];
  }
  return NULL;
}

/* Writes `value` into the spec constant instruction at words[at]. */
static void write_value(uint32_t *words, size_t at, const id_entry *type,
                        const cc_spirv_value *value) {
  uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
  if (opcode != OP_SPEC_CONSTANT) {
    uint32_t chosen =
        value->bits ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE;
    words[at] = (count << 16) | chosen;
    return;
  }
  uint64_t bits = value->bits;
  unsigned width = type->value * 8;
  if (width < 64) {
    bits &= (UINT64_C(1) << width) - 1;
    /* Narrow signed integers are sign-extended in their literal word. */
    if (type->extra == TYPE_SIGNED && width < 32 &&
        (bits >> (width - 1)) & 1) {
      bits |= ~((UINT64_C(1) << width) - 1) & 0xffffffffu;
    }
  }
  if (count > 3) words[at + 3] = (uint32_t)bits;
  if (count > 4) words[at + 4] = (uint32_t)(bits >> 32);
}

/* OpConstantNull of a scalar, which SPIR-V allows and the translator
 * rejects (it asserts), as the equal OpConstant or OpConstantFalse: a
 * new copy of `words` (freed) whose length goes to *length, or NULL. */
static uint32_t *scalar_nulls_as_constants(uint32_t *words, size_t *length,
                                           const spec_tables *tables) {
  size_t count = *length / 4, extra = 0;
  for (size_t at = SPIRV_HEADER_WORDS; at < count; at += words[at] >> 16) {
    if ((words[at] & 0xffff) != OP_CONSTANT_NULL || words[at] >> 16 != 3) {
      continue;
    }
    const id_entry *type = list_find(&tables->types, words[at + 1]);
    if (!type || type->value == 0) continue;
    if (type->extra == TYPE_BOOL) {
      words[at] = 3u << 16 | OP_CONSTANT_FALSE;
    } else {
      extra += type->value > 4 ? 2 : 1;
    }
  }
  if (!extra) return words;
  uint32_t *grown = malloc((count + extra) * 4);
  if (!grown) {
    free(words);
    return NULL;
  }
  size_t out = 0;
  for (size_t at = 0; at < count;) {
    size_t size = at < SPIRV_HEADER_WORDS ? 1 : words[at] >> 16;
    const id_entry *type = at >= SPIRV_HEADER_WORDS &&
                                   (words[at] & 0xffff) == OP_CONSTANT_NULL &&
                                   size == 3
                               ? list_find(&tables->types, words[at + 1])
                               : NULL;
    if (type && type->value && type->extra != TYPE_BOOL) {
      uint32_t literals = type->value > 4 ? 2 : 1;
      grown[out++] = (3 + literals) << 16 | OP_CONSTANT;
      grown[out++] = words[at + 1];
      grown[out++] = words[at + 2];
      while (literals--) grown[out++] = 0;
    } else {
      memcpy(grown + out, words + at, size * 4);
      out += size;
    }
    at += size;
  }
  free(words);
  *length = out * 4;
  return grown;
}

uint32_t *cc_spirv_prepare(const void *il, size_t length,
                           const cc_spirv_value *values, size_t count,
                           size_t *prepared_length) {
  size_t words = length / 4;
  uint32_t *copy = malloc(length);
  if (!copy) return NULL;
  memcpy(copy, il, length);
  if (is_swapped(il)) {
    for (size_t i = 0; i < words; i++) copy[i] = swap32(copy[i]);
  }
  spec_tables tables;
  if (!read_tables(copy, length, &tables)) {
    free(copy);
    return NULL;
  }
  for (size_t at = SPIRV_HEADER_WORDS; count && at < words;
       at += copy[at] >> 16) {
    uint32_t opcode = copy[at] & 0xffff;
    if ((copy[at] >> 16) < 3 ||
        (opcode != OP_SPEC_CONSTANT_TRUE && opcode != OP_SPEC_CONSTANT_FALSE &&
         opcode != OP_SPEC_CONSTANT)) {
      continue;
    }
    const id_entry *decoration = list_find(&tables.decorations, copy[at + 2]);
    if (!decoration) continue;
    const cc_spirv_value *value = value_for(values, count, decoration->value);
    const id_entry *type = decorated_type(&tables, decoration);
    if (value && type) write_value(copy, at, type, value);
  }
  *prepared_length = length;
  copy = scalar_nulls_as_constants(copy, prepared_length, &tables);
  tables_free(&tables);
  return copy;
}

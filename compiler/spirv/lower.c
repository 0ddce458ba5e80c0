/* clmux compiler: what llvm-spirv-15 cannot read, in terms it can. It
 * reads SPIR-V 1.4 modules but aborts on 1.4's new instructions, and it
 * fails on OpCopyMemory of any version. What changes:
 * - OpDecorateString and OpMemberDecorateString (annotations only) go;
 * - OpCopyMemory becomes an OpLoad and an OpStore; OpCopyMemorySized
 *   keeps its first set of memory operands (1.4 allows two);
 * - OpPtrEqual, OpPtrNotEqual and OpPtrDiff compare and subtract the
 *   pointers as integers (OpConvertPtrToU), OpPtrDiff dividing by the
 *   size of what they point to;
 * - OpCopyLogical copies member by member (OpCompositeExtract, then
 *   inserts as below), or is an OpCopyObject between equal types;
 * - OpCompositeConstruct (any version) becomes OpCompositeInsert after
 *   OpCompositeInsert into an OpUndef, a vector's vector parts component
 *   by component: llvm-spirv-15 builds it only of constants and crashes
 *   on anything else;
 * - OpVectorShuffle of two vectors of different lengths (SPIR-V allows
 *   it, LLVM's shufflevector does not) extracts and inserts component by
 *   component;
 * SPIR-V 1.5 and 1.6 add, for kernels:
 * - OpBitcast between a pointer and an integer or a vector of them, which
 *   becomes OpConvertPtrToU or OpConvertUToPtr (through an integer of the
 *   pointer's width for a vector);
 * - the Uniform and UniformId decorations and their capability, hints
 *   that go;
 * - the Nontemporal image operand, a hint that goes;
 * - an OpGroupNonUniformBroadcast whose index is not a constant, which
 *   the translator reads as it is;
 * and a 1.4 to 1.6 header says 1.3. SPIRV-Tools' parser (grammar.h) gives
 * each instruction's result type and id. */
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "spirv.h"

enum {
  HEADER_WORDS = 5,
  OP_UNDEF = 1,
  OP_CAPABILITY = 17,
  OP_MEMORY_MODEL = 14,
  OP_TYPE_INT = 21,
  OP_TYPE_FLOAT = 22,
  OP_TYPE_VECTOR = 23,
  OP_TYPE_ARRAY = 28,
  OP_TYPE_STRUCT = 30,
  OP_TYPE_POINTER = 32,
  OP_CONSTANT = 43,
  OP_FUNCTION = 54,
  OP_LOAD = 61,
  OP_STORE = 62,
  OP_DECORATE = 71,
  OP_COPY_MEMORY = 63,
  OP_COPY_MEMORY_SIZED = 64,
  OP_VECTOR_SHUFFLE = 79,
  OP_COMPOSITE_CONSTRUCT = 80,
  OP_COMPOSITE_EXTRACT = 81,
  OP_COMPOSITE_INSERT = 82,
  OP_COPY_OBJECT = 83,
  OP_IMAGE_SAMPLE_EXPLICIT_LOD = 88,
  OP_IMAGE_FETCH = 95,
  OP_IMAGE_READ = 98,
  OP_IMAGE_WRITE = 99,
  OP_CONVERT_PTR_TO_U = 117,
  OP_CONVERT_U_TO_PTR = 120,
  OP_BITCAST = 124,
  OP_S_CONVERT = 114,
  OP_I_SUB = 130,
  OP_S_DIV = 135,
  OP_I_EQUAL = 170,
  OP_I_NOT_EQUAL = 171,
  OP_COPY_LOGICAL = 400,
  OP_PTR_EQUAL = 401,
  OP_PTR_NOT_EQUAL = 402,
  OP_PTR_DIFF = 403,
  OP_DECORATE_ID = 332,
  OP_DECORATE_STRING = 5632,
  OP_MEMBER_DECORATE_STRING = 5633,
  CAPABILITY_INT64 = 11,
  CAPABILITY_UNIFORM_DECORATION = 6427,
  DECORATION_UNIFORM = 26,
  DECORATION_UNIFORM_ID = 27,
  IMAGE_OPERAND_NONTEMPORAL = 0x4000,
  MEMORY_ACCESS_ALIGNED = 0x2,
  MEMORY_ACCESS_MAKE_AVAILABLE = 0x8,
  MEMORY_ACCESS_MAKE_VISIBLE = 0x10,
  /* OpCopyLogical is expanded member by member up to this many. */
  MAX_COPY_LEAVES = 4096,
  MAX_TYPE_DEPTH = 32,
};

typedef cc_spirv_instruction instruction;

typedef struct id_index {
  uint32_t id;
  uint32_t instruction;
} id_index;

typedef struct module {
  const uint32_t *words;
  instruction *list;
  size_t count, capacity;
  id_index *ids; /* result ids, sorted */
  size_t id_count;
  bool failed;
} module;

static bool on_instruction(void *data, const instruction *parsed) {
  module *m = data;
  if (m->count == m->capacity) {
    size_t capacity = m->capacity ? m->capacity * 2 : 256;
    instruction *grown = realloc(m->list, capacity * sizeof *grown);
    if (!grown) {
      m->failed = true;
      return false;
    }
    m->list = grown;
    m->capacity = capacity;
  }
  m->list[m->count++] = *parsed;
  return true;
}

static int by_id(const void *a, const void *b) {
  uint32_t x = ((const id_index *)a)->id, y = ((const id_index *)b)->id;
  return (x > y) - (x < y);
}

/* The instruction defining `id`, or NULL. */
static const instruction *definition(const module *m, uint32_t id) {
  id_index key = {id, 0};
  const id_index *found = bsearch(&key, m->ids, m->id_count, sizeof key, by_id);
  return found ? &m->list[found->instruction] : NULL;
}

static uint32_t word(const module *m, const instruction *inst, size_t i) {
  return i < inst->count ? m->words[inst->at + i] : 0;
}

/* ---- Sizes of types (OpPtrDiff) ------------------------------------- */

/* Size and alignment in bytes as OpenCL lays types out (3-element vectors
 * take 4), or false for what has none here. */
static bool type_layout(const module *m, uint32_t type, unsigned depth,
                        uint64_t *size, uint64_t *align) {
  const instruction *t = definition(m, type);
  if (!t || depth > MAX_TYPE_DEPTH) return false;
  switch (t->opcode) {
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
      *size = *align = word(m, t, 2) / 8;
      return *size > 0;
    case OP_TYPE_POINTER:
      return false; /* the caller knows the pointer width */
    case OP_TYPE_VECTOR: {
      uint64_t element, element_align;
      if (!type_layout(m, word(m, t, 2), depth + 1, &element, &element_align)) {
        return false;
      }
      uint32_t lanes = word(m, t, 3) == 3 ? 4 : word(m, t, 3);
      *size = *align = element * lanes;
      return true;
    }
    case OP_TYPE_ARRAY: {
      const instruction *length = definition(m, word(m, t, 3));
      uint64_t element;
      if (!length || length->opcode != OP_CONSTANT ||
          !type_layout(m, word(m, t, 2), depth + 1, &element, align)) {
        return false;
      }
      *size = element * word(m, length, 3);
      return true;
    }
    case OP_TYPE_STRUCT: {
      uint64_t offset = 0, largest = 1;
      for (uint32_t i = 2; i < t->count; i++) {
        uint64_t member, member_align;
        if (!type_layout(m, word(m, t, i), depth + 1, &member, &member_align)) {
          return false;
        }
        offset = (offset + member_align - 1) / member_align * member_align;
        offset += member;
        if (member_align > largest) largest = member_align;
      }
      *size = (offset + largest - 1) / largest * largest;
      *align = largest;
      return true;
    }
    default:
      return false;
  }
}

/* ---- Output ----------------------------------------------------------- */

typedef struct output {
  uint32_t *words;
  size_t count, capacity;
  uint32_t bound;
  bool failed;
} output;

static void put(output *out, const uint32_t *words, size_t count) {
  if (out->failed) return;
  if (out->count + count > out->capacity) {
    size_t capacity = (out->count + count) * 2;
    uint32_t *grown = realloc(out->words, capacity * 4);
    if (!grown) {
      out->failed = true;
      return;
    }
    out->words = grown;
    out->capacity = capacity;
  }
  memcpy(out->words + out->count, words, count * 4);
  out->count += count;
}

static void put5(output *out, uint32_t opcode, uint32_t a, uint32_t b,
                 uint32_t c, uint32_t d) {
  put(out, (uint32_t[]){5u << 16 | opcode, a, b, c, d}, 5);
}

static uint32_t fresh(output *out) { return out->bound++; }

/* What the lowering adds before the first function. */
typedef struct globals {
  unsigned pointer_bits;
  uint32_t pointer_int; /* OpTypeInt of the pointer width */
  bool add_pointer_int; /* ... which the module lacks */
  bool add_int64;       /* OpCapability Int64, which it lacks */
  uint32_t *sizes;      /* per OpPtrDiff: its constant's id */
  uint64_t *size_values;
  size_t size_count;
} globals;

/* ---- Composites -------------------------------------------------------- */

/* The number of components of `id`'s type if it is a vector, else 1. */
static uint32_t components_of(const module *m, uint32_t id) {
  const instruction *value = definition(m, id);
  const instruction *type = value ? definition(m, value->type) : NULL;
  return type && type->opcode == OP_TYPE_VECTOR ? word(m, type, 3) : 1;
}

/* Emits composite `type` with id `result` made of `parts`, by inserting
 * them one by one into an OpUndef (a vector's vector parts component by
 * component); false if the type is unknown. */
static bool construct(const module *m, output *out, uint32_t type,
                      uint32_t result, const uint32_t *parts, uint32_t count) {
  const instruction *t = definition(m, type);
  if (!t) return false;
  bool vector = t->opcode == OP_TYPE_VECTOR;
  uint32_t slots = 0;
  for (uint32_t i = 0; i < count; i++) {
    slots += vector ? components_of(m, parts[i]) : 1;
  }
  uint32_t current = slots ? fresh(out) : result;
  put(out, (uint32_t[]){3u << 16 | OP_UNDEF, type, current}, 3);
  uint32_t slot = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t n = vector ? components_of(m, parts[i]) : 1;
    for (uint32_t j = 0; j < n; j++, slot++) {
      uint32_t value = parts[i];
      if (n > 1) {
        value = fresh(out);
        put5(out, OP_COMPOSITE_EXTRACT, word(m, t, 2), value, parts[i], j);
      }
      uint32_t next = slot + 1 == slots ? result : fresh(out);
      put(out,
          (uint32_t[]){6u << 16 | OP_COMPOSITE_INSERT, type, next, value,
                       current, slot},
          6);
      current = next;
    }
  }
  return true;
}

/* OpVectorShuffle of vectors of different lengths: the chosen components
 * extracted and inserted one by one; undefined ones (0xFFFFFFFF) left
 * out. */
static void shuffle_by_components(const module *m, output *out,
                                  const uint32_t *w, uint32_t count) {
  const instruction *t = definition(m, w[1]);
  uint32_t element = t ? word(m, t, 2) : 0;
  uint32_t first = components_of(m, w[3]);
  uint32_t chosen = 0;
  for (uint32_t i = 5; i < count; i++) chosen += w[i] != 0xffffffffu;
  uint32_t current = chosen ? fresh(out) : w[2];
  put(out, (uint32_t[]){3u << 16 | OP_UNDEF, w[1], current}, 3);
  for (uint32_t i = 5, done = 0; i < count; i++) {
    if (w[i] == 0xffffffffu) continue;
    bool from_first = w[i] < first;
    uint32_t value = fresh(out);
    put5(out, OP_COMPOSITE_EXTRACT, element, value, from_first ? w[3] : w[4],
         from_first ? w[i] : w[i] - first);
    uint32_t next = ++done == chosen ? w[2] : fresh(out);
    put(out,
        (uint32_t[]){6u << 16 | OP_COMPOSITE_INSERT, w[1], next, value,
                     current, i - 5},
        6);
    current = next;
  }
}

/* Whether OpVectorShuffle `inst` takes vectors of two types. */
static bool shuffle_of_two_types(const module *m, const instruction *inst) {
  const instruction *a = definition(m, word(m, inst, 3));
  const instruction *b = definition(m, word(m, inst, 4));
  return a && b && a->type != b->type;
}

/* ---- OpCopyLogical ---------------------------------------------------- */

/* Emits the value of `source` (of type `from`) as type `to`, under the id
 * `named` (0: any); returns the id holding it, 0 if it cannot be. Equal
 * members are used as they are (llvm-spirv-15 crashes on some
 * OpCopyObject). */
static uint32_t copy_logical(const module *m, output *out, uint32_t to,
                             uint32_t from, uint32_t source, uint32_t named,
                             unsigned depth, size_t *leaves) {
  if (to == from) {
    if (!named) return source;
    put(out, (uint32_t[]){4u << 16 | OP_COPY_OBJECT, to, named, source}, 4);
    return named;
  }
  const instruction *a = definition(m, to), *b = definition(m, from);
  if (!a || !b || a->opcode != b->opcode || depth > MAX_TYPE_DEPTH) return 0;
  uint32_t members = 0;
  if (a->opcode == OP_TYPE_STRUCT) {
    if (a->count != b->count) return 0;
    members = a->count - 2;
  } else if (a->opcode == OP_TYPE_ARRAY) {
    const instruction *length = definition(m, word(m, a, 3));
    const instruction *other = definition(m, word(m, b, 3));
    if (!length || !other || length->opcode != OP_CONSTANT ||
        other->opcode != OP_CONSTANT ||
        word(m, length, 3) != word(m, other, 3) || word(m, length, 4) != 0 ||
        word(m, other, 4) != 0) {
      return 0;
    }
    members = word(m, length, 3);
  } else {
    return 0;
  }
  if ((*leaves += members) > MAX_COPY_LEAVES) return 0;
  uint32_t *parts = malloc((members + 1) * sizeof *parts);
  if (!parts) return 0;
  uint32_t result = named ? named : fresh(out);
  for (uint32_t i = 0; i < members && result; i++) {
    bool is_struct = a->opcode == OP_TYPE_STRUCT;
    uint32_t member_to = word(m, a, is_struct ? 2 + i : 2);
    uint32_t member_from = word(m, b, is_struct ? 2 + i : 2);
    uint32_t extracted = fresh(out);
    put5(out, OP_COMPOSITE_EXTRACT, member_from, extracted, source, i);
    parts[i] = copy_logical(m, out, member_to, member_from, extracted, 0,
                            depth + 1, leaves);
    if (!parts[i]) result = 0;
  }
  if (result && !construct(m, out, to, result, parts, members)) result = 0;
  free(parts);
  return result;
}

/* ---- The instructions ------------------------------------------------- */

/* Words of a memory-operand set starting at `mask`. */
static uint32_t memory_operand_words(uint32_t mask) {
  return 1 + ((mask & MEMORY_ACCESS_ALIGNED) != 0) +
         ((mask & MEMORY_ACCESS_MAKE_AVAILABLE) != 0) +
         ((mask & MEMORY_ACCESS_MAKE_VISIBLE) != 0);
}

/* Whether OpBitcast `inst` is between a pointer and a non-pointer (1.5);
 * *to_pointer says which way, *vector whether the other side is one. */
static bool pointer_bitcast(const module *m, const instruction *inst,
                            bool *to_pointer, bool *vector) {
  const instruction *to = definition(m, word(m, inst, 1));
  const instruction *operand = definition(m, word(m, inst, 3));
  const instruction *from = operand ? definition(m, operand->type) : NULL;
  if (!to || !from) return false;
  bool to_ptr = to->opcode == OP_TYPE_POINTER;
  bool from_ptr = from->opcode == OP_TYPE_POINTER;
  if (to_ptr == from_ptr) return false;
  *to_pointer = to_ptr;
  *vector = (to_ptr ? from : to)->opcode == OP_TYPE_VECTOR;
  return true;
}

/* The image operands' word of an image instruction (0: none). */
static uint32_t image_operands_at(const instruction *inst) {
  switch (inst->opcode) {
    case OP_IMAGE_SAMPLE_EXPLICIT_LOD:
    case OP_IMAGE_FETCH:
    case OP_IMAGE_READ:
      return inst->count > 5 ? 5 : 0;
    case OP_IMAGE_WRITE:
      return inst->count > 4 ? 4 : 0;
    default:
      return 0;
  }
}

/* Emits `inst` lowered; false with *reason if it cannot be. */
static bool lower(const module *m, const globals *g, size_t *next_size,
                  const instruction *inst, output *out, const char **reason) {
  const uint32_t *w = m->words + inst->at;
  switch (inst->opcode) {
    case OP_DECORATE_STRING:
    case OP_MEMBER_DECORATE_STRING:
      return true;
    case OP_COPY_MEMORY: {
      /* 1.4: a first set of memory operands for the target, a second for
       * the source; before, one set for both. */
      uint32_t first = inst->count > 3 ? memory_operand_words(w[3]) : 0;
      if (3 + first > inst->count) first = inst->count - 3;
      uint32_t second = inst->count - 3 - first;
      const instruction *source = definition(m, w[2]);
      const instruction *pointer = source ? definition(m, source->type) : NULL;
      if (!pointer || pointer->opcode != OP_TYPE_POINTER) {
        *reason = "an OpCopyMemory from a pointer of unknown type";
        return false;
      }
      uint32_t value = fresh(out);
      uint32_t load_operands = second ? second : first;
      put(out,
          (uint32_t[]){(4 + load_operands) << 16 | OP_LOAD, word(m, pointer, 3),
                       value, w[2]},
          4);
      put(out, w + 3 + (second ? first : 0), load_operands);
      put(out, (uint32_t[]){(3 + first) << 16 | OP_STORE, w[1], value}, 3);
      put(out, w + 3, first);
      return true;
    }
    case OP_COPY_MEMORY_SIZED: {
      uint32_t keep = inst->count;
      if (inst->count > 4) {
        keep = 4 + memory_operand_words(w[4]);
        if (keep > inst->count) keep = inst->count;
      }
      put(out, (uint32_t[]){keep << 16 | inst->opcode}, 1);
      put(out, w + 1, keep - 1);
      return true;
    }
    case OP_PTR_EQUAL:
    case OP_PTR_NOT_EQUAL:
    case OP_PTR_DIFF: {
      uint32_t left = fresh(out), right = fresh(out);
      put(out,
          (uint32_t[]){4u << 16 | OP_CONVERT_PTR_TO_U, g->pointer_int, left,
                       w[3]},
          4);
      put(out,
          (uint32_t[]){4u << 16 | OP_CONVERT_PTR_TO_U, g->pointer_int, right,
                       w[4]},
          4);
      if (inst->opcode != OP_PTR_DIFF) {
        put5(out, inst->opcode == OP_PTR_EQUAL ? OP_I_EQUAL : OP_I_NOT_EQUAL,
             w[1], w[2], left, right);
        return true;
      }
      uint32_t bytes = fresh(out);
      put5(out, OP_I_SUB, g->pointer_int, bytes, left, right);
      bool same_width = w[1] == g->pointer_int;
      uint32_t quotient = same_width ? w[2] : fresh(out);
      put5(out, OP_S_DIV, g->pointer_int, quotient, bytes,
           g->sizes[(*next_size)++]);
      if (!same_width) {
        put(out, (uint32_t[]){4u << 16 | OP_S_CONVERT, w[1], w[2], quotient},
            4);
      }
      return true;
    }
    case OP_COPY_LOGICAL: {
      const instruction *source = definition(m, w[3]);
      size_t leaves = 0;
      if (!source ||
          !copy_logical(m, out, w[1], source->type, w[3], w[2], 0, &leaves)) {
        *reason =
            "an OpCopyLogical between types that do not match or "
            "are too large to copy member by member";
        return false;
      }
      return true;
    }
    case OP_VECTOR_SHUFFLE:
      if (shuffle_of_two_types(m, inst)) {
        shuffle_by_components(m, out, w, inst->count);
      } else {
        put(out, w, inst->count);
      }
      return true;
    case OP_COMPOSITE_CONSTRUCT:
      if (!construct(m, out, w[1], w[2], w + 3, inst->count - 3)) {
        *reason = "an OpCompositeConstruct of an unknown type";
        return false;
      }
      return true;
    case OP_CAPABILITY:
      if (w[1] != CAPABILITY_UNIFORM_DECORATION) put(out, w, inst->count);
      return true;
    case OP_DECORATE:
    case OP_DECORATE_ID: {
      uint32_t decoration = inst->count > 2 ? w[2] : 0;
      if (decoration != DECORATION_UNIFORM &&
          decoration != DECORATION_UNIFORM_ID) {
        put(out, w, inst->count);
      }
      return true;
    }
    case OP_BITCAST: {
      bool to_pointer = false, vector = false;
      if (!pointer_bitcast(m, inst, &to_pointer, &vector)) {
        put(out, w, inst->count);
        return true;
      }
      uint32_t through = vector ? fresh(out) : w[3];
      if (to_pointer) {
        if (vector) {
          put(out, (uint32_t[]){4u << 16 | OP_BITCAST, g->pointer_int,
                                through, w[3]},
              4);
        }
        put(out, (uint32_t[]){4u << 16 | OP_CONVERT_U_TO_PTR, w[1], w[2],
                              through},
            4);
      } else {
        put(out,
            (uint32_t[]){4u << 16 | OP_CONVERT_PTR_TO_U,
                         vector ? g->pointer_int : w[1],
                         vector ? through : w[2], w[3]},
            4);
        if (vector) {
          put(out, (uint32_t[]){4u << 16 | OP_BITCAST, w[1], w[2], through},
              4);
        }
      }
      return true;
    }
    default: {
      uint32_t at = image_operands_at(inst);
      if (!at || !(w[at] & IMAGE_OPERAND_NONTEMPORAL)) {
        put(out, w, inst->count);
        return true;
      }
      /* Nontemporal takes no operand: clear it, and drop a mask left
       * empty at the end. */
      uint32_t mask = w[at] & ~(uint32_t)IMAGE_OPERAND_NONTEMPORAL;
      uint32_t count = mask == 0 && at + 1 == inst->count ? at : inst->count;
      put(out, (uint32_t[]){count << 16 | inst->opcode}, 1);
      put(out, w + 1, at - 1);
      if (count > at) {
        put(out, &mask, 1);
        put(out, w + at + 1, count - at - 1);
      }
      return true;
    }
  }
}

/* The pointer width, the pointer-width integer type (for pointer
 * comparisons, differences and bitcasts to vectors), and a constant for
 * each OpPtrDiff's element size; false with *reason if a size is
 * unknown. */
static bool plan_globals(const module *m, output *out, globals *g,
                         const char **reason) {
  memset(g, 0, sizeof *g);
  g->pointer_bits = 64;
  bool has_int64 = false;
  size_t diffs = 0, compares = 0;
  for (size_t i = 0; i < m->count; i++) {
    const instruction *inst = &m->list[i];
    if (inst->opcode == OP_MEMORY_MODEL && word(m, inst, 1) == 1) {
      g->pointer_bits = 32; /* Physical32 */
    }
    if (inst->opcode == OP_CAPABILITY && word(m, inst, 1) == CAPABILITY_INT64) {
      has_int64 = true;
    }
    diffs += inst->opcode == OP_PTR_DIFF;
    compares +=
        inst->opcode == OP_PTR_EQUAL || inst->opcode == OP_PTR_NOT_EQUAL;
    bool to_pointer = false, vector = false;
    if (inst->opcode == OP_BITCAST &&
        pointer_bitcast(m, inst, &to_pointer, &vector) && vector) {
      compares++; /* goes through the pointer-width integer too */
    }
  }
  if (!diffs && !compares) return true; /* no pointer arithmetic */
  for (size_t i = 0; i < m->count && !g->pointer_int; i++) {
    const instruction *inst = &m->list[i];
    if (inst->opcode == OP_TYPE_INT && word(m, inst, 2) == g->pointer_bits &&
        word(m, inst, 3) == 0) {
      g->pointer_int = inst->result;
    }
  }
  if (!g->pointer_int) {
    g->pointer_int = fresh(out);
    g->add_pointer_int = true;
  }
  g->add_int64 = g->pointer_bits == 64 && !has_int64;
  if (!diffs) return true;
  g->sizes = calloc(diffs + 1, sizeof *g->sizes);
  g->size_values = calloc(diffs + 1, sizeof *g->size_values);
  if (!g->sizes || !g->size_values) return false;
  for (size_t i = 0; i < m->count; i++) {
    const instruction *inst = &m->list[i];
    if (inst->opcode != OP_PTR_DIFF) continue;
    const instruction *operand = definition(m, word(m, inst, 3));
    const instruction *pointer = operand ? definition(m, operand->type) : NULL;
    uint64_t size = 0, align = 0;
    if (pointer && pointer->opcode == OP_TYPE_POINTER) {
      const instruction *pointee = definition(m, word(m, pointer, 3));
      if (pointee && pointee->opcode == OP_TYPE_POINTER) {
        size = g->pointer_bits / 8;
      } else if (!type_layout(m, word(m, pointer, 3), 0, &size, &align)) {
        size = 0;
      }
    }
    if (size == 0) {
      *reason = "an OpPtrDiff on pointers to a type of unknown size";
      return false;
    }
    g->size_values[g->size_count] = size;
    g->sizes[g->size_count++] = fresh(out);
  }
  return true;
}

static void put_globals(const globals *g, output *out) {
  if (g->add_pointer_int) {
    put(out,
        (uint32_t[]){4u << 16 | OP_TYPE_INT, g->pointer_int, g->pointer_bits,
                     0},
        4);
  }
  for (size_t i = 0; i < g->size_count; i++) {
    if (g->pointer_bits == 64) {
      put(out,
          (uint32_t[]){5u << 16 | OP_CONSTANT, g->pointer_int, g->sizes[i],
                       (uint32_t)g->size_values[i],
                       (uint32_t)(g->size_values[i] >> 32)},
          5);
    } else {
      put(out,
          (uint32_t[]){4u << 16 | OP_CONSTANT, g->pointer_int, g->sizes[i],
                       (uint32_t)g->size_values[i]},
          4);
    }
  }
}

static bool read_module(const uint32_t *words, size_t count, module *m) {
  memset(m, 0, sizeof *m);
  m->words = words;
  if (!cc_spirv_parse(words, count, on_instruction, m) || m->failed) {
    return false;
  }
  m->ids = malloc((m->count + 1) * sizeof *m->ids);
  if (!m->ids) return false;
  for (size_t i = 0; i < m->count; i++) {
    if (m->list[i].result) {
      m->ids[m->id_count++] = (id_index){m->list[i].result, (uint32_t)i};
    }
  }
  qsort(m->ids, m->id_count, sizeof *m->ids, by_id);
  return true;
}

static bool needs_lowering(const module *m) {
  /* 1.5 and 1.6's changes are looked for instruction by instruction. */
  if (((m->words[1] >> 8) & 0xff) >= 5) return true;
  for (size_t i = 0; i < m->count; i++) {
    switch (m->list[i].opcode) {
      case OP_DECORATE_STRING:
      case OP_MEMBER_DECORATE_STRING:
      case OP_PTR_EQUAL:
      case OP_PTR_NOT_EQUAL:
      case OP_PTR_DIFF:
      case OP_COPY_LOGICAL:
      case OP_COMPOSITE_CONSTRUCT:
        return true;
      case OP_VECTOR_SHUFFLE:
        if (shuffle_of_two_types(m, &m->list[i])) return true;
        break;
      case OP_COPY_MEMORY:
        return true;
      case OP_COPY_MEMORY_SIZED:
        if (m->list[i].count > 4) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

uint32_t *cc_spirv_lower(uint32_t *words, size_t *length, const char **reason) {
  *reason = NULL;
  module m;
  output out = {0};
  globals g = {0};
  bool done = read_module(words, *length / 4, &m);
  if (done && needs_lowering(&m)) {
    out.bound = words[3];
    done = plan_globals(&m, &out, &g, reason);
    put(&out, words, HEADER_WORDS);
    if (done && g.add_int64) {
      put(&out, (uint32_t[]){2u << 16 | OP_CAPABILITY, CAPABILITY_INT64}, 2);
    }
    bool placed = false;
    size_t next_size = 0;
    for (size_t i = 0; done && i < m.count; i++) {
      if (m.list[i].opcode == OP_FUNCTION && !placed) {
        put_globals(&g, &out);
        placed = true;
      }
      done = lower(&m, &g, &next_size, &m.list[i], &out, reason);
    }
    if (done && !placed) put_globals(&g, &out);
    if (done && out.failed) {
      *reason = "out of memory";
      done = false;
    }
    if (done) {
      out.words[3] = out.bound;
      free(words);
      words = out.words;
      *length = out.count * 4;
      out.words = NULL;
    }
  } else if (!done) {
    *reason = "the module could not be read again (out of memory)";
  }
  free(out.words);
  free(g.sizes);
  free(g.size_values);
  free(m.list);
  free(m.ids);
  if (!done) {
    free(words);
    return NULL;
  }
  if (((words[1] >> 8) & 0xff) >= 4) words[1] = 0x00010300; /* as 1.3 */
  return words;
}

/* clmux OpenCL front-end: parses the Mux built-in kernel declarations
 * ("name(params);name(params)", the Mux spec's "Built-In Kernel Declaration
 * Syntax") into what clGetKernelArgInfo reports and clSetKernelArg checks.
 * Strict: anything outside the syntax makes the whole string malformed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"

#define MAX_TOKENS 16

typedef struct token {
  const char *text;
  size_t length;
} token;

static bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool token_is(const token *t, const char *word) {
  return t->length == strlen(word) && memcmp(t->text, word, t->length) == 0;
}

/* Splits [begin, end) into identifiers and '*'; only ' ' separates. */
static int tokenize(const char *begin, const char *end, token *tokens) {
  int count = 0;
  for (const char *p = begin; p < end;) {
    if (*p == ' ') {
      p++;
      continue;
    }
    if (count == MAX_TOKENS) return -1;
    if (*p == '*') {
      tokens[count++] = (token){p, 1};
      p++;
    } else if (is_ident_start(*p)) {
      const char *start = p;
      while (p < end && is_ident_char(*p)) p++;
      tokens[count++] = (token){start, (size_t)(p - start)};
    } else {
      return -1;
    }
  }
  return count;
}

/* ---- Types ---------------------------------------------------------------*/

static const struct scalar_type {
  const char *name;
  size_t size;
  bool vectors; /* has the 2, 3, 4, 8, 16 forms */
} scalar_types[] = {
    {"char", 1, true},      {"uchar", 1, true},      {"short", 2, true},
    {"ushort", 2, true},    {"int", 4, true},        {"uint", 4, true},
    {"long", 8, true},      {"ulong", 8, true},      {"float", 4, true},
    {"double", 8, true},    {"half", 2, true},       {"bool", 1, false},
    {"size_t", 8, false},   {"ptrdiff_t", 8, false}, {"intptr_t", 8, false},
    {"uintptr_t", 8, false}, {"void", 0, false},
};

static const char *const image_types[] = {
    "image1d_t",       "image1d_buffer_t", "image1d_array_t",
    "image2d_t",       "image2d_array_t",  "image3d_t",
};

/* The spelled-out unsigned types and their OpenCL C names. */
static const struct {
  const char *second;
  const char *canonical;
} unsigned_types[] = {
    {"char", "uchar"}, {"short", "ushort"}, {"int", "uint"}, {"long", "ulong"}};

/* Size of the scalar or vector type `name` (0 for void), or -1. */
static long type_size(const char *name) {
  for (size_t i = 0; i < sizeof scalar_types / sizeof scalar_types[0]; i++) {
    const struct scalar_type *type = &scalar_types[i];
    size_t length = strlen(type->name);
    if (strncmp(name, type->name, length) != 0) continue;
    const char *suffix = name + length;
    if (*suffix == '\0') return (long)type->size;
    if (!type->vectors) continue;
    static const struct {
      const char *digits;
      size_t storage; /* a 3-vector is stored as a 4-vector */
    } widths[] = {{"2", 2}, {"3", 4}, {"4", 4}, {"8", 8}, {"16", 16}};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
      if (strcmp(suffix, widths[w].digits) == 0) {
        return (long)(type->size * widths[w].storage);
      }
    }
  }
  return -1;
}

static bool is_image_type(const char *name) {
  for (size_t i = 0; i < sizeof image_types / sizeof image_types[0]; i++) {
    if (strcmp(name, image_types[i]) == 0) return true;
  }
  return false;
}

/* ---- Parameters ----------------------------------------------------------*/

typedef struct qualifiers {
  cl_kernel_arg_address_qualifier address;
  bool has_address;
  cl_kernel_arg_access_qualifier access;
  bool has_access;
  cl_kernel_arg_type_qualifier type;
} qualifiers;

/* Consumes `t` if it is a qualifier; -1 if it is one used twice. */
static int take_qualifier(const token *t, qualifiers *q) {
  static const struct {
    const char *word;
    cl_kernel_arg_address_qualifier value;
  } addresses[] = {
      {"global", CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"__global", CL_KERNEL_ARG_ADDRESS_GLOBAL},
      {"local", CL_KERNEL_ARG_ADDRESS_LOCAL},
      {"__local", CL_KERNEL_ARG_ADDRESS_LOCAL},
      {"constant", CL_KERNEL_ARG_ADDRESS_CONSTANT},
      {"__constant", CL_KERNEL_ARG_ADDRESS_CONSTANT},
      {"private", CL_KERNEL_ARG_ADDRESS_PRIVATE},
      {"__private", CL_KERNEL_ARG_ADDRESS_PRIVATE},
  };
  static const struct {
    const char *word;
    cl_kernel_arg_access_qualifier value;
  } accesses[] = {
      {"read_only", CL_KERNEL_ARG_ACCESS_READ_ONLY},
      {"__read_only", CL_KERNEL_ARG_ACCESS_READ_ONLY},
      {"write_only", CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
      {"__write_only", CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
      {"read_write", CL_KERNEL_ARG_ACCESS_READ_WRITE},
      {"__read_write", CL_KERNEL_ARG_ACCESS_READ_WRITE},
  };
  static const struct {
    const char *word;
    cl_kernel_arg_type_qualifier value;
  } types[] = {
      {"const", CL_KERNEL_ARG_TYPE_CONST},
      {"volatile", CL_KERNEL_ARG_TYPE_VOLATILE},
      {"restrict", CL_KERNEL_ARG_TYPE_RESTRICT},
      {"__restrict", CL_KERNEL_ARG_TYPE_RESTRICT},
  };
  for (size_t i = 0; i < sizeof addresses / sizeof addresses[0]; i++) {
    if (token_is(t, addresses[i].word)) {
      if (q->has_address) return -1;
      q->has_address = true;
      q->address = addresses[i].value;
      return 1;
    }
  }
  for (size_t i = 0; i < sizeof accesses / sizeof accesses[0]; i++) {
    if (token_is(t, accesses[i].word)) {
      if (q->has_access) return -1;
      q->has_access = true;
      q->access = accesses[i].value;
      return 1;
    }
  }
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (token_is(t, types[i].word)) {
      q->type |= types[i].value;
      return 1;
    }
  }
  return 0;
}

/* Reads the type words at tokens[*at] ("uint", "unsigned int", "unsigned")
 * into `name` with its OpenCL C spelling. */
static bool take_type(const token *tokens, int count, int *at, char *name,
                      size_t name_size) {
  const token *t = &tokens[*at];
  if (t->length >= name_size || !is_ident_start(t->text[0])) return false;
  memcpy(name, t->text, t->length);
  name[t->length] = '\0';
  (*at)++;
  if (strcmp(name, "unsigned") == 0) {
    snprintf(name, name_size, "uint"); /* plain "unsigned" is unsigned int */
    if (*at < count) {
      for (size_t i = 0; i < sizeof unsigned_types / sizeof unsigned_types[0];
           i++) {
        if (token_is(&tokens[*at], unsigned_types[i].second)) {
          snprintf(name, name_size, "%s", unsigned_types[i].canonical);
          (*at)++;
          break;
        }
      }
    }
  }
  return true;
}

static bool parse_parameter(const char *begin, const char *end,
                            clx_arg_info *arg) {
  token tokens[MAX_TOKENS];
  int count = tokenize(begin, end, tokens);
  if (count < 2) return false; /* at least a type and a name */
  memset(arg, 0, sizeof *arg);

  qualifiers q = {0};
  int at = 0;
  while (at < count) {
    int taken = take_qualifier(&tokens[at], &q);
    if (taken < 0) return false;
    if (!taken) break;
    at++;
  }
  if (at >= count) return false;
  char type[48];
  if (!take_type(tokens, count, &at, type, sizeof type)) return false;
  /* Qualifiers may follow the type ("uchar const* p"), then at most one
   * '*' and the pointer's own qualifiers. */
  bool pointer = false;
  while (at < count - 1) {
    if (token_is(&tokens[at], "*")) {
      if (pointer) return false; /* no pointer-to-pointer */
      pointer = true;
      at++;
      continue;
    }
    /* After the '*', const and volatile qualify the pointer itself,
     * which the API does not report; restrict is what it reports. */
    qualifiers after_star = {0};
    qualifiers *target = pointer ? &after_star : &q;
    int taken = take_qualifier(&tokens[at], target);
    if (taken <= 0 || after_star.has_address || after_star.has_access) {
      return false;
    }
    if (pointer) q.type |= after_star.type & CL_KERNEL_ARG_TYPE_RESTRICT;
    at++;
  }
  const token *name = &tokens[count - 1];
  if (at != count - 1 || !is_ident_start(name->text[0]) ||
      name->length >= sizeof arg->name) {
    return false;
  }
  memcpy(arg->name, name->text, name->length);
  arg->name[name->length] = '\0';

  long size = type_size(type);
  bool image = is_image_type(type);
  bool sampler = strcmp(type, "sampler_t") == 0;
  if (size < 0 && !image && !sampler) return false;
  if (q.has_access && (!image || pointer)) return false;
  snprintf(arg->type_name, sizeof arg->type_name, "%s%s", type,
           pointer ? "*" : "");
  arg->access = CL_KERNEL_ARG_ACCESS_NONE;

  if (pointer) {
    if (image || sampler || !q.has_address ||
        q.address == CL_KERNEL_ARG_ADDRESS_PRIVATE) {
      return false; /* kernel pointers point to global, constant or local */
    }
    arg->address = q.address;
    arg->type_qualifier = q.type;
    if (q.address == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
      arg->type_qualifier |= CL_KERNEL_ARG_TYPE_CONST;
    }
    arg->kind = q.address == CL_KERNEL_ARG_ADDRESS_LOCAL ? clx_arg_local
                                                         : clx_arg_buffer;
    return true;
  }
  /* By value: qualifiers on the value itself mean nothing to the API. */
  if (q.type & CL_KERNEL_ARG_TYPE_RESTRICT) return false;
  if (image) {
    if (q.has_address && q.address != CL_KERNEL_ARG_ADDRESS_GLOBAL) {
      return false;
    }
    arg->address = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    arg->access = q.has_access ? q.access : CL_KERNEL_ARG_ACCESS_READ_ONLY;
    arg->kind = clx_arg_image;
    return true;
  }
  if (q.has_address && q.address != CL_KERNEL_ARG_ADDRESS_PRIVATE) {
    return false;
  }
  arg->address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  if (sampler) {
    arg->kind = clx_arg_sampler;
    return true;
  }
  if (size == 0) return false; /* a void value */
  arg->kind = clx_arg_value;
  arg->value_size = (size_t)size;
  return true;
}

/* ---- Declarations --------------------------------------------------------*/

/* Parses one "name(params)" in [begin, end). */
static bool parse_declaration(const char *begin, const char *end,
                              clx_kernel_signature *signature) {
  while (begin < end && *begin == ' ') begin++;
  while (end > begin && end[-1] == ' ') end--;
  const char *open = memchr(begin, '(', (size_t)(end - begin));
  if (!open || end[-1] != ')') return false;
  const char *name_end = open;
  while (name_end > begin && name_end[-1] == ' ') name_end--;
  size_t name_length = (size_t)(name_end - begin);
  if (name_length == 0 || name_length >= sizeof signature->name ||
      !is_ident_start(*begin)) {
    return false;
  }
  for (const char *p = begin; p < name_end; p++) {
    if (!is_ident_char(*p)) return false;
  }
  memcpy(signature->name, begin, name_length);
  signature->name[name_length] = '\0';

  const char *params = open + 1;
  const char *params_end = end - 1;
  if (memchr(params, '(', (size_t)(params_end - params)) ||
      memchr(params, ')', (size_t)(params_end - params))) {
    return false;
  }
  token tokens[MAX_TOKENS];
  int count = tokenize(params, params_end, tokens);
  bool has_comma = memchr(params, ',', (size_t)(params_end - params)) != NULL;
  if (count == 0 || (count == 1 && token_is(&tokens[0], "void"))) {
    return !has_comma; /* "name()" or "name(void)" */
  }
  /* More than MAX_TOKENS words overall is fine; each parameter is checked
   * on its own below. */
  cl_uint num_args = 1;
  for (const char *p = params; p < params_end; p++) num_args += *p == ',';
  signature->args = calloc(num_args, sizeof *signature->args);
  if (!signature->args) return false;
  signature->num_args = num_args;
  const char *start = params;
  for (cl_uint i = 0; i < num_args; i++) {
    const char *comma = memchr(start, ',', (size_t)(params_end - start));
    const char *stop = comma ? comma : params_end;
    if (!parse_parameter(start, stop, &signature->args[i])) return false;
    start = stop + 1;
  }
  for (cl_uint i = 0; i < num_args; i++) {
    for (cl_uint j = 0; j < i; j++) {
      if (strcmp(signature->args[i].name, signature->args[j].name) == 0) {
        return false;
      }
    }
  }
  return true;
}

int clx_parse_declarations(const char *declarations,
                           clx_kernel_signature **out_signatures) {
  *out_signatures = NULL;
  if (!declarations) return -1;
  int capacity = 1;
  for (const char *p = declarations; *p; p++) capacity += *p == ';';
  clx_kernel_signature *signatures = calloc((size_t)capacity, sizeof *signatures);
  if (!signatures) return -1;
  int count = 0;
  const char *start = declarations;
  for (;;) {
    const char *semicolon = strchr(start, ';');
    const char *stop = semicolon ? semicolon : start + strlen(start);
    bool blank = true;
    for (const char *p = start; p < stop; p++) blank &= *p == ' ';
    /* Only the last declaration may be followed by an empty one. */
    if (blank) {
      if (semicolon) goto malformed;
    } else {
      if (!parse_declaration(start, stop, &signatures[count])) {
        count++; /* free its arguments too */
        goto malformed;
      }
      for (int i = 0; i < count; i++) {
        if (strcmp(signatures[i].name, signatures[count].name) == 0) {
          count++;
          goto malformed;
        }
      }
      count++;
    }
    if (!semicolon) break;
    start = semicolon + 1;
  }
  *out_signatures = signatures;
  return count;

malformed:
  clx_free_signatures(signatures, count);
  return -1;
}

void clx_free_signatures(clx_kernel_signature *signatures, int count) {
  if (!signatures) return;
  for (int i = 0; i < count; i++) free(signatures[i].args);
  free(signatures);
}

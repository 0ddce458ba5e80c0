/* Parsing of OpenCL build options. Options are split like a shell would
 * (so a -D value may be quoted), then each is checked against the list the
 * OpenCL 1.2 specification allows; anything else is an error, because
 * clBuildProgram must answer CL_INVALID_BUILD_OPTIONS rather than pass an
 * unknown flag to Clang. */
#include "build_options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool cc_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

static bool cc_is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool cc_is_ident_char(char c) {
  return cc_is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A malloc'd message, or NULL when out of memory. */
static char *cc_format(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length < 0) return NULL;
  char *text = malloc((size_t)length + 1);
  if (!text) return NULL;
  va_start(args, format);
  vsnprintf(text, (size_t)length + 1, format, args);
  va_end(args);
  return text;
}

/* Splits `text` into words: blanks separate them, '...' is literal,
 * "..." allows \" and \\, and a backslash outside quotes escapes the next
 * character. Returns false for an unterminated quote (or out of memory,
 * with *words NULL). The words are NUL-separated in one malloc'd buffer. */
static bool cc_split_words(const char *text, char **words, size_t *count,
                           bool *unterminated) {
  size_t length = strlen(text);
  char *buffer = malloc(length + 1);
  *words = buffer;
  *count = 0;
  *unterminated = false;
  if (!buffer) return false;
  char *out = buffer;
  const char *p = text;
  while (*p) {
    while (cc_is_space(*p)) p++;
    if (!*p) break;
    while (*p && !cc_is_space(*p)) {
      if (*p == '\'') {
        const char *end = strchr(p + 1, '\'');
        if (!end) {
          *unterminated = true;
          return false;
        }
        memcpy(out, p + 1, (size_t)(end - p - 1));
        out += end - p - 1;
        p = end + 1;
      } else if (*p == '"') {
        p++;
        while (*p && *p != '"') {
          if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
          *out++ = *p++;
        }
        if (!*p) {
          *unterminated = true;
          return false;
        }
        p++;
      } else if (*p == '\\' && p[1]) {
        *out++ = p[1];
        p += 2;
      } else {
        *out++ = *p++;
      }
    }
    *out++ = '\0';
    (*count)++;
  }
  return true;
}

static bool cc_add_arg(cc_build_options *options, const char *prefix,
                       const char *value) {
  if (options->num_args == options->capacity) {
    size_t capacity = options->capacity ? options->capacity * 2 : 8;
    char **args = realloc(options->args, capacity * sizeof(*args));
    if (!args) return false;
    options->args = args;
    options->capacity = capacity;
  }
  char *arg = cc_format("%s%s", prefix, value);
  if (!arg) return false;
  options->args[options->num_args++] = arg;
  return true;
}

/* A -D argument: an identifier, optionally function-like `name(a,b)`,
 * optionally followed by `=value`. */
static bool cc_valid_define(const char *text) {
  if (!cc_is_ident_start(*text)) return false;
  while (cc_is_ident_char(*text)) text++;
  if (*text == '(') {
    const char *close = strchr(text, ')');
    if (!close) return false;
    for (const char *p = text + 1; p < close; p++)
      if (!cc_is_ident_char(*p) && *p != ',' && !cc_is_space(*p) && *p != '.')
        return false;
    text = close + 1;
  }
  return *text == '\0' || *text == '=';
}

typedef struct cc_flag_option {
  const char *name;
  unsigned flag;
  bool pass_to_clang;
} cc_flag_option;

/* -cl-opt-disable is for the optimizer, not Clang (which would mark every
 * function optnone). -cl-denorms-are-zero only permits flushing, which the
 * CPU need not do. -cl-strict-aliasing is a 1.0 option Clang warns about
 * for 1.1/1.2 (an error under -Werror): accepted and ignored. */
static const cc_flag_option cc_flag_options[] = {
    {"-w", CC_OPTION_NO_WARNINGS, true},
    {"-Werror", CC_OPTION_WARNINGS_ARE_ERRORS, true},
    {"-cl-opt-disable", CC_OPTION_OPT_DISABLE, false},
    {"-cl-mad-enable", CC_OPTION_MAD_ENABLE, true},
    {"-cl-fast-relaxed-math", CC_OPTION_FAST_RELAXED_MATH, true},
    {"-cl-finite-math-only", CC_OPTION_FINITE_MATH_ONLY, true},
    {"-cl-no-signed-zeros", CC_OPTION_NO_SIGNED_ZEROS, true},
    {"-cl-unsafe-math-optimizations", CC_OPTION_UNSAFE_MATH, true},
    {"-cl-denorms-are-zero", CC_OPTION_DENORMS_ARE_ZERO, false},
    {"-cl-single-precision-constant", CC_OPTION_SINGLE_PRECISION_CONST, true},
    {"-cl-strict-aliasing", CC_OPTION_STRICT_ALIASING, false},
    {"-cl-kernel-arg-info", CC_OPTION_KERNEL_ARG_INFO, false},
    /* OpenCL 2.0 and 2.1's: Clang marks the kernels uniform; clmux has no
     * sub-groups, so the second promises what already holds. */
    {"-cl-uniform-work-group-size", CC_OPTION_UNIFORM_WORK_GROUPS, true},
    {"-cl-no-subgroup-ifp", 0, false},
    /* clmux's own: CLMUX_BOUNDS_CHECK for one program. */
    {"-clmux-bounds-check", CC_OPTION_BOUNDS_CHECK, false},
};

void cc_build_options_free(cc_build_options *options) {
  for (size_t i = 0; i < options->num_args; i++) free(options->args[i]);
  free(options->args);
  memset(options, 0, sizeof(*options));
}

/* Handles one word (and for "-D name"/"-I dir" the next one). Returns
 * NULL on success, else a malloc'd message, or `oom` on out of memory. */
static char *cc_or_oom(char *message, char *oom) {
  return message ? message : oom;
}

static char *cc_parse_word(cc_build_options *out, const char *word,
                           const char *next, size_t *consumed, char *oom) {
  *consumed = 1;
  if (strncmp(word, "-D", 2) == 0 || strncmp(word, "-I", 2) == 0) {
    bool define = word[1] == 'D';
    const char *value = word + 2;
    if (!*value) {
      if (!next) return cc_or_oom(cc_format("option '%s' needs a value", word), oom);
      value = next;
      *consumed = 2;
    }
    if (define && !cc_valid_define(value))
      return cc_or_oom(cc_format("malformed macro definition '-D %s'", value), oom);
    if (!cc_add_arg(out, define ? "-D" : "-I", value)) return oom;
    return NULL;
  }
  if (strncmp(word, "-cl-std=", 8) == 0) {
    const char *std = word + 8;
    if (strcmp(std, "CL1.1") == 0)
      out->cl_std = "CL1.1";
    else if (strcmp(std, "CL1.2") == 0)
      out->cl_std = "CL1.2";
    else if (strcmp(std, "CL3.0") == 0)
      out->cl_std = "CL3.0";
    else
      return cc_or_oom(cc_format("unsupported OpenCL C version '%s'", word), oom);
    return NULL;
  }
  for (size_t i = 0; i < sizeof(cc_flag_options) / sizeof(*cc_flag_options);
       i++) {
    const cc_flag_option *flag = &cc_flag_options[i];
    if (strcmp(word, flag->name) != 0) continue;
    out->flags |= flag->flag;
    if (flag->pass_to_clang && !cc_add_arg(out, "", word)) return oom;
    return NULL;
  }
  return cc_or_oom(cc_format("unknown build option '%s'", word), oom);
}

bool cc_parse_build_options(const char *options, cc_build_options *out,
                            char **out_error) {
  static char oom; /* marks out of memory among messages */
  memset(out, 0, sizeof(*out));
  out->cl_std = "CL1.2";
  char *error = NULL;
  char *words = NULL;
  size_t count = 0;
  bool unterminated = false;
  if (!cc_split_words(options ? options : "", &words, &count,
                      &unterminated)) {
    error = unterminated ? cc_format("unterminated quote in build options")
                         : &oom;
  } else {
    const char *word = words;
    for (size_t i = 0; i < count && !error;) {
      const char *next = NULL;
      if (i + 1 < count) next = word + strlen(word) + 1;
      size_t consumed = 0;
      error = cc_parse_word(out, word, next, &consumed, &oom);
      i += consumed;
      word = consumed == 2 ? next + strlen(next) + 1 : next;
    }
  }
  free(words);
  if (!error) return true;
  cc_build_options_free(out);
  if (error == &oom) error = NULL;
  if (out_error)
    *out_error = error;
  else
    free(error);
  return false;
}

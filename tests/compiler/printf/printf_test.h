/* clmux compiler tests — printf: OpenCL C compiled by the front-end,
 * printf lowered by cc_printf_lower, built by cc_codegen_build, loaded and
 * run through the public Mux API, with the process's fd 1 captured. */
#ifndef CLMUX_TESTS_PRINTF_TEST_H
#define CLMUX_TESTS_PRINTF_TEST_H

#include <stdarg.h>
#include <unistd.h>

#include "../codegen/codegen_test.h"
#include "frontend.h"
#include "printf_lower.h"

static cc_target *target;
static LLVMContextRef context;

/* The module of `source`, printf lowered; NULL (reported) on failure. */
static inline LLVMModuleRef compile_lowered(const char *source) {
  LLVMModuleRef module = NULL;
  char *log = NULL;
  cc_frontend_result result = cc_compile_opencl_c(
      context, source, strlen(source), NULL, NULL, 0, &module, &log);
  CHECK_INT(CC_FRONTEND_SUCCESS, result);
  if (result != CC_FRONTEND_SUCCESS) fprintf(stderr, "%s\n", log);
  free(log);
  if (!module) return NULL;
  cc_log reason = {""};
  cc_status status = cc_printf_lower(module, &reason);
  CHECK_INT(cc_success, status);
  if (status != cc_success) {
    fprintf(stderr, "printf lowering: %s\n", reason.text);
    LLVMDisposeModule(module);
    return NULL;
  }
  return module;
}

/* One kernel of `source` built for any local size; NULL on failure. */
static inline mux_executable_t build_source(const char *source,
                                            const char *kernel) {
  LLVMModuleRef module = compile_lowered(source);
  if (!module) return NULL;
  cc_kernel_request request = {kernel, {0, 0, 0}, false, NULL, false, {0, 0, 0}};
  mux_executable_t executable = build_executable(target, module, &request, 1);
  LLVMDisposeModule(module);
  return executable;
}

/* fd 1 redirected to a temporary file while a kernel runs. */
typedef struct stdout_capture {
  FILE *file;
  int saved;
} stdout_capture;

static inline void capture_start(stdout_capture *capture) {
  fflush(stdout);
  capture->file = tmpfile();
  REQUIRE(capture->file);
  capture->saved = dup(1);
  REQUIRE(capture->saved >= 0);
  REQUIRE(dup2(fileno(capture->file), 1) == 1);
}

/* What was written to fd 1 since capture_start (malloc'd). */
static inline char *capture_end(stdout_capture *capture) {
  fflush(stdout);
  REQUIRE(dup2(capture->saved, 1) == 1);
  close(capture->saved);
  fseek(capture->file, 0, SEEK_END);
  long size = ftell(capture->file);
  REQUIRE(size >= 0);
  rewind(capture->file);
  char *text = malloc((size_t)size + 1);
  REQUIRE(text);
  REQUIRE(fread(text, 1, (size_t)size, capture->file) == (size_t)size);
  text[size] = '\0';
  fclose(capture->file);
  if (getenv("PRINTF_TEST_VERBOSE")) fputs(text, stderr);
  return text;
}

/* A growing string of expected output. */
typedef struct text {
  char *data;
  size_t length;
  size_t capacity;
} text;

static inline void text_add(text *t, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static inline void text_add(text *t, const char *format, ...) {
  va_list list;
  va_start(list, format);
  int needed = vsnprintf(NULL, 0, format, list);
  va_end(list);
  REQUIRE(needed >= 0);
  if (t->length + (size_t)needed + 1 > t->capacity) {
    /* Doubling: the flood test appends tens of thousands of lines. */
    size_t capacity = t->capacity ? t->capacity : 256;
    while (capacity < t->length + (size_t)needed + 1) capacity *= 2;
    t->data = realloc(t->data, capacity);
    REQUIRE(t->data);
    t->capacity = capacity;
  }
  va_start(list, format);
  vsnprintf(t->data + t->length, (size_t)needed + 1, format, list);
  va_end(list);
  t->length += (size_t)needed;
}

/* Compares, showing the first difference. */
static inline void check_text(const char *what, const char *expected,
                              const char *actual) {
  bool same = strcmp(expected, actual) == 0;
  CHECK(same);
  if (!same) {
    size_t at = 0;
    while (expected[at] && expected[at] == actual[at]) at++;
    size_t from = at > 40 ? at - 40 : 0;
    fprintf(stderr, "%s: differs at byte %zu\n expected: \"%.120s\"\n "
            "actual:   \"%.120s\"\n", what, at, expected + from,
            actual + from);
  }
}

static inline void printf_test_start(void) {
  codegen_test_start();
  context = LLVMContextCreate();
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
}

static inline int printf_test_finish(void) {
  cc_target_destroy(target);
  LLVMContextDispose(context);
  return codegen_test_finish();
}

#endif /* CLMUX_TESTS_PRINTF_TEST_H */

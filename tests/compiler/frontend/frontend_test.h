/* Helpers shared by the front-end tests. */
#ifndef CLMUX_TESTS_FRONTEND_TEST_H
#define CLMUX_TESTS_FRONTEND_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "check.h"
#include "frontend.h"

/* Compiles `source` with `options`; returns the result and leaves the log
 * in a static buffer (freed by the next call) and the module disposed. */
static char *fe_log;

static inline cc_frontend_result fe_compile_with(const char *source,
                                          const char *options,
                                          const cc_header *headers,
                                          size_t num_headers) {
  free(fe_log);
  fe_log = NULL;
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = NULL;
  cc_frontend_result result =
      cc_compile_opencl_c(context, source, strlen(source), options, headers,
                          num_headers, &module, &fe_log);
  CHECK(fe_log != NULL);
  if (getenv("FE_VERBOSE") && fe_log) fprintf(stderr, "log: %s\n", fe_log);
  CHECK((result == CC_FRONTEND_SUCCESS) == (module != NULL));
  if (module) LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return result;
}

static inline cc_frontend_result fe_compile(const char *source,
                                     const char *options) {
  return fe_compile_with(source, options, NULL, 0);
}

static inline int fe_finish(void) {
  free(fe_log);
  fe_log = NULL;
  return check_finish();
}

static inline int fe_log_has(const char *text) {
  return fe_log && strstr(fe_log, text) != NULL;
}

#endif /* CLMUX_TESTS_FRONTEND_TEST_H */

/* clmux compiler tests — the module layer: compiling with real Clang,
 * specializing with real codegen and running through the public Mux API
 * (the helpers of codegen_test.h). */
#ifndef CLMUX_TESTS_MODULE_TEST_H
#define CLMUX_TESTS_MODULE_TEST_H

#include "codegen_test.h"
#include "module.h"

/* Compiles `source`, expecting success; the log is printed on failure. */
static inline cc_module *compile_ok(const char *source, const char *options) {
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *module = cc_module_compile(source, strlen(source), options, NULL,
                                        0, &log, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  if (!module) fprintf(stderr, "compile log: %s\n", log ? log : "(none)");
  free(log);
  REQUIRE(module);
  return module;
}

/* Links, expecting success. */
static inline cc_module *link_ok(cc_module *const *inputs, size_t count,
                                 const char *options) {
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *module = cc_module_link(inputs, count, options, &log, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  if (!module) fprintf(stderr, "link log: %s\n", log ? log : "(none)");
  free(log);
  REQUIRE(module);
  return module;
}

/* A Mux executable and kernel for `name` of `module` at `local`. */
static inline mux_executable_t load_specialized(cc_module *module,
                                                const char *name,
                                                const uint32_t local[3]) {
  const void *binary = NULL;
  size_t size = 0;
  const char *reason = NULL;
  cc_module_result result =
      cc_module_specialize(module, name, local, NULL, &binary, &size, &reason);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  if (result != CC_MODULE_SUCCESS) {
    fprintf(stderr, "specialize %s: %s\n", name, reason ? reason : "");
    return NULL;
  }
  mux_executable_t executable = NULL;
  CHECK_SUCCESS(muxCreateExecutable(device, binary, size, mux_test_allocator,
                                    &executable));
  return executable;
}

#endif /* CLMUX_TESTS_MODULE_TEST_H */

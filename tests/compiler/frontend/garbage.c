/* Malformed input never crashes or exits the process: 20 garbage sources
 * and a few hostile option strings, each a clean failure (or success). */
#include <stdint.h>
#include <stdio.h>

#include "frontend_test.h"

static uint32_t rng_state = 12345;

static uint32_t rng(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

/* Compiles `length` bytes (which may hold NULs); true if the result is a
 * sane one with a log. */
static int compile_bytes(const char *bytes, size_t length, const char *opts) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = NULL;
  char *log = NULL;
  cc_frontend_result result = cc_compile_opencl_c(
      context, bytes, length, opts, NULL, 0, &module, &log);
  int sane = log != NULL && (result == CC_FRONTEND_SUCCESS) == (module != NULL);
  if (module) LLVMDisposeModule(module);
  free(log);
  LLVMContextDispose(context);
  return sane && result != CC_FRONTEND_OUT_OF_MEMORY ? (int)result + 1 : 0;
}

static char *repeat(const char *head, const char *unit, size_t count,
                    const char *tail) {
  size_t length = strlen(head) + strlen(unit) * count + strlen(tail) + 1;
  char *text = malloc(length);
  REQUIRE(text != NULL);
  strcpy(text, head);
  char *p = text + strlen(head);
  for (size_t i = 0; i < count; i++) {
    memcpy(p, unit, strlen(unit));
    p += strlen(unit);
  }
  strcpy(p, tail);
  return text;
}

int main(void) {
  int failed_as_expected = 0;
  /* 1-8: random bytes, and random printable text, of several sizes. */
  for (int i = 0; i < 8; i++) {
    size_t length = (size_t)(16u << i);
    char *bytes = malloc(length);
    REQUIRE(bytes != NULL);
    for (size_t j = 0; j < length; j++)
      bytes[j] = i % 2 ? (char)(32 + rng() % 95) : (char)rng();
    int r = compile_bytes(bytes, length, NULL);
    CHECK(r != 0);
    failed_as_expected += r == CC_FRONTEND_COMPILE_FAILED + 1;
    free(bytes);
  }
  /* 9-18: hand-made nasties. */
  const char *nasty[] = {
      "kernel void k() { /* unterminated comment",
      "kernel void k() { char *s = \"unterminated string; }",
      "kernel void k(global int *p) { p[0] = 'x; }",
      "#if 1\nkernel void k() {}\n",                     /* missing #endif */
      "#include \"/dev/zero/nothing.h\"\n",
      "#define A A A\nA\n",
      "#define R(x) R(R(x))\nint y = R(R(R(1)));\n",
      "kernel void k() { int a[-1]; }",
      "}}}}}}}}}}))))))))]]]]]]]]",
      "kernel void k(global int *p) { p[0] = __builtin_trap(); "
      "__attribute__((weird)) int x; goto nowhere; }",
  };
  for (size_t i = 0; i < sizeof(nasty) / sizeof(*nasty); i++) {
    int r = compile_bytes(nasty[i], strlen(nasty[i]), NULL);
    CHECK(r != 0);
    failed_as_expected += r == CC_FRONTEND_COMPILE_FAILED + 1;
  }
  /* 19: a huge macro (~1 MB), a flat list; 20: deep nesting. */
  char *huge = repeat("#define HUGE ", "1, ", 300000,
                      "1\nkernel void k(global int *p) { "
                      "int a[] = { HUGE }; p[0] = a[p[1]]; }\n");
  CHECK(compile_bytes(huge, strlen(huge), NULL) != 0);
  free(huge);
  /* An expression so long that clang's own 8 MiB stack overflows on it
   * (tested 60,000 terms): the front-end's big compile stack copes. */
  char *long_sum = repeat("#define SUM ", "1 + ", 100000,
                          "1\nkernel void k(global int *p) { p[0] = SUM; }\n");
  CHECK_INT(CC_FRONTEND_SUCCESS + 1,
            compile_bytes(long_sum, strlen(long_sum), NULL));
  free(long_sum);
  char *deep = repeat("kernel void k(global int *p) { p[0] = ", "(", 5000,
                      "1;}\n");
  int r = compile_bytes(deep, strlen(deep), NULL);
  CHECK(r != 0);
  failed_as_expected += r == CC_FRONTEND_COMPILE_FAILED + 1;
  free(deep);
  /* Clang's debug pragmas that crash, abort or exit are disabled. */
  const char *pragmas[] = {"crash", "parser_crash", "llvm_fatal_error",
                           "llvm_unreachable", "assert", "overflow_stack"};
  for (size_t i = 0; i < sizeof(pragmas) / sizeof(*pragmas); i++) {
    char text[128];
    snprintf(text, sizeof(text), "#pragma clang __debug %s\nkernel void k() {}\n",
             pragmas[i]);
    CHECK(compile_bytes(text, strlen(text), NULL) != 0);
  }
  /* Almost all of them must fail to compile (random printable text could
   * in theory be valid; none of the hand-made ones is). */
  CHECK(failed_as_expected >= 18);

  /* Hostile option strings. */
  const char *options[] = {"\"", "'", "-D\"", "-D A=\"x", "\\", "-I",
                           "-D A -", "\x01\x02", "-D " "\xff\xfe"};
  const char *ok = "kernel void k() {}\n";
  for (size_t i = 0; i < sizeof(options) / sizeof(*options); i++)
    CHECK_INT(CC_FRONTEND_INVALID_OPTIONS + 1,
              compile_bytes(ok, strlen(ok), options[i]));
  printf("%d of 20 garbage sources failed to compile, none crashed\n",
         failed_as_expected);
  return check_finish();
}

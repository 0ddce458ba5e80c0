/* clmux tests: the checks every test executable uses. A test calls CHECK*
 * as often as it likes and ends with `return check_finish();` (or a layer's
 * wrapper of it), which prints "N passed, N failed" for its checks and
 * fails when any check failed, or when none ran: a test that checked
 * nothing proves nothing. A test that cannot run here exits with
 * CHECK_SKIP (77, meson's code for a skipped test) and says why. */
#ifndef CLMUX_TESTS_CHECK_H
#define CLMUX_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static _Atomic int check_passed; /* tests check from several threads */
static _Atomic int check_failed;

#define CHECK(condition)                                                  \
  do {                                                                    \
    if (condition) {                                                      \
      check_passed++;                                                     \
    } else {                                                              \
      check_failed++;                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,    \
              #condition);                                                \
    }                                                                     \
  } while (0)

/* Checks that the integer `actual` equals `expected`, printing both. */
#define CHECK_INT(expected, actual)                                       \
  do {                                                                    \
    long long check_got_ = (long long)(actual);                           \
    if (check_got_ == (long long)(expected)) {                            \
      check_passed++;                                                     \
    } else {                                                              \
      check_failed++;                                                     \
      fprintf(stderr, "%s:%d: %s gave %lld, expected %lld (%s)\n",        \
              __FILE__, __LINE__, #actual, check_got_,                    \
              (long long)(expected), #expected);                          \
    }                                                                     \
  } while (0)

/* Stops the test at once: for set-up that later checks depend on. */
#define REQUIRE(condition)                                                \
  do {                                                                    \
    if (!(condition)) {                                                   \
      fprintf(stderr, "%s:%d: required: %s\n", __FILE__, __LINE__,        \
              #condition);                                                \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

#define CHECK_SKIP 77

static inline int check_finish(void) {
  printf("%d passed, %d failed\n", (int)check_passed, (int)check_failed);
  if (check_passed + check_failed == 0) {
    fprintf(stderr, "no checks ran\n");
    return 1;
  }
  return check_failed ? 1 : 0;
}

#endif /* CLMUX_TESTS_CHECK_H */

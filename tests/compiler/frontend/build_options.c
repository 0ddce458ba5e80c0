/* The option parser alone: what it accepts, rejects and hands to Clang. */
#include <string.h>

#include "build_options.h"
#include "check.h"

static cc_build_options opts;

static bool parse(const char *text) {
  char *error = NULL;
  bool ok = cc_parse_build_options(text, &opts, &error);
  CHECK(ok == (error == NULL));
  free(error);
  return ok;
}

static bool has_arg(const char *arg) {
  for (size_t i = 0; i < opts.num_args; i++)
    if (strcmp(opts.args[i], arg) == 0) return true;
  return false;
}

int main(void) {
  /* Blank, padded and NULL strings. */
  CHECK(parse(NULL));
  CHECK_INT(0, opts.num_args);
  CHECK(strcmp(opts.cl_std, "CL1.2") == 0);
  cc_build_options_free(&opts);
  CHECK(parse("  \t\n "));
  CHECK_INT(0, opts.num_args);
  cc_build_options_free(&opts);

  /* -D forms. */
  CHECK(parse(" -D A -DB -DC=3 -D D=4 -D E=\"x y\" -D'F=a b' "));
  CHECK_INT(6, opts.num_args);
  CHECK(has_arg("-DA") && has_arg("-DB") && has_arg("-DC=3"));
  CHECK(has_arg("-DD=4") && has_arg("-DE=x y") && has_arg("-DF=a b"));
  cc_build_options_free(&opts);
  CHECK(parse("-DSTR=\"\\\"hi\\\"\""));
  CHECK(has_arg("-DSTR=\"hi\""));
  cc_build_options_free(&opts);
  CHECK(parse("-DF(a,b)=a+b"));
  CHECK(has_arg("-DF(a,b)=a+b"));
  cc_build_options_free(&opts);

  /* -I forms. */
  CHECK(parse("-I /tmp -I/usr/include"));
  CHECK(has_arg("-I/tmp") && has_arg("-I/usr/include"));
  cc_build_options_free(&opts);

  /* Every 1.2 option. */
  CHECK(parse("-w -Werror -cl-std=CL1.1 -cl-opt-disable -cl-mad-enable "
              "-cl-fast-relaxed-math -cl-finite-math-only "
              "-cl-no-signed-zeros -cl-unsafe-math-optimizations "
              "-cl-denorms-are-zero -cl-single-precision-constant "
              "-cl-strict-aliasing -cl-kernel-arg-info"));
  CHECK(strcmp(opts.cl_std, "CL1.1") == 0);
  CHECK_INT(0xfff, opts.flags);
  CHECK(has_arg("-cl-mad-enable") && has_arg("-w") && has_arg("-Werror"));
  CHECK(!has_arg("-cl-opt-disable") && !has_arg("-cl-strict-aliasing"));
  cc_build_options_free(&opts);
  CHECK(parse("-cl-std=CL1.2"));
  CHECK(strcmp(opts.cl_std, "CL1.2") == 0);
  cc_build_options_free(&opts);
  CHECK(parse("-cl-uniform-work-group-size -cl-no-subgroup-ifp"));
  CHECK_INT(CC_OPTION_UNIFORM_WORK_GROUPS, opts.flags);
  CHECK(has_arg("-cl-uniform-work-group-size") &&
        !has_arg("-cl-no-subgroup-ifp"));
  cc_build_options_free(&opts);
  CHECK(parse("-cl-std=CL3.0"));
  CHECK(strcmp(opts.cl_std, "CL3.0") == 0);
  cc_build_options_free(&opts);

  /* Rejected: unknown, malformed, missing values, bad quotes. */
  const char *bad[] = {
      "-foo", "-cl-std=CL2.0", "-cl-std=CL1.0", "-cl-std=", "-cl-std",
      "-D", "-I", "-D 1abc", "-D =3", "-DA -D", "-O2", "-cl-fast",
      "-cl-mad-enable2", "-D \"A", "-DA='x", "file.cl", "-W", "-cl-kernel-arg-info -x",
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    char *error = NULL;
    bool ok = cc_parse_build_options(bad[i], &opts, &error);
    CHECK(!ok);
    CHECK(error != NULL);
    if (ok) fprintf(stderr, "accepted: %s\n", bad[i]);
    CHECK_INT(0, opts.num_args);
    free(error);
  }
  char *error = NULL;
  CHECK(!cc_parse_build_options("-cl-std=CL9", &opts, &error));
  CHECK(error && strstr(error, "-cl-std=CL9"));
  free(error);
  return check_finish();
}

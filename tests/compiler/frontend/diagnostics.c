/* Compile errors and warnings reach the log with line:column; -Werror and
 * -w change them. */
#include "frontend_test.h"

int main(void) {
  /* #error on line 2. */
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("kernel void k(global int *p) { p[0] = 1; }\n"
                       "#error stop here\n",
                       NULL));
  CHECK(fe_log_has(":2:2: error: stop here"));

  /* A syntax error: missing ';' on line 3. */
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("kernel void k(global int *p) {\n"
                       "  int x = 1;\n"
                       "  p[0] = x\n"
                       "}\n",
                       NULL));
  CHECK(fe_log_has(":3:11: error: expected ';'"));
  CHECK(fe_log_has("1 error generated"));

  /* An undeclared identifier and an unknown builtin. */
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("kernel void k(global int *p) { p[0] = nope; }\n",
                       NULL));
  CHECK(fe_log_has(":1:39: error: use of undeclared identifier 'nope'"));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("kernel void k(global int *p) { p[0] = no_fn(1); }\n",
                       NULL));
  CHECK(fe_log_has("no_fn"));

  /* OpenCL rules: a kernel must return void. */
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("kernel int k(global int *p) { return 0; }\n", NULL));
  CHECK(fe_log_has("error"));

  /* A warning: compiles, and the log says so with its position. */
  const char *warns = "kernel void k(global int *p) {\n"
                      "  int unused_x;\n"
                      "  char c = 300;\n"
                      "  p[0] = c;\n"
                      "}\n";
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(warns, NULL));
  CHECK(fe_log_has(":3:12: warning:"));
  CHECK(fe_log_has("1 warning generated"));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED, fe_compile(warns, "-Werror"));
  CHECK(fe_log_has(":3:12: error:"));
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(warns, "-w"));
  CHECK_INT(0, strlen(fe_log));
  /* #warning too. */
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_compile("#warning careful\nkernel void k() {}\n", NULL));
  CHECK(fe_log_has(":1:2: warning: careful"));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile("#warning careful\nkernel void k() {}\n", "-Werror"));

  /* Errors in a header name the header. */
  cc_header header = {"bad.h", "int f(void) { return }\n"};
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile_with("#include \"bad.h\"\nkernel void k() {}\n", NULL,
                            &header, 1));
  CHECK(fe_log_has("bad.h:1:22: error"));

  /* The empty program compiles (no kernels), and so does a NULL source. */
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile("", NULL));
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = NULL;
  char *log = NULL;
  CHECK_INT(CC_FRONTEND_SUCCESS,
            cc_compile_opencl_c(context, NULL, 0, NULL, NULL, 0, &module,
                                &log));
  CHECK(module != NULL);
  LLVMDisposeModule(module);
  free(log);
  /* A header without a name is refused, not crashed on. */
  cc_header nameless = {NULL, "x"};
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            cc_compile_opencl_c(context, "", 0, NULL, &nameless, 1, &module,
                                &log));
  CHECK(module == NULL && log != NULL);
  free(log);
  /* out_log may be NULL. */
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            cc_compile_opencl_c(context, "#error x\n", 9, NULL, NULL, 0,
                                &module, NULL));
  LLVMContextDispose(context);
  return fe_finish();
}

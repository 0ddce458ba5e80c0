/* clLinkProgram through cc_module_link: a kernel calling a function that
 * another module defines, run through Mux against a host reference; a
 * library linked into an executable; duplicate and undefined symbols,
 * bad link options and wrong inputs reported in the log. */
#include "module_test.h"

static const char *const kernels_source =
    "float scale(float x);\n"
    "extern constant float offset_table[4];\n"
    "kernel void apply(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = scale(in[i]) + offset_table[i & 3];\n"
    "}\n";
static const char *const helpers_source =
    "constant float offset_table[4] = {0.5f, 1.0f, -2.0f, 4.0f};\n"
    "float scale(float x) { return x * 3.0f - 1.0f; }\n";

enum { items = 256 };

/* Runs `apply` of `module` at local size 32 and compares. */
static void run_apply(cc_module *module) {
  static float in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = (float)i * 0.25f - 7.0f;
  const uint32_t local[3] = {32, 1, 1};
  mux_executable_t executable = load_specialized(module, "apply", local);
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "apply");
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  mux_descriptor_info_t args[2] = {buffer_arg(&bin), buffer_arg(&bout)};
  CHECK_SUCCESS(run_1d(kernel, args, 2, items, 32));
  host_buffer_read(&bout, out);
  const float table[4] = {0.5f, 1.0f, -2.0f, 4.0f};
  int wrong = 0;
  for (int i = 0; i < items; i++) {
    wrong += out[i] != in[i] * 3.0f - 1.0f + table[i & 3];
  }
  CHECK_INT(0, wrong);
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static void test_two_modules(void) {
  cc_module *objects[2] = {compile_ok(kernels_source, "-cl-kernel-arg-info"),
                           compile_ok(helpers_source, NULL)};
  /* An object alone cannot be specialized. */
  const void *binary = NULL;
  size_t size = 0;
  const uint32_t local[3] = {32, 1, 1};
  CHECK_INT(
      CC_MODULE_INVALID_OPERATION,
      cc_module_specialize(objects[0], "apply", local, NULL, &binary, &size, NULL));
  cc_module *linked = link_ok(objects, 2, "  ");
  CHECK_INT(CC_MODULE_EXECUTABLE, cc_module_get_kind(linked));
  CHECK_INT(1, cc_module_kernel_count(linked));
  const cc_module_kernel *apply = cc_module_find_kernel(linked, "apply");
  REQUIRE(apply);
  CHECK(apply->arg_info); /* kept from the object that defined it */
  CHECK(strcmp(apply->args[1].name, "out") == 0);
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(linked, NULL));
  run_apply(linked);
  /* The inputs are unchanged and can be linked again, in either order. */
  cc_module *swapped[2] = {objects[1], objects[0]};
  cc_module *again = link_ok(swapped, 2, NULL);
  run_apply(again);
  cc_module_destroy(again);
  cc_module_destroy(linked);

  /* A library of the helpers, then an executable from it. */
  cc_module *library = link_ok(&objects[1], 1, "-create-library");
  CHECK_INT(CC_MODULE_LIBRARY, cc_module_get_kind(library));
  CHECK_INT(
      CC_MODULE_INVALID_OPERATION,
      cc_module_specialize(library, "apply", local, NULL, &binary, &size, NULL));
  CHECK_INT(CC_MODULE_INVALID_OPERATION, cc_module_finalize(library, NULL));
  cc_module *from_library[2] = {objects[0], library};
  cc_module *program = link_ok(from_library, 2, "-cl-fast-relaxed-math");
  CHECK(cc_module_option_flags(program) != 0);
  run_apply(program);

  /* An executable is no link input. */
  char *log = NULL;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *bad = cc_module_link(&program, 1, NULL, &log, &result);
  CHECK(bad == NULL);
  CHECK_INT(CC_MODULE_INVALID_OPERATION, result);
  CHECK(log && strstr(log, "not a compiled object"));
  free(log);
  cc_module_destroy(program);

  /* A library may keep symbols undefined; an executable may not. */
  cc_module *kernels_library = link_ok(&objects[0], 1,
                                       "-create-library "
                                       "-enable-link-options");
  CHECK_INT(1, cc_module_kernel_count(kernels_library));
  log = NULL;
  bad = cc_module_link(&objects[0], 1, NULL, &log, &result);
  CHECK(bad == NULL);
  CHECK_INT(CC_MODULE_LINK_FAILED, result);
  CHECK(log && strstr(log, "'scale'") && strstr(log, "'apply'"));
  CHECK(log && strstr(log, "offset_table"));
  free(log);
  cc_module_destroy(kernels_library);
  cc_module_destroy(library);
  cc_module_destroy(objects[0]);
  cc_module_destroy(objects[1]);
}

static void test_errors(void) {
  cc_module *a = compile_ok(
      "int twice(int x) { return 2 * x; }\n"
      "kernel void k(global int *p) { p[0] = 1; }\n",
      NULL);
  cc_module *b = compile_ok("int twice(int x) { return x + x; }\n", NULL);
  cc_module *pair[2] = {a, b};
  char *log = NULL;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *bad = cc_module_link(pair, 2, NULL, &log, &result);
  CHECK(bad == NULL);
  CHECK_INT(CC_MODULE_LINK_FAILED, result);
  CHECK(log && strstr(log, "twice") && strstr(log, "multiply defined"));
  if (log && !strstr(log, "multiply")) fprintf(stderr, "log: %s\n", log);
  free(log);

  /* The same kernel twice. */
  cc_module *twin[2] = {a, a};
  log = NULL;
  bad = cc_module_link(twin, 2, "-create-library", &log, &result);
  CHECK(bad == NULL);
  CHECK_INT(CC_MODULE_LINK_FAILED, result);
  CHECK(log && strstr(log, "error:"));
  free(log);

  const char *const bad_options[] = {"-cl-kernel-arg-info", "-DX=1",
                                     "-enable-link-options",
                                     "-create-libraryx"};
  for (int i = 0; i < 4; i++) {
    log = NULL;
    bad = cc_module_link(&a, 1, bad_options[i], &log, &result);
    CHECK(bad == NULL);
    CHECK_INT(CC_MODULE_INVALID_OPTIONS, result);
    CHECK(log && strstr(log, "error:"));
    free(log);
  }
  log = NULL;
  bad = cc_module_link(NULL, 0, NULL, &log, &result);
  CHECK(bad == NULL);
  CHECK_INT(CC_MODULE_INVALID_VALUE, result);
  free(log);
  cc_module_destroy(a);
  cc_module_destroy(b);
}

int main(void) {
  codegen_test_start();
  test_two_modules();
  test_errors();
  return codegen_test_finish();
}

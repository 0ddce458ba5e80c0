/* The offline compiler (tools/cl_compile.c), run as a program: a source
 * with a build option and an #include beside it builds into a binary that
 * cc_module_deserialize reloads and that runs through Mux against a host
 * reference, byte for byte what the module layer serializes in-process;
 * -c objects and --library libraries chain into an executable; --header
 * feeds #include; a bad source fails with its log and leaves no output;
 * usage errors exit 2. Argument: the tool's path. */
#include <fcntl.h>
#include <sys/wait.h>

#include "cache_test.h"
#include "module_test.h"

static const char *tool;
static char *scratch;

/* A path in the scratch folder (malloc'd). */
static char *scratch_path(const char *name) {
  char *path = NULL;
  REQUIRE(asprintf(&path, "%s/%s", scratch, name) > 0);
  return path;
}

static void write_text(const char *name, const char *text) {
  char *path = scratch_path(name);
  FILE *file = fopen(path, "w");
  REQUIRE(file && fputs(text, file) >= 0 && fclose(file) == 0);
  free(path);
}

static uint8_t *read_bytes(const char *name, size_t *size) {
  char *path = scratch_path(name);
  FILE *file = fopen(path, "rb");
  free(path);
  *size = 0;
  if (!file) return NULL;
  size_t capacity = 1 << 20;
  uint8_t *bytes = malloc(capacity);
  *size = fread(bytes, 1, capacity, file);
  fclose(file);
  return bytes;
}

static bool exists(const char *name) {
  char *path = scratch_path(name);
  bool found = access(path, F_OK) == 0;
  free(path);
  return found;
}

/* Runs the tool with `args` (NULL-terminated, without argv[0]) in the
 * scratch folder; its standard error (and output) into *messages. */
static int run_tool(const char *const *args, char **messages) {
  char *log = scratch_path("tool-output.txt");
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const char *argv[32] = {tool};
    for (int i = 0; args[i] && i < 30; i++) argv[i + 1] = args[i];
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || chdir(scratch) != 0) _exit(99);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(tool, (char *const *)argv);
    _exit(98);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  size_t size = 0;
  uint8_t *text = read_bytes("tool-output.txt", &size);
  *messages = calloc(1, size + 1);
  if (text) memcpy(*messages, text, size);
  free(text);
  free(log);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

/* Runs the tool expecting `status`; returns its messages. */
static char *expect_tool(int status, const char *const *args) {
  char *messages = NULL;
  int got = run_tool(args, &messages);
  CHECK_INT(status, got);
  if (got != status) fprintf(stderr, "tool said:\n%s\n", messages);
  return messages;
}

static cc_module *reload(const char *name, cc_module_kind kind) {
  size_t size = 0;
  uint8_t *bytes = read_bytes(name, &size);
  REQUIRE(bytes);
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *module = cc_module_deserialize(bytes, size, &log, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  if (!module) fprintf(stderr, "deserialize %s: %s\n", name, log);
  free(log);
  free(bytes);
  REQUIRE(module);
  CHECK_INT(kind, cc_module_get_kind(module));
  return module;
}

enum { items = 300 };

/* Runs `name`(in, out) over `items` and compares out with want(in[i]). */
static void run_and_check(cc_module *module, const char *name,
                          int32_t (*want)(int32_t)) {
  const uint32_t local[3] = {12, 1, 1};
  if (cc_module_get_kind(module) == CC_MODULE_EXECUTABLE) {
    CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(module, NULL));
  }
  mux_executable_t executable = load_specialized(module, name, local);
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, name);
  static int32_t in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = i * 5 - 700;
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  mux_descriptor_info_t args[2] = {buffer_arg(&bin), buffer_arg(&bout)};
  CHECK_SUCCESS(run_1d(kernel, args, 2, items, 12));
  host_buffer_read(&bout, out);
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += out[i] != want(in[i]);
  CHECK_INT(0, wrong);
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static const char *const poly_source =
    "#include \"offset.h\"\n"
    "kernel void poly(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * in[i] + K * in[i] - OFFSET;\n"
    "}\n";

static int32_t poly_reference(int32_t x) { return x * x + 5 * x - 3; }

static void test_build(void) {
  write_text("offset.h", "#define OFFSET 3\n");
  write_text("poly.cl", poly_source);
  char *messages = expect_tool(
      0, (const char *[]){"-o", "poly.bin", "--list-kernels", "poly.cl", "--",
                          "-DK=5", "-cl-kernel-arg-info", NULL});
  CHECK(strstr(messages, "kernel poly(global int* in, global int* out)"));
  free(messages);
  cc_module *module = reload("poly.bin", CC_MODULE_EXECUTABLE);
  run_and_check(module, "poly", poly_reference);
  cc_module_destroy(module);
  CHECK_INT(0, cache_test_count(scratch, "poly.bin.tmp"));
}

/* Without an #include the options are the user's alone, and the tool's
 * bytes are those the module layer serializes in this process. */
static void test_same_bytes(void) {
  const char *source =
      "kernel void twice(global const int *in, global int *out) {\n"
      "  out[get_global_id(0)] = 2 * in[get_global_id(0)];\n"
      "}\n";
  write_text("twice.cl", source);
  free(expect_tool(0, (const char *[]){"twice.cl", "-o", "twice.bin", "--",
                                       "-cl-mad-enable", NULL}));
  cc_module *object = compile_ok(source, "-cl-mad-enable");
  cc_module *linked = link_ok(&object, 1, "");
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(linked, NULL));
  uint8_t *expected = NULL;
  size_t expected_size = 0, size = 0;
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_serialize(linked, &expected, &expected_size));
  uint8_t *bytes = read_bytes("twice.bin", &size);
  CHECK(bytes && size == expected_size && memcmp(bytes, expected, size) == 0);
  free(bytes);
  free(expected);
  cc_module_destroy(linked);
  cc_module_destroy(object);
}

static int32_t chain_reference(int32_t x) { return (x ^ 0x55) + 7; }

static void test_objects_and_libraries(void) {
  write_text("helper.cl", "int helper(int x) { return x ^ 0x55; }\n");
  static const char user[] =
      "int helper(int x);\n"
      "kernel void chain(global const int *in, global int *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[i] = helper(in[i]) + SEVEN;\n"
      "}\n";
  write_text("user.cl", user);
  write_text("seven.h", "#define SEVEN 7\n");
  free(expect_tool(
      0, (const char *[]){"-c", "-o", "helper.obj", "helper.cl", NULL}));
  /* numbers/seven.h exists only as the --header given. */
  char *user_text = NULL;
  REQUIRE(asprintf(&user_text, "#include \"numbers/seven.h\"\n%s", user) > 0);
  write_text("user_with_header.cl", user_text);
  free(user_text);
  free(expect_tool(
      0, (const char *[]){"-c", "--header", "numbers/seven.h=seven.h", "-o",
                          "user.obj", "user_with_header.cl", NULL}));
  cc_module *object = reload("user.obj", CC_MODULE_OBJECT);
  CHECK(cc_module_find_kernel(object, "chain") != NULL);
  cc_module_destroy(object);
  free(expect_tool(0, (const char *[]){"--library", "-o", "helper.lib",
                                       "helper.obj", NULL}));
  cc_module *library = reload("helper.lib", CC_MODULE_LIBRARY);
  cc_module_destroy(library);
  free(expect_tool(
      0, (const char *[]){"-o", "chain.bin", "helper.lib", "user.obj",
                          "--link-options", "-cl-fast-relaxed-math", NULL}));
  cc_module *executable = reload("chain.bin", CC_MODULE_EXECUTABLE);
  run_and_check(executable, "chain", chain_reference);
  cc_module_destroy(executable);
  /* Two sources linked at once; an undefined function fails the link. */
  free(expect_tool(0, (const char *[]){"-o", "both.bin", "helper.cl", "user.cl",
                                       "-DSEVEN=7", NULL}));
  executable = reload("both.bin", CC_MODULE_EXECUTABLE);
  run_and_check(executable, "chain", chain_reference);
  cc_module_destroy(executable);
  char *messages = expect_tool(
      1, (const char *[]){"-o", "alone.bin", "user.cl", "-DSEVEN=7", NULL});
  CHECK(strstr(messages, "helper"));
  CHECK(!exists("alone.bin"));
  free(messages);
}

static void test_failures(void) {
  write_text("bad.cl",
             "kernel void bad(global int *x) { x[0] = not_declared; }\n");
  char *messages =
      expect_tool(1, (const char *[]){"-o", "bad.bin", "bad.cl", NULL});
  CHECK(strstr(messages, "not_declared"));
  CHECK(strstr(messages, "error"));
  CHECK(!exists("bad.bin"));
  free(messages);
  messages = expect_tool(1, (const char *[]){"-o", "opt.bin", "poly.cl", "--",
                                             "-cl-no-such-option", NULL});
  CHECK(strstr(messages, "-cl-no-such-option"));
  free(messages);
  /* Not a binary of ours, and a missing file. */
  write_text("junk.obj", "this is not a program binary");
  free(expect_tool(1, (const char *[]){"-o", "junk.bin", "junk.obj", NULL}));
  free(expect_tool(2, (const char *[]){"-o", "x.bin", "missing.cl", NULL}));
  /* Usage. */
  free(expect_tool(2, (const char *[]){"poly.cl", NULL}));
  free(expect_tool(2, (const char *[]){"-o", "x.bin", NULL}));
  free(expect_tool(
      2, (const char *[]){"--bogus", "-o", "x.bin", "poly.cl", NULL}));
  free(expect_tool(
      2, (const char *[]){"-c", "--library", "-o", "x.bin", "poly.cl", NULL}));
  messages = expect_tool(0, (const char *[]){"--help", NULL});
  CHECK(strstr(messages, "Usage: clmux-cl-compile"));
  free(messages);
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2);
  /* Absolute: the tool runs in the scratch folder. */
  char *absolute = realpath(argv[1], NULL);
  REQUIRE(absolute && access(absolute, X_OK) == 0);
  tool = absolute;
  scratch = cache_test_directory("offline-compiler");
  codegen_test_start();
  test_build();
  test_same_bytes();
  test_objects_and_libraries();
  test_failures();
  cache_test_remove(scratch);
  free(scratch);
  free(absolute);
  return codegen_test_finish();
}

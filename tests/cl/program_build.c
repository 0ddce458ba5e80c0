/* clmux: building OpenCL C through the loader — clBuildProgram (options,
 * -D/-I, failures with their logs, bad options), clCompileProgram with
 * embedded headers, clLinkProgram (objects, -create-library, failures that
 * still return a program, bad options), asynchronous builds with
 * callbacks, four threads building at once, rebuild rules and
 * clUnloadPlatformCompiler. Built kernels are run to prove the result. */
#include <pthread.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static cl_program from_source(const char *source) {
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  REQUIRE(error == CL_SUCCESS && program);
  return program;
}

static cl_build_status status_of(cl_program program) {
  cl_build_status status = 99;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_STATUS,
                                         sizeof status, &status, NULL));
  return status;
}

static cl_program_binary_type type_of(cl_program program) {
  cl_program_binary_type type = 99;
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BINARY_TYPE, sizeof type,
                                         &type, NULL));
  return type;
}

static bool log_has(cl_program program, const char *text) {
  char *log = cl_test_build_log(program, device);
  bool found = strstr(log, text) != NULL;
  if (!found) fprintf(stderr, "log lacks \"%s\":\n%s\n", text, log);
  free(log);
  return found;
}

/* Runs kernel `name` (one global int* argument) over 4 items and returns
 * what item 3 wrote. */
static int run_value(cl_program program, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  if (!kernel) return -12345;
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int),
                              NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  size_t global = 4;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  cl_int got[4] = {0};
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got,
                                       got, 0, NULL, NULL));
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  return got[3];
}

static void test_build(void) {
  cl_program program = from_source(
      "kernel void first(global int *o) { o[get_global_id(0)] = 11; }\n"
      "kernel void second(global int *o) {\n"
      "  o[get_global_id(0)] = VALUE * (int)get_global_id(0);\n"
      "}\n"
      "#ifdef FLAG\n"
      "kernel void third(global int *o) { o[get_global_id(0)] = 3; }\n"
      "#endif\n");
  CHECK_INT(CL_BUILD_NONE, status_of(program));
  CHECK_CL_SUCCESS(
      clBuildProgram(program, 1, &device, "-DVALUE=5 -DFLAG ", NULL, NULL));
  CHECK_INT(CL_BUILD_SUCCESS, status_of(program));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, type_of(program));
  size_t count = 0, size = 0;
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS,
                                    sizeof count, &count, NULL));
  CHECK_INT(3, count);
  char names[64] = {0};
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES,
                                    sizeof names, names, &size));
  CHECK(strcmp(names, "first;second;third") == 0);
  CHECK_INT(strlen("first;second;third") + 1, size);
  CHECK_INT(11, run_value(program, "first"));
  CHECK_INT(15, run_value(program, "second"));
  CHECK_INT(3, run_value(program, "third"));
  cl_int error = CL_SUCCESS;
  CHECK(clCreateKernel(program, "fourth", &error) == NULL);
  CHECK_CL(CL_INVALID_KERNEL_NAME, error);
  CHECK(clCreateKernel(program, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);

  /* Rebuilt without FLAG and another VALUE: the kernels follow. */
  CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, " -D VALUE=7", NULL, NULL));
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS,
                                    sizeof count, &count, NULL));
  CHECK_INT(2, count);
  CHECK_INT(21, run_value(program, "second"));

  /* No rebuild while a kernel is attached. */
  cl_kernel kernel = clCreateKernel(program, "first", &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL(CL_INVALID_OPERATION,
           clBuildProgram(program, 0, NULL, "-DVALUE=1", NULL, NULL));
  CHECK_CL(CL_INVALID_OPERATION,
           clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL,
                            NULL));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, "-DVALUE=1", NULL, NULL));
  CHECK_INT(3, run_value(program, "second"));

  /* Unload the compiler, build again. */
  CHECK_CL_SUCCESS(clUnloadPlatformCompiler(cl_test_platform()));
  CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, "-DVALUE=2", NULL, NULL));
  CHECK_INT(6, run_value(program, "second"));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

static void test_failures(void) {
  /* A syntax error: its line in the log, no kernels. */
  cl_program program = from_source(
      "kernel void k(global int *o) {\n"
      "  o[0] = 1;\n"
      "  o[1] = ;\n"
      "}\n");
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  CHECK_INT(CL_BUILD_ERROR, status_of(program));
  CHECK(log_has(program, ":3:"));
  CHECK(log_has(program, "error"));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_NONE, type_of(program));
  cl_int error = CL_SUCCESS;
  CHECK(clCreateKernel(program, "k", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  size_t size = 0;
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size));
  cl_uint num = 0;
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE,
           clCreateKernelsInProgram(program, 0, NULL, &num));
  CHECK_CL_SUCCESS(clReleaseProgram(program));

  /* #error fails the build with its message. */
  program = from_source("#error stop right here\nkernel void k() {}\n");
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  CHECK(log_has(program, "stop right here"));
  /* An unknown option. */
  CHECK_CL(CL_INVALID_BUILD_OPTIONS,
           clBuildProgram(program, 0, NULL, "-no-such-option", NULL, NULL));
  CHECK_INT(CL_BUILD_ERROR, status_of(program));
  CHECK_CL(CL_INVALID_COMPILER_OPTIONS,
           clCompileProgram(program, 0, NULL, "-cl-std=CL9.9", 0, NULL, NULL,
                            NULL, NULL));
  char options[64] = {0};
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(program, device,
                                         CL_PROGRAM_BUILD_OPTIONS,
                                         sizeof options, options, NULL));
  CHECK(strcmp(options, "-cl-std=CL9.9") == 0);
  /* OpenCL C 2.0 is not among the device's OpenCL C versions. */
  CHECK_CL(CL_INVALID_BUILD_OPTIONS,
           clBuildProgram(program, 0, NULL, "-cl-std=CL2.0", NULL, NULL));
  CHECK(log_has(program, "-cl-std=CL2.0"));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
}

/* -I <dir>: a header from a directory; another directory, another value. */
static void test_include_dirs(void) {
  char dirs[2][64];
  for (int i = 0; i < 2; i++) {
    snprintf(dirs[i], sizeof dirs[i], "/tmp/clmux_inc_%d_%d", (int)getpid(),
             i);
    mkdir(dirs[i], 0700);
    char path[256];
    snprintf(path, sizeof path, "%s/value.h", dirs[i]);
    FILE *file = fopen(path, "w");
    REQUIRE(file);
    fprintf(file, "#define INCLUDED_VALUE %d\n", 40 + i);
    fclose(file);
  }
  cl_program program = from_source(
      "#include \"value.h\"\n"
      "kernel void k(global int *o) { o[get_global_id(0)] = INCLUDED_VALUE; }\n");
  char options[160];
  for (int i = 0; i < 2; i++) {
    snprintf(options, sizeof options, "-I %s", dirs[i]);
    CHECK_CL_SUCCESS(clBuildProgram(program, 0, NULL, options, NULL, NULL));
    CHECK_INT(40 + i, run_value(program, "k"));
  }
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(program, 0, NULL, NULL, NULL, NULL));
  CHECK(log_has(program, "value.h"));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  for (int i = 0; i < 2; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s/value.h", dirs[i]);
    unlink(path);
    rmdir(dirs[i]);
  }
}

static const char helper_source[] =
    "#include \"defs.h\"\n"
    "#include \"sub/more.h\"\n"
    "int helper(int x) { return x * SCALE + OFFSET; }\n";
static const char user_source[] =
    "int helper(int x);\n"
    "kernel void use(global int *o) {\n"
    "  o[get_global_id(0)] = helper((int)get_global_id(0));\n"
    "}\n";

static cl_program compiled(const char *source, cl_uint num_headers,
                           const cl_program *headers, const char **names) {
  cl_program program = from_source(source);
  CHECK_CL_SUCCESS(clCompileProgram(program, 1, &device, NULL, num_headers,
                                    headers, names, NULL, NULL));
  CHECK_INT(CL_BUILD_SUCCESS, status_of(program));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, type_of(program));
  return program;
}

static void test_compile_and_link(void) {
  cl_program headers[2] = {from_source("#define SCALE 3\n"),
                           from_source("#define OFFSET 100\n")};
  const char *names[2] = {"defs.h", "sub/more.h"};
  cl_program helper = compiled(helper_source, 2, headers, names);
  cl_program user = compiled(user_source, 0, NULL, NULL);
  /* An object is no executable. */
  cl_int error = CL_SUCCESS;
  CHECK(clCreateKernel(user, "use", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);

  cl_program both[2] = {helper, user};
  cl_program linked =
      clLinkProgram(context, 1, &device, NULL, 2, both, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  CHECK_INT(CL_BUILD_SUCCESS, status_of(linked));
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, type_of(linked));
  CHECK_INT(109, run_value(linked, "use"));
  /* A linked program cannot be built or compiled (1.2). */
  CHECK_CL(CL_INVALID_OPERATION,
           clBuildProgram(linked, 0, NULL, NULL, NULL, NULL));
  /* An executable is not linkable. */
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &linked, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_OPERATION, error);
  CHECK_CL_SUCCESS(clReleaseProgram(linked));

  /* Through a library. */
  cl_program library = clLinkProgram(context, 0, NULL, "-create-library", 1,
                                     &helper, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(library);
  CHECK_INT(CL_PROGRAM_BINARY_TYPE_LIBRARY, type_of(library));
  char options[64] = {0};
  CHECK_CL_SUCCESS(clGetProgramBuildInfo(library, device,
                                         CL_PROGRAM_BUILD_OPTIONS,
                                         sizeof options, options, NULL));
  CHECK(strcmp(options, "-create-library") == 0);
  cl_program with_library[2] = {user, library};
  linked = clLinkProgram(context, 0, NULL, "-cl-fast-relaxed-math", 2,
                         with_library, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  CHECK_INT(109, run_value(linked, "use"));
  CHECK_CL_SUCCESS(clReleaseProgram(linked));

  /* A link that fails still returns a program, with its log. */
  linked = clLinkProgram(context, 0, NULL, NULL, 1, &user, NULL, NULL, &error);
  CHECK_CL(CL_LINK_PROGRAM_FAILURE, error);
  REQUIRE(linked);
  CHECK_INT(CL_BUILD_ERROR, status_of(linked));
  CHECK(log_has(linked, "helper"));
  CHECK(clCreateKernel(linked, "use", &error) == NULL);
  CHECK_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  CHECK_CL_SUCCESS(clReleaseProgram(linked));

  /* Bad link options, inputs that are not objects. */
  CHECK(clLinkProgram(context, 0, NULL, "-cl-kernel-arg-info", 1, &user, NULL,
                      NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_LINKER_OPTIONS, error);
  CHECK(clLinkProgram(context, 0, NULL, "-enable-link-options", 1, &user,
                      NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_LINKER_OPTIONS, error);
  cl_program source_only = from_source(user_source);
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &source_only, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_OPERATION, error);
  CHECK_CL_SUCCESS(clReleaseProgram(source_only));

  /* A compile error. */
  cl_program broken = from_source("int f( { }\n");
  CHECK_CL(CL_COMPILE_PROGRAM_FAILURE,
           clCompileProgram(broken, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  CHECK_INT(CL_BUILD_ERROR, status_of(broken));
  CHECK(log_has(broken, ":1:"));
  CHECK_CL_SUCCESS(clReleaseProgram(broken));

  CHECK_CL_SUCCESS(clReleaseProgram(library));
  CHECK_CL_SUCCESS(clReleaseProgram(helper));
  CHECK_CL_SUCCESS(clReleaseProgram(user));
  CHECK_CL_SUCCESS(clReleaseProgram(headers[0]));
  CHECK_CL_SUCCESS(clReleaseProgram(headers[1]));
}

/* ---- Callbacks ------------------------------------------------------------*/

typedef struct notice {
  pthread_mutex_t lock;
  pthread_cond_t done;
  int calls;
  cl_build_status status_seen; /* read inside the callback */
  pthread_t thread;
} notice;

static void CL_CALLBACK on_built(cl_program program, void *data) {
  notice *n = data;
  cl_build_status status = 99;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS,
                        sizeof status, &status, NULL);
  pthread_mutex_lock(&n->lock);
  n->status_seen = status;
  n->thread = pthread_self();
  n->calls++;
  pthread_cond_broadcast(&n->done);
  pthread_mutex_unlock(&n->lock);
}

/* Waits for the callback (a guard against hanging, not a timing check). */
static void wait_notice(notice *n) {
  pthread_mutex_lock(&n->lock);
  for (int i = 0; i < 600 && n->calls == 0; i++) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&n->done, &n->lock, &until);
  }
  pthread_mutex_unlock(&n->lock);
}

static void test_async(void) {
  const char *sources[2] = {
      "kernel void k(global int *o) { o[get_global_id(0)] = 77; }\n",
      "kernel void k(global int *o) { o[get_global_id(0)] = nope; }\n"};
  for (int bad = 0; bad < 2; bad++) {
    cl_program program = from_source(sources[bad]);
    notice n = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
    CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, NULL, on_built, &n));
    wait_notice(&n);
    CHECK_INT(1, n.calls);
    CHECK_INT(bad ? CL_BUILD_ERROR : CL_BUILD_SUCCESS, n.status_seen);
    CHECK(!pthread_equal(n.thread, pthread_self()));
    if (!bad) CHECK_INT(77, run_value(program, "k"));
    if (bad) CHECK(log_has(program, "nope"));
    /* Released at once after the callback: the build holds its own. */
    CHECK_CL_SUCCESS(clReleaseProgram(program));
  }

  /* Compile and link with callbacks. */
  cl_program user = from_source(user_source);
  cl_program helper = from_source(
      "int helper(int x) { return x + 1000; }\n");
  notice n = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  CHECK_CL_SUCCESS(
      clCompileProgram(user, 0, NULL, NULL, 0, NULL, NULL, on_built, &n));
  wait_notice(&n);
  CHECK_INT(CL_BUILD_SUCCESS, n.status_seen);
  CHECK_CL_SUCCESS(
      clCompileProgram(helper, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program both[2] = {user, helper};
  notice linked_notice = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                          0, 0, 0};
  cl_int error = CL_INVALID_VALUE;
  cl_program linked = clLinkProgram(context, 0, NULL, NULL, 2, both, on_built,
                                    &linked_notice, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  wait_notice(&linked_notice);
  CHECK_INT(CL_BUILD_SUCCESS, linked_notice.status_seen);
  CHECK_INT(1003, run_value(linked, "use"));
  CHECK_CL_SUCCESS(clReleaseProgram(linked));
  CHECK_CL_SUCCESS(clReleaseProgram(user));
  CHECK_CL_SUCCESS(clReleaseProgram(helper));
}

/* A link reads its inputs as clLinkProgram found them: recompiling an
 * input (here into a failed build, which leaves it no module) while an
 * asynchronous link still runs changes nothing the link sees. The input
 * recompiled comes last, after padding objects, so the link is still
 * reading when the recompile ends. */
static void test_recompile_during_link(void) {
  enum { padding = 24 };
  cl_program inputs[padding + 2];
  for (int i = 0; i < padding; i++) {
    char source[160];
    snprintf(source, sizeof source,
             "float pad%d(float x) { return sin(x) * %d.0f + cos(x); }\n", i,
             i);
    inputs[i] = compiled(source, 0, NULL, NULL);
  }
  inputs[padding] = compiled(user_source, 0, NULL, NULL);
  cl_program helper = compiled("#ifdef BREAK\n#error broken on purpose\n"
                               "#endif\n"
                               "int helper(int x) { return x + 2000; }\n",
                               0, NULL, NULL);
  inputs[padding + 1] = helper;
  notice n = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  cl_int error = CL_INVALID_VALUE;
  cl_program linked = clLinkProgram(context, 0, NULL, NULL, padding + 2,
                                    inputs, on_built, &n, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  CHECK_CL(CL_COMPILE_PROGRAM_FAILURE,
           clCompileProgram(helper, 0, NULL, "-DBREAK", 0, NULL, NULL, NULL,
                            NULL));
  CHECK(log_has(helper, "broken on purpose"));
  wait_notice(&n);
  CHECK_INT(CL_BUILD_SUCCESS, n.status_seen);
  CHECK_INT(2003, run_value(linked, "use"));
  /* The failed input is no longer linkable. */
  CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &helper, NULL, NULL,
                      &error) == NULL);
  CHECK_CL(CL_INVALID_OPERATION, error);
  CHECK_CL_SUCCESS(clReleaseProgram(linked));
  for (int i = 0; i < padding + 2; i++) {
    CHECK_CL_SUCCESS(clReleaseProgram(inputs[i]));
  }
}

/* ---- Threads ----------------------------------------------------------------*/

typedef struct builder {
  int index;
  int result;
} builder;

static void *build_thread(void *data) {
  builder *b = data;
  char source[256];
  snprintf(source, sizeof source,
           "kernel void k(global int *o) {\n"
           "  o[get_global_id(0)] = %d + (int)get_global_id(0) * WIDTH;\n"
           "}\n",
           1000 * b->index);
  char options[32];
  snprintf(options, sizeof options, "-DWIDTH=%d", b->index + 2);
  cl_program program = from_source(source);
  cl_int error = clBuildProgram(program, 1, &device, options, NULL, NULL);
  b->result = error == CL_SUCCESS ? run_value(program, "k") : -1;
  clReleaseProgram(program);
  return NULL;
}

static void test_threads(void) {
  pthread_t threads[4];
  builder builders[4];
  for (int i = 0; i < 4; i++) {
    builders[i] = (builder){i, -2};
    REQUIRE(pthread_create(&threads[i], NULL, build_thread, &builders[i]) ==
            0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(threads[i], NULL);
    CHECK_INT(1000 * i + 3 * (i + 2), builders[i].result);
  }
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  test_build();
  test_failures();
  test_include_dirs();
  test_compile_and_link();
  test_async();
  test_recompile_during_link();
  test_threads();
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

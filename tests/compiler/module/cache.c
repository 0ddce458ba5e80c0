/* Specialization and its cache: a hit returns the identical pointer, four
 * threads asking for the same kernel and local size at once build it once,
 * finalize builds reqd_work_group_size kernels up front, wrong requests and
 * unsupported kernels report why; four threads compile and specialize
 * modules of their own at the same time; an image kernel's code has a
 * version for its first request's image format and serves every later
 * request at its local size; on disk, programs are told apart by what they were
 * made from (options, link inputs, binaries). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dirent.h>
#include <pthread.h>

#include "module_test.h"

static const char *const source =
    "kernel void square(global float *data) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * data[i];\n"
    "}\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global int *out) {\n"
    "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
    "      (int)(get_local_size(0) * 10 + get_local_size(1));\n"
    "}\n"
    /* a mangled function neither the library nor codegen defines */
    "float __attribute__((overloadable)) clmux_undefined(float);\n"
    "kernel void calls_missing(global float *out) {\n"
    "  out[0] = clmux_undefined(out[1]);\n"
    "}\n";

enum { items = 512 };

static void run_square(const void *binary, size_t size, size_t local) {
  mux_executable_t executable = NULL;
  CHECK_SUCCESS(muxCreateExecutable(device, binary, size, mux_test_allocator,
                                    &executable));
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "square");
  static float data[items], result[items];
  for (int i = 0; i < items; i++) data[i] = (float)(i % 37) - 11.5f;
  host_buffer b = host_buffer_create(data, sizeof data);
  mux_descriptor_info_t arg = buffer_arg(&b);
  CHECK_SUCCESS(run_1d(kernel, &arg, 1, items, local));
  host_buffer_read(&b, result);
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += result[i] != data[i] * data[i];
  CHECK_INT(0, wrong);
  host_buffer_destroy(&b);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

typedef struct request {
  cc_module *module;
  pthread_barrier_t *start;
  const void *binary;
  size_t size;
  cc_module_result result;
} request;

static void *specialize_thread(void *arg) {
  request *r = arg;
  const uint32_t local[3] = {16, 1, 1};
  pthread_barrier_wait(r->start);
  r->result = cc_module_specialize(r->module, "square", local, NULL, &r->binary,
                                   &r->size, NULL);
  return NULL;
}

static void test_cache(cc_module *module) {
  /* finalize built `fixed` (reqd 4x2x1) and nothing else. */
  CHECK_INT(1, cc_module_build_count(module));
  const void *binary = NULL, *again = NULL;
  size_t size = 0, size_again = 0;
  const uint32_t fixed_size[3] = {4, 2, 1};
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(module, "fixed", fixed_size, NULL, &binary,
                                 &size, NULL));
  CHECK_INT(1, cc_module_build_count(module));
  mux_executable_t executable = NULL;
  CHECK_SUCCESS(muxCreateExecutable(device, binary, size, mux_test_allocator,
                                    &executable));
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, "fixed");
    int32_t out[8 * 4];
    host_buffer b = host_buffer_create(NULL, sizeof out);
    mux_descriptor_info_t arg = buffer_arg(&b);
    size_t global[2] = {8, 4}, offset[2] = {0, 0}, local[3] = {4, 2, 1};
    CHECK_SUCCESS(run_ndrange(kernel, &arg, 1, 2, global, offset, local));
    host_buffer_read(&b, out);
    int wrong = 0;
    for (int i = 0; i < 32; i++) wrong += out[i] != 42;
    CHECK_INT(0, wrong);
    host_buffer_destroy(&b);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }

  /* Four threads at once: one build, one pointer. */
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, 4);
  request requests[4];
  pthread_t threads[4];
  for (int t = 0; t < 4; t++) {
    requests[t] = (request){module, &start, NULL, 0, CC_MODULE_OUT_OF_MEMORY};
    REQUIRE(pthread_create(&threads[t], NULL, specialize_thread,
                           &requests[t]) == 0);
  }
  for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
  pthread_barrier_destroy(&start);
  CHECK_INT(2, cc_module_build_count(module));
  for (int t = 0; t < 4; t++) {
    CHECK_INT(CC_MODULE_SUCCESS, requests[t].result);
    CHECK(requests[t].binary != NULL &&
          requests[t].binary == requests[0].binary &&
          requests[t].size == requests[0].size);
  }
  if (requests[0].binary) run_square(requests[0].binary, requests[0].size, 16);

  /* A hit: the identical pointer, no build. */
  const uint32_t local16[3] = {16, 1, 1};
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(module, "square", local16, NULL, &again,
                                 &size_again, NULL));
  CHECK(again == requests[0].binary && size_again == requests[0].size);
  CHECK_INT(2, cc_module_build_count(module));
  /* Another local size is another build. */
  const uint32_t local8[3] = {8, 1, 1};
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(module, "square", local8, NULL, &binary, &size,
                                 NULL));
  CHECK(binary != requests[0].binary);
  CHECK_INT(3, cc_module_build_count(module));
  run_square(binary, size, 8);

  /* Requests that cannot be served. */
  const char *reason = NULL;
  const uint32_t zero[3] = {16, 0, 1}, wrong[3] = {8, 1, 1};
  CHECK_INT(CC_MODULE_INVALID_VALUE,
            cc_module_specialize(module, "square", zero, NULL, &binary, &size,
                                 &reason));
  CHECK(reason != NULL && binary == NULL);
  CHECK_INT(CC_MODULE_INVALID_LOCAL_SIZE,
            cc_module_specialize(module, "fixed", wrong, NULL, &binary, &size,
                                 &reason));
  CHECK_INT(CC_MODULE_NO_KERNEL,
            cc_module_specialize(module, "missing", local16, NULL, &binary,
                                 &size, &reason));
  reason = NULL;
  CHECK_INT(CC_MODULE_UNSUPPORTED,
            cc_module_specialize(module, "calls_missing", local16, NULL,
                                 &binary, &size, &reason));
  CHECK(reason && strstr(reason, "clmux_undefined"));
  CHECK_INT(4, cc_module_build_count(module));
  const char *first_reason = reason;
  CHECK_INT(CC_MODULE_UNSUPPORTED,
            cc_module_specialize(module, "calls_missing", local16, NULL,
                                 &binary, &size, &reason));
  CHECK(reason == first_reason); /* the failure is cached too */
  CHECK_INT(4, cc_module_build_count(module));
}

/* A reqd_work_group_size kernel that cannot be built (it calls a function
 * nobody defines): finalize warns. */
static void test_finalize_unsupported(void) {
  const char *text =
      "float __attribute__((overloadable)) clmux_undefined(float);\n"
      "__attribute__((reqd_work_group_size(2, 1, 1)))\n"
      "kernel void k(global float *p) {\n"
      "  p[0] = clmux_undefined(p[1]);\n"
      "}\n";
  cc_module *object = compile_ok(text, NULL);
  cc_module *module = link_ok(&object, 1, NULL);
  char *log = NULL;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(module, &log));
  CHECK(log && strstr(log, "warning: kernel k") &&
        strstr(log, "clmux_undefined"));
  free(log);
  CHECK_INT(CC_MODULE_INVALID_OPERATION, cc_module_finalize(object, NULL));
  cc_module_destroy(module);
  cc_module_destroy(object);
}

/* Modules compiled and specialized on four threads at once. */
static void *own_module_thread(void *arg) {
  int *good = arg;
  char text[256];
  snprintf(text, sizeof text,
           "kernel void square(global float *d) {\n"
           "  size_t i = get_global_id(0); d[i] = d[i] * d[i] + %d.0f;\n"
           "}\n",
           *good);
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *object =
      cc_module_compile(text, strlen(text), NULL, NULL, 0, NULL, &result);
  cc_module *module =
      object ? cc_module_link(&object, 1, NULL, NULL, &result) : NULL;
  const void *binary = NULL;
  size_t size = 0;
  const uint32_t local[3] = {32, 1, 1};
  *good = module && cc_module_finalize(module, NULL) == CC_MODULE_SUCCESS &&
          cc_module_specialize(module, "square", local, NULL, &binary, &size,
                               NULL) == CC_MODULE_SUCCESS &&
          size > 0;
  cc_module_destroy(module);
  cc_module_destroy(object);
  return NULL;
}

/* ---- Disk entries named by a program's inputs ---------------------------*/

static const char *const scale_source =
    "kernel void scale(global float *data) {\n"
    "  data[get_global_id(0)] *= K;\n"
    "}\n";

static unsigned entries_in(const char *directory) {
  DIR *dir = opendir(directory);
  if (!dir) return 0;
  unsigned count = 0;
  for (struct dirent *e; (e = readdir(dir));) count += e->d_name[0] != '.';
  closedir(dir);
  return count;
}

/* Specializes `scale` of an executable and checks it multiplies by k. */
static void check_scale(cc_module *module, float k) {
  char *log = NULL;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(module, &log));
  free(log);
  const uint32_t local[3] = {16, 1, 1};
  mux_executable_t executable = load_specialized(module, "scale", local);
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "scale");
  static float data[items], result[items];
  for (int i = 0; i < items; i++) data[i] = (float)i;
  host_buffer b = host_buffer_create(data, sizeof data);
  mux_descriptor_info_t arg = buffer_arg(&b);
  CHECK_SUCCESS(run_1d(kernel, &arg, 1, items, 16));
  host_buffer_read(&b, result);
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += result[i] != data[i] * k;
  CHECK_INT(0, wrong);
  host_buffer_destroy(&b);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static cc_module *scale_program(const char *options) {
  cc_module *object = compile_ok(scale_source, options);
  cc_module *program = link_ok(&object, 1, NULL);
  cc_module_destroy(object);
  return program;
}

static void test_disk_names(void) {
  char directory[] = "/tmp/clmux-names-XXXXXX";
  REQUIRE(mkdtemp(directory));
  REQUIRE(setenv("CLMUX_CACHE_DIR", directory, 1) == 0);
  unsetenv("CLMUX_CACHE"); /* on, whatever the caller asked */
  cc_module *two = scale_program("-DK=2");
  check_scale(two, 2.0f);
  unsigned after_two = entries_in(directory);
  CHECK(after_two >= 2); /* the object and the kernel */
  cc_module *three = scale_program("-DK=3");
  check_scale(three, 3.0f);
  unsigned after_three = entries_in(directory);
  CHECK(after_three > after_two);
  /* The same inputs again: found, not built and stored anew. */
  cc_module *again = scale_program("-DK=2");
  check_scale(again, 2.0f);
  CHECK_INT(after_three, entries_in(directory));
  /* Other link options make another program. */
  cc_module *object = compile_ok(scale_source, "-DK=2");
  cc_module *relaxed = link_ok(&object, 1, "-cl-fast-relaxed-math");
  check_scale(relaxed, 2.0f);
  CHECK(entries_in(directory) > after_three);
  /* A program read back from its binary. */
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_serialize(three, &bytes, &size));
  cc_module *loaded = cc_module_deserialize(bytes, size, NULL, NULL);
  REQUIRE(loaded);
  check_scale(loaded, 3.0f);
  free(bytes);
  cc_module_destroy(loaded);
  cc_module_destroy(relaxed);
  cc_module_destroy(object);
  cc_module_destroy(again);
  cc_module_destroy(three);
  cc_module_destroy(two);
  unsetenv("CLMUX_CACHE_DIR");
  char command[64];
  snprintf(command, sizeof command, "rm -rf %s", directory);
  CHECK_INT(0, system(command));
}

/* An image kernel's entry at a local size has a version for its first
 * request's format, or none, and serves every later request there. */
static void test_image_versions(void) {
  const char *text =
      "kernel void copy(read_only image2d_t in, global float4 *out) {\n"
      "  int x = get_global_id(0);\n"
      "  out[x] = read_imagef(in, (int2)(x, 0));\n"
      "}\n";
  cc_module *object = compile_ok(text, NULL);
  cc_module *general_module = link_ok(&object, 1, NULL);
  cc_module *pinned_module = link_ok(&object, 1, NULL);
  const uint32_t local[3] = {8, 1, 1}, other[3] = {4, 1, 1};
  const cpu_image_format rgba = {CL_RGBA, CL_FLOAT, 16},
                         intensity = {CL_INTENSITY, CL_FLOAT, 4};
  const void *general = NULL, *pinned = NULL, *binary = NULL;
  size_t general_size = 0, pinned_size = 0, size = 0;
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(general_module, "copy", local, NULL, &general,
                                 &general_size, NULL));
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(pinned_module, "copy", local, &intensity,
                                 &pinned, &pinned_size, NULL));
  CHECK(pinned_size > general_size); /* two versions and a dispatcher */
  /* Later requests at that size, whatever their format, take the entry. */
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(pinned_module, "copy", local, &rgba, &binary,
                                 &size, NULL));
  CHECK(binary == pinned);
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(pinned_module, "copy", local, NULL, &binary,
                                 &size, NULL));
  CHECK(binary == pinned);
  CHECK_INT(1, cc_module_build_count(pinned_module));
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(general_module, "copy", local, &rgba, &binary,
                                 &size, NULL));
  CHECK(binary == general);
  /* Another local size is another entry. */
  CHECK_INT(CC_MODULE_SUCCESS,
            cc_module_specialize(general_module, "copy", other, &rgba, &binary,
                                 &size, NULL));
  CHECK(binary != general && size > general_size);
  CHECK_INT(2, cc_module_build_count(general_module));
  cc_module_destroy(general_module);
  cc_module_destroy(pinned_module);
  cc_module_destroy(object);
}

static void test_threads(void) {
  pthread_t threads[4];
  int good[4];
  for (int t = 0; t < 4; t++) {
    good[t] = t;
    REQUIRE(pthread_create(&threads[t], NULL, own_module_thread, &good[t]) ==
            0);
  }
  for (int t = 0; t < 4; t++) {
    pthread_join(threads[t], NULL);
    CHECK(good[t] == 1);
  }
}

int main(void) {
  codegen_test_start();
  cc_module *object = compile_ok(source, NULL);
  cc_module *module = link_ok(&object, 1, NULL);
  char *log = NULL;
  CHECK_INT(CC_MODULE_SUCCESS, cc_module_finalize(module, &log));
  CHECK(log && strcmp(log, "") == 0);
  free(log);
  test_cache(module);
  cc_module_destroy(module);
  cc_module_destroy(object);
  test_finalize_unsupported();
  test_image_versions();
  test_threads();
  test_disk_names();
  return codegen_test_finish();
}

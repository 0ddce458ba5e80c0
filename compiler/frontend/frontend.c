/* The front-end's C half: checks the build options, lays out the clang
 * -cc1 argument list and the in-memory files, and calls the C++ shim. */
#include "frontend.h"

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "build_options.h"
#include "clang_shim.h"
#include "compiler_threads.h"

/* In-memory files live in a directory that cannot exist on disk, so a
 * quoted #include from the source finds the given headers first; it is
 * also on the include path for <...> and for headers in sub-folders. */
#define CC_VIRTUAL_DIR "/clmux-in-memory"
#define CC_SOURCE_PATH CC_VIRTUAL_DIR "/input.cl"
/* Included before the source; outside the user's include path. */
#define CC_PRELUDE_PATH "/clmux-prelude/prelude.h"

/* Declarations Clang's builtin tables lack for 1.2: ctz is OpenCL C 2.0,
 * but PoCL offers it to 1.2 kernels and the CTS tests it on 1.2 devices
 * (the builtin library defines it). */
static const char cc_prelude[] =
    "#define __CLMUX_CTZ1(T) T __attribute__((overloadable, const)) ctz(T);\n"
    "#define __CLMUX_CTZ(T) __CLMUX_CTZ1(T) __CLMUX_CTZ1(T##2) "
    "__CLMUX_CTZ1(T##3) __CLMUX_CTZ1(T##4) __CLMUX_CTZ1(T##8) "
    "__CLMUX_CTZ1(T##16)\n"
    "__CLMUX_CTZ(char) __CLMUX_CTZ(uchar) __CLMUX_CTZ(short) "
    "__CLMUX_CTZ(ushort) __CLMUX_CTZ(int) __CLMUX_CTZ(uint) "
    "__CLMUX_CTZ(long) __CLMUX_CTZ(ulong)\n"
    "#undef __CLMUX_CTZ\n#undef __CLMUX_CTZ1\n";

/* The language extensions the CPU device supports (the required 1.2
 * ones, doubles, halves, 64-bit atomics, 3D image writes, sub-groups);
 * Clang's x86 default would enable many the device lacks. */
#define CC_EXTENSIONS                                                      \
  "-cl-ext=-all,+cl_khr_global_int32_base_atomics,"                        \
  "+cl_khr_global_int32_extended_atomics,"                                 \
  "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics," \
  "+cl_khr_byte_addressable_store,+cl_khr_fp64,"                           \
  "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"             \
  "+cl_khr_3d_image_writes,+cl_khr_fp16,+cl_khr_depth_images,"             \
  "+cl_khr_subgroups"

/* OpenCL C 3.0's optional features the CPU device has: images (3D writes
 * and read-write images too), doubles, 64-bit integers, C11-style atomics of every order and
 * scope, and the work-group collective functions (the builtin library's
 * compiler/builtins/c11_atomics and work_group, which
 * compiler/builtins/meson.build compiles with the same), the generic
 * address space (compiler/builtins/generic_calls.c, and to_global & co.
 * in codegen) and program-scope global variables (codegen's
 * program_globals.c), sub-groups (compiler/builtins/sub_group, across the
 * vectorizer's lanes), cl_khr_integer_dot_product's 8-bit dot products. Clang takes the first nine as extensions
 * (-cl-ext); the others are macros only its headers and builtin
 * declarations read (-D). */
enum { CC_FEATURES_AS_EXTENSIONS = 9 };
const char *const cc_opencl_c_features[] = {
    "__opencl_c_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_read_write_images",
    "__opencl_c_fp64",
    "__opencl_c_int64",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_subgroups",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
};
const size_t cc_opencl_c_feature_count =
    sizeof cc_opencl_c_features / sizeof *cc_opencl_c_features;

/* The cl_khr_subgroup_* extensions (compiler/builtins/sub_group), for
 * OpenCL C 3.0 with its sub-groups: macros that make Clang declare their
 * functions. */
static const char *const cc_sub_group_extensions[] = {
    "cl_khr_subgroup_extended_types",   "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",           "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",          "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate",
};
#define CC_SUB_GROUP_EXTENSION_COUNT \
  (sizeof cc_sub_group_extensions / sizeof *cc_sub_group_extensions)

static char *define_of(const char *name) {
  char *define = malloc(strlen(name) + 5);
  if (define) {
    strcpy(define, "-D");
    strcat(define, name);
    strcat(define, "=1");
  }
  return define;
}

/* The arguments that give Clang the features and the sub-group extensions
 * (malloc'd strings in args[0..count)), or false when out of memory. */
static bool cc_feature_args(char **args, size_t *count) {
  size_t length = strlen("-cl-ext=") + 1;
  for (size_t i = 0; i < CC_FEATURES_AS_EXTENSIONS; i++) {
    length += strlen(cc_opencl_c_features[i]) + 2;
  }
  *count = 0;
  char *extensions = malloc(length);
  if (!extensions) return false;
  strcpy(extensions, "-cl-ext=");
  for (size_t i = 0; i < CC_FEATURES_AS_EXTENSIONS; i++) {
    strcat(extensions, i ? ",+" : "+");
    strcat(extensions, cc_opencl_c_features[i]);
  }
  args[(*count)++] = extensions;
  for (size_t i = CC_FEATURES_AS_EXTENSIONS; i < cc_opencl_c_feature_count;
       i++) {
    if (!(args[*count] = define_of(cc_opencl_c_features[i]))) return false;
    (*count)++;
  }
  for (size_t i = 0; i < CC_SUB_GROUP_EXTENSION_COUNT; i++) {
    if (!(args[*count] = define_of(cc_sub_group_extensions[i]))) return false;
    (*count)++;
  }
  return true;
}

#define CC_STRING(x) CC_STRING_OF(x)
#define CC_STRING_OF(x) #x

/* Fixed arguments before the user's. Clang defines __ENDIAN_LITTLE__ and
 * CL_VERSION_1_x itself, but for x86 neither __OPENCL_VERSION__ (the
 * device's version, whatever -cl-std says) nor __IMAGE_SUPPORT__. -O2
 * with -disable-llvm-passes avoids -O0's optnone/noinline. */
static const char *const cc_fixed_args[] = {
    "-triple",
    "x86_64-unknown-linux-gnu",
    "-emit-llvm-only",
    "-O2",
    "-disable-llvm-passes",
    "-fdeclare-opencl-builtins",
    "-finclude-default-header",
    "-ffake-address-space-map",
    "-cl-kernel-arg-info",
    /* `#pragma clang __debug crash` and friends must not end the host. */
    "-disable-pragma-debug-crash",
    /* Wide vectors passed to builtins: no ABI to keep, as codegen inlines
     * every call; the warning would only confuse build logs. */
    "-Wno-psabi",
    CC_EXTENSIONS,
    /* Clang has __builtin_expect and __builtin_assume in every version
     * but no cl_khr_expect_assume of its own to enable; sRGB writes are
     * write_imagef's, which Clang knows for OpenCL C 2.0 on only. */
    "-Dcl_khr_expect_assume=1",
    "-Dcl_khr_srgb_image_writes=1",
    /* Clang declares cl_khr_extended_bit_ops's functions (the builtin
     * library's integer/extended_bit_ops.cl) when its macro is defined. */
    "-Dcl_khr_extended_bit_ops=1",
    /* cl_khr_integer_dot_product and its features, in every OpenCL C
     * version (integer/integer_dot_product.cl); the features are listed in
     * cc_opencl_c_features too, for CL_DEVICE_OPENCL_C_FEATURES. */
    "-Dcl_khr_integer_dot_product=1",
    "-D__opencl_c_integer_dot_product_input_4x8bit=1",
    "-D__opencl_c_integer_dot_product_input_4x8bit_packed=1",
    /* cl_ext_float_atomics, every form (the builtin library's
     * c11_atomics/float_atomics.cl): Clang declares them for OpenCL C 2.0
     * on when these are defined. */
    "-Dcl_ext_float_atomics=1",
    "-D__opencl_c_ext_fp16_global_atomic_load_store=1",
    "-D__opencl_c_ext_fp16_local_atomic_load_store=1",
    "-D__opencl_c_ext_fp16_global_atomic_add=1",
    "-D__opencl_c_ext_fp16_local_atomic_add=1",
    "-D__opencl_c_ext_fp16_global_atomic_min_max=1",
    "-D__opencl_c_ext_fp16_local_atomic_min_max=1",
    "-D__opencl_c_ext_fp32_global_atomic_add=1",
    "-D__opencl_c_ext_fp32_local_atomic_add=1",
    "-D__opencl_c_ext_fp32_global_atomic_min_max=1",
    "-D__opencl_c_ext_fp32_local_atomic_min_max=1",
    "-D__opencl_c_ext_fp64_global_atomic_add=1",
    "-D__opencl_c_ext_fp64_local_atomic_add=1",
    "-D__opencl_c_ext_fp64_global_atomic_min_max=1",
    "-D__opencl_c_ext_fp64_local_atomic_min_max=1",
    "-D__OPENCL_VERSION__=" CC_STRING(CC_OPENCL_VERSION_MAJOR)
        CC_STRING(CC_OPENCL_VERSION_MINOR) "0",
    "-D__IMAGE_SUPPORT__=1",
    "-internal-isystem",
    CC_CLANG_RESOURCE_DIR "/include",
    "-resource-dir",
    CC_CLANG_RESOURCE_DIR,
    "-I",
    CC_VIRTUAL_DIR,
    "-include",
    CC_PRELUDE_PATH,
};

static char *cc_strdup(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy) memcpy(copy, text, length + 1);
  return copy;
}

static void cc_set_log(char **out_log, char *log) {
  if (out_log)
    *out_log = log;
  else
    free(log);
}

/* Fills files[1..] with the headers under CC_VIRTUAL_DIR; the paths are
 * malloc'd. Returns false when out of memory or a header lacks a name. */
static bool cc_header_files(const cc_header *headers, size_t num_headers,
                            cc_shim_file *files, char **log) {
  for (size_t i = 0; i < num_headers; i++) {
    if (!headers[i].name || !headers[i].name[0] || !headers[i].text) {
      *log = cc_strdup("error: an input header has no name or text\n");
      return false;
    }
    const char *name = headers[i].name;
    while (*name == '/') name++;
    size_t length = strlen(CC_VIRTUAL_DIR) + 1 + strlen(name) + 1;
    char *path = malloc(length);
    if (!path) return false;
    strcpy(path, CC_VIRTUAL_DIR "/");
    strcat(path, name);
    files[i + 1].path = path;
    files[i + 1].text = headers[i].text;
    files[i + 1].length = strlen(headers[i].text);
  }
  return true;
}

static cc_frontend_result cc_compile_here(LLVMContextRef context,
                                          const char *source,
                                          size_t source_length,
                                          const char *options,
                                          const cc_header *headers,
                                          size_t num_headers,
                                          LLVMModuleRef *out_module,
                                          char **out_log) {
  cc_build_options parsed;
  char *error = NULL;
  if (!cc_parse_build_options(options, &parsed, &error)) {
    if (!error) return CC_FRONTEND_OUT_OF_MEMORY;
    char *log = malloc(strlen(error) + 9);
    if (log) {
      strcpy(log, "error: ");
      strcat(log, error);
      strcat(log, "\n");
    }
    free(error);
    cc_set_log(out_log, log);
    return log ? CC_FRONTEND_INVALID_OPTIONS : CC_FRONTEND_OUT_OF_MEMORY;
  }

  cc_frontend_result result = CC_FRONTEND_OUT_OF_MEMORY;
  char *log = NULL;
  size_t num_fixed = sizeof(cc_fixed_args) / sizeof(*cc_fixed_args);
  /* fixed, -cl-std=, 3.0 features and sub-group extensions, user options,
   * "-x", "cl", the source */
  enum {
    most_features = sizeof cc_opencl_c_features / sizeof *cc_opencl_c_features +
                    CC_SUB_GROUP_EXTENSION_COUNT
  };
  size_t num_args = num_fixed + 1 + most_features + parsed.num_args + 3;
  char *features[most_features];
  size_t num_features = 0;
  const char **args = malloc(num_args * sizeof(*args));
  /* the source, the headers, the prelude */
  cc_shim_file *files = calloc(num_headers + 2, sizeof(*files));
  char *std_arg = malloc(strlen("-cl-std=") + strlen(parsed.cl_std) + 1);
  if (!args || !files || !std_arg) goto done;
  strcpy(std_arg, "-cl-std=");
  strcat(std_arg, parsed.cl_std);
  size_t n = 0;
  for (size_t i = 0; i < num_fixed; i++) args[n++] = cc_fixed_args[i];
  args[n++] = std_arg;
  if (strcmp(parsed.cl_std, "CL3.0") == 0) {
    if (!cc_feature_args(features, &num_features)) goto done;
    for (size_t i = 0; i < num_features; i++) args[n++] = features[i];
  }
  for (size_t i = 0; i < parsed.num_args; i++) args[n++] = parsed.args[i];
  args[n++] = "-x";
  args[n++] = "cl";
  args[n++] = CC_SOURCE_PATH;

  files[0].path = CC_SOURCE_PATH;
  files[0].text = source ? source : "";
  files[0].length = source ? source_length : 0;
  if (!cc_header_files(headers, num_headers, files, &log)) {
    if (log) result = CC_FRONTEND_COMPILE_FAILED;
    goto done;
  }

  files[num_headers + 1].path = CC_PRELUDE_PATH;
  files[num_headers + 1].text = cc_prelude;
  files[num_headers + 1].length = sizeof cc_prelude - 1;

  switch (cc_shim_compile(context, args, n, files, num_headers + 2,
                          out_module, &log)) {
    case CC_SHIM_SUCCESS:
      result = CC_FRONTEND_SUCCESS;
      break;
    case CC_SHIM_INVALID_ARGS: /* options passed our checks: Clang's say */
      result = CC_FRONTEND_INVALID_OPTIONS;
      break;
    case CC_SHIM_FAILED:
      result = CC_FRONTEND_COMPILE_FAILED;
      break;
  }
  if (!log && out_log) { /* the shim could not copy its log */
    if (*out_module) LLVMDisposeModule(*out_module);
    *out_module = NULL;
    result = CC_FRONTEND_OUT_OF_MEMORY;
  }

done:
  for (size_t i = 0; i < num_features; i++) free(features[i]);
  if (files)
    for (size_t i = 1; i <= num_headers; i++) free((char *)files[i].path);
  free(files);
  free(args);
  free(std_arg);
  cc_build_options_free(&parsed);
  cc_set_log(out_log, log);
  return result;
}

typedef struct cc_compile_job {
  LLVMContextRef context;
  const char *source;
  size_t source_length;
  const char *options;
  const cc_header *headers;
  size_t num_headers;
  LLVMModuleRef *out_module;
  char **out_log;
  cc_frontend_result result;
} cc_compile_job;

static void cc_compile_job_run(void *arg) {
  cc_compile_job *job = arg;
  job->result = cc_compile_here(job->context, job->source, job->source_length,
                                job->options, job->headers, job->num_headers,
                                job->out_module, job->out_log);
}

cc_frontend_result cc_compile_opencl_c(LLVMContextRef context,
                                       const char *source,
                                       size_t source_length,
                                       const char *options,
                                       const cc_header *headers,
                                       size_t num_headers,
                                       LLVMModuleRef *out_module,
                                       char **out_log) {
  *out_module = NULL;
  if (out_log) *out_log = NULL;
  cc_compile_job job = {context,     source,     source_length, options,
                        headers,     num_headers, out_module,   out_log,
                        CC_FRONTEND_OUT_OF_MEMORY};
  /* On a thread with a stack deep enough for Clang (compiler_threads.c). */
  cc_on_compiler_thread(cc_compile_job_run, &job);
  return job.result;
}

/* Kernel listing and argument metadata of a compiled module: address,
 * access and type qualifiers (1.2 rules), canonical type names, names,
 * kinds and sizes, the work-group attributes and CL_KERNEL_ATTRIBUTES;
 * compile errors and bad options reach the log. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "module.h"

static const char *const source =
    "typedef struct { int a; float b; } pair_t;\n"
    "struct tagged { int x; long y; };\n"
    "typedef unsigned int myuint;\n"
    "typedef struct { int w; } image_info_t;\n"
    "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "__attribute__((vec_type_hint(float4)))\n"
    "kernel void meta(global const unsigned int *restrict a,\n"
    "                 constant float *b, local int4 *c,\n"
    "                 global volatile int *d, const int e, unsigned int f,\n"
    "                 float3 g, pair_t h, read_only image2d_t img,\n"
    "                 write_only image2d_t img3, sampler_t s,\n"
    "                 global int *const p2,\n"
    "                 global const volatile int *restrict cvr, myuint mu,\n"
    "                 struct tagged t, unsigned char uc, global void *vp,\n"
    "                 const global uchar16 *v16, ulong8 l8, char ch,\n"
    "                 global image_info_t *info, image_info_t by_value) {}\n"
    "__attribute__((work_group_size_hint(4, 1, 1)))\n"
    "__attribute__((vec_type_hint(uint)))\n"
    "kernel void hint(global int *x) { x[0] = 1; }\n"
    "__attribute__((vec_type_hint(short2)))\n"
    "kernel void signed_hint(global int *x) {}\n"
    "void helper(void) {}\n"
    "kernel void plain(void) { helper(); }\n";

typedef struct expected_arg {
  const char *name, *type;
  cc_address_qualifier address;
  cc_access_qualifier access;
  unsigned qualifiers;
  cc_module_arg_kind kind;
  uint32_t size;
} expected_arg;

static const expected_arg meta_args[] = {
    {"a", "uint*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE,
     CC_TYPE_CONST | CC_TYPE_RESTRICT, CC_ARG_GLOBAL_POINTER, 8},
    {"b", "float*", CC_ADDRESS_CONSTANT, CC_ACCESS_NONE, CC_TYPE_CONST,
     CC_ARG_CONSTANT_POINTER, 8},
    {"c", "int4*", CC_ADDRESS_LOCAL, CC_ACCESS_NONE, 0, CC_ARG_LOCAL_POINTER,
     8},
    {"d", "int*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE, CC_TYPE_VOLATILE,
     CC_ARG_GLOBAL_POINTER, 8},
    {"e", "int", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 4},
    {"f", "uint", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 4},
    {"g", "float3", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 16},
    {"h", "pair_t", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 8},
    {"img", "image2d_t", CC_ADDRESS_GLOBAL, CC_ACCESS_READ_ONLY, 0,
     CC_ARG_IMAGE, 8},
    {"img3", "image2d_t", CC_ADDRESS_GLOBAL, CC_ACCESS_WRITE_ONLY, 0,
     CC_ARG_IMAGE, 8},
    {"s", "sampler_t", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_SAMPLER,
     8},
    {"p2", "int*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE, 0, CC_ARG_GLOBAL_POINTER,
     8},
    {"cvr", "int*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE,
     CC_TYPE_CONST | CC_TYPE_VOLATILE | CC_TYPE_RESTRICT, CC_ARG_GLOBAL_POINTER,
     8},
    {"mu", "myuint", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 4},
    {"t", "struct tagged", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE,
     16},
    {"uc", "uchar", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 1},
    {"vp", "void*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE, 0, CC_ARG_GLOBAL_POINTER,
     8},
    {"v16", "uchar16*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE, CC_TYPE_CONST,
     CC_ARG_GLOBAL_POINTER, 8},
    {"l8", "ulong8", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 64},
    {"ch", "char", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0, CC_ARG_VALUE, 1},
    /* Named like images, but a pointer and a struct (CTS
     * kernel_image_methods passes an image_kernel_data *). */
    {"info", "image_info_t*", CC_ADDRESS_GLOBAL, CC_ACCESS_NONE, 0,
     CC_ARG_GLOBAL_POINTER, 8},
    {"by_value", "image_info_t", CC_ADDRESS_PRIVATE, CC_ACCESS_NONE, 0,
     CC_ARG_VALUE, 4},
};

static void check_arg(const cc_module_arg *arg, const expected_arg *want) {
  int good = strcmp(arg->name, want->name) == 0 &&
             strcmp(arg->type_name, want->type) == 0 &&
             arg->address == want->address && arg->access == want->access &&
             arg->type_qualifiers == want->qualifiers &&
             arg->kind == want->kind && arg->size == want->size;
  CHECK(good);
  if (!good) {
    fprintf(stderr,
            "arg %s: got %s %s addr %d access %d qual %u kind %d size %u\n",
            want->name, arg->name, arg->type_name, arg->address, arg->access,
            arg->type_qualifiers, arg->kind, arg->size);
  }
}

static void test_metadata(void) {
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *module =
      cc_module_compile(source, strlen(source), " -cl-kernel-arg-info  -DX=1 ",
                        NULL, 0, &log, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  CHECK(log != NULL);
  if (!module) fprintf(stderr, "%s\n", log ? log : "");
  free(log);
  REQUIRE(module);
  CHECK_INT(CC_MODULE_OBJECT, cc_module_get_kind(module));
  CHECK(strcmp(cc_module_options(module), " -cl-kernel-arg-info  -DX=1 ") == 0);
  CHECK_INT(4, cc_module_kernel_count(module));
  CHECK(cc_module_kernel_at(module, 4) == NULL);
  CHECK(cc_module_find_kernel(module, "helper") == NULL);
  CHECK(cc_module_find_kernel(module, "nothing") == NULL);

  const cc_module_kernel *meta = cc_module_find_kernel(module, "meta");
  REQUIRE(meta);
  CHECK(meta == cc_module_kernel_at(module, 0));
  CHECK(meta->arg_info);
  size_t want = sizeof meta_args / sizeof *meta_args;
  CHECK_INT(want, meta->arg_count);
  for (size_t i = 0; i < want && i < meta->arg_count; i++) {
    check_arg(&meta->args[i], &meta_args[i]);
  }
  CHECK(meta->reqd_work_group_size[0] == 8 &&
        meta->reqd_work_group_size[1] == 2 &&
        meta->reqd_work_group_size[2] == 1);
  CHECK(meta->work_group_size_hint[0] == 0);
  CHECK(meta->vec_type_hint && strcmp(meta->vec_type_hint, "float4") == 0);
  CHECK(strcmp(meta->attributes,
               "reqd_work_group_size(8,2,1) vec_type_hint(float4)") == 0);

  const cc_module_kernel *hint = cc_module_find_kernel(module, "hint");
  REQUIRE(hint);
  CHECK(hint->work_group_size_hint[0] == 4 &&
        hint->work_group_size_hint[1] == 1 &&
        hint->work_group_size_hint[2] == 1);
  CHECK(hint->reqd_work_group_size[0] == 0);
  CHECK(strcmp(hint->attributes,
               "work_group_size_hint(4,1,1) vec_type_hint(uint)") == 0);
  const cc_module_kernel *signed_hint =
      cc_module_find_kernel(module, "signed_hint");
  REQUIRE(signed_hint);
  CHECK(strcmp(signed_hint->vec_type_hint, "short2") == 0);
  const cc_module_kernel *plain = cc_module_find_kernel(module, "plain");
  REQUIRE(plain);
  CHECK_INT(0, plain->arg_count);
  CHECK(plain->vec_type_hint == NULL);
  CHECK(strcmp(plain->attributes, "") == 0);
  cc_module_destroy(module);

  /* Without -cl-kernel-arg-info the names are still known, but flagged. */
  module =
      cc_module_compile(source, strlen(source), NULL, NULL, 0, NULL, &result);
  REQUIRE(module);
  CHECK(!cc_module_find_kernel(module, "meta")->arg_info);
  CHECK(strcmp(cc_module_options(module), "") == 0);
  cc_module_destroy(module);
}

static void test_errors(void) {
  const char *broken = "kernel void k(global int *p) { p[0] = undeclared; }\n";
  char *log = NULL;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *module =
      cc_module_compile(broken, strlen(broken), NULL, NULL, 0, &log, &result);
  CHECK(module == NULL);
  CHECK_INT(CC_MODULE_COMPILE_FAILED, result);
  CHECK(log && strstr(log, "undeclared") && strstr(log, "1:39"));
  free(log);

  log = NULL;
  module = cc_module_compile(broken, strlen(broken), "-cl-no-such-option", NULL,
                             0, &log, &result);
  CHECK(module == NULL);
  CHECK_INT(CC_MODULE_INVALID_OPTIONS, result);
  CHECK(log && strstr(log, "-cl-no-such-option"));
  free(log);

  /* Headers given in memory, as clCompileProgram passes them. */
  const char *with_header =
      "#include \"defs.h\"\nkernel void k(global int *p) { p[0] = VALUE; }\n";
  cc_header header = {"defs.h", "#define VALUE 42\n"};
  module = cc_module_compile(with_header, strlen(with_header), NULL, &header, 1,
                             NULL, &result);
  CHECK_INT(CC_MODULE_SUCCESS, result);
  CHECK(module && cc_module_find_kernel(module, "k"));
  cc_module_destroy(module);

  /* Warnings are kept in the log of a successful compile. */
  const char *warns = "#warning careful\nkernel void k(void) {}\n";
  log = NULL;
  module =
      cc_module_compile(warns, strlen(warns), NULL, NULL, 0, &log, &result);
  CHECK(module != NULL);
  CHECK(log && strstr(log, "careful"));
  free(log);
  cc_module_destroy(module);
}

int main(void) {
  test_metadata();
  test_errors();
  return check_finish();
}

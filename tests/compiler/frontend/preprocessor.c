/* Build options and headers as the preprocessor sees them: -D forms,
 * in-memory headers, -I directories, -cl-std, predefined macros. */
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

#include "frontend_test.h"

/* A program that compiles only if `condition` holds in the preprocessor. */
static cc_frontend_result fe_if(const char *condition, const char *options) {
  char source[1024];
  snprintf(source, sizeof(source),
           "#if !(%s)\n#error condition failed\n#endif\n"
           "kernel void k(global int *p) { p[0] = 1; }\n",
           condition);
  return fe_compile(source, options);
}

int main(void) {
  /* -D forms reach the source. */
  const char *defines =
      " -D A -DB -DC=3 -D D=4 -D E=\"5 + 1\" -D 'F=7' -DG(x)=(x*2) ";
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_if("defined(A) && A == 1 && B == 1 && C == 3 && D == 4 && "
                  "E == 6 && F == 7 && G(4) == 8",
                  defines));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED, fe_if("C == 4", "-DC=3"));
  CHECK(fe_log_has("condition failed"));
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_compile("kernel void k(global char *p) { p[0] = S[1]; }\n",
                       "-D S=\"\\\"hi\\\"\""));

  /* Predefined macros. */
  CHECK_INT(
      CC_FRONTEND_SUCCESS,
      fe_if("__OPENCL_VERSION__ == 300 && __OPENCL_C_VERSION__ == 120 "
            "&& defined(__IMAGE_SUPPORT__) && __ENDIAN_LITTLE__ == 1 && "
            "CL_VERSION_1_0 == 100 && CL_VERSION_1_1 == 110 && "
            "CL_VERSION_1_2 == 120 && "
            "!defined(__FAST_RELAXED_MATH__) && "
            "defined(cl_khr_global_int32_base_atomics) && "
            "defined(cl_khr_byte_addressable_store) && "
            "defined(cl_khr_fp16) && !defined(cl_intel_subgroups) && "
            "!defined(cl_amd_media_ops) && defined(cl_khr_3d_image_writes)",
            NULL));
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_if("defined(__FAST_RELAXED_MATH__)",
                                       "-cl-fast-relaxed-math"));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_if("defined(__FAST_RELAXED_MATH__)", "-cl-mad-enable"));

  /* -cl-std: the device version stays 300, the language version moves. */
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_if("__OPENCL_C_VERSION__ == 110 && __OPENCL_VERSION__ == 300",
                  "-cl-std=CL1.1"));
  /* popcount is new in OpenCL C 1.2. */
  const char *popcount =
      "kernel void k(global int *p) { p[0] = popcount(p[1]); }\n";
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(popcount, "-cl-std=CL1.2"));
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(popcount, NULL));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED, fe_compile(popcount, "-cl-std=CL1.1"));
  CHECK(fe_log_has("popcount"));
  CHECK_INT(CC_FRONTEND_INVALID_OPTIONS, fe_compile(popcount, "-cl-std=CL2.0"));

  /* OpenCL C 3.0: the features the device has, and only those. */
  CHECK_INT(
      CC_FRONTEND_SUCCESS,
      fe_if("__OPENCL_C_VERSION__ == 300 && defined(__opencl_c_images) && "
            "defined(__opencl_c_3d_image_writes) && "
            "defined(__opencl_c_fp64) && defined(__opencl_c_int64) && "
            "defined(__opencl_c_atomic_order_acq_rel) && "
            "defined(__opencl_c_atomic_order_seq_cst) && "
            "defined(__opencl_c_atomic_scope_device) && "
            "defined(__opencl_c_atomic_scope_all_devices) && "
            "defined(__opencl_c_generic_address_space) && "
            "defined(__opencl_c_subgroups) && defined(cl_khr_subgroups) && "
            "!defined(__opencl_c_pipes) && "
            "!defined(__opencl_c_device_enqueue) && "
            "defined(__opencl_c_read_write_images) && "
            "defined(__opencl_c_program_scope_global_variables) && "
            "defined(__opencl_c_work_group_collective_functions) && "
            "!defined(__opencl_c_fp16)",
            "-cl-std=CL3.0"));
  /* ... and no 3.0 feature in 1.2. */
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_if("!defined(__opencl_c_images) && "
                  "!defined(__opencl_c_atomic_scope_device)",
                  "-cl-std=CL1.2"));

  /* Every option of the list is accepted by Clang too. */
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_compile(popcount,
                       "-w -Werror -cl-opt-disable -cl-mad-enable "
                       "-cl-fast-relaxed-math -cl-finite-math-only "
                       "-cl-no-signed-zeros -cl-unsafe-math-optimizations "
                       "-cl-denorms-are-zero -cl-single-precision-constant "
                       "-cl-strict-aliasing -cl-kernel-arg-info"));
  CHECK_INT(CC_FRONTEND_SUCCESS,
            fe_compile("kernel void k(global int *p) { p[0] = 1; }\n",
                       "-Werror -cl-strict-aliasing -cl-std=CL1.1 "
                                 "-cl-denorms-are-zero"));
  CHECK(!fe_log_has("warning"));

  /* Unknown or malformed options. */
  const char *bad[] = {"-cl-unknown", "-O3", "-D", "-cl-std=CL2.0",
                       "-Wall",       "-I",  "--", "-D 9x"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    CHECK_INT(CC_FRONTEND_INVALID_OPTIONS, fe_compile(popcount, bad[i]));
    CHECK(fe_log_has("error"));
  }

  /* Headers in memory, also in a sub-folder, with <> and nested. */
  cc_header headers[] = {
      {"defs.h", "#define DEFS 11\n#include \"sub/more.h\"\n"},
      {"sub/more.h", "#define MORE 22\n"},
      {"sub/two.h", "#include \"../defs.h\"\n#define TWO 2\n"},
  };
  const char *with_headers =
      "#include \"defs.h\"\n#include <sub/two.h>\n"
      "#if DEFS != 11 || MORE != 22 || TWO != 2\n#error headers\n#endif\n"
      "kernel void k(global int *p) { p[0] = DEFS + MORE; }\n";
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile_with(with_headers, NULL, headers, 3));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            fe_compile_with(with_headers, NULL, headers, 1));
  CHECK(fe_log_has("'sub/more.h' file not found"));
  CHECK(fe_log_has("file not found"));

  /* -I directories on disk, with and without a space. */
  char dir[] = "/tmp/clmux_frontend_XXXXXX";
  REQUIRE(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof(path), "%s/ondisk.h", dir);
  FILE *file = fopen(path, "w");
  REQUIRE(file != NULL);
  fputs("#define ON_DISK 33\n", file);
  fclose(file);
  const char *disk =
      "#include \"ondisk.h\"\n#if ON_DISK != 33\n#error disk\n#endif\n"
      "kernel void k(global int *p) { p[0] = ON_DISK; }\n";
  char options[300];
  snprintf(options, sizeof(options), "-I %s", dir);
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(disk, options));
  snprintf(options, sizeof(options), "-I%s -w", dir);
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(disk, options));
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED, fe_compile(disk, NULL));
  CHECK(fe_log_has("ondisk.h"));
  unlink(path);
  rmdir(dir);
  return fe_finish();
}

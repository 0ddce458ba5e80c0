/* clmux OpenCL front-end: the extensions clmux reports and their versions,
 * in one table from which both the name strings (CL_*_EXTENSIONS) and the
 * versioned lists of cl_khr_extended_versioning are made, so the two
 * cannot disagree. Every device (sub-devices too) has every extension, so
 * the platform reports the same list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "spirv.h"

typedef struct extension {
  const char *name;
  cl_version_khr version;
  bool (*present)(void); /* NULL: always */
} extension;

/* The five that OpenCL C 1.2 requires come from the builtin library
 * (atomics) and the target (byte stores); doubles, 64-bit atom_* and 3D
 * image writes from the library's forms; the front-end enables exactly the
 * language ones. SPIR-V needs its translator (program_il.c), which also
 * reads SPV_KHR_no_integer_wrap_decoration (as `nsw`/`nuw`). The
 * command-buffer versions are those of the API
 * implemented (command_buffer.c, mutable_command.c). */
static const extension extensions[] = {
    {"cl_khr_icd", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0),
     NULL},
    {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_byte_addressable_store", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_fp64", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_fp16", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_int64_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_3d_image_writes", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* Kernels write the sRGB orders (image_write.cl), as they read them. */
    {"cl_khr_srgb_image_writes", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* CL_DEPTH 2D images and arrays, image2d_depth_t and its functions. */
    {"cl_khr_depth_images", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_image2d_from_buffer", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* Images of every kind over a buffer, and what they need (image.c,
     * image_requirements.c). */
    {"cl_ext_image_requirements_info", CL_MAKE_VERSION_KHR(0, 5, 0), NULL},
    {"cl_ext_image_from_buffer", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_ext_float_atomics", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* Sub-groups that make independent forward progress (the CPU
     * target's sub_group_turns.c), for OpenCL C of every version. */
    {"cl_khr_subgroups", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* OpenCL C 3.0's sub-groups' (compiler/builtins/sub_group). */
    {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_ballot", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION_KHR(1, 0, 0),
     NULL},
    {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_subgroup_rotate", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_extended_versioning", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_il_program", CL_MAKE_VERSION_KHR(1, 0, 0), clx_il_supported},
    {"cl_khr_spirv_no_integer_wrap_decoration", CL_MAKE_VERSION_KHR(1, 0, 0),
     clx_il_supported},
    /* LinkOnceODR functions, which the translator reads as linkonce_odr
     * and LLVM's linker merges. */
    {"cl_khr_spirv_linkonce_odr", CL_MAKE_VERSION_KHR(1, 0, 0),
     clx_il_supported},
    /* __builtin_expect and __builtin_assume in OpenCL C (frontend.c);
     * OpExpectKHR and OpAssumeTrueKHR, which the translator reads. */
    {"cl_khr_expect_assume", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* bitfield_insert, _extract_signed/_unsigned and bit_reverse
     * (compiler/builtins/integer/extended_bit_ops.cl). */
    {"cl_khr_extended_bit_ops", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* dot and dot_acc_sat of 8-bit vectors and packed uints
     * (compiler/builtins/integer/integer_dot_product.cl); 2.0.0 has the
     * acceleration queries (device_later.c). */
    {"cl_khr_integer_dot_product", CL_MAKE_VERSION_KHR(2, 0, 0), NULL},
    /* Device and driver UUIDs (device_uuid.c). */
    {"cl_khr_device_uuid", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* clCreateCommandQueueWithPropertiesKHR (icd/later_versions.c). */
    {"cl_khr_create_command_queue", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    /* clGetKernelSuggestedLocalWorkSizeKHR (enqueue_kernel.c). */
    {"cl_khr_suggested_local_work_size", CL_MAKE_VERSION_KHR(1, 0, 0), NULL},
    {"cl_khr_command_buffer", CL_MAKE_VERSION_KHR(0, 9, 8), NULL},
    {"cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION_KHR(0, 9, 5),
     NULL},
};

enum { extension_count = sizeof extensions / sizeof extensions[0] };

cl_int clx_extensions_info(bool with_version, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  if (with_version) {
    cl_name_version_khr list[extension_count];
    memset(list, 0, sizeof list);
    size_t count = 0;
    for (size_t i = 0; i < extension_count; i++) {
      if (extensions[i].present && !extensions[i].present()) continue;
      list[count].version = extensions[i].version;
      snprintf(list[count].name, sizeof list[count].name, "%s",
               extensions[i].name);
      count++;
    }
    return clx_info(list, count * sizeof *list, param_value_size, param_value,
                    param_value_size_ret);
  }
  /* Every name fits CL_NAME_VERSION_MAX_NAME_SIZE_KHR with its space. */
  char names[extension_count * CL_NAME_VERSION_MAX_NAME_SIZE_KHR] = "";
  size_t used = 0;
  for (size_t i = 0; i < extension_count; i++) {
    if (extensions[i].present && !extensions[i].present()) continue;
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                             used ? " " : "", extensions[i].name);
  }
  return clx_info_string(names, param_value_size, param_value,
                         param_value_size_ret);
}

cl_int clx_built_in_kernels_info(const char *names, bool with_version,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret) {
  if (!with_version) {
    return clx_info_string(names, param_value_size, param_value,
                           param_value_size_ret);
  }
  size_t count = 0;
  for (const char *p = names; *p; count++) {
    p += strcspn(p, ";");
    if (*p) p++;
  }
  cl_name_version_khr *list = calloc(count ? count : 1, sizeof(*list));
  if (!list) return CL_OUT_OF_HOST_MEMORY;
  const char *p = names;
  for (size_t i = 0; i < count; i++) {
    size_t length = strcspn(p, ";");
    list[i].version = CL_MAKE_VERSION_KHR(1, 0, 0);
    snprintf(list[i].name, sizeof list[i].name, "%.*s", (int)length, p);
    p += length + (p[length] == ';');
  }
  cl_int error = clx_info(list, count * sizeof(*list), param_value_size,
                          param_value, param_value_size_ret);
  free(list);
  return error;
}

/* SPIR-V 1.0 to the newest the translator reads (compiler/spirv). */
cl_int clx_ils_info(bool with_version, size_t param_value_size,
                    void *param_value, size_t *param_value_size_ret) {
  unsigned count = clx_il_supported() ? CC_SPIRV_MAX_MINOR + 1 : 0;
  if (with_version) {
    cl_name_version_khr list[CC_SPIRV_MAX_MINOR + 1];
    memset(list, 0, sizeof list);
    for (unsigned minor = 0; minor < count; minor++) {
      list[minor].version = CL_MAKE_VERSION_KHR(1, minor, 0);
      snprintf(list[minor].name, sizeof list[minor].name, "SPIR-V");
    }
    return clx_info(list, count * sizeof *list, param_value_size, param_value,
                    param_value_size_ret);
  }
  char names[(CC_SPIRV_MAX_MINOR + 1) * 12] = "";
  size_t used = 0;
  for (unsigned minor = 0; minor < count; minor++) {
    used += (size_t)snprintf(names + used, sizeof names - used, "%sSPIR-V_1.%u",
                             minor ? " " : "", minor);
  }
  return clx_info_string(names, param_value_size, param_value,
                         param_value_size_ret);
}

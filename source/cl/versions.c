/* clmux OpenCL front-end: the extensions clmux reports and their versions,
 * in one table from which both the name strings (CL_*_EXTENSIONS) and the
 * versioned lists of cl_khr_extended_versioning are made, so the two
 * cannot disagree. Every device (sub-devices too) has every extension, so
 * the platform reports the same list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"

typedef struct extension {
  const char *name;
  cl_version_khr version;
} extension;

/* The five that OpenCL C 1.2 requires come from the builtin library
 * (atomics) and the target (byte stores); doubles, 64-bit atom_* and 3D
 * image writes from the library's forms; the front-end enables exactly the
 * language ones. The command-buffer versions are those of the API
 * implemented (command_buffer.c, mutable_command.c). */
static const extension extensions[] = {
    {"cl_khr_icd", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_byte_addressable_store", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_fp64", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_int64_base_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_3d_image_writes", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_extended_versioning", CL_MAKE_VERSION_KHR(1, 0, 0)},
    {"cl_khr_command_buffer", CL_MAKE_VERSION_KHR(0, 9, 8)},
    {"cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION_KHR(0, 9, 5)},
};

enum { extension_count = sizeof extensions / sizeof extensions[0] };

cl_int clx_extensions_info(bool with_version, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  if (with_version) {
    cl_name_version_khr list[extension_count];
    memset(list, 0, sizeof list);
    for (size_t i = 0; i < extension_count; i++) {
      list[i].version = extensions[i].version;
      snprintf(list[i].name, sizeof list[i].name, "%s", extensions[i].name);
    }
    return clx_info(list, sizeof list, param_value_size, param_value,
                    param_value_size_ret);
  }
  /* Every name fits CL_NAME_VERSION_MAX_NAME_SIZE_KHR with its space. */
  char names[extension_count * CL_NAME_VERSION_MAX_NAME_SIZE_KHR] = "";
  size_t used = 0;
  for (size_t i = 0; i < extension_count; i++) {
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                             i ? " " : "", extensions[i].name);
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

/* clmux Mux API layer: kernel entry points. */
#include <mux/mux.h>
#include <string.h>

#include "target.h"
#include "validate.h"

/* A name's length without a terminating NUL the caller may have counted. */
static size_t api_name_length(const char *name, uint64_t name_length) {
  return strnlen(name, name_length);
}

/* Whether `declarations` ("name(params);name(params)...", the format of
 * mux_device_info_s::builtin_kernel_declarations) declares a kernel called
 * name[0, length). */
static bool api_builtin_kernel_declared(const char *declarations,
                                        const char *name, size_t length) {
  if (declarations == NULL) return false;
  const char *cursor = declarations;
  while (*cursor != '\0') {
    while (*cursor == ' ' || *cursor == ';') cursor++;
    const char *begin = cursor;
    while (*cursor != '\0' && *cursor != '(' && *cursor != ' ' &&
           *cursor != ';') {
      cursor++;
    }
    if ((size_t)(cursor - begin) == length &&
        memcmp(begin, name, length) == 0) {
      return true;
    }
    while (*cursor != '\0' && *cursor != ';') cursor++;
  }
  return false;
}

mux_result_t muxCreateKernel(mux_device_t device, mux_executable_t executable,
                             const char *name, uint64_t name_length,
                             mux_allocator_info_t allocator_info,
                             mux_kernel_t *out_kernel) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (!api_valid_executable(executable)) return mux_error_invalid_value;
  if (name == NULL) return mux_error_invalid_value;
  size_t length = api_name_length(name, name_length);
  if (length == 0) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_kernel == NULL) return mux_error_null_out_parameter;
  /* Only the target can look inside an executable, so it reports a missing
   * kernel (mux_error_missing_kernel) after the checks above. */
  return cpuCreateKernel(device, executable, name, length, allocator_info,
                         out_kernel);
}

mux_result_t muxCreateBuiltInKernel(mux_device_t device, const char *name,
                                    uint64_t name_length,
                                    mux_allocator_info_t allocator_info,
                                    mux_kernel_t *out_kernel) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (name == NULL) return mux_error_invalid_value;
  /* As in muxCreateKernel: an empty name is not a lookup. */
  size_t length = api_name_length(name, name_length);
  const struct mux_device_info_s *info = device->info;
  if (length != 0 &&
      !api_builtin_kernel_declared(info ? info->builtin_kernel_declarations
                                        : NULL,
                                   name, length)) {
    return mux_error_missing_kernel;
  }
  if (length == 0) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_kernel == NULL) return mux_error_null_out_parameter;
  return cpuCreateBuiltInKernel(device, name, length, allocator_info,
                                out_kernel);
}

/* Sub-group support of the device a kernel was created for. */
static bool api_kernel_has_sub_groups(mux_kernel_t kernel) {
  const struct mux_device_info_s *info = api_device_info(kernel->device);
  return info != NULL && info->max_sub_group_count != 0;
}

mux_result_t muxQuerySubGroupSizeForLocalSize(mux_kernel_t kernel,
                                              size_t local_size_x,
                                              size_t local_size_y,
                                              size_t local_size_z,
                                              size_t *out_sub_group_size) {
  if (!api_valid_kernel(kernel)) return mux_error_invalid_value;
  /* The spec lists local_size_y twice; the second evidently means z. */
  if (local_size_x == 0 || local_size_y == 0 || local_size_z == 0) {
    return mux_error_invalid_value;
  }
  if (out_sub_group_size == NULL) return mux_error_null_out_parameter;
  if (!api_kernel_has_sub_groups(kernel)) return mux_error_feature_unsupported;
  return cpuQuerySubGroupSizeForLocalSize(kernel, local_size_x, local_size_y,
                                          local_size_z, out_sub_group_size);
}

mux_result_t muxQueryLocalSizeForSubGroupCount(mux_kernel_t kernel,
                                               size_t sub_group_count,
                                               size_t *out_local_size_x,
                                               size_t *out_local_size_y,
                                               size_t *out_local_size_z) {
  if (!api_valid_kernel(kernel)) return mux_error_invalid_value;
  if (out_local_size_x == NULL || out_local_size_y == NULL ||
      out_local_size_z == NULL) {
    return mux_error_null_out_parameter;
  }
  if (!api_kernel_has_sub_groups(kernel)) return mux_error_feature_unsupported;
  return cpuQueryLocalSizeForSubGroupCount(kernel, sub_group_count,
                                           out_local_size_x, out_local_size_y,
                                           out_local_size_z);
}

mux_result_t muxQueryWFVInfoForLocalSize(
    mux_kernel_t kernel, size_t local_size_x, size_t local_size_y,
    size_t local_size_z, mux_wfv_status_e *out_wfv_status,
    size_t *out_work_width_x, size_t *out_work_width_y,
    size_t *out_work_width_z) {
  if (!api_valid_kernel(kernel)) return mux_error_invalid_value;
  /* As above, the spec's second local_size_y means z. */
  if (local_size_x == 0 || local_size_y == 0 || local_size_z == 0) {
    return mux_error_invalid_value;
  }
  if (out_wfv_status == NULL &&
      (out_work_width_x == NULL || out_work_width_y == NULL ||
       out_work_width_z == NULL)) {
    return mux_error_null_out_parameter;
  }
  /* No device info field says whether a device vectorizes whole functions:
   * the target answers feature_unsupported itself (the last rule). */
  return cpuQueryWFVInfoForLocalSize(kernel, local_size_x, local_size_y,
                                     local_size_z, out_wfv_status,
                                     out_work_width_x, out_work_width_y,
                                     out_work_width_z);
}

void muxDestroyKernel(mux_device_t device, mux_kernel_t kernel,
                      mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_kernel(kernel) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyKernel(device, kernel, allocator_info);
}

/* clmux Mux API layer: executable entry points. */
#include <mux/mux.h>

#include "target.h"
#include "validate.h"

mux_result_t muxCreateExecutable(mux_device_t device, const void *binary,
                                 uint64_t binary_length,
                                 mux_allocator_info_t allocator_info,
                                 mux_executable_t *out_executable) {
  if (!api_valid_device(device)) return mux_error_invalid_value;
  if (binary == NULL) return mux_error_invalid_value;
  if (binary_length == 0) return mux_error_invalid_value;
  if (!api_valid_allocator(allocator_info)) {
    return mux_error_null_allocator_callback;
  }
  if (out_executable == NULL) return mux_error_null_out_parameter;
  return cpuCreateExecutable(device, binary, binary_length, allocator_info,
                             out_executable);
}

void muxDestroyExecutable(mux_device_t device, mux_executable_t executable,
                          mux_allocator_info_t allocator_info) {
  if (!api_valid_device(device) || !api_valid_executable(executable) ||
      !api_valid_allocator(allocator_info)) {
    return;
  }
  cpuDestroyExecutable(device, executable, allocator_info);
}

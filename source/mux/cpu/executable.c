/* clmux CPU target: executable. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateExecutable(mux_device_t device, const void *binary,
                                 uint64_t binary_length,
                                 mux_allocator_info_t allocator_info,
                                 mux_executable_t *out_executable) {
  (void)device;
  (void)binary;
  (void)binary_length;
  (void)allocator_info;
  (void)out_executable;
  return mux_error_feature_unsupported;
}

void cpuDestroyExecutable(mux_device_t device, mux_executable_t executable,
                          mux_allocator_info_t allocator_info) {
  (void)device;
  (void)executable;
  (void)allocator_info;
}

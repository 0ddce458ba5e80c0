/* clmux Mux API layer: executable entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateExecutable(mux_device_t device, const void *binary,
                                 uint64_t binary_length,
                                 mux_allocator_info_t allocator_info,
                                 mux_executable_t *out_executable) {
  return cpuCreateExecutable(device, binary, binary_length, allocator_info, out_executable);
}

void muxDestroyExecutable(mux_device_t device, mux_executable_t executable,
                          mux_allocator_info_t allocator_info) {
  cpuDestroyExecutable(device, executable, allocator_info);
}

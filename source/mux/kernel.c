/* clmux Mux API layer: kernel entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateKernel(mux_device_t device, mux_executable_t executable,
                             const char *name, uint64_t name_length,
                             mux_allocator_info_t allocator_info,
                             mux_kernel_t *out_kernel) {
  return cpuCreateKernel(device, executable, name, name_length, allocator_info, out_kernel);
}

mux_result_t muxCreateBuiltInKernel(mux_device_t device, const char *name,
                                    uint64_t name_length,
                                    mux_allocator_info_t allocator_info,
                                    mux_kernel_t *out_kernel) {
  return cpuCreateBuiltInKernel(device, name, name_length, allocator_info, out_kernel);
}

mux_result_t muxQuerySubGroupSizeForLocalSize(mux_kernel_t kernel,
                                              size_t local_size_x,
                                              size_t local_size_y,
                                              size_t local_size_z,
                                              size_t *out_sub_group_size) {
  return cpuQuerySubGroupSizeForLocalSize(kernel, local_size_x, local_size_y, local_size_z, out_sub_group_size);
}

mux_result_t muxQueryLocalSizeForSubGroupCount(mux_kernel_t kernel,
                                               size_t sub_group_count,
                                               size_t *out_local_size_x,
                                               size_t *out_local_size_y,
                                               size_t *out_local_size_z) {
  return cpuQueryLocalSizeForSubGroupCount(kernel, sub_group_count, out_local_size_x, out_local_size_y, out_local_size_z);
}

mux_result_t muxQueryWFVInfoForLocalSize(
    mux_kernel_t kernel, size_t local_size_x, size_t local_size_y,
    size_t local_size_z, mux_wfv_status_e *out_wfv_status,
    size_t *out_work_width_x, size_t *out_work_width_y,
    size_t *out_work_width_z) {
  return cpuQueryWFVInfoForLocalSize(kernel, local_size_x, local_size_y, local_size_z, out_wfv_status, out_work_width_x, out_work_width_y, out_work_width_z);
}

void muxDestroyKernel(mux_device_t device, mux_kernel_t kernel,
                      mux_allocator_info_t allocator_info) {
  cpuDestroyKernel(device, kernel, allocator_info);
}

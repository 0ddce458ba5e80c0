/* clmux CPU target: kernel. */
#include "cpu.h"
#include "../target.h"

mux_result_t cpuCreateKernel(mux_device_t device, mux_executable_t executable,
                             const char *name, uint64_t name_length,
                             mux_allocator_info_t allocator_info,
                             mux_kernel_t *out_kernel) {
  (void)device;
  (void)executable;
  (void)name;
  (void)name_length;
  (void)allocator_info;
  (void)out_kernel;
  return mux_error_feature_unsupported;
}

mux_result_t cpuCreateBuiltInKernel(mux_device_t device, const char *name,
                                    uint64_t name_length,
                                    mux_allocator_info_t allocator_info,
                                    mux_kernel_t *out_kernel) {
  (void)device;
  (void)name;
  (void)name_length;
  (void)allocator_info;
  (void)out_kernel;
  return mux_error_feature_unsupported;
}

mux_result_t cpuQuerySubGroupSizeForLocalSize(mux_kernel_t kernel,
                                              size_t local_size_x,
                                              size_t local_size_y,
                                              size_t local_size_z,
                                              size_t *out_sub_group_size) {
  (void)kernel;
  (void)local_size_x;
  (void)local_size_y;
  (void)local_size_z;
  (void)out_sub_group_size;
  return mux_error_feature_unsupported;
}

mux_result_t cpuQueryLocalSizeForSubGroupCount(mux_kernel_t kernel,
                                               size_t sub_group_count,
                                               size_t *out_local_size_x,
                                               size_t *out_local_size_y,
                                               size_t *out_local_size_z) {
  (void)kernel;
  (void)sub_group_count;
  (void)out_local_size_x;
  (void)out_local_size_y;
  (void)out_local_size_z;
  return mux_error_feature_unsupported;
}

mux_result_t cpuQueryWFVInfoForLocalSize(
    mux_kernel_t kernel, size_t local_size_x, size_t local_size_y,
    size_t local_size_z, mux_wfv_status_e *out_wfv_status,
    size_t *out_work_width_x, size_t *out_work_width_y,
    size_t *out_work_width_z) {
  (void)kernel;
  (void)local_size_x;
  (void)local_size_y;
  (void)local_size_z;
  (void)out_wfv_status;
  (void)out_work_width_x;
  (void)out_work_width_y;
  (void)out_work_width_z;
  return mux_error_feature_unsupported;
}

void cpuDestroyKernel(mux_device_t device, mux_kernel_t kernel,
                      mux_allocator_info_t allocator_info) {
  (void)device;
  (void)kernel;
  (void)allocator_info;
}

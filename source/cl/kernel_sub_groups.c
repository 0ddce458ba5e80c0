/* clmux OpenCL front-end: clGetKernelSubGroupInfo. A kernel's sub-groups
 * are the lanes its code for a local size runs at once (the vectorizer's
 * width, known once that code is made; compiler/codegen/sub_groups.h),
 * along x within each row of the group: so the queries specialize the
 * kernel for the local size they ask about, as the launch would. */
#include <string.h>

#include "clx.h"

/* The Mux kernel that runs `local` (3 sizes) as a uniform NDRange. */
static cl_int code_for(cl_kernel kernel, const size_t local[3],
                       mux_kernel_t *out) {
  return clx_kernel_mux_kernel(kernel, local, local, out);
}

static cl_int sub_group_size(cl_kernel kernel, const size_t local[3],
                             size_t *size) {
  mux_kernel_t code = NULL;
  cl_int error = code_for(kernel, local, &code);
  if (error != CL_SUCCESS) return error;
  return muxQuerySubGroupSizeForLocalSize(code, local[0], local[1], local[2],
                                          size) == mux_success
             ? CL_SUCCESS
             : CL_OUT_OF_RESOURCES;
}

static size_t sub_group_count(const size_t local[3], size_t size) {
  return (local[0] + size - 1) / size * local[1] * local[2];
}

/* A local size with exactly `count` sub-groups: a row of `count` whole
 * sub-groups where the code for it has sub-groups that wide (tried from
 * the widest the kernel has down to 1), else, with a second dimension to
 * use, a column of `count` work-items (sub-groups of one); 0s if none. */
static cl_int local_size_for_count(cl_kernel kernel, size_t count,
                                   cl_uint dimensions,
                                   const struct mux_device_info_s *info,
                                   size_t out[3]) {
  memset(out, 0, 3 * sizeof *out);
  size_t limit = info->max_concurrent_work_items;
  if (count == 0 || count > limit) return CL_SUCCESS;
  size_t widest = 1;
  size_t row[3] = {
      limit < info->max_work_group_size_x ? limit : info->max_work_group_size_x,
      1, 1};
  cl_int error = sub_group_size(kernel, row, &widest);
  if (error != CL_SUCCESS) return error;
  for (size_t width = widest; width >= 1; width /= 2) {
    size_t local[3] = {count * width, 1, 1};
    if (local[0] / width != count || local[0] > row[0]) continue;
    size_t size = 0;
    if (sub_group_size(kernel, local, &size) == CL_SUCCESS &&
        sub_group_count(local, size) == count) {
      memcpy(out, local, sizeof local);
      return CL_SUCCESS;
    }
  }
  if (dimensions >= 2 && count <= info->max_work_group_size_y) {
    size_t column[3] = {1, count, 1};
    size_t size = 0;
    if (sub_group_size(kernel, column, &size) == CL_SUCCESS && size == 1) {
      memcpy(out, column, sizeof column);
    }
  }
  return CL_SUCCESS;
}

cl_int clx_kernel_sub_group_info(cl_kernel kernel, cl_device_id device,
                                 cl_kernel_sub_group_info param_name,
                                 size_t input_value_size,
                                 const void *input_value,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret) {
  cl_int error = clx_kernel_device(kernel, &device);
  if (error != CL_SUCCESS) return error;
  const struct mux_device_info_s *info = device->info;
  switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
      size_t local[3] = {1, 1, 1};
      size_t dimensions = input_value_size / sizeof(size_t);
      if (!input_value || input_value_size % sizeof(size_t) != 0 ||
          dimensions < 1 || dimensions > 3) {
        return CL_INVALID_VALUE;
      }
      memcpy(local, input_value, input_value_size);
      for (int d = 0; d < 3; d++) {
        if (local[d] == 0) return CL_INVALID_VALUE;
      }
      /* A local size the device cannot run (Boost.Compute asks about 64 x
       * 64) has the sub-groups its rows would have: those of the widest
       * row the device runs. */
      size_t row = info->max_work_group_size_x;
      if (row > info->max_concurrent_work_items) {
        row = info->max_concurrent_work_items;
      }
      bool runs =
          local[0] * local[1] * local[2] <= info->max_concurrent_work_items &&
          local[0] <= info->max_work_group_size_x &&
          local[1] <= info->max_work_group_size_y &&
          local[2] <= info->max_work_group_size_z;
      size_t code[3] = {runs ? local[0] : (local[0] < row ? local[0] : row),
                        runs ? local[1] : 1, runs ? local[2] : 1};
      size_t size = 0;
      error = sub_group_size(kernel, code, &size);
      if (error != CL_SUCCESS) return error;
      size_t value = param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE
                         ? size
                         : sub_group_count(local, size);
      return clx_info(&value, sizeof value, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      size_t dimensions = param_value_size / sizeof(size_t);
      if (!input_value || input_value_size != sizeof(size_t)) {
        return CL_INVALID_VALUE;
      }
      if (param_value && (param_value_size % sizeof(size_t) != 0 ||
                          dimensions < 1 || dimensions > 3)) {
        return CL_INVALID_VALUE;
      }
      if (!param_value) dimensions = 3;
      size_t count = 0, local[3];
      memcpy(&count, input_value, sizeof count);
      error =
          local_size_for_count(kernel, count, (cl_uint)dimensions, info, local);
      if (error != CL_SUCCESS) return error;
      return clx_info(local, dimensions * sizeof(size_t), param_value_size,
                      param_value, param_value_size_ret);
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
      /* A group one item wide has sub-groups of one. */
      size_t value = info->max_concurrent_work_items;
      return clx_info(&value, sizeof value, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: {
      size_t value = 0; /* no kernel attribute asks for a number */
      return clx_info(&value, sizeof value, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

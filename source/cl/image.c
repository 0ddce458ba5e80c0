/* clmux OpenCL front-end: image. */
#include "clx.h"

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* image_format,
                                 const cl_image_desc* image_desc,
                                 void* host_ptr, cl_int* errcode_ret) {
  (void)context;
  (void)flags;
  (void)image_format;
  (void)image_desc;
  (void)host_ptr;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* image_format,
                                   size_t image_width, size_t image_height,
                                   size_t image_row_pitch, void* host_ptr,
                                   cl_int* errcode_ret) {
  (void)context;
  (void)flags;
  (void)image_format;
  (void)image_width;
  (void)image_height;
  (void)image_row_pitch;
  (void)host_ptr;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* image_format,
                                   size_t image_width, size_t image_height,
                                   size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void* host_ptr,
                                   cl_int* errcode_ret) {
  (void)context;
  (void)flags;
  (void)image_format;
  (void)image_width;
  (void)image_height;
  (void)image_depth;
  (void)image_row_pitch;
  (void)image_slice_pitch;
  (void)host_ptr;
  (void)errcode_ret;
  if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
  return NULL;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context,
                                              cl_mem_flags flags,
                                              cl_mem_object_type image_type,
                                              cl_uint num_entries,
                                              cl_image_format* image_formats,
                                              cl_uint* num_image_formats) {
  (void)context;
  (void)flags;
  (void)image_type;
  (void)num_entries;
  (void)image_formats;
  (void)num_image_formats;
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                  size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
  (void)image;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

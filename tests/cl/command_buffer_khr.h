/* cl_khr_command_buffer 0.9.8 and cl_khr_command_buffer_mutable_dispatch
 * 0.9.5 as a program sees them: the signatures (Debian's headers declare
 * older drafts) and every entry point, fetched from the platform. */
#ifndef CLMUX_TESTS_CL_COMMAND_BUFFER_KHR_H
#define CLMUX_TESTS_CL_COMMAND_BUFFER_KHR_H

#include "cl_test.h"
/* After cl_test.h, which picks the OpenCL version. */
#include <CL/cl_ext.h>

typedef cl_properties command_properties;
typedef cl_command_buffer_khr(CL_API_CALL *create_fn)(
    cl_uint, const cl_command_queue *, const cl_command_buffer_properties_khr *,
    cl_int *);
typedef cl_int(CL_API_CALL *buffer_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *enqueue_fn)(cl_uint, cl_command_queue *,
                                        cl_command_buffer_khr, cl_uint,
                                        const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *info_fn)(cl_command_buffer_khr,
                                     cl_command_buffer_info_khr, size_t, void *,
                                     size_t *);
typedef cl_int(CL_API_CALL *barrier_fn)(cl_command_buffer_khr, cl_command_queue,
                                        const command_properties *, cl_uint,
                                        const cl_sync_point_khr *,
                                        cl_sync_point_khr *,
                                        cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *fill_fn)(cl_command_buffer_khr, cl_command_queue,
                                     const command_properties *, cl_mem,
                                     const void *, size_t, size_t, size_t,
                                     cl_uint, const cl_sync_point_khr *,
                                     cl_sync_point_khr *,
                                     cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *copy_fn)(cl_command_buffer_khr, cl_command_queue,
                                     const command_properties *, cl_mem, cl_mem,
                                     size_t, size_t, size_t, cl_uint,
                                     const cl_sync_point_khr *,
                                     cl_sync_point_khr *,
                                     cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *copy_rect_fn)(
    cl_command_buffer_khr, cl_command_queue, const command_properties *, cl_mem,
    cl_mem, const size_t *, const size_t *, const size_t *, size_t, size_t,
    size_t, size_t, cl_uint, const cl_sync_point_khr *, cl_sync_point_khr *,
    cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *fill_image_fn)(
    cl_command_buffer_khr, cl_command_queue, const command_properties *, cl_mem,
    const void *, const size_t *, const size_t *, cl_uint,
    const cl_sync_point_khr *, cl_sync_point_khr *, cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *image_to_buffer_fn)(
    cl_command_buffer_khr, cl_command_queue, const command_properties *, cl_mem,
    cl_mem, const size_t *, const size_t *, size_t, cl_uint,
    const cl_sync_point_khr *, cl_sync_point_khr *, cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ndrange_fn)(
    cl_command_buffer_khr, cl_command_queue, const command_properties *,
    cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint,
    const cl_sync_point_khr *, cl_sync_point_khr *, cl_mutable_command_khr *);

/* Mutable dispatch, 0.9.5. */
typedef struct mutable_config {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr *arg_list;
  const cl_mutable_dispatch_arg_khr *arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
} mutable_config;
#define MUTABLE_CONFIG_TYPE \
  0                       /* CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR */
#define STATE_FINALIZED 2 /* CL_COMMAND_BUFFER_STATE_FINALIZED_KHR */
#define NO_ADDITIONAL_WORK_GROUPS 1
#define COMMAND_BUFFER_ASSERTS 0x12B7
#define COMMAND_ASSERTS 0x12B8
#define COMMAND_PROPERTIES_ARRAY 0x12A2
typedef cl_int(CL_API_CALL *update_fn)(cl_command_buffer_khr, cl_uint,
                                       const cl_uint *, const void **);
typedef cl_int(CL_API_CALL *mutable_info_fn)(cl_mutable_command_khr, cl_uint,
                                             size_t, void *, size_t *);

static struct {
  create_fn create;
  buffer_fn finalize, retain, release;
  enqueue_fn enqueue;
  info_fn info;
  barrier_fn barrier;
  fill_fn fill;
  copy_fn copy;
  copy_rect_fn copy_rect;
  fill_image_fn fill_image;
  image_to_buffer_fn image_to_buffer;
  ndrange_fn ndrange;
  update_fn update;
  mutable_info_fn mutable_info;
} khr;

static inline void *khr_entry(cl_platform_id platform, const char *name) {
  void *function = clGetExtensionFunctionAddressForPlatform(platform, name);
  REQUIRE(function != NULL);
  return function;
}

static inline void khr_load(cl_platform_id platform) {
  khr.create = (create_fn)khr_entry(platform, "clCreateCommandBufferKHR");
  khr.finalize = (buffer_fn)khr_entry(platform, "clFinalizeCommandBufferKHR");
  khr.retain = (buffer_fn)khr_entry(platform, "clRetainCommandBufferKHR");
  khr.release = (buffer_fn)khr_entry(platform, "clReleaseCommandBufferKHR");
  khr.enqueue = (enqueue_fn)khr_entry(platform, "clEnqueueCommandBufferKHR");
  khr.info = (info_fn)khr_entry(platform, "clGetCommandBufferInfoKHR");
  khr.barrier =
      (barrier_fn)khr_entry(platform, "clCommandBarrierWithWaitListKHR");
  khr.fill = (fill_fn)khr_entry(platform, "clCommandFillBufferKHR");
  khr.copy = (copy_fn)khr_entry(platform, "clCommandCopyBufferKHR");
  khr.copy_rect =
      (copy_rect_fn)khr_entry(platform, "clCommandCopyBufferRectKHR");
  khr.fill_image = (fill_image_fn)khr_entry(platform, "clCommandFillImageKHR");
  khr.image_to_buffer =
      (image_to_buffer_fn)khr_entry(platform, "clCommandCopyImageToBufferKHR");
  khr.ndrange = (ndrange_fn)khr_entry(platform, "clCommandNDRangeKernelKHR");
  khr.update = (update_fn)khr_entry(platform, "clUpdateMutableCommandsKHR");
  khr.mutable_info =
      (mutable_info_fn)khr_entry(platform, "clGetMutableCommandInfoKHR");
}

#endif /* CLMUX_TESTS_CL_COMMAND_BUFFER_KHR_H */

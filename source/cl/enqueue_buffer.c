/* clmux OpenCL front-end: buffer reads, writes, copies, fills (plain and
 * rectangular) and maps. Each checks its arguments, then records one Mux
 * command into the queue's open batch; maps are zero-copy (all memory is
 * host memory), so a map command only orders the hand-out in the queue. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

/* ---- Argument checks ----------------------------------------------------- */

static cl_int check_queue(cl_command_queue queue) {
  return clx_valid(queue, clx_kind_command_queue) ? CL_SUCCESS
                                                  : CL_INVALID_COMMAND_QUEUE;
}

/* The buffer's kind and its context against the queue's. */
static cl_int check_buffer(cl_command_queue queue, cl_mem buffer) {
  if (!clx_valid(buffer, clx_kind_mem) ||
      buffer->type != CL_MEM_OBJECT_BUFFER) {
    return CL_INVALID_MEM_OBJECT;
  }
  return buffer->context == queue->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

/* A sub-buffer's origin must suit the queue's device. */
static cl_int check_alignment(cl_command_queue queue, cl_mem buffer) {
  if (buffer->parent &&
      !clx_mem_origin_aligned(queue->device, buffer->origin)) {
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  }
  return CL_SUCCESS;
}

/* [offset, offset + size) inside the buffer, size not 0. */
static bool range_valid(cl_mem buffer, size_t offset, size_t size) {
  return size != 0 && offset <= buffer->size && size <= buffer->size - offset;
}

static cl_int recorded(clx_enqueue *enqueue, mux_result_t result) {
  if (result == mux_success) return CL_SUCCESS;
  return clx_enqueue_abort(enqueue, result == mux_error_out_of_memory
                                        ? CL_OUT_OF_HOST_MEMORY
                                        : CL_OUT_OF_RESOURCES);
}

/* ---- Rectangles ---------------------------------------------------------- */

/* One side of a rectangular transfer: origin in (bytes, rows, slices). */
typedef struct rect_side {
  const size_t *origin;
  size_t row_pitch;
  size_t slice_pitch;
} rect_side;

/* Fills in default pitches (0: tightly packed) and checks them. */
static bool rect_pitches(const size_t *region, rect_side *side) {
  if (side->row_pitch == 0) {
    side->row_pitch = region[0];
  } else if (side->row_pitch < region[0]) {
    return false;
  }
  size_t packed;
  if (__builtin_mul_overflow(region[1], side->row_pitch, &packed)) {
    return false;
  }
  if (side->slice_pitch == 0) {
    side->slice_pitch = packed;
  } else if (side->slice_pitch < packed ||
             side->slice_pitch % side->row_pitch != 0) {
    return false;
  }
  return true;
}

/* The bytes [*begin, *end) a rectangle spans; false on overflow. */
static bool rect_span(const size_t *region, const rect_side *side,
                      size_t *begin, size_t *end) {
  size_t z_at, y_at, last_z, last_y, last;
  if (__builtin_mul_overflow(side->origin[2], side->slice_pitch, &z_at) ||
      __builtin_mul_overflow(side->origin[1], side->row_pitch, &y_at) ||
      __builtin_add_overflow(z_at, y_at, begin) ||
      __builtin_add_overflow(*begin, side->origin[0], begin)) {
    return false;
  }
  if (__builtin_mul_overflow(region[2] - 1, side->slice_pitch, &last_z) ||
      __builtin_mul_overflow(region[1] - 1, side->row_pitch, &last_y) ||
      __builtin_add_overflow(last_z, last_y, &last) ||
      __builtin_add_overflow(last, region[0], &last) ||
      __builtin_add_overflow(*begin, last, end)) {
    return false;
  }
  return true;
}

static bool region_valid(const size_t *region) {
  return region && region[0] && region[1] && region[2];
}

/* A buffer side: pitches valid and the rectangle inside the buffer. */
static bool rect_in_buffer(cl_mem buffer, const size_t *region,
                           rect_side *side) {
  size_t begin = 0, end = 0;
  return side->origin && rect_pitches(region, side) &&
         rect_span(region, side, &begin, &end) && end <= buffer->size;
}

static mux_buffer_region_info_t mux_region(const size_t *region,
                                           const rect_side *src,
                                           const rect_side *dst) {
  mux_buffer_region_info_t info;
  info.region = (mux_extent_3d_t){region[0], region[1], region[2]};
  info.src_origin =
      (mux_extent_3d_t){src->origin[0], src->origin[1], src->origin[2]};
  info.dst_origin =
      (mux_extent_3d_t){dst->origin[0], dst->origin[1], dst->origin[2]};
  info.src_desc = (mux_extent_2d_t){src->row_pitch, src->slice_pitch};
  info.dst_desc = (mux_extent_2d_t){dst->row_pitch, dst->slice_pitch};
  return info;
}

/* ---- Overlap ------------------------------------------------------------- */

static cl_mem root_of(cl_mem buffer) {
  return buffer->parent ? buffer->parent : buffer;
}

static bool ranges_overlap(size_t a, size_t a_size, size_t b, size_t b_size) {
  return a < b + b_size && b < a + a_size;
}

/* Two rectangles with the same pitches in one buffer. When no row wraps
 * past the row pitch, each byte is (x, row number) with row numbers
 * z * rows_per_slice + y: the rectangles meet iff their x ranges meet and
 * some pair of their row runs (one run of region[1] rows per slice) does.
 * Otherwise (rows wrapping) any meeting of their spans counts. */
static bool rects_overlap(const size_t *region, const rect_side *a,
                          const rect_side *b) {
  size_t a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
  rect_span(region, a, &a_begin, &a_end);
  rect_span(region, b, &b_begin, &b_end);
  if (!ranges_overlap(a_begin, a_end - a_begin, b_begin, b_end - b_begin)) {
    return false;
  }
  size_t row = a->row_pitch;
  if (a->origin[0] + region[0] > row || b->origin[0] + region[0] > row) {
    return true;
  }
  if (!ranges_overlap(a->origin[0], region[0], b->origin[0], region[0])) {
    return false;
  }
  long long period = (long long)(a->slice_pitch / row);
  long long a_row = (long long)a->origin[2] * period + (long long)a->origin[1];
  long long b_row = (long long)b->origin[2] * period + (long long)b->origin[1];
  long long rows = (long long)region[1];
  long long slices = (long long)region[2];
  /* Run k of a against run m of b: |a_row - b_row + (k - m) period| < rows,
   * k - m in (-slices, slices); only the shifts nearest to cancelling the
   * difference can succeed. */
  long long difference = a_row - b_row;
  long long nearest = period ? -difference / period : 0;
  for (long long d = nearest - 1; d <= nearest + 1; d++) {
    if (d <= -slices || d >= slices) continue;
    long long gap = difference + d * period;
    if (gap < rows && -gap < rows) return true;
  }
  return false;
}

/* ---- Reads and writes ---------------------------------------------------- */

/* The queue, then the buffer against it. */
static cl_int check_target(cl_command_queue queue, cl_mem buffer) {
  cl_int error = check_queue(queue);
  return error != CL_SUCCESS ? error : check_buffer(queue, buffer);
}

static cl_int check_host_access(cl_mem buffer, bool is_read) {
  bool allowed =
      is_read ? clx_mem_host_can_read(buffer) : clx_mem_host_can_write(buffer);
  return allowed ? CL_SUCCESS : CL_INVALID_OPERATION;
}

static cl_int enqueue_transfer(cl_command_queue queue, cl_mem buffer,
                               bool is_read, cl_bool blocking, size_t offset,
                               size_t size, void *ptr, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event) {
  cl_int error = check_target(queue, buffer);
  if (error != CL_SUCCESS) return error;
  if (!range_valid(buffer, offset, size) || !ptr) return CL_INVALID_VALUE;
  if ((error = check_alignment(queue, buffer)) != CL_SUCCESS ||
      (error = check_host_access(buffer, is_read)) != CL_SUCCESS) {
    return error;
  }
  clx_enqueue enqueue;
  error = clx_enqueue_begin(
      queue, is_read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER,
      num_events, wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  /* Reading a USE_HOST_PTR buffer into its own array (or writing it from
   * there) finds the bytes already in place: the command only keeps its
   * place in the queue. */
  if (ptr != buffer->data + offset) {
    mux_result_t result =
        is_read
            ? muxCommandReadBuffer(enqueue.command_buffer, buffer->mux_buffer,
                                   offset, ptr, size, 0, NULL, NULL)
            : muxCommandWriteBuffer(enqueue.command_buffer, buffer->mux_buffer,
                                    offset, ptr, size, 0, NULL, NULL);
    if ((error = recorded(&enqueue, result)) != CL_SUCCESS) return error;
  }
  clx_enqueue_hold(&enqueue, CLX_OBJ(buffer));
  return clx_enqueue_end(&enqueue, event, blocking);
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue,
                                       cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list,
                                       cl_event *event) {
  return enqueue_transfer(command_queue, buffer, true, blocking_read, offset,
                          size, ptr, num_events_in_wait_list, event_wait_list,
                          event);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue,
                                        cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size,
                                        const void *ptr,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list,
                                        cl_event *event) {
  /* Mux reads the pointer when the command runs; it never writes it. */
  return enqueue_transfer(command_queue, buffer, false, blocking_write, offset,
                          size, (void *)ptr, num_events_in_wait_list,
                          event_wait_list, event);
}

static cl_int enqueue_transfer_rect(
    cl_command_queue queue, cl_mem buffer, bool is_read, cl_bool blocking,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events, const cl_event *wait_list, cl_event *event) {
  cl_int error = check_target(queue, buffer);
  if (error != CL_SUCCESS) return error;
  rect_side device_side = {buffer_origin, buffer_row_pitch, buffer_slice_pitch};
  rect_side host_side = {host_origin, host_row_pitch, host_slice_pitch};
  size_t begin = 0, end = 0;
  if (!region_valid(region) || !ptr || !host_origin ||
      !rect_in_buffer(buffer, region, &device_side) ||
      !rect_pitches(region, &host_side) ||
      !rect_span(region, &host_side, &begin, &end)) {
    return CL_INVALID_VALUE;
  }
  if ((error = check_alignment(queue, buffer)) != CL_SUCCESS ||
      (error = check_host_access(buffer, is_read)) != CL_SUCCESS) {
    return error;
  }
  clx_enqueue enqueue;
  error = clx_enqueue_begin(
      queue,
      is_read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
      num_events, wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_buffer_region_info_t info;
  mux_result_t result;
  if (is_read) {
    info = mux_region(region, &device_side, &host_side);
    result =
        muxCommandReadBufferRegions(enqueue.command_buffer, buffer->mux_buffer,
                                    ptr, &info, 1, 0, NULL, NULL);
  } else {
    info = mux_region(region, &host_side, &device_side);
    result =
        muxCommandWriteBufferRegions(enqueue.command_buffer, buffer->mux_buffer,
                                     ptr, &info, 1, 0, NULL, NULL);
  }
  if ((error = recorded(&enqueue, result)) != CL_SUCCESS) return error;
  clx_enqueue_hold(&enqueue, CLX_OBJ(buffer));
  return clx_enqueue_end(&enqueue, event, blocking);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return enqueue_transfer_rect(
      command_queue, buffer, true, blocking_read, buffer_origin, host_origin,
      region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
      host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return enqueue_transfer_rect(command_queue, buffer, false, blocking_write,
                               buffer_origin, host_origin, region,
                               buffer_row_pitch, buffer_slice_pitch,
                               host_row_pitch, host_slice_pitch, (void *)ptr,
                               num_events_in_wait_list, event_wait_list, event);
}

/* ---- Fill ---------------------------------------------------------------- */

static cl_int fill_buffer(const clx_destination *to, cl_mem buffer,
                          const void *pattern, size_t pattern_size,
                          size_t offset, size_t size) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_target(command_queue, buffer);
  if (error != CL_SUCCESS) return error;
  /* Pattern sizes are those of OpenCL C scalars and vectors: 1 to 128. */
  bool size_ok = pattern_size && pattern_size <= 128 &&
                 (pattern_size & (pattern_size - 1)) == 0;
  if (!pattern || !size_ok || offset % pattern_size || size % pattern_size ||
      !range_valid(buffer, offset, size)) {
    return CL_INVALID_VALUE;
  }
  if ((error = check_alignment(command_queue, buffer)) != CL_SUCCESS) {
    return error;
  }
  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_FILL_BUFFER, &enqueue);
  if (error != CL_SUCCESS) return error;
  /* Mux copies the pattern when recording: the caller may reuse it. */
  mux_result_t result =
      muxCommandFillBuffer(enqueue.command_buffer, buffer->mux_buffer, offset,
                           size, pattern, pattern_size, 0, NULL, NULL);
  if ((error = recorded(&enqueue, result)) != CL_SUCCESS) return error;
  clx_enqueue_hold(&enqueue, CLX_OBJ(buffer));
  return clx_command_end(to, &enqueue);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue,
                                       cl_mem buffer, const void *pattern,
                                       size_t pattern_size, size_t offset,
                                       size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list,
                                       cl_event *event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return fill_buffer(&to, buffer, pattern, pattern_size, offset, size);
}

cl_int CL_API_CALL clx_command_fill_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem buffer,
    const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return fill_buffer(&to, buffer, pattern, pattern_size, offset, size);
}

/* ---- Copies -------------------------------------------------------------- */

static cl_int check_copy_buffers(cl_command_queue queue, cl_mem src,
                                 cl_mem dst) {
  cl_int error = check_queue(queue);
  if (error != CL_SUCCESS) return error;
  if (!clx_valid(src, clx_kind_mem) || src->type != CL_MEM_OBJECT_BUFFER ||
      !clx_valid(dst, clx_kind_mem) || dst->type != CL_MEM_OBJECT_BUFFER) {
    return CL_INVALID_MEM_OBJECT;
  }
  if (src->context != queue->context || dst->context != queue->context) {
    return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

static cl_int check_copy_alignment(cl_command_queue queue, cl_mem src,
                                   cl_mem dst) {
  cl_int error = check_alignment(queue, src);
  return error != CL_SUCCESS ? error : check_alignment(queue, dst);
}

static cl_int copy_buffer(const clx_destination *to, cl_mem src_buffer,
                          cl_mem dst_buffer, size_t src_offset,
                          size_t dst_offset, size_t size) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_copy_buffers(command_queue, src_buffer, dst_buffer);
  if (error != CL_SUCCESS) return error;
  if (!range_valid(src_buffer, src_offset, size) ||
      !range_valid(dst_buffer, dst_offset, size)) {
    return CL_INVALID_VALUE;
  }
  /* Buffers sharing storage overlap by their places in the parent. */
  if (root_of(src_buffer) == root_of(dst_buffer) &&
      ranges_overlap(src_buffer->origin + src_offset, size,
                     dst_buffer->origin + dst_offset, size)) {
    return CL_MEM_COPY_OVERLAP;
  }
  error = check_copy_alignment(command_queue, src_buffer, dst_buffer);
  if (error != CL_SUCCESS) return error;
  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_COPY_BUFFER, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t result = muxCommandCopyBuffer(
      enqueue.command_buffer, src_buffer->mux_buffer, src_offset,
      dst_buffer->mux_buffer, dst_offset, size, 0, NULL, NULL);
  if ((error = recorded(&enqueue, result)) != CL_SUCCESS) return error;
  clx_enqueue_hold(&enqueue, CLX_OBJ(src_buffer));
  clx_enqueue_hold(&enqueue, CLX_OBJ(dst_buffer));
  return clx_command_end(to, &enqueue);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
                                       cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset,
                                       size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list,
                                       cl_event *event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return copy_buffer(&to, src_buffer, dst_buffer, src_offset, dst_offset, size);
}

cl_int CL_API_CALL clx_command_copy_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return copy_buffer(&to, src_buffer, dst_buffer, src_offset, dst_offset, size);
}

/* CL_MEM_COPY_OVERLAP for rectangles sharing storage. */
static bool copy_rects_overlap(cl_mem src, cl_mem dst, const size_t *region,
                               const rect_side *src_side,
                               const rect_side *dst_side) {
  if (root_of(src) != root_of(dst)) return false;
  if (src == dst) return rects_overlap(region, src_side, dst_side);
  /* Different views of one parent: compare their spans in the parent. */
  size_t src_begin = 0, src_end = 0, dst_begin = 0, dst_end = 0;
  rect_span(region, src_side, &src_begin, &src_end);
  rect_span(region, dst_side, &dst_begin, &dst_end);
  return ranges_overlap(src->origin + src_begin, src_end - src_begin,
                        dst->origin + dst_begin, dst_end - dst_begin);
}

static cl_int copy_buffer_rect(const clx_destination *to, cl_mem src_buffer,
                               cl_mem dst_buffer, const size_t *src_origin,
                               const size_t *dst_origin, const size_t *region,
                               size_t src_row_pitch, size_t src_slice_pitch,
                               size_t dst_row_pitch, size_t dst_slice_pitch) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_copy_buffers(command_queue, src_buffer, dst_buffer);
  if (error != CL_SUCCESS) return error;
  rect_side src_side = {src_origin, src_row_pitch, src_slice_pitch};
  rect_side dst_side = {dst_origin, dst_row_pitch, dst_slice_pitch};
  if (!region_valid(region) || !rect_in_buffer(src_buffer, region, &src_side) ||
      !rect_in_buffer(dst_buffer, region, &dst_side)) {
    return CL_INVALID_VALUE;
  }
  /* One buffer: both sides must describe it with the same pitches. */
  if (src_buffer == dst_buffer &&
      (src_side.row_pitch != dst_side.row_pitch ||
       src_side.slice_pitch != dst_side.slice_pitch)) {
    return CL_INVALID_VALUE;
  }
  if (copy_rects_overlap(src_buffer, dst_buffer, region, &src_side,
                         &dst_side)) {
    return CL_MEM_COPY_OVERLAP;
  }
  error = check_copy_alignment(command_queue, src_buffer, dst_buffer);
  if (error != CL_SUCCESS) return error;
  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_COPY_BUFFER_RECT, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_buffer_region_info_t info = mux_region(region, &src_side, &dst_side);
  mux_result_t result = muxCommandCopyBufferRegions(
      enqueue.command_buffer, src_buffer->mux_buffer, dst_buffer->mux_buffer,
      &info, 1, 0, NULL, NULL);
  if ((error = recorded(&enqueue, result)) != CL_SUCCESS) return error;
  clx_enqueue_hold(&enqueue, CLX_OBJ(src_buffer));
  clx_enqueue_hold(&enqueue, CLX_OBJ(dst_buffer));
  return clx_command_end(to, &enqueue);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return copy_buffer_rect(&to, src_buffer, dst_buffer, src_origin, dst_origin,
                          region, src_row_pitch, src_slice_pitch, dst_row_pitch,
                          dst_slice_pitch);
}

cl_int CL_API_CALL clx_command_copy_buffer_rect(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return copy_buffer_rect(&to, src_buffer, dst_buffer, src_origin, dst_origin,
                          region, src_row_pitch, src_slice_pitch, dst_row_pitch,
                          dst_slice_pitch);
}

/* ---- Map ----------------------------------------------------------------- */

static void *map_failed(cl_int error, cl_int *errcode_ret) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue,
                                     cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset,
                                     size_t size,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list,
                                     cl_event *event, cl_int *errcode_ret) {
  cl_int error = check_target(command_queue, buffer);
  if (error != CL_SUCCESS) return map_failed(error, errcode_ret);
  if (!range_valid(buffer, offset, size)) {
    return map_failed(CL_INVALID_VALUE, errcode_ret);
  }
  if ((error = clx_mem_check_map(buffer, map_flags)) != CL_SUCCESS ||
      (error = check_alignment(command_queue, buffer)) != CL_SUCCESS) {
    return map_failed(error, errcode_ret);
  }
  clx_enqueue enqueue;
  error = clx_enqueue_begin(command_queue, CL_COMMAND_MAP_BUFFER,
                            num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return map_failed(error, errcode_ret);
  /* Zero-copy: the buffer's own bytes (the user's with USE_HOST_PTR). */
  void *pointer = buffer->data + offset;
  if ((error = clx_mem_add_mapping(buffer, pointer, map_flags)) != CL_SUCCESS) {
    return map_failed(clx_enqueue_abort(&enqueue, error), errcode_ret);
  }
  clx_enqueue_hold(&enqueue, CLX_OBJ(buffer));
  error = clx_enqueue_end(&enqueue, event, blocking_map);
  if (error != CL_SUCCESS) {
    clx_mem_remove_mapping(buffer, pointer);
    return map_failed(error, errcode_ret);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return pointer;
}

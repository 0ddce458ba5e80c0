/* clmux OpenCL front-end: image reads, writes, copies, fills and maps, and
 * copies between images and buffers. Each command is recorded as the
 * matching Mux image command into the queue's batch (command_queue.c).
 *
 * OpenCL origins and regions are used as Mux offsets and extents unchanged:
 * both address the layers of a 1D array with y and of a 2D array with z.
 * On the host side Mux takes the stride of y and of z, so for a 1D array
 * the OpenCL slice pitch (bytes between layers) is Mux's row size. */
#include <math.h>
#include <string.h>

#include "clx.h"

/* ---- Checks ------------------------------------------------------------- */

static cl_int check_queue(cl_command_queue queue) {
  if (!clx_valid(queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return CL_SUCCESS;
}

/* CL_INVALID_MEM_OBJECT / CL_INVALID_CONTEXT for an image used on `queue`. */
static cl_int check_image(cl_command_queue queue, cl_mem image) {
  if (!clx_is_image(image)) return CL_INVALID_MEM_OBJECT;
  if (image->context != queue->context) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

static cl_int check_buffer(cl_command_queue queue, cl_mem buffer) {
  if (!clx_valid(buffer, clx_kind_mem) ||
      buffer->type != CL_MEM_OBJECT_BUFFER) {
    return CL_INVALID_MEM_OBJECT;
  }
  if (buffer->context != queue->context) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

/* The extent of an image in OpenCL (= Mux) coordinates; unused dimensions
 * are 1, so they only admit origin 0 and region 1. */
static void image_bounds(cl_mem image, size_t bounds[3]) {
  const cl_image_desc* d = &image->image_desc;
  bounds[0] = d->image_width;
  bounds[1] = 1;
  bounds[2] = 1;
  switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      bounds[1] = d->image_array_size;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      bounds[1] = d->image_height;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      bounds[1] = d->image_height;
      bounds[2] = d->image_array_size;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      bounds[1] = d->image_height;
      bounds[2] = d->image_depth;
      break;
    default:
      break;
  }
}

/* CL_INVALID_VALUE unless origin/region name a non-empty box inside the
 * image (the per-type rules on unused coordinates included). */
static cl_int check_region(cl_mem image, const size_t* origin,
                           const size_t* region) {
  if (!origin || !region) return CL_INVALID_VALUE;
  size_t bounds[3];
  image_bounds(image, bounds);
  for (int i = 0; i < 3; i++) {
    if (region[i] == 0 || region[i] > bounds[i] ||
        origin[i] > bounds[i] - region[i]) {
      return CL_INVALID_VALUE;
    }
  }
  return CL_SUCCESS;
}

static bool has_slices(cl_mem image) {
  cl_mem_object_type type = image->image_desc.image_type;
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
}

static bool is_1d_array(cl_mem image) {
  return image->image_desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
}

/* Host pitches of a read or write, checked, in Mux's terms (stride of y and
 * of z). 0 means packed. */
static cl_int host_pitches(cl_mem image, const size_t* region, size_t row_pitch,
                           size_t slice_pitch, uint64_t* mux_row,
                           uint64_t* mux_slice) {
  size_t packed_row = region[0] * image->element_size;
  if (row_pitch != 0 && row_pitch < packed_row) return CL_INVALID_VALUE;
  size_t row = row_pitch ? row_pitch : packed_row;
  if (!has_slices(image)) {
    if (slice_pitch != 0) return CL_INVALID_VALUE;
    *mux_row = row;
    *mux_slice = row * region[1];
    return CL_SUCCESS;
  }
  size_t rows = is_1d_array(image) ? 1 : region[1];
  size_t packed_slice = row * rows;
  if (slice_pitch != 0 && slice_pitch < packed_slice) return CL_INVALID_VALUE;
  size_t slice = slice_pitch ? slice_pitch : packed_slice;
  *mux_row = is_1d_array(image) ? slice : row;
  *mux_slice = slice;
  return CL_SUCCESS;
}

static cl_int check_device(cl_command_queue queue) {
  return queue->device->info->image_support ? CL_SUCCESS : CL_INVALID_OPERATION;
}

static mux_offset_3d_t mux_offset(const size_t* origin) {
  mux_offset_3d_t offset = {(uint32_t)origin[0], (uint32_t)origin[1],
                            (uint32_t)origin[2]};
  return offset;
}

static mux_extent_3d_t mux_extent(const size_t* region) {
  mux_extent_3d_t extent = {region[0], region[1], region[2]};
  return extent;
}

static size_t region_bytes(cl_mem image, const size_t* region) {
  return region[0] * region[1] * region[2] * image->element_size;
}

/* Holds what a recorded command uses, or abandons the command if its
 * recording failed. */
static cl_int hold_recorded(clx_enqueue* enqueue, mux_result_t recorded,
                            cl_mem first, cl_mem second) {
  if (recorded != mux_success) {
    return clx_enqueue_abort(enqueue, CL_OUT_OF_RESOURCES);
  }
  clx_enqueue_hold(enqueue, CLX_OBJ(first));
  if (second && second != first) clx_enqueue_hold(enqueue, CLX_OBJ(second));
  return CL_SUCCESS;
}

/* The tail every enqueue shares: holds, then ends. */
static cl_int finish(clx_enqueue* enqueue, mux_result_t recorded, cl_mem first,
                     cl_mem second, cl_event* event, bool blocking) {
  cl_int error = hold_recorded(enqueue, recorded, first, second);
  if (error != CL_SUCCESS) return error;
  return clx_enqueue_end(enqueue, event, blocking);
}

/* The same for a command that may go into a command buffer instead. */
static cl_int finish_at(const clx_destination* to, clx_enqueue* enqueue,
                        mux_result_t recorded, cl_mem first, cl_mem second) {
  cl_int error = hold_recorded(enqueue, recorded, first, second);
  if (error != CL_SUCCESS) return error;
  return clx_command_end(to, enqueue);
}

/* ---- Read and write ----------------------------------------------------- */

cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
    const size_t* origin, const size_t* region, size_t row_pitch,
    size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, image);
  if (error == CL_SUCCESS) error = check_region(image, origin, region);
  if (error != CL_SUCCESS) return error;
  if (!ptr) return CL_INVALID_VALUE;
  uint64_t mux_row = 0, mux_slice = 0;
  error =
      host_pitches(image, region, row_pitch, slice_pitch, &mux_row, &mux_slice);
  if (error != CL_SUCCESS) return error;
  if (!clx_mem_host_can_read(image)) return CL_INVALID_OPERATION;
  if ((error = check_device(command_queue)) != CL_SUCCESS) return error;

  clx_enqueue enqueue;
  error = clx_enqueue_begin(command_queue, CL_COMMAND_READ_IMAGE,
                            num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded = muxCommandReadImage(
      enqueue.command_buffer, image->mux_image, mux_offset(origin),
      mux_extent(region), mux_row, mux_slice, ptr, 0, NULL, NULL);
  return finish(&enqueue, recorded, image, NULL, event, blocking_read);
}

cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
    const size_t* origin, const size_t* region, size_t input_row_pitch,
    size_t input_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, image);
  if (error == CL_SUCCESS) error = check_region(image, origin, region);
  if (error != CL_SUCCESS) return error;
  if (!ptr) return CL_INVALID_VALUE;
  uint64_t mux_row = 0, mux_slice = 0;
  error = host_pitches(image, region, input_row_pitch, input_slice_pitch,
                       &mux_row, &mux_slice);
  if (error != CL_SUCCESS) return error;
  if (!clx_mem_host_can_write(image)) return CL_INVALID_OPERATION;
  if ((error = check_device(command_queue)) != CL_SUCCESS) return error;

  clx_enqueue enqueue;
  error = clx_enqueue_begin(command_queue, CL_COMMAND_WRITE_IMAGE,
                            num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded = muxCommandWriteImage(
      enqueue.command_buffer, image->mux_image, mux_offset(origin),
      mux_extent(region), mux_row, mux_slice, ptr, 0, NULL, NULL);
  return finish(&enqueue, recorded, image, NULL, event, blocking_write);
}

/* ---- Fill: the colour encoded as one pixel ------------------------------ */

/* float -> half, round to nearest even, with subnormals, infinities, NaN. */
static uint16_t float_to_half(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;  /* NaN */
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u; /* rounds to inf */
  uint32_t exponent = magnitude >> 23;
  if (exponent < 102) return sign; /* below half the smallest subnormal */
  uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  uint32_t shift, result;
  if (exponent < 113) {
    /* Subnormal half: units of 2^-24. */
    shift = 126 - exponent;
    result = mantissa >> shift;
  } else {
    shift = 13;
    result = ((exponent - 112) << 10) | ((mantissa & 0x7fffffu) >> 13);
  }
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  /* A carry out of the mantissa correctly bumps the exponent. */
  if (rest > halfway || (rest == halfway && (result & 1))) result++;
  return (uint16_t)(sign | result);
}

/* The sRGB transfer function (OpenCL 2.0, 8.3.2.1) of a linear value in
 * [0, 1] (NaN gives 0). */
static float linear_to_srgb(float value) {
  if (!(value > 0.0f)) return 0.0f;
  if (value > 1.0f) value = 1.0f;
  return value < 0.0031308f ? value * 12.92f
                            : 1.055f * powf(value, 1.0f / 2.4f) - 0.055f;
}

/* Normalized: clamp, scale, round to nearest even (NaN gives 0). */
static long normalize(float value, float lo, float scale) {
  if (!(value > lo)) value = lo; /* also NaN */
  if (value > 1.0f) value = 1.0f;
  return lrintf(value * scale);
}

static int64_t saturate(int64_t value, int64_t lo, int64_t hi) {
  return value < lo ? lo : value > hi ? hi : value;
}

static void store(uint8_t* out, size_t size, uint64_t value) {
  switch (size) {
    case 1: {
      uint8_t v = (uint8_t)value;
      memcpy(out, &v, 1);
      break;
    }
    case 2: {
      uint16_t v = (uint16_t)value;
      memcpy(out, &v, 2);
      break;
    }
    default: {
      uint32_t v = (uint32_t)value;
      memcpy(out, &v, 4);
      break;
    }
  }
}

/* One channel from component `c` of the fill colour (float4, int4 or uint4
 * by the channel type, as clEnqueueFillImage defines). */
static void encode_channel(cl_channel_type type, const void* color, int c,
                           uint8_t* out) {
  float f;
  int32_t i;
  uint32_t u;
  memcpy(&f, (const uint8_t*)color + 4 * c, 4);
  memcpy(&i, (const uint8_t*)color + 4 * c, 4);
  memcpy(&u, (const uint8_t*)color + 4 * c, 4);
  switch (type) {
    case CL_UNORM_INT8:
      store(out, 1, (uint64_t)normalize(f, 0.0f, 255.0f));
      break;
    case CL_UNORM_INT16:
      store(out, 2, (uint64_t)normalize(f, 0.0f, 65535.0f));
      break;
    case CL_SNORM_INT8:
      store(out, 1, (uint64_t)normalize(f, -1.0f, 127.0f));
      break;
    case CL_SNORM_INT16:
      store(out, 2, (uint64_t)normalize(f, -1.0f, 32767.0f));
      break;
    case CL_HALF_FLOAT:
      store(out, 2, float_to_half(f));
      break;
    case CL_FLOAT:
      memcpy(out, &f, 4);
      break;
    case CL_SIGNED_INT8:
      store(out, 1, (uint64_t)saturate(i, INT8_MIN, INT8_MAX));
      break;
    case CL_SIGNED_INT16:
      store(out, 2, (uint64_t)saturate(i, INT16_MIN, INT16_MAX));
      break;
    case CL_SIGNED_INT32:
      store(out, 4, (uint32_t)i);
      break;
    case CL_UNSIGNED_INT8:
      store(out, 1, u > UINT8_MAX ? UINT8_MAX : u);
      break;
    case CL_UNSIGNED_INT16:
      store(out, 2, u > UINT16_MAX ? UINT16_MAX : u);
      break;
    case CL_UNSIGNED_INT32:
      store(out, 4, u);
      break;
    default:
      break;
  }
}

/* The packed three-channel types: r, g, b in that order from the top. */
static uint32_t encode_packed(cl_channel_type type, const float* rgb) {
  switch (type) {
    case CL_UNORM_SHORT_565:
      return (uint32_t)(normalize(rgb[0], 0.0f, 31.0f) << 11 |
                        normalize(rgb[1], 0.0f, 63.0f) << 5 |
                        normalize(rgb[2], 0.0f, 31.0f));
    case CL_UNORM_SHORT_555:
      return (uint32_t)(normalize(rgb[0], 0.0f, 31.0f) << 10 |
                        normalize(rgb[1], 0.0f, 31.0f) << 5 |
                        normalize(rgb[2], 0.0f, 31.0f));
    default: /* CL_UNORM_INT_101010 */
      return (uint32_t)(normalize(rgb[0], 0.0f, 1023.0f) << 20 |
                        normalize(rgb[1], 0.0f, 1023.0f) << 10 |
                        normalize(rgb[2], 0.0f, 1023.0f));
  }
}

/* Writes one pixel of `format` for the colour; returns its size. Channels
 * are stored in the order's memory order: components 0..3 are r, g, b, a. */
static size_t encode_pixel(const cl_image_format* format, const void* color,
                           uint8_t pixel[16]) {
  static const int r[] = {0}, a[] = {3}, rg[] = {0, 1}, ra[] = {0, 3},
                   rgba[] = {0, 1, 2, 3}, bgra[] = {2, 1, 0, 3},
                   argb[] = {3, 0, 1, 2}, abgr[] = {3, 2, 1, 0};
  const int* channels = r;
  int count = 1;
  cl_channel_type type = format->image_channel_data_type;
  float encoded[4];
  switch (format->image_channel_order) {
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_sRGBx:
      /* The fill colour is linear: R, G and B are stored sRGB-encoded. */
      memcpy(encoded, color, sizeof encoded);
      for (int c = 0; c < 3; c++) encoded[c] = linear_to_srgb(encoded[c]);
      color = encoded;
      channels = format->image_channel_order == CL_sBGRA ? bgra : rgba;
      count = 4;
      break;
    case CL_A:
      channels = a;
      break;
    case CL_RG:
    case CL_RGx:
      channels = rg;
      count = 2;
      break;
    case CL_RA:
      channels = ra;
      count = 2;
      break;
    case CL_RGBA:
      channels = rgba;
      count = 4;
      break;
    case CL_BGRA:
      channels = bgra;
      count = 4;
      break;
    case CL_ARGB:
      channels = argb;
      count = 4;
      break;
    case CL_ABGR:
      channels = abgr;
      count = 4;
      break;
    case CL_RGB:
    case CL_RGBx: {
      float rgb[3];
      memcpy(rgb, color, sizeof(rgb));
      uint32_t packed = encode_packed(type, rgb);
      size_t size = clx_image_element_size(format);
      store(pixel, size, packed);
      return size;
    }
    default:
      break; /* R, Rx, INTENSITY, LUMINANCE: the red component */
  }
  size_t channel = clx_image_element_size(format) / (size_t)count;
  for (int c = 0; c < count; c++) {
    encode_channel(type, color, channels[c], pixel + c * channel);
  }
  return channel * (size_t)count;
}

static cl_int fill_image(const clx_destination* to, cl_mem image,
                         const void* fill_color, const size_t* origin,
                         const size_t* region) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, image);
  if (error != CL_SUCCESS) return error;
  if (!fill_color) return CL_INVALID_VALUE;
  if ((error = check_region(image, origin, region)) != CL_SUCCESS) {
    return error;
  }
  if ((error = check_device(command_queue)) != CL_SUCCESS) return error;
  uint8_t pixel[16] = {0};
  size_t size = encode_pixel(&image->image_format, fill_color, pixel);

  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_FILL_IMAGE, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded = muxCommandFillImage(
      enqueue.command_buffer, image->mux_image, pixel, (uint32_t)size,
      mux_offset(origin), mux_extent(region), 0, NULL, NULL);
  return finish_at(to, &enqueue, recorded, image, NULL);
}

cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue command_queue, cl_mem image, const void* fill_color,
    const size_t* origin, const size_t* region, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return fill_image(&to, image, fill_color, origin, region);
}

cl_int CL_API_CALL clx_command_fill_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr* properties, cl_mem image,
    const void* fill_color, const size_t* origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return fill_image(&to, image, fill_color, origin, region);
}

/* ---- Copies ------------------------------------------------------------- */

static bool boxes_overlap(const size_t* a, const size_t* b,
                          const size_t* region) {
  for (int i = 0; i < 3; i++) {
    if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i]) return false;
  }
  return true;
}

static bool same_format(const cl_image_format* a, const cl_image_format* b) {
  return a->image_channel_order == b->image_channel_order &&
         a->image_channel_data_type == b->image_channel_data_type;
}

static cl_int copy_image(const clx_destination* to, cl_mem src_image,
                         cl_mem dst_image, const size_t* src_origin,
                         const size_t* dst_origin, const size_t* region) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, src_image);
  if (error == CL_SUCCESS) error = check_image(command_queue, dst_image);
  if (error != CL_SUCCESS) return error;
  if (!same_format(&src_image->image_format, &dst_image->image_format)) {
    return CL_IMAGE_FORMAT_MISMATCH;
  }
  if ((error = check_region(src_image, src_origin, region)) != CL_SUCCESS ||
      (error = check_region(dst_image, dst_origin, region)) != CL_SUCCESS) {
    return error;
  }
  if (src_image == dst_image && boxes_overlap(src_origin, dst_origin, region)) {
    return CL_MEM_COPY_OVERLAP;
  }
  if ((error = check_device(command_queue)) != CL_SUCCESS) return error;

  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_COPY_IMAGE, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded = muxCommandCopyImage(
      enqueue.command_buffer, src_image->mux_image, dst_image->mux_image,
      mux_offset(src_origin), mux_offset(dst_origin), mux_extent(region), 0,
      NULL, NULL);
  return finish_at(to, &enqueue, recorded, src_image, dst_image);
}

cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
    const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return copy_image(&to, src_image, dst_image, src_origin, dst_origin, region);
}

cl_int CL_API_CALL clx_command_copy_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr* properties, cl_mem src_image,
    cl_mem dst_image, const size_t* src_origin, const size_t* dst_origin,
    const size_t* region, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return copy_image(&to, src_image, dst_image, src_origin, dst_origin, region);
}

/* The buffer side of an image <-> buffer copy: the packed bytes of the
 * region must fit, and a sub-buffer must start on the device's alignment. */
static cl_int check_buffer_span(cl_command_queue queue, cl_mem buffer,
                                size_t offset, size_t bytes) {
  if (offset > buffer->size || bytes > buffer->size - offset) {
    return CL_INVALID_VALUE;
  }
  if (buffer->parent &&
      !clx_mem_origin_aligned(queue->device, buffer->origin)) {
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  }
  return CL_SUCCESS;
}

static cl_int copy_image_to_buffer(const clx_destination* to, cl_mem src_image,
                                   cl_mem dst_buffer, const size_t* src_origin,
                                   const size_t* region, size_t dst_offset) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, src_image);
  if (error == CL_SUCCESS) error = check_buffer(command_queue, dst_buffer);
  if (error == CL_SUCCESS) error = check_region(src_image, src_origin, region);
  if (error == CL_SUCCESS) {
    error = check_buffer_span(command_queue, dst_buffer, dst_offset,
                              region_bytes(src_image, region));
  }
  if (error == CL_SUCCESS) error = check_device(command_queue);
  if (error != CL_SUCCESS) return error;

  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_COPY_IMAGE_TO_BUFFER, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded = muxCommandCopyImageToBuffer(
      enqueue.command_buffer, src_image->mux_image, dst_buffer->mux_buffer,
      mux_offset(src_origin), dst_offset, mux_extent(region), 0, NULL, NULL);
  return finish_at(to, &enqueue, recorded, src_image, dst_buffer);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
    const size_t* src_origin, const size_t* region, size_t dst_offset,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return copy_image_to_buffer(&to, src_image, dst_buffer, src_origin, region,
                              dst_offset);
}

cl_int CL_API_CALL clx_command_copy_image_to_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr* properties, cl_mem src_image,
    cl_mem dst_buffer, const size_t* src_origin, const size_t* region,
    size_t dst_offset, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return copy_image_to_buffer(&to, src_image, dst_buffer, src_origin, region,
                              dst_offset);
}

static cl_int copy_buffer_to_image(const clx_destination* to, cl_mem src_buffer,
                                   cl_mem dst_image, size_t src_offset,
                                   const size_t* dst_origin,
                                   const size_t* region) {
  cl_command_queue command_queue = to->queue;
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_buffer(command_queue, src_buffer);
  if (error == CL_SUCCESS) error = check_image(command_queue, dst_image);
  if (error == CL_SUCCESS) error = check_region(dst_image, dst_origin, region);
  if (error == CL_SUCCESS) {
    error = check_buffer_span(command_queue, src_buffer, src_offset,
                              region_bytes(dst_image, region));
  }
  if (error == CL_SUCCESS) error = check_device(command_queue);
  if (error != CL_SUCCESS) return error;

  clx_enqueue enqueue;
  error = clx_command_begin(to, CL_COMMAND_COPY_BUFFER_TO_IMAGE, &enqueue);
  if (error != CL_SUCCESS) return error;
  mux_result_t recorded;
  if (src_offset <= UINT32_MAX) {
    recorded = muxCommandCopyBufferToImage(
        enqueue.command_buffer, src_buffer->mux_buffer, dst_image->mux_image,
        (uint32_t)src_offset, mux_offset(dst_origin), mux_extent(region), 0,
        NULL, NULL);
  } else {
    /* Mux's source offset is 32-bit; the buffer is host memory, so a packed
     * write from its bytes does the same at run time. */
    recorded = muxCommandWriteImage(
        enqueue.command_buffer, dst_image->mux_image, mux_offset(dst_origin),
        mux_extent(region), 0, 0, src_buffer->data + src_offset, 0, NULL, NULL);
  }
  return finish_at(to, &enqueue, recorded, src_buffer, dst_image);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t* dst_origin, const size_t* region,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return copy_buffer_to_image(&to, src_buffer, dst_image, src_offset,
                              dst_origin, region);
}

cl_int CL_API_CALL clx_command_copy_buffer_to_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr* properties, cl_mem src_buffer,
    cl_mem dst_image, size_t src_offset, const size_t* dst_origin,
    const size_t* region, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return copy_buffer_to_image(&to, src_buffer, dst_image, src_offset,
                              dst_origin, region);
}

/* ---- Map ---------------------------------------------------------------- */

void* CL_API_CALL clEnqueueMapImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
    cl_map_flags map_flags, const size_t* origin, const size_t* region,
    size_t* image_row_pitch, size_t* image_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event, cl_int* errcode_ret) {
  cl_int error = check_queue(command_queue);
  if (error == CL_SUCCESS) error = check_image(command_queue, image);
  if (error == CL_SUCCESS) error = check_region(image, origin, region);
  if (error == CL_SUCCESS && !image_row_pitch) error = CL_INVALID_VALUE;
  if (error == CL_SUCCESS && has_slices(image) && !image_slice_pitch) {
    error = CL_INVALID_VALUE;
  }
  if (error == CL_SUCCESS) error = clx_mem_check_map(image, map_flags);
  if (error == CL_SUCCESS) error = check_device(command_queue);
  clx_enqueue enqueue;
  if (error == CL_SUCCESS) {
    error =
        clx_enqueue_begin(command_queue, CL_COMMAND_MAP_IMAGE,
                          num_events_in_wait_list, event_wait_list, &enqueue);
  }
  if (error != CL_SUCCESS) {
    if (errcode_ret) *errcode_ret = error;
    return NULL;
  }

  /* Zero-copy: the pixel's own address, with the image's own pitches. */
  const cl_image_desc* d = &image->image_desc;
  size_t y_stride =
      is_1d_array(image) ? d->image_slice_pitch : d->image_row_pitch;
  uint8_t* pointer = image->data + origin[0] * image->element_size +
                     origin[1] * y_stride + origin[2] * d->image_slice_pitch;
  error = clx_mem_add_mapping(image, pointer, map_flags);
  if (error != CL_SUCCESS) {
    clx_enqueue_abort(&enqueue, error);
  } else {
    clx_enqueue_hold(&enqueue, CLX_OBJ(image));
    error = clx_enqueue_end(&enqueue, event, blocking_map);
    if (error != CL_SUCCESS) clx_mem_remove_mapping(image, pointer);
  }
  if (error == CL_SUCCESS) {
    *image_row_pitch = d->image_row_pitch;
    if (image_slice_pitch) {
      *image_slice_pitch = has_slices(image) ? d->image_slice_pitch : 0;
    }
  }
  if (errcode_ret) *errcode_ret = error;
  return error == CL_SUCCESS ? pointer : NULL;
}

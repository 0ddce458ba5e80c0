/* clmux builtin library: image writes (OpenCL 1.2 section 6.12.14.4,
 * conversions of section 8.3), 3D included (cl_khr_3d_image_writes).
 * Writes outside the image (undefined in the spec) are dropped rather
 * than let loose on memory. */

#include "image_internal.h"

typedef const clmux_image_view *image_view;

/* ---- Encoding one pixel ------------------------------------------------- */

/* Channels a pixel stores, in memory order (packed types aside). */
static uint stored_channels(uint order) {
  switch (order) {
    case CLK_RG: case CLK_RA: case CLK_RGx: return 2;
    case CLK_RGB: case CLK_RGBx: return 3;
    case CLK_RGBA: case CLK_BGRA: case CLK_ARGB: case CLK_ABGR:
    case CLK_sRGBA: case CLK_sBGRA: case CLK_sRGBx:
      return 4;
    default: return 1;
  }
}

/* (R, G, B, A) in the order the pixel stores its channels; one-channel
 * orders other than A (INTENSITY, LUMINANCE too) store R. Works on float
 * bits and integers alike. */
static int4 to_memory_order(uint order, int4 c) {
  switch (order) {
    case CLK_A: return c.wwww;
    case CLK_RA: return c.xwzw;
    case CLK_BGRA: case CLK_sBGRA: return c.zyxw;
    case CLK_ARGB: return c.wxyz;
    case CLK_ABGR: return c.wzyx;
    default: return c;
  }
}

/* Stores channel c of the pixel at p from its stored value (float bits
 * for HALF_FLOAT, rounded to nearest even, and FLOAT). */
static void store_channel(__global uchar *p, uint type, uint c, int value) {
  switch (type) {
    case CLK_SNORM_INT8: case CLK_SIGNED_INT8:
    case CLK_UNORM_INT8: case CLK_UNSIGNED_INT8:
      p[c] = (uchar)value;
      break;
    case CLK_SNORM_INT16: case CLK_SIGNED_INT16:
    case CLK_UNORM_INT16: case CLK_UNSIGNED_INT16:
      ((__global ushort *)p)[c] = (ushort)value;
      break;
    case CLK_HALF_FLOAT:
      vstore_half_rte(as_float(value), c, (__global half *)p);
      break;
    default: /* SIGNED_INT32, UNSIGNED_INT32, FLOAT */
      ((__global int *)p)[c] = value;
  }
}

/* Stores the memory-order channel values m; packed types take their
 * fields (R, G, B) from m.xyz. */
static void store_channels(__global uchar *p, uint type, uint order,
                           int4 m) {
  switch (type) {
    case CLK_UNORM_SHORT_565:
      *(__global ushort *)p = (ushort)(m.x << 11 | m.y << 5 | m.z);
      return;
    case CLK_UNORM_SHORT_555:
      *(__global ushort *)p = (ushort)(m.x << 10 | m.y << 5 | m.z);
      return;
    case CLK_UNORM_INT_101010:
      *(__global uint *)p = (uint)(m.x << 20 | m.y << 10 | m.z);
      return;
  }
  uint count = stored_channels(order);
  for (uint c = 0; c < count; c++) store_channel(p, type, c, m[c]);
}

/* write_imagef's stored values (section 8.3.1.2): normalized types round
 * to nearest even and saturate, NaN becoming 0; float types keep the
 * float's bits (HALF_FLOAT rounds when stored). Integer types are
 * undefined for write_imagef; they get the rounded value. */
static int4 float_to_channels(uint type, float4 f) {
  float4 v = select(f, (float4)0.0f, isnan(f));
  switch (type) {
    case CLK_UNORM_INT8:
      return convert_int4(convert_uchar4_sat_rte(v * 255.0f));
    case CLK_UNORM_INT16:
      return convert_int4(convert_ushort4_sat_rte(v * 65535.0f));
    case CLK_SNORM_INT8:
      return convert_int4(convert_char4_sat_rte(v * 127.0f));
    case CLK_SNORM_INT16:
      return convert_int4(convert_short4_sat_rte(v * 32767.0f));
    case CLK_UNORM_SHORT_565: {
      int4 top = (int4)(31, 63, 31, 0);
      return clamp(convert_int4_sat_rte(v * convert_float4(top)), 0, top);
    }
    case CLK_UNORM_SHORT_555:
      return clamp(convert_int4_sat_rte(v * 31.0f), 0, 31);
    case CLK_UNORM_INT_101010:
      return clamp(convert_int4_sat_rte(v * 1023.0f), 0, 1023);
    case CLK_HALF_FLOAT: case CLK_FLOAT: return as_int4(f);
    default: return convert_int4_sat_rte(f);
  }
}

/* write_imagei/ui's stored values: saturated to the channel type. Other
 * types are undefined for these writes; they get the value saturated to
 * int. */
static int4 ints_to_channels(uint type, long4 v) {
  switch (type) {
    case CLK_SIGNED_INT8: return convert_int4(clamp(v, -128L, 127L));
    case CLK_UNSIGNED_INT8: return convert_int4(clamp(v, 0L, 255L));
    case CLK_SIGNED_INT16: return convert_int4(clamp(v, -32768L, 32767L));
    case CLK_UNSIGNED_INT16: return convert_int4(clamp(v, 0L, 65535L));
    case CLK_UNSIGNED_INT32:
      return as_int4(convert_uint4(clamp(v, 0L, (long)UINT_MAX)));
    default: return convert_int4_sat(v);
  }
}

/* ---- Writing one pixel -------------------------------------------------- */

/* The pixel (x, y, z) if it lies within extents w x h x d, else NULL. */
static __global uchar *pixel_at(image_view v, int x, int y, int z, uint w,
                                uint h, uint d) {
  if ((uint)x >= w || (uint)y >= h || (uint)z >= d) return 0;
  return v->data + (ulong)x * v->pixel_size + (ulong)y * v->row_pitch +
         (ulong)z * v->slice_pitch;
}

/* Stores `color` (float bits, or ints, or uints if `is_unsigned`) at p
 * in any format: out of line, like __clmux_cold_decode (image_read.cl),
 * so that a work-item loop writing an image can be unswitched on the
 * format and vectorized on the CL_RGBA/CL_FLOAT path (inlined in the
 * version of a kernel for one format, likewise). */
void __clmux_cold_encode(__global uchar *p, uint order, uint type,
                         int4 color, bool as_float, bool is_unsigned);
/* Linear R, G and B as sRGB-encoded values (cl_khr_srgb_image_writes:
 * the inverse of image_read.cl's), for 8-bit storage; alpha stays. */
static float4 linear_to_srgb(float4 c) {
  float3 v = clamp(select(c.xyz, (float3)0.0f, isnan(c.xyz)), 0.0f, 1.0f);
  float3 low = v * 12.92f;
  float3 high = 1.055f * pow(v, 1.0f / 2.4f) - 0.055f;
  return (float4)(select(high, low, isless(v, 0.0031308f)), c.w);
}

void __clmux_cold_encode(__global uchar *p, uint order, uint type,
                         int4 color, bool as_float, bool is_unsigned) {
  if (as_float &&
      (order == CLK_sRGBA || order == CLK_sBGRA || order == CLK_sRGBx)) {
    color = as_int4(linear_to_srgb(as_float4(color)));
  }
  int4 m = to_memory_order(order, color);
  if (as_float) {
    m = float_to_channels(type, as_float4(m));
  } else {
    m = ints_to_channels(type, is_unsigned ? convert_long4(as_uint4(m))
                                           : convert_long4(m));
  }
  store_channels(p, type, order, m);
}

static void put_float(image_view v, __global uchar *p, float4 color) {
  if (!p) return;
  if (v->channel_order == CLK_RGBA && v->channel_type == CLK_FLOAT) {
    vstore4(color, 0, (__global float *)p);
    return;
  }
  __clmux_cold_encode(p, v->channel_order, v->channel_type, as_int4(color),
                      true, false);
}

/* color holds ints, or uints if `is_unsigned`. */
static void put_ints(image_view v, __global uchar *p, int4 color,
                     bool is_unsigned) {
  if (!p) return;
  __clmux_cold_encode(p, v->channel_order, v->channel_type, color, false,
                      is_unsigned);
}

/* Where each image type's coordinate lands: 1D arrays keep their layers
 * in rows, 2D arrays in slices. */
static __global uchar *at_1d(image_view v, int x) {
  return pixel_at(v, x, 0, 0, v->width, 1, 1);
}
static __global uchar *at_1d_array(image_view v, int2 c) {
  return pixel_at(v, c.x, c.y, 0, v->width, v->array_size, 1);
}
static __global uchar *at_2d(image_view v, int2 c) {
  return pixel_at(v, c.x, c.y, 0, v->width, v->height, 1);
}
static __global uchar *at_2d_array(image_view v, int4 c) {
  return pixel_at(v, c.x, c.y, c.z, v->width, v->height, v->array_size);
}
static __global uchar *at_3d(image_view v, int4 c) {
  return pixel_at(v, c.x, c.y, c.z, v->width, v->height, v->depth);
}

/* ---- The builtins ------------------------------------------------------- */

/* Each write for write_only and (OpenCL C 2.0 on) read_write images. */
#define WRITE_ONE(T, C, AT, S, R, PUT)                                      \
  CLMUX_OVL void write_image##S(write_only T image, C coord, R color) {     \
    CLMUX_OPEN_VIEW(view, image);                                           \
    PUT(&view, AT(&view, coord), color);                                    \
  }                                                                         \
  CLMUX_OVL void write_image##S(read_write T image, C coord, R color) {     \
    CLMUX_OPEN_VIEW(view, image);                                           \
    PUT(&view, AT(&view, coord), color);                                    \
  }
#define WRITES(S, R, PUT)                                                   \
  WRITE_ONE(image1d_t, int, at_1d, S, R, PUT)                               \
  WRITE_ONE(image1d_buffer_t, int, at_1d, S, R, PUT)                        \
  WRITE_ONE(image1d_array_t, int2, at_1d_array, S, R, PUT)                  \
  WRITE_ONE(image2d_t, int2, at_2d, S, R, PUT)                              \
  WRITE_ONE(image2d_array_t, int4, at_2d_array, S, R, PUT)                  \
  WRITE_ONE(image3d_t, int4, at_3d, S, R, PUT)

#define PUT_INT(v, p, color) put_ints(v, p, color, false)
#define PUT_UINT(v, p, color) put_ints(v, p, as_int4(color), true)
WRITES(f, float4, put_float)
/* Depth images (cl_khr_depth_images) take the one channel's float. */
#define PUT_DEPTH(v, p, depth)                                              \
  put_float(v, p, (float4)(depth, 0.0f, 0.0f, 1.0f))
WRITE_ONE(image2d_depth_t, int2, at_2d, f, float, PUT_DEPTH)
WRITE_ONE(image2d_array_depth_t, int4, at_2d_array, f, float, PUT_DEPTH)
WRITES(i, int4, PUT_INT)
WRITES(ui, uint4, PUT_UINT)

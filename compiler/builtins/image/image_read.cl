/* clmux builtin library: image reads (OpenCL 1.2 sections 6.12.14.2 and
 * 6.12.14.3), with the addressing and filtering of section 8.2 and the
 * conversions of section 8.3.
 *
 * One pixel decoder (texel) serves every read: it returns the RGBA
 * result as bits, float bits for read_imagef and integers for
 * read_imagei/ui, so nearest sampling is written once for all three. */

#include "image_internal.h"

typedef const clmux_image_view *image_view;

#define ADDRESS_MASK 0xEu
#define FLOAT_ONE_BITS 0x3f800000 /* as_int(1.0f) */

/* ---- Decoding one pixel ------------------------------------------------- */

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

/* Channel c of the pixel at p: integers sign- or zero-extended as the
 * type says, HALF_FLOAT widened to float bits, FLOAT's bits. */
static int load_channel(const __global uchar *p, uint type, uint c) {
  switch (type) {
    case CLK_SNORM_INT8: case CLK_SIGNED_INT8:
      return ((const __global char *)p)[c];
    case CLK_UNORM_INT8: case CLK_UNSIGNED_INT8:
      return p[c];
    case CLK_SNORM_INT16: case CLK_SIGNED_INT16:
      return ((const __global short *)p)[c];
    case CLK_UNORM_INT16: case CLK_UNSIGNED_INT16:
      return ((const __global ushort *)p)[c];
    case CLK_HALF_FLOAT:
      return as_int(vload_half(c, (const __global half *)p));
    default: /* SIGNED_INT32, UNSIGNED_INT32, FLOAT */
      return ((const __global int *)p)[c];
  }
}

/* The stored channels of the pixel at p in memory order; packed types
 * give their fields (R, G, B). */
static int4 load_channels(const __global uchar *p, uint type, uint order) {
  uint packed;
  switch (type) {
    case CLK_UNORM_SHORT_565:
      packed = *(const __global ushort *)p;
      return (int4)(packed >> 11, packed >> 5 & 63, packed & 31, 0);
    case CLK_UNORM_SHORT_555:
      packed = *(const __global ushort *)p;
      return (int4)(packed >> 10 & 31, packed >> 5 & 31, packed & 31, 0);
    case CLK_UNORM_INT_101010:
      packed = *(const __global uint *)p;
      return (int4)(packed >> 20 & 1023, packed >> 10 & 1023, packed & 1023,
                    0);
  }
  int4 m = 0;
  uint count = stored_channels(order);
  for (uint c = 0; c < count; c++) m[c] = load_channel(p, type, c);
  return m;
}

/* Stored channel values as read_imagef returns them (section 8.3.1.1).
 * Integer types are undefined for read_imagef; they give their values. */
static float4 channels_to_float(uint type, int4 m) {
  float4 v = convert_float4(m);
  switch (type) {
    case CLK_UNORM_INT8: return v / 255.0f;
    case CLK_UNORM_INT16: return v / 65535.0f;
    case CLK_SNORM_INT8: return max(v / 127.0f, -1.0f);
    case CLK_SNORM_INT16: return max(v / 32767.0f, -1.0f);
    case CLK_UNORM_SHORT_565: return v / (float4)(31.0f, 63.0f, 31.0f, 1.0f);
    case CLK_UNORM_SHORT_555: return v / 31.0f;
    case CLK_UNORM_INT_101010: return v / 1023.0f;
    case CLK_HALF_FLOAT: case CLK_FLOAT: return as_float4(m);
    default: return v;
  }
}

/* Memory-order channels m as (R, G, B, A), missing channels 0 and alpha
 * `one` (1 or 1.0f's bits); works on float bits and integers alike. */
static int4 to_rgba(uint order, int4 m, int one) {
  switch (order) {
    case CLK_A: return (int4)(0, 0, 0, m.x);
    case CLK_RG: case CLK_RGx: return (int4)(m.x, m.y, 0, one);
    case CLK_RA: return (int4)(m.x, 0, 0, m.y);
    case CLK_RGB: case CLK_RGBx: case CLK_sRGBx: return (int4)(m.xyz, one);
    case CLK_RGBA: case CLK_sRGBA: return m;
    case CLK_BGRA: case CLK_sBGRA: return m.zyxw;
    case CLK_ARGB: return m.yzwx;
    case CLK_ABGR: return m.wzyx;
    case CLK_INTENSITY: return m.xxxx;
    case CLK_LUMINANCE: return (int4)(m.xxx, one);
    default: /* CLK_R, CLK_Rx */ return (int4)(m.x, 0, 0, one);
  }
}

/* CLK_ADDRESS_CLAMP's border colour (section 8.3): opaque black for the
 * orders without alpha, else transparent black. */
static int4 border_color(uint order, int one) {
  bool opaque = order == CLK_R || order == CLK_RG || order == CLK_RGB ||
                order == CLK_LUMINANCE || order == CLK_sRGBx;
  return (int4)(0, 0, 0, opaque ? one : 0);
}

/* The pixel at p as read_imagef (`as_float`, float bits) or
 * read_imagei/ui return it: every format's decoding, kept out of line
 * (codegen inlines no __clmux_cold_* function) so that a work-item loop
 * reading an image stays small enough to be unswitched on the image's
 * format and vectorized on the CL_RGBA/CL_FLOAT path. In the version of a
 * kernel for one format (codegen's image_versions.c) it is inlined, and
 * the format folds away. */
int4 __clmux_cold_decode(const __global uchar *p, uint order, uint type,
                         bool as_float);
static bool is_srgb(uint order) {
  return order == CLK_sRGBA || order == CLK_sBGRA || order == CLK_sRGBx;
}

/* sRGB-encoded R, G and B as linear values (OpenCL 2.0, section 8.3.1.1:
 * the sRGB transfer function); alpha is linear already. */
static float4 srgb_to_linear(float4 c) {
  float3 low = c.xyz / 12.92f;
  float3 high = pow((c.xyz + 0.055f) / 1.055f, 2.4f);
  return (float4)(select(high, low, isless(c.xyz, 0.04045f)), c.w);
}

int4 __clmux_cold_decode(const __global uchar *p, uint order, uint type,
                         bool as_float) {
  int4 m = load_channels(p, type, order);
  if (as_float) {
    float4 f = channels_to_float(type, m);
    if (is_srgb(order)) f = srgb_to_linear(f);
    m = as_int4(f);
  }
  return to_rgba(order, m, as_float ? FLOAT_ONE_BITS : 1);
}

/* Pixel (x, y, z) as read_imagef (`as_float`, float bits) or
 * read_imagei/ui return it, or the border colour if not `inside`. */
static int4 texel(image_view v, bool inside, int x, int y, int z,
                  bool as_float) {
  if (!inside) {
    return border_color(v->channel_order, as_float ? FLOAT_ONE_BITS : 1);
  }
  const __global uchar *p = v->data + (ulong)x * v->pixel_size +
                            (ulong)y * v->row_pitch +
                            (ulong)z * v->slice_pitch;
  if (v->channel_order == CLK_RGBA && v->channel_type == CLK_FLOAT) {
    return vload4(0, (const __global int *)p);
  }
  return __clmux_cold_decode(p, v->channel_order, v->channel_type, as_float);
}

static float4 texel_f(image_view v, bool inside, int x, int y, int z) {
  return as_float4(texel(v, inside, x, y, z, true));
}

/* ---- Addressing (section 8.2) ------------------------------------------- */

static bool within(int i, uint size) { return (uint)i < size; }

/* Whether texel (i, j, k), addressed by `sampler`, lies within extents
 * w x h x d: always after CLAMP_TO_EDGE's integer clamp (said outright,
 * so that such reads compile without a border branch). */
static bool inside(uint sampler, int i, int w, int j, int h, int k, int d) {
  return (sampler & ADDRESS_MASK) == CLK_ADDRESS_CLAMP_TO_EDGE ||
         (within(i, w) && within(j, h) && within(k, d));
}

/* floor()ed coordinates as indices; NaN and huge values land far outside
 * any image (the border) without overflowing. */
static int to_index(float f) {
  return (int)clamp(f, -1073741824.0f, 1073741824.0f);
}

/* MIRRORED_REPEAT's folded coordinate. */
static float mirror(float s) { return fabs(s - 2.0f * rint(0.5f * s)); }

/* The nearest texel along an axis of `size` texels for coordinate s; an
 * index outside [0, size) stands for the border colour (CLAMP, and NONE,
 * whose out-of-range reads the spec leaves undefined). */
static int address_nearest(float s, int size, uint sampler) {
  switch (sampler & ADDRESS_MASK) {
    case CLK_ADDRESS_REPEAT: {
      int i = to_index(floor((s - floor(s)) * size));
      return i > size - 1 ? i - size : i;
    }
    case CLK_ADDRESS_MIRRORED_REPEAT:
      return min(to_index(floor(mirror(s) * size)), size - 1);
  }
  float u = sampler & CLK_NORMALIZED_COORDS_TRUE ? s * size : s;
  int i = to_index(floor(u));
  if ((sampler & ADDRESS_MASK) == CLK_ADDRESS_CLAMP_TO_EDGE) {
    i = clamp(i, 0, size - 1);
  }
  return i;
}

/* Integer coordinates: only the unnormalized nearest modes are defined;
 * every mode but CLAMP_TO_EDGE reads the border outside. */
static int address_int(int i, int size, uint sampler) {
  if ((sampler & ADDRESS_MASK) == CLK_ADDRESS_CLAMP_TO_EDGE) {
    return clamp(i, 0, size - 1);
  }
  return i;
}

/* The two texels linear filtering blends along one axis and the weight of
 * the second, frac(u - 0.5). */
typedef struct linear_taps {
  int i0, i1;
  float weight;
} linear_taps;

static linear_taps address_linear(float s, int size, uint sampler) {
  uint mode = sampler & ADDRESS_MASK;
  float u;
  if (mode == CLK_ADDRESS_REPEAT) {
    u = (s - floor(s)) * size;
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    u = mirror(s) * size;
  } else {
    u = sampler & CLK_NORMALIZED_COORDS_TRUE ? s * size : s;
  }
  float below = floor(u - 0.5f);
  linear_taps taps = {to_index(below), to_index(below) + 1,
                      (u - 0.5f) - below};
  if (mode == CLK_ADDRESS_REPEAT) {
    if (taps.i0 < 0) taps.i0 += size;
    if (taps.i1 > size - 1) taps.i1 -= size;
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    taps.i0 = max(taps.i0, 0);
    taps.i1 = min(taps.i1, size - 1);
  } else if (mode == CLK_ADDRESS_CLAMP_TO_EDGE) {
    taps.i0 = clamp(taps.i0, 0, size - 1);
    taps.i1 = clamp(taps.i1, 0, size - 1);
  }
  return taps;
}

/* An array's layer: the coordinate rounded to the nearest integer and
 * clamped to the layers (never normalized, never the border). */
static int layer_of(image_view v, float layer) {
  return clamp(to_index(rint(layer)), 0, (int)v->array_size - 1);
}

static int layer_of_int(image_view v, int layer) {
  return clamp(layer, 0, (int)v->array_size - 1);
}

/* ---- Sampling, per dimension family ------------------------------------- */

static bool linear(uint sampler) {
  return (sampler & CLK_FILTER_LINEAR) == CLK_FILTER_LINEAR;
}

/* 1D and the rows of a 1D array: float coordinate s in row `row`. Linear
 * filtering applies to read_imagef only (undefined for the others). */
static int4 sample_1d(image_view v, uint sampler, float s, int row,
                      bool as_float) {
  int w = (int)v->width;
  if (!(as_float && linear(sampler))) {
    int i = address_nearest(s, w, sampler);
    return texel(v, inside(sampler, i, w, 0, 1, 0, 1), i, row, 0, as_float);
  }
  linear_taps a = address_linear(s, w, sampler);
  float4 t0 = texel_f(v, inside(sampler, a.i0, w, 0, 1, 0, 1), a.i0, row, 0);
  float4 t1 = texel_f(v, inside(sampler, a.i1, w, 0, 1, 0, 1), a.i1, row, 0);
  return as_int4((1.0f - a.weight) * t0 + a.weight * t1);
}

/* 2D and the slices of a 2D array: bilinear. */
static int4 sample_2d(image_view v, uint sampler, float2 st, int slice,
                      bool as_float) {
  int w = (int)v->width, h = (int)v->height;
  if (!(as_float && linear(sampler))) {
    int i = address_nearest(st.x, w, sampler);
    int j = address_nearest(st.y, h, sampler);
    return texel(v, inside(sampler, i, w, j, h, 0, 1), i, j, slice, as_float);
  }
  linear_taps a = address_linear(st.x, w, sampler);
  linear_taps b = address_linear(st.y, h, sampler);
  float4 t00 = texel_f(v, inside(sampler, a.i0, w, b.i0, h, 0, 1), a.i0, b.i0,
                       slice);
  float4 t10 = texel_f(v, inside(sampler, a.i1, w, b.i0, h, 0, 1), a.i1, b.i0,
                       slice);
  float4 t01 = texel_f(v, inside(sampler, a.i0, w, b.i1, h, 0, 1), a.i0, b.i1,
                       slice);
  float4 t11 = texel_f(v, inside(sampler, a.i1, w, b.i1, h, 0, 1), a.i1, b.i1,
                       slice);
  float wa = a.weight, wb = b.weight;
  return as_int4((1.0f - wa) * (1.0f - wb) * t00 + wa * (1.0f - wb) * t10 +
                 (1.0f - wa) * wb * t01 + wa * wb * t11);
}

/* 3D: trilinear. */
static int4 sample_3d(image_view v, uint sampler, float4 str, bool as_float) {
  int w = (int)v->width, h = (int)v->height, d = (int)v->depth;
  if (!(as_float && linear(sampler))) {
    int i = address_nearest(str.x, w, sampler);
    int j = address_nearest(str.y, h, sampler);
    int k = address_nearest(str.z, d, sampler);
    return texel(v, inside(sampler, i, w, j, h, k, d), i, j, k, as_float);
  }
  linear_taps a = address_linear(str.x, w, sampler);
  linear_taps b = address_linear(str.y, h, sampler);
  linear_taps c = address_linear(str.z, d, sampler);
  float4 sum = 0.0f;
  for (int n = 0; n < 8; n++) {
    int i = n & 1 ? a.i1 : a.i0, j = n & 2 ? b.i1 : b.i0;
    int k = n & 4 ? c.i1 : c.i0;
    float weight = (n & 1 ? a.weight : 1.0f - a.weight) *
                   (n & 2 ? b.weight : 1.0f - b.weight) *
                   (n & 4 ? c.weight : 1.0f - c.weight);
    sum += weight * texel_f(v, inside(sampler, i, w, j, h, k, d), i, j, k);
  }
  return as_int4(sum);
}

/* Integer coordinates (with a sampler, or without one: then `sampler` is
 * 0, CLK_ADDRESS_NONE). x, y, z are within the image or the border. */
static int4 load_3d(image_view v, uint sampler, int x, int y, int z,
                    bool as_float) {
  int w = (int)v->width, h = (int)v->height, d = (int)v->depth;
  int i = address_int(x, w, sampler), j = address_int(y, h, sampler);
  int k = address_int(z, d, sampler);
  return texel(v, inside(sampler, i, w, j, h, k, d), i, j, k, as_float);
}

/* The same for an array's layer `layer` (already clamped): of a 1D array
 * at row `layer`, of a 2D array at slice `layer`. */
static int4 load_1d_layer(image_view v, uint sampler, int x, int layer,
                          bool as_float) {
  int w = (int)v->width;
  int i = address_int(x, w, sampler);
  return texel(v, inside(sampler, i, w, 0, 1, 0, 1), i, layer, 0, as_float);
}

static int4 load_2d_layer(image_view v, uint sampler, int2 xy, int layer,
                          bool as_float) {
  int w = (int)v->width, h = (int)v->height;
  int i = address_int(xy.x, w, sampler), j = address_int(xy.y, h, sampler);
  return texel(v, inside(sampler, i, w, j, h, 0, 1), i, j, layer, as_float);
}

/* ---- The builtins ------------------------------------------------------- */

#define OPEN(image) CLMUX_OPEN_VIEW(view, image); image_view v = &view
#define BITS(sampler) __clmux_sampler_bits(sampler)

/* read_image<S> returning R (its bits converted by AS); F: as float. */
#define READS(S, R, AS, F)                                                  \
  CLMUX_OVL R read_image##S(read_only image1d_t im, sampler_t s, float c) { \
    OPEN(im);                                                               \
    return AS(sample_1d(v, BITS(s), c, 0, F));                              \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image1d_t im, sampler_t s, int c) {   \
    OPEN(im);                                                               \
    return AS(load_3d(v, BITS(s), c, 0, 0, F));                             \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image1d_array_t im, sampler_t s,      \
                            float2 c) {                                     \
    OPEN(im);                                                               \
    return AS(sample_1d(v, BITS(s), c.x, layer_of(v, c.y), F));             \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image1d_array_t im, sampler_t s,      \
                            int2 c) {                                       \
    OPEN(im);                                                               \
    return AS(load_1d_layer(v, BITS(s), c.x, layer_of_int(v, c.y), F));     \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_t im, sampler_t s, float2 c) {\
    OPEN(im);                                                               \
    return AS(sample_2d(v, BITS(s), c, 0, F));                              \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_t im, sampler_t s, int2 c) {  \
    OPEN(im);                                                               \
    return AS(load_3d(v, BITS(s), c.x, c.y, 0, F));                         \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_array_t im, sampler_t s,      \
                            float4 c) {                                     \
    OPEN(im);                                                               \
    return AS(sample_2d(v, BITS(s), c.xy, layer_of(v, c.z), F));            \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_array_t im, sampler_t s,      \
                            int4 c) {                                       \
    OPEN(im);                                                               \
    return AS(load_2d_layer(v, BITS(s), c.xy, layer_of_int(v, c.z), F));    \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image3d_t im, sampler_t s, float4 c) {\
    OPEN(im);                                                               \
    return AS(sample_3d(v, BITS(s), c, F));                                 \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image3d_t im, sampler_t s, int4 c) {  \
    OPEN(im);                                                               \
    return AS(load_3d(v, BITS(s), c.x, c.y, c.z, F));                       \
  }                                                                         \
  /* Sampler-less (1.2): unnormalized, ADDRESS_NONE, nearest. */            \
  CLMUX_OVL R read_image##S(read_only image1d_t im, int c) {                \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c, 0, 0, F));                                   \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image1d_buffer_t im, int c) {         \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c, 0, 0, F));                                   \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image1d_array_t im, int2 c) {         \
    OPEN(im);                                                               \
    return AS(load_1d_layer(v, 0, c.x, layer_of_int(v, c.y), F));           \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_t im, int2 c) {               \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c.x, c.y, 0, F));                               \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image2d_array_t im, int4 c) {         \
    OPEN(im);                                                               \
    return AS(load_2d_layer(v, 0, c.xy, layer_of_int(v, c.z), F));          \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_only image3d_t im, int4 c) {               \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c.x, c.y, c.z, F));                             \
  }

/* read_write images (OpenCL C 2.0 on) are read without a sampler. */
#define READ_WRITE_READS(S, R, AS, F)                                       \
  CLMUX_OVL R read_image##S(read_write image1d_t im, int c) {               \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c, 0, 0, F));                                   \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_write image1d_buffer_t im, int c) {        \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c, 0, 0, F));                                   \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_write image1d_array_t im, int2 c) {        \
    OPEN(im);                                                               \
    return AS(load_1d_layer(v, 0, c.x, layer_of_int(v, c.y), F));           \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_write image2d_t im, int2 c) {              \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c.x, c.y, 0, F));                               \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_write image2d_array_t im, int4 c) {        \
    OPEN(im);                                                               \
    return AS(load_2d_layer(v, 0, c.xy, layer_of_int(v, c.z), F));          \
  }                                                                         \
  CLMUX_OVL R read_image##S(read_write image3d_t im, int4 c) {              \
    OPEN(im);                                                               \
    return AS(load_3d(v, 0, c.x, c.y, c.z, F));                             \
  }

/* Depth images (cl_khr_depth_images): the one channel of read_imagef. */
#define DEPTH(bits) as_float4(bits).x
CLMUX_OVL float read_imagef(read_only image2d_depth_t im, sampler_t s,
                            float2 c) {
  OPEN(im);
  return DEPTH(sample_2d(v, BITS(s), c, 0, true));
}
CLMUX_OVL float read_imagef(read_only image2d_depth_t im, sampler_t s,
                            int2 c) {
  OPEN(im);
  return DEPTH(load_3d(v, BITS(s), c.x, c.y, 0, true));
}
CLMUX_OVL float read_imagef(read_only image2d_array_depth_t im, sampler_t s,
                            float4 c) {
  OPEN(im);
  return DEPTH(sample_2d(v, BITS(s), c.xy, layer_of(v, c.z), true));
}
CLMUX_OVL float read_imagef(read_only image2d_array_depth_t im, sampler_t s,
                            int4 c) {
  OPEN(im);
  return DEPTH(load_2d_layer(v, BITS(s), c.xy, layer_of_int(v, c.z), true));
}
#define DEPTH_SAMPLERLESS(A)                                                \
  CLMUX_OVL float read_imagef(A image2d_depth_t im, int2 c) {               \
    OPEN(im);                                                               \
    return DEPTH(load_3d(v, 0, c.x, c.y, 0, true));                         \
  }                                                                         \
  CLMUX_OVL float read_imagef(A image2d_array_depth_t im, int4 c) {         \
    OPEN(im);                                                               \
    return DEPTH(load_2d_layer(v, 0, c.xy, layer_of_int(v, c.z), true));    \
  }
DEPTH_SAMPLERLESS(read_only)
DEPTH_SAMPLERLESS(read_write)

READS(f, float4, as_float4, true)
READS(i, int4, , false)
READS(ui, uint4, as_uint4, false)
READ_WRITE_READS(f, float4, as_float4, true)
READ_WRITE_READS(i, int4, , false)
READ_WRITE_READS(ui, uint4, as_uint4, false)

/* clmux CPU target: image formats. A format is an OpenCL channel order and
 * channel type (see mux.h); this file knows which pairs OpenCL allows (1.2's
 * and 2.0's sRGB orders and ABGR),
 * how many bytes a pixel of each takes, and which ones the target offers. */
#include "../target.h"
#include "cpu.h"

/* Bytes per channel; 0 for the packed types, whose size is per pixel. */
static uint32_t cpu_channel_type_size(uint32_t type) {
  switch (type) {
    case MUX_TYPE_SNORM_INT8:
    case MUX_TYPE_UNORM_INT8:
    case MUX_TYPE_SIGNED_INT8:
    case MUX_TYPE_UNSIGNED_INT8:
      return 1;
    case MUX_TYPE_SNORM_INT16:
    case MUX_TYPE_UNORM_INT16:
    case MUX_TYPE_SIGNED_INT16:
    case MUX_TYPE_UNSIGNED_INT16:
    case MUX_TYPE_HALF_FLOAT:
      return 2;
    case MUX_TYPE_SIGNED_INT32:
    case MUX_TYPE_UNSIGNED_INT32:
    case MUX_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

static uint32_t cpu_packed_type_size(uint32_t type) {
  switch (type) {
    case MUX_TYPE_UNORM_SHORT_565:
    case MUX_TYPE_UNORM_SHORT_555:
      return 2;
    case MUX_TYPE_UNORM_INT_101010:
      return 4;
    default:
      return 0;
  }
}

/* INTENSITY and LUMINANCE replicate one normalized or floating value. */
static bool cpu_is_normalized_or_float(uint32_t type) {
  switch (type) {
    case MUX_TYPE_UNORM_INT8:
    case MUX_TYPE_UNORM_INT16:
    case MUX_TYPE_SNORM_INT8:
    case MUX_TYPE_SNORM_INT16:
    case MUX_TYPE_HALF_FLOAT:
    case MUX_TYPE_FLOAT:
      return true;
    default:
      return false;
  }
}

uint32_t cpu_image_format_pixel_size(mux_image_format_e format) {
  uint32_t order = MUX_IMAGE_FORMAT_ORDER(format);
  uint32_t type = MUX_IMAGE_FORMAT_TYPE(format);
  uint32_t channel = cpu_channel_type_size(type);
  switch (order) {
    case MUX_ORDER_R:
    case MUX_ORDER_A:
    case MUX_ORDER_Rx:
      return channel;
    case MUX_ORDER_DEPTH:
      return type == MUX_TYPE_FLOAT || type == MUX_TYPE_UNORM_INT16 ? channel
                                                                    : 0;
    case MUX_ORDER_RG:
    case MUX_ORDER_RA:
    case MUX_ORDER_RGx:
      return 2 * channel;
    case MUX_ORDER_RGBA:
      return 4 * channel;
    case MUX_ORDER_INTENSITY:
    case MUX_ORDER_LUMINANCE:
      return cpu_is_normalized_or_float(type) ? channel : 0;
    case MUX_ORDER_BGRA:
    case MUX_ORDER_ARGB:
    case MUX_ORDER_ABGR:
      return channel == 1 ? 4 : 0;
    case MUX_ORDER_sRGBx:
    case MUX_ORDER_sRGBA:
    case MUX_ORDER_sBGRA:
      return type == MUX_TYPE_UNORM_INT8 ? 4 : 0;
    case MUX_ORDER_RGB:
    case MUX_ORDER_RGBx:
      /* OpenCL 1.2 has three-channel pixels only in the packed types. */
      return cpu_packed_type_size(type);
    default:
      return 0;
  }
}

/* ---- The formats the target offers -------------------------------------- */

static const uint32_t cpu_all_plain_types[] = {
    MUX_TYPE_SNORM_INT8,     MUX_TYPE_SNORM_INT16,     MUX_TYPE_UNORM_INT8,
    MUX_TYPE_UNORM_INT16,    MUX_TYPE_SIGNED_INT8,     MUX_TYPE_SIGNED_INT16,
    MUX_TYPE_SIGNED_INT32,   MUX_TYPE_UNSIGNED_INT8,   MUX_TYPE_UNSIGNED_INT16,
    MUX_TYPE_UNSIGNED_INT32, MUX_TYPE_HALF_FLOAT,      MUX_TYPE_FLOAT};
static const uint32_t cpu_8bit_types[] = {
    MUX_TYPE_SNORM_INT8, MUX_TYPE_UNORM_INT8, MUX_TYPE_SIGNED_INT8,
    MUX_TYPE_UNSIGNED_INT8};
static const uint32_t cpu_unorm8_type[] = {MUX_TYPE_UNORM_INT8};
static const uint32_t cpu_depth_types[] = {MUX_TYPE_UNORM_INT16,
                                           MUX_TYPE_FLOAT};
static const uint32_t cpu_normalized_or_float_types[] = {
    MUX_TYPE_UNORM_INT8, MUX_TYPE_UNORM_INT16, MUX_TYPE_SNORM_INT8,
    MUX_TYPE_SNORM_INT16, MUX_TYPE_HALF_FLOAT, MUX_TYPE_FLOAT};

#define CPU_COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const struct cpu_format_group {
  uint32_t order;
  const uint32_t *types;
  uint32_t type_count;
} cpu_supported_groups[] = {
    {MUX_ORDER_R, cpu_all_plain_types, CPU_COUNT_OF(cpu_all_plain_types)},
    {MUX_ORDER_A, cpu_all_plain_types, CPU_COUNT_OF(cpu_all_plain_types)},
    {MUX_ORDER_RG, cpu_all_plain_types, CPU_COUNT_OF(cpu_all_plain_types)},
    {MUX_ORDER_RA, cpu_all_plain_types, CPU_COUNT_OF(cpu_all_plain_types)},
    {MUX_ORDER_RGBA, cpu_all_plain_types, CPU_COUNT_OF(cpu_all_plain_types)},
    {MUX_ORDER_BGRA, cpu_8bit_types, CPU_COUNT_OF(cpu_8bit_types)},
    {MUX_ORDER_ARGB, cpu_8bit_types, CPU_COUNT_OF(cpu_8bit_types)},
    {MUX_ORDER_ABGR, cpu_8bit_types, CPU_COUNT_OF(cpu_8bit_types)},
    {MUX_ORDER_sRGBA, cpu_unorm8_type, 1},
    {MUX_ORDER_sBGRA, cpu_unorm8_type, 1},
    {MUX_ORDER_sRGBx, cpu_unorm8_type, 1},
    /* 2D images and 2D arrays only (cl_khr_depth_images). */
    {MUX_ORDER_DEPTH, cpu_depth_types, CPU_COUNT_OF(cpu_depth_types)},
    {MUX_ORDER_INTENSITY, cpu_normalized_or_float_types,
     CPU_COUNT_OF(cpu_normalized_or_float_types)},
    {MUX_ORDER_LUMINANCE, cpu_normalized_or_float_types,
     CPU_COUNT_OF(cpu_normalized_or_float_types)},
};

/* Every image type and allocation type supports the same list (images
 * are plain host memory whatever their shape), but for depth images, which
 * are 2D (and 2D arrays, the same Mux type) only. */
mux_result_t cpuGetSupportedImageFormats(mux_device_t device,
                                         mux_image_type_e image_type,
                                         mux_allocation_type_e allocation_type,
                                         uint32_t count,
                                         mux_image_format_e *out_formats,
                                         uint32_t *out_count) {
  (void)device;
  (void)allocation_type;
  uint32_t total = 0;
  for (size_t g = 0; g < CPU_COUNT_OF(cpu_supported_groups); g++) {
    const struct cpu_format_group *group = &cpu_supported_groups[g];
    if (group->order == MUX_ORDER_DEPTH && image_type != mux_image_type_2d) {
      continue;
    }
    for (uint32_t t = 0; t < group->type_count; t++, total++) {
      if (out_formats && total < count) {
        out_formats[total] = MUX_IMAGE_FORMAT(group->order, group->types[t]);
      }
    }
  }
  if (out_count) *out_count = total;
  return mux_success;
}

/* clmux builtin library: what image functions see of their arguments.
 *
 * clmux_image_view mirrors cpu_image_view of the CPU target's work-group
 * ABI (include/clmux/cpu_abi/work_group_abi.h); the two must change
 * together.
 * __clmux_image_view and __clmux_sampler_bits (image_handles.ll) turn
 * OpenCL C's opaque image and sampler handles into it and into the
 * sampler's CLK_* bits. */
#ifndef CLMUX_IMAGE_INTERNAL_H
#define CLMUX_IMAGE_INTERNAL_H

#include "builtins_internal.h"

typedef struct clmux_image_view {
  __global uchar *data; /* pixel (0, 0, 0) */
  ulong row_pitch;      /* bytes; the layers of a 1D array step by rows */
  ulong slice_pitch;    /* bytes; the layers of a 2D array step by slices */
  uint width;           /* pixels; 1 where the type has no such extent */
  uint height;
  uint depth;
  uint array_size;    /* layers of an array image, else 0 */
  uint channel_order; /* CLK_R, CLK_RGBA, ... */
  uint channel_type;  /* CLK_UNORM_INT8, CLK_FLOAT, ... */
  uint pixel_size;    /* bytes */
  uint dimensions;    /* 1, 2 or 3 */
} clmux_image_view;

#define CLMUX_IMAGE_VIEW(T)                                                 \
  const __global clmux_image_view *CLMUX_OVL __clmux_image_view(T);
CLMUX_IMAGE_VIEW(read_only image1d_t)
CLMUX_IMAGE_VIEW(write_only image1d_t)
CLMUX_IMAGE_VIEW(read_only image1d_buffer_t)
CLMUX_IMAGE_VIEW(write_only image1d_buffer_t)
CLMUX_IMAGE_VIEW(read_only image1d_array_t)
CLMUX_IMAGE_VIEW(write_only image1d_array_t)
CLMUX_IMAGE_VIEW(read_only image2d_t)
CLMUX_IMAGE_VIEW(write_only image2d_t)
CLMUX_IMAGE_VIEW(read_only image2d_array_t)
CLMUX_IMAGE_VIEW(write_only image2d_array_t)
CLMUX_IMAGE_VIEW(read_only image3d_t)
CLMUX_IMAGE_VIEW(write_only image3d_t)
CLMUX_IMAGE_VIEW(read_write image1d_t)
CLMUX_IMAGE_VIEW(read_write image1d_buffer_t)
CLMUX_IMAGE_VIEW(read_write image1d_array_t)
CLMUX_IMAGE_VIEW(read_write image2d_t)
CLMUX_IMAGE_VIEW(read_write image2d_array_t)
CLMUX_IMAGE_VIEW(read_write image3d_t)
/* cl_khr_depth_images: one channel, read and written as a float. */
CLMUX_IMAGE_VIEW(read_only image2d_depth_t)
CLMUX_IMAGE_VIEW(write_only image2d_depth_t)
CLMUX_IMAGE_VIEW(read_write image2d_depth_t)
CLMUX_IMAGE_VIEW(read_only image2d_array_depth_t)
CLMUX_IMAGE_VIEW(write_only image2d_array_depth_t)
CLMUX_IMAGE_VIEW(read_write image2d_array_depth_t)
#undef CLMUX_IMAGE_VIEW

/* Copies *view into *out with loads the optimizer may treat as invariant
 * (image_handles.ll): image functions work on such a private copy, so a
 * work-item loop hoists the view and can be unswitched on its format. */
void __clmux_image_load_view(const __global clmux_image_view *view,
                             clmux_image_view *out);

/* Declares `name`, a copy of `image`'s view. */
#define CLMUX_OPEN_VIEW(name, image)                                        \
  clmux_image_view name;                                                    \
  __clmux_image_load_view(__clmux_image_view(image), &name)

/* The sampler's CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_* and CLK_FILTER_*
 * bits. */
uint __clmux_sampler_bits(sampler_t sampler);

#endif /* CLMUX_IMAGE_INTERNAL_H */

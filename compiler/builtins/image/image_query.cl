/* clmux builtin library: image queries (OpenCL 1.2 section 6.12.14.5),
 * read straight from the image's view. */

#include "image_internal.h"

/* M(access, type) for every image type and access the language has. */
#define EACH_IMAGE(M)                                                       \
  M(read_only, image1d_t) M(write_only, image1d_t)                          \
  M(read_only, image1d_buffer_t) M(write_only, image1d_buffer_t)            \
  M(read_only, image1d_array_t) M(write_only, image1d_array_t)              \
  M(read_only, image2d_t) M(write_only, image2d_t)                          \
  M(read_only, image2d_array_t) M(write_only, image2d_array_t)              \
  M(read_only, image3d_t) M(write_only, image3d_t)                          \
  M(read_write, image1d_t) M(read_write, image1d_buffer_t)                  \
  M(read_write, image1d_array_t) M(read_write, image2d_t)                   \
  M(read_write, image2d_array_t) M(read_write, image3d_t)                  \
  M(read_only, image2d_depth_t) M(write_only, image2d_depth_t)              \
  M(read_write, image2d_depth_t) M(read_only, image2d_array_depth_t)        \
  M(write_only, image2d_array_depth_t) M(read_write, image2d_array_depth_t)

#define EVERY_IMAGE_QUERIES(A, T)                                           \
  CLMUX_OVL int get_image_width(A T image) {                                \
    return (int)__clmux_image_view(image)->width;                           \
  }                                                                         \
  CLMUX_OVL int get_image_channel_data_type(A T image) {                    \
    return (int)__clmux_image_view(image)->channel_type;                    \
  }                                                                         \
  CLMUX_OVL int get_image_channel_order(A T image) {                        \
    return (int)__clmux_image_view(image)->channel_order;                   \
  }
EACH_IMAGE(EVERY_IMAGE_QUERIES)

/* Types with a height: 2D, 2D arrays (the height of a layer) and 3D. */
#define HEIGHT_QUERIES(A, T)                                                \
  CLMUX_OVL int get_image_height(A T image) {                               \
    return (int)__clmux_image_view(image)->height;                          \
  }
HEIGHT_QUERIES(read_only, image2d_t)
HEIGHT_QUERIES(write_only, image2d_t)
HEIGHT_QUERIES(read_only, image2d_array_t)
HEIGHT_QUERIES(write_only, image2d_array_t)
HEIGHT_QUERIES(read_only, image3d_t)
HEIGHT_QUERIES(write_only, image3d_t)
HEIGHT_QUERIES(read_write, image2d_t)
HEIGHT_QUERIES(read_write, image2d_array_t)
HEIGHT_QUERIES(read_write, image3d_t)
HEIGHT_QUERIES(read_only, image2d_depth_t)
HEIGHT_QUERIES(write_only, image2d_depth_t)
HEIGHT_QUERIES(read_write, image2d_depth_t)
HEIGHT_QUERIES(read_only, image2d_array_depth_t)
HEIGHT_QUERIES(write_only, image2d_array_depth_t)
HEIGHT_QUERIES(read_write, image2d_array_depth_t)

#define DIM2_QUERY(A, T)                                                    \
  CLMUX_OVL int2 get_image_dim(A T image) {                                 \
    const __global clmux_image_view *view = __clmux_image_view(image);      \
    return (int2)((int)view->width, (int)view->height);                     \
  }
DIM2_QUERY(read_only, image2d_t)
DIM2_QUERY(write_only, image2d_t)
DIM2_QUERY(read_only, image2d_array_t)
DIM2_QUERY(write_only, image2d_array_t)
DIM2_QUERY(read_write, image2d_t)
DIM2_QUERY(read_write, image2d_array_t)
DIM2_QUERY(read_only, image2d_depth_t)
DIM2_QUERY(write_only, image2d_depth_t)
DIM2_QUERY(read_write, image2d_depth_t)
DIM2_QUERY(read_only, image2d_array_depth_t)
DIM2_QUERY(write_only, image2d_array_depth_t)
DIM2_QUERY(read_write, image2d_array_depth_t)

#define IMAGE3D_QUERIES(A)                                                  \
  CLMUX_OVL int get_image_depth(A image3d_t image) {                        \
    return (int)__clmux_image_view(image)->depth;                           \
  }                                                                         \
  CLMUX_OVL int4 get_image_dim(A image3d_t image) {                         \
    const __global clmux_image_view *view = __clmux_image_view(image);      \
    return (int4)((int)view->width, (int)view->height, (int)view->depth,    \
                  0);                                                       \
  }
IMAGE3D_QUERIES(read_only)
IMAGE3D_QUERIES(write_only)
IMAGE3D_QUERIES(read_write)

#define ARRAY_SIZE_QUERY(A, T)                                              \
  CLMUX_OVL size_t get_image_array_size(A T image) {                        \
    return (size_t)__clmux_image_view(image)->array_size;                   \
  }
ARRAY_SIZE_QUERY(read_only, image1d_array_t)
ARRAY_SIZE_QUERY(write_only, image1d_array_t)
ARRAY_SIZE_QUERY(read_only, image2d_array_t)
ARRAY_SIZE_QUERY(write_only, image2d_array_t)
ARRAY_SIZE_QUERY(read_write, image1d_array_t)
ARRAY_SIZE_QUERY(read_write, image2d_array_t)
ARRAY_SIZE_QUERY(read_only, image2d_array_depth_t)
ARRAY_SIZE_QUERY(write_only, image2d_array_depth_t)
ARRAY_SIZE_QUERY(read_write, image2d_array_depth_t)

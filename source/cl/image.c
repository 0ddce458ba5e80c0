/* clmux OpenCL front-end: images, supported formats, image info.
 *
 * An image is a cl_mem (mem.c makes the header and the storage) plus a Mux
 * image laid over that storage. Mux addresses the layers of a 1D array with
 * y and those of a 2D array with z, exactly the coordinates OpenCL uses, so
 * origins and regions pass through unchanged. The image keeps the pitches
 * the user gave with a host pointer (USE_HOST_PTR is zero-copy, and
 * COPY_HOST_PTR then copies the bytes as they are) or a buffer it is made
 * over; otherwise it is packed. Descriptors are checked in image_layout.c. */
#include <stdlib.h>

#include "clx.h"

/* ---- Formats ------------------------------------------------------------ */

static size_t channel_size(cl_channel_type type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
      return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
      return 4;
    default:
      return 0; /* packed or unknown */
  }
}

static bool normalized_or_float(cl_channel_type type) {
  switch (type) {
    case CL_UNORM_INT8:
    case CL_UNORM_INT16:
    case CL_SNORM_INT8:
    case CL_SNORM_INT16:
    case CL_HALF_FLOAT:
    case CL_FLOAT:
      return true;
    default:
      return false;
  }
}

size_t clx_image_element_size(const cl_image_format *format) {
  cl_channel_type type = format->image_channel_data_type;
  size_t channel = channel_size(type);
  switch (format->image_channel_order) {
    case CL_R:
    case CL_A:
    case CL_Rx:
      return channel;
    case CL_DEPTH:
      return type == CL_FLOAT || type == CL_UNORM_INT16 ? channel : 0;
    case CL_RG:
    case CL_RA:
    case CL_RGx:
      return 2 * channel;
    case CL_RGBA:
      return 4 * channel;
    case CL_INTENSITY:
    case CL_LUMINANCE:
      return normalized_or_float(type) ? channel : 0;
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
      return channel == 1 ? 4 : 0;
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA:
      /* sRGB colour (OpenCL 2.0) is stored as 8-bit unorm only. */
      return type == CL_UNORM_INT8 ? 4 : 0;
    case CL_RGB:
    case CL_RGBx:
      /* Three channels exist only in the packed types. */
      if (type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555) return 2;
      return type == CL_UNORM_INT_101010 ? 4 : 0;
    default:
      return 0;
  }
}

static mux_image_type_e mux_type_of(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return mux_image_type_2d;
    case CL_MEM_OBJECT_IMAGE3D:
      return mux_image_type_3d;
    default:
      return mux_image_type_1d;
  }
}

bool clx_image_type_valid(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      return true;
    default:
      return false;
  }
}

/* Host-pointer images sit in host memory; the others in device memory. */
static mux_allocation_type_e allocation_of(cl_mem_flags flags) {
  return (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR))
             ? mux_allocation_type_alloc_host
             : mux_allocation_type_alloc_device;
}

/* Whether `device` offers `format` for images of `type`. */
static bool device_supports(cl_device_id device, cl_mem_object_type type,
                            cl_mem_flags flags, mux_image_format_e format) {
  uint32_t count = 0;
  mux_image_type_e mux_type = mux_type_of(type);
  mux_allocation_type_e allocation = allocation_of(flags);
  if (muxGetSupportedImageFormats(device->mux_device, mux_type, allocation, 0,
                                  NULL, &count) != mux_success ||
      count == 0) {
    return false;
  }
  mux_image_format_e *formats = malloc(count * sizeof(*formats));
  if (!formats) return false;
  bool found = false;
  if (muxGetSupportedImageFormats(device->mux_device, mux_type, allocation,
                                  count, formats, &count) == mux_success) {
    for (uint32_t i = 0; i < count && !found; i++) found = formats[i] == format;
  }
  free(formats);
  return found;
}

static bool context_supports(cl_context context, cl_mem_object_type type,
                             cl_mem_flags flags, const cl_image_format *f) {
  mux_image_format_e format =
      MUX_IMAGE_FORMAT(f->image_channel_order, f->image_channel_data_type);
  for (cl_uint i = 0; i < context->num_devices; i++) {
    if (!device_supports(context->devices[i], type, flags, format)) {
      return false;
    }
  }
  return true;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context,
                                              cl_mem_flags flags,
                                              cl_mem_object_type image_type,
                                              cl_uint num_entries,
                                              cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  /* OpenCL 2.0 asks with CL_MEM_KERNEL_READ_AND_WRITE for the formats of
   * read-write images: a kernel reads and writes every format it has. */
  if (CLX_OPENCL_VERSION >= CL_MAKE_VERSION(2, 0, 0)) {
    flags &= ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE;
  }
  if (clx_mem_check_flags(flags) != CL_SUCCESS) return CL_INVALID_VALUE;
  if (!clx_image_type_valid(image_type)) return CL_INVALID_VALUE;
  if (num_entries == 0 && image_formats != NULL) return CL_INVALID_VALUE;

  /* The first device's list, kept where every other device agrees. */
  cl_device_id first = context->devices[0];
  mux_image_type_e mux_type = mux_type_of(image_type);
  uint32_t count = 0;
  if (muxGetSupportedImageFormats(first->mux_device, mux_type,
                                  allocation_of(flags), 0, NULL,
                                  &count) != mux_success) {
    return CL_OUT_OF_RESOURCES;
  }
  mux_image_format_e *formats = malloc((count ? count : 1) * sizeof(*formats));
  if (!formats) return CL_OUT_OF_HOST_MEMORY;
  if (count && muxGetSupportedImageFormats(first->mux_device, mux_type,
                                           allocation_of(flags), count, formats,
                                           &count) != mux_success) {
    free(formats);
    return CL_OUT_OF_RESOURCES;
  }
  cl_uint total = 0;
  for (uint32_t i = 0; i < count; i++) {
    cl_image_format format = {MUX_IMAGE_FORMAT_ORDER(formats[i]),
                              MUX_IMAGE_FORMAT_TYPE(formats[i])};
    bool everywhere = clx_image_element_size(&format) != 0;
    for (cl_uint d = 1; d < context->num_devices && everywhere; d++) {
      everywhere =
          device_supports(context->devices[d], image_type, flags, formats[i]);
    }
    if (!everywhere) continue;
    if (image_formats && total < num_entries) image_formats[total] = format;
    total++;
  }
  free(formats);
  if (num_image_formats) *num_image_formats = total;
  return CL_SUCCESS;
}

/* ---- Creation ----------------------------------------------------------- */

/* A 1D-buffer image takes its buffer's flags where it gives none, and may
 * not ask for more access than the buffer allows (OpenCL 1.2, 5.3.1). */
static cl_int buffer_image_flags(cl_mem buffer, cl_mem_flags *flags) {
  const cl_mem_flags access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags host =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  const cl_mem_flags pointer =
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
  if (*flags & pointer) return CL_INVALID_VALUE;
  cl_mem_flags parent = buffer->flags;
  if (!(*flags & access)) {
    *flags |= parent & access;
  } else if (((parent & CL_MEM_WRITE_ONLY) &&
              (*flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
             ((parent & CL_MEM_READ_ONLY) &&
              (*flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
    return CL_INVALID_VALUE;
  }
  if (!(*flags & host)) {
    *flags |= parent & host;
  } else if (((parent & CL_MEM_HOST_WRITE_ONLY) &&
              (*flags & CL_MEM_HOST_READ_ONLY)) ||
             ((parent & CL_MEM_HOST_READ_ONLY) &&
              (*flags & CL_MEM_HOST_WRITE_ONLY)) ||
             ((parent & CL_MEM_HOST_NO_ACCESS) &&
              (*flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

/* Every check of clCreateImage in the specification's order. */
static cl_int check_image(cl_context context, cl_mem_flags *flags,
                          const cl_image_format *format,
                          const cl_image_desc *desc, void *host_ptr,
                          cl_image_desc *layout, size_t *element) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  cl_int error = clx_mem_check_flags(*flags);
  if (error != CL_SUCCESS) return error;
  *element = format ? clx_image_element_size(format) : 0;
  if (*element == 0) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  error = clx_image_check_descriptor(desc, *element, host_ptr, layout);
  if (error != CL_SUCCESS) return error;
  if (clx_image_over_image(desc) &&
      !clx_image_view_format_allowed(format, &desc->buffer->image_format)) {
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  }
  if (clx_image_over_buffer(desc)) {
    error = buffer_image_flags(desc->buffer, flags);
    if (error != CL_SUCCESS) return error;
    if (desc->buffer->context != context) return CL_INVALID_CONTEXT;
  }
  error = clx_image_check_size(context, desc);
  if (error != CL_SUCCESS) return error;
  if (clx_image_over_buffer(desc)) {
    /* The image takes its pitches' bytes of the buffer, the last row's and
     * slice's padding too (CL_IMAGE_REQUIREMENTS_SIZE_EXT). */
    size_t need = 0;
    if (!clx_image_bytes(layout, *element, &need) ||
        need > desc->buffer->size) {
      return CL_INVALID_IMAGE_SIZE;
    }
  }
  error = clx_mem_check_host_ptr(*flags, host_ptr);
  if (error != CL_SUCCESS) return error;
  if (!context_supports(context, desc->image_type, *flags, format)) {
    return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  }
  bool images = false;
  for (cl_uint i = 0; i < context->num_devices; i++) {
    images = images || context->devices[i]->info->image_support;
  }
  return images ? CL_SUCCESS : CL_INVALID_OPERATION;
}

bool clx_image_over_buffer(const cl_image_desc *desc) {
  if (!desc->buffer) return false;
  if (desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) return true;
  /* cl_ext_image_from_buffer (OpenCL 3.0): every kind of image. */
  return CLX_OPENCL_VERSION >= CL_MAKE_VERSION(3, 0, 0) &&
         clx_image_type_valid(desc->image_type);
}

/* The Mux image over the object's storage: memory and offset are the
 * object's own, or its buffer's for an image over a buffer. */
static cl_int bind_mux_image(cl_mem image, mux_memory_t memory,
                             uint64_t offset) {
  const cl_image_desc *d = &image->image_desc;
  mux_device_t device = clx_mem_mux_device(image->context);
  uint32_t height = 1, depth = 1, layers = 0;
  uint64_t row = d->image_row_pitch, slice = d->image_slice_pitch;
  /* A 1D-buffer image is one row: its pitch is only reported, and a packed
   * layout keeps the image inside the buffer. */
  if (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) row = 0;
  switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      layers = (uint32_t)d->image_array_size;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      height = (uint32_t)d->image_height;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      height = (uint32_t)d->image_height;
      layers = (uint32_t)d->image_array_size;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      height = (uint32_t)d->image_height;
      depth = (uint32_t)d->image_depth;
      break;
    default:
      break;
  }
  mux_image_format_e format =
      MUX_IMAGE_FORMAT(image->image_format.image_channel_order,
                       image->image_format.image_channel_data_type);
  mux_image_t mux_image = NULL;
  if (muxCreateImage(device, mux_type_of(d->image_type), format,
                     (uint32_t)d->image_width, height, depth, layers, row,
                     slice, clx_allocator, &mux_image) != mux_success) {
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  if (muxBindImageMemory(device, memory, mux_image, offset) != mux_success) {
    muxDestroyImage(device, mux_image, clx_allocator);
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  image->mux_image = mux_image;
  return CL_SUCCESS;
}

/* The Mux memory holding `mem`'s bytes and where they start in it: its
 * own, or (sub-buffers, images over a buffer or an image) its parent's at
 * the sub-buffer's origin. */
static bool storage_of(cl_mem mem, mux_memory_t *memory, uint64_t *offset) {
  uint64_t at = 0;
  for (int depth = 0; mem && depth < 4; depth++) {
    if (mem->mux_memory) {
      *memory = mem->mux_memory;
      *offset = at;
      return true;
    }
    if (mem->type == CL_MEM_OBJECT_BUFFER) at += mem->origin;
    mem = mem->parent;
  }
  return false;
}

/* An image over a buffer or another image uses that object's bytes and
 * holds it. */
static cl_int share_storage(cl_mem image, cl_mem source) {
  clx_hold(CLX_OBJ(source));
  image->parent = source;
  image->data = source->data;
  mux_memory_t memory = NULL;
  uint64_t offset = 0;
  if (!storage_of(source, &memory, &offset)) return CL_INVALID_MEM_OBJECT;
  return bind_mux_image(image, memory, offset);
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format,
                                 const cl_image_desc *image_desc,
                                 void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc layout;
  size_t element = 0, bytes = 0;
  cl_int error = check_image(context, &flags, image_format, image_desc,
                             host_ptr, &layout, &element);
  if (error == CL_SUCCESS && !clx_image_bytes(&layout, element, &bytes)) {
    error = CL_INVALID_IMAGE_SIZE;
  }
  cl_mem image = NULL;
  if (error == CL_SUCCESS) {
    image = clx_mem_create(context, layout.image_type, flags, bytes, host_ptr,
                           &error);
  }
  if (image) {
    image->image_format = *image_format;
    image->image_desc = layout;
    image->element_size = element;
    if (clx_image_over_buffer(&layout)) {
      /* The buffer's host-pointer flags are inherited, not checked. */
      image->flags |=
          layout.buffer->flags &
          (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
      error = share_storage(image, layout.buffer);
    } else {
      error = clx_mem_allocate(image);
      if (error == CL_SUCCESS)
        error = bind_mux_image(image, image->mux_memory, 0);
    }
    if (error != CL_SUCCESS) {
      clx_release(CLX_OBJ(image));
      image = NULL;
    }
  }
  if (errcode_ret) *errcode_ret = error;
  return image;
}

/* The deprecated forms report every size problem as CL_INVALID_IMAGE_SIZE,
 * pitches included, and images of a format the device lacks as
 * CL_IMAGE_FORMAT_NOT_SUPPORTED. */
static cl_mem create_legacy(cl_context context, cl_mem_flags flags,
                            const cl_image_format *format,
                            const cl_image_desc *desc, void *host_ptr,
                            cl_int *errcode_ret) {
  cl_int error = CL_SUCCESS;
  cl_mem image = clCreateImage(context, flags, format, desc, host_ptr, &error);
  if (error == CL_INVALID_IMAGE_DESCRIPTOR) error = CL_INVALID_IMAGE_SIZE;
  if (errcode_ret) *errcode_ret = error;
  return image;
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format,
                                   size_t image_width, size_t image_height,
                                   size_t image_row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = image_width,
                        .image_height = image_height,
                        .image_row_pitch = image_row_pitch};
  return create_legacy(context, flags, image_format, &desc, host_ptr,
                       errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format,
                                   size_t image_width, size_t image_height,
                                   size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  /* A 3D image needs a depth above one (OpenCL 1.1, 5.3.1); a depth of 0
   * fails as a size at its place in clCreateImage's order of checks. */
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                        .image_width = image_width,
                        .image_height = image_height,
                        .image_depth = image_depth > 1 ? image_depth : 0,
                        .image_row_pitch = image_row_pitch,
                        .image_slice_pitch = image_slice_pitch};
  return create_legacy(context, flags, image_format, &desc, host_ptr,
                       errcode_ret);
}

/* ---- Queries ------------------------------------------------------------ */

bool clx_is_image(cl_mem mem) {
  return clx_valid(mem, clx_kind_mem) && mem->type != CL_MEM_OBJECT_BUFFER;
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  if (!clx_is_image(image)) return CL_INVALID_MEM_OBJECT;
  const cl_image_desc *d = &image->image_desc;
  cl_mem_object_type type = d->image_type;
  size_t value = 0;
  switch (param_name) {
    case CL_IMAGE_FORMAT:
      return clx_info(&image->image_format, sizeof(cl_image_format),
                      param_value_size, param_value, param_value_size_ret);
    case CL_IMAGE_BUFFER: {
      cl_mem buffer =
          clx_image_over_buffer(d) && !clx_image_over_image(d) ? d->buffer
                                                               : NULL;
      return clx_info(&buffer, sizeof(buffer), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: {
      cl_uint zero = 0;
      return clx_info(&zero, sizeof(zero), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_IMAGE_ELEMENT_SIZE:
      value = image->element_size;
      break;
    case CL_IMAGE_ROW_PITCH:
      value = d->image_row_pitch;
      break;
    case CL_IMAGE_SLICE_PITCH:
      value = clx_image_has_slices(type) ? d->image_slice_pitch : 0;
      break;
    case CL_IMAGE_WIDTH:
      value = d->image_width;
      break;
    case CL_IMAGE_HEIGHT:
      value =
          (type == CL_MEM_OBJECT_IMAGE2D ||
           type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
              ? d->image_height
              : 0;
      break;
    case CL_IMAGE_DEPTH:
      value = type == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 0;
      break;
    case CL_IMAGE_ARRAY_SIZE:
      value = clx_image_is_array(type) ? d->image_array_size : 0;
      break;
    default:
      return CL_INVALID_VALUE;
  }
  return clx_info(&value, sizeof(value), param_value_size, param_value,
                  param_value_size_ret);
}

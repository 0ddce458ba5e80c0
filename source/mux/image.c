/* clmux Mux API layer: image entry points. */
#include <mux/mux.h>

#include "target.h"

mux_result_t muxCreateImage(mux_device_t device, mux_image_type_e type,
                            mux_image_format_e format, uint32_t width,
                            uint32_t height, uint32_t depth,
                            uint32_t array_layers, uint64_t row_size,
                            uint64_t slice_size,
                            mux_allocator_info_t allocator_info,
                            mux_image_t *out_image) {
  return cpuCreateImage(device, type, format, width, height, depth, array_layers, row_size, slice_size, allocator_info, out_image);
}

void muxDestroyImage(mux_device_t device, mux_image_t image,
                     mux_allocator_info_t allocator_info) {
  cpuDestroyImage(device, image, allocator_info);
}

mux_result_t muxBindImageMemory(mux_device_t device, mux_memory_t memory,
                                mux_image_t image, uint64_t offset) {
  return cpuBindImageMemory(device, memory, image, offset);
}

mux_result_t muxGetSupportedImageFormats(mux_device_t device,
                                         mux_image_type_e image_type,
                                         mux_allocation_type_e allocation_type,
                                         uint32_t count,
                                         mux_image_format_e *out_formats,
                                         uint32_t *out_count) {
  return cpuGetSupportedImageFormats(device, image_type, allocation_type, count, out_formats, out_count);
}

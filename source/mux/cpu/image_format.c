/* clmux CPU target: image formats. */
#include "cpu.h"

uint32_t cpu_image_format_pixel_size(mux_image_format_e format) {
  (void)format;
  return 0;
}

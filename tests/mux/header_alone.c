/* mux.h compiles on its own as C11 (-pedantic-errors), with nothing included
 * before it, and declares the entry points with the specified types. */
#include <mux/mux.h>

int main(void) {
  mux_result_t (*dispatch)(mux_queue_t, mux_command_buffer_t, mux_fence_t,
                           mux_semaphore_t *, uint32_t, mux_semaphore_t *,
                           uint32_t, mux_dispatch_callback_t, void *) =
      muxDispatch;
  mux_ndrange_options_t options = {0};
  mux_descriptor_info_t descriptor = {0};
  descriptor.type = mux_descriptor_info_type_plain_old_embedded_data;
  descriptor.plain_old_embedded_data_descriptor.length = 16;
  (void)options;
  return dispatch == 0 || sizeof(descriptor.plain_old_embedded_data_descriptor
                                     .data) != 16;
}

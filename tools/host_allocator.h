/* clmux tools: the plain host allocator the tools hand to Mux. */
#ifndef CLMUX_TOOLS_HOST_ALLOCATOR_H
#define CLMUX_TOOLS_HOST_ALLOCATOR_H

#include <mux/mux.h>
#include <stdlib.h>

static void *host_alloc(void *user_data, size_t size, size_t alignment) {
  (void)user_data;
  void *pointer = NULL;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  return posix_memalign(&pointer, alignment, size ? size : 1) ? NULL : pointer;
}

static void host_free(void *user_data, void *pointer) {
  (void)user_data;
  free(pointer);
}

static const mux_allocator_info_t allocator = {host_alloc, host_free, NULL};

#endif /* CLMUX_TOOLS_HOST_ALLOCATOR_H */

/* clmux CPU target: the memory of buffers and images (device_heap.c),
 * mapped apart from the C heap, with padding after every allocation and
 * guard pages around large ones. */
#ifndef CLMUX_MUX_CPU_DEVICE_HEAP_H
#define CLMUX_MUX_CPU_DEVICE_HEAP_H

#include <stddef.h>

/* Bytes every allocation has, at least, past its end: writes that far
 * past it (a rounded-up global size's few extra work-items) land in
 * padding, not in another allocation. */
#define DEVICE_HEAP_SLACK 64

/* Where an allocation came from, for its release. */
typedef struct device_heap_block {
  struct slab *slab;    /* a small allocation's slab, or NULL */
  size_t mapped_length; /* a large one's mapping, guards excluded */
} device_heap_block;

/* `size` bytes aligned to `alignment` (a power of two); NULL when out of
 * memory. Thread-safe. */
void *device_heap_allocate(size_t size, size_t alignment,
                           device_heap_block *block);
void device_heap_release(void *data, const device_heap_block *block);

#endif

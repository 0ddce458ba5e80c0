/* Async copies between global and local memory (OpenCL 1.2 section
 * 6.12.10). They are work-group functions: every work-item calls them with
 * the same arguments, so each copies its share (elements lid, lid + n, ...)
 * at once, and wait_group_events is the barrier after which the whole copy
 * is visible to the group. The event carries no state. */

#define OVL __attribute__((overloadable))

static size_t clmux_local_linear_id(void) {
  return get_local_id(0) +
         get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}

static size_t clmux_local_linear_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ASYNC_COPY(T, DST, SRC)                                                \
  OVL event_t async_work_group_copy(DST T *dst, const SRC T *src, size_t num,  \
                                    event_t event) {                           \
    size_t step = clmux_local_linear_size();                                   \
    for (size_t i = clmux_local_linear_id(); i < num; i += step)               \
      dst[i] = src[i];                                                         \
    return event;                                                              \
  }

/* The stride applies to the global side only. */
#define ASYNC_STRIDED(T)                                                       \
  OVL event_t async_work_group_strided_copy(__local T *dst,                    \
                                            const __global T *src, size_t num, \
                                            size_t src_stride, event_t event) {\
    size_t step = clmux_local_linear_size();                                   \
    for (size_t i = clmux_local_linear_id(); i < num; i += step)               \
      dst[i] = src[i * src_stride];                                            \
    return event;                                                              \
  }                                                                            \
  OVL event_t async_work_group_strided_copy(__global T *dst,                   \
                                            const __local T *src, size_t num,  \
                                            size_t dst_stride, event_t event) {\
    size_t step = clmux_local_linear_size();                                   \
    for (size_t i = clmux_local_linear_id(); i < num; i += step)               \
      dst[i * dst_stride] = src[i];                                            \
    return event;                                                              \
  }

/* Prefetching is a hint; the CPU's own prefetchers do better than a loop. */
#define PREFETCH(T)                                                            \
  OVL void prefetch(const __global T *p, size_t num) {}

#define ASYNC_ALL(T)                                                           \
  ASYNC_COPY(T, __local, __global)                                             \
  ASYNC_COPY(T, __global, __local)                                             \
  ASYNC_STRIDED(T)                                                             \
  PREFETCH(T)

#define ASYNC_VECTORS(T)                                                       \
  ASYNC_ALL(T) ASYNC_ALL(T##2) ASYNC_ALL(T##3) ASYNC_ALL(T##4)                 \
  ASYNC_ALL(T##8) ASYNC_ALL(T##16)

ASYNC_VECTORS(char)
ASYNC_VECTORS(uchar)
ASYNC_VECTORS(short)
ASYNC_VECTORS(ushort)
ASYNC_VECTORS(int)
ASYNC_VECTORS(uint)
ASYNC_VECTORS(long)
ASYNC_VECTORS(ulong)
ASYNC_VECTORS(float)

/* Clang declares the list parameter in the generic address space even for
 * OpenCL C 1.2, which the language cannot spell; the asm label gives the
 * definition exactly the name user kernels call. */
void clmux_wait_group_events(int num_events,
                             __attribute__((address_space(4))) event_t *list)
    __asm__("_Z17wait_group_eventsiPU9CLgeneric9ocl_event");
void clmux_wait_group_events(int num_events,
                             __attribute__((address_space(4))) event_t *list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
ASYNC_VECTORS(double)
#endif

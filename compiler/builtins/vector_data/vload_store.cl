/* vloadn / vstoren (OpenCL 1.2 section 6.12.7): n elements at p + offset*n,
 * aligned only to the element. Element by element, so vload3 never touches
 * a fourth element (a vec3 is 4 elements wide in memory); the optimizer
 * merges the accesses into one unaligned vector access. */

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))

#define VLOAD(T, n, AS)                                                \
  OVL T##n vload##n(size_t offset, const AS T *p) {                    \
    T##n r;                                                            \
    p += offset * n;                                                   \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) r[i] = p[i];                           \
    return r;                                                          \
  }

#define VSTORE(T, n, AS)                                               \
  OVL void vstore##n(T##n data, size_t offset, AS T *p) {              \
    p += offset * n;                                                   \
    CLMUX_EACH_COMPONENT for (int i = 0; i < n; i++) p[i] = data[i];                        \
  }

#define VLOAD_WIDTHS(T, AS)                                            \
  VLOAD(T, 2, AS) VLOAD(T, 3, AS) VLOAD(T, 4, AS) VLOAD(T, 8, AS)      \
  VLOAD(T, 16, AS)
#define VSTORE_WIDTHS(T, AS)                                           \
  VSTORE(T, 2, AS) VSTORE(T, 3, AS) VSTORE(T, 4, AS) VSTORE(T, 8, AS)  \
  VSTORE(T, 16, AS)

/* Private pointers carry no address-space qualifier in OpenCL C 1.2. */
#define VDATA_TYPE(T)                                                  \
  VLOAD_WIDTHS(T, __global) VLOAD_WIDTHS(T, __local)                   \
  VLOAD_WIDTHS(T, __constant) VLOAD_WIDTHS(T, )                        \
  VSTORE_WIDTHS(T, __global) VSTORE_WIDTHS(T, __local)                 \
  VSTORE_WIDTHS(T, )

VDATA_TYPE(char)
VDATA_TYPE(uchar)
VDATA_TYPE(short)
VDATA_TYPE(ushort)
VDATA_TYPE(int)
VDATA_TYPE(uint)
VDATA_TYPE(long)
VDATA_TYPE(ulong)
VDATA_TYPE(float)

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
VDATA_TYPE(double)
#endif

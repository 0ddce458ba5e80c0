/* shuffle and shuffle2 (OpenCL 1.2 section 6.12.12): result component i is
 * the input component that the low bits of mask component i select (as
 * many bits as index the 2, 4, 8 or 16 inputs, or twice that many for
 * shuffle2's concatenated pair). */

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))

#define SHUFFLE(T, U, n, m)                                                  \
  OVL T##m shuffle(T##n x, U##m mask) {                                      \
    T##m r;                                                                  \
    CLMUX_EACH_COMPONENT for (int i = 0; i < m; i++) r[i] = x[mask[i] & (n - 1)];                 \
    return r;                                                                \
  }                                                                          \
  OVL T##m shuffle2(T##n x, T##n y, U##m mask) {                             \
    T##m r;                                                                  \
    CLMUX_EACH_COMPONENT for (int i = 0; i < m; i++) {                                            \
      uint k = (uint)(mask[i] & (2 * n - 1));                                \
      r[i] = k < n ? x[k] : y[k - n];                                        \
    }                                                                        \
    return r;                                                                \
  }

#define SHUFFLE_RESULTS(T, U, n)                                             \
  SHUFFLE(T, U, n, 2) SHUFFLE(T, U, n, 4) SHUFFLE(T, U, n, 8)                \
  SHUFFLE(T, U, n, 16)
/* T with the unsigned integer type of its size, for the mask. */
#define SHUFFLE_TYPE(T, U)                                                   \
  SHUFFLE_RESULTS(T, U, 2) SHUFFLE_RESULTS(T, U, 4) SHUFFLE_RESULTS(T, U, 8) \
  SHUFFLE_RESULTS(T, U, 16)

SHUFFLE_TYPE(char, uchar)
SHUFFLE_TYPE(uchar, uchar)
SHUFFLE_TYPE(short, ushort)
SHUFFLE_TYPE(ushort, ushort)
SHUFFLE_TYPE(int, uint)
SHUFFLE_TYPE(uint, uint)
SHUFFLE_TYPE(long, ulong)
SHUFFLE_TYPE(ulong, ulong)
SHUFFLE_TYPE(float, uint)

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
SHUFFLE_TYPE(double, ulong)
#endif

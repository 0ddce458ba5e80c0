/* cl_khr_extended_bit_ops for char ... ulong and their vectors:
 * bitfield_insert, bitfield_extract_signed/_unsigned and bit_reverse.
 * Plain shifts and masks on the unsigned type of the same width, with a
 * count of 0 handled apart (OpenCL masks shift amounts, so a shift by the
 * full width would be one by 0), and Clang's element-wise bitreverse:
 * vector forms are the same code on vectors. Offsets and counts past the
 * width are undefined in the extension. */

/* Clang declares the functions when the macro is defined (frontend.c
 * defines it for kernels). */
#define cl_khr_extended_bit_ops 1

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))
#define AS(T, x) __builtin_astype((x), T)

/* T, its unsigned and signed types of the same width, the width, and the
 * bit reversal of UT (Clang's element-wise builtin would promote a narrow
 * scalar to int first). */
#define BIT_OPS(T, UT, ST, W, REVERSE)                                       \
  OVL T bitfield_insert(T base, T insert, uint offset, uint count) {         \
    UT ones = (UT)~(UT)0;                                                    \
    UT mask = count == 0 ? (UT)0 : (UT)((UT)(ones >> (W - count)) << offset);\
    UT kept = (UT)(AS(UT, base) & (UT)~mask);                                \
    UT put = (UT)((UT)(AS(UT, insert) << offset) & mask);                    \
    return AS(T, (UT)(kept | put));                                          \
  }                                                                          \
  OVL ST bitfield_extract_signed(T base, uint offset, uint count) {          \
    if (count == 0) return (ST)0;                                            \
    ST top = AS(ST, (UT)(AS(UT, base) << (W - offset - count)));             \
    return (ST)(top >> (W - count));                                         \
  }                                                                          \
  OVL UT bitfield_extract_unsigned(T base, uint offset, uint count) {        \
    if (count == 0) return (UT)0;                                            \
    UT top = (UT)(AS(UT, base) << (W - offset - count));                     \
    return (UT)(top >> (W - count));                                         \
  }                                                                          \
  OVL T bit_reverse(T base) {                                                \
    return AS(T, (UT)REVERSE(AS(UT, base)));                                 \
  }

/* Every vector width of a type as well. */
#define VECTOR_REVERSE __builtin_elementwise_bitreverse
#define BIT_OPS_ALL(T, UT, ST, W)                                            \
  BIT_OPS(T, UT, ST, W, __builtin_bitreverse##W)                             \
  BIT_OPS(T##2, UT##2, ST##2, W, VECTOR_REVERSE)                             \
  BIT_OPS(T##3, UT##3, ST##3, W, VECTOR_REVERSE)                             \
  BIT_OPS(T##4, UT##4, ST##4, W, VECTOR_REVERSE)                             \
  BIT_OPS(T##8, UT##8, ST##8, W, VECTOR_REVERSE)                             \
  BIT_OPS(T##16, UT##16, ST##16, W, VECTOR_REVERSE)

BIT_OPS_ALL(char, uchar, char, 8)
BIT_OPS_ALL(uchar, uchar, char, 8)
BIT_OPS_ALL(short, ushort, short, 16)
BIT_OPS_ALL(ushort, ushort, short, 16)
BIT_OPS_ALL(int, uint, int, 32)
BIT_OPS_ALL(uint, uint, int, 32)
BIT_OPS_ALL(long, ulong, long, 64)
BIT_OPS_ALL(ulong, ulong, long, 64)

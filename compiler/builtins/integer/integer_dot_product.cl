/* cl_khr_integer_dot_product: dot products of four 8-bit integers, as
 * vectors (dot, dot_acc_sat) and packed in a uint, component 0 in its
 * lowest byte (dot_4x8packed_*, dot_acc_sat_4x8packed_*). The products
 * are summed in 32 bits, which cannot overflow; the accumulating forms
 * then add with saturation. */

/* Clang declares the functions when the feature macros are defined
 * (frontend.c defines them for kernels). */
#define __opencl_c_integer_dot_product_input_4x8bit 1
#define __opencl_c_integer_dot_product_input_4x8bit_packed 1

#include "builtins_internal.h"

#define OVL __attribute__((overloadable))

/* dot and dot_acc_sat for A4 x B4 into R. */
#define DOT(R, A, B)                                                         \
  OVL R dot(A##4 a, B##4 b) {                                                \
    int4 products = convert_int4(a) * convert_int4(b);                       \
    return (R)(products.x + products.y + products.z + products.w);          \
  }                                                                          \
  OVL R dot_acc_sat(A##4 a, B##4 b, R acc) { return add_sat(dot(a, b), acc); }

/* Unsigned products may pass INT_MAX only as a sum: 4 x 255 x 255. */
OVL uint dot(uchar4 a, uchar4 b) {
  uint4 products = convert_uint4(a) * convert_uint4(b);
  return products.x + products.y + products.z + products.w;
}
OVL uint dot_acc_sat(uchar4 a, uchar4 b, uint acc) {
  return add_sat(dot(a, b), acc);
}
DOT(int, char, char)
DOT(int, uchar, char)
DOT(int, char, uchar)

/* The packed forms: uu, ss, us and su name the signedness of a and b. */
#define PACKED(R, NAME, A, B)                                                \
  OVL R dot_4x8packed_##NAME##_##R(uint a, uint b) {                         \
    return dot(as_##A##4(a), as_##B##4(b));                                  \
  }                                                                          \
  OVL R dot_acc_sat_4x8packed_##NAME##_##R(uint a, uint b, R acc) {          \
    return dot_acc_sat(as_##A##4(a), as_##B##4(b), acc);                     \
  }
PACKED(uint, uu, uchar, uchar)
PACKED(int, ss, char, char)
PACKED(int, us, uchar, char)
PACKED(int, su, char, uchar)

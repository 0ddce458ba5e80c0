/* Relational functions (OpenCL 1.2 section 6.12.6). One expression serves
 * the scalar and the vector forms: OpenCL C comparisons already give 1/0
 * for scalars and -1/0 per component for vectors, exactly the results
 * these functions must return. Classification works on the bits, so it is
 * exact for NaNs, infinities and denormals and vectorizes. */

#define OVL __attribute__((overloadable))

#define ALL_WIDTHS(M, ...)                                                    \
  M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 8)     \
  M(__VA_ARGS__, 16)
#define EVERY_WIDTH(M, ...) M(__VA_ARGS__, ) ALL_WIDTHS(M, __VA_ARGS__)

/* ---- float comparisons and classification ----------------------------- */

#define FLOAT_RELATIONAL(T, n)                                                 \
  OVL int##n isequal(float##n x, float##n y) { return x == y; }               \
  OVL int##n isnotequal(float##n x, float##n y) { return x != y; }            \
  OVL int##n isgreater(float##n x, float##n y) { return x > y; }              \
  OVL int##n isgreaterequal(float##n x, float##n y) { return x >= y; }        \
  OVL int##n isless(float##n x, float##n y) { return x < y; }                 \
  OVL int##n islessequal(float##n x, float##n y) { return x <= y; }           \
  OVL int##n islessgreater(float##n x, float##n y) {                          \
    return (x < y) | (x > y);                                                 \
  }                                                                           \
  OVL int##n isordered(float##n x, float##n y) { return (x == x) & (y == y); }\
  OVL int##n isunordered(float##n x, float##n y) {                            \
    return (x != x) | (y != y);                                               \
  }                                                                           \
  OVL int##n isfinite(float##n x) {                                           \
    return (as_int##n(x) & 0x7fffffff) < 0x7f800000;                          \
  }                                                                           \
  OVL int##n isinf(float##n x) {                                              \
    return (as_int##n(x) & 0x7fffffff) == 0x7f800000;                         \
  }                                                                           \
  OVL int##n isnan(float##n x) {                                              \
    return (as_int##n(x) & 0x7fffffff) > 0x7f800000;                          \
  }                                                                           \
  /* exponent neither all zeros (zero, denormal) nor all ones */              \
  OVL int##n isnormal(float##n x) {                                           \
    return ((as_int##n(x) & 0x7fffffff) >= 0x00800000) &                      \
           ((as_int##n(x) & 0x7fffffff) < 0x7f800000);                        \
  }                                                                           \
  OVL int##n signbit(float##n x) { return as_int##n(x) < 0; }

EVERY_WIDTH(FLOAT_RELATIONAL, float)

/* ---- any / all: the most significant bit of each component ------------ */

#define ANY_ALL_SCALAR(T)                                                     \
  OVL int any(T x) { return x < 0; }                                          \
  OVL int all(T x) { return x < 0; }
#define ANY_ALL(T, n)                                                         \
  OVL int any(T##n x) { return __builtin_reduce_or(x < (T##n)0) != 0; }             \
  OVL int all(T##n x) { return __builtin_reduce_and(x < (T##n)0) != 0; }

#define ANY_ALL_TYPE(T) ANY_ALL_SCALAR(T) ALL_WIDTHS(ANY_ALL, T)
ANY_ALL_TYPE(char)
ANY_ALL_TYPE(short)
ANY_ALL_TYPE(int)
ANY_ALL_TYPE(long)

/* ---- bitselect and select --------------------------------------------- */

/* Each result bit from b where c's bit is set, else from a. */
#define BITSELECT_INT(T, n)                                                   \
  OVL T##n bitselect(T##n a, T##n b, T##n c) { return (a & ~c) | (b & c); }
#define BITSELECT_FLOAT(T, n)                                                  \
  OVL float##n bitselect(float##n a, float##n b, float##n c) {                \
    return as_float##n(bitselect(as_uint##n(a), as_uint##n(b), as_uint##n(c)));\
  }

#define BITSELECT_DOUBLE(T, n)                                                 \
  OVL double##n bitselect(double##n a, double##n b, double##n c) {            \
    return as_double##n(bitselect(as_ulong##n(a), as_ulong##n(b), as_ulong##n(c)));\
  }

/* Scalars test c != 0, vectors the most significant bit of each component:
 * the signed view of c compared with 0 gives that mask. */
#define SELECT_SCALAR(T, C, S)                                                \
  OVL T select(T a, T b, C c) { return c ? b : a; }
#define SELECT_VECTOR(T, C, S, n)                                             \
  OVL T##n select(T##n a, T##n b, C##n c) { return as_##S##n(c) < (S##n)0 ? b : a; }
#define SELECT(T, C, S) SELECT_SCALAR(T, C, S) ALL_WIDTHS(SELECT_VECTOR, T, C, S)

/* T with its signed and unsigned integer types of the same size. */
#define SELECTS(T, S, U) SELECT(T, S, S) SELECT(T, U, S)

EVERY_WIDTH(BITSELECT_INT, char)
EVERY_WIDTH(BITSELECT_INT, uchar)
EVERY_WIDTH(BITSELECT_INT, short)
EVERY_WIDTH(BITSELECT_INT, ushort)
EVERY_WIDTH(BITSELECT_INT, int)
EVERY_WIDTH(BITSELECT_INT, uint)
EVERY_WIDTH(BITSELECT_INT, long)
EVERY_WIDTH(BITSELECT_INT, ulong)
EVERY_WIDTH(BITSELECT_FLOAT, float)

SELECTS(char, char, uchar)
SELECTS(uchar, char, uchar)
SELECTS(short, short, ushort)
SELECTS(ushort, short, ushort)
SELECTS(int, int, uint)
SELECTS(uint, int, uint)
SELECTS(long, long, ulong)
SELECTS(ulong, long, ulong)
SELECTS(float, int, uint)

/* ---- double (when the library is built with cl_khr_fp64) -------------- */

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Scalars return int; vectors long (the comparison's own type), so the
 * vector forms compare as usual and the scalar ones narrow the result. */
#define DOUBLE_RELATIONAL(R, n)                                               \
  OVL R##n isequal(double##n x, double##n y) { return x == y; }               \
  OVL R##n isnotequal(double##n x, double##n y) { return x != y; }            \
  OVL R##n isgreater(double##n x, double##n y) { return x > y; }              \
  OVL R##n isgreaterequal(double##n x, double##n y) { return x >= y; }        \
  OVL R##n isless(double##n x, double##n y) { return x < y; }                 \
  OVL R##n islessequal(double##n x, double##n y) { return x <= y; }           \
  OVL R##n islessgreater(double##n x, double##n y) {                          \
    return (x < y) | (x > y);                                                 \
  }                                                                           \
  OVL R##n isordered(double##n x, double##n y) {                              \
    return (x == x) & (y == y);                                               \
  }                                                                           \
  OVL R##n isunordered(double##n x, double##n y) {                            \
    return (x != x) | (y != y);                                               \
  }                                                                           \
  OVL R##n isfinite(double##n x) {                                            \
    return (as_long##n(x) & 0x7fffffffffffffffL) < 0x7ff0000000000000L;      \
  }                                                                           \
  OVL R##n isinf(double##n x) {                                               \
    return (as_long##n(x) & 0x7fffffffffffffffL) == 0x7ff0000000000000L;     \
  }                                                                           \
  OVL R##n isnan(double##n x) {                                               \
    return (as_long##n(x) & 0x7fffffffffffffffL) > 0x7ff0000000000000L;      \
  }                                                                           \
  OVL R##n isnormal(double##n x) {                                            \
    return ((as_long##n(x) & 0x7fffffffffffffffL) >= 0x0010000000000000L) &  \
           ((as_long##n(x) & 0x7fffffffffffffffL) < 0x7ff0000000000000L);    \
  }                                                                           \
  OVL R##n signbit(double##n x) { return as_long##n(x) < 0; }

DOUBLE_RELATIONAL(int, )
ALL_WIDTHS(DOUBLE_RELATIONAL, long)

EVERY_WIDTH(BITSELECT_DOUBLE, double)
SELECTS(double, long, ulong)
#endif

/* clmux builtin library: helpers shared by its OpenCL C sources.
 *
 * Library sources are compiled with the front-end's flags, so every
 * builtin is already declared; a definition marked CLMUX_OVL gets the
 * mangled name user kernels call. Vector forms are built from the scalar
 * form by halves (3 elements one by one): codegen inlines everything and
 * vectorizes across work-items, so per-element scalar code is what keeps
 * the vector variants of SLEEF calls usable. */
#ifndef CLMUX_BUILTINS_INTERNAL_H
#define CLMUX_BUILTINS_INTERNAL_H

/* The library (not the user's code) may compute in double internally. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define CLMUX_OVL __attribute__((overloadable))
/* No memory access, no side effects: lets a SLEEF call be widened. */
#define CLMUX_PURE __attribute__((const))
/* Before a loop over a vector's components: unrolled fully, it leaves no
 * inner loop in the work-item loop around an inlined call (a rolled loop,
 * as the optimizer leaves 8 and 16 components, stops vectorization). */
#define CLMUX_EACH_COMPONENT _Pragma("unroll")

/* M(type) for the float scalar and every float vector type. */
#define CLMUX_EACH_FLOATN(M) \
  M(float) M(float2) M(float3) M(float4) M(float8) M(float16)
/* ... and for double (cl_khr_fp64). */
#define CLMUX_EACH_DOUBLEN(M) \
  M(double) M(double2) M(double3) M(double4) M(double8) M(double16)

/* ---- Vector forms from scalar forms ------------------------------------ */

/* R##n F(A##n x) */
#define CLMUX_SPLIT_1(R, F, A)                                              \
  CLMUX_OVL R##2 F(A##2 x) { return (R##2)(F(x.s0), F(x.s1)); }             \
  CLMUX_OVL R##3 F(A##3 x) { return (R##3)(F(x.s0), F(x.s1), F(x.s2)); }    \
  CLMUX_OVL R##4 F(A##4 x) { return (R##4)(F(x.lo), F(x.hi)); }             \
  CLMUX_OVL R##8 F(A##8 x) { return (R##8)(F(x.lo), F(x.hi)); }             \
  CLMUX_OVL R##16 F(A##16 x) { return (R##16)(F(x.lo), F(x.hi)); }

/* R##n F(A##n x, B##n y) */
#define CLMUX_SPLIT_2(R, F, A, B)                                           \
  CLMUX_OVL R##2 F(A##2 x, B##2 y) {                                        \
    return (R##2)(F(x.s0, y.s0), F(x.s1, y.s1));                            \
  }                                                                         \
  CLMUX_OVL R##3 F(A##3 x, B##3 y) {                                        \
    return (R##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2));             \
  }                                                                         \
  CLMUX_OVL R##4 F(A##4 x, B##4 y) {                                        \
    return (R##4)(F(x.lo, y.lo), F(x.hi, y.hi));                            \
  }                                                                         \
  CLMUX_OVL R##8 F(A##8 x, B##8 y) {                                        \
    return (R##8)(F(x.lo, y.lo), F(x.hi, y.hi));                            \
  }                                                                         \
  CLMUX_OVL R##16 F(A##16 x, B##16 y) {                                     \
    return (R##16)(F(x.lo, y.lo), F(x.hi, y.hi));                           \
  }

/* R##n F(A##n x, B y): a scalar second argument for every element. */
#define CLMUX_SPLIT_2S(R, F, A, B)                                          \
  CLMUX_OVL R##2 F(A##2 x, B y) { return (R##2)(F(x.s0, y), F(x.s1, y)); }  \
  CLMUX_OVL R##3 F(A##3 x, B y) {                                           \
    return (R##3)(F(x.s0, y), F(x.s1, y), F(x.s2, y));                      \
  }                                                                         \
  CLMUX_OVL R##4 F(A##4 x, B y) { return (R##4)(F(x.lo, y), F(x.hi, y)); }  \
  CLMUX_OVL R##8 F(A##8 x, B y) { return (R##8)(F(x.lo, y), F(x.hi, y)); }  \
  CLMUX_OVL R##16 F(A##16 x, B y) { return (R##16)(F(x.lo, y), F(x.hi, y)); }

/* R##n F(A##n x, B##n y, C##n z) */
#define CLMUX_SPLIT_3(R, F, A, B, C)                                        \
  CLMUX_OVL R##2 F(A##2 x, B##2 y, C##2 z) {                                \
    return (R##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1));                \
  }                                                                         \
  CLMUX_OVL R##3 F(A##3 x, B##3 y, C##3 z) {                                \
    return (R##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1),                 \
                  F(x.s2, y.s2, z.s2));                                     \
  }                                                                         \
  CLMUX_OVL R##4 F(A##4 x, B##4 y, C##4 z) {                                \
    return (R##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));                \
  }                                                                         \
  CLMUX_OVL R##8 F(A##8 x, B##8 y, C##8 z) {                                \
    return (R##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));                \
  }                                                                         \
  CLMUX_OVL R##16 F(A##16 x, B##16 y, C##16 z) {                            \
    return (R##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));               \
  }

/* ---- Functions with an output pointer ---------------------------------- */

/* R##n F(A##n x, P##n *out) for private pointers, from the scalar form. */
#define CLMUX_SPLIT_PTR(R, F, A, P)                                         \
  CLMUX_OVL R##2 F(A##2 x, P##2 *out) {                                     \
    P a, b;                                                                 \
    R##2 r = (R##2)(F(x.s0, &a), F(x.s1, &b));                              \
    *out = (P##2)(a, b);                                                    \
    return r;                                                               \
  }                                                                         \
  CLMUX_OVL R##3 F(A##3 x, P##3 *out) {                                     \
    P a, b, c;                                                              \
    R##3 r = (R##3)(F(x.s0, &a), F(x.s1, &b), F(x.s2, &c));                 \
    *out = (P##3)(a, b, c);                                                 \
    return r;                                                               \
  }                                                                         \
  CLMUX_SPLIT_PTR_HALVES(R, F, A, P, 4, 2)                                  \
  CLMUX_SPLIT_PTR_HALVES(R, F, A, P, 8, 4)                                  \
  CLMUX_SPLIT_PTR_HALVES(R, F, A, P, 16, 8)
#define CLMUX_SPLIT_PTR_HALVES(R, F, A, P, N, H)                            \
  CLMUX_OVL R##N F(A##N x, P##N *out) {                                     \
    P##H a, b;                                                              \
    R##N r = (R##N)(F(x.lo, &a), F(x.hi, &b));                              \
    *out = (P##N)(a, b);                                                    \
    return r;                                                               \
  }

/* The __global and __local forms of R F(A x, P *out) for one type
 * (scalar or vector), through a private temporary. */
#define CLMUX_PTR_SPACES_ONE(R, F, A, P)                                    \
  CLMUX_OVL R F(A x, __global P *out) {                                     \
    P value;                                                                \
    R r = F(x, &value);                                                     \
    *out = value;                                                           \
    return r;                                                               \
  }                                                                         \
  CLMUX_OVL R F(A x, __local P *out) {                                      \
    P value;                                                                \
    R r = F(x, &value);                                                     \
    *out = value;                                                           \
    return r;                                                               \
  }
/* ... for the scalar and every vector width. */
#define CLMUX_PTR_SPACES(R, F, A, P)                                        \
  CLMUX_PTR_SPACES_ONE(R, F, A, P)                                          \
  CLMUX_PTR_SPACES_ONE(R##2, F, A##2, P##2)                                 \
  CLMUX_PTR_SPACES_ONE(R##3, F, A##3, P##3)                                 \
  CLMUX_PTR_SPACES_ONE(R##4, F, A##4, P##4)                                 \
  CLMUX_PTR_SPACES_ONE(R##8, F, A##8, P##8)                                 \
  CLMUX_PTR_SPACES_ONE(R##16, F, A##16, P##16)

/* Vector, __global and __local forms of a scalar R F(A x, P *out). */
#define CLMUX_ALL_PTR(R, F, A, P) \
  CLMUX_SPLIT_PTR(R, F, A, P) CLMUX_PTR_SPACES(R, F, A, P)

/* remquo's __global and __local scalar forms and every vector form in
 * every address space, from the private scalar T remquo(T, T, int *). */
#define CLMUX_REMQUO_SCALAR_SPACE(T, SPACE)                                 \
  CLMUX_OVL T remquo(T x, T y, SPACE int *quo) {                            \
    int q;                                                                  \
    T r = remquo(x, y, &q);                                                 \
    *quo = q;                                                               \
    return r;                                                               \
  }
#define CLMUX_REMQUO_HALVES(T, N, H, SPACE)                                 \
  CLMUX_OVL T##N remquo(T##N x, T##N y, SPACE int##N *quo) {                \
    int##H a, b;                                                            \
    T##N r = (T##N)(remquo(x.lo, y.lo, &a), remquo(x.hi, y.hi, &b));        \
    *quo = (int##N)(a, b);                                                  \
    return r;                                                               \
  }
#define CLMUX_REMQUO_VECTORS(T, SPACE)                                      \
  CLMUX_REMQUO_HALVES(T, 2, , SPACE)                                        \
  CLMUX_REMQUO_HALVES(T, 4, 2, SPACE)                                       \
  CLMUX_REMQUO_HALVES(T, 8, 4, SPACE)                                       \
  CLMUX_REMQUO_HALVES(T, 16, 8, SPACE)                                      \
  CLMUX_OVL T##3 remquo(T##3 x, T##3 y, SPACE int3 *quo) {                  \
    int a, b, c;                                                            \
    T##3 r = (T##3)(remquo(x.s0, y.s0, &a), remquo(x.s1, y.s1, &b),         \
                    remquo(x.s2, y.s2, &c));                                \
    *quo = (int3)(a, b, c);                                                 \
    return r;                                                               \
  }
#define CLMUX_REMQUO_FORMS(T)                                               \
  CLMUX_REMQUO_SCALAR_SPACE(T, __global)                                    \
  CLMUX_REMQUO_SCALAR_SPACE(T, __local)                                     \
  CLMUX_REMQUO_VECTORS(T, )                                                 \
  CLMUX_REMQUO_VECTORS(T, __global)                                         \
  CLMUX_REMQUO_VECTORS(T, __local)

#endif /* CLMUX_BUILTINS_INTERNAL_H */

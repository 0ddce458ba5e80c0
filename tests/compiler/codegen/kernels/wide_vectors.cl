// A hash kernel as hashcat writes them (VECT_SIZE 16): words loaded one
// by one into uint16 candidates, 64 MD5-like steps on whole vectors, the
// components compared one by one at the end. With rows of one work-item
// (its __local word keeps groups apart) the whole-function vectorizer has
// nothing to widen, and the uint16 values must stay vectors: split into
// sixteen scalars each, the code grew fourfold before the optimizer
// (codegen_wide_vectors.c).
#define F(x, y, z) ((x) & (y) | ~(x) & (z))
#define ROTATE(x, n) ((x) << (n) | (x) >> (32 - (n)))
#define STEP(a, b, c, d, w, s, k) a = b + ROTATE(a + F(b, c, d) + w + (k), s)
#define K(r, i) (((r) * 16 + (i)) * 0x9e3779b9u)
#define STEP4(r, i, s0, s1, s2, s3, w0, w1, w2, w3) \
  STEP(a, b, c, d, w0, s0, K(r, i));                \
  STEP(d, a, b, c, w1, s1, K(r, i + 1));            \
  STEP(c, d, a, b, w2, s2, K(r, i + 2));            \
  STEP(b, c, d, a, w3, s3, K(r, i + 3));
#define ROUND(r, s0, s1, s2, s3, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, wa, \
              wb, wc, wd, we, wf)                                          \
  STEP4(r, 0, s0, s1, s2, s3, w0, w1, w2, w3)                              \
  STEP4(r, 4, s0, s1, s2, s3, w4, w5, w6, w7)                              \
  STEP4(r, 8, s0, s1, s2, s3, w8, w9, wa, wb)                              \
  STEP4(r, 12, s0, s1, s2, s3, wc, wd, we, wf)
#define WORD(i) uint16 w##i = (uint16)(in[gid * 16 + i]) + lanes;
#define COMPARE(n, s)                    \
  if (a.s == key[1]) {                   \
    found |= 1u << n;                    \
  } else {                               \
    found += a.s ^ d.s;                  \
  }

kernel void rounds16(global const uint *in, global uint *out,
                     global const uint *key) {
  uint gid = get_global_id(0);
  local uint shared[1];
  if (get_local_id(0) == 0) shared[0] = key[0] + (uint)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint16 lanes = (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  WORD(0) WORD(1) WORD(2) WORD(3) WORD(4) WORD(5) WORD(6) WORD(7)
  WORD(8) WORD(9) WORD(10) WORD(11) WORD(12) WORD(13) WORD(14) WORD(15)
  uint16 a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
  ROUND(0, 7, 12, 17, 22, w0, w1, w2, w3, w4, w5, w6,
        w7, w8, w9, w10, w11, w12, w13, w14, w15)
  ROUND(1, 5, 9, 14, 20, w1, w6, w11, w0, w5, w10, w15,
        w4, w9, w14, w3, w8, w13, w2, w7, w12)
  ROUND(2, 4, 11, 16, 23, w5, w8, w11, w14, w1, w4, w7,
        w10, w13, w0, w3, w6, w9, w12, w15, w2)
  ROUND(3, 6, 10, 15, 21, w0, w7, w14, w5, w12, w3, w10,
        w1, w8, w15, w6, w13, w4, w11, w2, w9)
  uint found = shared[0];
  COMPARE(0, s0) COMPARE(1, s1) COMPARE(2, s2) COMPARE(3, s3)
  COMPARE(4, s4) COMPARE(5, s5) COMPARE(6, s6) COMPARE(7, s7)
  COMPARE(8, s8) COMPARE(9, s9) COMPARE(10, sa) COMPARE(11, sb)
  COMPARE(12, sc) COMPARE(13, sd) COMPARE(14, se) COMPARE(15, sf)
  out[gid] = found;
}

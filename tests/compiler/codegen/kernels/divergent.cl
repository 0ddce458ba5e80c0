// Kernels whose work-items take different paths: the whole-function
// vectorizer's (codegen_divergent.c).
kernel void escape(global float *out, int width) {
  int g = get_global_id(0);
  float cx = -2.0f + 3.0f * (float)(g % width) / (float)width;
  float cy = -1.5f + 3.0f * (float)(g / width) / (float)width;
  float x = 0.0f, y = 0.0f;
  int i = 0;
  while (i < 256 && x * x + y * y <= 4.0f) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    i++;
  }
  out[g] = (float)i;
}

kernel void early_exit(global const float *in, global float *out, int n) {
  int g = get_global_id(0);
  if (g >= n) return;
  float s = 0.0f;
  for (int k = 0; k < g % 11; k++) {
    if (in[k] < 0.0f) break;
    s += in[k] * in[g];
  }
  out[g] = s;
}

kernel void double_steps(global const double *in, global double *out) {
  int g = get_global_id(0);
  double x = in[g];
  while (x > 1.0) x = x * 0.5 + 0.1;
  out[g] = x;
}

// A float4 per work-item, split into floats before vectorizing: read and
// written as whole records (interleaved groups), not gathered.
kernel void records(global const float4 *in, global float4 *out) {
  int g = get_global_id(0);
  float4 v = in[g];
  int k = 0;
  while (v.x > 1.0f && k < 64) {
    v = v * 0.5f;
    k++;
  }
  out[g] = v + (float)k;
}

// An array of structs of a float and an int, each field read and written
// on its own: whole records too.
typedef struct {
  float x, v;
  int hits;
  float last;
} particle;

kernel void particles(global particle *p, float dt) {
  size_t i = get_global_id(0);
  float v = p[i].v;
  float x = p[i].x + v * dt;
  int hits = p[i].hits;
  float last = p[i].last;
  int bounce = x > 1.0f;
  p[i].x = bounce ? 2.0f - x : x;
  p[i].v = bounce ? -v : v;
  p[i].hits = hits + bounce;
  p[i].last = bounce ? x : last;
}

// Straight-line code that diverges: branches around math calls, and an
// int8 written and read at indices from the data.
kernel void branchy(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  if (x > 0.5f)
    out[i] = sin(x);
  else if (x < -0.5f)
    out[i] = exp(x);
}

kernel void pick(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  int8 a = (int8)(1, 2, 3, 4, 5, 6, 7, 8) * v;
  a[(v >> 3) & 7] = -v;
  out[i] = a[v & 7];
}

// One dependent chain per work-item (clpeak's compute kernels): only more
// lanes put more multiply-adds in flight.
// (a * b + c, not mad: this bitcode has no builtin library)
#define MAD_4(x, y)                                                     \
  x = y * x + y;                                                        \
  y = x * y + x;                                                        \
  x = y * x + y;                                                        \
  y = x * y + x;
kernel void chain(global float *out, float a) {
  float x = a, y = (float)get_global_id(0);
  for (int i = 0; i < 64; i++) {
    MAD_4(x, y);
    MAD_4(x, y);
    MAD_4(x, y);
  }
  out[get_global_id(0)] = y;
}

// One dependent chain through 24 ulong8 values, as SHA-512's rounds run
// through their state and message schedule: the chain alone would earn
// four registers' worth of lanes, but 24 values of four registers each
// would not fit the register file, so it gets two.
#define STIR(a, b) a = (a + b) ^ (b << 7);
#define STIR_8(a, b, c, d, e, f, g, h)                                  \
  STIR(a, h) STIR(b, a) STIR(c, b) STIR(d, c)                           \
  STIR(e, d) STIR(f, e) STIR(g, f) STIR(h, g)
kernel void crowded(global ulong8 *out, global const ulong8 *in) {
  size_t i = get_global_id(0);
  ulong8 a = in[i], b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5;
  ulong8 g = a + 6, h = a + 7, j = a + 8, k = a + 9, l = a + 10, m = a + 11;
  ulong8 n = a + 12, o = a + 13, p = a + 14, q = a + 15, r = a + 16;
  ulong8 s = a + 17, t = a + 18, u = a + 19, v = a + 20, w = a + 21;
  ulong8 x = a + 22, y = a + 23;
  for (int round = 0; round < 16; round++) {
    STIR_8(a, b, c, d, e, f, g, h)
    STIR_8(j, k, l, m, n, o, p, q)
    STIR_8(r, s, t, u, v, w, x, y)
    STIR(a, y)
  }
  out[i] = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ j ^ k ^ l ^ m ^ n ^ o ^ p ^ q ^ r ^
           s ^ t ^ u ^ v ^ w ^ x ^ y;
}

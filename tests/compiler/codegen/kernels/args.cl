/* By-value struct, vector and small scalar arguments, and calls of
 * non-kernel functions (one of which asks for the global id itself). */
typedef struct {
  int a;
  float b;
  char c;
  long d;
} params;

float pick(float x, float y) { return x > y ? x - y : y * 2.0f; }

float twice_mine(global const float *in) { return 2.0f * in[get_global_id(0)]; }

kernel void args(global float *out, params p, float4 v4, float3 v3, uchar c,
                 global const float *in, short s) {
  size_t i = get_global_id(0);
  p.a += (int)i; /* the kernel's own copy: must not leak to other items */
  out[i] = pick(in[i], p.b) + v4.y * v3.z + v4.w + v3.x + (float)c +
           (float)p.a + (float)p.d + (float)s + (float)p.c + twice_mine(in);
}

/* A private array indexed at run time stays in memory: the work-item loop
 * must then not be declared free of dependences. */
kernel void private_array(global const int *in, global int *out) {
  int tmp[8];
  size_t i = get_global_id(0);
  for (int k = 0; k < 8; k++) tmp[k] = in[i] + k;
  out[i] = tmp[in[i] & 7];
}

/* A kernel may call another kernel: both bodies see the caller's ids. */
kernel void add_one(global float *b) { b[get_global_id(0)] += 1.0f; }

kernel void add_one_times_three(global float *b) {
  add_one(b);
  b[get_global_id(0)] *= 3.0f;
}

/* Program-scope __constant data and an early return. */
constant float table[4] = {0.5f, -1.0f, 8.0f, 3.25f};

kernel void lookup(global const int *in, global float *out, int limit) {
  size_t i = get_global_id(0);
  if (in[i] > limit) return;
  out[i] = table[in[i] & 3];
}

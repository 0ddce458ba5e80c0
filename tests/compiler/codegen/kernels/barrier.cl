/* Kernels with barriers and __local memory for codegen_barrier and
 * codegen_barrier_vectorize; each has a host reference in the test. */

/* Tree reduction of one group's items into out[group], in a loop. */
kernel void reduce_sum(global const float *in, global float *out,
                       local float *part) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  part[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = part[0];
}

/* The same with a kernel-scope array (local size a power of two <= 256). */
kernel void reduce_static(global const float *in, global float *out) {
  local float part[256];
  size_t lid = get_local_id(0);
  part[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = part[0];
}

/* Inclusive scan per group, Hillis-Steele: two barriers per step, `t`
 * lives across the first. */
kernel void scan_inclusive(global const int *in, global int *out,
                           local int *l) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  l[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < n; offset <<= 1) {
    int t = lid >= offset ? l[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    l[lid] += t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = l[lid];
}

/* C = A * B, n x n, 16 x 16 tiles in __local memory. */
#define TILE 16
kernel void matmul_tiled(global const float *a, global const float *b,
                         global float *c, int n) {
  local float as[TILE][TILE];
  local float bs[TILE][TILE];
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  int col = (int)get_global_id(0), row = (int)get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    as[ly][lx] = a[row * n + t + lx];
    bs[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++) acc += as[ly][k] * bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}

/* out (width x height) = transpose of in (height x width), through a tile
 * of any local size up to 16 x 16: item k of the group writes element k
 * of the transposed block, so items exchange data. */
kernel void transpose(global const float *in, global float *out, int width,
                      int height) {
  local float tile[16][17];
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  int sx = (int)get_local_size(0), sy = (int)get_local_size(1);
  int x0 = (int)get_group_id(0) * sx, y0 = (int)get_group_id(1) * sy;
  tile[ly][lx] = in[(y0 + ly) * width + x0 + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  int k = ly * sx + lx;
  int j = k % sy, i = k / sy; /* out row x0 + i, column y0 + j */
  out[(x0 + i) * height + y0 + j] = tile[j][i];
}

/* Barriers in nested loops and under uniform conditions; `acc` and the
 * loop counters live across them. Local size <= 64. */
kernel void nested(global int *out, int outer, int inner, int flag) {
  local int buf[64];
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  int acc = 0;
  for (int i = 0; i < outer; i++) {
    for (int j = 0; j < inner; j++) {
      buf[lid] = lid * i + j;
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += buf[(lid + 1) % n];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (flag > i) {
      buf[lid] = acc;
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += buf[n - 1 - lid] * 3;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = acc;
}

/* Barriers first and last; a private array, a float and a vector live
 * across them; a local argument beside kernel-scope arrays. */
kernel void private_live(global int *out, global float *fout,
                         local int *shared) {
  barrier(CLK_LOCAL_MEM_FENCE);
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  int gid = (int)get_global_id(0);
  int priv[5];
  for (int k = 0; k < 5; k++) priv[k] = gid * (k + 1) + k;
  float f = (float)gid * 0.5f;
  int4 v = (int4)(gid, -gid, 2 * gid, 7);
  shared[lid] = priv[lid % 5];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = shared[(lid + 1) % n];
  for (int k = 0; k < 5; k++) priv[k] += sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  shared[lid] = priv[4] + v.x + v.y + v.z + v.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = shared[n - 1 - lid] + priv[0] + priv[2];
  fout[gid] = f * 2.0f + (float)v.w;
  barrier(CLK_GLOBAL_MEM_FENCE);
}

/* __local data reached in several ways: kernel-scope arrays of different
 * alignments here and in a called kernel, a __local argument, a helper
 * taking __local, __global and __private pointers that holds the barrier.
 * Local size <= 64. */
void exchange(local int *dst, global int *log, private int *mine) {
  int lid = (int)get_local_id(0);
  dst[lid] = *mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  *mine = dst[(int)get_local_size(0) - 1 - lid];
  log[get_global_id(0)] += *mine;
}

kernel void called_kernel(global int *out, local int *arg) {
  local int mine[64];
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  int value = lid * 2;
  exchange(mine, out, &value);
  arg[lid] = value + mine[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] += arg[(lid + 3) % n];
}

kernel void locals_mixed(global int *out, local int *arg) {
  local char c[3];
  local long wide[64];
  local short s[64];
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  if (lid < 3) c[lid] = (char)(lid + 1);
  wide[lid] = (long)lid << 33;
  s[lid] = (short)(lid * 3);
  out[get_global_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = c[lid % 3] + (int)(wide[n - 1 - lid] >> 33) +
                          s[(lid + 1) % n];
  called_kernel(out, arg);
}

/* Local ids in three dimensions: each item reads the slot of the item
 * mirrored through the group's centre. */
kernel void mirror3d(global int *out) {
  local int slots[256];
  size_t sx = get_local_size(0), sy = get_local_size(1), sz = get_local_size(2);
  size_t linear = get_local_id(0) +
                  sx * (get_local_id(1) + sy * get_local_id(2));
  size_t items = sx * sy * sz;
  size_t group = get_group_id(0) +
                 get_num_groups(0) * (get_group_id(1) +
                                      get_num_groups(1) * get_group_id(2));
  slots[linear] = (int)(group * 1000 + linear);
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  out[gx + get_global_size(0) * (gy + get_global_size(1) * gz)] =
      slots[items - 1 - linear];
}

/* Features earlier steps expect, now around a barrier: a program-scope
 * __constant table, a struct and a 3-element vector by value, helpers
 * with pointers to private, local and global memory. */
constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

typedef struct params {
  int scale;
  float bias;
  char tag;
  int4 extra;
} params;

static int pick(constant int *t, private int *p, int i) { return t[i & 7] + *p; }

static void store_both(global int *g, local int *l, int gi, int li, int v) {
  g[gi] = v;
  l[li] = v + 1;
}

kernel void features(global int *out, params p, int3 v, local int *l) {
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  int gid = (int)get_global_id(0);
  int mine = p.scale * lid + p.tag + v.z;
  int value = pick(table, &mine, gid);
  store_both(out, l, gid, lid, value);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = l[lid] * 2 + l[(lid + 1) % n] + v.x - v.y + p.extra.w +
             (int)p.bias;
}

/* Values that differ between work-items only through control flow, and
 * one that is the same in all, live across a barrier. */
kernel void divergent(global int *out) {
  int lid = (int)get_local_id(0);
  int x = 0;
  if (lid < 3) x = 5;
  int i, acc = 0;
  for (i = 0; i < lid; i++) acc += 2;
  int y = lid & 1 ? 7 : 9;
  int u = (int)get_group_id(0) * 3;
  int w = 1;
  if (lid == 0) w = 2;
  w += 4;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = x + i * 100 + acc * 1000 + y * 10000 + u * 100000 + w;
}

/* A helper holding two barriers, called twice (as the builtin library's
 * wait_group_events may be). */
static int rotate_through(local int *l, int value, int by) {
  int lid = (int)get_local_id(0), n = (int)get_local_size(0);
  l[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  int result = l[(lid + by) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

kernel void helper_twice(global int *out, local int *l) {
  int v = rotate_through(l, (int)get_global_id(0), 1);
  out[get_global_id(0)] = rotate_through(l, v * 2, 2);
}

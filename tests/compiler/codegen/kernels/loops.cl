/* Loops with bounds from the arguments, some run equally often by every
 * work-item (the code generator then runs those that carry a floating
 * sum in step across the work-items, loop_barriers.c) and some not (left
 * as they are). The float sums stay below 2^24: exact in any order. */

/* Forces between points on a line: the loop over all points. */
kernel void pairs(global const float *pos, global float *out, int n) {
  int i = get_global_id(0);
  float p = pos[i], a = 0.0f;
  for (int j = 0; j < n; j++) {
    float d = pos[j] - p;
    a += d / (d * d + 0.5f);
  }
  out[i] = a;
}

/* The textbook matrix product: one dot product per work-item. */
kernel void matmul_naive(global const float *a, global const float *b,
                         global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

/* `matmul_naive` behind a bound in both dimensions: groups wholly inside
 * run the loop over k in step (guard_versions.c, both comparisons). */
kernel void matmul_guarded(global const float *a, global const float *b,
                           global float *c, int n, int rows, int cols) {
  int col = get_global_id(0), row = get_global_id(1);
  if (row < rows && col < cols) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

kernel void int_loops(global int *out, global const int *in, int n,
                      int stop) {
  int i = get_global_id(0);
  int acc = 0;
  float f = 0.0f;
  for (int j = 0; j < n; j++) {
    acc += in[j] * (i + 1) + (in[(i + j) % n] & 3);
    f += in[j];
  }
  if (i & 1) { /* some work-items only */
    for (int j = 0; j < n; j++) {
      acc ^= in[j];
      f += 1.0f;
    }
  }
  for (int j = 0; j < n; j++) { /* a continue that differs per item */
    if (in[j] == i) continue;
    acc -= 1;
    f += 2.0f;
  }
  for (int j = 0; j < n; j++) { /* a break at the same j for all */
    if (j == stop) break;
    acc += j * i;
    f += j;
  }
  int k = 0;
  while (k < n + (int)get_group_id(0)) {
    acc += k++ & i;
    f += 0.5f;
  }
  int hist[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++) {
    hist[in[j] & 3] += i + j;
    f += hist[j & 3] & 1;
  }
  out[i] = acc + hist[0] - hist[1] + hist[2] * 3 - hist[3] + (int)f;
}

/* The loop after a return only some work-items take. */
kernel void early_exit(global int *out, global const int *in, int n,
                       int limit) {
  int i = get_global_id(0);
  out[i] = -1;
  if (i >= limit) return;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += in[j] ^ i;
  out[i] = (int)acc;
}

/* A loop under a uniform test inside a divergent one: only the first
 * items reach it. */
kernel void guarded(global int *out, global const int *in, int n,
                    int limit) {
  int i = get_global_id(0);
  float acc = 1.0f;
  if (in[i] < limit) {
    out[i] = 0;
    if (n > 3) {
      for (int j = 0; j < n; j++) acc += in[j] * i;
    }
  }
  out[i] = (int)acc;
}

/* Two loops over a square window: the inner one runs in step. */
kernel void window(global int *out, global const int *in, int n, int r) {
  int i = get_global_id(0);
  int acc = 0;
  for (int y = 0; y < r; y++) {
    float row = 0.0f;
    for (int x = 0; x < r; x++) row += in[(i + y * r + x) % n] * (x + 1);
    acc ^= (int)row + y;
  }
  out[i] = acc;
}

/* An integer sum along a row: the loop vectorizer widens the loop itself
 * (contiguous in j), so it is left alone. */
kernel void row_sums(global int *out, global const int *in, int n,
                     int width) {
  int i = get_global_id(0);
  int sum = 0;
  for (int j = 0; j < width; j++) sum += in[(i % 4) * width + j];
  out[i] = sum;
}

/* pairs behind a bound on the id: the groups below the bound run the
 * loop in step (guard_versions.c), the one across it as it is. */
kernel void pairs_guarded(global const float *pos, global float *out, int n,
                          int count) {
  int i = get_global_id(0);
  if (i >= count) return;
  float p = pos[i], a = 0.0f;
  for (int j = 0; j < n; j++) {
    float d = pos[j] - p;
    a += d / (d * d + 0.5f);
  }
  out[i] = a;
}

/* A bound on an int id that wraps inside a group (offsets near 2^31):
 * the group's first and last ids agree, the ones between do not. */
kernel void wrapped_guard(global float *out, global const float *in, int n,
                          int limit) {
  int i = get_global_id(0);
  size_t slot = get_global_id(0) - get_global_offset(0);
  out[slot] = -1.0f;
  if (i < limit) return;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += in[j] * (float)(slot + 1);
  out[slot] = acc;
}

/* A data-dependent branch and a bounds check on a uint argument. */
kernel void saxpy(float a, global const float *x, global float *y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    float v = x[i];
    if (v > 0.0f) {
      y[i] = a * v + y[i];
    } else {
      y[i] = y[i] - v;
    }
  }
}

/* The common `int i = get_global_id(0)`: a narrowing the vectorizer must
 * see through. */
kernel void scale_int_index(global const float *a, global float *b) {
  int i = get_global_id(0);
  b[i] = a[i] * 2.0f;
}

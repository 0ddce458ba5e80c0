/* float2 values as complex numbers, used component by component: codegen
 * splits the float2 loads and stores so the work-item loop vectorizes. */
kernel void complex_mul(global const float2 *a, global const float2 *b,
                        global float2 *c) {
  size_t i = get_global_id(0);
  float2 x = a[i], y = b[i];
  c[i] = (float2)(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}

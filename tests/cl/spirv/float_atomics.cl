/* cl_ext_float_atomics from SPIR-V: OpAtomicFAddEXT, OpAtomicFMinEXT and
 * OpAtomicFMaxEXT on global and local floats and doubles. */
kernel void float_atomics(global atomic_float *f, global atomic_double *d,
                          global const float *v) {
  local atomic_float count;
  if (get_local_id(0) == 0) atomic_init(&count, 0.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  float x = v[get_global_id(0)];
  atomic_fetch_add(&f[0], 1.0f);
  atomic_fetch_sub(&f[1], 0.5f);
  atomic_fetch_min(&f[2], x);
  atomic_fetch_max_explicit(&f[3], x, memory_order_relaxed);
  atomic_fetch_add(&d[0], 0.25);
  atomic_fetch_min(&d[1], (double)x);
  atomic_fetch_add(&count, 1.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_fetch_add(&f[4], atomic_load(&count));
}

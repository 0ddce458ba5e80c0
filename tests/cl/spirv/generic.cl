// OpenCL C 2.0 for cl_il_program: generic pointers into global, local and
// private memory, builtins taking them, to_global and to_local, and a
// program-scope variable, made into SPIR-V at build time.
global int launches = 0;

float whole_plus_fraction(float *p) {
  float whole;
  float fraction = fract(*p, &whole);
  return whole + fraction;
}

kernel void generic_pointers(global float *out) {
  local float l[64];
  size_t i = get_global_id(0), lid = get_local_id(0);
  l[lid] = 1.25f + lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  float x = 2.5f;
  float sum = whole_plus_fraction(&out[i]) + whole_plus_fraction(&l[lid]) +
              whole_plus_fraction(&x);
  int kinds = (to_global(&out[i]) != 0) + 10 * (to_local((float *)&l[0]) != 0) +
              100 * (to_global((float *)&l[0]) != 0);
  if (i == 0) atomic_fetch_add((volatile global atomic_int *)&launches, 1);
  out[i] = sum + 1000 * kinds;
}

kernel void count(global int *out) { out[0] = launches; }

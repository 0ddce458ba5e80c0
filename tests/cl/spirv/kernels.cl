/* OpenCL C that tests/cl/meson.build compiles to SPIR-V at build time
 * (clang-15, llvm-spirv-15): the shapes of real kernels, for cl_il_program
 * to run from clCreateProgramWithIL. */
typedef struct {
  int scale;
  float offset;
} params;

kernel void scaled(global const float *in, global float *out, params p) {
  size_t i = get_global_id(0);
  out[i] = in[i] * p.scale + p.offset;
}

kernel void group_sum(global const int *in, global int *out,
                      local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}

/* Work-items loop a data-dependent number of times. */
kernel void collatz(global const uint *start, global uint *steps) {
  size_t i = get_global_id(0);
  uint n = start[i], count = 0;
  while (n > 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    count++;
  }
  steps[i] = count;
}

kernel void math(global const float *x, global float *y, global int *r) {
  size_t i = get_global_id(0);
  y[i] = sqrt(x[i]) + fmax(x[i], 2.0f);
  r[i] = convert_int_rte(x[i] * 2.5f);
}

kernel void histogram(global const uchar *data, volatile global uint *bins,
                      local uint *counts) {
  size_t l = get_local_id(0);
  if (l < 16) counts[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counts[data[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], counts[l]);
}

kernel void brighten(read_only image2d_t source, sampler_t sampler,
                     write_only image2d_t target) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(target, at, read_imagef(source, sampler, at) * 2.0f);
}

constant int table[4] = {3, 1, 4, 1};

float4 twice(float4 v) { return v * 2.0f; }

kernel void vectors(global float4 *v) {
  size_t i = get_global_id(0);
  v[i] = twice(v[i]) + (float4)(table[i % 4], 0.0f, 0.0f, 1.0f);
}

// Kernels for the scalar variant (codegen_scalar_variant.c).

// A sparse matrix's rows, one per work-item: the lanes leave the loop
// apart.
kernel void rows(global const uint *start, global const uint *value,
                 global uint *out) {
  size_t r = get_global_id(0);
  uint s = 0;
  for (uint k = start[r]; k < start[r + 1]; k++) s += value[k] * (k % 7);
  out[r] = s;
}

// The same loop, as long in every work-item: no variant.
kernel void uniform_rows(global const uint *value, global uint *out,
                         uint n) {
  size_t r = get_global_id(0);
  uint s = 0;
  for (uint k = 0; k < n; k++) s += value[k] * (uint)r;
  out[r] = s;
}

// Rows again, then a barrier: the lanes are visible to other work-items
// there, no variant.
kernel void rows_barrier(global const uint *start, global const uint *value,
                         global uint *out, local uint *sums) {
  size_t r = get_global_id(0);
  size_t l = get_local_id(0);
  uint s = 0;
  for (uint k = start[r]; k < start[r + 1]; k++) s += value[k];
  sums[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[r] = sums[(l + 1) % get_local_size(0)];
}

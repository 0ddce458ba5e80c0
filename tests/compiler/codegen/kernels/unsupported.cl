/* Kernels at the edge of what codegen takes: barriers (also through a
 * helper), kernel-scope __local variables and image arguments, which it
 * all compiles. `fine` has none of them. */
kernel void with_barrier(global int *out) {
  out[get_global_id(0)] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] += 1;
}

void sync_helper(void) { barrier(CLK_LOCAL_MEM_FENCE); }

kernel void calls_barrier(global int *out) {
  sync_helper();
  out[get_global_id(0)] = 2;
}

kernel void with_local(global int *out) {
  local int shared[64];
  shared[get_local_id(0)] = (int)get_global_id(0);
  out[get_global_id(0)] = shared[get_local_id(0)];
}

kernel void local_arg(global int *out, local int *scratch) {
  scratch[get_local_id(0)] = (int)get_global_id(0);
  out[get_global_id(0)] = scratch[get_local_id(0)] * 3;
}

__attribute__((reqd_work_group_size(8, 2, 1)))
kernel void fixed(global int *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
      (int)(get_local_size(0) * 10 + get_local_size(1));
}

kernel void fine(global int *out) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = 3;
}

kernel void with_image(read_only image2d_t image, global int *out) {
  out[get_global_id(0)] = get_image_width(image);
}

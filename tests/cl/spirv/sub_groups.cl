/* OpenCL C with sub-group functions that tests/cl/meson.build compiles to
 * SPIR-V (the Groups and GroupNonUniform* capabilities) for
 * cl_il_program: what SYCL and chipStar modules use. */
kernel void sub_groups(global int *out) {
  int i = get_global_id(0);
  int lane = get_sub_group_local_id();
  /* Odd work-items sum the odd ones; even ones vote among themselves. */
  int r = (i & 1) ? sub_group_non_uniform_reduce_add(i)
                  : sub_group_elect() +
                        100000 * (int)sub_group_ballot_bit_count(
                                     sub_group_ballot(i % 8 > 3));
  out[3 * i] = r;
  out[3 * i + 1] = sub_group_reduce_max(i) - lane;
  out[3 * i + 2] = (int)get_max_sub_group_size();
}

/* Compiled to SPIR-V at build time; `helper` is defined in OpenCL C by
 * cl_il_program, which links the two. */
int helper(int x);

kernel void uses_helper(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = helper(i);
}

/* OpenCL C with half precision (cl_khr_fp16) that tests/cl/meson.build
 * compiles to SPIR-V (Float16 capability) for cl_il_program. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void halves(global const half *x, global half *out) {
  size_t i = get_global_id(0);
  half a = x[i], b = x[(i + 5) % get_global_size(0)];
  global half *o = out + 4 * i;
  o[0] = a * b + (half)0.5h;
  o[1] = sqrt(fabs(a));
  o[2] = convert_half_rtz((float)a / 3.0f);
  o[3] = fma(a, b, a);
}

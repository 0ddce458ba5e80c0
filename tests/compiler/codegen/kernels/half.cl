/* Half arithmetic that stays half in the IR (codegen_half_native.c). */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void half_ops(global half *a, global const half *b,
                     global const half *c) {
  size_t i = get_global_id(0);
  a[i] = a[i] * b[i] + c[i] / b[i];
}

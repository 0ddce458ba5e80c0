/* The OpenCL C 1.2 builtin library is declared (-fdeclare-opencl-builtins):
 * a kernel touching each family compiles, and only to declarations. */
#include "frontend_test.h"

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable\n"
    "constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void all(global float4 *f, global int *i, global half *h,\n"
    "                local float *l, read_only image2d_t in,\n"
    "                write_only image2d_t out, read_only image3d_t in3,\n"
    "                sampler_t s) {\n"
    "  size_t g = get_global_id(0) + get_local_size(0) + get_num_groups(0)\n"
    "           + get_group_id(0) + get_global_offset(0) + get_work_dim();\n"
    "  float4 v = f[g];\n"
    "  v = sin(v) + exp(v) + pow(v, v) + fma(v, v, v) + mad(v, v, v);\n"
    "  v += native_sin(v) + half_exp(v) + clamp(v, 0.0f, 1.0f);\n"
    "  v += cross(v, v) + normalize(v) + (float4)(dot(v, v), length(v), 0, 0);\n"
    "  v += select(v, v, isless(v, v)) + convert_float4(convert_int4_sat_rte(v));\n"
    "  v += as_float4(as_int4(v) & 1) + shuffle(v, (uint4)(3, 2, 1, 0));\n"
    "  i[g] = popcount(i[g]) + clz(i[g]) + rotate(i[g], 3) + mul24(i[g], 2)\n"
    "       + add_sat(i[g], 1) + abs_diff(i[g], 2) + hadd(i[g], 1);\n"
    "  atomic_add(i, 1); atom_inc(i); atomic_cmpxchg(i, 1, 2);\n"
    "  vstore_half(v.x, 0, h); v.y += vload_half(1, h);\n"
    "  vstore4(vload4(0, (global float *)f), 1, (global float *)f);\n"
    "  l[get_local_id(0)] = v.x;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
    "  event_t e = async_work_group_copy(l, (global float *)f, 4, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  prefetch(f, 1);\n"
    "  float4 p = read_imagef(in, smp, (int2)(0, 0)) +\n"
    "             read_imagef(in, s, (float2)(0.5f, 0.5f)) +\n"
    "             read_imagef(in3, smp, (int4)(0));\n"
    "  write_imagef(out, (int2)(1, 1), p + v);\n"
    "  i[0] = get_image_width(in) + get_image_channel_order(in);\n"
    "  printf(\"%d %v4hlf\\n\", i[0], v);\n"
    "}\n";

int main(void) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = NULL;
  char *log = NULL;
  CHECK_INT(CC_FRONTEND_SUCCESS,
            cc_compile_opencl_c(context, source, strlen(source), NULL, NULL,
                                0, &module, &log));
  REQUIRE(log != NULL);
  if (*log) fprintf(stderr, "log: %s\n", log);
  CHECK_INT(0, strlen(log)); /* not even a warning */
  REQUIRE(module != NULL);
  int definitions = 0, declarations = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      declarations++;
    else
      definitions++;
  }
  CHECK_INT(1, definitions); /* the kernel only */
  CHECK(declarations > 30);
  CHECK(LLVMGetNamedFunction(module, "printf") != NULL);
  CHECK(LLVMGetNamedFunction(module, "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i") != NULL);
  LLVMDisposeModule(module);
  free(log);

  /* Doubles are a 1.2 optional core feature the device offers
   * (cl_khr_fp64, its macro defined, double builtins declared); half
   * arithmetic (cl_khr_fp16) is not offered. */
  const char *dbl =
      "#ifndef cl_khr_fp64\n#error no fp64\n#endif\n"
      "kernel void k(global double *d) { d[0] = exp(d[1]) + 1.0; }\n";
  CHECK_INT(CC_FRONTEND_SUCCESS,
            cc_compile_opencl_c(context, dbl, strlen(dbl), NULL, NULL, 0,
                                &module, &log));
  CHECK(module && LLVMGetNamedFunction(module, "_Z3expd") != NULL);
  if (module) LLVMDisposeModule(module);
  free(log);
  /* ctz (OpenCL C 2.0) is declared for 1.2 kernels too, every width. */
  const char *ctz =
      "kernel void k(global uint4 *u, global char *c) {\n"
      "  u[0] = ctz(u[1]); c[0] = ctz(c[1]);\n}\n";
  module = NULL;
  CHECK_INT(CC_FRONTEND_SUCCESS,
            cc_compile_opencl_c(context, ctz, strlen(ctz), "-cl-std=CL1.2",
                                NULL, 0, &module, &log));
  CHECK(module && LLVMGetNamedFunction(module, "_Z3ctzDv4_j") != NULL);
  CHECK(module && LLVMGetNamedFunction(module, "_Z3ctzc") != NULL);
  if (module) LLVMDisposeModule(module);
  free(log);
  const char *hlf = "kernel void k(global half *h) { h[0] = h[1] + h[2]; }\n";
  module = NULL;
  CHECK_INT(CC_FRONTEND_COMPILE_FAILED,
            cc_compile_opencl_c(context, hlf, strlen(hlf), NULL, NULL, 0,
                                &module, &log));
  CHECK(log && strstr(log, "half"));
  free(log);
  LLVMContextDispose(context);
  return check_finish();
}

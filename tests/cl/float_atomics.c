/* cl_ext_float_atomics through the loader: atomic_fetch_add, _sub, _min and
 * _max of float, double and half objects in global and local memory, and
 * half loads, stores and exchanges, from 4096 work-items at once, directly
 * and through the generic address space, against the host; each fetch_add returns a distinct old value; the device's
 * capability queries. */
#include <math.h>

#include "cl_test.h"

enum { items = 4096, group = 64, groups = items / group };

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#if !defined(cl_ext_float_atomics) || \\\n"
    "    !defined(__opencl_c_ext_fp32_local_atomic_min_max)\n"
    "#error no cl_ext_float_atomics\n"
    "#endif\n"
    "/* Through the generic address space too. */\n"
    "void add_generic(volatile atomic_float *p, float x) {\n"
    "  atomic_fetch_add(p, x);\n"
    "}\n"
    "void max_generic(volatile atomic_float *p, float x) {\n"
    "  atomic_fetch_max_explicit(p, x, memory_order_relaxed);\n"
    "}\n"
    "kernel void float_atomics(global atomic_float *f, global atomic_double *d,\n"
    "                          global atomic_half *h, global const float *v,\n"
    "                          global float *olds, global float *per_group) {\n"
    "  local atomic_float lsum, lmax;\n"
    "  local atomic_double lmin;\n"
    "  local atomic_half lcount;\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  if (l == 0) {\n"
    "    atomic_init(&lsum, 0.0f);\n"
    "    atomic_init(&lmax, -INFINITY);\n"
    "    atomic_init(&lmin, INFINITY);\n"
    "    atomic_store(&lcount, (half)64.0f);\n"
    "  }\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float x = v[i];\n"
    "  olds[i] = atomic_fetch_add(&f[0], 1.0f);\n"
    "  atomic_fetch_sub_explicit(&f[1], 0.5f, memory_order_relaxed);\n"
    "  atomic_fetch_min(&f[2], x);\n"
    "  atomic_fetch_max_explicit(&f[3], x, memory_order_acq_rel,\n"
    "                            memory_scope_device);\n"
    "  atomic_fetch_add(&d[0], 0.25);\n"
    "  atomic_fetch_min(&d[1], (double)x);\n"
    "  atomic_fetch_max(&d[2], (double)x);\n"
    "  if (i < 2048) atomic_fetch_add(&h[0], (half)1.0f); /* exact */\n"
    "  add_generic(&f[4], 2.0f);\n"
    "  atomic_fetch_min(&h[1], (half)x);\n"
    "  atomic_fetch_max(&h[2], (half)x);\n"
    "  if (i == 5) atomic_store(&h[3], atomic_exchange(&h[4], (half)x));\n"
    "  atomic_fetch_add(&lsum, x);\n"
    "  max_generic(&lmax, x);\n"
    "  atomic_fetch_min(&lmin, (double)x);\n"
    "  atomic_fetch_sub(&lcount, (half)1.0f);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    size_t g = get_group_id(0);\n"
    "    per_group[4 * g] = atomic_load(&lsum);\n"
    "    per_group[4 * g + 1] = atomic_load(&lmax);\n"
    "    per_group[4 * g + 2] = (float)atomic_load(&lmin);\n"
    "    per_group[4 * g + 3] = (float)atomic_load(&lcount);\n"
    "  }\n"
    "}\n";

static void check_queries(cl_device_id device) {
  CHECK(cl_test_has_extension(device, "cl_ext_float_atomics"));
  const cl_device_info queries[] = {0x4231, 0x4232, 0x4233}; /* single,
                                                double, half capabilities */
  for (int q = 0; q < 3; q++) {
    cl_bitfield bits = 0;
    size_t size = 0;
    CHECK_CL_SUCCESS(
        clGetDeviceInfo(device, queries[q], sizeof bits, &bits, &size));
    CHECK_INT(sizeof bits, size);
    /* Load/store, add, min/max, global (bits 0-2) and local (16-18). */
    CHECK(bits == 0x70007);
  }
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  check_queries(device);
  /* OpenCL C 1.2 has no atomic types, but the macros are there. */
  cl_program old = cl_test_build(
      context, device,
      "#ifndef cl_ext_float_atomics\n#error\n#endif\nkernel void k() {}\n",
      "");
  CHECK_CL_SUCCESS(clReleaseProgram(old));
  cl_program program = cl_test_build(context, device, source, "-cl-std=CL3.0");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "float_atomics", &error);
  CHECK_CL_SUCCESS(error);

  /* Values exact as halves, so every type agrees on the extremes. */
  static float values[items];
  uint32_t state = 12345;
  for (int i = 0; i < items; i++) {
    state = state * 1664525u + 1013904223u;
    values[i] = (float)((int)(state >> 20) - 2048) / 4.0f; /* [-512, 512) */
  }
  float fmin_ref = INFINITY, fmax_ref = -INFINITY;
  for (int i = 0; i < items; i++) {
    fmin_ref = fminf(fmin_ref, values[i]);
    fmax_ref = fmaxf(fmax_ref, values[i]);
  }
  float f_init[5] = {0.0f, 0.0f, INFINITY, -INFINITY, 0.0f};
  double d_init[3] = {1.0, INFINITY, -INFINITY};
  _Float16 h_init[5] = {0, 65504, -65504, 0, 7};
  cl_mem f = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof f_init,
                            f_init, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem d = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof d_init,
                            d_init, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem h = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof h_init,
                            h_init, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem v = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof values,
                            values, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem olds = cl_test_buffer(context, items * sizeof(float), NULL);
  cl_mem per_group = cl_test_buffer(context, groups * 4 * sizeof(float), NULL);
  cl_mem args[] = {f, d, h, v, olds, per_group};
  for (cl_uint a = 0; a < 6; a++) {
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, a, sizeof(cl_mem), &args[a]));
  }
  const size_t global = items, local = group;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  float f_out[5], old_out[items], group_out[groups * 4];
  double d_out[3];
  _Float16 h_out[5];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, f, CL_TRUE, 0, sizeof f_out,
                                       f_out, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, d, CL_TRUE, 0, sizeof d_out,
                                       d_out, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, h, CL_TRUE, 0, sizeof h_out,
                                       h_out, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, olds, CL_TRUE, 0,
                                       sizeof old_out, old_out, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, per_group, CL_TRUE, 0,
                                       sizeof group_out, group_out, 0, NULL,
                                       NULL));
  /* Sums of exact steps are exact in any order. */
  CHECK(f_out[0] == (float)items);
  CHECK(f_out[1] == -0.5f * items);
  CHECK(f_out[2] == fmin_ref && f_out[3] == fmax_ref);
  CHECK(d_out[0] == 1.0 + 0.25 * items);
  CHECK(d_out[1] == fmin_ref && d_out[2] == fmax_ref);
  CHECK((float)h_out[0] == 2048.0f);
  CHECK(f_out[4] == 2.0f * items);
  CHECK((float)h_out[1] == fmin_ref && (float)h_out[2] == fmax_ref);
  CHECK((float)h_out[3] == 7.0f && (float)h_out[4] == values[5]);
  /* Every fetch_add saw a different old value: 0 .. items - 1 once each. */
  static bool seen[items];
  int distinct = 0;
  for (int i = 0; i < items; i++) {
    float old_value = old_out[i];
    int index = (int)old_value;
    if (old_value == (float)index && index >= 0 && index < items &&
        !seen[index]) {
      seen[index] = true;
      distinct++;
    }
  }
  CHECK_INT(items, distinct);
  for (int g = 0; g < groups; g++) {
    float sum = 0, max = -INFINITY, min = INFINITY;
    for (int i = g * group; i < (g + 1) * group; i++) {
      sum += values[i]; /* quarters below 2^24: exact in any order */
      max = fmaxf(max, values[i]);
      min = fminf(min, values[i]);
    }
    CHECK(group_out[4 * g] == sum && group_out[4 * g + 1] == max &&
          group_out[4 * g + 2] == min && group_out[4 * g + 3] == 0.0f);
  }
  cl_mem all[] = {f, d, h, v, olds, per_group};
  for (int a = 0; a < 6; a++) CHECK_CL_SUCCESS(clReleaseMemObject(all[a]));
  CHECK_CL_SUCCESS(clReleaseKernel(kernel));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}

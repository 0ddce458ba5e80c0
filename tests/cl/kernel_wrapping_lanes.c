/* clmux: kernels whose consecutive work-items compute integers that cross
 * 0 as unsigned values (gid - off: -2, -1, 0, 1) or the largest signed
 * one, within one vector of the whole-function vectorizer: its strided
 * values are exact only modulo 2^bits, so comparisons of them, zero
 * extensions and logical shifts must see the crossing (ffmpeg's
 * pad_opencl compared `(uint)x < width` and lost the first in-range
 * lanes; `out[(uint)(g - 3)]` under `if (g >= 3)` wrote 16 GiB past the
 * buffer; OpenCV's boxFilter left the first columns of each group
 * unwritten), and narrow integers and big strides, whose lanes wrap in
 * every vector (found by tools/fuzz). Every offset 0..9 and local sizes 1, 3,
 * 16, 17, 64 and NULL, each result checked against the host. */
#include <limits.h>
#include <stdint.h>

#include "cl_test.h"

static const char source[] =
    "kernel void zext_index(global const int *in, global int *out,\n"
    "                       int off, int n) {\n"
    "  uint g = get_global_id(0);\n"
    "  uint i = g - (uint)off;\n"
    "  if (g >= (uint)off && i < (uint)n) out[i] = in[i] + 1;\n"
    "}\n"
    /* One bit per comparison of x = g - off with the bounds. */
    "kernel void compares(global const int *in, global int *out,\n"
    "                     int off, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  int x = g - off;\n"
    "  ulong y = get_global_id(0) - (ulong)off;\n"
    "  int bits = ((uint)x < (uint)n) | ((uint)x <= (uint)(n - 1)) << 1 |\n"
    "             ((uint)x > (uint)(n - 1)) << 2 |\n"
    "             ((uint)x >= (uint)n) << 3 | (x < n) << 4 | (x >= 0) << 5 |\n"
    "             (y < (ulong)n) << 6 | ((uint)n > (uint)x) << 7 |\n"
    "             (x > -2) << 8 | (y >= 2ul) << 9;\n"
    "  out[g] = bits | (int)((uint)((uint)x < (uint)n ? in[x] : -1) << 10);\n"
    "}\n"
    /* Lanes that cross INT_MAX, made without signed overflow. */
    "kernel void signed_crossing(global const int *in, global int *out,\n"
    "                            int off, int n) {\n"
    "  uint g = get_global_id(0);\n"
    "  int x = (int)(g + 0x7ffffffbu + (uint)off);\n"
    "  out[g] = (x < 0) | (x >= 0x7ffffffe) << 1 | (x < -0x7fffffff) << 2;\n"
    "}\n"
    /* Ranges as ffmpeg's pad_opencl and OpenCV's boxFilter write them. */
    "kernel void guarded_read(global const int *in, global int *out,\n"
    "                         int off, int n) {\n"
    "  int g = get_global_id(0), w = n & 0xffff;\n"
    "  int x = g - off;\n"
    "  int a = g < off || g >= w + off ? -1 : in[g - off];\n"
    "  int b = x >= 0 && x < w ? in[x] : -1;\n"
    "  out[g] = a == b ? a : -2;\n"
    "}\n"
    /* OpenCV's boxFilter: the items of a window of the group store. Of
     * its `lid >= 2 && lid < size - 2 && ...` LLVM made the first test
     * below; the first vector's lanes are -2, -1, 0... */
    "kernel void window(global const int *in, global int *out,\n"
    "                   int off, int n) {\n"
    "  int g = get_global_id(0), lid = get_local_id(0);\n"
    "  local int row[64];\n"
    "  row[lid] = g < n ? in[g] : 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (g >= n) return;\n"
    "  if ((uint)(lid - 2) < get_local_size(0) - 4) out[g] = row[lid];\n"
    "  if (lid >= 3 && lid < (int)get_local_size(0) - 1) out[g] += 1;\n"
    "}\n"
    /* Big strides wrap in every lane: a short of gid * 0x9e3779b9, which
     * LLVM makes ashr (shl x, 16), 16 (tools/fuzz's seed 5). */
    "kernel void narrow(global const int *in, global int *out,\n"
    "                   int off, int n) {\n"
    "  uint g = get_global_id(0), r = g + (uint)off;\n"
    "  uint v = g * 0x9e3779b9u;\n"
    "  if (in[g] >= (int)(short)v) {\n"
    "  } else {\n"
    "    r += 1000u;\n"
    "  }\n"
    "  out[g] = (int)r;\n"
    "}\n"
    /* (short)(g * 255), which LLVM makes ashr (mul g, 255 << 16), 16:
     * its sign flips between items 128 and 129. The struct's divergent
     * update is dead but keeps the shape in which tools/fuzz's seed 10836
     * lost the sign. */
    "typedef struct { uint a; uint b; uint4 v; } rec;\n"
    "rec rec_step(rec s, uint k) {\n"
    "  s.a = s.a * 5u + k;\n"
    "  if (k & 1u) s.v += (uint4)(s.b);\n"
    "  else s.v = s.v.wzyx;\n"
    "  return s;\n"
    "}\n"
    "kernel void short_of_stride(global const int *in, global int *out,\n"
    "                            int off, int n) {\n"
    "  uint g = get_global_id(0);\n"
    "  int v = (short)(g * 255u) + off;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  rec s = {g, 3u, (uint4)(g, 1u, 2u, 3u)};\n"
    "  s = rec_step(s, g * 0x9e3779b9u);\n"
    "  out[g] = v;\n"
    "}\n"
    "kernel void shifts(global const int *in, global int *out,\n"
    "                   int off, int n) {\n"
    "  uint g = get_global_id(0);\n"
    "  uint x = g - (uint)off;\n"
    "  out[2 * g] = (int)(x >> 1) ^ (int)(((ulong)x) >> 20);\n"
    "  out[2 * g + 1] = ((int)x) >> 1;\n"
    "}\n";

static cl_context context;
static cl_command_queue queue;
static cl_program program;

enum { items = 300, max_off = 10, slots = 2 * (items + max_off + 64) };

static void run(const char *name, size_t local, int off, size_t global,
                const int *in, int *out) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem in_mem = cl_test_buffer(context, items * sizeof(int), in);
  for (int i = 0; i < slots; i++) out[i] = -7;
  cl_mem out_mem = cl_test_buffer(context, slots * sizeof(int), out);
  int n = items;
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out_mem, &out_mem));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof off, &off));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof n, &n));
  if (local) global = (global + local - 1) / local * local;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
      queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, out_mem, CL_TRUE, 0, slots * sizeof(int), out, 0, NULL, NULL));
  clReleaseMemObject(in_mem);
  clReleaseMemObject(out_mem);
  clReleaseKernel(kernel);
}

static int compares_ref(const int *in, int g, int off) {
  int x = g - off, n = items;
  uint64_t y = (uint64_t)g - (uint64_t)(int64_t)off;
  int bits = ((unsigned)x < (unsigned)n) |
             ((unsigned)x <= (unsigned)(n - 1)) << 1 |
             ((unsigned)x > (unsigned)(n - 1)) << 2 |
             ((unsigned)x >= (unsigned)n) << 3 | (x < n) << 4 | (x >= 0) << 5 |
             (y < (uint64_t)n) << 6 | ((unsigned)n > (unsigned)x) << 7 |
             (x > -2) << 8 | (y >= 2) << 9;
  return bits | (int)((unsigned)((unsigned)x < (unsigned)n ? in[x] : -1) << 10);
}

static int crossing_ref(unsigned g, int off) {
  int x = (int)(g + 0x7ffffffbu + (unsigned)off);
  return (x < 0) | (x >= 0x7ffffffe) << 1 | (x < -0x7fffffff) << 2;
}

/* Counts the slots of `out` that differ from `expected` (first few told). */
static int differences(const char *name, size_t local, int off, const int *out,
                       const int *expected, int count) {
  int bad = 0;
  for (int i = 0; i < count; i++) {
    if (out[i] == expected[i]) continue;
    if (bad++ < 3) {
      fprintf(stderr, "%s local %zu off %d: [%d] = %d, expected %d\n", name,
              local, off, i, out[i], expected[i]);
    }
  }
  return bad;
}

int main(void) {
  cl_device_id device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  const char *text = source;
  cl_int error = CL_SUCCESS;
  program = clCreateProgramWithSource(context, 1, &text, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "%s\n", cl_test_build_log(program, device));
    REQUIRE(!"the program builds");
  }
  static int in[items], out[slots], expected[slots];
  for (int i = 0; i < items; i++) in[i] = (int)((i * 2654435761u) >> 12);
  static const size_t locals[] = {1, 3, 16, 17, 64, 0};
  for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
    size_t local = locals[l];
    for (int off = 0; off < max_off; off++) {
      int global = items + off;
      run("zext_index", local, off, (size_t)global, in, out);
      for (int i = 0; i < slots; i++) expected[i] = i < items ? in[i] + 1 : -7;
      CHECK_INT(0, differences("zext_index", local, off, out, expected, slots));

      global = items + 2 * off;
      run("compares", local, off, (size_t)global, in, out);
      for (int g = 0; g < global; g++) expected[g] = compares_ref(in, g, off);
      CHECK_INT(0, differences("compares", local, off, out, expected, global));

      run("guarded_read", local, off, (size_t)global, in, out);
      for (int g = 0; g < global; g++) {
        expected[g] = g >= off && g - off < items ? in[g - off] : -1;
      }
      CHECK_INT(0,
                differences("guarded_read", local, off, out, expected, global));

      if (local >= 16) { /* the window is empty below 5 */
        run("window", local, off, items, in, out);
        int size = (int)local;
        for (int g = 0; g < slots; g++) {
          int lid = g % size, v = -7;
          if (g < items && lid >= 2 && lid < size - 2) v = in[g];
          if (g < items && lid >= 3 && lid < size - 1) v += 1;
          expected[g] = v;
        }
        CHECK_INT(0, differences("window", local, off, out, expected, slots));
      }

      run("narrow", local, off, items, in, out);
      for (int g = 0; g < items; g++) {
        unsigned v = (unsigned)g * 0x9e3779b9u, r = (unsigned)(g + off);
        if (!(in[g] >= (int)(short)v)) r += 1000u;
        expected[g] = (int)r;
      }
      CHECK_INT(0, differences("narrow", local, off, out, expected, items));

      run("signed_crossing", local, off, 64, in, out);
      for (int g = 0; g < 64; g++) expected[g] = crossing_ref((unsigned)g, off);
      CHECK_INT(0,
                differences("signed_crossing", local, off, out, expected, 64));

      global = items;
      run("short_of_stride", local, off, (size_t)global, in, out);
      for (int g = 0; g < global; g++) {
        expected[g] = (short)(uint16_t)((unsigned)g * 255u) + off;
      }
      CHECK_INT(
          0, differences("short_of_stride", local, off, out, expected, global));

      run("shifts", local, off, (size_t)global, in, out);
      for (int g = 0; g < global; g++) {
        unsigned x = (unsigned)g - (unsigned)off;
        expected[2 * g] = (int)(x >> 1) ^ (int)((uint64_t)x >> 20);
        expected[2 * g + 1] = (int)x >> 1;
      }
      CHECK_INT(0,
                differences("shifts", local, off, out, expected, 2 * global));
    }
  }
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* clmux: a division of kernel arguments (`in[k % n]`) under a branch
 * some work-items take. LLVM 19's loop vectorizer, widening the loop over
 * the work-items, computes such a division once per vector under the
 * first lane's condition and then reads the address in every lane: with
 * the first lane's branch not taken the address was garbage (tools/fuzz's
 * seed 1644; llvm/llvm-project#142957 is the same bug). Here the first
 * item of every 8 skips the branch. Run twice: as built by default, and
 * with CLMUX_VECTORIZE=0, where every kernel is left to the loop
 * vectorizer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_test.h"

static const char source[] =
    "kernel void rem_index(global const uint *in, global uint *out,\n"
    "                      uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g];\n"
    "  if (v & 1u) v += in[k % n];\n"
    "  out[g] = v;\n"
    "}\n"
    "kernel void div_index(global const uint *in, global uint *out,\n"
    "                      uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g];\n"
    "  if (v & 1u) v ^= in[(k / n) & 255u] * 3u;\n"
    "  out[g] = v;\n"
    "}\n"
    "kernel void long_rem(global const uint *in, global uint *out,\n"
    "                     uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g];\n"
    "  if (v & 1u) v -= in[((ulong)k * 977ul) % (ulong)n];\n"
    "  out[g] = v;\n"
    "}\n"
    "kernel void signed_rem(global const uint *in, global uint *out,\n"
    "                       uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g];\n"
    "  if (v & 1u) v += in[abs((int)k % (int)n)];\n"
    "  out[g] = v;\n"
    "}\n"
    /* The loop the fuzzer's kernel had, which LLVM turns into its exit
     * value: the division ends up under the loop's entry test. */
    "kernel void loop_rem(global const uint *in, global uint *out,\n"
    "                     uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g];\n"
    "  for (uint i = 0; i < (v & 7u); i++)\n"
    "    v = max((int)in[g], (int)i) - in[k % n];\n"
    "  out[g] = v;\n"
    "}\n"
    /* Seed 34028's shape: a second use under a nested branch makes LLVM
     * compute the division in each lane under that lane's condition, and
     * the first lane's result is then every lane's address. */
    "kernel void nested_rem(global const uint *in, global uint *out,\n"
    "                       uint n, uint k) {\n"
    "  uint g = get_global_id(0), v = in[g], w = 0;\n"
    "  if (v & 1u) {\n"
    "    if (v & 2u) w = in[(in[g % n] + in[in[k % n] % n]) % n];\n"
    "    v += in[k % n];\n"
    "  }\n"
    "  out[g] = v + w * 3u;\n"
    "}\n";

enum { items = 1000, n = 251 };

static uint32_t expected(const char *name, const uint32_t *in, uint32_t g,
                         uint32_t k) {
  uint32_t v = in[g];
  if (!strcmp(name, "loop_rem")) {
    uint32_t count = v & 7u;
    for (uint32_t i = 0; i < count; i++) {
      int32_t a = (int32_t)in[g], b = (int32_t)i;
      v = (uint32_t)(a > b ? a : b) - in[k % n];
    }
    return v;
  }
  if (!(v & 1u)) return v;
  if (!strcmp(name, "nested_rem")) {
    uint32_t w = v & 2u ? in[(in[g % n] + in[in[k % n] % n]) % n] : 0;
    return v + in[k % n] + w * 3u;
  }
  if (!strcmp(name, "rem_index")) return v + in[k % n];
  if (!strcmp(name, "div_index")) return v ^ (in[(k / n) & 255u] * 3u);
  if (!strcmp(name, "signed_rem")) {
    int32_t r = (int32_t)k % (int32_t)n;
    return v + in[r < 0 ? -r : r];
  }
  return v - in[((uint64_t)k * 977u) % n];
}

static int run_all(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_program program = cl_test_build(context, device, source, "");
  cl_int error = CL_SUCCESS;
  /* Odd values except at every 8th item, whose branch is not taken (the
   * loop's count, v & 7, is 0 there). */
  static uint32_t in[items], out[items];
  for (uint32_t i = 0; i < items; i++) {
    uint32_t v = (i * 2654435761u) >> 4;
    in[i] = i % 8 == 0 ? v & ~7u : v | 1u;
  }
  static const char *const names[] = {"rem_index",  "div_index", "long_rem",
                                      "signed_rem", "loop_rem",  "nested_rem"};
  static const size_t locals[] = {0, 1, 8, 64, 256};
  static const uint32_t keys[] = {5, 1000003, 0xfffffff1u};
  int bad = 0;
  cl_mem in_mem = cl_test_buffer(context, sizeof in, in);
  cl_mem out_mem = cl_test_buffer(context, sizeof out, NULL);
  for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
    cl_kernel kernel = clCreateKernel(program, names[f], &error);
    REQUIRE(error == CL_SUCCESS);
    for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
      for (size_t key = 0; key < sizeof keys / sizeof *keys; key++) {
        uint32_t count = n, k = keys[key];
        CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem));
        CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out_mem, &out_mem));
        CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof count, &count));
        CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof k, &k));
        size_t global = items, local = locals[l];
        if (local) global = items / local * local;
        CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                                local ? &local : NULL, 0, NULL,
                                                NULL));
        memset(out, 0, sizeof out);
        CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0,
                                             global * sizeof *out, out, 0, NULL,
                                             NULL));
        int wrong = 0;
        for (uint32_t g = 0; g < global; g++) {
          if (out[g] != expected(names[f], in, g, k) && wrong++ < 3) {
            fprintf(stderr, "%s (local %zu, k %u): item %u: %#x, not %#x\n",
                    names[f], local, k, g, out[g],
                    expected(names[f], in, g, k));
          }
        }
        bad += wrong;
      }
    }
    clReleaseKernel(kernel);
  }
  clReleaseMemObject(in_mem);
  clReleaseMemObject(out_mem);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return bad;
}

int main(void) {
  /* The reference mode is read once per process: a child runs it. */
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    setenv("CLMUX_VECTORIZE", "0", 1);
    _exit(run_all() == 0 ? 0 : 1);
  }
  CHECK_INT(0, run_all());
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return check_finish();
}

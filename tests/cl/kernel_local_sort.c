/* clmux: sorting networks in __local memory, the shapes GPU sorts use
 * (Boost.Compute's merge sort): barriers inside nested loops inside a
 * uniform if whose other arm has barriers of its own, and loops with
 * barriers that a uniform condition leaves early. Cut into regions such a
 * kernel's loops have several exits and entries; the structurizer lost
 * the path out of the inner loop, so that every key came back unchanged.
 * Each block is checked against the host's sort, at every power-of-two
 * local size up to 256 and with a last, partial block. */
#include <stdlib.h>

#include "cl_test.h"

static const char source[] =
    /* Bitonic in a whole block, odd-even transposition in a partial one. */
    "kernel void block_sort(uint count, local int *keys, global int *data) {\n"
    "  uint gid = get_global_id(0), lid = get_local_id(0);\n"
    "  int key = gid < count ? data[gid] : 0;\n"
    "  keys[lid] = key;\n"
    "  uint offset = get_group_id(0) * get_local_size(0);\n"
    "  uint n = min((uint)get_local_size(0), count - offset);\n"
    "  if ((n & (n - 1)) == 0) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint length = 1; length < n; length <<= 1) {\n"
    "      bool down = (lid & (length << 1)) != 0;\n"
    "      for (uint k = length; k > 0; k >>= 1) {\n"
    "        uint other = lid ^ k;\n"
    "        int theirs = keys[other];\n"
    "        bool less = theirs < key, equal = theirs == key;\n"
    "        bool swap = !equal && (less ^ (other < lid) ^ down);\n"
    "        key = swap ? theirs : key;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        keys[lid] = key;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      }\n"
    "    }\n"
    "  } else {\n"
    "    bool even = lid % 2 == 0;\n"
    "    uint odd_other = even ? max(lid, 1u) - 1 : min(lid + 1, n - 1);\n"
    "    uint even_other = even ? min(lid + 1, n - 1) : max(lid, 1u) - 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = 0; i < n; i++) {\n"
    "      uint other = i % 2 == 0 ? even_other : odd_other;\n"
    "      int theirs = keys[other];\n"
    "      bool swap = theirs != key && ((theirs < key) ^ (other < lid));\n"
    "      key = swap ? theirs : key;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      keys[lid] = key;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "  }\n"
    "  if (gid < count) data[gid] = key;\n"
    "}\n"
    /* Odd-even transposition that stops once a pass swapped nothing: the
     * loop with barriers has a second, uniform exit. */
    "kernel void until_sorted(uint count, local int *keys,\n"
    "                         global int *data) {\n"
    "  uint gid = get_global_id(0), lid = get_local_id(0);\n"
    "  uint n = get_local_size(0);\n"
    "  local int swaps;\n"
    "  int key = data[gid];\n"
    "  keys[lid] = key;\n"
    "  for (uint pass = 0; pass < n + 1; pass++) {\n"
    "    if (lid == 0) swaps = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint phase = 0; phase < 2; phase++) {\n"
    "      uint other = ((lid + phase) & 1) ? lid - 1 : lid + 1;\n"
    "      if (other < n) {\n"
    "        int theirs = keys[other];\n"
    "        bool swap = other < lid ? theirs > key : theirs < key;\n"
    "        if (swap) { key = theirs; atomic_inc(&swaps); }\n"
    "      }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      keys[lid] = key;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (swaps == 0) break;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  data[gid] = key;\n"
    "}\n";

static int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sorts `count` keys in blocks of `local` with `name`; returns the blocks
 * that differ from the host's sort. */
static int sort_blocks(cl_context context, cl_command_queue queue,
                       cl_program program, const char *name, size_t local,
                       cl_uint count) {
  size_t global = (count + local - 1) / local * local;
  int *keys = malloc(global * sizeof *keys);
  int *sorted = malloc(global * sizeof *sorted);
  REQUIRE(keys && sorted);
  srand((unsigned)(local * 7 + count));
  for (size_t i = 0; i < global; i++) keys[i] = rand() % 100 - 50;
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem data = cl_test_buffer(context, global * sizeof *keys, keys);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof count, &count));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, local * sizeof(int), NULL));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof data, &data));
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, data, CL_TRUE, 0, global * sizeof *sorted, sorted, 0, NULL, NULL));
  int bad = 0;
  for (size_t start = 0; start < count; start += local) {
    size_t n = count - start < local ? count - start : local;
    qsort(keys + start, n, sizeof *keys, compare_ints);
    if (memcmp(keys + start, sorted + start, n * sizeof *keys) != 0) {
      if (bad++ == 0) {
        fprintf(stderr, "%s, local size %zu, %u keys: block %zu unsorted\n",
                name, local, count, start / local);
      }
    }
  }
  clReleaseMemObject(data);
  clReleaseKernel(kernel);
  free(keys);
  free(sorted);
  return bad;
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  const char *text = source;
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "%s\n", cl_test_build_log(program, device));
    REQUIRE(!"the program builds");
  }
  for (size_t local = 2; local <= 256; local *= 2) {
    /* Whole blocks (bitonic), then a partial last one (odd-even). */
    CHECK_INT(0, sort_blocks(context, queue, program, "block_sort", local,
                             (cl_uint)(4 * local)));
    CHECK_INT(0, sort_blocks(context, queue, program, "block_sort", local,
                             (cl_uint)(3 * local + local / 2 + 1)));
    CHECK_INT(0, sort_blocks(context, queue, program, "until_sorted", local,
                             (cl_uint)(3 * local)));
  }
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

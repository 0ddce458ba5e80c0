/* Builtin library tests — the 64-bit atom_* functions of
 * cl_khr_int64_{base,extended}_atomics, global and local: many
 * work-groups on several worker threads hit the same counters with values
 * beyond 32 bits; final values must be what some serial order gives and
 * the olds of atom_add form a permutation (no update lost). */
#include "builtins_test.h"

#define N 8192
#define LOCAL 64
#define BIG 0x100000001LL /* carries into the high word every time */

enum { ADD, SUB, INC, DEC, MIN, MAX, AND, OR, XOR, XCHG, CMPXCHG, SLOTS };

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "enum { ADD, SUB, INC, DEC, MIN, MAX, AND, OR, XOR, XCHG, CMPXCHG };\n"
    "kernel void global_ops(global long *c, global ulong *u,\n"
    "                       global long *old_add) {\n"
    "  long g = (long)get_global_id(0);\n"
    "  old_add[g] = atom_add(&c[ADD], 0x100000001L);\n"
    "  atom_sub(&c[SUB], 0x100000001L);\n"
    "  atom_inc(&c[INC]);\n"
    "  atom_dec(&c[DEC]);\n"
    "  atom_min(&c[MIN], (g * 7919) % 10007 * 0x10000000L - (1L << 40));\n"
    "  atom_max(&c[MAX], (g * 7919) % 10007 * 0x10000000L - (1L << 40));\n"
    "  atom_and(&c[AND], ~(1L << (g % 64)) | (g % 128 < 64 ? 0 : 1L << 40));\n"
    "  atom_or(&c[OR], 1L << (g % 61));\n"
    "  atom_xor(&c[XOR], g * 0x9e3779b97f4a7c15L);\n"
    "  atom_xchg(&c[XCHG], g);\n"
    "  long seen = c[CMPXCHG], was;\n"
    "  while ((was = atom_cmpxchg(&c[CMPXCHG], seen,\n"
    "                             seen + 0x100000001L)) != seen)\n"
    "    seen = was;\n"
    "  atom_min(&u[0], 0x8000000000000000UL + (ulong)g * 40503UL);\n"
    "  atom_max(&u[1], (ulong)g << 40);\n"
    "}\n"
    "kernel void local_ops(local long *l, global long *out) {\n"
    "  long lid = (long)get_local_id(0);\n"
    "  if (lid == 0) { l[0] = 0; l[1] = 1L << 50; l[2] = -1; l[3] = 0; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atom_add(&l[0], lid << 33);\n"
    "  atom_min(&l[1], (lid * 37 % 64 - 20) << 34);\n"
    "  atom_and(&l[2], ~(1L << (lid + 32)));\n"
    "  atom_inc(&l[3]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid < 4) out[get_group_id(0) * 4 + lid] = l[lid];\n"
    "}\n";

static int compare_longs(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void check_global(mux_executable_t exe) {
  int64_t c[SLOTS] = {0};
  c[MIN] = INT64_MAX;
  c[MAX] = INT64_MIN;
  c[AND] = -1;
  c[CMPXCHG] = 7;
  uint64_t u[2] = {UINT64_MAX, 0};
  bt_buffer cb = bt_buffer_create(c, sizeof c);
  bt_buffer ub = bt_buffer_create(u, sizeof u);
  bt_buffer olds = bt_buffer_create(NULL, N * 8);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&cb), bt_buffer_arg(&ub),
                                  bt_buffer_arg(&olds)};
  bt_run(exe, "global_ops", args, 3, N, LOCAL);

  int64_t min = INT64_MAX, max = INT64_MIN, and = -1, or = 0;
  uint64_t xor = 0, umin = UINT64_MAX, umax = 0;
  for (int64_t g = 0; g < N; g++) {
    int64_t v = (g * 7919) % 10007 * 0x10000000LL - (1LL << 40);
    min = v < min ? v : min;
    max = v > max ? v : max;
    and &= ~(1LL << (g % 64)) | (g % 128 < 64 ? 0 : 1LL << 40);
    or |= 1LL << (g % 61);
    xor ^= (uint64_t)g * 0x9e3779b97f4a7c15ULL;
    uint64_t a = 0x8000000000000000ULL + (uint64_t)g * 40503u;
    umin = a < umin ? a : umin;
    umax = (uint64_t)g << 40 > umax ? (uint64_t)g << 40 : umax;
  }
  bt_buffer_read(&cb, c);
  bt_buffer_read(&ub, u);
  CHECK(c[ADD] == N * BIG);
  CHECK(c[SUB] == -N * BIG);
  CHECK(c[INC] == N && c[DEC] == -N);
  CHECK(c[MIN] == min && c[MAX] == max);
  CHECK(c[AND] == and && c[OR] == or && (uint64_t)c[XOR] == xor);
  CHECK(c[XCHG] >= 0 && c[XCHG] < N);
  CHECK(c[CMPXCHG] == 7 + N * BIG);
  CHECK(u[0] == umin && u[1] == umax);
  static int64_t old[N];
  bt_buffer_read(&olds, old);
  qsort(old, N, sizeof *old, compare_longs);
  int sequence = 1;
  for (int64_t i = 0; i < N; i++) sequence &= old[i] == i * BIG;
  CHECK(sequence);
  bt_buffer_destroy(&cb);
  bt_buffer_destroy(&ub);
  bt_buffer_destroy(&olds);
}

static void check_local(mux_executable_t exe) {
  enum { GROUPS = 32 };
  bt_buffer out = bt_buffer_create(NULL, GROUPS * 4 * 8);
  mux_descriptor_info_t args[2] = {{0}, bt_buffer_arg(&out)};
  args[0].type = mux_descriptor_info_type_shared_local_buffer;
  args[0].shared_local_buffer_descriptor.size = 4 * 8;
  bt_run(exe, "local_ops", args, 2, GROUPS * LOCAL, LOCAL);
  int64_t sum = 0, min = 1LL << 50, and = -1;
  for (int64_t lid = 0; lid < LOCAL; lid++) {
    sum += lid << 33;
    int64_t v = (lid * 37 % 64 - 20) * (1LL << 34);
    min = v < min ? v : min;
    and &= ~(1LL << ((lid + 32) & 63)); /* OpenCL shifts modulo 64 */
  }
  static int64_t got[GROUPS * 4];
  bt_buffer_read(&out, got);
  int all = 1;
  for (int g = 0; g < GROUPS; g++) {
    all &= got[g * 4] == sum && got[g * 4 + 1] == min &&
           got[g * 4 + 2] == and && got[g * 4 + 3] == LOCAL;
  }
  CHECK(all);
  bt_buffer_destroy(&out);
}

int main(void) {
  bt_start();
  const char *names[] = {"global_ops", "local_ops"};
  mux_executable_t exe = bt_build(source, names, 2, LOCAL, NULL);
  REQUIRE(exe);
  check_global(exe);
  check_local(exe);
  bt_executable_destroy(exe);
  return bt_finish();
}

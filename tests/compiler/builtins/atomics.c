/* Builtin library tests — atomic functions (OpenCL 1.2 section 6.12.11)
 * and the atom_* names of the int32 atomics extensions: many work-groups,
 * run by several worker threads at once, hit the same counters; the final
 * values and the old values each work-item got back must be what some
 * serial order of the operations gives (olds of add/inc form a
 * permutation: no update lost or seen twice). */
#include "builtins_test.h"

#define N 8192
#define LOCAL 64

/* Counter slots, the same for the atomic_ and the atom_ kernel. */
enum { ADD, SUB, INC, DEC, MIN, MAX, AND, OR, XOR, XCHG, CMPXCHG, UMIN, UMAX, SLOTS };

#define KERNEL(prefix)                                                       \
  "kernel void " #prefix "global(global int *c, global uint *u,\n"           \
  "                          global int *old_add, global int *old_inc,\n"   \
  "                          global int *old_xchg) {\n"                     \
  "  int g = (int)get_global_id(0);\n"                                      \
  "  old_add[g] = " #prefix "add(&c[ADD], 1);\n"                            \
  "  " #prefix "sub(&c[SUB], 2);\n"                                         \
  "  old_inc[g] = " #prefix "inc(&c[INC]);\n"                               \
  "  " #prefix "dec(&c[DEC]);\n"                                            \
  "  " #prefix "min(&c[MIN], (g * 7919) % 10007 - 5000);\n"                 \
  "  " #prefix "max(&c[MAX], (g * 7919) % 10007 - 5000);\n"                 \
  "  " #prefix "and(&c[AND], ~(1 << (g % 32)) | (g % 64 < 32 ? 0 : 1 << 5));\n" \
  "  " #prefix "or(&c[OR], 1 << (g % 29));\n"                               \
  "  " #prefix "xor(&c[XOR], g * 2654435761u);\n"                           \
  "  old_xchg[g] = " #prefix "xchg(&c[XCHG], g);\n"                         \
  "  int seen = c[CMPXCHG], was;\n"                                         \
  "  while ((was = " #prefix "cmpxchg(&c[CMPXCHG], seen, seen + 3)) != seen)\n" \
  "    seen = was;\n"                                                       \
  "  " #prefix "min(&u[0], 0x80000000u + (uint)g * 40503u);\n"              \
  "  " #prefix "max(&u[1], (uint)g * 40503u);\n"                            \
  "}\n"

static const char *source =
    "enum { ADD, SUB, INC, DEC, MIN, MAX, AND, OR, XOR, XCHG, CMPXCHG };\n"
    KERNEL(atomic_) KERNEL(atom_)
    /* float exchange and the uint forms of the plain operations */
    "kernel void float_xchg(global float *f, global float *old) {\n"
    "  old[get_global_id(0)] = atomic_xchg(f, (float)get_global_id(0));\n"
    "}\n"
    "kernel void uint_ops(global uint *u, global uint *old) {\n"
    "  uint g = (uint)get_global_id(0);\n"
    "  old[g] = atomic_add(&u[0], 0x10000u);\n" /* wraps past 2^32 */
    "  atom_sub(&u[1], 3u);\n"
    "  atomic_inc(&u[2]);\n"
    "  atom_dec(&u[3]);\n"
    "  atomic_xor(&u[4], g);\n"
    "  atomic_cmpxchg(&u[5], g, g + 1u);\n" /* a chain: only one order works */
    "}\n"
    /* long-running work-items, so that groups on different threads overlap */
    "kernel void hammer(global int *c, global uint *u) {\n"
    "  for (int k = 0; k < 256; k++) {\n"
    "    atomic_inc(&c[0]);\n"
    "    atom_add(&c[1], 3);\n"
    "    atomic_sub(&u[0], 1u);\n"
    "    atom_xor(&c[2], 1 << (k & 31));\n"
    "  }\n"
    "}\n"
    /* __local: every operation, both names, results per group */
    "kernel void local_ops(local int *l, local uint *lu, global int *out,\n"
    "                      global int *old_inc) {\n"
    "  int lid = (int)get_local_id(0), g = (int)get_group_id(0);\n"
    "  if (lid == 0) {\n"
    "    for (int k = 0; k < 10; k++) l[k] = 0;\n"
    "    l[4] = 1 << 30; l[5] = -(1 << 30); l[6] = -1;\n"
    "    lu[0] = 0xffffffffu; lu[1] = 0;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_add(&l[0], lid);\n"
    "  old_inc[g * get_local_size(0) + lid] = atom_inc(&l[1]);\n"
    "  atom_sub(&l[2], lid);\n"
    "  atomic_dec(&l[3]);\n"
    "  atom_min(&l[4], lid * 37 % 64 - 20);\n"
    "  atomic_max(&l[5], lid * 37 % 64 - 20);\n"
    "  atom_and(&l[6], ~(1 << lid));\n"
    "  atomic_or(&l[7], 1 << (lid % 31));\n"
    "  atom_xor(&l[8], lid * 12345);\n"
    "  int seen = l[9], was;\n"
    "  while ((was = atomic_cmpxchg(&l[9], seen, seen + 2)) != seen) seen = was;\n"
    "  atomic_min(&lu[0], 0x80000000u + (uint)lid);\n"
    "  atom_max(&lu[1], 0x80000000u + (uint)lid);\n"
    "  atomic_xchg(&l[10], lid);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid == 0) {\n"
    "    for (int k = 0; k < 11; k++) out[g * 13 + k] = l[k];\n"
    "    out[g * 13 + 11] = (int)lu[0];\n"
    "    out[g * 13 + 12] = (int)lu[1];\n"
    "  }\n"
    "}\n";

static void check_global(mux_executable_t exe, const char *kernel) {
  int counters[SLOTS] = {0};
  counters[MIN] = 1 << 30;
  counters[MAX] = -(1 << 30);
  counters[AND] = -1;
  counters[XCHG] = -1;
  counters[CMPXCHG] = 7;
  uint32_t unsigned_counters[2] = {0xffffffffu, 0};
  bt_buffer c = bt_buffer_create(counters, sizeof counters);
  bt_buffer u = bt_buffer_create(unsigned_counters, sizeof unsigned_counters);
  bt_buffer old_add = bt_buffer_create(NULL, N * 4);
  bt_buffer old_inc = bt_buffer_create(NULL, N * 4);
  bt_buffer old_xchg = bt_buffer_create(NULL, N * 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&c), bt_buffer_arg(&u),
                                  bt_buffer_arg(&old_add),
                                  bt_buffer_arg(&old_inc),
                                  bt_buffer_arg(&old_xchg)};
  bt_run(exe, kernel, args, 5, N, LOCAL);

  int expect_min = 1 << 30, expect_max = -(1 << 30), expect_and = -1;
  int expect_or = 0;
  uint32_t expect_xor = 0, expect_umin = 0xffffffffu, expect_umax = 0;
  for (int g = 0; g < N; g++) {
    int v = (g * 7919) % 10007 - 5000;
    expect_min = v < expect_min ? v : expect_min;
    expect_max = v > expect_max ? v : expect_max;
    expect_and &= ~(1 << (g % 32)) | (g % 64 < 32 ? 0 : 1 << 5);
    expect_or |= 1 << (g % 29);
    expect_xor ^= (uint32_t)g * 2654435761u;
    uint32_t a = 0x80000000u + (uint32_t)g * 40503u, b = (uint32_t)g * 40503u;
    expect_umin = a < expect_umin ? a : expect_umin;
    expect_umax = b > expect_umax ? b : expect_umax;
  }
  bt_buffer_read(&c, counters);
  bt_buffer_read(&u, unsigned_counters);
  CHECK_INT(N, counters[ADD]);
  CHECK_INT(-2 * N, counters[SUB]);
  CHECK_INT(N, counters[INC]);
  CHECK_INT(-N, counters[DEC]);
  CHECK_INT(expect_min, counters[MIN]);
  CHECK_INT(expect_max, counters[MAX]);
  CHECK_INT(expect_and, counters[AND]);
  CHECK_INT(expect_or, counters[OR]);
  CHECK_INT((int)expect_xor, counters[XOR]);
  CHECK_INT(7 + 3 * N, counters[CMPXCHG]);
  CHECK_INT(expect_umin, unsigned_counters[0]);
  CHECK_INT(expect_umax, unsigned_counters[1]);

  static int olds[N + 1];
  bt_buffer_read(&old_add, olds);
  CHECK(bt_is_sequence(olds, N, 0));
  bt_buffer_read(&old_inc, olds);
  CHECK(bt_is_sequence(olds, N, 0));
  /* The exchanged-out values plus the last one in: -1 and every g once. */
  bt_buffer_read(&old_xchg, olds);
  olds[N] = counters[XCHG];
  CHECK(bt_is_sequence(olds, N + 1, -1));

  bt_buffer_destroy(&c);
  bt_buffer_destroy(&u);
  bt_buffer_destroy(&old_add);
  bt_buffer_destroy(&old_inc);
  bt_buffer_destroy(&old_xchg);
}

static void check_float_and_uint(mux_executable_t exe) {
  float f = 0.5f;
  bt_buffer fb = bt_buffer_create(&f, 4);
  bt_buffer old = bt_buffer_create(NULL, N * 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&fb), bt_buffer_arg(&old)};
  bt_run(exe, "float_xchg", args, 2, N, LOCAL);
  static float olds[N + 1];
  bt_buffer_read(&old, olds);
  bt_buffer_read(&fb, &olds[N]);
  /* 0.5 and each 0..N-1 exactly once among the olds and the final value */
  static int seen[N];
  int halves = 0, bad = 0;
  memset(seen, 0, sizeof seen);
  for (int i = 0; i <= N; i++) {
    if (olds[i] == 0.5f) {
      halves++;
    } else if (olds[i] >= 0 && olds[i] < N && olds[i] == (int)olds[i]) {
      seen[(int)olds[i]]++;
    } else {
      bad++;
    }
  }
  int each_once = 1;
  for (int i = 0; i < N; i++) each_once &= seen[i] == 1;
  CHECK(halves == 1 && bad == 0 && each_once);

  uint32_t u[6] = {0xfff00000u, 5, 0xfffffff0u, 3, 0, 0};
  bt_buffer ub = bt_buffer_create(u, sizeof u);
  mux_descriptor_info_t uargs[] = {bt_buffer_arg(&ub), bt_buffer_arg(&old)};
  bt_run(exe, "uint_ops", uargs, 2, N, LOCAL);
  bt_buffer_read(&ub, u);
  uint32_t expect_xor = 0;
  for (uint32_t g = 0; g < N; g++) expect_xor ^= g;
  CHECK_INT((uint32_t)(0xfff00000u + 0x10000u * N), u[0]);
  CHECK_INT((uint32_t)(5u - 3u * N), u[1]);
  CHECK_INT((uint32_t)(0xfffffff0u + N), u[2]);
  CHECK_INT((uint32_t)(3u - N), u[3]);
  CHECK_INT(expect_xor, u[4]);
  /* cmpxchg(g -> g+1) succeeds for g = 0 only if run in order; the final
   * value is 1 + the length of the run of successes, at least 1. */
  CHECK(u[5] >= 1 && u[5] <= N);
  static uint32_t uolds[N];
  bt_buffer_read(&old, uolds);
  /* the add olds: the values 0xfff00000 + k * 0x10000 (mod 2^32), each once */
  static int hits[N];
  memset(hits, 0, sizeof hits);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    uint32_t k = (uolds[i] - 0xfff00000u) / 0x10000u;
    if ((uolds[i] - 0xfff00000u) % 0x10000u || k >= N || hits[k]++) ok = 0;
  }
  CHECK(ok);
  bt_buffer_destroy(&fb);
  bt_buffer_destroy(&old);
  bt_buffer_destroy(&ub);
}

static void check_hammer(mux_executable_t exe) {
  int c[3] = {0, 0, 0};
  uint32_t u = 1000;
  bt_buffer bc = bt_buffer_create(c, sizeof c), bu = bt_buffer_create(&u, 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&bc), bt_buffer_arg(&bu)};
  bt_run(exe, "hammer", args, 2, 16384, LOCAL);
  bt_buffer_read(&bc, c);
  bt_buffer_read(&bu, &u);
  CHECK_INT(16384 * 256, c[0]);
  CHECK_INT(16384 * 256 * 3, c[1]);
  CHECK_INT((uint32_t)(1000u - 16384u * 256u), u);
  CHECK_INT(0, c[2]); /* each bit flipped an even number of times */
  bt_buffer_destroy(&bc);
  bt_buffer_destroy(&bu);
}

static void check_local(mux_executable_t exe) {
  enum { GROUPS = 32 };
  bt_buffer out = bt_buffer_create(NULL, GROUPS * 13 * 4);
  bt_buffer old_inc = bt_buffer_create(NULL, GROUPS * LOCAL * 4);
  mux_descriptor_info_t args[4];
  memset(args, 0, sizeof args);
  args[0].type = mux_descriptor_info_type_shared_local_buffer;
  args[0].shared_local_buffer_descriptor.size = 11 * 4;
  args[1].type = mux_descriptor_info_type_shared_local_buffer;
  args[1].shared_local_buffer_descriptor.size = 2 * 4;
  args[2] = bt_buffer_arg(&out);
  args[3] = bt_buffer_arg(&old_inc);
  bt_run(exe, "local_ops", args, 4, GROUPS * LOCAL, LOCAL);
  static int r[GROUPS * 13], olds[GROUPS * LOCAL];
  bt_buffer_read(&out, r);
  bt_buffer_read(&old_inc, olds);
  int expect_min = 1 << 30, expect_max = -(1 << 30), expect_and = -1;
  int expect_or = 0, expect_xor = 0;
  for (int lid = 0; lid < LOCAL; lid++) {
    int v = lid * 37 % 64 - 20;
    expect_min = v < expect_min ? v : expect_min;
    expect_max = v > expect_max ? v : expect_max;
    expect_and &= ~(1 << lid);
    expect_or |= 1 << (lid % 31);
    expect_xor ^= lid * 12345;
  }
  int bad = 0;
  for (int g = 0; g < GROUPS; g++) {
    const int *x = &r[g * 13];
    bad += x[0] != LOCAL * (LOCAL - 1) / 2;
    bad += x[1] != LOCAL;
    bad += x[2] != -LOCAL * (LOCAL - 1) / 2;
    bad += x[3] != -LOCAL;
    bad += x[4] != expect_min;
    bad += x[5] != expect_max;
    bad += x[6] != expect_and;
    bad += x[7] != expect_or;
    bad += x[8] != expect_xor;
    bad += x[9] != 2 * LOCAL;
    bad += x[10] < 0 || x[10] >= LOCAL;
    bad += (uint32_t)x[11] != 0x80000000u;
    bad += (uint32_t)x[12] != 0x80000000u + LOCAL - 1;
    bad += !bt_is_sequence(&olds[g * LOCAL], LOCAL, 0);
  }
  CHECK_INT(0, bad);
  bt_buffer_destroy(&out);
  bt_buffer_destroy(&old_inc);
}

int main(void) {
  bt_start();
  const char *names[] = {"atomic_global", "atom_global", "float_xchg",
                         "uint_ops", "hammer", "local_ops"};
  mux_executable_t exe = bt_build(source, names, 6, LOCAL, NULL);
  REQUIRE(exe);
  check_global(exe, "atomic_global");
  check_global(exe, "atom_global");
  check_float_and_uint(exe);
  check_hammer(exe);
  check_local(exe);
  bt_executable_destroy(exe);
  return bt_finish();
}

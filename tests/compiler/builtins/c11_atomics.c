/* Builtin library tests — the C11-style atomic functions of OpenCL C 3.0
 * (section 6.15.12, __global and __local objects): compiled with
 * -cl-std=CL3.0, many work-groups on several worker threads hit the same
 * objects with every function family, every order and both scopes; the
 * results must be what some serial order gives (fetched old values form a
 * permutation: no update lost or seen twice). */
#include "builtins_test.h"

#define N 4096
#define LOCAL 64
#define GROUPS (N / LOCAL)

enum { ADD, SUB, MIN, MAX, AND, OR, XOR, XCHG, CAS, STORE, SLOTS };

static const char *source =
    "enum { ADD, SUB, MIN, MAX, AND, OR, XOR, XCHG, CAS, STORE };\n"
    "kernel void global_ops(volatile global atomic_int *c,\n"
    "                       volatile global atomic_long *l,\n"
    "                       volatile global atomic_uint *u,\n"
    "                       global int *old_add, global int *old_xchg) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  int v = (g * 7919) % 10007 - 5000;\n"
    "  old_add[g] = atomic_fetch_add_explicit(&c[ADD], 1,\n"
    "      memory_order_relaxed, memory_scope_work_group);\n"
    "  atomic_fetch_sub(&c[SUB], 2);\n"
    "  atomic_fetch_min_explicit(&c[MIN], v, memory_order_acq_rel);\n"
    "  atomic_fetch_max_explicit(&c[MAX], v, memory_order_seq_cst,\n"
    "                            memory_scope_device);\n"
    "  atomic_fetch_and(&c[AND], ~(1 << (g % 32)) | (g % 64 < 32 ? 0 : 32));\n"
    "  atomic_fetch_or_explicit(&c[OR], 1 << (g % 29), memory_order_release);\n"
    "  atomic_fetch_xor(&c[XOR], g * 40503);\n"
    "  old_xchg[g] = atomic_exchange_explicit(&c[XCHG], g,\n"
    "                                         memory_order_acq_rel);\n"
    "  int seen = atomic_load_explicit(&c[CAS], memory_order_relaxed);\n"
    "  while (!atomic_compare_exchange_weak_explicit(&c[CAS], &seen,\n"
    "      seen + 3, memory_order_acq_rel, memory_order_relaxed))\n"
    "    ;\n"
    "  atomic_store_explicit(&c[STORE], 77, memory_order_release,\n"
    "                        memory_scope_all_devices);\n"
    "  atomic_fetch_add(&l[0], (long)g << 20);\n"
    "  atomic_fetch_min(&l[1], -(long)g << 33);\n"
    "  atomic_fetch_max(&u[0], 0x80000000u + (uint)g);\n"
    "  atomic_fetch_sub_explicit(&u[1], 1u, memory_order_relaxed,\n"
    "                            memory_scope_work_group);\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,\n"
    "                         memory_scope_device);\n"
    "}\n"
    "kernel void local_ops(global int *sums, global int *winners,\n"
    "                      global int *loaded) {\n"
    "  local atomic_int sum;\n"
    "  local atomic_flag flag;\n"
    "  local atomic_uint stored;\n"
    "  int lid = (int)get_local_id(0), grp = (int)get_group_id(0);\n"
    "  if (lid == 0) {\n"
    "    atomic_init(&sum, 100);\n"
    "    atomic_flag_clear_explicit(&flag, memory_order_relaxed,\n"
    "                               memory_scope_work_group);\n"
    "    atomic_store(&stored, 5u);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_fetch_add_explicit(&sum, lid, memory_order_relaxed,\n"
    "                            memory_scope_work_group);\n"
    "  if (!atomic_flag_test_and_set_explicit(&flag, memory_order_acq_rel,\n"
    "                                         memory_scope_work_group))\n"
    "    winners[grp] += 1;\n"
    "  uint expected = 5u;\n"
    "  atomic_compare_exchange_strong(&stored, &expected, 6u);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid == 0) {\n"
    "    sums[grp] = atomic_load(&sum);\n"
    "    loaded[grp] = (int)atomic_load_explicit(&stored,\n"
    "        memory_order_acquire, memory_scope_work_group);\n"
    "  }\n"
    "}\n"
    /* float and double: compare-and-exchange loops (expected values in
     * private and in __global memory) and exchanges */
    "kernel void real_ops(volatile global atomic_float *f,\n"
    "                     volatile global atomic_double *d,\n"
    "                     global double *expected, global float *old) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  float seen = atomic_load(&f[0]);\n"
    "  while (!atomic_compare_exchange_strong(&f[0], &seen, seen + 0.5f))\n"
    "    ;\n"
    "  expected[g] = atomic_load_explicit(&d[0], memory_order_acquire);\n"
    "  while (!atomic_compare_exchange_weak_explicit(&d[0], &expected[g],\n"
    "      expected[g] + 1.0, memory_order_seq_cst, memory_order_seq_cst,\n"
    "      memory_scope_device))\n"
    "    ;\n"
    "  old[g] = atomic_exchange(&f[1], (float)g);\n"
    "}\n";

static void check_global(mux_executable_t exe) {
  int c[SLOTS] = {0};
  c[MIN] = 1 << 30;
  c[MAX] = -(1 << 30);
  c[AND] = -1;
  c[XCHG] = -1;
  c[CAS] = 11;
  int64_t l[2] = {0, 0};
  uint32_t u[2] = {0, 5u * N};
  bt_buffer cb = bt_buffer_create(c, sizeof c);
  bt_buffer lb = bt_buffer_create(l, sizeof l);
  bt_buffer ub = bt_buffer_create(u, sizeof u);
  bt_buffer old_add = bt_buffer_create(NULL, N * 4);
  bt_buffer old_xchg = bt_buffer_create(NULL, N * 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&cb), bt_buffer_arg(&lb),
                                  bt_buffer_arg(&ub), bt_buffer_arg(&old_add),
                                  bt_buffer_arg(&old_xchg)};
  bt_run(exe, "global_ops", args, 5, N, LOCAL);
  bt_buffer_read(&cb, c);
  bt_buffer_read(&lb, l);
  bt_buffer_read(&ub, u);

  int min = 1 << 30, max = -(1 << 30), and = -1, or = 0;
  uint32_t xor = 0;
  int64_t sum = 0;
  for (int g = 0; g < N; g++) {
    int v = (g * 7919) % 10007 - 5000;
    min = v < min ? v : min;
    max = v > max ? v : max;
    and &= ~(1 << (g % 32)) | (g % 64 < 32 ? 0 : 32);
    or |= 1 << (g % 29);
    xor ^= (uint32_t)g * 40503u;
    sum += (int64_t)g << 20;
  }
  CHECK_INT(N, c[ADD]);
  CHECK_INT(-2 * N, c[SUB]);
  CHECK_INT(min, c[MIN]);
  CHECK_INT(max, c[MAX]);
  CHECK_INT(and, c[AND]);
  CHECK_INT(or, c[OR]);
  CHECK_INT((int)xor, c[XOR]);
  CHECK_INT(11 + 3 * N, c[CAS]);
  CHECK_INT(77, c[STORE]);
  CHECK(l[0] == sum);
  CHECK(l[1] == -((int64_t)(N - 1) << 33));
  CHECK_INT(0x80000000u + N - 1, u[0]);
  CHECK_INT(4u * N, u[1]);

  static int olds[N + 1];
  bt_buffer_read(&old_add, olds);
  CHECK(bt_is_sequence(olds, N, 0));
  bt_buffer_read(&old_xchg, olds);
  olds[N] = c[XCHG];
  CHECK(bt_is_sequence(olds, N + 1, -1));
  bt_buffer_destroy(&cb);
  bt_buffer_destroy(&lb);
  bt_buffer_destroy(&ub);
  bt_buffer_destroy(&old_add);
  bt_buffer_destroy(&old_xchg);
}

static void check_local(mux_executable_t exe) {
  bt_buffer sums = bt_buffer_create(NULL, GROUPS * 4);
  static int zeros[GROUPS];
  bt_buffer winners = bt_buffer_create(zeros, sizeof zeros);
  bt_buffer loaded = bt_buffer_create(NULL, GROUPS * 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&sums), bt_buffer_arg(&winners),
                                  bt_buffer_arg(&loaded)};
  bt_run(exe, "local_ops", args, 3, N, LOCAL);
  int s[GROUPS], w[GROUPS], v[GROUPS];
  bt_buffer_read(&sums, s);
  bt_buffer_read(&winners, w);
  bt_buffer_read(&loaded, v);
  int wrong = 0;
  for (int g = 0; g < GROUPS; g++) {
    wrong += s[g] != 100 + LOCAL * (LOCAL - 1) / 2; /* atomic_init + adds */
    wrong += w[g] != 1; /* one test_and_set finds the flag clear */
    wrong += v[g] != 6; /* one compare-and-exchange of 5 to 6 */
  }
  CHECK_INT(0, wrong);
  bt_buffer_destroy(&sums);
  bt_buffer_destroy(&winners);
  bt_buffer_destroy(&loaded);
}

static void check_real(mux_executable_t exe) {
  float f[2] = {1.5f, -1.0f};
  double d = 0.25;
  bt_buffer fb = bt_buffer_create(f, sizeof f);
  bt_buffer db = bt_buffer_create(&d, sizeof d);
  bt_buffer expected = bt_buffer_create(NULL, N * 8);
  bt_buffer old = bt_buffer_create(NULL, N * 4);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&fb), bt_buffer_arg(&db),
                                  bt_buffer_arg(&expected),
                                  bt_buffer_arg(&old)};
  bt_run(exe, "real_ops", args, 4, N, LOCAL);
  bt_buffer_read(&fb, f);
  bt_buffer_read(&db, &d);
  CHECK(f[0] == 1.5f + 0.5f * N); /* exact in float */
  CHECK(d == 0.25 + N);
  static float olds[N + 1];
  static int as_ints[N + 1];
  bt_buffer_read(&old, olds);
  olds[N] = f[1];
  int bad = 0;
  for (int i = 0; i <= N; i++) {
    as_ints[i] = (int)olds[i];
    bad += olds[i] != (float)as_ints[i];
  }
  CHECK_INT(0, bad);
  CHECK(bt_is_sequence(as_ints, N + 1, -1));
  bt_buffer_destroy(&fb);
  bt_buffer_destroy(&db);
  bt_buffer_destroy(&expected);
  bt_buffer_destroy(&old);
}

int main(void) {
  bt_start();
  const char *names[] = {"global_ops", "local_ops", "real_ops"};
  mux_executable_t exe = bt_build_module(bt_compile(source, "-cl-std=CL3.0"),
                                         names, 3, LOCAL, NULL);
  check_global(exe);
  check_local(exe);
  check_real(exe);
  bt_executable_destroy(exe);
  return bt_finish();
}

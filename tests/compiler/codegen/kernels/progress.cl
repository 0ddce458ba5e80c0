/* Loops in which one sub-group may wait for another (progress.c) and
 * code that cannot: the code generator puts the target's pause point
 * into the first kind only. Clang's __atomic builtins: the OpenCL ones
 * are calls until clmux's builtins library is linked. */

/* Spins on an atomic until the previous work-item has written. */
kernel void spin(volatile global int *flags) {
  int i = get_global_id(0);
  if (i > 0) {
    while (__atomic_fetch_or(&flags[i - 1], 0, __ATOMIC_RELAXED) == 0) {
    }
  }
  __atomic_store_n(&flags[i], 1, __ATOMIC_RELEASE);
}

/* A loop of one block that branches to itself. */
kernel void self_loop(volatile global int *lock, global int *out) {
  int expected = 0;
  while (!__atomic_compare_exchange_n(lock, &expected, 1, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    expected = 0;
  }
  out[get_global_id(0)] += 1;
  __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Two nested loops, each synchronizing: the outer on an atomic, the
 * inner on a volatile load. */
kernel void nested(volatile global int *ticket, global int *out, int n) {
  int i = get_global_id(0), sum = 0;
  for (int k = 0; k < n; k++) {
    int mine = __atomic_fetch_add(ticket, 1, __ATOMIC_RELAXED);
    for (int j = 0; j < n; j++) sum += ticket[j] + mine;
  }
  out[i] = sum;
}

/* Atomics, but none in a loop. */
kernel void atomic_once(global int *counter, global int *out) {
  out[get_global_id(0)] = __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* A loop without synchronization, then an atomic after it. */
kernel void after_loop(global const int *in, global int *total, int n) {
  int sum = 0;
  for (int j = 0; j < n; j++) sum += in[j] * in[j];
  __atomic_fetch_add(total, sum, __ATOMIC_RELAXED);
}

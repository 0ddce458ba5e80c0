/* White-box tests of how a kernel's vector or scalar code is chosen
 * (source/mux/cpu/kernel_variant.c), fed made-up timings: the first
 * NDRange probes; the cheaper variant wins by its median, so one slow
 * call does not decide; a close call keeps the current one; probes come
 * again after 8, then 16 NDRanges while the choice holds, and after 8
 * once it changed; a probe needs enough calls and time, fewer calls when
 * they are long. */
#include "cpu.h"
#include "mux_test.h"

static bool probing(cpu_variant_choice *c) {
  return atomic_load(&c->probing) != 0;
}

/* `calls` calls of each variant, alternating, of 1000 items at the given
 * ns per item (variant 0, variant 1). */
static void feed(cpu_variant_choice *c, unsigned calls, uint64_t ns0,
                 uint64_t ns1) {
  for (unsigned i = 0; i < calls && probing(c); i++) {
    cpu_variant_sample(c, "test", 0, ns0 * 1000, 1000);
    if (probing(c)) cpu_variant_sample(c, "test", 1, ns1 * 1000, 1000);
  }
}

/* NDRanges until one starts a probe (at most `limit`). */
static unsigned launches_to_probe(cpu_variant_choice *c, unsigned limit) {
  for (unsigned n = 1; n <= limit; n++) {
    cpu_variant_launch(c);
    if (probing(c)) return n;
  }
  return 0;
}

int main(void) {
  cpu_variant_choice c;
  cpu_variant_init(&c);
  /* The first NDRange probes; the vector code runs until told. */
  CHECK(probing(&c));
  CHECK_INT(0, atomic_load(&c.current));

  /* Too few calls: still probing, however long they took. */
  feed(&c, 8, 100, 10);
  CHECK(probing(&c));
  /* The ninth decides: the scalar code is 10x cheaper. */
  feed(&c, 1, 100, 10);
  CHECK(!probing(&c));
  CHECK_INT(1, atomic_load(&c.current));
  CHECK_INT(8, launches_to_probe(&c, 100));

  /* One call 1000x slower does not move the median: scalar stays. */
  cpu_variant_sample(&c, "test", 1, 10000000, 1000);
  feed(&c, 12, 100, 10);
  CHECK(!probing(&c));
  CHECK_INT(1, atomic_load(&c.current));
  /* The choice held: the next probe comes later. */
  CHECK_INT(16, launches_to_probe(&c, 100));

  /* Within 10%: no change. */
  feed(&c, 12, 95, 100);
  CHECK_INT(1, atomic_load(&c.current));
  CHECK_INT(32, launches_to_probe(&c, 100));

  /* The data changed and the vectors win now: back to them, and soon
   * measured again. */
  feed(&c, 12, 20, 100);
  CHECK_INT(0, atomic_load(&c.current));
  CHECK_INT(8, launches_to_probe(&c, 100));

  /* Calls too short to tell (a few µs in all) keep probing. */
  feed(&c, 12, 1, 1);
  CHECK(probing(&c));
  feed(&c, 200, 1, 1);
  CHECK(!probing(&c));
  CHECK_INT(0, atomic_load(&c.current));

  /* Long calls (5 ms each): three of each decide. */
  CHECK_INT(16, launches_to_probe(&c, 100));
  feed(&c, 2, 5000, 20000);
  CHECK(probing(&c));
  feed(&c, 1, 5000, 20000);
  CHECK(!probing(&c));
  CHECK_INT(0, atomic_load(&c.current));
  return mux_test_finish();
}

/* clmux CPU target — which code of a kernel with a scalar variant
 * (CPU_BINARY_KERNEL_SCALAR_VARIANT) runs: its work-items in vectors, or
 * one at a time. Vectors win where the lanes stay together (a fractal's
 * escape loop, 4x a work-item), and lose where they leave a loop far
 * apart or each iteration gathers (a sparse matrix's rows, one per
 * work-item: 9x slower). The code alone cannot tell, the data decides: so a
 * probe runs calls alternately in each and times them, and the one with the
 * lower median cost per work-item then runs until the next probe. Probes come
 * at the first NDRange and then every `interval` NDRanges, which doubles
 * while the choice holds (the data may change: a solver's matrix). */
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"

/* A probe ends once both variants have this many timed calls and all
 * calls have taken this long: past a timer's resolution, and a median
 * that one preempted call does not move. Long calls (work-groups of a
 * millisecond, few per NDRange) end it sooner, with fewer of them: while
 * it lasts, half the calls may run the slower code. */
#define PROBE_CALLS 9u
#define PROBE_NS 200000u
#define LONG_PROBE_CALLS 3u
#define LONG_PROBE_NS 20000000u
/* The other variant must be this much cheaper, in percent, to take over:
 * two close variants do not swap on noise. */
#define SWITCH_PERCENT 90u
#define FIRST_INTERVAL 8u
#define LAST_INTERVAL 1024u

static void clear_probe(cpu_variant_choice *choice) {
  for (unsigned v = 0; v < 2; v++) {
    atomic_store_explicit(&choice->taken[v], 0, memory_order_relaxed);
    for (unsigned s = 0; s < CPU_VARIANT_SLOTS; s++) {
      atomic_store_explicit(&choice->cost[v][s], 0, memory_order_relaxed);
    }
  }
  atomic_store_explicit(&choice->probe_ns, 0, memory_order_relaxed);
}

void cpu_variant_init(cpu_variant_choice *choice) {
  atomic_init(&choice->current, 0);
  atomic_init(&choice->probing, 1);
  atomic_init(&choice->launches_left, 0);
  atomic_init(&choice->interval, FIRST_INTERVAL);
  clear_probe(choice);
}

void cpu_variant_launch(cpu_variant_choice *choice) {
  if (atomic_load_explicit(&choice->probing, memory_order_relaxed)) return;
  if (atomic_fetch_sub_explicit(&choice->launches_left, 1,
                                memory_order_relaxed) != 1) {
    return;
  }
  clear_probe(choice);
  atomic_store_explicit(&choice->probing, 1, memory_order_relaxed);
}

/* The median of a variant's recorded costs (0: a slot being written is
 * skipped). */
static uint64_t median_cost(cpu_variant_choice *choice, unsigned v) {
  uint64_t sorted[CPU_VARIANT_SLOTS];
  unsigned n = 0;
  for (unsigned s = 0; s < CPU_VARIANT_SLOTS; s++) {
    uint64_t c =
        atomic_load_explicit(&choice->cost[v][s], memory_order_relaxed);
    if (!c) continue;
    unsigned i = n++;
    for (; i > 0 && sorted[i - 1] > c; i--) sorted[i] = sorted[i - 1];
    sorted[i] = c;
  }
  return n ? sorted[n / 2] : UINT64_MAX;
}

void cpu_variant_sample(cpu_variant_choice *choice, const char *kernel,
                        uint32_t variant, uint64_t ns, uint64_t items) {
  variant &= 1;
  /* ns per item, scaled so that cheap items still differ; at least 1. */
  uint64_t cost = items ? ((ns << 10) / items) | 1 : 1;
  uint32_t slot = atomic_fetch_add_explicit(&choice->taken[variant], 1,
                                            memory_order_relaxed);
  if (slot < CPU_VARIANT_SLOTS) {
    atomic_store_explicit(&choice->cost[variant][slot], cost,
                          memory_order_relaxed);
  }
  uint64_t probe_ns =
      atomic_fetch_add_explicit(&choice->probe_ns, ns, memory_order_relaxed) +
      ns;
  uint32_t calls = slot + 1;
  uint32_t other_calls =
      atomic_load_explicit(&choice->taken[!variant], memory_order_relaxed);
  if (other_calls < calls) calls = other_calls;
  bool enough = (calls >= PROBE_CALLS && probe_ns >= PROBE_NS) ||
                (calls >= LONG_PROBE_CALLS && probe_ns >= LONG_PROBE_NS);
  if (!enough) return;
  uint32_t probing = 1;
  if (!atomic_compare_exchange_strong_explicit(&choice->probing, &probing, 0,
                                               memory_order_relaxed,
                                               memory_order_relaxed)) {
    return; /* another thread decided */
  }
  uint64_t costs[2] = {median_cost(choice, 0), median_cost(choice, 1)};
  uint32_t current =
      atomic_load_explicit(&choice->current, memory_order_relaxed);
  uint32_t interval =
      atomic_load_explicit(&choice->interval, memory_order_relaxed);
  if (costs[!current] / 100 * 100 < costs[current] / 100 * SWITCH_PERCENT) {
    current = !current;
    atomic_store_explicit(&choice->current, current, memory_order_relaxed);
    interval = FIRST_INTERVAL;
  } else if (interval < LAST_INTERVAL) {
    interval *= 2;
  }
  atomic_store_explicit(&choice->interval, interval, memory_order_relaxed);
  atomic_store_explicit(&choice->launches_left, interval, memory_order_relaxed);
  if (getenv("CLMUX_DEBUG")) {
    fprintf(stderr,
            "clmux: kernel %s: %.2f ns a work-item in vectors, %.2f one at "
            "a time: runs %s, measured again in %u NDRanges\n",
            kernel, (double)costs[0] / 1024, (double)costs[1] / 1024,
            current ? "one at a time" : "in vectors", interval);
  }
}

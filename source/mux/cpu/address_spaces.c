/* clmux CPU target: where a pointer lies, for the generic address space's
 * to_global, to_local, to_private and get_fence (CPU_ADDRESS_SPACE_SYMBOL
 * in work_group_abi.h). A work-item may hold a pointer another one
 * stored, from another work-group on another thread: its local memory,
 * its scratch, its stack. The calling group's own are in its
 * cpu_work_group; the others' are in a process-wide table of ranges
 * (thread pools' local memory, the stacks of threads that ran kernels,
 * the sub-groups' stacks) or, for scratch, in the NDRange's block.
 *
 * The table is read without a lock: each entry is published by a word of
 * generation and kind, stored after its range and changed before the
 * range is, so a reader that sees the same word before and after reading
 * the range has read a consistent one. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "cpu.h"

#define RANGES 1024u
enum { range_free = 0xff, range_claimed = 0xfe };

typedef struct address_range {
  _Atomic uint64_t word; /* generation << 8 | kind (or free, claimed) */
  _Atomic uintptr_t start, end;
} address_range;

static address_range ranges[RANGES];
static _Atomic unsigned ranges_used; /* entries ever claimed: a bound */

static uint64_t word_kind(uint64_t word) { return word & 0xff; }

/* An entry's word starts as 0: generation 0 of kind global, which no
 * range ever has, so it reads as free too. */
static bool is_free(uint64_t word) {
  return word_kind(word) == range_free || word == 0;
}

int cpu_address_range_add(const void *start, size_t size,
                          enum cpu_address_space kind) {
  for (unsigned i = 0; i < RANGES; i++) {
    uint64_t word = atomic_load(&ranges[i].word);
    if (!is_free(word)) continue;
    uint64_t generation = (word >> 8) + 1;
    if (!atomic_compare_exchange_strong(&ranges[i].word, &word,
                                        generation << 8 | range_claimed)) {
      continue;
    }
    atomic_store(&ranges[i].start, (uintptr_t)start);
    atomic_store(&ranges[i].end, (uintptr_t)start + size);
    atomic_store(&ranges[i].word, generation << 8 | (uint64_t)kind);
    unsigned used = atomic_load(&ranges_used);
    while (used < i + 1 &&
           !atomic_compare_exchange_weak(&ranges_used, &used, i + 1)) {
    }
    return (int)i;
  }
  return -1; /* full: such pointers read as global */
}

void cpu_address_range_remove(int index) {
  if (index < 0 || (unsigned)index >= RANGES) return;
  uint64_t word = atomic_load(&ranges[index].word);
  atomic_store(&ranges[index].word, ((word >> 8) + 1) << 8 | range_free);
}

static enum cpu_address_space find(uintptr_t address) {
  unsigned used = atomic_load(&ranges_used);
  for (unsigned i = 0; i < used; i++) {
    uint64_t word = atomic_load(&ranges[i].word);
    uint64_t kind = word_kind(word);
    if (is_free(word) || kind == range_claimed) continue;
    uintptr_t start = atomic_load(&ranges[i].start);
    uintptr_t end = atomic_load(&ranges[i].end);
    if (atomic_load(&ranges[i].word) != word) continue; /* changing */
    if (address >= start && address < end) {
      return (enum cpu_address_space)kind;
    }
  }
  return cpu_address_global;
}

/* The thread's stack, from the caller's frame up to its end, holds the
 * calling work-item's private variables. */
__attribute__((noinline)) uint32_t cpu_address_space(const void *pointer,
                                                     const cpu_work_group *wg) {
  uintptr_t p = (uintptr_t)pointer;
  if (p - (uintptr_t)wg->local_memory < wg->local_memory_size) {
    return cpu_address_local;
  }
  if (p - (uintptr_t)wg->scratch < wg->scratch_size ||
      p - (uintptr_t)wg->scratch_block < wg->scratch_block_size ||
      (p >= (uintptr_t)__builtin_frame_address(0) &&
       p < (uintptr_t)wg->stack_end)) {
    return cpu_address_private;
  }
  return find(p);
}

/* ---- The stacks of threads that run kernels ---- */

static pthread_key_t stack_key;
static pthread_once_t stack_key_once = PTHREAD_ONCE_INIT;

static void forget_stack(void *entry) {
  cpu_address_range_remove((int)(intptr_t)entry - 1);
}

static void make_stack_key(void) {
  pthread_key_create(&stack_key, forget_stack);
}

void cpu_address_range_add_thread_stack(const void *start, size_t size) {
  pthread_once(&stack_key_once, make_stack_key);
  int index = cpu_address_range_add(start, size, cpu_address_private);
  if (index >= 0) pthread_setspecific(stack_key, (void *)(intptr_t)(index + 1));
}

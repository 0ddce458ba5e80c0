/* clmux CPU target: sub-groups in turns, for their independent forward
 * progress (work_group_abi.h, CPU_SUB_GROUPS_SYMBOL). A work-group's
 * sub-groups run one after another on its thread. That is enough unless
 * one waits in a loop for another that has not run yet: compiled kernels
 * call the pause point in every such loop, and after PAUSE_BUDGET calls
 * the thread turns to another sub-group. While sub-groups are left that
 * have not started, a new runner (a stack of its own, a ucontext) takes
 * the next of them; once all have started, the runners with work left
 * take turns. The caller's own stack is runner 0. Kernels that never
 * wait never leave it: the pause point costs a decrement.
 *
 * One runner is switched to at most every PAUSE_BUDGET pause points
 * (swapcontext's signal-mask system call is then negligible), stacks are
 * kept for the thread's next work-group, and a fault in kernel code
 * (fault.c) abandons the round: cpu_sub_groups_abandon. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "cpu.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TURNS_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define TURNS_TSAN 1
#endif

#define PAUSE_BUDGET 1024u
/* As much as a thread's default stack: kernels keep private arrays on it.
 * Reserved, not committed (MAP_NORESERVE): only what a kernel touches
 * costs memory. */
#define RUNNER_STACK_SIZE ((size_t)8 << 20)
#define GUARD_SIZE ((size_t)64 << 10)
#define KEPT_STACKS 16u

/* A mapping of a guard, then the stack, and its entry in the table of
 * private ranges (address_spaces.c). */
typedef struct runner_stack {
  uint8_t *mapping;
  int range;
} runner_stack;

typedef struct runner {
  ucontext_t context;
  runner_stack stack; /* mapping NULL for runner 0 */
  cpu_work_group wg;  /* the caller's, with this stack's end */
  bool done;
#ifdef TURNS_ASAN
  const void *stack_bottom;
  size_t stack_size;
#endif
#ifdef TURNS_TSAN
  void *tsan_fiber;
#endif
} runner;

typedef struct turns {
  bool active;
  const uint8_t *args;
  const cpu_work_group *wg;
  cpu_sub_group_fn run;
  uint64_t count, next;
  runner **runners; /* [0]: the caller */
  unsigned runner_count, capacity, current;
  unsigned previous;              /* the runner left for the current one */
  runner_stack kept[KEPT_STACKS]; /* stacks for the next round */
  unsigned kept_count;
} turns;

static __thread turns state;
/* Initial-exec: the pause point runs in loops, and this library is
 * loaded with dlopen, where a dynamic TLS access is a function call. */
static __thread __attribute__((tls_model("initial-exec"))) unsigned budget =
    PAUSE_BUDGET;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void unmap_stack(runner_stack stack) {
  cpu_address_range_remove(stack.range);
  munmap(stack.mapping, GUARD_SIZE + RUNNER_STACK_SIZE);
}

static void release_kept(void *unused) {
  (void)unused;
  for (unsigned i = 0; i < state.kept_count; i++) unmap_stack(state.kept[i]);
  state.kept_count = 0;
}

static void make_exit_key(void) { pthread_key_create(&exit_key, release_kept); }

static runner_stack take_stack(void) {
  if (state.kept_count) return state.kept[--state.kept_count];
  runner_stack stack = {NULL, -1};
  void *mapping =
      mmap(NULL, GUARD_SIZE + RUNNER_STACK_SIZE, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) return stack;
  if (mprotect(mapping, GUARD_SIZE, PROT_NONE) != 0) {
    munmap(mapping, GUARD_SIZE + RUNNER_STACK_SIZE);
    return stack;
  }
  /* Kept stacks go when the thread does. */
  pthread_once(&exit_key_once, make_exit_key);
  pthread_setspecific(exit_key, &state);
  stack.mapping = mapping;
  /* Its variables are private memory to every work-item that asks. */
  stack.range = cpu_address_range_add((uint8_t *)mapping + GUARD_SIZE,
                                      RUNNER_STACK_SIZE, cpu_address_private);
  return stack;
}

static void give_stack(runner_stack stack) {
  if (!stack.mapping) return;
  if (state.kept_count < KEPT_STACKS) {
    state.kept[state.kept_count++] = stack;
  } else {
    unmap_stack(stack);
  }
}

/* Ends a round: every runner's stack back (none is in use any more). */
static void end_round(void) {
  for (unsigned i = 1; i < state.runner_count; i++) {
#ifdef TURNS_TSAN
    if (state.runners[i]->tsan_fiber) {
      __tsan_destroy_fiber(state.runners[i]->tsan_fiber);
    }
#endif
    give_stack(state.runners[i]->stack);
    free(state.runners[i]);
  }
  if (state.runners) free(state.runners[0]);
  free(state.runners);
  state.runners = NULL;
  state.runner_count = state.capacity = state.current = 0;
  state.active = false;
}

void cpu_sub_groups_abandon(void) {
  if (!state.active) return;
  /* The fault jumped back to runner 0's stack, maybe from another's:
   * the sanitizers learn it, then the others' contexts go. */
  if (state.current != 0) {
    runner *zero = state.runners[0];
#ifdef TURNS_ASAN
    __sanitizer_start_switch_fiber(NULL, zero->stack_bottom, zero->stack_size);
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
#ifdef TURNS_TSAN
    __tsan_switch_to_fiber(zero->tsan_fiber, 0);
#endif
    (void)zero;
  }
  end_round();
}

#ifdef TURNS_ASAN
/* On the runner switched to: AddressSanitizer learns where runner 0's
 * stack (the thread's) is when it is first left. */
static void finish_switch(void *fake_stack) {
  const void *bottom = NULL;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  if (state.previous == 0 && !state.runners[0]->stack_bottom) {
    state.runners[0]->stack_bottom = bottom;
    state.runners[0]->stack_size = size;
  }
}
#endif

/* Leaves the current runner for runner `to`; returns when it is resumed.
 * A runner that is done passes finished, so that its sanitizer state
 * goes. */
static void switch_to(unsigned to, bool finished) {
  runner *from = state.runners[state.current];
  runner *next = state.runners[to];
  state.previous = state.current;
  state.current = to;
#ifdef TURNS_ASAN
  void *fake_stack = NULL;
  __sanitizer_start_switch_fiber(finished ? NULL : &fake_stack,
                                 next->stack_bottom, next->stack_size);
#endif
#ifdef TURNS_TSAN
  __tsan_switch_to_fiber(next->tsan_fiber, 0);
#endif
  (void)finished;
  swapcontext(&from->context, &next->context);
#ifdef TURNS_ASAN
  finish_switch(fake_stack);
#endif
}

/* The next runner after the current one that has work left, round robin;
 * runner 0 always has (it ends the round). */
static unsigned next_runner(void) {
  for (unsigned step = 1; step <= state.runner_count; step++) {
    unsigned i = (state.current + step) % state.runner_count;
    if (!state.runners[i]->done) return i;
  }
  return state.current;
}

static void run_sub_groups(const cpu_work_group *wg) {
  while (state.next < state.count) {
    uint64_t k = state.next++;
    state.run(state.args, wg, k);
  }
}

static void runner_main(void) {
#ifdef TURNS_ASAN
  finish_switch(NULL);
#endif
  runner *self = state.runners[state.current];
  run_sub_groups(&self->wg);
  self->done = true;
  switch_to(next_runner(), true);
  abort(); /* a runner that is done is never resumed */
}

/* Runner 0 is the caller; it needs a record once there is another. */
static bool add_runner_zero(void) {
  state.runners = calloc(4, sizeof *state.runners);
  runner *zero = calloc(1, sizeof *zero);
  if (!state.runners || !zero) {
    free(state.runners);
    free(zero);
    state.runners = NULL;
    return false;
  }
  state.capacity = 4;
  state.runners[0] = zero;
  state.runner_count = 1;
#ifdef TURNS_TSAN
  zero->tsan_fiber = __tsan_get_current_fiber();
#endif
  return true;
}

/* Out of line: getcontext returns twice, which no caller's locals
 * should have to survive. */
static __attribute__((noinline)) bool make_context(runner *r,
                                                   uint8_t *mapping) {
  if (getcontext(&r->context) != 0) return false;
  r->context.uc_stack.ss_sp = mapping + GUARD_SIZE;
  r->context.uc_stack.ss_size = RUNNER_STACK_SIZE;
  r->context.uc_link = NULL;
  makecontext(&r->context, runner_main, 0);
  return true;
}

/* A runner for the sub-groups not started yet; false when there is no
 * memory for one (the caller then keeps its turn). */
static bool start_runner(void) {
  if (!state.runners && !add_runner_zero()) return false;
  if (state.runner_count == state.capacity) {
    runner **more =
        realloc(state.runners, 2 * state.capacity * sizeof *state.runners);
    if (!more) return false;
    state.runners = more;
    state.capacity *= 2;
  }
  runner *r = calloc(1, sizeof *r);
  runner_stack stack = r ? take_stack() : (runner_stack){NULL, -1};
  uint8_t *mapping = stack.mapping;
  if (!mapping || !make_context(r, mapping)) {
    give_stack(stack);
    free(r);
    return false;
  }
  r->stack = stack;
  r->wg = *state.wg;
  r->wg.stack_end = mapping + GUARD_SIZE + RUNNER_STACK_SIZE;
#ifdef TURNS_ASAN
  r->stack_bottom = mapping + GUARD_SIZE;
  r->stack_size = RUNNER_STACK_SIZE;
#endif
#ifdef TURNS_TSAN
  r->tsan_fiber = __tsan_create_fiber(0);
#endif
  state.runners[state.runner_count++] = r;
  return true;
}

void cpu_sub_group_pause(void) {
  if (--budget) return;
  budget = PAUSE_BUDGET;
  if (!state.active) return;
  if (state.next < state.count && start_runner()) {
    switch_to(state.runner_count - 1, false);
    return;
  }
  unsigned to = next_runner();
  if (to != state.current) switch_to(to, false);
}

void cpu_sub_groups(const uint8_t *args, const cpu_work_group *wg,
                    uint64_t count, cpu_sub_group_fn run) {
  state.active = true;
  state.args = args;
  state.wg = wg;
  state.run = run;
  state.count = count;
  state.next = 0;
  state.current = 0;
  run_sub_groups(wg);
  /* The others' turns until every one is done. */
  while (state.runner_count > 1) {
    unsigned to = next_runner();
    if (to == 0) break;
    switch_to(to, false);
  }
  end_round();
}

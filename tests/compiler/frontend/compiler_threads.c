/* The compiler's threads (compiler_threads.c): work handed over from many
 * threads at once runs on a few long-lived threads with large stacks,
 * never on the caller's; a call made from one of them runs in place; a
 * child of fork() without exec still gets its work done. */
#include "compiler_threads.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define CALLERS 8
#define CALLS 200
#define MOST 64

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t seen[MOST + 1];
static int seen_count;
static atomic_int on_caller, small_stacks, nested_elsewhere;

typedef struct call {
  pthread_t caller;
  pthread_t ran_on;
} call;

static void note_thread(void) {
  pthread_t self = pthread_self();
  pthread_mutex_lock(&seen_lock);
  bool known = false;
  for (int i = 0; i < seen_count; i++) known |= pthread_equal(seen[i], self);
  if (!known && seen_count <= MOST) seen[seen_count++] = self;
  pthread_mutex_unlock(&seen_lock);
}

static void nested(void *data) { *(pthread_t *)data = pthread_self(); }

static void work(void *data) {
  call *c = data;
  c->ran_on = pthread_self();
  if (pthread_equal(c->caller, c->ran_on)) atomic_fetch_add(&on_caller, 1);
  pthread_attr_t attributes;
  size_t stack = 0;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    pthread_attr_getstacksize(&attributes, &stack);
    pthread_attr_destroy(&attributes);
  }
  if (stack < ((size_t)256 << 20)) atomic_fetch_add(&small_stacks, 1);
  pthread_t inner;
  cc_on_compiler_thread(nested, &inner);
  if (!pthread_equal(inner, c->ran_on)) atomic_fetch_add(&nested_elsewhere, 1);
  note_thread();
}

static void *caller(void *unused) {
  (void)unused;
  for (int i = 0; i < CALLS; i++) {
    call c = {pthread_self(), pthread_self()};
    cc_on_compiler_thread(work, &c);
  }
  return NULL;
}

static void run_callers(void) {
  pthread_t threads[CALLERS];
  for (int i = 0; i < CALLERS; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, caller, NULL) == 0);
  }
  for (int i = 0; i < CALLERS; i++) pthread_join(threads[i], NULL);
}

int main(void) {
  run_callers();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  CHECK_INT(0, atomic_load(&on_caller));
  CHECK_INT(0, atomic_load(&small_stacks));
  CHECK_INT(0, atomic_load(&nested_elsewhere));
  CHECK(seen_count >= 1 && seen_count <= (cpus < MOST ? cpus : MOST));

  /* The child of a fork has none of the parent's threads. */
  fflush(NULL);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    alarm(30); /* a child waiting for threads it lacks dies here */
    seen_count = 0;
    run_callers();
    _exit(atomic_load(&on_caller) == 0 && seen_count >= 1 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return check_finish();
}

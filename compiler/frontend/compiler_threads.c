/* clmux compiler: the threads compiles run on. Every compile, link and
 * specialization (Clang and LLVM) runs on one of a few threads that live
 * as long as the process, at most one per processor:
 *   - their stacks are large: Clang recurses over the syntax tree, and a
 *     long expression (60,000 terms from a macro) overflows 8 MiB, in
 *     clang itself too; a large stack costs address space only for the
 *     pages it touches;
 *   - the tens of megabytes LLVM allocates and frees per compile stay in
 *     these threads' malloc arenas, which reach their high-water mark after
 *     a few compiles, instead of raising those of every application thread
 *     that ever built a program (resident memory then climbs for minutes);
 *   - no thread is created per compile.
 * The caller waits: a build is as synchronous as before. */
#include "compiler_threads.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>

#define STACK_SIZE ((size_t)512 << 20)
#define MOST_THREADS 64

typedef struct job {
  void (*fn)(void *data);
  void *data;
  bool done;
  struct job *next;
} job;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static job *first, *last;
static unsigned queued, idle, threads;
static _Thread_local bool on_compiler_thread;

static void *compiler_thread(void *unused) {
  (void)unused;
  on_compiler_thread = true;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (!first) {
      idle++;
      pthread_cond_wait(&work, &lock);
      idle--;
    }
    job *next = first;
    first = next->next;
    if (!first) last = NULL;
    queued--;
    pthread_mutex_unlock(&lock);
    next->fn(next->data);
    pthread_mutex_lock(&lock);
    next->done = true;
    pthread_cond_broadcast(&finished);
  }
  return NULL;
}

/* The thread limit, read once: sysconf reads /sys on every call, and the
 * hand-off below runs under the lock. */
static unsigned most_threads;

static bool start_thread(void) {
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) return false;
  pthread_t thread;
  bool started =
      pthread_attr_setstacksize(&attributes, STACK_SIZE) == 0 &&
      pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) == 0 &&
      pthread_create(&thread, &attributes, compiler_thread, NULL) == 0;
  pthread_attr_destroy(&attributes);
  return started;
}

/* A child of fork() has none of the threads: it starts its own. */
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork_parent(void) { pthread_mutex_unlock(&lock); }
static void after_fork_child(void) {
  pthread_mutex_init(&lock, NULL);
  pthread_cond_init(&work, NULL);
  pthread_cond_init(&finished, NULL);
  first = last = NULL;
  queued = idle = threads = 0;
}

static void set_up(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  most_threads = cpus < 1              ? 1
                 : cpus > MOST_THREADS ? MOST_THREADS
                                       : (unsigned)cpus;
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

void cc_on_compiler_thread(void (*fn)(void *data), void *data) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (on_compiler_thread) {
    fn(data);
    return;
  }
  pthread_once(&once, set_up);
  job mine = {fn, data, false, NULL};
  pthread_mutex_lock(&lock);
  if (queued + 1 > idle && threads < most_threads && start_thread()) {
    threads++;
  }
  if (threads == 0) { /* no thread to be had: here, on the caller's stack */
    pthread_mutex_unlock(&lock);
    fn(data);
    return;
  }
  if (last) {
    last->next = &mine;
  } else {
    first = &mine;
  }
  last = &mine;
  queued++;
  pthread_cond_signal(&work);
  while (!mine.done) pthread_cond_wait(&finished, &lock);
  pthread_mutex_unlock(&lock);
}

/* Four threads compile at once, each in its own LLVMContext, and every
 * result is right. Also measures the CPU time of one small compile after
 * the first. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "frontend_test.h"

#define NUM_THREADS 4
#define COMPILES_PER_THREAD 8

typedef struct worker {
  int id;
  int good;
} worker;

static void *compile_loop(void *arg) {
  worker *w = arg;
  for (int i = 0; i < COMPILES_PER_THREAD; i++) {
    char source[512];
    char options[64];
    int value = w->id * 1000 + i;
    snprintf(source, sizeof(source),
             "#if VALUE != %d\n#error wrong VALUE\n#endif\n"
             "kernel void k%d(global int *p) { p[get_global_id(0)] = VALUE; }\n"
             "%s",
             value, w->id, i % 2 ? "#warning odd\n" : "");
    snprintf(options, sizeof(options), "-D VALUE=%d", value);
    /* Every fourth compile fails on purpose, to mix error paths in. */
    int expect_fail = i % 4 == 3;
    if (expect_fail) snprintf(options, sizeof(options), "-DVALUE=-1");
    LLVMContextRef context = LLVMContextCreate();
    LLVMModuleRef module = NULL;
    char *log = NULL;
    cc_frontend_result result = cc_compile_opencl_c(
        context, source, strlen(source), options, NULL, 0, &module, &log);
    char name[16];
    snprintf(name, sizeof(name), "k%d", w->id);
    int good;
    if (expect_fail)
      good = result == CC_FRONTEND_COMPILE_FAILED && module == NULL &&
             log && strstr(log, "wrong VALUE");
    else
      good = result == CC_FRONTEND_SUCCESS && module &&
             LLVMGetNamedFunction(module, name) != NULL && log &&
             (i % 2 == 0) == (strstr(log, "warning: odd") == NULL);
    w->good += good;
    if (module) LLVMDisposeModule(module);
    free(log);
    LLVMContextDispose(context);
  }
  return NULL;
}

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  /* Timing first, single-threaded: the first compile pays for one-time
   * set-up; the later ones are what a program build costs. */
  const char *small =
      "kernel void saxpy(global float *y, global const float *x, float a) {\n"
      "  size_t i = get_global_id(0);\n  y[i] = a * x[i] + y[i];\n}\n";
  double start = cpu_seconds();
  CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(small, NULL));
  double first = cpu_seconds() - start;
  const int runs = 20;
  start = cpu_seconds();
  for (int i = 0; i < runs; i++)
    CHECK_INT(CC_FRONTEND_SUCCESS, fe_compile(small, NULL));
  double later = (cpu_seconds() - start) / runs;
  printf("CPU time: first compile %.2f ms, later compiles %.2f ms each\n",
         first * 1e3, later * 1e3);

  pthread_t threads[NUM_THREADS];
  worker workers[NUM_THREADS];
  for (int t = 0; t < NUM_THREADS; t++) {
    workers[t] = (worker){.id = t, .good = 0};
    REQUIRE(pthread_create(&threads[t], NULL, compile_loop, &workers[t]) == 0);
  }
  for (int t = 0; t < NUM_THREADS; t++) {
    pthread_join(threads[t], NULL);
    CHECK_INT(COMPILES_PER_THREAD, workers[t].good);
  }
  return fe_finish();
}

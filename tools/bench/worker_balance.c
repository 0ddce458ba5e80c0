/* clmux-cl-kernel-bench -w: how evenly clmux's threads shared each kernel's
 * NDRanges, read from the CLMUX_TRACE timeline of the benchmark run.
 *
 * The benchmarks run in a child process with CLMUX_TRACE set; once it has
 * exited (and clmux has closed the file), the parent reads every NDRange
 * (a slice on a queue's track) and the work-group chunks inside it (slices
 * on the threads' tracks), and prints per kernel: each thread's busy share
 * of the NDRanges' time, and the imbalance (the busiest worker's time over
 * the workers' mean). A thread that ran no chunk of an NDRange counts as
 * idle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_kernel.h"

#define MAX_THREADS 256
#define MAX_KERNELS 128
#define TRACK_BASE 0x40000000u /* timeline.c: queue tracks sit above */

typedef struct slice {
  char category[32];
  char name[96];
  unsigned tid;
  double ts, dur;
} slice;

typedef struct kernel_balance {
  char name[96];
  int ndranges;
  double wall;              /* µs, all its NDRanges */
  double busy[MAX_THREADS]; /* µs per slot */
} kernel_balance;

/* The fields of one event line as timeline.c writes them. */
static bool parse_slice(const char *line, slice *s) {
  const char *x = strstr(line, "\"ph\":\"X\"");
  if (!x) return false;
  return sscanf(x,
                "\"ph\":\"X\",\"cat\":\"%31[^\"]\",\"name\":\"%95[^\"]\","
                "\"pid\":%*d,\"tid\":%u,\"ts\":%lf,\"dur\":%lf",
                s->category, s->name, &s->tid, &s->ts, &s->dur) == 5;
}

/* Reads the trace: the pool's threads (workers first in `threads`, each a
 * slot; queue executors, which are the NDRange's calling thread, all map to
 * one last slot) and every slice. */
static slice *read_trace(const char *path, size_t *count, unsigned *threads,
                         bool *executor, unsigned *thread_count) {
  FILE *file = fopen(path, "r");
  if (!file) return NULL;
  size_t cap = 4096, n = 0;
  slice *slices = bench_malloc(cap * sizeof *slices);
  char line[2048];
  while (fgets(line, sizeof line, file)) {
    unsigned tid = 0;
    const char *meta = strstr(line, "\"name\":\"thread_name\"");
    if (meta && sscanf(meta, "\"name\":\"thread_name\",\"pid\":%*d,\"tid\":%u",
                       &tid) == 1) {
      bool worker = strstr(line, "clmux worker") != NULL;
      if ((worker || strstr(line, "clmux queue executor")) &&
          *thread_count < MAX_THREADS) {
        executor[*thread_count] = !worker;
        threads[(*thread_count)++] = tid;
      }
      continue;
    }
    if (n == cap) {
      cap *= 2;
      slice *grown = realloc(slices, cap * sizeof *slices);
      if (!grown) break;
      slices = grown;
    }
    if (parse_slice(line, &slices[n])) n++;
  }
  fclose(file);
  *count = n;
  return slices;
}

static int thread_index(const unsigned *threads, unsigned count, unsigned tid) {
  for (unsigned i = 0; i < count; i++) {
    if (threads[i] == tid) return (int)i;
  }
  return -1;
}

static void report(const char *path) {
  unsigned threads[MAX_THREADS], thread_count = 0;
  bool executor[MAX_THREADS];
  size_t count = 0;
  slice *slices = read_trace(path, &count, threads, executor, &thread_count);
  if (!slices || thread_count == 0) {
    printf("\nworker balance: no clmux timeline in %s\n", path);
    free(slices);
    return;
  }
  /* Slot of each thread: workers in order, then the caller. */
  int slot_of[MAX_THREADS], slots = 0;
  for (unsigned t = 0; t < thread_count; t++) {
    if (!executor[t]) slot_of[t] = slots++;
  }
  for (unsigned t = 0; t < thread_count; t++) {
    if (executor[t]) slot_of[t] = slots;
  }
  slots++;
  static kernel_balance kernels[MAX_KERNELS];
  int kernel_count = 0;
  for (size_t i = 0; i < count; i++) {
    const slice *command = &slices[i];
    if (command->tid < TRACK_BASE || strcmp(command->category, "NDRange")) {
      continue;
    }
    kernel_balance *k = NULL;
    for (int j = 0; j < kernel_count; j++) {
      if (!strcmp(kernels[j].name, command->name)) k = &kernels[j];
    }
    if (!k) {
      if (kernel_count == MAX_KERNELS) continue;
      k = &kernels[kernel_count++];
      snprintf(k->name, sizeof k->name, "%s", command->name);
    }
    k->ndranges++;
    k->wall += command->dur;
    /* Its chunks: same kernel, inside its run (timestamps to 1 ns). */
    for (size_t c = 0; c < count; c++) {
      const slice *chunk = &slices[c];
      if (strcmp(chunk->category, "work-groups") ||
          strcmp(chunk->name, command->name) ||
          chunk->ts < command->ts - 0.002 ||
          chunk->ts + chunk->dur > command->ts + command->dur + 0.002) {
        continue;
      }
      int t = thread_index(threads, thread_count, chunk->tid);
      if (t >= 0) k->busy[slot_of[t]] += chunk->dur;
    }
  }
  printf(
      "\nworker balance (clmux, from CLMUX_TRACE): per kernel, the busy "
      "share of its NDRanges' time of each worker and of the calling "
      "thread (last; it runs only NDRanges too short to hand over), and "
      "the busiest worker over the workers' mean\n");
  int workers = slots > 1 ? slots - 1 : 1;
  for (int j = 0; j < kernel_count; j++) {
    const kernel_balance *k = &kernels[j];
    double total = 0, most = 0;
    printf("  %-24.24s %4d NDRanges  busy", k->name, k->ndranges);
    for (int s = 0; s < slots; s++) {
      double share = k->wall > 0 ? k->busy[s] / k->wall : 0;
      printf(" %3.0f%%", 100 * share);
      if (s >= workers) continue;
      total += share;
      if (share > most) most = share;
    }
    double mean = total / workers;
    printf("  imbalance %.2f\n", mean > 0 ? most / mean : 0.0);
  }
  free(slices);
}

/* Forks: the child returns 0 and runs the benchmarks with CLMUX_TRACE
 * set; the parent waits, reports and exits with the child's status. */
int worker_balance_run(void) {
  char path[] = "/tmp/clmux-balance-XXXXXX";
  pid_t child = fork_with_temp_file(path);
  if (child < 0) return -1;
  if (child == 0) {
    setenv("CLMUX_TRACE", path, 1);
    return 0; /* the child runs the benchmarks */
  }
  int status = 0;
  waitpid(child, &status, 0);
  report(path);
  unlink(path);
  exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

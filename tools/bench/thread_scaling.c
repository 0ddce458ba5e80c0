/* clmux-cl-kernel-bench -s: how clmux's kernels speed up with threads.
 *
 * For each thread count (1, 2, 4, ... and all the process's CPUs) the
 * benchmarks run in a child process with CLMUX_NUM_THREADS set, on clmux
 * alone; the child writes each correct row's median to a file, which the
 * parent reads. The parent prints per kernel the medians and the speedup
 * of the most threads over one, beside the same speedup of the machine's
 * float FMA peak in plain C (machine_limits.c): what perfect scaling of
 * compute-bound work looks like on this machine. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_kernel.h"

#define MAX_COUNTS 12
#define MAX_ROWS 128

FILE *scaling_results;

typedef struct row {
  char label[160];
  double ms[MAX_COUNTS]; /* 0: no correct result */
} row;

static int cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}

static row *find_row(row *rows, int *count, const char *label) {
  for (int i = 0; i < *count; i++) {
    if (!strcmp(rows[i].label, label)) return &rows[i];
  }
  if (*count == MAX_ROWS) return NULL;
  row *r = &rows[(*count)++];
  memset(r, 0, sizeof *r);
  snprintf(r->label, sizeof r->label, "%.159s", label);
  return r;
}

/* Reads "label<TAB>ms" lines into column c. */
static void read_results(const char *path, row *rows, int *count, int c) {
  FILE *file = fopen(path, "r");
  if (!file) return;
  char line[512];
  while (fgets(line, sizeof line, file)) {
    char *tab = strrchr(line, '\t');
    if (!tab) continue;
    *tab = '\0';
    row *r = find_row(rows, count, line);
    if (r) r->ms[c] = atof(tab + 1);
  }
  fclose(file);
}

int thread_scaling_run(void) {
  int counts[MAX_COUNTS], n = 0, all = cpus();
  for (int t = 1; t < all && n < MAX_COUNTS - 1; t *= 2) counts[n++] = t;
  counts[n++] = all;
  static row rows[MAX_ROWS];
  int row_count = 0;
  int status = 0;
  for (int c = 0; c < n; c++) {
    char path[] = "/tmp/clmux-scaling-XXXXXX";
    pid_t child = fork_with_temp_file(path);
    if (child < 0) return -1;
    if (child == 0) {
      char value[16];
      snprintf(value, sizeof value, "%d", counts[c]);
      setenv("CLMUX_NUM_THREADS", value, 1);
      scaling_results = fopen(path, "w");
      if (!scaling_results || !freopen("/dev/null", "w", stdout)) _exit(1);
      return 0; /* the child runs the benchmarks */
    }
    int child_status = 0;
    waitpid(child, &child_status, 0);
    if (!WIFEXITED(child_status) || WEXITSTATUS(child_status)) status = 1;
    read_results(path, rows, &row_count, c);
    unlink(path);
  }

  printf(
      "thread scaling (clmux, CLMUX_NUM_THREADS = n): median ms of each "
      "correct row, and the speedup of %d threads over 1\n",
      counts[n - 1]);
  printf("%-44s", "kernel");
  for (int c = 0; c < n; c++) printf(" %8s%-3d", "n=", counts[c]);
  printf("  speedup\n");
  for (int i = 0; i < row_count; i++) {
    printf("%-44.44s", rows[i].label);
    for (int c = 0; c < n; c++) printf(" %11.2f", rows[i].ms[c]);
    if (rows[i].ms[0] > 0 && rows[i].ms[n - 1] > 0) {
      printf("  %7.2f", rows[i].ms[0] / rows[i].ms[n - 1]);
    }
    printf("\n");
  }
  double one = machine_fma_gflops(1), most = machine_fma_gflops(counts[n - 1]);
  printf("%-44s %11.1f", "plain C float FMA peak, GFLOP/s", one);
  for (int c = 1; c < n - 1; c++) printf(" %11s", "");
  if (n > 1) printf(" %11.1f", most);
  printf("  %7.2f\n", one > 0 ? most / one : 0.0);
  exit(status);
}

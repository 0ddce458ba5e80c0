/* clmux-kernel-fuzz: differential testing with random kernels.
 *
 * Each seed makes a kernel and its inputs (kernel_gen.c). Every
 * configuration runs it in a child process of its own: clmux as users get
 * it (vectorized across work-items), clmux with CLMUX_VECTORIZE=0 (one
 * work-item at a time, no structurizer) and, with --pocl and --rusticl,
 * PoCL and Mesa's rusticl (on llvmpipe) through the same loader: where
 * clmux and PoCL differ, a third implementation says which is odd. The outputs
 * (the buffer every work-item writes, the atomic counters, the output image)
 * must agree byte for byte. A disagreement, a crash, a hang or a kernel one
 * configuration refuses is saved as a reproducer: the kernel's source and what
 * differed, rerun with --seed.
 *
 *   clmux-kernel-fuzz [-n COUNT] [-s FIRST] [--size N] [--pocl] [--rusticl]
 *                     [--save DIR] [--timeout SECONDS] [--seed N]
 *
 * The last line is "N passed, N failed" over the seeds. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_gen.h"
#include "kernel_run.h"

typedef struct config {
  const char *name;
  const char *platform; /* a substring of the platform's name */
  bool scalar;          /* CLMUX_VECTORIZE=0 */
} config;

static const config configs[] = {
    {"clmux", "clmux", false},
    {"clmux-one-at-a-time", "clmux", true},
    {"pocl", "Portable Computing Language", false},
    {"rusticl", "rusticl", false},
};
enum { CONFIG_COUNT = sizeof configs / sizeof *configs };
/* The configurations of this run: clmux's two, then the platforms asked
 * for. */
static const config *chosen[CONFIG_COUNT];

/* What a configuration made of one seed: kernel_run's outcomes, then
 * what the parent sees of a child that never reported. */
enum {
  RAN = KERNEL_RAN,
  REFUSED = KERNEL_REFUSED,
  FAILED = KERNEL_FAILED,
  CRASHED,
  HUNG,
  NOT_RUN
};
static const char *const status_names[] = {
    "ran", "refused to build", "failed to run", "crashed", "hung", "not run"};

typedef struct record {
  uint64_t seed;
  int32_t status;
  uint32_t words; /* output words that follow */
} record;

typedef struct result {
  int status;
  uint32_t *words;
  uint32_t count;
  char *log; /* the build log of a refusal */
} result;

/* ---- The child: one configuration, a range of seeds ---- */

static cl_device_id find_device(const char *platform_name) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS) return NULL;
  for (cl_uint i = 0; i < count && i < 16; i++) {
    char name[256] = {0};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name,
                      NULL);
    if (!strstr(name, platform_name)) continue;
    cl_device_id device;
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &device, NULL) ==
        CL_SUCCESS) {
      return device;
    }
  }
  return NULL;
}

static void write_all(int fd, const void *data, size_t size) {
  const char *p = data;
  while (size) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    p += n;
    size -= (size_t)n;
  }
}

static void make_case(uint64_t seed, kernel_case *c);

static void child(const config *cfg, uint64_t first, uint64_t end, int timeout,
                  int fd) {
  if (cfg->scalar) setenv("CLMUX_VECTORIZE", "0", 1);
  setenv("CLMUX_CACHE", "0", 1); /* thousands of kernels seen once */
  setenv("POCL_KERNEL_CACHE", "0", 0);
  setenv("RUSTICL_ENABLE", "llvmpipe", 0); /* rusticl's CPU device */
  cl_device_id device = find_device(cfg->platform);
  if (!device) _exit(2);
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  if (error != CL_SUCCESS) _exit(2);
  for (uint64_t seed = first; seed < end; seed++) {
    kernel_case c;
    make_case(seed, &c);
    kernel_run_output output = {0};
    alarm((unsigned)timeout);
    int status = kernel_run(context, queue, device, seed, &c, &output);
    alarm(0);
    uint32_t *words = output.words, count = output.count;
    char *log = output.log;
    record r = {seed, status, status == RAN ? count : 0};
    if (status == REFUSED && log) r.words = (uint32_t)(strlen(log) + 4) / 4;
    write_all(fd, &r, sizeof r);
    if (status == RAN) write_all(fd, words, count * 4);
    if (status == REFUSED && log) {
      char *padded = calloc(r.words, 4);
      if (padded) {
        memcpy(padded, log, strlen(log));
        write_all(fd, padded, r.words * 4);
      }
      free(padded);
    }
    free(words);
    free(log);
    kernel_case_free(&c);
  }
  _exit(0);
}

/* ---- The parent ---- */

static uint64_t first_seed = 1, seed_count = 20;
static int size = 1, timeout_seconds = 120;
static const char *source_file; /* --file: this source, the seed's launch */

/* Case `seed`, its source replaced by --file's. */
static void make_case(uint64_t seed, kernel_case *c) {
  kernel_gen(seed, size, c);
  if (!source_file) return;
  FILE *f = fopen(source_file, "r");
  if (!f) {
    perror(source_file);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long length = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = calloc(1, (size_t)length + 1);
  if (!text || fread(text, 1, (size_t)length, f) != (size_t)length) exit(2);
  fclose(f);
  free(c->source);
  c->source = text;
}

/* Reads the records a child wrote to fd from *offset on into results. */
static void read_records(int fd, off_t *offset, result *results,
                         uint64_t *next) {
  for (;;) {
    record r;
    if (pread(fd, &r, sizeof r, *offset) != (ssize_t)sizeof r) return;
    uint32_t *words = NULL;
    if (r.words) {
      words = malloc((size_t)r.words * 4);
      if (!words || pread(fd, words, (size_t)r.words * 4,
                          *offset + (off_t)sizeof r) != (ssize_t)r.words * 4) {
        free(words);
        return;
      }
    }
    *offset += (off_t)sizeof r + (off_t)r.words * 4;
    result *res = &results[r.seed - first_seed];
    res->status = r.status;
    if (r.status == REFUSED) {
      res->log = (char *)words;
    } else {
      res->words = words;
      res->count = r.words;
    }
    *next = r.seed + 1;
  }
}

/* One configuration's runs: a child at a time over the seeds still to
 * run, restarted after a crash or a hang, which is recorded against the
 * seed that was running. */
typedef struct runner {
  const config *cfg;
  result *results;
  int fd;
  off_t offset;
  uint64_t next;
  pid_t pid;
} runner;

static void start(runner *r) {
  r->pid = fork();
  if (r->pid == 0) {
    child(r->cfg, r->next, first_seed + seed_count, timeout_seconds, r->fd);
  }
}

/* After the child's exit: false when the configuration is done. */
static bool reap(runner *r, int wstatus) {
  uint64_t end = first_seed + seed_count;
  read_records(r->fd, &r->offset, r->results, &r->next);
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 2) {
    return false; /* no such platform: its seeds stay NOT_RUN */
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return false;
  if (r->next < end) {
    bool hung = WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGALRM;
    r->results[r->next - first_seed].status = hung ? HUNG : CRASHED;
    r->next++;
  }
  return r->next < end;
}

/* The configurations side by side, a process each. */
static void run_configs(int count, result **results) {
  runner runners[CONFIG_COUNT];
  int running = 0;
  for (int k = 0; k < count; k++) {
    char name[] = "/tmp/clmux-fuzz-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0) {
      perror("mkstemp");
      exit(2);
    }
    unlink(name);
    runners[k] = (runner){chosen[k], results[k], fd, 0, first_seed, -1};
    start(&runners[k]);
    running++;
  }
  while (running) {
    int wstatus = 0;
    pid_t pid = wait(&wstatus);
    if (pid < 0) break;
    for (int k = 0; k < count; k++) {
      if (runners[k].pid != pid) continue;
      if (reap(&runners[k], wstatus)) {
        start(&runners[k]);
      } else {
        runners[k].pid = -1;
        close(runners[k].fd);
        running--;
      }
    }
  }
}

static void save_reproducer(const char *dir, uint64_t seed, const char *what) {
  mkdir(dir, 0755);
  kernel_case c;
  kernel_gen(seed, size, &c);
  char path[4096];
  snprintf(path, sizeof path, "%s/seed-%llu.cl", dir, (unsigned long long)seed);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(c.source, f);
    fclose(f);
  }
  snprintf(path, sizeof path, "%s/seed-%llu.txt", dir,
           (unsigned long long)seed);
  f = fopen(path, "w");
  if (f) {
    fprintf(f,
            "seed %llu (size %d): global %zu, local %zu, k0 %u, k1 %u, "
            "images %d\n%s\nrerun: clmux-kernel-fuzz --seed %llu --size %d\n",
            (unsigned long long)seed, size, c.global, c.local, c.k0, c.k1,
            c.images, what, (unsigned long long)seed, size);
    fclose(f);
  }
  kernel_case_free(&c);
}

/* How results a and b of one seed differ, or NULL. */
static const char *differ(const result *a, const result *b, char *text,
                          size_t size_text, const char *an, const char *bn) {
  if (a->status == NOT_RUN || b->status == NOT_RUN) return NULL;
  if (a->status != b->status) {
    snprintf(text, size_text, "%s %s, %s %s%s%s", an, status_names[a->status],
             bn, status_names[b->status],
             a->log || b->log ? "; build log: " : "",
             a->log   ? a->log
             : b->log ? b->log
                      : "");
    return text;
  }
  if (a->status != RAN) return NULL;
  if (a->count != b->count) {
    snprintf(text, size_text, "%s and %s wrote %u and %u words", an, bn,
             a->count, b->count);
    return text;
  }
  for (uint32_t i = 0; i < a->count; i++) {
    if (a->words[i] != b->words[i]) {
      snprintf(text, size_text, "word %u: %s 0x%08x, %s 0x%08x", i, an,
               a->words[i], bn, b->words[i]);
      return text;
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  bool pocl = false, rusticl = false, print = false;
  const char *save = "fuzz-reproducers";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      seed_count = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
      first_seed = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      first_seed = strtoull(argv[++i], NULL, 10);
      seed_count = 1;
      print = true;
    } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
      size = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
      timeout_seconds = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--save") && i + 1 < argc) {
      save = argv[++i];
    } else if (!strcmp(argv[i], "--file") && i + 1 < argc) {
      source_file = argv[++i];
    } else if (!strcmp(argv[i], "--pocl")) {
      pocl = true;
    } else if (!strcmp(argv[i], "--rusticl")) {
      rusticl = true;
    } else {
      fprintf(
          stderr,
          "usage: %s [-n COUNT] [-s FIRST] [--size N] [--pocl] [--rusticl] "
          "[--save DIR] [--timeout SECONDS] [--seed N [--file KERNEL.cl]]\n",
          argv[0]);
      return 2;
    }
  }
  if (size < 1 || seed_count == 0) return 2;
  if (print) {
    kernel_case c;
    kernel_gen(first_seed, size, &c);
    printf("%s/* global %zu, local %zu, k0 %u, k1 %u */\n", c.source, c.global,
           c.local, c.k0, c.k1);
    kernel_case_free(&c);
  }
  int config_count = 0;
  chosen[config_count++] = &configs[0];
  chosen[config_count++] = &configs[1];
  if (pocl) chosen[config_count++] = &configs[2];
  if (rusticl) chosen[config_count++] = &configs[3];
  result *results[CONFIG_COUNT];
  for (int k = 0; k < config_count; k++) {
    results[k] = calloc(seed_count, sizeof **results);
    if (!results[k]) return 2;
    for (uint64_t s = 0; s < seed_count; s++) results[k][s].status = NOT_RUN;
  }
  run_configs(config_count, results);

  unsigned features[FEATURE_COUNT] = {0};
  unsigned passed = 0, failed = 0, counts[6] = {0};
  /* Failures by kind: clmux's two configurations disagree; they agree and
   * only another platform differs; no configuration builds the kernel. */
  unsigned clmux_split = 0, others_only = 0, unbuildable = 0;
  for (uint64_t s = 0; s < seed_count; s++) {
    uint64_t seed = first_seed + s;
    kernel_case c;
    kernel_gen(seed, size, &c);
    for (int f = 0; f < FEATURE_COUNT; f++) features[f] += c.features[f] != 0;
    kernel_case_free(&c);
    /* Every configuration against the first, so that a reproducer says
     * which side the others take. */
    char text[8192] = "", one[4096];
    const char *what = NULL;
    for (int k = 1; k < config_count; k++) {
      if (differ(&results[0][s], &results[k][s], one, sizeof one,
                 chosen[0]->name, chosen[k]->name)) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%s", used ? "; " : "",
                 one);
        what = text;
      }
    }
    for (int k = 0; k < config_count; k++) counts[results[k][s].status]++;
    bool all_refused = true;
    for (int k = 0; k < config_count; k++) {
      all_refused &=
          results[k][s].status == REFUSED || results[k][s].status == NOT_RUN;
    }
    if (!what && all_refused) {
      snprintf(text, sizeof text,
               "no configuration builds it (a generator "
               "bug): %s",
               results[0][s].log ? results[0][s].log : "");
      what = text;
    }
    if (what) {
      failed++;
      if (differ(&results[0][s], &results[1][s], one, sizeof one,
                 chosen[0]->name, chosen[1]->name)) {
        clmux_split++;
      } else if (all_refused) {
        unbuildable++;
      } else {
        others_only++;
      }
      printf("seed %llu: %s\n", (unsigned long long)seed, what);
      save_reproducer(save, seed, what);
    } else {
      passed++;
    }
  }
  printf("configurations:");
  for (int k = 0; k < config_count; k++) {
    bool any = false;
    for (uint64_t s = 0; s < seed_count; s++)
      any |= results[k][s].status != NOT_RUN;
    printf(" %s%s", chosen[k]->name, any ? "" : " (not found)");
  }
  printf(
      "\nresults: %u ran, %u refused, %u failed to run, %u crashed, %u hung\n",
      counts[RAN], counts[REFUSED], counts[FAILED], counts[CRASHED],
      counts[HUNG]);
  printf("kernels by feature:");
  for (int f = 0; f < FEATURE_COUNT; f++) {
    printf("%s %s %u", f ? "," : "", kernel_gen_feature_names[f], features[f]);
  }
  printf("\n");
  if (failed) {
    /* Where clmux's configurations agree and only PoCL differs, either
     * may be wrong: the reproducer tells by hand. */
    printf(
        "failures: %u where clmux's configurations disagree, %u where "
        "only another platform differs, %u that nothing builds\n",
        clmux_split, others_only, unbuildable);
    printf("reproducers in %s/\n", save);
  }
  printf("%u passed, %u failed\n", passed, failed);
  for (int k = 0; k < config_count; k++) {
    for (uint64_t s = 0; s < seed_count; s++) {
      free(results[k][s].words);
      free(results[k][s].log);
    }
    free(results[k]);
  }
  return failed ? 1 : 0;
}

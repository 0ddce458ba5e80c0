/* clmux compiler: SPIR-V -> LLVM through the translator, run as a child
 * process with memory files for its input, output and messages: no pipes
 * to deadlock on, no SIGPIPE, and the parent's signal dispositions are
 * left alone. The child gets a time limit; whatever it does on bad input
 * (crash, assertion, hang) becomes a build log. */
#include <errno.h>
#include <fcntl.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spirv.h"

extern char **environ;

/* Far above any real translation (milliseconds); ends a hung child. */
#define TRANSLATOR_SECONDS 60
/* The part of the translator's messages a log keeps (a crash prints a
 * long stack). */
#define MESSAGE_LIMIT 4096

bool cc_spirv_available(void) { return access(CC_LLVM_SPIRV, X_OK) == 0; }

const char *cc_spirv_translator(void) { return CC_LLVM_SPIRV; }

typedef struct log_text {
  char *data;
  size_t length;
  bool failed;
} log_text;

static void log_add(log_text *log, const char *text, size_t length) {
  if (log->failed) return;
  char *grown = realloc(log->data, log->length + length + 1);
  if (!grown) {
    log->failed = true;
    return;
  }
  memcpy(grown + log->length, text, length);
  log->length += length;
  grown[log->length] = '\0';
  log->data = grown;
}

static void log_line(log_text *log, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void log_line(log_text *log, const char *format, ...) {
  char line[512];
  va_list list;
  va_start(list, format);
  int length = vsnprintf(line, sizeof line, format, list);
  va_end(list);
  if (length < 0) return;
  log_add(log, line,
          (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
}

/* A memory file holding `size` bytes (rewound), or -1. */
static int memory_file(const char *name, const void *data, size_t size) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  const uint8_t *bytes = data;
  while (size) {
    ssize_t written = write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      close(fd);
      return -1;
    }
    bytes += written;
    size -= (size_t)written;
  }
  if (lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* A memory file's whole contents (malloc'd, NUL-terminated), or NULL. */
static char *file_contents(int fd, size_t *size) {
  struct stat info;
  if (fstat(fd, &info) != 0 || lseek(fd, 0, SEEK_SET) != 0) return NULL;
  char *data = malloc((size_t)info.st_size + 1);
  if (!data) return NULL;
  size_t done = 0;
  while (done < (size_t)info.st_size) {
    ssize_t got = read(fd, data + done, (size_t)info.st_size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += (size_t)got;
  }
  data[done] = '\0';
  *size = done;
  return data;
}

/* The environment plus LLVM_DISABLE_SYMBOLIZATION, so a crashing child
 * does not look for llvm-symbolizer (slow); NULL when out of memory. */
static char **child_environment(void) {
  size_t count = 0;
  while (environ && environ[count]) count++;
  char **list = malloc((count + 2) * sizeof *list);
  if (!list) return NULL;
  for (size_t i = 0; i < count; i++) list[i] = environ[i];
  list[count] = "LLVM_DISABLE_SYMBOLIZATION=1";
  list[count + 1] = NULL;
  return list;
}

/* Waits for `child` up to the time limit, then kills it. Returns its wait
 * status, or -1 when it could not be had (SIGCHLD ignored by the
 * application reaps children itself). */
static int wait_for(pid_t child, bool *timed_out) {
  struct timespec pause = {0, 100000}; /* 0.1 ms, doubling to 10 ms */
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    int status = 0;
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return status;
    if (done < 0 && errno != EINTR) return -1;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= TRANSLATOR_SECONDS) {
      *timed_out = true;
      kill(child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      return status;
    }
    nanosleep(&pause, NULL);
    if (pause.tv_nsec < 10000000) pause.tv_nsec *= 2;
  }
}

/* Runs the translator on `words`; on success *bitcode holds its output. */
static cc_spirv_result run_translator(const uint32_t *words, size_t length,
                                      char **bitcode, size_t *bitcode_size,
                                      log_text *log) {
  *bitcode = NULL;
  cc_spirv_result result = CC_SPIRV_OUT_OF_MEMORY;
  int in = memory_file("clmux-spirv", words, length);
  int out = memory_file("clmux-bitcode", NULL, 0);
  int messages = memory_file("clmux-translator-log", NULL, 0);
  char **environment = child_environment();
  posix_spawn_file_actions_t actions;
  bool have_actions = posix_spawn_file_actions_init(&actions) == 0;
  if (in < 0 || out < 0 || messages < 0 || !environment || !have_actions) {
    goto done;
  }
  posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, messages, STDERR_FILENO);
  /* CL1.2: builtins as OpenCL C 1.2 names them (the builtin library's). */
  char *const argv[] = {CC_LLVM_SPIRV,
                        "-r",
                        "--spirv-target-env=CL1.2",
                        "--spirv-gen-kernel-arg-name-md",
                        "-o",
                        "-",
                        "/dev/stdin",
                        NULL};
  pid_t child;
  int error =
      posix_spawn(&child, CC_LLVM_SPIRV, &actions, NULL, argv, environment);
  if (error) {
    log_line(log, "error: cannot run the SPIR-V translator %s: %s\n",
             CC_LLVM_SPIRV, strerror(error));
    result = CC_SPIRV_FAILED;
    goto done;
  }
  bool timed_out = false;
  int status = wait_for(child, &timed_out);
  size_t message_size = 0;
  char *message = file_contents(messages, &message_size);
  if (message && message_size) {
    log_add(log, message,
            message_size < MESSAGE_LIMIT ? message_size : MESSAGE_LIMIT);
    if (message[message_size - 1] != '\n') log_add(log, "\n", 1);
  }
  free(message);
  bool exited_well =
      status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (timed_out) {
    log_line(log, "error: the SPIR-V translator ran longer than %d s\n",
             TRANSLATOR_SECONDS);
  } else if (status != -1 && WIFSIGNALED(status)) {
    log_line(log, "error: the SPIR-V translator ended on signal %d (%s)\n",
             WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else if (!exited_well) {
    log_line(log, "error: the SPIR-V translator rejected the module\n");
  }
  result = CC_SPIRV_FAILED;
  if (!timed_out && exited_well) {
    *bitcode = file_contents(out, bitcode_size);
    result = *bitcode ? CC_SPIRV_SUCCESS : CC_SPIRV_OUT_OF_MEMORY;
  }

done:
  if (have_actions) posix_spawn_file_actions_destroy(&actions);
  free(environment);
  if (in >= 0) close(in);
  if (out >= 0) close(out);
  if (messages >= 0) close(messages);
  return result;
}

/* The translator's bitcode as a checked module of `context`. */
static cc_spirv_result read_bitcode(LLVMContextRef context, const char *bytes,
                                    size_t size, LLVMModuleRef *module,
                                    log_text *log) {
  *module = NULL;
  LLVMMemoryBufferRef buffer =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes, size, "spirv");
  if (!buffer) return CC_SPIRV_OUT_OF_MEMORY;
  bool failed = LLVMParseBitcodeInContext2(context, buffer, module) != 0;
  LLVMDisposeMemoryBuffer(buffer);
  if (failed || !*module) {
    log_line(log, "error: the SPIR-V translator gave no readable module\n");
    *module = NULL;
    return CC_SPIRV_FAILED;
  }
  char *message = NULL;
  if (LLVMVerifyModule(*module, LLVMReturnStatusAction, &message)) {
    log_line(log,
             "error: the SPIR-V translator gave an invalid module: %.400s\n",
             message ? message : "");
    LLVMDisposeMessage(message);
    LLVMDisposeModule(*module);
    *module = NULL;
    return CC_SPIRV_FAILED;
  }
  LLVMDisposeMessage(message);
  cc_spirv_adopt_conventions(*module);
  return CC_SPIRV_SUCCESS;
}

cc_spirv_result cc_spirv_translate(LLVMContextRef context, const void *il,
                                   size_t length, const cc_spirv_value *values,
                                   size_t count, LLVMModuleRef *out_module,
                                   char **out_log) {
  *out_module = NULL;
  log_text log = {0};
  log_add(&log, "", 0);
  cc_spirv_result result = CC_SPIRV_FAILED;
  unsigned minor = cc_spirv_minor_version(il, length);
  uint32_t *words = NULL;
  size_t prepared = 0;
  const char *reason = NULL;
  if (minor > CC_SPIRV_MAX_MINOR) {
    log_line(&log,
             "error: SPIR-V 1.%u is newer than clmux reads (1.0 to 1.%u)\n",
             minor, CC_SPIRV_MAX_MINOR);
  } else if (!(words =
                   cc_spirv_prepare(il, length, values, count, &prepared))) {
    result = CC_SPIRV_OUT_OF_MEMORY;
  } else if (!(words = cc_spirv_lower(words, &prepared, &reason))) {
    log_line(&log, "error: %s\n", reason);
  } else {
    char *bitcode = NULL;
    size_t size = 0;
    result = run_translator(words, prepared, &bitcode, &size, &log);
    if (result == CC_SPIRV_SUCCESS) {
      result = read_bitcode(context, bitcode, size, out_module, &log);
    }
    free(bitcode);
  }
  free(words);
  if (log.failed) {
    free(log.data);
    log.data = NULL;
    if (*out_module) LLVMDisposeModule(*out_module);
    *out_module = NULL;
    result = CC_SPIRV_OUT_OF_MEMORY;
  }
  *out_log = log.data;
  return result;
}

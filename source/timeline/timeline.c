/* clmux timeline: the CLMUX_TRACE writer (see timeline.h). */
#include "timeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Tracks made with timeline_track() sit above every thread id. */
#define TRACK_BASE 0x40000000u
/* Flushed to the file at least this often while events come in. */
#define FLUSH_EVERY_NS 100000000u

static struct {
  pthread_once_t once;
  bool on;
  FILE *file;
  pthread_mutex_t lock; /* every write; our own, so that fork can hold it */
  bool closed;          /* under the lock: at exit, and in a forked child */
  int pid;
  atomic_uint tracks;
  uint64_t flushed_at;
} timeline = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local unsigned thread_id;

uint64_t timeline_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

size_t timeline_escape(char *out, size_t size, const char *text) {
  size_t length = 0;
  if (size == 0) return 0;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    char piece[8];
    if (*c == '"' || *c == '\\') {
      piece[0] = '\\';
      piece[1] = (char)*c;
      piece[2] = '\0';
    } else if (*c < 0x20) {
      snprintf(piece, sizeof piece, "\\u%04x", *c);
    } else {
      piece[0] = (char)*c;
      piece[1] = '\0';
    }
    size_t piece_length = strlen(piece);
    if (length + piece_length >= size) break;
    memcpy(out + length, piece, piece_length);
    length += piece_length;
  }
  out[length] = '\0';
  return length;
}

/* Writes one event (the text after its separating comma). */
static void write_event(const char *text, size_t length) {
  FILE *file = timeline.file;
  pthread_mutex_lock(&timeline.lock);
  if (!timeline.closed) {
    fputs_unlocked(",\n", file);
    fwrite_unlocked(text, 1, length, file);
    uint64_t now = timeline_now();
    if (now - timeline.flushed_at > FLUSH_EVERY_NS) {
      fflush_unlocked(file);
      timeline.flushed_at = now;
    }
  }
  pthread_mutex_unlock(&timeline.lock);
}

static void name_track(unsigned tid, const char *name) {
  char escaped[256], text[512];
  timeline_escape(escaped, sizeof escaped, name);
  int length = snprintf(text, sizeof text,
                        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,"
                        "\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
                        timeline.pid, tid, escaped);
  if (length > 0 && (size_t)length < sizeof text) {
    write_event(text, (size_t)length);
  }
}

/* Fork: the child must neither repeat the parent's buffered events nor
 * close the parent's array. */
static void before_fork(void) {
  pthread_mutex_lock(&timeline.lock);
  fflush_unlocked(timeline.file);
}

static void after_fork_parent(void) { pthread_mutex_unlock(&timeline.lock); }

static void after_fork_child(void) {
  timeline.closed = true;
  timeline.on = false;
  thread_id = 0;
  pthread_mutex_unlock(&timeline.lock);
}

static void set_up(void) {
  const char *path = getenv("CLMUX_TRACE");
  if (!path || !*path) return;
  /* "e": the descriptor does not leak into programs the application runs. */
  FILE *file = fopen(path, "we");
  if (!file) {
    fprintf(stderr, "clmux: CLMUX_TRACE: cannot open %s: %s\n", path,
            strerror(errno));
    return;
  }
  setvbuf(file, NULL, _IOFBF, 1 << 16);
  timeline.file = file;
  timeline.pid = (int)getpid();
  timeline.flushed_at = timeline_now();
  char escaped[256];
  timeline_escape(escaped, sizeof escaped, program_invocation_short_name);
  fprintf(file,
          "[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,"
          "\"args\":{\"name\":\"%s (clmux)\"}}",
          timeline.pid, escaped);
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  timeline.on = true;
}

bool timeline_on(void) {
  pthread_once(&timeline.once, set_up);
  return timeline.on;
}

/* At exit (and at dlclose): close the array. The FILE stays open, because
 * threads still running may try to write; they find it closed. */
__attribute__((destructor)) static void timeline_close(void) {
  if (!timeline.file) return;
  pthread_mutex_lock(&timeline.lock);
  if (!timeline.closed) {
    timeline.closed = true;
    fputs_unlocked("\n]\n", timeline.file);
    fflush_unlocked(timeline.file);
  }
  pthread_mutex_unlock(&timeline.lock);
}

static unsigned this_thread(void) {
  if (!thread_id) thread_id = (unsigned)syscall(SYS_gettid);
  return thread_id;
}

uint32_t timeline_track(const char *name) {
  if (!timeline_on()) return 0;
  uint32_t track = TRACK_BASE + atomic_fetch_add(&timeline.tracks, 1) + 1;
  name_track(track, name);
  return track;
}

void timeline_name_thread(const char *name) {
  if (timeline_on()) name_track(this_thread(), name);
}

void timeline_slice(uint32_t track, const char *category, const char *name,
                    uint64_t begin, uint64_t end, const char *args) {
  if (!timeline_on()) return;
  char escaped_name[256], escaped_category[64], text[1024];
  timeline_escape(escaped_name, sizeof escaped_name, name);
  timeline_escape(escaped_category, sizeof escaped_category, category);
  if (end < begin) end = begin;
  int length = snprintf(
      text, sizeof text,
      "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%u,"
      "\"ts\":%.3f,\"dur\":%.3f,\"args\":{%s}}",
      escaped_category, escaped_name, timeline.pid,
      track ? track : this_thread(), (double)begin / 1e3,
      (double)(end - begin) / 1e3, args ? args : "");
  /* Too long for the buffer: keep the event, drop its arguments. */
  if (length < 0 || (size_t)length >= sizeof text) {
    length = snprintf(
        text, sizeof text,
        "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%u,"
        "\"ts\":%.3f,\"dur\":%.3f}",
        escaped_category, escaped_name, timeline.pid,
        track ? track : this_thread(), (double)begin / 1e3,
        (double)(end - begin) / 1e3);
  }
  if (length > 0 && (size_t)length < sizeof text) {
    write_event(text, (size_t)length);
  }
}

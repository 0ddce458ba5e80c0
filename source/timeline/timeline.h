/* clmux timeline: CLMUX_TRACE=<file> writes what ran as Chrome trace-event
 * JSON (the array format), loadable in Perfetto and chrome://tracing.
 *
 * Events are written as they happen, each with one fwrite; the closing
 * bracket is written at exit (a trace cut short by a crash still loads:
 * the array format allows a missing bracket). Off, every call site costs
 * one well-predicted branch on timeline_on().
 *
 * Tracks: every thread that reports has its own (workers, queue executors,
 * compiler threads, the application's threads); each command queue has one
 * made with timeline_track(). Times are CLOCK_MONOTONIC nanoseconds, as
 * timeline_now() and clx_now_ns()/cpu_now_ns() return them. */
#ifndef CLMUX_TIMELINE_H
#define CLMUX_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether CLMUX_TRACE is set and its file could be opened (decided once). */
bool timeline_on(void);

uint64_t timeline_now(void);

/* A new track named `name` (e.g. a command queue); 0 when tracing is off. */
uint32_t timeline_track(const char *name);

/* Names the calling thread's track; once per thread is enough. */
void timeline_name_thread(const char *name);

/* A slice from `begin` to `end` on `track` (0: the calling thread's own).
 * `args`, when not NULL, is the inside of a JSON object: `"a":1,"b":"x"`;
 * `name` and `category` are escaped here. */
void timeline_slice(uint32_t track, const char *category, const char *name,
                    uint64_t begin, uint64_t end, const char *args);

/* Appends `text` to `out` (of `size` bytes, always terminated) as the
 * inside of a JSON string; returns the length written. */
size_t timeline_escape(char *out, size_t size, const char *text);

#endif /* CLMUX_TIMELINE_H */

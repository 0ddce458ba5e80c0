/* clmux OpenCL front-end: what the queue area's files share privately
 * (command_queue.c, event.c, enqueue_sync.c). */
#ifndef CLMUX_CL_ENGINE_H
#define CLMUX_CL_ENGINE_H

#include "clx.h"

/* Runs fn(data) later on the front-end's callback thread, where no lock of
 * ours is held and blocking is allowed: user event callbacks and work that
 * must not run on a Mux executor thread (freeing a queue waits for fences
 * that its executor signals only after the dispatch callback returns). */
void clx_defer(void (*fn)(void *data), void *data);

/* Polls done(data) for a few microseconds before the caller sleeps: short
 * work completes that fast when a core is free for the executor. Until
 * started(data) holds (the work has begun somewhere), it yields now and
 * then: the executor that would run it may be waiting for our core. When
 * polling recently failed, skips it for a while. True if done(data) held. */
bool clx_spin_until(bool (*done)(void *data), bool (*started)(void *data),
                    void *data);

#endif /* CLMUX_CL_ENGINE_H */

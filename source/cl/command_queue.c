/* clmux OpenCL front-end: command queues and the batch engine.
 *
 * A batch is one Mux command buffer with consecutive commands of a queue,
 * their events, the objects they hold and their completion hooks. Life of a
 * batch: open (recording, queue->open) -> closed (finalized, on the pending
 * list until its gates open: the events it waits on and the guard held while
 * it records) -> dispatched (muxDispatch, waiting on the semaphore of the
 * queue's previous dispatch) -> done (the dispatch callback completed its
 * events) -> reused once its fence shows that Mux has finished with it (the
 * semaphore is signalled after the callback returns, so not before).
 *
 * Locks: queue->lock (recording) may be taken before engine->lock
 * (pending list, dispatch, reuse), never after. Event statuses are completed
 * without any of our locks held: their hooks start other queues' batches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timeline/timeline.h"
#include "engine.h"

/* Commands per batch: profiling queries use one slot each. */
#define CLX_BATCH_COMMANDS 64u
/* How far back a hold looks for the same object in its batch. */
#define CLX_RECENT_HOLDS 8u
/* Finished batches a queue keeps for reuse. */
#define CLX_BATCH_CACHE 4u

typedef struct clx_batch_event {
  cl_event event;
  uint32_t slot;     /* its profiling query */
  const char *label; /* for the timeline: a kernel's name, or NULL */
} clx_batch_event;

struct clx_batch {
  clx_batch *next;        /* on the pending or the done list */
  cl_command_queue queue; /* held while the batch is in use */
  mux_command_buffer_t command_buffer;
  mux_semaphore_t semaphore;
  mux_fence_t fence;
  mux_query_pool_t query_pool; /* profiling queues */
  bool profiling;
  bool single; /* closes after the current command (it has a wait list) */
  uint32_t commands;
  clx_batch_event *events;
  size_t num_events, cap_events;
  clx_object **holds;
  size_t num_holds, cap_holds;
  clx_hook *hooks;
  size_t num_hooks, cap_hooks;
  /* Events still awaited, plus one while recording. */
  atomic_uint gates;
  /* CL_COMPLETE, or the error that an awaited event failed with. */
  atomic_int gate_status;
  /* Where the current command's hooks start (for abort). */
  size_t mark_hooks;
};

struct clx_queue_engine {
  pthread_mutex_t lock;
  pthread_cond_t progress;
  clx_batch *pending_head, *pending_tail; /* closed, not yet dispatched */
  clx_batch *chain_tail; /* the latest dispatch: the next one waits on it */
  clx_batch *done;       /* finished, possibly still inside Mux */
  uint64_t closed; /* written under both locks: read under either */
  _Atomic uint64_t completed; /* written under the lock, polled without */
};

static mux_queue_t mux_queue_of(cl_command_queue queue) {
  return queue->device->mux_queue;
}

/* ---- Batch storage ------------------------------------------------------- */

/* Only for a batch Mux is done with (fence signalled) or never had. */
static void batch_free(cl_command_queue queue, clx_batch *batch) {
  mux_device_t device = queue->device->mux_device;
  if (batch->fence) muxDestroyFence(device, batch->fence, clx_allocator);
  if (batch->command_buffer) {
    muxDestroyCommandBuffer(device, batch->command_buffer, clx_allocator);
  }
  if (batch->semaphore) {
    muxDestroySemaphore(device, batch->semaphore, clx_allocator);
  }
  if (batch->query_pool) {
    muxDestroyQueryPool(mux_queue_of(queue), batch->query_pool, clx_allocator);
  }
  free(batch->events);
  free(batch->holds);
  free(batch->hooks);
  free(batch);
}

static clx_batch *batch_new(cl_command_queue queue) {
  mux_device_t device = queue->device->mux_device;
  clx_batch *batch = calloc(1, sizeof(*batch));
  if (!batch) return NULL;
  if (muxCreateCommandBuffer(device, NULL, clx_allocator,
                             &batch->command_buffer) != mux_success ||
      muxCreateSemaphore(device, clx_allocator, &batch->semaphore) !=
          mux_success ||
      muxCreateFence(device, clx_allocator, &batch->fence) != mux_success) {
    batch_free(queue, batch);
    return NULL;
  }
  return batch;
}

static bool fence_signalled(cl_command_queue queue, mux_fence_t fence) {
  return !fence ||
         muxTryWait(mux_queue_of(queue), 0, fence) != mux_fence_not_ready;
}

/* A finished batch Mux no longer uses, or a new one; trims the cache. */
static clx_batch *batch_acquire(cl_command_queue queue) {
  struct clx_queue_engine *engine = queue->engine;
  clx_batch *reuse = NULL, *extra = NULL;
  unsigned kept = 0;
  pthread_mutex_lock(&engine->lock);
  clx_batch **link = &engine->done;
  while (*link) {
    clx_batch *batch = *link;
    if (!fence_signalled(queue, batch->fence)) {
      link = &batch->next;
      continue;
    }
    /* Its semaphore is signalled: nothing needs to wait on it any more. */
    if (engine->chain_tail == batch) engine->chain_tail = NULL;
    if (!reuse || kept >= CLX_BATCH_CACHE) {
      *link = batch->next;
      if (!reuse) {
        reuse = batch;
      } else {
        batch->next = extra;
        extra = batch;
      }
      continue;
    }
    kept++;
    link = &batch->next;
  }
  pthread_mutex_unlock(&engine->lock);
  while (extra) {
    clx_batch *next = extra->next;
    batch_free(queue, extra);
    extra = next;
  }
  if (reuse) {
    if (muxResetCommandBuffer(reuse->command_buffer) != mux_success ||
        muxResetSemaphore(reuse->semaphore) != mux_success ||
        muxResetFence(reuse->fence) != mux_success) {
      batch_free(queue, reuse);
      reuse = NULL;
    }
  }
  return reuse ? reuse : batch_new(queue);
}

/* ---- Batch life ---------------------------------------------------------- */

static void engine_pump(cl_command_queue queue);

/* Recorded before each command's own (runs on a Mux executor thread). */
static void command_started(mux_queue_t mux_queue,
                            mux_command_buffer_t command_buffer,
                            void *const event) {
  (void)mux_queue;
  (void)command_buffer;
  clx_event_set_status(event, CL_RUNNING);
}

/* Opens a batch to record into (queue->lock held). */
static cl_int batch_open(cl_command_queue queue) {
  clx_batch *batch = batch_acquire(queue);
  if (!batch) return CL_OUT_OF_RESOURCES;
  /* The timeline needs each command's start and end too. */
  batch->profiling =
      (queue->properties & CL_QUEUE_PROFILING_ENABLE) != 0 || queue->track;
  if (batch->profiling && !batch->query_pool &&
      muxCreateQueryPool(mux_queue_of(queue), mux_query_type_duration,
                         CLX_BATCH_COMMANDS, NULL, clx_allocator,
                         &batch->query_pool) != mux_success) {
    batch_free(queue, batch);
    return CL_OUT_OF_RESOURCES;
  }
  batch->next = NULL;
  batch->single = false;
  batch->commands = 0;
  batch->num_events = batch->num_holds = batch->num_hooks = 0;
  atomic_store(&batch->gates, 1);
  atomic_store(&batch->gate_status, CL_COMPLETE);
  batch->queue = queue;
  clx_hold(CLX_OBJ(queue));
  queue->open = batch;
  return CL_SUCCESS;
}

static void batch_gate_done(clx_batch *batch, cl_int status) {
  if (status < 0) {
    atomic_store(&batch->gate_status,
                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
  /* Once the last gate opens, another thread's pump may dispatch and
   * finish the batch, dropping its hold on the queue: keep our own. */
  cl_command_queue queue = batch->queue;
  clx_hold(CLX_OBJ(queue));
  if (atomic_fetch_sub(&batch->gates, 1) == 1) engine_pump(queue);
  clx_unhold(CLX_OBJ(queue));
}

static void gate_hook(cl_event event, cl_int status, void *data) {
  (void)event;
  batch_gate_done(data, status);
}

/* Closes the open batch (queue->lock held): on to the pending list, and
 * dispatched as soon as its gates allow. */
static void batch_close(cl_command_queue queue) {
  clx_batch *batch = queue->open;
  if (!batch) return;
  queue->open = NULL;
  muxFinalizeCommandBuffer(batch->command_buffer);
  struct clx_queue_engine *engine = queue->engine;
  pthread_mutex_lock(&engine->lock);
  engine->closed++;
  if (engine->pending_tail) {
    engine->pending_tail->next = batch;
  } else {
    engine->pending_head = batch;
  }
  engine->pending_tail = batch;
  pthread_mutex_unlock(&engine->lock);
  batch_gate_done(batch, CL_COMPLETE); /* the recording guard */
}

static const char *command_name(cl_command_type type) {
  switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL:
      return "NDRange";
    case CL_COMMAND_TASK:
      return "task";
    case CL_COMMAND_NATIVE_KERNEL:
      return "native kernel";
    case CL_COMMAND_READ_BUFFER:
      return "read buffer";
    case CL_COMMAND_WRITE_BUFFER:
      return "write buffer";
    case CL_COMMAND_COPY_BUFFER:
      return "copy buffer";
    case CL_COMMAND_READ_BUFFER_RECT:
      return "read buffer rect";
    case CL_COMMAND_WRITE_BUFFER_RECT:
      return "write buffer rect";
    case CL_COMMAND_COPY_BUFFER_RECT:
      return "copy buffer rect";
    case CL_COMMAND_FILL_BUFFER:
      return "fill buffer";
    case CL_COMMAND_READ_IMAGE:
      return "read image";
    case CL_COMMAND_WRITE_IMAGE:
      return "write image";
    case CL_COMMAND_COPY_IMAGE:
      return "copy image";
    case CL_COMMAND_FILL_IMAGE:
      return "fill image";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
      return "copy image to buffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
      return "copy buffer to image";
    case CL_COMMAND_MAP_BUFFER:
      return "map buffer";
    case CL_COMMAND_MAP_IMAGE:
      return "map image";
    case CL_COMMAND_UNMAP_MEM_OBJECT:
      return "unmap";
    case CL_COMMAND_MARKER:
      return "marker";
    case CL_COMMAND_BARRIER:
      return "barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
      return "migrate";
    case CL_COMMAND_COMMAND_BUFFER_KHR:
      return "command buffer";
    default:
      return "command";
  }
}

/* CLMUX_TRACE: each command of a finished batch as a slice on its queue's
 * track, from start to end, with its earlier stages in the arguments. */
static void batch_trace(clx_batch *batch, cl_int status) {
  uint32_t track = batch->queue->track;
  for (size_t i = 0; i < batch->num_events; i++) {
    cl_event event = batch->events[i].event;
    const char *kind = command_name(event->command_type);
    const char *label = batch->events[i].label;
    pthread_mutex_lock(&event->lock);
    cl_ulong queued = event->profiling[0], submitted = event->profiling[1];
    cl_ulong start = event->profiling[2], end = event->profiling[3];
    pthread_mutex_unlock(&event->lock);
    if (status != CL_COMPLETE || !end) start = end = timeline_now();
    if (!submitted) submitted = start;
    char args[160];
    snprintf(args, sizeof args,
             "\"kind\":\"%s\",\"queued\":%.3f,\"submitted\":%.3f,"
             "\"status\":%d",
             kind, (double)queued / 1e3, (double)submitted / 1e3, status);
    timeline_slice(track, kind, label ? label : kind, start, end, args);
  }
}

/* Completes a finished batch: hooks, profiling, events, holds. Runs on a
 * Mux executor thread (the dispatch callback) without locks. */
static void batch_finished(mux_command_buffer_t command_buffer,
                           mux_result_t error, void *const data) {
  (void)command_buffer;
  clx_batch *batch = data;
  cl_command_queue queue = batch->queue;
  cl_int status = atomic_load(&batch->gate_status);
  if (status == CL_COMPLETE && error != mux_success) {
    status = CL_OUT_OF_RESOURCES;
  }
  if (status == CL_COMPLETE && batch->profiling && batch->commands) {
    struct mux_query_duration_result_s times[CLX_BATCH_COMMANDS];
    if (muxGetQueryPoolResults(mux_queue_of(queue), batch->query_pool, 0,
                               batch->commands, sizeof(times), times,
                               sizeof(times[0])) == mux_success) {
      for (size_t i = 0; i < batch->num_events; i++) {
        cl_event event = batch->events[i].event;
        const struct mux_query_duration_result_s *time =
            &times[batch->events[i].slot];
        pthread_mutex_lock(&event->lock);
        cl_ulong submit = event->profiling[1];
        cl_ulong start = time->start > submit ? time->start : submit;
        cl_ulong end = time->end > start ? time->end : start;
        event->profiling[2] = start;
        event->profiling[3] = end;
        pthread_mutex_unlock(&event->lock);
      }
    }
  }
  if (queue->track) batch_trace(batch, status);
  for (size_t i = 0; i < batch->num_hooks; i++) {
    batch->hooks[i].fn(batch->hooks[i].data, status);
  }
  for (size_t i = 0; i < batch->num_events; i++) {
    clx_event_set_status(batch->events[i].event, status);
  }
  for (size_t i = 0; i < batch->num_events; i++) {
    clx_unhold(CLX_OBJ(batch->events[i].event));
  }
  for (size_t i = 0; i < batch->num_holds; i++) clx_unhold(batch->holds[i]);
  batch->num_events = batch->num_holds = batch->num_hooks = 0;

  struct clx_queue_engine *engine = queue->engine;
  pthread_mutex_lock(&engine->lock);
  batch->next = engine->done;
  engine->done = batch;
  atomic_fetch_add(&engine->completed, 1);
  pthread_cond_broadcast(&engine->progress);
  pthread_mutex_unlock(&engine->lock);
  clx_unhold(CLX_OBJ(queue)); /* may free the queue (on the callback thread) */
}

static void batch_dispatch_failed(void *data) {
  batch_finished(NULL, mux_error_failure, data);
}

/* Dispatches the pending batches whose gates are open, in order. */
static void engine_pump(cl_command_queue queue) {
  struct clx_queue_engine *engine = queue->engine;
  pthread_mutex_lock(&engine->lock);
  while (engine->pending_head &&
         atomic_load(&engine->pending_head->gates) == 0) {
    clx_batch *batch = engine->pending_head;
    engine->pending_head = batch->next;
    if (!engine->pending_head) engine->pending_tail = NULL;
    batch->next = NULL;
    if (atomic_load(&batch->gate_status) < 0) {
      /* Its commands must not run, but the chain must go on. */
      muxResetCommandBuffer(batch->command_buffer);
      muxFinalizeCommandBuffer(batch->command_buffer);
    } else {
      for (size_t i = 0; i < batch->num_events; i++) {
        clx_event_set_status(batch->events[i].event, CL_SUBMITTED);
      }
    }
    clx_batch *previous = engine->chain_tail;
    mux_result_t result =
        muxDispatch(mux_queue_of(queue), batch->command_buffer, batch->fence,
                    previous ? &previous->semaphore : NULL, previous ? 1 : 0,
                    &batch->semaphore, 1, batch_finished, batch);
    if (result == mux_success) {
      engine->chain_tail = batch;
    } else {
      /* Never dispatched: its fence must still read as signalled for
       * reuse, so this batch is freed rather than cached. */
      muxDestroyFence(queue->device->mux_device, batch->fence, clx_allocator);
      batch->fence = NULL;
      clx_defer(batch_dispatch_failed, batch);
    }
  }
  pthread_mutex_unlock(&engine->lock);
}

/* ---- The interface of clx.h ---------------------------------------------- */

/* Whether the command must wait for `event` on the host: same-queue events
 * are ordered by the queue itself, unless they already failed. */
static bool needs_gate(cl_command_queue queue, cl_event event) {
  cl_int status = atomic_load(&event->status);
  if (status == CL_COMPLETE) return false;
  return event->queue != queue || status < 0;
}

cl_int clx_enqueue_begin(cl_command_queue queue, cl_command_type type,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, clx_enqueue *out) {
  if (!clx_valid(queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if ((num_events_in_wait_list == 0) != (event_wait_list == NULL)) {
    return CL_INVALID_EVENT_WAIT_LIST;
  }
  for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
    if (!clx_valid(event_wait_list[i], clx_kind_event)) {
      return CL_INVALID_EVENT_WAIT_LIST;
    }
  }
  for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
    if (event_wait_list[i]->context != queue->context) {
      return CL_INVALID_CONTEXT;
    }
  }
  bool gated = false;
  for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
    cl_event event = event_wait_list[i];
    if (needs_gate(queue, event)) {
      gated = true;
      /* Another queue's command must be on its way, or we wait forever;
       * flushed before taking our lock (queue locks never nest). */
      if (event->queue && event->queue != queue) {
        clx_queue_flush(event->queue);
      }
    }
  }
  cl_event event = clx_event_create(queue->context, queue, type);
  if (!event) return CL_OUT_OF_HOST_MEMORY;

  pthread_mutex_lock(&queue->lock);
  cl_int error = CL_SUCCESS;
  /* A command with a wait list gets a batch of its own, so that only it
   * fails if an awaited event fails. */
  if (queue->open && (gated || queue->open->commands >= CLX_BATCH_COMMANDS)) {
    batch_close(queue);
  }
  if (!queue->open) error = batch_open(queue);
  clx_batch *batch = queue->open;
  if (error == CL_SUCCESS &&
      !clx_grow((void **)&batch->events, &batch->cap_events, batch->num_events,
                sizeof(*batch->events))) {
    error = CL_OUT_OF_HOST_MEMORY;
  }
  if (error == CL_SUCCESS && batch->profiling &&
      muxCommandBeginQuery(batch->command_buffer, batch->query_pool,
                           batch->commands, 1, 0, NULL, NULL) != mux_success) {
    error = CL_OUT_OF_RESOURCES;
  }
  if (error == CL_SUCCESS &&
      muxCommandUserCallback(batch->command_buffer, command_started, event, 0,
                             NULL, NULL) != mux_success) {
    error = CL_OUT_OF_RESOURCES;
  }
  if (error != CL_SUCCESS) {
    pthread_mutex_unlock(&queue->lock);
    clx_release(CLX_OBJ(event));
    return error;
  }
  if (gated) {
    batch->single = true;
    for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
      if (needs_gate(queue, event_wait_list[i])) {
        atomic_fetch_add(&batch->gates, 1);
        clx_event_on_complete(event_wait_list[i], gate_hook, batch);
      }
    }
  }
  clx_hold(CLX_OBJ(event)); /* the batch's */
  batch->events[batch->num_events].event = event;
  batch->events[batch->num_events].slot = batch->commands;
  batch->events[batch->num_events].label = NULL;
  batch->num_events++;
  batch->commands++;
  batch->mark_hooks = batch->num_hooks;

  out->queue = queue;
  out->command_buffer = batch->command_buffer;
  out->event = event;
  out->batch = batch;
  out->recording = NULL;
  return CL_SUCCESS;
}

void clx_enqueue_label(clx_enqueue *enqueue, const char *label) {
  /* A recorded command is part of its command buffer's slice. */
  if (enqueue->recording) return;
  clx_batch *batch = enqueue->batch;
  batch->events[batch->num_events - 1].label = label;
}

void clx_enqueue_hold(clx_enqueue *enqueue, clx_object *object) {
  if (enqueue->recording) {
    clx_recording_hold(enqueue, object);
    return;
  }
  clx_batch *batch = enqueue->batch;
  /* One hold per batch is enough: a launch repeated holds its kernel and
   * buffers once, not once per command (each hold is a cache line the
   * executor's release takes back). */
  size_t recent = batch->num_holds < CLX_RECENT_HOLDS ? batch->num_holds
                                                      : CLX_RECENT_HOLDS;
  for (size_t i = batch->num_holds - recent; i < batch->num_holds; i++) {
    if (batch->holds[i] == object) return;
  }
  /* Out of memory here would be fatal anyway: holding nothing then. */
  if (!clx_grow((void **)&batch->holds, &batch->cap_holds, batch->num_holds,
                sizeof(*batch->holds))) {
    return;
  }
  clx_hold(object);
  batch->holds[batch->num_holds++] = object;
}

cl_int clx_enqueue_after_run(clx_enqueue *enqueue,
                             void (*fn)(void *data, cl_int status),
                             void *data) {
  if (enqueue->recording) return clx_recording_hook(enqueue, true, fn, data);
  return clx_enqueue_on_complete(enqueue, fn, data);
}

cl_int clx_enqueue_on_complete(clx_enqueue *enqueue,
                               void (*fn)(void *data, cl_int status),
                               void *data) {
  if (enqueue->recording) return clx_recording_hook(enqueue, false, fn, data);
  clx_batch *batch = enqueue->batch;
  if (!clx_grow((void **)&batch->hooks, &batch->cap_hooks, batch->num_hooks,
                sizeof(*batch->hooks))) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  batch->hooks[batch->num_hooks].fn = fn;
  batch->hooks[batch->num_hooks].data = data;
  batch->num_hooks++;
  return CL_SUCCESS;
}

cl_int clx_enqueue_end(clx_enqueue *enqueue, cl_event *event, bool blocking) {
  cl_command_queue queue = enqueue->queue;
  clx_batch *batch = enqueue->batch;
  cl_event command = enqueue->event;
  if (batch->profiling) {
    muxCommandEndQuery(batch->command_buffer, batch->query_pool,
                       batch->events[batch->num_events - 1].slot, 1, 0, NULL,
                       NULL);
  }
  clx_hold(CLX_OBJ(command));
  cl_event previous = queue->last_event;
  queue->last_event = command;
  if (batch->single || batch->commands >= CLX_BATCH_COMMANDS) {
    batch_close(queue);
  }
  if (event) {
    *event = command; /* the user's reference */
  } else {
    clx_release(CLX_OBJ(command));
  }
  if (!blocking) {
    pthread_mutex_unlock(&queue->lock);
    if (previous) clx_unhold(CLX_OBJ(previous));
    return CL_SUCCESS;
  }
  clx_hold(CLX_OBJ(command));
  batch_close(queue);
  pthread_mutex_unlock(&queue->lock);
  if (previous) clx_unhold(CLX_OBJ(previous));
  cl_int status = clx_event_wait(command);
  clx_unhold(CLX_OBJ(command));
  return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int clx_enqueue_abort(clx_enqueue *enqueue, cl_int error) {
  if (enqueue->recording) return clx_recording_abort(enqueue, error);
  cl_command_queue queue = enqueue->queue;
  clx_batch *batch = enqueue->batch;
  /* Mux commands cannot be taken out of a command buffer: whatever the
   * command recorded before failing (and our RUNNING callback on its event)
   * still runs with the batch, so its holds and its event stay with the
   * batch until then. Its hooks go: the caller cleans up itself. */
  batch->num_hooks = batch->mark_hooks;
  if (batch->single) batch_close(queue);
  pthread_mutex_unlock(&queue->lock);
  clx_release(CLX_OBJ(enqueue->event)); /* nobody will see it */
  return error;
}

cl_int clx_queue_flush(cl_command_queue queue) {
  pthread_mutex_lock(&queue->lock);
  batch_close(queue);
  pthread_mutex_unlock(&queue->lock);
  return CL_SUCCESS;
}

struct finish_wait {
  struct clx_queue_engine *engine;
  uint64_t target;
  cl_event last; /* the queue's last command, held; or NULL */
};

static bool finished(void *data) {
  struct finish_wait *wait = data;
  return atomic_load(&wait->engine->completed) >= wait->target;
}

static bool last_started(void *data) {
  struct finish_wait *wait = data;
  return !wait->last || atomic_load(&wait->last->status) <= CL_RUNNING;
}

cl_int clx_queue_finish(cl_command_queue queue) {
  struct clx_queue_engine *engine = queue->engine;
  pthread_mutex_lock(&queue->lock);
  batch_close(queue);
  /* Only batch_close changes it, with queue->lock held: no engine lock,
   * whose cache line the executor completing our work wants too. */
  uint64_t target = engine->closed;
  cl_event last = queue->last_event;
  if (last) clx_hold(CLX_OBJ(last));
  pthread_mutex_unlock(&queue->lock);
  struct finish_wait wait = {engine, target, last};
  bool done = clx_spin_until(finished, last_started, &wait);
  if (last) clx_unhold(CLX_OBJ(last));
  if (done) return CL_SUCCESS;
  pthread_mutex_lock(&engine->lock);
  while (atomic_load(&engine->completed) < target) {
    pthread_cond_wait(&engine->progress, &engine->lock);
  }
  pthread_mutex_unlock(&engine->lock);
  return CL_SUCCESS;
}

/* ---- Queue objects ------------------------------------------------------- */

/* On the callback thread: waits for Mux to let go of the batches. */
static void queue_free(void *data) {
  cl_command_queue queue = data;
  struct clx_queue_engine *engine = queue->engine;
  while (engine->done) {
    clx_batch *next = engine->done->next;
    if (engine->done->fence) muxWait(mux_queue_of(queue), engine->done->fence);
    batch_free(queue, engine->done);
    engine->done = next;
  }
  pthread_cond_destroy(&engine->progress);
  pthread_mutex_destroy(&engine->lock);
  free(engine);
  pthread_mutex_destroy(&queue->lock);
  clx_unhold(CLX_OBJ(queue->device));
  clx_unhold(CLX_OBJ(queue->context));
  free(queue);
}

/* The last hold may go inside a dispatch callback of this very queue. */
static void queue_destroy(clx_object *object) { clx_defer(queue_free, object); }

static const cl_command_queue_properties clx_queue_properties_known =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

static cl_int check_properties(cl_device_id device,
                               cl_command_queue_properties properties) {
  if (properties & ~clx_queue_properties_known) return CL_INVALID_VALUE;
  cl_command_queue_properties supported = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES, sizeof(supported),
                      &supported, NULL) != CL_SUCCESS) {
    supported = clx_queue_properties_known;
  }
  return (properties & ~supported) ? CL_INVALID_QUEUE_PROPERTIES : CL_SUCCESS;
}

cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret) {
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = NULL;
  struct clx_queue_engine *engine = NULL;
  if (!clx_valid(context, clx_kind_context)) {
    error = CL_INVALID_CONTEXT;
  } else if (!clx_valid(device, clx_kind_device) ||
             !clx_context_has_device(context, device)) {
    error = CL_INVALID_DEVICE;
  } else if ((error = check_properties(device, properties)) != CL_SUCCESS) {
  } else if (!(queue = calloc(1, sizeof(*queue))) ||
             !(engine = calloc(1, sizeof(*engine)))) {
    error = CL_OUT_OF_HOST_MEMORY;
  } else if (pthread_mutex_init(&queue->lock, NULL) != 0 ||
             pthread_mutex_init(&engine->lock, NULL) != 0 ||
             pthread_cond_init(&engine->progress, NULL) != 0) {
    /* (never fails with default attributes on Linux) */
    error = CL_OUT_OF_HOST_MEMORY;
  }
  if (error != CL_SUCCESS) {
    free(engine);
    free(queue);
    if (errcode_ret) *errcode_ret = error;
    return NULL;
  }
  clx_object_init(CLX_OBJ(queue), clx_kind_command_queue, queue_destroy);
  queue->context = context;
  clx_hold(CLX_OBJ(context));
  queue->device = device;
  clx_hold(CLX_OBJ(device));
  queue->properties = properties;
  queue->engine = engine;
  if (timeline_on()) {
    static atomic_uint queues;
    char name[64];
    snprintf(name, sizeof name, "command queue %u%s",
             atomic_fetch_add(&queues, 1) + 1,
             properties & CL_QUEUE_PROFILING_ENABLE ? " (profiling)" : "");
    queue->track = timeline_track(name);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return queue;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  clx_retain(CLX_OBJ(command_queue));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  /* Queued commands still run after the last release: flush them; the
   * queue lives on (their events hold it) until they have finished. */
  clx_hold(CLX_OBJ(command_queue));
  clx_queue_flush(command_queue);
  bool released = clx_release(CLX_OBJ(command_queue));
  cl_event last = NULL;
  if (released && clx_user_references(CLX_OBJ(command_queue)) == 0) {
    /* last_event holds the queue through its event: break the cycle. */
    pthread_mutex_lock(&command_queue->lock);
    last = command_queue->last_event;
    command_queue->last_event = NULL;
    pthread_mutex_unlock(&command_queue->lock);
  }
  clx_unhold(CLX_OBJ(command_queue));
  if (last) clx_unhold(CLX_OBJ(last));
  return released ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name,
                                         size_t param_value_size,
                                         void *param_value,
                                         size_t *param_value_size_ret) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  switch (param_name) {
    case CL_QUEUE_CONTEXT:
      return clx_info(&command_queue->context, sizeof(cl_context),
                      param_value_size, param_value, param_value_size_ret);
    case CL_QUEUE_DEVICE:
      return clx_info(&command_queue->device, sizeof(cl_device_id),
                      param_value_size, param_value, param_value_size_ret);
    case CL_QUEUE_REFERENCE_COUNT: {
      cl_uint count = clx_user_references(CLX_OBJ(command_queue));
      return clx_info(&count, sizeof(count), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_QUEUE_PROPERTIES:
      return clx_info(&command_queue->properties,
                      sizeof(cl_command_queue_properties), param_value_size,
                      param_value, param_value_size_ret);
    case CL_QUEUE_PROPERTIES_ARRAY:
      return clx_properties_info(CLX_OBJ(command_queue), param_value_size,
                                 param_value, param_value_size_ret);
    case CL_QUEUE_DEVICE_DEFAULT: { /* no device-side queues */
      cl_command_queue none = NULL;
      return clx_info(&none, sizeof none, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_QUEUE_SIZE: /* of device-side queues only */
      return CL_INVALID_COMMAND_QUEUE;
    default:
      return CL_INVALID_VALUE;
  }
}

/* OpenCL 1.0's way to change properties, deprecated since 1.1 but still in
 * the 1.2 dispatch table: it changes them, after finishing the commands
 * already queued (which were queued under the old ones). */
cl_int CL_API_CALL clSetCommandQueueProperty(
    cl_command_queue command_queue, cl_command_queue_properties properties,
    cl_bool enable, cl_command_queue_properties *old_properties) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  cl_int error = check_properties(command_queue->device, properties);
  if (error != CL_SUCCESS) return error;
  clx_queue_finish(command_queue);
  pthread_mutex_lock(&command_queue->lock);
  if (old_properties) *old_properties = command_queue->properties;
  /* A batch recorded under the old properties must not take new commands. */
  batch_close(command_queue);
  if (enable) {
    command_queue->properties |= properties;
  } else {
    command_queue->properties &= ~properties;
  }
  pthread_mutex_unlock(&command_queue->lock);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return clx_queue_flush(command_queue);
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  return clx_queue_finish(command_queue);
}

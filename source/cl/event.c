/* clmux OpenCL front-end: events, user events, callbacks, waits, profiling.
 *
 * An event's status only moves forward (CL_QUEUED > CL_SUBMITTED >
 * CL_RUNNING > CL_COMPLETE, or to a negative error). Callbacks are kept on
 * the event until the status reaches their trigger. Internal hooks (the
 * engine's dependencies) run at once on the thread that moved the status;
 * the user's callbacks run on the callback thread, where they may call any
 * OpenCL API, blocking ones included. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"

struct clx_event_callback {
  clx_event_callback *next;
  cl_int trigger; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  cl_int status;  /* what the callback is given once fired */
  cl_event event;
  void(CL_CALLBACK *user)(cl_event event, cl_int status, void *data);
  void (*internal)(cl_event event, cl_int status, void *data);
  void *data;
};

cl_ulong clx_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (cl_ulong)now.tv_sec * 1000000000u + (cl_ulong)now.tv_nsec;
}

/* ---- Waiting ------------------------------------------------------------- */

/* Long enough to cover an executor's wake-up from sleep, which takes tens
 * of microseconds on a virtual machine. */
#define SPIN_NS 50000u
/* Polling that fails this many times in a row means that the executor
 * waits for our core: then the next SPIN_SKIPS waits sleep at once. One
 * failure alone (a preemption) must not send 64 launches to sleep. */
#define SPIN_FAILURES_BEFORE_SKIPPING 4
#define SPIN_SKIPS 64

static atomic_int spin_failures, spin_skips;

static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

bool clx_spin_until(bool (*done)(void *data), bool (*started)(void *data),
                    void *data) {
  if (atomic_load_explicit(&spin_skips, memory_order_relaxed) > 0) {
    atomic_fetch_sub_explicit(&spin_skips, 1, memory_order_relaxed);
    return done(data);
  }
  cl_ulong end = clx_now_ns() + SPIN_NS;
  for (unsigned round = 1;; round++) {
    for (int i = 0; i < 16; i++) {
      if (done(data)) {
        atomic_store_explicit(&spin_failures, 0, memory_order_relaxed);
        return true;
      }
      spin_pause();
    }
    if (clx_now_ns() >= end) break;
    /* The scheduler often puts a woken executor beside its waker. Once the
     * work runs, yielding would only hand our core to a worker mid-loop. */
    if (round % 4 == 0 && !started(data)) sched_yield();
  }
  if (atomic_fetch_add_explicit(&spin_failures, 1, memory_order_relaxed) + 1 >=
      SPIN_FAILURES_BEFORE_SKIPPING) {
    atomic_store_explicit(&spin_failures, 0, memory_order_relaxed);
    atomic_store_explicit(&spin_skips, SPIN_SKIPS, memory_order_relaxed);
  }
  return done(data);
}

/* ---- The callback thread ------------------------------------------------- */

typedef struct clx_job {
  struct clx_job *next;
  void (*fn)(void *data);
  void *data;
} clx_job;

static struct {
  pthread_once_t once;
  pthread_mutex_t lock;
  pthread_cond_t work;
  clx_job *head, *tail;
  bool running;
} service = {.once = PTHREAD_ONCE_INIT,
             .lock = PTHREAD_MUTEX_INITIALIZER,
             .work = PTHREAD_COND_INITIALIZER};

static void *service_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&service.lock);
  for (;;) {
    clx_job *job = service.head;
    if (!job) {
      pthread_cond_wait(&service.work, &service.lock);
      continue;
    }
    service.head = job->next;
    if (!service.head) service.tail = NULL;
    pthread_mutex_unlock(&service.lock);
    job->fn(job->data);
    free(job);
    pthread_mutex_lock(&service.lock);
  }
  return NULL;
}

static void service_start(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, service_main, NULL) == 0) {
    pthread_setname_np(thread, "clmux-callback");
    pthread_detach(thread);
    service.running = true;
  }
}

void clx_defer(void (*fn)(void *data), void *data) {
  pthread_once(&service.once, service_start);
  clx_job *job = malloc(sizeof(*job));
  if (!job || !service.running) {
    /* No thread to hand it to: run it here rather than lose it. */
    free(job);
    fn(data);
    return;
  }
  job->next = NULL;
  job->fn = fn;
  job->data = data;
  pthread_mutex_lock(&service.lock);
  if (service.tail) {
    service.tail->next = job;
  } else {
    service.head = job;
  }
  service.tail = job;
  pthread_cond_signal(&service.work);
  pthread_mutex_unlock(&service.lock);
}

/* ---- Spare events ---------------------------------------------------------
 * A launch makes an event on the host thread, and the Mux executor that
 * completes the command usually drops its last hold: with malloc, the two
 * threads would pass the arena's lock back and forth at every launch. Dead
 * events go instead onto a lock-free stack any thread pushes to; a creator
 * takes the whole stack at once (no pop can race a push: no ABA) into the
 * list it takes from under `lock`. Their mutex and condition variable stay
 * initialized. There are never more spares than events were once alive
 * together (memory the application has used already), and no count of them
 * that both threads would write. AddressSanitizer builds free them, so that
 * a use after the last release stays visible. */

#if defined(__SANITIZE_ADDRESS__)
#define CLX_KEEP_SPARE_EVENTS false
#else
#define CLX_KEEP_SPARE_EVENTS true
#endif

static struct {
  _Atomic(cl_event) pushed;
  pthread_mutex_t lock;
  cl_event taken;
} spare_events = {.lock = PTHREAD_MUTEX_INITIALIZER};

static cl_event spare_event_take(void) {
  if (!CLX_KEEP_SPARE_EVENTS) return NULL;
  pthread_mutex_lock(&spare_events.lock);
  if (!spare_events.taken) {
    spare_events.taken = atomic_exchange(&spare_events.pushed, NULL);
  }
  cl_event event = spare_events.taken;
  if (event) {
    spare_events.taken = event->next_spare;
  }
  pthread_mutex_unlock(&spare_events.lock);
  return event;
}

/* False if events are not kept: the caller frees it. */
static bool spare_event_keep(cl_event event) {
  if (!CLX_KEEP_SPARE_EVENTS) return false;
  cl_event head = atomic_load(&spare_events.pushed);
  do {
    event->next_spare = head;
  } while (!atomic_compare_exchange_weak(&spare_events.pushed, &head, event));
  return true;
}

/* ---- Events -------------------------------------------------------------- */

static void event_destroy(clx_object *object) {
  cl_event event = (cl_event)object;
  clx_event_callback *callback = event->callbacks;
  while (callback) { /* registered for a status never reached */
    clx_event_callback *next = callback->next;
    free(callback);
    callback = next;
  }
  /* A command's event holds its queue, which holds the context. */
  clx_unhold(event->queue ? CLX_OBJ(event->queue) : CLX_OBJ(event->context));
  event->object.magic = 0; /* a released handle stays invalid until reused */
  if (spare_event_keep(event)) return;
  pthread_cond_destroy(&event->changed);
  pthread_mutex_destroy(&event->lock);
  free(event);
}

/* A zeroed event with its mutex and condition variable initialized. */
static cl_event event_new(void) {
  cl_event event = spare_event_take();
  if (event) {
    pthread_mutex_t lock = event->lock;
    pthread_cond_t changed = event->changed;
    memset(event, 0, sizeof(*event));
    event->lock = lock;
    event->changed = changed;
    return event;
  }
  event = calloc(1, sizeof(*event));
  if (!event) return NULL;
  if (pthread_mutex_init(&event->lock, NULL) != 0) {
    free(event);
    return NULL;
  }
  if (pthread_cond_init(&event->changed, NULL) != 0) {
    pthread_mutex_destroy(&event->lock);
    free(event);
    return NULL;
  }
  return event;
}

cl_event clx_event_create(cl_context context, cl_command_queue queue,
                          cl_command_type command_type) {
  cl_event event = event_new();
  if (!event) return NULL;
  clx_object_init(CLX_OBJ(event), clx_kind_event, event_destroy);
  event->context = context;
  /* The event answers CL_EVENT_COMMAND_QUEUE for as long as it lives; the
   * queue keeps the context (one hold: the host takes it, and the executor
   * that completes the command usually drops it). */
  event->queue = queue;
  clx_hold(queue ? CLX_OBJ(queue) : CLX_OBJ(context));
  event->command_type = command_type;
  atomic_init(&event->status, CL_QUEUED);
  event->timed = queue && ((queue->properties & CL_QUEUE_PROFILING_ENABLE) ||
                           queue->track);
  if (event->timed) event->profiling[0] = clx_now_ns();
  return event;
}

static void run_user_callback(void *data) {
  clx_event_callback *callback = data;
  callback->user(callback->event, callback->status, callback->data);
  clx_unhold(CLX_OBJ(callback->event));
  free(callback);
}

/* Fires a callback taken off its event (no lock held). */
static void fire(clx_event_callback *callback, cl_int status) {
  callback->status = status < 0 ? status : callback->trigger;
  if (callback->internal) {
    callback->internal(callback->event, status, callback->data);
    free(callback);
  } else {
    clx_hold(CLX_OBJ(callback->event));
    clx_defer(run_user_callback, callback);
  }
}

static bool reached(cl_int status, cl_int trigger) {
  return status < 0 || status <= trigger;
}

/* Moves the event on to `status` if that is later than its current one
 * (and, for a user event's one change, if it is still CL_SUBMITTED). */
static bool transition(cl_event event, cl_int status,
                       bool only_from_submitted) {
  cl_ulong now = event->timed ? clx_now_ns() : 0;
  pthread_mutex_lock(&event->lock);
  cl_int current = atomic_load(&event->status);
  if (current <= CL_COMPLETE || (status >= 0 && status >= current) ||
      (only_from_submitted && current != CL_SUBMITTED)) {
    pthread_mutex_unlock(&event->lock);
    return false;
  }
  /* Missing stages take this moment; the engine fills START/END from its
   * queries before completing. */
  for (int stage = 1; stage <= 3 && event->timed; stage++) {
    if (status <= CL_QUEUED - stage && event->profiling[stage] == 0) {
      event->profiling[stage] = now;
    }
  }
  /* A hook may release the last hold on the event, and a waiter that sees
   * the new status may release the user's: stay alive until done. */
  clx_hold(CLX_OBJ(event));
  atomic_store(&event->status, status);
  /* Detach the callbacks due, keeping their registration order. */
  clx_event_callback *due = NULL, **due_tail = &due;
  clx_event_callback **link = &event->callbacks;
  while (*link) {
    clx_event_callback *callback = *link;
    if (reached(status, callback->trigger)) {
      *link = callback->next;
      callback->next = NULL;
      *due_tail = callback;
      due_tail = &callback->next;
    } else {
      link = &callback->next;
    }
  }
  pthread_cond_broadcast(&event->changed);
  pthread_mutex_unlock(&event->lock);
  /* The user's callbacks are queued first: hooks may complete dependent
   * commands, whose callbacks must come after these. */
  for (int internal = 0; internal < 2; internal++) {
    clx_event_callback **next_link = &due;
    while (*next_link) {
      clx_event_callback *callback = *next_link;
      if ((callback->internal != NULL) == internal) {
        *next_link = callback->next;
        fire(callback, status);
      } else {
        next_link = &callback->next;
      }
    }
  }
  clx_unhold(CLX_OBJ(event));
  return true;
}

void clx_event_set_status(cl_event event, cl_int status) {
  transition(event, status, false);
}

static bool event_done(void *event) {
  return atomic_load(&((cl_event)event)->status) <= CL_COMPLETE;
}

static bool event_started(void *event) {
  return atomic_load(&((cl_event)event)->status) <= CL_RUNNING;
}

cl_int clx_event_wait(cl_event event) {
  /* A completed or failed status is final: no lock needed to read it. */
  if (clx_spin_until(event_done, event_started, event)) {
    return atomic_load(&event->status);
  }
  pthread_mutex_lock(&event->lock);
  while (atomic_load(&event->status) > CL_COMPLETE) {
    pthread_cond_wait(&event->changed, &event->lock);
  }
  cl_int status = atomic_load(&event->status);
  pthread_mutex_unlock(&event->lock);
  return status;
}

/* Registers `callback` or, if its trigger has passed, fires it now. */
static void add_callback(cl_event event, clx_event_callback *callback) {
  callback->event = event;
  callback->next = NULL;
  pthread_mutex_lock(&event->lock);
  cl_int status = atomic_load(&event->status);
  if (!reached(status, callback->trigger)) {
    clx_event_callback **link = &event->callbacks;
    while (*link) link = &(*link)->next;
    *link = callback;
    pthread_mutex_unlock(&event->lock);
    return;
  }
  pthread_mutex_unlock(&event->lock);
  fire(callback, status);
}

void clx_event_on_complete(cl_event event,
                           void (*fn)(cl_event event, cl_int status,
                                      void *data),
                           void *data) {
  clx_event_callback *callback = calloc(1, sizeof(*callback));
  if (!callback) {
    /* Out of memory: keep the promise the slow way. */
    fn(event, clx_event_wait(event), data);
    return;
  }
  callback->trigger = CL_COMPLETE;
  callback->internal = fn;
  callback->data = data;
  add_callback(event, callback);
}

/* ---- Entry points -------------------------------------------------------- */

/* A command still recording in its queue's open batch would never finish
 * for a host that polls or waits without flushing. */
static void flush_if_queued(cl_event event) {
  if (event->queue && atomic_load(&event->status) == CL_QUEUED) {
    clx_queue_flush(event->queue);
  }
}

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
                                   const cl_event *event_list) {
  if (num_events == 0 || event_list == NULL) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++) {
    if (!clx_valid(event_list[i], clx_kind_event)) return CL_INVALID_EVENT;
  }
  for (cl_uint i = 1; i < num_events; i++) {
    if (event_list[i]->context != event_list[0]->context) {
      return CL_INVALID_CONTEXT;
    }
  }
  for (cl_uint i = 0; i < num_events; i++) flush_if_queued(event_list[i]);
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_events; i++) {
    if (clx_event_wait(event_list[i]) < 0) {
      result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
  }
  return result;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  if (!clx_valid(event, clx_kind_event)) return CL_INVALID_EVENT;
  switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
      return clx_info(&event->queue, sizeof(event->queue), param_value_size,
                      param_value, param_value_size_ret);
    case CL_EVENT_CONTEXT:
      return clx_info(&event->context, sizeof(event->context), param_value_size,
                      param_value, param_value_size_ret);
    case CL_EVENT_COMMAND_TYPE:
      return clx_info(&event->command_type, sizeof(event->command_type),
                      param_value_size, param_value, param_value_size_ret);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
      flush_if_queued(event);
      cl_int status = atomic_load(&event->status);
      return clx_info(&status, sizeof(status), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_EVENT_REFERENCE_COUNT: {
      cl_uint count = clx_user_references(CLX_OBJ(event));
      return clx_info(&count, sizeof(count), param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context,
                                       cl_int *errcode_ret) {
  cl_int error = CL_SUCCESS;
  cl_event event = NULL;
  if (!clx_valid(context, clx_kind_context)) {
    error = CL_INVALID_CONTEXT;
  } else if (!(event = clx_event_create(context, NULL, CL_COMMAND_USER))) {
    error = CL_OUT_OF_HOST_MEMORY;
  } else {
    atomic_store(&event->status, CL_SUBMITTED);
  }
  if (errcode_ret) *errcode_ret = error;
  return event;
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  if (!clx_valid(event, clx_kind_event)) return CL_INVALID_EVENT;
  clx_retain(CLX_OBJ(event));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  if (!clx_valid(event, clx_kind_event)) return CL_INVALID_EVENT;
  return clx_release(CLX_OBJ(event)) ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event,
                                        cl_int execution_status) {
  if (!clx_valid(event, clx_kind_event) || event->queue != NULL ||
      event->command_type != CL_COMMAND_USER) {
    return CL_INVALID_EVENT;
  }
  if (execution_status > CL_COMPLETE) return CL_INVALID_VALUE;
  /* Only the first call moves it on from CL_SUBMITTED. */
  return transition(event, execution_status, true) ? CL_SUCCESS
                                                   : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event event, cl_int event_command_status,
                                  void *user_data),
    void *user_data) {
  if (!clx_valid(event, clx_kind_event)) return CL_INVALID_EVENT;
  if (pfn_notify == NULL || (command_exec_callback_type != CL_SUBMITTED &&
                             command_exec_callback_type != CL_RUNNING &&
                             command_exec_callback_type != CL_COMPLETE)) {
    return CL_INVALID_VALUE;
  }
  clx_event_callback *callback = calloc(1, sizeof(*callback));
  if (!callback) return CL_OUT_OF_HOST_MEMORY;
  callback->trigger = command_exec_callback_type;
  callback->user = pfn_notify;
  callback->data = user_data;
  add_callback(event, callback);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event,
                                           cl_profiling_info param_name,
                                           size_t param_value_size,
                                           void *param_value,
                                           size_t *param_value_size_ret) {
  if (!clx_valid(event, clx_kind_event)) return CL_INVALID_EVENT;
  if (param_name < CL_PROFILING_COMMAND_QUEUED ||
      param_name > CL_PROFILING_COMMAND_END) {
    return CL_INVALID_VALUE;
  }
  if (!event->queue ||
      !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE) ||
      atomic_load(&event->status) != CL_COMPLETE) {
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  }
  pthread_mutex_lock(&event->lock);
  cl_ulong value = event->profiling[param_name - CL_PROFILING_COMMAND_QUEUED];
  pthread_mutex_unlock(&event->lock);
  return clx_info(&value, sizeof(value), param_value_size, param_value,
                  param_value_size_ret);
}

/* clmux OpenCL front-end — the objects behind the cl_* handles and the
 * functions one part of the front-end calls in another. Every object starts
 * with clx_object, whose first member is the ICD dispatch table pointer
 * (cl_khr_icd: the loader calls through it).
 *
 * Files (one object kind each):
 *   object.c          reference counting, handle checks, info-query helpers
 *   platform.c        the clmux platform (one per process)
 *   versions.c        the extensions and their versions
 *   device.c          the CPU device: every CL_DEVICE_* query, sub-devices
 *   device_later.c    the device queries of OpenCL 2.0 to 3.0
 *   device_partition.c  sub-devices (clCreateSubDevices) and their queries
 *   device_uuid.c     cl_khr_device_uuid: identities stable across runs
 *   context.c         contexts
 *   command_queue.c   queues: flush, finish, the batch engine (below)
 *   event.c           events, user events, callbacks, waits, profiling
 *   enqueue_sync.c    markers, barriers, wait-for-events
 *   engine.h          what those three share privately
 *   mem.c             what buffers and images share: flags, info, destructor
 *                     callbacks, map bookkeeping, migrate
 *   buffer.c          buffers and sub-buffers
 *   enqueue_buffer.c  buffer read/write/copy/fill (+ rect), map/unmap
 *   image.c           images, supported formats, image info
 *   image_layout.c    image descriptors: limits, pitches, sizes, views
 *   image_requirements.c  cl_ext_image_requirements_info
 *   enqueue_image.c   image read/write/copy/fill/map, image <-> buffer
 *   sampler.c         samplers
 *   svm.c             shared virtual memory allocations (clSVMAlloc)
 *   enqueue_svm.c     the queue's and command buffers' SVM commands
 *   program.c         programs: creation, binaries, info
 *   program_il.c      programs from SPIR-V, specialization constants
 *   program_build.c   clBuildProgram, clCompileProgram, clLinkProgram
 *   program_globals.c the block of a program's global variables per device
 *   heap_release.c    gives the C heap's free pages back after compiles
 *   kernel.c          kernels and their arguments
 *   kernel_info.c     kernel, argument and work-group queries
 *   kernel_specialize.c  compiled kernels per local size (cached)
 *   kernel_sub_groups.c  clGetKernelSubGroupInfo
 *   kernel_bounds.c   CLMUX_BOUNDS_CHECK's records at launch
 *   enqueue_kernel.c  NDRange, task, native kernel
 *   command_buffer.c  cl_khr_command_buffer objects: create, finalize,
 *                     enqueue, info, barriers (the clCommand*KHR of copies,
 *                     fills and NDRanges sit beside their clEnqueue* forms)
 *   mutable_command.c cl_khr_command_buffer_mutable_dispatch: updates of
 *                     recorded NDRanges
 *   builtin_declarations.c  parses Mux built-in kernel declarations
 *   ../../icd/        the dispatch table, clIcdGetPlatformIDsKHR,
 *                     clGetExtensionFunctionAddress[ForPlatform] */
#ifndef CLMUX_CL_CLX_H
#define CLMUX_CL_CLX_H

/* The 3.0 headers: every version's names (queries of 2.x and 3.0 too);
 * the deprecated 1.x entry points stay declared. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_icd.h>
#include <mux/mux.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opencl_version.h"

/* Every OpenCL entry point is exported only through the dispatch table and
 * the loader; the ICD entry points themselves are CLX_EXPORT. */
#define CLX_EXPORT __attribute__((visibility("default")))

#define CLX_VERSION_STRING "0.1.0"

/* ---- Objects and reference counting (object.c) -------------------------- */

typedef enum clx_kind {
  clx_kind_platform = 1,
  clx_kind_device,
  clx_kind_context,
  clx_kind_command_queue,
  clx_kind_mem,
  clx_kind_sampler,
  clx_kind_program,
  clx_kind_kernel,
  clx_kind_event,
  clx_kind_command_buffer,
  clx_kind_mutable_command,
} clx_kind;

typedef struct clx_object clx_object;

/* An object lives while `references` > 0. `user_references` counts the
 * application's retains (what CL_*_REFERENCE_COUNT reports); the runtime's
 * own holds (a queued command holding its buffers, a kernel holding its
 * program) count only in `references`, so an object outlives the user's last
 * release while the runtime still uses it (OpenCL 1.2 semantics). */
struct clx_object {
  const struct _cl_icd_dispatch *dispatch; /* must be first */
  uint32_t magic;                          /* CLX_MAGIC(kind); 0 once freed */
  atomic_uint references;
  atomic_uint user_references;
  void (*destroy)(clx_object *object); /* frees the object */
  /* The property list it was created with (clCreate*WithProperties, up
   * to and with its 0), for CL_*_PROPERTIES(_ARRAY); NULL if none. */
  cl_properties *properties;
  size_t properties_size; /* bytes */
};

#define CLX_MAGIC(kind) (0x434c0000u | (uint32_t)(kind))

extern const struct _cl_icd_dispatch clx_dispatch;

/* Sets up the header with one user reference. */
void clx_object_init(clx_object *object, clx_kind kind,
                     void (*destroy)(clx_object *object));
/* Whether `handle` is a live object of `kind` (NULL is not). */
bool clx_valid(const void *handle, clx_kind kind);
/* clRetain*: adds a user reference. */
void clx_retain(clx_object *object);
/* clRelease*: false if the user holds no reference (caller returns the
 * kind's CL_INVALID_* code); destroys the object when nothing holds it. */
bool clx_release(clx_object *object);
/* The runtime's own references. */
void clx_hold(clx_object *object);
void clx_unhold(clx_object *object);
cl_uint clx_user_references(const clx_object *object);
/* Keeps a copy of a 0-terminated property list of key-value pairs (NULL:
 * none); CL_OUT_OF_HOST_MEMORY if it cannot. */
cl_int clx_keep_properties(clx_object *object, const cl_properties *list);
/* CL_QUEUE_PROPERTIES_ARRAY, CL_MEM_PROPERTIES, CL_SAMPLER_PROPERTIES:
 * the list kept, or nothing (size 0). */
cl_int clx_properties_info(const clx_object *object, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret);

#define CLX_OBJ(handle) (&(handle)->object)

/* clGet*Info: copies `size` bytes of `value` out with the usual rules
 * (CL_INVALID_VALUE if param_value is set and param_value_size < size). */
cl_int clx_info(const void *value, size_t size, size_t param_value_size,
                void *param_value, size_t *param_value_size_ret);
cl_int clx_info_string(const char *value, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret);

/* Makes room in a growable array for one entry more than `count` (doubling
 * `capacity`); false without memory, the array unchanged. */
bool clx_grow(void **array, size_t *capacity, size_t count, size_t size);

/* A function run later with its data and a command's status. */
typedef struct clx_hook {
  void (*fn)(void *data, cl_int status);
  void *data;
} clx_hook;

/* The host allocator handed to Mux. */
extern const mux_allocator_info_t clx_allocator;

/* ---- Platform and device (platform.c, device.c) ------------------------- */

struct _cl_platform_id {
  clx_object object;
  cl_uint num_devices;
  cl_device_id *devices;
};

/* The one platform, created on first use (thread-safe); NULL if no Mux
 * device could be created. */
cl_platform_id clx_platform(void);

struct _cl_device_id {
  clx_object object;
  cl_platform_id platform;
  const struct mux_device_info_s *info;
  mux_device_t mux_device; /* a root device's lives as long as the process */
  mux_queue_t mux_queue;
  /* Sub-devices only (device_partition.c); NULL and 0 for root devices. */
  cl_device_id parent;                     /* held */
  uint32_t *cores;                         /* the root device's cores it has */
  cl_device_partition_property *partition; /* as given, 0-terminated */
  size_t partition_length;                 /* entries, the 0 included */
  struct mux_device_info_s own_info;       /* the root's, fewer compute units */
};

/* The extensions (versions.c), every device's and the platform's: names
 * separated by spaces, or with cl_khr_extended_versioning's versions. */
/* clGetDeviceInfo's queries of OpenCL 2.0 to 3.0 (device_later.c);
 * CL_INVALID_VALUE for any other. */
cl_int clx_device_later_info(cl_device_id device, cl_device_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret);
/* cl_khr_device_uuid's queries (device_uuid.c). */
cl_int clx_device_uuid_info(cl_device_id device, cl_device_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret);
/* CL_DEVICE_IL_VERSION_KHR (with_version false) and
 * CL_DEVICE_ILS_WITH_VERSION_KHR. */
cl_int clx_ils_info(bool with_version, size_t param_value_size,
                    void *param_value, size_t *param_value_size_ret);
cl_int clx_extensions_info(bool with_version, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret);
/* The built-in kernels `names` ("a;b;c") as a string or with versions. */
cl_int clx_built_in_kernels_info(const char *names, bool with_version,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret);
/* Whether `device` is a root device of the platform or a live sub-device. */
bool clx_device_valid(cl_device_id device);
/* Whether `device` is `ancestor` or a sub-device of it (at any depth): a
 * program built for a device runs on its sub-devices. */
bool clx_device_within(cl_device_id device, cl_device_id ancestor);
/* The partition queries of clGetDeviceInfo (device_partition.c). */
cl_int clx_device_partition_info(cl_device_id device, cl_device_info param,
                                 size_t size, void *value, size_t *size_ret);

/* ---- Context (context.c) ------------------------------------------------ */

typedef void(CL_CALLBACK *clx_context_notify)(const char *errinfo,
                                              const void *private_info,
                                              size_t cb, void *user_data);

typedef struct clx_context_destructor clx_context_destructor;

struct _cl_context {
  clx_object object;
  cl_uint num_devices;
  cl_device_id *devices;
  cl_context_properties *properties; /* as given, 0-terminated; NULL if none */
  size_t properties_size;            /* bytes, for CL_CONTEXT_PROPERTIES */
  clx_context_notify notify;
  void *notify_user_data;
  /* clSetContextDestructorCallback's, the newest first. */
  _Atomic(clx_context_destructor *) destructors;
  /* clSVMAlloc's allocations by address (svm.c); each holds the context. */
  pthread_mutex_t svm_lock;
  cl_mem *svm;
  size_t num_svm, svm_capacity;
};

/* Adds a function to call when the context is destroyed (newest first). */
cl_int clx_context_add_destructor(cl_context context,
                                  void(CL_CALLBACK *notify)(cl_context, void *),
                                  void *user_data);

bool clx_context_has_device(cl_context context, cl_device_id device);
/* Calls the context's notification callback, if any. */
void clx_context_report(cl_context context, const char *message);

/* ---- Events (event.c) --------------------------------------------------- */

/* Monotonic nanoseconds: the clock of profiling times (Mux duration
 * queries) and of the device and host timers of clGetDeviceAndHostTimer. */
cl_ulong clx_now_ns(void);

typedef struct clx_event_callback clx_event_callback;

struct _cl_event {
  clx_object object;
  cl_context context;
  cl_command_queue queue; /* NULL for user events */
  cl_command_type command_type;
  /* CL_QUEUED .. CL_COMPLETE, or a negative error; only ever decreases. */
  atomic_int status;
  /* CL_PROFILING_COMMAND_QUEUED, SUBMIT, START, END in ns; kept only when
   * `timed` (a profiling queue's or a traced queue's command): reading the
   * clock costs a launch more than the rest of an event's life. */
  cl_ulong profiling[4];
  bool timed;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  clx_event_callback *callbacks;
  cl_event next_spare; /* on event.c's list of spare events */
};

cl_event clx_event_create(cl_context context, cl_command_queue queue,
                          cl_command_type command_type);
/* Moves the event to `status` (CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a
 * negative error) if that is later than its current one; records the
 * profiling time, wakes waiters, runs the callbacks registered for it. */
void clx_event_set_status(cl_event event, cl_int status);
/* Blocks until the event is CL_COMPLETE or failed; returns its status. */
cl_int clx_event_wait(cl_event event);
/* Runs fn(event, status, data) once the event completes or fails (at once,
 * on this thread, if it already has): the engine's hook for dependencies. */
void clx_event_on_complete(cl_event event,
                           void (*fn)(cl_event event, cl_int status,
                                      void *data),
                           void *data);

/* ---- Command queues and the batch engine (command_queue.c) -------------- */

/* A batch is one Mux command buffer holding consecutive commands of a queue.
 * The queue records into its open batch until a flush (clFlush, a blocking
 * call, clFinish, clWaitForEvents on its events) closes it. A closed batch is
 * dispatched once every event it waits on (from other queues, user events)
 * has completed; it waits on the previous batch of its queue with a Mux
 * semaphore, so the queue stays in order. If an event it waits on fails, the
 * batch is not run and its commands' events fail with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. A batch's events complete
 * when its command buffer completes (the muxDispatch callback), with
 * profiling times from a Mux duration query per command. Out-of-order
 * queues are accepted and run in order. */
typedef struct clx_batch clx_batch;

struct _cl_command_queue {
  clx_object object;
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties properties;
  pthread_mutex_t lock; /* held from clx_enqueue_begin to _end */
  clx_batch *open;      /* recording, or NULL */
  cl_event last_event;  /* held; the newest command's event, or NULL */
  struct clx_queue_engine *engine; /* command_queue.c's private state */
  uint32_t track;                  /* its CLMUX_TRACE track, or 0 */
};

/* One command being enqueued, or recorded into a command buffer. Between
 * begin and end the queue (or the command buffer) is locked and the caller
 * records its Mux commands into `command_buffer` (any muxCommand*,
 * including muxCommandUserCallback for work done on the host). */
typedef struct clx_enqueue {
  cl_command_queue queue;
  mux_command_buffer_t command_buffer;
  cl_event event;   /* this command's event (the runtime holds it) */
  clx_batch *batch; /* a queue's batch ... */
  cl_command_buffer_khr recording; /* ... or a cl_khr_command_buffer */
} clx_enqueue;

/* Checks the wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT),
 * creates the event (CL_QUEUED), makes the command wait for the listed
 * events, and opens the batch to record into. On error nothing is left. */
cl_int clx_enqueue_begin(cl_command_queue queue, cl_command_type type,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, clx_enqueue *out);
/* Keeps `object` alive until the command completes (a held reference), or
 * for a recorded command, as long as its command buffer. */
void clx_enqueue_hold(clx_enqueue *enqueue, clx_object *object);
/* Names the command on the timeline (CLMUX_TRACE); `label` must live until
 * the command completes (a held kernel's name). */
void clx_enqueue_label(clx_enqueue *enqueue, const char *label);
/* Runs fn(data, status) on the host once the command will not run again:
 * when it completes or fails, before its event is set (e.g. to free a
 * copied argument block); for a recorded command, when its command buffer
 * is freed. */
cl_int clx_enqueue_on_complete(clx_enqueue *enqueue,
                               void (*fn)(void *data, cl_int status),
                               void *data);
/* Runs fn(data, status) after every run of the command (once for an
 * enqueued one, before the on_complete hooks; at each enqueue of a recorded
 * one's command buffer). */
cl_int clx_enqueue_after_run(clx_enqueue *enqueue,
                             void (*fn)(void *data, cl_int status), void *data);
/* Ends the command: hands the event to the user if `event` is non-NULL;
 * with `blocking`, flushes and waits, returning
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the command failed. */
cl_int clx_enqueue_end(clx_enqueue *enqueue, cl_event *event, bool blocking);
/* Abandons a command whose recording failed (returns `error`). */
cl_int clx_enqueue_abort(clx_enqueue *enqueue, cl_int error);

/* Where a command goes: into a queue, after the events of its wait list,
 * handing out an event; or into a command buffer being recorded
 * (`recording`), after its sync points, handing out a sync point. The
 * checks use `queue`'s context and device either way (a command buffer's
 * queue for a recorded command). */
typedef struct clx_destination {
  cl_command_queue queue;
  cl_uint num_events_in_wait_list;
  const cl_event *event_wait_list;
  cl_event *event;
  cl_command_buffer_khr recording;
  cl_sync_point_khr *sync_point;
} clx_destination;

static inline clx_destination clx_to_queue(cl_command_queue queue,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list,
                                           cl_event *event) {
  clx_destination to = {
      queue, num_events_in_wait_list, event_wait_list, event, NULL, NULL};
  return to;
}
/* clx_enqueue_begin, or the same for a command buffer being recorded. */
cl_int clx_command_begin(const clx_destination *to, cl_command_type type,
                         clx_enqueue *out);
/* clx_enqueue_end without blocking, or hands out the sync point. */
cl_int clx_command_end(const clx_destination *to, clx_enqueue *enqueue);

/* A command without Mux work (markers, barriers, SVM maps): it only keeps
 * its place in the queue (enqueue_sync.c). */
cl_int clx_enqueue_nothing(cl_command_queue queue, cl_command_type type,
                           bool blocking, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event);

/* clFlush: closes the open batch and dispatches what is ready. */
cl_int clx_queue_flush(cl_command_queue queue);
/* clFinish: flush, then wait until every command enqueued so far is done. */
cl_int clx_queue_finish(cl_command_queue queue);

/* cl_ext_float_atomics' queries, which Debian's headers lack. */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif

/* ---- Command buffers: cl_khr_command_buffer (command_buffer.c) ---------- */

/* The extension as of version 0.9.8 (OpenCL-Headers of 2024 on): what older
 * headers, Debian's included, lack or declare with fewer parameters. */
typedef cl_properties cl_command_properties_khr;
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
/* cl_khr_command_buffer_mutable_dispatch as of 0.9.5: older headers declare
 * a draft whose update call and configuration differ (their names are
 * clx_ here so as not to clash). */
#define CLX_COMMAND_BUFFER_STATE_FINALIZED 2
#define CLX_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS 0x12B7
#define CLX_MUTABLE_DISPATCH_ASSERTS 0x12B8
#define CLX_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS (1 << 0)
#define CLX_MUTABLE_COMMAND_PROPERTIES_ARRAY 0x12A2
#define CLX_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG 0
typedef cl_bitfield clx_mutable_dispatch_asserts;
typedef struct clx_mutable_dispatch_config {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr *arg_list;
  const cl_mutable_dispatch_arg_khr *arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
} clx_mutable_dispatch_config;
/* What an NDRange of a mutable command buffer may change. */
#define CLX_MUTABLE_FIELDS                                                    \
  (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |                                    \
   CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | \
   CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)

/* Commands recorded once into a Mux command buffer of their own, copied
 * into a queue's batch at each enqueue (muxCpuCommandReplay). Every command
 * runs in the order recorded, so sync points and barriers only need to be
 * checked. */
struct _cl_command_buffer_khr {
  clx_object object;
  cl_context context;     /* held */
  cl_command_queue queue; /* held: the queue it was created for */
  cl_command_buffer_properties_khr *properties; /* as given; NULL if none */
  size_t properties_length;                     /* entries, the 0 included */
  pthread_mutex_t lock;                         /* recording */
  bool finalized;
  mux_command_buffer_t commands;
  cl_uint sync_points; /* handed out so far: 1 .. sync_points */
  clx_object **holds;  /* what the commands use, held while the buffer is */
  size_t num_holds, cap_holds;
  clx_hook *after_run; /* added to every enqueue */
  size_t num_after_run, cap_after_run;
  clx_hook *on_free; /* run when the buffer is freed */
  size_t num_on_free, cap_on_free;
  size_t mark_after_run, mark_on_free; /* the current command's first */
  /* Recorded Mux commands: every recorded command but a barrier is one,
   * so the next one's index (the id muxCpuCommandSetNDRange takes). */
  mux_command_id_t mux_commands;
  cl_command_buffer_flags_khr flags; /* CL_COMMAND_BUFFER_MUTABLE_KHR ... */
  clx_mutable_dispatch_asserts asserts;
  cl_mutable_command_khr *mutables; /* owned */
  size_t num_mutables, cap_mutables;
};

/* An NDRange of a mutable command buffer (mutable_command.c): what it was
 * recorded with and every update since, to record it again. */
struct _cl_mutable_command_khr {
  clx_object object; /* no user references: freed with its buffer */
  cl_command_buffer_khr command_buffer;
  mux_command_id_t id; /* its Mux command */
  cl_kernel kernel;    /* held by the command buffer */
  cl_mutable_dispatch_fields_khr updatable;
  clx_mutable_dispatch_asserts asserts;  /* its own and its buffer's */
  cl_command_properties_khr *properties; /* as given; NULL if none */
  size_t properties_length;
  cl_uint work_dim;
  size_t offset[3], global[3], local[3];
  bool local_chosen;        /* no local size given: chosen with the global */
  uint64_t recorded_groups; /* work-groups when recorded */
  cl_uint num_descriptors;  /* room for the kernel's arguments and hidden */
  cl_uint hidden_args;      /* ones (globals' block, bounds record) */
  mux_descriptor_info_t *descriptors;
  bool *set;             /* per argument: unset ones wait for an update */
  unsigned char *values; /* value arguments' bytes, which descriptors use */
  size_t *value_offsets; /* per argument, into `values` */
  void *bounds_record;   /* CLMUX_BOUNDS_CHECK's, or NULL */
};

/* What clCommandNDRangeKernelKHR asked of a mutable command, when it gave
 * a mutable_handle. */
typedef struct clx_mutable_request {
  cl_mutable_command_khr *handle;
  const cl_command_properties_khr *properties;
  cl_mutable_dispatch_fields_khr updatable;
  clx_mutable_dispatch_asserts asserts;
} clx_mutable_request;

/* Parses an NDRange's properties (CL_INVALID_VALUE for any not known). */
cl_int clx_mutable_properties(cl_command_buffer_khr command_buffer,
                              const cl_command_properties_khr *properties,
                              clx_mutable_request *request);
/* A new mutable command for `kernel` recorded as the next Mux command of
 * the command buffer being recorded (its lock held); NULL without memory. */
cl_mutable_command_khr clx_mutable_new(
    clx_enqueue *enqueue, const clx_mutable_request *request, cl_kernel kernel,
    cl_uint work_dim, const size_t offset[3], const size_t global[3],
    const size_t local[3], bool local_chosen);
/* Takes the kernel's arguments as they are (its lock held). */
void clx_mutable_take_args(cl_mutable_command_khr command);
/* Whether every argument is set (else a placeholder stands for it). */
bool clx_mutable_complete(cl_mutable_command_khr command);
/* Frees a mutable command (with its buffer, or when recording failed). */
void clx_mutable_free(cl_mutable_command_khr command);
/* A placeholder Mux command for an NDRange whose arguments are not all set
 * yet; it is never run (the buffer is not executable until they are). */
void clx_mutable_placeholder(mux_queue_t queue,
                             mux_command_buffer_t command_buffer, void *data);
/* The entry points of cl_khr_command_buffer_mutable_dispatch. */
cl_int CL_API_CALL clx_update_mutable_commands(
    cl_command_buffer_khr command_buffer, cl_uint num_configs,
    const cl_uint *config_types, const void **configs);
cl_int CL_API_CALL clx_get_mutable_command_info(cl_mutable_command_khr command,
                                                cl_uint param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret);
/* Whether the command buffer can be enqueued: finalized, and every
 * mutable command's arguments set (its lock held). */
bool clx_command_buffer_executable(cl_command_buffer_khr command_buffer);

/* The checks every clCommand*KHR makes first, in the extension's order;
 * fills `to` for clx_command_begin. */
cl_int clx_recording_destination(cl_command_buffer_khr command_buffer,
                                 cl_command_queue command_queue,
                                 const cl_command_properties_khr *properties,
                                 cl_uint num_sync_points_in_wait_list,
                                 const cl_sync_point_khr *sync_point_wait_list,
                                 cl_sync_point_khr *sync_point,
                                 cl_mutable_command_khr *mutable_handle,
                                 clx_destination *to);
/* The recording halves of clx_enqueue_* (command_queue.c calls them for a
 * clx_enqueue whose `recording` is set). */
void clx_recording_hold(clx_enqueue *enqueue, clx_object *object);
cl_int clx_recording_hook(clx_enqueue *enqueue, bool after_run,
                          void (*fn)(void *data, cl_int status), void *data);
cl_int clx_recording_abort(clx_enqueue *enqueue, cl_int error);
/* The extension's entry point called `name`, or NULL. */
void *clx_command_buffer_function(const char *name);

/* clCreateProgramWithIL (and cl_khr_il_program's ...KHR form) and
 * clSetProgramSpecializationConstant (program_il.c). */
cl_program CL_API_CALL clx_create_program_with_il(cl_context context,
                                                  const void *il, size_t length,
                                                  cl_int *errcode_ret);
cl_int CL_API_CALL clx_set_program_specialization_constant(
    cl_program program, cl_uint spec_id, size_t spec_size,
    const void *spec_value);
/* Whether the device reads SPIR-V (the translator can be run). */
bool clx_il_supported(void);

/* The entry points that sit beside their clEnqueue* forms. */
cl_int CL_API_CALL clx_command_copy_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_copy_buffer_rect(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_fill_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem buffer,
    const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_copy_buffer_to_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
    const size_t *region, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_copy_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image,
    cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_copy_image_to_buffer(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
    size_t dst_offset, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_fill_image(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem image,
    const void *fill_color, const size_t *origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clx_command_ndrange_kernel(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_kernel kernel,
    cl_uint work_dim, const size_t *global_work_offset,
    const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);

/* ---- Memory objects (mem.c, buffer.c, image.c) -------------------------- */

typedef struct clx_mem_callback clx_mem_callback;
typedef struct clx_mapping clx_mapping;

struct _cl_mem {
  clx_object object;
  cl_context context;
  cl_mem_object_type type;
  cl_mem_flags flags;
  size_t size;
  void *host_ptr; /* as given with USE_HOST_PTR / COPY_HOST_PTR, else NULL */
  /* Host address of byte 0: all device memory is host memory on the CPU,
   * and with CL_MEM_USE_HOST_PTR it is host_ptr itself (zero-copy). */
  uint8_t *data;
  mux_memory_t mux_memory; /* NULL for a sub-buffer (the parent's) */
  mux_buffer_t mux_buffer; /* buffers, sub-buffers, 1D-buffer images */
  cl_mem parent;           /* sub-buffer / 1D-buffer image: held */
  size_t origin;           /* sub-buffer offset in the parent */
  /* Images. */
  cl_image_format image_format;
  cl_image_desc image_desc; /* with row/slice pitch filled in */
  size_t element_size;
  mux_image_t mux_image;
  /* Bookkeeping. */
  pthread_mutex_t lock;
  clx_mem_callback *destructor_callbacks;
  clx_mapping *mappings; /* live clEnqueueMap* results */
  atomic_uint map_count;
  /* Shared virtual memory (svm.c): the storage of a clSVMAlloc, or a
   * buffer made with CL_MEM_USE_HOST_PTR over SVM memory. */
  cl_svm_mem_flags svm_flags;
  bool uses_svm;
};

/* ---- Samplers (sampler.c) ----------------------------------------------- */

struct _cl_sampler {
  clx_object object;
  cl_context context;
  cl_bool normalized_coords;
  cl_addressing_mode addressing_mode;
  cl_filter_mode filter_mode;
};

/* ---- Programs and kernels (program*.c, kernel*.c) ------------------------ */

/* One parameter of a built-in kernel declaration (builtin_declarations.c),
 * in clGetKernelArgInfo's terms. */
typedef struct clx_arg_info {
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier type_qualifier;
  char type_name[64];
  char name[64];
  /* How clSetKernelArg treats it. */
  enum {
    clx_arg_buffer,
    clx_arg_local,
    clx_arg_image,
    clx_arg_sampler,
    clx_arg_value
  } kind;
  size_t value_size; /* clx_arg_value: sizeof the type */
} clx_arg_info;

typedef struct clx_kernel_signature {
  char name[64];
  cl_uint num_args;
  clx_arg_info *args;
} clx_kernel_signature;

/* Parses "name(params);name(params)" into signatures (malloc'd, free with
 * clx_free_signatures); returns the count, or -1 on a malformed string. */
int clx_parse_declarations(const char *declarations,
                           clx_kernel_signature **out_signatures);
void clx_free_signatures(clx_kernel_signature *signatures, int count);

/* The compiler module (compiler/module/module.h): files that call it
 * include that header; the rest only pass the pointer along. */
/* The OpenCL version the platform and its devices report: the compiler's
 * (frontend.h), which sets __OPENCL_VERSION__ from it. */
#define CLX_STRING(x) CLX_STRING_OF(x)
#define CLX_STRING_OF(x) #x
#define CLX_OPENCL_VERSION \
  CL_MAKE_VERSION(CC_OPENCL_VERSION_MAJOR, CC_OPENCL_VERSION_MINOR, 0)
#define CLX_OPENCL_VERSION_STRING                               \
  "OpenCL " CLX_STRING(CC_OPENCL_VERSION_MAJOR) "." CLX_STRING( \
      CC_OPENCL_VERSION_MINOR)

typedef struct cc_module cc_module;
typedef struct cc_spirv_constant cc_spirv_constant;
typedef struct cc_spirv_value cc_spirv_value;
typedef struct cc_module_kernel cc_module_kernel;

/* One kernel specialized for one local size (kernel_specialize.c): a Mux
 * executable and kernel, or the error that enqueues of it report. */
typedef struct clx_specialization clx_specialization;

struct _cl_program {
  clx_object object;
  cl_context context;
  cl_uint num_devices;
  cl_device_id *devices;
  char *source;       /* clCreateProgramWithSource, else NULL */
  bool from_binary;   /* clCreateProgramWithBinary */
  /* clCreateProgramWithIL: the SPIR-V as given, and its specialization
   * constants (from the words, so fixed). */
  uint8_t *il;
  size_t il_size;
  cc_spirv_constant *spec_constants;
  size_t num_spec_constants;
  char *kernel_names; /* built-in programs: "a;b" as given */
  clx_kernel_signature *signatures; /* built-in programs */
  int num_signatures;
  /* The lock guards everything below. A build swaps `module` only while
   * no kernel is attached, so kernels read it without the lock. */
  pthread_mutex_t lock;
  cl_build_status build_status;
  /* The devices the last build or compile was for (their sub-devices too);
   * NULL: all of `devices`. */
  cl_device_id *built_for;
  cl_uint num_built_for;
  char *build_options;
  char *build_log;
  /* clSetProgramSpecializationConstant's values, for the next build. */
  cc_spirv_value *spec_values;
  size_t num_spec_values;
  cc_module *module; /* compiled object, library or executable, or NULL */
  uint8_t *binary;   /* cc_module_serialize of `module`, made on request */
  size_t binary_size;
  /* Kernels the user holds (builds fail while > 0), and users of `module`:
   * kernel objects alive (the user's or only enqueued commands') and links
   * reading it as an input. A build while any remains retires the old
   * module until the last goes. */
  atomic_uint kernels_attached;
  atomic_uint module_users;
  struct clx_retired *retired;
  /* The blocks of the program's global variables (clx_program_globals),
   * one per device its kernels ran on, made for `globals_module`. */
  struct clx_globals_block *globals;
  cc_module *globals_module;
  /* Specializations of `module`'s kernels, newest first (own lock: an
   * enqueue never waits on a query). */
  pthread_mutex_t specializations_lock;
  clx_specialization *specializations;
};

/* A program for `devices` (copied) of `context` (held), or NULL. */
cl_program clx_program_new(cl_context context, cl_uint num_devices,
                           const cl_device_id *devices);
/* CL_INVALID_VALUE / CL_INVALID_DEVICE rules of a required device list. */
cl_int clx_check_device_list(cl_context context, cl_uint num_devices,
                             const cl_device_id *device_list);
/* The optional device list of build and compile. */
cl_int clx_check_build_devices(cl_program program, cl_uint num_devices,
                               const cl_device_id *device_list);
/* Replaces the program's module (the old one is destroyed, with its
 * specializations and binary), status, options and log; takes `module`,
 * `options` and `log` (any may be NULL). */
void clx_program_set_build(cl_program program, cc_module *module,
                           cl_build_status status, char *options, char *log);
/* Whether kernels can be created: built-in, or a successfully built
 * executable (program.c). */
bool clx_program_executable(cl_program program);
/* The block of the program's global variables (OpenCL C 2.0 on) on
 * `device`, in *out, made and given its initial values at the first call
 * for the device and the current module (program_globals.c): devices do
 * not share the variables. NULL if the program has none.
 * CL_OUT_OF_RESOURCES (with a report to the context) when the values
 * cannot be laid out, CL_MEM_OBJECT_ALLOCATION_FAILURE. */
cl_int clx_program_globals(cl_program program, cl_device_id device,
                           cl_mem *out);
/* Releases a list of blocks (program.c, when the module goes). */
void clx_program_globals_free(struct clx_globals_block *blocks);
/* Whether kernels of the program can run on `device`: executable, and its
 * last build was for the device or one it is a sub-device of (program.c). */
bool clx_program_runs_on(cl_program program, cl_device_id device);
/* Counts one more kernel attached to an executable program (builds are
 * refused while any is); false if the program is not executable. */
bool clx_program_attach_kernel(cl_program program);
/* Appends `text` to the program's build log (e.g. why a kernel cannot be
 * specialized). */
void clx_program_log_append(cl_program program, const char *text);
/* Takes the program's specializations (kernel_specialize.c) ... */
clx_specialization *clx_program_take_specializations(cl_program program);
/* ... and destroys such a list. */
void clx_specializations_destroy(cl_program program,
                                 clx_specialization *list);
/* A compiled object or library to link, counted as a user of the module
 * (a rebuild meanwhile retires it); NULL if the program has none or is
 * being built. */
cc_module *clx_program_use_link_input(cl_program program);
/* Counts one module user (kernel object or link) less; the last one frees
 * retired modules. */
void clx_program_module_released(cl_program program);
/* Returns the C heap's free pages to the system after a compile
 * (heap_release.c). */
void clx_heap_release(void);

/* CLMUX_BOUNDS_CHECK (kernel_bounds.c): the descriptor of a launch's
 * bounds record, filled from the kernel's arguments (its lock held); false
 * without memory. clx_bounds_record_report, run after each run of the
 * command, reports what went out of bounds and clears the record;
 * clx_bounds_record_free frees it. */
bool clx_bounds_record_new(cl_kernel kernel, mux_descriptor_info_t *out,
                           void **record);
void clx_bounds_record_report(void *record, cl_int status);
/* The bytes argument `index` may reach, after an update of a recorded
 * command gave it another buffer or __local size. */
void clx_bounds_record_set_extent(void *record, uint32_t index,
                                  uint64_t extent);
void clx_bounds_record_free(void *record, cl_int status);

typedef struct clx_kernel_arg {
  bool set;
  mux_descriptor_info_t descriptor;
  cl_mem mem; /* set to a memory object (not held: the user keeps it alive
               * until enqueued; an enqueue holds it until done) */
  unsigned char *value; /* value arguments: value_size bytes of the kernel's
                           value block, stable for descriptors */
} clx_kernel_arg;

struct _cl_kernel {
  clx_object object;
  cl_program program; /* held */
  const char *name;
  cl_uint num_args;
  /* How clSetKernelArg takes each argument: the built-in declaration, or
   * (compiled kernels) made from the module's argument metadata. */
  const clx_arg_info *arg_infos;
  const clx_kernel_signature *signature; /* built-in kernels, else NULL */
  const cc_module_kernel *compiled;      /* compiled kernels, else NULL */
  mux_kernel_t mux_kernel;               /* built-in kernels */
  /* Bytes of kernel-scope __local data: the module's figure, raised by
   * what a specialized Mux kernel reports once one exists. */
  _Atomic uint64_t static_local_size;
  /* The specialization the last enqueue used: the next enqueue with the
   * same local size takes it without a lookup. */
  _Atomic(clx_specialization *) last_specialization;
  pthread_mutex_t lock;
  clx_kernel_arg *args;
  unsigned char *values; /* every value argument's bytes */
};

/* The Mux kernel to run `kernel` with `local_size` (kernel_specialize.c):
 * the built-in kernel, or the compiled kernel specialized for that size,
 * built once per (program, kernel, local size). CL_OUT_OF_RESOURCES (with
 * the reason in the build log) for a kernel the compiler cannot do yet. */
/* clCloneKernel: a kernel of the same program with the same arguments. */
cl_kernel clx_kernel_clone(cl_kernel source, cl_int *error);
/* clEnqueueNDRangeKernel's work-size rules (enqueue_kernel.c): fills
 * `local`, chosen by clmux when local_work_size is NULL. */
cl_int clx_check_work_sizes(cl_device_id device, cl_kernel kernel,
                            cl_uint work_dim, const size_t *global_work_offset,
                            const size_t *global_work_size,
                            const size_t *local_work_size, size_t local[3]);
/* clSetKernelArg's checks and descriptor for argument `index`, without
 * setting it (updates of recorded commands): `*mem` is the memory object
 * it refers to, or NULL; a value's descriptor has no data pointer yet. */
cl_int clx_kernel_arg_descriptor(cl_kernel kernel, cl_uint index, size_t size,
                                 const void *value,
                                 mux_descriptor_info_t *descriptor,
                                 cl_mem *mem);
/* The descriptor of a buffer (or sub-buffer) argument. */
mux_descriptor_info_t clx_buffer_descriptor(cl_mem mem);
/* The same for clSetKernelArgSVMPointer's `value`: the allocation's buffer
 * (*mem) for a pointer into a clSVMAlloc allocation, else the address. */
cl_int clx_kernel_svm_arg_descriptor(cl_kernel kernel, cl_uint index,
                                     const void *value,
                                     mux_descriptor_info_t *descriptor,
                                     cl_mem *mem);
/* clSetKernelExecInfo's checks (CL_INVALID_VALUE); nothing is kept. */
cl_int clx_check_exec_info(cl_kernel_exec_info param_name,
                           size_t param_value_size, const void *param_value);
/* The bytes a bounds-checked kernel may reach through an argument set to
 * `descriptor` (and `mem`): to the end of a buffer from its offset, a
 * __local size, everything behind a plain host address (SVM). */
uint64_t clx_arg_extent(const mux_descriptor_info_t *descriptor, cl_mem mem);
/* The Mux kernel that runs `kernel` over an NDRange of these sizes (3
 * each, 1 past its dimensions): code for the local size, or for any local
 * size when the NDRange is not uniform (kernel_specialize.c). */
cl_int clx_kernel_mux_kernel(cl_kernel kernel, const size_t global_size[3],
                             const size_t local_size[3], mux_kernel_t *out);
/* The device a kernel query is about: `*device`, or the program's only
 * one when NULL; CL_INVALID_KERNEL or CL_INVALID_DEVICE (kernel_info.c). */
cl_int clx_kernel_device(cl_kernel kernel, cl_device_id *device);
/* clGetKernelSubGroupInfo (kernel_sub_groups.c). */
cl_int clx_kernel_sub_group_info(cl_kernel kernel, cl_device_id device,
                                 cl_kernel_sub_group_info param_name,
                                 size_t input_value_size,
                                 const void *input_value,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret);

/* ---- buffers: what memory objects share (mem.c) ------------------------ */

/* CL_INVALID_VALUE unless `flags` is a valid set for clCreateBuffer and
 * clCreateImage: known bits, at most one of READ_WRITE/WRITE_ONLY/READ_ONLY,
 * USE_HOST_PTR without ALLOC_HOST_PTR or COPY_HOST_PTR, at most one of
 * HOST_WRITE_ONLY/HOST_READ_ONLY/HOST_NO_ACCESS. */
cl_int clx_mem_check_flags(cl_mem_flags flags);
/* CL_INVALID_HOST_PTR unless host_ptr is given exactly when USE_HOST_PTR or
 * COPY_HOST_PTR is. */
cl_int clx_mem_check_host_ptr(cl_mem_flags flags, const void *host_ptr);
/* Checks the context, flags and host_ptr (in that order; callers with other
 * checks between them make those first), then makes the object's header:
 * one user reference, the context held, flags with CL_MEM_READ_WRITE added
 * when no access flag is given, the common destroy. Storage is the caller's
 * (clx_mem_allocate, or a parent's memory). NULL with *errcode set on
 * error; once created, undo with clx_release(CLX_OBJ(mem)). The common
 * destroy runs the destructor callbacks (newest first), then frees
 * mux_buffer, mux_image and mux_memory (if set), unholds parent and
 * context. */
cl_mem clx_mem_create(cl_context context, cl_mem_object_type type,
                      cl_mem_flags flags, size_t size, void *host_ptr,
                      cl_int *errcode);
/* Gives `mem` mem->size bytes of storage in mux_memory and data: the user's
 * memory itself with USE_HOST_PTR (zero-copy), else fresh host-visible
 * coherent memory aligned to the device's base address alignment, filled
 * from host_ptr with COPY_HOST_PTR. CL_MEM_OBJECT_ALLOCATION_FAILURE. */
cl_int clx_mem_allocate(cl_mem mem);
/* The same at `alignment` bytes (a power of two); USE_HOST_PTR ignores it. */
cl_int clx_mem_allocate_aligned(cl_mem mem, uint32_t alignment);
/* Gives `mem` a Mux buffer of its size bound to `memory` at `offset`
 * (buffer.c); CL_OUT_OF_RESOURCES. */
cl_int clx_buffer_bind(cl_mem mem, mux_memory_t memory, size_t offset);
/* The Mux device a context's memory objects live on. */
mux_device_t clx_mem_mux_device(cl_context context);
/* Whether a sub-buffer `origin` meets the device's
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN (as clGetDeviceInfo reports it). */
bool clx_mem_origin_aligned(cl_device_id device, size_t origin);
/* Host-access flags (CL_MEM_HOST_*): may the host read / write `mem`
 * through enqueued reads, writes and maps? */
bool clx_mem_host_can_read(cl_mem mem);
bool clx_mem_host_can_write(cl_mem mem);
/* clEnqueueMap*: CL_INVALID_VALUE for bad map_flags, CL_INVALID_OPERATION
 * when mem's host-access flags forbid them. */
cl_int clx_mem_check_map(cl_mem mem, cl_map_flags map_flags);
/* Live mappings: add counts one in CL_MEM_MAP_COUNT (the same pointer may
 * be mapped more than once); remove takes one back and returns false if
 * `pointer` is not a live mapping of `mem`. */
cl_int clx_mem_add_mapping(cl_mem mem, void *pointer, cl_map_flags flags);
bool clx_mem_remove_mapping(cl_mem mem, void *pointer);

/* ---- Shared virtual memory (svm.c, enqueue_svm.c) ----------------------- */

/* The OpenCL 2.0 SVM entry points (the dispatch table's). */
cl_int CL_API_CALL clx_enqueue_svm_free(
    cl_command_queue queue, cl_uint num_svm_pointers, void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue,
                                     cl_uint num_svm_pointers,
                                     void *svm_pointers[], void *user_data),
    void *user_data, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL clx_enqueue_svm_map(cl_command_queue queue,
                                       cl_bool blocking_map, cl_map_flags flags,
                                       void *svm_ptr, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list,
                                       cl_event *event);
cl_int CL_API_CALL clx_enqueue_svm_mem_fill(cl_command_queue queue,
                                            void *svm_ptr, const void *pattern,
                                            size_t pattern_size, size_t size,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list,
                                            cl_event *event);
cl_int CL_API_CALL clx_enqueue_svm_memcpy(cl_command_queue queue,
                                          cl_bool blocking_copy, void *dst_ptr,
                                          const void *src_ptr, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event);
cl_int CL_API_CALL clx_enqueue_svm_migrate_mem(
    cl_command_queue queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL clx_enqueue_svm_unmap(cl_command_queue queue, void *svm_ptr,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list,
                                         cl_event *event);
cl_int CL_API_CALL clx_set_kernel_arg_svm_pointer(cl_kernel kernel,
                                                  cl_uint arg_index,
                                                  const void *arg_value);
cl_int CL_API_CALL clx_set_kernel_exec_info(cl_kernel kernel,
                                            cl_kernel_exec_info param_name,
                                            size_t param_value_size,
                                            const void *param_value);
void *CL_API_CALL clx_svm_alloc(cl_context context, cl_svm_mem_flags flags,
                                size_t size, cl_uint alignment);
void CL_API_CALL clx_svm_free(cl_context context, void *svm_pointer);
/* The clSVMAlloc allocation of `context` holding `pointer` (its storage is
 * a buffer object, not held by the caller), with the pointer's offset in
 * it; NULL for other memory (fine-grained system SVM: any host memory). */
cl_mem clx_svm_find(cl_context context, const void *pointer, size_t *offset);
/* Commands of clEnqueueSVMMemcpy/MemFill and clCommandSVMMemcpy/MemFillKHR. */
cl_int clx_svm_memcpy(const clx_destination *to, void *dst_ptr,
                      const void *src_ptr, size_t size);
cl_int clx_svm_mem_fill(const clx_destination *to, void *svm_ptr,
                        const void *pattern, size_t pattern_size, size_t size);

/* ---- images: image helpers (image.c) ------------------------------------- */

/* Bytes per pixel of a valid OpenCL 1.2 order/type pair, 0 if invalid. */
size_t clx_image_element_size(const cl_image_format *format);
/* Whether `mem` is a live image object (any of the six image types). */
bool clx_is_image(cl_mem mem);
/* Whether the image's descriptor puts it over a buffer's bytes: a 1D
 * buffer image, or (cl_ext_image_from_buffer) any image given a buffer. */
bool clx_image_over_buffer(const cl_image_desc *desc);
/* Whether it is a 2D image over another 2D image (OpenCL 2.0: an sRGB or
 * linear view of the same pixels); such a descriptor is also "over a
 * buffer", its mem_object standing for the buffer. */
bool clx_image_over_image(const cl_image_desc *desc);
/* Whether `type` is one of the six image types. */
bool clx_image_type_valid(cl_mem_object_type type);

/* ---- What an image descriptor means (image_layout.c) --------------------- */

/* clCreateImage's descriptor checks (CL_INVALID_IMAGE_DESCRIPTOR and the
 * others its pitches, buffer or image and host pointer call for); on
 * success `layout` holds the descriptor with the pitches filled in. */
cl_int clx_image_check_descriptor(const cl_image_desc *desc, size_t element,
                                  const void *host_ptr,
                                  cl_image_desc *layout);
/* Whether images of `type` are arrays (1D or 2D), and whether they have
 * slices (arrays and 3D images). */
bool clx_image_is_array(cl_mem_object_type type);
bool clx_image_has_slices(cl_mem_object_type type);
/* Whether a 2D image of format `view` may be made over one of `source`. */
bool clx_image_view_format_allowed(const cl_image_format *view,
                                   const cl_image_format *source);
/* The descriptor with its pitches checked against the element size and
 * filled in; over a buffer they follow cl_ext_image_from_buffer's
 * alignments. An error is CL_INVALID_IMAGE_DESCRIPTOR,
 * CL_INVALID_IMAGE_FORMAT_DESCRIPTOR (a misaligned pitch over a buffer) or
 * CL_INVALID_IMAGE_SIZE (an overflow). */
cl_int clx_image_layout(const cl_image_desc *desc, size_t element,
                        bool over_buffer, cl_image_desc *layout);
/* The bytes an image of that layout spans; false on overflow. */
bool clx_image_bytes(const cl_image_desc *layout, size_t element,
                     size_t *bytes);
/* The largest image of `type` every device of the context takes, per
 * dimension; 0 for the dimensions the type lacks. */
typedef struct clx_image_extent {
  size_t width, height, depth, array_size;
} clx_image_extent;
void clx_image_max_extent(cl_context context, cl_mem_object_type type,
                          clx_image_extent *max);
/* CL_INVALID_IMAGE_SIZE unless every dimension of the image's type is
 * non-zero and within those limits. */
cl_int clx_image_check_size(cl_context context, const cl_image_desc *desc);
/* cl_khr_suggested_local_work_size's query (enqueue_kernel.c). */
cl_int CL_API_CALL clx_get_kernel_suggested_local_work_size(
    cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size);
/* cl_ext_image_requirements_info's query (image_requirements.c). */
cl_int CL_API_CALL clx_get_image_requirements_info(
    cl_context context, const cl_mem_properties *properties,
    cl_mem_flags flags, const cl_image_format *image_format,
    const cl_image_desc *image_desc, cl_image_requirements_info_ext param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret);

#endif /* CLMUX_CL_CLX_H */

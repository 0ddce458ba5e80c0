/* clmux OpenCL front-end: cl_khr_command_buffer, version 0.9.8. A command
 * buffer records its commands once, with every check of their clEnqueue*
 * forms, into a Mux command buffer of its own; each enqueue copies them
 * into the queue's open batch (muxCpuCommandReplay) as one command with one
 * event, so wait lists, profiling, the timeline and failures work as for
 * any command. Commands run in the order recorded, which satisfies every
 * sync-point graph, so sync points and barriers are only checked. The
 * clCommand*KHR of copies, fills and NDRanges sit beside their clEnqueue*
 * forms (enqueue_buffer.c, enqueue_image.c, enqueue_kernel.c). */
#include <mux/mux_cpu.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"

/* Queues whose commands may run in any order run a command buffer just as
 * well: recorded commands stay in order. */
static const cl_command_queue_properties supported_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

/* ---- Recording ----------------------------------------------------------- */

/* Each sync point must be one of the `issued` this buffer handed out. */
static cl_int check_sync_points(cl_uint issued, cl_uint count,
                                const cl_sync_point_khr *sync_points) {
  if ((count == 0) != (sync_points == NULL)) {
    return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  }
  for (cl_uint i = 0; i < count; i++) {
    if (sync_points[i] == 0 || sync_points[i] > issued) {
      return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    }
  }
  return CL_SUCCESS;
}

cl_int clx_recording_destination(cl_command_buffer_khr command_buffer,
                                 cl_command_queue command_queue,
                                 const cl_command_properties_khr *properties,
                                 cl_uint num_sync_points_in_wait_list,
                                 const cl_sync_point_khr *sync_point_wait_list,
                                 cl_sync_point_khr *sync_point,
                                 cl_mutable_command_khr *mutable_handle,
                                 clx_destination *to) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  /* Without cl_khr_command_buffer_multi_device the queue is the one given
   * at creation, so the parameter must be NULL. */
  if (command_queue) return CL_INVALID_COMMAND_QUEUE;
  pthread_mutex_lock(&command_buffer->lock);
  bool done = command_buffer->finalized;
  cl_uint issued = command_buffer->sync_points;
  pthread_mutex_unlock(&command_buffer->lock);
  if (done) return CL_INVALID_OPERATION;
  cl_int error = check_sync_points(issued, num_sync_points_in_wait_list,
                                   sync_point_wait_list);
  if (error != CL_SUCCESS) return error;
  /* No command property and no mutable command exists without
   * cl_khr_command_buffer_mutable_dispatch. */
  if (mutable_handle || (properties && properties[0] != 0)) {
    return CL_INVALID_VALUE;
  }
  *to = (clx_destination){.queue = command_buffer->queue,
                          .recording = command_buffer,
                          .sync_point = sync_point};
  return CL_SUCCESS;
}

cl_int clx_command_begin(const clx_destination *to, cl_command_type type,
                         clx_enqueue *out) {
  cl_command_buffer_khr command_buffer = to->recording;
  if (!command_buffer) {
    return clx_enqueue_begin(to->queue, type, to->num_events_in_wait_list,
                             to->event_wait_list, out);
  }
  pthread_mutex_lock(&command_buffer->lock);
  /* Finalized by another thread since the checks. */
  if (command_buffer->finalized) {
    pthread_mutex_unlock(&command_buffer->lock);
    return CL_INVALID_OPERATION;
  }
  command_buffer->mark_after_run = command_buffer->num_after_run;
  command_buffer->mark_on_free = command_buffer->num_on_free;
  *out = (clx_enqueue){.queue = command_buffer->queue,
                       .command_buffer = command_buffer->commands,
                       .recording = command_buffer};
  return CL_SUCCESS;
}

cl_int clx_command_end(const clx_destination *to, clx_enqueue *enqueue) {
  cl_command_buffer_khr command_buffer = enqueue->recording;
  if (!command_buffer) return clx_enqueue_end(enqueue, to->event, false);
  command_buffer->mux_commands++;
  cl_sync_point_khr point = ++command_buffer->sync_points;
  pthread_mutex_unlock(&command_buffer->lock);
  if (to->sync_point) *to->sync_point = point;
  return CL_SUCCESS;
}

void clx_recording_hold(clx_enqueue *enqueue, clx_object *object) {
  cl_command_buffer_khr command_buffer = enqueue->recording;
  /* As for a queue: without memory for the list, nothing is held. */
  if (!clx_grow((void **)&command_buffer->holds, &command_buffer->cap_holds,
                command_buffer->num_holds, sizeof(*command_buffer->holds))) {
    return;
  }
  clx_hold(object);
  command_buffer->holds[command_buffer->num_holds++] = object;
}

cl_int clx_recording_hook(clx_enqueue *enqueue, bool after_run,
                          void (*fn)(void *data, cl_int status), void *data) {
  cl_command_buffer_khr command_buffer = enqueue->recording;
  clx_hook **hooks =
      after_run ? &command_buffer->after_run : &command_buffer->on_free;
  size_t *count =
      after_run ? &command_buffer->num_after_run : &command_buffer->num_on_free;
  size_t *capacity =
      after_run ? &command_buffer->cap_after_run : &command_buffer->cap_on_free;
  if (!clx_grow((void **)hooks, capacity, *count, sizeof(**hooks))) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  (*hooks)[(*count)++] = (clx_hook){fn, data};
  return CL_SUCCESS;
}

/* Nothing of a failed command was recorded; its hooks go (the caller cleans
 * up itself), what it held stays held until the buffer is freed. */
cl_int clx_recording_abort(clx_enqueue *enqueue, cl_int error) {
  cl_command_buffer_khr command_buffer = enqueue->recording;
  command_buffer->num_after_run = command_buffer->mark_after_run;
  command_buffer->num_on_free = command_buffer->mark_on_free;
  pthread_mutex_unlock(&command_buffer->lock);
  return error;
}

static cl_int CL_API_CALL command_barrier(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  /* Everything before it has run when the next command starts: only a
   * sync point to hand out. */
  pthread_mutex_lock(&command_buffer->lock);
  if (command_buffer->finalized) error = CL_INVALID_OPERATION;
  cl_sync_point_khr point = error ? 0 : ++command_buffer->sync_points;
  pthread_mutex_unlock(&command_buffer->lock);
  if (sync_point && !error) *sync_point = point;
  return error;
}

/* SVM copies and fills: those of the queue (enqueue_svm.c). */
static cl_int CL_API_CALL command_svm_memcpy(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, void *dst_ptr,
    const void *src_ptr, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return clx_svm_memcpy(&to, dst_ptr, src_ptr, size);
}

static cl_int CL_API_CALL command_svm_mem_fill(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, void *svm_ptr,
    const void *pattern, size_t pattern_size, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, properties, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, mutable_handle, &to);
  if (error != CL_SUCCESS) return error;
  return clx_svm_mem_fill(&to, svm_ptr, pattern, pattern_size, size);
}

bool clx_command_buffer_executable(cl_command_buffer_khr command_buffer) {
  if (!command_buffer->finalized) return false;
  for (size_t i = 0; i < command_buffer->num_mutables; i++) {
    if (!clx_mutable_complete(command_buffer->mutables[i])) return false;
  }
  return true;
}

/* ---- Objects ------------------------------------------------------------- */

static void command_buffer_destroy(clx_object *object) {
  cl_command_buffer_khr command_buffer = (cl_command_buffer_khr)object;
  for (size_t i = 0; i < command_buffer->num_mutables; i++) {
    clx_mutable_free(command_buffer->mutables[i]);
  }
  free(command_buffer->mutables);
  for (size_t i = 0; i < command_buffer->num_on_free; i++) {
    command_buffer->on_free[i].fn(command_buffer->on_free[i].data, CL_COMPLETE);
  }
  for (size_t i = 0; i < command_buffer->num_holds; i++) {
    clx_unhold(command_buffer->holds[i]);
  }
  if (command_buffer->commands) {
    muxDestroyCommandBuffer(command_buffer->queue->device->mux_device,
                            command_buffer->commands, clx_allocator);
  }
  clx_unhold(CLX_OBJ(command_buffer->queue));
  clx_unhold(CLX_OBJ(command_buffer->context));
  pthread_mutex_destroy(&command_buffer->lock);
  free(command_buffer->properties);
  free(command_buffer->holds);
  free(command_buffer->after_run);
  free(command_buffer->on_free);
  free(command_buffer);
}

/* Each property at most once: CL_COMMAND_BUFFER_FLAGS_KHR with the flags
 * of cl_khr_command_buffer_mutable_dispatch (simultaneous use is always
 * possible: each enqueue runs a copy), and that extension's asserts. */
static cl_int check_properties(const cl_command_buffer_properties_khr *list,
                               cl_command_buffer_khr command_buffer,
                               size_t *length) {
  *length = 0;
  if (!list) return CL_SUCCESS;
  bool flags_seen = false, asserts_seen = false;
  size_t i = 0;
  for (; list[i] != 0; i += 2) {
    cl_command_buffer_properties_khr value = list[i + 1];
    if (list[i] == CL_COMMAND_BUFFER_FLAGS_KHR && !flags_seen &&
        !(value &
          ~(cl_command_buffer_properties_khr)(CL_COMMAND_BUFFER_MUTABLE_KHR |
                                              CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR))) {
      flags_seen = true;
      command_buffer->flags = value;
    } else if (list[i] == CLX_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS &&
               !asserts_seen &&
               !(value &
                 ~(cl_command_buffer_properties_khr)
                     CLX_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS)) {
      asserts_seen = true;
      command_buffer->asserts = value;
    } else {
      return CL_INVALID_VALUE;
    }
  }
  *length = i + 1;
  return CL_SUCCESS;
}

static cl_command_buffer_khr create_failed(cl_int error, cl_int *errcode_ret) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

static cl_command_buffer_khr CL_API_CALL create_command_buffer(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) {
  /* One queue: there is no cl_khr_command_buffer_multi_device. */
  if (!queues || num_queues != 1) {
    return create_failed(CL_INVALID_VALUE, errcode_ret);
  }
  cl_command_queue queue = queues[0];
  if (!clx_valid(queue, clx_kind_command_queue)) {
    return create_failed(CL_INVALID_COMMAND_QUEUE, errcode_ret);
  }
  cl_command_buffer_khr command_buffer = calloc(1, sizeof(*command_buffer));
  if (!command_buffer) return create_failed(CL_OUT_OF_HOST_MEMORY, errcode_ret);
  size_t length = 0;
  cl_int error = check_properties(properties, command_buffer, &length);
  if (error != CL_SUCCESS) {
    free(command_buffer);
    return create_failed(error, errcode_ret);
  }
  if (length) {
    command_buffer->properties = malloc(length * sizeof(*properties));
    if (!command_buffer->properties) {
      free(command_buffer);
      return create_failed(CL_OUT_OF_HOST_MEMORY, errcode_ret);
    }
    memcpy(command_buffer->properties, properties,
           length * sizeof(*properties));
    command_buffer->properties_length = length;
  }
  if (muxCreateCommandBuffer(queue->device->mux_device, NULL, clx_allocator,
                             &command_buffer->commands) != mux_success) {
    free(command_buffer->properties);
    free(command_buffer);
    return create_failed(CL_OUT_OF_RESOURCES, errcode_ret);
  }
  pthread_mutex_init(&command_buffer->lock, NULL);
  clx_object_init(CLX_OBJ(command_buffer), clx_kind_command_buffer,
                  command_buffer_destroy);
  command_buffer->queue = queue;
  clx_hold(CLX_OBJ(queue));
  command_buffer->context = queue->context;
  clx_hold(CLX_OBJ(queue->context));
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return command_buffer;
}

static cl_int CL_API_CALL
finalize_command_buffer(cl_command_buffer_khr command_buffer) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  cl_int error = CL_SUCCESS;
  pthread_mutex_lock(&command_buffer->lock);
  if (command_buffer->finalized) {
    error = CL_INVALID_OPERATION;
  } else if (muxFinalizeCommandBuffer(command_buffer->commands) !=
             mux_success) {
    error = CL_OUT_OF_RESOURCES;
  } else {
    command_buffer->finalized = true;
  }
  pthread_mutex_unlock(&command_buffer->lock);
  return error;
}

static cl_int CL_API_CALL
retain_command_buffer(cl_command_buffer_khr command_buffer) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  clx_retain(CLX_OBJ(command_buffer));
  return CL_SUCCESS;
}

static cl_int CL_API_CALL
release_command_buffer(cl_command_buffer_khr command_buffer) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer) ||
      !clx_release(CLX_OBJ(command_buffer))) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_command_buffer_info(
    cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  switch (param_name) {
    case CL_COMMAND_BUFFER_QUEUES_KHR:
      return clx_info(&command_buffer->queue, sizeof(cl_command_queue),
                      param_value_size, param_value, param_value_size_ret);
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR: {
      cl_uint one = 1;
      return clx_info(&one, sizeof(one), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR: {
      cl_uint count = clx_user_references(CLX_OBJ(command_buffer));
      return clx_info(&count, sizeof(count), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_COMMAND_BUFFER_STATE_KHR: {
      /* Finalized with arguments still to set: not yet executable. */
      pthread_mutex_lock(&command_buffer->lock);
      cl_command_buffer_state_khr state =
          !command_buffer->finalized ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
          : clx_command_buffer_executable(command_buffer)
              ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
              : CLX_COMMAND_BUFFER_STATE_FINALIZED;
      pthread_mutex_unlock(&command_buffer->lock);
      return clx_info(&state, sizeof(state), param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
      return clx_info(command_buffer->properties,
                      command_buffer->properties_length *
                          sizeof(cl_command_buffer_properties_khr),
                      param_value_size, param_value, param_value_size_ret);
    case CL_COMMAND_BUFFER_CONTEXT_KHR:
      return clx_info(&command_buffer->context, sizeof(cl_context),
                      param_value_size, param_value, param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

/* ---- Enqueue ------------------------------------------------------------- */

static cl_int CL_API_CALL enqueue_command_buffer(
    cl_uint num_queues, cl_command_queue *queues,
    cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  /* No queues: the one it was created for; else one in its place. */
  if ((num_queues == 0) != (queues == NULL) || num_queues > 1) {
    return CL_INVALID_VALUE;
  }
  pthread_mutex_lock(&command_buffer->lock);
  bool executable = clx_command_buffer_executable(command_buffer);
  pthread_mutex_unlock(&command_buffer->lock);
  if (!executable) return CL_INVALID_OPERATION;
  cl_command_queue queue = num_queues ? queues[0] : command_buffer->queue;
  if (!clx_valid(queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (queue->context != command_buffer->context) return CL_INVALID_CONTEXT;
  if (queue->device != command_buffer->queue->device ||
      (queue->properties & ~supported_queue_properties)) {
    return CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
  }
  clx_enqueue enqueue;
  cl_int error =
      clx_enqueue_begin(queue, CL_COMMAND_COMMAND_BUFFER_KHR,
                        num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  /* Finalized: its lists no longer change. */
  for (size_t i = 0; i < command_buffer->num_after_run; i++) {
    const clx_hook *hook = &command_buffer->after_run[i];
    if (clx_enqueue_on_complete(&enqueue, hook->fn, hook->data) != CL_SUCCESS) {
      return clx_enqueue_abort(&enqueue, CL_OUT_OF_HOST_MEMORY);
    }
  }
  /* Updates of mutable commands change the recording: not meanwhile. */
  pthread_mutex_lock(&command_buffer->lock);
  mux_result_t result =
      muxCpuCommandReplay(enqueue.command_buffer, command_buffer->commands);
  pthread_mutex_unlock(&command_buffer->lock);
  if (result != mux_success) {
    return clx_enqueue_abort(&enqueue, result == mux_error_out_of_memory
                                           ? CL_OUT_OF_HOST_MEMORY
                                           : CL_OUT_OF_RESOURCES);
  }
  clx_enqueue_hold(&enqueue, CLX_OBJ(command_buffer));
  return clx_enqueue_end(&enqueue, event, false);
}

/* ---- Entry points -------------------------------------------------------- */

void *clx_command_buffer_function(const char *name) {
  static const struct {
    const char *name;
    void *function;
  } functions[] = {
      {"clCreateCommandBufferKHR", (void *)create_command_buffer},
      {"clFinalizeCommandBufferKHR", (void *)finalize_command_buffer},
      {"clRetainCommandBufferKHR", (void *)retain_command_buffer},
      {"clReleaseCommandBufferKHR", (void *)release_command_buffer},
      {"clEnqueueCommandBufferKHR", (void *)enqueue_command_buffer},
      {"clGetCommandBufferInfoKHR", (void *)get_command_buffer_info},
      {"clCommandBarrierWithWaitListKHR", (void *)command_barrier},
      {"clCommandCopyBufferKHR", (void *)clx_command_copy_buffer},
      {"clCommandCopyBufferRectKHR", (void *)clx_command_copy_buffer_rect},
      {"clCommandCopyBufferToImageKHR",
       (void *)clx_command_copy_buffer_to_image},
      {"clCommandCopyImageKHR", (void *)clx_command_copy_image},
      {"clCommandCopyImageToBufferKHR",
       (void *)clx_command_copy_image_to_buffer},
      {"clCommandFillBufferKHR", (void *)clx_command_fill_buffer},
      {"clCommandFillImageKHR", (void *)clx_command_fill_image},
      {"clCommandNDRangeKernelKHR", (void *)clx_command_ndrange_kernel},
      {"clCommandSVMMemcpyKHR", (void *)command_svm_memcpy},
      {"clCommandSVMMemFillKHR", (void *)command_svm_mem_fill},
      {"clUpdateMutableCommandsKHR", (void *)clx_update_mutable_commands},
      {"clGetMutableCommandInfoKHR", (void *)clx_get_mutable_command_info},
  };
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    if (strcmp(name, functions[i].name) == 0) return functions[i].function;
  }
  return NULL;
}

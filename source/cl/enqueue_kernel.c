/* clmux OpenCL front-end: kernel enqueues. An NDRange (or a task, its
 * 1x1x1 case) is checked here against every OpenCL 1.2 rule, its Mux
 * kernel found (built-in, or compiled and specialized for the local size:
 * kernel_specialize.c), then recorded as one muxCommandNDRange with a
 * snapshot of the kernel's argument descriptors; a native kernel is a host
 * callback in the command stream. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

/* ---- Sizes -----------------------------------------------------------------*/

/* The largest divisor of `n` that is at most `limit` (>= 1); with `step`
 * > 1, the largest such divisor that is also a multiple of `step`, or 0. */
static size_t largest_divisor(size_t n, size_t limit, size_t step) {
  if (limit > n) limit = n;
  for (size_t d = limit; d >= 1; d--) {
    if (n % d == 0 && d % step == 0) return d;
  }
  return 0;
}

/* A local size for a NULL local_work_size: divisors of the global size
 * whose product fits the device, a multiple of the vector width in x when
 * one divides it, and small enough that every core gets a work-group. */
static void choose_local_size(cl_device_id device, cl_uint work_dim,
                              const size_t *global, size_t *local) {
  const struct mux_device_info_s *info = device->info;
  const size_t max_item[3] = {info->max_work_group_size_x,
                              info->max_work_group_size_y,
                              info->max_work_group_size_z};
  size_t budget = info->max_concurrent_work_items;
  size_t items = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    items = global[d] > SIZE_MAX / items ? SIZE_MAX : items * global[d];
  }
  size_t cores = info->compute_units ? info->compute_units : 1;
  if (items / cores < budget) budget = items / cores ? items / cores : 1;

  size_t width = info->native_vector_width / sizeof(cl_float);
  for (cl_uint d = 0; d < 3; d++) {
    if (d >= work_dim) {
      local[d] = 1;
      continue;
    }
    size_t limit = budget < max_item[d] ? budget : max_item[d];
    size_t chosen = 0;
    if (d == 0 && width > 1) chosen = largest_divisor(global[d], limit, width);
    if (chosen == 0) chosen = largest_divisor(global[d], limit, 1);
    local[d] = chosen;
    budget /= chosen;
    if (budget == 0) budget = 1;
  }
}

/* OpenCL 2.0 on: the last work-group in a dimension may be smaller, unless
 * the kernel is OpenCL C 1.x or built with -cl-uniform-work-group-size. */
static bool allows_non_uniform(cl_kernel kernel) {
  return !kernel->compiled || !kernel->compiled->uniform_work_groups;
}

/* A kernel's reqd_work_group_size, or NULL. */
static const uint32_t *required_size(cl_kernel kernel) {
  if (!kernel->compiled || !kernel->compiled->reqd_work_group_size[0]) {
    return NULL;
  }
  return kernel->compiled->reqd_work_group_size;
}

static bool no_work_items(cl_uint work_dim, const size_t *global_work_size) {
  if (!global_work_size) return true;
  for (cl_uint d = 0; d < work_dim; d++) {
    if (global_work_size[d] == 0) return true;
  }
  return false;
}

cl_int clx_check_work_sizes(cl_device_id device, cl_kernel kernel,
                            cl_uint work_dim, const size_t *global_work_offset,
                            const size_t *global_work_size,
                            const size_t *local_work_size, size_t local[3]) {
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!global_work_size) return CL_INVALID_GLOBAL_WORK_SIZE;
  size_t items = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    size_t global = global_work_size[d];
    /* size_t is the device's size_t: only 0 and a total beyond it fail. */
    if (global == 0 || global > SIZE_MAX / items) {
      return CL_INVALID_GLOBAL_WORK_SIZE;
    }
    items *= global;
  }
  if (global_work_offset) {
    for (cl_uint d = 0; d < work_dim; d++) {
      if (global_work_offset[d] > SIZE_MAX - global_work_size[d]) {
        return CL_INVALID_GLOBAL_OFFSET;
      }
    }
  }
  bool uniform = !allows_non_uniform(kernel);
  /* reqd_work_group_size: the only local size, also when none is given. */
  const uint32_t *required = required_size(kernel);
  if (required) {
    for (cl_uint d = 0; d < 3; d++) {
      size_t want = d < work_dim && local_work_size ? local_work_size[d]
                                                    : required[d];
      if (want != required[d]) return CL_INVALID_WORK_GROUP_SIZE;
      if (uniform && d < work_dim && global_work_size[d] % want != 0) {
        return CL_INVALID_WORK_GROUP_SIZE;
      }
      if (d >= work_dim && want != 1) return CL_INVALID_WORK_GROUP_SIZE;
      local[d] = want;
    }
    if (!local_work_size) return CL_SUCCESS;
  }
  const struct mux_device_info_s *info = device->info;
  if (!local_work_size) {
    choose_local_size(device, work_dim, global_work_size, local);
    return CL_SUCCESS;
  }
  const size_t max_item[3] = {info->max_work_group_size_x,
                              info->max_work_group_size_y,
                              info->max_work_group_size_z};
  size_t group = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    size_t size = local_work_size[d];
    if (size == 0 || (uniform && global_work_size[d] % size != 0)) {
      return CL_INVALID_WORK_GROUP_SIZE;
    }
    if (size > max_item[d]) return CL_INVALID_WORK_ITEM_SIZE;
    group = size > SIZE_MAX / group ? SIZE_MAX : group * size;
    local[d] = size;
  }
  for (cl_uint d = work_dim; d < 3; d++) local[d] = 1;
  if (group > info->max_concurrent_work_items) {
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  return CL_SUCCESS;
}

/* ---- Kernel checks ---------------------------------------------------------*/

/* CL_INVALID_KERNEL_ARGS if an argument is unset; later in the list of
 * errors, CL_MISALIGNED_SUB_BUFFER_OFFSET for a sub-buffer the device
 * cannot address, CL_OUT_OF_RESOURCES if the kernel's local memory and
 * its local arguments exceed the device's. */
static cl_int check_args(cl_kernel kernel, cl_device_id device) {
  cl_int error = CL_SUCCESS;
  uint64_t local_memory = atomic_load(&kernel->static_local_size);
  pthread_mutex_lock(&kernel->lock);
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    const clx_kernel_arg *arg = &kernel->args[i];
    if (!arg->set) {
      error = CL_INVALID_KERNEL_ARGS;
      break;
    }
    if (arg->mem && arg->mem->parent &&
        arg->mem->type == CL_MEM_OBJECT_BUFFER &&
        !clx_mem_origin_aligned(device, arg->mem->origin)) {
      error = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    }
    if (arg->descriptor.type == mux_descriptor_info_type_shared_local_buffer) {
      local_memory += arg->descriptor.shared_local_buffer_descriptor.size;
    }
  }
  pthread_mutex_unlock(&kernel->lock);
  if (error == CL_SUCCESS &&
      local_memory > device->info->shared_local_memory_size) {
    error = CL_OUT_OF_RESOURCES;
  }
  return error;
}

/* Mux refuses a recorded NDRange for want of memory (local memory above
 * all) or, having passed the checks here, for nothing the user can fix. */
static cl_int mux_error_to_cl(mux_result_t result) {
  return result == mux_success ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}

/* The descriptor of a bounds record for a launch (CLMUX_BOUNDS_CHECK),
 * reported after every run and freed with the command. The hooks are
 * registered before the command is recorded: a recorded command cannot be
 * taken back, and must not run with a record freed for want of memory for
 * its report. */
static cl_int add_bounds_record(clx_enqueue *enqueue, cl_kernel kernel,
                                mux_descriptor_info_t *descriptor,
                                void **record) {
  *record = NULL;
  if (!clx_bounds_record_new(kernel, descriptor, record) ||
      clx_enqueue_after_run(enqueue, clx_bounds_record_report, *record) !=
          CL_SUCCESS ||
      clx_enqueue_on_complete(enqueue, clx_bounds_record_free, *record) !=
          CL_SUCCESS) {
    if (*record) clx_bounds_record_free(*record, CL_OUT_OF_HOST_MEMORY);
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

/* Records the NDRange: a snapshot of the descriptors (Mux copies them at
 * record time) and a hold on the kernel and every memory argument. With a
 * mutable command the snapshot is the command's own, and an NDRange whose
 * arguments are not all set yet is a placeholder until they are. */
static cl_int record_ndrange(clx_enqueue *enqueue, cl_kernel kernel,
                             mux_kernel_t mux_kernel, cl_uint work_dim,
                             const size_t *offset, const size_t *global,
                             const size_t local[3],
                             cl_mutable_command_khr mutable) {
  cl_uint num_args = kernel->num_args;
  /* Hidden arguments after the kernel's: the block of the program's
   * global variables, if it has any, and with bounds checks the record. */
  cl_mem globals = NULL;
  if (kernel->compiled) {
    cl_int error =
        clx_program_globals(kernel->program, enqueue->queue->device, &globals);
    if (error != CL_SUCCESS) return error;
  }
  bool checked =
      kernel->compiled && cc_module_checks_bounds(kernel->program->module);
  cl_uint hidden = (globals != NULL) + checked;
  /* Most kernels' descriptors fit on the stack: no malloc per launch. */
  mux_descriptor_info_t on_stack[16];
  mux_descriptor_info_t *descriptors = on_stack;
  if (mutable) {
    descriptors = mutable->descriptors;
    mutable->hidden_args = hidden;
  } else if (num_args + hidden > 16) {
    descriptors = malloc((num_args + hidden) * sizeof *descriptors);
    if (!descriptors) return CL_OUT_OF_HOST_MEMORY;
  }
  mux_ndrange_options_t options = {0};
  options.descriptors_length = num_args + hidden;
  options.descriptors = options.descriptors_length ? descriptors : NULL;
  memcpy(options.local_size, local, sizeof options.local_size);
  options.global_offset = offset;
  options.global_size = global;
  options.length = work_dim;

  pthread_mutex_lock(&kernel->lock);
  if (mutable) {
    clx_mutable_take_args(mutable);
  } else {
    for (cl_uint i = 0; i < num_args; i++) {
      descriptors[i] = kernel->args[i].descriptor;
    }
  }
  if (globals) descriptors[num_args] = clx_buffer_descriptor(globals);
  void *record = NULL;
  if (checked && add_bounds_record(enqueue, kernel,
                                   &descriptors[num_args + (globals != NULL)],
                                   &record) != CL_SUCCESS) {
    pthread_mutex_unlock(&kernel->lock);
    if (descriptors != on_stack && !mutable) free(descriptors);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (mutable) mutable->bounds_record = record;
  mux_result_t result;
  if (mutable && !clx_mutable_complete(mutable)) {
    result = muxCommandUserCallback(
        enqueue->command_buffer, clx_mutable_placeholder, NULL, 0, NULL, NULL);
  } else {
    result = muxCommandNDRange(enqueue->command_buffer, mux_kernel, options, 0,
                               NULL, NULL);
  }
  /* Not recorded: the abort that follows drops the report's hooks. */
  if (record && result != mux_success) {
    clx_bounds_record_free(record, CL_OUT_OF_RESOURCES);
  }
  if (result == mux_success) {
    clx_enqueue_label(enqueue, kernel->name);
    clx_enqueue_hold(enqueue, CLX_OBJ(kernel));
    if (globals) clx_enqueue_hold(enqueue, CLX_OBJ(globals));
    for (cl_uint i = 0; i < num_args; i++) {
      if (kernel->args[i].mem && (!mutable || mutable->set[i])) {
        clx_enqueue_hold(enqueue, CLX_OBJ(kernel->args[i].mem));
      }
    }
  }
  pthread_mutex_unlock(&kernel->lock);
  if (descriptors != on_stack && !mutable) free(descriptors);
  return mux_error_to_cl(result);
}

/* The objects of a kernel launch, in the specification's order: the
 * queue, the kernel, their context, the program built for the queue's
 * device. The arguments are check_args's. */
static cl_int check_launch(cl_command_queue queue, cl_kernel kernel) {
  if (!clx_valid(queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  if (queue->context != kernel->program->context) return CL_INVALID_CONTEXT;
  if (!clx_program_runs_on(kernel->program, queue->device)) {
    return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  return CL_SUCCESS;
}

/* cl_khr_suggested_local_work_size: the local size an enqueue of the
 * kernel with these sizes and no local size would run with, after the
 * checks that enqueue makes of the queue, kernel, arguments and sizes. */
cl_int CL_API_CALL clx_get_kernel_suggested_local_work_size(
    cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size) {
  cl_int error = check_launch(queue, kernel);
  if (error == CL_SUCCESS) error = check_args(kernel, queue->device);
  if (error != CL_SUCCESS) return error;
  if (!suggested_local_work_size) return CL_INVALID_VALUE;
  size_t local[3];
  error = clx_check_work_sizes(queue->device, kernel, work_dim,
                               global_work_offset, global_work_size, NULL,
                               local);
  if (error != CL_SUCCESS) return error;
  for (cl_uint d = 0; d < work_dim; d++) suggested_local_work_size[d] = local[d];
  return CL_SUCCESS;
}

/* An NDRange into a queue or a command buffer; `mutable` (command buffers
 * only, else NULL) asks for a mutable command. */
static cl_int enqueue_ndrange(const clx_destination *to, cl_kernel kernel,
                              cl_command_type type, cl_uint work_dim,
                              const size_t *global_work_offset,
                              const size_t *global_work_size,
                              const size_t *local_work_size,
                              const clx_mutable_request *mutable) {
  cl_command_queue queue = to->queue;
  cl_int error = check_launch(queue, kernel);
  if (error != CL_SUCCESS) return error;
  error = check_args(kernel, queue->device);
  /* Arguments an update will set may wait until then: only a command with
   * a handle can be updated. */
  bool deferred = mutable && mutable->handle &&
                  (mutable->updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
  if (error == CL_INVALID_KERNEL_ARGS && !deferred) return error;
  /* OpenCL 2.1: no work-items at all is a command that only completes. */
  if (CLX_OPENCL_VERSION >= CL_MAKE_VERSION(2, 1, 0) && work_dim >= 1 &&
      work_dim <= 3 && no_work_items(work_dim, global_work_size) &&
      !(mutable && mutable->handle)) {
    if ((to->num_events_in_wait_list == 0) != (to->event_wait_list == NULL)) {
      return CL_INVALID_EVENT_WAIT_LIST;
    }
    clx_enqueue enqueue;
    error = clx_command_begin(to, type, &enqueue);
    return error == CL_SUCCESS ? clx_command_end(to, &enqueue) : error;
  }
  size_t local[3];
  cl_int size_error =
      clx_check_work_sizes(queue->device, kernel, work_dim, global_work_offset,
                           global_work_size, local_work_size, local);
  if (size_error != CL_SUCCESS) return size_error;
  if ((to->num_events_in_wait_list == 0) != (to->event_wait_list == NULL)) {
    return CL_INVALID_EVENT_WAIT_LIST;
  }
  /* misaligned, or no local memory */
  if (error != CL_SUCCESS && error != CL_INVALID_KERNEL_ARGS) return error;
  size_t offset[3] = {0, 0, 0};
  size_t global[3] = {1, 1, 1};
  for (cl_uint d = 0; d < work_dim; d++) {
    global[d] = global_work_size[d];
    if (global_work_offset) offset[d] = global_work_offset[d];
  }
  mux_kernel_t mux_kernel = NULL;
  error = clx_kernel_mux_kernel(kernel, global, local, &mux_kernel);
  if (error != CL_SUCCESS) return error;
  clx_enqueue enqueue;
  error = clx_command_begin(to, type, &enqueue);
  if (error != CL_SUCCESS) return error;
  cl_mutable_command_khr command = NULL;
  if (mutable && mutable->handle) {
    command = clx_mutable_new(&enqueue, mutable, kernel, work_dim, offset,
                              global, local, local_work_size == NULL);
    if (!command) return clx_enqueue_abort(&enqueue, CL_OUT_OF_HOST_MEMORY);
  }
  error = record_ndrange(&enqueue, kernel, mux_kernel, work_dim, offset, global,
                         local, command);
  if (error != CL_SUCCESS) {
    if (command) clx_mutable_free(command);
    return clx_enqueue_abort(&enqueue, error);
  }
  if (command) {
    to->recording->mutables[to->recording->num_mutables++] = command;
    *mutable->handle = command;
  }
  return clx_command_end(to, &enqueue);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return enqueue_ndrange(&to, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim,
                         global_work_offset, global_work_size, local_work_size,
                         NULL);
}

cl_int CL_API_CALL clx_command_ndrange_kernel(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_kernel kernel,
    cl_uint work_dim, const size_t *global_work_offset,
    const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  /* The checks every command makes, then the NDRange's own properties and
   * its mutable command (cl_khr_command_buffer_mutable_dispatch). */
  clx_destination to;
  cl_int error = clx_recording_destination(
      command_buffer, command_queue, NULL, num_sync_points_in_wait_list,
      sync_point_wait_list, sync_point, NULL, &to);
  if (error != CL_SUCCESS) return error;
  clx_mutable_request mutable = {.handle = mutable_handle};
  error = clx_mutable_properties(command_buffer, properties, &mutable);
  if (error != CL_SUCCESS) return error;
  return enqueue_ndrange(&to, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim,
                         global_work_offset, global_work_size, local_work_size,
                         &mutable);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue,
                                 cl_kernel kernel,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event) {
  static const size_t one[1] = {1};
  clx_destination to = clx_to_queue(command_queue, num_events_in_wait_list,
                                    event_wait_list, event);
  return enqueue_ndrange(&to, kernel, CL_COMMAND_TASK, 1, NULL, one, one, NULL);
}

/* ---- Native kernels --------------------------------------------------------*/

typedef struct native_call {
  void(CL_CALLBACK *user_func)(void *);
  void *args; /* the copy, with memory objects replaced by host addresses */
} native_call;

static void native_run(mux_queue_t queue, mux_command_buffer_t command_buffer,
                       void *const user_data) {
  (void)queue;
  (void)command_buffer;
  native_call *call = user_data;
  call->user_func(call->args);
}

static void native_free(void *data, cl_int status) {
  (void)status;
  native_call *call = data;
  free(call->args);
  free(call);
}

cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
    void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
    const void **args_mem_loc, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (!user_func) return CL_INVALID_VALUE;
  if ((args == NULL) != (cb_args == 0)) return CL_INVALID_VALUE;
  if (num_mem_objects > 0 && (!args || !mem_list || !args_mem_loc)) {
    return CL_INVALID_VALUE;
  }
  if (num_mem_objects == 0 && (mem_list || args_mem_loc)) {
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    if (!clx_valid(mem_list[i], clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
    if (mem_list[i]->context != command_queue->context) {
      return CL_INVALID_CONTEXT;
    }
    /* Each slot to patch must lie inside the argument block. */
    const char *slot = args_mem_loc[i];
    if (!slot || slot < (const char *)args ||
        cb_args < sizeof(void *) ||
        (size_t)(slot - (const char *)args) > cb_args - sizeof(void *)) {
      return CL_INVALID_VALUE;
    }
  }
  if ((num_events_in_wait_list == 0) != (event_wait_list == NULL)) {
    return CL_INVALID_EVENT_WAIT_LIST;
  }

  native_call *call = calloc(1, sizeof *call);
  void *copy = cb_args ? malloc(cb_args) : NULL;
  if (!call || (cb_args && !copy)) {
    free(call);
    free(copy);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (cb_args) memcpy(copy, args, cb_args);
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    size_t at = (size_t)((const char *)args_mem_loc[i] - (const char *)args);
    void *address = mem_list[i]->data;
    memcpy((char *)copy + at, &address, sizeof address);
  }
  call->user_func = user_func;
  call->args = copy;

  clx_enqueue enqueue;
  cl_int error =
      clx_enqueue_begin(command_queue, CL_COMMAND_NATIVE_KERNEL,
                        num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) {
    native_free(call, error);
    return error;
  }
  /* The hook first: an aborted command drops its hooks, but a recorded
   * callback would stay in the command buffer. */
  error = clx_enqueue_on_complete(&enqueue, native_free, call);
  if (error == CL_SUCCESS &&
      muxCommandUserCallback(enqueue.command_buffer, native_run, call, 0,
                             NULL, NULL) != mux_success) {
    error = CL_OUT_OF_RESOURCES;
  }
  if (error != CL_SUCCESS) {
    clx_enqueue_abort(&enqueue, error);
    native_free(call, error);
    return error;
  }
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    clx_enqueue_hold(&enqueue, CLX_OBJ(mem_list[i]));
  }
  return clx_enqueue_end(&enqueue, event, false);
}

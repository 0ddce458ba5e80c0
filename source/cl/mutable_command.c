/* clmux OpenCL front-end: cl_khr_command_buffer_mutable_dispatch, version
 * 0.9.5. An NDRange recorded into a command buffer created with
 * CL_COMMAND_BUFFER_MUTABLE_KHR keeps what it was recorded with (kernel,
 * sizes, its own copy of the argument descriptors and values); an update
 * checks the new arguments and sizes as clSetKernelArg and
 * clEnqueueNDRangeKernel would, then records the NDRange again in place
 * (muxCpuCommandSetNDRange). Enqueues copy the recording, so runs already
 * queued keep what they had: simultaneous use needs nothing more. An
 * NDRange whose arguments are not all set yet is a placeholder, and its
 * buffer stays finalized but not executable until an update sets them. */
#include <mux/mux_cpu.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

void clx_mutable_placeholder(mux_queue_t queue,
                             mux_command_buffer_t command_buffer, void *data) {
  (void)queue;
  (void)command_buffer;
  (void)data;
}

static void mutable_destroy(clx_object *object) {
  cl_mutable_command_khr command = (cl_mutable_command_khr)object;
  free(command->properties);
  free(command->descriptors);
  free(command->set);
  free(command->values);
  free(command->value_offsets);
  free(command);
}

void clx_mutable_free(cl_mutable_command_khr command) {
  clx_release(CLX_OBJ(command));
}

static uint64_t work_groups(cl_uint work_dim, const size_t global[3],
                            const size_t local[3]) {
  uint64_t groups = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    groups *= (global[d] + local[d] - 1) / local[d];
  }
  return groups;
}

cl_int clx_mutable_properties(cl_command_buffer_khr command_buffer,
                              const cl_command_properties_khr *properties,
                              clx_mutable_request *request) {
  bool mutable = command_buffer->flags & CL_COMMAND_BUFFER_MUTABLE_KHR;
  /* By default every field the device can update may be. */
  request->updatable = CLX_MUTABLE_FIELDS;
  request->asserts = command_buffer->asserts;
  request->properties = properties;
  bool fields_seen = false, asserts_seen = false;
  for (size_t i = 0; properties && properties[i] != 0; i += 2) {
    cl_command_properties_khr value = properties[i + 1];
    if (mutable && properties[i] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR &&
        !fields_seen &&
        !(value & ~(cl_command_properties_khr)CLX_MUTABLE_FIELDS)) {
      fields_seen = true;
      request->updatable = value;
    } else if (mutable && properties[i] == CLX_MUTABLE_DISPATCH_ASSERTS &&
               !asserts_seen &&
               !(value &
                 ~(cl_command_properties_khr)
                     CLX_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS)) {
      asserts_seen = true;
      request->asserts |= value;
    } else {
      return CL_INVALID_VALUE;
    }
  }
  /* Only a mutable buffer has mutable commands to hand out. */
  if (!mutable) {
    if (request->handle) return CL_INVALID_VALUE;
    request->updatable = 0;
  }
  return CL_SUCCESS;
}

cl_mutable_command_khr clx_mutable_new(
    clx_enqueue *enqueue, const clx_mutable_request *request, cl_kernel kernel,
    cl_uint work_dim, const size_t offset[3], const size_t global[3],
    const size_t local[3], bool local_chosen) {
  cl_command_buffer_khr command_buffer = enqueue->recording;
  /* Room for it in the buffer's list now: keeping it cannot fail later. */
  if (!clx_grow((void **)&command_buffer->mutables,
                &command_buffer->cap_mutables, command_buffer->num_mutables,
                sizeof(*command_buffer->mutables))) {
    return NULL;
  }
  cl_mutable_command_khr command = calloc(1, sizeof(*command));
  if (!command) return NULL;
  cl_uint num_args = kernel->num_args;
  size_t values_size = 0;
  for (cl_uint i = 0; i < num_args; i++) {
    values_size += kernel->arg_infos[i].value_size;
  }
  size_t properties_length = 0;
  while (request->properties && request->properties[properties_length]) {
    properties_length += 2;
  }
  if (request->properties) properties_length++;
  /* Room for the hidden arguments: the globals' block, a bounds record. */
  command->num_descriptors = num_args + 2;
  command->descriptors =
      calloc(command->num_descriptors, sizeof(*command->descriptors));
  command->set = calloc(num_args + 1, sizeof(*command->set));
  command->values = malloc(values_size + 1);
  command->value_offsets = calloc(num_args + 1, sizeof(size_t));
  if (properties_length) {
    command->properties =
        malloc(properties_length * sizeof(*command->properties));
  }
  if (!command->descriptors || !command->set || !command->values ||
      !command->value_offsets || (properties_length && !command->properties)) {
    mutable_destroy(CLX_OBJ(command));
    return NULL;
  }
  clx_object_init(CLX_OBJ(command), clx_kind_mutable_command, mutable_destroy);
  if (properties_length) {
    memcpy(command->properties, request->properties,
           properties_length * sizeof(*command->properties));
    command->properties_length = properties_length;
  }
  for (cl_uint i = 0, at = 0; i < num_args; i++) {
    command->value_offsets[i] = at;
    at += kernel->arg_infos[i].value_size;
  }
  command->command_buffer = command_buffer;
  command->id = command_buffer->mux_commands;
  command->kernel = kernel;
  command->updatable = request->updatable;
  command->asserts = request->asserts;
  command->work_dim = work_dim;
  memcpy(command->offset, offset, sizeof command->offset);
  memcpy(command->global, global, sizeof command->global);
  memcpy(command->local, local, sizeof command->local);
  command->local_chosen = local_chosen;
  command->recorded_groups = work_groups(work_dim, global, local);
  return command;
}

void clx_mutable_take_args(cl_mutable_command_khr command) {
  cl_kernel kernel = command->kernel;
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    const clx_kernel_arg *arg = &kernel->args[i];
    command->set[i] = arg->set;
    command->descriptors[i] = arg->descriptor;
    if (arg->set &&
        arg->descriptor.type == mux_descriptor_info_type_plain_old_data) {
      unsigned char *bytes = command->values + command->value_offsets[i];
      memcpy(bytes, arg->value, kernel->arg_infos[i].value_size);
      command->descriptors[i].plain_old_data_descriptor.data = bytes;
    }
  }
}

bool clx_mutable_complete(cl_mutable_command_khr command) {
  for (cl_uint i = 0; i < command->kernel->num_args; i++) {
    if (!command->set[i]) return false;
  }
  return true;
}

/* ---- Updates ------------------------------------------------------------- */

/* One command's state after an update, built and checked before anything
 * changes. */
typedef struct next_state {
  cl_mutable_command_khr command;
  cl_uint work_dim;
  size_t offset[3], global[3], local[3];
  bool local_chosen;
  mux_descriptor_info_t *descriptors;
  bool *set;
  unsigned char *values;
  cl_mem *mems; /* per argument: a memory object the update sets, or NULL */
  mux_kernel_t mux_kernel;
} next_state;

static void next_free(next_state *next) {
  free(next->descriptors);
  free(next->set);
  free(next->values);
  free(next->mems);
}

static cl_int next_begin(next_state *next, cl_mutable_command_khr command) {
  cl_kernel kernel = command->kernel;
  cl_uint n = kernel->num_args;
  size_t values_size =
      n ? command->value_offsets[n - 1] + kernel->arg_infos[n - 1].value_size
        : 0;
  *next = (next_state){.command = command,
                       .work_dim = command->work_dim,
                       .local_chosen = command->local_chosen};
  memcpy(next->offset, command->offset, sizeof next->offset);
  memcpy(next->global, command->global, sizeof next->global);
  memcpy(next->local, command->local, sizeof next->local);
  next->descriptors =
      malloc(command->num_descriptors * sizeof(*next->descriptors));
  next->set = malloc((n + 1) * sizeof(*next->set));
  next->values = malloc(values_size + 1);
  next->mems = calloc(n + 1, sizeof(*next->mems));
  if (!next->descriptors || !next->set || !next->values || !next->mems) {
    next_free(next);
    return CL_OUT_OF_HOST_MEMORY;
  }
  memcpy(next->descriptors, command->descriptors,
         command->num_descriptors * sizeof(*next->descriptors));
  memcpy(next->set, command->set, (n + 1) * sizeof(*next->set));
  memcpy(next->values, command->values, values_size);
  /* Values are found again in the copy. */
  for (cl_uint i = 0; i < n; i++) {
    if (next->set[i] &&
        next->descriptors[i].type == mux_descriptor_info_type_plain_old_data) {
      next->descriptors[i].plain_old_data_descriptor.data =
          next->values + command->value_offsets[i];
    }
  }
  return CL_SUCCESS;
}

static cl_int next_args(next_state *next, cl_uint count,
                        const cl_mutable_dispatch_arg_khr *args) {
  cl_mutable_command_khr command = next->command;
  if (count && !args) return CL_INVALID_VALUE;
  if (count && !(command->updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) {
    return CL_INVALID_OPERATION;
  }
  cl_kernel kernel = command->kernel;
  for (cl_uint k = 0; k < count; k++) {
    const cl_mutable_dispatch_arg_khr *arg = &args[k];
    mux_descriptor_info_t descriptor;
    cl_mem mem = NULL;
    cl_int error =
        clx_kernel_arg_descriptor(kernel, arg->arg_index, arg->arg_size,
                                  arg->arg_value, &descriptor, &mem);
    if (error != CL_SUCCESS) return error;
    cl_uint i = arg->arg_index;
    if (descriptor.type == mux_descriptor_info_type_plain_old_data) {
      unsigned char *bytes = next->values + command->value_offsets[i];
      memcpy(bytes, arg->arg_value, arg->arg_size);
      descriptor.plain_old_data_descriptor.data = bytes;
    }
    next->descriptors[i] = descriptor;
    next->set[i] = true;
    next->mems[i] = mem;
  }
  return CL_SUCCESS;
}

static cl_int next_svm_args(next_state *next, cl_uint count,
                            const cl_mutable_dispatch_arg_khr *args) {
  cl_mutable_command_khr command = next->command;
  if (count && !(command->updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) {
    return CL_INVALID_OPERATION;
  }
  for (cl_uint k = 0; k < count; k++) {
    cl_uint i = args[k].arg_index;
    mux_descriptor_info_t descriptor;
    cl_mem mem = NULL;
    cl_int error = clx_kernel_svm_arg_descriptor(
        command->kernel, i, args[k].arg_value, &descriptor, &mem);
    if (error != CL_SUCCESS) return error;
    next->descriptors[i] = descriptor;
    next->set[i] = true;
    next->mems[i] = mem;
  }
  return CL_SUCCESS;
}

static bool changes(const size_t *given, const size_t now[3], cl_uint dims) {
  if (!given) return false;
  for (cl_uint d = 0; d < dims; d++) {
    if (given[d] != now[d]) return true;
  }
  return false;
}

static cl_int next_sizes(next_state *next,
                         const clx_mutable_dispatch_config *config) {
  cl_mutable_command_khr command = next->command;
  cl_mutable_dispatch_fields_khr fields = command->updatable;
  /* The number of dimensions stays (changing it is an OpenCL 3.0 thing). */
  if (config->work_dim && config->work_dim != command->work_dim) {
    return CL_INVALID_VALUE;
  }
  cl_uint dims = command->work_dim;
  if ((changes(config->global_work_offset, next->offset, dims) &&
       !(fields & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR)) ||
      (changes(config->global_work_size, next->global, dims) &&
       !(fields & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR)) ||
      (changes(config->local_work_size, next->local, dims) &&
       !(fields & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR))) {
    return CL_INVALID_OPERATION;
  }
  if (!config->global_work_offset && !config->global_work_size &&
      !config->local_work_size) {
    return CL_SUCCESS;
  }
  for (cl_uint d = 0; d < dims; d++) {
    if (config->global_work_offset) {
      next->offset[d] = config->global_work_offset[d];
    }
    if (config->global_work_size) next->global[d] = config->global_work_size[d];
  }
  /* A local size given once is kept; one clmux chose is chosen again. */
  if (config->local_work_size) next->local_chosen = false;
  const size_t *local = config->local_work_size ? config->local_work_size
                        : next->local_chosen    ? NULL
                                                : next->local;
  cl_command_queue queue = command->command_buffer->queue;
  size_t chosen[3];
  cl_int error =
      clx_check_work_sizes(queue->device, command->kernel, dims, next->offset,
                           next->global, local, chosen);
  if (error != CL_SUCCESS) return error;
  memcpy(next->local, chosen, sizeof chosen);
  if ((command->asserts &
       CLX_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS) &&
      work_groups(dims, next->global, next->local) > command->recorded_groups) {
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

static cl_int next_from(next_state *next, cl_command_buffer_khr command_buffer,
                        const clx_mutable_dispatch_config *config) {
  cl_mutable_command_khr command = config->command;
  if (!clx_valid(command, clx_kind_mutable_command) ||
      command->command_buffer != command_buffer) {
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  }
  if ((config->num_exec_infos && !config->exec_info_list) ||
      (config->num_svm_args && !config->arg_svm_list)) {
    return CL_INVALID_VALUE;
  }
  if (config->num_exec_infos &&
      !(command->updatable & CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)) {
    return CL_INVALID_OPERATION;
  }
  for (cl_uint i = 0; i < config->num_exec_infos; i++) {
    const cl_mutable_dispatch_exec_info_khr *info = &config->exec_info_list[i];
    cl_int error = clx_check_exec_info(info->param_name, info->param_value_size,
                                       info->param_value);
    if (error != CL_SUCCESS) return error;
  }
  cl_int error = next_begin(next, command);
  if (error != CL_SUCCESS) return error;
  error = next_args(next, config->num_args, config->arg_list);
  if (error == CL_SUCCESS) {
    error = next_svm_args(next, config->num_svm_args, config->arg_svm_list);
  }
  if (error == CL_SUCCESS) error = next_sizes(next, config);
  if (error == CL_SUCCESS) {
    error =
        clx_kernel_mux_kernel(command->kernel, next->global, next->local,
                              &next->mux_kernel);
  }
  if (error != CL_SUCCESS) next_free(next);
  return error;
}

/* Records the command again as `next` says (buffer lock held). */
static cl_int next_apply(next_state *next) {
  cl_mutable_command_khr command = next->command;
  cl_command_buffer_khr command_buffer = command->command_buffer;
  cl_kernel kernel = command->kernel;
  cl_uint n = kernel->num_args;
  bool complete = true;
  for (cl_uint i = 0; i < n; i++) complete &= next->set[i];
  if (complete) {
    mux_ndrange_options_t options = {0};
    options.descriptors_length = n + command->hidden_args;
    options.descriptors = options.descriptors_length ? next->descriptors : NULL;
    memcpy(options.local_size, next->local, sizeof options.local_size);
    options.global_offset = next->offset;
    options.global_size = next->global;
    options.length = next->work_dim;
    mux_result_t result = muxCpuCommandSetNDRange(
        command_buffer->commands, command->id, next->mux_kernel, options);
    if (result != mux_success) return CL_OUT_OF_RESOURCES;
  }
  /* What the command now refers to lives as long as the buffer. */
  clx_enqueue holder = {.recording = command_buffer};
  for (cl_uint i = 0; i < n; i++) {
    if (next->mems[i]) clx_recording_hold(&holder, CLX_OBJ(next->mems[i]));
    if (command->bounds_record && next->set[i]) {
      clx_bounds_record_set_extent(
          command->bounds_record, i,
          clx_arg_extent(&next->descriptors[i], next->mems[i]));
    }
  }
  /* The new state becomes the command's (its arrays swap with next's). */
  command->work_dim = next->work_dim;
  memcpy(command->offset, next->offset, sizeof command->offset);
  memcpy(command->global, next->global, sizeof command->global);
  memcpy(command->local, next->local, sizeof command->local);
  command->local_chosen = next->local_chosen;
  mux_descriptor_info_t *descriptors = command->descriptors;
  bool *set = command->set;
  unsigned char *values = command->values;
  command->descriptors = next->descriptors;
  command->set = next->set;
  command->values = next->values;
  next->descriptors = descriptors;
  next->set = set;
  next->values = values;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clx_update_mutable_commands(
    cl_command_buffer_khr command_buffer, cl_uint num_configs,
    const cl_uint *config_types, const void **configs) {
  if (!clx_valid(command_buffer, clx_kind_command_buffer)) {
    return CL_INVALID_COMMAND_BUFFER_KHR;
  }
  if (!num_configs || !config_types || !configs) return CL_INVALID_VALUE;
  pthread_mutex_lock(&command_buffer->lock);
  cl_int error = CL_SUCCESS;
  if (!(command_buffer->flags & CL_COMMAND_BUFFER_MUTABLE_KHR) ||
      !command_buffer->finalized) {
    error = CL_INVALID_OPERATION;
  }
  next_state *next = error ? NULL : calloc(num_configs, sizeof(*next));
  if (!error && !next) error = CL_OUT_OF_HOST_MEMORY;
  /* Every configuration is checked before any is applied. */
  cl_uint built = 0;
  for (; !error && built < num_configs; built++) {
    if (config_types[built] != CLX_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG ||
        !configs[built]) {
      error = CL_INVALID_VALUE;
      break;
    }
    error = next_from(&next[built], command_buffer, configs[built]);
    if (error) break;
  }
  for (cl_uint i = 0; !error && i < num_configs; i++) {
    error = next_apply(&next[i]);
  }
  for (cl_uint i = 0; i < built; i++) next_free(&next[i]);
  free(next);
  pthread_mutex_unlock(&command_buffer->lock);
  return error;
}

cl_int CL_API_CALL clx_get_mutable_command_info(cl_mutable_command_khr command,
                                                cl_uint param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret) {
  if (!clx_valid(command, clx_kind_mutable_command)) {
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  }
  cl_command_buffer_khr command_buffer = command->command_buffer;
  pthread_mutex_lock(&command_buffer->lock);
  cl_int error = CL_INVALID_VALUE;
  size_t sizes[3];
  const void *value = NULL;
  size_t size = 0;
  cl_command_type type = CL_COMMAND_NDRANGE_KERNEL;
  switch (param_name) {
    case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
      value = &command_buffer->queue;
      size = sizeof(cl_command_queue);
      break;
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
      value = &command->command_buffer;
      size = sizeof(cl_command_buffer_khr);
      break;
    case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
      value = &type;
      size = sizeof(type);
      break;
    case CLX_MUTABLE_COMMAND_PROPERTIES_ARRAY:
      value = command->properties;
      size = command->properties_length * sizeof(*command->properties);
      break;
    case CL_MUTABLE_DISPATCH_KERNEL_KHR:
      value = &command->kernel;
      size = sizeof(cl_kernel);
      break;
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
      value = &command->work_dim;
      size = sizeof(cl_uint);
      break;
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
    case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
      memcpy(sizes,
             param_name == CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR
                 ? command->offset
             : param_name == CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR
                 ? command->global
                 : command->local,
             sizeof sizes);
      value = sizes;
      size = command->work_dim * sizeof(size_t);
      break;
    default:
      break;
  }
  if (value || param_name == CLX_MUTABLE_COMMAND_PROPERTIES_ARRAY) {
    error = clx_info(value, size, param_value_size, param_value,
                     param_value_size_ret);
  }
  pthread_mutex_unlock(&command_buffer->lock);
  return error;
}

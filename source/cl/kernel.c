/* clmux OpenCL front-end: kernels and their arguments. A kernel is a Mux
 * built-in kernel plus, per argument, the Mux descriptor clSetKernelArg
 * built for it; enqueues snapshot those descriptors under the kernel's lock.
 * A kernel does not hold the memory objects set as its arguments: the
 * user's last release destroys one at once (running its destructor
 * callbacks, as the CTS requires); only enqueued commands hold them. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

static void kernel_destroy(clx_object *object) {
  cl_kernel kernel = (cl_kernel)object;
  cl_program program = kernel->program;
  free(kernel->args);
  muxDestroyKernel(program->devices[0]->mux_device, kernel->mux_kernel,
                   clx_allocator);
  pthread_mutex_destroy(&kernel->lock);
  free(kernel);
  atomic_fetch_sub(&program->kernels_attached, 1);
  clx_unhold(CLX_OBJ(program));
}

static bool program_built(cl_program program) {
  pthread_mutex_lock(&program->lock);
  bool built = program->build_status == CL_BUILD_SUCCESS;
  pthread_mutex_unlock(&program->lock);
  return built;
}

static cl_kernel kernel_new(cl_program program,
                            const clx_kernel_signature *signature,
                            cl_int *error) {
  cl_kernel kernel = calloc(1, sizeof *kernel);
  clx_kernel_arg *args =
      calloc(signature->num_args ? signature->num_args : 1, sizeof *args);
  if (!kernel || !args) {
    free(kernel);
    free(args);
    *error = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  /* Programs hold one device today (the CPU); its kernel serves them. */
  mux_result_t result = muxCreateBuiltInKernel(
      program->devices[0]->mux_device, signature->name,
      strlen(signature->name), clx_allocator, &kernel->mux_kernel);
  if (result != mux_success) {
    free(kernel);
    free(args);
    *error = result == mux_error_out_of_memory ? CL_OUT_OF_HOST_MEMORY
                                               : CL_INVALID_KERNEL_NAME;
    return NULL;
  }
  kernel->program = program;
  kernel->signature = signature;
  kernel->args = args;
  pthread_mutex_init(&kernel->lock, NULL);
  clx_hold(CLX_OBJ(program));
  atomic_fetch_add(&program->kernels_attached, 1);
  clx_object_init(CLX_OBJ(kernel), clx_kind_kernel, kernel_destroy);
  *error = CL_SUCCESS;
  return kernel;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program program,
                                     const char *kernel_name,
                                     cl_int *errcode_ret) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = NULL;
  if (!clx_valid(program, clx_kind_program)) {
    error = CL_INVALID_PROGRAM;
  } else if (!program_built(program)) {
    error = CL_INVALID_PROGRAM_EXECUTABLE;
  } else if (!kernel_name) {
    error = CL_INVALID_VALUE;
  } else {
    error = CL_INVALID_KERNEL_NAME;
    for (int i = 0; i < program->num_signatures; i++) {
      if (strcmp(program->signatures[i].name, kernel_name) == 0) {
        kernel = kernel_new(program, &program->signatures[i], &error);
        break;
      }
    }
  }
  if (errcode_ret) *errcode_ret = error;
  return kernel;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
                                            cl_uint num_kernels,
                                            cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  if (!program_built(program)) return CL_INVALID_PROGRAM_EXECUTABLE;
  cl_uint count = (cl_uint)program->num_signatures;
  if (kernels && num_kernels < count) return CL_INVALID_VALUE;
  if (kernels) {
    for (cl_uint i = 0; i < count; i++) {
      cl_int error = CL_SUCCESS;
      kernels[i] = kernel_new(program, &program->signatures[i], &error);
      if (!kernels[i]) {
        while (i-- > 0) clx_release(CLX_OBJ(kernels[i]));
        return error;
      }
    }
  }
  if (num_kernels_ret) *num_kernels_ret = count;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  clx_retain(CLX_OBJ(kernel));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  if (!clx_valid(kernel, clx_kind_kernel) || !clx_release(CLX_OBJ(kernel))) {
    return CL_INVALID_KERNEL;
  }
  return CL_SUCCESS;
}

/* ---- Arguments -------------------------------------------------------------*/

static mux_sampler_t mux_sampler_of(cl_sampler sampler) {
  mux_sampler_t value = {mux_address_mode_none, mux_filter_mode_nearest,
                         sampler->normalized_coords != CL_FALSE};
  switch (sampler->addressing_mode) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
      value.address_mode = mux_address_mode_clamp_edge;
      break;
    case CL_ADDRESS_CLAMP:
      value.address_mode = mux_address_mode_clamp;
      break;
    case CL_ADDRESS_REPEAT:
      value.address_mode = mux_address_mode_repeat;
      break;
    case CL_ADDRESS_MIRRORED_REPEAT:
      value.address_mode = mux_address_mode_repeat_mirror;
      break;
    default:
      break;
  }
  if (sampler->filter_mode == CL_FILTER_LINEAR) {
    value.filter_mode = mux_filter_mode_linear;
  }
  return value;
}

/* The descriptor of a buffer (or sub-buffer) argument. */
static mux_descriptor_info_t buffer_descriptor(cl_mem mem) {
  mux_descriptor_info_t descriptor = {0};
  descriptor.type = mux_descriptor_info_type_buffer;
  descriptor.buffer_descriptor.buffer = mem->mux_buffer;
  /* A sub-buffer that shares its parent's Mux buffer starts at its origin;
   * one with its own Mux buffer is bound there already. */
  if (mem->parent && mem->mux_buffer == mem->parent->mux_buffer) {
    descriptor.buffer_descriptor.offset = mem->origin;
  }
  return descriptor;
}

/* Builds argument `arg` from the user's value; `*mem` is the memory object
 * to hold while it is set (NULL if none). */
static cl_int build_arg(cl_kernel kernel, const clx_arg_info *info,
                        size_t arg_size, const void *arg_value,
                        clx_kernel_arg *arg, cl_mem *mem) {
  *mem = NULL;
  memset(&arg->descriptor, 0, sizeof arg->descriptor);
  switch (info->kind) {
    case clx_arg_buffer: {
      if (arg_size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
      cl_mem value = arg_value ? *(const cl_mem *)arg_value : NULL;
      if (!value) {
        arg->descriptor.type = mux_descriptor_info_type_null_buffer;
        return CL_SUCCESS;
      }
      if (!clx_valid(value, clx_kind_mem) ||
          value->type != CL_MEM_OBJECT_BUFFER ||
          value->context != kernel->program->context) {
        return CL_INVALID_MEM_OBJECT;
      }
      arg->descriptor = buffer_descriptor(value);
      *mem = value;
      return CL_SUCCESS;
    }
    case clx_arg_local:
      if (arg_value) return CL_INVALID_ARG_VALUE;
      if (arg_size == 0) return CL_INVALID_ARG_SIZE;
      arg->descriptor.type = mux_descriptor_info_type_shared_local_buffer;
      arg->descriptor.shared_local_buffer_descriptor.size = arg_size;
      return CL_SUCCESS;
    case clx_arg_image: {
      if (arg_size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
      if (!arg_value) return CL_INVALID_ARG_VALUE;
      cl_mem value = *(const cl_mem *)arg_value;
      if (!clx_valid(value, clx_kind_mem) || !clx_is_image(value) ||
          !value->mux_image || value->context != kernel->program->context) {
        return CL_INVALID_MEM_OBJECT;
      }
      /* An image the kernel could not access as declared (CTS
       * api/negative_set_read_write_image_arg). */
      if ((info->access == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
           (value->flags & CL_MEM_WRITE_ONLY)) ||
          (info->access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
           (value->flags & CL_MEM_READ_ONLY))) {
        return CL_INVALID_ARG_VALUE;
      }
      arg->descriptor.type = mux_descriptor_info_type_image;
      arg->descriptor.image_descriptor.image = value->mux_image;
      *mem = value;
      return CL_SUCCESS;
    }
    case clx_arg_sampler: {
      if (arg_size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
      /* No value is no valid sampler (CTS api/negative_invalid_arg_sampler). */
      if (!arg_value) return CL_INVALID_SAMPLER;
      cl_sampler value = *(const cl_sampler *)arg_value;
      if (!clx_valid(value, clx_kind_sampler)) return CL_INVALID_SAMPLER;
      arg->descriptor.type = mux_descriptor_info_type_sampler;
      arg->descriptor.sampler_descriptor.sampler = mux_sampler_of(value);
      return CL_SUCCESS;
    }
    case clx_arg_value:
      if (arg_size != info->value_size || arg_size > sizeof arg->value) {
        return CL_INVALID_ARG_SIZE;
      }
      if (!arg_value) return CL_INVALID_ARG_VALUE;
      memcpy(arg->value, arg_value, arg_size);
      arg->descriptor.type = mux_descriptor_info_type_plain_old_data;
      arg->descriptor.plain_old_data_descriptor.data = arg->value;
      arg->descriptor.plain_old_data_descriptor.length = arg_size;
      return CL_SUCCESS;
  }
  return CL_INVALID_ARG_VALUE;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                                  size_t arg_size, const void *arg_value) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  if (arg_index >= kernel->signature->num_args) return CL_INVALID_ARG_INDEX;
  const clx_arg_info *info = &kernel->signature->args[arg_index];
  clx_kernel_arg built;
  cl_mem mem = NULL;
  cl_int error = build_arg(kernel, info, arg_size, arg_value, &built, &mem);
  if (error != CL_SUCCESS) return error;

  pthread_mutex_lock(&kernel->lock);
  clx_kernel_arg *arg = &kernel->args[arg_index];
  arg->set = true;
  arg->mem = mem;
  arg->descriptor = built.descriptor;
  if (info->kind == clx_arg_value) {
    memcpy(arg->value, built.value, arg_size);
    arg->descriptor.plain_old_data_descriptor.data = arg->value;
  }
  pthread_mutex_unlock(&kernel->lock);
  return CL_SUCCESS;
}

/* ---- Queries ---------------------------------------------------------------*/

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
      return clx_info_string(kernel->signature->name, param_value_size,
                             param_value, param_value_size_ret);
    case CL_KERNEL_NUM_ARGS:
      return clx_info(&kernel->signature->num_args,
                      sizeof kernel->signature->num_args, param_value_size,
                      param_value, param_value_size_ret);
    case CL_KERNEL_REFERENCE_COUNT: {
      cl_uint count = clx_user_references(CLX_OBJ(kernel));
      return clx_info(&count, sizeof count, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_CONTEXT:
      return clx_info(&kernel->program->context,
                      sizeof kernel->program->context, param_value_size,
                      param_value, param_value_size_ret);
    case CL_KERNEL_PROGRAM:
      return clx_info(&kernel->program, sizeof kernel->program,
                      param_value_size, param_value, param_value_size_ret);
    case CL_KERNEL_ATTRIBUTES:
      return clx_info_string("", param_value_size, param_value,
                             param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                      cl_kernel_arg_info param_name,
                                      size_t param_value_size,
                                      void *param_value,
                                      size_t *param_value_size_ret) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  if (arg_indx >= kernel->signature->num_args) return CL_INVALID_ARG_INDEX;
  /* Built-in kernels always carry their declarations' argument info. */
  const clx_arg_info *info = &kernel->signature->args[arg_indx];
  switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
      return clx_info(&info->address, sizeof info->address, param_value_size,
                      param_value, param_value_size_ret);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
      return clx_info(&info->access, sizeof info->access, param_value_size,
                      param_value, param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_NAME:
      return clx_info_string(info->type_name, param_value_size, param_value,
                             param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
      return clx_info(&info->type_qualifier, sizeof info->type_qualifier,
                      param_value_size, param_value, param_value_size_ret);
    case CL_KERNEL_ARG_NAME:
      return clx_info_string(info->name, param_value_size, param_value,
                             param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  cl_program program = kernel->program;
  if (!device) {
    if (program->num_devices != 1) return CL_INVALID_DEVICE;
    device = program->devices[0];
  }
  bool listed = false;
  for (cl_uint i = 0; i < program->num_devices; i++) {
    listed |= program->devices[i] == device;
  }
  if (!listed || !clx_device_valid(device)) return CL_INVALID_DEVICE;
  const struct mux_device_info_s *info = device->info;
  size_t work_group_size = info->max_concurrent_work_items;
  switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
      return clx_info(&work_group_size, sizeof work_group_size,
                      param_value_size, param_value, param_value_size_ret);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      size_t none[3] = {0, 0, 0}; /* no reqd_work_group_size */
      return clx_info(none, sizeof none, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: {
      cl_ulong size = kernel->mux_kernel->local_memory_size;
      pthread_mutex_lock(&kernel->lock);
      for (cl_uint i = 0; i < kernel->signature->num_args; i++) {
        const clx_kernel_arg *arg = &kernel->args[i];
        if (arg->set &&
            arg->descriptor.type ==
                mux_descriptor_info_type_shared_local_buffer) {
          size += arg->descriptor.shared_local_buffer_descriptor.size;
        }
      }
      pthread_mutex_unlock(&kernel->lock);
      return clx_info(&size, sizeof size, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
      /* One vector register of floats: what the work-item loop fills. */
      size_t multiple = info->native_vector_width / sizeof(cl_float);
      if (multiple == 0) multiple = 1;
      if (multiple > work_group_size) multiple = work_group_size;
      return clx_info(&multiple, sizeof multiple, param_value_size,
                      param_value, param_value_size_ret);
    }
    case CL_KERNEL_PRIVATE_MEM_SIZE: {
      cl_ulong size = 0;
      return clx_info(&size, sizeof size, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      /* Includes CL_KERNEL_GLOBAL_WORK_SIZE: not a custom device. */
      return CL_INVALID_VALUE;
  }
}

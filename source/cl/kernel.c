/* clmux OpenCL front-end: kernels and their arguments. A kernel is a
 * built-in Mux kernel or a kernel of a built program's compiler module
 * (specialized per local size at enqueue, kernel_specialize.c), plus, per
 * argument, the Mux descriptor clSetKernelArg built for it; enqueues
 * snapshot those descriptors under the kernel's lock. A kernel does not
 * hold the memory objects set as its arguments: the user's last release
 * destroys one at once (running its destructor callbacks, as the CTS
 * requires); only enqueued commands hold them. Queries: kernel_info.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

static void kernel_destroy(clx_object *object) {
  cl_kernel kernel = (cl_kernel)object;
  cl_program program = kernel->program;
  free(kernel->args);
  free(kernel->values);
  if (!kernel->signature) free((clx_arg_info *)kernel->arg_infos);
  if (kernel->mux_kernel) {
    muxDestroyKernel(program->devices[0]->mux_device, kernel->mux_kernel,
                     clx_allocator);
  }
  pthread_mutex_destroy(&kernel->lock);
  free(kernel);
  clx_program_module_released(program);
  clx_unhold(CLX_OBJ(program));
}

/* What clSetKernelArg needs of a compiled kernel's arguments, in the
 * built-in declarations' terms (names are clGetKernelArgInfo's business). */
static clx_arg_info *compiled_arg_infos(const cc_module_kernel *compiled) {
  clx_arg_info *infos =
      calloc(compiled->arg_count ? compiled->arg_count : 1, sizeof *infos);
  if (!infos) return NULL;
  for (uint32_t i = 0; i < compiled->arg_count; i++) {
    const cc_module_arg *arg = &compiled->args[i];
    clx_arg_info *info = &infos[i];
    switch (arg->kind) {
      case CC_ARG_GLOBAL_POINTER:
      case CC_ARG_CONSTANT_POINTER:
        info->kind = clx_arg_buffer;
        break;
      case CC_ARG_LOCAL_POINTER:
        info->kind = clx_arg_local;
        break;
      case CC_ARG_IMAGE:
        info->kind = clx_arg_image;
        break;
      case CC_ARG_SAMPLER:
        info->kind = clx_arg_sampler;
        break;
      case CC_ARG_VALUE:
        info->kind = clx_arg_value;
        info->value_size = arg->size;
        break;
    }
    info->access = arg->access == CC_ACCESS_READ_ONLY
                       ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                   : arg->access == CC_ACCESS_WRITE_ONLY
                       ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                   : arg->access == CC_ACCESS_READ_WRITE
                       ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                       : CL_KERNEL_ARG_ACCESS_NONE;
  }
  return infos;
}

/* Gives every value argument its bytes in one block. */
static bool allocate_values(cl_kernel kernel) {
  size_t total = 0;
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    if (kernel->arg_infos[i].kind == clx_arg_value) {
      total += kernel->arg_infos[i].value_size;
    }
  }
  kernel->values = malloc(total ? total : 1);
  if (!kernel->values) return false;
  size_t at = 0;
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    if (kernel->arg_infos[i].kind == clx_arg_value) {
      kernel->args[i].value = kernel->values + at;
      at += kernel->arg_infos[i].value_size;
    }
  }
  return true;
}

/* A kernel of `program` (attached already): the built-in `signature`, or
 * the module's `compiled` kernel. */
static cl_kernel kernel_new(cl_program program,
                            const clx_kernel_signature *signature,
                            const cc_module_kernel *compiled, cl_int *error) {
  cl_kernel kernel = calloc(1, sizeof *kernel);
  if (!kernel) {
    *error = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  kernel->program = program;
  kernel->signature = signature;
  kernel->compiled = compiled;
  if (signature) {
    kernel->name = signature->name;
    kernel->num_args = signature->num_args;
    kernel->arg_infos = signature->args;
  } else {
    kernel->name = compiled->name;
    kernel->num_args = compiled->arg_count;
    kernel->arg_infos = compiled_arg_infos(compiled);
    atomic_init(&kernel->static_local_size, compiled->static_local_size);
  }
  kernel->args = calloc(kernel->num_args ? kernel->num_args : 1,
                        sizeof *kernel->args);
  *error = CL_OUT_OF_HOST_MEMORY;
  bool ready = (kernel->arg_infos || kernel->num_args == 0) && kernel->args &&
               allocate_values(kernel);
  if (ready && signature) {
    /* Programs hold one device today (the CPU); its kernel serves them. */
    mux_result_t result = muxCreateBuiltInKernel(
        program->devices[0]->mux_device, signature->name,
        strlen(signature->name), clx_allocator, &kernel->mux_kernel);
    if (result != mux_success) {
      ready = false;
      *error = result == mux_error_out_of_memory ? CL_OUT_OF_HOST_MEMORY
                                                 : CL_INVALID_KERNEL_NAME;
    } else {
      atomic_init(&kernel->static_local_size,
                  kernel->mux_kernel->local_memory_size);
    }
  }
  if (!ready) {
    free(kernel->args);
    free(kernel->values);
    if (!signature) free((clx_arg_info *)kernel->arg_infos);
    free(kernel);
    return NULL;
  }
  atomic_init(&kernel->last_specialization, NULL);
  pthread_mutex_init(&kernel->lock, NULL);
  clx_hold(CLX_OBJ(program));
  clx_object_init(CLX_OBJ(kernel), clx_kind_kernel, kernel_destroy);
  *error = CL_SUCCESS;
  return kernel;
}

/* The number of kernels of an executable program. */
static size_t kernel_count(cl_program program) {
  return program->signatures ? (size_t)program->num_signatures
                             : cc_module_kernel_count(program->module);
}

/* Undoes clx_program_attach_kernel. */
static void detach(cl_program program) {
  atomic_fetch_sub(&program->kernels_attached, 1);
  clx_program_module_released(program);
}

/* Kernel `index` of an executable program, attached to it. */
static cl_kernel kernel_at(cl_program program, size_t index, cl_int *error) {
  if (!clx_program_attach_kernel(program)) {
    *error = CL_INVALID_PROGRAM_EXECUTABLE;
    return NULL;
  }
  cl_kernel kernel =
      program->signatures
          ? kernel_new(program, &program->signatures[index], NULL, error)
          : kernel_new(program, NULL,
                       cc_module_kernel_at(program->module, index), error);
  if (!kernel) detach(program);
  return kernel;
}

cl_kernel clx_kernel_clone(cl_kernel source, cl_int *error) {
  cl_program program = source->program;
  /* The source kernel keeps the program built: attaching cannot fail. */
  if (!clx_program_attach_kernel(program)) {
    *error = CL_INVALID_KERNEL;
    return NULL;
  }
  cl_kernel kernel =
      kernel_new(program, source->signature, source->compiled, error);
  if (!kernel) {
    detach(program);
    return NULL;
  }
  pthread_mutex_lock(&source->lock);
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    clx_kernel_arg *arg = &kernel->args[i];
    unsigned char *value = arg->value;
    *arg = source->args[i];
    arg->value = value;
    if (arg->set &&
        arg->descriptor.type == mux_descriptor_info_type_plain_old_data) {
      memcpy(value, source->args[i].value, kernel->arg_infos[i].value_size);
      arg->descriptor.plain_old_data_descriptor.data = value;
    }
  }
  pthread_mutex_unlock(&source->lock);
  atomic_store(&kernel->static_local_size,
               atomic_load(&source->static_local_size));
  return kernel;
}

/* Both creators attach a guard first: while it is attached no build can
 * start, so the program's module stays put during the lookups. */
cl_kernel CL_API_CALL clCreateKernel(cl_program program,
                                     const char *kernel_name,
                                     cl_int *errcode_ret) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = NULL;
  if (!clx_valid(program, clx_kind_program)) {
    error = CL_INVALID_PROGRAM;
  } else if (!clx_program_attach_kernel(program)) {
    error = CL_INVALID_PROGRAM_EXECUTABLE;
  } else {
    error = kernel_name ? CL_INVALID_KERNEL_NAME : CL_INVALID_VALUE;
    size_t count = kernel_name ? kernel_count(program) : 0;
    for (size_t i = 0; i < count; i++) {
      const char *name =
          program->signatures
              ? program->signatures[i].name
              : cc_module_kernel_at(program->module, i)->name;
      if (strcmp(name, kernel_name) == 0) {
        kernel = kernel_at(program, i, &error);
        break;
      }
    }
    detach(program);
  }
  if (errcode_ret) *errcode_ret = error;
  return kernel;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
                                            cl_uint num_kernels,
                                            cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  if (!clx_program_attach_kernel(program)) {
    return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  cl_int error = CL_SUCCESS;
  cl_uint count = (cl_uint)kernel_count(program);
  if (kernels && num_kernels < count) error = CL_INVALID_VALUE;
  for (cl_uint i = 0; kernels && error == CL_SUCCESS && i < count; i++) {
    kernels[i] = kernel_at(program, i, &error);
    if (!kernels[i]) {
      while (i-- > 0) clReleaseKernel(kernels[i]);
    }
  }
  detach(program);
  if (error == CL_SUCCESS && num_kernels_ret) *num_kernels_ret = count;
  return error;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  clx_retain(CLX_OBJ(kernel));
  return CL_SUCCESS;
}

/* The user's last release detaches the kernel from its program at once
 * (a rebuild may follow), though commands may keep the object alive. */
cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  clx_object *object = CLX_OBJ(kernel);
  unsigned user = atomic_load(&object->user_references);
  do {
    if (user == 0) return CL_INVALID_KERNEL;
  } while (
      !atomic_compare_exchange_weak(&object->user_references, &user, user - 1));
  if (user == 1) atomic_fetch_sub(&kernel->program->kernels_attached, 1);
  clx_unhold(object);
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

mux_descriptor_info_t clx_buffer_descriptor(cl_mem mem) {
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
      arg->descriptor = clx_buffer_descriptor(value);
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
           (value->flags & CL_MEM_READ_ONLY)) ||
          (info->access == CL_KERNEL_ARG_ACCESS_READ_WRITE &&
           (value->flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)))) {
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
      /* The bytes are copied under the kernel's lock by the caller. */
      if (arg_size != info->value_size) return CL_INVALID_ARG_SIZE;
      if (!arg_value) return CL_INVALID_ARG_VALUE;
      arg->descriptor.type = mux_descriptor_info_type_plain_old_data;
      arg->descriptor.plain_old_data_descriptor.length = arg_size;
      return CL_SUCCESS;
  }
  return CL_INVALID_ARG_VALUE;
}

cl_int clx_kernel_arg_descriptor(cl_kernel kernel, cl_uint index, size_t size,
                                 const void *value,
                                 mux_descriptor_info_t *descriptor,
                                 cl_mem *mem) {
  if (index >= kernel->num_args) return CL_INVALID_ARG_INDEX;
  clx_kernel_arg built;
  cl_int error =
      build_arg(kernel, &kernel->arg_infos[index], size, value, &built, mem);
  *descriptor = built.descriptor;
  return error;
}

cl_int clx_kernel_svm_arg_descriptor(cl_kernel kernel, cl_uint index,
                                     const void *value,
                                     mux_descriptor_info_t *descriptor,
                                     cl_mem *mem) {
  if (index >= kernel->num_args) return CL_INVALID_ARG_INDEX;
  if (kernel->arg_infos[index].kind != clx_arg_buffer) {
    return CL_INVALID_ARG_VALUE;
  }
  *descriptor = (mux_descriptor_info_t){0};
  *mem = NULL;
  size_t offset = 0;
  cl_mem allocation = clx_svm_find(kernel->program->context, value, &offset);
  if (allocation) {
    /* Into a clSVMAlloc allocation: its buffer at the pointer's offset, so
     * the command holds the allocation and bounds checks know its end. */
    descriptor->type = mux_descriptor_info_type_buffer;
    descriptor->buffer_descriptor.buffer = allocation->mux_buffer;
    descriptor->buffer_descriptor.offset = offset;
    *mem = allocation;
  } else if (value) {
    /* Any other host address (fine-grained system SVM), as it is. */
    descriptor->type = mux_descriptor_info_type_plain_old_embedded_data;
    descriptor->plain_old_embedded_data_descriptor.length = sizeof value;
    memcpy(descriptor->plain_old_embedded_data_descriptor.data, &value,
           sizeof value);
  } else {
    descriptor->type = mux_descriptor_info_type_null_buffer;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clx_set_kernel_arg_svm_pointer(cl_kernel kernel,
                                                  cl_uint arg_index,
                                                  const void *arg_value) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  mux_descriptor_info_t descriptor;
  cl_mem mem = NULL;
  cl_int error = clx_kernel_svm_arg_descriptor(kernel, arg_index, arg_value,
                                               &descriptor, &mem);
  if (error != CL_SUCCESS) return error;
  pthread_mutex_lock(&kernel->lock);
  clx_kernel_arg *arg = &kernel->args[arg_index];
  arg->set = true;
  arg->mem = mem;
  arg->descriptor = descriptor;
  pthread_mutex_unlock(&kernel->lock);
  return CL_SUCCESS;
}

cl_int clx_check_exec_info(cl_kernel_exec_info param_name,
                           size_t param_value_size, const void *param_value) {
  switch (param_name) {
    /* Pointers the kernel reaches through other memory: nothing to do
     * when the kernel shares the host's address space. An empty list
     * clears the last one. */
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
      return param_value_size % sizeof(void *) == 0 &&
                     (param_value || param_value_size == 0)
                 ? CL_SUCCESS
                 : CL_INVALID_VALUE;
    /* Fine-grained system SVM is always on. */
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
      return param_value && param_value_size == sizeof(cl_bool)
                 ? CL_SUCCESS
                 : CL_INVALID_VALUE;
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clx_set_kernel_exec_info(cl_kernel kernel,
                                            cl_kernel_exec_info param_name,
                                            size_t param_value_size,
                                            const void *param_value) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  return clx_check_exec_info(param_name, param_value_size, param_value);
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                                  size_t arg_size, const void *arg_value) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  if (arg_index >= kernel->num_args) return CL_INVALID_ARG_INDEX;
  const clx_arg_info *info = &kernel->arg_infos[arg_index];
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
    memcpy(arg->value, arg_value, arg_size);
    arg->descriptor.plain_old_data_descriptor.data = arg->value;
  }
  pthread_mutex_unlock(&kernel->lock);
  return CL_SUCCESS;
}

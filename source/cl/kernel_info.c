/* clmux OpenCL front-end: kernel queries. Built-in kernels answer from
 * their Mux declarations; compiled kernels from the compiler module's
 * kernel table (cc_module_kernel), argument info only when the program
 * was compiled with -cl-kernel-arg-info. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
      return clx_info_string(kernel->name, param_value_size, param_value,
                             param_value_size_ret);
    case CL_KERNEL_NUM_ARGS:
      return clx_info(&kernel->num_args, sizeof kernel->num_args,
                      param_value_size, param_value, param_value_size_ret);
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
    case CL_KERNEL_ATTRIBUTES: {
      const char *attributes =
          kernel->compiled && kernel->compiled->attributes
              ? kernel->compiled->attributes
              : "";
      return clx_info_string(attributes, param_value_size, param_value,
                             param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

/* A compiled kernel's argument in clGetKernelArgInfo's terms. */
static void compiled_arg_info(const cc_module_arg *arg,
                              cl_kernel_arg_address_qualifier *address,
                              cl_kernel_arg_access_qualifier *access,
                              cl_kernel_arg_type_qualifier *qualifiers) {
  static const cl_kernel_arg_address_qualifier addresses[] = {
      [CC_ADDRESS_PRIVATE] = CL_KERNEL_ARG_ADDRESS_PRIVATE,
      [CC_ADDRESS_GLOBAL] = CL_KERNEL_ARG_ADDRESS_GLOBAL,
      [CC_ADDRESS_CONSTANT] = CL_KERNEL_ARG_ADDRESS_CONSTANT,
      [CC_ADDRESS_LOCAL] = CL_KERNEL_ARG_ADDRESS_LOCAL,
  };
  static const cl_kernel_arg_access_qualifier accesses[] = {
      [CC_ACCESS_NONE] = CL_KERNEL_ARG_ACCESS_NONE,
      [CC_ACCESS_READ_ONLY] = CL_KERNEL_ARG_ACCESS_READ_ONLY,
      [CC_ACCESS_WRITE_ONLY] = CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
      [CC_ACCESS_READ_WRITE] = CL_KERNEL_ARG_ACCESS_READ_WRITE,
  };
  *address = addresses[arg->address];
  *access = accesses[arg->access];
  *qualifiers = CL_KERNEL_ARG_TYPE_NONE;
  if (arg->type_qualifiers & CC_TYPE_CONST) {
    *qualifiers |= CL_KERNEL_ARG_TYPE_CONST;
  }
  if (arg->type_qualifiers & CC_TYPE_RESTRICT) {
    *qualifiers |= CL_KERNEL_ARG_TYPE_RESTRICT;
  }
  if (arg->type_qualifiers & CC_TYPE_VOLATILE) {
    *qualifiers |= CL_KERNEL_ARG_TYPE_VOLATILE;
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                      cl_kernel_arg_info param_name,
                                      size_t param_value_size,
                                      void *param_value,
                                      size_t *param_value_size_ret) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  if (arg_indx >= kernel->num_args) return CL_INVALID_ARG_INDEX;
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier qualifiers;
  const char *type_name, *name;
  if (kernel->compiled) {
    if (!kernel->compiled->arg_info) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    const cc_module_arg *arg = &kernel->compiled->args[arg_indx];
    compiled_arg_info(arg, &address, &access, &qualifiers);
    type_name = arg->type_name ? arg->type_name : "";
    name = arg->name ? arg->name : "";
  } else {
    /* Built-in kernels always carry their declarations' argument info. */
    const clx_arg_info *info = &kernel->arg_infos[arg_indx];
    address = info->address;
    access = info->access;
    qualifiers = info->type_qualifier;
    type_name = info->type_name;
    name = info->name;
  }
  switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
      return clx_info(&address, sizeof address, param_value_size, param_value,
                      param_value_size_ret);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
      return clx_info(&access, sizeof access, param_value_size, param_value,
                      param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_NAME:
      return clx_info_string(type_name, param_value_size, param_value,
                             param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
      return clx_info(&qualifiers, sizeof qualifiers, param_value_size,
                      param_value, param_value_size_ret);
    case CL_KERNEL_ARG_NAME:
      return clx_info_string(name, param_value_size, param_value,
                             param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

/* Bytes of local memory a launch needs: the kernel's own __local data and
 * the __local arguments set so far. */
static cl_ulong local_memory_size(cl_kernel kernel) {
  cl_ulong size = atomic_load(&kernel->static_local_size);
  pthread_mutex_lock(&kernel->lock);
  for (cl_uint i = 0; i < kernel->num_args; i++) {
    const clx_kernel_arg *arg = &kernel->args[i];
    if (arg->set && arg->descriptor.type ==
                        mux_descriptor_info_type_shared_local_buffer) {
      size += arg->descriptor.shared_local_buffer_descriptor.size;
    }
  }
  pthread_mutex_unlock(&kernel->lock);
  return size;
}

cl_int clx_kernel_device(cl_kernel kernel, cl_device_id *device) {
  if (!clx_valid(kernel, clx_kind_kernel)) return CL_INVALID_KERNEL;
  cl_program program = kernel->program;
  if (!*device) {
    if (program->num_devices != 1) return CL_INVALID_DEVICE;
    *device = program->devices[0];
  }
  if (!clx_device_valid(*device)) return CL_INVALID_DEVICE;
  bool listed = false;
  for (cl_uint i = 0; i < program->num_devices; i++) {
    listed |= clx_device_within(*device, program->devices[i]);
  }
  return listed ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  cl_int error = clx_kernel_device(kernel, &device);
  if (error != CL_SUCCESS) return error;
  const struct mux_device_info_s *info = device->info;
  size_t work_group_size = info->max_concurrent_work_items;
  switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
      return clx_info(&work_group_size, sizeof work_group_size,
                      param_value_size, param_value, param_value_size_ret);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      size_t reqd[3] = {0, 0, 0}; /* no reqd_work_group_size */
      for (int d = 0; kernel->compiled && d < 3; d++) {
        reqd[d] = kernel->compiled->reqd_work_group_size[d];
      }
      return clx_info(reqd, sizeof reqd, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: {
      cl_ulong size = local_memory_size(kernel);
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
      cl_ulong size = kernel->compiled ? kernel->compiled->private_size : 0;
      return clx_info(&size, sizeof size, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      /* Includes CL_KERNEL_GLOBAL_WORK_SIZE: not a custom device. */
      return CL_INVALID_VALUE;
  }
}

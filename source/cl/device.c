/* clmux OpenCL front-end: the CPU device — which devices a type selects
 * and every CL_DEVICE_* query (sub-devices: device_partition.c). */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

#define KIB 1024u
#define MIB (1024u * 1024u)

/* The device types OpenCL 1.2 defines; any other bit is invalid. */
static const cl_device_type known_types =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
    CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;

static bool type_valid(cl_device_type type) {
  return type == CL_DEVICE_TYPE_ALL ||
         (type != 0 && (type & ~known_types) == 0);
}

/* Every clmux device is a CPU and the default device. */
static bool type_selects_cpu(cl_device_type type) {
  return (type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)) != 0;
}

bool clx_device_valid(cl_device_id device) {
  cl_platform_id platform = clx_platform();
  if (!platform || !clx_valid(device, clx_kind_device)) return false;
  if (device->parent) return true;
  for (cl_uint i = 0; i < platform->num_devices; i++) {
    if (platform->devices[i] == device) return true;
  }
  return false;
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
                                  cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id *devices,
                                  cl_uint *num_devices) {
  /* NULL selects the only platform (implementation-defined in 1.2). */
  if (platform == NULL) platform = clx_platform();
  if (!clx_valid(platform, clx_kind_platform) || platform != clx_platform()) {
    return CL_INVALID_PLATFORM;
  }
  if (!type_valid(device_type)) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices != NULL) ||
      (devices == NULL && num_devices == NULL)) {
    return CL_INVALID_VALUE;
  }
  cl_uint found = type_selects_cpu(device_type) ? platform->num_devices : 0;
  if (num_devices) *num_devices = found;
  if (found == 0) return CL_DEVICE_NOT_FOUND;
  for (cl_uint i = 0; devices && i < found && i < num_entries; i++) {
    devices[i] = platform->devices[i];
  }
  return CL_SUCCESS;
}

/* CL_DEVICE_BUILT_IN_KERNELS: the names of the Mux declarations
 * "name(params);name(params)" joined with ';'. Caller frees. */
static char *builtin_kernel_names(const char *declarations) {
  if (!declarations) declarations = "";
  char *names = malloc(strlen(declarations) + 1);
  if (!names) return NULL;
  char *out = names;
  const char *p = declarations;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ';') p++;
    if (!*p) break;
    const char *name = p;
    while (*p && *p != '(' && *p != ';') p++;
    const char *end = p;
    while (end > name &&
           (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n')) {
      end--;
    }
    if (out != names) *out++ = ';';
    memcpy(out, name, (size_t)(end - name));
    out += end - name;
    /* Skip the parameter list up to the next declaration. */
    while (*p && *p != ';') p++;
  }
  *out = '\0';
  return names;
}

static cl_device_fp_config fp_config(uint32_t capabilities) {
  cl_device_fp_config config = 0;
  if (capabilities & mux_floating_point_capabilities_denorm) {
    config |= CL_FP_DENORM;
  }
  if (capabilities & mux_floating_point_capabilities_inf_nan) {
    config |= CL_FP_INF_NAN;
  }
  if (capabilities & mux_floating_point_capabilities_rte) {
    config |= CL_FP_ROUND_TO_NEAREST;
  }
  if (capabilities & mux_floating_point_capabilities_rtz) {
    config |= CL_FP_ROUND_TO_ZERO;
  }
  const uint32_t to_inf =
      mux_floating_point_capabilities_rtp | mux_floating_point_capabilities_rtn;
  if ((capabilities & to_inf) == to_inf) config |= CL_FP_ROUND_TO_INF;
  if (capabilities & mux_floating_point_capabilities_fma) config |= CL_FP_FMA;
  /* Divide and sqrt are not correctly rounded until the compiler's
   * builtins promise it: CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT stays off. */
  return config;
}

/* Every query's value fits one of these. */
typedef union device_value {
  cl_uint u;
  cl_ulong ul;
  size_t z;
  size_t sizes[3];
  cl_bool b;
  cl_bitfield bits;
  cl_device_id device;
  cl_platform_id platform;
  cl_device_mem_cache_type cache_type;
  cl_device_local_mem_type local_type;
  cl_device_partition_property partition;
} device_value;

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
                                   cl_device_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  if (!clx_device_valid(device)) return CL_INVALID_DEVICE;
  const struct mux_device_info_s *info = device->info;
  device_value v;
  memset(&v, 0, sizeof v);
  size_t size = 0;
  const char *string = NULL;
  const uint32_t native = info->native_vector_width;
  const uint32_t preferred = info->preferred_vector_width;

#define UINT(x) (v.u = (cl_uint)(x), size = sizeof(cl_uint))
#define ULONG(x) (v.ul = (cl_ulong)(x), size = sizeof(cl_ulong))
#define SIZE(x) (v.z = (size_t)(x), size = sizeof(size_t))
#define BOOL(x) (v.b = (x) ? CL_TRUE : CL_FALSE, size = sizeof(cl_bool))
#define BITS(x) (v.bits = (cl_bitfield)(x), size = sizeof(cl_bitfield))

  switch (param_name) {
    /* Identity. */
    case CL_DEVICE_TYPE:
      BITS(CL_DEVICE_TYPE_CPU);
      break;
    case CL_DEVICE_VENDOR_ID:
      UINT(info->khronos_vendor_id);
      break;
    case CL_DEVICE_PLATFORM:
      v.platform = device->platform;
      size = sizeof(cl_platform_id);
      break;
    case CL_DEVICE_NAME:
      string = info->device_name;
      break;
    case CL_DEVICE_VENDOR:
      string = "clmux";
      break;
    case CL_DRIVER_VERSION:
      string = CLX_VERSION_STRING;
      break;
    case CL_DEVICE_PROFILE:
      string = "FULL_PROFILE";
      break;
    case CL_DEVICE_VERSION:
      string = CLX_OPENCL_VERSION_STRING " clmux " CLX_VERSION_STRING;
      break;
    case CL_DEVICE_OPENCL_C_VERSION:
      string = "OpenCL C 1.2 clmux";
      break;
    /* The table of versions.c; the platform reports the same. */
    case CL_DEVICE_EXTENSIONS:
    case CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR:
      return clx_extensions_info(
          param_name == CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, param_value_size,
          param_value, param_value_size_ret);
    case CL_DEVICE_NUMERIC_VERSION_KHR:
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
      UINT(param_name == CL_DEVICE_NUMERIC_VERSION_KHR
               ? CLX_OPENCL_VERSION
               : CL_MAKE_VERSION(1, 2, 0)); /* OpenCL C (the highest
                                                1.x, as 3.0 says) */
      break;
    case CL_DEVICE_IL_VERSION_KHR: /* = CL_DEVICE_IL_VERSION (2.1) */
    case CL_DEVICE_ILS_WITH_VERSION_KHR:
      return clx_ils_info(param_name == CL_DEVICE_ILS_WITH_VERSION_KHR,
                          param_value_size, param_value, param_value_size_ret);
    case CL_DEVICE_AVAILABLE:
      BOOL(true);
      break;
    /* clBuildProgram, clCompileProgram and clLinkProgram run the compiler
     * module (compiler/module/module.h). */
    case CL_DEVICE_COMPILER_AVAILABLE:
      BOOL(true);
      break;
    case CL_DEVICE_LINKER_AVAILABLE:
      BOOL(true);
      break;
    case CL_DEVICE_BUILT_IN_KERNELS:
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION_KHR: {
      char *names = builtin_kernel_names(info->builtin_kernel_declarations);
      if (!names) return CL_OUT_OF_HOST_MEMORY;
      cl_int error = clx_built_in_kernels_info(
          names, param_name == CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION_KHR,
          param_value_size, param_value, param_value_size_ret);
      free(names);
      return error;
    }

    /* Execution. */
    case CL_DEVICE_MAX_COMPUTE_UNITS:
      UINT(info->compute_units);
      break;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
      UINT(info->clock_frequency);
      break;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
      UINT(3);
      break;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      v.sizes[0] = info->max_work_group_size_x;
      v.sizes[1] = info->max_work_group_size_y;
      v.sizes[2] = info->max_work_group_size_z;
      size = sizeof v.sizes;
      break;
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
      SIZE(info->max_concurrent_work_items);
      break;
    case CL_DEVICE_MAX_PARAMETER_SIZE:
      SIZE(1024);
      break;
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      BITS(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL);
      break;
    case CL_DEVICE_QUEUE_PROPERTIES:
      BITS(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
      break;
    /* cl_khr_command_buffer (command_buffer.c): printf works in recorded
     * kernels, a queue of any kind can run a command buffer, and every
     * enqueue runs a copy, so one buffer may be in flight many times. */
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
      BITS(CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
           CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
      break;
    /* cl_khr_command_buffer_mutable_dispatch (mutable_command.c). */
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
      BITS(CLX_MUTABLE_FIELDS);
      break;
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
      BITS(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
      break;
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
      BITS(0);
      break;
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      SIZE(1);
      break;
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
      SIZE(1 * MIB);
      break;
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
      BOOL(true);
      break;

    /* Vector widths: register bytes per element; no half, no double yet. */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
      UINT(preferred / 1);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
      UINT(preferred / 2);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
      UINT(preferred / 4);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
      UINT(preferred / 8);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
      UINT(preferred / 4);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
      UINT(preferred / 8);
      break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
      UINT(preferred / 2);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
      UINT(native / 1);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
      UINT(native / 2);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
      UINT(native / 4);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
      UINT(native / 8);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
      UINT(native / 4);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
      UINT(native / 8);
      break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
      UINT(native / 2);
      break;

    /* Floating point; doubles (cl_khr_fp64) have the full set 1.2 asks
     * of them: FMA, every rounding mode, INF/NaN and denormals. */
    case CL_DEVICE_SINGLE_FP_CONFIG:
      BITS(fp_config(info->float_capabilities));
      break;
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      BITS(fp_config(info->double_capabilities));
      break;
    case CL_DEVICE_HALF_FP_CONFIG: /* cl_khr_fp16 */
      BITS(fp_config(info->half_capabilities));
      break;

    /* Memory. */
    case CL_DEVICE_ADDRESS_BITS:
      UINT(64);
      break;
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
      ULONG(info->allocation_size);
      break;
    case CL_DEVICE_GLOBAL_MEM_SIZE:
      ULONG(info->memory_size);
      break;
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
      UINT(info->buffer_alignment * 8u);
      break;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
      UINT(128);
      break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      v.cache_type = CL_READ_WRITE_CACHE;
      size = sizeof(cl_device_mem_cache_type);
      break;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
      UINT(info->cacheline_size);
      break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
      ULONG(info->cache_size);
      break;
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      ULONG(64 * KIB);
      break;
    case CL_DEVICE_MAX_CONSTANT_ARGS:
      UINT(8);
      break;
    /* Local memory is ordinary host memory on a CPU. */
    case CL_DEVICE_LOCAL_MEM_TYPE:
      v.local_type = CL_GLOBAL;
      size = sizeof(cl_device_local_mem_type);
      break;
    case CL_DEVICE_LOCAL_MEM_SIZE:
      ULONG(info->shared_local_memory_size);
      break;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
      BOOL(false);
      break;
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
      BOOL(true);
      break;
    case CL_DEVICE_ENDIAN_LITTLE:
      BOOL(info->endianness == mux_endianness_little);
      break;

    /* Images. */
    case CL_DEVICE_IMAGE_SUPPORT:
      BOOL(info->image_support);
      break;
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
      UINT(info->max_sampled_images);
      break;
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
      UINT(info->max_storage_images);
      break;
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
      SIZE(info->max_image_dimension_2d);
      break;
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
      SIZE(info->max_image_dimension_3d);
      break;
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
      SIZE(info->max_image_dimension_1d);
      break;
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
      SIZE(info->max_image_array_layers);
      break;
    case CL_DEVICE_MAX_SAMPLERS:
      UINT(info->max_samplers);
      break;

    case CL_DEVICE_PARENT_DEVICE:
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    case CL_DEVICE_PARTITION_TYPE:
    case CL_DEVICE_REFERENCE_COUNT:
      return clx_device_partition_info(device, param_name, param_value_size,
                                       param_value, param_value_size_ret);

    case CL_DEVICE_UUID_KHR:
    case CL_DRIVER_UUID_KHR:
    case CL_DEVICE_LUID_VALID_KHR:
    case CL_DEVICE_LUID_KHR:
    case CL_DEVICE_NODE_MASK_KHR:
      return clx_device_uuid_info(device, param_name, param_value_size,
                                  param_value, param_value_size_ret);

    default: /* OpenCL 2.0 to 3.0's, or none */
      return clx_device_later_info(device, param_name, param_value_size,
                                   param_value, param_value_size_ret);
  }
#undef UINT
#undef ULONG
#undef SIZE
#undef BOOL
#undef BITS

  if (string) {
    return clx_info_string(string, param_value_size, param_value,
                           param_value_size_ret);
  }
  return clx_info(&v, size, param_value_size, param_value,
                  param_value_size_ret);
}

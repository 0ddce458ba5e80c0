/* clmux OpenCL front-end: the device queries of OpenCL 2.0 to 3.0, as a
 * 3.0 device answers them with the optional features clmux has: every
 * kind of SVM (svm.c), sub-groups (kernel_sub_groups.c), program-scope
 * global variables (program_globals.c), read-write images, non-uniform
 * work-groups, work-group collective functions
 * (compiler/builtins/work_group), the generic address space, C11-style
 * atomics of every order and scope (compiler/builtins/c11_atomics) and the
 * OpenCL C 3.0 features the compiler defines (frontend.h); and without
 * those it lacks: no pipes, no device-side queues. */
#include <stdio.h>
#include <string.h>

#include "clx.h"
#include "frontend.h"

/* What the CPU's memory gives every atomic operation and fence: all orders
 * (x86-64's locked instructions are sequentially consistent) at every
 * scope (coherent caches). */
#define ATOMIC_ORDERS                                                \
  (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | \
   CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
#define ATOMIC_SCOPES                                                  \
  (CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE | \
   CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)

static cl_int opencl_c_versions(size_t param_value_size, void *param_value,
                                size_t *param_value_size_ret) {
  static const cl_version versions[] = {
      CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
      CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)};
  cl_name_version list[sizeof versions / sizeof *versions];
  memset(list, 0, sizeof list);
  for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
    list[i].version = versions[i];
    snprintf(list[i].name, sizeof list[i].name, "OpenCL C");
  }
  return clx_info(list, sizeof list, param_value_size, param_value,
                  param_value_size_ret);
}

static cl_int opencl_c_features(size_t param_value_size, void *param_value,
                                size_t *param_value_size_ret) {
  cl_name_version list[16];
  memset(list, 0, sizeof list);
  size_t count = cc_opencl_c_feature_count;
  if (count > sizeof list / sizeof *list) return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < count; i++) {
    list[i].version = CL_MAKE_VERSION(3, 0, 0);
    snprintf(list[i].name, sizeof list[i].name, "%s", cc_opencl_c_features[i]);
  }
  return clx_info(list, count * sizeof *list, param_value_size, param_value,
                  param_value_size_ret);
}

cl_int clx_device_later_info(cl_device_id device, cl_device_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret) {
  union {
    cl_uint u;
    cl_bool b;
    cl_bitfield bits;
    size_t z;
  } v;
  memset(&v, 0, sizeof v);
  size_t size = 0;
  const char *string = NULL;
  switch (param_name) {
    /* Features clmux does not have: zero, false, none. */
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
      size = sizeof(cl_uint);
      break;

    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_PIPE_SUPPORT:
      size = sizeof(cl_bool);
      break;
    /* What it has. */
    /* Sub-groups (the vectorizer's lanes, kernel_sub_groups.c): as many as
     * a group has work-items, in a group one item wide. They run one
     * after another on a group's thread, and take turns where one may
     * wait for another (compiler/codegen/progress.c, the CPU target's
     * sub_group_turns.c). */
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      v.b = CL_TRUE;
      size = sizeof(cl_bool);
      break;
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
      v.u = device->info->max_sub_group_count;
      size = sizeof(cl_uint);
      break;
    /* Program-scope variables live in a block of host memory per program
     * (program_globals.c), bounded by memory alone: the 64 KiB per
     * variable OpenCL 3.0 asks for at least is a promise kept. */
    /* cl_khr_image2d_from_buffer: any whole number of pixels per row, and
     * a buffer's bytes anywhere (the image code reads unaligned pixels). */
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
      v.u = 1;
      size = sizeof(cl_uint);
      break;
    /* Read-write images: as many as read-only ones (image_read.cl and
     * image_write.cl have their reads and writes). */
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
      return clGetDeviceInfo(device, CL_DEVICE_MAX_READ_IMAGE_ARGS,
                             param_value_size, param_value,
                             param_value_size_ret);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      v.z = 64 * 1024;
      size = sizeof(size_t);
      break;
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: /* work_group */
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: /* generic_calls.c */
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: /* enqueue_kernel.c */
      v.b = CL_TRUE;
      size = sizeof(cl_bool);
      break;
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES,
                             param_value_size, param_value,
                             param_value_size_ret);
    /* Kernels run in the application's address space on its CPU: any
     * host memory is fine-grained SVM, with atomics coherent with the
     * host's. */
    case CL_DEVICE_SVM_CAPABILITIES:
      v.bits = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
               CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
               CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
      v.bits = ATOMIC_ORDERS | ATOMIC_SCOPES;
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      v.bits = ATOMIC_ORDERS | ATOMIC_SCOPES | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      /* What kernels report (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE):
       * one vector register of floats. */
      v.z = device->info->native_vector_width / sizeof(cl_float);
      if (v.z == 0) v.z = 1;
      size = sizeof(size_t);
      break;
    /* cl_khr_integer_dot_product: both input kinds; plain integer code,
     * so no form is said to be faster than the same arithmetic by hand. */
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
      v.bits = CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
               CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR;
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
      cl_device_integer_dot_product_acceleration_properties_khr none;
      memset(&none, 0, sizeof none);
      return clx_info(&none, sizeof none, param_value_size, param_value,
                      param_value_size_ret);
    }
    /* cl_ext_float_atomics: every operation on every type, in both
     * address spaces (compare-and-exchange loops; loads and stores of
     * float and double are OpenCL C 3.0's own). */
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
      v.bits = CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT |
               CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
               CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
               CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
               CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT |
               CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
      size = sizeof(cl_bitfield);
      break;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
      return opencl_c_versions(param_value_size, param_value,
                               param_value_size_ret);
    case CL_DEVICE_OPENCL_C_FEATURES:
      return opencl_c_features(param_value_size, param_value,
                               param_value_size_ret);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      string = "v0000-01-01-00"; /* no official submission */
      break;
    default:
      return CL_INVALID_VALUE;
  }
  if (string) {
    return clx_info_string(string, param_value_size, param_value,
                           param_value_size_ret);
  }
  return clx_info(&v, size, param_value_size, param_value,
                  param_value_size_ret);
}

/* clmux: clGetDeviceIDs, clGetDeviceInfo, clCreateSubDevices and device
 * retain/release through the ICD loader — every CL_DEVICE_* query with its
 * exact size, too-small buffers, unknown parameters, the full-profile
 * minimums, the device type rules and the sub-device errors; the versions
 * of cl_khr_extended_versioning against the strings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cl_test.h"
/* After cl_test.h, which picks the OpenCL version. */
#include <CL/cl_ext.h>

static cl_device_id device;

/* Size of every fixed-size query; 0 marks a string (strlen + 1). */
static const struct {
  cl_device_info param;
  size_t size;
  const char *name;
} queries[] = {
#define Q(param, size) \
  { param, size, #param }
    Q(CL_DEVICE_TYPE, sizeof(cl_device_type)),
    Q(CL_DEVICE_VENDOR_ID, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t)),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)),
    Q(CL_DEVICE_ADDRESS_BITS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_MAX_SAMPLERS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(cl_uint)),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_HALF_FP_CONFIG, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type)),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool)),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t)),
    Q(CL_DEVICE_ENDIAN_LITTLE, sizeof(cl_bool)),
    Q(CL_DEVICE_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_COMPILER_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_LINKER_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(cl_device_exec_capabilities)),
    Q(CL_DEVICE_QUEUE_PROPERTIES, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_PLATFORM, sizeof(cl_platform_id)),
    Q(CL_DEVICE_NAME, 0),
    Q(CL_DEVICE_VENDOR, 0),
    Q(CL_DRIVER_VERSION, 0),
    Q(CL_DEVICE_PROFILE, 0),
    Q(CL_DEVICE_VERSION, 0),
    Q(CL_DEVICE_OPENCL_C_VERSION, 0),
    Q(CL_DEVICE_EXTENSIONS, 0),
    Q(CL_DEVICE_BUILT_IN_KERNELS, 0),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof(cl_bool)),
    Q(CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(cl_uint)),
    /* (CL_DEVICE_PARTITION_PROPERTIES, a list: cl_device_partition) */
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(cl_device_affinity_domain)),
    Q(CL_DEVICE_REFERENCE_COUNT, sizeof(cl_uint)),
#undef Q
};

/* Every query: the size-only call, the exact-size call (filling the whole
 * buffer), too small a buffer, and without size_ret. */
static void check_all_queries(void) {
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
    size_t size = 0;
    cl_int error = clGetDeviceInfo(device, queries[i].param, 0, NULL, &size);
    if (error != CL_SUCCESS) {
      fprintf(stderr, "%s: error %d\n", queries[i].name, error);
    }
    CHECK_CL_SUCCESS(error);
    if (queries[i].size) {
      if (size != queries[i].size) {
        fprintf(stderr, "%s: size %zu\n", queries[i].name, size);
      }
      CHECK_INT(queries[i].size, size);
    }
    unsigned char value[4096];
    if (size == 0 || size > sizeof value) {
      CHECK(!"bad size");
      continue;
    }
    memset(value, 0xa5, sizeof value);
    size_t size_ret = 0;
    CHECK_CL_SUCCESS(
        clGetDeviceInfo(device, queries[i].param, size, value, &size_ret));
    CHECK_INT(size, size_ret);
    CHECK(value[size] == 0xa5); /* nothing written past the value */
    if (queries[i].size == 0) CHECK_INT(size, strlen((char *)value) + 1);
    CHECK_CL_SUCCESS(
        clGetDeviceInfo(device, queries[i].param, sizeof value, value, NULL));
    CHECK_CL(CL_INVALID_VALUE,
             clGetDeviceInfo(device, queries[i].param, size - 1, value, NULL));
  }
}

static cl_uint info_uint(cl_device_info param) {
  cl_uint value = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static cl_ulong info_ulong(cl_device_info param) {
  cl_ulong value = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static size_t info_size(cl_device_info param) {
  size_t value = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static cl_bool info_bool(cl_device_info param) {
  cl_bool value = 7;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static cl_bitfield info_bits(cl_device_info param) {
  cl_bitfield value = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value, &value, NULL));
  return value;
}

static const char *info_string(cl_device_info param) {
  static char value[4][4096];
  static int next;
  char *out = value[next++ % 4];
  out[0] = '\0';
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, param, sizeof value[0], out, NULL));
  return out;
}

static void check_values(cl_platform_id platform) {
  CHECK_INT(CL_DEVICE_TYPE_CPU, info_bits(CL_DEVICE_TYPE));
  CHECK(info_uint(CL_DEVICE_VENDOR_ID) != 0);
  CHECK(info_uint(CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  CHECK_INT(3, info_uint(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS));
  size_t sizes[3] = {0};
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                   sizeof sizes, sizes, NULL));
  size_t group = info_size(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  CHECK(group >= 1);
  for (int d = 0; d < 3; d++) CHECK(sizes[d] >= 1 && sizes[d] <= group);

  /* Vector widths follow the element size; doubles (cl_khr_fp64) and
   * halves (cl_khr_fp16) too. */
  cl_uint pchar = info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR);
  CHECK(pchar >= 1);
  CHECK_INT(pchar / 2, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT));
  CHECK_INT(pchar / 4, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT));
  CHECK_INT(pchar / 8, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG));
  CHECK_INT(pchar / 4, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
  CHECK_INT(pchar / 8, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE));
  CHECK_INT(pchar / 2, info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF));
  cl_uint nchar = info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR);
  CHECK(nchar >= 1);
  CHECK_INT(nchar / 2, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT));
  CHECK_INT(nchar / 4, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT));
  CHECK_INT(nchar / 8, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG));
  CHECK_INT(nchar / 4, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
  CHECK_INT(nchar / 8, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE));
  CHECK_INT(nchar / 2, info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF));

  CHECK(info_uint(CL_DEVICE_MAX_CLOCK_FREQUENCY) >= 1);
  CHECK_INT(64, info_uint(CL_DEVICE_ADDRESS_BITS));

  /* Memory minimums (full profile). */
  cl_ulong global = info_ulong(CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong alloc = info_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CHECK(alloc >= 128u * 1024 * 1024);
  CHECK(alloc >= global / 4 && alloc <= global);
  cl_uint align = info_uint(CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  CHECK(align >= 8 * 128 && align % 8 == 0); /* bits, >= a long16 */
  CHECK_INT(128, info_uint(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE));
  CHECK_INT(CL_READ_WRITE_CACHE, info_uint(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE));
  CHECK(info_uint(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE) >= 1);
  info_ulong(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  CHECK(info_ulong(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
  CHECK(info_uint(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  CHECK_INT(CL_GLOBAL, info_uint(CL_DEVICE_LOCAL_MEM_TYPE));
  CHECK(info_ulong(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
  CHECK_INT(CL_FALSE, info_bool(CL_DEVICE_ERROR_CORRECTION_SUPPORT));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_HOST_UNIFIED_MEMORY));
  CHECK(info_size(CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
  CHECK(info_size(CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);

  /* Images (full profile minimums). */
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_IMAGE_SUPPORT));
  CHECK(info_uint(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CHECK(info_uint(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 8);
  CHECK(info_size(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 8192);
  CHECK(info_size(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 8192);
  CHECK(info_size(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  CHECK(info_size(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CHECK(info_size(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CHECK(info_size(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CHECK(info_size(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  CHECK(info_uint(CL_DEVICE_MAX_SAMPLERS) >= 16);

  /* Floating point. */
  cl_bitfield single = info_bits(CL_DEVICE_SINGLE_FP_CONFIG);
  CHECK((single & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
        (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
  CHECK((single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) == 0);
  CHECK((single & CL_FP_SOFT_FLOAT) == 0);
  /* cl_khr_fp64 requires at least these of doubles (1.2 section 4.2). */
  const cl_bitfield double_minimum = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
                                     CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                     CL_FP_INF_NAN | CL_FP_DENORM;
  CHECK_INT(double_minimum,
            info_bits(CL_DEVICE_DOUBLE_FP_CONFIG) & double_minimum);
  CHECK(info_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) >= 1);
  CHECK(info_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) >= 1);
  /* cl_khr_fp16: to nearest with infinities and NaNs at least; clmux has
   * denormals and a correctly rounded fma too. */
  const cl_device_fp_config half_expected =
      CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA;
  CHECK_INT(half_expected,
            info_bits(CL_DEVICE_HALF_FP_CONFIG) & half_expected);

  /* Capabilities. */
  CHECK(info_size(CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1);
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_ENDIAN_LITTLE));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_AVAILABLE));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_COMPILER_AVAILABLE));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_LINKER_AVAILABLE));
  CHECK_INT(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL,
            info_bits(CL_DEVICE_EXECUTION_CAPABILITIES));
  CHECK_INT(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
            info_bits(CL_DEVICE_QUEUE_PROPERTIES));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC));
  cl_platform_id device_platform = NULL;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_PLATFORM,
                                   sizeof device_platform, &device_platform,
                                   NULL));
  CHECK(device_platform == platform);

  /* Strings. */
  CHECK(strlen(info_string(CL_DEVICE_NAME)) > 0);
  CHECK(strcmp(info_string(CL_DEVICE_VENDOR), "clmux") == 0);
  CHECK(strcmp(info_string(CL_DRIVER_VERSION), "0.1.0") == 0);
  CHECK(strcmp(info_string(CL_DEVICE_PROFILE), "FULL_PROFILE") == 0);
  const char *version = info_string(CL_DEVICE_VERSION);
  CHECK(strncmp(version, "OpenCL 3.0 ", 11) == 0 && version[11] != '\0');
  CHECK(strcmp(version, "OpenCL 3.0 clmux 0.1.0") == 0);
  const char *c_version = info_string(CL_DEVICE_OPENCL_C_VERSION);
  CHECK(strncmp(c_version, "OpenCL C 1.2 ", 13) == 0 && c_version[13] != 0);
  /* Platform extensions are a subset of the device's. */
  const char *extensions = info_string(CL_DEVICE_EXTENSIONS);
  char platform_extensions[1024] = {0};
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS,
                                     sizeof platform_extensions,
                                     platform_extensions, NULL));
  char *save = NULL;
  for (char *word = strtok_r(platform_extensions, " ", &save); word;
       word = strtok_r(NULL, " ", &save)) {
    CHECK(strstr(extensions, word) != NULL);
  }
  /* The extensions OpenCL C 1.2 requires of every device. */
  static const char *const required[] = {
      "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
      "cl_khr_byte_addressable_store"};
  for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
    CHECK(strstr(extensions, required[i]) != NULL);
  }
  CHECK(strstr(extensions, "cl_khr_fp64") != NULL);
  CHECK(strstr(extensions, "cl_khr_3d_image_writes") != NULL);
  CHECK(strstr(extensions, "cl_khr_fp16") != NULL);
  /* Built-in kernels: names only, ';'-separated. */
  const char *kernels = info_string(CL_DEVICE_BUILT_IN_KERNELS);
  CHECK(strstr(kernels, "copy_buffer") == kernels);
  CHECK(strstr(kernels, "vector_add") != NULL);
  CHECK(strstr(kernels, ";empty") != NULL);
  CHECK(strchr(kernels, '(') == NULL && strchr(kernels, ' ') == NULL);
  size_t length = strlen(kernels);
  CHECK(length > 0 && kernels[length - 1] != ';');

  /* A root device (partitions: cl_device_partition). */
  cl_device_id parent = device;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE,
                                   sizeof parent, &parent, NULL));
  CHECK(parent == NULL);
  cl_device_partition_property partition[4] = {7, 7, 7, 7};
  size_t size = 99;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE,
                                   sizeof partition, partition, &size));
  CHECK_INT(0, size);
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size));
  CHECK_INT(1, info_uint(CL_DEVICE_REFERENCE_COUNT));
}

/* Each name of a space- or ';'-separated `names` is in `list` once, and
 * the list has nothing else. */
static bool same_names(const char *names, const cl_name_version_khr *list,
                       size_t count) {
  size_t found = 0;
  for (const char *p = names; *p;) {
    size_t length = strcspn(p, " ;");
    if (length) {
      size_t matches = 0;
      for (size_t i = 0; i < count; i++) {
        matches += strlen(list[i].name) == length &&
                   strncmp(list[i].name, p, length) == 0;
      }
      if (matches != 1) return false;
      found++;
    }
    p += length + (p[length] != '\0');
  }
  return found == count;
}

static cl_version_khr version_of(const cl_name_version_khr *list, size_t count,
                                 const char *name) {
  for (size_t i = 0; i < count; i++) {
    if (strcmp(list[i].name, name) == 0) return list[i].version;
  }
  return 0;
}

static void check_extended_versioning(cl_platform_id platform) {
  cl_version_khr version = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_NUMERIC_VERSION_KHR,
                                   sizeof version, &version, NULL));
  CHECK(version == CL_MAKE_VERSION_KHR(3, 0, 0));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR,
                                   sizeof version, &version, NULL));
  CHECK(version == CL_MAKE_VERSION_KHR(1, 2, 0));
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION_KHR,
                                     sizeof version, &version, NULL));
  CHECK(version == CL_MAKE_VERSION_KHR(3, 0, 0));

  static char names[2048];
  static cl_name_version_khr list[64];
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof names, names, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(
      device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, sizeof list, list, &size));
  size_t count = size / sizeof list[0];
  CHECK(size % sizeof list[0] == 0 && count > 10);
  CHECK(same_names(names, list, count));
  CHECK(version_of(list, count, "cl_khr_command_buffer") ==
        CL_MAKE_VERSION_KHR(0, 9, 8));
  CHECK(version_of(list, count, "cl_khr_command_buffer_mutable_dispatch") ==
        CL_MAKE_VERSION_KHR(0, 9, 5));
  CHECK(version_of(list, count, "cl_khr_extended_versioning") ==
        CL_MAKE_VERSION_KHR(1, 0, 0));
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS,
                                     sizeof names, names, NULL));
  CHECK_CL_SUCCESS(clGetPlatformInfo(platform,
                                     CL_PLATFORM_EXTENSIONS_WITH_VERSION_KHR,
                                     sizeof list, list, &size));
  CHECK(same_names(names, list, size / sizeof list[0]));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR,
                           sizeof list[0], list, NULL));

  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS,
                                   sizeof names, names, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION_KHR,
                                   sizeof list, list, &size));
  CHECK(size > 0 && same_names(names, list, size / sizeof list[0]));
  /* The SPIR-V versions (cl_il_program checks them) as in the string. */
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION_KHR,
                                   sizeof names, names, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION_KHR,
                                   sizeof list, list, &size));
  CHECK(size > 0);
  for (size_t i = 0; i < size / sizeof list[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "SPIR-V_%u.%u",
             CL_VERSION_MAJOR_KHR(list[i].version),
             CL_VERSION_MINOR_KHR(list[i].version));
    CHECK(strcmp(list[i].name, "SPIR-V") == 0 && strstr(names, name));
  }
}

static void check_info_errors(void) {
  cl_uint value = 0;
  size_t size = 0;
  /* Unknown parameters. */
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, 0, sizeof value, &value, &size));
  CHECK_CL(CL_INVALID_VALUE, clGetDeviceInfo(device, CL_PLATFORM_NAME,
                                             sizeof value, &value, &size));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, 0x1032 /* 2.0 queue on device */,
                           sizeof value, &value, &size));
  CHECK_CL(CL_INVALID_VALUE, clGetDeviceInfo(device, 0x1033 /* half config */,
                                             sizeof value, &value, &size));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, 0x7fffffff, sizeof value, &value, &size));
  /* Too small a buffer (0 with a buffer). */
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, 0, &value, NULL));
  cl_uint small = 0;
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof small,
                           &small, NULL));
  /* Neither value nor size: nothing to do, still fine. */
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, 0, NULL, NULL));
}

static void check_device_ids(cl_platform_id platform) {
  cl_uint count = 0;
  cl_device_id found = NULL;
  const cl_device_type selecting[] = {
      CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU,
      CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR};
  for (size_t i = 0; i < sizeof selecting / sizeof selecting[0]; i++) {
    count = 0;
    found = NULL;
    CHECK_CL_SUCCESS(clGetDeviceIDs(platform, selecting[i], 1, &found, &count));
    CHECK_INT(1, count);
    CHECK(found == device);
  }
  /* Only the count, only the devices. */
  CHECK_CL_SUCCESS(
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &count));
  CHECK_INT(1, count);
  cl_device_id two[2] = {NULL, (cl_device_id)&count};
  CHECK_CL_SUCCESS(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 2, two, NULL));
  CHECK(two[0] == device);
  CHECK(two[1] == (cl_device_id)&count); /* untouched past num_devices */

  /* Types with no device. */
  const cl_device_type missing[] = {
      CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM,
      CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    count = 7;
    CHECK_CL(CL_DEVICE_NOT_FOUND,
             clGetDeviceIDs(platform, missing[i], 1, &found, &count));
    CHECK_INT(0, count);
    CHECK_CL(CL_DEVICE_NOT_FOUND,
             clGetDeviceIDs(platform, missing[i], 0, NULL, &count));
  }

  /* Invalid types and arguments. */
  CHECK_CL(CL_INVALID_DEVICE_TYPE,
           clGetDeviceIDs(platform, 0, 1, &found, &count));
  CHECK_CL(
      CL_INVALID_DEVICE_TYPE,
      clGetDeviceIDs(platform, (cl_device_type)1 << 40, 1, &found, &count));
  CHECK_CL(CL_INVALID_DEVICE_TYPE,
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | ((cl_ulong)1 << 20), 1,
                          &found, &count));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, &found, &count));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, NULL, NULL));
}

/* Malformed partition requests (the valid ones: cl_device_partition). */
static void check_sub_devices(void) {
  const cl_device_partition_property bogus[] = {0x4242, 1, 0};
  const cl_device_partition_property empty[] = {0};
  const cl_device_partition_property *all[] = {bogus, empty};
  cl_device_id out[4] = {NULL};
  cl_uint count = 0;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    count = 99;
    CHECK_CL(CL_INVALID_VALUE,
             clCreateSubDevices(device, all[i], 4, out, &count));
    CHECK_CL(CL_INVALID_VALUE,
             clCreateSubDevices(device, all[i], 0, NULL, &count));
  }
  CHECK(out[0] == NULL);
  CHECK_CL(CL_INVALID_VALUE, clCreateSubDevices(device, NULL, 4, out, NULL));
}

static void check_retain_release(void) {
  for (int i = 0; i < 3; i++) CHECK_CL_SUCCESS(clRetainDevice(device));
  for (int i = 0; i < 5; i++) CHECK_CL_SUCCESS(clReleaseDevice(device));
  /* Root devices are not counted: still 1 and still usable. */
  CHECK_INT(1, info_uint(CL_DEVICE_REFERENCE_COUNT));
  CHECK_INT(CL_TRUE, info_bool(CL_DEVICE_AVAILABLE));
}

/* Handles of another kind (the loader dispatches them to clmux). */
static void check_wrong_handles(void) {
  cl_context context = cl_test_context(device);
  cl_device_id not_device = (cl_device_id)context;
  cl_uint value = 0;
  CHECK_CL(CL_INVALID_DEVICE, clGetDeviceInfo(not_device, CL_DEVICE_VENDOR_ID,
                                              sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_DEVICE, clRetainDevice(not_device));
  CHECK_CL(CL_INVALID_DEVICE, clReleaseDevice(not_device));
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  CHECK_CL(CL_INVALID_DEVICE,
           clCreateSubDevices(not_device, equally, 0, NULL, &value));
  cl_device_id found = NULL;
  CHECK_CL(CL_INVALID_PLATFORM,
           clGetDeviceIDs((cl_platform_id)context, CL_DEVICE_TYPE_CPU, 1,
                          &found, NULL));
  CHECK_CL_SUCCESS(clReleaseContext(context));
}

int main(void) {
  cl_platform_id platform = cl_test_platform();
  device = cl_test_device();
  check_all_queries();
  check_values(platform);
  check_extended_versioning(platform);
  check_info_errors();
  check_device_ids(platform);
  check_sub_devices();
  check_retain_release();
  check_wrong_handles();
  return check_finish();
}

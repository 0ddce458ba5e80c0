/* clmux — the ComputeMux (Mux) runtime API, version 0.81.0.
 *
 * Names, types and signatures follow ../shared/spec/mux-runtime-spec.rst.
 * Where the specification leaves a value open (enum numbering, fields it
 * mentions without defining) the choice made here is documented beside it.
 * The header is self-contained C11 and usable from C++. */
#ifndef MUX_MUX_H_INCLUDED
#define MUX_MUX_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUX_MAJOR_VERSION 0
#define MUX_MINOR_VERSION 81
#define MUX_PATCH_VERSION 0
#define MUX_VERSION                                                         \
  (((uint32_t)MUX_MAJOR_VERSION << 22) | ((uint32_t)MUX_MINOR_VERSION << 12) | \
   (uint32_t)MUX_PATCH_VERSION)

/* ---- Scalar types and handles ------------------------------------------ */

typedef int32_t mux_result_t;
/* Object ids: the upper 16 bits name the object kind (mux_object_id_e), the
 * lower 16 bits the target that owns it. A destroyed object has id 0. */
typedef uint32_t mux_id_t;
typedef uint32_t mux_command_id_t;

typedef struct mux_device_info_s *mux_device_info_t;
typedef struct mux_device_s *mux_device_t;
typedef struct mux_memory_s *mux_memory_t;
typedef struct mux_buffer_s *mux_buffer_t;
typedef struct mux_image_s *mux_image_t;
typedef struct mux_sampler_s mux_sampler_t;
typedef struct mux_queue_s *mux_queue_t;
typedef struct mux_command_buffer_s *mux_command_buffer_t;
typedef struct mux_semaphore_s *mux_semaphore_t;
typedef struct mux_fence_s *mux_fence_t;
typedef struct mux_sync_point_s *mux_sync_point_t;
typedef struct mux_executable_s *mux_executable_t;
typedef struct mux_kernel_s *mux_kernel_t;
typedef struct mux_query_pool_s *mux_query_pool_t;
typedef struct mux_query_counter_s mux_query_counter_t;
typedef struct mux_query_counter_description_s mux_query_counter_description_t;
typedef struct mux_query_counter_config_s mux_query_counter_config_t;
typedef struct mux_query_duration_result_s *mux_query_duration_result_t;
typedef struct mux_query_counter_result_s *mux_query_counter_result_t;
typedef struct mux_allocator_info_s mux_allocator_info_t;
/* The spec's muxDestroyExecutable spells its allocator type this way. */
typedef mux_allocator_info_t mux_allocator_t;
typedef struct mux_callback_info_s *mux_callback_info_t;
typedef struct mux_descriptor_info_s mux_descriptor_info_t;
typedef struct mux_buffer_region_info_s mux_buffer_region_info_t;
typedef struct mux_ndrange_options_s mux_ndrange_options_t;
typedef struct mux_offset_3d_s mux_offset_3d_t;
typedef struct mux_extent_3d_s mux_extent_3d_t;
typedef struct mux_extent_2d_s mux_extent_2d_t;

/* ---- Enumerations ------------------------------------------------------- */

enum mux_result_e {
  mux_success = 0,
  mux_error_failure = 1,
  mux_error_null_out_parameter = 2,
  mux_error_invalid_value = 3,
  mux_error_out_of_memory = 4,
  mux_error_null_allocator_callback = 5,
  mux_error_device_entry_hook_failed = 6,
  mux_error_invalid_binary = 7,
  mux_error_feature_unsupported = 8,
  mux_error_missing_kernel = 9,
  mux_error_internal = 10,
  mux_error_fence_failure = 11,
  mux_fence_not_ready = 12
};

enum mux_object_id_e {
  mux_object_id_buffer = (1 << 16),
  mux_object_id_command_buffer = (2 << 16),
  mux_object_id_device = (3 << 16),
  mux_object_id_executable = (4 << 16),
  mux_object_id_image = (5 << 16),
  mux_object_id_kernel = (6 << 16),
  mux_object_id_memory = (7 << 16),
  mux_object_id_queue = (8 << 16),
  mux_object_id_sampler = (9 << 16),
  mux_object_id_semaphore = (10 << 16),
  mux_object_id_query_pool = (11 << 16),
  mux_object_id_sync_point = (12 << 16),
  mux_object_id_fence = (13 << 16),
  mux_object_id_mask = (int)0xffff0000u
};

enum mux_device_type_e {
  mux_device_type_cpu = (0x1 << 0),
  mux_device_type_gpu_integrated = (0x1 << 1),
  mux_device_type_gpu_discrete = (0x1 << 2),
  mux_device_type_gpu_virtual = (0x1 << 3),
  mux_device_type_accelerator = (0x1 << 4),
  mux_device_type_custom = (0x1 << 5),
  mux_device_type_compiler = (0x1 << 6),
  mux_device_type_all = (int)0xFFFFFFFFu
};

/* Contiguous from zero up to mux_queue_type_total (arrays are indexed by it). */
typedef enum mux_queue_type_e {
  mux_queue_type_compute = 0,
  mux_queue_type_total = 1
} mux_queue_type_e;

typedef enum mux_allocation_type_e {
  mux_allocation_type_alloc_host = 0,
  mux_allocation_type_alloc_device = 1
} mux_allocation_type_e;

enum mux_allocation_capabilities_e {
  mux_allocation_capabilities_coherent_host = 0x1 << 0,
  mux_allocation_capabilities_cached_host = 0x1 << 1,
  mux_allocation_capabilities_alloc_device = 0x1 << 2
};

typedef enum mux_memory_property_e {
  mux_memory_property_device_local = (0x1 << 1),
  mux_memory_property_host_visible = (0x1 << 2),
  mux_memory_property_host_coherent = (0x1 << 3),
  mux_memory_property_host_cached = (0x1 << 4),
  mux_memory_property_all = (0x1e)
} mux_memory_property_e;

enum mux_source_capabilities_e {
  mux_source_capabilities_builtin_kernel = 0x1
};

enum mux_address_type_e {
  mux_address_type_logical = 0,
  mux_address_type_bits32 = 1,
  mux_address_type_bits64 = 2
};

enum mux_address_capabilities_e {
  mux_address_capabilities_logical = 0x1 << mux_address_type_logical,
  mux_address_capabilities_bits32 = 0x1 << mux_address_type_bits32,
  mux_address_capabilities_bits64 = 0x1 << mux_address_type_bits64
};

enum mux_atomic_capabilities_e {
  mux_atomic_capabilities_8bit = 0x1,
  mux_atomic_capabilities_16bit = 0x2,
  mux_atomic_capabilities_32bit = 0x4,
  mux_atomic_capabilities_64bit = 0x8,
  mux_atomic_capabilities_128bit = 0x10
};

enum mux_cache_capabilities_e {
  mux_cache_capabilities_read = 0x1,
  mux_cache_capabilities_write = 0x2
};

enum mux_floating_point_capabilities_e {
  mux_floating_point_capabilities_denorm = 0x1,
  mux_floating_point_capabilities_inf_nan = 0x2,
  mux_floating_point_capabilities_rte = 0x4,
  mux_floating_point_capabilities_rtz = 0x8,
  mux_floating_point_capabilities_rtp = 0x10,
  mux_floating_point_capabilities_rtn = 0x20,
  mux_floating_point_capabilities_fma = 0x40,
  mux_floating_point_capabilities_soft = 0x80,
  mux_floating_point_capabilities_full = 0x100
};

enum mux_integer_capabilities_e {
  mux_integer_capabilities_8bit = 0x1,
  mux_integer_capabilities_16bit = 0x2,
  mux_integer_capabilities_32bit = 0x4,
  mux_integer_capabilities_64bit = 0x8
};

enum mux_custom_buffer_capabilities_e {
  mux_custom_buffer_capabilities_data = 0x1,
  mux_custom_buffer_capabilities_address_space = 0x2
};

enum mux_endianness_e {
  mux_endianness_little = 0x1,
  mux_endianness_big = 0x2
};

enum mux_shared_local_memory_type_e {
  mux_shared_local_memory_physical = 0,
  mux_shared_local_memory_virtual = 1
};

enum mux_descriptor_info_type_e {
  mux_descriptor_info_type_buffer = 0,
  mux_descriptor_info_type_image = 1,
  mux_descriptor_info_type_sampler = 2,
  mux_descriptor_info_type_plain_old_data = 3,
  mux_descriptor_info_type_shared_local_buffer = 4,
  mux_descriptor_info_type_null_buffer = 5,
  mux_descriptor_info_type_custom_buffer = 6,
  mux_descriptor_info_type_plain_old_embedded_data = 7
};

typedef enum mux_image_type_e {
  mux_image_type_1d = 0,
  mux_image_type_2d = 1,
  mux_image_type_3d = 2,
  mux_image_type_force_size = 0x7fffffff
} mux_image_type_e;

typedef enum mux_image_tiling_e {
  mux_image_tiling_linear = 0,
  mux_image_tiling_optimal = 1
} mux_image_tiling_e;

/* An image format is its OpenCL channel order (low 16 bits) and channel
 * type (high 16 bits), so the OpenCL layer converts without a table. The
 * named values cover every order/type pair OpenCL 1.2 defines that a CPU
 * stores naturally; MUX_IMAGE_FORMAT builds any of them. */
#define MUX_IMAGE_FORMAT(order, type) \
  ((mux_image_format_e)((uint32_t)(order) | ((uint32_t)(type) << 16)))
#define MUX_IMAGE_FORMAT_ORDER(format) ((uint32_t)(format) & 0xffffu)
#define MUX_IMAGE_FORMAT_TYPE(format) ((uint32_t)(format) >> 16)

/* OpenCL channel orders (cl.h values). */
#define MUX_ORDER_R 0x10B0
#define MUX_ORDER_A 0x10B1
#define MUX_ORDER_RG 0x10B2
#define MUX_ORDER_RA 0x10B3
#define MUX_ORDER_RGB 0x10B4
#define MUX_ORDER_RGBA 0x10B5
#define MUX_ORDER_BGRA 0x10B6
#define MUX_ORDER_ARGB 0x10B7
#define MUX_ORDER_INTENSITY 0x10B8
#define MUX_ORDER_LUMINANCE 0x10B9
#define MUX_ORDER_Rx 0x10BA
#define MUX_ORDER_RGx 0x10BB
#define MUX_ORDER_RGBx 0x10BC
/* OpenCL 2.0's: depth (cl_khr_depth_images), sRGB-encoded colour (the
 * alpha linear) and ABGR. */
#define MUX_ORDER_DEPTH 0x10BD
#define MUX_ORDER_sRGBx 0x10C0
#define MUX_ORDER_sRGBA 0x10C1
#define MUX_ORDER_sBGRA 0x10C2
#define MUX_ORDER_ABGR 0x10C3
/* OpenCL channel types (cl.h values). */
#define MUX_TYPE_SNORM_INT8 0x10D0
#define MUX_TYPE_SNORM_INT16 0x10D1
#define MUX_TYPE_UNORM_INT8 0x10D2
#define MUX_TYPE_UNORM_INT16 0x10D3
#define MUX_TYPE_UNORM_SHORT_565 0x10D4
#define MUX_TYPE_UNORM_SHORT_555 0x10D5
#define MUX_TYPE_UNORM_INT_101010 0x10D6
#define MUX_TYPE_SIGNED_INT8 0x10D7
#define MUX_TYPE_SIGNED_INT16 0x10D8
#define MUX_TYPE_SIGNED_INT32 0x10D9
#define MUX_TYPE_UNSIGNED_INT8 0x10DA
#define MUX_TYPE_UNSIGNED_INT16 0x10DB
#define MUX_TYPE_UNSIGNED_INT32 0x10DC
#define MUX_TYPE_HALF_FLOAT 0x10DD
#define MUX_TYPE_FLOAT 0x10DE

typedef enum mux_image_format_e {
  mux_image_format_R8_snorm = MUX_ORDER_R | (MUX_TYPE_SNORM_INT8 << 16),
  mux_image_format_R16_snorm = MUX_ORDER_R | (MUX_TYPE_SNORM_INT16 << 16),
  mux_image_format_R8_unorm = MUX_ORDER_R | (MUX_TYPE_UNORM_INT8 << 16),
  mux_image_format_R16_unorm = MUX_ORDER_R | (MUX_TYPE_UNORM_INT16 << 16),
  mux_image_format_R8_sint = MUX_ORDER_R | (MUX_TYPE_SIGNED_INT8 << 16),
  mux_image_format_R16_sint = MUX_ORDER_R | (MUX_TYPE_SIGNED_INT16 << 16),
  mux_image_format_R32_sint = MUX_ORDER_R | (MUX_TYPE_SIGNED_INT32 << 16),
  mux_image_format_R8_uint = MUX_ORDER_R | (MUX_TYPE_UNSIGNED_INT8 << 16),
  mux_image_format_R16_uint = MUX_ORDER_R | (MUX_TYPE_UNSIGNED_INT16 << 16),
  mux_image_format_R32_uint = MUX_ORDER_R | (MUX_TYPE_UNSIGNED_INT32 << 16),
  mux_image_format_R16_sfloat = MUX_ORDER_R | (MUX_TYPE_HALF_FLOAT << 16),
  mux_image_format_R32_sfloat = MUX_ORDER_R | (MUX_TYPE_FLOAT << 16),
  mux_image_format_R8G8_unorm = MUX_ORDER_RG | (MUX_TYPE_UNORM_INT8 << 16),
  mux_image_format_R16G16_unorm = MUX_ORDER_RG | (MUX_TYPE_UNORM_INT16 << 16),
  mux_image_format_R32G32_sfloat = MUX_ORDER_RG | (MUX_TYPE_FLOAT << 16),
  mux_image_format_R8G8B8A8_snorm = MUX_ORDER_RGBA | (MUX_TYPE_SNORM_INT8 << 16),
  mux_image_format_R16G16B16A16_snorm =
      MUX_ORDER_RGBA | (MUX_TYPE_SNORM_INT16 << 16),
  mux_image_format_R8G8B8A8_unorm = MUX_ORDER_RGBA | (MUX_TYPE_UNORM_INT8 << 16),
  mux_image_format_R16G16B16A16_unorm =
      MUX_ORDER_RGBA | (MUX_TYPE_UNORM_INT16 << 16),
  mux_image_format_R8G8B8A8_sint = MUX_ORDER_RGBA | (MUX_TYPE_SIGNED_INT8 << 16),
  mux_image_format_R16G16B16A16_sint =
      MUX_ORDER_RGBA | (MUX_TYPE_SIGNED_INT16 << 16),
  mux_image_format_R32G32B32A32_sint =
      MUX_ORDER_RGBA | (MUX_TYPE_SIGNED_INT32 << 16),
  mux_image_format_R8G8B8A8_uint =
      MUX_ORDER_RGBA | (MUX_TYPE_UNSIGNED_INT8 << 16),
  mux_image_format_R16G16B16A16_uint =
      MUX_ORDER_RGBA | (MUX_TYPE_UNSIGNED_INT16 << 16),
  mux_image_format_R32G32B32A32_uint =
      MUX_ORDER_RGBA | (MUX_TYPE_UNSIGNED_INT32 << 16),
  mux_image_format_R16G16B16A16_sfloat =
      MUX_ORDER_RGBA | (MUX_TYPE_HALF_FLOAT << 16),
  mux_image_format_R32G32B32A32_sfloat = MUX_ORDER_RGBA | (MUX_TYPE_FLOAT << 16),
  mux_image_format_B8G8R8A8_unorm = MUX_ORDER_BGRA | (MUX_TYPE_UNORM_INT8 << 16),
  mux_image_format_force_size = 0x7fffffff
} mux_image_format_e;

typedef enum mux_address_mode_e {
  mux_address_mode_none = 0,
  mux_address_mode_repeat = 1,
  mux_address_mode_repeat_mirror = 2,
  mux_address_mode_clamp = 3,
  mux_address_mode_clamp_edge = 4
} mux_address_mode_e;

typedef enum mux_filter_mode_e {
  mux_filter_mode_nearest = 0,
  mux_filter_mode_linear = 1
} mux_filter_mode_e;

typedef enum mux_query_type_e {
  mux_query_type_duration = 0,
  mux_query_type_counter = 1
} mux_query_type_e;

typedef enum mux_query_counter_storage_e {
  mux_query_counter_storage_int32 = 0,
  mux_query_counter_storage_int64 = 1,
  mux_query_counter_storage_uint32 = 2,
  mux_query_counter_storage_uint64 = 3,
  mux_query_counter_storage_float32 = 4,
  mux_query_counter_storage_float64 = 5
} mux_query_counter_storage_e;

typedef enum mux_query_counter_unit_e {
  mux_query_counter_unit_generic = 0,
  mux_query_counter_unit_percentage = 1,
  mux_query_counter_unit_nanoseconds = 2,
  mux_query_counter_unit_bytes = 3,
  mux_query_counter_unit_bytes_per_second = 4,
  mux_query_counter_unit_kelvin = 5,
  mux_query_counter_unit_watts = 6,
  mux_query_counter_unit_volts = 7,
  mux_query_counter_unit_amps = 8,
  mux_query_counter_unit_hertz = 9,
  mux_query_counter_unit_cycles = 10
} mux_query_counter_unit_e;

typedef enum mux_wfv_status_e {
  mux_wfv_status_none = 0,
  mux_wfv_status_error = 1,
  mux_wfv_status_success = 2
} mux_wfv_status_e;

/* ---- Structures --------------------------------------------------------- */

struct mux_allocator_info_s {
  void *(*alloc)(void *user_data, size_t size, size_t alignment);
  void (*free)(void *user_data, void *pointer);
  void *user_data;
};

struct mux_callback_info_s {
  void (*callback)(void *user_data, const char *message, const void *data,
                   size_t data_size);
  void *user_data;
};

struct mux_device_info_s {
  mux_id_t id;
  uint32_t allocation_capabilities;
  uint32_t source_capabilities;
  uint32_t address_capabilities;
  uint32_t atomic_capabilities;
  uint32_t cache_capabilities;
  uint32_t half_capabilities;
  uint32_t float_capabilities;
  uint32_t double_capabilities;
  uint32_t integer_capabilities;
  uint32_t custom_buffer_capabilities;
  uint32_t endianness;
  uint32_t khronos_vendor_id;
  uint32_t shared_local_memory_type;
  uint32_t device_type;
  const char *builtin_kernel_declarations;
  const char *device_name;
  uint32_t max_concurrent_work_items;
  uint32_t max_work_group_size_x;
  uint32_t max_work_group_size_y;
  uint32_t max_work_group_size_z;
  uint32_t max_work_width;
  uint32_t clock_frequency;
  uint32_t compute_units;
  uint32_t buffer_alignment;
  uint64_t memory_size;
  uint64_t allocation_size;
  uint64_t cache_size;
  uint64_t cacheline_size;
  uint64_t shared_local_memory_size;
  uint32_t native_vector_width;
  uint32_t preferred_vector_width;
  bool image_support;
  bool image2d_array_writes;
  bool image3d_writes;
  uint32_t max_image_dimension_1d;
  uint32_t max_image_dimension_2d;
  uint32_t max_image_dimension_3d;
  uint32_t max_image_array_layers;
  uint32_t max_storage_images;
  uint32_t max_sampled_images;
  uint32_t max_samplers;
  uint32_t queue_types[mux_queue_type_total];
  int8_t device_priority;
  bool query_counter_support;
  bool descriptors_updatable;
  bool can_clone_command_buffers;
  bool supports_builtin_kernels;
  uint32_t max_sub_group_count;
  bool sub_groups_support_ifp;
  uint32_t max_hardware_counters;
  bool supports_work_group_collectives;
  bool supports_generic_address_space;
};

struct mux_device_s {
  mux_id_t id;
  mux_device_info_t info;
};

typedef struct mux_memory_requirements_s {
  uint64_t size;
  uint32_t alignment;
  /* Bitfield of heaps that can back the object; bit 0 is always usable. */
  uint32_t supported_heaps;
} mux_memory_requirements_s;

struct mux_memory_s {
  mux_id_t id;
  uint64_t size;
  uint32_t properties;
  /* For host-visible memory: the host address of byte 0. */
  uint64_t handle;
};

struct mux_buffer_s {
  mux_id_t id;
  mux_memory_requirements_s memory_requirements;
};

struct mux_offset_3d_s {
  uint32_t x;
  uint32_t y;
  uint32_t z;
};

struct mux_extent_3d_s {
  size_t x;
  size_t y;
  size_t z;
};

struct mux_extent_2d_s {
  size_t x;
  size_t y;
};

struct mux_image_s {
  mux_id_t id;
  mux_memory_requirements_s memory_requirements;
  mux_image_type_e type;
  mux_image_format_e format;
  uint32_t pixel_size;
  mux_extent_3d_t size;
  uint32_t array_layers;
  uint64_t row_size;
  uint64_t slice_size;
  mux_image_tiling_e tiling;
};

/* Samplers are values: the spec has no sampler create/destroy entry points. */
struct mux_sampler_s {
  mux_address_mode_e address_mode;
  mux_filter_mode_e filter_mode;
  bool normalize_coords;
};

struct mux_queue_s {
  mux_id_t id;
  mux_device_t device;
};

struct mux_semaphore_s {
  mux_id_t id;
  mux_device_t device;
};

struct mux_fence_s {
  mux_id_t id;
  mux_device_t device;
};

struct mux_sync_point_s {
  mux_id_t id;
  mux_command_buffer_t command_buffer;
};

struct mux_executable_s {
  mux_id_t id;
  mux_device_t device;
};

struct mux_kernel_s {
  mux_id_t id;
  mux_device_t device;
  size_t preferred_local_size_x;
  size_t preferred_local_size_y;
  size_t preferred_local_size_z;
  size_t local_memory_size;
  size_t max_sub_group_count;
};

struct mux_command_buffer_s {
  mux_id_t id;
  mux_device_t device;
};

struct mux_query_pool_s {
  mux_id_t id;
  mux_query_type_e type;
  uint32_t count;
};

struct mux_query_counter_s {
  mux_query_counter_unit_e unit;
  mux_query_counter_storage_e storage;
  uint32_t uuid;
  uint32_t hardware_counters;
};

struct mux_query_counter_description_s {
  char name[256];
  char category[256];
  char description[256];
};

struct mux_query_counter_config_s {
  uint32_t uuid;
  void *data;
};

struct mux_query_duration_result_s {
  uint64_t start;
  uint64_t end;
};

struct mux_query_counter_result_s {
  union {
    int32_t int32;
    int64_t int64;
    uint32_t uint32;
    uint64_t uint64;
    float float32;
    double float64;
  };
};

struct mux_descriptor_info_buffer_s {
  mux_buffer_t buffer;
  uint64_t offset;
};

struct mux_descriptor_info_image_s {
  mux_image_t image;
};

struct mux_descriptor_info_sampler_s {
  mux_sampler_t sampler;
};

struct mux_descriptor_info_plain_old_data_s {
  const void *data;
  size_t length;
};

struct mux_descriptor_info_plain_old_embedded_data_s {
  size_t length;
  char data[16];
};

struct mux_descriptor_info_shared_local_buffer_s {
  size_t size;
};

struct mux_descriptor_info_custom_buffer_s {
  void *data;
  size_t size;
  uint32_t address_space;
};

struct mux_descriptor_info_s {
  uint32_t type;
  union {
    struct mux_descriptor_info_buffer_s buffer_descriptor;
    struct mux_descriptor_info_image_s image_descriptor;
    struct mux_descriptor_info_sampler_s sampler_descriptor;
    struct mux_descriptor_info_plain_old_data_s plain_old_data_descriptor;
    struct mux_descriptor_info_plain_old_embedded_data_s
        plain_old_embedded_data_descriptor;
    struct mux_descriptor_info_shared_local_buffer_s
        shared_local_buffer_descriptor;
    struct mux_descriptor_info_custom_buffer_s custom_buffer_descriptor;
  };
};

/* A rectangular copy: region and origins in bytes (x) and rows/slices (y, z);
 * desc.x is the row pitch, desc.y the slice pitch of each side. */
struct mux_buffer_region_info_s {
  mux_extent_3d_t region;
  mux_extent_3d_t src_origin;
  mux_extent_3d_t dst_origin;
  mux_extent_2d_t src_desc;
  mux_extent_2d_t dst_desc;
};

struct mux_ndrange_options_s {
  mux_descriptor_info_t *descriptors;
  uint64_t descriptors_length;
  size_t local_size[3];
  const size_t *global_offset;
  const size_t *global_size;
  /* The number of dimensions of global_offset and global_size (1..3). */
  size_t length;
};

typedef void (*mux_command_user_callback_t)(mux_queue_t queue,
                                            mux_command_buffer_t command_buffer,
                                            void *const user_data);

typedef void (*mux_dispatch_callback_t)(mux_command_buffer_t command_buffer,
                                        mux_result_t error,
                                        void *const user_data);

/* ---- Devices ------------------------------------------------------------ */

mux_result_t muxGetDeviceInfos(uint32_t device_types,
                               uint64_t device_infos_length,
                               mux_device_info_t *out_device_infos,
                               uint64_t *out_device_infos_length);
mux_result_t muxCreateDevices(uint64_t devices_length,
                              mux_device_info_t *device_infos,
                              mux_allocator_info_t allocator_info,
                              mux_device_t *out_devices);
void muxDestroyDevice(mux_device_t device, mux_allocator_info_t allocator_info);

/* ---- Executables and kernels -------------------------------------------- */

mux_result_t muxCreateExecutable(mux_device_t device, const void *binary,
                                 uint64_t binary_length,
                                 mux_allocator_info_t allocator_info,
                                 mux_executable_t *out_executable);
void muxDestroyExecutable(mux_device_t device, mux_executable_t executable,
                          mux_allocator_info_t allocator_info);
mux_result_t muxCreateKernel(mux_device_t device, mux_executable_t executable,
                             const char *name, uint64_t name_length,
                             mux_allocator_info_t allocator_info,
                             mux_kernel_t *out_kernel);
mux_result_t muxCreateBuiltInKernel(mux_device_t device, const char *name,
                                    uint64_t name_length,
                                    mux_allocator_info_t allocator_info,
                                    mux_kernel_t *out_kernel);
mux_result_t muxQuerySubGroupSizeForLocalSize(mux_kernel_t kernel,
                                              size_t local_size_x,
                                              size_t local_size_y,
                                              size_t local_size_z,
                                              size_t *out_sub_group_size);
mux_result_t muxQueryLocalSizeForSubGroupCount(mux_kernel_t kernel,
                                               size_t sub_group_count,
                                               size_t *out_local_size_x,
                                               size_t *out_local_size_y,
                                               size_t *out_local_size_z);
mux_result_t muxQueryWFVInfoForLocalSize(
    mux_kernel_t kernel, size_t local_size_x, size_t local_size_y,
    size_t local_size_z, mux_wfv_status_e *out_wfv_status,
    size_t *out_work_width_x, size_t *out_work_width_y,
    size_t *out_work_width_z);
void muxDestroyKernel(mux_device_t device, mux_kernel_t kernel,
                      mux_allocator_info_t allocator_info);

/* ---- Memory, buffers and images ----------------------------------------- */

mux_result_t muxAllocateMemory(mux_device_t device, size_t size, uint32_t heap,
                               uint32_t memory_properties,
                               mux_allocation_type_e allocation_type,
                               uint32_t alignment,
                               mux_allocator_info_t allocator_info,
                               mux_memory_t *out_memory);
mux_result_t muxCreateMemoryFromHost(mux_device_t device, size_t size,
                                     void *host_pointer,
                                     mux_allocator_info_t allocator_info,
                                     mux_memory_t *out_memory);
void muxFreeMemory(mux_device_t device, mux_memory_t memory,
                   mux_allocator_info_t allocator_info);
mux_result_t muxMapMemory(mux_device_t device, mux_memory_t memory,
                          uint64_t offset, uint64_t size, void **out_data);
mux_result_t muxFlushMappedMemoryToDevice(mux_device_t device,
                                          mux_memory_t memory, uint64_t offset,
                                          uint64_t size);
mux_result_t muxFlushMappedMemoryFromDevice(mux_device_t device,
                                            mux_memory_t memory,
                                            uint64_t offset, uint64_t size);
mux_result_t muxUnmapMemory(mux_device_t device, mux_memory_t memory);

mux_result_t muxCreateBuffer(mux_device_t device, size_t size,
                             mux_allocator_info_t allocator_info,
                             mux_buffer_t *out_buffer);
void muxDestroyBuffer(mux_device_t device, mux_buffer_t buffer,
                      mux_allocator_info_t allocator_info);
mux_result_t muxBindBufferMemory(mux_device_t device, mux_memory_t memory,
                                 mux_buffer_t buffer, uint64_t offset);

mux_result_t muxCreateImage(mux_device_t device, mux_image_type_e type,
                            mux_image_format_e format, uint32_t width,
                            uint32_t height, uint32_t depth,
                            uint32_t array_layers, uint64_t row_size,
                            uint64_t slice_size,
                            mux_allocator_info_t allocator_info,
                            mux_image_t *out_image);
void muxDestroyImage(mux_device_t device, mux_image_t image,
                     mux_allocator_info_t allocator_info);
mux_result_t muxBindImageMemory(mux_device_t device, mux_memory_t memory,
                                mux_image_t image, uint64_t offset);
mux_result_t muxGetSupportedImageFormats(mux_device_t device,
                                         mux_image_type_e image_type,
                                         mux_allocation_type_e allocation_type,
                                         uint32_t count,
                                         mux_image_format_e *out_formats,
                                         uint32_t *out_count);

/* ---- Queries ------------------------------------------------------------ */

mux_result_t muxCreateQueryPool(
    mux_queue_t queue, mux_query_type_e query_type, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    mux_allocator_info_t allocator_info, mux_query_pool_t *out_query_pool);
void muxDestroyQueryPool(mux_queue_t queue, mux_query_pool_t query_pool,
                         mux_allocator_info_t allocator_info);
mux_result_t muxGetQueryPoolResults(mux_queue_t queue,
                                    mux_query_pool_t query_pool,
                                    uint32_t query_index, uint32_t query_count,
                                    size_t size, void *data, size_t stride);
mux_result_t muxGetSupportedQueryCounters(
    mux_device_t device, mux_queue_type_e queue_type, uint32_t count,
    mux_query_counter_t *out_counters,
    mux_query_counter_description_t *out_descriptions, uint32_t *out_count);
mux_result_t muxGetQueryCounterRequiredPasses(
    mux_queue_t queue, uint32_t query_count,
    const mux_query_counter_config_t *query_counter_configs,
    uint32_t *out_pass_count);

/* ---- Command buffers ---------------------------------------------------- */

mux_result_t muxCreateCommandBuffer(mux_device_t device,
                                    mux_callback_info_t callback_info,
                                    mux_allocator_info_t allocator_info,
                                    mux_command_buffer_t *out_command_buffer);
mux_result_t muxFinalizeCommandBuffer(mux_command_buffer_t command_buffer);
mux_result_t muxCloneCommandBuffer(mux_device_t device,
                                   mux_allocator_info_t allocator_info,
                                   mux_command_buffer_t command_buffer,
                                   mux_command_buffer_t *out_command_buffer);
void muxDestroyCommandBuffer(mux_device_t device,
                             mux_command_buffer_t command_buffer,
                             mux_allocator_info_t allocator_info);
mux_result_t muxResetCommandBuffer(mux_command_buffer_t command_buffer);

mux_result_t muxCommandReadBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  void *host_pointer, uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point);
mux_result_t muxCommandReadBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);
mux_result_t muxCommandWriteBuffer(mux_command_buffer_t command_buffer,
                                   mux_buffer_t buffer, uint64_t offset,
                                   const void *host_pointer, uint64_t size,
                                   uint32_t num_sync_points_in_wait_list,
                                   const mux_sync_point_t *sync_point_wait_list,
                                   mux_sync_point_t *sync_point);
mux_result_t muxCommandWriteBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t buffer,
    void *host_pointer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);
mux_result_t muxCommandCopyBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t src_buffer, uint64_t src_offset,
                                  mux_buffer_t dst_buffer, uint64_t dst_offset,
                                  uint64_t size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point);
mux_result_t muxCommandCopyBufferRegions(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_buffer_t dst_buffer, mux_buffer_region_info_t *regions,
    uint64_t regions_length, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);
mux_result_t muxCommandFillBuffer(mux_command_buffer_t command_buffer,
                                  mux_buffer_t buffer, uint64_t offset,
                                  uint64_t size, const void *pattern_pointer,
                                  uint64_t pattern_size,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point);
mux_result_t muxCommandReadImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent, uint64_t row_size,
                                 uint64_t slice_size, void *pointer,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point);
mux_result_t muxCommandWriteImage(mux_command_buffer_t command_buffer,
                                  mux_image_t image, mux_offset_3d_t offset,
                                  mux_extent_3d_t extent, uint64_t row_size,
                                  uint64_t slice_size, const void *pointer,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point);
mux_result_t muxCommandFillImage(mux_command_buffer_t command_buffer,
                                 mux_image_t image, const void *color,
                                 uint32_t color_size, mux_offset_3d_t offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point);
mux_result_t muxCommandCopyImage(mux_command_buffer_t command_buffer,
                                 mux_image_t src_image, mux_image_t dst_image,
                                 mux_offset_3d_t src_offset,
                                 mux_offset_3d_t dst_offset,
                                 mux_extent_3d_t extent,
                                 uint32_t num_sync_points_in_wait_list,
                                 const mux_sync_point_t *sync_point_wait_list,
                                 mux_sync_point_t *sync_point);
mux_result_t muxCommandCopyImageToBuffer(
    mux_command_buffer_t command_buffer, mux_image_t src_image,
    mux_buffer_t dst_buffer, mux_offset_3d_t src_offset, uint64_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);
mux_result_t muxCommandCopyBufferToImage(
    mux_command_buffer_t command_buffer, mux_buffer_t src_buffer,
    mux_image_t dst_image, uint32_t src_offset, mux_offset_3d_t dst_offset,
    mux_extent_3d_t extent, uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);
mux_result_t muxCommandNDRange(mux_command_buffer_t command_buffer,
                               mux_kernel_t kernel,
                               mux_ndrange_options_t options,
                               uint32_t num_sync_points_in_wait_list,
                               const mux_sync_point_t *sync_point_wait_list,
                               mux_sync_point_t *sync_point);
mux_result_t muxUpdateDescriptors(mux_command_buffer_t command_buffer,
                                  mux_command_id_t command_id,
                                  uint64_t num_args, uint64_t *arg_indices,
                                  mux_descriptor_info_t *descriptors);
mux_result_t muxCommandUserCallback(mux_command_buffer_t command_buffer,
                                    mux_command_user_callback_t user_function,
                                    void *user_data,
                                    uint32_t num_sync_points_in_wait_list,
                                    const mux_sync_point_t *sync_point_wait_list,
                                    mux_sync_point_t *sync_point);
mux_result_t muxCommandBeginQuery(mux_command_buffer_t command_buffer,
                                  mux_query_pool_t query_pool,
                                  uint32_t query_index, uint32_t query_count,
                                  uint32_t num_sync_points_in_wait_list,
                                  const mux_sync_point_t *sync_point_wait_list,
                                  mux_sync_point_t *sync_point);
mux_result_t muxCommandEndQuery(mux_command_buffer_t command_buffer,
                                mux_query_pool_t query_pool,
                                uint32_t query_index, uint32_t query_count,
                                uint32_t num_sync_points_in_wait_list,
                                const mux_sync_point_t *sync_point_wait_list,
                                mux_sync_point_t *sync_point);
mux_result_t muxCommandResetQueryPool(
    mux_command_buffer_t command_buffer, mux_query_pool_t query_pool,
    uint32_t query_index, uint32_t query_count,
    uint32_t num_sync_points_in_wait_list,
    const mux_sync_point_t *sync_point_wait_list, mux_sync_point_t *sync_point);

/* ---- Fences, semaphores and queues -------------------------------------- */

mux_result_t muxCreateFence(mux_device_t device,
                            mux_allocator_info_t allocator_info,
                            mux_fence_t *out_fence);
void muxDestroyFence(mux_device_t device, mux_fence_t fence,
                     mux_allocator_info_t allocator_info);
mux_result_t muxResetFence(mux_fence_t fence);

mux_result_t muxCreateSemaphore(mux_device_t device,
                                mux_allocator_info_t allocator_info,
                                mux_semaphore_t *out_semaphore);
void muxDestroySemaphore(mux_device_t device, mux_semaphore_t semaphore,
                         mux_allocator_info_t allocator_info);
mux_result_t muxResetSemaphore(mux_semaphore_t semaphore);

mux_result_t muxGetQueue(mux_device_t device, mux_queue_type_e queue_type,
                         uint32_t queue_index, mux_queue_t *out_queue);
mux_result_t muxDispatch(mux_queue_t queue, mux_command_buffer_t command_buffer,
                         mux_fence_t fence, mux_semaphore_t *wait_semaphores,
                         uint32_t wait_semaphores_length,
                         mux_semaphore_t *signal_semaphores,
                         uint32_t signal_semaphores_length,
                         void (*user_function)(mux_command_buffer_t command_buffer,
                                               mux_result_t error,
                                               void *const user_data),
                         void *user_data);
/* timeout in nanoseconds; UINT64_MAX waits without limit. */
mux_result_t muxTryWait(mux_queue_t queue, uint64_t timeout, mux_fence_t fence);
mux_result_t muxWait(mux_queue_t queue, mux_fence_t fence);
mux_result_t muxWaitAll(mux_queue_t queue);

#ifdef __cplusplus
}
#endif

#endif /* MUX_MUX_H_INCLUDED */

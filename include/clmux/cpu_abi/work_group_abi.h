/* clmux CPU target — the work-group function ABI.
 *
 * This is the contract between the CPU target and whatever produces kernel
 * code: the built-in kernels in C and the OpenCL C compiler. One
 * call of a work-group function runs one whole work-group: every work-item
 * of it, in whatever order and vector width the code chooses, honouring
 * barriers internally. A kernel flagged CPU_BINARY_KERNEL_MERGES_GROUPS
 * (binary_format.h) may instead get a row of consecutive groups in x as one
 * call: local_size[0] counts the row's items, group_id[0] is the row's
 * first group and global_offset[0] is the row's first global x id.
 * Only a kernel compiled for any local size (binary_format.h's required
 * local size all 0) may run a non-uniform NDRange: its edge groups are
 * smaller (cpu_work_group's enqueued_local_size).
 *
 * Arguments: the target packs the NDRange's descriptors, in order, into one
 * argument block. Each argument starts at the next offset aligned to
 * cpu_arg_alignment(its size):
 *   buffer              void *  (memory + bind offset + descriptor offset)
 *   null buffer         void *  (NULL)
 *   shared local buffer void *  (into the worker's local memory)
 *   image               const cpu_image_view * (below)
 *   sampler             uint64_t (cpu_sampler_bits below; pointer-sized,
 *                       as OpenCL C passes sampler_t as a pointer)
 *   plain old data,
 *   embedded data       the bytes themselves
 *   custom buffer       void *  (the descriptor's data pointer)
 * Local memory: the kernel's static __local data occupies the first
 * mux_kernel_s::local_memory_size bytes of wg->local_memory (rounded up to
 * CPU_LOCAL_ALIGN); each shared-local-buffer argument follows, each rounded
 * up to CPU_LOCAL_ALIGN. */
#ifndef CLMUX_CPU_WORK_GROUP_ABI_H
#define CLMUX_CPU_WORK_GROUP_ABI_H

#include <stddef.h>
#include <stdint.h>

#define CPU_ARG_BLOCK_ALIGN 128u
#define CPU_LOCAL_ALIGN 128u

/* Largest local size per dimension and per work-group: no call runs more
 * work-items (OpenCL reports it; compiled code may count them in 32 bits
 * and below). */
#define CPU_MAX_WORK_GROUP_SIZE 1024u

/* Natural alignment of an argument of `size` bytes: the next power of two,
 * at most 128 (a double16). Structs get at least their natural alignment. */
static inline size_t cpu_arg_alignment(size_t size) {
  size_t align = 1;
  while (align < size && align < CPU_ARG_BLOCK_ALIGN) align <<= 1;
  return align;
}

/* The state of one work-group call; the function must not keep the pointer
 * past its return. Sizes are in work-items, ids are group ids. */
typedef struct cpu_work_group {
  uint64_t group_id[3];
  uint64_t num_groups[3];
  uint64_t global_offset[3];
  uint64_t global_size[3];
  uint32_t local_size[3];
  uint32_t work_dim;
  uint8_t *local_memory; /* this worker's local memory, CPU_LOCAL_ALIGN'd */
  uint8_t *scratch;      /* per-work-item storage across barriers */
  /* Where this group's address spaces lie: local memory is
   * local_memory_size bytes from local_memory; private memory is the
   * scratch_size bytes from scratch and the thread's stack up to
   * stack_end (CPU_ADDRESS_SPACE_SYMBOL knows those of the others). */
  uint64_t local_memory_size;
  uint64_t scratch_size;
  uint8_t *stack_end;
  /* The NDRange's local size. In a non-uniform NDRange a group at its
   * end in some dimension has fewer work-items there: local_size is
   * then that group's own, and group g starts at global id
   * global_offset + g * enqueued_local_size. */
  uint32_t enqueued_local_size[3];
  /* Which code of a CPU_BINARY_KERNEL_SCALAR_VARIANT kernel runs: 0 its
   * work-items in vectors, 1 one at a time; others ignore it. */
  uint32_t variant;
  /* Every slot's scratch of the NDRange (CPU_ADDRESS_SPACE_SYMBOL reads
   * it; kernels do not). */
  uint8_t *scratch_block;
  uint64_t scratch_block_size;
} cpu_work_group;

typedef void (*cpu_work_group_fn)(const uint8_t *args,
                                  const cpu_work_group *wg);

/* Sub-groups that make independent forward progress. A kernel with a
 * loop where one sub-group may wait for another (an atomic, a fence or a
 * volatile access in it) calls CPU_PAUSE_SYMBOL in that loop, and its
 * work-group function runs each region's sub-groups through
 *   CPU_SUB_GROUPS_SYMBOL(args, wg, count, run)
 * which calls run(args, wg', k) for k = 0 .. count-1, the sub-groups in
 * order, each to its end or its next barrier. When a pause point has
 * been reached often enough, the caller's other sub-groups get their
 * turn, each on a stack of its own (wg' is then a copy of wg with that
 * stack's stack_end). */
/* The generic address space's to_global, to_local, to_private and
 * get_fence call CPU_ADDRESS_SPACE_SYMBOL(pointer, wg), which says where
 * the pointer lies: in the local memory of any work-group, in private
 * memory (any group's scratch, any kernel thread's stack), or else in
 * global memory. */
#define CPU_ADDRESS_SPACE_SYMBOL "__clmux_address_space"
enum cpu_address_space {
  cpu_address_global = 0,
  cpu_address_local = 1,
  cpu_address_private = 2
};

#define CPU_SUB_GROUPS_SYMBOL "__clmux_sub_groups"
#define CPU_PAUSE_SYMBOL "__clmux_sub_group_pause"
typedef void (*cpu_sub_group_fn)(const uint8_t *args, const cpu_work_group *wg,
                                 uint64_t k);

/* What a kernel sees of an image argument, read by the builtin library's
 * image functions (compiler/builtins/image/, which mirrors this layout):
 * pixel (x, y, z) is at data + x * pixel_size + y * row_pitch +
 * z * slice_pitch, the layers of a 1D array in y, of a 2D array in z. */
typedef struct cpu_image_view {
  uint8_t *data;
  uint64_t row_pitch;   /* bytes */
  uint64_t slice_pitch; /* bytes */
  uint32_t width;       /* pixels; height and depth are 1 where the type */
  uint32_t height;      /* has none */
  uint32_t depth;
  uint32_t array_size;    /* layers of an array image, else 0 */
  uint32_t channel_order; /* CL_R, CL_RGBA, ... (cl.h values) */
  uint32_t channel_type;  /* CL_UNORM_INT8, CL_FLOAT, ... */
  uint32_t pixel_size;    /* bytes */
  uint32_t dimensions;    /* 1, 2 or 3 (arrays: of one layer) */
} cpu_image_view;

/* The fields of a view that say how its pixels are stored: code may be
 * built for one such format (channel_order 0: for none). */
typedef struct cpu_image_format {
  uint32_t channel_order, channel_type, pixel_size;
} cpu_image_format;

/* Sampler bits as OpenCL C's CLK_* constants encode them, so a sampler
 * argument reaches the kernel in the form the language uses. */
enum cpu_sampler_bits {
  cpu_sampler_normalized_coords = 0x1,
  cpu_sampler_address_none = 0x0,
  cpu_sampler_address_clamp_to_edge = 0x2,
  cpu_sampler_address_clamp = 0x4,
  cpu_sampler_address_repeat = 0x6,
  cpu_sampler_address_mirrored_repeat = 0x8,
  cpu_sampler_filter_nearest = 0x10,
  cpu_sampler_filter_linear = 0x20
};

/* CLMUX_BOUNDS_CHECK: a kernel compiled with bounds checks takes one more
 * argument after its own, 8 bytes: the address of this record, which the
 * caller fills with the extent of each argument and reads once the NDRange
 * is done. An access outside its argument's extent is not performed (a
 * load gives 0); each is counted, and the first to claim the record leaves
 * what it was. */
typedef struct cpu_bounds_record {
  uint64_t violations; /* accesses not performed (atomic) */
  uint32_t claimed;    /* 0 until the first violation fills what follows */
  uint32_t what;       /* the argument's index, or a cpu_bounds_object */
  uint32_t write;      /* 1 for a store, an atomic or a memset/copy's target */
  uint32_t reserved;
  int64_t offset;        /* bytes from the start of the object */
  uint64_t size;         /* bytes the access wanted */
  uint64_t global_id[3]; /* of the work-item */
  uint64_t extents[];    /* bytes each argument may reach: a buffer's
                            size, a __local argument's; else 0 */
} cpu_bounds_record;

/* `what` for objects that are not arguments. */
enum cpu_bounds_object {
  cpu_bounds_local_variable = 0xfffffffeu,   /* a kernel's __local array */
  cpu_bounds_constant_variable = 0xfffffffdu /* a program's __constant */
};

#endif /* CLMUX_CPU_WORK_GROUP_ABI_H */

/* clmux CPU target — the objects behind the Mux handles and the functions
 * one part of the target calls in another. Each handle type of mux.h is the
 * first member ("base") of the struct here, so a handle converts with a cast.
 *
 * Files (one job each):
 *   device.c, device_info.c  devices; hwloc topology -> mux_device_info_s
 *   cgroup_quota.c           the CPU time the process's control group may use
 *   thread_pool.c            pinned workers, chunked parallel-for
 *   alloc.c                  host allocations, spare blocks, the query clock
 *   memory.c, buffer.c       memory, map/flush, buffers
 *   device_heap.c, device_heap.h  buffers' and images' memory, apart
 *                            from the C heap
 *   image.c, image_format.c  images, formats, pixel copies with pitches
 *   command_buffer.c         recording commands
 *   command_run.c            running a command buffer's commands in order
 *   command.h                the commands, shared by those two
 *   ndrange.c                argument packing and NDRange execution
 *   executable.c, kernel.c   executables (ORC LLJIT), kernels
 *   kernel_variant.c         vectors or one work-item at a time, measured
 *   sub_group_turns.c        sub-groups in turns (independent progress)
 *   address_spaces.c         where a pointer lies (the generic space)
 *   fault.c                  a fault in kernel code fails its NDRange
 *   builtin_kernels.c        the built-in kernels, written in C
 *   printf.c                 kernels' printf records, formatted per group
 *   query_pool.c             duration queries
 *   queue.c, semaphore.c, fence.c  dispatch, wait counters, host waits
 *   queue_internal.h         what those three share privately
 * What compiled kernels agree on with the compiler (their calling
 * convention, the executable container, printf's records) is in
 * include/clmux/cpu_abi/. */
#ifndef CLMUX_CPU_H
#define CLMUX_CPU_H

#include <clmux/cpu_abi/printf_record.h>
#include <clmux/cpu_abi/work_group_abi.h>
#include <mux/mux.h>
#include <mux/mux_cpu.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device_heap.h"

/* The target id in the low 16 bits of every mux_id_t this target issues. */
#define CPU_TARGET_ID 1u
#define CPU_ID(kind) ((mux_id_t)(kind) | CPU_TARGET_ID)

struct cpu_pool;
struct cpu_queue;

/* ---- Allocation through the user's allocator ---------------------------- */

void *cpu_alloc(mux_allocator_info_t allocator, size_t size, size_t alignment);
void *cpu_calloc(mux_allocator_info_t allocator, size_t size, size_t alignment);
void cpu_free(mux_allocator_info_t allocator, void *pointer);

/* Blocks a command buffer keeps when it is reset, for the commands it will
 * record next: a queue that records launches into reused command buffers
 * then stops going to malloc for each (memalign has no fast path). */
#define CPU_SPARE_BLOCKS 64u
/* Larger blocks are not kept: a kernel's scratch for values live across
 * barriers can be megabytes, and costs more to run than to allocate. */
#define CPU_SPARE_MAX_SIZE 4096u
typedef struct cpu_spares {
  atomic_flag lock; /* a command buffer is recorded by one thread at a time;
                       this only keeps misuse from corrupting the list */
  uint32_t count;
  struct {
    void *memory;
    size_t size;
  } blocks[CPU_SPARE_BLOCKS];
} cpu_spares;

/* A block of at least `size` bytes (`*got` set to its size) from `spares`
 * (may be NULL) or the allocator. */
void *cpu_spares_take(cpu_spares *spares, mux_allocator_info_t allocator,
                      size_t size, size_t alignment, size_t *got);
/* Keeps `memory` for reuse, or frees it when `spares` is NULL or full. */
void cpu_spares_give(cpu_spares *spares, mux_allocator_info_t allocator,
                     void *memory, size_t size);
void cpu_spares_free(cpu_spares *spares, mux_allocator_info_t allocator);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC), for query pools. */
uint64_t cpu_now_ns(void);

/* ---- Devices ------------------------------------------------------------ */

/* Filled once per process from hwloc (device_info.c). */
struct mux_device_info_s *cpu_device_info(void);
/* Worker count the pool is created with: physical cores in the process's
 * cpuset, no more than its control group's CPU quota allows, or
 * CLMUX_NUM_THREADS when set (1..1024). */
unsigned cpu_worker_count(void);
/* CPUs' worth of time the process's control group (v1 or v2) and those
 * above it may use, the tightest; 0 when unlimited. `root` prefixes /proc
 * and /sys ("" for the real ones). (cgroup_quota.c) */
double cpu_cgroup_quota(const char *root);

typedef struct cpu_device {
  struct mux_device_s base;
  mux_allocator_info_t allocator;
  struct cpu_pool *pool;
  struct cpu_queue *queue; /* the one compute queue (queue.c) */
} cpu_device;

/* Which NUMA node or cache (hwloc's logical index) a usable core is in; -1
 * when the machine has no such level. (device_info.c) */
int cpu_core_domain(unsigned core, mux_cpu_domain_e domain);

/* ---- Thread pool (thread_pool.c) ---------------------------------------- */

/* fn runs items [begin, end) of a parallel loop on worker `worker`
 * (0 .. cpu_pool_slots()-1); each worker slot owns `local_memory` of
 * cpu_pool_local_memory_size() bytes, allocated once. */
typedef void (*cpu_range_fn)(void *context, uint64_t begin, uint64_t end,
                             unsigned worker, uint8_t *local_memory);

/* Workers pinned one per core of `cores` (indices of the process's usable
 * cores, as cpu_bind_worker_thread counts them), or, with cores NULL, the
 * whole device's workers. */
struct cpu_pool *cpu_pool_create(mux_allocator_info_t allocator,
                                 const uint32_t *cores, unsigned core_count);
void cpu_pool_destroy(struct cpu_pool *pool, mux_allocator_info_t allocator);
/* Threads able to run loop items: the workers, and the calling thread,
 * which runs loops of one chunk alone (and waits through the others). */
unsigned cpu_pool_slots(const struct cpu_pool *pool);
/* The workers: the threads that run loops of more than one chunk. */
unsigned cpu_pool_workers(const struct cpu_pool *pool);
/* A partition's pool: binds the calling thread to its workers' cores, so
 * that what it runs itself stays on them too; false for the whole
 * device's pool (or if it could not). */
bool cpu_pool_bind_to_cores(const struct cpu_pool *pool);
size_t cpu_pool_local_memory_size(const struct cpu_pool *pool);
/* The highest address of the calling thread's stack (kernels' private
 * memory, with their scratch), found once per thread; NULL if unknown. */
uint8_t *cpu_thread_stack_end(void);
/* A fault raised by code run under cpu_fault_run (fault.c). */
typedef struct cpu_fault {
  int signal;    /* SIGSEGV, SIGBUS, SIGFPE or SIGILL */
  void *address; /* the faulting address (or instruction) */
} cpu_fault;

/* Runs fn over [0, total) in chunks that the workers take from an atomic
 * counter (each the rest over twice the workers, at least `chunk` items),
 * and returns when all have run. With `alone_ns`
 * (a loop expected to be short), the caller first runs it alone, and
 * hands the rest to the workers only once that has taken alone_ns; a loop
 * of one chunk runs on the caller alone. *busy_ns (if not NULL): the
 * threads' time inside the loop, summed. Callers from several threads are
 * served one loop at a time. A fault in fn stops the loop (chunks not yet
 * taken are skipped) and returns false with the first fault in *fault. */
bool cpu_pool_parallel_for(struct cpu_pool *pool, uint64_t total,
                           uint64_t chunk, uint64_t alone_ns, cpu_range_fn fn,
                           void *context, const char *label, uint64_t *busy_ns,
                           cpu_fault *fault);

/* ---- Faults in kernel code (fault.c) ------------------------------------ */

/* Installs the handlers of SIGSEGV, SIGBUS, SIGFPE and SIGILL, once; they
 * pass on every signal not raised under cpu_fault_run. */
void cpu_fault_install(void);
/* fn(context, begin, end, slot, local_memory); false, with *fault filled
 * in, when it faulted (it was abandoned where it faulted). */
bool cpu_fault_run(cpu_range_fn fn, void *context, uint64_t begin, uint64_t end,
                   unsigned slot, uint8_t *local_memory, cpu_fault *fault);
/* Where pointers lie (address_spaces.c): CPU_ADDRESS_SPACE_SYMBOL's
 * function, and the table of other groups' local memory and private
 * stacks. add returns an index for remove, or -1 when the table is full;
 * a thread stack is removed when its thread exits. */
uint32_t cpu_address_space(const void *pointer, const cpu_work_group *wg);
int cpu_address_range_add(const void *start, size_t size,
                          enum cpu_address_space kind);
void cpu_address_range_remove(int index);
void cpu_address_range_add_thread_stack(const void *start, size_t size);

/* Sub-groups in turns (sub_group_turns.c): the entry points kernels
 * call as CPU_SUB_GROUPS_SYMBOL and CPU_PAUSE_SYMBOL (work_group_abi.h),
 * and what a fault in kernel code calls to drop the round it left. */
void cpu_sub_groups(const uint8_t *args, const cpu_work_group *wg,
                    uint64_t count, cpu_sub_group_fn run);
void cpu_sub_group_pause(void);
void cpu_sub_groups_abandon(void);
/* An alternate signal stack for the calling thread, so that a kernel
 * overflowing its stack is caught too; pass the result to leave. */
void *cpu_fault_thread_enter(void);
void cpu_fault_thread_leave(void *stack);

/* ---- Memory and buffers (memory.c, buffer.c) ---------------------------- */

typedef struct cpu_memory {
  struct mux_memory_s base; /* base.handle = host address of byte 0 */
  void *allocation;         /* what to free; NULL for host memory */
  device_heap_block block;  /* where the allocation came from */
  atomic_bool mapped;
} cpu_memory;

typedef struct cpu_buffer {
  struct mux_buffer_s base;
  cpu_memory *memory; /* NULL until bound */
  uint8_t *data;      /* host address of the buffer's byte 0 once bound */
  uint64_t size;
} cpu_buffer;

/* ---- Images (image.c, image_format.c) ----------------------------------- */

/* Layout: pixel (x, y, z) of layer l lives at
 *   data + x * pixel_size + y * row_size + z * slice_size
 * A 1D array addresses its layers with y, a 2D array with z; slice_size is
 * then the stride between layers. */
typedef struct cpu_image {
  struct mux_image_s base;
  cpu_memory *memory;
  uint8_t *data;
  cpu_image_view view; /* what kernels see; complete once bound */
} cpu_image;

/* Bytes per pixel of a format, or 0 if the target does not know it. */
uint32_t cpu_image_format_pixel_size(mux_image_format_e format);

/* Offsets and extents in pixels; row/slice in bytes on the host side.
 * Fill takes one pixel already encoded in the image's format. */
void cpu_image_read(const cpu_image *image, mux_offset_3d_t offset,
                    mux_extent_3d_t extent, uint64_t row_size,
                    uint64_t slice_size, void *pointer);
void cpu_image_write(cpu_image *image, mux_offset_3d_t offset,
                     mux_extent_3d_t extent, uint64_t row_size,
                     uint64_t slice_size, const void *pointer);
void cpu_image_fill(cpu_image *image, const void *pixel, uint32_t pixel_size,
                    mux_offset_3d_t offset, mux_extent_3d_t extent);
void cpu_image_copy(const cpu_image *src, cpu_image *dst,
                    mux_offset_3d_t src_offset, mux_offset_3d_t dst_offset,
                    mux_extent_3d_t extent);
/* Buffer side is tightly packed (row = width * pixel_size). */
void cpu_image_copy_to_buffer(const cpu_image *src, uint8_t *dst,
                              mux_offset_3d_t src_offset,
                              mux_extent_3d_t extent);
void cpu_image_copy_from_buffer(cpu_image *dst, const uint8_t *src,
                                mux_offset_3d_t dst_offset,
                                mux_extent_3d_t extent);

/* ---- Executables and kernels (executable.c, kernel.c) ------------------- */

typedef struct cpu_executable cpu_executable;

/* Which code of a kernel with a scalar variant runs (kernel_variant.c). */
#define CPU_VARIANT_SLOTS 16u
typedef struct cpu_variant_choice {
  _Atomic uint32_t current;       /* the variant calls run outside probes */
  _Atomic uint32_t probing;       /* 1: calls alternate and are timed */
  _Atomic uint32_t launches_left; /* NDRanges until the next probe */
  _Atomic uint32_t interval;      /* NDRanges between probes */
  /* The probe's timed calls per variant, the first CPU_VARIANT_SLOTS
   * costs per work-item, and the time of all. */
  _Atomic uint32_t taken[2];
  _Atomic uint64_t cost[2][CPU_VARIANT_SLOTS];
  _Atomic uint64_t probe_ns;
} cpu_variant_choice;

void cpu_variant_init(cpu_variant_choice *choice);
/* An NDRange of the kernel starts: a probe may be due. */
void cpu_variant_launch(cpu_variant_choice *choice);
/* A timed call of `variant` during a probe of `kernel` (its name); the
 * one that ends the probe sets the choice (CLMUX_DEBUG tells it). */
void cpu_variant_sample(cpu_variant_choice *choice, const char *kernel,
                        uint32_t variant, uint64_t ns, uint64_t items);

typedef struct cpu_kernel {
  struct mux_kernel_s base;
  cpu_work_group_fn function;
  cpu_executable *executable; /* NULL for a built-in kernel */
  /* Bytes of scratch per work-item for values live across barriers. */
  size_t scratch_per_work_item;
  /* Rows of groups in x may run as one call (CPU_BINARY_KERNEL_MERGES_GROUPS). */
  bool merges_groups;
  /* Work-items a sub-group: the lanes of one call of the vector body, in
   * a row in x (the binary's; 1 for built-in kernels). */
  uint32_t sub_group_size;
  /* The same kernel's code for any local size, for the edge groups of
   * non-uniform NDRanges (muxCpuKernelSetEdges), or NULL. */
  _Atomic(struct cpu_kernel *) edges;
  /* Picoseconds of threads' time per work-group at its last NDRange of
   * more than one chunk (ndrange.c), 0 before: whether the next is short
   * enough for the calling thread alone. */
  _Atomic uint64_t group_cost_ps;
  /* CPU_BINARY_KERNEL_SCALAR_VARIANT, and which variant runs. */
  bool scalar_variant;
  cpu_variant_choice variant;
  char name[64];
} cpu_kernel;

/* Built-in kernels (builtin_kernels.c). */
extern const char cpu_builtin_kernel_declarations[];
/* Finds a built-in kernel by name; NULL if there is none. */
cpu_work_group_fn cpu_builtin_kernel_lookup(const char *name,
                                            uint64_t name_length);

/* ---- NDRange (ndrange.c) ------------------------------------------------ */

/* Everything an NDRange needs at run time, prepared when recorded so the
 * launch itself allocates nothing. */
typedef struct cpu_ndrange {
  cpu_kernel *kernel;
  uint32_t work_dim;
  uint64_t global_size[3];
  uint64_t global_offset[3];
  uint32_t local_size[3]; /* the enqueued one */
  uint64_t num_groups[3];
  /* Every group has local_size items; else the last in some dimension
   * has fewer, and runs `edges` or, without, `kernel` is code for any
   * local size. */
  bool uniform;
  const struct cpu_kernel *edges;
  uint8_t *args; /* packed argument block, CPU_ARG_BLOCK_ALIGN aligned */
  size_t args_size;
  size_t local_memory_size; /* static __local + local-buffer descriptors */
  mux_descriptor_info_t *descriptors; /* copy, for muxUpdateDescriptors */
  uint64_t descriptors_length;
} cpu_ndrange;

/* `spares` (may be NULL) lends the allocation, and takes it back on
 * release. */
/* `device` is the one whose queue will run it (its pool's slots size the
 * per-slot parts): the command buffer's, not necessarily the kernel's. */
mux_result_t cpu_ndrange_prepare(cpu_ndrange *ndrange, cpu_kernel *kernel,
                                 cpu_device *device,
                                 const mux_ndrange_options_t *options,
                                 mux_allocator_info_t allocator,
                                 cpu_spares *spares);
mux_result_t cpu_ndrange_update(cpu_ndrange *ndrange, uint64_t num_args,
                                const uint64_t *arg_indices,
                                const mux_descriptor_info_t *descriptors,
                                mux_allocator_info_t allocator);
mux_result_t cpu_ndrange_copy(cpu_ndrange *dst, const cpu_ndrange *src,
                              cpu_device *device,
                              mux_allocator_info_t allocator,
                              cpu_spares *spares);
void cpu_ndrange_release(cpu_ndrange *ndrange, mux_allocator_info_t allocator,
                         cpu_spares *spares);
/* Runs every work-group once, on the pool; returns when all are done. */
mux_result_t cpu_ndrange_run(cpu_device *device, const cpu_ndrange *ndrange);

/* ---- Query pools (query_pool.c) ----------------------------------------- */

typedef struct cpu_query_pool {
  struct mux_query_pool_s base;
  struct mux_query_duration_result_s *durations;
} cpu_query_pool;

/* ---- Command buffers (command_buffer.c) --------------------------------- */

typedef struct cpu_command cpu_command;

typedef struct cpu_command_buffer {
  struct mux_command_buffer_s base;
  mux_allocator_info_t allocator;
  struct mux_callback_info_s callback; /* callback NULL if none given */
  cpu_command *commands;
  uint32_t count;
  uint32_t capacity;
  bool finalized;
  cpu_spares spares; /* NDRange blocks kept across resets */
} cpu_command_buffer;

/* Executes every command in order on the calling thread (NDRanges spread
 * over the pool). Returns the first error; commands after it do not run. */
mux_result_t cpu_command_buffer_run(cpu_command_buffer *command_buffer,
                                    mux_queue_t queue);

/* ---- Semaphores, fences, queue (semaphore.c, fence.c, queue.c) ---------- */

typedef struct cpu_semaphore cpu_semaphore;
typedef struct cpu_fence cpu_fence;

mux_result_t cpu_queue_create(cpu_device *device);
void cpu_queue_destroy(cpu_device *device);

/* ---- threads (device_info.c) ------------------------------------------- */

/* Binds the calling thread to where worker `index` of `count` runs: one
 * physical core each (all its usable PUs), or one PU each, round-robin, when
 * there are more workers than cores. False if the thread stays unbound. */
bool cpu_bind_worker_thread(unsigned index, unsigned count);
/* Binds the calling thread to the usable PUs of the given cores (indices
 * as above); false if it could not. */
bool cpu_bind_thread_to_cores(const uint32_t *cores, unsigned count);

/* ---- kernels (executable.c, kernel.c, ndrange.c) ------------------------ */

/* One kernel of a loaded executable, as its binary (binary_format.h)
 * describes it; owned by the executable. */
typedef struct cpu_executable_kernel {
  const char *name; /* NUL-terminated */
  uint64_t name_length;
  cpu_work_group_fn function;
  uint64_t local_memory_size;
  uint64_t scratch_per_work_item;
  uint32_t preferred_local_size[3];
  uint32_t required_local_size[3]; /* all 0: any local size */
  uint32_t flags;                   /* CPU_BINARY_KERNEL_* */
  uint32_t sub_group_size;          /* >= 1 */
} cpu_executable_kernel;

/* The kernel called `name` (name_length bytes), or NULL. */
const cpu_executable_kernel *cpu_executable_find_kernel(
    const cpu_executable *executable, const char *name, uint64_t name_length);
/* The only local size the kernel's code runs with; all 0 if any works. */
void cpu_kernel_required_local_size(const cpu_kernel *kernel,
                                    uint32_t out_size[3]);

/* ---- printf from kernels (printf.c) and the FP environment -------------
 * The records kernels leave are laid out in
 * include/clmux/cpu_abi/printf_record.h. */

/* The records of the work-group the calling thread runs; thread-local, so
 * printf takes no lock. Grown on the first record, freed at thread exit. */
typedef struct cpu_printf_buffer {
  uint8_t *data;
  uint32_t used;
  uint32_t capacity;
} cpu_printf_buffer;

/* The entry point kernels call: keeps one record; 0, or -1 when the
 * work-group's buffer is full or the record malformed. */
int32_t cpu_printf_record(const void *record, uint32_t size);
cpu_printf_buffer *cpu_printf_thread_buffer(void);
/* Formats the buffer's records, stable by local linear id, writes them to
 * stdout in one piece (under a process-wide lock) and empties the buffer.
 * Called after each work-group that left records. */
void cpu_printf_flush(cpu_printf_buffer *buffer);

/* Sets MXCSR as kernels expect it: round to nearest, every exception
 * masked, denormals kept (FTZ and DAZ off) unless `denorms_are_zero` (the
 * hook for -cl-denorms-are-zero). Returns the value to restore with
 * cpu_fp_env_leave when the thread stops running work-groups. */
uint32_t cpu_fp_env_enter(bool denorms_are_zero);
void cpu_fp_env_leave(uint32_t previous);

#endif /* CLMUX_CPU_H */

/* clmux — what the CPU target offers beyond the Mux specification:
 * partitions of the CPU device (OpenCL sub-devices), replaying one command
 * buffer inside another (cl_khr_command_buffer), changing a recorded
 * NDRange's sizes and kernel (cl_khr_command_buffer_mutable_dispatch), and
 * code of its own for the edge groups of non-uniform NDRanges.
 *
 * All devices of this target share the process's address space: memory,
 * buffers, images, executables and kernels made through one device may be
 * used in the command buffers of any other. A partition runs its command
 * buffers on workers of its own, pinned to its cores. */
#ifndef MUX_MUX_CPU_H_INCLUDED
#define MUX_MUX_CPU_H_INCLUDED

#include <mux/mux.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The levels a partition by affinity may follow. */
typedef enum mux_cpu_domain_e {
  mux_cpu_domain_numa,
  mux_cpu_domain_l4_cache,
  mux_cpu_domain_l3_cache,
  mux_cpu_domain_l2_cache,
  mux_cpu_domain_l1_cache,
} mux_cpu_domain_e;

/* A device of its own on `core_count` cores of the CPU device (indices
 * 0 .. compute_units-1 of the device's cores, each at most once), with
 * `info` as its description (the caller keeps it alive, its compute_units
 * set to core_count). Destroyed with muxDestroyDevice.
 * mux_error_invalid_value: a core index out of range or repeated. */
mux_result_t muxCpuCreatePartition(mux_device_t device, const uint32_t *cores,
                                   uint32_t core_count, mux_device_info_t info,
                                   mux_allocator_info_t allocator_info,
                                   mux_device_t *out_device);

/* Which NUMA node, or which cache at a level, core `core` belongs to (an
 * index that is the same for cores sharing it); -1 when the machine has no
 * such level or the core does not exist. */
int32_t muxCpuCoreDomain(uint32_t core, mux_cpu_domain_e domain);

/* Gives `kernel`, code for one local size, the code of the same kernel
 * for any local size (`edges`, of the same executable's kernel or another
 * build of it with the same arguments) to run the smaller groups at the
 * edges of its non-uniform NDRanges; its full groups keep `kernel`'s code.
 * Without it, such an NDRange needs code for any local size throughout.
 * Set once: later calls change nothing. `edges` must outlive every use of
 * `kernel`.
 * mux_error_invalid_value: `kernel` is code for any local size, or
 * `edges` is not. */
mux_result_t muxCpuKernelSetEdges(mux_kernel_t kernel, mux_kernel_t edges);

/* Records into `command_buffer` a copy of every command of the finalized
 * `source`, in order, as muxCloneCommandBuffer copies them (NDRange
 * descriptors included). `source` may be copied from on several threads at
 * once and dispatched nowhere: it is a recording to replay, and
 * `command_buffer` may belong to another device of this target. On failure
 * `command_buffer` is unchanged.
 * mux_error_invalid_value: `source` is not finalized, or `command_buffer`
 * is. */
mux_result_t muxCpuCommandReplay(mux_command_buffer_t command_buffer,
                                 mux_command_buffer_t source);

/* Replaces command `command_id` (its index in the order recorded) of
 * `command_buffer`, finalized or not, with an NDRange of `kernel` and
 * `options`, prepared as muxCommandNDRange prepares one: any kind of
 * command may be replaced, so a recorded placeholder can become an NDRange
 * once its arguments are known. Not to be called while the buffer runs or
 * is replayed. On failure the command is unchanged.
 * mux_error_invalid_value: no such command, or `options` invalid for
 * `kernel`; mux_error_out_of_memory. */
mux_result_t muxCpuCommandSetNDRange(mux_command_buffer_t command_buffer,
                                     mux_command_id_t command_id,
                                     mux_kernel_t kernel,
                                     mux_ndrange_options_t options);

#ifdef __cplusplus
}
#endif

#endif /* MUX_MUX_CPU_H_INCLUDED */

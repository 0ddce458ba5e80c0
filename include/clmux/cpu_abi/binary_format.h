/* clmux CPU target — the executable binary format.
 *
 * muxCreateExecutable takes one of these containers. The OpenCL C compiler
 * writes it and clCreateProgramWithBinary hands it back, so the loader
 * (executable.c) trusts nothing in it: every offset, count and string is
 * checked, and anything out of place is mux_error_invalid_binary.
 *
 * All integers are little-endian and stored at the offsets given below;
 * a reader copies fields out with memcpy, so the container itself needs
 * no particular alignment. The layout:
 *
 *   header         CPU_BINARY_HEADER_SIZE bytes at offset 0
 *   kernel table   kernel_count entries of CPU_BINARY_KERNEL_SIZE bytes
 *   strings        kernel and symbol names, each NUL-terminated
 *   object         one x86-64 ELF relocatable object (ET_REL), which
 *                  defines each kernel's work-group function
 *                  (work_group_abi.h) as a global symbol
 *
 * The three regions lie after the header, inside the binary, and do not
 * overlap; their order and any padding between them are the writer's
 * choice. A name is (offset, length) into the strings region: `length`
 * non-NUL bytes followed by a NUL, all inside the region. */
#ifndef CLMUX_CPU_BINARY_FORMAT_H
#define CLMUX_CPU_BINARY_FORMAT_H

#include <stdint.h>

/* Header fields (byte offset: type, meaning). */
#define CPU_BINARY_MAGIC "CLMUXEXE" /* 0: char[8], no NUL */
#define CPU_BINARY_MAGIC_SIZE 8u
/* 8: u32 version, must match (2: a row of merged groups has its first
 * group id) */
#define CPU_BINARY_VERSION 2u
/* 12: u32 header size, must be CPU_BINARY_HEADER_SIZE
 * 16: u32 kernel_count, 1 .. CPU_BINARY_MAX_KERNELS
 * 20: u32 kernel entry size, must be CPU_BINARY_KERNEL_SIZE
 * 24: u64 kernel table offset
 * 32: u64 strings offset
 * 40: u64 strings size
 * 48: u64 object offset
 * 56: u64 object size */
#define CPU_BINARY_HEADER_SIZE 64u
#define CPU_BINARY_MAX_KERNELS 4096u

enum cpu_binary_header_field {
  cpu_binary_header_version = 8,
  cpu_binary_header_header_size = 12,
  cpu_binary_header_kernel_count = 16,
  cpu_binary_header_kernel_size = 20,
  cpu_binary_header_table_offset = 24,
  cpu_binary_header_strings_offset = 32,
  cpu_binary_header_strings_size = 40,
  cpu_binary_header_object_offset = 48,
  cpu_binary_header_object_size = 56
};

/* Kernel table entry fields (byte offset within the entry: type, meaning).
 *  0: u32 name offset       the OpenCL kernel name, muxCreateKernel's key
 *  4: u32 name length       1 .. CPU_BINARY_MAX_NAME, unique in the table
 *  8: u32 symbol offset     the work-group function's symbol in the object
 * 12: u32 symbol length     1 .. CPU_BINARY_MAX_NAME
 * 16: u64 static local memory bytes (__local variables), at most
 *         CPU_BINARY_MAX_LOCAL_MEMORY
 * 24: u64 scratch bytes per work-item (values live across barriers), at
 *         most CPU_BINARY_MAX_SCRATCH
 * 32: u32[3] preferred local size, each >= 1
 * 44: u32[3] required local size: all 0 when the code runs with any local
 *         size, else each >= 1 and the only local size NDRanges may use
 *         (code specialized for one local size, reqd_work_group_size)
 * 56: u32 flags, CPU_BINARY_KERNEL_* bits below; others must be 0
 * 60: u32 sub-group size: the work-items of a sub-group, the lanes the
 *         code runs at once (compiler/codegen/sub_groups.h); a power of
 *         two up to CPU_BINARY_MAX_SUB_GROUP_SIZE, or 0 for 1 */
#define CPU_BINARY_KERNEL_SIZE 64u
#define CPU_BINARY_MAX_NAME 4096u
#define CPU_BINARY_MAX_LOCAL_MEMORY (UINT64_C(1) << 32)
#define CPU_BINARY_MAX_SCRATCH (UINT64_C(1) << 16)
#define CPU_BINARY_MAX_SUB_GROUP_SIZE 64u

/* The function does not observe work-groups (no local or group ids, local
 * or group counts, global offset, barriers, __local memory or printf):
 * the target may run a row of consecutive groups in x as one call whose
 * local_size[0] counts the row's items, group_id[0] is 0 and
 * global_offset[0] is the row's first global x id (work_group_abi.h). */
#define CPU_BINARY_KERNEL_MERGES_GROUPS 0x1u
/* The function also runs its work-items one at a time, not in vectors,
 * when cpu_work_group's variant is not 0 (work_group_abi.h): the target
 * measures which is faster (ndrange.c). */
#define CPU_BINARY_KERNEL_SCALAR_VARIANT 0x2u
#define CPU_BINARY_KERNEL_FLAGS_KNOWN \
  (CPU_BINARY_KERNEL_MERGES_GROUPS | CPU_BINARY_KERNEL_SCALAR_VARIANT)

enum cpu_binary_kernel_field {
  cpu_binary_kernel_name_offset = 0,
  cpu_binary_kernel_name_length = 4,
  cpu_binary_kernel_symbol_offset = 8,
  cpu_binary_kernel_symbol_length = 12,
  cpu_binary_kernel_local_memory = 16,
  cpu_binary_kernel_scratch = 24,
  cpu_binary_kernel_preferred_local_size = 32,
  cpu_binary_kernel_required_local_size = 44,
  cpu_binary_kernel_flags = 56,
  cpu_binary_kernel_sub_group_size = 60
};

#endif /* CLMUX_CPU_BINARY_FORMAT_H */

/* clmux CPU target — the records a kernel's printf leaves.
 *
 * A contract between the compiler (compiler/printf/ writes the records)
 * and the CPU target (source/mux/cpu/printf.c formats them). A compiled
 * kernel turns each printf call into a record on its stack and a call of
 * CPU_PRINTF_SYMBOL, which every executable binds to the target's
 * cpu_printf_record. A record, 8-byte aligned, in host byte order:
 *   u32 size of the whole record, u32 the work-item's local linear id,
 *   u64 address of the format string (__constant, alive during the run),
 *   then per argument: u32 byte count n, u32 zero, the n bytes of the value
 *   as the kernel passed it to printf (C promotions done; a vector as its
 *   bytes), padded to a multiple of 8.
 * The type of each value comes from the format, read at run time, so a
 * format need not be known when the kernel is compiled. */
#ifndef CLMUX_CPU_ABI_PRINTF_RECORD_H
#define CLMUX_CPU_ABI_PRINTF_RECORD_H

#include <stdint.h>

/* The function a kernel's printf calls. */
#define CPU_PRINTF_SYMBOL "__clmux_printf"

/* Bytes of records one work-group may leave (CL_DEVICE_PRINTF_BUFFER_SIZE). */
#define CPU_PRINTF_BUFFER_SIZE ((uint32_t)1 << 20)

enum { cpu_printf_header_size = 16, cpu_printf_arg_header_size = 8 };

#endif /* CLMUX_CPU_ABI_PRINTF_RECORD_H */

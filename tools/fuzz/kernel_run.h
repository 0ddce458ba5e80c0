/* Runs a generated case (kernel_gen.h) on one OpenCL device: builds it,
 * gives it the buffers, counters and images the generator's kernels take,
 * launches it once and reads every output back. Shared by the fuzzer,
 * which compares the outputs across configurations, and the first-launch
 * bench, which times them. */
#ifndef CLMUX_TOOLS_FUZZ_KERNEL_RUN_H
#define CLMUX_TOOLS_FUZZ_KERNEL_RUN_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdint.h>

#include "kernel_gen.h"

enum { KERNEL_RAN, KERNEL_REFUSED, KERNEL_FAILED };

typedef struct kernel_run_output {
  uint32_t *words; /* malloc'd: the out buffer, the counters, the image */
  uint32_t count;
  char *log;       /* malloc'd: the build log of a refusal */
  double build_ms; /* clBuildProgram alone */
} kernel_run_output;

/* KERNEL_RAN with the outputs, KERNEL_REFUSED with the build log, or
 * KERNEL_FAILED. */
int kernel_run(cl_context context, cl_command_queue queue, cl_device_id device,
               uint64_t seed, const kernel_case *c, kernel_run_output *result);

#endif

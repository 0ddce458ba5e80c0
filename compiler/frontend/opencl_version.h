/* clmux compiler: the OpenCL version of the device the compiler serves.
 * The front-end defines __OPENCL_VERSION__ from it; the platform and the
 * device report it (source/cl/clx.h). No other header needed, so the ICD
 * glue can include it. */
#ifndef CLMUX_COMPILER_OPENCL_VERSION_H
#define CLMUX_COMPILER_OPENCL_VERSION_H

#define CC_OPENCL_VERSION_MAJOR 3
#define CC_OPENCL_VERSION_MINOR 0

#endif /* CLMUX_COMPILER_OPENCL_VERSION_H */

/* clmux CPU target: the built-in kernels, written in C. */
#include "cpu.h"

const char cpu_builtin_kernel_declarations[] = "";

cpu_work_group_fn cpu_builtin_kernel_lookup(const char *name,
                                            uint64_t name_length) {
  (void)name;
  (void)name_length;
  return NULL;
}

/* clmux compiler — code generation: writes the CPU target's executable
 * container (include/clmux/cpu_abi/binary_format.h): header, kernel table,
 * strings, then the object 16-byte aligned. The loader in
 * source/mux/cpu/executable.c checks every field written here. */
#include <clmux/cpu_abi/binary_format.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void put_u32(uint8_t *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static void put_u64(uint8_t *at, uint64_t value) {
  for (int i = 0; i < 8; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static cc_status check_kernel(const cc_binary_kernel *k, cc_log *log) {
  if (!k->name || !k->symbol || !*k->name || !*k->symbol ||
      strlen(k->name) > CPU_BINARY_MAX_NAME ||
      strlen(k->symbol) > CPU_BINARY_MAX_NAME) {
    return cc_fail(log, cc_error_invalid_value, "bad kernel or symbol name");
  }
  bool any = false, all = true;
  for (int d = 0; d < 3; d++) {
    if (k->preferred_local_size[d] == 0) {
      return cc_fail(log, cc_error_invalid_value,
                     "kernel %s: preferred local size of 0", k->name);
    }
    any |= k->required_local_size[d] != 0;
    all &= k->required_local_size[d] != 0;
  }
  if ((any && !all) || k->local_memory > CPU_BINARY_MAX_LOCAL_MEMORY ||
      k->scratch > CPU_BINARY_MAX_SCRATCH ||
      (k->flags & ~CPU_BINARY_KERNEL_FLAGS_KNOWN) != 0) {
    return cc_fail(log, cc_error_invalid_value,
                   "kernel %s: bad required size, local memory, scratch or "
                   "flags",
                   k->name);
  }
  return cc_success;
}

cc_status cc_binary_write(const cc_binary_kernel *kernels, uint32_t count,
                          const void *object, size_t object_size, uint8_t **out,
                          size_t *out_size, cc_log *log) {
  *out = NULL;
  *out_size = 0;
  if (count < 1 || count > CPU_BINARY_MAX_KERNELS || !object || !object_size) {
    return cc_fail(log, cc_error_invalid_value, "no kernels or no object");
  }
  size_t strings_size = 0;
  for (uint32_t i = 0; i < count; i++) {
    cc_status status = check_kernel(&kernels[i], log);
    if (status != cc_success) return status;
    for (uint32_t j = 0; j < i; j++) {
      if (strcmp(kernels[i].name, kernels[j].name) == 0) {
        return cc_fail(log, cc_error_invalid_value, "kernel %s twice",
                       kernels[i].name);
      }
    }
    strings_size += strlen(kernels[i].name) + strlen(kernels[i].symbol) + 2;
  }
  size_t table = CPU_BINARY_HEADER_SIZE;
  size_t strings = table + (size_t)count * CPU_BINARY_KERNEL_SIZE;
  size_t object_at = (strings + strings_size + 15) & ~(size_t)15;
  size_t size = object_at + object_size;
  uint8_t *bytes = calloc(1, size);
  if (!bytes) return cc_fail(log, cc_error_out_of_memory, "no memory");

  memcpy(bytes, CPU_BINARY_MAGIC, CPU_BINARY_MAGIC_SIZE);
  put_u32(bytes + cpu_binary_header_version, CPU_BINARY_VERSION);
  put_u32(bytes + cpu_binary_header_header_size, CPU_BINARY_HEADER_SIZE);
  put_u32(bytes + cpu_binary_header_kernel_count, count);
  put_u32(bytes + cpu_binary_header_kernel_size, CPU_BINARY_KERNEL_SIZE);
  put_u64(bytes + cpu_binary_header_table_offset, table);
  put_u64(bytes + cpu_binary_header_strings_offset, strings);
  put_u64(bytes + cpu_binary_header_strings_size, strings_size);
  put_u64(bytes + cpu_binary_header_object_offset, object_at);
  put_u64(bytes + cpu_binary_header_object_size, object_size);

  size_t string = 0;
  for (uint32_t i = 0; i < count; i++) {
    const cc_binary_kernel *k = &kernels[i];
    uint8_t *entry = bytes + table + (size_t)i * CPU_BINARY_KERNEL_SIZE;
    const char *names[2] = {k->name, k->symbol};
    for (int n = 0; n < 2; n++) {
      size_t length = strlen(names[n]);
      put_u32(entry + (n ? cpu_binary_kernel_symbol_offset
                         : cpu_binary_kernel_name_offset),
              (uint32_t)string);
      put_u32(entry + (n ? cpu_binary_kernel_symbol_length
                         : cpu_binary_kernel_name_length),
              (uint32_t)length);
      memcpy(bytes + strings + string, names[n], length + 1);
      string += length + 1;
    }
    put_u64(entry + cpu_binary_kernel_local_memory, k->local_memory);
    put_u64(entry + cpu_binary_kernel_scratch, k->scratch);
    put_u32(entry + cpu_binary_kernel_flags, k->flags);
    put_u32(entry + cpu_binary_kernel_sub_group_size, k->sub_group_size);
    for (int d = 0; d < 3; d++) {
      put_u32(entry + cpu_binary_kernel_preferred_local_size + 4 * d,
              k->preferred_local_size[d]);
      put_u32(entry + cpu_binary_kernel_required_local_size + 4 * d,
              k->required_local_size[d]);
    }
  }
  memcpy(bytes + object_at, object, object_size);
  *out = bytes;
  *out_size = size;
  return cc_success;
}

/* clmux OpenCL front-end: CLMUX_BOUNDS_CHECK at launch. A kernel compiled
 * with bounds checks (compiler/codegen/bounds_check.c) takes the address
 * of a cpu_bounds_record after its arguments: each launch gets its own,
 * filled with the extent of every argument, and once the command is done
 * one line on stderr describes the first access that was out of bounds
 * and counts them all. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

typedef struct launch_record {
  char *kernel_name;
  uint32_t arg_count;
  cpu_bounds_record *record; /* with arg_count extents */
} launch_record;

uint64_t clx_arg_extent(const mux_descriptor_info_t *descriptor, cl_mem mem) {
  switch (descriptor->type) {
    case mux_descriptor_info_type_shared_local_buffer:
      return descriptor->shared_local_buffer_descriptor.size;
    case mux_descriptor_info_type_plain_old_embedded_data:
      return UINT64_MAX;
    case mux_descriptor_info_type_buffer: {
      if (!mem || mem->type != CL_MEM_OBJECT_BUFFER) return 0;
      /* A sub-buffer sharing its parent's Mux buffer starts at its origin
       * there; an SVM pointer at its offset in the allocation. */
      uint64_t start = mem->parent && mem->mux_buffer == mem->parent->mux_buffer
                           ? mem->origin
                           : 0;
      uint64_t offset = descriptor->buffer_descriptor.offset - start;
      return offset <= mem->size ? mem->size - offset : 0;
    }
    default:
      return 0;
  }
}

/* The record's descriptor for an NDRange of `kernel` (its lock held), or
 * false without memory. */
bool clx_bounds_record_new(cl_kernel kernel, mux_descriptor_info_t *out,
                           void **record) {
  uint32_t n = kernel->num_args;
  launch_record *launch = calloc(1, sizeof *launch);
  cpu_bounds_record *address =
      calloc(1, sizeof *address + (size_t)n * sizeof(uint64_t));
  char *name = strdup(kernel->name);
  if (!launch || !address || !name) {
    free(launch);
    free(address);
    free(name);
    return false;
  }
  launch->kernel_name = name;
  launch->record = address;
  launch->arg_count = n;
  for (uint32_t i = 0; i < n; i++) {
    const clx_kernel_arg *arg = &kernel->args[i];
    address->extents[i] = clx_arg_extent(&arg->descriptor, arg->mem);
  }
  *out = (mux_descriptor_info_t){0};
  out->type = mux_descriptor_info_type_plain_old_embedded_data;
  out->plain_old_embedded_data_descriptor.length = sizeof address;
  memcpy(out->plain_old_embedded_data_descriptor.data, &address,
         sizeof address);
  *record = launch;
  return true;
}

static void describe_object(const launch_record *launch, char *text,
                            size_t size) {
  const cpu_bounds_record *r = launch->record;
  if (r->what == cpu_bounds_local_variable) {
    snprintf(text, size, "a __local variable of the kernel");
  } else if (r->what == cpu_bounds_constant_variable) {
    snprintf(text, size, "a __constant variable of the program");
  } else if (r->what < launch->arg_count) {
    snprintf(text, size, "argument %" PRIu32 " (%" PRIu64 " bytes)", r->what,
             r->extents[r->what]);
  } else {
    snprintf(text, size, "an object");
  }
}

/* After a run: reports what went out of bounds, and clears the count for
 * the next run of a recorded command. */
void clx_bounds_record_report(void *data, cl_int status) {
  (void)status;
  launch_record *launch = data;
  cpu_bounds_record *r = launch->record;
  if (r->violations) {
    char object[128];
    describe_object(launch, object, sizeof object);
    fprintf(stderr,
            "clmux: kernel %s: out-of-bounds %s of %" PRIu64
            " bytes at offset %" PRId64 " of %s by work-item (%" PRIu64
            ", %" PRIu64 ", %" PRIu64 "); %" PRIu64
            " out-of-bounds access%s in this launch not performed\n",
            launch->kernel_name, r->write ? "write" : "read", r->size,
            r->offset, object, r->global_id[0], r->global_id[1],
            r->global_id[2], r->violations, r->violations == 1 ? "" : "es");
    r->violations = 0;
    r->claimed = 0;
  }
}

void clx_bounds_record_set_extent(void *data, uint32_t index, uint64_t extent) {
  launch_record *launch = data;
  if (index < launch->arg_count) launch->record->extents[index] = extent;
}

void clx_bounds_record_free(void *data, cl_int status) {
  (void)status;
  launch_record *launch = data;
  free(launch->kernel_name);
  free(launch->record);
  free(launch);
}

/* clmux OpenCL front-end: shared virtual memory allocations (clSVMAlloc,
 * clSVMFree). The device is the host's CPU, so a kernel reads the host's
 * addresses as they are: every kind of SVM is exact without copies, and
 * any host memory is fine-grained system SVM.
 *
 * An allocation's storage is a buffer object (Mux memory and a Mux buffer
 * over it, mapped once), so the queue's copy and fill commands and the
 * kernel's buffer descriptors serve SVM pointers into it. The context
 * lists its allocations by address: an SVM pointer anywhere inside one
 * finds it. An allocation holds its context until freed, and a command
 * using it holds it until done, so clSVMFree never frees memory a queued
 * command still uses. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

/* clSVMAlloc's alignments: powers of two up to 1 MiB (page-aligned and
 * larger requests are common; the allocator serves them). */
#define SVM_MAX_ALIGNMENT (1u << 20)
/* The largest OpenCL C type, long16 or double16: the default alignment. */
#define SVM_DEFAULT_ALIGNMENT 128u

/* Index of the first allocation starting after `pointer` (lock held). */
static size_t upper_bound(cl_context context, const void *pointer) {
  size_t low = 0, high = context->num_svm;
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if ((const uint8_t *)context->svm[mid]->data <= (const uint8_t *)pointer) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

cl_mem clx_svm_find(cl_context context, const void *pointer, size_t *offset) {
  if (!pointer) return NULL;
  cl_mem found = NULL;
  pthread_mutex_lock(&context->svm_lock);
  size_t after = upper_bound(context, pointer);
  if (after > 0) {
    cl_mem mem = context->svm[after - 1];
    size_t from_base = (size_t)((const uint8_t *)pointer - mem->data);
    if (from_base < mem->size) {
      found = mem;
      if (offset) *offset = from_base;
    }
  }
  pthread_mutex_unlock(&context->svm_lock);
  return found;
}

static bool svm_insert(cl_context context, cl_mem mem) {
  pthread_mutex_lock(&context->svm_lock);
  bool grown = clx_grow((void **)&context->svm, &context->svm_capacity,
                        context->num_svm + 1, sizeof *context->svm);
  if (grown) {
    size_t at = upper_bound(context, mem->data);
    memmove(&context->svm[at + 1], &context->svm[at],
            (context->num_svm - at) * sizeof *context->svm);
    context->svm[at] = mem;
    context->num_svm++;
  }
  pthread_mutex_unlock(&context->svm_lock);
  return grown;
}

/* Removes the allocation starting at `pointer`; NULL if there is none. */
static cl_mem svm_remove(cl_context context, const void *pointer) {
  cl_mem removed = NULL;
  pthread_mutex_lock(&context->svm_lock);
  size_t after = upper_bound(context, pointer);
  if (after > 0 && context->svm[after - 1]->data == pointer) {
    removed = context->svm[after - 1];
    memmove(&context->svm[after - 1], &context->svm[after],
            (context->num_svm - after) * sizeof *context->svm);
    context->num_svm--;
  }
  pthread_mutex_unlock(&context->svm_lock);
  return removed;
}

/* The largest allocation every device of the context allows. */
static cl_ulong max_alloc_size(cl_context context) {
  cl_ulong limit = ~(cl_ulong)0;
  for (cl_uint i = 0; i < context->num_devices; i++) {
    cl_ulong size = 0;
    if (clGetDeviceInfo(context->devices[i], CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                        sizeof size, &size, NULL) == CL_SUCCESS &&
        size < limit) {
      limit = size;
    }
  }
  return limit;
}

static bool svm_flags_valid(cl_svm_mem_flags flags) {
  const cl_svm_mem_flags access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_svm_mem_flags known =
      access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if (flags & ~known) return false;
  cl_svm_mem_flags given = flags & access;
  if (given & (given - 1)) return false; /* more than one access flag */
  /* Atomics are a property of fine-grained buffers. */
  return !(flags & CL_MEM_SVM_ATOMICS) ||
         (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER);
}

/* clSVMAlloc reports no error code: NULL for every invalid argument. */
void *CL_API_CALL clx_svm_alloc(cl_context context, cl_svm_mem_flags flags,
                                size_t size, cl_uint alignment) {
  if (!clx_valid(context, clx_kind_context) || !svm_flags_valid(flags) ||
      size == 0 || size > max_alloc_size(context) ||
      (alignment & (alignment - 1)) || alignment > SVM_MAX_ALIGNMENT) {
    return NULL;
  }
  cl_mem_flags access =
      flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
  cl_int error = CL_SUCCESS;
  cl_mem mem =
      clx_mem_create(context, CL_MEM_OBJECT_BUFFER, access, size, NULL, &error);
  if (!mem) return NULL;
  mem->svm_flags = flags;
  mem->uses_svm = true;
  if (clx_mem_allocate_aligned(
          mem, alignment ? alignment : SVM_DEFAULT_ALIGNMENT) != CL_SUCCESS ||
      clx_buffer_bind(mem, mem->mux_memory, 0) != CL_SUCCESS ||
      !svm_insert(context, mem)) {
    clx_release(CLX_OBJ(mem));
    return NULL;
  }
  return mem->data;
}

/* Frees at once: the application must not free memory that queued
 * commands use (clEnqueueSVMFree waits for them); the commands that hold
 * the allocation keep its storage until they are done all the same. */
void CL_API_CALL clx_svm_free(cl_context context, void *svm_pointer) {
  if (!clx_valid(context, clx_kind_context) || !svm_pointer) return;
  cl_mem mem = svm_remove(context, svm_pointer);
  if (mem) clx_release(CLX_OBJ(mem));
}

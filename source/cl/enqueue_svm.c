/* clmux OpenCL front-end: the queue's shared virtual memory commands
 * (clEnqueueSVMMemcpy, MemFill, Map, Unmap, MigrateMem, Free) and the
 * copies and fills of cl_khr_command_buffer over SVM.
 *
 * A copy or fill that touches a clSVMAlloc allocation records the Mux
 * buffer command on that allocation's storage (svm.c); one between two
 * other host addresses (fine-grained system SVM) is a host callback in
 * the queue's order. Map, unmap and migrate order the queue and move
 * nothing: the kernel and the host share the bytes. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

/* The largest fill pattern: a double16 or long16. */
#define MAX_PATTERN 128

typedef struct host_transfer {
  void *dst;
  const void *src;
  size_t size;
  size_t pattern_size; /* a fill when non-zero */
  unsigned char pattern[MAX_PATTERN];
} host_transfer;

static void run_host_transfer(mux_queue_t queue,
                              mux_command_buffer_t command_buffer, void *data) {
  (void)queue;
  (void)command_buffer;
  host_transfer *t = data;
  if (!t->pattern_size) {
    memmove(t->dst, t->src, t->size);
    return;
  }
  unsigned char *dst = t->dst;
  for (size_t at = 0; at < t->size; at += t->pattern_size) {
    memcpy(dst + at, t->pattern, t->pattern_size);
  }
}

static void free_host_transfer(void *data, cl_int status) {
  (void)status;
  free(data);
}

static cl_int record_result(clx_enqueue *enqueue, mux_result_t result) {
  if (result == mux_success) return CL_SUCCESS;
  return clx_enqueue_abort(enqueue, result == mux_error_out_of_memory
                                        ? CL_OUT_OF_HOST_MEMORY
                                        : CL_OUT_OF_RESOURCES);
}

/* Records a host callback doing `t` (taken: freed with the command). */
static cl_int record_host_transfer(clx_enqueue *enqueue, host_transfer *t) {
  mux_result_t result = muxCommandUserCallback(
      enqueue->command_buffer, run_host_transfer, t, 0, NULL, NULL);
  if (result != mux_success) {
    free(t);
    return record_result(enqueue, result);
  }
  cl_int error = clx_enqueue_on_complete(enqueue, free_host_transfer, t);
  if (error != CL_SUCCESS) return clx_enqueue_abort(enqueue, error);
  return CL_SUCCESS;
}

/* Ends a command: a queue's (blocking if asked) or a recorded one. */
static cl_int end_command(const clx_destination *to, clx_enqueue *enqueue,
                          bool blocking) {
  if (to->recording) return clx_command_end(to, enqueue);
  return clx_enqueue_end(enqueue, to->event, blocking);
}

static bool ranges_overlap(const void *a, const void *b, size_t size) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return x < y + size && y < x + size;
}

/* The allocation holding [pointer, pointer + size), if one holds all of
 * it. */
static cl_mem allocation_of(cl_context context, const void *pointer,
                            size_t size, size_t *offset) {
  cl_mem mem = clx_svm_find(context, pointer, offset);
  return mem && size <= mem->size - *offset ? mem : NULL;
}

static cl_int svm_memcpy(const clx_destination *to, bool blocking,
                         void *dst_ptr, const void *src_ptr, size_t size) {
  if (!clx_valid(to->queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (!dst_ptr || !src_ptr) return CL_INVALID_VALUE;
  if (ranges_overlap(dst_ptr, src_ptr, size)) return CL_MEM_COPY_OVERLAP;
  cl_context context = to->queue->context;
  size_t src_offset = 0, dst_offset = 0;
  cl_mem src = allocation_of(context, src_ptr, size, &src_offset);
  cl_mem dst = allocation_of(context, dst_ptr, size, &dst_offset);
  host_transfer *t = NULL;
  if (!src && !dst && size) {
    t = calloc(1, sizeof *t);
    if (!t) return CL_OUT_OF_HOST_MEMORY;
    *t = (host_transfer){dst_ptr, src_ptr, size, 0, {0}};
  }
  clx_enqueue enqueue;
  cl_int error = clx_command_begin(to, CL_COMMAND_SVM_MEMCPY, &enqueue);
  if (error != CL_SUCCESS) {
    free(t);
    return error;
  }
  mux_result_t result = mux_success;
  if (t) {
    error = record_host_transfer(&enqueue, t);
  } else if (size && src && dst) {
    result = muxCommandCopyBuffer(enqueue.command_buffer, src->mux_buffer,
                                  src_offset, dst->mux_buffer, dst_offset, size,
                                  0, NULL, NULL);
  } else if (size && src) {
    result = muxCommandReadBuffer(enqueue.command_buffer, src->mux_buffer,
                                  src_offset, dst_ptr, size, 0, NULL, NULL);
  } else if (size) {
    result = muxCommandWriteBuffer(enqueue.command_buffer, dst->mux_buffer,
                                   dst_offset, src_ptr, size, 0, NULL, NULL);
  }
  if (error == CL_SUCCESS) error = record_result(&enqueue, result);
  if (error != CL_SUCCESS) return error;
  if (src) clx_enqueue_hold(&enqueue, CLX_OBJ(src));
  if (dst) clx_enqueue_hold(&enqueue, CLX_OBJ(dst));
  return end_command(to, &enqueue, blocking);
}

cl_int clx_svm_memcpy(const clx_destination *to, void *dst_ptr,
                      const void *src_ptr, size_t size) {
  return svm_memcpy(to, false, dst_ptr, src_ptr, size);
}

cl_int clx_svm_mem_fill(const clx_destination *to, void *svm_ptr,
                        const void *pattern, size_t pattern_size, size_t size) {
  if (!clx_valid(to->queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (!svm_ptr || !pattern || pattern_size == 0 ||
      (pattern_size & (pattern_size - 1)) || pattern_size > MAX_PATTERN ||
      (uintptr_t)svm_ptr % pattern_size || size % pattern_size) {
    return CL_INVALID_VALUE;
  }
  size_t offset = 0;
  cl_mem mem = allocation_of(to->queue->context, svm_ptr, size, &offset);
  host_transfer *t = NULL;
  if (!mem && size) {
    t = calloc(1, sizeof *t);
    if (!t) return CL_OUT_OF_HOST_MEMORY;
    *t = (host_transfer){svm_ptr, NULL, size, pattern_size, {0}};
    memcpy(t->pattern, pattern, pattern_size);
  }
  clx_enqueue enqueue;
  cl_int error = clx_command_begin(to, CL_COMMAND_SVM_MEMFILL, &enqueue);
  if (error != CL_SUCCESS) {
    free(t);
    return error;
  }
  if (t) {
    error = record_host_transfer(&enqueue, t);
  } else if (size) {
    error = record_result(
        &enqueue,
        muxCommandFillBuffer(enqueue.command_buffer, mem->mux_buffer, offset,
                             size, pattern, pattern_size, 0, NULL, NULL));
  }
  if (error != CL_SUCCESS) return error;
  if (mem) clx_enqueue_hold(&enqueue, CLX_OBJ(mem));
  return clx_command_end(to, &enqueue);
}

cl_int CL_API_CALL clx_enqueue_svm_memcpy(cl_command_queue queue,
                                          cl_bool blocking_copy, void *dst_ptr,
                                          const void *src_ptr, size_t size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event) {
  clx_destination to =
      clx_to_queue(queue, num_events_in_wait_list, event_wait_list, event);
  return svm_memcpy(&to, blocking_copy != CL_FALSE, dst_ptr, src_ptr, size);
}

cl_int CL_API_CALL clx_enqueue_svm_mem_fill(cl_command_queue queue,
                                            void *svm_ptr, const void *pattern,
                                            size_t pattern_size, size_t size,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list,
                                            cl_event *event) {
  clx_destination to =
      clx_to_queue(queue, num_events_in_wait_list, event_wait_list, event);
  return clx_svm_mem_fill(&to, svm_ptr, pattern, pattern_size, size);
}

static bool queue_valid(cl_command_queue queue) {
  return clx_valid(queue, clx_kind_command_queue);
}

cl_int CL_API_CALL clx_enqueue_svm_map(cl_command_queue queue,
                                       cl_bool blocking_map, cl_map_flags flags,
                                       void *svm_ptr, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list,
                                       cl_event *event) {
  if (!queue_valid(queue)) return CL_INVALID_COMMAND_QUEUE;
  const cl_map_flags known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (!svm_ptr || size == 0 || (flags & ~known) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
       (flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
    return CL_INVALID_VALUE;
  }
  return clx_enqueue_nothing(queue, CL_COMMAND_SVM_MAP,
                             blocking_map != CL_FALSE, num_events_in_wait_list,
                             event_wait_list, event);
}

cl_int CL_API_CALL clx_enqueue_svm_unmap(cl_command_queue queue, void *svm_ptr,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list,
                                         cl_event *event) {
  if (!queue_valid(queue)) return CL_INVALID_COMMAND_QUEUE;
  if (!svm_ptr) return CL_INVALID_VALUE;
  return clx_enqueue_nothing(queue, CL_COMMAND_SVM_UNMAP, false,
                             num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clx_enqueue_svm_migrate_mem(
    cl_command_queue queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  if (!queue_valid(queue)) return CL_INVALID_COMMAND_QUEUE;
  const cl_mem_migration_flags known =
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  if (num_svm_pointers == 0 || !svm_pointers || (flags & ~known)) {
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_svm_pointers; i++) {
    if (!svm_pointers[i]) return CL_INVALID_VALUE;
  }
  (void)sizes; /* any range of any pointer: nothing moves */
  return clx_enqueue_nothing(queue, CL_COMMAND_SVM_MIGRATE_MEM, false,
                             num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMFree: the list is copied; the command frees when it runs. */
typedef struct svm_free {
  cl_command_queue queue;
  void(CL_CALLBACK *fn)(cl_command_queue queue, cl_uint num_svm_pointers,
                        void *svm_pointers[], void *user_data);
  void *user_data;
  cl_uint count;
  void *pointers[];
} svm_free;

static void run_svm_free(mux_queue_t queue, mux_command_buffer_t command_buffer,
                         void *data) {
  (void)queue;
  (void)command_buffer;
  svm_free *f = data;
  if (f->fn) {
    f->fn(f->queue, f->count, f->pointers, f->user_data);
    return;
  }
  for (cl_uint i = 0; i < f->count; i++) {
    clx_svm_free(f->queue->context, f->pointers[i]);
  }
}

cl_int CL_API_CALL clx_enqueue_svm_free(
    cl_command_queue queue, cl_uint num_svm_pointers, void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue,
                                     cl_uint num_svm_pointers,
                                     void *svm_pointers[], void *user_data),
    void *user_data, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  if (!queue_valid(queue)) return CL_INVALID_COMMAND_QUEUE;
  if ((num_svm_pointers == 0) != (svm_pointers == NULL)) {
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_svm_pointers; i++) {
    if (!svm_pointers[i]) return CL_INVALID_VALUE;
  }
  svm_free *f =
      malloc(sizeof *f + (size_t)num_svm_pointers * sizeof *f->pointers);
  if (!f) return CL_OUT_OF_HOST_MEMORY;
  f->queue = queue;
  f->fn = pfn_free_func;
  f->user_data = user_data;
  f->count = num_svm_pointers;
  if (num_svm_pointers) {
    memcpy(f->pointers, svm_pointers,
           (size_t)num_svm_pointers * sizeof *f->pointers);
  }
  clx_enqueue enqueue;
  cl_int error =
      clx_enqueue_begin(queue, CL_COMMAND_SVM_FREE, num_events_in_wait_list,
                        event_wait_list, &enqueue);
  if (error != CL_SUCCESS) {
    free(f);
    return error;
  }
  mux_result_t result = muxCommandUserCallback(enqueue.command_buffer,
                                               run_svm_free, f, 0, NULL, NULL);
  if (result != mux_success) {
    free(f);
    return record_result(&enqueue, result);
  }
  error = clx_enqueue_on_complete(&enqueue, free_host_transfer, f);
  if (error != CL_SUCCESS) return clx_enqueue_abort(&enqueue, error);
  return clx_enqueue_end(&enqueue, event, false);
}

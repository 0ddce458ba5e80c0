/* clmux OpenCL front-end: what buffers and images share — flag rules, the
 * object header and its storage, info queries, destructor callbacks, the
 * bookkeeping of live mappings, unmap and migrate. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

struct clx_mem_callback {
  void(CL_CALLBACK *notify)(cl_mem memobj, void *user_data);
  void *user_data;
  clx_mem_callback *next;
};

/* One live clEnqueueMap* result. */
struct clx_mapping {
  void *pointer;
  cl_map_flags flags;
  clx_mapping *next;
};

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS \
  (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS \
  (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

static bool more_than_one_bit(cl_mem_flags bits) {
  return (bits & (bits - 1)) != 0;
}

cl_int clx_mem_check_flags(cl_mem_flags flags) {
  if (flags & ~(ACCESS_FLAGS | HOST_ACCESS_FLAGS | HOST_PTR_FLAGS)) {
    return CL_INVALID_VALUE;
  }
  if (more_than_one_bit(flags & ACCESS_FLAGS)) return CL_INVALID_VALUE;
  if (more_than_one_bit(flags & HOST_ACCESS_FLAGS)) return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) &&
      (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

cl_int clx_mem_check_host_ptr(cl_mem_flags flags, const void *host_ptr) {
  bool wants = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  return wants == (host_ptr != NULL) ? CL_SUCCESS : CL_INVALID_HOST_PTR;
}

mux_device_t clx_mem_mux_device(cl_context context) {
  return context->devices[0]->mux_device;
}

static void mem_destroy(clx_object *object) {
  cl_mem mem = (cl_mem)object;
  /* 1.2: the callbacks run newest first, before the storage goes (the user
   * may free a USE_HOST_PTR region from one). */
  for (clx_mem_callback *c = mem->destructor_callbacks; c;) {
    clx_mem_callback *next = c->next;
    c->notify(mem, c->user_data);
    free(c);
    c = next;
  }
  mux_device_t device = clx_mem_mux_device(mem->context);
  if (mem->mux_buffer) muxDestroyBuffer(device, mem->mux_buffer, clx_allocator);
  if (mem->mux_image) muxDestroyImage(device, mem->mux_image, clx_allocator);
  if (mem->mux_memory) muxFreeMemory(device, mem->mux_memory, clx_allocator);
  for (clx_mapping *m = mem->mappings; m;) {
    clx_mapping *next = m->next;
    free(m);
    m = next;
  }
  pthread_mutex_destroy(&mem->lock);
  if (mem->parent) clx_unhold(CLX_OBJ(mem->parent));
  clx_unhold(CLX_OBJ(mem->context));
  free(mem);
}

cl_mem clx_mem_create(cl_context context, cl_mem_object_type type,
                      cl_mem_flags flags, size_t size, void *host_ptr,
                      cl_int *errcode) {
  cl_int error = CL_SUCCESS;
  if (!clx_valid(context, clx_kind_context)) {
    error = CL_INVALID_CONTEXT;
  } else if ((error = clx_mem_check_flags(flags)) == CL_SUCCESS) {
    error = clx_mem_check_host_ptr(flags, host_ptr);
  }
  cl_mem mem = NULL;
  if (error == CL_SUCCESS) {
    mem = calloc(1, sizeof(*mem));
    if (!mem) error = CL_OUT_OF_HOST_MEMORY;
  }
  if (errcode) *errcode = error;
  if (error != CL_SUCCESS) return NULL;
  clx_object_init(CLX_OBJ(mem), clx_kind_mem, mem_destroy);
  clx_hold(CLX_OBJ(context));
  mem->context = context;
  mem->type = type;
  mem->flags = (flags & ACCESS_FLAGS) ? flags : flags | CL_MEM_READ_WRITE;
  mem->size = size;
  mem->host_ptr = host_ptr;
  pthread_mutex_init(&mem->lock, NULL);
  atomic_init(&mem->map_count, 0);
  return mem;
}

cl_int clx_mem_allocate(cl_mem mem) {
  return clx_mem_allocate_aligned(
      mem, clx_mem_mux_device(mem->context)->info->buffer_alignment);
}

cl_int clx_mem_allocate_aligned(cl_mem mem, uint32_t alignment) {
  mux_device_t device = clx_mem_mux_device(mem->context);
  mux_result_t result;
  if (mem->flags & CL_MEM_USE_HOST_PTR) {
    result = muxCreateMemoryFromHost(device, mem->size, mem->host_ptr,
                                     clx_allocator, &mem->mux_memory);
  } else {
    result = muxAllocateMemory(
        device, mem->size, 1,
        mux_memory_property_host_visible | mux_memory_property_host_coherent,
        mux_allocation_type_alloc_host, alignment, clx_allocator,
        &mem->mux_memory);
  }
  if (result != mux_success) {
    mem->mux_memory = NULL;
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  /* Coherent memory: one mapping for the object's whole life. */
  void *data = NULL;
  if (muxMapMemory(device, mem->mux_memory, 0, mem->size, &data) !=
      mux_success) {
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  mem->data = data;
  if (mem->flags & CL_MEM_COPY_HOST_PTR) {
    memcpy(mem->data, mem->host_ptr, mem->size);
  }
  return CL_SUCCESS;
}

bool clx_mem_host_can_read(cl_mem mem) {
  return !(mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}

bool clx_mem_host_can_write(cl_mem mem) {
  return !(mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

cl_int clx_mem_check_map(cl_mem mem, cl_map_flags map_flags) {
  const cl_map_flags known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (map_flags & ~known) return CL_INVALID_VALUE;
  if ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
      (map_flags & (CL_MAP_READ | CL_MAP_WRITE))) {
    return CL_INVALID_VALUE;
  }
  if ((map_flags & CL_MAP_READ) && !clx_mem_host_can_read(mem)) {
    return CL_INVALID_OPERATION;
  }
  if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      !clx_mem_host_can_write(mem)) {
    return CL_INVALID_OPERATION;
  }
  return CL_SUCCESS;
}

cl_int clx_mem_add_mapping(cl_mem mem, void *pointer, cl_map_flags flags) {
  clx_mapping *mapping = malloc(sizeof(*mapping));
  if (!mapping) return CL_OUT_OF_HOST_MEMORY;
  mapping->pointer = pointer;
  mapping->flags = flags;
  pthread_mutex_lock(&mem->lock);
  mapping->next = mem->mappings;
  mem->mappings = mapping;
  atomic_fetch_add(&mem->map_count, 1);
  pthread_mutex_unlock(&mem->lock);
  return CL_SUCCESS;
}

bool clx_mem_remove_mapping(cl_mem mem, void *pointer) {
  clx_mapping *found = NULL;
  pthread_mutex_lock(&mem->lock);
  for (clx_mapping **link = &mem->mappings; *link; link = &(*link)->next) {
    if ((*link)->pointer == pointer) {
      found = *link;
      *link = found->next;
      atomic_fetch_sub(&mem->map_count, 1);
      break;
    }
  }
  pthread_mutex_unlock(&mem->lock);
  free(found);
  return found != NULL;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  if (!clx_valid(memobj, clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
  clx_retain(CLX_OBJ(memobj));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  if (!clx_valid(memobj, clx_kind_mem) || !clx_release(CLX_OBJ(memobj))) {
    return CL_INVALID_MEM_OBJECT;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size,
                                      void *param_value,
                                      size_t *param_value_size_ret) {
  if (!clx_valid(memobj, clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
  union {
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t size;
    void *pointer;
    cl_uint count;
    cl_context context;
    cl_mem mem;
  } value;
  size_t size;
#define ANSWER(field, v) (value.field = (v), size = sizeof(value.field))
  switch (param_name) {
    case CL_MEM_TYPE:
      ANSWER(type, memobj->type);
      break;
    case CL_MEM_FLAGS:
      ANSWER(flags, memobj->flags);
      break;
    case CL_MEM_SIZE:
      ANSWER(size, memobj->size);
      break;
    case CL_MEM_HOST_PTR:
      /* Only USE_HOST_PTR objects report a host pointer. */
      ANSWER(pointer,
             (memobj->flags & CL_MEM_USE_HOST_PTR) ? memobj->host_ptr : NULL);
      break;
    case CL_MEM_MAP_COUNT:
      ANSWER(count, atomic_load(&memobj->map_count));
      break;
    case CL_MEM_REFERENCE_COUNT:
      ANSWER(count, clx_user_references(CLX_OBJ(memobj)));
      break;
    case CL_MEM_CONTEXT:
      ANSWER(context, memobj->context);
      break;
    case CL_MEM_ASSOCIATED_MEMOBJECT:
      ANSWER(mem, memobj->parent);
      break;
    case CL_MEM_OFFSET:
      ANSWER(size, memobj->origin);
      break;
    case CL_MEM_PROPERTIES:
      return clx_properties_info(CLX_OBJ(memobj), param_value_size, param_value,
                                 param_value_size_ret);
    case CL_MEM_USES_SVM_POINTER: {
      cl_bool uses = memobj->uses_svm ? CL_TRUE : CL_FALSE;
      return clx_info(&uses, sizeof uses, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
#undef ANSWER
  return clx_info(&value, size, param_value_size, param_value,
                  param_value_size_ret);
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj,
    void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data),
    void *user_data) {
  if (!clx_valid(memobj, clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  clx_mem_callback *callback = malloc(sizeof(*callback));
  if (!callback) return CL_OUT_OF_HOST_MEMORY;
  callback->notify = pfn_notify;
  callback->user_data = user_data;
  pthread_mutex_lock(&memobj->lock);
  callback->next = memobj->destructor_callbacks; /* newest first */
  memobj->destructor_callbacks = callback;
  pthread_mutex_unlock(&memobj->lock);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue,
                                           cl_mem memobj, void *mapped_ptr,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list,
                                           cl_event *event) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (!clx_valid(memobj, clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
  if (memobj->context != command_queue->context) return CL_INVALID_CONTEXT;
  if (!mapped_ptr) return CL_INVALID_VALUE;
  clx_enqueue enqueue;
  cl_int error =
      clx_enqueue_begin(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT,
                        num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  /* Mappings are zero-copy: unmapping only ends the bookkeeping, and the
   * command orders it in the queue. */
  if (!clx_mem_remove_mapping(memobj, mapped_ptr)) {
    return clx_enqueue_abort(&enqueue, CL_INVALID_VALUE);
  }
  clx_enqueue_hold(&enqueue, CLX_OBJ(memobj));
  return clx_enqueue_end(&enqueue, event, false);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects,
                                              const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list,
                                              cl_event *event) {
  if (!clx_valid(command_queue, clx_kind_command_queue)) {
    return CL_INVALID_COMMAND_QUEUE;
  }
  if (num_mem_objects == 0 || !mem_objects) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    if (!clx_valid(mem_objects[i], clx_kind_mem)) return CL_INVALID_MEM_OBJECT;
    if (mem_objects[i]->context != command_queue->context) {
      return CL_INVALID_CONTEXT;
    }
  }
  if (flags &
      ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) {
    return CL_INVALID_VALUE;
  }
  clx_enqueue enqueue;
  cl_int error =
      clx_enqueue_begin(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS,
                        num_events_in_wait_list, event_wait_list, &enqueue);
  if (error != CL_SUCCESS) return error;
  /* Host and device share one memory: nothing moves, but the command keeps
   * its place in the queue and its objects alive until it completes. */
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    clx_enqueue_hold(&enqueue, CLX_OBJ(mem_objects[i]));
  }
  return clx_enqueue_end(&enqueue, event, false);
}

bool clx_mem_origin_aligned(cl_device_id device, size_t origin) {
  cl_uint bits = 0;
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits),
                      &bits, &size) != CL_SUCCESS ||
      size != sizeof(bits) || bits < 8) {
    bits = device->info->buffer_alignment * 8; /* the Mux value */
  }
  if (bits < 8) bits = 8;
  return origin % (bits / 8) == 0;
}

/* clmux OpenCL front-end: what every object shares — the ICD header,
 * reference counting, handle checks — and the clGet*Info copy rules. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

void clx_object_init(clx_object *object, clx_kind kind,
                     void (*destroy)(clx_object *object)) {
  object->dispatch = &clx_dispatch;
  object->magic = CLX_MAGIC(kind);
  atomic_init(&object->references, 1);
  atomic_init(&object->user_references, 1);
  object->destroy = destroy;
  object->properties = NULL;
  object->properties_size = 0;
}

bool clx_valid(const void *handle, clx_kind kind) {
  const clx_object *object = handle;
  return object != NULL && object->magic == CLX_MAGIC(kind) &&
         atomic_load_explicit(&object->references, memory_order_relaxed) > 0;
}

void clx_retain(clx_object *object) {
  atomic_fetch_add(&object->user_references, 1);
  atomic_fetch_add(&object->references, 1);
}

bool clx_release(clx_object *object) {
  unsigned user = atomic_load(&object->user_references);
  do {
    if (user == 0) return false;
  } while (
      !atomic_compare_exchange_weak(&object->user_references, &user, user - 1));
  clx_unhold(object);
  return true;
}

void clx_hold(clx_object *object) { atomic_fetch_add(&object->references, 1); }

void clx_unhold(clx_object *object) {
  if (atomic_fetch_sub(&object->references, 1) == 1) {
    object->magic = 0;
    free(object->properties);
    object->destroy(object);
  }
}

cl_int clx_keep_properties(clx_object *object, const cl_properties *list) {
  if (!list) return CL_SUCCESS;
  size_t count = 0;
  while (list[count]) count += 2;
  size_t size = (count + 1) * sizeof *list;
  cl_properties *copy = malloc(size);
  if (!copy) return CL_OUT_OF_HOST_MEMORY;
  memcpy(copy, list, size);
  object->properties = copy;
  object->properties_size = size;
  return CL_SUCCESS;
}

cl_int clx_properties_info(const clx_object *object, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  return clx_info(object->properties, object->properties_size, param_value_size,
                  param_value, param_value_size_ret);
}

cl_uint clx_user_references(const clx_object *object) {
  return atomic_load(&object->user_references);
}

cl_int clx_info(const void *value, size_t size, size_t param_value_size,
                void *param_value, size_t *param_value_size_ret) {
  if (param_value) {
    if (param_value_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(param_value, value, size);
  }
  if (param_value_size_ret) *param_value_size_ret = size;
  return CL_SUCCESS;
}

cl_int clx_info_string(const char *value, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret) {
  return clx_info(value, strlen(value) + 1, param_value_size, param_value,
                  param_value_size_ret);
}

static void *clx_host_alloc(void *user_data, size_t size, size_t alignment) {
  (void)user_data;
  void *pointer = NULL;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  return posix_memalign(&pointer, alignment, size ? size : 1) ? NULL : pointer;
}

static void clx_host_free(void *user_data, void *pointer) {
  (void)user_data;
  free(pointer);
}

const mux_allocator_info_t clx_allocator = {clx_host_alloc, clx_host_free,
                                            NULL};

bool clx_grow(void **array, size_t *capacity, size_t count, size_t size) {
  if (count < *capacity) return true;
  size_t wanted = *capacity ? *capacity * 2 : 8;
  void *grown = realloc(*array, wanted * size);
  if (!grown) return false;
  *array = grown;
  *capacity = wanted;
  return true;
}

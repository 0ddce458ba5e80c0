/* clmux OpenCL front-end: contexts. A context holds its devices and keeps
 * the properties exactly as given, for CL_CONTEXT_PROPERTIES. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

struct clx_context_destructor {
  clx_context_destructor *next;
  void(CL_CALLBACK *notify)(cl_context, void *);
  void *user_data;
};

cl_int clx_context_add_destructor(cl_context context,
                                  void(CL_CALLBACK *notify)(cl_context, void *),
                                  void *user_data) {
  clx_context_destructor *entry = malloc(sizeof *entry);
  if (!entry) return CL_OUT_OF_HOST_MEMORY;
  entry->notify = notify;
  entry->user_data = user_data;
  entry->next = atomic_load(&context->destructors);
  while (!atomic_compare_exchange_weak(&context->destructors, &entry->next,
                                       entry)) {
  }
  return CL_SUCCESS;
}

static void context_destroy(clx_object *object) {
  cl_context context = (cl_context)object;
  /* In the reverse order of registration, before anything is freed. */
  for (clx_context_destructor *entry = atomic_load(&context->destructors);
       entry;) {
    clx_context_destructor *next = entry->next;
    entry->notify(context, entry->user_data);
    free(entry);
    entry = next;
  }
  for (cl_uint i = 0; i < context->num_devices; i++) {
    clx_unhold(CLX_OBJ(context->devices[i]));
  }
  free(context->devices);
  free(context->properties);
  free(context->svm); /* empty: each allocation holds the context */
  pthread_mutex_destroy(&context->svm_lock);
  free(context);
}

/* Checks the property list; on success *count is the number of entries
 * including the terminating 0 (0 if `properties` is NULL). */
static cl_int check_properties(const cl_context_properties *properties,
                               size_t *count) {
  *count = 0;
  if (!properties) return CL_SUCCESS;
  bool have_platform = false, have_sync = false;
  size_t i = 0;
  for (; properties[i] != 0; i += 2) {
    cl_context_properties value = properties[i + 1];
    switch (properties[i]) {
      case CL_CONTEXT_PLATFORM:
        if (have_platform) return CL_INVALID_PROPERTY;
        have_platform = true;
        if (clx_platform() == NULL || (cl_platform_id)value != clx_platform()) {
          return CL_INVALID_PLATFORM;
        }
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        if (have_sync) return CL_INVALID_PROPERTY;
        have_sync = true;
        if (value != CL_TRUE && value != CL_FALSE) return CL_INVALID_PROPERTY;
        break;
      default:
        return CL_INVALID_PROPERTY;
    }
  }
  *count = i + 1;
  return CL_SUCCESS;
}

static cl_context create_context(const cl_context_properties *properties,
                                 size_t property_count, cl_uint num_devices,
                                 const cl_device_id *devices,
                                 clx_context_notify notify, void *user_data,
                                 cl_int *error) {
  cl_context context = calloc(1, sizeof *context);
  if (!context) goto out_of_memory;
  context->devices = calloc(num_devices, sizeof *context->devices);
  if (!context->devices) goto out_of_memory;
  if (property_count) {
    context->properties_size = property_count * sizeof *properties;
    context->properties = malloc(context->properties_size);
    if (!context->properties) goto out_of_memory;
    memcpy(context->properties, properties, context->properties_size);
  }
  /* Duplicates in the list are ignored (OpenCL 1.2, clCreateContext). */
  for (cl_uint i = 0; i < num_devices; i++) {
    bool seen = false;
    for (cl_uint j = 0; j < context->num_devices; j++) {
      seen = seen || context->devices[j] == devices[i];
    }
    if (!seen) {
      clx_hold(CLX_OBJ(devices[i]));
      context->devices[context->num_devices++] = devices[i];
    }
  }
  context->notify = notify;
  context->notify_user_data = user_data;
  pthread_mutex_init(&context->svm_lock, NULL);
  clx_object_init(CLX_OBJ(context), clx_kind_context, context_destroy);
  *error = CL_SUCCESS;
  return context;

out_of_memory:
  if (context) {
    free(context->devices);
    free(context->properties);
    free(context);
  }
  *error = CL_OUT_OF_HOST_MEMORY;
  return NULL;
}

cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info,
                                  size_t cb, void *user_data),
    void *user_data, cl_int *errcode_ret) {
  cl_int ignored;
  cl_int *error = errcode_ret ? errcode_ret : &ignored;
  size_t property_count;
  *error = check_properties(properties, &property_count);
  if (*error != CL_SUCCESS) return NULL;
  if (devices == NULL || num_devices == 0 ||
      (pfn_notify == NULL && user_data != NULL)) {
    *error = CL_INVALID_VALUE;
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!clx_device_valid(devices[i])) {
      *error = CL_INVALID_DEVICE;
      return NULL;
    }
  }
  return create_context(properties, property_count, num_devices, devices,
                        pfn_notify, user_data, error);
}

cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info,
                                  size_t cb, void *user_data),
    void *user_data, cl_int *errcode_ret) {
  cl_int ignored;
  cl_int *error = errcode_ret ? errcode_ret : &ignored;
  size_t property_count;
  *error = check_properties(properties, &property_count);
  if (*error != CL_SUCCESS) return NULL;
  if (pfn_notify == NULL && user_data != NULL) {
    *error = CL_INVALID_VALUE;
    return NULL;
  }
  cl_platform_id platform = clx_platform();
  if (!platform) {
    *error = CL_INVALID_PLATFORM;
    return NULL;
  }
  /* clGetDeviceIDs applies the type rules: CL_INVALID_DEVICE_TYPE,
   * CL_DEVICE_NOT_FOUND. */
  cl_uint count = 0;
  *error = clGetDeviceIDs(platform, device_type, 0, NULL, &count);
  if (*error != CL_SUCCESS) return NULL;
  cl_device_id *devices = calloc(count, sizeof *devices);
  if (!devices) {
    *error = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  cl_context context = NULL;
  *error = clGetDeviceIDs(platform, device_type, count, devices, NULL);
  if (*error == CL_SUCCESS) {
    context = create_context(properties, property_count, count, devices,
                             pfn_notify, user_data, error);
  }
  free(devices);
  return context;
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  clx_retain(CLX_OBJ(context));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  if (!clx_valid(context, clx_kind_context) || !clx_release(CLX_OBJ(context))) {
    return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context,
                                    cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  if (!clx_valid(context, clx_kind_context)) return CL_INVALID_CONTEXT;
  cl_uint number;
  switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
      number = clx_user_references(CLX_OBJ(context));
      return clx_info(&number, sizeof number, param_value_size, param_value,
                      param_value_size_ret);
    case CL_CONTEXT_NUM_DEVICES:
      number = context->num_devices;
      return clx_info(&number, sizeof number, param_value_size, param_value,
                      param_value_size_ret);
    case CL_CONTEXT_DEVICES:
      return clx_info(context->devices,
                      context->num_devices * sizeof *context->devices,
                      param_value_size, param_value, param_value_size_ret);
    case CL_CONTEXT_PROPERTIES:
      return clx_info(context->properties, context->properties_size,
                      param_value_size, param_value, param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

bool clx_context_has_device(cl_context context, cl_device_id device) {
  for (cl_uint i = 0; i < context->num_devices; i++) {
    if (context->devices[i] == device) return true;
  }
  return false;
}

void clx_context_report(cl_context context, const char *message) {
  if (context->notify) {
    context->notify(message, NULL, 0, context->notify_user_data);
  }
}

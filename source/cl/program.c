/* clmux OpenCL front-end: programs. Built-in kernel programs are ready at
 * creation (the device's kernels need no build). Source and binary
 * programs carry a compiler module (compiler/module/module.h) once
 * compiled, linked or loaded: the object, library or executable whose
 * bytes are CL_PROGRAM_BINARIES and whose kernels clCreateKernel finds.
 * Building is program_build.c. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "module.h"

/* A module replaced while commands still ran its kernels or a link read
 * it. */
typedef struct clx_retired {
  struct clx_retired *next;
  cc_module *module;
  clx_specialization *specializations;
} clx_retired;

static void free_retired(cl_program program, clx_retired *retired) {
  while (retired) {
    clx_retired *next = retired->next;
    clx_specializations_destroy(program, retired->specializations);
    cc_module_destroy(retired->module);
    free(retired);
    retired = next;
  }
}

void clx_program_module_released(cl_program program) {
  if (atomic_fetch_sub(&program->module_users, 1) != 1) return;
  pthread_mutex_lock(&program->lock);
  clx_retired *retired = program->retired;
  program->retired = NULL;
  pthread_mutex_unlock(&program->lock);
  free_retired(program, retired);
}

static void program_destroy(clx_object *object) {
  cl_program program = (cl_program)object;
  /* Specializations are destroyed on the program's device: first. */
  clx_specializations_destroy(program,
                              clx_program_take_specializations(program));
  free_retired(program, program->retired);
  clx_program_globals_free(program->globals);
  cc_module_destroy(program->module);
  clx_unhold(CLX_OBJ(program->context));
  free(program->devices);
  free(program->built_for);
  free(program->source);
  free(program->il);
  free(program->spec_constants);
  free(program->spec_values);
  free(program->kernel_names);
  clx_free_signatures(program->signatures, program->num_signatures);
  free(program->build_options);
  free(program->build_log);
  free(program->binary);
  pthread_mutex_destroy(&program->specializations_lock);
  pthread_mutex_destroy(&program->lock);
  free(program);
}

cl_program clx_program_new(cl_context context, cl_uint num_devices,
                           const cl_device_id *devices) {
  cl_program program = calloc(1, sizeof *program);
  if (!program) return NULL;
  program->devices = malloc(num_devices * sizeof *program->devices);
  if (!program->devices) {
    free(program);
    return NULL;
  }
  memcpy(program->devices, devices, num_devices * sizeof *devices);
  program->num_devices = num_devices;
  program->context = context;
  program->build_status = CL_BUILD_NONE;
  atomic_init(&program->kernels_attached, 0);
  atomic_init(&program->module_users, 0);
  pthread_mutex_init(&program->lock, NULL);
  pthread_mutex_init(&program->specializations_lock, NULL);
  clx_hold(CLX_OBJ(context));
  clx_object_init(CLX_OBJ(program), clx_kind_program, program_destroy);
  return program;
}

static cl_program fail(cl_int *errcode_ret, cl_int error) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

cl_int clx_check_device_list(cl_context context, cl_uint num_devices,
                                const cl_device_id *device_list) {
  if (num_devices == 0 || !device_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!clx_device_valid(device_list[i]) ||
        !clx_context_has_device(context, device_list[i])) {
      return CL_INVALID_DEVICE;
    }
  }
  return CL_SUCCESS;
}

static bool program_has_device(cl_program program, cl_device_id device) {
  for (cl_uint i = 0; i < program->num_devices; i++) {
    if (program->devices[i] == device) return true;
  }
  return false;
}

cl_int clx_check_build_devices(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list) {
  if ((num_devices == 0) != (device_list == NULL)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!clx_device_valid(device_list[i]) ||
        !program_has_device(program, device_list[i])) {
      return CL_INVALID_DEVICE;
    }
  }
  return CL_SUCCESS;
}

static char *copy_string(const char *text) {
  char *copy = malloc(strlen(text) + 1);
  if (copy) strcpy(copy, text);
  return copy;
}

/* ---- Creation ------------------------------------------------------------*/

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context,
                                                 cl_uint count,
                                                 const char **strings,
                                                 const size_t *lengths,
                                                 cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  if (count == 0 || !strings) return fail(errcode_ret, CL_INVALID_VALUE);
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) return fail(errcode_ret, CL_INVALID_VALUE);
    /* A length of 0 (or no lengths) means NUL-terminated. */
    size_t length = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    if (length > SIZE_MAX - 1 - total) {
      return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    total += length;
  }
  char *source = malloc(total + 1);
  if (!source) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t length = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(source + at, strings[i], length);
    at += length;
  }
  source[at] = '\0';
  cl_program program =
      clx_program_new(context, context->num_devices, context->devices);
  if (!program) {
    free(source);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  program->source = source;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return program;
}

cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const size_t *lengths, const unsigned char **binaries,
    cl_int *binary_status, cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  cl_int error = clx_check_device_list(context, num_devices, device_list);
  if (error != CL_SUCCESS) return fail(errcode_ret, error);
  if (!lengths || !binaries) return fail(errcode_ret, CL_INVALID_VALUE);
  /* Every device gets its own module; the program keeps the first (all
   * devices of the platform are the one CPU, so they are alike). */
  cc_module *first = NULL;
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_int status = CL_SUCCESS;
    if (lengths[i] == 0 || binaries[i] == NULL) {
      status = CL_INVALID_VALUE;
    } else {
      cc_module_result result = CC_MODULE_SUCCESS;
      cc_module *module =
          cc_module_deserialize(binaries[i], lengths[i], NULL, &result);
      if (!module) {
        status = result == CC_MODULE_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY
                                                   : CL_INVALID_BINARY;
      } else if (!first) {
        first = module;
      } else {
        cc_module_destroy(module);
      }
    }
    if (binary_status) binary_status[i] = status;
    /* A missing binary outranks a bad one (CL_INVALID_VALUE first). */
    if (status != CL_SUCCESS &&
        (error == CL_SUCCESS || status == CL_INVALID_VALUE)) {
      error = status;
    }
  }
  cl_program program = error == CL_SUCCESS
                           ? clx_program_new(context, num_devices, device_list)
                           : NULL;
  if (!program) {
    cc_module_destroy(first);
    return fail(errcode_ret,
                error == CL_SUCCESS ? CL_OUT_OF_HOST_MEMORY : error);
  }
  program->from_binary = true;
  program->module = first;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return program;
}

/* Whether `name` (name_length bytes) is among `signatures`; its index. */
static int find_signature(const clx_kernel_signature *signatures, int count,
                          const char *name, size_t name_length) {
  for (int i = 0; i < count; i++) {
    if (strlen(signatures[i].name) == name_length &&
        memcmp(signatures[i].name, name, name_length) == 0) {
      return i;
    }
  }
  return -1;
}

/* Moves the signatures named in `kernel_names` out of `declared` into
 * `program`, in the order named (each once). */
static cl_int take_named_signatures(cl_program program,
                                    clx_kernel_signature *declared,
                                    int num_declared,
                                    const char *kernel_names) {
  int capacity = 1;
  for (const char *p = kernel_names; *p; p++) capacity += *p == ';';
  program->signatures = calloc((size_t)capacity, sizeof *program->signatures);
  if (!program->signatures) return CL_OUT_OF_HOST_MEMORY;
  const char *start = kernel_names;
  for (;;) {
    const char *stop = strchr(start, ';');
    if (!stop) stop = start + strlen(start);
    const char *end = stop;
    while (start < end && *start == ' ') start++;
    while (end > start && end[-1] == ' ') end--;
    int index =
        find_signature(declared, num_declared, start, (size_t)(end - start));
    if (index < 0) return CL_INVALID_VALUE;
    if (find_signature(program->signatures, program->num_signatures, start,
                       (size_t)(end - start)) < 0) {
      program->signatures[program->num_signatures++] = declared[index];
      declared[index].args = NULL; /* now owned by the program */
      declared[index].num_args = 0;
    }
    if (*stop == '\0') break;
    start = stop + 1;
  }
  return CL_SUCCESS;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  cl_int error = clx_check_device_list(context, num_devices, device_list);
  if (error != CL_SUCCESS) return fail(errcode_ret, error);
  if (!kernel_names) return fail(errcode_ret, CL_INVALID_VALUE);

  cl_program program = clx_program_new(context, num_devices, device_list);
  char *names = copy_string(kernel_names);
  if (!program || !names) {
    free(names);
    if (program) clx_unhold(CLX_OBJ(program));
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  program->kernel_names = names;
  /* Every named kernel must be declared by every listed device; the
   * program keeps the first device's signatures. */
  for (cl_uint d = 0; d < num_devices && error == CL_SUCCESS; d++) {
    clx_kernel_signature *declared = NULL;
    int count = clx_parse_declarations(
        device_list[d]->info->builtin_kernel_declarations, &declared);
    if (count < 0) {
      error = CL_INVALID_VALUE;
    } else if (d == 0) {
      error = take_named_signatures(program, declared, count, kernel_names);
    } else {
      for (int i = 0; i < program->num_signatures; i++) {
        const char *name = program->signatures[i].name;
        if (find_signature(declared, count, name, strlen(name)) < 0) {
          error = CL_INVALID_VALUE;
        }
      }
    }
    clx_free_signatures(declared, count < 0 ? 0 : count);
  }
  if (error != CL_SUCCESS) {
    clx_unhold(CLX_OBJ(program));
    return fail(errcode_ret, error);
  }
  program->build_status = CL_BUILD_SUCCESS;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return program;
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  clx_retain(CLX_OBJ(program));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  if (!clx_valid(program, clx_kind_program) ||
      !clx_release(CLX_OBJ(program))) {
    return CL_INVALID_PROGRAM;
  }
  return CL_SUCCESS;
}

/* ---- What builds leave behind ---------------------------------------------*/

void clx_program_set_build(cl_program program, cc_module *module,
                           cl_build_status status, char *options, char *log) {
  clx_retired *retire = NULL;
  pthread_mutex_lock(&program->lock);
  cc_module *old = program->module != module ? program->module : NULL;
  uint8_t *old_binary = program->binary;
  clx_specialization *old_specializations =
      old ? clx_program_take_specializations(program) : NULL;
  /* Commands may still run the old module's kernels (the user released
   * them all, or the build would have been refused), or a link may still
   * read it: keep it till the last user goes. */
  if (old && atomic_load(&program->module_users) > 0) {
    retire = calloc(1, sizeof *retire);
    if (retire) {
      retire->module = old;
      retire->specializations = old_specializations;
      retire->next = program->retired;
      program->retired = retire;
    }
  }
  program->module = module;
  /* The old module's variables go with it (launches hold their block). */
  struct clx_globals_block *old_globals = old ? program->globals : NULL;
  if (old) {
    program->globals = NULL;
    program->globals_module = NULL;
  }
  program->binary = NULL;
  program->binary_size = 0;
  program->build_status = status;
  free(program->build_options);
  program->build_options = options;
  free(program->build_log);
  program->build_log = log;
  pthread_mutex_unlock(&program->lock);
  if (old && !retire) {
    clx_specializations_destroy(program, old_specializations);
    cc_module_destroy(old);
  }
  clx_program_globals_free(old_globals);
  free(old_binary);
}

void clx_program_log_append(cl_program program, const char *text) {
  pthread_mutex_lock(&program->lock);
  size_t had = program->build_log ? strlen(program->build_log) : 0;
  char *grown = realloc(program->build_log, had + strlen(text) + 1);
  if (grown) {
    strcpy(grown + had, text);
    program->build_log = grown;
  }
  pthread_mutex_unlock(&program->lock);
}

static bool executable_locked(cl_program program) {
  if (program->build_status != CL_BUILD_SUCCESS) return false;
  return program->signatures ||
         (program->module &&
          cc_module_get_kind(program->module) == CC_MODULE_EXECUTABLE);
}

static bool built_for_locked(cl_program program, cl_device_id device) {
  if (!program->built_for) {
    for (cl_uint i = 0; i < program->num_devices; i++) {
      if (clx_device_within(device, program->devices[i])) return true;
    }
    return false;
  }
  for (cl_uint i = 0; i < program->num_built_for; i++) {
    if (clx_device_within(device, program->built_for[i])) return true;
  }
  return false;
}

bool clx_program_runs_on(cl_program program, cl_device_id device) {
  pthread_mutex_lock(&program->lock);
  bool runs = executable_locked(program) && built_for_locked(program, device);
  pthread_mutex_unlock(&program->lock);
  return runs;
}

bool clx_program_executable(cl_program program) {
  pthread_mutex_lock(&program->lock);
  bool executable = executable_locked(program);
  pthread_mutex_unlock(&program->lock);
  return executable;
}

bool clx_program_attach_kernel(cl_program program) {
  pthread_mutex_lock(&program->lock);
  bool executable = executable_locked(program);
  if (executable) {
    atomic_fetch_add(&program->kernels_attached, 1);
    atomic_fetch_add(&program->module_users, 1);
  }
  pthread_mutex_unlock(&program->lock);
  return executable;
}

cc_module *clx_program_use_link_input(cl_program program) {
  pthread_mutex_lock(&program->lock);
  cc_module *module = program->module;
  if (!module || program->build_status == CL_BUILD_IN_PROGRESS ||
      cc_module_get_kind(module) == CC_MODULE_EXECUTABLE) {
    module = NULL;
  } else {
    atomic_fetch_add(&program->module_users, 1);
  }
  pthread_mutex_unlock(&program->lock);
  return module;
}

/* ---- Queries ---------------------------------------------------------------*/

/* "a;b": the program's kernel names (malloc'd), under the lock. */
static char *joined_kernel_names(cl_program program) {
  size_t count = program->signatures ? (size_t)program->num_signatures
                                     : cc_module_kernel_count(program->module);
  const char **names = calloc(count ? count : 1, sizeof *names);
  if (!names) return NULL;
  size_t size = 1;
  for (size_t i = 0; i < count; i++) {
    names[i] = program->signatures ? program->signatures[i].name
                                   : cc_module_kernel_at(program->module, i)->name;
    size += strlen(names[i]) + 1;
  }
  char *joined = malloc(size);
  if (joined) {
    joined[0] = '\0';
    for (size_t i = 0; i < count; i++) {
      if (i) strcat(joined, ";");
      strcat(joined, names[i]);
    }
  }
  free(names);
  return joined;
}

/* The serialized module (made once per module), under the lock. */
static cl_int program_binary_locked(cl_program program) {
  if (program->binary || !program->module) return CL_SUCCESS;
  cc_module_result result = cc_module_serialize(
      program->module, &program->binary, &program->binary_size);
  return result == CC_MODULE_SUCCESS ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* CL_PROGRAM_BINARY_SIZES and CL_PROGRAM_BINARIES, under the lock. */
static cl_int binaries_info(cl_program program, bool sizes,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret) {
  cl_int error = program_binary_locked(program);
  if (error != CL_SUCCESS) return error;
  cl_uint n = program->num_devices;
  size_t size = n * (sizes ? sizeof(size_t) : sizeof(unsigned char *));
  if (param_value && param_value_size < size) return CL_INVALID_VALUE;
  if (param_value_size_ret) *param_value_size_ret = size;
  if (!param_value) return CL_SUCCESS;
  for (cl_uint i = 0; i < n; i++) {
    if (sizes) {
      ((size_t *)param_value)[i] = program->binary_size;
    } else {
      /* A NULL entry means: not this device's binary, skip it. */
      unsigned char *to = ((unsigned char **)param_value)[i];
      if (to && program->binary_size) {
        memcpy(to, program->binary, program->binary_size);
      }
    }
  }
  return CL_SUCCESS;
}

static cl_int kernels_info(cl_program program, cl_program_info param_name,
                           size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret) {
  if (!executable_locked(program)) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (param_name == CL_PROGRAM_NUM_KERNELS) {
    size_t count = program->signatures
                       ? (size_t)program->num_signatures
                       : cc_module_kernel_count(program->module);
    return clx_info(&count, sizeof count, param_value_size, param_value,
                    param_value_size_ret);
  }
  char *names = joined_kernel_names(program);
  if (!names) return CL_OUT_OF_HOST_MEMORY;
  cl_int error = clx_info_string(names, param_value_size, param_value,
                                 param_value_size_ret);
  free(names);
  return error;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program,
                                    cl_program_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: {
      cl_uint count = clx_user_references(CLX_OBJ(program));
      return clx_info(&count, sizeof count, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_PROGRAM_CONTEXT:
      return clx_info(&program->context, sizeof program->context,
                      param_value_size, param_value, param_value_size_ret);
    case CL_PROGRAM_NUM_DEVICES:
      return clx_info(&program->num_devices, sizeof program->num_devices,
                      param_value_size, param_value, param_value_size_ret);
    case CL_PROGRAM_DEVICES:
      return clx_info(program->devices,
                      program->num_devices * sizeof *program->devices,
                      param_value_size, param_value, param_value_size_ret);
    case CL_PROGRAM_SOURCE:
      return clx_info_string(program->source ? program->source : "",
                             param_value_size, param_value,
                             param_value_size_ret);
    case CL_PROGRAM_IL_KHR: /* = CL_PROGRAM_IL (2.1); none: size 0 */
      return clx_info(program->il, program->il_size, param_value_size,
                      param_value, param_value_size_ret);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES:
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
      pthread_mutex_lock(&program->lock);
      cl_int error =
          param_name == CL_PROGRAM_BINARY_SIZES ||
                  param_name == CL_PROGRAM_BINARIES
              ? binaries_info(program, param_name == CL_PROGRAM_BINARY_SIZES,
                              param_value_size, param_value,
                              param_value_size_ret)
              : kernels_info(program, param_name, param_value_size,
                             param_value, param_value_size_ret);
      pthread_mutex_unlock(&program->lock);
      return error;
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: /* OpenCL C has none */
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
      cl_bool present = CL_FALSE;
      return clx_info(&present, sizeof present, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

/* CL_PROGRAM_BINARY_TYPE, under the lock. */
static cl_program_binary_type binary_type_locked(cl_program program) {
  if (program->signatures) {
    /* Built-in programs are executables from the start. */
    return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
  if (!program->module) return CL_PROGRAM_BINARY_TYPE_NONE;
  switch (cc_module_get_kind(program->module)) {
    case CC_MODULE_OBJECT:
      return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    case CC_MODULE_LIBRARY:
      return CL_PROGRAM_BINARY_TYPE_LIBRARY;
    case CC_MODULE_EXECUTABLE:
      return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
  return CL_PROGRAM_BINARY_TYPE_NONE;
}

cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program program, cl_device_id device, cl_program_build_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  if (!clx_device_valid(device) || !program_has_device(program, device)) {
    return CL_INVALID_DEVICE;
  }
  cl_int error = CL_SUCCESS;
  pthread_mutex_lock(&program->lock);
  switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: {
      cl_build_status status = built_for_locked(program, device)
                                   ? program->build_status
                                   : CL_BUILD_NONE;
      error = clx_info(&status, sizeof status, param_value_size, param_value,
                       param_value_size_ret);
      break;
    }
    case CL_PROGRAM_BUILD_OPTIONS:
      error = clx_info_string(
          program->build_options ? program->build_options : "",
          param_value_size, param_value, param_value_size_ret);
      break;
    case CL_PROGRAM_BUILD_LOG:
      error = clx_info_string(program->build_log ? program->build_log : "",
                              param_value_size, param_value,
                              param_value_size_ret);
      break;
    case CL_PROGRAM_BINARY_TYPE: {
      cl_program_binary_type type = binary_type_locked(program);
      error = clx_info(&type, sizeof type, param_value_size, param_value,
                       param_value_size_ret);
      break;
    }
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
      size_t total =
          program->module ? (size_t)cc_module_globals_size(program->module) : 0;
      error = clx_info(&total, sizeof total, param_value_size, param_value,
                       param_value_size_ret);
      break;
    }
    default:
      error = CL_INVALID_VALUE;
  }
  pthread_mutex_unlock(&program->lock);
  return error;
}

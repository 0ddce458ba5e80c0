/* clmux OpenCL front-end: programs. Built-in kernel programs are ready at
 * creation (the device's kernels need no build); source programs keep their
 * source for the OpenCL C compiler of a later project, and until then every
 * build, compile or link reports that no compiler is available. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"

static const char no_compiler_log[] =
    "clmux: no OpenCL C compiler is available yet "
    "(CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE); only built-in kernels "
    "(clCreateProgramWithBuiltInKernels) can run.\n";

static void program_destroy(clx_object *object) {
  cl_program program = (cl_program)object;
  clx_unhold(CLX_OBJ(program->context));
  free(program->devices);
  free(program->source);
  free(program->kernel_names);
  clx_free_signatures(program->signatures, program->num_signatures);
  free(program->build_options);
  free(program->build_log);
  pthread_mutex_destroy(&program->lock);
  free(program);
}

/* A program for `devices` (copied) of `context` (held), or NULL. */
static cl_program program_new(cl_context context, cl_uint num_devices,
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
  pthread_mutex_init(&program->lock, NULL);
  clx_hold(CLX_OBJ(context));
  clx_object_init(CLX_OBJ(program), clx_kind_program, program_destroy);
  return program;
}

static cl_program fail(cl_int *errcode_ret, cl_int error) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

/* CL_INVALID_VALUE / CL_INVALID_DEVICE rules of a required device list. */
static cl_int check_device_list(cl_context context, cl_uint num_devices,
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

/* The optional device list of build, compile and link. */
static cl_int check_build_devices(cl_program program, cl_uint num_devices,
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
      program_new(context, context->num_devices, context->devices);
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
  cl_int error = check_device_list(context, num_devices, device_list);
  if (error != CL_SUCCESS) return fail(errcode_ret, error);
  if (!lengths || !binaries) return fail(errcode_ret, CL_INVALID_VALUE);
  error = CL_INVALID_BINARY;
  for (cl_uint i = 0; i < num_devices; i++) {
    bool missing = lengths[i] == 0 || binaries[i] == NULL;
    if (missing) error = CL_INVALID_VALUE;
    /* No compiler has produced a binary clmux could load yet. */
    if (binary_status) {
      binary_status[i] = missing ? CL_INVALID_VALUE : CL_INVALID_BINARY;
    }
  }
  return fail(errcode_ret, error);
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
  cl_int error = check_device_list(context, num_devices, device_list);
  if (error != CL_SUCCESS) return fail(errcode_ret, error);
  if (!kernel_names) return fail(errcode_ret, CL_INVALID_VALUE);

  cl_program program = program_new(context, num_devices, device_list);
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

/* ---- Build, compile, link ------------------------------------------------*/

typedef void(CL_CALLBACK *program_notify)(cl_program program, void *user_data);

/* Records a failed build of a source program: options, status, log. */
static cl_int record_no_compiler(cl_program program, const char *options,
                                 cl_int error) {
  char *options_copy = copy_string(options ? options : "");
  char *log = copy_string(no_compiler_log);
  if (!options_copy || !log) {
    free(options_copy);
    free(log);
    return CL_OUT_OF_HOST_MEMORY;
  }
  pthread_mutex_lock(&program->lock);
  free(program->build_options);
  free(program->build_log);
  program->build_options = options_copy;
  program->build_log = log;
  program->build_status = CL_BUILD_ERROR;
  pthread_mutex_unlock(&program->lock);
  return error;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list,
                                  const char *options,
                                  program_notify pfn_notify, void *user_data) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  cl_int error = check_build_devices(program, num_devices, device_list);
  if (error != CL_SUCCESS) return error;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  if (atomic_load(&program->kernels_attached) > 0) {
    return CL_INVALID_OPERATION;
  }
  /* OpenCL 1.2: only source and binary programs can be built. */
  if (!program->source) return CL_INVALID_OPERATION;
  error = record_no_compiler(program, options, CL_COMPILER_NOT_AVAILABLE);
  if (pfn_notify) pfn_notify(program, user_data);
  return error;
}

cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_headers,
    const cl_program *input_headers, const char **header_include_names,
    program_notify pfn_notify, void *user_data) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  cl_int error = check_build_devices(program, num_devices, device_list);
  if (error != CL_SUCCESS) return error;
  if (num_input_headers == 0
          ? (input_headers || header_include_names)
          : (!input_headers || !header_include_names)) {
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!clx_valid(input_headers[i], clx_kind_program)) {
      return CL_INVALID_PROGRAM;
    }
    if (!header_include_names[i]) return CL_INVALID_VALUE;
  }
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  if (atomic_load(&program->kernels_attached) > 0) {
    return CL_INVALID_OPERATION;
  }
  if (!program->source) return CL_INVALID_OPERATION;
  error = record_no_compiler(program, options, CL_COMPILER_NOT_AVAILABLE);
  if (pfn_notify) pfn_notify(program, user_data);
  return error;
}

cl_program CL_API_CALL clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_programs,
    const cl_program *input_programs, program_notify pfn_notify,
    void *user_data, cl_int *errcode_ret) {
  (void)options;
  if (!clx_valid(context, clx_kind_context)) {
    return fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  if ((num_devices == 0) != (device_list == NULL)) {
    return fail(errcode_ret, CL_INVALID_VALUE);
  }
  if (num_devices) {
    cl_int error = check_device_list(context, num_devices, device_list);
    if (error != CL_SUCCESS) return fail(errcode_ret, error);
  }
  if (num_input_programs == 0 || !input_programs) {
    return fail(errcode_ret, CL_INVALID_VALUE);
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    if (!clx_valid(input_programs[i], clx_kind_program)) {
      return fail(errcode_ret, CL_INVALID_PROGRAM);
    }
    if (input_programs[i]->context != context) {
      return fail(errcode_ret, CL_INVALID_CONTEXT);
    }
  }
  if (!pfn_notify && user_data) return fail(errcode_ret, CL_INVALID_VALUE);
  /* Nothing could have been compiled into an object to link. */
  return fail(errcode_ret, CL_LINKER_NOT_AVAILABLE);
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!clx_valid(platform, clx_kind_platform)) return CL_INVALID_PLATFORM;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

/* ---- Queries ---------------------------------------------------------------*/

/* "a;b": the program's kernel names (malloc'd). */
static char *joined_kernel_names(cl_program program) {
  size_t size = 1;
  for (int i = 0; i < program->num_signatures; i++) {
    size += strlen(program->signatures[i].name) + 1;
  }
  char *names = malloc(size);
  if (!names) return NULL;
  names[0] = '\0';
  for (int i = 0; i < program->num_signatures; i++) {
    if (i) strcat(names, ";");
    strcat(names, program->signatures[i].name);
  }
  return names;
}

static bool program_built(cl_program program) {
  pthread_mutex_lock(&program->lock);
  bool built = program->build_status == CL_BUILD_SUCCESS;
  pthread_mutex_unlock(&program->lock);
  return built;
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
    case CL_PROGRAM_BINARY_SIZES: {
      /* No device binary exists without a compiler: 0 bytes each. */
      size_t *sizes = calloc(program->num_devices, sizeof *sizes);
      if (!sizes) return CL_OUT_OF_HOST_MEMORY;
      cl_int error = clx_info(sizes, program->num_devices * sizeof *sizes,
                              param_value_size, param_value,
                              param_value_size_ret);
      free(sizes);
      return error;
    }
    case CL_PROGRAM_BINARIES: {
      /* The caller's pointers are left alone: there are 0 bytes to copy. */
      size_t size = program->num_devices * sizeof(unsigned char *);
      if (param_value && param_value_size < size) return CL_INVALID_VALUE;
      if (param_value_size_ret) *param_value_size_ret = size;
      return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS: {
      if (!program_built(program)) return CL_INVALID_PROGRAM_EXECUTABLE;
      size_t count = (size_t)program->num_signatures;
      return clx_info(&count, sizeof count, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_PROGRAM_KERNEL_NAMES: {
      if (!program_built(program)) return CL_INVALID_PROGRAM_EXECUTABLE;
      char *names = joined_kernel_names(program);
      if (!names) return CL_OUT_OF_HOST_MEMORY;
      cl_int error = clx_info_string(names, param_value_size, param_value,
                                     param_value_size_ret);
      free(names);
      return error;
    }
    default:
      return CL_INVALID_VALUE;
  }
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
    case CL_PROGRAM_BUILD_STATUS:
      error = clx_info(&program->build_status, sizeof program->build_status,
                       param_value_size, param_value, param_value_size_ret);
      break;
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
      /* Built-in programs are executables from the start. */
      cl_program_binary_type type = program->build_status == CL_BUILD_SUCCESS
                                        ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                        : CL_PROGRAM_BINARY_TYPE_NONE;
      error = clx_info(&type, sizeof type, param_value_size, param_value,
                       param_value_size_ret);
      break;
    }
    default:
      error = CL_INVALID_VALUE;
  }
  pthread_mutex_unlock(&program->lock);
  return error;
}

/* clmux OpenCL front-end: clBuildProgram, clCompileProgram, clLinkProgram
 * over the compiler module. Each call checks its arguments (options too, so
 * bad ones fail at once even with a callback), marks the program
 * CL_BUILD_IN_PROGRESS and runs a job: on the caller's thread, or, with
 * pfn_notify, on a thread of its own that publishes the result before it
 * calls pfn_notify. Different programs build in parallel: every module has
 * its own LLVM context. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timeline/timeline.h"
#include "build_options.h"
#include "clx.h"
#include "module.h"

typedef void(CL_CALLBACK *program_notify)(cl_program program, void *user_data);

typedef enum job_kind { job_build, job_compile, job_link } job_kind;

typedef struct build_job {
  job_kind kind;
  cl_program program; /* held: the one built, compiled or linked into */
  char *options;      /* as given, "" for NULL */
  cc_header *headers; /* compile: names and texts copied */
  size_t num_headers;
  cl_program *inputs; /* link: held, each counted as a user of ... */
  cc_module **input_modules; /* ... its module as clLinkProgram found it */
  cl_uint num_inputs;
  cc_spirv_value *spec_values; /* IL: the values set when it started */
  size_t num_spec_values;
  program_notify notify;
  void *user_data;
} build_job;

static char *copy_string(const char *text) {
  size_t size = strlen(text) + 1;
  char *copy = malloc(size);
  if (copy) memcpy(copy, text, size);
  return copy;
}

static void job_free(build_job *job) {
  if (!job) return;
  if (job->program) clx_unhold(CLX_OBJ(job->program));
  for (cl_uint i = 0; i < job->num_inputs; i++) {
    clx_program_module_released(job->inputs[i]);
    clx_unhold(CLX_OBJ(job->inputs[i]));
  }
  free(job->inputs);
  free(job->input_modules);
  for (size_t i = 0; i < job->num_headers; i++) {
    free((char *)job->headers[i].name);
    free((char *)job->headers[i].text);
  }
  free(job->headers);
  free(job->spec_values);
  free(job->options);
  free(job);
}

static build_job *job_new(job_kind kind, cl_program program,
                          const char *options, program_notify notify,
                          void *user_data) {
  build_job *job = calloc(1, sizeof *job);
  if (!job) return NULL;
  job->kind = kind;
  job->options = copy_string(options ? options : "");
  job->notify = notify;
  job->user_data = user_data;
  job->program = program;
  clx_hold(CLX_OBJ(program));
  bool values_copied = true;
  if (program->il) {
    pthread_mutex_lock(&program->lock);
    size_t size = program->num_spec_values * sizeof *job->spec_values;
    job->spec_values = size ? malloc(size) : NULL;
    values_copied = !size || job->spec_values;
    if (job->spec_values) {
      memcpy(job->spec_values, program->spec_values, size);
      job->num_spec_values = program->num_spec_values;
    }
    pthread_mutex_unlock(&program->lock);
  }
  if (!job->options || !values_copied) {
    job_free(job);
    return NULL;
  }
  return job;
}

/* `first` then `second` (both taken; either may be NULL). */
static char *join_logs(char *first, char *second) {
  if (!first) return second;
  if (!second) return first;
  size_t a = strlen(first), b = strlen(second);
  char *joined = realloc(first, a + b + 1);
  if (joined) memcpy(joined + a, second, b + 1);
  free(second);
  return joined ? joined : first;
}

/* The error a failed module call means for `kind`. */
static cl_int job_error(job_kind kind, cc_module_result result) {
  switch (result) {
    case CC_MODULE_SUCCESS:
      return CL_SUCCESS;
    case CC_MODULE_OUT_OF_MEMORY:
      return CL_OUT_OF_HOST_MEMORY;
    case CC_MODULE_INVALID_OPTIONS:
      return kind == job_build     ? CL_INVALID_BUILD_OPTIONS
             : kind == job_compile ? CL_INVALID_COMPILER_OPTIONS
                                   : CL_INVALID_LINKER_OPTIONS;
    case CC_MODULE_INVALID_BINARY:
      return CL_INVALID_BINARY;
    default:
      return kind == job_build     ? CL_BUILD_PROGRAM_FAILURE
             : kind == job_compile ? CL_COMPILE_PROGRAM_FAILURE
                                   : CL_LINK_PROGRAM_FAILURE;
  }
}

/* Links `count` inputs into an executable or library and, for an
 * executable, finalizes it; logs appended to *log. */
static cc_module *link_and_finalize(cc_module *const *inputs, size_t count,
                                    const char *options, char **log,
                                    cc_module_result *result) {
  char *text = NULL;
  cc_module *linked = cc_module_link(inputs, count, options, &text, result);
  *log = join_logs(*log, text);
  if (linked && cc_module_get_kind(linked) == CC_MODULE_EXECUTABLE) {
    text = NULL;
    *result = cc_module_finalize(linked, &text);
    *log = join_logs(*log, text);
    if (*result != CC_MODULE_SUCCESS) {
      cc_module_destroy(linked);
      linked = NULL;
    }
  }
  return linked;
}

/* clCompileProgram's object, from source or SPIR-V. */
static cc_module *compile_object(build_job *job, char **log,
                                 cc_module_result *result) {
  cl_program program = job->program;
  if (program->il) {
    return cc_module_compile_spirv(program->il, program->il_size,
                                   job->spec_values, job->num_spec_values,
                                   job->options, log, result);
  }
  return cc_module_compile(program->source, strlen(program->source),
                           job->options, job->headers, job->num_headers, log,
                           result);
}

/* clBuildProgram: source or SPIR-V -> object -> executable, or a loaded
 * binary -> executable by its kind. */
static cc_module *run_build(build_job *job, char **log,
                            cc_module_result *result) {
  cl_program program = job->program;
  if (program->source || program->il) {
    cc_module *object = compile_object(job, log, result);
    if (!object) return NULL;
    cc_module *linked = link_and_finalize(&object, 1, NULL, log, result);
    cc_module_destroy(object);
    return linked;
  }
  /* From a binary: the module stays put until the build replaces it. */
  cc_module *loaded = program->module;
  if (!loaded) {
    *result = CC_MODULE_INVALID_BINARY;
    return NULL;
  }
  if (cc_module_get_kind(loaded) == CC_MODULE_EXECUTABLE) {
    *result = cc_module_finalize(loaded, log);
    return *result == CC_MODULE_SUCCESS ? loaded : NULL;
  }
  return link_and_finalize(&loaded, 1, NULL, log, result);
}

/* CLMUX_TRACE: the job as a slice on the thread that ran it. */
static void trace_job(const build_job *job, uint64_t begin,
                      cc_module_result result) {
  static const char *const names[] = {[job_build] = "clBuildProgram",
                                      [job_compile] = "clCompileProgram",
                                      [job_link] = "clLinkProgram"};
  char options[256], args[320];
  timeline_escape(options, sizeof options, job->options ? job->options : "");
  snprintf(args, sizeof args, "\"options\":\"%s\",\"result\":\"%s\"", options,
           result == CC_MODULE_SUCCESS ? "success" : "failure");
  timeline_slice(0, "build", names[job->kind], begin, timeline_now(), args);
}

/* Runs the job and publishes its module, status, options and log. */
static cl_int run_job(build_job *job) {
  uint64_t begin = timeline_on() ? timeline_now() : 0;
  char *log = NULL;
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *module = NULL;
  switch (job->kind) {
    case job_build:
      module = run_build(job, &log, &result);
      break;
    case job_compile:
      module = compile_object(job, &log, &result);
      break;
    case job_link:
      module = link_and_finalize(job->input_modules, job->num_inputs,
                                 job->options, &log, &result);
      break;
  }
  if (begin) trace_job(job, begin, result);
  cl_program program = job->program;
  /* A failed build of a binary keeps the binary (it may build later with
   * other options); a failed build of source leaves nothing. */
  if (!module && program->from_binary) module = program->module;
  if (!log) log = copy_string(result == CC_MODULE_SUCCESS ? "" : "error\n");
  clx_program_set_build(program, module,
                        result == CC_MODULE_SUCCESS ? CL_BUILD_SUCCESS
                                                    : CL_BUILD_ERROR,
                        job->options, log);
  job->options = NULL;
  clx_heap_release();
  return job_error(job->kind, result);
}

static void *job_thread(void *data) {
  build_job *job = data;
  run_job(job);
  job->notify(job->program, job->user_data);
  job_free(job);
  return NULL;
}

/* Runs the job now, or on its own thread when it has a callback; frees
 * it. */
static cl_int start_job(build_job *job) {
  if (job->notify) {
    pthread_attr_t attributes;
    pthread_t thread;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int failed = pthread_create(&thread, &attributes, job_thread, job);
    pthread_attr_destroy(&attributes);
    if (!failed) return CL_SUCCESS;
  }
  cl_int error = run_job(job);
  if (job->notify) job->notify(job->program, job->user_data);
  job_free(job);
  return error;
}

/* Marks the program CL_BUILD_IN_PROGRESS for the listed devices (NULL:
 * all) unless kernels are attached or another build runs
 * (CL_INVALID_OPERATION). */
static cl_int begin_build(cl_program program, cl_uint num_devices,
                          const cl_device_id *device_list) {
  cl_device_id *built_for = NULL;
  if (device_list) {
    built_for = malloc(num_devices * sizeof *built_for);
    if (!built_for) return CL_OUT_OF_HOST_MEMORY;
    memcpy(built_for, device_list, num_devices * sizeof *built_for);
  }
  cl_int error = CL_SUCCESS;
  pthread_mutex_lock(&program->lock);
  if (atomic_load(&program->kernels_attached) > 0 ||
      program->build_status == CL_BUILD_IN_PROGRESS) {
    error = CL_INVALID_OPERATION;
  } else {
    program->build_status = CL_BUILD_IN_PROGRESS;
    free(program->built_for);
    program->built_for = built_for;
    program->num_built_for = device_list ? num_devices : 0;
    built_for = NULL;
  }
  pthread_mutex_unlock(&program->lock);
  free(built_for);
  return error;
}

/* Build and compile options are checked before anything starts; a bad
 * one leaves the program CL_BUILD_ERROR with the reason in its log. */
static cl_int check_options(cl_program program, const char *options,
                            cl_int error) {
  cc_build_options parsed;
  char *message = NULL;
  if (cc_parse_build_options(options, &parsed, &message)) {
    cc_build_options_free(&parsed);
    return CL_SUCCESS;
  }
  char *log = join_logs(message, copy_string("\n"));
  char *given = copy_string(options ? options : "");
  bool compiles = program->source || program->il;
  clx_program_set_build(program, compiles ? NULL : program->module,
                        CL_BUILD_ERROR, given, log);
  return error;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list,
                                  const char *options,
                                  program_notify pfn_notify, void *user_data) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  cl_int error = clx_check_build_devices(program, num_devices, device_list);
  if (error != CL_SUCCESS) return error;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  /* Built-in kernel programs need no build. */
  if (!program->source && !program->il && !program->from_binary) {
    return CL_INVALID_OPERATION;
  }
  error = begin_build(program, num_devices, device_list);
  if (error != CL_SUCCESS) return error;
  error = check_options(program, options, CL_INVALID_BUILD_OPTIONS);
  if (error != CL_SUCCESS) return error;
  build_job *job =
      job_new(job_build, program, options, pfn_notify, user_data);
  if (!job) {
    clx_program_set_build(program, program->module, CL_BUILD_ERROR, NULL,
                          NULL);
    return CL_OUT_OF_HOST_MEMORY;
  }
  return start_job(job);
}

/* Copies the embedded headers of clCompileProgram. */
static cl_int take_headers(build_job *job, cl_uint count,
                           const cl_program *programs, const char **names) {
  if (count == 0) return CL_SUCCESS;
  job->headers = calloc(count, sizeof *job->headers);
  if (!job->headers) return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < count; i++) {
    job->num_headers++;
    job->headers[i].name = copy_string(names[i]);
    job->headers[i].text =
        copy_string(programs[i]->source ? programs[i]->source : "");
    if (!job->headers[i].name || !job->headers[i].text) {
      return CL_OUT_OF_HOST_MEMORY;
    }
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_headers,
    const cl_program *input_headers, const char **header_include_names,
    program_notify pfn_notify, void *user_data) {
  if (!clx_valid(program, clx_kind_program)) return CL_INVALID_PROGRAM;
  cl_int error = clx_check_build_devices(program, num_devices, device_list);
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
  if (!program->source && !program->il) return CL_INVALID_OPERATION;
  error = begin_build(program, num_devices, device_list);
  if (error != CL_SUCCESS) return error;
  error = check_options(program, options, CL_INVALID_COMPILER_OPTIONS);
  if (error != CL_SUCCESS) return error;
  build_job *job =
      job_new(job_compile, program, options, pfn_notify, user_data);
  if (!job || take_headers(job, num_input_headers, input_headers,
                           header_include_names) != CL_SUCCESS) {
    job_free(job);
    clx_program_set_build(program, NULL, CL_BUILD_ERROR, NULL, NULL);
    return CL_OUT_OF_HOST_MEMORY;
  }
  return start_job(job);
}

static cl_program link_fail(cl_int *errcode_ret, cl_int error) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

/* Takes the inputs of clLinkProgram into the job: compiled objects or
 * libraries, not being built (CL_INVALID_OPERATION otherwise). Each module
 * is taken as it is now; a rebuild of an input while the link runs does
 * not change or free what the link reads. */
static cl_int take_link_inputs(build_job *job, cl_uint count,
                               const cl_program *inputs) {
  job->inputs = calloc(count, sizeof *job->inputs);
  job->input_modules = calloc(count, sizeof *job->input_modules);
  if (!job->inputs || !job->input_modules) return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < count; i++) {
    cc_module *module = clx_program_use_link_input(inputs[i]);
    if (!module) return CL_INVALID_OPERATION;
    job->inputs[i] = inputs[i];
    job->input_modules[i] = module;
    clx_hold(CLX_OBJ(inputs[i]));
    job->num_inputs++;
  }
  return CL_SUCCESS;
}

/* Link options are checked before the program exists: the module layer
 * reads options before inputs, so linking nothing tells whether they are
 * valid. */
static bool link_options_valid(const char *options) {
  cc_module_result result = CC_MODULE_SUCCESS;
  cc_module *none = cc_module_link(NULL, 0, options, NULL, &result);
  cc_module_destroy(none);
  return result != CC_MODULE_INVALID_OPTIONS;
}

cl_program CL_API_CALL clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_programs,
    const cl_program *input_programs, program_notify pfn_notify,
    void *user_data, cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return link_fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  if ((num_devices == 0) != (device_list == NULL)) {
    return link_fail(errcode_ret, CL_INVALID_VALUE);
  }
  if (num_devices) {
    cl_int error = clx_check_device_list(context, num_devices, device_list);
    if (error != CL_SUCCESS) return link_fail(errcode_ret, error);
  }
  if (num_input_programs == 0 || !input_programs) {
    return link_fail(errcode_ret, CL_INVALID_VALUE);
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    if (!clx_valid(input_programs[i], clx_kind_program)) {
      return link_fail(errcode_ret, CL_INVALID_PROGRAM);
    }
    if (input_programs[i]->context != context) {
      return link_fail(errcode_ret, CL_INVALID_CONTEXT);
    }
  }
  if (!pfn_notify && user_data) {
    return link_fail(errcode_ret, CL_INVALID_VALUE);
  }
  if (!link_options_valid(options)) {
    return link_fail(errcode_ret, CL_INVALID_LINKER_OPTIONS);
  }

  cl_program program =
      num_devices ? clx_program_new(context, num_devices, device_list)
                  : clx_program_new(context, context->num_devices,
                                    context->devices);
  if (!program) return link_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  program->build_status = CL_BUILD_IN_PROGRESS;
  build_job *job = job_new(job_link, program, options, pfn_notify, user_data);
  cl_int taken = job ? take_link_inputs(job, num_input_programs, input_programs)
                     : CL_OUT_OF_HOST_MEMORY;
  if (taken != CL_SUCCESS) {
    job_free(job);
    clx_release(CLX_OBJ(program));
    return link_fail(errcode_ret, taken);
  }
  /* A failed link still returns the program, with its log
   * (CL_LINK_PROGRAM_FAILURE). */
  cl_int error = start_job(job);
  if (errcode_ret) *errcode_ret = error;
  if (error != CL_SUCCESS && error != CL_LINK_PROGRAM_FAILURE) {
    clx_release(CLX_OBJ(program));
    return NULL;
  }
  return program;
}

/* The compiler holds nothing worth unloading between builds: every module
 * owns its LLVM context, freed with its program. */
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!clx_valid(platform, clx_kind_platform)) return CL_INVALID_PLATFORM;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

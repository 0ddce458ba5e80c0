/* clmux compiler — the module layer: code per (kernel, local size), built
 * by codegen on first request and kept for the module's life. A request
 * finding its entry still building waits for that build instead of
 * starting another; builds for one module take turns on its context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_options.h"
#include "compiler_threads.h"
#include "internal.h"
#include "stages.h"

static bool bounds_check;

static void read_bounds_check(void) {
  const char *value = getenv("CLMUX_BOUNDS_CHECK");
  bounds_check = value && strcmp(value, "1") == 0;
}

static cc_module_result from_status(cc_status status) {
  switch (status) {
    case cc_success:
      return CC_MODULE_SUCCESS;
    case cc_error_no_kernel:
      return CC_MODULE_NO_KERNEL;
    case cc_error_unsupported:
      return CC_MODULE_UNSUPPORTED;
    case cc_error_invalid_value:
      return CC_MODULE_INVALID_LOCAL_SIZE;
    case cc_error_out_of_memory:
      return CC_MODULE_OUT_OF_MEMORY;
    case cc_error_invalid_ir:
    case cc_error_llvm:
      break;
  }
  return CC_MODULE_INTERNAL_ERROR;
}

bool cc_module_lay_out_globals(cc_module *module) {
  if (module->globals_ready) return true;
  if (cc_program_globals_of(module->llvm, &module->globals) != cc_success) {
    return false;
  }
  module->globals_ready = true;
  return true;
}

uint64_t cc_module_globals_size(cc_module *module) {
  pthread_mutex_lock(&module->llvm_lock);
  bool ok = cc_module_lay_out_globals(module);
  uint64_t size = ok ? module->globals.size : 0;
  pthread_mutex_unlock(&module->llvm_lock);
  return size;
}

bool cc_module_write_globals(cc_module *module, uint8_t *block, char **error) {
  cc_log log = {""};
  pthread_mutex_lock(&module->llvm_lock);
  cc_status status = cc_error_out_of_memory;
  snprintf(log.text, sizeof log.text, "no memory");
  if (cc_module_lay_out_globals(module)) {
    status =
        cc_program_globals_write(module->llvm, &module->globals, block, &log);
  }
  pthread_mutex_unlock(&module->llvm_lock);
  if (status != cc_success && error) *error = cc_module_strdup(log.text);
  return status == cc_success;
}

bool cc_module_checks_bounds(const cc_module *module) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, read_bounds_check);
  return bounds_check || (module->flags & CC_OPTION_BOUNDS_CHECK);
}

/* Below this many kernels, copying the whole program per build is cheaper
 * than splitting it first. */
#define SPLIT_MIN_KERNELS 4

/* The module kernel `index` is best built from (under llvm_lock). */
static LLVMModuleRef kernel_source(cc_module *module, size_t index) {
  if (!module->split_tried && module->kernel_count > SPLIT_MIN_KERNELS) {
    module->split_tried = true;
    const char **names = calloc(module->kernel_count, sizeof *names);
    LLVMModuleRef *parts = calloc(module->kernel_count, sizeof *parts);
    cc_log log = {""};
    if (names && parts) {
      for (size_t k = 0; k < module->kernel_count; k++) {
        names[k] = module->kernels[k].name;
      }
      if (cc_codegen_split(module->llvm, names, (uint32_t)module->kernel_count,
                           parts, &log) == cc_success) {
        module->parts = parts;
        parts = NULL;
      }
    }
    free(names);
    free(parts); /* a failed split leaves nothing to dispose of */
  }
  return module->parts ? module->parts[index] : module->llvm;
}

/* Runs codegen for one entry (not under the cache lock). */
static void build_here(cc_module *module, cc_spec *spec) {
  const cc_module_kernel *kernel = &module->kernels[spec->kernel];
  cc_log log = {""};
  cc_status status = cc_success;
  pthread_mutex_lock(&module->llvm_lock);
  cc_stages_start(kernel->name, spec->local_size);
  if (!module->target) status = cc_target_create_host(&module->target, &log);
  /* The cache first: only what compiled is stored, and a hit must not pay
   * for splitting a big program (0.7 s for hashcat's). */
  bool cached =
      status == cc_success &&
      cc_disk_cache_find_kernel(module, spec, &spec->binary, &spec->size);
  cc_stage_done("cache lookup", NULL);
  LLVMModuleRef source = status == cc_success && !cached
                             ? kernel_source(module, spec->kernel)
                             : NULL;
  if (source) cc_stage_done("split program", NULL);
  const char *missing =
      source ? cc_kernel_missing_builtin(source, kernel->name) : NULL;
  if (missing) {
    snprintf(log.text, sizeof log.text,
             "kernel %s calls the builtin %s, which clmux does not "
             "implement yet",
             kernel->name, missing);
    status = cc_error_unsupported;
  }
  if (status == cc_success && !cached && !cc_module_lay_out_globals(module)) {
    status = cc_error_out_of_memory;
    snprintf(log.text, sizeof log.text, "no memory");
  }
  if (status == cc_success && !cached) {
    cc_kernel_request request = {
        kernel->name,
        {spec->local_size[0], spec->local_size[1], spec->local_size[2]},
        cc_module_checks_bounds(module),
        &module->globals,
        !spec->local_size[0],
        spec->image_format};
    status = cc_codegen_build(module->target, source, &request, 1,
                              &spec->binary, &spec->size, NULL, &log);
    if (status == cc_success) {
      cc_disk_cache_store_kernel(module, spec, spec->binary, spec->size);
      cc_stage_done("cache store", NULL);
    }
  }
  cc_stages_finish();
  pthread_mutex_unlock(&module->llvm_lock);
  spec->result = from_status(status);
  if (status != cc_success) spec->reason = cc_module_strdup(log.text);
}

typedef struct build_call {
  cc_module *module;
  cc_spec *spec;
} build_call;

static void build_call_run(void *data) {
  build_call *c = data;
  build_here(c->module, c->spec);
}

/* On a compiler thread (compiler_threads.c). */
static void build(cc_module *module, cc_spec *spec) {
  build_call call = {module, spec};
  cc_on_compiler_thread(build_call_run, &call);
}

/* One entry per kernel and local size: its general code runs images of
 * any format, so the first request's format is the one with a version
 * (the CTS's image tests, one kernel launched with some 80 formats,
 * would otherwise compile it 80 times). */
static cc_spec *find(cc_module *module, size_t kernel,
                     const uint32_t local_size[3]) {
  for (cc_spec *spec = module->cache; spec; spec = spec->next) {
    if (spec->kernel == kernel &&
        memcmp(spec->local_size, local_size, sizeof spec->local_size) == 0) {
      return spec;
    }
  }
  return NULL;
}

cc_module_result cc_module_specialize(cc_module *module, const char *name,
                                      const uint32_t local_size[3],
                                      const cpu_image_format *image_format,
                                      const void **binary, size_t *size,
                                      const char **reason) {
  *binary = NULL;
  *size = 0;
  if (reason) *reason = NULL;
  if (module->kind != CC_MODULE_EXECUTABLE) {
    if (reason) *reason = "the module is not an executable";
    return CC_MODULE_INVALID_OPERATION;
  }
  const cc_module_kernel *kernel = cc_module_find_kernel(module, name);
  if (!kernel) {
    if (reason) *reason = "no kernel of that name";
    return CC_MODULE_NO_KERNEL;
  }
  bool any_size = !local_size[0] && !local_size[1] && !local_size[2];
  if (!any_size && (!local_size[0] || !local_size[1] || !local_size[2])) {
    if (reason) *reason = "a local size of zero";
    return CC_MODULE_INVALID_VALUE;
  }
  const uint32_t *reqd = kernel->reqd_work_group_size;
  if (!any_size && reqd[0] && memcmp(reqd, local_size, 3 * sizeof *reqd) != 0) {
    if (reason) *reason = "not the kernel's reqd_work_group_size";
    return CC_MODULE_INVALID_LOCAL_SIZE;
  }
  size_t index = (size_t)(kernel - module->kernels);
  cpu_image_format format = {0, 0, 0};
  if (image_format) format = *image_format;

  pthread_mutex_lock(&module->cache_lock);
  cc_spec *spec = find(module, index, local_size);
  if (!spec) {
    spec = calloc(1, sizeof *spec);
    if (!spec) {
      pthread_mutex_unlock(&module->cache_lock);
      return CC_MODULE_OUT_OF_MEMORY;
    }
    spec->kernel = index;
    memcpy(spec->local_size, local_size, sizeof spec->local_size);
    spec->image_format = format;
    spec->next = module->cache;
    module->cache = spec;
    module->builds++;
    pthread_mutex_unlock(&module->cache_lock);
    build(module, spec);
    pthread_mutex_lock(&module->cache_lock);
    spec->done = true;
    pthread_cond_broadcast(&module->cache_done);
  }
  while (!spec->done)
    pthread_cond_wait(&module->cache_done, &module->cache_lock);
  pthread_mutex_unlock(&module->cache_lock);
  if (spec->result == CC_MODULE_SUCCESS) {
    *binary = spec->binary;
    *size = spec->size;
  } else if (reason) {
    *reason = spec->reason ? spec->reason : "out of memory";
  }
  return spec->result;
}

cc_module_result cc_module_finalize(cc_module *module, char **log) {
  cc_text text = {0};
  cc_module_result result = CC_MODULE_SUCCESS;
  if (module->kind != CC_MODULE_EXECUTABLE) {
    cc_text_add(&text, "error: only an executable can be finalized\n");
    result = CC_MODULE_INVALID_OPERATION;
  }
  for (size_t k = 0; result == CC_MODULE_SUCCESS && k < module->kernel_count;
       k++) {
    const cc_module_kernel *kernel = &module->kernels[k];
    if (!kernel->reqd_work_group_size[0]) continue;
    const void *binary = NULL;
    size_t size = 0;
    const char *reason = NULL;
    cc_module_result built =
        cc_module_specialize(module, kernel->name, kernel->reqd_work_group_size,
                             NULL, &binary, &size, &reason);
    if (built == CC_MODULE_UNSUPPORTED) {
      cc_text_add(&text, "warning: kernel %s: %s\n", kernel->name, reason);
    } else if (built != CC_MODULE_SUCCESS) {
      cc_text_add(&text, "error: kernel %s: %s\n", kernel->name,
                  reason ? reason : "");
      result = built;
    }
  }
  if (text.failed && result == CC_MODULE_SUCCESS) {
    result = CC_MODULE_OUT_OF_MEMORY;
  }
  cc_text_give(&text, log);
  return result;
}

size_t cc_module_build_count(cc_module *module) {
  pthread_mutex_lock(&module->cache_lock);
  size_t builds = module->builds;
  pthread_mutex_unlock(&module->cache_lock);
  return builds;
}

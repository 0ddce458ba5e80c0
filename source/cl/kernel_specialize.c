/* clmux OpenCL front-end: compiled kernels as Mux kernels, one per
 * (program, kernel, local size), and one for any local size (0x0x0) that
 * runs the edge groups of non-uniform NDRanges. The first enqueue with a
 * local size asks the compiler module for code specialized to it and loads
 * that into a Mux executable; the program keeps the pair (or the failure)
 * until its module goes, and each kernel remembers the last one it used,
 * so repeated enqueues cost a comparison. An image kernel's code holds a
 * faster version for one image format when its first launch's images all
 * have it (and code for any format alone when they differ): the version
 * for a format no launch binds would double the wait for code that never
 * runs. Later launches at that size run that code whatever their images. */
#include <mux/mux_cpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timeline/timeline.h"
#include "clx.h"
#include "engine.h"
#include "module.h"

struct clx_specialization {
  clx_specialization *next;
  const cc_module_kernel *kernel;
  uint32_t local_size[3];
  cl_int error; /* CL_SUCCESS, or what every enqueue of it returns */
  mux_executable_t executable;
  mux_kernel_t mux_kernel;
};

/* Code runs images of any format (the module keeps one per local size,
 * with a version for its first launch's format): the local size decides. */
static bool matches(const clx_specialization *specialization,
                    const cc_module_kernel *kernel,
                    const uint32_t local_size[3]) {
  return specialization->kernel == kernel &&
         memcmp(specialization->local_size, local_size,
                sizeof specialization->local_size) == 0;
}

static clx_specialization *find(cl_program program,
                                const cc_module_kernel *kernel,
                                const uint32_t local_size[3]) {
  for (clx_specialization *s = program->specializations; s; s = s->next) {
    if (matches(s, kernel, local_size)) return s;
  }
  return NULL;
}

static void destroy(cl_program program, clx_specialization *specialization) {
  mux_device_t device = program->devices[0]->mux_device;
  if (specialization->mux_kernel) {
    muxDestroyKernel(device, specialization->mux_kernel, clx_allocator);
  }
  if (specialization->executable) {
    muxDestroyExecutable(device, specialization->executable, clx_allocator);
  }
  free(specialization);
}

clx_specialization *clx_program_take_specializations(cl_program program) {
  pthread_mutex_lock(&program->specializations_lock);
  clx_specialization *list = program->specializations;
  program->specializations = NULL;
  pthread_mutex_unlock(&program->specializations_lock);
  return list;
}

void clx_specializations_destroy(cl_program program, clx_specialization *list) {
  while (list) {
    clx_specialization *next = list->next;
    destroy(program, list);
    list = next;
  }
}

static cl_int error_of(cc_module_result result) {
  switch (result) {
    case CC_MODULE_SUCCESS:
      return CL_SUCCESS;
    case CC_MODULE_INVALID_LOCAL_SIZE:
      return CL_INVALID_WORK_GROUP_SIZE;
    case CC_MODULE_OUT_OF_MEMORY:
      return CL_OUT_OF_HOST_MEMORY;
    default: /* unsupported by codegen yet, or an internal failure */
      return CL_OUT_OF_RESOURCES;
  }
}

/* The format every image argument set has, or all 0 if they differ or
 * the kernel takes none (the argument kinds never change: no lock until
 * an image is found). */
static cpu_image_format shared_image_format(cl_kernel kernel) {
  cpu_image_format none = {0, 0, 0}, shared = none;
  cl_uint first = 0;
  while (first < kernel->num_args &&
         kernel->arg_infos[first].kind != clx_arg_image) {
    first++;
  }
  if (first == kernel->num_args) return none;
  pthread_mutex_lock(&kernel->lock);
  for (cl_uint i = first; i < kernel->num_args; i++) {
    if (kernel->arg_infos[i].kind != clx_arg_image) continue;
    const cl_mem image = kernel->args[i].mem;
    if (!image) {
      shared = none;
      break;
    }
    cpu_image_format format = {image->image_format.image_channel_order,
                               image->image_format.image_channel_data_type,
                               (uint32_t)image->element_size};
    if (shared.channel_order && memcmp(&shared, &format, sizeof format)) {
      shared = none;
      break;
    }
    shared = format;
  }
  pthread_mutex_unlock(&kernel->lock);
  return shared;
}

/* Builds a new entry (outside any lock: codegen takes a while); a failure
 * is an entry too, so it is reported once and not retried. */
static clx_specialization *build(cl_kernel kernel, const uint32_t local_size[3],
                                 const char **reason) {
  clx_specialization *made = calloc(1, sizeof *made);
  if (!made) return NULL;
  made->kernel = kernel->compiled;
  memcpy(made->local_size, local_size, sizeof made->local_size);
  const cpu_image_format images = shared_image_format(kernel);
  const void *binary = NULL;
  size_t size = 0;
  cl_ulong start = clx_now_ns();
  cc_module_result result =
      cc_module_specialize(kernel->program->module, kernel->name, local_size,
                           &images, &binary, &size, reason);
  made->error = error_of(result);
  clx_heap_release();
  if (made->error != CL_SUCCESS) return made;
  mux_device_t device = kernel->program->devices[0]->mux_device;
  if (muxCreateExecutable(device, binary, size, clx_allocator,
                          &made->executable) != mux_success) {
    made->executable = NULL;
    *reason = "the CPU target refused the compiled executable";
    made->error = CL_OUT_OF_RESOURCES;
  } else if (muxCreateKernel(device, made->executable, kernel->name,
                             strlen(kernel->name), clx_allocator,
                             &made->mux_kernel) != mux_success) {
    made->mux_kernel = NULL;
    *reason = "the compiled executable lacks the kernel";
    made->error = CL_OUT_OF_RESOURCES;
  }
  if (timeline_on()) {
    char args[96];
    snprintf(args, sizeof args, "\"local_size\":\"%ux%ux%u\",\"result\":%d",
             local_size[0], local_size[1], local_size[2], made->error);
    timeline_slice(0, "specialization", kernel->name, start, timeline_now(),
                   args);
  }
  if (getenv("CLMUX_DEBUG")) {
    char format[96] = "";
    if (images.channel_order) {
      snprintf(format, sizeof format,
               " (first images of order 0x%X, type 0x%X)", images.channel_order,
               images.channel_type);
    }
    fprintf(stderr,
            "clmux: kernel %s: local size %ux%ux%u%s ready in %.1f ms\n",
            kernel->name, local_size[0], local_size[1], local_size[2], format,
            (double)(clx_now_ns() - start) / 1e6);
  }
  return made;
}

/* Tells the build log why a kernel cannot run at this local size. */
static void log_failure(cl_kernel kernel, const uint32_t local_size[3],
                        const char *reason) {
  char line[1024];
  snprintf(line, sizeof line,
           "clmux: kernel %s cannot run with local size %ux%ux%u: %s\n",
           kernel->name, local_size[0], local_size[1], local_size[2],
           reason ? reason : "unknown reason");
  clx_program_log_append(kernel->program, line);
}

/* The kernel's code for `local` (0x0x0: for any local size), made on
 * first use and kept by the program; the kernel remembers the last one it
 * was asked for if `remember`. NULL when out of memory. */
static clx_specialization *specialization(cl_kernel kernel,
                                          const uint32_t local[3],
                                          bool remember) {
  clx_specialization *last = atomic_load(&kernel->last_specialization);
  if (!last || !matches(last, kernel->compiled, local)) {
    cl_program program = kernel->program;
    pthread_mutex_lock(&program->specializations_lock);
    last = find(program, kernel->compiled, local);
    pthread_mutex_unlock(&program->specializations_lock);
    if (!last) {
      const char *reason = NULL;
      clx_specialization *made = build(kernel, local, &reason);
      if (!made) return NULL;
      pthread_mutex_lock(&program->specializations_lock);
      last = find(program, kernel->compiled, local);
      if (!last) {
        made->next = program->specializations;
        program->specializations = made;
        last = made;
      }
      pthread_mutex_unlock(&program->specializations_lock);
      if (last == made && made->error != CL_SUCCESS) {
        log_failure(kernel, local, reason);
      }
      if (last != made) destroy(program, made); /* another thread won */
    }
    if (remember) atomic_store(&kernel->last_specialization, last);
    if (last->mux_kernel) {
      uint64_t size = last->mux_kernel->local_memory_size;
      uint64_t had = atomic_load(&kernel->static_local_size);
      while (had < size && !atomic_compare_exchange_weak(
                               &kernel->static_local_size, &had, size)) {
      }
    }
  }
  return last;
}

cl_int clx_kernel_mux_kernel(cl_kernel kernel, const size_t global_size[3],
                             const size_t local_size[3], mux_kernel_t *out) {
  *out = NULL;
  if (!kernel->compiled) {
    *out = kernel->mux_kernel;
    return CL_SUCCESS;
  }
  uint32_t local[3];
  bool uniform = true;
  for (int d = 0; d < 3; d++) {
    local[d] = (uint32_t)local_size[d];
    uniform &= global_size[d] % local_size[d] == 0;
  }
  clx_specialization *whole = specialization(kernel, local, true);
  if (!whole) return CL_OUT_OF_HOST_MEMORY;
  if (whole->error != CL_SUCCESS) return whole->error;
  if (!uniform) {
    /* The smaller groups at a non-uniform NDRange's edges run code for
     * any local size; the full ones keep the code for theirs. */
    static const uint32_t any[3] = {0, 0, 0};
    clx_specialization *edges = specialization(kernel, any, false);
    if (!edges) return CL_OUT_OF_HOST_MEMORY;
    if (edges->error != CL_SUCCESS) return edges->error;
    if (muxCpuKernelSetEdges(whole->mux_kernel, edges->mux_kernel) !=
        mux_success) {
      return CL_OUT_OF_RESOURCES;
    }
  }
  *out = whole->mux_kernel;
  return CL_SUCCESS;
}

/* clmux OpenCL front-end: the block of a program's global variables
 * (program-scope and static __global ones, OpenCL C 2.0 on). One buffer
 * per program and device (OpenCL C: the variables are not shared across
 * devices, sub-devices included), made at the first launch of one of its
 * kernels on the device and given the variables' initial values there
 * (compiler/codegen/program_globals.c lays it out); every launch passes it
 * after the kernel's arguments and holds it, so a program rebuilt while
 * old launches run does not free it under them. */
#include <stdlib.h>

#include "clx.h"
#include "module.h"

typedef struct clx_globals_block {
  cl_device_id device;
  cl_mem mem;
  struct clx_globals_block *next;
} clx_globals_block;

void clx_program_globals_free(clx_globals_block *blocks) {
  while (blocks) {
    clx_globals_block *next = blocks->next;
    if (blocks->mem) clx_release(CLX_OBJ(blocks->mem));
    free(blocks);
    blocks = next;
  }
}

static cl_int make_block(cl_program program, cc_module *module, uint64_t size,
                         cl_mem *out) {
  cl_int error = CL_SUCCESS;
  cl_mem mem = clx_mem_create(program->context, CL_MEM_OBJECT_BUFFER,
                              CL_MEM_READ_WRITE, (size_t)size, NULL, &error);
  if (!mem) return error;
  if ((error = clx_mem_allocate(mem)) != CL_SUCCESS ||
      (error = clx_buffer_bind(mem, mem->mux_memory, 0)) != CL_SUCCESS) {
    clx_release(CLX_OBJ(mem));
    return error;
  }
  char *reason = NULL;
  if (!cc_module_write_globals(module, mem->data, &reason)) {
    clx_context_report(program->context, reason ? reason : "no memory");
    free(reason);
    clx_release(CLX_OBJ(mem));
    return CL_OUT_OF_RESOURCES;
  }
  *out = mem;
  return CL_SUCCESS;
}

cl_int clx_program_globals(cl_program program, cl_device_id device,
                           cl_mem *out) {
  *out = NULL;
  pthread_mutex_lock(&program->lock);
  cc_module *module = program->module;
  cl_int error = CL_SUCCESS;
  if (module && program->globals_module != module) {
    clx_program_globals_free(program->globals);
    program->globals = NULL;
    program->globals_module = module;
  }
  if (module && cc_module_globals_size(module)) {
    clx_globals_block *block = program->globals;
    while (block && block->device != device) block = block->next;
    if (!block) {
      cl_mem made = NULL;
      error = make_block(program, module, cc_module_globals_size(module),
                         &made);
      block = error == CL_SUCCESS ? malloc(sizeof *block) : NULL;
      if (block) {
        *block = (clx_globals_block){device, made, program->globals};
        program->globals = block;
      } else if (error == CL_SUCCESS) {
        clx_release(CLX_OBJ(made));
        error = CL_OUT_OF_HOST_MEMORY;
      }
    }
    if (block) *out = block->mem;
  }
  pthread_mutex_unlock(&program->lock);
  return error;
}

/* clmux OpenCL front-end: programs from SPIR-V (clCreateProgramWithIL,
 * cl_khr_il_program) and their specialization constants. The module's
 * structure is checked at creation; the translation runs at build or
 * compile time (program_build.c), over compiler/spirv. */
#include <stdlib.h>
#include <string.h>

#include "clx.h"
#include "spirv.h"

#ifndef CL_INVALID_SPEC_ID /* OpenCL 2.2's, beyond the headers' 1.2 */
#define CL_INVALID_SPEC_ID -71
#endif

bool clx_il_supported(void) {
  static atomic_int known; /* 0 unknown, 1 yes, 2 no */
  int state = atomic_load(&known);
  if (state == 0) {
    state = cc_spirv_available() ? 1 : 2;
    atomic_store(&known, state);
  }
  return state == 1;
}

static cl_program fail(cl_int *errcode_ret, cl_int error) {
  if (errcode_ret) *errcode_ret = error;
  return NULL;
}

cl_program CL_API_CALL clx_create_program_with_il(cl_context context,
                                                  const void *il, size_t length,
                                                  cl_int *errcode_ret) {
  if (!clx_valid(context, clx_kind_context)) {
    return fail(errcode_ret, CL_INVALID_CONTEXT);
  }
  if (!il || length == 0) return fail(errcode_ret, CL_INVALID_VALUE);
  if (!clx_il_supported()) return fail(errcode_ret, CL_INVALID_OPERATION);
  if (cc_spirv_check(il, length)) return fail(errcode_ret, CL_INVALID_VALUE);
  cl_program program =
      clx_program_new(context, context->num_devices, context->devices);
  if (!program) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  program->il = malloc(length);
  if (!program->il || !cc_spirv_constants(il, length, &program->spec_constants,
                                          &program->num_spec_constants)) {
    clx_release(CLX_OBJ(program));
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  memcpy(program->il, il, length);
  program->il_size = length;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return program;
}

static const cc_spirv_constant *find_constant(cl_program program,
                                              cl_uint spec_id) {
  for (size_t i = 0; i < program->num_spec_constants; i++) {
    if (program->spec_constants[i].id == spec_id) {
      return &program->spec_constants[i];
    }
  }
  return NULL;
}

cl_int CL_API_CALL clx_set_program_specialization_constant(
    cl_program program, cl_uint spec_id, size_t spec_size,
    const void *spec_value) {
  if (!clx_valid(program, clx_kind_program) || !program->il) {
    return CL_INVALID_PROGRAM;
  }
  const cc_spirv_constant *constant = find_constant(program, spec_id);
  if (!constant) return CL_INVALID_SPEC_ID;
  if (!spec_value || spec_size != constant->size) return CL_INVALID_VALUE;
  cc_spirv_value value = {spec_id, constant->size, 0};
  memcpy(&value.bits, spec_value, spec_size); /* little-endian host */
  cl_int error = CL_SUCCESS;
  pthread_mutex_lock(&program->lock);
  size_t at = 0;
  while (at < program->num_spec_values &&
         program->spec_values[at].id != spec_id) {
    at++;
  }
  if (at == program->num_spec_values) {
    /* At most one value per constant: the list never outgrows theirs. */
    if (!program->spec_values) {
      program->spec_values =
          calloc(program->num_spec_constants, sizeof *program->spec_values);
    }
    if (program->spec_values) {
      program->num_spec_values++;
    } else {
      error = CL_OUT_OF_HOST_MEMORY;
    }
  }
  if (error == CL_SUCCESS) program->spec_values[at] = value;
  pthread_mutex_unlock(&program->lock);
  return error;
}

/* clmux ICD: GL and EGL sharing, which clmux does not offer (it reports
 * neither cl_khr_gl_sharing nor cl_khr_egl_image). ocl-icd exports these
 * functions itself and calls the platform's slot unchecked, so each slot
 * gets a function that names the error: a clmux context was not created
 * from a GL or EGL context (CL_INVALID_CONTEXT), a clmux buffer has no GL
 * object (CL_INVALID_GL_OBJECT). */
#include "sharing.h"

/* Valid or not, a clmux context was made from no GL or EGL context: both
 * are CL_INVALID_CONTEXT. */
static void *refuse(cl_context context, cl_int *errcode_ret) {
  (void)context;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

static cl_int memory_error(cl_mem memobj) {
  return clx_valid(memobj, clx_kind_mem) ? CL_INVALID_GL_OBJECT
                                         : CL_INVALID_MEM_OBJECT;
}

cl_mem CL_API_CALL clx_create_from_gl_buffer(cl_context context,
                                             cl_mem_flags flags,
                                             cl_GLuint bufobj,
                                             cl_int *errcode_ret) {
  (void)flags;
  (void)bufobj;
  return refuse(context, errcode_ret);
}

cl_mem CL_API_CALL clx_create_from_gl_texture(
    cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
    cl_GLuint texture, cl_int *errcode_ret) {
  (void)flags;
  (void)target;
  (void)miplevel;
  (void)texture;
  return refuse(context, errcode_ret);
}

cl_mem CL_API_CALL clx_create_from_gl_renderbuffer(cl_context context,
                                                   cl_mem_flags flags,
                                                   cl_GLuint renderbuffer,
                                                   cl_int *errcode_ret) {
  (void)flags;
  (void)renderbuffer;
  return refuse(context, errcode_ret);
}

cl_int CL_API_CALL clx_get_gl_object_info(cl_mem memobj,
                                          cl_gl_object_type *gl_object_type,
                                          cl_GLuint *gl_object_name) {
  (void)gl_object_type;
  (void)gl_object_name;
  return memory_error(memobj);
}

cl_int CL_API_CALL clx_get_gl_texture_info(cl_mem memobj,
                                           cl_gl_texture_info param_name,
                                           size_t param_value_size,
                                           void *param_value,
                                           size_t *param_value_size_ret) {
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return memory_error(memobj);
}

/* Acquire and release, GL's and EGL's: the queue's context shares with
 * nothing. */
cl_int CL_API_CALL clx_enqueue_gl_objects(cl_command_queue command_queue,
                                          cl_uint num_objects,
                                          const cl_mem *mem_objects,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event) {
  (void)num_objects;
  (void)mem_objects;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  return clx_valid(command_queue, clx_kind_command_queue)
             ? CL_INVALID_CONTEXT
             : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clx_get_gl_context_info(
    const cl_context_properties *properties, cl_gl_context_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  (void)properties;
  (void)param_name;
  (void)param_value_size;
  (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_OPERATION;
}

cl_event CL_API_CALL clx_create_event_from_gl_sync(cl_context context,
                                                   cl_GLsync sync,
                                                   cl_int *errcode_ret) {
  (void)sync;
  return refuse(context, errcode_ret);
}

cl_mem CL_API_CALL clx_create_from_egl_image(
    cl_context context, CLeglDisplayKHR display, CLeglImageKHR image,
    cl_mem_flags flags, const cl_egl_image_properties_khr *properties,
    cl_int *errcode_ret) {
  (void)display;
  (void)image;
  (void)flags;
  (void)properties;
  return refuse(context, errcode_ret);
}

cl_event CL_API_CALL clx_create_event_from_egl_sync(cl_context context,
                                                    CLeglSyncKHR sync,
                                                    CLeglDisplayKHR display,
                                                    cl_int *errcode_ret) {
  (void)sync;
  (void)display;
  return refuse(context, errcode_ret);
}

/* clmux ICD: GL and EGL sharing (sharing.c), which clmux does not offer. */
#ifndef CLMUX_ICD_SHARING_H
#define CLMUX_ICD_SHARING_H

#include "../source/cl/clx.h"

cl_mem CL_API_CALL clx_create_from_gl_buffer(cl_context context,
                                             cl_mem_flags flags,
                                             cl_GLuint bufobj,
                                             cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_from_gl_texture(
    cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
    cl_GLuint texture, cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_from_gl_renderbuffer(cl_context context,
                                                   cl_mem_flags flags,
                                                   cl_GLuint renderbuffer,
                                                   cl_int *errcode_ret);
cl_int CL_API_CALL clx_get_gl_object_info(cl_mem memobj,
                                          cl_gl_object_type *gl_object_type,
                                          cl_GLuint *gl_object_name);
cl_int CL_API_CALL clx_get_gl_texture_info(cl_mem memobj,
                                           cl_gl_texture_info param_name,
                                           size_t param_value_size,
                                           void *param_value,
                                           size_t *param_value_size_ret);
cl_int CL_API_CALL clx_enqueue_gl_objects(cl_command_queue command_queue,
                                          cl_uint num_objects,
                                          const cl_mem *mem_objects,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event);
cl_int CL_API_CALL clx_get_gl_context_info(
    const cl_context_properties *properties, cl_gl_context_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret);
cl_event CL_API_CALL clx_create_event_from_gl_sync(cl_context context,
                                                   cl_GLsync sync,
                                                   cl_int *errcode_ret);
cl_mem CL_API_CALL clx_create_from_egl_image(
    cl_context context, CLeglDisplayKHR display, CLeglImageKHR image,
    cl_mem_flags flags, const cl_egl_image_properties_khr *properties,
    cl_int *errcode_ret);
cl_event CL_API_CALL clx_create_event_from_egl_sync(cl_context context,
                                                    CLeglSyncKHR sync,
                                                    CLeglDisplayKHR display,
                                                    cl_int *errcode_ret);

#endif /* CLMUX_ICD_SHARING_H */

/* GL and EGL sharing, which clmux does not offer, through the functions
 * ocl-icd exports itself: none crashes, and each names its error (a clmux
 * context shares with no GL or EGL context; a clmux buffer has no GL
 * object). */
/* The 1.2 headers, whatever order the includes below come in. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

#include "cl_test.h"

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  cl_command_queue queue = cl_test_queue(context, device, 0);
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  CHECK_CL_SUCCESS(error);

  CHECK(clCreateFromGLBuffer(context, CL_MEM_READ_WRITE, 1, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK(clCreateFromGLTexture(context, CL_MEM_READ_WRITE, 0x0DE1, 0, 1,
                              &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK(clCreateFromGLTexture2D(context, CL_MEM_READ_WRITE, 0x0DE1, 0, 1,
                                &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK(clCreateFromGLTexture3D(context, CL_MEM_READ_WRITE, 0x806F, 0, 1,
                                &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK(clCreateFromGLRenderbuffer(context, CL_MEM_READ_WRITE, 1, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  cl_gl_object_type type = 0;
  cl_GLuint name = 0;
  CHECK_CL(CL_INVALID_GL_OBJECT, clGetGLObjectInfo(buffer, &type, &name));
  cl_GLenum target = 0;
  CHECK_CL(CL_INVALID_GL_OBJECT,
           clGetGLTextureInfo(buffer, CL_GL_TEXTURE_TARGET, sizeof target,
                              &target, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueAcquireGLObjects(queue, 1, &buffer, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueReleaseGLObjects(queue, 1, &buffer, 0, NULL, NULL));
  CHECK(clCreateEventFromGLsyncKHR(context, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  cl_platform_id platform = cl_test_platform();
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  cl_device_id gl_device = NULL;
  CHECK(clGetGLContextInfoKHR(properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR,
                              sizeof gl_device, &gl_device,
                              NULL) != CL_SUCCESS);

  CHECK(clCreateFromEGLImageKHR(context, NULL, NULL, CL_MEM_READ_WRITE, NULL,
                                &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueAcquireEGLObjectsKHR(queue, 1, &buffer, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueReleaseEGLObjectsKHR(queue, 1, &buffer, 0, NULL, NULL));
  CHECK(clCreateEventFromEGLSyncKHR(context, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);

  /* Objects of another kind: the kind expected is named. */
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clGetGLObjectInfo((cl_mem)queue, &type, &name));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueAcquireGLObjects((cl_command_queue)buffer, 1, &buffer, 0,
                                     NULL, NULL));

  clReleaseMemObject(buffer);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

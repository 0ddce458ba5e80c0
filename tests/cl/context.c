/* clmux: contexts through the ICD loader — creation errors, properties
 * echoed back, reference counts, the notify callback argument rules and
 * contexts from a device type. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cl_test.h"

static cl_platform_id platform;
static cl_device_id device;

static void CL_CALLBACK notify(const char *errinfo, const void *private_info,
                               size_t cb, void *user_data) {
  (void)errinfo;
  (void)private_info;
  (void)cb;
  (void)user_data;
}

static cl_uint reference_count(cl_context context) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                                    sizeof count, &count, NULL));
  return count;
}

/* Checks that CL_CONTEXT_PROPERTIES returns `expected` (`count` entries
 * including the 0), or size 0 when `expected` is NULL. */
static void check_properties(cl_context context,
                             const cl_context_properties *expected,
                             size_t count) {
  size_t size = 99;
  CHECK_CL_SUCCESS(
      clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
  CHECK_INT(count * sizeof(cl_context_properties), size);
  if (!expected) return;
  cl_context_properties got[8];
  memset(got, 0x5a, sizeof got);
  CHECK_CL_SUCCESS(
      clGetContextInfo(context, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
  CHECK(memcmp(got, expected, count * sizeof *got) == 0);
  if (size >= sizeof(cl_context_properties)) {
    CHECK_CL(CL_INVALID_VALUE, clGetContextInfo(context, CL_CONTEXT_PROPERTIES,
                                                size - 1, got, NULL));
  }
}

static void check_devices(cl_context context) {
  cl_uint num = 0;
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof num,
                                    &num, &size));
  CHECK_INT(sizeof(cl_uint), size);
  CHECK_INT(1, num);
  cl_device_id devices[4] = {NULL};
  CHECK_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devices,
                                    devices, &size));
  CHECK_INT(sizeof(cl_device_id), size);
  CHECK(devices[0] == device);
}

static void check_create(void) {
  cl_int error = 1;
  /* No properties. */
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(context != NULL);
  check_devices(context);
  check_properties(context, NULL, 0);
  CHECK_CL_SUCCESS(clReleaseContext(context));

  /* Without errcode_ret. */
  context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
  CHECK(context != NULL);
  if (context) CHECK_CL_SUCCESS(clReleaseContext(context));

  /* Properties echoed back as given, with the 0. */
  const cl_context_properties with_platform[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  context = clCreateContext(with_platform, 1, &device, notify, &error, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(context != NULL);
  check_properties(context, with_platform, 3);
  check_devices(context);
  CHECK_CL_SUCCESS(clReleaseContext(context));

  const cl_context_properties both[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE,
                                        CL_CONTEXT_PLATFORM,
                                        (cl_context_properties)platform, 0};
  context = clCreateContext(both, 1, &device, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(context != NULL);
  check_properties(context, both, 5);
  CHECK_CL_SUCCESS(clReleaseContext(context));

  /* An empty list is kept as given: just the 0. */
  const cl_context_properties empty[] = {0};
  context = clCreateContext(empty, 1, &device, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(context != NULL);
  check_properties(context, empty, 1);
  CHECK_CL_SUCCESS(clReleaseContext(context));

  /* Duplicate devices are ignored. */
  cl_device_id twice[2] = {device, device};
  context = clCreateContext(NULL, 2, twice, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(context != NULL);
  check_devices(context);
  CHECK_CL_SUCCESS(clReleaseContext(context));
}

static void check_create_errors(void) {
  cl_int error = CL_SUCCESS;
  int user_data = 0;
  /* Devices. */
  CHECK(clCreateContext(NULL, 0, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* user_data without pfn_notify. */
  CHECK(clCreateContext(NULL, 1, &device, NULL, &user_data, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* A handle of another kind as a device (the loader dispatches it). */
  cl_context other = cl_test_context(device);
  cl_device_id bad[2] = {device, (cl_device_id)other};
  CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_DEVICE, error);

  /* Properties. */
  const cl_context_properties unknown[] = {0x4242, 1, 0};
  CHECK(clCreateContext(unknown, 1, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  const cl_context_properties platform_twice[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, CL_CONTEXT_PLATFORM,
      (cl_context_properties)platform, 0};
  CHECK(clCreateContext(platform_twice, 1, &device, NULL, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  const cl_context_properties sync_twice[] = {
      CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
      CL_FALSE, 0};
  CHECK(clCreateContext(sync_twice, 1, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  const cl_context_properties sync_bad[] = {CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
  CHECK(clCreateContext(sync_bad, 1, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  /* A platform value that is not the clmux platform: another kind of
   * clmux object (the loader passes it on, dispatching by the device). */
  const cl_context_properties not_platform[] = {
      CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, CL_CONTEXT_PLATFORM,
      (cl_context_properties)other, 0};
  CHECK(clCreateContext(not_platform, 1, &device, NULL, NULL, &error) == NULL);
  CHECK(error == CL_INVALID_PLATFORM);
  CHECK(clCreateContextFromType(not_platform, CL_DEVICE_TYPE_CPU, NULL, NULL,
                                &error) == NULL);
  CHECK(error == CL_INVALID_PLATFORM);
  /* A NULL platform, and a property name that is a pointer (as the CTS
   * passes them). */
  const cl_context_properties null_platform[] = {CL_CONTEXT_PLATFORM, 0, 0};
  CHECK(clCreateContext(null_platform, 1, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PLATFORM, error);
  CHECK(clCreateContextFromType(null_platform, CL_DEVICE_TYPE_DEFAULT, NULL,
                                NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PLATFORM, error);
  const cl_context_properties pointer_name[] = {
      (cl_context_properties) "INVALID_PROPERTY", 0, 0};
  CHECK(clCreateContext(pointer_name, 1, &device, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  const cl_context_properties sync_minus_one[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
      CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
  CHECK(clCreateContextFromType(sync_minus_one, CL_DEVICE_TYPE_DEFAULT, NULL,
                                NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  /* Property errors come before device errors. */
  CHECK(clCreateContext(unknown, 2, bad, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  CHECK_CL_SUCCESS(clReleaseContext(other));
}

static void check_from_type(void) {
  cl_int error = 1;
  const cl_context_properties with_platform[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  const cl_device_type found[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT,
                                  CL_DEVICE_TYPE_ALL,
                                  CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
  for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
    cl_context context =
        clCreateContextFromType(with_platform, found[i], NULL, NULL, &error);
    CHECK_CL_SUCCESS(error);
    REQUIRE(context != NULL);
    check_devices(context);
    check_properties(context, with_platform, 3);
    CHECK_CL_SUCCESS(clReleaseContext(context));
  }
  const cl_device_type missing[] = {
      CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    CHECK(clCreateContextFromType(with_platform, missing[i], NULL, NULL,
                                  &error) == NULL);
    CHECK_CL(CL_DEVICE_NOT_FOUND, error);
  }
  CHECK(clCreateContextFromType(with_platform, 0, NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_DEVICE_TYPE, error);
  CHECK(clCreateContextFromType(with_platform, (cl_device_type)1 << 40, NULL,
                                NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_DEVICE_TYPE, error);
  int user_data = 0;
  CHECK(clCreateContextFromType(with_platform, CL_DEVICE_TYPE_CPU, NULL,
                                &user_data, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  const cl_context_properties unknown[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0x4242, 1, 0};
  CHECK(clCreateContextFromType(unknown, CL_DEVICE_TYPE_CPU, NULL, NULL,
                                &error) == NULL);
  CHECK_CL(CL_INVALID_PROPERTY, error);
  /* With a callback and user data, without errcode_ret. */
  cl_context context = clCreateContextFromType(
      with_platform, CL_DEVICE_TYPE_DEFAULT, notify, &user_data, NULL);
  CHECK(context != NULL);
  if (context) CHECK_CL_SUCCESS(clReleaseContext(context));
}

static void check_reference_counts(void) {
  cl_context context = cl_test_context(device);
  CHECK_INT(1, reference_count(context));
  CHECK_CL_SUCCESS(clRetainContext(context));
  CHECK_CL_SUCCESS(clRetainContext(context));
  CHECK_INT(3, reference_count(context));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  CHECK_INT(2, reference_count(context));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  CHECK_INT(1, reference_count(context));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  /* The device outlives every context. */
  cl_uint available = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_AVAILABLE,
                                   sizeof available, &available, NULL));
  CHECK_INT(CL_TRUE, available);
}

static void check_info_errors(void) {
  cl_context context = cl_test_context(device);
  cl_uint value = 0;
  size_t size = 0;
  CHECK_CL(CL_INVALID_VALUE,
           clGetContextInfo(context, 0, sizeof value, &value, &size));
  CHECK_CL(CL_INVALID_VALUE, clGetContextInfo(context, CL_DEVICE_NAME,
                                              sizeof value, &value, &size));
  CHECK_CL(
      CL_INVALID_VALUE,
      clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, 2, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, 0, &value, NULL));
  cl_device_id devices[1];
  CHECK_CL(CL_INVALID_VALUE,
           clGetContextInfo(context, CL_CONTEXT_DEVICES, 1, devices, NULL));
  CHECK_CL_SUCCESS(
      clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, 0, NULL, &size));
  CHECK_INT(sizeof(cl_uint), size);
  /* A handle of another kind (a device) as the context. */
  cl_context not_context = (cl_context)device;
  CHECK_CL(CL_INVALID_CONTEXT,
           clGetContextInfo(not_context, CL_CONTEXT_REFERENCE_COUNT,
                            sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_CONTEXT, clRetainContext(not_context));
  CHECK_CL(CL_INVALID_CONTEXT, clReleaseContext(not_context));
  CHECK_CL_SUCCESS(clReleaseContext(context));
}

/* Many threads creating, retaining and releasing at once. */
static void *churn(void *unused) {
  (void)unused;
  for (int i = 0; i < 200; i++) {
    cl_int error = 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    if (error != CL_SUCCESS || !context) return (void *)1;
    if (clRetainContext(context) != CL_SUCCESS) return (void *)1;
    if (clReleaseContext(context) != CL_SUCCESS) return (void *)1;
    if (clReleaseContext(context) != CL_SUCCESS) return (void *)1;
  }
  return NULL;
}

static void *retain_release(void *data) {
  cl_context context = data;
  for (int i = 0; i < 1000; i++) {
    if (clRetainContext(context) != CL_SUCCESS) return (void *)1;
    if (clReleaseContext(context) != CL_SUCCESS) return (void *)1;
  }
  return NULL;
}

static void check_threads(void) {
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, churn, NULL) == 0);
  }
  for (int i = 0; i < 4; i++) {
    void *result = (void *)1;
    pthread_join(threads[i], &result);
    CHECK(result == NULL);
  }
  /* A shared context retained and released from many threads. */
  cl_context shared = cl_test_context(device);
  for (int i = 0; i < 4; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, retain_release, shared) == 0);
  }
  for (int i = 0; i < 4; i++) {
    void *result = (void *)1;
    pthread_join(threads[i], &result);
    CHECK(result == NULL);
  }
  CHECK_INT(1, reference_count(shared));
  CHECK_CL_SUCCESS(clReleaseContext(shared));
}

int main(void) {
  platform = cl_test_platform();
  device = cl_test_device();
  check_create();
  check_create_errors();
  check_from_type();
  check_reference_counts();
  check_info_errors();
  check_threads();
  return check_finish();
}

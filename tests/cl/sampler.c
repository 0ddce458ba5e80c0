/* clmux OpenCL API tests: samplers — creation for every addressing and
 * filter mode, clGetSamplerInfo, errors, reference counts. */
#include <stdbool.h>

#include "cl_test.h"

static cl_uint ref_count(cl_sampler sampler) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT,
                                    sizeof(count), &count, NULL));
  return count;
}

static void test_every_mode(cl_context context) {
  const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                      CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                      CL_ADDRESS_MIRRORED_REPEAT};
  const cl_filter_mode filters[] = {CL_FILTER_NEAREST, CL_FILTER_LINEAR};
  for (int n = 0; n < 2; n++) {
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
      for (int f = 0; f < 2; f++) {
        cl_int error = -1;
        cl_sampler sampler = clCreateSampler(context, n ? CL_TRUE : CL_FALSE,
                                             modes[m], filters[f], &error);
        /* Repeating modes need normalized coordinates. */
        bool repeats = modes[m] == CL_ADDRESS_REPEAT ||
                       modes[m] == CL_ADDRESS_MIRRORED_REPEAT;
        if (!n && repeats) {
          CHECK(sampler == NULL);
          CHECK_INT(CL_INVALID_VALUE, error);
          continue;
        }
        CHECK_CL_SUCCESS(error);
        if (!sampler) continue;
        cl_bool normalized = 7;
        cl_addressing_mode mode = 0;
        cl_filter_mode filter = 0;
        cl_context owner = NULL;
        size_t size = 0;
        CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_NORMALIZED_COORDS,
                                          sizeof(normalized), &normalized,
                                          &size));
        CHECK_INT(sizeof(cl_bool), size);
        CHECK_INT(n ? CL_TRUE : CL_FALSE, normalized);
        CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE,
                                          sizeof(mode), &mode, &size));
        CHECK_INT(sizeof(cl_addressing_mode), size);
        CHECK_INT(modes[m], mode);
        CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE,
                                          sizeof(filter), &filter, &size));
        CHECK_INT(sizeof(cl_filter_mode), size);
        CHECK_INT(filters[f], filter);
        CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_CONTEXT,
                                          sizeof(owner), &owner, &size));
        CHECK_INT(sizeof(cl_context), size);
        CHECK(owner == context);
        CHECK_CL_SUCCESS(clReleaseSampler(sampler));
      }
    }
  }
}

static void test_errors(cl_context context) {
  cl_int error = CL_SUCCESS;
  CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST,
                        &error) == NULL);
  CHECK_INT(CL_INVALID_CONTEXT, error);
  CHECK(clCreateSampler((cl_context)context, CL_TRUE, 0x1234, CL_FILTER_NEAREST,
                        &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &error) ==
        NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  CHECK(clCreateSampler(context, 5, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST,
                        &error) == NULL);
  CHECK_INT(CL_INVALID_VALUE, error);
  /* errcode_ret may be NULL. */
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE,
                                       CL_FILTER_NEAREST, NULL);
  CHECK(sampler != NULL);
  if (!sampler) return;

  cl_uint count = 0;
  size_t size = 0;
  CHECK_CL(
      CL_INVALID_VALUE,
      clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, 1, &count, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetSamplerInfo(sampler, 0x7fff, sizeof(count), &count, NULL));
  CHECK_CL_SUCCESS(
      clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, 0, NULL, &size));
  CHECK_INT(sizeof(cl_uint), size);
  /* A context is not a sampler: the driver must say so, not crash. */
  CHECK_CL(CL_INVALID_SAMPLER,
           clGetSamplerInfo((cl_sampler)context, CL_SAMPLER_REFERENCE_COUNT,
                            sizeof(count), &count, NULL));
  CHECK_CL(CL_INVALID_SAMPLER, clRetainSampler((cl_sampler)context));
  CHECK_CL(CL_INVALID_SAMPLER, clReleaseSampler((cl_sampler)context));
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
}

static void test_ref_counts(cl_context context) {
  cl_int error = -1;
  cl_sampler sampler = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT,
                                       CL_FILTER_LINEAR, &error);
  REQUIRE(error == CL_SUCCESS && sampler);
  CHECK_INT(1, ref_count(sampler));
  CHECK_CL_SUCCESS(clRetainSampler(sampler));
  CHECK_CL_SUCCESS(clRetainSampler(sampler));
  CHECK_INT(3, ref_count(sampler));
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
  CHECK_INT(2, ref_count(sampler));

  /* The sampler holds its context: releasing the user's context reference
   * leaves the sampler's context queryable. */
  cl_uint context_refs = 0;
  CHECK_CL_SUCCESS(clRetainContext(context));
  CHECK_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                                    sizeof(context_refs), &context_refs, NULL));
  CHECK_INT(2, context_refs);
  CHECK_CL_SUCCESS(clReleaseContext(context));
  cl_context owner = NULL;
  CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_CONTEXT, sizeof(owner),
                                    &owner, NULL));
  CHECK(owner == context);
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
}

int main(void) {
  cl_device_id device = cl_test_device();
  cl_context context = cl_test_context(device);
  test_every_mode(context);
  test_errors(context);
  test_ref_counts(context);

  /* A sampler outliving the user's context reference keeps it alive. */
  cl_int error = -1;
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP,
                                       CL_FILTER_NEAREST, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clReleaseContext(context));
  cl_context owner = NULL;
  CHECK_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_CONTEXT, sizeof(owner),
                                    &owner, NULL));
  CHECK(owner == context);
  cl_uint devices = 0;
  CHECK_CL_SUCCESS(clGetContextInfo(owner, CL_CONTEXT_NUM_DEVICES,
                                    sizeof(devices), &devices, NULL));
  CHECK_INT(1, devices);
  CHECK_CL_SUCCESS(clReleaseSampler(sampler));
  return check_finish();
}

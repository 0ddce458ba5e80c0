/* cl_khr_integer_dot_product through the loader: the device's queries and
 * version, the feature macros in OpenCL C 1.2 and 3.0, and every function
 * (dot, dot_acc_sat, their packed forms, in all four signedness pairs)
 * against the host on random inputs and on the extremes that saturate. */
#define CL_TARGET_OPENCL_VERSION 300
#include <stdint.h>

#include "cl_test.h"

#include <CL/cl_ext.h>

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { N = 4096, RESULTS = 16 };

/* Per work-item: the four dot products of (a, b) as vectors, then packed,
 * then both accumulating with acc. */
static const char source[] =
    "#if !defined(cl_khr_integer_dot_product) || \\\n"
    "    !defined(__opencl_c_integer_dot_product_input_4x8bit) || \\\n"
    "    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
    "#error no integer dot product\n"
    "#endif\n"
    "kernel void dots(global const uint *a, global const uint *b,\n"
    "                 global const int *acc, global int *out) {\n"
    "  uint i = get_global_id(0), x = a[i], y = b[i];\n"
    "  int s = acc[i];\n"
    "  global int *o = out + 16 * i;\n"
    "  o[0] = (int)dot(as_uchar4(x), as_uchar4(y));\n"
    "  o[1] = dot(as_char4(x), as_char4(y));\n"
    "  o[2] = dot(as_uchar4(x), as_char4(y));\n"
    "  o[3] = dot(as_char4(x), as_uchar4(y));\n"
    "  o[4] = (int)dot_4x8packed_uu_uint(x, y);\n"
    "  o[5] = dot_4x8packed_ss_int(x, y);\n"
    "  o[6] = dot_4x8packed_us_int(x, y);\n"
    "  o[7] = dot_4x8packed_su_int(x, y);\n"
    "  o[8] = (int)dot_acc_sat(as_uchar4(x), as_uchar4(y), (uint)s);\n"
    "  o[9] = dot_acc_sat(as_char4(x), as_char4(y), s);\n"
    "  o[10] = dot_acc_sat(as_uchar4(x), as_char4(y), s);\n"
    "  o[11] = dot_acc_sat(as_char4(x), as_uchar4(y), s);\n"
    "  o[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)s);\n"
    "  o[13] = dot_acc_sat_4x8packed_ss_int(x, y, s);\n"
    "  o[14] = dot_acc_sat_4x8packed_us_int(x, y, s);\n"
    "  o[15] = dot_acc_sat_4x8packed_su_int(x, y, s);\n"
    "}\n";

static int64_t dot_ref(uint32_t x, uint32_t y, bool x_signed, bool y_signed) {
  int64_t sum = 0;
  for (int c = 0; c < 4; c++) {
    int64_t p = (x >> (8 * c)) & 0xff, q = (y >> (8 * c)) & 0xff;
    if (x_signed && p > 127) p -= 256;
    if (y_signed && q > 127) q -= 256;
    sum += p * q;
  }
  return sum;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static void check_queries(void) {
  cl_device_integer_dot_product_capabilities_khr caps = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device,
                                   CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
                                   sizeof caps, &caps, NULL));
  CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                 CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
  cl_device_integer_dot_product_acceleration_properties_khr props;
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(
      device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
      sizeof props, &props, &size));
  CHECK_INT((int)sizeof props, (int)size);
  CHECK_CL_SUCCESS(clGetDeviceInfo(
      device,
      CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
      sizeof props, &props, &size));
  cl_name_version features[64];
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES,
                                   sizeof features, features, &size));
  int found = 0;
  for (size_t i = 0; i < size / sizeof *features; i++) {
    found += strncmp(features[i].name,
                     "__opencl_c_integer_dot_product_input_4x8bit", 43) == 0;
  }
  CHECK_INT(2, found);
  cl_name_version extensions[128];
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                   sizeof extensions, extensions, &size));
  bool version_two = false;
  for (size_t i = 0; i < size / sizeof *extensions; i++) {
    version_two |= strcmp(extensions[i].name, "cl_khr_integer_dot_product") ==
                       0 &&
                   extensions[i].version == CL_MAKE_VERSION(2, 0, 0);
  }
  CHECK(version_two);
}

static void check_functions(const char *options) {
  cl_program program = cl_test_build(context, device, source, options);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "dots", &error);
  CHECK_CL_SUCCESS(error);
  static cl_uint a[N], b[N];
  static cl_int acc[N], out[N * RESULTS];
  uint64_t state = 1;
  for (int i = 0; i < N; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = (cl_uint)(state >> 32);
    b[i] = (cl_uint)state;
    acc[i] = (cl_int)(state >> 16);
  }
  /* Extremes: the largest products with the accumulator at its limits. */
  const cl_uint extremes[] = {0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0};
  const cl_int accs[] = {INT32_MAX, INT32_MIN, -1, 0};
  for (int i = 0; i < 64; i++) {
    a[i] = extremes[i % 4];
    b[i] = extremes[(i / 4) % 4];
    acc[i] = accs[i / 16];
  }
  cl_mem buffers[4] = {cl_test_buffer(context, sizeof a, a),
                       cl_test_buffer(context, sizeof b, b),
                       cl_test_buffer(context, sizeof acc, acc),
                       cl_test_buffer(context, sizeof out, NULL)};
  for (cl_uint k = 0; k < 4; k++) {
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, k, sizeof buffers[k], &buffers[k]));
  }
  size_t global = N;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffers[3], CL_TRUE, 0,
                                       sizeof out, out, 0, NULL, NULL));
  const bool sign[4][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
  int bad = 0;
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++) {
      int64_t d = dot_ref(a[i], b[i], sign[k][0], sign[k][1]);
      int64_t want_acc =
          k == 0 ? clamp64(d + (uint32_t)acc[i], 0, UINT32_MAX)
                 : clamp64(d + acc[i], INT32_MIN, INT32_MAX);
      bad += out[RESULTS * i + k] != (cl_int)d;
      bad += out[RESULTS * i + 4 + k] != (cl_int)d;
      bad += out[RESULTS * i + 8 + k] != (cl_int)(uint32_t)want_acc;
      bad += out[RESULTS * i + 12 + k] != (cl_int)(uint32_t)want_acc;
    }
  }
  CHECK_INT(0, bad);
  for (int k = 0; k < 4; k++) clReleaseMemObject(buffers[k]);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  check_queries();
  check_functions("");
  check_functions("-cl-std=CL3.0");
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* Half precision (cl_khr_fp16) through the loader. Every one of the 65536
 * halves goes through arithmetic, the correctly rounded functions (sqrt,
 * rounding, fma, nextafter, conversions to integers) and a set of
 * transcendental ones; the host recomputes each in double and rounds it
 * to half (GCC's _Float16): exact where OpenCL asks for exact results,
 * within the OpenCL C half ulp limits elsewhere. Conversions from float
 * in every rounding mode, from double and from integers; vector forms,
 * loads and stores, bit-exact select and shuffle; images read and written
 * with read_imageh and write_imageh; sub-group and
 * work-group reductions of halves; a program reloaded from its binary in
 * another process. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { ALL = 65536, OUTPUTS = 16 };

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    /* Each of the 65536 bit patterns, with a partner for two operands. */
    "kernel void unary(global const ushort *bits, global half *out,\n"
    "                  global int *ints) {\n"
    "  size_t i = get_global_id(0);\n"
    "  half x = as_half(bits[i]), y = as_half(bits[(i * 40503u) & 65535]);\n"
    "  global half *o = out + i * 16;\n"
    "  o[0] = x + y;\n"
    "  o[1] = x * y;\n"
    "  o[2] = x / y;\n"
    "  o[3] = sqrt(x);\n"
    "  o[4] = fma(x, y, (half)0.3h);\n"
    "  o[5] = nextafter(x, y);\n"
    "  o[6] = rint(x);\n"
    "  o[7] = floor(x);\n"
    "  o[8] = exp(x);\n"
    "  o[9] = log(x);\n"
    "  o[10] = sin(x);\n"
    "  o[11] = atan2(x, y);\n"
    "  o[12] = pow(x, (half)1.5h);\n"
    "  o[13] = fmod(x, y);\n"
    "  half whole;\n"
    "  o[14] = fract(x, &whole);\n"
    "  o[15] = whole;\n"
    "  ints[3 * i] = convert_int_sat_rte(x);\n"
    "  ints[3 * i + 1] = ilogb(x);\n"
    "  ints[3 * i + 2] = isnormal(x) + 2 * isnormal((half2)x).y;\n"
    "}\n"
    /* float to half in every mode, double and int to half. */
    "kernel void narrow(global const float *f, global const double *d,\n"
    "                   global const int *n, global half *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  global half *o = out + i * 8;\n"
    "  o[0] = convert_half(f[i]);\n"
    "  o[1] = convert_half_rtz(f[i]);\n"
    "  o[2] = convert_half_rtp(f[i]);\n"
    "  o[3] = convert_half_rtn(f[i]);\n"
    "  o[4] = convert_half(d[i]);\n"
    "  o[5] = convert_half_rtz(d[i]);\n"
    "  o[6] = convert_half(n[i]);\n"
    "  o[7] = convert_half_rtp(n[i]);\n"
    "}\n"
    /* Vectors, loads and stores, selects and shuffles on the bits. */
    "kernel void vectors(global half *data, global half *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  half4 v = vload4(i, data);\n"
    "  half4 w = vload4(i ^ 1, data);\n"
    "  vstore4(mad(v, w, (half4)1.0h), i, out);\n"
    "  half8 s = shuffle2(v, w, (ushort8)(7, 6, 5, 4, 3, 2, 1, 0));\n"
    "  vstore8(s, i, out + 1024);\n"
    "  vstore4(select(v, w, (short4)(0, -1, 0, -1)), i, out + 3072);\n"
    "  out[4096 + i] = dot(v, w) + length(v) * (half)0.0h;\n"
    "}\n"
    /* Images as halves: read_imageh and write_imageh. */
    "kernel void image_halves(read_only image2d_t in,\n"
    "                         write_only image2d_t out) {\n"
    "  int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "  half4 p = read_imageh(in, at);\n"
    "  write_imageh(out, at, p * (half)2.0h + (half4)(0.5h, 0, 0, -1.0h));\n"
    "}\n"
    "#if __OPENCL_C_VERSION__ >= 300\n"
    /* Program-scope halves, written from their initial values. */
    "global half table[4] = {1.5h, -0.00000095367431640625h, 65504.0h,\n"
    "                        -0.0h};\n"
    "kernel void globals(global half *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  static global half2 pair = (half2)(0.25h, -3.0h);\n"
    "  out[i] = i < 4 ? table[i] : pair[i & 1];\n"
    "}\n"
    "kernel void groups(global const half *in, global half *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[2 * i] = sub_group_reduce_add(in[i]);\n"
    "  out[2 * i + 1] = work_group_reduce_max(in[i]);\n"
    "}\n"
    "#endif\n";

typedef _Float16 half;

static half from_bits(uint16_t b) {
  half h;
  memcpy(&h, &b, 2);
  return h;
}
static uint16_t bits_of(half h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}

/* Distance in halves between got and want (same-signed ordering), 0 when
 * both are NaN. */
static double ulps(half got, double want) {
  if (isnan(want)) return isnan((double)got) ? 0 : 1e9;
  half w = (half)want;
  if (isinf((double)w) || isinf((double)got)) {
    return (double)got == (double)w ? 0 : 1e9;
  }
  /* The ulp of want's binade (denormal spacing at the bottom). */
  int e = 0;
  frexp(fabs(want), &e);
  double ulp = ldexp(1.0, (e - 11 < -24 ? -24 : e - 11));
  return fabs((double)got - want) / ulp;
}

static cl_program program_of(cl_program given) {
  return given ? given
               : cl_test_build(context, device, source, "-cl-std=CL3.0");
}

static cl_kernel kernel_of(cl_program program, const char *name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  return kernel;
}

static void run1(cl_kernel kernel, size_t global, size_t local) {
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(
      queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

static void check_unary(cl_program program) {
  cl_kernel kernel = kernel_of(program, "unary");
  uint16_t *bits = malloc(ALL * 2);
  REQUIRE(bits);
  for (size_t i = 0; i < ALL; i++) bits[i] = (uint16_t)i;
  cl_mem in = cl_test_buffer(context, ALL * 2, bits);
  cl_mem out = cl_test_buffer(context, ALL * OUTPUTS * 2, NULL);
  cl_mem ints = cl_test_buffer(context, ALL * 3 * 4, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof ints, &ints));
  run1(kernel, ALL, 0);
  half *o = malloc(ALL * OUTPUTS * 2);
  int32_t *n = malloc(ALL * 3 * 4);
  REQUIRE(o && n);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                       ALL * OUTPUTS * 2, o, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, ints, CL_TRUE, 0, ALL * 12, n, 0, NULL, NULL));
  /* OpenCL C's half limits: exact (0), or these ulps. */
  static const double limit[OUTPUTS] = {0, 0, 0, 0, 0, 0, 0, 0,
                                        2, 2, 2, 2, 2, 0, 0, 0};
  size_t bad = 0;
  for (size_t i = 0; i < ALL; i++) {
    double x = (double)from_bits((uint16_t)i);
    double y = (double)from_bits((uint16_t)((i * 40503u) & 65535));
    double whole = floor(x);
    double fraction = fmin((double)(half)(x - whole), 0x1.ffcp-1);
    if (isinf(x)) fraction = 0.0 * (x > 0 ? 1 : -1);
    if (isnan(x)) fraction = x, whole = x;
    double next = nextafter(x, y);
    if (isnan(x) || isnan(y)) {
      next = NAN;
    } else if (x == y) {
      next = y;
    } else {
      uint16_t b = (uint16_t)i;
      next = (b & 0x7fff) == 0
                 ? (double)from_bits((uint16_t)((y > 0 ? 0 : 0x8000) | 1))
                 : (double)from_bits(
                       (uint16_t)(((x < y) == (x > 0)) ? b + 1 : b - 1));
    }
    double want[OUTPUTS] = {(double)(half)(x + y),
                            (double)(half)(x * y),
                            (double)(half)(x / y),
                            (double)(half)sqrt(x),
                            (double)(half)fma(x, y, (double)(half)0.3),
                            next,
                            rint(x),
                            floor(x),
                            exp(x),
                            log(x),
                            sin(x),
                            atan2(x, y),
                            pow(x, 1.5),
                            fmod(x, y),
                            fraction,
                            whole};
    for (int r = 0; r < OUTPUTS; r++) {
      half got = o[i * OUTPUTS + r];
      double distance = ulps(got, want[r]);
      bool same_zero = want[r] == 0 && (double)got == 0;
      if (distance > limit[r] + 0.5 * (limit[r] > 0) && !same_zero &&
          bad++ < 8) {
        fprintf(stderr, "half 0x%04zx (%g), y %g: result %d is %g, want %g\n",
                i, x, y, r, (double)got, want[r]);
      }
    }
    int want_int = isnan(x)             ? 0
                   : x >= 2147483647.0  ? 2147483647
                   : x <= -2147483648.0 ? (int)-2147483648.0
                                        : (int)rint(x);
    int want_logb = x == 0     ? -2147483647 - 1 /* FP_ILOGB0 */
                    : isnan(x) ? 2147483647      /* FP_ILOGBNAN */
                    : isinf(x) ? 2147483647
                               : ilogb(x);
    /* Normal as a half (scalar 1, vector -1): exponent bits 1 to 30. */
    unsigned exponent = (i >> 10) & 31;
    int want_normal = exponent != 0 && exponent != 31 ? 1 + 2 * -1 : 0;
    if ((n[3 * i] != want_int || n[3 * i + 1] != want_logb ||
         n[3 * i + 2] != want_normal) &&
        bad++ < 8) {
      fprintf(stderr, "half %g: ints %d %d %d, want %d %d %d\n", x, n[3 * i],
              n[3 * i + 1], n[3 * i + 2], want_int, want_logb, want_normal);
    }
  }
  CHECK_INT(0, bad);
  free(bits);
  free(o);
  free(n);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(ints);
  clReleaseKernel(kernel);
}

/* The half that `value` rounds to in `mode` (0 nearest, 1 toward zero,
 * 2 up, 3 down), from the nearest one and its neighbours. */
static half round_to(double value, int mode) {
  half h = (half)value;
  if (mode == 0 || isnan(value) || (double)h == value) return h;
  uint16_t b = bits_of(h);
  bool above = (double)h > value;
  bool toward_zero = fabs((double)h) > fabs(value);
  bool step = mode == 1 ? toward_zero : mode == 2 ? !above : above;
  if (!step) return h;
  bool up = mode == 2 || (mode == 1 && value < 0);
  bool negative = b & 0x8000;
  if ((b & 0x7fff) == 0) return from_bits(up ? 0x0001 : 0x8001);
  return from_bits((uint16_t)(up != negative ? b + 1 : b - 1));
}

static void check_narrow(cl_program program) {
  enum { N = 4096 };
  cl_kernel kernel = kernel_of(program, "narrow");
  float *f = malloc(N * 4);
  double *d = malloc(N * 8);
  int32_t *n = malloc(N * 4);
  REQUIRE(f && d && n);
  uint32_t state = 12345;
  for (size_t i = 0; i < N; i++) {
    state = state * 1664525u + 1013904223u;
    /* Over half's range and past it, around its halfway points. */
    double magnitude =
        ldexp(1.0 + (state >> 8) / 16777216.0, (int)(state % 46) - 28);
    f[i] = (float)(i & 1 ? -magnitude : magnitude);
    d[i] = (i & 2 ? -magnitude : magnitude) * (1 + 0x1p-40);
    n[i] = (int32_t)(state >> (state % 24)) * (i & 4 ? -1 : 1);
  }
  f[0] = 65519.99f;
  f[1] = 65520.0f;
  f[2] = -1e-9f;
  f[3] = NAN;
  d[0] = 0x1.0020000000001p0; /* just past a tie: must round up */
  cl_mem fin = cl_test_buffer(context, N * 4, f);
  cl_mem din = cl_test_buffer(context, N * 8, d);
  cl_mem nin = cl_test_buffer(context, N * 4, n);
  cl_mem out = cl_test_buffer(context, N * 8 * 2, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof fin, &fin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof din, &din));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof nin, &nin));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 3, sizeof out, &out));
  run1(kernel, N, 0);
  half *o = malloc(N * 8 * 2);
  REQUIRE(o);
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, out, CL_TRUE, 0, N * 16, o, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < N; i++) {
    half want[8] = {round_to(f[i], 0), round_to(f[i], 1), round_to(f[i], 2),
                    round_to(f[i], 3), round_to(d[i], 0), round_to(d[i], 1),
                    round_to(n[i], 0), round_to(n[i], 2)};
    for (int r = 0; r < 8; r++) {
      half got = o[i * 8 + r];
      bool same = bits_of(got) == bits_of(want[r]) ||
                  (isnan((double)got) && isnan((double)want[r]));
      if (!same && bad++ < 8) {
        fprintf(stderr,
                "narrow %zu (%.17g %.17g %d): result %d is %g, "
                "want %g\n",
                i, (double)f[i], d[i], n[i], r, (double)got, (double)want[r]);
      }
    }
  }
  CHECK_INT(0, bad);
  free(f);
  free(d);
  free(n);
  free(o);
  clReleaseMemObject(fin);
  clReleaseMemObject(din);
  clReleaseMemObject(nin);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

static void check_vectors(cl_program program) {
  enum { ITEMS = 256 };
  cl_kernel kernel = kernel_of(program, "vectors");
  half data[ITEMS * 4];
  for (size_t i = 0; i < ITEMS * 4; i++) {
    data[i] = (half)((double)((i * 37) % 101) / 16.0 - 3.0);
  }
  data[5] = from_bits(0x7e01); /* a NaN with a payload: moved bit-exact */
  cl_mem in = cl_test_buffer(context, sizeof data, data);
  cl_mem out = cl_test_buffer(context, (4096 + ITEMS) * 2, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  run1(kernel, ITEMS, 0);
  half *o = malloc((4096 + ITEMS) * 2);
  REQUIRE(o);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                       (4096 + ITEMS) * 2, o, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < ITEMS; i++) {
    const half *v = data + 4 * i, *w = data + 4 * (i ^ 1);
    double dot = 0;
    for (int c = 0; c < 4; c++) {
      double want = (double)v[c] * (double)w[c] + 1.0;
      bool ok = (isnan(want) && isnan((double)o[4 * i + c])) ||
                ulps(o[4 * i + c], want) <= 1;
      uint16_t shuffled = bits_of(o[1024 + 8 * i + c]);
      uint16_t first = bits_of(o[1024 + 8 * i + 4 + c]);
      ok &= shuffled == bits_of(w[3 - c]) && first == bits_of(v[3 - c]);
      ok &= bits_of(o[3072 + 4 * i + c]) == bits_of(c & 1 ? w[c] : v[c]);
      if (!ok && bad++ < 8) fprintf(stderr, "vectors %zu.%d\n", i, c);
      dot += (double)v[c] * (double)w[c];
    }
    if (!isnan(dot) && ulps(o[4096 + i], dot) > 4 && bad++ < 8) {
      fprintf(stderr, "dot %zu: %g, want %g\n", i, (double)o[4096 + i], dot);
    }
  }
  CHECK_INT(0, bad);
  free(o);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

static void check_groups(cl_program program) {
  enum { ITEMS = 512, LOCAL = 64 };
  cl_kernel kernel = kernel_of(program, "groups");
  half in[ITEMS];
  for (size_t i = 0; i < ITEMS; i++) in[i] = (half)(double)((i * 13) % 29);
  cl_mem a = cl_test_buffer(context, sizeof in, in);
  cl_mem b = cl_test_buffer(context, ITEMS * 4, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof a, &a));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof b, &b));
  run1(kernel, ITEMS, LOCAL);
  size_t size = 0;
  size_t local = LOCAL;
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
      &local, sizeof size, &size, NULL));
  CHECK(size > 1);
  half o[ITEMS * 2];
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; size > 0 && i < ITEMS; i++) {
    size_t first = i - i % size, group = i - i % LOCAL;
    double sum = 0, most = 0;
    for (size_t k = first; k < first + size; k++) sum += (double)in[k];
    for (size_t k = group; k < group + LOCAL; k++) {
      most = fmax(most, (double)in[k]);
    }
    if (((double)o[2 * i] != sum || (double)o[2 * i + 1] != most) &&
        bad++ < 8) {
      fprintf(stderr, "groups %zu: %g %g, want %g %g\n", i, (double)o[2 * i],
              (double)o[2 * i + 1], sum, most);
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kernel);
}

/* CL_RGBA/CL_HALF_FLOAT images read and written as half4. */
static void check_images(cl_program program) {
  enum { W = 16, H = 4 };
  cl_kernel kernel = kernel_of(program, "image_halves");
  half pixels[W * H * 4], result[W * H * 4];
  for (size_t i = 0; i < W * H * 4; i++) {
    pixels[i] = (half)((double)((i * 7) % 33) / 8.0 - 2.0);
  }
  cl_image_format format = {CL_RGBA, CL_HALF_FLOAT};
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = W;
  desc.image_height = H;
  cl_int error = CL_SUCCESS;
  cl_mem in = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            &format, &desc, pixels, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem out =
      clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  size_t global[2] = {W, H}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, NULL,
                                          0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0,
                                      result, 0, NULL, NULL));
  size_t bad = 0;
  static const double add[4] = {0.5, 0, 0, -1.0};
  for (size_t i = 0; i < W * H * 4; i++) {
    /* Every value here is exact in half. */
    double want = (double)pixels[i] * 2.0 + add[i % 4];
    if ((double)result[i] != want && bad++ < 4) {
      fprintf(stderr, "image %zu: %g, want %g\n", i, (double)result[i], want);
    }
  }
  CHECK_INT(0, bad);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

/* Program-scope half variables hold their initial values' bits. */
static void check_globals(cl_program program) {
  cl_kernel kernel = kernel_of(program, "globals");
  cl_mem out = cl_test_buffer(context, 6 * 2, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof out, &out));
  run1(kernel, 6, 0);
  uint16_t got[6];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got,
                                       0, NULL, NULL));
  /* 1.5, -2^-20 (a denormal), 65504, -0, 0.25, -3 */
  static const uint16_t want[6] = {0x3e00, 0x8010, 0x7bff,
                                   0x8000, 0x3400, 0xc200};
  for (int i = 0; i < 6; i++) CHECK_INT(want[i], got[i]);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

static const char binary_path[] = "half.bin";

static int child(void) {
  cl_program program = cl_test_load_binary(context, device, binary_path);
  check_narrow(program);
  check_vectors(program);
  clReleaseProgram(program);
  return check_finish();
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc > 2 && strcmp(argv[1], "--child") == 0) return child();

  cl_program program = program_of(NULL);
  check_unary(program);
  check_narrow(program);
  check_vectors(program);
  check_groups(program);
  check_images(program);
  check_globals(program);

  cl_test_save_binary(program, binary_path);
  clReleaseProgram(program);
  CHECK(cl_test_run_child(argv[0], "binary"));
  remove(binary_path);

  /* OpenCL C 1.2 has half too, with the pragma. */
  program = cl_test_build(context, device, source, "");
  check_narrow(program);
  clReleaseProgram(program);

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

/* cl_khr_extended_bit_ops through the loader: bitfield_insert,
 * bitfield_extract_signed, bitfield_extract_unsigned and bit_reverse on
 * char, ushort, int and ulong, scalars and vectors, for every offset and
 * count that fit the width (counts of 0 and the full width included),
 * against the host; OpenCL C 1.2 and 3.0. */
#include <stdint.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* Work-item i takes offset = i % (W + 1) and count = i / (W + 1), both up
 * to the width; combinations past it are skipped. Scalars of T and
 * 3-vectors whose first element is the same value. */
static const char source[] =
    "#ifndef cl_khr_extended_bit_ops\n"
    "#error no cl_khr_extended_bit_ops\n"
    "#endif\n"
    "#define KERNEL(T, UT, ST, W)                                        \\\n"
    "kernel void ops_##T(global const T *a, global const T *b,           \\\n"
    "                    global T *ins, global ST *ext_s,                \\\n"
    "                    global UT *ext_u, global T *rev,                \\\n"
    "                    global T *vec) {                                \\\n"
    "  uint i = get_global_id(0);                                        \\\n"
    "  uint offset = i % (W + 1), count = i / (W + 1);                   \\\n"
    "  if (offset + count > W) return;                                   \\\n"
    "  ins[i] = bitfield_insert(a[i], b[i], offset, count);              \\\n"
    "  ext_s[i] = bitfield_extract_signed(a[i], offset, count);          \\\n"
    "  ext_u[i] = bitfield_extract_unsigned(a[i], offset, count);        \\\n"
    "  rev[i] = bit_reverse(a[i]);                                       \\\n"
    "  T##3 v = (T##3)(a[i], b[i], a[i]);                                \\\n"
    "  vec[i] = bitfield_insert(v, (T##3)(b[i]), offset, count).x ^      \\\n"
    "           bit_reverse(v).y ^                                       \\\n"
    "           (T)bitfield_extract_unsigned(v, offset, count).z;        \\\n"
    "}\n"
    "KERNEL(char, uchar, char, 8)\n"
    "KERNEL(ushort, ushort, short, 16)\n"
    "KERNEL(int, uint, int, 32)\n"
    "KERNEL(ulong, ulong, long, 64)\n";

static uint64_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return *state >> 11 ^ *state << 21;
}

static uint64_t low_bits(unsigned n) {
  return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Host references on the value's W low bits. */
static uint64_t insert_ref(uint64_t base, uint64_t insert, unsigned offset,
                           unsigned count) {
  uint64_t mask = low_bits(count) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}
static uint64_t extract_ref(uint64_t base, unsigned offset, unsigned count,
                            bool is_signed, unsigned width) {
  if (count == 0) return 0;
  uint64_t field = (base >> offset) & low_bits(count);
  if (is_signed && (field >> (count - 1)) & 1) field |= ~low_bits(count);
  return field & low_bits(width);
}
static uint64_t reverse_ref(uint64_t base, unsigned width) {
  uint64_t r = 0;
  for (unsigned b = 0; b < width; b++) r |= ((base >> b) & 1) << (width - 1 - b);
  return r;
}

static uint64_t load(const unsigned char *p, size_t bytes) {
  uint64_t v = 0;
  memcpy(&v, p, bytes);
  return v;
}

static void check_type(cl_program program, const char *type, unsigned width) {
  size_t bytes = width / 8, n = (width + 1) * (width + 1);
  unsigned char *a = malloc(n * bytes), *b = malloc(n * bytes);
  unsigned char *out[5];
  REQUIRE(a && b);
  uint64_t state = width;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = next_random(&state), y = next_random(&state);
    memcpy(a + i * bytes, &x, bytes);
    memcpy(b + i * bytes, &y, bytes);
  }
  char name[32];
  snprintf(name, sizeof name, "ops_%s", type);
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem buffers[7];
  buffers[0] = cl_test_buffer(context, n * bytes, a);
  buffers[1] = cl_test_buffer(context, n * bytes, b);
  for (int k = 2; k < 7; k++) {
    buffers[k] = cl_test_buffer(context, n * bytes, NULL);
  }
  for (cl_uint k = 0; k < 7; k++) {
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, k, sizeof buffers[k], &buffers[k]));
  }
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0,
                                          NULL, NULL));
  for (int k = 0; k < 5; k++) {
    out[k] = malloc(n * bytes);
    REQUIRE(out[k]);
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffers[k + 2], CL_TRUE, 0,
                                         n * bytes, out[k], 0, NULL, NULL));
  }
  size_t bad = 0, checked = 0;
  uint64_t all = low_bits(width);
  for (size_t i = 0; i < n; i++) {
    unsigned offset = i % (width + 1), count = i / (width + 1);
    if (offset + count > width) continue;
    checked++;
    uint64_t x = load(a + i * bytes, bytes), y = load(b + i * bytes, bytes);
    uint64_t inserted = insert_ref(x, y, offset, count) & all;
    uint64_t reversed = reverse_ref(x, width);
    bad += load(out[0] + i * bytes, bytes) != inserted;
    bad += load(out[1] + i * bytes, bytes) !=
           extract_ref(x, offset, count, true, width);
    bad += load(out[2] + i * bytes, bytes) !=
           extract_ref(x, offset, count, false, width);
    bad += load(out[3] + i * bytes, bytes) != reversed;
    uint64_t vec = insert_ref(x, y, offset, count) ^ reverse_ref(y, width) ^
                   extract_ref(x, offset, count, false, width);
    bad += load(out[4] + i * bytes, bytes) != (vec & all);
  }
  CHECK(checked > (size_t)width);
  if (bad) fprintf(stderr, "%s: %zu wrong\n", type, bad);
  CHECK(bad == 0);
  for (int k = 0; k < 5; k++) free(out[k]);
  for (int k = 0; k < 7; k++) clReleaseMemObject(buffers[k]);
  clReleaseKernel(kernel);
  free(a);
  free(b);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  CHECK(cl_test_has_extension(device, "cl_khr_extended_bit_ops"));
  const char *options[] = {"", "-cl-std=CL3.0"};
  for (int o = 0; o < 2; o++) {
    cl_program program = cl_test_build(context, device, source, options[o]);
    check_type(program, "char", 8);
    check_type(program, "ushort", 16);
    check_type(program, "int", 32);
    check_type(program, "ulong", 64);
    clReleaseProgram(program);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

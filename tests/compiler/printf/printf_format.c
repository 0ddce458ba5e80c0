/* printf conversions in a kernel against the host's snprintf of the same
 * format and values: every conversion, flags, width, precision (also from
 * '*'), length modifiers, vectors, %s, %c, %p, %%; each printf returns 0. */
#include <math.h>

#include "printf_test.h"

/* Each case is written once: stringified into the kernel's source and
 * expanded into the host's snprintf. */
#define SCALAR_CASES(X)                                                      \
  X("%d %i %5d|%-5d|%05d %+d % d %d\n", 42, -42, 42, 42, -42, 42, 42, 0)     \
  X("%u %o %x %X %#x %#o %#X\n", 3000000000u, 511u, 48879u, 48879u, 255u,   \
    8u, 0u)                                                                  \
  X("%hhd %hd %hhu %hu %hhx %hX\n", 300, 70000, 300, 70000, -1, -1)          \
  X("%ld %lu %lx %li %lo\n", -1234567890123L, 18446744073709551615UL,        \
    0x123456789abcL, 7L, 64L)                                                \
  X("%.3d|%8.3d|%-8.3x|%.0d|%+.2i\n", 5, -5, 255u, 0, 3)                     \
  X("%f %F %e %E %g %G\n", 3.14159f, -2.5f, 12345.678f, 0.000123f, 1e-5f,   \
    123456789.0f)                                                            \
  X("%a %A %.3a %a\n", 1.0f, -0.75f, 3.0f, 0.1f)                             \
  X("%10.3f|%-10.2e|%+.0f|%#.0f|%08.3f|% f\n", 3.14159f, 31415.9f, 2.5f,     \
    3.0f, -1.5f, 2.0f)                                                       \
  X("%.0e %#g %g %g %.10g %#.3g\n", 12345.0f, 1.0f, 100000.0f, 1000000.0f,   \
    0.1f, 2.0f)                                                              \
  X("%*d|%-*d|%.*f|%*.*f|%*d\n", 6, 42, 6, 42, 2, 1.23456f, 10, 3,           \
    2.71828f, -4, 7)                                                         \
  X("%c%c%c|%3c|%-3c|\n", 'a', 'B', '0', 'x', 'y')                           \
  X("%s|%10s|%-10s|%.2s|%s\n", "hello", "right", "left", "truncate", "")     \
  X("100%% %d%%\n", 5)                                                       \
  X("%f %e %g %f\n", INFINITY, -INFINITY, 1e-40f, 1.17549435e-38f)           \
  X("%d %s %f %c %lx %u\n", 1, "two", 3.0f, '4', 5L, 6u)

#define KERNEL_LINE(format, ...) \
  "  results[n++] = printf(" #format ", " #__VA_ARGS__ ");\n"
#define HOST_LINE(format, ...) text_add(&expected, format, __VA_ARGS__);
#define COUNT_LINE(format, ...) +1

static const char scalar_source[] =
    "kernel void scalars(global int *results) {\n"
    "  int n = 0;\n" SCALAR_CASES(KERNEL_LINE) "}\n";

static void test_scalars(void) {
  enum { cases = 0 SCALAR_CASES(COUNT_LINE) };
  mux_executable_t executable = build_source(scalar_source, "scalars");
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "scalars");
  int32_t results[cases];
  for (int i = 0; i < cases; i++) results[i] = 7;
  host_buffer buffer = host_buffer_create(results, sizeof results);
  mux_descriptor_info_t args[1] = {buffer_arg(&buffer)};
  stdout_capture capture;
  capture_start(&capture);
  mux_result_t result = run_1d(kernel, args, 1, 1, 1);
  char *actual = capture_end(&capture);
  CHECK_SUCCESS(result);
  text expected = {NULL, 0, 0};
  SCALAR_CASES(HOST_LINE)
  check_text("scalars", expected.data, actual);
  host_buffer_read(&buffer, results);
  int nonzero = 0;
  for (int i = 0; i < cases; i++) nonzero += results[i] != 0;
  CHECK_INT(0, nonzero);
  free(expected.data);
  free(actual);
  host_buffer_destroy(&buffer);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

static const char vector_source[] =
    "kernel void vectors(global int *results) {\n"
    "  int4 i4 = (int4)(1, -2, 3, -4);\n"
    "  float3 f3 = (float3)(1.5f, -2.25f, 1e10f);\n"
    "  uchar8 c8 = (uchar8)(0, 1, 15, 16, 127, 128, 200, 255);\n"
    "  float2 f2 = (float2)(0.5f, 3.0f);\n"
    "  short4 s4 = (short4)(-1, 2, -300, 32767);\n"
    "  long2 l2 = (long2)(-5, 1L << 40);\n"
    "  int16 i16 = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,\n"
    "                      14, -15);\n"
    "  float16 f16 = (float16)(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f,\n"
    "                          3.5f, 4.0f, 4.5f, 5.0f, 5.5f, 6.0f, 6.5f,\n"
    "                          7.0f, -7.5f);\n"
    "  char3 c3 = (char3)(1, -2, 3);\n"
    "  ushort2 u2 = (ushort2)(65535, 1);\n"
    "  int n = 0;\n"
    "  results[n++] = printf(\"%v4d|%v4hld|%5v4d|%-4v4hli|\\n\", i4, i4, i4,\n"
    "                        i4);\n"
    "  results[n++] = printf(\"%v3hlf|%.2v3hle|%v3hlg\\n\", f3, f3, f3);\n"
    "  results[n++] = printf(\"%v8hhx|%#v8hho|%v8hhu|%v8hhd\\n\", c8, c8, c8,\n"
    "                        c8);\n"
    "  results[n++] = printf(\"%v2f|%v2hlg|%+.1v2hla\\n\", f2, f2, f2);\n"
    "  results[n++] = printf(\"%v4hd|%+v4hi|%v4hx\\n\", s4, s4, s4);\n"
    "  results[n++] = printf(\"%v2ld|%v2lx|%v2lu\\n\", l2, l2, l2);\n"
    "  results[n++] = printf(\"%v16hld\\n\", i16);\n"
    "  results[n++] = printf(\"%v16hlf\\n\", f16);\n"
    "  results[n++] = printf(\"%v3hhd %v2hu %d\\n\", c3, u2, 9);\n"
    "}\n";

/* One vector conversion on the host: each element by `element` (a scalar
 * format), separated by commas. */
static void add_ints(text *t, const char *element, int count,
                     const long *values, bool is_long) {
  for (int i = 0; i < count; i++) {
    if (i) text_add(t, ",");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    if (is_long) {
      text_add(t, element, values[i]);
    } else {
      text_add(t, element, (int)values[i]);
    }
#pragma GCC diagnostic pop
  }
}

static void add_floats(text *t, const char *element, int count,
                       const double *values) {
  for (int i = 0; i < count; i++) {
    if (i) text_add(t, ",");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    text_add(t, element, values[i]);
#pragma GCC diagnostic pop
  }
}

static void vector_expected(text *t) {
  const long i4[4] = {1, -2, 3, -4};
  add_ints(t, "%d", 4, i4, false), text_add(t, "|");
  add_ints(t, "%d", 4, i4, false), text_add(t, "|");
  add_ints(t, "%5d", 4, i4, false), text_add(t, "|");
  add_ints(t, "%-4i", 4, i4, false), text_add(t, "|\n");
  const double f3[3] = {1.5, -2.25, 1e10};
  add_floats(t, "%f", 3, f3), text_add(t, "|");
  add_floats(t, "%.2e", 3, f3), text_add(t, "|");
  add_floats(t, "%g", 3, f3), text_add(t, "\n");
  const long c8[8] = {0, 1, 15, 16, 127, 128, 200, 255};
  add_ints(t, "%hhx", 8, c8, false), text_add(t, "|");
  add_ints(t, "%#hho", 8, c8, false), text_add(t, "|");
  add_ints(t, "%hhu", 8, c8, false), text_add(t, "|");
  add_ints(t, "%hhd", 8, c8, false), text_add(t, "\n");
  const double f2[2] = {0.5, 3.0};
  add_floats(t, "%f", 2, f2), text_add(t, "|");
  add_floats(t, "%g", 2, f2), text_add(t, "|");
  add_floats(t, "%+.1a", 2, f2), text_add(t, "\n");
  const long s4[4] = {-1, 2, -300, 32767};
  add_ints(t, "%hd", 4, s4, false), text_add(t, "|");
  add_ints(t, "%+hi", 4, s4, false), text_add(t, "|");
  add_ints(t, "%hx", 4, s4, false), text_add(t, "\n");
  const long l2[2] = {-5, 1L << 40};
  add_ints(t, "%ld", 2, l2, true), text_add(t, "|");
  add_ints(t, "%lx", 2, l2, true), text_add(t, "|");
  add_ints(t, "%lu", 2, l2, true), text_add(t, "\n");
  long i16[16];
  double f16[16];
  for (int i = 0; i < 16; i++) {
    i16[i] = i == 15 ? -15 : i;
    f16[i] = 0.5 * (double)i16[i];
  }
  add_ints(t, "%d", 16, i16, false), text_add(t, "\n");
  add_floats(t, "%f", 16, f16), text_add(t, "\n");
  const long c3[3] = {1, -2, 3}, u2[2] = {65535, 1};
  add_ints(t, "%hhd", 3, c3, false), text_add(t, " ");
  add_ints(t, "%hu", 2, u2, false), text_add(t, " 9\n");
}

static void test_vectors(void) {
  enum { cases = 9 };
  mux_executable_t executable = build_source(vector_source, "vectors");
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "vectors");
  int32_t results[cases];
  for (int i = 0; i < cases; i++) results[i] = 7;
  host_buffer buffer = host_buffer_create(results, sizeof results);
  mux_descriptor_info_t args[1] = {buffer_arg(&buffer)};
  stdout_capture capture;
  capture_start(&capture);
  mux_result_t result = run_1d(kernel, args, 1, 1, 1);
  char *actual = capture_end(&capture);
  CHECK_SUCCESS(result);
  text expected = {NULL, 0, 0};
  vector_expected(&expected);
  check_text("vectors", expected.data, actual);
  host_buffer_read(&buffer, results);
  int nonzero = 0;
  for (int i = 0; i < cases; i++) nonzero += results[i] != 0;
  CHECK_INT(0, nonzero);
  free(expected.data);
  free(actual);
  host_buffer_destroy(&buffer);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

/* %p of a buffer and of NULL, %s of a __constant array, a format chosen
 * at run time, printf in a function the kernel calls. */
static const char pointer_source[] =
    "constant char message[] = \"from constant memory\";\n"
    "int helper(int value) { return printf(\"helper %d\\n\", value); }\n"
    "kernel void pointers(global int *data, int pick) {\n"
    "  constant char *format = pick ? \"B %d %s\\n\" : \"A %d %s\\n\";\n"
    "  printf(\"%p %p\\n\", data, (global int *)0);\n"
    "  printf(\"%s|%25s|\\n\", message, message);\n"
    "  printf(format, pick, message);\n"
    "  data[0] = helper(pick + 10);\n"
    "}\n";

static void test_pointers(void) {
  mux_executable_t executable = build_source(pointer_source, "pointers");
  if (!executable) return;
  mux_kernel_t kernel = create_kernel(executable, "pointers");
  int32_t initial[16] = {7};
  host_buffer buffer = host_buffer_create(initial, sizeof initial);
  void *address = NULL;
  REQUIRE(muxMapMemory(device, buffer.memory, 0, 64, &address) ==
          mux_success);
  REQUIRE(muxUnmapMemory(device, buffer.memory) == mux_success);
  for (int32_t pick = 0; pick < 2; pick++) {
    mux_descriptor_info_t args[2] = {buffer_arg(&buffer),
                                     value_arg(&pick, sizeof pick)};
    stdout_capture capture;
    capture_start(&capture);
    mux_result_t result = run_1d(kernel, args, 2, 1, 1);
    char *actual = capture_end(&capture);
    CHECK_SUCCESS(result);
    text expected = {NULL, 0, 0};
    text_add(&expected, "%p %p\n", address, NULL);
    text_add(&expected, "%s|%25s|\n", "from constant memory",
             "from constant memory");
    text_add(&expected, "%c %d %s\n", pick ? 'B' : 'A', pick,
             "from constant memory");
    text_add(&expected, "helper %d\n", pick + 10);
    check_text("pointers", expected.data, actual);
    int32_t data[16] = {7};
    host_buffer_read(&buffer, data);
    CHECK_INT(0, data[0]); /* what printf returned in the helper */
    free(expected.data);
    free(actual);
  }
  host_buffer_destroy(&buffer);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

int main(void) {
  printf_test_start();
  test_scalars();
  test_vectors();
  test_pointers();
  return printf_test_finish();
}

/* Builtin library tests — shuffle and shuffle2 (OpenCL 1.2 section
 * 6.12.12): every input and result width (2, 4, 8, 16) for one type per
 * element size and float, masks with high bits set that must be ignored. */
#include <stdarg.h>

#include "builtins_test.h"

#define ITEMS 64
#define LOCAL 16
static const int widths[] = {2, 4, 8, 16};
static const char *types[] = {"char", "ushort", "int", "ulong", "float"};
static const char *mask_types[] = {"uchar", "ushort", "uint", "ulong", "uint"};
static const int sizes[] = {1, 2, 4, 8, 4};
#define TYPES 5

static void append(char **text, size_t *length, const char *format, ...) {
  va_list args, copy;
  va_start(args, format);
  va_copy(copy, args);
  int n = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  REQUIRE(n >= 0);
  *text = realloc(*text, *length + (size_t)n + 1);
  REQUIRE(*text);
  vsnprintf(*text + *length, (size_t)n + 1, format, args);
  va_end(args);
  *length += (size_t)n;
}

static uint32_t rng = 31337;

static uint64_t mask_value(int size, uint64_t r) {
  return size == 8 ? r : r & (((uint64_t)1 << (8 * size)) - 1);
}

/* Kernel sh_<T><n>_<m>: shuffle and shuffle2 of x, y by mask. */
static void append_kernel(char **s, size_t *len, const char *name, int t,
                          int n, int m) {
  append(s, len,
         "kernel void %s(global %s%d *x, global %s%d *y, global %s%d *mask,\n"
         "               global %s%d *o) {\n"
         "  size_t i = get_global_id(0);\n"
         "  o[2 * i] = shuffle(x[i], mask[i]);\n"
         "  o[2 * i + 1] = shuffle2(x[i], y[i], mask[i]);\n}\n",
         name, types[t], n, types[t], n, mask_types[t], m, types[t], m);
}

static int check_pair(mux_executable_t exe, const char *name, int t, int n,
                      int m) {
  int size = sizes[t], failures = 0;
  size_t in_bytes = (size_t)ITEMS * n * size, mask_bytes = (size_t)ITEMS * m * size;
  uint8_t *x = malloc(in_bytes), *y = malloc(in_bytes), *mask = malloc(mask_bytes);
  uint8_t *o = malloc(2 * mask_bytes);
  REQUIRE(x && y && mask && o);
  for (size_t k = 0; k < in_bytes; k++) {
    x[k] = (uint8_t)bt_random(&rng);
    y[k] = (uint8_t)bt_random(&rng);
  }
  for (size_t k = 0; k < mask_bytes / size; k++) {
    uint64_t r = ((uint64_t)bt_random(&rng) << 32) | bt_random(&rng);
    if (k % 3 == 0) r &= 2 * n - 1; /* plain indices too */
    r = mask_value(size, r);
    memcpy(mask + k * size, &r, size);
  }
  bt_buffer bx = bt_buffer_create(x, in_bytes), by = bt_buffer_create(y, in_bytes);
  bt_buffer bm = bt_buffer_create(mask, mask_bytes), bo = bt_buffer_create(NULL, 2 * mask_bytes);
  mux_descriptor_info_t args[] = {bt_buffer_arg(&bx), bt_buffer_arg(&by),
                                  bt_buffer_arg(&bm), bt_buffer_arg(&bo)};
  bt_run(exe, name, args, 4, ITEMS, LOCAL);
  bt_buffer_read(&bo, o);
  for (int i = 0; i < ITEMS; i++) {
    for (int e = 0; e < m; e++) {
      uint64_t k = 0;
      memcpy(&k, mask + ((size_t)i * m + e) * size, size);
      size_t one = k & (uint64_t)(n - 1), two = k & (uint64_t)(2 * n - 1);
      const uint8_t *want1 = x + ((size_t)i * n + one) * size;
      const uint8_t *want2 = two < (size_t)n ? x + ((size_t)i * n + two) * size
                                             : y + ((size_t)i * n + two - n) * size;
      const uint8_t *got1 = o + ((size_t)(2 * i) * m + e) * size;
      const uint8_t *got2 = o + ((size_t)(2 * i + 1) * m + e) * size;
      if ((memcmp(got1, want1, size) || memcmp(got2, want2, size)) &&
          failures++ < 5) {
        fprintf(stderr, "%s: item %d element %d wrong\n", name, i, e);
      }
    }
  }
  free(x); free(y); free(mask); free(o);
  bt_buffer_destroy(&bx);
  bt_buffer_destroy(&by);
  bt_buffer_destroy(&bm);
  bt_buffer_destroy(&bo);
  return failures;
}

int main(void) {
  bt_start();
  int failures = 0;
  /* one program per element type: codegen cost grows with kernels x module */
  for (int t = 0; t < TYPES; t++) {
    char *s = NULL;
    size_t len = 0;
    append(&s, &len, "%s", "");
    const char *names[16];
    char name_text[16][40];
    int sizes_n[16], sizes_m[16], count = 0;
    for (int a = 0; a < 4; a++) {
      for (int b = 0; b < 4; b++) {
        snprintf(name_text[count], 40, "sh_%s%d_%d", types[t], widths[a], widths[b]);
        append_kernel(&s, &len, name_text[count], t, widths[a], widths[b]);
        names[count] = name_text[count];
        sizes_n[count] = widths[a];
        sizes_m[count] = widths[b];
        count++;
      }
    }
    mux_executable_t exe = bt_build(s, names, (uint32_t)count, LOCAL, NULL);
    free(s);
    REQUIRE(exe);
    for (int k = 0; k < count; k++) {
      failures += check_pair(exe, names[k], t, sizes_n[k], sizes_m[k]);
    }
    bt_executable_destroy(exe);
  }
  CHECK_INT(0, failures);
  return bt_finish();
}

/* Builtin library tests — async work-group copies (OpenCL 1.2 section
 * 6.12.10): global -> local and local -> global, contiguous and strided,
 * chained events, wait_group_events as the point after which the whole
 * copy is visible to every work-item, and prefetch; tiles whose length is
 * not a multiple of the work-group size; several element types. */
#include <stdarg.h>

#include "builtins_test.h"

#define GROUPS 12
#define LOCAL 16
#define TILE 100 /* elements per work-group: not a multiple of LOCAL */
#define STRIDE 3

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

static const char *types[] = {"char", "short3", "int4", "float", "ulong2",
                              "uchar16"};
static const int element_bytes[] = {1, 8, 16, 4, 16, 16}; /* sizeof, 3 -> 4 */
#define TYPES 6

/* For type T:
 *  in_<T>:  tile <- src (contiguous) and tile2 <- src (gather, stride S),
 *           chained, one wait; then each work-item writes elements of the
 *           tiles in reverse order, so it reads what others copied.
 *  out_<T>: each work-item fills part of the tile, barrier, then the tile
 *           is copied out contiguously and scattered with stride S. */
static void append_kernels(char **s, size_t *len, const char *t) {
  append(s, len,
         "kernel void in_%s(global const %s *src, global const %s *strided,\n"
         "                  global %s *dst, global %s *dst2,\n"
         "                  local %s *tile, local %s *tile2) {\n"
         "  size_t g = get_group_id(0), l = get_local_id(0);\n"
         "  prefetch(src + g * %d, %d);\n"
         "  event_t e = async_work_group_copy(tile, src + g * %d, %d, 0);\n"
         "  e = async_work_group_strided_copy(tile2, strided + g * %d * %d, %d, %d, e);\n"
         "  wait_group_events(1, &e);\n"
         "  for (size_t k = l; k < %d; k += get_local_size(0)) {\n"
         "    dst[g * %d + k] = tile[%d - 1 - k];\n"
         "    dst2[g * %d + k] = tile2[%d - 1 - k];\n"
         "  }\n"
         "}\n",
         t, t, t, t, t, t, t, TILE, TILE, TILE, TILE, TILE, STRIDE, TILE,
         STRIDE, TILE, TILE, TILE, TILE, TILE);
  append(s, len,
         "kernel void out_%s(global const %s *src, global %s *dst,\n"
         "                   global %s *scattered, local %s *tile) {\n"
         "  size_t g = get_group_id(0), l = get_local_id(0);\n"
         "  for (size_t k = l; k < %d; k += get_local_size(0))\n"
         "    tile[%d - 1 - k] = src[g * %d + k];\n"
         "  barrier(CLK_LOCAL_MEM_FENCE);\n"
         "  event_t events[2];\n"
         "  events[0] = async_work_group_copy(dst + g * %d, tile, %d, 0);\n"
         "  events[1] = async_work_group_strided_copy(scattered + g * %d * %d, tile, %d, %d, 0);\n"
         "  wait_group_events(2, events);\n"
         "}\n",
         t, t, t, t, t, TILE, TILE, TILE, TILE, TILE, TILE, STRIDE, TILE, STRIDE);
}

static uint32_t rng = 99;

static void check_type(mux_executable_t exe, int t) {
  size_t e = (size_t)element_bytes[t];
  size_t count = (size_t)GROUPS * TILE;
  size_t bytes = count * e, strided_bytes = bytes * STRIDE;
  uint8_t *src = malloc(strided_bytes), *out = malloc(strided_bytes),
          *out2 = malloc(strided_bytes);
  REQUIRE(src && out && out2);
  for (size_t i = 0; i < strided_bytes; i++) src[i] = (uint8_t)bt_random(&rng);
  bt_buffer bsrc = bt_buffer_create(src, strided_bytes);
  bt_buffer bdst = bt_buffer_create(NULL, bytes);
  bt_buffer bdst2 = bt_buffer_create(NULL, strided_bytes);
  mux_descriptor_info_t args[6] = {bt_buffer_arg(&bsrc), bt_buffer_arg(&bsrc),
                                   bt_buffer_arg(&bdst), bt_buffer_arg(&bdst2)};
  for (int k = 4; k < 6; k++) {
    memset(&args[k], 0, sizeof args[k]);
    args[k].type = mux_descriptor_info_type_shared_local_buffer;
    args[k].shared_local_buffer_descriptor.size = TILE * e;
  }
  char name[32];
  snprintf(name, sizeof name, "in_%s", types[t]);
  bt_run(exe, name, args, 6, GROUPS * LOCAL, LOCAL);
  bt_buffer_read(&bdst, out);
  bt_buffer_read(&bdst2, out2);
  int bad = 0;
  for (size_t g = 0; g < GROUPS; g++) {
    for (size_t k = 0; k < TILE; k++) {
      size_t from = g * TILE + (TILE - 1 - k);
      size_t from_strided = g * TILE * STRIDE + (TILE - 1 - k) * STRIDE;
      /* a 3-vector copies 3 elements; its padding is not compared */
      size_t compared = t == 1 ? 6 : e;
      bad += memcmp(out + (g * TILE + k) * e, src + from * e, compared) != 0;
      bad += memcmp(out2 + (g * TILE + k) * e, src + from_strided * e, compared) != 0;
    }
  }
  CHECK_INT(0, bad);

  /* out: tile reversed, then copied out and scattered */
  bt_buffer_write(&bdst2, NULL);
  mux_descriptor_info_t oargs[4] = {bt_buffer_arg(&bsrc), bt_buffer_arg(&bdst),
                                    bt_buffer_arg(&bdst2)};
  memset(&oargs[3], 0, sizeof oargs[3]);
  oargs[3].type = mux_descriptor_info_type_shared_local_buffer;
  oargs[3].shared_local_buffer_descriptor.size = TILE * e;
  snprintf(name, sizeof name, "out_%s", types[t]);
  bt_run(exe, name, oargs, 4, GROUPS * LOCAL, LOCAL);
  bt_buffer_read(&bdst, out);
  bt_buffer_read(&bdst2, out2);
  bad = 0;
  uint8_t zero[16] = {0};
  for (size_t g = 0; g < GROUPS; g++) {
    for (size_t k = 0; k < TILE; k++) {
      size_t from = g * TILE + (TILE - 1 - k);
      size_t compared = t == 1 ? 6 : e;
      bad += memcmp(out + (g * TILE + k) * e, src + from * e, compared) != 0;
      for (size_t j = 0; j < STRIDE; j++) {
        const uint8_t *at = out2 + ((g * TILE + k) * STRIDE + j) * e;
        bad += memcmp(at, j ? zero : src + from * e, j ? e : compared) != 0;
      }
    }
  }
  CHECK_INT(0, bad);
  free(src);
  free(out);
  free(out2);
  bt_buffer_destroy(&bsrc);
  bt_buffer_destroy(&bdst);
  bt_buffer_destroy(&bdst2);
}

int main(void) {
  bt_start();
  char *s = NULL;
  size_t len = 0;
  append(&s, &len, "%s", "");
  const char *names[2 * TYPES];
  char name_text[2 * TYPES][32];
  for (int t = 0; t < TYPES; t++) {
    append_kernels(&s, &len, types[t]);
    snprintf(name_text[2 * t], 32, "in_%s", types[t]);
    snprintf(name_text[2 * t + 1], 32, "out_%s", types[t]);
    names[2 * t] = name_text[2 * t];
    names[2 * t + 1] = name_text[2 * t + 1];
  }
  mux_executable_t exe = bt_build(s, names, 2 * TYPES, LOCAL, NULL);
  free(s);
  REQUIRE(exe);
  for (int t = 0; t < TYPES; t++) check_type(exe, t);
  bt_executable_destroy(exe);
  return bt_finish();
}

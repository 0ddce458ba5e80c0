/* Images through the public Mux API: the supported formats, image layout,
 * and every pixel mover (write, read, fill, copy, copy to and from buffers)
 * on every image type, with sub-regions at offsets and padded host pitches.
 * The test keeps its own model of each image's pixels, applies every command
 * to it, and compares both the image's memory (read through the layout the
 * image reports) and what muxCommandReadImage returns against that model.
 *
 * Coordinates are as Mux defines them: a 1D array keeps its layers in y, a
 * 2D array in z. */
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

static mux_device_t device;
static mux_queue_t queue;

static uint32_t random_state = 0x1234567u;
static uint32_t random_next(void) {
  random_state ^= random_state << 13;
  random_state ^= random_state >> 17;
  random_state ^= random_state << 5;
  return random_state;
}
static void random_fill(uint8_t *data, size_t size) {
  for (size_t i = 0; i < size; i++) data[i] = (uint8_t)random_next();
}

static mux_command_buffer_t begin(void) {
  mux_command_buffer_t command_buffer = NULL;
  CHECK_SUCCESS(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                       &command_buffer));
  return command_buffer;
}

/* Finalizes, runs and destroys a command buffer. */
static mux_result_t finish(mux_command_buffer_t command_buffer) {
  mux_result_t result = muxFinalizeCommandBuffer(command_buffer);
  if (result == mux_success) {
    result = mux_test_dispatch_and_wait(device, queue, command_buffer);
  }
  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  return result;
}

/* ---- Formats ------------------------------------------------------------ */

static uint32_t expected_pixel_size(mux_image_format_e format) {
  uint32_t channels = 0, bytes = 0;
  switch (MUX_IMAGE_FORMAT_ORDER(format)) {
    case MUX_ORDER_R: case MUX_ORDER_A: case MUX_ORDER_INTENSITY:
    case MUX_ORDER_LUMINANCE: case MUX_ORDER_DEPTH: channels = 1; break;
    case MUX_ORDER_RG: case MUX_ORDER_RA: channels = 2; break;
    case MUX_ORDER_RGBA: case MUX_ORDER_BGRA: case MUX_ORDER_ARGB:
    case MUX_ORDER_ABGR: case MUX_ORDER_sRGBA: case MUX_ORDER_sBGRA:
    case MUX_ORDER_sRGBx:
      channels = 4; break;
  }
  switch (MUX_IMAGE_FORMAT_TYPE(format)) {
    case MUX_TYPE_SNORM_INT8: case MUX_TYPE_UNORM_INT8:
    case MUX_TYPE_SIGNED_INT8: case MUX_TYPE_UNSIGNED_INT8: bytes = 1; break;
    case MUX_TYPE_SNORM_INT16: case MUX_TYPE_UNORM_INT16:
    case MUX_TYPE_SIGNED_INT16: case MUX_TYPE_UNSIGNED_INT16:
    case MUX_TYPE_HALF_FLOAT: bytes = 2; break;
    case MUX_TYPE_SIGNED_INT32: case MUX_TYPE_UNSIGNED_INT32:
    case MUX_TYPE_FLOAT: bytes = 4; break;
  }
  return channels * bytes;
}

static bool contains(const mux_image_format_e *formats, uint32_t count,
                     mux_image_format_e format) {
  for (uint32_t i = 0; i < count; i++) {
    if (formats[i] == format) return true;
  }
  return false;
}

static void test_supported_formats(void) {
  static const mux_image_format_e mandatory[] = {
      mux_image_format_R8G8B8A8_unorm,      mux_image_format_R16G16B16A16_unorm,
      mux_image_format_R8G8B8A8_sint,       mux_image_format_R16G16B16A16_sint,
      mux_image_format_R32G32B32A32_sint,   mux_image_format_R8G8B8A8_uint,
      mux_image_format_R16G16B16A16_uint,   mux_image_format_R32G32B32A32_uint,
      mux_image_format_R16G16B16A16_sfloat,
      mux_image_format_R32G32B32A32_sfloat, mux_image_format_B8G8R8A8_unorm};
  const mux_image_type_e types[] = {mux_image_type_1d, mux_image_type_2d,
                                    mux_image_type_3d};
  mux_image_format_e first[256];
  uint32_t first_count = 0;
  for (int t = 0; t < 3; t++) {
    for (int a = 0; a < 2; a++) {
      uint32_t count = 0;
      CHECK_SUCCESS(muxGetSupportedImageFormats(
          device, types[t], (mux_allocation_type_e)a, 0, NULL, &count));
      CHECK(count > 0 && count <= 256);
      if (count == 0 || count > 256) continue;
      mux_image_format_e formats[256];
      uint32_t again = 0;
      CHECK_SUCCESS(muxGetSupportedImageFormats(
          device, types[t], (mux_allocation_type_e)a, count, formats, &again));
      CHECK(again == count);
      for (size_t m = 0; m < sizeof(mandatory) / sizeof(mandatory[0]); m++) {
        CHECK(contains(formats, count, mandatory[m]));
      }
      if (t == 0 && a == 0) {
        memcpy(first, formats, count * sizeof(formats[0]));
        first_count = count;
        /* A short array gets the first entries, the count stays the total. */
        mux_image_format_e few[3] = {0, 0, 0};
        uint32_t total = 0;
        CHECK_SUCCESS(muxGetSupportedImageFormats(
            device, types[t], mux_allocation_type_alloc_host, 2, few, &total));
        CHECK(total == count);
        CHECK(few[0] == formats[0] && few[1] == formats[1] && few[2] == 0);
      } else if (types[t] == mux_image_type_2d) {
        /* The 1D list and the two depth formats (2D and 2D arrays only). */
        int depth = 0;
        for (uint32_t i = 0; i < count; i++) {
          depth += MUX_IMAGE_FORMAT_ORDER(formats[i]) == MUX_ORDER_DEPTH;
        }
        CHECK(depth == 2 && count == first_count + 2);
        for (uint32_t i = 0; i < first_count; i++) {
          CHECK(contains(formats, count, first[i]));
        }
      } else {
        CHECK(count == first_count &&
              memcmp(first, formats, count * sizeof(formats[0])) == 0);
      }
    }
  }
  /* Every listed format makes an image whose pixel is as large as its
   * channels, and no format is listed twice. */
  int good_sizes = 1, unique = 1;
  for (uint32_t i = 0; i < first_count; i++) {
    mux_image_t image = NULL;
    if (muxCreateImage(device, mux_image_type_2d, first[i], 4, 4, 1, 0, 0, 0,
                       mux_test_allocator, &image) != mux_success) {
      good_sizes = 0;
      continue;
    }
    uint32_t want = expected_pixel_size(first[i]);
    if (want == 0 || image->pixel_size != want ||
        image->row_size != 4u * want) {
      good_sizes = 0;
    }
    muxDestroyImage(device, image, mux_test_allocator);
    if (contains(first, i, first[i])) unique = 0;
  }
  CHECK(good_sizes);
  CHECK(unique);
}

/* ---- Layout ------------------------------------------------------------- */

static void check_layout(mux_image_type_e type, uint32_t width, uint32_t height,
                         uint32_t depth, uint32_t layers, uint64_t row,
                         uint64_t slice, uint64_t want_row, uint64_t want_slice,
                         uint64_t want_bytes) {
  mux_image_t image = NULL;
  CHECK_SUCCESS(muxCreateImage(device, type,
                               mux_image_format_R32G32B32A32_sfloat, width,
                               height, depth, layers, row, slice,
                               mux_test_allocator, &image));
  if (!image) return;
  CHECK((image->id & (mux_id_t)mux_object_id_mask) ==
        (mux_id_t)mux_object_id_image);
  CHECK(image->type == type);
  CHECK(image->format == mux_image_format_R32G32B32A32_sfloat);
  CHECK(image->pixel_size == 16);
  CHECK(image->tiling == mux_image_tiling_linear);
  CHECK(image->array_layers == layers);
  CHECK(image->size.x == width);
  CHECK(image->size.y == (type == mux_image_type_1d ? 1 : height));
  CHECK(image->size.z == (type == mux_image_type_3d ? depth : 1));
  CHECK(image->row_size == want_row);
  CHECK(image->slice_size == want_slice);
  CHECK(image->memory_requirements.size == want_bytes);
  CHECK(image->memory_requirements.alignment == device->info->buffer_alignment);
  CHECK(image->memory_requirements.supported_heaps & 1);
  muxDestroyImage(device, image, mux_test_allocator);
}

static void test_layout(void) {
  /* Tightly packed. */
  check_layout(mux_image_type_1d, 10, 1, 1, 0, 0, 0, 160, 160, 160);
  check_layout(mux_image_type_1d, 10, 1, 1, 6, 0, 0, 160, 160, 960);
  check_layout(mux_image_type_2d, 10, 7, 1, 0, 0, 0, 160, 1120, 1120);
  check_layout(mux_image_type_2d, 10, 7, 1, 3, 0, 0, 160, 1120, 3360);
  check_layout(mux_image_type_3d, 10, 7, 5, 0, 0, 0, 160, 1120, 5600);
  /* Padded pitches are kept; a 1D array steps its layers by the slice. */
  check_layout(mux_image_type_2d, 10, 7, 1, 0, 200, 0, 200, 1400, 1400);
  check_layout(mux_image_type_2d, 10, 7, 1, 3, 200, 1500, 200, 1500, 4500);
  check_layout(mux_image_type_3d, 10, 7, 5, 0, 176, 2000, 176, 2000, 10000);
  check_layout(mux_image_type_1d, 10, 1, 1, 6, 0, 192, 192, 192, 1152);
  /* Pitches smaller than the pixels they hold are refused. */
  mux_image_t image = NULL;
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateImage(device, mux_image_type_2d,
                              mux_image_format_R8G8B8A8_unorm, 10, 7, 1, 0, 39,
                              0, mux_test_allocator, &image));
  CHECK_RESULT(mux_error_invalid_value,
               muxCreateImage(device, mux_image_type_3d,
                              mux_image_format_R8G8B8A8_unorm, 10, 7, 5, 0, 40,
                              279, mux_test_allocator, &image));
}

/* ---- Pixel movers against a model --------------------------------------- */

/* An image under test, its memory, and the model of its pixels: packed, in
 * Mux coordinates (dims = extent of the whole image). */
typedef struct test_image {
  mux_image_t image;
  mux_memory_t memory;
  uint8_t *pixels; /* the image's byte 0, mapped */
  uint32_t pixel_size;
  size_t dims[3];
  uint8_t *model;
} test_image;

static uint8_t *model_at(const test_image *t, size_t x, size_t y, size_t z) {
  return t->model + ((z * t->dims[1] + y) * t->dims[0] + x) * t->pixel_size;
}

static bool create_test_image(test_image *t, mux_image_type_e type,
                              mux_image_format_e format, uint32_t width,
                              uint32_t height, uint32_t depth, uint32_t layers,
                              uint64_t row, uint64_t slice) {
  memset(t, 0, sizeof(*t));
  mux_result_t result =
      muxCreateImage(device, type, format, width, height, depth, layers, row,
                     slice, mux_test_allocator, &t->image);
  CHECK_SUCCESS(result);
  if (result != mux_success) return false;
  t->pixel_size = t->image->pixel_size;
  t->dims[0] = width;
  t->dims[1] = type == mux_image_type_1d ? (layers ? layers : 1) : height;
  t->dims[2] = type == mux_image_type_3d ? depth
               : (type == mux_image_type_2d && layers) ? layers
                                                       : 1;
  /* Bound at an offset, so an image that ignored it would be caught. */
  uint64_t offset = t->image->memory_requirements.alignment * 2u;
  uint64_t size = t->image->memory_requirements.size + offset;
  CHECK_SUCCESS(muxAllocateMemory(
      device, size, 1,
      mux_memory_property_host_visible | mux_memory_property_host_coherent,
      mux_allocation_type_alloc_host, t->image->memory_requirements.alignment,
      mux_test_allocator, &t->memory));
  REQUIRE(t->memory != NULL);
  CHECK_SUCCESS(muxBindImageMemory(device, t->memory, t->image, offset));
  uint8_t *base = NULL;
  CHECK_SUCCESS(muxMapMemory(device, t->memory, 0, size, (void **)&base));
  REQUIRE(base != NULL);
  memset(base, 0, size);
  t->pixels = base + offset;
  t->model = calloc(t->dims[0] * t->dims[1] * t->dims[2], t->pixel_size);
  REQUIRE(t->model != NULL);
  return true;
}

static void destroy_test_image(test_image *t) {
  muxDestroyImage(device, t->image, mux_test_allocator);
  muxUnmapMemory(device, t->memory);
  muxFreeMemory(device, t->memory, mux_test_allocator);
  free(t->model);
}

/* The image's memory, read through the layout it reports, equals the model. */
static bool memory_matches_model(const test_image *t) {
  for (size_t z = 0; z < t->dims[2]; z++) {
    for (size_t y = 0; y < t->dims[1]; y++) {
      const uint8_t *row =
          t->pixels + y * t->image->row_size + z * t->image->slice_size;
      if (memcmp(row, model_at(t, 0, y, z), t->dims[0] * t->pixel_size)) {
        return false;
      }
    }
  }
  return true;
}

/* Host data of a region with padded pitches. */
typedef struct host_region {
  uint8_t *data;
  uint64_t row, slice;
  size_t size;
} host_region;

static host_region host_region_new(const test_image *t, mux_extent_3d_t e,
                                   bool padded) {
  host_region h;
  h.row = e.x * t->pixel_size + (padded ? 13 : 0);
  h.slice = h.row * e.y + (padded ? 2 * h.row + 5 : 0);
  h.size = h.slice * e.z;
  h.data = malloc(h.size);
  REQUIRE(h.data != NULL);
  random_fill(h.data, h.size);
  return h;
}

static mux_offset_3d_t offset3(size_t x, size_t y, size_t z) {
  mux_offset_3d_t o = {(uint32_t)x, (uint32_t)y, (uint32_t)z};
  return o;
}

static mux_extent_3d_t extent3(size_t x, size_t y, size_t z) {
  mux_extent_3d_t e = {x, y, z};
  return e;
}

/* A random sub-region of `t`: its extent and an offset where it fits. */
static void random_region(const test_image *t, mux_extent_3d_t *extent,
                          mux_offset_3d_t *offset) {
  size_t e[3], o[3];
  for (int i = 0; i < 3; i++) {
    e[i] = 1 + random_next() % t->dims[i];
    o[i] = random_next() % (t->dims[i] - e[i] + 1);
  }
  *extent = extent3(e[0], e[1], e[2]);
  *offset = offset3(o[0], o[1], o[2]);
}

static void model_write(test_image *t, mux_offset_3d_t o, mux_extent_3d_t e,
                        const host_region *h) {
  for (size_t z = 0; z < e.z; z++) {
    for (size_t y = 0; y < e.y; y++) {
      memcpy(model_at(t, o.x, o.y + y, o.z + z),
             h->data + z * h->slice + y * h->row, e.x * t->pixel_size);
    }
  }
}

static bool host_matches_model(const test_image *t, mux_offset_3d_t o,
                               mux_extent_3d_t e, const host_region *h) {
  for (size_t z = 0; z < e.z; z++) {
    for (size_t y = 0; y < e.y; y++) {
      if (memcmp(model_at(t, o.x, o.y + y, o.z + z),
                 h->data + z * h->slice + y * h->row, e.x * t->pixel_size)) {
        return false;
      }
    }
  }
  return true;
}

/* Writes every pixel; host pitches of 0 mean tightly packed host data. */
static void whole_image_write(test_image *t, bool padded) {
  mux_extent_3d_t e = extent3(t->dims[0], t->dims[1], t->dims[2]);
  host_region h = host_region_new(t, e, padded);
  mux_command_buffer_t command_buffer = begin();
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandWriteImage(
        command_buffer, t->image, offset3(0, 0, 0), e, padded ? h.row : 0,
        padded ? h.slice : 0, h.data, 0, NULL, NULL));
    CHECK_SUCCESS(finish(command_buffer));
    model_write(t, offset3(0, 0, 0), e, &h);
  }
  free(h.data);
}

/* Reads the whole image back (padded pitches, and pitches 0 for packed) and
 * checks memory and results against the model. */
static void check_image(const test_image *t, const char *what) {
  mux_extent_3d_t e = extent3(t->dims[0], t->dims[1], t->dims[2]);
  host_region h = host_region_new(t, e, true);
  host_region packed = host_region_new(t, e, false);
  mux_command_buffer_t command_buffer = begin();
  bool read_ok = false;
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandReadImage(command_buffer, t->image,
                                      offset3(0, 0, 0), e, h.row, h.slice,
                                      h.data, 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandReadImage(command_buffer, t->image,
                                      offset3(0, 0, 0), e, 0, 0, packed.data,
                                      0, NULL, NULL));
    CHECK_SUCCESS(finish(command_buffer));
    read_ok = host_matches_model(t, offset3(0, 0, 0), e, &h) &&
              host_matches_model(t, offset3(0, 0, 0), e, &packed);
  }
  free(packed.data);
  bool memory_ok = memory_matches_model(t);
  if (!read_ok || !memory_ok) {
    fprintf(stderr, "image %zux%zux%zu pixel %u after %s: read %s, memory %s\n",
            t->dims[0], t->dims[1], t->dims[2], t->pixel_size, what,
            read_ok ? "ok" : "differs", memory_ok ? "ok" : "differs");
  }
  CHECK(read_ok);
  CHECK(memory_ok);
  free(h.data);
}

static void sub_region_write_and_read(test_image *t) {
  mux_extent_3d_t e;
  mux_offset_3d_t o;
  random_region(t, &e, &o);
  host_region h = host_region_new(t, e, true);
  mux_command_buffer_t command_buffer = begin();
  if (!command_buffer) {
    free(h.data);
    return;
  }
  CHECK_SUCCESS(muxCommandWriteImage(command_buffer, t->image, o, e, h.row,
                                     h.slice, h.data, 0, NULL, NULL));
  CHECK_SUCCESS(finish(command_buffer));
  model_write(t, o, e, &h);
  check_image(t, "write of a region");

  /* Read another region, once packed (pitches 0) and once padded. */
  random_region(t, &e, &o);
  host_region packed = host_region_new(t, e, false);
  host_region padded = host_region_new(t, e, true);
  command_buffer = begin();
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandReadImage(command_buffer, t->image, o, e, 0, 0,
                                      packed.data, 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandReadImage(command_buffer, t->image, o, e,
                                      padded.row, padded.slice, padded.data, 0,
                                      NULL, NULL));
    CHECK_SUCCESS(finish(command_buffer));
    CHECK(host_matches_model(t, o, e, &packed));
    CHECK(host_matches_model(t, o, e, &padded));
  }
  free(h.data);
  free(packed.data);
  free(padded.data);
}

static void fill_region(test_image *t) {
  mux_extent_3d_t e;
  mux_offset_3d_t o;
  random_region(t, &e, &o);
  uint8_t pixel[16];
  random_fill(pixel, sizeof(pixel));
  mux_command_buffer_t command_buffer = begin();
  if (!command_buffer) return;
  CHECK_SUCCESS(muxCommandFillImage(command_buffer, t->image, pixel,
                                    t->pixel_size, o, e, 0, NULL, NULL));
  CHECK_SUCCESS(finish(command_buffer));
  for (size_t z = 0; z < e.z; z++) {
    for (size_t y = 0; y < e.y; y++) {
      for (size_t x = 0; x < e.x; x++) {
        memcpy(model_at(t, o.x + x, o.y + y, o.z + z), pixel, t->pixel_size);
      }
    }
  }
  check_image(t, "fill");
}

/* Copies a region of `src` into `dst` (same pixel size) at another offset;
 * within one image the source comes from the left half and the destination
 * lies in the right half, since regions must not overlap. */
static void copy_region(const test_image *src, test_image *dst) {
  size_t e[3], so[3], d[3];
  for (int i = 0; i < 3; i++) {
    size_t limit = src->dims[i] < dst->dims[i] ? src->dims[i] : dst->dims[i];
    e[i] = 1 + random_next() % limit;
    so[i] = random_next() % (src->dims[i] - e[i] + 1);
    d[i] = random_next() % (dst->dims[i] - e[i] + 1);
  }
  if (src == dst) {
    size_t half = src->dims[0] / 2;
    e[0] = 1 + random_next() % half;
    so[0] = random_next() % (half - e[0] + 1);
    d[0] = half + random_next() % (src->dims[0] - half - e[0] + 1);
  }
  mux_command_buffer_t command_buffer = begin();
  if (!command_buffer) return;
  CHECK_SUCCESS(muxCommandCopyImage(command_buffer, src->image, dst->image,
                                    offset3(so[0], so[1], so[2]),
                                    offset3(d[0], d[1], d[2]),
                                    extent3(e[0], e[1], e[2]), 0, NULL, NULL));
  CHECK_SUCCESS(finish(command_buffer));
  for (size_t z = 0; z < e[2]; z++) {
    for (size_t y = 0; y < e[1]; y++) {
      memcpy(model_at(dst, d[0], d[1] + y, d[2] + z),
             model_at(src, so[0], so[1] + y, so[2] + z),
             e[0] * src->pixel_size);
    }
  }
  check_image(dst, "copy between images");
}

/* Copies a region out to a buffer (at a byte offset, tightly packed), then
 * a buffer region back into the image elsewhere. */
static void buffer_round_trip(test_image *t) {
  mux_extent_3d_t e;
  mux_offset_3d_t o;
  random_region(t, &e, &o);
  size_t bytes = e.x * e.y * e.z * t->pixel_size;
  const uint64_t buffer_offset = 48;
  mux_memory_t memory = NULL;
  mux_buffer_t buffer =
      mux_test_buffer(device, bytes + buffer_offset + 16, &memory);
  uint8_t *data = NULL;
  CHECK_SUCCESS(muxMapMemory(device, memory, 0, bytes + buffer_offset + 16,
                             (void **)&data));
  REQUIRE(data != NULL);
  memset(data, 0xee, bytes + buffer_offset + 16);

  mux_command_buffer_t command_buffer = begin();
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandCopyImageToBuffer(command_buffer, t->image, buffer,
                                              o, buffer_offset, e, 0, NULL,
                                              NULL));
    CHECK_SUCCESS(finish(command_buffer));
    host_region packed = {data + buffer_offset, e.x * t->pixel_size,
                          e.x * t->pixel_size * e.y, bytes};
    CHECK(host_matches_model(t, o, e, &packed));
    CHECK(data[buffer_offset - 1] == 0xee &&
          data[buffer_offset + bytes] == 0xee);

    /* New bytes into the buffer, then into the image at another place. */
    random_fill(data + buffer_offset, bytes);
    mux_offset_3d_t to = offset3(random_next() % (t->dims[0] - e.x + 1),
                                 random_next() % (t->dims[1] - e.y + 1),
                                 random_next() % (t->dims[2] - e.z + 1));
    command_buffer = begin();
    if (command_buffer) {
      CHECK_SUCCESS(muxCommandCopyBufferToImage(
          command_buffer, buffer, t->image, (uint32_t)buffer_offset, to, e, 0,
          NULL, NULL));
      CHECK_SUCCESS(finish(command_buffer));
      model_write(t, to, e, &packed);
      check_image(t, "copy from a buffer");
    }
  }
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxUnmapMemory(device, memory);
  muxFreeMemory(device, memory, mux_test_allocator);
}

typedef struct shape {
  const char *name;
  mux_image_type_e type;
  uint32_t width, height, depth, layers;
} shape;

static void test_movers(const shape *s, mux_image_format_e format) {
  uint32_t pixel_size = expected_pixel_size(format);
  /* One image tightly packed, one with padded pitches, same pixels. */
  uint64_t row = (uint64_t)s->width * pixel_size + 3 * pixel_size + 8;
  uint64_t rows = s->type == mux_image_type_1d ? 1 : s->height;
  uint64_t slice = row * rows + row + 24;
  test_image packed, padded;
  if (!create_test_image(&packed, s->type, format, s->width, s->height,
                         s->depth, s->layers, 0, 0)) {
    return;
  }
  if (!create_test_image(&padded, s->type, format, s->width, s->height,
                         s->depth, s->layers, row, slice)) {
    destroy_test_image(&packed);
    return;
  }
  CHECK(padded.image->row_size ==
        ((s->type == mux_image_type_1d && s->layers) ? slice : row));
  CHECK(padded.image->slice_size == slice);

  test_image *images[2] = {&packed, &padded};
  for (int i = 0; i < 2; i++) {
    whole_image_write(images[i], i == 1);
    check_image(images[i], "whole write");
    for (int round = 0; round < 3; round++) {
      sub_region_write_and_read(images[i]);
      fill_region(images[i]);
      buffer_round_trip(images[i]);
    }
  }
  for (int round = 0; round < 3; round++) {
    copy_region(&packed, &padded);
    copy_region(&padded, &packed);
    copy_region(&padded, &padded);
  }
  destroy_test_image(&padded);
  destroy_test_image(&packed);
}

/* A 1D image bound to a buffer's memory sees the buffer's bytes and the
 * buffer sees the image's writes (an OpenCL 1D-buffer image). */
static void test_image_from_buffer(void) {
  const uint32_t width = 300;
  const mux_image_format_e format = mux_image_format_R16G16B16A16_uint;
  const uint64_t offset = 256, bytes = width * 8u;
  mux_memory_t memory = NULL;
  mux_buffer_t buffer = mux_test_buffer(device, offset + bytes + 64, &memory);
  mux_buffer_t view = NULL; /* the part the image covers, as a buffer */
  CHECK_SUCCESS(muxCreateBuffer(device, bytes, mux_test_allocator, &view));
  REQUIRE(view != NULL);
  CHECK_SUCCESS(muxBindBufferMemory(device, memory, view, offset));
  mux_image_t image = NULL;
  CHECK_SUCCESS(muxCreateImage(device, mux_image_type_1d, format, width, 1, 1,
                               0, 0, 0, mux_test_allocator, &image));
  REQUIRE(image != NULL);
  CHECK(image->memory_requirements.size == bytes);
  CHECK_SUCCESS(muxBindImageMemory(device, memory, image, offset));

  uint8_t *in = malloc(bytes), *out = malloc(bytes), *back = malloc(bytes);
  REQUIRE(in && out && back);
  random_fill(in, bytes);
  random_fill(out, bytes);
  mux_command_buffer_t command_buffer = begin();
  if (command_buffer) {
    /* Buffer write -> image read, then image write -> buffer read. */
    CHECK_SUCCESS(muxCommandWriteBuffer(command_buffer, buffer, offset, in,
                                        bytes, 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandReadImage(command_buffer, image, offset3(0, 0, 0),
                                      extent3(width, 1, 1), 0, 0, back, 0,
                                      NULL, NULL));
    CHECK_SUCCESS(finish(command_buffer));
    CHECK(memcmp(back, in, bytes) == 0);
    command_buffer = begin();
  }
  if (command_buffer) {
    CHECK_SUCCESS(muxCommandWriteImage(command_buffer, image,
                                       offset3(10, 0, 0), extent3(200, 1, 1),
                                       0, 0, out, 0, NULL, NULL));
    CHECK_SUCCESS(muxCommandReadBuffer(command_buffer, view, 0, back, bytes, 0,
                                       NULL, NULL));
    CHECK_SUCCESS(finish(command_buffer));
    CHECK(memcmp(back, in, 10 * 8) == 0);
    CHECK(memcmp(back + 10 * 8, out, 200 * 8) == 0);
    CHECK(memcmp(back + 210 * 8, in + 210 * 8, bytes - 210 * 8) == 0);
  }
  free(in);
  free(out);
  free(back);
  muxDestroyImage(device, image, mux_test_allocator);
  muxDestroyBuffer(device, view, mux_test_allocator);
  muxDestroyBuffer(device, buffer, mux_test_allocator);
  muxFreeMemory(device, memory, mux_test_allocator);
}

int main(void) {
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  CHECK(device->info->image_support);
  test_supported_formats();
  test_layout();

  static const shape shapes[] = {
      {"1D", mux_image_type_1d, 67, 1, 1, 0},
      {"1D array", mux_image_type_1d, 23, 1, 1, 9},
      {"2D", mux_image_type_2d, 21, 17, 1, 0},
      {"2D array", mux_image_type_2d, 13, 11, 1, 5},
      {"3D", mux_image_type_3d, 9, 7, 6, 0},
  };
  static const mux_image_format_e formats[] = {
      mux_image_format_R8_uint, mux_image_format_B8G8R8A8_unorm,
      mux_image_format_R16G16B16A16_sfloat,
      mux_image_format_R32G32B32A32_sfloat};
  for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
      int failed_before = check_failed;
      test_movers(&shapes[s], formats[f]);
      if (check_failed != failed_before) {
        fprintf(stderr, "  (in %s image, format 0x%x)\n", shapes[s].name,
                (unsigned)formats[f]);
      }
    }
  }
  test_image_from_buffer();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}

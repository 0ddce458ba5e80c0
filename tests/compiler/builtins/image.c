/* Builtin library tests — image functions (OpenCL 1.2 section 6.12.14):
 * reads with every addressing mode, nearest and linear filtering,
 * normalized and unnormalized coordinates (also outside the image),
 * integer coordinates and sampler-less reads, 3D trilinear, array layer
 * selection, writes read back (rounding, saturation, swizzles, 3D) and
 * the queries, against a host reference sampler written from the spec.
 * Last, a 3x3 blur: its CL_RGBA/CL_FLOAT version (codegen's
 * image_versions.c) must be straight 4-float loads with no format code,
 * the dispatcher must pick the right version for mixed formats, and a
 * request without the version must build the general code alone. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "builtins_test.h"

/* 3D writes come with cl_khr_3d_image_writes, which the front-end
 * enables. */
static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n"
    "#define WO3 write_only image3d_t\n"
    /* READ(name, image, coordinate, result, call) */
    "#define READ(N, I, C, R, F) kernel void N(read_only I m, sampler_t s,\\\n"
    "    global C *c, global R *o) { size_t i = get_global_id(0);\\\n"
    "  o[i] = F; }\n"
    "READ(rd2f, image2d_t, float2, float4, read_imagef(m, s, c[i]))\n"
    "READ(rd2f_int, image2d_t, int2, float4, read_imagef(m, s, c[i]))\n"
    "READ(rd2i, image2d_t, float2, int4, read_imagei(m, s, c[i]))\n"
    "READ(rd2ui_int, image2d_t, int2, uint4, read_imageui(m, s, c[i]))\n"
    "READ(rd2ui, image2d_t, float2, uint4, read_imageui(m, s, c[i]))\n"
    "READ(rd1f, image1d_t, float, float4, read_imagef(m, s, c[i]))\n"
    "READ(rd3f, image3d_t, float4, float4, read_imagef(m, s, c[i]))\n"
    "READ(rd1af, image1d_array_t, float2, float4, read_imagef(m, s, c[i]))\n"
    "READ(rd2af, image2d_array_t, float4, float4, read_imagef(m, s, c[i]))\n"
    "kernel void rd2f_nos(read_only image2d_t m, global int2 *c,\n"
    "    global float4 *o) { size_t i = get_global_id(0);\n"
    "  o[i] = read_imagef(m, c[i]); }\n"
    /* WRITE(name, image, coordinate, value, call) */
    "#define WRITE(N, I, C, V, F) kernel void N(write_only I m,\\\n"
    "    global C *c, global V *v) { size_t i = get_global_id(0); F; }\n"
    "WRITE(wr2f, image2d_t, int2, float4, write_imagef(m, c[i], v[i]))\n"
    "WRITE(wr2i, image2d_t, int2, int4, write_imagei(m, c[i], v[i]))\n"
    "WRITE(wr2ui, image2d_t, int2, uint4, write_imageui(m, c[i], v[i]))\n"
    "WRITE(wr3f, image3d_t, int4, float4, write_imagef(m, c[i], v[i]))\n"
    "WRITE(wr2af, image2d_array_t, int4, float4, write_imagef(m, c[i], v[i]))\n"
    "WRITE(wr1af, image1d_array_t, int2, float4, write_imagef(m, c[i], v[i]))\n"
    "#define COMMON(m) o[0] = get_image_width(m);\\\n"
    "  o[1] = get_image_channel_data_type(m);\\\n"
    "  o[2] = get_image_channel_order(m);\n"
    "kernel void q1(read_only image1d_t m, global int *o) { COMMON(m) }\n"
    "kernel void q1b(write_only image1d_buffer_t m, global int *o) {\n"
    "  COMMON(m) }\n"
    "kernel void q1a(read_only image1d_array_t m, global int *o) {\n"
    "  COMMON(m) o[3] = (int)get_image_array_size(m); }\n"
    "kernel void q2(write_only image2d_t m, global int *o) { COMMON(m)\n"
    "  o[3] = get_image_height(m); int2 d = get_image_dim(m);\n"
    "  o[4] = d.x; o[5] = d.y; }\n"
    "kernel void q2a(read_only image2d_array_t m, global int *o) { COMMON(m)\n"
    "  o[3] = get_image_height(m); o[4] = (int)get_image_array_size(m);\n"
    "  int2 d = get_image_dim(m); o[5] = d.x; o[6] = d.y; }\n"
    "kernel void q3(WO3 m, global int *o) {\n"
    "  COMMON(m) o[3] = get_image_height(m); o[4] = get_image_depth(m);\n"
    "  int4 d = get_image_dim(m);\n"
    "  o[5] = d.x; o[6] = d.y; o[7] = d.z; o[8] = d.w; }\n";

static const char *const kernel_names[] = {
    "rd2f",  "rd2f_int", "rd2i",  "rd2ui_int", "rd2f_nos", "rd2ui",
    "rd1f",  "rd3f",     "rd1af", "rd2af",     "wr2f",     "wr2i",
    "wr2ui", "wr3f",     "wr2af", "wr1af",     "q1",       "q1b",
    "q1a",   "q2",       "q2a",   "q3"};
#define KERNELS (sizeof kernel_names / sizeof *kernel_names)

#define COORDS 96     /* work-items per read test */
#define READ_LOCAL 16 /* their work-group size */

/* ---- Images on the device ----------------------------------------------- */

typedef struct test_image {
  mux_image_t image;
  mux_memory_t memory;
  uint32_t order, type, pixel;
  uint32_t w, h, d, layers; /* h, d: 1 where absent */
  uint8_t *host;            /* the bytes, mapped */
} test_image;

static uint32_t channel_bytes(uint32_t type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
      return 4;
    default:
      return 2;
  }
}

static uint32_t channel_count(uint32_t order) {
  switch (order) {
    case CL_RG:
    case CL_RA:
      return 2;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
      return 4;
    default:
      return 1;
  }
}

static test_image image_create(mux_image_type_e type, uint32_t order,
                               uint32_t channel_type, uint32_t w, uint32_t h,
                               uint32_t d, uint32_t layers) {
  test_image t = {0};
  t.order = order;
  t.type = channel_type;
  t.w = w;
  t.h = h;
  t.d = d;
  t.layers = layers;
  REQUIRE(muxCreateImage(bt_device, type, MUX_IMAGE_FORMAT(order, channel_type),
                         w, h, d, layers, 0, 0, mux_test_allocator,
                         &t.image) == mux_success);
  t.pixel = t.image->pixel_size;
  REQUIRE(t.pixel == channel_bytes(channel_type) * channel_count(order));
  size_t size = t.image->memory_requirements.size;
  REQUIRE(muxAllocateMemory(bt_device, size, 1,
                            mux_memory_property_host_visible |
                                mux_memory_property_host_coherent,
                            mux_allocation_type_alloc_host,
                            t.image->memory_requirements.alignment,
                            mux_test_allocator, &t.memory) == mux_success);
  REQUIRE(muxBindImageMemory(bt_device, t.memory, t.image, 0) == mux_success);
  void *mapped = NULL;
  REQUIRE(muxMapMemory(bt_device, t.memory, 0, size, &mapped) == mux_success);
  t.host = mapped;
  memset(t.host, 0, size);
  return t;
}

static void image_destroy(test_image *t) {
  muxUnmapMemory(bt_device, t->memory);
  muxDestroyImage(bt_device, t->image, mux_test_allocator);
  muxFreeMemory(bt_device, t->memory, mux_test_allocator);
}

static uint8_t *pixel_of(const test_image *t, int x, int y, int z) {
  return t->host + (size_t)x * t->pixel + (size_t)y * t->image->row_size +
         (size_t)z * t->image->slice_size;
}

static mux_descriptor_info_t image_arg(const test_image *t) {
  mux_descriptor_info_t d;
  memset(&d, 0, sizeof d);
  d.type = mux_descriptor_info_type_image;
  d.image_descriptor.image = t->image;
  return d;
}

static mux_descriptor_info_t sampler_arg(mux_address_mode_e address,
                                         mux_filter_mode_e filter,
                                         bool normalized) {
  mux_descriptor_info_t d;
  memset(&d, 0, sizeof d);
  d.type = mux_descriptor_info_type_sampler;
  d.sampler_descriptor.sampler.address_mode = address;
  d.sampler_descriptor.sampler.filter_mode = filter;
  d.sampler_descriptor.sampler.normalize_coords = normalized;
  return d;
}

/* Random but finite channel bytes: floats in [-2, 2], halves likewise. */
static void image_fill(test_image *t, uint32_t *rng) {
  uint32_t rows = t->h * (t->layers && t->h == 1 ? t->layers : 1);
  uint32_t slices = t->d * (t->layers && t->h > 1 ? t->layers : 1);
  uint32_t n = channel_count(t->order), b = channel_bytes(t->type);
  for (uint32_t z = 0; z < slices; z++)
    for (uint32_t y = 0; y < rows; y++)
      for (uint32_t x = 0; x < t->w; x++)
        for (uint32_t c = 0; c < n; c++) {
          uint8_t *p = pixel_of(t, (int)x, (int)y, (int)z) + c * b;
          float f = 4.0f * (float)(bt_random(rng) >> 8) / 16777216.0f - 2.0f;
          if (t->type == CL_FLOAT) {
            memcpy(p, &f, 4);
          } else if (t->type == CL_HALF_FLOAT) {
            _Float16 h = (_Float16)f;
            memcpy(p, &h, 2);
          } else {
            uint32_t r = bt_random(rng);
            memcpy(p, &r, b);
          }
        }
}

/* ---- The host reference ------------------------------------------------- */

/* Stored channel c of pixel p as a number: normalized, or the integer. */
static double ref_channel(const uint8_t *p, uint32_t type, uint32_t c) {
  switch (type) {
    case CL_UNORM_INT8:
      return p[c] / 255.0;
    case CL_UNORM_INT16:
      return ((const uint16_t *)p)[c] / 65535.0;
    case CL_SNORM_INT8:
      return fmax(-1.0, ((const int8_t *)p)[c] / 127.0);
    case CL_SNORM_INT16:
      return fmax(-1.0, ((const int16_t *)p)[c] / 32767.0);
    case CL_SIGNED_INT8:
      return ((const int8_t *)p)[c];
    case CL_UNSIGNED_INT8:
      return p[c];
    case CL_SIGNED_INT16:
      return ((const int16_t *)p)[c];
    case CL_UNSIGNED_INT16:
      return ((const uint16_t *)p)[c];
    case CL_SIGNED_INT32:
      return ((const int32_t *)p)[c];
    case CL_UNSIGNED_INT32:
      return ((const uint32_t *)p)[c];
    case CL_HALF_FLOAT:
      return (double)((const _Float16 *)p)[c];
    default:
      return ((const float *)p)[c];
  }
}

static bool has_alpha_border(uint32_t order) {
  return !(order == CL_R || order == CL_RG || order == CL_LUMINANCE);
}

/* Pixel (x, y, z) as RGBA, or the border colour when not inside. */
static void ref_texel(const test_image *t, bool inside, int x, int y, int z,
                      double out[4]) {
  out[0] = out[1] = out[2] = 0;
  out[3] = has_alpha_border(t->order) ? 0 : 1;
  if (!inside) return;
  const uint8_t *p = pixel_of(t, x, y, z);
  double m[4] = {0, 0, 0, 0};
  for (uint32_t c = 0; c < channel_count(t->order); c++) {
    m[c] = ref_channel(p, t->type, c);
  }
  double r = m[0], g = 0, b = 0, a = 1;
  switch (t->order) {
    case CL_A:
      r = 0;
      a = m[0];
      break;
    case CL_RG:
      g = m[1];
      break;
    case CL_RA:
      a = m[1];
      break;
    case CL_RGBA:
      g = m[1];
      b = m[2];
      a = m[3];
      break;
    case CL_BGRA:
      r = m[2];
      g = m[1];
      b = m[0];
      a = m[3];
      break;
    case CL_ARGB:
      r = m[1];
      g = m[2];
      b = m[3];
      a = m[0];
      break;
    case CL_INTENSITY:
      g = b = a = m[0];
      break;
    case CL_LUMINANCE:
      g = b = m[0];
      break;
    default:
      break;
  }
  out[0] = r;
  out[1] = g;
  out[2] = b;
  out[3] = a;
}

typedef struct ref_sampler {
  mux_address_mode_e address;
  mux_filter_mode_e filter;
  bool normalized;
} ref_sampler;

/* Spec 8.2 in float, as the device computes coordinates. */
static int ref_nearest(float s, int size, ref_sampler sm) {
  if (sm.address == mux_address_mode_repeat) {
    int i = (int)floorf((s - floorf(s)) * (float)size);
    return i > size - 1 ? i - size : i;
  }
  if (sm.address == mux_address_mode_repeat_mirror) {
    float m = fabsf(s - 2.0f * rintf(0.5f * s));
    int i = (int)floorf(m * (float)size);
    return i < size - 1 ? i : size - 1;
  }
  float u = sm.normalized ? s * (float)size : s;
  int i = (int)floorf(u);
  if (sm.address == mux_address_mode_clamp_edge) {
    i = i < 0 ? 0 : i > size - 1 ? size - 1 : i;
  }
  return i;
}

static void ref_linear(float s, int size, ref_sampler sm, int *i0, int *i1,
                       float *a) {
  float u;
  if (sm.address == mux_address_mode_repeat) {
    u = (s - floorf(s)) * (float)size;
  } else if (sm.address == mux_address_mode_repeat_mirror) {
    u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)size;
  } else {
    u = sm.normalized ? s * (float)size : s;
  }
  *i0 = (int)floorf(u - 0.5f);
  *i1 = *i0 + 1;
  *a = (u - 0.5f) - floorf(u - 0.5f);
  if (sm.address == mux_address_mode_repeat) {
    if (*i0 < 0) *i0 += size;
    if (*i1 > size - 1) *i1 -= size;
  } else if (sm.address == mux_address_mode_repeat_mirror) {
    if (*i0 < 0) *i0 = 0;
    if (*i1 > size - 1) *i1 = size - 1;
  } else if (sm.address == mux_address_mode_clamp_edge) {
    *i0 = *i0 < 0 ? 0 : *i0 > size - 1 ? size - 1 : *i0;
    *i1 = *i1 < 0 ? 0 : *i1 > size - 1 ? size - 1 : *i1;
  }
}

/* Samples `axes` coordinates (x, y, z) of t; `fixed` is the row (1 axis)
 * or slice (2 axes) of an array layer. */
static void ref_sample(const test_image *t, ref_sampler sm, int axes,
                       const float *coord, int fixed, double out[4]) {
  int size[3] = {(int)t->w, (int)t->h, (int)t->d};
  /* A 1D array's layer is its row, a 2D array's its slice. */
  int lo[3] = {0, axes == 1 ? fixed : 0, axes == 2 ? fixed : 0};
  int hi[3] = {lo[0], lo[1], lo[2]};
  float a[3] = {0, 0, 0};
  for (int k = 0; k < axes; k++) {
    if (sm.filter == mux_filter_mode_nearest) {
      lo[k] = hi[k] = ref_nearest(coord[k], size[k], sm);
    } else {
      ref_linear(coord[k], size[k], sm, &lo[k], &hi[k], &a[k]);
    }
  }
  out[0] = out[1] = out[2] = out[3] = 0;
  for (int n = 0; n < 8; n++) {
    double weight = 1;
    int at[3];
    bool inside = true;
    for (int k = 0; k < 3; k++) {
      bool upper = (n >> k) & 1;
      if (k >= axes && upper) weight = 0;
      at[k] = upper ? hi[k] : lo[k];
      weight *= k < axes ? (upper ? a[k] : 1.0 - a[k]) : 1.0;
      if (k < axes && (at[k] < 0 || at[k] >= size[k])) inside = false;
    }
    if (weight == 0) continue;
    double texel[4];
    ref_texel(t, inside, at[0], at[1], at[2], texel);
    for (int c = 0; c < 4; c++) out[c] += weight * texel[c];
  }
}

/* ---- Reads -------------------------------------------------------------- */

static const char *address_name(mux_address_mode_e a) {
  static const char *names[] = {"none", "repeat", "mirror", "clamp", "edge"};
  return names[a];
}

static int compare_floats(const char *what, ref_sampler sm, int i,
                          const float *coord, int axes, const float got[4],
                          const double want[4]) {
  double tolerance = sm.filter == mux_filter_mode_linear ? 1.0 / 128 : 1e-6;
  for (int c = 0; c < 4; c++) {
    double scale = fmax(1.0, fabs(want[c]));
    if (!(fabs(got[c] - want[c]) <= tolerance * scale)) {
      fprintf(stderr,
              "%s %s %s %s item %d coord (%g, %g, %g): channel %d got %.9g "
              "want %.9g\n",
              what, address_name(sm.address),
              sm.filter == mux_filter_mode_linear ? "linear" : "nearest",
              sm.normalized ? "normalized" : "unnormalized", i, coord[0],
              axes > 1 ? coord[1] : 0.0, axes > 2 ? coord[2] : 0.0, c, got[c],
              want[c]);
      return 1;
    }
  }
  return 0;
}

/* Coordinates spread over and beyond the image along axis `size`. */
static float random_coord(uint32_t *rng, int size, bool normalized) {
  float r = 2.5f * (float)(bt_random(rng) >> 8) / 16777216.0f - 0.75f;
  return normalized ? r : r * (float)size;
}

static const mux_address_mode_e addresses[] = {
    mux_address_mode_none, mux_address_mode_clamp_edge, mux_address_mode_clamp,
    mux_address_mode_repeat, mux_address_mode_repeat_mirror};

/* read_imagef with float coordinates on a 2D image, every sampler. */
static void test_read_2d(mux_executable_t exe, uint32_t order, uint32_t type,
                         bool linear_ok, uint32_t seed) {
  uint32_t rng = seed;
  test_image t = image_create(mux_image_type_2d, order, type, 7, 5, 1, 0);
  image_fill(&t, &rng);
  bool integer = type >= CL_SIGNED_INT8 && type <= CL_UNSIGNED_INT32;
  for (int a = 0; a < 5; a++)
    for (int f = 0; f < (linear_ok ? 2 : 1); f++)
      for (int n = 0; n < 2; n++) {
        ref_sampler sm = {addresses[a], (mux_filter_mode_e)f, n == 1};
        if (!sm.normalized && (sm.address == mux_address_mode_repeat ||
                               sm.address == mux_address_mode_repeat_mirror)) {
          continue;
        }
        float coords[COORDS][2];
        for (int i = 0; i < COORDS; i++) {
          coords[i][0] = random_coord(&rng, 7, sm.normalized);
          coords[i][1] = random_coord(&rng, 5, sm.normalized);
        }
        /* Texel centres and edges, exactly. */
        coords[0][0] = sm.normalized ? 0.5f / 7 : 0.5f;
        coords[1][0] = sm.normalized ? 1.0f : 7.0f;
        coords[2][0] = 0.0f;
        bt_buffer in = bt_buffer_create(coords, sizeof coords);
        bt_buffer out = bt_buffer_create(NULL, COORDS * 16);
        mux_descriptor_info_t args[] = {
            image_arg(&t), sampler_arg(sm.address, sm.filter, sm.normalized),
            bt_buffer_arg(&in), bt_buffer_arg(&out)};
        const char *name = !integer                   ? "rd2f"
                           : type >= CL_UNSIGNED_INT8 ? "rd2ui"
                                                      : "rd2i";
        bt_run(exe, name, args, 4, COORDS, READ_LOCAL);
        float got[COORDS][4];
        bt_buffer_read(&out, got);
        int failures = 0;
        for (int i = 0; i < COORDS && failures < 3; i++) {
          double want[4];
          ref_sample(&t, sm, 2, coords[i], 0, want);
          float value[4];
          for (int c = 0; c < 4; c++) {
            int32_t bits;
            memcpy(&bits, &got[i][c], 4);
            value[c] = !integer                   ? got[i][c]
                       : type >= CL_UNSIGNED_INT8 ? (float)(uint32_t)bits
                                                  : (float)bits;
          }
          failures += compare_floats("2d", sm, i, coords[i], 2, value, want);
        }
        CHECK(failures == 0);
        if (failures) {
          fprintf(stderr, "  (order %#x type %#x)\n", order, type);
        }
        bt_buffer_destroy(&in);
        bt_buffer_destroy(&out);
      }
  image_destroy(&t);
}

/* A program-scope sampler, which Clang turns into calls of
 * __translate_sampler_initializer (image_handles.ll); a program of its own,
 * so that its failure to build fails this check only. */
static const char *constant_sampler_source =
    "constant sampler_t repeat_linear = CLK_NORMALIZED_COORDS_TRUE |\n"
    "  CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
    "kernel void rd2f_const(read_only image2d_t m, global float2 *c,\n"
    "    global float4 *o) { size_t i = get_global_id(0);\n"
    "  o[i] = read_imagef(m, repeat_linear, c[i]); }\n";

static void test_constant_sampler(void) {
  LLVMModuleRef module = bt_compile(constant_sampler_source, NULL);
  const char *name = "rd2f_const";
  mux_executable_t exe = bt_build_module(module, &name, 1, READ_LOCAL, NULL);
  if (!exe) {
    fprintf(stderr, "program-scope sampler: the program does not load\n");
    return;
  }
  uint32_t rng = 5;
  test_image t = image_create(mux_image_type_2d, CL_RGBA, CL_FLOAT, 7, 5, 1, 0);
  image_fill(&t, &rng);
  ref_sampler sm = {mux_address_mode_repeat, mux_filter_mode_linear, true};
  float coords[COORDS][2];
  for (int i = 0; i < COORDS; i++) {
    coords[i][0] = random_coord(&rng, 7, true);
    coords[i][1] = random_coord(&rng, 5, true);
  }
  bt_buffer in = bt_buffer_create(coords, sizeof coords);
  bt_buffer out = bt_buffer_create(NULL, COORDS * 16);
  mux_descriptor_info_t args[] = {image_arg(&t), bt_buffer_arg(&in),
                                  bt_buffer_arg(&out)};
  bt_run(exe, "rd2f_const", args, 3, COORDS, READ_LOCAL);
  float got[COORDS][4];
  bt_buffer_read(&out, got);
  int failures = 0;
  for (int i = 0; i < COORDS && failures < 3; i++) {
    double want[4];
    ref_sample(&t, sm, 2, coords[i], 0, want);
    failures += compare_floats("constant", sm, i, coords[i], 2, got[i], want);
  }
  CHECK(failures == 0);
  bt_buffer_destroy(&in);
  bt_buffer_destroy(&out);
  image_destroy(&t);
  bt_executable_destroy(exe);
}

/* Integer coordinates: with a nearest unnormalized sampler for each
 * non-repeating mode (float and uint results), and without a sampler. */
static void test_read_int_coords(mux_executable_t exe) {
  uint32_t rng = 99;
  test_image t =
      image_create(mux_image_type_2d, CL_RGBA, CL_UNSIGNED_INT8, 7, 5, 1, 0);
  test_image f =
      image_create(mux_image_type_2d, CL_BGRA, CL_UNORM_INT8, 7, 5, 1, 0);
  image_fill(&t, &rng);
  image_fill(&f, &rng);
  int coords[COORDS][2];
  for (int i = 0; i < COORDS; i++) {
    coords[i][0] = (int)(bt_random(&rng) % 11) - 2;
    coords[i][1] = (int)(bt_random(&rng) % 9) - 2;
  }
  bt_buffer in = bt_buffer_create(coords, sizeof coords);
  bt_buffer out = bt_buffer_create(NULL, COORDS * 16);
  for (int a = 0; a < 4; a++) { /* a == 3: sampler-less */
    ref_sampler sm = {a < 3 ? addresses[a] : mux_address_mode_none,
                      mux_filter_mode_nearest, false};
    for (int which = 0; which < 2; which++) {
      const test_image *img = which ? &f : &t;
      const char *name = a == 3 ? "rd2f_nos" : which ? "rd2f_int" : "rd2ui_int";
      if (a == 3 && !which) continue;
      mux_descriptor_info_t args[] = {image_arg(img),
                                      sampler_arg(sm.address, sm.filter, false),
                                      bt_buffer_arg(&in), bt_buffer_arg(&out)};
      if (a == 3) args[1] = args[0];
      bt_run(exe, name, a == 3 ? args + 1 : args, a == 3 ? 3 : 4, COORDS,
             READ_LOCAL);
      uint32_t got[COORDS][4];
      bt_buffer_read(&out, got);
      int failures = 0;
      for (int i = 0; i < COORDS && failures < 3; i++) {
        float c[2] = {(float)coords[i][0] + 0.5f, (float)coords[i][1] + 0.5f};
        double want[4];
        ref_sample(img, sm, 2, c, 0, want);
        float value[4];
        for (int k = 0; k < 4; k++) {
          if (which) {
            memcpy(&value[k], &got[i][k], 4);
          } else {
            value[k] = (float)got[i][k];
          }
        }
        failures += compare_floats(name, sm, i, c, 2, value, want);
      }
      CHECK(failures == 0);
    }
  }
  bt_buffer_destroy(&in);
  bt_buffer_destroy(&out);
  image_destroy(&t);
  image_destroy(&f);
}

/* 3D trilinear (and nearest), 1D and 2D array layer selection, 1D. */
static void test_read_3d_and_arrays(mux_executable_t exe) {
  uint32_t rng = 7;
  test_image v =
      image_create(mux_image_type_3d, CL_RGBA, CL_UNORM_INT16, 5, 4, 3, 0);
  test_image a1 =
      image_create(mux_image_type_1d, CL_RGBA, CL_FLOAT, 7, 1, 1, 4);
  test_image a2 =
      image_create(mux_image_type_2d, CL_RG, CL_SNORM_INT8, 7, 5, 1, 3);
  test_image l1 =
      image_create(mux_image_type_1d, CL_BGRA, CL_UNORM_INT8, 7, 1, 1, 0);
  image_fill(&v, &rng);
  image_fill(&a1, &rng);
  image_fill(&a2, &rng);
  image_fill(&l1, &rng);
  for (int a = 0; a < 5; a++)
    for (int fl = 0; fl < 2; fl++) {
      ref_sampler sm = {addresses[a], (mux_filter_mode_e)fl, true};
      float coords[COORDS][4];
      for (int i = 0; i < COORDS; i++) {
        coords[i][0] = random_coord(&rng, 5, true);
        coords[i][1] = random_coord(&rng, 4, true);
        coords[i][2] = random_coord(&rng, 3, true);
        coords[i][3] = 0;
      }
      /* Coordinates: float, float2 (x, layer), float4 (x, y, z|layer). */
      struct {
        const char *name;
        const test_image *img;
        int axes, layer_axis, stride;
      } cases[] = {{"rd3f", &v, 3, -1, 4},
                   {"rd1af", &a1, 1, 1, 2},
                   {"rd2af", &a2, 2, 2, 4},
                   {"rd1f", &l1, 1, -1, 1}};
      for (int k = 0; k < 4; k++) {
        float packed[COORDS][4];
        int stride = cases[k].stride;
        int layers = (int)cases[k].img->layers;
        for (int i = 0; i < COORDS; i++) {
          memcpy(packed[i], coords[i], sizeof coords[i]);
          if (cases[k].layer_axis >= 0) {
            /* Layers from -1.6 to layers + 0.6, halves included. */
            int halves = (int)(bt_random(&rng) % (unsigned)(2 * layers + 5));
            packed[i][cases[k].layer_axis] =
                (float)(halves - 3) * 0.5f + (i % 3 == 0 ? 0.1f : 0.0f);
          }
        }
        float flat[COORDS * 4];
        for (int i = 0; i < COORDS; i++) {
          memcpy(&flat[i * stride], packed[i], (size_t)stride * 4);
        }
        bt_buffer in = bt_buffer_create(flat, (size_t)COORDS * stride * 4);
        bt_buffer out = bt_buffer_create(NULL, COORDS * 16);
        mux_descriptor_info_t args[] = {
            image_arg(cases[k].img), sampler_arg(sm.address, sm.filter, true),
            bt_buffer_arg(&in), bt_buffer_arg(&out)};
        bt_run(exe, cases[k].name, args, 4, COORDS, READ_LOCAL);
        float got[COORDS][4];
        bt_buffer_read(&out, got);
        int failures = 0;
        for (int i = 0; i < COORDS && failures < 3; i++) {
          int fixed = 0;
          if (cases[k].layer_axis >= 0) {
            float l = rintf(packed[i][cases[k].layer_axis]);
            fixed = l < 0 ? 0 : l > layers - 1 ? layers - 1 : (int)l;
          }
          double want[4];
          ref_sample(cases[k].img, sm, cases[k].axes, packed[i], fixed, want);
          failures += compare_floats(cases[k].name, sm, i, packed[i],
                                     cases[k].axes, got[i], want);
        }
        CHECK(failures == 0);
        bt_buffer_destroy(&in);
        bt_buffer_destroy(&out);
      }
    }
  image_destroy(&v);
  image_destroy(&a1);
  image_destroy(&a2);
  image_destroy(&l1);
}

/* ---- Writes ------------------------------------------------------------- */

/* Runs `name` writing values[i] at coords[i] (ints of `coord_ints` each). */
static void run_write(mux_executable_t exe, const char *name,
                      const test_image *t, const void *coords,
                      size_t coord_bytes, const void *values, size_t count) {
  bt_buffer c = bt_buffer_create(coords, coord_bytes * count);
  bt_buffer v = bt_buffer_create(values, 16 * count);
  mux_descriptor_info_t args[] = {image_arg(t), bt_buffer_arg(&c),
                                  bt_buffer_arg(&v)};
  bt_run(exe, name, args, 3, count, 1);
  bt_buffer_destroy(&c);
  bt_buffer_destroy(&v);
}

static void test_writes(mux_executable_t exe) {
  /* UNORM_INT8 through BGRA: rounding to nearest even, saturation, NaN. */
  test_image b =
      image_create(mux_image_type_2d, CL_BGRA, CL_UNORM_INT8, 7, 5, 1, 0);
  const float unorm_in[4][4] = {
      {0.5f / 255, 1.5f / 255, 2.5f / 255, 127.5f / 255},
      {-0.5f, 1.5f, NAN, 1.0f},
      {0.25f, 0.75f, 128.5f / 255, 0.0f},
      {-INFINITY, INFINITY, 0.999f, 0.001f}};
  int xy[4][2] = {{0, 0}, {6, 4}, {3, 2}, {9, 1}}; /* the last is outside */
  run_write(exe, "wr2f", &b, xy, 8, unorm_in, 4);
  for (int i = 0; i < 3; i++) {
    const uint8_t *p = pixel_of(&b, xy[i][0], xy[i][1], 0);
    const int order[4] = {2, 1, 0, 3}; /* memory B, G, R, A */
    for (int k = 0; k < 4; k++) {
      float f = unorm_in[i][order[k]];
      float scaled = isnan(f) ? 0.0f : f * 255.0f;
      float want = scaled < 0 ? 0 : scaled > 255 ? 255 : rintf(scaled);
      CHECK(p[k] == (uint8_t)want);
      if (p[k] != (uint8_t)want) {
        fprintf(stderr, "bgra write %d.%d: got %u want %g\n", i, k, p[k], want);
      }
    }
  }
  image_destroy(&b);

  /* Half: round to nearest even (the host's _Float16 conversion). */
  test_image h =
      image_create(mux_image_type_2d, CL_RGBA, CL_HALF_FLOAT, 7, 5, 1, 0);
  const float hv[4] = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, -65520.0f, 0.1f};
  int hxy[2] = {5, 3};
  run_write(exe, "wr2f", &h, hxy, 8, hv, 1);
  const _Float16 *hp = (const _Float16 *)pixel_of(&h, 5, 3, 0);
  for (int k = 0; k < 4; k++) {
    _Float16 want = (_Float16)hv[k];
    CHECK(memcmp(&hp[k], &want, 2) == 0);
    if (memcmp(&hp[k], &want, 2) != 0) {
      fprintf(stderr, "half write %d: got %g want %g\n", k, (double)hp[k],
              (double)want);
    }
  }
  image_destroy(&h);

  /* Integer saturation: write_imagei to SIGNED_INT8, write_imageui to
   * UNSIGNED_INT16. */
  test_image si =
      image_create(mux_image_type_2d, CL_RGBA, CL_SIGNED_INT8, 7, 5, 1, 0);
  const int32_t iv[4] = {-129, 127, 300, -5};
  int ixy[2] = {1, 1};
  run_write(exe, "wr2i", &si, ixy, 8, iv, 1);
  const int8_t iwant[4] = {-128, 127, 127, -5};
  CHECK(memcmp(pixel_of(&si, 1, 1, 0), iwant, 4) == 0);
  image_destroy(&si);
  test_image su =
      image_create(mux_image_type_2d, CL_RG, CL_UNSIGNED_INT16, 7, 5, 1, 0);
  const uint32_t uv[4] = {70000, 65535, 9, 9};
  run_write(exe, "wr2ui", &su, ixy, 8, uv, 1);
  const uint16_t uwant[2] = {65535, 65535};
  CHECK(memcmp(pixel_of(&su, 1, 1, 0), uwant, 4) == 0);
  image_destroy(&su);

  /* 3D, 2D array and 1D array writes land in the right slice/row; SNORM
   * rounding on the 3D one. */
  test_image v =
      image_create(mux_image_type_3d, CL_RGBA, CL_SNORM_INT16, 4, 3, 5, 0);
  const float vv[4] = {-1.5f, 0.5f / 32767, 1.5f / 32767, 0.3f};
  int vxyz[4] = {3, 2, 4, 0};
  run_write(exe, "wr3f", &v, vxyz, 16, vv, 1);
  const int16_t *vp = (const int16_t *)pixel_of(&v, 3, 2, 4);
  for (int k = 0; k < 4; k++) {
    float s = vv[k] * 32767.0f;
    float want = s < -32768 ? -32768 : s > 32767 ? 32767 : rintf(s);
    CHECK(vp[k] == (int16_t)want);
    if (vp[k] != (int16_t)want) {
      fprintf(stderr, "3d write %d: got %d want %g\n", k, vp[k], want);
    }
  }
  image_destroy(&v);
  test_image a2 = image_create(mux_image_type_2d, CL_R, CL_FLOAT, 4, 3, 1, 6);
  const float av[4] = {42.0f, 0, 0, 0};
  int axyz[4] = {2, 1, 5, 0};
  run_write(exe, "wr2af", &a2, axyz, 16, av, 1);
  CHECK(*(const float *)pixel_of(&a2, 2, 1, 5) == 42.0f);
  image_destroy(&a2);
  test_image a1 =
      image_create(mux_image_type_1d, CL_RGBA, CL_FLOAT, 4, 1, 1, 6);
  const float a1v[4] = {1, 2, 3, 4};
  int a1xy[2] = {3, 4};
  run_write(exe, "wr1af", &a1, a1xy, 8, a1v, 1);
  CHECK(memcmp(pixel_of(&a1, 3, 4, 0), a1v, 16) == 0);
  image_destroy(&a1);

  /* Round trip: write UNORM_INT8 RGBA, read back through read_imagef. */
  test_image r =
      image_create(mux_image_type_2d, CL_RGBA, CL_UNORM_INT8, 7, 5, 1, 0);
  float rv[35][4];
  int rxy[35][2];
  for (int i = 0; i < 35; i++) {
    rxy[i][0] = i % 7;
    rxy[i][1] = i / 7;
    for (int k = 0; k < 4; k++) rv[i][k] = (float)(i * 4 + k) / 139.0f;
  }
  run_write(exe, "wr2f", &r, rxy, 8, rv, 35);
  bt_buffer in = bt_buffer_create(rxy, sizeof rxy);
  bt_buffer out = bt_buffer_create(NULL, sizeof rv);
  mux_descriptor_info_t args[] = {image_arg(&r), bt_buffer_arg(&in),
                                  bt_buffer_arg(&out)};
  bt_run(exe, "rd2f_nos", args, 3, 35, 1);
  float back[35][4];
  bt_buffer_read(&out, back);
  int failures = 0;
  for (int i = 0; i < 35; i++)
    for (int k = 0; k < 4; k++) {
      if (fabsf(back[i][k] - rv[i][k]) > 0.5f / 255 + 1e-6f) failures++;
    }
  CHECK(failures == 0);
  bt_buffer_destroy(&in);
  bt_buffer_destroy(&out);
  image_destroy(&r);
}

/* ---- Queries ------------------------------------------------------------ */

static void query(mux_executable_t exe, const char *name, const test_image *t,
                  const int *want, int count) {
  bt_buffer out = bt_buffer_create(NULL, 16 * sizeof(int));
  mux_descriptor_info_t args[] = {image_arg(t), bt_buffer_arg(&out)};
  bt_run(exe, name, args, 2, 1, 1);
  int got[16];
  bt_buffer_read(&out, got);
  for (int i = 0; i < count; i++) {
    CHECK_INT(want[i], got[i]);
    if (want[i] != got[i]) fprintf(stderr, "  (%s result %d)\n", name, i);
  }
  bt_buffer_destroy(&out);
}

static void test_queries(mux_executable_t exe) {
  test_image i1 = image_create(mux_image_type_1d, CL_R, CL_FLOAT, 9, 1, 1, 0);
  query(exe, "q1", &i1, (const int[]){9, CL_FLOAT, CL_R}, 3);
  query(exe, "q1b", &i1, (const int[]){9, CL_FLOAT, CL_R}, 3);
  image_destroy(&i1);
  test_image i1a =
      image_create(mux_image_type_1d, CL_RG, CL_UNORM_INT8, 6, 1, 1, 4);
  query(exe, "q1a", &i1a, (const int[]){6, CL_UNORM_INT8, CL_RG, 4}, 4);
  image_destroy(&i1a);
  test_image i2 =
      image_create(mux_image_type_2d, CL_BGRA, CL_UNORM_INT8, 7, 5, 1, 0);
  query(exe, "q2", &i2, (const int[]){7, CL_UNORM_INT8, CL_BGRA, 5, 7, 5}, 6);
  image_destroy(&i2);
  test_image i2a =
      image_create(mux_image_type_2d, CL_A, CL_HALF_FLOAT, 3, 2, 1, 5);
  query(exe, "q2a", &i2a, (const int[]){3, CL_HALF_FLOAT, CL_A, 2, 5, 3, 2}, 7);
  image_destroy(&i2a);
  test_image i3 =
      image_create(mux_image_type_3d, CL_RGBA, CL_SIGNED_INT32, 4, 3, 2, 0);
  query(exe, "q3", &i3,
        (const int[]){4, CL_SIGNED_INT32, CL_RGBA, 3, 2, 4, 3, 2, 0}, 9);
  image_destroy(&i3);
}

/* ---- The CL_RGBA/CL_FLOAT version of a kernel ------------------------ */

static const char *const blur_source =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void blur(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int w = get_image_width(in), i = get_global_id(0);\n"
    "  int x = i % w, y = i / w;\n"
    "  float4 sum = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++)\n"
    "    for (int dx = -1; dx <= 1; dx++)\n"
    "      sum += read_imagef(in, edge, (int2)(x + dx, y + dy));\n"
    "  write_imagef(out, (int2)(x, y), sum / 9.0f);\n"
    "}\n";

#define MAX_BLOCKS 4096

static const char *callee_name(LLVMValueRef call) {
  size_t length = 0;
  return LLVMGetValueName2(LLVMGetCalledValue(call), &length);
}

/* Marks in `seen` (indexed like `blocks`) what `from` reaches. */
static void reach(LLVMBasicBlockRef from, LLVMBasicBlockRef *blocks,
                  unsigned count, bool *seen) {
  unsigned index = 0;
  while (index < count && blocks[index] != from) index++;
  if (index == count || seen[index]) return;
  seen[index] = true;
  LLVMValueRef last = LLVMGetBasicBlockTerminator(from);
  for (unsigned i = 0; last && i < LLVMGetNumSuccessors(last); i++) {
    reach(LLVMGetSuccessor(last, i), blocks, count, seen);
  }
}

/* In the optimized work-group function `name`, the code only the first
 * branch of the dispatcher reaches (the version for one format) has no
 * call but intrinsics, no switch, and at least `want_loads` texel loads
 * as 4-element vectors. */
static void check_pinned_version(LLVMModuleRef module, const char *name,
                                 unsigned want_loads) {
  LLVMValueRef f = LLVMGetNamedFunction(module, name);
  REQUIRE(f);
  unsigned count = LLVMCountBasicBlocks(f);
  REQUIRE(count <= MAX_BLOCKS);
  static LLVMBasicBlockRef blocks[MAX_BLOCKS];
  static bool fast[MAX_BLOCKS], general[MAX_BLOCKS];
  LLVMGetBasicBlocks(f, blocks);
  LLVMValueRef branch = LLVMGetBasicBlockTerminator(blocks[0]);
  REQUIRE(LLVMIsABranchInst(branch) && LLVMIsConditional(branch));
  memset(fast, 0, sizeof fast);
  memset(general, 0, sizeof general);
  reach(LLVMGetSuccessor(branch, 0), blocks, count, fast);
  reach(LLVMGetSuccessor(branch, 1), blocks, count, general);
  unsigned calls = 0, switches = 0, vector_loads = 0, only_fast = 0;
  for (unsigned b = 0; b < count; b++) {
    if (!fast[b] || general[b]) continue;
    only_fast++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[b]); i;
         i = LLVMGetNextInstruction(i)) {
      if (LLVMIsASwitchInst(i)) switches++;
      if (LLVMIsACallInst(i) && strncmp(callee_name(i), "llvm.", 5) != 0) {
        calls++;
      }
      if (LLVMIsALoadInst(i) &&
          LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVectorTypeKind &&
          LLVMGetVectorSize(LLVMTypeOf(i)) == 4) {
        vector_loads++;
      }
    }
  }
  CHECK(only_fast > 0);
  CHECK_INT(0, calls);
  CHECK_INT(0, switches);
  CHECK(vector_loads >= want_loads);
  if (calls || switches || vector_loads < want_loads) {
    fprintf(stderr, "%s, one format: %u calls, %u switches, %u loads\n", name,
            calls, switches, vector_loads);
  }
}

/* The pixel (x, y) of `t` (R or RGBA, FLOAT) as read_imagef gives it. */
static void float_pixel(const test_image *t, int x, int y, double out[4]) {
  const float *p = (const float *)pixel_of(t, x, y, 0);
  for (int c = 0; c < 4; c++) {
    out[c] = t->order == CL_RGBA ? p[c] : c == 0 ? p[0] : c == 3 ? 1.0 : 0.0;
  }
}

/* Blurs `in` (RGBA or R, FLOAT) into `out` (RGBA, FLOAT or UNORM_INT8)
 * and checks every channel against the host's clamp-to-edge average. */
static void test_blur(mux_executable_t exe, uint32_t in_order,
                      uint32_t out_type, uint32_t seed) {
  enum { W = READ_LOCAL, H = 9 }; /* rows of one work-group each */
  test_image in =
      image_create(mux_image_type_2d, in_order, CL_FLOAT, W, H, 1, 0);
  test_image out =
      image_create(mux_image_type_2d, CL_RGBA, out_type, W, H, 1, 0);
  image_fill(&in, &seed);
  mux_descriptor_info_t args[] = {image_arg(&in), image_arg(&out)};
  bt_run(exe, "blur", args, 2, W * H, READ_LOCAL);
  int bad = 0;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      double sum[4] = {0}, texel[4];
      for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
          int i = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
          int j = y + dy < 0 ? 0 : y + dy >= H ? H - 1 : y + dy;
          float_pixel(&in, i, j, texel);
          for (int c = 0; c < 4; c++) sum[c] += texel[c];
        }
      }
      for (int c = 0; c < 4; c++) {
        double want = sum[c] / 9;
        bool ok;
        if (out_type == CL_FLOAT) {
          ok = fabs(((const float *)pixel_of(&out, x, y, 0))[c] - want) <= 1e-5;
        } else {
          double scaled = (want < 0 ? 0 : want > 1 ? 1 : want) * 255;
          ok = fabs(pixel_of(&out, x, y, 0)[c] - scaled) <= 0.51;
        }
        if (!ok && bad++ == 0) {
          fprintf(stderr, "blur %#x -> RGBA %#x at (%d, %d) channel %d\n",
                  in_order, out_type, x, y, c);
        }
      }
    }
  }
  CHECK_INT(0, bad);
  image_destroy(&in);
  image_destroy(&out);
}

static unsigned instructions_of(LLVMModuleRef module, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(module, name);
  REQUIRE(f);
  unsigned count = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
       b = LLVMGetNextBasicBlock(b)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
         i = LLVMGetNextInstruction(i)) {
      count++;
    }
  }
  return count;
}

static void test_format_versions(void) {
  cc_kernel_request request = {"blur", {READ_LOCAL, 1, 1},     false, NULL,
                               false,  {CL_RGBA, CL_FLOAT, 16}};
  LLVMModuleRef optimized = NULL;
  mux_executable_t exe =
      bt_build_requests(bt_compile(blur_source, NULL), &request, 1, &optimized);
  REQUIRE(exe && optimized);
  check_pinned_version(optimized, "__clmux_wg_blur", 9);
  unsigned both = instructions_of(optimized, "__clmux_wg_blur");
  LLVMDisposeModule(optimized);
  test_blur(exe, CL_RGBA, CL_FLOAT, 21);      /* the RGBA/FLOAT version */
  test_blur(exe, CL_RGBA, CL_UNORM_INT8, 22); /* mixed: the general one */
  test_blur(exe, CL_R, CL_FLOAT, 23);
  bt_executable_destroy(exe);

  request.image_format = (cpu_image_format){0, 0, 0};
  exe =
      bt_build_requests(bt_compile(blur_source, NULL), &request, 1, &optimized);
  REQUIRE(exe && optimized);
  unsigned general = instructions_of(optimized, "__clmux_wg_blur");
  LLVMDisposeModule(optimized);
  /* The version for RGBA/FLOAT is most of the dispatcher's code. */
  CHECK(both > general + general / 4);
  if (both <= general + general / 4) {
    fprintf(stderr, "blur: %u instructions with both versions, %u alone\n",
            both, general);
  }
  test_blur(exe, CL_RGBA, CL_FLOAT, 24);
  test_blur(exe, CL_RGBA, CL_UNORM_INT8, 25);
  test_blur(exe, CL_R, CL_FLOAT, 26);
  bt_executable_destroy(exe);
}

/* silx's textures: one-channel images, read with a sampler into a buffer
 * (the sum of the RGBA channels of three neighbours). */
static const char *const row_sum_source =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void row_sum(read_only image2d_t in, global float *out) {\n"
    "  int w = get_image_width(in), i = get_global_id(0);\n"
    "  int x = i % w, y = i / w;\n"
    "  float4 sum = 0.0f;\n"
    "  for (int dx = -1; dx <= 1; dx++)\n"
    "    sum += read_imagef(in, edge, (int2)(x + dx, y));\n"
    "  out[i] = sum.x + sum.y + sum.z + sum.w;\n"
    "}\n";

static void test_row_sum(mux_executable_t exe, uint32_t order, uint32_t type,
                         uint32_t seed) {
  enum { W = READ_LOCAL, H = 5 };
  test_image in = image_create(mux_image_type_2d, order, type, W, H, 1, 0);
  image_fill(&in, &seed);
  float result[W * H];
  bt_buffer out = bt_buffer_create(NULL, sizeof result);
  mux_descriptor_info_t args[] = {image_arg(&in), bt_buffer_arg(&out)};
  bt_run(exe, "row_sum", args, 2, W * H, READ_LOCAL);
  bt_buffer_read(&out, result);
  int bad = 0;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      double want = 0, texel[4];
      for (int dx = -1; dx <= 1; dx++) {
        int i = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
        ref_texel(&in, true, i, y, 0, texel);
        want += texel[0] + texel[1] + texel[2] + texel[3];
      }
      if (fabs(result[y * W + x] - want) > 1e-4 && bad++ == 0) {
        fprintf(stderr, "row_sum %#x/%#x at (%d, %d): %g, want %g\n", order,
                type, x, y, result[y * W + x], want);
      }
    }
  }
  CHECK_INT(0, bad);
  bt_buffer_destroy(&out);
  image_destroy(&in);
}

/* A version for CL_INTENSITY/CL_FLOAT, a format the library decodes out of
 * line: pinned, its decoding is inlined and folds to one float load. */
static void test_one_channel_version(void) {
  cc_kernel_request request = {"row_sum", {READ_LOCAL, 1, 1},
                               false,     NULL,
                               false,     {CL_INTENSITY, CL_FLOAT, 4}};
  LLVMModuleRef optimized = NULL;
  mux_executable_t exe = bt_build_requests(bt_compile(row_sum_source, NULL),
                                           &request, 1, &optimized);
  REQUIRE(exe && optimized);
  check_pinned_version(optimized, "__clmux_wg_row_sum", 0);
  LLVMDisposeModule(optimized);
  test_row_sum(exe, CL_INTENSITY, CL_FLOAT, 31); /* the pinned version */
  test_row_sum(exe, CL_R, CL_FLOAT, 32);         /* the general one */
  test_row_sum(exe, CL_LUMINANCE, CL_FLOAT, 33);
  test_row_sum(exe, CL_INTENSITY, CL_UNORM_INT8, 34);
  test_row_sum(exe, CL_RGBA, CL_FLOAT, 35);
  bt_executable_destroy(exe);
}

/* The kernels built for work-groups of `local` work-items. */
static mux_executable_t build(uint32_t local) {
  LLVMModuleRef module = bt_compile(source, NULL);
  mux_executable_t exe =
      bt_build_module(module, kernel_names, KERNELS, local, NULL);
  REQUIRE(exe);
  return exe;
}

int main(void) {
  bt_start();
  /* Reads run vectorized across 16 work-items; writes and queries one by
   * one. */
  mux_executable_t wide = build(READ_LOCAL), single = build(1);
  test_read_2d(wide, CL_RGBA, CL_FLOAT, true, 1);
  test_read_2d(wide, CL_RGBA, CL_UNORM_INT8, true, 2);
  test_read_2d(wide, CL_R, CL_SIGNED_INT16, false, 3);
  test_read_2d(wide, CL_BGRA, CL_UNORM_INT8, true, 4);
  test_read_2d(wide, CL_RG, CL_HALF_FLOAT, true, 5);
  test_read_2d(wide, CL_A, CL_UNORM_INT16, true, 6);
  test_read_2d(wide, CL_INTENSITY, CL_SNORM_INT8, true, 7);
  test_read_2d(wide, CL_LUMINANCE, CL_FLOAT, true, 8);
  test_read_2d(wide, CL_ARGB, CL_SNORM_INT8, true, 9);
  test_read_2d(wide, CL_RA, CL_SNORM_INT16, true, 10);
  test_read_2d(wide, CL_RGBA, CL_UNSIGNED_INT32, false, 11);
  test_read_int_coords(wide);
  test_constant_sampler();
  test_read_3d_and_arrays(wide);
  test_writes(single);
  test_queries(single);
  test_format_versions();
  test_one_channel_version();
  bt_executable_destroy(wide);
  bt_executable_destroy(single);
  return bt_finish();
}

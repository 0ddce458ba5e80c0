/* clmux-cl-first-bench: how long a program waits for its first result,
 * on every platform the ICD loader finds, side by side in one run, with
 * every cache off (CLMUX_CACHE=0, POCL_KERNEL_CACHE=0): what a user meets
 * the first time a program runs.
 *
 * Two kinds of rows:
 *   - generated kernels (tools/fuzz's generator, fixed seeds) at sizes 1,
 *     2, 4 and 8: build, buffers, one launch and the read back, whose
 *     outputs must agree byte for byte across platforms; then how the time
 *     grew against the source (a JIT whose cost grows faster than the
 *     kernel's size says so here);
 *   - kernels of programs installed by Debian's packages (hashcat, silx,
 *     darktable), read from where the package puts them and built with the
 *     options the program passes; a row whose package is missing says so.
 *     Each kernel is launched with zeroed arguments (the programs' own
 *     guards, `if (gid >= gid_max) return`, make the work nothing, so the
 *     time is the implementation's: front-end, specialization, back-end)
 *     at one local size, then at a second (what a per-local-size
 *     specialization costs again). The bytes of every buffer afterwards
 *     must agree across platforms.
 * A ratio is printed only between platforms whose outputs agree. Each
 * platform runs in a child process of its own (per_platform.c), under a
 * time limit per row. Exits 1 when clmux fails a row, its generated
 * kernels' outputs differ from another platform's, or no clmux platform
 * ran.
 * Usage: clmux-cl-first-bench [-k TEXT] [-t SECONDS] (--help) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../fuzz/kernel_gen.h"
#include "../fuzz/kernel_run.h"
#include "per_platform.h"

static const char usage[] =
    "Usage: clmux-cl-first-bench [-k TEXT] [-t SECONDS]\n"
    "  -k TEXT     only rows whose title contains TEXT (repeatable)\n"
    "  -t SECONDS  time limit per row and platform (600)\n"
    "Runs on every platform the OpenCL ICD loader lists; to compare clmux\n"
    "with PoCL point OCL_ICD_VENDORS at a folder holding both .icd files.\n";

enum { MAX_KERNELS = 8, LOCAL_SIZES = 2, SIZES = 4, SEEDS = 3 };
static const int sizes[SIZES] = {1, 2, 4, 8};
static const uint64_t seeds[SEEDS] = {7, 8, 9};

static unsigned time_limit = 600;
/* The exit status: clmux failed a row, or its generated kernels' outputs
 * differ from another platform's. */
static bool clmux_failed;
static bool clmux_seen;

#define MAX_ONLY 8
static const char *only[MAX_ONLY];
static int only_count;

static bool selected(const char *title) {
  for (int i = 0; i < only_count; i++) {
    if (strcasestr(title, only[i])) return true;
  }
  return only_count == 0;
}

static double now_ms(void) { return bench_now_us() / 1e3; }

/* FNV-1a, folded over every output a row reads back. */
static uint64_t fold(uint64_t hash, const void *data, size_t size) {
  const unsigned char *bytes = data;
  for (size_t i = 0; i < size; i++) {
    hash = (hash ^ bytes[i]) * 0x100000001b3u;
  }
  return hash;
}
static const uint64_t fnv_start = 0xcbf29ce484222325u;

/* What one platform made of one row. */
typedef struct row_result {
  char platform[32];
  bool ok;       /* built and ran everything */
  char why[200]; /* when not */
  double build_ms;
  /* programs: per kernel and local size, the launch (enqueue to
   * clFinish); generated: per size, [0] the first result of all seeds
   * and [1] their builds alone */
  double ms[MAX_KERNELS][LOCAL_SIZES];
  double first_ms; /* programs: build + the first kernel's first launch */
  double total_ms; /* build + every launch timed */
  uint64_t hash[MAX_KERNELS];
} row_result;

static void name_failed(void *result, int index) {
  row_result *r = result;
  snprintf(r->platform, sizeof r->platform, "platform %d", index);
  snprintf(r->why, sizeof r->why, "crashed or exceeded %u s", time_limit);
}

static void short_name(cl_platform_id id, char *name, size_t size) {
  char full[256] = "";
  clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof full, full, NULL);
  if (strstr(full, "clmux")) {
    snprintf(name, size, "clmux");
  } else if (strstr(full, "Portable Computing Language")) {
    snprintf(name, size, "PoCL");
  } else {
    snprintf(name, size, "%.20s", full);
  }
}

typedef struct device {
  cl_device_id id;
  cl_context context;
  cl_command_queue queue;
} device;

static bool open_device(cl_platform_id platform, device *d, row_result *r) {
  short_name(platform, r->platform, sizeof r->platform);
  cl_int error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &d->id, NULL);
  if (error == CL_SUCCESS) {
    d->context = clCreateContext(NULL, 1, &d->id, NULL, NULL, &error);
  }
  if (error == CL_SUCCESS) {
    d->queue = clCreateCommandQueue(d->context, d->id, 0, &error);
  }
  if (error != CL_SUCCESS) {
    snprintf(r->why, sizeof r->why, "no CPU device, context or queue (%d)",
             error);
    return false;
  }
  alarm(time_limit); /* the child dies with the row unfinished */
  return true;
}

/* ---- Generated kernels ---------------------------------------------- */

static size_t generated_bytes(int size) {
  size_t bytes = 0;
  for (int s = 0; s < SEEDS; s++) {
    kernel_case c;
    kernel_gen(seeds[s], size, &c);
    bytes += strlen(c.source);
    kernel_case_free(&c);
  }
  return bytes;
}

static void bench_generated(cl_platform_id platform, void *result,
                            void *context) {
  (void)context;
  row_result *r = result;
  device d;
  if (!open_device(platform, &d, r)) return;
  for (int z = 0; z < SIZES; z++) {
    uint64_t hash = fnv_start;
    for (int s = 0; s < SEEDS; s++) {
      kernel_case c;
      kernel_gen(seeds[s], sizes[z], &c);
      kernel_run_output out = {0};
      double start = now_ms();
      int status = kernel_run(d.context, d.queue, d.id, seeds[s], &c, &out);
      r->ms[z][0] += now_ms() - start;
      r->ms[z][1] += out.build_ms;
      if (status == KERNEL_RAN) {
        hash = fold(hash, out.words, out.count * sizeof *out.words);
      } else if (!r->why[0]) {
        snprintf(
            r->why, sizeof r->why, "seed %llu size %d %s",
            (unsigned long long)seeds[s], sizes[z],
            status == KERNEL_REFUSED ? "refused to build" : "failed to run");
      }
      free(out.words);
      free(out.log);
      kernel_case_free(&c);
    }
    r->hash[z] = hash;
  }
  r->ok = !r->why[0];
}

static bool agree(const row_result *a, const row_result *b, int count) {
  if (!a->ok || !b->ok) return false;
  for (int i = 0; i < count; i++) {
    if (a->hash[i] != b->hash[i]) return false;
  }
  return true;
}

static int find_clmux(const row_result *results, int count) {
  for (int i = 0; i < count; i++) {
    if (!strcmp(results[i].platform, "clmux")) return i;
  }
  return -1;
}

static void print_failures(const row_result *results, int count) {
  for (int i = 0; i < count; i++) {
    if (!results[i].ok) {
      printf("  %-10s %s\n", results[i].platform, results[i].why);
    }
  }
}

static void run_generated(void) {
  const char *title = "generated kernels (clmux-kernel-fuzz seeds 7-9)";
  if (!selected(title)) return;
  printf("%s: build + buffers + launch + read back, the %d seeds summed\n",
         title, SEEDS);
  row_result results[bench_max_platforms];
  memset(results, 0, sizeof results);
  int count = bench_each_platform(bench_generated, NULL, results,
                                  sizeof *results, name_failed);
  int clmux = find_clmux(results, count);
  clmux_seen |= clmux >= 0;
  if (clmux >= 0 && !results[clmux].ok) clmux_failed = true;
  printf("  %-5s %9s", "size", "source");
  for (int i = 0; i < count; i++) {
    printf(" %10s ms %8s", results[i].platform, "build");
  }
  printf("\n");
  size_t bytes[SIZES];
  for (int z = 0; z < SIZES; z++) {
    bytes[z] = generated_bytes(sizes[z]);
    printf("  %-5d %6.1f KB", sizes[z], (double)bytes[z] / 1e3);
    for (int i = 0; i < count; i++) {
      if (results[i].ok) {
        printf(" %13.1f %8.1f", results[i].ms[z][0], results[i].ms[z][1]);
      } else {
        printf(" %13s %8s", "-", "-");
      }
    }
    printf("\n");
  }
  print_failures(results, count);
  for (int i = 0; i < count; i++) {
    if (i == clmux || clmux < 0) continue;
    if (!agree(&results[clmux], &results[i], SIZES)) {
      printf("  clmux/%s: no ratio, the outputs differ or one failed\n",
             results[i].platform);
      if (results[clmux].ok && results[i].ok) clmux_failed = true;
      continue;
    }
    printf("  clmux/%-8s", results[i].platform);
    for (int z = 0; z < SIZES; z++) {
      printf(" size %d %.2f", sizes[z],
             results[clmux].ms[z][0] / results[i].ms[z][0]);
    }
    printf("\n");
  }
  /* Growth from the smallest size to the largest, against the source's:
   * a fixed cost per kernel makes a linear JIT grow less than the source. */
  double source_growth = (double)bytes[SIZES - 1] / (double)bytes[0];
  for (int i = 0; i < count; i++) {
    if (!results[i].ok) continue;
    double growth = results[i].ms[SIZES - 1][0] / results[i].ms[0][0];
    printf(
        "  %-10s size %d over size %d: %.1fx the time for %.1fx the "
        "source%s\n",
        results[i].platform, sizes[SIZES - 1], sizes[0], growth, source_growth,
        growth > 1.5 * source_growth ? ": SUPERLINEAR" : "");
  }
}

/* ---- Kernels of installed programs ----------------------------------- */

typedef struct program_row {
  const char *title;
  const char *package; /* the Debian package that installs the source */
  const char *path;
  const char *options;                  /* as the program passes them */
  const char *kernels[MAX_KERNELS + 1]; /* the ones it launches first */
  size_t local[LOCAL_SIZES];            /* the first launch's, a second's */
  /* Its images' format, as the program makes most of them: the code an
   * implementation makes may depend on it. */
  cl_image_format image_format;
} program_row;

/* hashcat 6.2.6 builds its kernels with these options on a CPU device
 * (read from its clCompileProgram calls under `hashcat -b -m 5600`). */
#define HASHCAT_OPTIONS(kern_type)                                         \
  "-D KERNEL_STATIC -D INCLUDE_PATH=/usr/share/hashcat/OpenCL "            \
  "-D XM2S(x)=#x -D M2S(x)=XM2S(x) -D LOCAL_MEM_TYPE=2 "                   \
  "-D VENDOR_ID=2147483648 -D CUDA_ARCH=0 -D HAS_ADD=0 -D HAS_ADDC=0 "     \
  "-D HAS_SUB=0 -D HAS_SUBC=0 -D HAS_VADD=0 -D HAS_VADDC=0 "               \
  "-D HAS_VADD_CO=0 -D HAS_VADDC_CO=0 -D HAS_VSUB=0 -D HAS_VSUBB=0 "       \
  "-D HAS_VSUB_CO=0 -D HAS_VSUBB_CO=0 -D HAS_VPERM=0 -D HAS_VADD3=0 "      \
  "-D HAS_VBFE=0 -D HAS_BFE=0 -D HAS_LOP3=0 -D HAS_MOV64=0 -D HAS_PRMT=0 " \
  "-D VECT_SIZE=16 -D DEVICE_TYPE=2 -D DGST_R0=0 -D DGST_R1=3 "            \
  "-D DGST_R2=2 -D DGST_R3=1 -D DGST_ELEM=4 -D KERN_TYPE=" kern_type       \
  " -D ATTACK_EXEC=11 -D ATTACK_KERN=3 -D ATTACK_MODE=3 -w"

#define NO_IMAGES {CL_R, CL_FLOAT} /* (any format would do) */
#define SILX "/usr/lib/python3/dist-packages/silx/resources/opencl/"
#define DARKTABLE "/usr/share/darktable/kernels/"
/* Its pixels are float4 (some 1-channel buffers are CL_R, taken as these). */
#define DARKTABLE_IMAGES {CL_RGBA, CL_FLOAT}
#define DARKTABLE_OPTIONS \
  "-w -cl-fast-relaxed-math -DUNKNOWN=1 -I/usr/share/darktable/kernels"

static const program_row program_rows[] = {
    {"hashcat -m 5600 (NetNTLMv2), m05600_a3-optimized.cl",
     "hashcat",
     "/usr/share/hashcat/OpenCL/m05600_a3-optimized.cl",
     HASHCAT_OPTIONS("5600"),
     {"m05600_s04", "m05600_m04"},
     {1, 64},
     NO_IMAGES},
    {"hashcat shared.cl",
     "hashcat",
     "/usr/share/hashcat/OpenCL/shared.cl",
     HASHCAT_OPTIONS("5600"),
     {"gpu_bzero", "gpu_atinit", "gpu_memset"},
     {1024, 64},
     NO_IMAGES},
    /* silx's Convolution with textures, a 2D image and a 1D filter. */
    {"silx convolution_textures.cl",
     "python3-silx",
     SILX "convolution_textures.cl",
     "-DUSED_CONV_MODE=1 -DIMAGE_DIMS=2 -DFILTER_DIMS=1",
     {"convol_1D_X_tex", "convol_1D_Y_tex"},
     {64, 16},
     {CL_INTENSITY, CL_FLOAT}}, /* silx.opencl.common.allocate_texture */
    {"silx convolution.cl",
     "python3-silx",
     SILX "convolution.cl",
     "-DUSED_CONV_MODE=1",
     {"convol_1D_X", "convol_2D_XY", "convol_3D_XYZ"},
     {64, 16},
     NO_IMAGES},
    /* darktable 4.2 passes "-w <options> -D<vendor>=1 -I<kernels>";
     * the kernels of its first pipeline, demosaic to output. */
    {"darktable basic.cl",
     "darktable",
     DARKTABLE "basic.cl",
     DARKTABLE_OPTIONS,
     {"rawprepare_1f", "whitebalance_1f", "exposure", "colorin_unbound",
      "colorout", "clip_rotate_bilinear"},
     {64, 16},
     DARKTABLE_IMAGES},
    {"darktable demosaic_ppg.cl",
     "darktable",
     DARKTABLE "demosaic_ppg.cl",
     DARKTABLE_OPTIONS,
     {"ppg_demosaic_green", "ppg_demosaic_redblue", "border_interpolate"},
     {64, 16},
     DARKTABLE_IMAGES},
    {"darktable filmic.cl",
     "darktable",
     DARKTABLE "filmic.cl",
     DARKTABLE_OPTIONS,
     {"filmicrgb_split", "filmicrgb_chroma"},
     {64, 16},
     DARKTABLE_IMAGES},
};

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long length = ftell(f);
    if (length >= 0 && fseek(f, 0, SEEK_SET) == 0) {
      text = calloc(1, (size_t)length + 1);
      if (text && fread(text, 1, (size_t)length, f) != (size_t)length) {
        free(text);
        text = NULL;
      }
    }
  }
  fclose(f);
  return text;
}

enum { ZERO_BYTES = 64 * 1024, LOCAL_BYTES = 4096, IMAGE_SIDE = 8 };

typedef struct zeroed_args {
  cl_mem buffers[64];
  int buffer_count;
  cl_mem images[16];
  int image_count;
  cl_sampler samplers[8];
  int sampler_count;
  cl_image_format image_format;
} zeroed_args;

static cl_mem zeroed_image(const device *d, const char *type,
                           const cl_image_format *format, cl_int *error) {
  static const char *const names[] = {
      "image1d_t",       "image1d_array_t", "image2d_t",
      "image2d_array_t", "image3d_t",
  };
  static const cl_mem_object_type types[] = {
      CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
      CL_MEM_OBJECT_IMAGE3D,
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if (strcmp(type, names[i])) continue;
    cl_image_desc desc = {.image_type = types[i],
                          .image_width = IMAGE_SIDE,
                          .image_height = IMAGE_SIDE,
                          .image_depth = IMAGE_SIDE,
                          .image_array_size = IMAGE_SIDE};
    static const float zeros[4 * IMAGE_SIDE * IMAGE_SIDE * IMAGE_SIDE];
    return clCreateImage(d->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         format, &desc, (void *)zeros, error);
  }
  *error = CL_INVALID_VALUE;
  return NULL;
}

/* The size of a scalar or vector type named as OpenCL C or hashcat's
 * typedefs spell it (uint, float4, u32, u64...); 0 if the name does not
 * say (a struct, a typedef of one). */
static size_t scalar_size(const char *type) {
  static const struct {
    const char *name;
    size_t size;
  } scalars[] = {
      {"char", 1},   {"uchar", 1},        {"bool", 1},  {"short", 2},
      {"ushort", 2}, {"half", 2},         {"int", 4},   {"uint", 4},
      {"float", 4},  {"long", 8},         {"ulong", 8}, {"double", 8},
      {"size_t", 8}, {"u8", 1},           {"u16", 2},   {"u32", 4},
      {"u64", 8},    {"i8", 1},           {"i16", 2},   {"i32", 4},
      {"i64", 8},    {"unsigned int", 4},
  };
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++) {
    size_t length = strlen(scalars[i].name);
    if (strncmp(type, scalars[i].name, length)) continue;
    const char *rest = type + length;
    if (!*rest) return scalars[i].size;
    int lanes = atoi(rest);
    if (lanes == 2 || lanes == 4 || lanes == 8 || lanes == 16) {
      return scalars[i].size * (size_t)lanes;
    }
    if (lanes == 3) return scalars[i].size * 4;
  }
  return 0;
}

/* Sets argument `index` to zeros of its kind; a reason on failure. */
static const char *set_zeroed(const device *d, cl_kernel kernel, cl_uint index,
                              zeroed_args *made) {
  cl_kernel_arg_address_qualifier space = 0;
  char type[128] = "";
  if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                         sizeof space, &space, NULL) != CL_SUCCESS ||
      clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME,
                         sizeof type - 1, type, NULL) != CL_SUCCESS) {
    return "no argument information";
  }
  cl_int error = CL_SUCCESS;
  /* Images before buffers: their address space is reported as global. */
  if (strstr(type, "image")) {
    if (made->image_count == 16) return "more than 16 images";
    cl_mem *image = &made->images[made->image_count];
    *image = zeroed_image(d, type, &made->image_format, &error);
    if (error != CL_SUCCESS) return "an image of this type";
    made->image_count++;
    error = clSetKernelArg(kernel, index, sizeof *image, image);
  } else if (!strcmp(type, "sampler_t")) {
    if (made->sampler_count == 8) return "more than 8 samplers";
    cl_sampler *sampler = &made->samplers[made->sampler_count];
    *sampler = clCreateSampler(d->context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                               CL_FILTER_NEAREST, &error);
    if (error != CL_SUCCESS) return "clCreateSampler failed";
    made->sampler_count++;
    error = clSetKernelArg(kernel, index, sizeof *sampler, sampler);
  } else if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) {
    error = clSetKernelArg(kernel, index, LOCAL_BYTES, NULL);
  } else if (space == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
             space == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
    static const unsigned char zeros[ZERO_BYTES];
    size_t bytes = space == CL_KERNEL_ARG_ADDRESS_CONSTANT ? 4096 : ZERO_BYTES;
    if (made->buffer_count == 64) return "more than 64 buffers";
    cl_mem *buffer = &made->buffers[made->buffer_count];
    *buffer = clCreateBuffer(d->context, CL_MEM_COPY_HOST_PTR, bytes,
                             (void *)zeros, &error);
    if (error != CL_SUCCESS) return "clCreateBuffer failed";
    made->buffer_count++;
    error = clSetKernelArg(kernel, index, sizeof *buffer, buffer);
  } else {
    /* A scalar, vector or struct by value. Its size from its type's
     * name; only where the name does not tell (a struct), the first size
     * the implementation accepts (PoCL accepts any, so a guess there
     * would hand the kernel garbage). */
    static const unsigned char zeros[1024];
    size_t size = scalar_size(type);
    if (size) {
      error = clSetKernelArg(kernel, index, size, zeros);
    } else {
      error = CL_INVALID_ARG_SIZE;
      for (size = 1; size <= sizeof zeros && error == CL_INVALID_ARG_SIZE;
           size++) {
        error = clSetKernelArg(kernel, index, size, zeros);
      }
    }
  }
  if (error == CL_SUCCESS) return NULL;
  static char why[192];
  snprintf(why, sizeof why, "argument %u (%s): clSetKernelArg failed (%d)",
           index, type, error);
  return why;
}

static void release_zeroed(zeroed_args *made) {
  for (int i = 0; i < made->buffer_count; i++) {
    clReleaseMemObject(made->buffers[i]);
  }
  for (int i = 0; i < made->image_count; i++) {
    clReleaseMemObject(made->images[i]);
  }
  for (int i = 0; i < made->sampler_count; i++) {
    clReleaseSampler(made->samplers[i]);
  }
}

/* Launches one kernel at each local size (a work-group each); the bytes
 * of its buffers afterwards go into r->hash[k]. */
static const char *launch_zeroed(const device *d, const program_row *row,
                                 cl_kernel kernel, int k, row_result *r) {
  zeroed_args made = {0};
  made.image_format = row->image_format;
  cl_uint args = 0;
  const char *why = NULL;
  if (clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL) !=
      CL_SUCCESS) {
    why = "clGetKernelInfo failed";
  }
  for (cl_uint a = 0; a < args && !why; a++) {
    why = set_zeroed(d, kernel, a, &made);
  }
  for (int l = 0; l < LOCAL_SIZES && !why; l++) {
    size_t local = row->local[l], global = local;
    double start = now_ms();
    cl_int error = clEnqueueNDRangeKernel(d->queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, NULL);
    if (error == CL_SUCCESS) error = clFinish(d->queue);
    r->ms[k][l] = now_ms() - start;
    if (error != CL_SUCCESS) why = "the launch failed";
  }
  uint64_t hash = fnv_start;
  static unsigned char bytes[ZERO_BYTES];
  for (int b = 0; b < made.buffer_count && !why; b++) {
    size_t size = 0;
    clGetMemObjectInfo(made.buffers[b], CL_MEM_SIZE, sizeof size, &size, NULL);
    if (clEnqueueReadBuffer(d->queue, made.buffers[b], CL_TRUE, 0, size, bytes,
                            0, NULL, NULL) != CL_SUCCESS) {
      why = "reading a buffer back failed";
    }
    hash = fold(hash, bytes, size);
  }
  r->hash[k] = hash;
  release_zeroed(&made);
  return why;
}

static void bench_program(cl_platform_id platform, void *result,
                          void *context) {
  const program_row *row = context;
  row_result *r = result;
  device d;
  if (!open_device(platform, &d, r)) return;
  char *source = read_file(row->path);
  if (!source) {
    snprintf(r->why, sizeof r->why, "cannot read %s", row->path);
    return;
  }
  char options[4096];
  snprintf(options, sizeof options, "%s -cl-kernel-arg-info", row->options);
  cl_int error = CL_SUCCESS;
  const char *text = source;
  double start = now_ms();
  cl_program program =
      clCreateProgramWithSource(d.context, 1, &text, NULL, &error);
  if (error == CL_SUCCESS) {
    error = clBuildProgram(program, 1, &d.id, options, NULL, NULL);
  }
  r->build_ms = now_ms() - start;
  free(source);
  if (error != CL_SUCCESS) {
    char log[160] = "";
    if (program) {
      clGetProgramBuildInfo(program, d.id, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
                            log, NULL);
    }
    char *newline = strchr(log, '\n');
    if (newline) *newline = '\0';
    snprintf(r->why, sizeof r->why, "build failed (%d): %s", error, log);
    return;
  }
  r->total_ms = r->build_ms;
  for (int k = 0; k < MAX_KERNELS && row->kernels[k] && !r->why[0]; k++) {
    double created = now_ms();
    cl_kernel kernel = clCreateKernel(program, row->kernels[k], &error);
    double create_ms = now_ms() - created;
    const char *why = error == CL_SUCCESS ? launch_zeroed(&d, row, kernel, k, r)
                                          : "clCreateKernel failed";
    if (why) {
      snprintf(r->why, sizeof r->why, "%s: %s", row->kernels[k], why);
    }
    r->ms[k][0] += create_ms;
    if (k == 0) r->first_ms = r->build_ms + r->ms[0][0];
    for (int l = 0; l < LOCAL_SIZES; l++) r->total_ms += r->ms[k][l];
    if (kernel) clReleaseKernel(kernel);
  }
  clReleaseProgram(program);
  r->ok = !r->why[0];
}

static void run_program(const program_row *row) {
  if (!selected(row->title)) return;
  printf("%s\n", row->title);
  if (access(row->path, R_OK) != 0) {
    printf("  not installed (apt-get install %s): skipped\n", row->package);
    return;
  }
  row_result results[bench_max_platforms];
  memset(results, 0, sizeof results);
  int count = bench_each_platform(bench_program, (void *)row, results,
                                  sizeof *results, name_failed);
  int kernels = 0;
  while (kernels < MAX_KERNELS && row->kernels[kernels]) kernels++;
  int clmux = find_clmux(results, count);
  clmux_seen |= clmux >= 0;
  if (clmux >= 0 && !results[clmux].ok) clmux_failed = true;
  /* The platforms clmux's ratio is shown against: outputs that agree.
   * Zeroed arguments may leave implementation-defined bytes (a kernel
   * copying uninitialized __local memory), so a difference here is
   * reported, not failed. */
  bool comparable[bench_max_platforms] = {false};
  char first_local[16], second_local[16];
  snprintf(first_local, sizeof first_local, "@%zu", row->local[0]);
  snprintf(second_local, sizeof second_local, "@%zu", row->local[1]);
  printf("  %-22s", "ms");
  for (int i = 0; i < count; i++) {
    if (!results[i].ok) continue;
    printf(" %9s %6s %6s", results[i].platform, first_local, second_local);
  }
  for (int i = 0; i < count; i++) {
    comparable[i] = i != clmux && clmux >= 0 &&
                    agree(&results[clmux], &results[i], kernels);
    if (comparable[i]) printf("  clmux/%-5.5s", results[i].platform);
  }
  printf("\n");
  /* One line per kernel: its launches at the two local sizes (the first
   * includes clCreateKernel); then the build, the first result and the
   * sum of everything. */
  for (int line = -1; line <= kernels + 1; line++) {
    const char *what = line == -1        ? "build"
                       : line == kernels ? "first result"
                       : line > kernels  ? "all"
                                         : row->kernels[line];
    printf("  %-22.22s", what);
    for (int i = 0; i < count; i++) {
      const row_result *r = &results[i];
      if (!r->ok) continue;
      if (line >= 0 && line < kernels) {
        printf(" %9s %6.0f %6.0f", "", r->ms[line][0], r->ms[line][1]);
      } else {
        double ms = line == -1        ? r->build_ms
                    : line == kernels ? r->first_ms
                                      : r->total_ms;
        printf(" %9s %6.0f %6s", "", ms, "");
      }
    }
    for (int i = 0; i < count; i++) {
      if (!comparable[i]) continue;
      const row_result *a = &results[clmux], *b = &results[i];
      if (line >= 0 && line < kernels) {
        printf("  %5.2f %5.2f", a->ms[line][0] / b->ms[line][0],
               a->ms[line][1] / b->ms[line][1]);
      } else {
        double x = line == -1        ? a->build_ms / b->build_ms
                   : line == kernels ? a->first_ms / b->first_ms
                                     : a->total_ms / b->total_ms;
        printf("  %5.2f %5s", x, "");
      }
    }
    printf("\n");
  }
  print_failures(results, count);
  for (int i = 0; i < count; i++) {
    if (i != clmux && clmux >= 0 && results[i].ok && results[clmux].ok &&
        !comparable[i]) {
      printf("  clmux/%s: no ratio, the outputs differ\n", results[i].platform);
    }
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-k") && i + 1 < argc && only_count < MAX_ONLY) {
      only[only_count++] = argv[++i];
    } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
      time_limit = (unsigned)atoi(argv[++i]);
    } else {
      fputs(usage, strcmp(argv[i], "--help") ? stderr : stdout);
      return strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  /* What a first run meets: nothing compiled before. */
  setenv("CLMUX_CACHE", "0", 1);
  setenv("POCL_KERNEL_CACHE", "0", 1);
  printf(
      "clmux-cl-first-bench: time to first result, caches off; a launch "
      "is enqueue to clFinish, one work-group at the local size shown\n");
  run_generated();
  for (size_t i = 0; i < sizeof program_rows / sizeof *program_rows; i++) {
    run_program(&program_rows[i]);
  }
  if (!clmux_seen) printf("no clmux platform ran a row\n");
  return clmux_failed || !clmux_seen ? 1 : 0;
}

/* Kernels compiled from OpenCL C (by clang-19 at build time, bitcode paths
 * in argv: vector_add, saxpy, ids, args, unsupported, vector_types) through
 * cc_codegen_build into containers, loaded and run through the public Mux
 * API at several local sizes, compared with host references. */
#include <math.h>

#include "codegen_test.h"
#include "cpu.h"

static cc_target *target;
static LLVMContextRef context;

enum { count = 1680 }; /* a multiple of 16, 7 and 5 */

static void test_vector_add(LLVMModuleRef module) {
  static float a[count], b[count], c[count];
  for (int i = 0; i < count; i++) {
    a[i] = (float)i * 0.5f - 100.0f;
    b[i] = 3.0f / (float)(i + 1);
  }
  host_buffer ba = host_buffer_create(a, sizeof a);
  host_buffer bb = host_buffer_create(b, sizeof b);
  host_buffer bc = host_buffer_create(NULL, sizeof c);
  mux_descriptor_info_t args[3] = {buffer_arg(&ba), buffer_arg(&bb),
                                   buffer_arg(&bc)};
  /* Specialized (16: whole vectors; 7: a tail only), then generic. */
  const uint32_t built[] = {16, 7, 0, 0};
  const size_t run[] = {16, 7, 16, 5};
  for (int t = 0; t < 4; t++) {
    mux_executable_t executable =
        build_executable_1d(target, module, "vector_add", built[t]);
    if (!executable) continue;
    mux_kernel_t kernel = create_kernel(executable, "vector_add");
    if (built[t]) {
      CHECK_INT(built[t], kernel->preferred_local_size_x);
      /* Code for one local size refuses another. */
      CHECK_RESULT(mux_error_invalid_value,
                   run_1d(kernel, args, 3, count, built[t] == 16 ? 8 : 14));
    }
    memset(c, 0, sizeof c);
    host_buffer_write(&bc, c);
    CHECK_SUCCESS(run_1d(kernel, args, 3, count, run[t]));
    host_buffer_read(&bc, c);
    int wrong = 0;
    for (int i = 0; i < count; i++) wrong += c[i] != a[i] + b[i];
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
}

static void test_saxpy(LLVMModuleRef module) {
  static float x[count], y[count], out[count];
  for (int i = 0; i < count; i++) {
    x[i] = (float)((i * 37) % 101) - 50.0f;
    y[i] = (float)i * 0.125f;
  }
  float a = 2.5f;
  uint32_t n = count - 13; /* the last items must leave y alone */
  const uint32_t built[] = {48, 0};
  const size_t run[] = {48, 24};
  for (int t = 0; t < 2; t++) {
    host_buffer bx = host_buffer_create(x, sizeof x);
    host_buffer by = host_buffer_create(y, sizeof y);
    mux_descriptor_info_t args[4] = {value_arg(&a, sizeof a), buffer_arg(&bx),
                                     buffer_arg(&by), value_arg(&n, sizeof n)};
    mux_executable_t executable =
        build_executable_1d(target, module, "saxpy", built[t]);
    if (executable) {
      mux_kernel_t kernel = create_kernel(executable, "saxpy");
      CHECK_SUCCESS(run_1d(kernel, args, 4, count, run[t]));
      host_buffer_read(&by, out);
      int wrong = 0;
      for (uint32_t i = 0; i < count; i++) {
        float expected = i >= n        ? y[i]
                         : x[i] > 0.0f ? a * x[i] + y[i]
                                       : y[i] - x[i];
        wrong += fabsf(out[i] - expected) > 1e-5f * fabsf(expected);
      }
      CHECK_INT(0, wrong);
      muxDestroyKernel(device, kernel, mux_test_allocator);
      muxDestroyExecutable(device, executable, mux_test_allocator);
    }
    host_buffer_destroy(&bx);
    host_buffer_destroy(&by);
  }
}

#define FIELDS 25

/* Every work-item of the NDRange ran once and saw the right ids. */
static void check_ids(const uint32_t *records, const uint32_t *counts,
                      size_t dims, const size_t global[3],
                      const size_t offset[3], const size_t local[3],
                      uint32_t probe) {
  size_t total = global[0] * global[1] * global[2];
  int wrong_counts = 0, wrong_records = 0;
  for (size_t linear = 0; linear < total; linear++) {
    size_t g[3] = {linear % global[0], linear / global[0] % global[1],
                   linear / global[0] / global[1]};
    wrong_counts += counts[linear] != 1;
    const uint32_t *r = records + linear * FIELDS;
    uint32_t expected[FIELDS];
    for (int d = 0; d < 3; d++) {
      expected[0 + d] = (uint32_t)(g[d] + offset[d]);
      expected[3 + d] = (uint32_t)(g[d] % local[d]);
      expected[6 + d] = (uint32_t)(g[d] / local[d]);
      expected[9 + d] = (uint32_t)global[d];
      expected[12 + d] = (uint32_t)local[d];
      expected[15 + d] = (uint32_t)(global[d] / local[d]);
      expected[18 + d] = (uint32_t)offset[d];
    }
    expected[21] = (uint32_t)dims;
    bool in_range = probe < 3;
    expected[22] = in_range ? (uint32_t)global[probe] : 1;
    expected[23] = in_range ? expected[probe] : 0;
    expected[24] =
        in_range ? (uint32_t)(local[probe] * 100 + global[probe] / local[probe])
                 : 101;
    if (memcmp(r, expected, sizeof expected) != 0) {
      if (wrong_records == 0) {
        fprintf(stderr, "ids: item %zu:", linear);
        for (int f = 0; f < FIELDS; f++) {
          fprintf(stderr, " %u/%u", r[f], expected[f]);
        }
        fprintf(stderr, "\n");
      }
      wrong_records++;
    }
  }
  CHECK_INT(0, wrong_counts);
  CHECK_INT(0, wrong_records);
}

/* An NDRange of `name(records, counts, extra)`, `fields` records per item:
 * fills *records and *counts (malloc'd) and *merges (whether the kernel
 * runs rows of groups as one call); false if it did not build. */
typedef struct recording {
  uint32_t *records, *counts;
  bool merges;
} recording;

static bool run_recording(LLVMModuleRef module, const char *name,
                          size_t fields, mux_descriptor_info_t extra,
                          size_t dims, const size_t global[3],
                          const size_t offset[3], const size_t local[3],
                          bool specialize, recording *out) {
  size_t total = global[0] * global[1] * global[2];
  host_buffer records = host_buffer_create(NULL, total * fields * 4);
  host_buffer counts = host_buffer_create(NULL, total * 4);
  mux_descriptor_info_t args[3] = {buffer_arg(&records), buffer_arg(&counts),
                                   extra};
  cc_kernel_request request = {name, {0, 0, 0}, false, NULL, false, {0, 0, 0}};
  if (specialize) {
    for (int d = 0; d < 3; d++) request.local_size[d] = (uint32_t)local[d];
  }
  mux_executable_t executable = build_executable(target, module, &request, 1);
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, name);
    out->merges = ((cpu_kernel *)kernel)->merges_groups;
    CHECK_SUCCESS(run_ndrange(kernel, args, 3, dims, global, offset, local));
    out->records = malloc(records.size);
    out->counts = malloc(counts.size);
    REQUIRE(out->records && out->counts);
    host_buffer_read(&records, out->records);
    host_buffer_read(&counts, out->counts);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&records);
  host_buffer_destroy(&counts);
  return executable != NULL;
}

/* ids asks for local and group ids: it must run group by group. */
static void run_ids(LLVMModuleRef module, size_t dims, const size_t global[3],
                    const size_t offset[3], const size_t local[3],
                    bool specialize, uint32_t probe) {
  recording run;
  if (run_recording(module, "ids", FIELDS, value_arg(&probe, sizeof probe),
                    dims, global, offset, local, specialize, &run)) {
    CHECK(!run.merges);
    check_ids(run.records, run.counts, dims, global, offset, local, probe);
    free(run.records);
    free(run.counts);
  }
}

static void test_merged_groups(LLVMModuleRef module);

static void test_ids(LLVMModuleRef module) {
  test_merged_groups(module);
  const size_t global_1d[3] = {40, 1, 1}, offset_1d[3] = {7, 0, 0},
               local_1d[3] = {8, 1, 1};
  run_ids(module, 1, global_1d, offset_1d, local_1d, true, 0);
  const size_t global_2d[3] = {12, 10, 1}, offset_2d[3] = {3, 5, 0},
               local_2d[3] = {4, 5, 1};
  run_ids(module, 2, global_2d, offset_2d, local_2d, true, 1);
  run_ids(module, 2, global_2d, offset_2d, local_2d, false, 7);
  const size_t global_3d[3] = {8, 6, 4}, offset_3d[3] = {1, 2, 3},
               local_3d[3] = {2, 3, 2}, other_3d[3] = {4, 2, 4};
  run_ids(module, 3, global_3d, offset_3d, local_3d, true, 2);
  run_ids(module, 3, global_3d, offset_3d, other_3d, false, 5);
  run_ids(module, 3, global_3d, offset_3d, other_3d, true, 0);
}

/* global_ids at `local` (specialized or not): runs rows of groups as one
 * call, and each item runs exactly once with its global ids. */
static void run_global_ids(LLVMModuleRef module, size_t dims,
                           const size_t global[3], const size_t offset[3],
                           const size_t local[3], bool specialize) {
  uint32_t offset_arg[4] = {(uint32_t)offset[0], (uint32_t)offset[1],
                            (uint32_t)offset[2], 0};
  recording run;
  if (!run_recording(module, "global_ids", 4,
                     value_arg(offset_arg, sizeof offset_arg), dims, global,
                     offset, local, specialize, &run)) {
    return;
  }
  CHECK(run.merges);
  const uint32_t *r = run.records, *c = run.counts;
  int wrong = 0;
  for (size_t linear = 0; linear < global[0] * global[1] * global[2];
       linear++) {
    size_t g[3] = {linear % global[0], linear / global[0] % global[1],
                   linear / global[0] / global[1]};
    bool right = c[linear] == 1 && r[4 * linear + 3] == dims;
    for (int d = 0; d < 3; d++) {
      right = right && r[4 * linear + d] == g[d] + offset[d];
    }
    if (!right && wrong++ == 0) {
      fprintf(stderr, "global_ids: item %zu counted %u, ids %u %u %u\n",
              linear, c[linear], r[4 * linear], r[4 * linear + 1],
              r[4 * linear + 2]);
    }
  }
  CHECK_INT(0, wrong);
  free(run.records);
  free(run.counts);
}

/* Groups narrower than a vector, odd counts of them, offsets, rows in 2D
 * and 3D. */
static void test_merged_groups(LLVMModuleRef module) {
  const size_t global_1d[3] = {2 * 4099, 1, 1}, offset_1d[3] = {5, 0, 0},
               local_1d[3] = {2, 1, 1};
  run_global_ids(module, 1, global_1d, offset_1d, local_1d, true);
  run_global_ids(module, 1, global_1d, offset_1d, local_1d, false);
  const size_t global_2d[3] = {21, 10, 1}, offset_2d[3] = {3, 5, 0},
               local_2d[3] = {3, 5, 1};
  run_global_ids(module, 2, global_2d, offset_2d, local_2d, true);
  const size_t global_3d[3] = {40, 6, 4}, offset_3d[3] = {1, 2, 3},
               local_3d[3] = {8, 3, 2};
  run_global_ids(module, 3, global_3d, offset_3d, local_3d, true);
  run_global_ids(module, 3, global_3d, offset_3d, local_3d, false);
}

/* The host's image of the kernel's by-value struct (same x86-64 layout). */
typedef struct params {
  int32_t a;
  float b;
  int8_t c;
  int64_t d;
} params;

static float pick(float x, float y) { return x > y ? x - y : y * 2.0f; }

static void test_args(LLVMModuleRef module) {
  enum { items = 96 };
  static float in[items], out[items];
  for (int i = 0; i < items; i++) in[i] = (float)(i % 13) - 4.0f;
  params p = {1000, 1.5f, -3, 1000000};
  float v4[4] = {0.5f, 2.0f, -1.0f, 8.0f};
  float v3[4] = {0.25f, 6.0f, 3.0f, 99.0f}; /* a float3 takes 16 bytes */
  uint8_t c = 200;
  int16_t s = -1234;
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  host_buffer bin = host_buffer_create(in, sizeof in);
  mux_descriptor_info_t args[7] = {
      buffer_arg(&bout),        value_arg(&p, sizeof p),
      value_arg(v4, sizeof v4), value_arg(v3, sizeof v3),
      value_arg(&c, sizeof c),  buffer_arg(&bin),
      value_arg(&s, sizeof s)};
  const uint32_t built[] = {32, 0};
  for (int t = 0; t < 2; t++) {
    mux_executable_t executable =
        build_executable_1d(target, module, "args", built[t]);
    if (!executable) continue;
    mux_kernel_t kernel = create_kernel(executable, "args");
    CHECK_SUCCESS(run_1d(kernel, args, 7, items, 32));
    host_buffer_read(&bout, out);
    int wrong = 0;
    for (int i = 0; i < items; i++) {
      float expected = pick(in[i], p.b) + v4[1] * v3[2] + v4[3] + v3[0] +
                       (float)c + (float)(p.a + i) + (float)p.d + (float)s +
                       (float)p.c + 2.0f * in[i];
      if (fabsf(out[i] - expected) > 1e-6f * fabsf(expected)) {
        if (!wrong)
          fprintf(stderr, "args[%d]: %g, expected %g\n", i, (double)out[i],
                  (double)expected);
        wrong++;
      }
    }
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  /* Private arrays indexed at run time, at a vector-friendly size. */
  static int32_t ints[count], results[count];
  for (int i = 0; i < count; i++) ints[i] = i * 5 - 77;
  host_buffer bi = host_buffer_create(ints, sizeof ints);
  host_buffer bo = host_buffer_create(NULL, sizeof results);
  mux_descriptor_info_t array_args[2] = {buffer_arg(&bi), buffer_arg(&bo)};
  cc_kernel_request request = {"private_array", {16, 1, 1}, false, NULL, false, {0, 0, 0}};
  mux_executable_t executable = build_executable(target, module, &request, 1);
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, "private_array");
    CHECK_SUCCESS(run_1d(kernel, array_args, 2, count, 16));
    host_buffer_read(&bo, results);
    int wrong = 0;
    for (int i = 0; i < count; i++) {
      wrong += results[i] != ints[i] + (ints[i] & 7);
    }
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&bi);
  host_buffer_destroy(&bo);

  /* A kernel calling a kernel. */
  static float values[count], updated[count];
  for (int i = 0; i < count; i++) values[i] = (float)i;
  host_buffer bv = host_buffer_create(values, sizeof values);
  mux_descriptor_info_t one_arg = buffer_arg(&bv);
  request = (cc_kernel_request){"add_one_times_three", {0, 0, 0}, false, NULL, false, {0, 0, 0}};
  executable = build_executable(target, module, &request, 1);
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, "add_one_times_three");
    CHECK_SUCCESS(run_1d(kernel, &one_arg, 1, count, 20));
    host_buffer_read(&bv, updated);
    int wrong = 0;
    for (int i = 0; i < count; i++) wrong += updated[i] != (values[i] + 1) * 3;
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&bv);

  /* __constant data and an early return; ints[] from above. */
  const float table[4] = {0.5f, -1.0f, 8.0f, 3.25f};
  int32_t limit = 4000;
  for (int i = 0; i < count; i++) values[i] = -7.0f;
  host_buffer bin_ints = host_buffer_create(ints, sizeof ints);
  host_buffer bfloats = host_buffer_create(values, sizeof values);
  mux_descriptor_info_t lookup_args[3] = {buffer_arg(&bin_ints),
                                          buffer_arg(&bfloats),
                                          value_arg(&limit, sizeof limit)};
  request = (cc_kernel_request){"lookup", {48, 1, 1}, false, NULL, false, {0, 0, 0}};
  executable = build_executable(target, module, &request, 1);
  if (executable) {
    mux_kernel_t kernel = create_kernel(executable, "lookup");
    CHECK_SUCCESS(run_1d(kernel, lookup_args, 3, count, 48));
    host_buffer_read(&bfloats, updated);
    int wrong = 0;
    for (int i = 0; i < count; i++) {
      float expected = ints[i] > limit ? -7.0f : table[ints[i] & 3];
      wrong += updated[i] != expected;
    }
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&bin_ints);
  host_buffer_destroy(&bfloats);
  host_buffer_destroy(&bout);
  host_buffer_destroy(&bin);
}

/* Three kernels in one container: a local-pointer argument, a kernel with
 * reqd_work_group_size (built "generic", it specializes to 8x2x1), and
 * mem_fence. */
static void test_several_kernels(LLVMModuleRef module) {
  enum { width = 32, height = 4, items = width * height };
  cc_kernel_request requests[3] = {{"local_arg", {0, 0, 0}, false, NULL, false, {0, 0, 0}},
                                   {"fixed", {0, 0, 0}, false, NULL, false, {0, 0, 0}},
                                   {"fine", {16, 1, 1}, false, NULL, false, {0, 0, 0}}};
  mux_executable_t executable = build_executable(target, module, requests, 3);
  if (!executable) return;
  int32_t out[items];
  host_buffer bout = host_buffer_create(NULL, sizeof out);

  mux_kernel_t local_arg = create_kernel(executable, "local_arg");
  mux_descriptor_info_t args[2] = {buffer_arg(&bout), buffer_arg(&bout)};
  args[1].type = mux_descriptor_info_type_shared_local_buffer;
  args[1].shared_local_buffer_descriptor.size = 16 * sizeof(int32_t);
  CHECK_SUCCESS(run_1d(local_arg, args, 2, items, 16));
  host_buffer_read(&bout, out);
  int wrong = 0;
  for (int i = 0; i < items; i++) wrong += out[i] != 3 * i;
  CHECK_INT(0, wrong);
  muxDestroyKernel(device, local_arg, mux_test_allocator);

  mux_kernel_t fixed = create_kernel(executable, "fixed");
  CHECK(fixed->preferred_local_size_x == 8 &&
        fixed->preferred_local_size_y == 2 &&
        fixed->preferred_local_size_z == 1);
  size_t global[2] = {width, height}, offset[2] = {0, 0};
  size_t local[3] = {8, 2, 1}, wrong_local[3] = {4, 4, 1};
  CHECK_SUCCESS(run_ndrange(fixed, args, 1, 2, global, offset, local));
  host_buffer_read(&bout, out);
  wrong = 0;
  for (int i = 0; i < items; i++) wrong += out[i] != 82;
  CHECK_INT(0, wrong);
  CHECK_RESULT(mux_error_invalid_value,
               run_ndrange(fixed, args, 1, 2, global, offset, wrong_local));
  muxDestroyKernel(device, fixed, mux_test_allocator);

  mux_kernel_t fine = create_kernel(executable, "fine");
  CHECK_SUCCESS(run_1d(fine, args, 1, items, 16));
  host_buffer_read(&bout, out);
  wrong = 0;
  for (int i = 0; i < items; i++) wrong += out[i] != 3;
  CHECK_INT(0, wrong);
  muxDestroyKernel(device, fine, mux_test_allocator);
  host_buffer_destroy(&bout);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

/* Complex products on float2, split into floats by codegen: each
 * component must land where it belongs, at a specialized and a generic
 * local size (with a tail). */
static void test_complex_mul(LLVMModuleRef module) {
  static float a[2 * count], b[2 * count], c[2 * count];
  for (int i = 0; i < 2 * count; i++) {
    a[i] = (float)(i % 97) * 0.25f - 12.0f;
    b[i] = (float)((i * 13) % 89) * 0.5f - 20.0f;
  }
  host_buffer ba = host_buffer_create(a, sizeof a);
  host_buffer bb = host_buffer_create(b, sizeof b);
  host_buffer bc = host_buffer_create(NULL, sizeof c);
  mux_descriptor_info_t args[3] = {buffer_arg(&ba), buffer_arg(&bb),
                                   buffer_arg(&bc)};
  const uint32_t built[] = {48, 0};
  const size_t run[] = {48, 21};
  for (int t = 0; t < 2; t++) {
    mux_executable_t executable =
        build_executable_1d(target, module, "complex_mul", built[t]);
    if (!executable) continue;
    mux_kernel_t kernel = create_kernel(executable, "complex_mul");
    memset(c, 0, sizeof c);
    host_buffer_write(&bc, c);
    CHECK_SUCCESS(run_1d(kernel, args, 3, count, run[t]));
    host_buffer_read(&bc, c);
    int wrong = 0;
    for (int i = 0; i < count; i++) {
      float re = a[2 * i] * b[2 * i] - a[2 * i + 1] * b[2 * i + 1];
      float im = a[2 * i] * b[2 * i + 1] + a[2 * i + 1] * b[2 * i];
      wrong += fabsf(c[2 * i] - re) > 1e-4f * (1.0f + fabsf(re)) ||
               fabsf(c[2 * i + 1] - im) > 1e-4f * (1.0f + fabsf(im));
    }
    CHECK_INT(0, wrong);
    muxDestroyKernel(device, kernel, mux_test_allocator);
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr,
            "usage: %s vector_add.bc saxpy.bc ids.bc args.bc "
            "unsupported.bc vector_types.bc\n",
            argv[0]);
    return 1;
  }
  cc_log log = {""};
  if (cc_target_create_host(&target, &log) != cc_success) {
    fprintf(stderr, "%s\n", log.text);
    return 1;
  }
  codegen_test_start();
  context = LLVMContextCreate();
  void (*tests[6])(LLVMModuleRef) = {test_vector_add,  test_saxpy,
                                     test_ids,         test_args,
                                     test_several_kernels, test_complex_mul};
  for (int t = 0; t < 6; t++) {
    LLVMModuleRef module = load_bitcode(context, argv[1 + t]);
    tests[t](module);
    LLVMDisposeModule(module);
  }
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

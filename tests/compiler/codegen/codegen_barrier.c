/* Kernels with barriers and __local memory (kernels/barrier.cl, bitcode
 * path in argv) built by cc_codegen_build, both specialized to a local
 * size and generic (local size 0), run through the public Mux API at 1D,
 * 2D and 3D local sizes (odd ones too) and compared with host references
 * computed here. Generic code is built once per kernel and run at every
 * local size. */
#include <clmux/cpu_abi/binary_format.h>
#include <math.h>
#include <stdbool.h>

#include "codegen_test.h"

static cc_target *target;
static LLVMModuleRef module;

/* A kernel built for `built` (all 0: generic), or NULL (reported). */
typedef struct built_kernel {
  mux_executable_t executable;
  mux_kernel_t kernel;
  bool generic; /* kept in `generics` for every local size */
} built_kernel;

enum { max_generics = 16 };
static struct {
  const char *name;
  built_kernel kernel;
} generics[max_generics];

static built_kernel build(const char *name, const uint32_t built[3]) {
  bool generic = !built[0] && !built[1] && !built[2];
  int free_entry = -1;
  for (int g = 0; generic && g < max_generics; g++) {
    if (generics[g].name && strcmp(generics[g].name, name) == 0) {
      return generics[g].kernel;
    }
    if (!generics[g].name && free_entry < 0) free_entry = g;
  }
  cc_kernel_request request = {
      name, {built[0], built[1], built[2]}, false, NULL, false, {0, 0, 0}};
  built_kernel k = {build_executable(target, module, &request, 1), NULL,
                    generic};
  if (k.executable) k.kernel = create_kernel(k.executable, name);
  if (!k.executable) fprintf(stderr, "  (kernel %s)\n", name);
  if (generic && free_entry >= 0) {
    generics[free_entry].name = name;
    generics[free_entry].kernel = k;
  }
  return k;
}

static void destroy(built_kernel *k) {
  if (k->kernel) muxDestroyKernel(device, k->kernel, mux_test_allocator);
  if (k->executable) {
    muxDestroyExecutable(device, k->executable, mux_test_allocator);
  }
}

/* Generic kernels stay for the next local size. */
static void release(built_kernel *k) {
  if (!k->generic) destroy(k);
}

static mux_descriptor_info_t local_arg(size_t size) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_shared_local_buffer;
  descriptor.shared_local_buffer_descriptor.size = size;
  return descriptor;
}

/* Both ways of building for one local size: specialized, then generic. */
static const uint32_t *way(int generic, const uint32_t local[3]) {
  static const uint32_t zero[3] = {0, 0, 0};
  return generic ? zero : local;
}

static void report(const char *name, const uint32_t local[3], int generic,
                   int wrong) {
  if (wrong) {
    fprintf(stderr, "%s, local %ux%ux%u %s: %d wrong\n", name, local[0],
            local[1], local[2], generic ? "generic" : "specialized", wrong);
  }
  CHECK_INT(0, wrong);
}

static void test_reductions(void) {
  enum { count = 4096 };
  static float in[count], out[count];
  for (int i = 0; i < count; i++) in[i] = (float)((i * 7) % 13 - 6);
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  const uint32_t sizes[] = {64, 256, 16, 1};
  const char *names[] = {"reduce_sum", "reduce_static"};
  for (int k = 0; k < 2; k++) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      for (int generic = 0; generic < 2; generic++) {
        uint32_t local[3] = {sizes[s], 1, 1};
        built_kernel b = build(names[k], way(generic, local));
        if (!b.kernel) continue;
        mux_descriptor_info_t args[3] = {buffer_arg(&bin), buffer_arg(&bout),
                                         local_arg(sizes[s] * sizeof(float))};
        CHECK_SUCCESS(run_1d(b.kernel, args, k == 0 ? 3 : 2, count, sizes[s]));
        host_buffer_read(&bout, out);
        int wrong = 0;
        for (uint32_t g = 0; g < count / sizes[s]; g++) {
          float sum = 0.0f;
          for (uint32_t i = 0; i < sizes[s]; i++) sum += in[g * sizes[s] + i];
          wrong += out[g] != sum;
        }
        report(names[k], local, generic, wrong);
        release(&b);
      }
    }
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

static void test_scan(void) {
  enum { count = 7 * 13 * 64 };
  static int32_t in[count], out[count];
  for (int i = 0; i < count; i++) in[i] = (i * 31) % 17 - 8;
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  const uint32_t sizes[] = {64, 7, 13, 1};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel b = build("scan_inclusive", way(generic, local));
      if (!b.kernel) continue;
      mux_descriptor_info_t args[3] = {buffer_arg(&bin), buffer_arg(&bout),
                                       local_arg(sizes[s] * sizeof(int32_t))};
      CHECK_SUCCESS(run_1d(b.kernel, args, 3, count, sizes[s]));
      host_buffer_read(&bout, out);
      int wrong = 0, sum = 0;
      for (int i = 0; i < count; i++) {
        if (i % sizes[s] == 0) sum = 0;
        sum += in[i];
        wrong += out[i] != sum;
      }
      report("scan_inclusive", local, generic, wrong);
      release(&b);
    }
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

static void test_matmul(void) {
  enum { n = 64 };
  static float a[n * n], b[n * n], c[n * n];
  for (int i = 0; i < n * n; i++) {
    a[i] = (float)((i * 5) % 11 - 5);
    b[i] = (float)((i * 3) % 7 - 3);
  }
  host_buffer ba = host_buffer_create(a, sizeof a);
  host_buffer bb = host_buffer_create(b, sizeof b);
  host_buffer bc = host_buffer_create(NULL, sizeof c);
  int32_t size = n;
  for (int generic = 0; generic < 2; generic++) {
    uint32_t local[3] = {16, 16, 1};
    built_kernel k = build("matmul_tiled", way(generic, local));
    if (!k.kernel) continue;
    mux_descriptor_info_t args[4] = {buffer_arg(&ba), buffer_arg(&bb),
                                     buffer_arg(&bc),
                                     value_arg(&size, sizeof size)};
    size_t global[2] = {n, n}, offset[2] = {0, 0}, locals[3] = {16, 16, 1};
    CHECK_SUCCESS(run_ndrange(k.kernel, args, 4, 2, global, offset, locals));
    host_buffer_read(&bc, c);
    int wrong = 0;
    for (int row = 0; row < n; row++) {
      for (int col = 0; col < n; col++) {
        float sum = 0.0f;
        for (int i = 0; i < n; i++) sum += a[row * n + i] * b[i * n + col];
        wrong += c[row * n + col] != sum;
      }
    }
    report("matmul_tiled", local, generic, wrong);
    release(&k);
  }
  host_buffer_destroy(&ba);
  host_buffer_destroy(&bb);
  host_buffer_destroy(&bc);
}

static void test_transpose(void) {
  enum { width = 112, height = 48 };
  static float in[width * height], out[width * height];
  for (int i = 0; i < width * height; i++) in[i] = (float)i;
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  int32_t dims[2] = {width, height};
  const uint32_t sizes[][3] = {{16, 16, 1}, {7, 3, 1}, {4, 6, 1}, {1, 1, 1}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      built_kernel k = build("transpose", way(generic, sizes[s]));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[4] = {buffer_arg(&bin), buffer_arg(&bout),
                                       value_arg(&dims[0], 4),
                                       value_arg(&dims[1], 4)};
      size_t global[2] = {width, height}, offset[2] = {0, 0};
      size_t locals[3] = {sizes[s][0], sizes[s][1], 1};
      memset(out, 0, sizeof out);
      host_buffer_write(&bout, out);
      CHECK_SUCCESS(run_ndrange(k.kernel, args, 4, 2, global, offset, locals));
      host_buffer_read(&bout, out);
      int wrong = 0;
      for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
          wrong += out[x * height + y] != in[y * width + x];
        }
      }
      report("transpose", sizes[s], generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

static void test_nested(void) {
  enum { count = 640 }; /* a multiple of 64, 10 and 1 */
  static int32_t out[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  int32_t outer = 3, inner = 2, flag = 2;
  const uint32_t sizes[] = {64, 10, 1};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("nested", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[4] = {
          buffer_arg(&bout), value_arg(&outer, 4), value_arg(&inner, 4),
          value_arg(&flag, 4)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 4, count, sizes[s]));
      host_buffer_read(&bout, out);
      int n = (int)sizes[s], acc[64], old[64];
      memset(acc, 0, sizeof acc);
      for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner; j++) {
          for (int l = 0; l < n; l++) acc[l] += ((l + 1) % n) * i + j;
        }
        if (flag > i) {
          memcpy(old, acc, sizeof acc);
          for (int l = 0; l < n; l++) acc[l] += old[n - 1 - l] * 3;
        }
      }
      int wrong = 0;
      for (int i = 0; i < count; i++) wrong += out[i] != acc[i % n];
      report("nested", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

static void test_private_live(void) {
  enum { count = 560 }; /* a multiple of 16, 7 and 5 */
  static int32_t out[count];
  static float fout[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  host_buffer bfout = host_buffer_create(NULL, sizeof fout);
  const uint32_t sizes[] = {16, 7, 5};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("private_live", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[3] = {buffer_arg(&bout), buffer_arg(&bfout),
                                       local_arg(sizes[s] * 4)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 3, count, sizes[s]));
      host_buffer_read(&bout, out);
      host_buffer_read(&bfout, fout);
      int n = (int)sizes[s], wrong = 0;
      for (int gid = 0; gid < count; gid++) {
        int lid = gid % n, base = gid - lid;
        int sum_gid = base + (lid + 1) % n; /* whose priv[] gave sum */
        int sum = sum_gid * (((lid + 1) % n) % 5 + 1) + ((lid + 1) % n) % 5;
        /* the mirrored item's second shared value */
        int m = n - 1 - lid, m_gid = base + m;
        int m_next = base + (m + 1) % n;
        int m_sum = m_next * (((m + 1) % n) % 5 + 1) + ((m + 1) % n) % 5;
        int m_value = m_gid * 5 + 4 + m_sum + 2 * m_gid + 7;
        int expected = m_value + (gid + sum) + (gid * 3 + 2 + sum);
        wrong += out[gid] != expected;
        wrong += fout[gid] != (float)gid + 7.0f;
      }
      report("private_live", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
  host_buffer_destroy(&bfout);
}

static void test_locals_mixed(void) {
  enum { count = 384 }; /* a multiple of 64 and 12 */
  static int32_t out[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  const uint32_t sizes[] = {64, 12, 3};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("locals_mixed", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[2] = {buffer_arg(&bout),
                                       local_arg(sizes[s] * 4)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 2, count, sizes[s]));
      host_buffer_read(&bout, out);
      int n = (int)sizes[s], wrong = 0;
      for (int gid = 0; gid < count; gid++) {
        int lid = gid % n;
        int expected = lid % 3 + 1 + (n - 1 - lid) + ((lid + 1) % n) * 3 +
                       2 * (n - 1 - lid) + 2 * (n - 1);
        wrong += out[gid] != expected;
      }
      report("locals_mixed", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

static void test_mirror3d(void) {
  const uint32_t sizes[][3] = {{7, 3, 2}, {4, 4, 4}, {1, 5, 3}};
  const size_t globals[][3] = {{14, 6, 4}, {8, 8, 8}, {3, 10, 6}};
  static int32_t out[8 * 8 * 8];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      built_kernel k = build("mirror3d", way(generic, sizes[s]));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[1] = {buffer_arg(&bout)};
      size_t offset[3] = {0, 0, 0};
      size_t locals[3] = {sizes[s][0], sizes[s][1], sizes[s][2]};
      CHECK_SUCCESS(
          run_ndrange(k.kernel, args, 1, 3, globals[s], offset, locals));
      host_buffer_read(&bout, out);
      const size_t *g = globals[s];
      size_t items = locals[0] * locals[1] * locals[2];
      size_t groups[3] = {g[0] / locals[0], g[1] / locals[1], g[2] / locals[2]};
      int wrong = 0;
      for (size_t z = 0; z < g[2]; z++) {
        for (size_t y = 0; y < g[1]; y++) {
          for (size_t x = 0; x < g[0]; x++) {
            size_t linear = x % locals[0] +
                            locals[0] * (y % locals[1] +
                                         locals[1] * (z % locals[2]));
            size_t group = x / locals[0] +
                           groups[0] * (y / locals[1] +
                                        groups[1] * (z / locals[2]));
            int expected = (int)(group * 1000 + items - 1 - linear);
            wrong += out[x + g[0] * (y + g[1] * z)] != expected;
          }
        }
      }
      report("mirror3d", sizes[s], generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

static void test_features(void) {
  enum { count = 96 }; /* a multiple of 16 and 6 */
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  static int32_t out[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  /* struct params { int scale; float bias; char tag; int4 extra; } */
  uint8_t params[32];
  memset(params, 0, sizeof params);
  int32_t scale = 3, extra[4] = {0, 0, 0, 40};
  float bias = 5.75f;
  int8_t tag = 11;
  memcpy(params, &scale, 4);
  memcpy(params + 4, &bias, 4);
  memcpy(params + 8, &tag, 1);
  memcpy(params + 16, extra, 16);
  int32_t v[4] = {100, 30, 7, 0};
  const uint32_t sizes[] = {16, 6};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("features", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[4] = {
          buffer_arg(&bout), value_arg(params, sizeof params),
          value_arg(v, sizeof v), local_arg(sizes[s] * 4)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 4, count, sizes[s]));
      host_buffer_read(&bout, out);
      int n = (int)sizes[s], wrong = 0, values[count];
      for (int gid = 0; gid < count; gid++) {
        values[gid] = table[gid & 7] + scale * (gid % n) + tag + v[2];
      }
      for (int gid = 0; gid < count; gid++) {
        int lid = gid % n, base = gid - lid;
        int expected = (values[gid] + 1) * 2 + values[base + (lid + 1) % n] +
                       1 + v[0] - v[1] + extra[3] + (int)bias;
        wrong += out[gid] != expected;
      }
      report("features", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

static void test_divergent(void) {
  enum { count = 96 }; /* a multiple of 16, 12 and 1 */
  static int32_t out[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  const uint32_t sizes[] = {16, 12, 1};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("divergent", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[1] = {buffer_arg(&bout)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 1, count, sizes[s]));
      host_buffer_read(&bout, out);
      int n = (int)sizes[s], wrong = 0;
      for (int gid = 0; gid < count; gid++) {
        int lid = gid % n, group = gid / n;
        int expected = (lid < 3 ? 5 : 0) + lid * 100 + 2 * lid * 1000 +
                       (lid & 1 ? 7 : 9) * 10000 + group * 3 * 100000 +
                       (lid == 0 ? 6 : 5);
        wrong += out[gid] != expected;
      }
      report("divergent", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

static void test_helper_twice(void) {
  enum { count = 120 }; /* a multiple of 8, 5 and 1 */
  static int32_t out[count];
  host_buffer bout = host_buffer_create(NULL, sizeof out);
  const uint32_t sizes[] = {8, 5, 1};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int generic = 0; generic < 2; generic++) {
      uint32_t local[3] = {sizes[s], 1, 1};
      built_kernel k = build("helper_twice", way(generic, local));
      if (!k.kernel) continue;
      mux_descriptor_info_t args[2] = {buffer_arg(&bout),
                                       local_arg(sizes[s] * 4)};
      CHECK_SUCCESS(run_1d(k.kernel, args, 2, count, sizes[s]));
      host_buffer_read(&bout, out);
      int n = (int)sizes[s], wrong = 0;
      for (int gid = 0; gid < count; gid++) {
        int lid = gid % n, base = gid - lid;
        wrong += out[gid] != 2 * (base + (lid + 3) % n);
      }
      report("helper_twice", local, generic, wrong);
      release(&k);
    }
  }
  host_buffer_destroy(&bout);
}

/* The container reports the static __local bytes and some scratch. */
static void test_container_sizes(void) {
  cc_kernel_info info;
  REQUIRE(cc_codegen_kernel_info(module, "matmul_tiled", &info, NULL) ==
          cc_success);
  CHECK_INT(2 * 16 * 16 * 4, info.local_memory_size);
  CHECK(info.scratch_size >= 4);
  cc_kernel_info_release(&info);
  REQUIRE(cc_codegen_kernel_info(module, "locals_mixed", &info, NULL) ==
          cc_success);
  /* c[3] at 0, wide[64] at 8, s[64] at 520, called_kernel's mine[64] at
   * 648 (module order: the kernel called comes first) — 904 in all, in
   * whatever order, at least. */
  CHECK(info.local_memory_size >= 3 + 512 + 128 + 256);
  CHECK(info.local_memory_size <= 3 + 512 + 128 + 256 + 16);
  cc_kernel_info_release(&info);
  /* The container's scratch per work-item: some for kernels with
   * barriers, within the bound the kernel info gave beforehand. */
  const char *names[] = {"matmul_tiled", "nested", "private_live",
                         "locals_mixed", "features"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    REQUIRE(cc_codegen_kernel_info(module, names[i], &info, NULL) ==
            cc_success);
    cc_kernel_request request = {names[i], {0, 0, 0}, false, NULL, false, {0, 0, 0}};
    uint8_t *binary = NULL;
    size_t size = 0;
    REQUIRE(cc_codegen_build(target, module, &request, 1, &binary, &size,
                             NULL, NULL) == cc_success);
    const uint8_t *entry = binary + CPU_BINARY_HEADER_SIZE;
    uint64_t scratch = 0;
    memcpy(&scratch, entry + cpu_binary_kernel_scratch, sizeof scratch);
    if (scratch == 0 || scratch > info.scratch_size) {
      fprintf(stderr, "%s: scratch %llu, bound %llu\n", names[i],
              (unsigned long long)scratch,
              (unsigned long long)info.scratch_size);
    }
    CHECK(scratch > 0 && scratch <= info.scratch_size);
    free(binary);
    cc_kernel_info_release(&info);
  }
  uint32_t local[3] = {16, 16, 1};
  built_kernel k = build("matmul_tiled", local);
  if (k.kernel) {
    CHECK_INT(2 * 16 * 16 * 4, k.kernel->local_memory_size);
  }
  release(&k);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s barrier.bc\n", argv[0]);
    return 1;
  }
  codegen_test_start();
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  LLVMContextRef context = LLVMContextCreate();
  module = load_bitcode(context, argv[1]);
  test_reductions();
  test_scan();
  test_matmul();
  test_transpose();
  test_nested();
  test_private_live();
  test_locals_mixed();
  test_mirror3d();
  test_features();
  test_divergent();
  test_helper_twice();
  test_container_sizes();
  for (int g = 0; g < max_generics; g++) {
    if (generics[g].name) destroy(&generics[g].kernel);
  }
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return codegen_test_finish();
}

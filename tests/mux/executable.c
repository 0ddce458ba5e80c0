/* Executables: a binary in the CPU target's format (binary_format.h) built
 * around a real object file (kernels/abi_kernels.c, compiled by Clang at
 * build time, its path in argv[1]) loads, its kernels run and compute the
 * right thing; malformed binaries of every kind are refused with
 * mux_error_invalid_binary, and unknown kernel names with
 * mux_error_missing_kernel. */
#include <clmux/cpu_abi/binary_format.h>
#include <elf.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "mux_test.h"

static mux_device_t device;
static mux_queue_t queue;
static uint8_t *object;
static size_t object_size;

/* ---- Writing binaries
 * ------------------------------------------------------*/

typedef struct kernel_spec {
  const char *name;
  const char *symbol;
  uint64_t local_memory;
  uint64_t scratch;
  uint32_t preferred[3];
  uint32_t required[3];
} kernel_spec;

static const kernel_spec abi_kernels[] = {
    {"saxpy", "saxpy_wg", 0, 0, {64, 1, 1}, {0, 0, 0}},
    {"sine", "sine_wg", 0, 0, {16, 2, 1}, {0, 0, 0}},
    {"reverse", "reverse64_wg", 256, 0, {64, 1, 1}, {64, 1, 1}},
    {"twice_reversed", "twice_reversed_wg", 0, 4, {32, 1, 1}, {0, 0, 0}},
};
#define ABI_KERNEL_COUNT 4u

/* Where build_binary put things, for tests that damage them. */
typedef struct binary {
  uint8_t *bytes;
  size_t size;
  size_t table;
  size_t strings;
  size_t strings_size;
  size_t object;
} binary;

static void put_u32(uint8_t *at, uint32_t value) { memcpy(at, &value, 4); }
static void put_u64(uint8_t *at, uint64_t value) { memcpy(at, &value, 8); }

/* Header, table, strings, then the object 16-byte aligned. */
static binary build_binary(const kernel_spec *kernels, uint32_t count,
                           const uint8_t *code, size_t code_size) {
  binary b;
  b.table = CPU_BINARY_HEADER_SIZE;
  b.strings = b.table + (size_t)count * CPU_BINARY_KERNEL_SIZE;
  b.strings_size = 0;
  for (uint32_t i = 0; i < count; i++) {
    b.strings_size += strlen(kernels[i].name) + strlen(kernels[i].symbol) + 2;
  }
  b.object = (b.strings + b.strings_size + 15) & ~(size_t)15;
  b.size = b.object + code_size;
  b.bytes = calloc(1, b.size);
  REQUIRE(b.bytes);

  uint8_t *header = b.bytes;
  memcpy(header, CPU_BINARY_MAGIC, CPU_BINARY_MAGIC_SIZE);
  put_u32(header + cpu_binary_header_version, CPU_BINARY_VERSION);
  put_u32(header + cpu_binary_header_header_size, CPU_BINARY_HEADER_SIZE);
  put_u32(header + cpu_binary_header_kernel_count, count);
  put_u32(header + cpu_binary_header_kernel_size, CPU_BINARY_KERNEL_SIZE);
  put_u64(header + cpu_binary_header_table_offset, b.table);
  put_u64(header + cpu_binary_header_strings_offset, b.strings);
  put_u64(header + cpu_binary_header_strings_size, b.strings_size);
  put_u64(header + cpu_binary_header_object_offset, b.object);
  put_u64(header + cpu_binary_header_object_size, code_size);

  size_t string = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *entry = b.bytes + b.table + (size_t)i * CPU_BINARY_KERNEL_SIZE;
    const char *names[2] = {kernels[i].name, kernels[i].symbol};
    for (int n = 0; n < 2; n++) {
      size_t length = strlen(names[n]);
      put_u32(entry + (n ? cpu_binary_kernel_symbol_offset
                         : cpu_binary_kernel_name_offset),
              (uint32_t)string);
      put_u32(entry + (n ? cpu_binary_kernel_symbol_length
                         : cpu_binary_kernel_name_length),
              (uint32_t)length);
      memcpy(b.bytes + b.strings + string, names[n], length + 1);
      string += length + 1;
    }
    put_u64(entry + cpu_binary_kernel_local_memory, kernels[i].local_memory);
    put_u64(entry + cpu_binary_kernel_scratch, kernels[i].scratch);
    for (int d = 0; d < 3; d++) {
      put_u32(entry + cpu_binary_kernel_preferred_local_size + 4 * d,
              kernels[i].preferred[d]);
      put_u32(entry + cpu_binary_kernel_required_local_size + 4 * d,
              kernels[i].required[d]);
    }
  }
  memcpy(b.bytes + b.object, code, code_size);
  return b;
}

static binary build_abi_binary(void) {
  return build_binary(abi_kernels, ABI_KERNEL_COUNT, object, object_size);
}

static mux_result_t try_load(const void *bytes, size_t size) {
  mux_executable_t executable = NULL;
  mux_result_t result =
      muxCreateExecutable(device, bytes, size, mux_test_allocator, &executable);
  if (result == mux_success) {
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  return result;
}

/* ---- Running kernels ---------------------------------------------------- */

static mux_result_t run_1d(mux_kernel_t kernel,
                           mux_descriptor_info_t *descriptors, uint64_t count,
                           size_t global, size_t local) {
  const size_t offset = 0;
  const size_t local_size[3] = {local, 1, 1};
  return mux_test_run_ndrange(device, queue, kernel, descriptors, count, 1,
                              &global, &offset, local_size);
}

typedef struct host_buffer {
  mux_buffer_t buffer;
  mux_memory_t memory;
  size_t size;
} host_buffer;

static host_buffer host_buffer_create(const void *data, size_t size) {
  host_buffer b = {NULL, NULL, size};
  b.buffer = mux_test_buffer(device, size, &b.memory);
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, b.memory, 0, size, &mapped) == mux_success);
  memcpy(mapped, data, size);
  REQUIRE(muxUnmapMemory(device, b.memory) == mux_success);
  return b;
}

static void host_buffer_read(const host_buffer *b, void *data) {
  void *mapped = NULL;
  REQUIRE(muxMapMemory(device, b->memory, 0, b->size, &mapped) == mux_success);
  memcpy(data, mapped, b->size);
  REQUIRE(muxUnmapMemory(device, b->memory) == mux_success);
}

static void host_buffer_destroy(host_buffer *b) {
  muxDestroyBuffer(device, b->buffer, mux_test_allocator);
  muxFreeMemory(device, b->memory, mux_test_allocator);
}

static mux_descriptor_info_t buffer_arg(const host_buffer *b) {
  mux_descriptor_info_t descriptor;
  memset(&descriptor, 0, sizeof descriptor);
  descriptor.type = mux_descriptor_info_type_buffer;
  descriptor.buffer_descriptor.buffer = b->buffer;
  return descriptor;
}

static mux_kernel_t create_kernel(mux_executable_t executable,
                                  const char *name) {
  mux_kernel_t kernel = NULL;
  mux_result_t result = muxCreateKernel(device, executable, name, strlen(name),
                                        mux_test_allocator, &kernel);
  CHECK_SUCCESS(result);
  REQUIRE(result == mux_success);
  return kernel;
}

static void test_saxpy(mux_executable_t executable) {
  enum { count = 64 * 50 };
  static float x[count], y[count], result[count];
  for (int i = 0; i < count; i++) {
    x[i] = (float)i * 0.25f;
    y[i] = 3.0f - (float)i;
  }
  host_buffer bx = host_buffer_create(x, sizeof x);
  host_buffer by = host_buffer_create(y, sizeof y);
  float a = 1.5f;
  mux_descriptor_info_t args[3];
  memset(args, 0, sizeof args);
  args[0].type = mux_descriptor_info_type_plain_old_data;
  args[0].plain_old_data_descriptor.data = &a;
  args[0].plain_old_data_descriptor.length = sizeof a;
  args[1] = buffer_arg(&bx);
  args[2] = buffer_arg(&by);
  mux_kernel_t kernel = create_kernel(executable, "saxpy");
  CHECK(kernel->preferred_local_size_x == 64);
  CHECK(kernel->local_memory_size == 0);
  CHECK_SUCCESS(run_1d(kernel, args, 3, count, 64));
  host_buffer_read(&by, result);
  bool good = true;
  for (int i = 0; i < count; i++) good &= result[i] == a * x[i] + y[i];
  CHECK(good);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  host_buffer_destroy(&bx);
  host_buffer_destroy(&by);
}

static void test_sine(mux_executable_t executable) {
  enum { count = 16 * 40 };
  static float in[count], out[count];
  for (int i = 0; i < count; i++) in[i] = (float)i * 0.01f - 3.0f;
  memset(out, 0, sizeof out);
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(out, sizeof out);
  mux_descriptor_info_t args[2] = {buffer_arg(&bin), buffer_arg(&bout)};
  mux_kernel_t kernel = create_kernel(executable, "sine");
  CHECK(kernel->preferred_local_size_x == 16 &&
        kernel->preferred_local_size_y == 2 &&
        kernel->preferred_local_size_z == 1);
  CHECK_SUCCESS(run_1d(kernel, args, 2, count, 16));
  host_buffer_read(&bout, out);
  bool good = true;
  for (int i = 0; i < count; i++) good &= fabsf(out[i] - sinf(in[i])) <= 1e-6f;
  CHECK(good);
  muxDestroyKernel(device, kernel, mux_test_allocator);
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

/* Each group of `local` reversed; `twice` doubles too. */
static bool reversed(const int32_t *in, const int32_t *out, int count,
                     int local, int factor) {
  bool good = true;
  for (int i = 0; i < count; i++) {
    int group = i / local * local;
    good &= out[i] == factor * in[group + local - 1 - (i - group)];
  }
  return good;
}

static void test_local_and_scratch(mux_executable_t executable) {
  enum { count = 64 * 32 };
  static int32_t in[count], out[count];
  for (int i = 0; i < count; i++) in[i] = i * 7 - 1000;
  host_buffer bin = host_buffer_create(in, sizeof in);
  host_buffer bout = host_buffer_create(in, sizeof in);
  mux_descriptor_info_t args[2] = {buffer_arg(&bin), buffer_arg(&bout)};

  /* Static local memory, and a required local size of 64. */
  mux_kernel_t reverse = create_kernel(executable, "reverse");
  CHECK(reverse->local_memory_size == 256);
  CHECK(reverse->preferred_local_size_x == 64 &&
        reverse->preferred_local_size_y == 1);
  CHECK_SUCCESS(run_1d(reverse, args, 2, count, 64));
  host_buffer_read(&bout, out);
  CHECK(reversed(in, out, count, 64, 1));
  CHECK_RESULT(mux_error_invalid_value, run_1d(reverse, args, 2, count, 32));
  muxDestroyKernel(device, reverse, mux_test_allocator);

  /* Scratch per work-item, at two local sizes. */
  mux_kernel_t twice = create_kernel(executable, "twice_reversed");
  const int locals[] = {16, 128, 1};
  for (int i = 0; i < 3; i++) {
    CHECK_SUCCESS(run_1d(twice, args, 2, count, (size_t)locals[i]));
    host_buffer_read(&bout, out);
    CHECK(reversed(in, out, count, locals[i], 2));
  }
  muxDestroyKernel(device, twice, mux_test_allocator);
  host_buffer_destroy(&bin);
  host_buffer_destroy(&bout);
}

static void test_load_and_run(void) {
  binary b = build_abi_binary();
  mux_executable_t executable = NULL;
  CHECK_SUCCESS(muxCreateExecutable(device, b.bytes, b.size, mux_test_allocator,
                                    &executable));
  REQUIRE(executable != NULL);
  free(b.bytes); /* the executable keeps what it needs */
  CHECK(executable->device == device);

  mux_kernel_t kernel = NULL;
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateKernel(device, executable, "nope", 4,
                               mux_test_allocator, &kernel));
  /* Kernels are found by their OpenCL name, not their symbol, and by
   * exactly name_length bytes. */
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateKernel(device, executable, "saxpy_wg", 8,
                               mux_test_allocator, &kernel));
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateKernel(device, executable, "sax", 3, mux_test_allocator,
                               &kernel));
  CHECK_RESULT(mux_error_missing_kernel,
               muxCreateKernel(device, executable, "unlisted_wg", 11,
                               mux_test_allocator, &kernel));
  CHECK_SUCCESS(muxCreateKernel(device, executable, "saxpy_and_more", 5,
                                mux_test_allocator, &kernel));
  if (kernel) {
    size_t size = 0;
    /* The table's sub-group size 0 means sub-groups of one. */
    CHECK_SUCCESS(muxQuerySubGroupSizeForLocalSize(kernel, 64, 1, 1, &size));
    CHECK_INT(1, size);
    muxDestroyKernel(device, kernel, mux_test_allocator);
  }

  test_saxpy(executable);
  test_sine(executable);
  test_local_and_scratch(executable);
  muxDestroyExecutable(device, executable, mux_test_allocator);
}

/* ---- Malformed binaries --------------------------------------------------*/

static void expect_invalid(const binary *b, const char *what) {
  mux_result_t result = try_load(b->bytes, b->size);
  if (result != mux_error_invalid_binary) {
    fprintf(stderr, "%s: got %d\n", what, (int)result);
  }
  CHECK(result == mux_error_invalid_binary);
}

/* Applies `damage` to a fresh copy of the good binary and expects it to be
 * refused. */
#define DAMAGED(what, damage)           \
  do {                                  \
    binary b = build_abi_binary();      \
    uint8_t *entry = b.bytes + b.table; \
    (void)entry;                        \
    damage;                             \
    expect_invalid(&b, what);           \
    free(b.bytes);                      \
  } while (0)

static void test_damaged_containers(void) {
  uint8_t *h;
  DAMAGED("magic", b.bytes[0] ^= 1);
  DAMAGED("version",
          put_u32(b.bytes + cpu_binary_header_version, CPU_BINARY_VERSION + 1));
  DAMAGED("header size", put_u32(b.bytes + cpu_binary_header_header_size, 60));
  DAMAGED("entry size", put_u32(b.bytes + cpu_binary_header_kernel_size, 32));
  DAMAGED("no kernels", put_u32(b.bytes + cpu_binary_header_kernel_count, 0));
  DAMAGED("too many kernels",
          put_u32(b.bytes + cpu_binary_header_kernel_count, 0xffffffffu));
  DAMAGED("table past the end",
          put_u64(b.bytes + cpu_binary_header_table_offset, b.size));
  DAMAGED("table over the header",
          put_u64(b.bytes + cpu_binary_header_table_offset, 0));
  DAMAGED("table over the strings",
          put_u64(b.bytes + cpu_binary_header_table_offset, b.table + 8));
  DAMAGED("strings wrap around",
          (h = b.bytes,
           put_u64(h + cpu_binary_header_strings_size, UINT64_MAX - 8)));
  DAMAGED("strings empty",
          put_u64(b.bytes + cpu_binary_header_strings_size, 0));
  DAMAGED("object wraps around",
          put_u64(b.bytes + cpu_binary_header_object_offset, UINT64_MAX - 3));
  DAMAGED("object too long",
          put_u64(b.bytes + cpu_binary_header_object_size, object_size + 1));
  DAMAGED("object cut short",
          put_u64(b.bytes + cpu_binary_header_object_size, object_size / 2));
  DAMAGED("name past the strings",
          put_u32(entry + cpu_binary_kernel_name_offset, 1u << 20));
  DAMAGED("name offset wraps",
          put_u32(entry + cpu_binary_kernel_name_offset, 0xffffffffu));
  DAMAGED("name without NUL",
          put_u32(entry + cpu_binary_kernel_name_length, 6));
  DAMAGED("name too long",
          put_u32(entry + cpu_binary_kernel_name_length, 0xffffffffu));
  DAMAGED("empty name", put_u32(entry + cpu_binary_kernel_name_length, 0));
  DAMAGED("name with a NUL inside", b.bytes[b.strings + 2] = '\0');
  DAMAGED("symbol without NUL",
          put_u32(entry + cpu_binary_kernel_symbol_length, 9));
  DAMAGED("duplicate names", memcpy(entry + CPU_BINARY_KERNEL_SIZE, entry, 8));
  DAMAGED("preferred size 0",
          put_u32(entry + cpu_binary_kernel_preferred_local_size + 4, 0));
  DAMAGED("required size in part",
          put_u32(entry + cpu_binary_kernel_required_local_size, 8));
  DAMAGED("flags", put_u32(entry + cpu_binary_kernel_flags, 0x80));
  DAMAGED("sub-group size not a power of two",
          put_u32(entry + cpu_binary_kernel_sub_group_size, 3));
  DAMAGED("sub-group size too large",
          put_u32(entry + cpu_binary_kernel_sub_group_size, 128));
  DAMAGED("local memory",
          put_u64(entry + cpu_binary_kernel_local_memory, UINT64_MAX));
  DAMAGED("scratch", put_u64(entry + cpu_binary_kernel_scratch, UINT64_MAX));
  DAMAGED("object not ELF", b.bytes[b.object + 1] = 'X');
  DAMAGED("object 32-bit", b.bytes[b.object + EI_CLASS] = ELFCLASS32);
  DAMAGED("object big-endian", b.bytes[b.object + EI_DATA] = ELFDATA2MSB);
  DAMAGED("object for another machine",
          (h = b.bytes + b.object + offsetof(Elf64_Ehdr, e_machine),
           h[0] = (uint8_t)EM_AARCH64, h[1] = 0));
  DAMAGED("object not relocatable",
          (h = b.bytes + b.object + offsetof(Elf64_Ehdr, e_type),
           h[0] = (uint8_t)ET_DYN, h[1] = 0));
  DAMAGED("object sections past its end",
          put_u64(b.bytes + b.object + offsetof(Elf64_Ehdr, e_shoff),
                  object_size - 8));
}

static void test_wrong_symbols(void) {
  const struct {
    const char *symbol;
    const char *what;
  } wrong[] = {
      {"missing_wg", "symbol not in the object"},
      {"memcpy", "symbol from the process (libc)"},
      {"sinf", "symbol from the process (libm)"},
      {"saxpy_w", "symbol prefix"},
  };
  for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
    kernel_spec kernels[ABI_KERNEL_COUNT];
    memcpy(kernels, abi_kernels, sizeof kernels);
    kernels[1].symbol = wrong[i].symbol;
    binary b = build_binary(kernels, ABI_KERNEL_COUNT, object, object_size);
    expect_invalid(&b, wrong[i].what);
    free(b.bytes);
  }
  /* A table that lists only some of the object's functions is fine. */
  binary b = build_binary(abi_kernels, 1, object, object_size);
  CHECK_SUCCESS(try_load(b.bytes, b.size));
  free(b.bytes);
}

static void test_truncated_and_garbage(void) {
  binary b = build_abi_binary();
  bool all_refused = true;
  for (size_t length = 1; length < b.size; length++) {
    mux_result_t result = try_load(b.bytes, length);
    if (result != mux_error_invalid_binary) {
      fprintf(stderr, "truncated to %zu of %zu: got %d\n", length, b.size,
              (int)result);
      all_refused = false;
      break;
    }
  }
  CHECK(all_refused);

  /* Garbage, and garbage behind a valid-looking header. */
  uint32_t state = 12345;
  uint8_t *garbage = malloc(b.size);
  REQUIRE(garbage);
  for (size_t i = 0; i < b.size; i++) {
    state = state * 1664525u + 1013904223u;
    garbage[i] = (uint8_t)(state >> 24);
  }
  CHECK_RESULT(mux_error_invalid_binary, try_load(garbage, b.size));
  memcpy(garbage, b.bytes, CPU_BINARY_HEADER_SIZE);
  CHECK_RESULT(mux_error_invalid_binary, try_load(garbage, b.size));
  free(garbage);

  /* Random damage to the container (not the object, whose inside only
   * LLVM reads): refused or, if the damage hit nothing that matters,
   * loaded; never anything else. */
  bool only_expected = true;
  for (int round = 0; round < 400; round++) {
    binary copy = build_abi_binary();
    int flips = 1 + round % 4;
    for (int f = 0; f < flips; f++) {
      state = state * 1664525u + 1013904223u;
      size_t at = (state >> 8) % copy.object;
      state = state * 1664525u + 1013904223u;
      copy.bytes[at] ^= (uint8_t)(1u << (state >> 29));
    }
    mux_result_t result = try_load(copy.bytes, copy.size);
    if (result != mux_success && result != mux_error_invalid_binary) {
      only_expected = false;
    }
    free(copy.bytes);
  }
  CHECK(only_expected);
  free(b.bytes);
}

/* muxCreateExecutable is thread-safe: load and run from two threads. */
static void *load_repeatedly(void *argument) {
  const binary *b = argument;
  intptr_t failures = 0;
  for (int i = 0; i < 5; i++) {
    mux_executable_t executable = NULL;
    if (muxCreateExecutable(device, b->bytes, b->size, mux_test_allocator,
                            &executable) != mux_success) {
      failures++;
      continue;
    }
    mux_kernel_t kernel = NULL;
    if (muxCreateKernel(device, executable, "sine", 4, mux_test_allocator,
                        &kernel) == mux_success) {
      muxDestroyKernel(device, kernel, mux_test_allocator);
    } else {
      failures++;
    }
    muxDestroyExecutable(device, executable, mux_test_allocator);
  }
  return (void *)failures;
}

static void test_threads(void) {
  binary b = build_abi_binary();
  pthread_t threads[2];
  for (int i = 0; i < 2; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, load_repeatedly, &b) == 0);
  }
  for (int i = 0; i < 2; i++) {
    void *failures = NULL;
    pthread_join(threads[i], &failures);
    CHECK(failures == NULL);
  }
  free(b.bytes);
}

static void read_object(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open the kernel object %s\n", path);
    exit(1);
  }
  REQUIRE(fseek(file, 0, SEEK_END) == 0);
  long size = ftell(file);
  REQUIRE(size > 0 && fseek(file, 0, SEEK_SET) == 0);
  object_size = (size_t)size;
  object = malloc(object_size);
  REQUIRE(object && fread(object, 1, object_size, file) == object_size);
  fclose(file);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : getenv("CLMUX_ABI_KERNELS_OBJECT");
  if (!path) {
    fprintf(stderr, "usage: %s abi_kernels.o\n", argv[0]);
    return 1;
  }
  read_object(path);
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_load_and_run();
  test_damaged_containers();
  test_wrong_symbols();
  test_truncated_and_garbage();
  test_threads();
  muxDestroyDevice(device, mux_test_allocator);
  free(object);
  return mux_test_finish();
}

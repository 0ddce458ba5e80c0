/* clmux: clCreateBuffer, clCreateSubBuffer and what memory objects share
 * (clGetMemObjectInfo, retain/release, destructor callbacks) through the ICD
 * loader: every cl_mem_flags combination, zero-copy CL_MEM_USE_HOST_PTR,
 * sub-buffer alignment, bounds, flags and storage shared with the parent. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cl_test.h"

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

/* ---- Info helpers -------------------------------------------------------- */

static size_t mem_size_info(cl_mem mem, cl_mem_info name) {
  size_t value = 0, size = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(mem, name, sizeof value, &value, &size));
  CHECK_INT(sizeof value, size);
  return value;
}

static cl_uint mem_uint_info(cl_mem mem, cl_mem_info name) {
  cl_uint value = 0;
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(mem, name, sizeof value, &value, &size));
  CHECK_INT(sizeof value, size);
  return value;
}

static void *mem_pointer_info(cl_mem mem, cl_mem_info name) {
  void *value = (void *)1;
  size_t size = 0;
  CHECK_CL_SUCCESS(clGetMemObjectInfo(mem, name, sizeof value, &value, &size));
  CHECK_INT(sizeof value, size);
  return value;
}

static cl_mem_flags mem_flags(cl_mem mem) {
  cl_mem_flags value = 0;
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof value, &value, &size));
  CHECK_INT(sizeof value, size);
  return value;
}

/* Maps the whole of `mem` (blocking); NULL on failure. */
static void *map_all(cl_mem mem, cl_map_flags flags) {
  cl_int error = CL_SUCCESS;
  void *pointer = clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, 0,
                                     mem_size_info(mem, CL_MEM_SIZE), 0, NULL,
                                     NULL, &error);
  CHECK_CL_SUCCESS(error);
  return pointer;
}

static void unmap(cl_mem mem, void *pointer) {
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, pointer, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

/* ---- Flags --------------------------------------------------------------- */

static const cl_mem_flags all_flags[] = {
    CL_MEM_READ_WRITE,      CL_MEM_WRITE_ONLY,     CL_MEM_READ_ONLY,
    CL_MEM_USE_HOST_PTR,    CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
    CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS,
};
#define NUM_FLAGS (sizeof all_flags / sizeof all_flags[0])

static int count_of(cl_mem_flags flags, cl_mem_flags among) {
  int n = 0;
  for (unsigned i = 0; i < NUM_FLAGS; i++) {
    if ((flags & among & all_flags[i]) != 0) n++;
  }
  return n;
}

/* The 1.2 table, stated independently of the implementation. */
static bool flags_valid(cl_mem_flags flags) {
  if (count_of(flags,
               CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY) > 1) {
    return false;
  }
  if (count_of(flags, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                          CL_MEM_HOST_NO_ACCESS) > 1) {
    return false;
  }
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & CL_MEM_ALLOC_HOST_PTR)) {
    return false;
  }
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & CL_MEM_COPY_HOST_PTR)) {
    return false;
  }
  return true;
}

static void test_every_flag_combination(void) {
  static unsigned char host[256];
  int valid_count = 0;
  for (unsigned bits = 0; bits < (1u << NUM_FLAGS); bits++) {
    cl_mem_flags flags = 0;
    for (unsigned i = 0; i < NUM_FLAGS; i++) {
      if (bits & (1u << i)) flags |= all_flags[i];
    }
    bool needs_host = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR));
    bool valid = flags_valid(flags);
    cl_int error = 12345;
    cl_mem mem = clCreateBuffer(context, flags, sizeof host,
                                needs_host ? host : NULL, &error);
    if (!valid) {
      CHECK_CL(CL_INVALID_VALUE, error);
      CHECK(mem == NULL);
      if (mem) clReleaseMemObject(mem);
      continue;
    }
    valid_count++;
    CHECK_CL_SUCCESS(error);
    CHECK(mem != NULL);
    if (!mem) continue;
    cl_mem_flags expected = flags;
    if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY))) {
      expected |= CL_MEM_READ_WRITE; /* the default */
    }
    CHECK_INT(expected, mem_flags(mem));
    CHECK_CL_SUCCESS(clReleaseMemObject(mem));
    /* The host pointer given exactly when USE/COPY asks for it. */
    error = 12345;
    mem = clCreateBuffer(context, flags, sizeof host, needs_host ? NULL : host,
                         &error);
    CHECK_CL(CL_INVALID_HOST_PTR, error);
    CHECK(mem == NULL);
    if (mem) clReleaseMemObject(mem);
  }
  /* 3 access choices (+none) x 3 host-access (+none) x host-ptr choices
   * {none, USE, ALLOC, COPY, ALLOC|COPY}. */
  CHECK_INT(4 * 4 * 5, valid_count);

  /* Unknown bits; no errcode_ret is fine. */
  cl_int error = 0;
  CHECK(clCreateBuffer(context, (cl_mem_flags)1 << 20, 16, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 16, NULL,
                       NULL) == NULL);
  cl_mem mem = clCreateBuffer(context, 0, 16, NULL, NULL);
  CHECK(mem != NULL);
  if (mem) clReleaseMemObject(mem);
}

static void test_sizes_and_context(void) {
  cl_ulong max_alloc = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                   sizeof max_alloc, &max_alloc, NULL));
  CHECK(max_alloc >= 128u << 20);
  cl_int error = 0;
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, 0, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_BUFFER_SIZE, error);
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL,
                       &error) == NULL);
  CHECK_CL(CL_INVALID_BUFFER_SIZE, error);
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &error) ==
        NULL);
  CHECK_CL(CL_INVALID_BUFFER_SIZE, error);
  /* A handle of another kind is not a context. */
  CHECK(clCreateBuffer((cl_context)queue, CL_MEM_READ_WRITE, 16, NULL,
                       &error) == NULL);
  CHECK_CL(CL_INVALID_CONTEXT, error);
  /* An odd size and a large one (memory is only touched when used). */
  cl_mem odd = clCreateBuffer(context, CL_MEM_READ_WRITE, 13, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (odd) {
    CHECK_INT(13, mem_size_info(odd, CL_MEM_SIZE));
    clReleaseMemObject(odd);
  }
  cl_mem big =
      clCreateBuffer(context, CL_MEM_READ_WRITE, 64u << 20, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (big) clReleaseMemObject(big);
}

/* ---- Info and reference counts ------------------------------------------- */

static void test_info(void) {
  static unsigned char host[1000];
  cl_int error = 0;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                              sizeof host, host, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  cl_mem_object_type type = 0;
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, &size));
  CHECK_INT(CL_MEM_OBJECT_BUFFER, type);
  CHECK_INT(sizeof type, size);
  CHECK_INT(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, mem_flags(mem));
  CHECK_INT(sizeof host, mem_size_info(mem, CL_MEM_SIZE));
  CHECK(mem_pointer_info(mem, CL_MEM_HOST_PTR) == host);
  CHECK_INT(0, mem_uint_info(mem, CL_MEM_MAP_COUNT));
  CHECK_INT(1, mem_uint_info(mem, CL_MEM_REFERENCE_COUNT));
  CHECK(mem_pointer_info(mem, CL_MEM_CONTEXT) == context);
  CHECK(mem_pointer_info(mem, CL_MEM_ASSOCIATED_MEMOBJECT) == NULL);
  CHECK_INT(0, mem_size_info(mem, CL_MEM_OFFSET));
  /* Size-only queries, short buffers, unknown names, wrong handles. */
  CHECK_CL_SUCCESS(clGetMemObjectInfo(mem, CL_MEM_FLAGS, 0, NULL, &size));
  CHECK_INT(sizeof(cl_mem_flags), size);
  CHECK_CL_SUCCESS(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, 0, NULL, NULL));
  cl_uint small = 0;
  CHECK_CL(CL_INVALID_VALUE,
           clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof small, &small, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetMemObjectInfo(mem, CL_MEM_TYPE - 1, sizeof size, &size, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetMemObjectInfo(mem, CL_IMAGE_FORMAT, sizeof size, &size, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clGetMemObjectInfo((cl_mem)context, CL_MEM_SIZE, sizeof size, &size,
                              NULL));

  /* Reference counts. */
  CHECK_CL_SUCCESS(clRetainMemObject(mem));
  CHECK_CL_SUCCESS(clRetainMemObject(mem));
  CHECK_INT(3, mem_uint_info(mem, CL_MEM_REFERENCE_COUNT));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_INT(2, mem_uint_info(mem, CL_MEM_REFERENCE_COUNT));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clRetainMemObject((cl_mem)context));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject((cl_mem)queue));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));

  /* COPY_HOST_PTR and plain buffers report no host pointer. */
  mem =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof host, host, &error);
  CHECK_CL_SUCCESS(error);
  if (mem) {
    CHECK(mem_pointer_info(mem, CL_MEM_HOST_PTR) == NULL);
    CHECK_INT(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, mem_flags(mem));
    clReleaseMemObject(mem);
  }
  mem = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, 64, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (mem) {
    CHECK(mem_pointer_info(mem, CL_MEM_HOST_PTR) == NULL);
    clReleaseMemObject(mem);
  }
}

/* ---- Contents: COPY_HOST_PTR and zero-copy USE_HOST_PTR ------------------ */

static void test_copy_host_ptr(void) {
  int host[256];
  for (int i = 0; i < 256; i++) host[i] = i * 7 + 1;
  cl_int error = 0;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              sizeof host, host, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  /* The copy is taken at creation: later changes to the array stay out. */
  for (int i = 0; i < 256; i++) host[i] = -1;
  int *mapped = map_all(mem, CL_MAP_READ);
  if (mapped) {
    CHECK(mapped != host);
    bool same = true;
    for (int i = 0; i < 256; i++) same = same && mapped[i] == i * 7 + 1;
    CHECK(same);
    unmap(mem, mapped);
  }
  clReleaseMemObject(mem);
}

static void test_zero_copy(void) {
  /* An odd address on purpose: the user's array is used as it is. */
  unsigned char *storage = malloc(4096 + 3);
  REQUIRE(storage);
  unsigned char *host = storage + 3;
  for (int i = 0; i < 4096; i++) host[i] = (unsigned char)i;
  cl_int error = 0;
  cl_mem mem = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, host, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  error = 0;
  unsigned char *mapped =
      clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 100,
                         200, 0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(mapped == host + 100);
  if (mapped) {
    CHECK_INT(100, mapped[0]);
    CHECK_INT(1, mem_uint_info(mem, CL_MEM_MAP_COUNT));
    mapped[5] = 0xee; /* through the mapping, into the user's array */
    CHECK_INT(0xee, host[105]);
    host[106] = 0xdd; /* and the other way */
    CHECK_INT(0xdd, mapped[6]);
    unmap(mem, mapped);
    CHECK_INT(0, mem_uint_info(mem, CL_MEM_MAP_COUNT));
  }
  /* A device-side write lands in the user's array. */
  unsigned char pattern = 0x5a;
  CHECK_CL_SUCCESS(
      clEnqueueFillBuffer(queue, mem, &pattern, 1, 0, 16, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(0x5a, host[0]);
  CHECK_INT(0x5a, host[15]);
  CHECK_INT(16, host[16]);
  clReleaseMemObject(mem);
  free(storage);
}

/* ---- Sub-buffers --------------------------------------------------------- */

static cl_mem sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin,
                         size_t size, cl_int *error) {
  cl_buffer_region region = {origin, size};
  *error = 12345;
  return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region,
                           error);
}

static size_t base_align_bytes(void) {
  cl_uint bits = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                   sizeof bits, &bits, NULL));
  CHECK(bits >= 8 * sizeof(cl_long16));
  return bits / 8 ? bits / 8 : 1;
}

static void test_sub_buffer_errors(void) {
  size_t align = base_align_bytes();
  size_t size = align * 8;
  cl_int error = 0;
  cl_mem parent =
      clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &error);
  REQUIRE(error == CL_SUCCESS && parent);
  cl_buffer_region region = {0, align};

  /* Bounds, size, alignment. */
  CHECK(sub_buffer(parent, 0, align, size, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(sub_buffer(parent, 0, size + align, 1, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(sub_buffer(parent, 0, SIZE_MAX - 15, 32, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(sub_buffer(parent, 0, 0, 0, &error) == NULL);
  CHECK_CL(CL_INVALID_BUFFER_SIZE, error);
  CHECK(sub_buffer(parent, 0, 1, 16, &error) == NULL);
  CHECK_CL(CL_MISALIGNED_SUB_BUFFER_OFFSET, error);
  if (align > 1) {
    CHECK(sub_buffer(parent, 0, align / 2, 16, &error) == NULL);
    CHECK_CL(CL_MISALIGNED_SUB_BUFFER_OFFSET, error);
  }
  /* The whole parent, and the last byte alone, are fine. */
  cl_mem whole = sub_buffer(parent, 0, 0, size, &error);
  CHECK_CL_SUCCESS(error);
  cl_mem last = sub_buffer(parent, 0, size - align, align, &error);
  CHECK_CL_SUCCESS(error);

  /* Create type and info. */
  error = 0;
  CHECK(clCreateSubBuffer(parent, 0, 0x4321, &region, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL,
                          &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  /* Not a buffer; a sub-buffer of a sub-buffer. */
  CHECK(clCreateSubBuffer((cl_mem)context, 0, CL_BUFFER_CREATE_TYPE_REGION,
                          &region, &error) == NULL);
  CHECK_CL(CL_INVALID_MEM_OBJECT, error);
  if (whole) {
    CHECK(sub_buffer(whole, 0, 0, align, &error) == NULL);
    CHECK_CL(CL_INVALID_MEM_OBJECT, error);
  }
  /* Host-pointer flags are never given to a sub-buffer. */
  static const cl_mem_flags host_ptr_flags[] = {
      CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR};
  for (int i = 0; i < 3; i++) {
    CHECK(sub_buffer(parent, host_ptr_flags[i], 0, align, &error) == NULL);
    CHECK_CL(CL_INVALID_VALUE, error);
  }
  CHECK(sub_buffer(parent, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, align,
                   &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(sub_buffer(parent, (cl_mem_flags)1 << 20, 0, align, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  if (whole) clReleaseMemObject(whole);
  if (last) clReleaseMemObject(last);
  clReleaseMemObject(parent);
}

/* Parent flags x sub-buffer flags: which are refused and what is
 * inherited. */
static void test_sub_buffer_flags(void) {
  size_t align = base_align_bytes();
  static const struct {
    cl_mem_flags parent, sub;
    bool valid;
    cl_mem_flags result;
  } cases[] = {
      {CL_MEM_READ_WRITE, 0, true, CL_MEM_READ_WRITE},
      {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, true, CL_MEM_READ_ONLY},
      {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, true, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, 0, true, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY, true, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, false, 0},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, false, 0},
      {CL_MEM_READ_ONLY, 0, true, CL_MEM_READ_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, false, 0},
      {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, false, 0},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 0, true,
       CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, false,
       0},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, false,
       0},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, false,
       0},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY, false,
       0},
      {CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_NO_ACCESS, true,
       CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
      {CL_MEM_READ_WRITE, CL_MEM_HOST_READ_ONLY, true,
       CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY},
      {CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_ONLY, true,
       CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_int error = 0;
    cl_mem parent =
        clCreateBuffer(context, cases[i].parent, align * 2, NULL, &error);
    REQUIRE(error == CL_SUCCESS && parent);
    cl_mem sub = sub_buffer(parent, cases[i].sub, align, align, &error);
    if (cases[i].valid) {
      CHECK_CL_SUCCESS(error);
      if (sub) {
        CHECK_INT(cases[i].result, mem_flags(sub));
      } else {
        fprintf(stderr, "  (case %zu)\n", i);
      }
    } else {
      CHECK_CL(CL_INVALID_VALUE, error);
      CHECK(sub == NULL);
    }
    if (sub) clReleaseMemObject(sub);
    clReleaseMemObject(parent);
  }
  /* USE_HOST_PTR and COPY_HOST_PTR parents: inherited; the host pointer of
   * a USE_HOST_PTR sub-buffer is the parent's plus the origin. */
  unsigned char *host = malloc(align * 4);
  REQUIRE(host);
  cl_int error = 0;
  cl_mem parent =
      clCreateBuffer(context, CL_MEM_USE_HOST_PTR, align * 4, host, &error);
  REQUIRE(error == CL_SUCCESS && parent);
  cl_mem sub = sub_buffer(parent, CL_MEM_READ_ONLY, align * 2, align, &error);
  CHECK_CL_SUCCESS(error);
  if (sub) {
    CHECK_INT(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, mem_flags(sub));
    CHECK(mem_pointer_info(sub, CL_MEM_HOST_PTR) == host + align * 2);
    clReleaseMemObject(sub);
  }
  clReleaseMemObject(parent);
  parent =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, align * 4, host, &error);
  REQUIRE(error == CL_SUCCESS && parent);
  sub = sub_buffer(parent, 0, align, align, &error);
  CHECK_CL_SUCCESS(error);
  if (sub) {
    CHECK_INT(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, mem_flags(sub));
    CHECK(mem_pointer_info(sub, CL_MEM_HOST_PTR) == NULL);
    clReleaseMemObject(sub);
  }
  clReleaseMemObject(parent);
  free(host);
}

static int destroyed_parent;

static void CL_CALLBACK note_parent_destroyed(cl_mem mem, void *data) {
  (void)mem;
  (void)data;
  destroyed_parent++;
}

static void test_sub_buffer_storage(void) {
  size_t align = base_align_bytes();
  size_t size = align * 4;
  unsigned char *host = malloc(size);
  REQUIRE(host);
  for (size_t i = 0; i < size; i++) host[i] = (unsigned char)(i * 3);
  cl_int error = 0;
  cl_mem parent =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, size, host, &error);
  REQUIRE(error == CL_SUCCESS && parent);
  cl_mem sub = sub_buffer(parent, 0, align, align * 2, &error);
  REQUIRE(error == CL_SUCCESS && sub);
  CHECK_INT(CL_MEM_OBJECT_BUFFER, mem_uint_info(sub, CL_MEM_TYPE));
  CHECK_INT(align * 2, mem_size_info(sub, CL_MEM_SIZE));
  CHECK_INT(align, mem_size_info(sub, CL_MEM_OFFSET));
  CHECK(mem_pointer_info(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
  CHECK(mem_pointer_info(sub, CL_MEM_CONTEXT) == context);
  CHECK_INT(1, mem_uint_info(sub, CL_MEM_REFERENCE_COUNT));
  /* The sub-buffer holds the parent, but not as a user reference. */
  CHECK_INT(1, mem_uint_info(parent, CL_MEM_REFERENCE_COUNT));

  /* Same bytes: what the sub-buffer sees is the parent's at the origin. */
  unsigned char *in_sub = map_all(sub, CL_MAP_READ | CL_MAP_WRITE);
  if (in_sub) {
    bool same = true;
    for (size_t i = 0; i < align * 2; i++) {
      same = same && in_sub[i] == (unsigned char)((i + align) * 3);
    }
    CHECK(same);
    in_sub[0] = 0xab;
    unmap(sub, in_sub);
  }
  unsigned char *in_parent = map_all(parent, CL_MAP_READ);
  if (in_parent) {
    CHECK_INT(0xab, in_parent[align]);
    CHECK_INT((unsigned char)((align - 1) * 3), in_parent[align - 1]);
    unmap(parent, in_parent);
  }
  /* The parent outlives its last user reference while the sub-buffer
   * lives. */
  CHECK_CL_SUCCESS(
      clSetMemObjectDestructorCallback(parent, note_parent_destroyed, NULL));
  destroyed_parent = 0;
  CHECK_CL_SUCCESS(clReleaseMemObject(parent));
  CHECK_INT(0, destroyed_parent);
  in_sub = map_all(sub, CL_MAP_READ);
  if (in_sub) {
    CHECK_INT(0xab, in_sub[0]);
    unmap(sub, in_sub);
  }
  CHECK_CL_SUCCESS(clReleaseMemObject(sub));
  CHECK_INT(1, destroyed_parent);
  free(host);
}

/* ---- Destructor callbacks ------------------------------------------------ */

static int order[8];
static volatile int order_count; /* callbacks may run on a runtime thread */

static void CL_CALLBACK record_order(cl_mem mem, void *data) {
  (void)mem;
  if (order_count < 8) order[order_count++] = (int)(intptr_t)data;
}

static void CL_CALLBACK free_host_memory(cl_mem mem, void *data) {
  (void)mem;
  free(data);
  order_count++;
}

static void test_destructor_callbacks(void) {
  cl_int error = 0;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  CHECK_CL(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(mem, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clSetMemObjectDestructorCallback(
                                      (cl_mem)context, record_order, NULL));
  order_count = 0;
  for (intptr_t i = 1; i <= 3; i++) {
    CHECK_CL_SUCCESS(
        clSetMemObjectDestructorCallback(mem, record_order, (void *)i));
  }
  CHECK_CL_SUCCESS(clRetainMemObject(mem));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_INT(0, order_count); /* one reference left */
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  /* Newest first, once each. */
  CHECK_INT(3, order_count);
  CHECK_INT(3, order[0]);
  CHECK_INT(2, order[1]);
  CHECK_INT(1, order[2]);

  /* The usual use: the callback frees a USE_HOST_PTR region (ASan would
   * see a later touch). */
  void *host = malloc(256);
  REQUIRE(host);
  mem = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 256, host, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  order_count = 0;
  CHECK_CL_SUCCESS(
      clSetMemObjectDestructorCallback(mem, free_host_memory, host));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_INT(1, order_count);

  /* A command holding the buffer delays the callbacks until it is done. */
  mem = clCreateBuffer(context, CL_MEM_READ_WRITE, 1 << 20, NULL, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  cl_event gate = clCreateUserEvent(context, &error);
  CHECK_CL_SUCCESS(error);
  order_count = 0;
  CHECK_CL_SUCCESS(
      clSetMemObjectDestructorCallback(mem, record_order, (void *)7));
  int pattern = 3;
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mem, &pattern, sizeof pattern, 0,
                                       1 << 20, 1, &gate, NULL));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_INT(0, order_count);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseEvent(gate);
  /* The runtime lets go of the buffer as the command completes: allow it a
   * moment after clFinish. */
  for (int i = 0; i < 5000 && order_count == 0; i++)
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  CHECK_INT(1, order_count);
  CHECK_INT(7, order[0]);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);

  test_every_flag_combination();
  test_sizes_and_context();
  test_info();
  test_copy_host_ptr();
  test_zero_copy();
  test_sub_buffer_errors();
  test_sub_buffer_flags();
  test_sub_buffer_storage();
  test_destructor_callbacks();

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

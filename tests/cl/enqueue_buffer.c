/* clmux: buffer reads, writes, copies, fills (plain and rectangular), maps,
 * unmaps and migrations through the ICD loader — real data checked byte by
 * byte, blocking and non-blocking with events, and every 1.2 error code. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_context other_context;
static cl_command_queue other_queue;

/* ---- Helpers ------------------------------------------------------------- */

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host) {
  cl_int error = 0;
  cl_mem mem = clCreateBuffer(context, flags, size, host, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  return mem;
}

static cl_mem sub_buffer(cl_mem parent, size_t origin, size_t size) {
  cl_buffer_region region = {origin, size};
  cl_int error = 0;
  cl_mem mem = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                 &region, &error);
  REQUIRE(error == CL_SUCCESS && mem);
  return mem;
}

static size_t base_align_bytes(void) {
  cl_uint bits = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                   sizeof bits, &bits, NULL));
  return bits >= 8 ? bits / 8 : 1;
}

static cl_command_type command_type(cl_event event) {
  cl_command_type type = 0;
  CHECK_CL_SUCCESS(
      clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  return type;
}

static cl_int event_status(cl_event event) {
  cl_int status = 0;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL));
  return status;
}

static cl_uint map_count(cl_mem mem) {
  cl_uint count = 0;
  CHECK_CL_SUCCESS(
      clGetMemObjectInfo(mem, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  return count;
}

static void fill_bytes(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}

static cl_event user_event(void) {
  cl_int error = 0;
  cl_event event = clCreateUserEvent(context, &error);
  REQUIRE(error == CL_SUCCESS && event);
  return event;
}

/* The errors read, write and map share for the queue, buffer, context and
 * wait list (one call each, through `call`). */
typedef cl_int (*buffer_call)(cl_command_queue queue, cl_mem mem,
                              cl_uint num_events, const cl_event *events);

static void check_common_errors(buffer_call call, cl_mem mem) {
  cl_int error = 0;
  cl_mem foreign =
      clCreateBuffer(other_context, CL_MEM_READ_WRITE, 4096, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           call((cl_command_queue)context, mem, 0, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT, call(queue, (cl_mem)context, 0, NULL));
  CHECK_CL(CL_INVALID_CONTEXT, call(queue, foreign, 0, NULL));
  CHECK_CL(CL_INVALID_CONTEXT, call(other_queue, mem, 0, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST, call(queue, mem, 1, NULL));
  cl_event gate = user_event();
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST, call(queue, mem, 0, &gate));
  cl_event invalid = (cl_event)mem;
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST, call(queue, mem, 1, &invalid));
  cl_event foreign_event = clCreateUserEvent(other_context, &error);
  CHECK_CL(CL_INVALID_CONTEXT, call(queue, mem, 1, &foreign_event));
  clReleaseEvent(foreign_event);
  clReleaseEvent(gate);
  clReleaseMemObject(foreign);
}

/* ---- Read and write ------------------------------------------------------ */

static unsigned char scratch[4096];

static cl_int read_call(cl_command_queue q, cl_mem mem, cl_uint n,
                        const cl_event *events) {
  return clEnqueueReadBuffer(q, mem, CL_TRUE, 0, 64, scratch, n, events, NULL);
}

static cl_int write_call(cl_command_queue q, cl_mem mem, cl_uint n,
                         const cl_event *events) {
  return clEnqueueWriteBuffer(q, mem, CL_TRUE, 0, 64, scratch, n, events, NULL);
}

static void test_read_write(void) {
  unsigned char in[4096], out[4096];
  fill_bytes(in, sizeof in, 1);
  cl_mem mem = buffer(CL_MEM_READ_WRITE, sizeof in, NULL);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, sizeof in, in,
                                        0, NULL, NULL));
  memset(out, 0, sizeof out);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, sizeof out, out,
                                       0, NULL, NULL));
  CHECK(memcmp(in, out, sizeof in) == 0);

  /* Offsets on both calls; the rest untouched. */
  unsigned char part[100];
  fill_bytes(part, sizeof part, 77);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 1000, 100, part, 0,
                                        NULL, NULL));
  memset(out, 0, sizeof out);
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 990, 120, out, 0, NULL, NULL));
  CHECK(memcmp(out, in + 990, 10) == 0);
  CHECK(memcmp(out + 10, part, 100) == 0);
  CHECK(memcmp(out + 110, in + 1100, 10) == 0);
  /* The very last byte. */
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_TRUE, sizeof in - 1, 1,
                                       out, 0, NULL, NULL));
  CHECK_INT(in[sizeof in - 1], out[0]);

  /* Non-blocking, with events: types and completion. */
  cl_event write_event = NULL, read_event = NULL;
  fill_bytes(in, sizeof in, 9);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, sizeof in, in,
                                        0, NULL, &write_event));
  memset(out, 0, sizeof out);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_FALSE, 0, sizeof out, out,
                                       1, &write_event, &read_event));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &read_event));
  CHECK(memcmp(in, out, sizeof in) == 0);
  CHECK_INT(CL_COMMAND_WRITE_BUFFER, command_type(write_event));
  CHECK_INT(CL_COMMAND_READ_BUFFER, command_type(read_event));
  CHECK_INT(CL_COMPLETE, event_status(write_event));
  CHECK_INT(CL_COMPLETE, event_status(read_event));
  clReleaseEvent(write_event);
  clReleaseEvent(read_event);

  /* Errors. */
  check_common_errors(read_call, mem);
  check_common_errors(write_call, mem);
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, 1, 4096,
                                                 out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, 4096, 1,
                                                 out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16,
                                                 NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, mem, CL_TRUE, SIZE_MAX,
                                                 2, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 4000,
                                                  100, in, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16,
                                                  NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 0, in, 0, NULL, NULL));
  clReleaseMemObject(mem);
}

/* A non-blocking write waits for its wait list and reads the host memory
 * when it runs; the buffer outlives the user's release meanwhile. */
static void test_deferred_write(void) {
  unsigned char host[256] = {0};
  unsigned char source[256];
  fill_bytes(source, sizeof source, 3);
  cl_mem mem = buffer(CL_MEM_USE_HOST_PTR, sizeof host, host);
  cl_event gate = user_event();
  cl_event done = NULL;
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, sizeof source,
                                        source, 1, &gate, &done));
  CHECK_CL_SUCCESS(clReleaseMemObject(mem));
  CHECK_CL_SUCCESS(clFlush(queue));
  CHECK(event_status(done) > CL_COMPLETE);
  CHECK_INT(0, host[1]); /* nothing ran yet */
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &done));
  CHECK(memcmp(host, source, sizeof host) == 0);
  clReleaseEvent(done);
  clReleaseEvent(gate);

  /* A USE_HOST_PTR buffer read back into its own array, as applications
   * often do, and written from it. */
  mem = buffer(CL_MEM_USE_HOST_PTR, sizeof host, host);
  unsigned char one = 0x77;
  CHECK_CL_SUCCESS(
      clEnqueueFillBuffer(queue, mem, &one, 1, 8, 8, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, sizeof host,
                                       host, 0, NULL, NULL));
  CHECK_INT(0x77, host[8]);
  CHECK_INT(source[16], host[16]);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 4, 100, host + 4,
                                        0, NULL, NULL));
  CHECK_INT(0x77, host[15]);
  clReleaseMemObject(mem);

  /* A failed wait-list event fails a blocking read. */
  mem = buffer(CL_MEM_READ_WRITE, 64, NULL);
  gate = user_event();
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, -5));
  unsigned char out[64];
  CHECK_CL(
      CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 64, out, 1, &gate, NULL));
  clReleaseEvent(gate);
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseMemObject(mem);
}

static void test_sub_buffer_transfers(void) {
  size_t align = base_align_bytes();
  size_t size = align * 4;
  unsigned char *in = malloc(size), *out = malloc(size);
  REQUIRE(in && out);
  fill_bytes(in, size, 5);
  cl_mem parent = buffer(CL_MEM_COPY_HOST_PTR, size, in);
  cl_mem sub = sub_buffer(parent, align, align * 2);
  unsigned char part[16];
  fill_bytes(part, sizeof part, 200);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 8, sizeof part,
                                        part, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, size, out, 0, NULL, NULL));
  memcpy(in + align + 8, part, sizeof part);
  CHECK(memcmp(in, out, size) == 0);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, sub, CL_TRUE, 0, align * 2, out,
                                       0, NULL, NULL));
  CHECK(memcmp(in + align, out, align * 2) == 0);
  /* Bounds are the sub-buffer's. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBuffer(queue, sub, CL_TRUE, align, align + 1, out, 0,
                               NULL, NULL));
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  free(in);
  free(out);
}

/* ---- Host-access flags --------------------------------------------------- */

static void test_host_access_flags(void) {
  unsigned char data[64] = {0};
  static const struct {
    cl_mem_flags flags;
    bool can_read, can_write;
  } cases[] = {
      {CL_MEM_HOST_WRITE_ONLY, false, true},
      {CL_MEM_HOST_READ_ONLY, true, false},
      {CL_MEM_HOST_NO_ACCESS, false, false},
      {0, true, true},
  };
  size_t origin[3] = {0, 0, 0}, region[3] = {8, 2, 1};
  for (int i = 0; i < 4; i++) {
    cl_mem mem = buffer(CL_MEM_READ_WRITE | cases[i].flags, sizeof data, NULL);
    cl_int read_result = cases[i].can_read ? CL_SUCCESS : CL_INVALID_OPERATION;
    cl_int write_result =
        cases[i].can_write ? CL_SUCCESS : CL_INVALID_OPERATION;
    CHECK_CL(read_result, clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, data,
                                              0, NULL, NULL));
    CHECK_CL(write_result, clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16,
                                                data, 0, NULL, NULL));
    CHECK_CL(read_result,
             clEnqueueReadBufferRect(queue, mem, CL_TRUE, origin, origin,
                                     region, 0, 0, 0, 0, data, 0, NULL, NULL));
    CHECK_CL(write_result,
             clEnqueueWriteBufferRect(queue, mem, CL_TRUE, origin, origin,
                                      region, 0, 0, 0, 0, data, 0, NULL, NULL));
    static const cl_map_flags maps[] = {CL_MAP_READ, CL_MAP_WRITE,
                                        CL_MAP_WRITE_INVALIDATE_REGION};
    for (int m = 0; m < 3; m++) {
      cl_int expected = m == 0 ? read_result : write_result;
      cl_int error = 12345;
      void *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, maps[m], 0, 16, 0, NULL,
                                   NULL, &error);
      CHECK_CL(expected, error);
      CHECK((p != NULL) == (expected == CL_SUCCESS));
      if (p) {
        CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL));
      }
    }
    /* Device-side commands are not host access. */
    int pattern = 1;
    CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mem, &pattern, sizeof pattern,
                                         0, 16, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clFinish(queue));
    clReleaseMemObject(mem);
  }
}

/* ---- Rectangles ---------------------------------------------------------- */

/* Reference copy of a rectangle between two linear spaces. */
static void rect_copy(unsigned char *dst, const size_t *dst_origin,
                      size_t dst_row, size_t dst_slice,
                      const unsigned char *src, const size_t *src_origin,
                      size_t src_row, size_t src_slice, const size_t *region) {
  for (size_t z = 0; z < region[2]; z++) {
    for (size_t y = 0; y < region[1]; y++) {
      memcpy(dst + (dst_origin[2] + z) * dst_slice +
                 (dst_origin[1] + y) * dst_row + dst_origin[0],
             src + (src_origin[2] + z) * src_slice +
                 (src_origin[1] + y) * src_row + src_origin[0],
             region[0]);
    }
  }
}

enum { BUF_ROW = 24, BUF_SLICE = 24 * 10, BUF_SIZE = 24 * 10 * 5 };
enum { HOST_ROW = 40, HOST_SLICE = 40 * 12, HOST_SIZE = 40 * 12 * 6 };

static void test_rect_read_write(void) {
  static unsigned char initial[BUF_SIZE], host[HOST_SIZE], expect[BUF_SIZE];
  static unsigned char out[BUF_SIZE], host_expect[HOST_SIZE];
  fill_bytes(initial, BUF_SIZE, 11);
  fill_bytes(host, HOST_SIZE, 99);
  cl_mem mem = buffer(CL_MEM_COPY_HOST_PTR, BUF_SIZE, initial);
  size_t buffer_origin[3] = {3, 2, 1}, host_origin[3] = {5, 4, 2};
  size_t region[3] = {13, 7, 3};

  /* Write: host rectangle into the buffer, with explicit pitches. */
  CHECK_CL_SUCCESS(clEnqueueWriteBufferRect(
      queue, mem, CL_TRUE, buffer_origin, host_origin, region, BUF_ROW,
      BUF_SLICE, HOST_ROW, HOST_SLICE, host, 0, NULL, NULL));
  memcpy(expect, initial, BUF_SIZE);
  rect_copy(expect, buffer_origin, BUF_ROW, BUF_SLICE, host, host_origin,
            HOST_ROW, HOST_SLICE, region);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, BUF_SIZE, out, 0,
                                       NULL, NULL));
  CHECK(memcmp(expect, out, BUF_SIZE) == 0);

  /* Read: a buffer rectangle into the host layout; the rest untouched. */
  static unsigned char dest[HOST_SIZE];
  fill_bytes(dest, HOST_SIZE, 1);
  memcpy(host_expect, dest, HOST_SIZE);
  size_t read_origin[3] = {0, 1, 0}, to_origin[3] = {1, 0, 3};
  size_t read_region[3] = {24, 9, 3};
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueReadBufferRect(
      queue, mem, CL_FALSE, read_origin, to_origin, read_region, BUF_ROW,
      BUF_SLICE, HOST_ROW, HOST_SLICE, dest, 0, NULL, &event));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  CHECK_INT(CL_COMMAND_READ_BUFFER_RECT, command_type(event));
  clReleaseEvent(event);
  rect_copy(host_expect, to_origin, HOST_ROW, HOST_SLICE, expect, read_origin,
            BUF_ROW, BUF_SLICE, read_region);
  CHECK(memcmp(host_expect, dest, HOST_SIZE) == 0);

  /* Pitches 0: tightly packed on both sides. */
  size_t zero[3] = {0, 0, 0}, packed_region[3] = {BUF_ROW, 10, 5};
  memset(out, 0, BUF_SIZE);
  CHECK_CL_SUCCESS(clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero,
                                           packed_region, 0, 0, 0, 0, out, 0,
                                           NULL, NULL));
  CHECK(memcmp(expect, out, BUF_SIZE) == 0);
  size_t small_region[3] = {4, 3, 2};
  unsigned char small[24];
  fill_bytes(small, sizeof small, 40);
  CHECK_CL_SUCCESS(clEnqueueWriteBufferRect(queue, mem, CL_FALSE, zero, zero,
                                            small_region, 0, 0, 0, 0, small, 0,
                                            NULL, &event));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  CHECK_INT(CL_COMMAND_WRITE_BUFFER_RECT, command_type(event));
  clReleaseEvent(event);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, BUF_SIZE, out, 0,
                                       NULL, NULL));
  /* Packed 4x3x2 lands at rows of 4 bytes, slices of 12. */
  rect_copy(expect, zero, 4, 12, small, zero, 4, 12, small_region);
  CHECK(memcmp(expect, out, BUF_SIZE) == 0);

  /* Errors. */
  size_t bad_region[3] = {0, 1, 1};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, bad_region,
                                   0, 0, 0, 0, out, 0, NULL, NULL));
  size_t bad_region_z[3] = {1, 1, 0};
  CHECK_CL(CL_INVALID_VALUE, clEnqueueWriteBufferRect(
                                 queue, mem, CL_TRUE, zero, zero, bad_region_z,
                                 0, 0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, NULL, zero, region, 0,
                                   0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, NULL, region, 0,
                                   0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, NULL, 0, 0,
                                   0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, region, 0,
                                   0, 0, 0, NULL, 0, NULL, NULL));
  /* Row pitch below the region's width, slice pitch below a slice or not a
   * multiple of the row pitch: on either side. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, region, 12,
                                   0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, region, 0,
                                   0, 12, 0, out, 0, NULL, NULL));
  CHECK_CL(
      CL_INVALID_VALUE,
      clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, region, BUF_ROW,
                              BUF_ROW * 6, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(
      CL_INVALID_VALUE,
      clEnqueueWriteBufferRect(queue, mem, CL_TRUE, zero, zero, region, 0, 0,
                               HOST_ROW, HOST_ROW * 7 + 1, out, 0, NULL, NULL));
  /* Outside the buffer: one slice too many, one byte too wide. */
  size_t far_origin[3] = {0, 0, 3};
  CHECK_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(
                                 queue, mem, CL_TRUE, far_origin, zero, region,
                                 BUF_ROW, BUF_SLICE, 0, 0, out, 0, NULL, NULL));
  size_t wide_origin[3] = {12, 9, 4}, wide_region[3] = {13, 1, 1};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueWriteBufferRect(queue, mem, CL_TRUE, wide_origin, zero,
                                    wide_region, BUF_ROW, BUF_SLICE, 0, 0,
                                    small, 0, NULL, NULL));
  wide_region[0] = 12; /* exactly the last byte */
  CHECK_CL_SUCCESS(clEnqueueWriteBufferRect(
      queue, mem, CL_TRUE, wide_origin, zero, wide_region, BUF_ROW, BUF_SLICE,
      0, 0, small, 0, NULL, NULL));
  CHECK_CL(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueReadBufferRect((cl_command_queue)mem, mem, CL_TRUE, zero, zero,
                              region, 0, 0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueWriteBufferRect(queue, (cl_mem)queue, CL_TRUE, zero, zero,
                                    region, 0, 0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(
      CL_INVALID_CONTEXT,
      clEnqueueReadBufferRect(other_queue, mem, CL_TRUE, zero, zero,
                              small_region, 0, 0, 0, 0, out, 0, NULL, NULL));
  CHECK_CL(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueReadBufferRect(queue, mem, CL_TRUE, zero, zero, small_region, 0,
                              0, 0, 0, out, 1, NULL, NULL));
  clReleaseMemObject(mem);
}

/* ---- Fill ---------------------------------------------------------------- */

static void test_fill(void) {
  enum { SIZE = 2048 };
  static unsigned char initial[SIZE], out[SIZE], expect[SIZE];
  fill_bytes(initial, SIZE, 17);
  cl_mem mem = buffer(CL_MEM_READ_WRITE, SIZE, NULL);
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    unsigned char pattern[128];
    fill_bytes(pattern, pattern_size, (unsigned)pattern_size * 13);
    CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, SIZE,
                                          initial, 0, NULL, NULL));
    size_t offset = pattern_size * 3, size = pattern_size * 5;
    cl_event event = NULL;
    CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mem, pattern, pattern_size,
                                         offset, size, 0, NULL, &event));
    /* The pattern is copied at once: changing it now changes nothing. */
    memset(pattern, 0xff, sizeof pattern);
    CHECK_CL_SUCCESS(
        clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, SIZE, out, 0, NULL, NULL));
    CHECK_INT(CL_COMMAND_FILL_BUFFER, command_type(event));
    CHECK_INT(CL_COMPLETE, event_status(event));
    clReleaseEvent(event);
    memcpy(expect, initial, SIZE);
    fill_bytes(pattern, pattern_size, (unsigned)pattern_size * 13);
    for (size_t i = 0; i < size; i++) {
      expect[offset + i] = pattern[i % pattern_size];
    }
    if (memcmp(expect, out, SIZE) != 0) {
      fprintf(stderr, "fill with a %zu-byte pattern differs\n", pattern_size);
    }
    CHECK(memcmp(expect, out, SIZE) == 0);
  }
  /* The whole buffer with a float. */
  float value = 2.5f;
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, mem, &value, sizeof value, 0,
                                       SIZE, 0, NULL, NULL));
  float floats[SIZE / sizeof(float)];
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, SIZE, floats, 0, NULL, NULL));
  bool all = true;
  for (size_t i = 0; i < SIZE / sizeof(float); i++)
    all = all && floats[i] == 2.5f;
  CHECK(all);

  /* Errors. */
  unsigned char pattern[256] = {0};
  static const size_t bad_sizes[] = {0, 3, 5, 12, 96, 256};
  for (int i = 0; i < 6; i++) {
    CHECK_CL(CL_INVALID_VALUE,
             clEnqueueFillBuffer(queue, mem, pattern, bad_sizes[i], 0, 768, 0,
                                 NULL, NULL));
  }
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueFillBuffer(queue, mem, NULL, 4, 0, 16, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueFillBuffer(queue, mem, pattern, 4, 2, 16, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueFillBuffer(queue, mem, pattern, 4, 0, 18, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueFillBuffer(queue, mem, pattern, 4, 0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueFillBuffer(queue, mem, pattern, 4, 2044, 8, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, mem, pattern, 4, 0,
                                                 SIZE + 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueFillBuffer((cl_command_queue)mem, mem, pattern, 4, 0, 16, 0,
                               NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueFillBuffer(queue, (cl_mem)queue, pattern, 4, 0, 16, 0, NULL,
                               NULL));
  CHECK_CL(CL_INVALID_CONTEXT, clEnqueueFillBuffer(other_queue, mem, pattern, 4,
                                                   0, 16, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueFillBuffer(queue, mem, pattern, 4, 0, 16, 2, NULL, NULL));
  clReleaseMemObject(mem);
}

/* ---- Copies -------------------------------------------------------------- */

static void test_copy(void) {
  enum { SIZE = 4096 };
  static unsigned char a[SIZE], b[SIZE], out[SIZE], expect[SIZE];
  fill_bytes(a, SIZE, 21);
  fill_bytes(b, SIZE, 77);
  cl_mem src = buffer(CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS, SIZE, a);
  cl_mem dst = buffer(CL_MEM_COPY_HOST_PTR, SIZE, b);
  cl_event event = NULL;
  CHECK_CL_SUCCESS(
      clEnqueueCopyBuffer(queue, src, dst, 100, 1000, 500, 0, NULL, &event));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, SIZE, out, 0, NULL, NULL));
  CHECK_INT(CL_COMMAND_COPY_BUFFER, command_type(event));
  clReleaseEvent(event);
  memcpy(expect, b, SIZE);
  memcpy(expect + 1000, a + 100, 500);
  CHECK(memcmp(expect, out, SIZE) == 0);

  /* Within one buffer, disjoint ranges (touching is not overlapping). */
  CHECK_CL_SUCCESS(
      clEnqueueCopyBuffer(queue, dst, dst, 0, 16, 16, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, SIZE, out, 0, NULL, NULL));
  memcpy(expect + 16, expect, 16);
  CHECK(memcmp(expect, out, SIZE) == 0);
  CHECK_CL(CL_MEM_COPY_OVERLAP,
           clEnqueueCopyBuffer(queue, dst, dst, 0, 15, 16, 0, NULL, NULL));
  CHECK_CL(CL_MEM_COPY_OVERLAP,
           clEnqueueCopyBuffer(queue, dst, dst, 100, 100, 1, 0, NULL, NULL));

  /* Sub-buffers of one parent, and a parent with its sub-buffer: they
   * overlap by their places in the parent. */
  size_t align = base_align_bytes();
  cl_mem first = sub_buffer(dst, 0, align * 2);
  cl_mem second = sub_buffer(dst, align, align * 2);
  CHECK_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, first, second, align,
                                                    0, 16, 0, NULL, NULL));
  CHECK_CL(
      CL_MEM_COPY_OVERLAP,
      clEnqueueCopyBuffer(queue, dst, second, align + 8, 0, 16, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueCopyBuffer(queue, first, second, 0, align, 16, 0, NULL, NULL));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, SIZE, out, 0, NULL, NULL));
  memcpy(expect + align * 2, expect, 16);
  CHECK(memcmp(expect, out, SIZE) == 0);

  /* Errors. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBuffer(queue, src, dst, 0, 0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, SIZE - 10, 0,
                                                 11, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, dst, 0, SIZE - 10,
                                                 11, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, src, first, 0, 0,
                                                 align * 2 + 1, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueCopyBuffer((cl_command_queue)src, src, dst, 0, 0, 4, 0,
                               NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, (cl_mem)queue, dst,
                                                      0, 0, 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, src, (cl_mem)queue,
                                                      0, 0, 4, 0, NULL, NULL));
  cl_int error = 0;
  cl_mem foreign =
      clCreateBuffer(other_context, CL_MEM_READ_WRITE, SIZE, NULL, &error);
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueCopyBuffer(queue, src, foreign, 0, 0, 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueCopyBuffer(queue, foreign, dst, 0, 0, 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueCopyBuffer(other_queue, src, dst, 0, 0, 4, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueCopyBuffer(queue, src, dst, 0, 0, 4, 1, NULL, NULL));
  clReleaseMemObject(foreign);
  clReleaseMemObject(first);
  clReleaseMemObject(second);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
}

static void test_copy_rect(void) {
  static unsigned char a[BUF_SIZE], b[HOST_SIZE], out[HOST_SIZE];
  static unsigned char expect[HOST_SIZE];
  fill_bytes(a, BUF_SIZE, 3);
  fill_bytes(b, HOST_SIZE, 8);
  cl_mem src = buffer(CL_MEM_COPY_HOST_PTR, BUF_SIZE, a);
  cl_mem dst = buffer(CL_MEM_COPY_HOST_PTR, HOST_SIZE, b);
  size_t src_origin[3] = {2, 3, 1}, dst_origin[3] = {10, 1, 2};
  size_t region[3] = {20, 6, 4};
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueCopyBufferRect(
      queue, src, dst, src_origin, dst_origin, region, BUF_ROW, BUF_SLICE,
      HOST_ROW, HOST_SLICE, 0, NULL, &event));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, HOST_SIZE, out,
                                       0, NULL, NULL));
  CHECK_INT(CL_COMMAND_COPY_BUFFER_RECT, command_type(event));
  clReleaseEvent(event);
  memcpy(expect, b, HOST_SIZE);
  rect_copy(expect, dst_origin, HOST_ROW, HOST_SLICE, a, src_origin, BUF_ROW,
            BUF_SLICE, region);
  CHECK(memcmp(expect, out, HOST_SIZE) == 0);

  /* One buffer: side-by-side rectangles in the same rows are disjoint;
   * pitches must agree; overlapping rectangles are refused. */
  size_t left[3] = {0, 0, 0}, right[3] = {20, 0, 0}, half[3] = {20, 12, 6};
  CHECK_CL_SUCCESS(clEnqueueCopyBufferRect(queue, dst, dst, left, right, half,
                                           HOST_ROW, HOST_SLICE, HOST_ROW,
                                           HOST_SLICE, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, HOST_SIZE, out,
                                       0, NULL, NULL));
  rect_copy(expect, right, HOST_ROW, HOST_SLICE, expect, left, HOST_ROW,
            HOST_SLICE, half);
  CHECK(memcmp(expect, out, HOST_SIZE) == 0);
  size_t shifted[3] = {19, 0, 0};
  CHECK_CL(
      CL_MEM_COPY_OVERLAP,
      clEnqueueCopyBufferRect(queue, dst, dst, left, shifted, half, HOST_ROW,
                              HOST_SLICE, HOST_ROW, HOST_SLICE, 0, NULL, NULL));
  /* Different slices of one buffer: disjoint; one row in common: not. */
  size_t slice0[3] = {0, 0, 0}, slice3[3] = {0, 0, 3}, three[3] = {40, 12, 3};
  CHECK_CL_SUCCESS(
      clEnqueueCopyBufferRect(queue, dst, dst, slice0, slice3, three, HOST_ROW,
                              HOST_SLICE, HOST_ROW, HOST_SLICE, 0, NULL, NULL));
  size_t row11[3] = {0, 11, 2};
  CHECK_CL(
      CL_MEM_COPY_OVERLAP,
      clEnqueueCopyBufferRect(queue, dst, dst, slice0, row11, three, HOST_ROW,
                              HOST_SLICE, HOST_ROW, HOST_SLICE, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, dst, dst, left, right, half, HOST_ROW,
                                   HOST_SLICE, HOST_ROW * 2, HOST_SLICE * 2, 0,
                                   NULL, NULL));

  /* Errors. */
  size_t zero[3] = {0, 0, 0}, empty[3] = {4, 0, 1};
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, zero, zero, empty, 0, 0, 0,
                                   0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, NULL, zero, region, 0, 0, 0,
                                   0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, zero, NULL, region, 0, 0, 0,
                                   0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, zero, zero, NULL, 0, 0, 0,
                                   0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, zero, zero, region, 10, 0,
                                   0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueCopyBufferRect(queue, src, dst, zero, zero, region, BUF_ROW,
                                   BUF_ROW * 5, 0, 0, 0, NULL, NULL));
  size_t too_deep[3] = {20, 6, 6};
  CHECK_CL(
      CL_INVALID_VALUE,
      clEnqueueCopyBufferRect(queue, src, dst, zero, zero, too_deep, BUF_ROW,
                              BUF_SLICE, HOST_ROW, HOST_SLICE, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueCopyBufferRect((cl_command_queue)src, src, dst, zero, zero,
                                   region, 0, 0, 0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueCopyBufferRect(queue, src, (cl_mem)queue, zero, zero,
                                   region, 0, 0, 0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueCopyBufferRect(other_queue, src, dst, zero, zero, region, 0,
                                   0, 0, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueCopyBufferRect(queue, src, dst, zero, zero, region, 0, 0, 0,
                                   0, 1, NULL, NULL));
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
}

/* ---- Map and unmap ------------------------------------------------------- */

static cl_int map_call(cl_command_queue q, cl_mem mem, cl_uint n,
                       const cl_event *events) {
  cl_int error = 12345;
  void *p = clEnqueueMapBuffer(q, mem, CL_TRUE, CL_MAP_READ, 0, 64, n, events,
                               NULL, &error);
  if (p) clEnqueueUnmapMemObject(q, mem, p, 0, NULL, NULL);
  if ((p != NULL) != (error == CL_SUCCESS)) return -9999;
  return error;
}

static void test_map(void) {
  enum { SIZE = 1024 };
  unsigned char data[SIZE], out[SIZE];
  fill_bytes(data, SIZE, 50);
  cl_mem mem = buffer(CL_MEM_COPY_HOST_PTR, SIZE, data);
  cl_int error = 0;
  cl_event event = NULL;

  /* Blocking map: the contents, then writes through it seen by a read. */
  unsigned char *p =
      clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 100,
                         200, 0, NULL, &event, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(p);
  CHECK_INT(CL_COMMAND_MAP_BUFFER, command_type(event));
  CHECK_INT(CL_COMPLETE, event_status(event));
  clReleaseEvent(event);
  CHECK(memcmp(p, data + 100, 200) == 0);
  CHECK_INT(1, map_count(mem));
  p[0] = 0x11;
  p[199] = 0x22;
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, &event));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  CHECK_INT(CL_COMMAND_UNMAP_MEM_OBJECT, command_type(event));
  clReleaseEvent(event);
  CHECK_INT(0, map_count(mem));
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, SIZE, out, 0, NULL, NULL));
  data[100] = 0x11;
  data[299] = 0x22;
  CHECK(memcmp(data, out, SIZE) == 0);

  /* A write, then a map of what it wrote. */
  unsigned char fresh[64];
  fill_bytes(fresh, 64, 123);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 512, 64, fresh, 0,
                                        NULL, NULL));
  p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 512, 64, 0, NULL,
                         NULL, NULL);
  CHECK(p != NULL);
  if (p) {
    CHECK(memcmp(p, fresh, 64) == 0);
    CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL));
  }

  /* Several live mappings, also of one pointer; unmapping counts down and a
   * pointer no longer mapped is refused. */
  void *m1 = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 16, 0,
                                NULL, NULL, &error);
  void *m2 = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 16, 0,
                                NULL, NULL, &error);
  void *m3 = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE, 32, 16, 0,
                                NULL, NULL, &error);
  CHECK(m1 && m2 && m3);
  CHECK(m1 == m2);
  CHECK((unsigned char *)m3 == (unsigned char *)m1 + 32);
  CHECK_INT(3, map_count(mem));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueUnmapMemObject(queue, mem, (unsigned char *)m1 + 1, 0, NULL,
                                   NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueUnmapMemObject(queue, mem, NULL, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueUnmapMemObject(queue, mem, data, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, m1, 0, NULL, NULL));
  CHECK_INT(2, map_count(mem));
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, m2, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueUnmapMemObject(queue, mem, m2, 0, NULL, NULL));
  /* Unmap's own errors. */
  CHECK_CL(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueUnmapMemObject((cl_command_queue)mem, mem, m3, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueUnmapMemObject(queue, (cl_mem)queue, m3, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueUnmapMemObject(other_queue, mem, m3, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueUnmapMemObject(queue, mem, m3, 1, NULL, NULL));
  CHECK_INT(1, map_count(mem)); /* the failed unmaps left m3 mapped */
  CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, m3, 0, NULL, NULL));
  CHECK_INT(0, map_count(mem));

  /* Non-blocking map behind a user event: usable once its event is done. */
  cl_event gate = user_event();
  CHECK_CL_SUCCESS(
      clEnqueueFillBuffer(queue, mem, "\x42", 1, 0, SIZE, 1, &gate, NULL));
  p = clEnqueueMapBuffer(queue, mem, CL_FALSE, CL_MAP_READ, 0, SIZE, 0, NULL,
                         &event, &error);
  CHECK_CL_SUCCESS(error);
  CHECK(p != NULL);
  CHECK_CL_SUCCESS(clFlush(queue));
  CHECK(event_status(event) > CL_COMPLETE);
  CHECK_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  if (p) {
    CHECK_INT(0x42, p[0]);
    CHECK_INT(0x42, p[SIZE - 1]);
    CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL));
  }
  clReleaseEvent(event);
  clReleaseEvent(gate);

  /* WRITE_INVALIDATE_REGION maps for writing. */
  p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                         8, 0, NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  if (p) {
    memcpy(p, "abcdefgh", 8);
    CHECK_CL_SUCCESS(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL));
    CHECK_CL_SUCCESS(
        clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 8, out, 0, NULL, NULL));
    CHECK(memcmp(out, "abcdefgh", 8) == 0);
  }

  /* Map errors. */
  static const cl_map_flags bad_flags[] = {
      CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ,
      CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_WRITE, (cl_map_flags)1 << 10};
  for (int i = 0; i < 3; i++) {
    error = 0;
    CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, bad_flags[i], 0, 16, 0, NULL,
                             NULL, &error) == NULL);
    CHECK_CL(CL_INVALID_VALUE, error);
  }
  CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL,
                           NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, SIZE - 4, 8, 0,
                           NULL, NULL, &error) == NULL);
  CHECK_CL(CL_INVALID_VALUE, error);
  check_common_errors(map_call, mem);
  CHECK_INT(0, map_count(mem));

  /* A sub-buffer maps onto its parent's bytes. */
  size_t align = base_align_bytes();
  cl_mem parent = buffer(CL_MEM_READ_WRITE, align * 3, NULL);
  cl_mem sub = sub_buffer(parent, align, align);
  unsigned char *whole = clEnqueueMapBuffer(
      queue, parent, CL_TRUE, CL_MAP_READ, 0, align * 3, 0, NULL, NULL, &error);
  unsigned char *part = clEnqueueMapBuffer(queue, sub, CL_TRUE, CL_MAP_WRITE, 4,
                                           8, 0, NULL, NULL, &error);
  CHECK(whole && part && part == whole + align + 4);
  CHECK_INT(1, map_count(parent));
  CHECK_INT(1, map_count(sub));
  /* Each object's mappings are its own. */
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueUnmapMemObject(queue, parent, part, 0, NULL, NULL));
  if (part) clEnqueueUnmapMemObject(queue, sub, part, 0, NULL, NULL);
  if (whole) clEnqueueUnmapMemObject(queue, parent, whole, 0, NULL, NULL);
  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  clReleaseMemObject(mem);
}

/* ---- Migrate ------------------------------------------------------------- */

static void test_migrate(void) {
  unsigned char data[64];
  fill_bytes(data, 64, 2);
  cl_mem mems[2] = {buffer(CL_MEM_COPY_HOST_PTR, 64, data),
                    buffer(CL_MEM_READ_WRITE, 32, NULL)};
  static const cl_mem_migration_flags good[] = {
      0, CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
  for (int i = 0; i < 4; i++) {
    cl_event event = NULL;
    CHECK_CL_SUCCESS(
        clEnqueueMigrateMemObjects(queue, 2, mems, good[i], 0, NULL, &event));
    CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
    CHECK_INT(CL_COMMAND_MIGRATE_MEM_OBJECTS, command_type(event));
    clReleaseEvent(event);
  }
  /* Nothing moved or changed. */
  unsigned char out[64];
  CHECK_CL_SUCCESS(
      clEnqueueReadBuffer(queue, mems[0], CL_TRUE, 0, 64, out, 0, NULL, NULL));
  CHECK(memcmp(data, out, 64) == 0);

  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueMigrateMemObjects(queue, 2, mems, 1 << 5, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueMigrateMemObjects(queue, 0, mems, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clEnqueueMigrateMemObjects(queue, 1, NULL, 0, 0, NULL, NULL));
  cl_mem bad[2] = {mems[0], (cl_mem)queue};
  CHECK_CL(CL_INVALID_MEM_OBJECT,
           clEnqueueMigrateMemObjects(queue, 2, bad, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_COMMAND_QUEUE,
           clEnqueueMigrateMemObjects((cl_command_queue)mems[0], 2, mems, 0, 0,
                                      NULL, NULL));
  CHECK_CL(CL_INVALID_CONTEXT,
           clEnqueueMigrateMemObjects(other_queue, 2, mems, 0, 0, NULL, NULL));
  CHECK_CL(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueMigrateMemObjects(queue, 2, mems, 0, 1, NULL, NULL));
  clReleaseMemObject(mems[0]);
  clReleaseMemObject(mems[1]);
}

/* ---- Many commands in flight --------------------------------------------- */

/* A chain of non-blocking copies through several buffers, flushed once:
 * the queue keeps them in order. */
static void test_chain(void) {
  enum { SIZE = 1 << 16, COUNT = 8 };
  unsigned char *in = malloc(SIZE), *out = malloc(SIZE);
  REQUIRE(in && out);
  fill_bytes(in, SIZE, 7);
  cl_mem mems[COUNT];
  for (int i = 0; i < COUNT; i++)
    mems[i] = buffer(CL_MEM_READ_WRITE, SIZE, NULL);
  CHECK_CL_SUCCESS(clEnqueueWriteBuffer(queue, mems[0], CL_FALSE, 0, SIZE, in,
                                        0, NULL, NULL));
  for (int i = 1; i < COUNT; i++) {
    CHECK_CL_SUCCESS(clEnqueueCopyBuffer(queue, mems[i - 1], mems[i], 0, 0,
                                         SIZE, 0, NULL, NULL));
  }
  /* Released while queued: the commands keep them alive. */
  for (int i = 0; i < COUNT - 1; i++) clReleaseMemObject(mems[i]);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, mems[COUNT - 1], CL_TRUE, 0, SIZE,
                                       out, 0, NULL, NULL));
  CHECK(memcmp(in, out, SIZE) == 0);
  clReleaseMemObject(mems[COUNT - 1]);
  free(in);
  free(out);
}

/* ---- Many threads -------------------------------------------------------- */

enum { THREADS = 4, ROUNDS = 40 };
static cl_mem shared_buffer;

/* Each thread: its own buffers through the shared queue, and maps of one
 * shared buffer, so that creation, enqueues and map bookkeeping race. */
static void *thread_body(void *arg) {
  int id = (int)(intptr_t)arg;
  int failures = 0;
  for (int round = 0; round < ROUNDS; round++) {
    unsigned char in[512], out[512];
    fill_bytes(in, sizeof in, (unsigned)(id * 100 + round));
    cl_int error = 0;
    cl_mem mem =
        clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof in, NULL, &error);
    if (error != CL_SUCCESS) {
      failures++;
      continue;
    }
    cl_mem sub = NULL;
    cl_buffer_region region = {0, 256};
    sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region,
                            &error);
    failures += error != CL_SUCCESS;
    failures += clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, sizeof in, in, 0,
                                     NULL, NULL) != CL_SUCCESS;
    void *p = clEnqueueMapBuffer(queue, shared_buffer, CL_TRUE, CL_MAP_READ,
                                 (size_t)id * 64, 64, 0, NULL, NULL, &error);
    failures += p == NULL;
    failures += clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, sizeof out, out, 0,
                                    NULL, NULL) != CL_SUCCESS;
    failures += memcmp(in, out, sizeof in) != 0;
    if (p) {
      failures += clEnqueueUnmapMemObject(queue, shared_buffer, p, 0, NULL,
                                          NULL) != CL_SUCCESS;
    }
    if (sub) clReleaseMemObject(sub);
    clReleaseMemObject(mem);
  }
  return (void *)(intptr_t)failures;
}

static void test_threads(void) {
  shared_buffer = buffer(CL_MEM_READ_WRITE, 64 * THREADS, NULL);
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, thread_body,
                           (void *)(intptr_t)i) == 0);
  }
  for (int i = 0; i < THREADS; i++) {
    void *failures = NULL;
    pthread_join(threads[i], &failures);
    CHECK_INT(0, (intptr_t)failures);
  }
  CHECK_CL_SUCCESS(clFinish(queue));
  CHECK_INT(0, map_count(shared_buffer));
  clReleaseMemObject(shared_buffer);
}

int main(void) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  other_context = cl_test_context(device);
  other_queue = cl_test_queue(other_context, device, 0);

  test_read_write();
  test_deferred_write();
  test_sub_buffer_transfers();
  test_host_access_flags();
  test_rect_read_write();
  test_fill();
  test_copy();
  test_copy_rect();
  test_map();
  test_migrate();
  test_chain();
  test_threads();

  CHECK_CL_SUCCESS(clFinish(queue));
  clReleaseCommandQueue(other_queue);
  clReleaseCommandQueue(queue);
  clReleaseContext(other_context);
  clReleaseContext(context);
  return check_finish();
}

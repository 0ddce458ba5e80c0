/* printf across work-items and work-groups: each group's lines appear
 * together, its work-items in local linear order, each item's lines in
 * program order (inside a loop and a branch too); printf returns 0, and -1
 * once a group's records fill CL_DEVICE_PRINTF_BUFFER_SIZE. */
#include "printf_test.h"

static const char source[] =
    "kernel void order(global int *results) {\n"
    "  int x = get_local_id(0), y = get_local_id(1);\n"
    "  int r = printf(\"group %d,%d item %d,%d\\n\", (int)get_group_id(0),\n"
    "                 (int)get_group_id(1), x, y);\n"
    "  for (int k = 0; k < x; k++) {\n"
    "    r |= printf(\"group %d,%d item %d,%d loop %d\\n\",\n"
    "                (int)get_group_id(0), (int)get_group_id(1), x, y, k);\n"
    "  }\n"
    "  if ((x + y) % 2) {\n"
    "    r |= printf(\"group %d,%d item %d,%d odd\\n\", (int)get_group_id(0),\n"
    "                (int)get_group_id(1), x, y);\n"
    "  }\n"
    "  results[get_global_id(1) * get_global_size(0) + get_global_id(0)] = r;\n"
    "}\n"
    "kernel void flood(global int *results, int count) {\n"
    "  int ok = 0, full = 0;\n"
    "  for (int k = 0; k < count; k++) {\n"
    "    int r = printf(\"%d\\n\", k);\n"
    "    ok += r == 0;\n"
    "    full += r == -1;\n"
    "  }\n"
    "  results[0] = ok;\n"
    "  results[1] = full;\n"
    "}\n";

/* The lines of one work-group as the kernel prints them, in order. */
static void group_expected(text *t, int gx, int gy, int lx, int ly) {
  for (int y = 0; y < ly; y++) {
    for (int x = 0; x < lx; x++) {
      text_add(t, "group %d,%d item %d,%d\n", gx, gy, x, y);
      for (int k = 0; k < x; k++) {
        text_add(t, "group %d,%d item %d,%d loop %d\n", gx, gy, x, y, k);
      }
      if ((x + y) % 2) text_add(t, "group %d,%d item %d,%d odd\n", gx, gy, x, y);
    }
  }
}

static void test_order(mux_kernel_t kernel, size_t gx, size_t gy, size_t lx,
                       size_t ly) {
  size_t items = gx * gy;
  int32_t *results = malloc(items * sizeof *results);
  REQUIRE(results);
  for (size_t i = 0; i < items; i++) results[i] = 7;
  host_buffer buffer = host_buffer_create(results, items * sizeof *results);
  mux_descriptor_info_t args[1] = {buffer_arg(&buffer)};
  const size_t global[3] = {gx, gy, 1}, offset[3] = {0, 0, 0},
               local[3] = {lx, ly, 1};
  stdout_capture capture;
  capture_start(&capture);
  mux_result_t result = run_ndrange(kernel, args, 1, 2, global, offset, local);
  char *actual = capture_end(&capture);
  CHECK_SUCCESS(result);

  /* Groups may finish in any order, but each one's text is one piece. */
  size_t groups_x = gx / lx, groups_y = gy / ly, found = 0;
  size_t total = 0;
  for (size_t j = 0; j < groups_y; j++) {
    for (size_t i = 0; i < groups_x; i++) {
      text expected = {NULL, 0, 0};
      group_expected(&expected, (int)i, (int)j, (int)lx, (int)ly);
      total += expected.length;
      const char *at = strstr(actual, expected.data);
      bool whole_line = at && (at == actual || at[-1] == '\n');
      found += whole_line;
      if (!whole_line) {
        fprintf(stderr, "group %zu,%zu: its lines are not together, in "
                "order\n", i, j);
      }
      free(expected.data);
    }
  }
  CHECK_INT(groups_x * groups_y, found);
  CHECK_INT(total, strlen(actual));
  host_buffer_read(&buffer, results);
  int nonzero = 0;
  for (size_t i = 0; i < items; i++) nonzero += results[i] != 0;
  CHECK_INT(0, nonzero);
  free(actual);
  free(results);
  host_buffer_destroy(&buffer);
}

/* One work-item prints far more than the buffer holds: every record is
 * 32 bytes (header, one int argument), so exactly 1 MiB / 32 fit. */
static void test_flood(mux_kernel_t kernel) {
  int32_t results[2] = {7, 7};
  int32_t count = 40000;
  host_buffer buffer = host_buffer_create(results, sizeof results);
  mux_descriptor_info_t args[2] = {buffer_arg(&buffer),
                                   value_arg(&count, sizeof count)};
  stdout_capture capture;
  capture_start(&capture);
  mux_result_t result = run_1d(kernel, args, 2, 1, 1);
  char *actual = capture_end(&capture);
  CHECK_SUCCESS(result);
  host_buffer_read(&buffer, results);
  enum { fit = (1 << 20) / 32 };
  CHECK_INT(fit, results[0]);
  CHECK_INT(count - fit, results[1]);
  text expected = {NULL, 0, 0};
  for (int k = 0; k < fit; k++) text_add(&expected, "%d\n", k);
  check_text("flood", expected.data, actual);
  free(expected.data);
  free(actual);
  host_buffer_destroy(&buffer);
}

int main(void) {
  printf_test_start();
  LLVMModuleRef module = compile_lowered(source);
  REQUIRE(module);
  cc_kernel_request requests[2] = {{"order", {0, 0, 0}, false, NULL, false, {0, 0, 0}},
                                   {"flood", {0, 0, 0}, false, NULL, false, {0, 0, 0}}};
  mux_executable_t executable = build_executable(target, module, requests, 2);
  LLVMDisposeModule(module);
  REQUIRE(executable);
  mux_kernel_t order = create_kernel(executable, "order");
  test_order(order, 5, 1, 5, 1);   /* one group */
  test_order(order, 12, 6, 4, 3);  /* 3 x 2 groups of 4 x 3 */
  test_order(order, 64, 64, 8, 2); /* 256 groups over every worker */
  mux_kernel_t flood = create_kernel(executable, "flood");
  test_flood(flood);
  test_flood(flood); /* the next group starts with an empty buffer */
  muxDestroyKernel(device, order, mux_test_allocator);
  muxDestroyKernel(device, flood, mux_test_allocator);
  muxDestroyExecutable(device, executable, mux_test_allocator);
  return printf_test_finish();
}

/* Sub-groups (OpenCL C 3.0 __opencl_c_subgroups, cl_khr_subgroups) through
 * the loader. Every work-item records its sub-group (id, local id, size,
 * count, max size) and the results of the sub-group functions; the host
 * rebuilds the sub-groups from the ids alone, checks that they partition
 * each work-group as the spec says, and recomputes every reduction, scan,
 * broadcast and vote over each sub-group's work-items in local-id order.
 * For int, uint, long, ulong, float and double; in 1, 2 and 3 dimensions,
 * rows that are not a multiple of the sub-group size, non-uniform
 * NDRanges; in branches and loops uniform per sub-group, and between
 * barriers. clGetKernelSubGroupInfo must agree with what kernels see;
 * sub-groups are the vectorizer's lanes, so more than one work-item wide
 * where a kernel vectorizes. Programs reloaded from a binary in another
 * process see the same. */
#define CL_TARGET_OPENCL_VERSION 300
#include <math.h>

#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* Per work-item: 6 ids, then RESULTS values of type T. */
enum { IDS = 6, RESULTS = 12 };

static const char source[] =
    "#define ID_COUNT 6\n"
    "#define RESULT_COUNT 12\n"
    "static void record_ids(global uint *ids, size_t index) {\n"
    "  global uint *o = ids + index * ID_COUNT;\n"
    "  o[0] = get_sub_group_id();\n"
    "  o[1] = get_sub_group_local_id();\n"
    "  o[2] = get_sub_group_size();\n"
    "  o[3] = get_num_sub_groups();\n"
    "  o[4] = get_max_sub_group_size();\n"
    "  o[5] = get_enqueued_num_sub_groups();\n"
    "}\n"
    "static size_t item_index(void) {\n"
    "  size_t index = 0, stride = 1;\n"
    "  for (uint d = 0; d < get_work_dim(); d++) {\n"
    "    index += (get_global_id(d) - get_global_offset(d)) * stride;\n"
    "    stride *= get_global_size(d);\n"
    "  }\n"
    "  return index;\n"
    "}\n"
    /* Small whole values: sums are exact in every type. */
    "static T value_of(uint i) {\n"
    "  return (T)((i * 7 + 3) % 23) - (T)BIAS;\n"
    "}\n"
    "kernel void collect(global uint *ids, global T *out) {\n"
    "  size_t index = item_index();\n"
    "  record_ids(ids, index);\n"
    "  T x = value_of(get_local_linear_id());\n"
    "  global T *o = out + index * RESULT_COUNT;\n"
    "  o[0] = sub_group_reduce_add(x);\n"
    "  o[1] = sub_group_reduce_min(x);\n"
    "  o[2] = sub_group_reduce_max(x);\n"
    "  o[3] = sub_group_scan_inclusive_add(x);\n"
    "  o[4] = sub_group_scan_exclusive_add(x);\n"
    "  o[5] = sub_group_scan_inclusive_min(x);\n"
    "  o[6] = sub_group_scan_exclusive_max(x);\n"
    "  o[7] = sub_group_scan_exclusive_min(x);\n"
    "  o[8] = sub_group_broadcast(x, get_sub_group_size() - 1);\n"
    "  o[9] = sub_group_all(x > (T)4 - (T)BIAS);\n"
    "  o[10] = sub_group_any(x == (T)10 - (T)BIAS);\n"
    /* Branches and loops the same in every work-item of a sub-group. */
    "  T r = 0;\n"
    "  if (get_sub_group_id() % 2) r = sub_group_reduce_max(x);\n"
    "  else r = sub_group_scan_inclusive_add(x);\n"
    "  for (uint k = 0; k < get_sub_group_id() % 3; k++)\n"
    "    r += sub_group_reduce_add(x);\n"
    "  o[11] = r;\n"
    "}\n"
    /* Between barriers: each work-item reads another's sub-group sum. */
    "kernel void stepped(global uint *ids, global T *out, local T *sums) {\n"
    "  size_t index = item_index();\n"
    "  record_ids(ids, index);\n"
    "  uint me = get_local_linear_id();\n"
    "  sums[me] = sub_group_reduce_add(value_of(me));\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint items = get_local_size(0) * get_local_size(1) * "
    "get_local_size(2);\n"
    "  out[index] = sums[(me + 1) % items] + "
    "sub_group_scan_exclusive_add((T)1);\n"
    "}\n"
    /* The cl_khr_subgroup_* extensions, on int: non-uniform arithmetic in
     * branches that differ from lane to lane, ballots, shuffles,
     * rotations, clusters, votes, vectors and chars. */
    "#ifdef EXTENSIONS\n"
    "kernel void extended(global uint *ids, global int *out) {\n"
    "  size_t index = item_index();\n"
    "  record_ids(ids, index);\n"
    "  int x = value_of(get_local_linear_id());\n"
    "  uint lane = get_sub_group_local_id(), size = get_sub_group_size();\n"
    "  global int *o = out + index * RESULT_COUNT;\n"
    "  if (x & 1) o[0] = sub_group_non_uniform_reduce_max(x);\n"
    "  else o[0] = sub_group_non_uniform_scan_inclusive_add(x);\n"
    "  o[1] = sub_group_ballot_bit_count(sub_group_ballot(x > 0));\n"
    "  o[2] = sub_group_shuffle(x, (lane * 5 + 1) % size);\n"
    "  o[3] = sub_group_shuffle_xor(x, 1);\n"
    "  o[4] = sub_group_shuffle_down(x, 1);\n"
    "  o[5] = sub_group_rotate(x, -3);\n"
    "  o[6] = sub_group_clustered_reduce_add(x, 4);\n"
    "  o[7] = sub_group_elect();\n"
    "  o[8] = sub_group_non_uniform_all_equal(x / 100);\n"
    "  o[9] = sub_group_broadcast((int2)(x, -x), size - 1).y;\n"
    "  o[10] = sub_group_reduce_max((char)x);\n"
    "  o[11] = sub_group_ballot_exclusive_scan(sub_group_ballot(x & 1));\n"
    "}\n"
    "#endif\n";

typedef struct type_case {
  const char *name;
  size_t size;
  bool is_float, is_signed;
} type_case;

static const type_case types[] = {
    {"int", 4, false, true},  {"uint", 4, false, false},
    {"long", 8, false, true}, {"ulong", 8, false, false},
    {"float", 4, true, true}, {"double", 8, true, true},
};

typedef struct shape {
  cl_uint dims;
  size_t global[3], local[3];
} shape;

static const shape shapes[] = {
    {1, {256, 1, 1}, {64, 1, 1}}, {1, {96, 1, 1}, {24, 1, 1}},
    {1, {40, 1, 1}, {16, 1, 1}}, /* non-uniform */
    {1, {50, 1, 1}, {50, 1, 1}},  {1, {7, 1, 1}, {1, 1, 1}},
    {2, {24, 6, 1}, {12, 3, 1}},  {2, {20, 5, 1}, {8, 2, 1}}, /* n.-u. */
    {3, {8, 4, 4}, {4, 2, 2}},
};
enum { shape_count = sizeof shapes / sizeof shapes[0] };

/* A value of type t at `p`, as a double (all are small whole numbers). */
static double get(const type_case *t, const unsigned char *p) {
  if (t->is_float) {
    if (t->size == 4) {
      float f;
      memcpy(&f, p, 4);
      return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
  }
  if (t->size == 4) {
    uint32_t u;
    memcpy(&u, p, 4);
    return t->is_signed ? (double)(int32_t)u : (double)u;
  }
  uint64_t u;
  memcpy(&u, p, 8);
  return t->is_signed ? (double)(int64_t)u : (double)u;
}

static double bias(const type_case *t) { return t->is_signed ? 11 : 0; }
static double value_of(const type_case *t, size_t i) {
  return (double)((i * 7 + 3) % 23) - bias(t);
}
/* The identities of min and max as the type holds them. */
static double type_max(const type_case *t) {
  if (t->is_float) return INFINITY;
  if (t->size == 4) return t->is_signed ? 2147483647.0 : 4294967295.0;
  return t->is_signed ? 9223372036854775807.0 : 18446744073709551615.0;
}
static double type_min(const type_case *t) {
  if (t->is_float) return -INFINITY;
  if (!t->is_signed) return 0;
  return t->size == 4 ? -2147483648.0 : -9223372036854775808.0;
}

/* Where each work-item of the NDRange is: its group (linear) and local
 * linear id, from its index. */
static void place(const shape *s, size_t index, size_t *group, size_t *local,
                  size_t local_size[3]) {
  size_t id[3] = {0, 0, 0}, rest = index;
  for (cl_uint d = 0; d < s->dims; d++) {
    id[d] = rest % s->global[d];
    rest /= s->global[d];
  }
  size_t g = 0, l = 0, groups_stride = 1, local_stride = 1;
  for (cl_uint d = 0; d < 3; d++) {
    size_t enqueued = d < s->dims ? s->local[d] : 1;
    size_t global = d < s->dims ? s->global[d] : 1;
    size_t gid = id[d] / enqueued;
    size_t groups = (global + enqueued - 1) / enqueued;
    local_size[d] =
        gid == groups - 1 && global % enqueued ? global % enqueued : enqueued;
    g += gid * groups_stride;
    groups_stride *= groups;
    l += (id[d] % enqueued) * local_stride;
    local_stride *= local_size[d];
  }
  *group = g;
  *local = l;
}

typedef struct item {
  size_t group, local, index;
  uint32_t id[IDS];
} item;

static int by_sub_group(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  if (x->id[0] != y->id[0]) return x->id[0] < y->id[0] ? -1 : 1;
  return x->id[1] < y->id[1] ? -1 : x->id[1] > y->id[1];
}

/* The sub-groups the ids describe, sorted by group, sub-group and lane;
 * NULL if they do not partition the groups as the spec says. *widest is
 * the largest max sub-group size seen. */
static item *sub_groups_of(const shape *s, const uint32_t *ids, size_t n,
                           uint32_t *widest) {
  item *items = calloc(n, sizeof *items);
  REQUIRE(items);
  size_t enqueued_items = 1;
  for (cl_uint d = 0; d < s->dims; d++) enqueued_items *= s->local[d];
  uint32_t max_size = ids[4];
  *widest = max_size;
  bool ok = max_size >= 1;
  for (size_t i = 0; i < n; i++) {
    size_t local_size[3];
    items[i].index = i;
    place(s, i, &items[i].group, &items[i].local, local_size);
    memcpy(items[i].id, ids + i * IDS, sizeof items[i].id);
    const uint32_t *id = items[i].id;
    ok &= id[4] == max_size && id[2] >= 1 && id[2] <= max_size &&
          id[1] < id[2] && id[0] < id[3];
    /* The enqueued count: the count of a full group. */
    ok &= id[5] >= 1 && id[5] <= enqueued_items;
  }
  qsort(items, n, sizeof *items, by_sub_group);
  /* Within each group: sub-groups 0 .. count-1, each lanes 0 .. size-1. */
  for (size_t i = 0; i < n && ok;) {
    size_t j = i;
    uint32_t expected_sub_group = 0;
    while (j < n && items[j].group == items[i].group && ok) {
      size_t k = j;
      uint32_t size = items[j].id[2];
      while (k < n && items[k].group == items[j].group &&
             items[k].id[0] == items[j].id[0]) {
        ok &= items[k].id[1] == k - j && items[k].id[2] == size;
        k++;
      }
      ok &= items[j].id[0] == expected_sub_group && k - j == size;
      expected_sub_group++;
      j = k;
    }
    ok &= expected_sub_group == items[i].id[3];
    i = j;
  }
  if (!ok) {
    CHECK(!"sub-group ids partition each work-group");
    free(items);
    return NULL;
  }
  return items;
}

static cl_program build(const type_case *t, const char *extra) {
  char options[256];
  snprintf(options, sizeof options, "-cl-std=CL3.0 -DT=%s -DBIAS=%d %s",
           t->name, t->is_signed ? 11 : 0, extra);
  return cl_test_build(context, device, source, options);
}

static void run(cl_kernel kernel, const shape *s) {
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, s->dims, NULL,
                                          s->global, s->local, 0, NULL, NULL));
  CHECK_CL_SUCCESS(clFinish(queue));
}

static size_t items_of(const shape *s) {
  size_t n = 1;
  for (cl_uint d = 0; d < s->dims; d++) n *= s->global[d];
  return n;
}

/* Runs `collect` over `s` and checks every result; returns the widest
 * sub-group seen. */
static uint32_t check_collect(cl_program program, const type_case *t,
                              const shape *s) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "collect", &error);
  CHECK_CL_SUCCESS(error);
  size_t n = items_of(s);
  cl_mem ids = cl_test_buffer(context, n * IDS * 4, NULL);
  cl_mem out = cl_test_buffer(context, n * RESULTS * t->size, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof ids, &ids));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  run(kernel, s);
  uint32_t *id = malloc(n * IDS * 4);
  unsigned char *results = malloc(n * RESULTS * t->size);
  REQUIRE(id && results);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, ids, CL_TRUE, 0, n * IDS * 4, id,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(
      queue, out, CL_TRUE, 0, n * RESULTS * t->size, results, 0, NULL, NULL));
  uint32_t widest = 0;
  item *items = sub_groups_of(s, id, n, &widest);
  size_t bad = 0;
  for (size_t i = 0; items && i < n;) {
    size_t size = items[i].id[2];
    double sum = 0, low = type_max(t), high = type_min(t);
    bool all = true, any = false;
    for (size_t k = 0; k < size; k++) {
      double x = value_of(t, items[i + k].local);
      sum += x;
      low = x < low ? x : low;
      high = x > high ? x : high;
      all &= x > 4 - bias(t);
      any |= x == 10 - bias(t);
    }
    double last = value_of(t, items[i + size - 1].local);
    double prefix = 0, prefix_min = type_max(t), prefix_max = type_min(t);
    for (size_t k = 0; k < size; k++) {
      const item *it = &items[i + k];
      double x = value_of(t, it->local);
      double want[RESULTS];
      want[0] = sum;
      want[1] = low;
      want[2] = high;
      want[4] = prefix;
      want[6] = prefix_max;
      want[7] = prefix_min;
      prefix += x;
      prefix_min = x < prefix_min ? x : prefix_min;
      prefix_max = x > prefix_max ? x : prefix_max;
      want[3] = prefix;
      want[5] = prefix_min;
      want[8] = last;
      want[9] = all;
      want[10] = any;
      want[11] = (it->id[0] % 2 ? high : prefix) + (it->id[0] % 3) * sum;
      const unsigned char *got = results + it->index * RESULTS * t->size;
      for (int r = 0; r < RESULTS; r++) {
        double value = get(t, got + r * t->size);
        if (value != want[r] && bad++ < 5) {
          fprintf(stderr,
                  "%s %ux(%zu,%zu,%zu): group %zu sub-group %u lane %u: "
                  "result %d is %g, expected %g\n",
                  t->name, s->dims, s->local[0], s->local[1], s->local[2],
                  it->group, it->id[0], it->id[1], r, value, want[r]);
        }
      }
    }
    i += size;
  }
  CHECK(items && bad == 0);
  free(items);
  free(id);
  free(results);
  clReleaseMemObject(ids);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  return widest;
}

static void check_stepped(cl_program program, const type_case *t,
                          const shape *s) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "stepped", &error);
  CHECK_CL_SUCCESS(error);
  size_t n = items_of(s);
  size_t group_items = 1;
  for (cl_uint d = 0; d < s->dims; d++) group_items *= s->local[d];
  cl_mem ids = cl_test_buffer(context, n * IDS * 4, NULL);
  cl_mem out = cl_test_buffer(context, n * t->size, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof ids, &ids));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, group_items * t->size, NULL));
  run(kernel, s);
  uint32_t *id = malloc(n * IDS * 4);
  unsigned char *results = malloc(n * t->size);
  double *sums = calloc(n, sizeof *sums);
  REQUIRE(id && results && sums);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, ids, CL_TRUE, 0, n * IDS * 4, id,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * t->size,
                                       results, 0, NULL, NULL));
  uint32_t widest = 0;
  item *items = sub_groups_of(s, id, n, &widest);
  size_t bad = 0;
  /* Each work-item's sub-group sum, by group and local id. */
  size_t *start = calloc(n + 1, sizeof *start); /* group -> first item */
  REQUIRE(start);
  for (size_t i = 0; items && i < n;) {
    size_t size = items[i].id[2];
    double sum = 0;
    for (size_t k = 0; k < size; k++) sum += value_of(t, items[i + k].local);
    for (size_t k = 0; k < size; k++) sums[i + k] = sum;
    i += size;
  }
  for (size_t i = 0; items && i < n; i++) {
    if (i == 0 || items[i].group != items[i - 1].group) {
      start[items[i].group] = i;
    }
  }
  for (size_t i = 0; items && i < n; i++) {
    const item *it = &items[i];
    size_t first = start[it->group], in_group = 0;
    while (first + in_group < n && items[first + in_group].group == it->group) {
      in_group++;
    }
    size_t next = (it->local + 1) % in_group;
    double neighbour = 0;
    for (size_t k = first; k < first + in_group; k++) {
      if (items[k].local == next) neighbour = sums[k];
    }
    double want = neighbour + it->id[1];
    double value = get(t, results + it->index * t->size);
    if (value != want && bad++ < 5) {
      fprintf(stderr, "stepped %s: item %zu is %g, expected %g\n", t->name,
              it->index, value, want);
    }
  }
  CHECK(items && bad == 0);
  free(start);
  free(sums);
  free(items);
  free(id);
  free(results);
  clReleaseMemObject(ids);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

/* The extensions' functions (int only), checked against each sub-group's
 * values in lane order. */
static void check_extended(cl_program program, const shape *s) {
  const type_case *t = &types[0];
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "extended", &error);
  CHECK_CL_SUCCESS(error);
  size_t n = items_of(s);
  cl_mem ids = cl_test_buffer(context, n * IDS * 4, NULL);
  cl_mem out = cl_test_buffer(context, n * RESULTS * 4, NULL);
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof ids, &ids));
  CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
  run(kernel, s);
  uint32_t *id = malloc(n * IDS * 4);
  int32_t *results = malloc(n * RESULTS * 4);
  REQUIRE(id && results);
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, ids, CL_TRUE, 0, n * IDS * 4, id,
                                       0, NULL, NULL));
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * RESULTS * 4,
                                       results, 0, NULL, NULL));
  uint32_t widest = 0;
  item *items = sub_groups_of(s, id, n, &widest);
  size_t bad = 0;
  for (size_t i = 0; items && i < n;) {
    size_t size = items[i].id[2];
    int x[64] = {0};
    for (size_t k = 0; k < size && k < 64; k++) {
      x[k] = (int)value_of(t, items[i + k].local);
    }
    int odd_max = -1000, positive = 0;
    for (size_t k = 0; k < size; k++) {
      if (x[k] & 1) odd_max = x[k] > odd_max ? x[k] : odd_max;
      positive += x[k] > 0;
    }
    int even_sum = 0, odd_before = 0;
    for (size_t k = 0; k < size; k++) {
      const item *it = &items[i + k];
      const int32_t *got = results + it->index * RESULTS;
      if (!(x[k] & 1)) even_sum += x[k];
      int cluster = 0;
      for (size_t c = k - k % 4; c < k - k % 4 + 4 && c < size; c++) {
        cluster += x[c];
      }
      char most = -128;
      for (size_t c = 0; c < size; c++) {
        most = (char)x[c] > most ? (char)x[c] : most;
      }
      /* Shuffles from lanes outside the sub-group are undefined. */
      bool has_xor = (k ^ 1) < size, has_down = k + 1 < size;
      int want[RESULTS] = {x[k] & 1 ? odd_max : even_sum,
                           positive,
                           x[(k * 5 + 1) % size],
                           has_xor ? x[k ^ 1] : got[3],
                           has_down ? x[k + 1] : got[4],
                           x[(k + size - 3 % size) % size],
                           cluster,
                           k == 0,
                           1,
                           -x[size - 1],
                           most,
                           odd_before};
      if (x[k] & 1) odd_before++;
      for (int r = 0; r < RESULTS; r++) {
        if (got[r] != want[r] && bad++ < 5) {
          fprintf(stderr,
                  "extended: group %zu sub-group %u lane %u (of %zu): "
                  "result %d is %d, expected %d\n",
                  it->group, it->id[0], it->id[1], size, r, got[r], want[r]);
        }
      }
    }
    i += size;
  }
  CHECK(items && bad == 0);
  free(items);
  free(id);
  free(results);
  clReleaseMemObject(ids);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
}

/* What clGetKernelSubGroupInfo says, against what the kernel sees. */
static void check_queries(cl_program program, const type_case *t) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "collect", &error);
  CHECK_CL_SUCCESS(error);
  for (size_t c = 0; c < shape_count; c++) {
    const shape *s = &shapes[c];
    if (s->global[0] % s->local[0] || s->global[1] % s->local[1]) continue;
    size_t size = 0, count = 0, returned = 0;
    CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
        kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        s->dims * sizeof(size_t), s->local, sizeof size, &size, &returned));
    CHECK_INT(sizeof size, returned);
    CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
        kernel, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
        s->dims * sizeof(size_t), s->local, sizeof count, &count, NULL));
    size_t n = items_of(s);
    cl_mem ids = cl_test_buffer(context, n * IDS * 4, NULL);
    cl_mem out = cl_test_buffer(context, n * RESULTS * t->size, NULL);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof ids, &ids));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
    run(kernel, s);
    uint32_t seen[IDS];
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, ids, CL_TRUE, 0, sizeof seen,
                                         seen, 0, NULL, NULL));
    CHECK_INT(seen[4], size);
    CHECK_INT(seen[3], count);
    clReleaseMemObject(ids);
    clReleaseMemObject(out);
  }
  /* A local size for each count: launched, the kernel counts as many. */
  for (size_t want = 1; want <= 9; want += 4) {
    for (size_t dims = 1; dims <= 3; dims++) {
      size_t local[3] = {0, 0, 0}, returned = 0;
      CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
          kernel, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof want,
          &want, dims * sizeof(size_t), local, &returned));
      CHECK_INT(dims * sizeof(size_t), returned);
      shape s = {(cl_uint)dims, {local[0], 1, 1}, {local[0], 1, 1}};
      for (size_t d = 1; d < dims; d++) s.global[d] = s.local[d] = local[d];
      size_t count = 0;
      CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
          kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
          dims * sizeof(size_t), local, sizeof count, &count, NULL));
      CHECK_INT(want, count);
      size_t n = items_of(&s);
      cl_mem ids = cl_test_buffer(context, n * IDS * 4, NULL);
      cl_mem out = cl_test_buffer(context, n * RESULTS * t->size, NULL);
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof ids, &ids));
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
      run(kernel, &s);
      uint32_t seen[IDS];
      CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, ids, CL_TRUE, 0, sizeof seen,
                                           seen, 0, NULL, NULL));
      CHECK_INT(want, seen[3]);
      clReleaseMemObject(ids);
      clReleaseMemObject(out);
    }
  }
  size_t max_items = 0, too_many = 0, local[3] = {9, 9, 9};
  CHECK_CL_SUCCESS(
      clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
                               sizeof max_items, &max_items, NULL));
  too_many = max_items + 1;
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof too_many,
      &too_many, sizeof local, local, NULL));
  CHECK(local[0] == 0 && local[1] == 0 && local[2] == 0);
  size_t most = 0, compiled = 1;
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device,
                                           CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                           NULL, sizeof most, &most, NULL));
  CHECK_INT(max_items, most);
  CHECK_CL_SUCCESS(
      clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS,
                              0, NULL, sizeof compiled, &compiled, NULL));
  CHECK_INT(0, compiled);

  /* Errors. */
  size_t one = 1, value = 0;
  CHECK_CL(CL_INVALID_KERNEL,
           clGetKernelSubGroupInfo(
               NULL, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
               sizeof one, &one, sizeof value, &value, NULL));
  CHECK_CL(
      CL_INVALID_DEVICE,
      clGetKernelSubGroupInfo(kernel, (cl_device_id)context,
                              CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                              sizeof one, &one, sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(kernel, device, 0x7fff, sizeof one, &one,
                                   sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(
               kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
               sizeof one, NULL, sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(kernel, device,
                                   CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 5,
                                   &one, sizeof value, &value, NULL));
  size_t four[4] = {1, 1, 1, 1};
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(
               kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
               sizeof four, four, sizeof value, &value, NULL));
  /* A local size larger than the device runs is answered as its rows
   * would run (Boost.Compute's test asks about 64 x 64). */
  size_t big[2] = {64, 64}, count = 0, widest = 0;
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof big, big,
      sizeof count, &count, NULL));
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof big, big,
      sizeof widest, &widest, NULL));
  CHECK(widest >= 1 && widest <= 64);
  CHECK_INT((64 + widest - 1) / widest * 64, count);
  size_t zero = 0;
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(
               kernel, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
               sizeof zero, &zero, sizeof value, &value, NULL));
  CHECK_CL(CL_INVALID_VALUE,
           clGetKernelSubGroupInfo(kernel, device,
                                   CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                   sizeof one, &one, 1, &value, NULL));
  clReleaseKernel(kernel);
}

/* A kernel with image arguments (whose code for CL_RGBA/CL_FLOAT images
 * would otherwise differ from the code for other formats): the same
 * sub-groups for every format, and what the query says. */
static void check_image_kernel(void) {
  static const char image_source[] =
      "kernel void sum_row(read_only image2d_t image, global float *out) {\n"
      "  int x = get_global_id(0);\n"
      "  float4 p = read_imagef(image, (int2)(x, 0));\n"
      "  out[2 * x] = sub_group_reduce_add(p.x + p.y);\n"
      "  out[2 * x + 1] = get_max_sub_group_size();\n"
      "}\n";
  cl_program program =
      cl_test_build(context, device, image_source, "-cl-std=CL3.0");
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "sum_row", &error);
  CHECK_CL_SUCCESS(error);
  enum { W = 64 };
  size_t local = W, size = 0;
  CHECK_CL_SUCCESS(clGetKernelSubGroupInfo(
      kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
      &local, sizeof size, &size, NULL));
  const cl_image_format formats[2] = {{CL_RGBA, CL_FLOAT},
                                      {CL_RGBA, CL_UNORM_INT8}};
  for (int f = 0; f < 2; f++) {
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = W;
    desc.image_height = 1;
    float pixels_f[W * 4];
    unsigned char pixels_b[W * 4];
    for (int i = 0; i < W * 4; i++) {
      pixels_f[i] = (float)(i % 4 == 0 ? 1 : 0);
      pixels_b[i] = (unsigned char)(i % 4 == 0 ? 255 : 0);
    }
    cl_mem image = clCreateImage(
        context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &formats[f], &desc,
        f == 0 ? (void *)pixels_f : (void *)pixels_b, &error);
    CHECK_CL_SUCCESS(error);
    cl_mem out = cl_test_buffer(context, W * 2 * sizeof(float), NULL);
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof image, &image));
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof out, &out));
    size_t global = W;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            &local, 0, NULL, NULL));
    float result[W * 2];
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result,
                                         result, 0, NULL, NULL));
    for (int i = 0; i < W; i++) {
      CHECK_INT(size, (size_t)result[2 * i + 1]);
      CHECK_INT(size, (size_t)result[2 * i]); /* each pixel adds 1 */
    }
    clReleaseMemObject(out);
    clReleaseMemObject(image);
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

static void check_device(void) {
  char extensions[4096] = "", features_text[64] = "";
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS,
                                   sizeof extensions, extensions, NULL));
  /* The extension needs independent forward progress
   * (sub_group_progress.c tests it); the 3.0 feature does not. */
  CHECK(cl_test_has_extension(device, "cl_khr_subgroups"));
  static const char *const sub_group_extensions[] = {
      "cl_khr_subgroup_extended_types",
      "cl_khr_subgroup_non_uniform_vote",
      "cl_khr_subgroup_ballot",
      "cl_khr_subgroup_non_uniform_arithmetic",
      "cl_khr_subgroup_shuffle",
      "cl_khr_subgroup_shuffle_relative",
      "cl_khr_subgroup_clustered_reduce",
      "cl_khr_subgroup_rotate"};
  for (size_t i = 0; i < 8; i++) {
    CHECK(strstr(extensions, sub_group_extensions[i]) != NULL);
  }
  size_t size = 0;
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
  cl_name_version *features = malloc(size);
  REQUIRE(features);
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size,
                                   features, NULL));
  for (size_t i = 0; i < size / sizeof *features; i++) {
    if (strcmp(features[i].name, "__opencl_c_subgroups") == 0) {
      snprintf(features_text, sizeof features_text, "%s", features[i].name);
    }
  }
  free(features);
  CHECK(strcmp(features_text, "__opencl_c_subgroups") == 0);
  cl_uint count = 0;
  cl_bool progress = CL_FALSE;
  size_t max_items = 0;
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS,
                                   sizeof count, &count, NULL));
  CHECK_CL_SUCCESS(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                   sizeof max_items, &max_items, NULL));
  CHECK_INT(max_items, count);
  CHECK_CL_SUCCESS(
      clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                      sizeof progress, &progress, NULL));
  CHECK(progress == CL_TRUE);

  /* OpenCL C 1.2 has no sub-groups. */
  cl_int error = CL_SUCCESS;
  const char *text = source;
  cl_program program =
      clCreateProgramWithSource(context, 1, &text, NULL, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL(CL_BUILD_PROGRAM_FAILURE,
           clBuildProgram(program, 1, &device, "-DT=int -DBIAS=0", NULL, NULL));
  char *log = cl_test_build_log(program, device);
  CHECK(strstr(log, "get_sub_group_id") != NULL);
  free(log);
  clReleaseProgram(program);
}

static const char binary_path[] = "sub_groups.bin";

static int child(void) {
  cl_program program = cl_test_load_binary(context, device, binary_path);
  CHECK(check_collect(program, &types[0], &shapes[0]) > 1);
  check_collect(program, &types[0], &shapes[5]);
  check_stepped(program, &types[0], &shapes[1]);
  clReleaseProgram(program);
  return check_finish();
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  if (argc > 2 && strcmp(argv[1], "--child") == 0) return child();

  check_device();
  check_image_kernel();
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    cl_program program = build(&types[i], "");
    uint32_t widest = 0;
    for (size_t c = 0; c < shape_count; c++) {
      uint32_t w = check_collect(program, &types[i], &shapes[c]);
      widest = w > widest ? w : widest;
    }
    /* Sub-groups are the vector lanes: several work-items wide. */
    CHECK(widest > 1);
    check_stepped(program, &types[i], &shapes[1]);
    check_stepped(program, &types[i], &shapes[5]);
    if (i == 0) check_queries(program, &types[i]);
    clReleaseProgram(program);
  }

  /* The cl_khr_subgroup_* extensions. */
  cl_program extended = build(&types[0], "-DEXTENSIONS");
  for (size_t c = 0; c < shape_count; c++) check_extended(extended, &shapes[c]);
  clReleaseProgram(extended);

  /* Bounds-checked code has the same sub-groups. */
  cl_program program = build(&types[0], "-clmux-bounds-check");
  check_collect(program, &types[0], &shapes[1]);
  clReleaseProgram(program);

  program = build(&types[0], "");
  cl_test_save_binary(program, binary_path);
  clReleaseProgram(program);
  CHECK(cl_test_run_child(argv[0], "binary"));
  remove(binary_path);

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return check_finish();
}

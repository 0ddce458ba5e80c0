/* clmux: every kind of program round-trips through its binary into another
 * process. For each case this process builds a program (from source with
 * options, or by linking compiled objects and libraries), runs its
 * kernels and keeps their output bytes and their printf text; then it
 * executes itself ("--child DIR") and the child loads only the binaries
 * (linking objects and libraries itself where the case has them), runs
 * the same kernels and must produce the same bytes and the same text.
 * The cases: each builtin family (math in float and double, integer,
 * common, geometric, relational, conversions, vector loads and stores and
 * half, atomics, barriers with local memory, async copies, work-item
 * functions), images with samplers from an argument and from the
 * program, printf, several kernels, build options (-cl-fast-relaxed-math,
 * -cl-mad-enable, -cl-finite-math-only, -cl-opt-disable, -D), a compiled
 * object linked elsewhere, a library linked elsewhere, and an executable
 * made of linked objects. */
#include <stdbool.h>
#include <unistd.h>

#include "cl_test.h"

#define ITEMS 64
#define LOCAL 16

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* ---- The cases ----------------------------------------------------------- */

/* Every kernel is `kernel void NAME(global uint *out[, image, sampler])`
 * and writes out[0 .. ITEMS). */
typedef struct program_case {
  const char *name;
  const char *source;  /* the kernels (or, with `helper`, the caller) */
  const char *helper;  /* compiled on its own and linked in, or NULL */
  const char *options; /* build (or compile) options */
  int link;            /* 0: build; 1: objects; 2: helper as a library;
                          3: an executable of linked objects */
  const char *kernels[3];
  bool image;
} program_case;

#define FP64 "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
#define ID "size_t i = get_global_id(0);\n"
#define F(x) as_uint((float)(x))

static const program_case cases[] = {
    {"math_float",
     "kernel void k(global uint *out) {\n" ID
     "  float v = (float)i * 0.37f - 11.0f;\n"
     "  out[i] = as_uint(exp(v) * sin(v) + cos(v) / (1.0f + fabs(v)) +\n"
     "    pow(fabs(v), 0.3f) + fmod(v, 0.7f) + erf(v) + atan2(v, 1.5f) +\n"
     "    tgamma(fabs(v) * 0.1f + 0.5f) + cbrt(v) + log2(fabs(v) + 1.0f) +\n"
     "    native_sqrt(fabs(v)) + half_exp(v * 0.1f) + rsqrt(fabs(v) + 1.0f) +\n"
     "    sincos(v, &v) + v + fma(v, 2.0f, 1.0f) + hypot(v, 3.0f));\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     false},
    {"math_double",
     FP64
     "kernel void k(global uint *out) {\n" ID
     "  double w = (double)i * 0.37 - 11.0;\n"
     "  double r = exp(w) + log1p(fabs(w)) + sinh(w) + pow(fabs(w), 0.25) +\n"
     "    acos(w / 32.0) + lgamma(fabs(w) + 0.5) + remainder(w, 0.3);\n"
     "  out[i] = as_uint2(r).x ^ as_uint2(r).y;\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     false},
    {"integer",
     "kernel void k(global uint *out) {\n" ID
     "  uint x = (uint)i * 2654435761u;\n"
     "  int s = (int)x;\n"
     "  out[i] = popcount(x) + clz(x) + rotate(x, 7u) + mul_hi(x, 77u) +\n"
     "    add_sat(s, 2000000000) + (uint)abs_diff(s, -5) + hadd(x, 9u) +\n"
     "    mad24(x & 0xffff, 3u, 1u) + (uint)max(s, 3) + upsample(7, 9u) +\n"
     "    mad_sat(x, 3u, 4u) + (uint)rhadd(s, 11) + sub_sat(x, 5u);\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     false},
    {"common_geometric_relational",
     "kernel void k(global uint *out) {\n" ID
     "  float4 v = (float4)((float)i, 1.5f, -2.0f, 0.25f) * 0.1f;\n"
     "  float3 c = cross(v.xyz, (float3)(0.5f, -1.0f, 2.0f));\n"
     "  float r = dot(v, v) + length(v) + distance(v, (float4)(1.0f)) +\n"
     "    normalize(v).x + c.y + clamp(v.x, 0.1f, 0.5f) + mix(v.y, v.z, 0.3f) "
     "+\n"
     "    smoothstep(0.0f, 1.0f, v.x) + sign(v.z) + degrees(v.w) +\n"
     "    fast_length(v) + step(0.5f, v.x);\n"
     "  int4 m = isgreater(v, (float4)(0.2f)) + isnan(v / v.x);\n"
     "  out[i] = as_uint(r) ^ (uint)any(m) ^ ((uint)all(m) << 1) ^\n"
     "    as_uint(select(1.0f, 2.0f, m.x)) ^ bitselect(3u, 12u, (uint)i);\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     false},
    {"conversions_vectors_half",
     "kernel void k(global uint *out) {\n" ID "  local float table[ITEMS];\n"
     "  table[get_local_id(0)] = (float)i * -3.7f + 100.0f;\n"
     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
     "  float4 f = (float4)((float)i * 1.9f - 30.0f, 300.5f, -1e10f, 0.5f);\n"
     "  uchar4 u = convert_uchar4_sat_rte(f);\n"
     "  int4 n = convert_int4_rtz(f * 0.001f);\n"
     "  ushort bits[4];\n" /* half values have no variables in 1.2 */
     "  vstore_half4_rtn(f, 0, (half *)bits);\n"
     "  float4 back = vload_half4(0, (half *)bits);\n"
     "  float3 three = vload3(0, table);\n"
     "  out[i] = as_uint(u) ^ (uint)n.x ^ as_uint(back.x + back.w) ^\n"
     "    as_uint(three.z) ^ as_uint(convert_float(convert_short_sat(f.x)));\n"
     "}\n",
     NULL,
     "-DITEMS=64",
     0,
     {"k"},
     false},
    {"atomics_barriers_async",
     "kernel void k(global uint *out) {\n" ID "  local uint sum[1];\n"
     "  local uint copy[16];\n"
     "  size_t l = get_local_id(0);\n"
     "  if (l == 0) sum[0] = 0;\n"
     "  out[i] = (uint)i * 3u;\n"
     "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
     "  atomic_add(sum, (uint)i);\n"
     "  atomic_max(sum, 1u);\n"
     "  event_t e = async_work_group_copy(copy, out + (i - l), 16, 0);\n"
     "  wait_group_events(1, &e);\n"
     "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
     "  out[i] = sum[0] + copy[15 - l] + (uint)get_group_id(0) * 1000u +\n"
     "    (uint)get_num_groups(0) + (uint)get_local_size(0);\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     false},
    {"images_samplers",
     "constant sampler_t own = CLK_NORMALIZED_COORDS_TRUE |\n"
     "    CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
     "kernel void k(global uint *out, read_only image2d_t img, sampler_t s) "
     "{\n" ID "  int2 p = (int2)((int)i % 8, (int)i / 8);\n"
     "  float4 a = read_imagef(img, s, p);\n"
     "  float4 b = read_imagef(img, own, (float2)((float)i * 0.07f, 0.3f));\n"
     "  out[i] = as_uint(a.x + a.y * 2.0f + b.z + b.w) ^\n"
     "    (uint)get_image_width(img);\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"k"},
     true},
    {"printf_several_kernels",
     "kernel void first(global uint *out) {\n" ID "  out[i] = (uint)i * 5u;\n"
     "  if (i % 16 == 3) printf(\"item %u: %f %s %v4d\\n\", (uint)i,\n"
     "                         (float)i / 3.0f, \"text\", (int4)((int)i));\n"
     "}\n"
     "kernel void second(global uint *out) {\n" ID
     "  out[i] = (uint)i ^ 0x5a5a5a5au;\n"
     "}\n"
     "kernel void third(global uint *out) {\n" ID
     "  if (i == 0) printf(\"third %d\\n\", 42);\n"
     "  out[i] = 0u - (uint)i;\n"
     "}\n",
     NULL,
     NULL,
     0,
     {"first", "second", "third"},
     false},
    {"fast_relaxed_math",
     "kernel void k(global uint *out) {\n" ID
     "  float v = (float)i * 0.21f + 0.01f;\n"
     "  out[i] = as_uint(exp(v) / v + sin(v) * log(v) + VALUE);\n"
     "}\n",
     NULL,
     "-cl-fast-relaxed-math -DVALUE=3.0f",
     0,
     {"k"},
     false},
    {"mad_finite_opt_disable",
     "kernel void k(global uint *out) {\n" ID
     "  float v = (float)i * 0.5f - 7.0f;\n"
     "  out[i] = as_uint(v * v + v * 3.0f + sqrt(fabs(v)));\n"
     "}\n",
     NULL,
     "-cl-mad-enable -cl-finite-math-only -cl-opt-disable",
     0,
     {"k"},
     false},
    {"object_linked_elsewhere",
     "float helper(float x);\n"
     "kernel void k(global uint *out) {\n" ID
     "  out[i] = as_uint(helper((float)i));\n"
     "}\n",
     "float helper(float x) { return exp(x * 0.1f) + 2.0f; }\n",
     NULL,
     1,
     {"k"},
     false},
    {"library_linked_elsewhere",
     "uint mix_bits(uint x);\n"
     "kernel void k(global uint *out) {\n" ID "  out[i] = mix_bits((uint)i);\n"
     "}\n",
     "uint mix_bits(uint x) { return rotate(x * 0x9e3779b9u, 13u) ^ x; }\n",
     NULL,
     2,
     {"k"},
     false},
    {"executable_of_objects",
     "float helper(float x);\n"
     "kernel void k(global uint *out) {\n" ID
     "  out[i] = as_uint(helper((float)i) * 2.0f);\n"
     "}\n",
     "float helper(float x) { return sin(x) + 1.0f; }\n",
     NULL,
     3,
     {"k"},
     false},
};
#define CASES (sizeof cases / sizeof *cases)

/* ---- Building ------------------------------------------------------------ */

static cl_program from_source(const char *source, const char *options,
                              bool compile_only) {
  if (!compile_only) return cl_test_build(context, device, source, options);
  cl_int error = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  error =
      clCompileProgram(program, 1, &device, options, 0, NULL, NULL, NULL, NULL);
  if (error != CL_SUCCESS) {
    char *log = cl_test_build_log(program, device);
    fprintf(stderr, "compile failed (%d): %s\n", error, log);
    free(log);
  }
  REQUIRE(error == CL_SUCCESS);
  return program;
}

static cl_program link_programs(cl_program *inputs, cl_uint count,
                                const char *options) {
  cl_int error = CL_SUCCESS;
  cl_program linked = clLinkProgram(context, 1, &device, options, count, inputs,
                                    NULL, NULL, &error);
  CHECK_CL_SUCCESS(error);
  REQUIRE(linked);
  return linked;
}

static unsigned char *binary_of(cl_program program, size_t *size) {
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                                    sizeof *size, size, NULL));
  REQUIRE(*size > 0);
  unsigned char *bytes = malloc(*size);
  REQUIRE(bytes);
  CHECK_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bytes,
                                    &bytes, NULL));
  return bytes;
}

static cl_program from_binary(const unsigned char *bytes, size_t size) {
  cl_int status = 99, error = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &size,
                                                 &bytes, &status, &error);
  CHECK_CL_SUCCESS(error);
  CHECK_CL_SUCCESS(status);
  REQUIRE(program);
  return program;
}

/* ---- Files of the two processes ------------------------------------------ */

static void write_file(const char *dir, const char *name, const char *suffix,
                       const void *bytes, size_t size) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, suffix);
  FILE *file = fopen(path, "wb");
  REQUIRE(file);
  REQUIRE(fwrite(bytes, 1, size, file) == size);
  fclose(file);
}

static unsigned char *read_file(const char *dir, const char *name,
                                const char *suffix, size_t *size) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, suffix);
  FILE *file = fopen(path, "rb");
  REQUIRE(file);
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc((size_t)length + 1);
  REQUIRE(bytes);
  REQUIRE(fread(bytes, 1, (size_t)length, file) == (size_t)length);
  bytes[length] = 0;
  fclose(file);
  *size = (size_t)length;
  return bytes;
}

/* ---- Running ------------------------------------------------------------- */

/* Runs the case's kernels of `program`; their outputs, one after the
 * other, go to `out`, and what they printed to `printed` (a file). */
static void run_case(const program_case *c, cl_program program, cl_uint *out,
                     const char *printed) {
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_WRITE_ONLY,
                                 ITEMS * sizeof(cl_uint), NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_mem image = NULL;
  cl_sampler sampler = NULL;
  if (c->image) {
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    float pixels[8 * 8 * 4];
    for (int p = 0; p < 8 * 8 * 4; p++) pixels[p] = (float)(p % 13) * 0.25f;
    image = clCreateImage2D(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            &format, 8, 8, 0, pixels, &error);
    CHECK_CL_SUCCESS(error);
    sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                              CL_FILTER_NEAREST, &error);
    CHECK_CL_SUCCESS(error);
  }
  /* printf goes to this process's stdout: to the file while they run. */
  fflush(stdout);
  int saved = dup(1);
  FILE *sink = fopen(printed, "wb");
  REQUIRE(sink && saved >= 0);
  dup2(fileno(sink), 1);
  for (int k = 0; k < 3 && c->kernels[k]; k++) {
    cl_kernel kernel = clCreateKernel(program, c->kernels[k], &error);
    CHECK_CL_SUCCESS(error);
    if (!kernel) continue;
    CHECK_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    if (c->image) {
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof image, &image));
      CHECK_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof sampler, &sampler));
    }
    size_t global = ITEMS, local = LOCAL;
    CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                            &local, 0, NULL, NULL));
    CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0,
                                         ITEMS * sizeof(cl_uint),
                                         out + k * ITEMS, 0, NULL, NULL));
    clReleaseKernel(kernel);
  }
  CHECK_CL_SUCCESS(clFinish(queue));
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  fclose(sink);
  if (image) clReleaseMemObject(image);
  if (sampler) clReleaseSampler(sampler);
  clReleaseMemObject(buffer);
}

/* ---- The first process --------------------------------------------------- */

/* Builds case `c` here; saves the binaries the child starts from. */
static cl_program build_case(const program_case *c, const char *dir) {
  size_t size = 0;
  unsigned char *bytes = NULL;
  if (c->link == 0) {
    cl_program program = from_source(c->source, c->options, false);
    bytes = binary_of(program, &size);
    write_file(dir, c->name, "bin", bytes, size);
    free(bytes);
    return program;
  }
  cl_program objects[2] = {from_source(c->source, c->options, true),
                           from_source(c->helper, c->options, true)};
  if (c->link == 2) { /* the helper as a library */
    cl_program library = link_programs(&objects[1], 1, "-create-library");
    clReleaseProgram(objects[1]);
    objects[1] = library;
  }
  /* The child gets the objects (or the object and the library), or, for
   * an executable of objects, the executable. */
  cl_program program = link_programs(objects, 2, NULL);
  if (c->link == 3) {
    bytes = binary_of(program, &size);
    write_file(dir, c->name, "bin", bytes, size);
    free(bytes);
  } else {
    bytes = binary_of(objects[0], &size);
    write_file(dir, c->name, "bin", bytes, size);
    free(bytes);
    bytes = binary_of(objects[1], &size);
    write_file(dir, c->name, "helper", bytes, size);
    free(bytes);
  }
  clReleaseProgram(objects[0]);
  clReleaseProgram(objects[1]);
  return program;
}

static void first_process(const char *self) {
  char dir[] = "/tmp/clmux-binaries-XXXXXX";
  REQUIRE(mkdtemp(dir));
  static cl_uint out[3 * ITEMS];
  for (size_t i = 0; i < CASES; i++) {
    cl_program program = build_case(&cases[i], dir);
    char printed[512];
    snprintf(printed, sizeof printed, "%s/%s.printed", dir, cases[i].name);
    memset(out, 0, sizeof out);
    run_case(&cases[i], program, out, printed);
    /* The kernels ran: their outputs are not all still zero. */
    bool wrote = false;
    for (size_t k = 0; k < ITEMS; k++) wrote = wrote || out[k] != 0;
    if (!wrote) fprintf(stderr, "%s: no output\n", cases[i].name);
    CHECK(wrote);
    write_file(dir, cases[i].name, "out", out, sizeof out);
    clReleaseProgram(program);
  }
  CHECK(cl_test_run_child(self, dir));
  char command[600];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CHECK_INT(0, system(command));
}

/* ---- The second process -------------------------------------------------- */

static int compare_lines(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether two printf texts hold the same lines: work-groups run on
 * several threads, so lines of different groups come in any order. */
static bool same_lines(char *a, char *b) {
  char *lines[2][256];
  size_t counts[2] = {0, 0};
  char *texts[2] = {a, b};
  for (int t = 0; t < 2; t++) {
    char *save = NULL;
    for (char *line = strtok_r(texts[t], "\n", &save); line && counts[t] < 256;
         line = strtok_r(NULL, "\n", &save)) {
      lines[t][counts[t]++] = line;
    }
    qsort(lines[t], counts[t], sizeof(char *), compare_lines);
  }
  if (counts[0] != counts[1]) return false;
  for (size_t i = 0; i < counts[0]; i++) {
    if (strcmp(lines[0][i], lines[1][i])) return false;
  }
  return true;
}

static int second_process(const char *dir) {
  static cl_uint out[3 * ITEMS];
  for (size_t i = 0; i < CASES; i++) {
    const program_case *c = &cases[i];
    size_t size = 0;
    unsigned char *bytes = read_file(dir, c->name, "bin", &size);
    cl_program program = from_binary(bytes, size);
    free(bytes);
    if (c->link == 0 || c->link == 3) {
      CHECK_CL_SUCCESS(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    } else {
      bytes = read_file(dir, c->name, "helper", &size);
      cl_program inputs[2] = {program, from_binary(bytes, size)};
      free(bytes);
      program = link_programs(inputs, 2, NULL);
      clReleaseProgram(inputs[0]);
      clReleaseProgram(inputs[1]);
    }
    char printed[512];
    snprintf(printed, sizeof printed, "%s/%s.printed2", dir, c->name);
    memset(out, 0, sizeof out);
    run_case(c, program, out, printed);
    clReleaseProgram(program);
    size_t want_size = 0, got_size = 0, text_size = 0;
    unsigned char *want = read_file(dir, c->name, "out", &want_size);
    bool same = want_size == sizeof out && !memcmp(want, out, sizeof out);
    free(want);
    unsigned char *text = read_file(dir, c->name, "printed", &text_size);
    unsigned char *text2 = read_file(dir, c->name, "printed2", &got_size);
    bool printed_any = strstr(c->name, "printf") == NULL || text_size > 0;
    bool same_text = same_lines((char *)text, (char *)text2);
    if (!same || !same_text || !printed_any) {
      fprintf(stderr, "%s: results %s, printf text %s%s\n", c->name,
              same ? "equal" : "DIFFER", same_text ? "equal" : "DIFFERS",
              printed_any ? "" : " (and empty)");
    }
    CHECK(same);
    CHECK(same_text);
    CHECK(printed_any);
    free(text);
    free(text2);
  }
  return check_finish();
}

int main(int argc, char **argv) {
  device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  int result = 0;
  if (argc == 3 && strcmp(argv[1], "--child") == 0) {
    result = second_process(argv[2]);
  } else {
    first_process("/proc/self/exe");
    result = check_finish();
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return result;
}

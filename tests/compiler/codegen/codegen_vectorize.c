/* The work-item loop is vectorized across x at the host's full width:
 * the optimized IR of vector_add and of saxpy (with its branches) holds
 * (and of a kernel indexing with `int i = get_global_id(0)`, and of a
 * complex product on float2 values, split into floats)
 * <N x float> operations with N = vector bits / 32 or a multiple of it
 * (two or four registers a value), and vector_add's
 * assembly adds whole registers of that width (zmm, ymm or xmm), both for
 * code specialized to a local size and for generic code. Set
 * CLMUX_CODEGEN_DUMP=1 to print the IR. */
#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "build_one.h"
#include "check.h"
#include "codegen.h"

/* A line of `assembly` adds packed floats in a `registers` register. */
static bool has_add(const char *assembly, const char *registers) {
  for (const char *line = assembly; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    char text[256];
    if (length < sizeof text) {
      memcpy(text, line, length);
      text[length] = '\0';
      if (strstr(text, "addps") && strstr(text, registers)) return true;
    }
    line = end ? end + 1 : NULL;
  }
  return false;
}

/* Builds `name` and checks its optimized IR (and, if `instruction` names a
 * register kind, its assembly) for vectors of `lanes` floats. */
static void check_vectorized(const cc_target *target, LLVMModuleRef source,
                             const char *name, const uint32_t local[3],
                             unsigned lanes, const char *instruction) {
  size_t size = 0;
  LLVMModuleRef module = NULL;
  uint8_t *binary = build_one(target, source, name, local, &size, &module);
  if (!binary) return;
  free(binary);
  cc_log log = {""};
  char *ir = LLVMPrintModuleToString(module);
  if (getenv("CLMUX_CODEGEN_DUMP")) fputs(ir, stdout);
  bool found_vector = false;
  for (unsigned registers = 1; registers <= 4; registers *= 2) {
    char vector[32];
    snprintf(vector, sizeof vector, "<%u x float>", lanes * registers);
    found_vector = found_vector || strstr(ir, vector);
  }
  if (!found_vector) {
    fprintf(stderr,
            "%s (local %ux%ux%u): no <%u x float> (or 2x, 4x) in "
            "the IR\n",
            name, local[0], local[1], local[2], lanes);
  }
  CHECK(found_vector);
  LLVMDisposeMessage(ir);
  if (instruction) {
    char *assembly = NULL;
    CHECK_INT(cc_success,
              cc_codegen_emit_assembly(target, module, &assembly, &log));
    if (assembly) {
      bool found = has_add(assembly, instruction);
      if (!found || getenv("CLMUX_CODEGEN_DUMP")) fputs(assembly, stderr);
      CHECK(found);
      free(assembly);
    }
  }
  LLVMDisposeModule(module);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s vector_add.bc saxpy.bc vector_types.bc\n",
            argv[0]);
    return 1;
  }
  cc_target *target = NULL;
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  unsigned bits = cc_target_vector_bits(target);
  CHECK(bits == 512 || bits == 256 || bits == 128);
  unsigned lanes = bits / 32;
  const char *add = bits == 512 ? "%zmm" : bits == 256 ? "%ymm" : "%xmm";
  printf("host %s: %u-bit vectors, expecting <%u x float>\n",
         cc_target_cpu_name(target), bits, lanes);

  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef vector_add = load_bitcode(context, argv[1]);
  LLVMModuleRef saxpy = load_bitcode(context, argv[2]);
  LLVMModuleRef vector_types = load_bitcode(context, argv[3]);
  const uint32_t specialized[3] = {64, 1, 1}, odd[3] = {50, 2, 1},
                 generic[3] = {0, 0, 0};
  check_vectorized(target, vector_add, "vector_add", specialized, lanes, add);
  check_vectorized(target, vector_add, "vector_add", odd, lanes, add);
  check_vectorized(target, vector_add, "vector_add", generic, lanes, add);
  check_vectorized(target, saxpy, "saxpy", specialized, lanes, NULL);
  check_vectorized(target, saxpy, "saxpy", generic, lanes, NULL);
  check_vectorized(target, saxpy, "scale_int_index", specialized, lanes, NULL);
  check_vectorized(target, vector_types, "complex_mul", specialized, lanes,
                   NULL);
  check_vectorized(target, vector_types, "complex_mul", generic, lanes, NULL);
  LLVMDisposeModule(vector_add);
  LLVMDisposeModule(saxpy);
  LLVMDisposeModule(vector_types);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return check_finish();
}

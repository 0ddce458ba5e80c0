/* The regions of kernels with barriers (kernels/barrier.cl, bitcode path
 * in argv) still vectorize across x at the host's full width: the tiled
 * matrix multiply's inner region multiplies-adds whole vectors of floats
 * with the __local tile row broadcast (no gathers from __local memory, so
 * the tiles' addresses stayed uniform instead of going through scratch),
 * and the tree reduction adds vectors of floats (its i64 loop counter may
 * halve the width); both specialized and generic.
 * Set CLMUX_CODEGEN_DUMP=1 to print the IR. */
#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "build_one.h"
#include "check.h"
#include "codegen.h"

/* How many lines of `text` hold both `a` and `b`. */
static int lines_with(const char *text, const char *a, const char *b) {
  int count = 0;
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    char buffer[1024];
    if (length < sizeof buffer) {
      memcpy(buffer, line, length);
      buffer[length] = '\0';
      count += strstr(buffer, a) && strstr(buffer, b);
    }
    line = end ? end + 1 : NULL;
  }
  return count;
}

/* Builds `name`; expects its optimized IR to hold lines with both `a` and
 * `b` and none with both `not_a` and `not_b`; returns the module's
 * assembly lines with both `asm_a` and `asm_b` (or -1). */
static int check_kernel(const cc_target *target, LLVMModuleRef source,
                        const char *name, const uint32_t local[3],
                        const char *a, const char *b, const char *not_a,
                        const char *not_b, const char *asm_a,
                        const char *asm_b, unsigned width) {
  size_t size = 0;
  LLVMModuleRef module = NULL;
  uint8_t *binary = build_one(target, source, name, local, &size, &module);
  if (!binary) return -1;
  free(binary);
  cc_log log = {""};
  char *ir = LLVMPrintModuleToString(module);
  if (getenv("CLMUX_CODEGEN_DUMP")) fputs(ir, stdout);
  /* `b` may name a width with %u: the host's, or twice it (the
   * whole-function vectorizer's two registers a value). */
  char b1[128], b2[128];
  snprintf(b1, sizeof b1, b, width);
  snprintf(b2, sizeof b2, b, 2 * width);
  int found = lines_with(ir, a, b1) +
              (strcmp(b1, b2) ? lines_with(ir, a, b2) : 0);
  int unwanted = lines_with(ir, not_a, not_b);
  if (!found || unwanted) {
    fprintf(stderr, "%s (local %ux%ux%u): %d lines with %s and %s, %d with "
            "%s and %s\n", name, local[0], local[1], local[2], found, a, b,
            unwanted, not_a, not_b);
  }
  CHECK(found > 0);
  CHECK_INT(0, unwanted);
  LLVMDisposeMessage(ir);
  char *assembly = NULL;
  int count = -1;
  CHECK_INT(cc_success,
            cc_codegen_emit_assembly(target, module, &assembly, &log));
  if (assembly) {
    count = lines_with(assembly, asm_a, asm_b);
    free(assembly);
  }
  LLVMDisposeModule(module);
  return count;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s barrier.bc\n", argv[0]);
    return 1;
  }
  cc_target *target = NULL;
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  unsigned bits = cc_target_vector_bits(target);
  unsigned lanes = bits / 32;
  const char *reg = bits == 512 ? "%zmm" : bits == 256 ? "%ymm" : "%xmm";
  printf("host %s: %u-bit vectors, expecting <%u x float>\n",
         cc_target_cpu_name(target), bits, lanes);
  char fma[64], gather[64];
  snprintf(fma, sizeof fma, "@llvm.fmuladd.v%%uf32(");
  snprintf(gather, sizeof gather, "@llvm.masked.gather.v%uf32.v%up3(", lanes,
           lanes);

  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = load_bitcode(context, argv[1]);
  const uint32_t tile[3] = {16, 16, 1}, wide[3] = {64, 4, 1},
                 generic[3] = {0, 0, 0}, line[3] = {256, 1, 1};
  const uint32_t *matmul_sizes[3] = {tile, wide, generic};
  for (int s = 0; s < 3; s++) {
    /* Vector multiply-adds, no gathers from __local memory, and the
     * assembly multiplies-adds whole registers. */
    int fmas = check_kernel(target, module, "matmul_tiled", matmul_sizes[s],
                            "call", fma, "call", gather, "vfmadd", reg, lanes);
    if (fmas == 0) fprintf(stderr, "matmul_tiled: no vfmadd on %s\n", reg);
    CHECK(fmas > 0);
  }
  const uint32_t *reduce_sizes[2] = {line, generic};
  for (int s = 0; s < 2; s++) {
    int adds = check_kernel(target, module, "reduce_static", reduce_sizes[s],
                            "fadd <", " x float>", "call", gather, "vaddps",
                            "mm", 0);
    CHECK(adds > 0);
    adds = check_kernel(target, module, "reduce_sum", reduce_sizes[s],
                        "fadd <", " x float>", "call", gather, "vaddps", "mm",
                        0);
    CHECK(adds > 0);
  }
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return check_finish();
}

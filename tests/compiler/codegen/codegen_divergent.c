/* Kernels whose work-items loop a different number of times are vectorized
 * across work-items as whole functions: their optimized IR computes on
 * <N x float> (<N/2 x double> for a double kernel), N = two vector
 * registers of 32-bit lanes,
 * keeps the lanes still in a divergent loop in a phi of <N x i1> (the loop
 * runs while any is),
 * and, for code that must run any local size, stores under a lane mask.
 * Kernels without loops (branches around math calls, an int8 indexed by
 * data) go through the same vectorizer, and a loop that is one dependent
 * chain gets four registers' worth of lanes, or two lanes when its values
 * would not fit the registers at more. Fails if such kernels fall back
 * to one work-item at a time or to the loop vectorizer. Set
 * CLMUX_CODEGEN_DUMP=1 to print the IR. */
#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "build_one.h"
#include "check.h"
#include "codegen.h"

static void check_divergent(const cc_target *target, LLVMModuleRef source,
                            const char *name, const uint32_t local[3],
                            const char *vector, const char *lanes,
                            bool masked) {
  char *ir = build_one_ir(target, source, name, local);
  if (!ir) return;
  bool wide = strstr(ir, vector) != NULL;
  bool any = strstr(ir, lanes) != NULL;
  bool under_mask = strstr(ir, "@llvm.masked.store") != NULL ||
                    strstr(ir, "@llvm.masked.scatter") != NULL;
  if (!wide || !any || (masked && !under_mask)) {
    fprintf(stderr,
            "%s (local %ux%ux%u): %s %s, lanes in a loop %s, masked store "
            "%s\n",
            name, local[0], local[1], local[2], vector,
            wide ? "found" : "missing", any ? "found" : "missing",
            under_mask ? "found" : "missing");
  }
  CHECK(wide);
  CHECK(any);
  if (masked) CHECK(under_mask);
  LLVMDisposeMessage(ir);
}

/* A kernel whose records (float4s split into floats, structs of a float
 * and an int) are read and written whole: consecutive masked accesses,
 * neither gathers nor scatters. */
static void check_records(const cc_target *target, LLVMModuleRef source,
                          const char *name, const uint32_t local[3]) {
  char *ir = build_one_ir(target, source, name, local);
  if (!ir) return;
  bool gathers = strstr(ir, "@llvm.masked.gather") != NULL ||
                 strstr(ir, "@llvm.masked.scatter") != NULL;
  bool whole = strstr(ir, "@llvm.masked.load") != NULL &&
               strstr(ir, "@llvm.masked.store") != NULL;
  if (gathers || !whole) {
    fprintf(stderr, "%s (local %ux%ux%u): %s, %s\n", name, local[0], local[1],
            local[2], gathers ? "gathers" : "no gathers",
            whole ? "whole records" : "no whole records");
  }
  CHECK(!gathers);
  CHECK(whole);
  LLVMDisposeMessage(ir);
}

/* A kernel without loops goes through the whole-function vectorizer too
 * (its work-group function says so in an attribute), and `masked` says
 * whether stores are masked. */
static void check_whole(const cc_target *target, LLVMModuleRef source,
                        const char *name, const uint32_t local[3],
                        bool masked) {
  char *ir = build_one_ir(target, source, name, local);
  if (!ir) return;
  bool whole = strstr(ir, "\"" CC_VECTOR_LANES_ATTRIBUTE "\"=") != NULL;
  bool under_mask = strstr(ir, "@llvm.masked.store") != NULL;
  if (!whole || (masked && !under_mask)) {
    fprintf(stderr, "%s (local %ux%ux%u): %s, masked store %s\n", name,
            local[0], local[1], local[2],
            whole ? "vectorized as a whole" : "not vectorized as a whole",
            under_mask ? "found" : "missing");
  }
  CHECK(whole);
  if (masked) CHECK(under_mask);
  LLVMDisposeMessage(ir);
}

/* Kernel `name` runs `lanes` lanes (the attribute's text): a loop that
 * is one dependent chain four registers' worth, not the two of other
 * loops, unless its values would then not fit the registers. */
static void check_lanes(const cc_target *target, LLVMModuleRef source,
                        const char *name, unsigned lanes) {
  const uint32_t local[3] = {256, 1, 1};
  char *ir = build_one_ir(target, source, name, local);
  if (!ir) return;
  char wanted[64];
  snprintf(wanted, sizeof wanted, "\"%s\"=\"%u\"", CC_VECTOR_LANES_ATTRIBUTE,
           lanes);
  bool found = strstr(ir, wanted) != NULL;
  if (!found) fprintf(stderr, "%s: no %s in the IR\n", name, wanted);
  CHECK(found);
  LLVMDisposeMessage(ir);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s divergent.bc\n", argv[0]);
    return 1;
  }
  cc_target *target = NULL;
  cc_log log = {""};
  REQUIRE(cc_target_create_host(&target, &log) == cc_success);
  unsigned bits = cc_target_vector_bits(target);
  char floats[32], doubles[32], float_lanes[32], double_lanes[32];
  unsigned lanes = 2 * bits / 32;
  snprintf(floats, sizeof floats, "<%u x float>", lanes);
  snprintf(doubles, sizeof doubles, "<%u x double>", lanes / 2);
  snprintf(float_lanes, sizeof float_lanes, "phi <%u x i1>", lanes);
  snprintf(double_lanes, sizeof double_lanes, "phi <%u x i1>", lanes / 2);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef source = load_bitcode(context, argv[1]);
  const uint32_t specialized[3] = {64, 1, 1}, odd[3] = {17, 1, 1},
                 generic[3] = {0, 0, 0};
  check_divergent(target, source, "escape", specialized, floats, float_lanes,
                  false);
  check_divergent(target, source, "escape", odd, floats, float_lanes, true);
  check_divergent(target, source, "escape", generic, floats, float_lanes, true);
  check_divergent(target, source, "early_exit", specialized, floats,
                  float_lanes, true);
  check_divergent(target, source, "early_exit", generic, floats, float_lanes,
                  true);
  check_divergent(target, source, "double_steps", specialized, doubles,
                  double_lanes, false);
  check_divergent(target, source, "double_steps", generic, doubles,
                  double_lanes, true);
  check_records(target, source, "records", odd);
  check_records(target, source, "records", generic);
  check_records(target, source, "particles", odd);
  check_records(target, source, "particles", generic);
  check_whole(target, source, "branchy", specialized, true);
  check_whole(target, source, "branchy", generic, true);
  check_whole(target, source, "pick", odd, false);
  check_lanes(target, source, "chain", 4 * bits / 32 > 64 ? 64 : 4 * bits / 32);
  check_lanes(target, source, "crowded", 2);
  LLVMDisposeModule(source);
  LLVMContextDispose(context);
  cc_target_destroy(target);
  return check_finish();
}

/* Half arithmetic on a CPU with AVX512-FP16: clmux's work-group function
 * of a half kernel keeps its operations on LLVM's half vectors, so the
 * compiler, which targets the host CPU, gives native half instructions
 * (vdivph, vfmadd...ph) where the CPU has them, and conversions to float
 * and back (F16C) where it has not. The machines the tests run on have
 * no AVX512-FP16: the same module is compiled for a Sapphire Rapids and a
 * Zen 3 by name. Bitcode path in argv: half. */
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "check.h"
#include "codegen.h"

/* The assembly of kernel half_ops's work-group function for `cpu`. */
static char *assembly_for(LLVMModuleRef source, const char *cpu,
                          const char *features) {
  cc_target *target = NULL;
  cc_log log = {""};
  REQUIRE(cc_target_create_named(cpu, features, &target, &log) == cc_success);
  LLVMModuleRef module = NULL;
  const uint32_t local_size[3] = {64, 1, 1};
  CHECK_INT(cc_success, cc_codegen_work_group(source, "half_ops", local_size,
                                              "wg_half_ops", &module, &log));
  REQUIRE(module);
  CHECK_INT(cc_success, cc_codegen_optimize(target, module, &log));
  char *text = NULL;
  CHECK_INT(cc_success, cc_codegen_emit_assembly(target, module, &text, &log));
  REQUIRE(text);
  LLVMDisposeModule(module);
  cc_target_destroy(target);
  return text;
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef source = load_bitcode(context, argv[1]);

  char *fp16 = assembly_for(source, "sapphirerapids",
                            "+avx512f,+avx512bw,+avx512vl,+avx512fp16");
  CHECK(strstr(fp16, "vdivph") != NULL);
  CHECK(strstr(fp16, "ph\t") != NULL && strstr(fp16, "vfmadd") != NULL);
  CHECK(strstr(fp16, "vcvtph2ps") == NULL); /* nothing through float */
  free(fp16);

  char *f16c = assembly_for(source, "znver3", "+avx2,+fma,+f16c");
  CHECK(strstr(f16c, "vcvtph2ps") != NULL && strstr(f16c, "vcvtps2ph"));
  CHECK(strstr(f16c, "vdivph") == NULL);
  free(f16c);

  LLVMDisposeModule(source);
  LLVMContextDispose(context);
  return check_finish();
}

/* clmux OpenCL front-end: parses Mux built-in kernel declarations. */
#include "clx.h"

int clx_parse_declarations(const char *declarations,
                           clx_kernel_signature **out_signatures) {
  (void)declarations;
  *out_signatures = NULL;
  return -1;
}

void clx_free_signatures(clx_kernel_signature *signatures, int count) {
  (void)signatures;
  (void)count;
}

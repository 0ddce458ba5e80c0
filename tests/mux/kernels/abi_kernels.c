/* Work-group functions written by hand against the CPU target's ABI
 * (work_group_abi.h), compiled by Clang into the object that the
 * executable test wraps into a binary: what the OpenCL C compiler will
 * produce one day, small enough to check by eye. */
#include <clmux/cpu_abi/work_group_abi.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t first_global_id(const cpu_work_group *wg) {
  return wg->global_offset[0] + wg->group_id[0] * wg->local_size[0];
}

/* saxpy(float a, global const float* x, global float* y):
 * y[i] = a * x[i] + y[i]. The float sits at 0, the pointers at 8 and 16. */
void saxpy_wg(const uint8_t *args, const cpu_work_group *wg) {
  float a;
  const float *x;
  float *y;
  memcpy(&a, args, sizeof a);
  memcpy(&x, args + 8, sizeof x);
  memcpy(&y, args + 16, sizeof y);
  uint64_t begin = first_global_id(wg);
  for (uint32_t i = 0; i < wg->local_size[0]; i++) {
    y[begin + i] = a * x[begin + i] + y[begin + i];
  }
}

/* sine(global const float* in, global float* out): out[i] = sinf(in[i]),
 * a call the JIT resolves in the process (libm). */
void sine_wg(const uint8_t *args, const cpu_work_group *wg) {
  const float *in;
  float *out;
  memcpy(&in, args, sizeof in);
  memcpy(&out, args + 8, sizeof out);
  uint64_t begin = first_global_id(wg);
  for (uint32_t i = 0; i < wg->local_size[0]; i++) {
    out[begin + i] = sinf(in[begin + i]);
  }
}

/* reverse(global const int* in, global int* out), compiled for local size
 * 64 with 256 bytes of static local memory: each group stores its inputs
 * in local memory, then writes them back reversed within the group. */
void reverse64_wg(const uint8_t *args, const cpu_work_group *wg) {
  const int32_t *in;
  int32_t *out;
  memcpy(&in, args, sizeof in);
  memcpy(&out, args + 8, sizeof out);
  int32_t *local = (int32_t *)wg->local_memory;
  uint64_t begin = first_global_id(wg);
  for (uint32_t i = 0; i < 64; i++) local[i] = in[begin + i];
  for (uint32_t i = 0; i < 64; i++) out[begin + i] = local[63 - i];
}

/* twice_reversed(global const int* in, global int* out): as reverse, but
 * through the per-work-item scratch (4 bytes each) and with any local
 * size, doubling each value on the way. */
void twice_reversed_wg(const uint8_t *args, const cpu_work_group *wg) {
  const int32_t *in;
  int32_t *out;
  memcpy(&in, args, sizeof in);
  memcpy(&out, args + 8, sizeof out);
  int32_t *scratch = (int32_t *)wg->scratch;
  uint32_t count = wg->local_size[0];
  uint64_t begin = first_global_id(wg);
  for (uint32_t i = 0; i < count; i++) scratch[i] = 2 * in[begin + i];
  for (uint32_t i = 0; i < count; i++) {
    out[begin + i] = scratch[count - 1 - i];
  }
}

/* Not a kernel of any binary the test builds: a symbol a table may name
 * that is not listed, to show names are matched exactly. */
void unlisted_wg(const uint8_t *args, const cpu_work_group *wg) {
  (void)args;
  (void)wg;
}

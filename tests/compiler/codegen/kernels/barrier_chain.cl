// Kernels of 8 and 32 steps, each step two barriers apart: the code made
// for them must grow with the number of barriers, not with its square
// (codegen_barrier_growth.c).
#define STEP(k)                                        \
  v = v * 3u + lm[(lid + (k)) % lsz] ^ (v >> 3);       \
  if (v & 4u) v += in[(gid + (k)) % n];                \
  barrier(CLK_LOCAL_MEM_FENCE);                        \
  lm[lid] = v;                                         \
  barrier(CLK_LOCAL_MEM_FENCE);
#define STEPS4(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3)
#define STEPS8(k) STEPS4(k) STEPS4(k + 4)
#define STEPS32(k) STEPS8(k) STEPS8(k + 8) STEPS8(k + 16) STEPS8(k + 24)
#define CHAIN(name, STEPS)                                                 \
  kernel void name(global const uint *in, global uint *out, uint n) {      \
    uint gid = get_global_id(0), lid = get_local_id(0);                    \
    uint lsz = get_local_size(0);                                          \
    local uint lm[256];                                                    \
    uint v = in[gid];                                                      \
    lm[lid] = v;                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                          \
    STEPS(0)                                                               \
    out[gid] = v + lm[(lid + 1) % lsz];                                    \
  }
CHAIN(chain8, STEPS8)
CHAIN(chain32, STEPS32)

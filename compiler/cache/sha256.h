/* clmux compiler — SHA-256 (FIPS 180-4), the cache's hash for file names,
 * keys and payload checksums: strong enough that a match means the same
 * bytes, with no crypto library to depend on. */
#ifndef CLMUX_COMPILER_CACHE_SHA256_H
#define CLMUX_COMPILER_CACHE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define CC_SHA256_SIZE 32

/* A running hash; plain data, so a partly fed state can be copied. */
typedef struct cc_sha256 {
  uint32_t state[8];
  uint64_t length; /* bytes fed so far */
  uint8_t block[64];
  size_t used; /* bytes waiting in `block` */
} cc_sha256;

void cc_sha256_init(cc_sha256 *hash);
void cc_sha256_update(cc_sha256 *hash, const void *bytes, size_t size);
/* Writes the digest; `hash` is left finished (init again to reuse). */
void cc_sha256_final(cc_sha256 *hash, uint8_t digest[CC_SHA256_SIZE]);
/* One call for bytes in memory. */
void cc_sha256_bytes(const void *bytes, size_t size,
                     uint8_t digest[CC_SHA256_SIZE]);

#endif /* CLMUX_COMPILER_CACHE_SHA256_H */

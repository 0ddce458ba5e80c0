/* clmux compiler — the disk cache: bytes (compiled programs, specialized
 * kernels) stored under a key built from everything they depend on, so a
 * repeated build reads them back instead of compiling.
 *
 * Where: $CLMUX_CACHE_DIR, else $XDG_CACHE_HOME/clmux, else
 * $HOME/.cache/clmux (created with mode 0700 on the first put).
 * CLMUX_CACHE=0 turns the cache off; CLMUX_CACHE_MAX_SIZE (bytes, or with
 * a K/M/G suffix; default 256M) bounds it: at a process's first put and
 * then whenever its puts have added 1/16 of the bound, the least recently
 * used entries are removed until the directory fits.
 *
 * An entry is one file named by the SHA-256 of its key, holding that hash,
 * the key's length and the SHA-256 of the payload: a collision, a truncated
 * or damaged file or a foreign file is a miss, never wrong bytes. Puts
 * write a temporary file in the same directory and rename it, so readers
 * see whole entries only, from any number of threads and processes. Every
 * failure (no directory, no permission, disk full) means "no caching":
 * a miss or a put that did nothing. */
#ifndef CLMUX_COMPILER_CACHE_H
#define CLMUX_COMPILER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

/* A key under construction: add its parts one by one. Plain data, so a
 * key holding the parts common to many entries can be built once and
 * copied. Parts are length-framed: ("ab","c") and ("a","bc") differ. */
typedef struct cc_cache_key {
  cc_sha256 hash;
  uint64_t length; /* bytes fed, framing included */
} cc_cache_key;

void cc_cache_key_init(cc_cache_key *key);
void cc_cache_key_add(cc_cache_key *key, const void *bytes, size_t size);
/* A NUL-terminated string; NULL is a part of its own, unlike "". */
void cc_cache_key_add_string(cc_cache_key *key, const char *string);
void cc_cache_key_add_u64(cc_cache_key *key, uint64_t value);
/* What the code generated on this machine depends on besides the input:
 * the LLVM version, the host CPU name and features, and the identity
 * (path, size, modification time) of the file that holds this code — so a
 * rebuilt or updated libclmux.so never reads its predecessor's entries. */
void cc_cache_key_add_compiler_identity(cc_cache_key *key);

/* The cache directory the environment names (malloc'd), or NULL when the
 * cache is off (CLMUX_CACHE=0) or no variable names one. */
char *cc_cache_directory(void);

/* Each call below takes `directory` (NULL: cc_cache_directory()) and does
 * nothing when CLMUX_CACHE=0. */

/* On a hit: true, *bytes (malloc'd, for the caller to free) and *size. On
 * a miss: false, *bytes NULL, *size 0. A hit marks the entry recently
 * used. */
bool cc_cache_get(const char *directory, const cc_cache_key *key,
                  uint8_t **bytes, size_t *size);

/* Stores `size` bytes under `key`, replacing any entry; true if stored. */
bool cc_cache_put(const char *directory, const cc_cache_key *key,
                  const void *bytes, size_t size);

/* Removes least recently used entries (and temporary files left by
 * crashed writers) until the directory holds at most `limit` bytes of
 * entries; cc_cache_put calls it with the configured bound. */
void cc_cache_trim(const char *directory, uint64_t limit);

#endif /* CLMUX_COMPILER_CACHE_H */

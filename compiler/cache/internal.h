/* clmux compiler — the disk cache's parts, shared by its files. */
#ifndef CLMUX_COMPILER_CACHE_INTERNAL_H
#define CLMUX_COMPILER_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"

/* Entry file names: the key's SHA-256 in hex. */
#define CC_CACHE_NAME_LENGTH (2 * CC_SHA256_SIZE)
/* Temporary files start with this; a name of neither kind is not ours. */
#define CC_CACHE_TEMP_PREFIX ".tmp-"

/* CLMUX_CACHE=0 (or "off", "no", "false"). */
bool cc_cache_disabled(void);
/* CLMUX_CACHE_MAX_SIZE, or the default bound. */
uint64_t cc_cache_size_limit(void);
/* Creates `directory` and missing parents with mode 0700; true if it is
 * (now) a directory. */
bool cc_cache_make_directory(const char *directory);
/* Whether the folder (or the open entry) is this user's alone: owned by
 * the effective user, writable by no one else. If not, one line on
 * stderr (once per process) says so, and the cache is not used. */
bool cc_cache_trusted_directory(const char *directory);
bool cc_cache_trusted_entry(int fd, const char *path);
/* True for a name made of CC_CACHE_NAME_LENGTH lowercase hex digits. */
bool cc_cache_is_entry_name(const char *name);

#endif /* CLMUX_COMPILER_CACHE_INTERNAL_H */

/* clmux compiler — reading and writing one disk cache entry. File layout,
 * little-endian:
 *   0  char[8]  "CLMUXCCH"
 *   8  u32      format version (1)
 *   12 u32      header size (96)
 *   16 u64      key length (bytes fed to the key, framing included)
 *   24 u8[32]   SHA-256 of the key (also the file name, in hex)
 *   56 u64      payload size
 *   64 u8[32]   SHA-256 of the payload
 *   96          payload
 * The name alone would do for a lookup; the copies inside make a renamed,
 * truncated or damaged file a miss. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define MAGIC "CLMUXCCH"
#define VERSION 1u
#define HEADER_SIZE 96u
/* Far beyond any program; bounds what a damaged header can ask for. */
#define MAX_PAYLOAD (UINT64_C(1) << 32)

static void put_le(uint8_t *at, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t get_le(const uint8_t *at, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; i++) value |= (uint64_t)at[i] << (8 * i);
  return value;
}

/* The key's digest (the key itself stays open for more parts). */
static void key_digest(const cc_cache_key *key,
                       uint8_t digest[CC_SHA256_SIZE]) {
  cc_sha256 copy = key->hash;
  cc_sha256_final(&copy, digest);
}

/* "<directory>/<hex digest><suffix>", malloc'd. */
static char *entry_path(const char *directory,
                        const uint8_t digest[CC_SHA256_SIZE],
                        const char *prefix, const char *suffix) {
  char hex[CC_CACHE_NAME_LENGTH + 1];
  for (unsigned i = 0; i < CC_SHA256_SIZE; i++) {
    snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  }
  char *path = NULL;
  return asprintf(&path, "%s/%s%s%s", directory, prefix, hex, suffix) < 0
             ? NULL
             : path;
}

static bool read_all(int fd, void *bytes, size_t size, off_t offset) {
  uint8_t *at = bytes;
  while (size) {
    ssize_t got = pread(fd, at, size, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    at += got;
    offset += got;
    size -= (size_t)got;
  }
  return true;
}

static bool write_all(int fd, const void *bytes, size_t size) {
  const uint8_t *at = bytes;
  while (size) {
    ssize_t done = write(fd, at, size);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return false;
    at += done;
    size -= (size_t)done;
  }
  return true;
}

/* The entry open as `fd`, checked against the key; NULL if it is not a
 * whole, undamaged entry for this key. */
static uint8_t *read_entry(int fd, const cc_cache_key *key,
                           const uint8_t digest[CC_SHA256_SIZE], size_t *size) {
  struct stat info;
  uint8_t header[HEADER_SIZE];
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) ||
      (uint64_t)info.st_size < HEADER_SIZE ||
      !read_all(fd, header, HEADER_SIZE, 0)) {
    return NULL;
  }
  uint64_t payload_size = get_le(header + 56, 8);
  if (memcmp(header, MAGIC, 8) != 0 || get_le(header + 8, 4) != VERSION ||
      get_le(header + 12, 4) != HEADER_SIZE ||
      get_le(header + 16, 8) != key->length ||
      memcmp(header + 24, digest, CC_SHA256_SIZE) != 0 ||
      payload_size > MAX_PAYLOAD ||
      payload_size != (uint64_t)info.st_size - HEADER_SIZE) {
    return NULL;
  }
  uint8_t *payload = malloc(payload_size ? payload_size : 1);
  uint8_t check[CC_SHA256_SIZE];
  if (!payload || !read_all(fd, payload, payload_size, HEADER_SIZE)) {
    free(payload);
    return NULL;
  }
  cc_sha256_bytes(payload, payload_size, check);
  if (memcmp(check, header + 64, CC_SHA256_SIZE) != 0) {
    free(payload);
    return NULL;
  }
  *size = payload_size;
  return payload;
}

bool cc_cache_get(const char *directory, const cc_cache_key *key,
                  uint8_t **bytes, size_t *size) {
  *bytes = NULL;
  *size = 0;
  if (cc_cache_disabled()) return false;
  char *own = directory ? NULL : cc_cache_directory();
  if (!directory) directory = own;
  if (!directory) return false;
  uint8_t digest[CC_SHA256_SIZE];
  key_digest(key, digest);
  char *path = entry_path(directory, digest, "", "");
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
  /* Only on a would-be hit: a missing folder is no reason to speak. */
  if (fd >= 0 && (!cc_cache_trusted_directory(directory) ||
                  !cc_cache_trusted_entry(fd, path))) {
    close(fd);
    fd = -1;
  }
  free(path);
  free(own);
  if (fd < 0) return false;
  *bytes = read_entry(fd, key, digest, size);
  /* Eviction removes the least recently used entries first: mark this
   * one used (fails harmlessly on a read-only cache). */
  if (*bytes) futimens(fd, NULL);
  close(fd);
  return *bytes != NULL;
}

/* Unique among threads (counter) and processes (pid) at once. */
static atomic_uint_fast64_t temp_counter;

/* Trimming reads every entry's metadata, which costs seconds in a folder
 * of tens of thousands of entries: trim at a process's first put, then
 * each time its puts have added a sixteenth of the bound. */
static bool trim_due(size_t stored) {
  static atomic_bool trimmed_once;
  static _Atomic uint64_t since_trim;
  uint64_t limit = cc_cache_size_limit();
  uint64_t total = atomic_fetch_add(&since_trim, stored) + stored;
  if (!atomic_exchange(&trimmed_once, true) || total > limit / 16) {
    atomic_store(&since_trim, 0);
    return true;
  }
  return false;
}

bool cc_cache_put(const char *directory, const cc_cache_key *key,
                  const void *bytes, size_t size) {
  if (cc_cache_disabled() || (uint64_t)size > MAX_PAYLOAD) return false;
  char *own = directory ? NULL : cc_cache_directory();
  if (!directory) directory = own;
  if (!directory || !cc_cache_make_directory(directory) ||
      !cc_cache_trusted_directory(directory)) {
    free(own);
    return false;
  }
  uint8_t header[HEADER_SIZE] = {0};
  memcpy(header, MAGIC, 8);
  put_le(header + 8, VERSION, 4);
  put_le(header + 12, HEADER_SIZE, 4);
  put_le(header + 16, key->length, 8);
  key_digest(key, header + 24);
  put_le(header + 56, size, 8);
  cc_sha256_bytes(bytes, size, header + 64);

  char suffix[64];
  snprintf(suffix, sizeof suffix, "-%ld-%llu", (long)getpid(),
           (unsigned long long)atomic_fetch_add(&temp_counter, 1));
  char *path = entry_path(directory, header + 24, "", "");
  char *temp = entry_path(directory, header + 24, CC_CACHE_TEMP_PREFIX, suffix);
  bool stored = false;
  int fd = path && temp
               ? open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)
               : -1;
  if (fd >= 0) {
    /* No fsync: after a crash a damaged entry is only a miss. */
    bool written =
        write_all(fd, header, HEADER_SIZE) && write_all(fd, bytes, size);
    written = close(fd) == 0 && written;
    stored = written && rename(temp, path) == 0;
    if (!stored) unlink(temp);
  }
  free(path);
  free(temp);
  if (stored && trim_due(size)) {
    cc_cache_trim(directory, cc_cache_size_limit());
  }
  free(own);
  return stored;
}

/* clmux compiler tests — the disk cache: a fresh directory per test run,
 * keys and payloads made from small numbers. */
#ifndef CLMUX_TESTS_CACHE_TEST_H
#define CLMUX_TESTS_CACHE_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "check.h"

/* A new empty directory under /tmp (malloc'd). */
static inline char *cache_test_directory(const char *tag) {
  char *path = NULL;
  REQUIRE(asprintf(&path, "/tmp/clmux-%s-XXXXXX", tag) > 0);
  REQUIRE(mkdtemp(path));
  return path;
}

/* Removes a directory tree of plain files and folders (test scratch). */
static inline void cache_test_remove(const char *path) {
  DIR *dir = opendir(path);
  if (dir) {
    for (struct dirent *item; (item = readdir(dir));) {
      if (!strcmp(item->d_name, ".") || !strcmp(item->d_name, "..")) continue;
      char *child = NULL;
      if (asprintf(&child, "%s/%s", path, item->d_name) < 0) continue;
      struct stat info;
      if (lstat(child, &info) == 0 && S_ISDIR(info.st_mode)) {
        chmod(child, 0700);
        cache_test_remove(child);
      } else {
        unlink(child);
      }
      free(child);
    }
    closedir(dir);
  }
  rmdir(path);
}

/* How many directory entries start with `prefix` ("" for all). */
static inline int cache_test_count(const char *path, const char *prefix) {
  DIR *dir = opendir(path);
  int count = 0;
  if (!dir) return -1;
  for (struct dirent *item; (item = readdir(dir));) {
    if (item->d_name[0] == '.' &&
        (!item->d_name[1] || !strcmp(item->d_name, ".."))) {
      continue;
    }
    count += strncmp(item->d_name, prefix, strlen(prefix)) == 0;
  }
  closedir(dir);
  return count;
}

/* The key ("test", number). */
static inline cc_cache_key cache_test_key(uint64_t number) {
  cc_cache_key key;
  cc_cache_key_init(&key);
  cc_cache_key_add_string(&key, "test");
  cc_cache_key_add_u64(&key, number);
  return key;
}

/* The path of the entry a key names. */
static inline char *cache_test_entry_path(const char *directory,
                                          const cc_cache_key *key) {
  cc_sha256 copy = key->hash;
  uint8_t digest[CC_SHA256_SIZE];
  cc_sha256_final(&copy, digest);
  char hex[2 * CC_SHA256_SIZE + 1];
  for (int i = 0; i < CC_SHA256_SIZE; i++)
    sprintf(hex + 2 * i, "%02x", digest[i]);
  char *path = NULL;
  REQUIRE(asprintf(&path, "%s/%s", directory, hex) > 0);
  return path;
}

#endif /* CLMUX_TESTS_CACHE_TEST_H */

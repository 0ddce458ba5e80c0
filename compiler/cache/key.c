/* clmux compiler — the cache key builder and the compiler's identity. */
#include <dlfcn.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"

void cc_cache_key_init(cc_cache_key *key) {
  cc_sha256_init(&key->hash);
  key->length = 0;
  /* The key format itself is part of every key. */
  cc_cache_key_add_string(key, "clmux cache key 1");
}

void cc_cache_key_add_u64(cc_cache_key *key, uint64_t value) {
  uint8_t bytes[8];
  for (unsigned i = 0; i < 8; i++) bytes[i] = (uint8_t)(value >> (8 * i));
  cc_sha256_update(&key->hash, bytes, sizeof bytes);
  key->length += sizeof bytes;
}

void cc_cache_key_add(cc_cache_key *key, const void *bytes, size_t size) {
  /* A tag and the size before the bytes: no two part lists feed the same
   * stream. */
  cc_cache_key_add_u64(key, 'B');
  cc_cache_key_add_u64(key, size);
  cc_sha256_update(&key->hash, bytes, size);
  key->length += size;
}

void cc_cache_key_add_string(cc_cache_key *key, const char *string) {
  if (!string) {
    cc_cache_key_add_u64(key, 'N');
    return;
  }
  cc_cache_key_add(key, string, strlen(string));
}

static uint8_t identity_digest[CC_SHA256_SIZE];
static pthread_once_t identity_once = PTHREAD_ONCE_INIT;

/* Size, time and inode of the file this code was loaded from. */
static void add_file_identity(cc_cache_key *key, const char *path) {
  struct stat info;
  if (!path || stat(path, &info) != 0) {
    cc_cache_key_add_string(key, NULL);
    return;
  }
  cc_cache_key_add_string(key, path);
  cc_cache_key_add_u64(key, (uint64_t)info.st_dev);
  cc_cache_key_add_u64(key, (uint64_t)info.st_ino);
  cc_cache_key_add_u64(key, (uint64_t)info.st_size);
  cc_cache_key_add_u64(key, (uint64_t)info.st_mtim.tv_sec);
  cc_cache_key_add_u64(key, (uint64_t)info.st_mtim.tv_nsec);
}

static void compute_identity(void) {
  cc_cache_key key;
  cc_cache_key_init(&key);
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  cc_cache_key_add_u64(&key, major);
  cc_cache_key_add_u64(&key, minor);
  cc_cache_key_add_u64(&key, patch);
  char *cpu = LLVMGetHostCPUName();
  char *features = LLVMGetHostCPUFeatures();
  cc_cache_key_add_string(&key, cpu);
  cc_cache_key_add_string(&key, features);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  /* The main program's path from dladdr may be relative or bare: ask the
   * kernel for it instead. */
  Dl_info where;
  if (dladdr((void *)&compute_identity, &where) && where.dli_fname &&
      where.dli_fname[0] == '/') {
    add_file_identity(&key, where.dli_fname);
  } else {
    add_file_identity(&key, "/proc/self/exe");
  }
  cc_sha256_final(&key.hash, identity_digest);
}

void cc_cache_key_add_compiler_identity(cc_cache_key *key) {
  pthread_once(&identity_once, compute_identity);
  cc_cache_key_add(key, identity_digest, sizeof identity_digest);
}

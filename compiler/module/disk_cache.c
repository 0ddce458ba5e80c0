/* clmux compiler — the module layer's use of the disk cache (cache.h):
 * compiled objects keyed by everything Clang (or the SPIR-V translator)
 * saw, specialized kernels
 * keyed by the program's code, the kernel and the local size. Without the
 * cache part (or with CLMUX_CACHE=0) every lookup misses. */
#include <llvm-c/BitWriter.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#ifdef CC_HAVE_CACHE
#include "cache.h"
#endif

#ifdef CC_HAVE_CACHE
static void object_key(cc_cache_key *key, const char *source, size_t length,
                       const char *options, const cc_header *headers,
                       size_t num_headers) {
  cc_cache_key_init(key);
  cc_cache_key_add_string(key, "object-v1");
  cc_cache_key_add(key, source, length);
  cc_cache_key_add_string(key, options ? options : "");
  cc_cache_key_add_u64(key, num_headers);
  for (size_t i = 0; i < num_headers; i++) {
    cc_cache_key_add_string(key, headers[i].name);
    cc_cache_key_add_string(key, headers[i].text);
  }
  cc_cache_key_add_compiler_identity(key);
}
#endif

#ifdef CC_HAVE_CACHE
/* The compiled object cached under `key`, or NULL. */
static cc_module *cached_object(const cc_cache_key *key) {
  uint8_t *bytes = NULL;
  size_t size = 0;
  if (!cc_cache_get(NULL, key, &bytes, &size)) return NULL;
  cc_module *module = cc_module_read_serialized(bytes, size, NULL, NULL);
  free(bytes);
  if (module && module->kind != CC_MODULE_OBJECT) {
    cc_module_destroy(module);
    module = NULL;
  }
  return module;
}
#endif

#ifdef CC_HAVE_CACHE
static void name_by(cc_module *module, const cc_cache_key *key);

/* Keeps `module`'s bytes under `key`. */
static void store_object(cc_module *module, const cc_cache_key *key) {
  uint8_t *bytes = NULL;
  size_t size = 0;
  if (cc_module_serialize(module, &bytes, &size) != CC_MODULE_SUCCESS) return;
  cc_cache_put(NULL, key, bytes, size);
  free(bytes);
}

/* A SPIR-V module's object: its words, the specialization values, the
 * options, and the translator as installed (a new package translates
 * anew). */
static void spirv_key(cc_cache_key *key, const void *il, size_t length,
                      const cc_spirv_value *values, size_t count,
                      const char *options) {
  cc_cache_key_init(key);
  cc_cache_key_add_string(key, "spirv-object-v1");
  cc_cache_key_add(key, il, length);
  cc_cache_key_add_u64(key, count);
  for (size_t i = 0; i < count; i++) {
    cc_cache_key_add_u64(key, values[i].id);
    cc_cache_key_add_u64(key, values[i].size);
    cc_cache_key_add_u64(key, values[i].bits);
  }
  cc_cache_key_add_string(key, options ? options : "");
  struct stat translator;
  if (stat(cc_spirv_translator(), &translator) == 0) {
    cc_cache_key_add_u64(key, (uint64_t)translator.st_size);
    cc_cache_key_add_u64(key, (uint64_t)translator.st_mtime);
  }
  cc_cache_key_add_compiler_identity(key);
}
#endif

cc_module *cc_disk_cache_find_spirv(const void *il, size_t length,
                                    const cc_spirv_value *values, size_t count,
                                    const char *options) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  spirv_key(&key, il, length, values, count, options);
  cc_module *module = cached_object(&key);
  if (module) name_by(module, &key);
  return module;
#else
  (void)il, (void)length, (void)values, (void)count, (void)options;
  return NULL;
#endif
}

void cc_disk_cache_store_spirv(cc_module *module, const void *il, size_t length,
                               const cc_spirv_value *values, size_t count,
                               const char *options) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  spirv_key(&key, il, length, values, count, options);
  name_by(module, &key);
  store_object(module, &key);
#else
  (void)module, (void)il, (void)length, (void)values, (void)count,
      (void)options;
#endif
}

cc_module *cc_disk_cache_find_object(const char *source, size_t length,
                                     const char *options,
                                     const cc_header *headers,
                                     size_t num_headers) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  object_key(&key, source, length, options, headers, num_headers);
  return cached_object(&key);
#else
  (void)source, (void)length, (void)options, (void)headers, (void)num_headers;
  return NULL;
#endif
}

void cc_disk_cache_store_object(cc_module *module, const char *source,
                                size_t length, const char *options,
                                const cc_header *headers, size_t num_headers) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  object_key(&key, source, length, options, headers, num_headers);
  store_object(module, &key);
#else
  (void)module, (void)source, (void)length, (void)options, (void)headers,
      (void)num_headers;
#endif
}

#ifdef CC_HAVE_CACHE
static void name_by(cc_module *module, const cc_cache_key *key) {
  cc_sha256 copy = key->hash;
  cc_sha256_final(&copy, module->digest);
  module->digest_ready = true;
}
#endif

void cc_disk_cache_name_object(cc_module *module, const char *source,
                               size_t length, const char *options,
                               const cc_header *headers, size_t num_headers) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  object_key(&key, source, length, options, headers, num_headers);
  name_by(module, &key);
#else
  (void)module, (void)source, (void)length, (void)options, (void)headers,
      (void)num_headers;
#endif
}

void cc_disk_cache_name_link(cc_module *module, cc_module *const *inputs,
                             size_t count, const char *options) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  cc_cache_key_init(&key);
  cc_cache_key_add_string(&key, "link-v1");
  cc_cache_key_add_string(&key, options ? options : "");
  cc_cache_key_add_u64(&key, count);
  for (size_t i = 0; i < count; i++) {
    if (!inputs[i]->digest_ready) return; /* named by its bitcode later */
    cc_cache_key_add(&key, inputs[i]->digest, sizeof inputs[i]->digest);
  }
  cc_cache_key_add_compiler_identity(&key);
  name_by(module, &key);
#else
  (void)module, (void)inputs, (void)count, (void)options;
#endif
}

void cc_disk_cache_name_binary(cc_module *module, const void *bytes,
                               size_t size) {
#ifdef CC_HAVE_CACHE
  cc_cache_key key;
  cc_cache_key_init(&key);
  cc_cache_key_add_string(&key, "binary-v1");
  cc_cache_key_add(&key, bytes, size);
  cc_cache_key_add_compiler_identity(&key);
  name_by(module, &key);
#else
  (void)module, (void)bytes, (void)size;
#endif
}

#ifdef CC_HAVE_CACHE
static bool cache_enabled(void) {
  char *directory = cc_cache_directory();
  free(directory);
  return directory != NULL;
}

/* The program's identity for kernel entries when nothing named it by its
 * inputs (cc_disk_cache_name_*): a hash of its bitcode, taken once (the
 * code of an executable never changes). Under llvm_lock. */
static bool program_digest(cc_module *module) {
  if (module->digest_ready) return true;
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(module->llvm);
  if (!bitcode) return false;
  cc_sha256_bytes(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode),
                  module->digest);
  LLVMDisposeMemoryBuffer(bitcode);
  module->digest_ready = true;
  return true;
}

static void kernel_key(cc_cache_key *key, const cc_module *module,
                       const cc_spec *spec) {
  cc_cache_key_init(key);
  cc_cache_key_add_string(key, "kernel-v2");
  cc_cache_key_add(key, module->digest, sizeof module->digest);
  cc_cache_key_add_string(key, module->kernels[spec->kernel].name);
  for (int d = 0; d < 3; d++) cc_cache_key_add_u64(key, spec->local_size[d]);
  cc_cache_key_add_u64(key, spec->image_format.channel_order);
  cc_cache_key_add_u64(key, spec->image_format.channel_type);
  cc_cache_key_add_u64(key, spec->image_format.pixel_size);
  cc_cache_key_add_u64(key, cc_module_checks_bounds(module));
  cc_cache_key_add_u64(key, cc_codegen_vectorizes());
  cc_cache_key_add_compiler_identity(key);
}
#endif

bool cc_disk_cache_find_kernel(cc_module *module, const cc_spec *spec,
                               uint8_t **binary, size_t *size) {
#ifdef CC_HAVE_CACHE
  if (!cache_enabled() || !program_digest(module)) return false;
  cc_cache_key key;
  kernel_key(&key, module, spec);
  return cc_cache_get(NULL, &key, binary, size);
#else
  (void)module, (void)spec, (void)binary, (void)size;
  return false;
#endif
}

void cc_disk_cache_store_kernel(cc_module *module, const cc_spec *spec,
                                const uint8_t *binary, size_t size) {
#ifdef CC_HAVE_CACHE
  if (!cache_enabled() || !program_digest(module)) return;
  cc_cache_key key;
  kernel_key(&key, module, spec);
  cc_cache_put(NULL, &key, binary, size);
#else
  (void)module, (void)spec, (void)binary, (void)size;
#endif
}

/* clmux compiler — the module layer: a module as bytes (CL_PROGRAM_BINARIES)
 * and back. Layout, little-endian:
 *   0  char[8]  "CLMUXMOD"
 *   8  u32      format version (1)
 *   12 u32      kind (cc_module_kind)
 *   16 u32      option flags (CC_OPTION_*)
 *   20 u32      options length (bytes, no NUL)
 *   24 u64      bitcode length
 *   32 u64      FNV-1a 64 of bytes 0..31 and everything after the header
 *   40          options, then bitcode
 * The checksum turns random damage into a clean refusal before LLVM's
 * bitcode reader, which is not built to survive hostile input, sees it. */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAGIC "CLMUXMOD"
#define VERSION 1u
#define HEADER_SIZE 40u

static uint64_t fnv1a(uint64_t hash, const uint8_t *bytes, size_t size) {
  for (size_t i = 0; i < size; i++) {
    hash = (hash ^ bytes[i]) * UINT64_C(0x100000001b3);
  }
  return hash;
}

/* Covers the header fields before it and the payload. */
static uint64_t checksum(const uint8_t *bytes, size_t size) {
  uint64_t hash = fnv1a(UINT64_C(0xcbf29ce484222325), bytes, 32);
  return fnv1a(hash, bytes + HEADER_SIZE, size - HEADER_SIZE);
}

static void put(uint8_t *at, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t get(const uint8_t *at, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; i++) value |= (uint64_t)at[i] << (8 * i);
  return value;
}

cc_module_result cc_module_serialize(cc_module *module, uint8_t **bytes,
                                     size_t *size) {
  *bytes = NULL;
  *size = 0;
  LLVMMemoryBufferRef bitcode = cc_module_bitcode(module);
  if (!bitcode) return CC_MODULE_OUT_OF_MEMORY;
  size_t options_length = strlen(module->options);
  size_t code_length = LLVMGetBufferSize(bitcode);
  size_t total = HEADER_SIZE + options_length + code_length;
  uint8_t *out = malloc(total);
  if (!out) {
    LLVMDisposeMemoryBuffer(bitcode);
    return CC_MODULE_OUT_OF_MEMORY;
  }
  memcpy(out, MAGIC, 8);
  put(out + 8, VERSION, 4);
  put(out + 12, module->kind, 4);
  put(out + 16, module->flags, 4);
  put(out + 20, options_length, 4);
  put(out + 24, code_length, 8);
  memcpy(out + HEADER_SIZE, module->options, options_length);
  memcpy(out + HEADER_SIZE + options_length, LLVMGetBufferStart(bitcode),
         code_length);
  LLVMDisposeMemoryBuffer(bitcode);
  put(out + 32, checksum(out, total), 8);
  *bytes = out;
  *size = total;
  return CC_MODULE_SUCCESS;
}

/* The header's promises, checked; the reason goes to the log. */
static bool check_header(const uint8_t *in, size_t size, cc_text *log) {
  if (!in || size < HEADER_SIZE || memcmp(in, MAGIC, 8) != 0) {
    cc_text_add(log, "error: not a clmux program binary\n");
    return false;
  }
  uint64_t kind = get(in + 12, 4);
  uint64_t options_length = get(in + 20, 4);
  uint64_t code_length = get(in + 24, 8);
  if (get(in + 8, 4) != VERSION) {
    cc_text_add(log, "error: program binary format %u, expected %u\n",
                (unsigned)get(in + 8, 4), VERSION);
    return false;
  }
  if (kind < CC_MODULE_OBJECT || kind > CC_MODULE_EXECUTABLE ||
      code_length > size - HEADER_SIZE ||
      options_length != size - HEADER_SIZE - code_length ||
      memchr(in + HEADER_SIZE, '\0', options_length)) {
    cc_text_add(log, "error: program binary header is inconsistent\n");
    return false;
  }
  if (get(in + 32, 8) != checksum(in, size)) {
    cc_text_add(log, "error: program binary is corrupted (checksum)\n");
    return false;
  }
  return true;
}

static cc_module_result read_module(cc_module *module, const uint8_t *code,
                                    size_t length, cc_text *log) {
  /* A copy: the bitcode after the options is not aligned. */
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      (const char *)code, length, "clmux-binary");
  if (!buffer) return CC_MODULE_OUT_OF_MEMORY;
  LLVMModuleRef llvm = NULL;
  module->diagnostics = log;
  bool failed = LLVMParseBitcodeInContext2(module->context, buffer, &llvm);
  module->diagnostics = NULL;
  LLVMDisposeMemoryBuffer(buffer);
  if (failed) {
    cc_text_add(log, "error: program binary holds no valid bitcode\n");
    return CC_MODULE_INVALID_BINARY;
  }
  char *message = NULL;
  if (LLVMVerifyModule(llvm, LLVMReturnStatusAction, &message) ||
      (module->kind == CC_MODULE_EXECUTABLE &&
       !cc_check_defined(llvm, true, log))) {
    cc_text_add(log, "error: program binary holds an invalid module\n%s",
                message ? message : "");
    LLVMDisposeMessage(message);
    LLVMDisposeModule(llvm);
    return CC_MODULE_INVALID_BINARY;
  }
  LLVMDisposeMessage(message);
  return cc_module_adopt(module, llvm, log);
}

cc_module *cc_module_read_serialized(const void *bytes, size_t size, char **log,
                                     cc_module_result *out) {
  cc_text text = {0};
  const uint8_t *in = bytes;
  cc_module *module = NULL;
  cc_module_result result = CC_MODULE_INVALID_BINARY;
  if (check_header(in, size, &text)) {
    size_t options_length = (size_t)get(in + 20, 4);
    char *options = malloc(options_length + 1);
    if (options) {
      memcpy(options, in + HEADER_SIZE, options_length);
      options[options_length] = '\0';
      module = cc_module_new((cc_module_kind)get(in + 12, 4), options,
                             (unsigned)get(in + 16, 4));
      free(options);
    }
    result = module ? read_module(module, in + HEADER_SIZE + options_length,
                                  size - HEADER_SIZE - options_length, &text)
                    : CC_MODULE_OUT_OF_MEMORY;
  }
  if (text.failed) result = CC_MODULE_OUT_OF_MEMORY;
  cc_text_give(&text, log);
  if (out) *out = result;
  if (result != CC_MODULE_SUCCESS) {
    cc_module_destroy(module);
    return NULL;
  }
  return module;
}

cc_module *cc_module_deserialize(const void *bytes, size_t size, char **log,
                                 cc_module_result *out) {
  cc_module *module = cc_module_read_serialized(bytes, size, log, out);
  if (module) cc_disk_cache_name_binary(module, bytes, size);
  return module;
}

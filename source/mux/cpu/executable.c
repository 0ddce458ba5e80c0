/* clmux CPU target: executables. A binary (binary_format.h) is checked
 * field by field, its object is linked in-process by an ORC LLJIT that the
 * executable owns, and every kernel's work-group function is looked up at
 * once so that a binary naming a missing symbol fails here, not at launch. */
#include <clmux/cpu_abi/binary_format.h>
#include <dlfcn.h>
#include <elf.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <pthread.h>
#include <string.h>

#include "../target.h"
#include "cpu.h"

struct cpu_executable {
  struct mux_executable_s base;
  LLVMOrcLLJITRef jit;
  uint32_t kernel_count;
  /* In the same allocation as the executable: */
  cpu_executable_kernel *kernels;
  const char **symbols; /* kernels[i]'s work-group function's symbol */
  char *strings;        /* copy of the strings region */
};

static uint32_t read_u32(const uint8_t *bytes, uint64_t offset) {
  uint32_t value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

static uint64_t read_u64(const uint8_t *bytes, uint64_t offset) {
  uint64_t value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

/* ---- Container checks ---------------------------------------------------- */

typedef struct cpu_binary_region {
  uint64_t offset;
  uint64_t size;
} cpu_binary_region;

static bool region_inside(cpu_binary_region region, uint64_t length) {
  return region.offset >= CPU_BINARY_HEADER_SIZE && region.offset <= length &&
         region.size <= length - region.offset;
}

static bool regions_disjoint(cpu_binary_region a, cpu_binary_region b) {
  return a.offset + a.size <= b.offset || b.offset + b.size <= a.offset;
}

/* A name is `length` non-NUL bytes then a NUL, inside the strings region. */
static bool name_valid(const char *strings, uint64_t strings_size,
                       uint64_t offset, uint64_t length) {
  if (length == 0 || length > CPU_BINARY_MAX_NAME) return false;
  if (offset >= strings_size || length >= strings_size - offset) return false;
  return strings[offset + length] == '\0' &&
         memchr(strings + offset, '\0', length) == NULL;
}

/* The identity of an x86-64 ELF relocatable object and the bounds of its
 * section table, so that the JIT is only ever handed the right kind of
 * file; LLVM's own parser checks the contents of the sections. */
static bool elf_object_valid(const uint8_t *object, uint64_t size) {
  Elf64_Ehdr header;
  if (size < sizeof header) return false;
  memcpy(&header, object, sizeof header);
  if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_ident[EI_VERSION] != EV_CURRENT || header.e_type != ET_REL ||
      header.e_machine != EM_X86_64 ||
      header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
      header.e_shstrndx >= header.e_shnum) {
    return false;
  }
  uint64_t table_size = (uint64_t)header.e_shnum * sizeof(Elf64_Shdr);
  if (header.e_shoff > size || table_size > size - header.e_shoff) {
    return false;
  }
  for (uint64_t i = 0; i < header.e_shnum; i++) {
    Elf64_Shdr section;
    memcpy(&section, object + header.e_shoff + i * sizeof section,
           sizeof section);
    if (section.sh_type == SHT_NOBITS || section.sh_type == SHT_NULL) continue;
    if (section.sh_offset > size ||
        section.sh_size > size - section.sh_offset) {
      return false;
    }
  }
  return true;
}

typedef struct cpu_binary_layout {
  uint32_t kernel_count;
  cpu_binary_region table;
  cpu_binary_region strings;
  cpu_binary_region object;
} cpu_binary_layout;

static bool header_valid(const uint8_t *bytes, uint64_t length,
                         cpu_binary_layout *layout) {
  if (length < CPU_BINARY_HEADER_SIZE) return false;
  if (memcmp(bytes, CPU_BINARY_MAGIC, CPU_BINARY_MAGIC_SIZE) != 0 ||
      read_u32(bytes, cpu_binary_header_version) != CPU_BINARY_VERSION ||
      read_u32(bytes, cpu_binary_header_header_size) !=
          CPU_BINARY_HEADER_SIZE ||
      read_u32(bytes, cpu_binary_header_kernel_size) !=
          CPU_BINARY_KERNEL_SIZE) {
    return false;
  }
  layout->kernel_count = read_u32(bytes, cpu_binary_header_kernel_count);
  if (layout->kernel_count == 0 ||
      layout->kernel_count > CPU_BINARY_MAX_KERNELS) {
    return false;
  }
  layout->table.offset = read_u64(bytes, cpu_binary_header_table_offset);
  layout->table.size = (uint64_t)layout->kernel_count * CPU_BINARY_KERNEL_SIZE;
  layout->strings.offset = read_u64(bytes, cpu_binary_header_strings_offset);
  layout->strings.size = read_u64(bytes, cpu_binary_header_strings_size);
  layout->object.offset = read_u64(bytes, cpu_binary_header_object_offset);
  layout->object.size = read_u64(bytes, cpu_binary_header_object_size);
  return region_inside(layout->table, length) &&
         region_inside(layout->strings, length) &&
         region_inside(layout->object, length) &&
         regions_disjoint(layout->table, layout->strings) &&
         regions_disjoint(layout->table, layout->object) &&
         regions_disjoint(layout->strings, layout->object) &&
         layout->strings.size > 0 &&
         elf_object_valid(bytes + layout->object.offset, layout->object.size);
}

/* Reads one kernel table entry into `kernel` and `symbol` (pointing into the
 * executable's copy of the strings); false if any field is out of range. */
static bool kernel_entry_read(const uint8_t *entry, const char *strings,
                              uint64_t strings_size,
                              cpu_executable_kernel *kernel,
                              const char **symbol) {
  uint64_t name_offset = read_u32(entry, cpu_binary_kernel_name_offset);
  uint64_t name_length = read_u32(entry, cpu_binary_kernel_name_length);
  uint64_t symbol_offset = read_u32(entry, cpu_binary_kernel_symbol_offset);
  uint64_t symbol_length = read_u32(entry, cpu_binary_kernel_symbol_length);
  if (!name_valid(strings, strings_size, name_offset, name_length) ||
      !name_valid(strings, strings_size, symbol_offset, symbol_length)) {
    return false;
  }
  kernel->name = strings + name_offset;
  kernel->name_length = name_length;
  *symbol = strings + symbol_offset;
  kernel->local_memory_size = read_u64(entry, cpu_binary_kernel_local_memory);
  kernel->scratch_per_work_item = read_u64(entry, cpu_binary_kernel_scratch);
  kernel->flags = read_u32(entry, cpu_binary_kernel_flags);
  if (kernel->local_memory_size > CPU_BINARY_MAX_LOCAL_MEMORY ||
      kernel->scratch_per_work_item > CPU_BINARY_MAX_SCRATCH) {
    return false;
  }
  unsigned required_zeros = 0;
  for (unsigned d = 0; d < 3; d++) {
    kernel->preferred_local_size[d] =
        read_u32(entry, cpu_binary_kernel_preferred_local_size + 4 * d);
    kernel->required_local_size[d] =
        read_u32(entry, cpu_binary_kernel_required_local_size + 4 * d);
    if (kernel->preferred_local_size[d] == 0) return false;
    if (kernel->required_local_size[d] == 0) required_zeros++;
  }
  uint32_t sub_group = read_u32(entry, cpu_binary_kernel_sub_group_size);
  kernel->sub_group_size = sub_group ? sub_group : 1;
  return (required_zeros == 0 || required_zeros == 3) &&
         (kernel->flags & ~CPU_BINARY_KERNEL_FLAGS_KNOWN) == 0 &&
         sub_group <= CPU_BINARY_MAX_SUB_GROUP_SIZE &&
         (sub_group & (sub_group - 1)) == 0;
}

static bool names_unique(const cpu_executable_kernel *kernels, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    for (uint32_t j = 0; j < i; j++) {
      if (kernels[i].name_length == kernels[j].name_length &&
          memcmp(kernels[i].name, kernels[j].name, kernels[i].name_length) ==
              0) {
        return false;
      }
    }
  }
  return true;
}

/* ---- Loading --------------------------------------------------------------*/

static pthread_once_t native_target_once = PTHREAD_ONCE_INIT;
static bool native_target_ready;

/* Math libraries compiled kernels may call (the builtin library maps math
 * to SLEEF and libm, with their vector variants). The ICD loader opens us
 * RTLD_LOCAL, so our own dependencies are not in the global scope the JIT
 * searches: open them globally here. A missing one only fails the kernels
 * that reference it, at load time. */
static const char *const kernel_libraries[] = {
    "libm.so.6", "libmvec.so.1", "libsleef.so.3", "libsleefgnuabi.so.3"};

static void native_target_initialize(void) {
  native_target_ready =
      !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
  for (size_t i = 0; i < sizeof kernel_libraries / sizeof *kernel_libraries;
       i++) {
    /* Kept open for the process's life, like the JIT's own libraries. */
    (void)dlopen(kernel_libraries[i], RTLD_NOW | RTLD_GLOBAL);
  }
}

/* Materialization errors go to the session's reporter, which prints them by
 * default; a bad binary is reported through the result code instead. */
static void jit_error_discard(void *context, LLVMErrorRef error) {
  (void)context;
  LLVMConsumeError(error);
}

/* Process symbols may satisfy the object's references (libm, libc), but
 * never stand in for a kernel's own function: that must come from the
 * object, or a binary could point a kernel at, say, memcpy. */
static int process_symbol_allowed(void *context,
                                  LLVMOrcSymbolStringPoolEntryRef symbol) {
  const cpu_executable *executable = context;
  const char *name = LLVMOrcSymbolStringPoolEntryStr(symbol);
  for (uint32_t i = 0; i < executable->kernel_count; i++) {
    if (strcmp(executable->symbols[i], name) == 0) return 0;
  }
  return 1;
}

static mux_result_t consume(LLVMErrorRef error, mux_result_t result) {
  LLVMConsumeError(error);
  return result;
}

/* Binds the runtime entry points compiled kernels call (printf's, the
 * sub-groups' turns, the address spaces' queries) to the target's functions,
 * which the process-symbol search cannot see: they are hidden in this library.
 */
static const struct runtime_symbol {
  const char *name;
  void (*address)(void);
} runtime_symbols[] = {
    {CPU_PRINTF_SYMBOL, (void (*)(void))cpu_printf_record},
    {CPU_SUB_GROUPS_SYMBOL, (void (*)(void))cpu_sub_groups},
    {CPU_PAUSE_SYMBOL, cpu_sub_group_pause},
    {CPU_ADDRESS_SPACE_SYMBOL, (void (*)(void))cpu_address_space},
};
#define RUNTIME_SYMBOLS (sizeof runtime_symbols / sizeof *runtime_symbols)

static LLVMErrorRef define_runtime_symbols(LLVMOrcLLJITRef jit,
                                           LLVMOrcJITDylibRef dylib) {
  LLVMOrcCSymbolMapPair pairs[RUNTIME_SYMBOLS];
  for (size_t i = 0; i < RUNTIME_SYMBOLS; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, runtime_symbols[i].name);
    pairs[i].Sym.Address =
        (LLVMOrcExecutorAddress)(uintptr_t)runtime_symbols[i].address;
    pairs[i].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef unit =
      LLVMOrcAbsoluteSymbols(pairs, RUNTIME_SYMBOLS);
  LLVMErrorRef error = LLVMOrcJITDylibDefine(dylib, unit);
  if (error) LLVMOrcDisposeMaterializationUnit(unit);
  return error;
}

/* A kernel's symbol must name code of the object, never a runtime entry. */
static bool kernel_symbols_allowed(const cpu_executable *executable) {
  for (uint32_t i = 0; i < executable->kernel_count; i++) {
    for (size_t s = 0; s < RUNTIME_SYMBOLS; s++) {
      if (strcmp(executable->symbols[i], runtime_symbols[s].name) == 0) {
        return false;
      }
    }
  }
  return true;
}

/* Creates the JIT, adds the object and resolves every kernel's symbol. */
static mux_result_t executable_link(cpu_executable *executable,
                                    const uint8_t *object,
                                    uint64_t object_size) {
  pthread_once(&native_target_once, native_target_initialize);
  if (!native_target_ready) return mux_error_failure;

  LLVMErrorRef error = LLVMOrcCreateLLJIT(&executable->jit, NULL);
  if (error) {
    executable->jit = NULL;
    return consume(error, mux_error_failure);
  }
  LLVMOrcExecutionSessionSetErrorReporter(
      LLVMOrcLLJITGetExecutionSession(executable->jit), jit_error_discard,
      NULL);
  LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(executable->jit);
  LLVMOrcDefinitionGeneratorRef generator = NULL;
  error = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &generator, LLVMOrcLLJITGetGlobalPrefix(executable->jit),
      process_symbol_allowed, executable);
  if (error) return consume(error, mux_error_failure);
  LLVMOrcJITDylibAddGenerator(dylib, generator);
  if (!kernel_symbols_allowed(executable)) return mux_error_invalid_binary;
  error = define_runtime_symbols(executable->jit, dylib);
  if (error) return consume(error, mux_error_failure);

  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      (const char *)object, object_size, "clmux-kernels.o");
  if (!buffer) return mux_error_out_of_memory;
  error = LLVMOrcLLJITAddObjectFile(executable->jit, dylib, buffer);
  if (error) return consume(error, mux_error_invalid_binary);

  for (uint32_t i = 0; i < executable->kernel_count; i++) {
    LLVMOrcExecutorAddress address = 0;
    error =
        LLVMOrcLLJITLookup(executable->jit, &address, executable->symbols[i]);
    if (error) return consume(error, mux_error_invalid_binary);
    if (address == 0) return mux_error_invalid_binary;
    executable->kernels[i].function = (cpu_work_group_fn)(uintptr_t)address;
  }
  return mux_success;
}

static void executable_free(cpu_executable *executable,
                            mux_allocator_info_t allocator) {
  if (executable->jit) LLVMConsumeError(LLVMOrcDisposeLLJIT(executable->jit));
  executable->base.id = 0;
  cpu_free(allocator, executable);
}

mux_result_t cpuCreateExecutable(mux_device_t device, const void *binary,
                                 uint64_t binary_length,
                                 mux_allocator_info_t allocator_info,
                                 mux_executable_t *out_executable) {
  const uint8_t *bytes = binary;
  cpu_binary_layout layout;
  if (!header_valid(bytes, binary_length, &layout)) {
    return mux_error_invalid_binary;
  }

  /* One allocation: the executable, its kernel table, its strings. */
  size_t kernels_offset = (sizeof(cpu_executable) + 15) & ~(size_t)15;
  size_t symbols_offset =
      kernels_offset + layout.kernel_count * sizeof(cpu_executable_kernel);
  size_t strings_offset =
      symbols_offset + layout.kernel_count * sizeof(const char *);
  if (layout.strings.size > SIZE_MAX - strings_offset) {
    return mux_error_out_of_memory;
  }
  uint8_t *memory =
      cpu_calloc(allocator_info, strings_offset + (size_t)layout.strings.size,
                 _Alignof(max_align_t));
  if (!memory) return mux_error_out_of_memory;
  cpu_executable *executable = (cpu_executable *)memory;
  executable->base.id = CPU_ID(mux_object_id_executable);
  executable->base.device = device;
  executable->kernel_count = layout.kernel_count;
  executable->kernels = (cpu_executable_kernel *)(memory + kernels_offset);
  executable->symbols = (const char **)(memory + symbols_offset);
  executable->strings = (char *)(memory + strings_offset);
  memcpy(executable->strings, bytes + layout.strings.offset,
         layout.strings.size);

  mux_result_t result = mux_success;
  for (uint32_t i = 0; i < layout.kernel_count && result == mux_success; i++) {
    if (!kernel_entry_read(
            bytes + layout.table.offset + (uint64_t)i * CPU_BINARY_KERNEL_SIZE,
            executable->strings, layout.strings.size, &executable->kernels[i],
            &executable->symbols[i])) {
      result = mux_error_invalid_binary;
    }
  }
  if (result == mux_success &&
      !names_unique(executable->kernels, executable->kernel_count)) {
    result = mux_error_invalid_binary;
  }
  if (result == mux_success) {
    result = executable_link(executable, bytes + layout.object.offset,
                             layout.object.size);
  }
  if (result != mux_success) {
    executable_free(executable, allocator_info);
    return result;
  }
  *out_executable = &executable->base;
  return mux_success;
}

void cpuDestroyExecutable(mux_device_t device, mux_executable_t executable,
                          mux_allocator_info_t allocator_info) {
  (void)device;
  executable_free((cpu_executable *)executable, allocator_info);
}

const cpu_executable_kernel *cpu_executable_find_kernel(
    const cpu_executable *executable, const char *name, uint64_t name_length) {
  for (uint32_t i = 0; i < executable->kernel_count; i++) {
    const cpu_executable_kernel *kernel = &executable->kernels[i];
    if (kernel->name_length == name_length &&
        memcmp(kernel->name, name, name_length) == 0) {
      return kernel;
    }
  }
  return NULL;
}

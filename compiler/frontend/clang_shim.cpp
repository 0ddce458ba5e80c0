// clmux compiler: the only C++ in clmux. Clang has no C API for code
// generation, so this file runs one Clang compile in-process and hands the
// module back through the LLVM C API types. Keep it small: argument lists,
// options and logs are built in C (frontend.c, build_options.c).
#include "clang_shim.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

char *cc_copy_log(const std::string &log) {
  char *copy = static_cast<char *>(std::malloc(log.size() + 1));
  if (copy) std::memcpy(copy, log.c_str(), log.size() + 1);
  return copy;
}

// The real file system (for -I directories) under an in-memory one that
// holds the source and the headers given as strings.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
cc_make_file_system(const cc_shim_file *files, size_t num_files) {
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (size_t i = 0; i < num_files; i++) {
    llvm::StringRef text(files[i].text, files[i].length);
    memory->addFile(files[i].path, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(text, files[i].path));
  }
  overlay->pushOverlay(memory);
  return overlay;
}

}  // namespace

extern "C" cc_shim_result cc_shim_compile(LLVMContextRef context,
                                          const char *const *args,
                                          size_t num_args,
                                          const cc_shim_file *files,
                                          size_t num_files,
                                          LLVMModuleRef *out_module,
                                          char **out_log) {
  *out_module = nullptr;
  std::string log;
  llvm::raw_string_ostream log_stream(log);
  auto instance = std::make_unique<clang::CompilerInstance>();

  // Argument errors go through a first diagnostics engine: the real one
  // needs the parsed DiagnosticOptions (-w, -Werror) to exist first.
  {
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options =
        new clang::DiagnosticOptions();
    clang::TextDiagnosticPrinter printer(log_stream, options.get());
    clang::DiagnosticsEngine diagnostics(
        llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), options, &printer,
        /*ShouldOwnClient=*/false);
    bool parsed = clang::CompilerInvocation::CreateFromArgs(
        instance->getInvocation(), llvm::ArrayRef(args, num_args),
        diagnostics);
    if (!parsed || diagnostics.hasErrorOccurred()) {
      log_stream.flush();
      *out_log = cc_copy_log(log);
      return CC_SHIM_INVALID_ARGS;
    }
  }

  instance->createDiagnostics(
      new clang::TextDiagnosticPrinter(log_stream,
                                       &instance->getDiagnosticOpts()),
      /*ShouldOwnClient=*/true);
  // "N errors generated." goes here instead of stderr.
  instance->setVerboseOutputStream(log_stream);
  instance->createFileManager(cc_make_file_system(files, num_files));

  clang::EmitLLVMOnlyAction action(llvm::unwrap(context));
  bool compiled = instance->ExecuteAction(action);
  std::unique_ptr<llvm::Module> module;
  if (compiled) module = action.takeModule();
  log_stream.flush();
  *out_log = cc_copy_log(log);
  if (!module) return CC_SHIM_FAILED;
  *out_module = llvm::wrap(module.release());
  return CC_SHIM_SUCCESS;
}

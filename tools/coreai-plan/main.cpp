//===- main.cpp - The coreai-plan command-line tool -----------------------===//
#include "Commands.h"

#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Version.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

static std::vector<const Command *> &registeredCommands() {
  static std::vector<const Command *> commands;
  return commands;
}

Command::Command(llvm::StringRef name, llvm::StringRef description,
                 int (*run)())
    : llvm::cl::SubCommand(name, description), run(run) {
  registeredCommands().push_back(this);
}

llvm::ArrayRef<const Command *> Command::all() { return registeredCommands(); }

InputArgument::InputArgument(llvm::cl::SubCommand &command,
                             llvm::StringRef what)
    : llvm::cl::opt<std::string>(llvm::cl::Positional, llvm::cl::Required,
                                 llvm::cl::desc(what), llvm::cl::sub(command)) {
}

int fail(ExitCode code, const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "coreai-plan") << message << "\n";
  return code;
}

int fail(ExitCode code, llvm::Error error) {
  return fail(code, llvm::toString(std::move(error)));
}

static ExitCode exitCodeOf(PlanFailure kind) {
  switch (kind) {
  case PlanFailure::BadInput:
    return InputError;
  case PlanFailure::OverLimit:
    return AnswerNo;
  case PlanFailure::Internal:
    return InternalError;
  }
  return InternalError;
}

int reportError(llvm::Error error) {
  int code = InputError;
  llvm::handleAllErrors(
      std::move(error),
      [&](const BundleError &e) {
        ExitCode kindCode = exitCodeOf(e.kind);
        code = kindCode;
        if (!e.message.empty())
          fail(kindCode, e.message);
      },
      [&](const llvm::ErrorInfoBase &e) {
        code = InputError;
        fail(InputError, e.message());
      });
  return code;
}

} // namespace coreai::cli

int main(int argc, char **argv) {
  using namespace coreai::cli;
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "coreai-plan " << coreai::versionDescription() << ", MLIR/LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
  // libLLVM registers hundreds of codegen options; users only need ours.
  for (auto &[name, option] :
       llvm::cl::getRegisteredOptions(llvm::cl::SubCommand::getTopLevel()))
    if (name != "help" && name != "version")
      option->setHiddenFlag(llvm::cl::ReallyHidden);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "coreai-plan: ahead-of-time memory planner for on-device ML "
          "bundles\n\n  Run `coreai-plan <subcommand> --help` for details.\n",
          &llvm::errs()))
    return InputError;
  for (const Command *command : Command::all())
    if (*command)
      return command->run();
  llvm::errs() << "coreai-plan: no subcommand given; see --help\n";
  return InputError;
}

//===- PlanningOptions.h - Options of the planning subcommands --*- C++ -*-===//
//
// The planning options (PlanningOptions.td) as flags: `buffers` takes each
// under its pass name; `plan` and `fit` take those no target decides and
// the switches that turn the target's reuse off, and the same graphs,
// target, entry points, bindings and output habits (--quiet, --json,
// progress). Each subcommand instantiates these structs after its
// llvm::cl::SubCommand in its own file, which registers the options there
// (options must not be registered before their subcommand is constructed,
// and static initialisation order across files is unspecified).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_PLANNINGOPTIONS_H
#define COREAI_PLAN_TOOLS_PLANNINGOPTIONS_H


#include "Commands.h"

#include "coreai-plan/Bundle/Planner.h"

#include "llvm/Support/CommandLine.h"

#include <memory>
#include <vector>

namespace coreai::cli {

/// Whether a subcommand plans for a target, which then decides some of the
/// options (PlanningOptions.td).
enum class OptionDefaults { Own, Target };

/// The planning options as flags of one subcommand, stored into `chosen`
/// and `reuse` (not copyable: the flags point into them).
class PlanningFlags {
public:
  /// `Own`: every option is a flag (`buffers`). `Target`: the options no
  /// target decides are flags, and the switches of `reuse`.
  PlanningFlags(llvm::cl::SubCommand &command, OptionDefaults defaults);
  PlanningFlags(const PlanningFlags &) = delete;
  PlanningFlags &operator=(const PlanningFlags &) = delete;

  FunctionPlanOptions chosen;
  ReuseSwitches reuse;

private:
  std::vector<std::unique_ptr<llvm::cl::Option>> flags;
};

/// The target `plan` and `fit` use without --target: it fuses nothing,
/// runs nothing in place and lends no output's storage, so a plan for it
/// is sound on any runtime that binds outputs and state before the call.
constexpr const char *kDefaultTarget = "generic";

struct PlanningOptions {
  /// `chunksHelp`: what --chunks means to the subcommand.
  PlanningOptions(llvm::cl::SubCommand &command, llvm::StringRef chunksHelp);

  /// The subcommand's name, for messages.
  std::string command;
  llvm::cl::list<std::string> inputs;
  llvm::cl::opt<std::string> targetName;
  llvm::cl::opt<std::string> targetsDir;
  llvm::cl::list<std::string> entryNames;
  llvm::cl::list<std::string> bindOptions;
  llvm::cl::opt<std::string> chunksOption;
  PlanningFlags planning;

  /// Builds the request and checks it (--chunks, bindings, target, then
  /// the values checkPlanOptions checks for every front end); `chunksRange`
  /// says whether --chunks was a range A..B.
  llvm::Expected<PlanRequest> request(bool &chunksRange) const;
};

enum class ProgressMode { Auto, Always, Never };

struct ReportingOptions {
  explicit ReportingOptions(llvm::cl::SubCommand &command);

  llvm::cl::opt<bool> quiet;
  llvm::cl::opt<bool> json;
  llvm::cl::opt<ProgressMode> progress;

  /// Progress lines on stderr per --progress (auto: when stderr is a
  /// terminal); null when silent.
  std::unique_ptr<PlanObserver> makeProgress() const;
};

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_PLANNINGOPTIONS_H

//===- PlanningOptions.h - Options of the planning subcommands --*- C++ -*-===//
//
// `plan` and `fit` take the same graphs, target, entry points, bindings,
// solver and reuse switches, and the same output habits (--quiet, --json,
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

namespace coreai::cli {

struct PlanningOptions {
  explicit PlanningOptions(llvm::cl::SubCommand &command);

  llvm::cl::list<std::string> inputs;
  llvm::cl::opt<std::string> targetName;
  llvm::cl::opt<std::string> targetsDir;
  llvm::cl::list<std::string> entryNames;
  llvm::cl::list<std::string> bindOptions;
  llvm::cl::opt<Algorithm> algorithm;
  llvm::cl::opt<int64_t> timeLimitMs;
  llvm::cl::opt<bool> noInPlace;
  llvm::cl::opt<bool> noOutputPlacement;
  llvm::cl::opt<bool> noStatePlacement;
  llvm::cl::opt<bool> noReorder;
  llvm::cl::opt<bool> noBorrowOutputs;

  /// Builds the request and checks it (bindings, target, then the values
  /// checkPlanOptions checks for every front end).
  llvm::Expected<PlanRequest> request(std::vector<int64_t> chunks,
                                      bool chunksGiven) const;
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

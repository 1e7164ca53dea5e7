//===- Planner.h - Planning a bundle: entries x S -> manifest ---*- C++ -*-===//
//
// The bundle planner the CLI (`plan`, `fit`) stands on. The graphs of a
// bundle are read one at a time; each entry point is cloned per chunk size
// S into a planned module, specialised, planned with planFunction and
// verified before its plan leaves. planBundle() plans every (entry point,
// S); fitBundle() (Fit.h) plans only the ones its question needs.
//
// Errors are llvm::Errors; a BundleError says which kind of failure it was
// (bad input, over a limit, internal). MLIR diagnostics are printed as they
// are emitted, pointing into the file, and leave the BundleError's message
// empty.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_BUNDLE_PLANNER_H
#define COREAI_PLAN_BUNDLE_PLANNER_H

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Passes/SpecializeShapes.h"
#include "coreai-plan/Target/Target.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace coreai {

/// A failure of the bundle planner and its kind. An empty message means
/// the diagnostic was already printed (at the op, by MLIR). Errors of other
/// classes from the planner are bad input.
class BundleError : public llvm::ErrorInfo<BundleError> {
public:
  static char ID;
  BundleError(PlanFailure kind, std::string message)
      : kind(kind), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  PlanFailure kind;
  std::string message;
};

llvm::Error bundleError(PlanFailure kind, const llvm::Twine &message);

/// --bind: which symbol is S, and the fixed values of the others.
struct Bindings {
  std::string chunkSymbol;
  SymbolBindings fixed;
};

/// The most pieces a parametric range is cut into unless asked otherwise:
/// each piece has its own expressions and op order in the manifest.
constexpr size_t kDefaultMaxPieces = 8;

/// Everything the planner needs, checked before any graph is read.
struct PlanRequest {
  std::vector<std::string> inputs;
  Target target;
  /// The S of dynamic functions. A static function is planned at its own
  /// S, which must be one of these when `chunksGiven`.
  std::vector<int64_t> chunks;
  bool chunksGiven = false;
  Bindings bindings;
  /// --entry names ('@' optional); empty: every public function.
  std::vector<std::string> entries;
  FunctionPlanOptions options;
  /// One plan for every S in [chunks.front(), chunks.back()] per dynamic
  /// function (coreai-plan/Parametric.h) instead of one plan per S; static
  /// functions are planned at their own S, which must be in the range.
  bool parametric = false;
  /// With `parametric`: the S at which the plan is also written out as a
  /// planned function and a manifest entry (empty: the range's top).
  std::vector<int64_t> instances;
  /// With `parametric`: the most pieces one range is cut into.
  size_t maxPieces = kDefaultMaxPieces;
};

/// One function to plan at one S, with the bindings that make it static.
struct PlanJob {
  mlir::func::FuncOp source;
  int64_t chunk = 0;
  bool dynamic = false;
  SymbolBindings bindings;
  std::string plannedName;
  /// One plan for every S in [lo, hi] of `chunkSymbol` (then `chunk` is hi
  /// and `bindings` holds only the other symbols), instantiated at
  /// `instances`.
  bool parametric = false;
  int64_t lo = 0, hi = 0;
  std::string chunkSymbol;
  std::vector<int64_t> instances;
  size_t maxPieces = kDefaultMaxPieces;
};

/// Told what the planner does, e.g. to show progress on a terminal.
class PlanObserver {
public:
  virtual ~PlanObserver();
  virtual void reading(llvm::StringRef path) {}
  /// `stage` is "specialising", "planning", "verifying".
  virtual void stage(const PlanJob &job, llvm::StringRef stage) {}
  /// The search found a smaller heap for `job` (lower bound `bound`).
  virtual void improved(const PlanJob &job, int64_t heap, int64_t bound) {}
  virtual void planned(const ManifestEntry &entry, double seconds) {}
  /// A diagnostic is about to be printed: make room for it.
  virtual void interrupt() {}
};

/// Plans the jobs of a bundle into a Manifest. Inputs are read one after
/// the other (`read`); any subset of an input's jobs may be planned, in
/// any order, before the next input is read.
class Planner {
public:
  explicit Planner(const PlanRequest &request,
                   PlanObserver *observer = nullptr);
  ~Planner();

  /// Parses input `index` and lists its jobs; the earlier input's module
  /// is released.
  llvm::Expected<std::vector<PlanJob>> read(size_t index);
  /// Plans one job of the current input and adds it to the manifest; the
  /// pointer is valid until the next call.
  llvm::Expected<const ManifestEntry *> plan(const PlanJob &job);
  /// The planned module of the current input as text (null when none of
  /// its jobs was planned).
  llvm::Expected<std::string> plannedModuleText();
  /// After the last input: every --entry was found, each (entry point, S)
  /// is planned once, and the bundle heap.
  llvm::Error finish();

  const Manifest &manifest() const { return result; }
  Manifest takeManifest() { return std::move(result); }

private:
  llvm::Expected<const ManifestEntry *> planParametric(const PlanJob &job);
  /// Adds a verified entry planned into the current input's module.
  void record(PlannedEntry entry, std::string plannedFunction);
  /// Tells the observer the last entry is done; returns it.
  const ManifestEntry *
  finished(std::chrono::steady_clock::time_point started) const;
  struct Current;
  const PlanRequest &request;
  PlanObserver *observer;
  // Declared before `current`: the modules must die before their context.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Current> current;
  std::set<std::string> foundEntries;
  Manifest result;
};

/// A planned bundle: the manifest and, per input with planned entries, the
/// file name and text of its planned module (MODEL.planned.mlir).
struct PlannedBundle {
  Manifest manifest;
  std::vector<std::pair<std::string, std::string>> plannedFiles;
};

/// Plans every job of every input, as `coreai-plan plan` does.
llvm::Expected<PlannedBundle> planBundle(const PlanRequest &request,
                                         PlanObserver *observer = nullptr);

/// Sorted, unique, positive chunk sizes from `1,16,32`.
llvm::Expected<std::vector<int64_t>> parseChunkList(llvm::StringRef text);
/// SYMBOL=S and SYMBOL=INTEGER items of --bind.
llvm::Expected<Bindings> parseBindings(llvm::ArrayRef<std::string> items);

/// The reuse a target would have that `plan` and `fit` can switch off
/// (`--no-in-place`, ...; declared in PlanningOptions.td).
struct ReuseSwitches {
#define COREAI_REUSE_OFF_SWITCH(NAME, FLAG, HELP) bool NAME = false;
#include "coreai-plan/Passes/PlanningOptions.inc"
};
/// What the target decides (PlanningOptions.td): its alignment and heap
/// limit, and reuse where it allows it unless switched off; the options no
/// target decides are the solver's (the generator checks it), as `solve`
/// says.
FunctionPlanOptions planOptionsFor(const Target &target,
                                   const ReuseSwitches &reuse,
                                   const SolveOptions &solve);

/// `MODEL.planned.mlir` for `dir/MODEL.mlir`.
std::string plannedModelName(llvm::StringRef input);

} // namespace coreai

#endif // COREAI_PLAN_BUNDLE_PLANNER_H

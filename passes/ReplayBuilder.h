//===- ReplayBuilder.h - The state of a replay program being built -*- C++ -*-===//
//
// Private to ReplayProgram.cpp (the steps: what each op reads, writes and
// may overwrite) and ReplayPlaces.cpp (where each value lives: storages,
// placements, and what the runtime reads back from outputs and states).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_REPLAYBUILDER_H
#define COREAI_PLAN_PASSES_REPLAYBUILDER_H

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Passes/VerifyReplay.h"

#include "Printing.h"

#include "mlir/IR/AsmState.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace coreai::replaybuild {

using namespace mlir;

/// The function's return op: its last op when that is a terminator (an
/// unregistered op may end a block too; it returns nothing).
Operation *returnOf(func::FuncOp func);

/// What the replay knows of a value beyond replay::Value.
struct ValueFacts {
  unsigned root;    ///< the value whose bytes these are (through views)
  bool keepsLayout; ///< element i is element i of the root's bytes
};

class ProgramBuilder {
public:
  /// Without `named`, values and steps have no names (their messages name
  /// none): naming them walks and verifies the whole function, which was
  /// most of a replay that passes (a parametric plan replays every S).
  ProgramBuilder(func::FuncOp func, const ReplayOptions &options,
                 bool named = true)
      : func(func), options(options), named(named) {}

  /// The program, or a violation found without running it (in
  /// `violation`), or failure when the annotations do not fit the IR.
  FailureOr<replay::Program> build(std::optional<std::string> &violation);

private:
  LogicalResult addArguments();
  LogicalResult addStep(llvm::ArrayRef<Operation *> ops);
  LogicalResult define(Operation *op, unsigned index, replay::Step &step);
  std::optional<replay::Location> locate(Operation *op, Value value,
                                         int64_t bytes,
                                         const Placement &placement,
                                         Type written);
  Type writtenType(Operation *op, unsigned index);
  void addOverwritable(Operation *op, replay::Step &step);
  void addWorkspace(Operation *op, const Placement &workspace,
                    replay::Step &step);
  Placement placementOfResult(Operation *op, unsigned index) const;
  std::optional<Placement> workspaceOf(Operation *op) const;
  void addFirstWrites(Operation *top, replay::Step &step,
                      llvm::SetVector<unsigned> &reads);
  void checkWorkspace(llvm::ArrayRef<Operation *> ops);
  void checkPlaceless();
  void checkReturned();
  unsigned outputStorage(unsigned position);
  unsigned addStorage(std::string name, int64_t size, bool writable) {
    program.storages.push_back({std::move(name), size, writable});
    return program.storages.size() - 1;
  }
  unsigned addValue(Value value, replay::Location at,
                    std::optional<unsigned> writer = std::nullopt,
                    std::optional<ValueFacts> viewOf = std::nullopt) {
    unsigned id = program.values.size();
    program.values.push_back({nameOf(value), at, writer ? *writer : id});
    facts.push_back(viewOf ? *viewOf : ValueFacts{id, true});
    ids[value] = id;
    return id;
  }
  std::string nameOf(Value value) {
    if (!named)
      return std::string();
    if (!names)
      names.emplace(func);
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, *names);
    return text;
  }
  /// Records the first violation (later ones are consequences or noise).
  void violate(Operation *op, const llvm::Twine &what) {
    if (violation)
      return;
    violation = op ? llvm::formatv("'{0}' at {1}: {2}", op->getName(),
                                   locationString(op->getLoc()), what.str())
                         .str()
                   : what.str();
  }

  func::FuncOp func;
  const ReplayOptions &options;
  bool named;
  std::optional<AsmState> names;
  replay::Program program;
  std::vector<ValueFacts> facts;
  llvm::DenseMap<Value, unsigned> ids;
  /// Storage index of output k, created on first use.
  llvm::DenseMap<unsigned, unsigned> outputs;
  /// Storage index of each sized argument.
  llvm::DenseMap<unsigned, unsigned> argumentStorage;
  /// Argument storages some result is placed into (coreai.state).
  llvm::SetVector<unsigned> statesWritten;
  /// Fresh allocations (memref.alloc) not yet written: their bytes become
  /// theirs at the first op that writes them, not at the allocation.
  llvm::DenseSet<unsigned> unwritten;
  /// Results outside the heap with no place named, with their ops.
  std::vector<std::pair<Operation *, unsigned>> placeless;
  /// Values (roots) that stay inside a kernel (#coreai.fused), by kernel.
  llvm::DenseMap<unsigned, int64_t> fusedIn;
  int64_t alignment = 1;
  bool kernelsInIrOrder = false;
  int64_t workspaceBytes = 0; ///< the workspaces' bytes, summed
  std::optional<std::string> violation;
};

} // namespace coreai::replaybuild

#endif // COREAI_PLAN_PASSES_REPLAYBUILDER_H

//===- ParametricPlanner.h - The state of one parametric planning ---------===//
//
// Private to passes/Bundle: planParametricFunction's state, its methods
// split between ParametricFunction.cpp (parts, expressions, every S
// instantiated) and ParametricPieces.cpp (where to cut, which pieces merge).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_BUNDLE_PARAMETRICPLANNER_H
#define COREAI_PLAN_LIB_BUNDLE_PARAMETRICPLANNER_H

#include "BufferPositions.h"
#include "ParametricFunction.h"
#include "ParametricSpecialiser.h"

#include "coreai-plan/Borrow.h"

#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

SolveOptions quietly(SolveOptions options);

/// A part of the range with one op order: the reference plan at its top
/// with every technique (its op order, and with it every reuse decision,
/// kept for the part), the size expressions of its buffers and of the lent
/// outputs' bytes.
struct Part {
  int64_t top = 0;                 ///< the S its reference was planned at
  std::vector<unsigned> positions; ///< Specialiser's; empty: exported
  std::vector<int64_t> kernels;    ///< Specialiser's; empty: none
  FunctionBuffers referenceBuffers;
  std::vector<ParametricBuffer> buffers;
  std::vector<ParametricBin> bins;
  std::vector<int64_t> offsets; ///< the reference plan's, per region
  BinAssignment regions;        ///< empty without bins
};

/// A piece of the range and the part whose plan covers it.
struct Piece {
  int64_t lo = 0, hi = 0;
  size_t part = 0;
  /// Why the range is cut below lo (empty for the lowest piece).
  std::string cut;
};

/// Where a plan stops being good enough, and why.
struct Cut {
  int64_t at = 0;
  std::string why;
};

class ParametricPlanner {
public:
  ParametricPlanner(const PlanJob &job, const FunctionPlanOptions &options,
                    mlir::ModuleOp planned, PlanObserver *observer);

  llvm::Expected<ParametricFunction> run();
  /// Erases the clones kept for checking (checkedPieces).
  ~ParametricPlanner();

private:
  using CloneAndBuffers = std::pair<mlir::func::FuncOp, FunctionBuffers>;

  void stage(llvm::StringRef what) const {
    if (observer)
      observer->stage(job, what);
  }
  llvm::Error bad(int64_t s, const llvm::Twine &why) const;
  llvm::Error solverFailed(int64_t s, llvm::StringRef why) const;
  llvm::Error failedVerification(llvm::Error violation) const;

  // ParametricFunction.cpp
  llvm::Expected<CloneAndBuffers>
  buffersAt(const FunctionBuffers &reference, int64_t s,
            llvm::StringRef cloneName,
            mlir::OwningOpRef<mlir::func::FuncOp> *original = nullptr);
  llvm::Expected<Part> partFor(int64_t lo, int64_t top);
  llvm::Error fitExpressions(Part &part, int64_t lo, int64_t top);
  llvm::Expected<ParametricPlan> build(const Part &part, int64_t lo,
                                       int64_t hi) const;
  llvm::Error checkSizesAt(const Part &part, const FunctionBuffers &actual,
                           int64_t s) const;
  llvm::Error instantiateAt(int64_t s);
  bool replaysAt(size_t piece, int64_t s);

  // ParametricPieces.cpp
  llvm::Expected<int64_t> solvedHeapAt(size_t part, const ParametricPlan &plan,
                                       int64_t s);
  llvm::Expected<int64_t> ownHeapAt(int64_t s);
  llvm::Expected<std::optional<std::string>>
  farInOrder(size_t part, const ParametricPlan &plan, int64_t s);
  llvm::Expected<std::optional<std::string>>
  farFromOwn(const ParametricPlan &plan, int64_t s);
  llvm::Expected<std::optional<Cut>>
  highestFarFromOwn(const ParametricPlan &plan, int64_t a, int64_t b);
  llvm::Expected<std::optional<Cut>> farBetween(const ParametricPlan &plan,
                                                int64_t a, int64_t b);
  llvm::Expected<std::optional<int64_t>>
  keepBorrowedInBins(Part &part, ParametricPlan &plan, int64_t top,
                     bool lastPiece);
  llvm::Expected<std::optional<Cut>> cutFor(size_t part,
                                            const ParametricPlan &plan,
                                            int64_t top,
                                            std::optional<int64_t> overflow);
  llvm::Expected<std::optional<std::string>>
  whyNotCovered(size_t part, int64_t lo, int64_t hi, int64_t boundary);
  llvm::Error planPieces();
  llvm::Error mergePieces();
  llvm::Error finishPieces();

  const PlanJob &job;
  const FunctionPlanOptions &options;
  PlanObserver *observer;
  Specialiser specialiser;
  std::string name;
  ParametricFunction result;
  /// Every part made; a part's offsets and regions change as borrowed
  /// buffers that outgrow their bins move to the heap.
  std::vector<Part> parts;
  /// The pieces, highest first, until they become result.pieces.
  std::vector<Piece> pieces;
  /// The part of each of result.pieces.
  std::vector<size_t> pieceParts;
  /// Per piece whose dataflow check has run (instantiateAt), its
  /// buffers found there and a clone in its order: every other S of the
  /// piece reuses both (replaysAt).
  struct CheckedPiece {
    BufferPositions buffers;
    Specialiser::Rebindable clone;
  };
  std::map<size_t, CheckedPiece> checkedPieces;
  /// The heap of a plan solved for S alone in a part's op order.
  std::map<std::pair<size_t, int64_t>, int64_t> solvedHeaps;
  /// The heap of the plan `plan --chunks S` makes: S alone, every
  /// technique, in the op order reorder picks at S (and that order, as
  /// positions in the source's). The piece's lower bound holds for the
  /// piece's order only; another order can be far better (the dynamic
  /// Llama: S=64's order costs 85 % at S=1).
  std::map<int64_t, int64_t> ownHeaps;
  std::map<int64_t, std::vector<unsigned>> ownOrders;
};

} // namespace coreai

#endif // COREAI_PLAN_LIB_BUNDLE_PARAMETRICPLANNER_H

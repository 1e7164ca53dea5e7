//===- Parametric.h - One placement for every chunk size in a range -*- C++ -*-===//
//
// A plan valid for every integer S in [lo, hi] at once. Each buffer's size
// is a polynomial in S of degree at most two (affine on the graphs at hand;
// attention over S keys would be quadratic), fitted to the sizes the
// specialised graph has and checked at every S. Each offset is
//
//   offset_i(S) = alignTo(max over j in below_i of offset_j(S) + size_j(S),
//                         alignment_i)          (0 when below_i is empty)
//
// where below_i lists buffers live together with i that sit under it in a
// reference plan. Every pair of buffers live at the same time is ordered
// (one is below the other), so for any S the offsets cannot overlap: the
// upper one starts at or above the end of the lower one. The maximum stays
// in the expression because sizes cross: which buffer under i ends highest
// can change with S. Terms that never win anywhere in the range are pruned.
// The heap is the maximum of offset_i(S) + size_i(S) over the few buffers
// that can be on top.
//
// With borrowing (OutputBins.h), each buffer sits in a region: the heap or an
// output bin whose capacity is an expression of S too and whose time limit
// is the same at every S. Only buffers of the same region are ordered
// against each other; offsets are relative to the region, and the heap
// expression ranges over the heap's buffers alone. A borrowed buffer must
// end within its bin's capacity at every S (`highestOverflow`).
//
// Nothing here knows about MLIR; passes/Bundle/ParametricFunction.cpp builds the
// buffers from the specialised graphs.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PARAMETRIC_H
#define COREAI_PLAN_PARAMETRIC_H

#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Problem.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

/// The most sizes one parametric plan may span: every S is specialised and
/// checked, by the planner and by a manifest reader.
constexpr int64_t kMaxParametricSpan = 4096;

/// coefficients[k] * S^k summed; at most three coefficients, the last one
/// non-zero (an empty list is the constant 0).
struct SizeExpr {
  std::vector<int64_t> coefficients;

  int64_t at(int64_t s) const;
  /// `a + b*S + c*S^2` with the zero terms left out, `0` for none.
  std::string str() const;
  bool operator==(const SizeExpr &other) const {
    return coefficients == other.coefficients;
  }
};

/// The polynomial of degree at most two through `sizes` (the size at
/// S = lo, lo+1, ...), or nullopt when no such polynomial matches every one
/// of them (or a coefficient is not an integer).
std::optional<SizeExpr> fitSizeExpr(int64_t lo, llvm::ArrayRef<int64_t> sizes);

/// A buffer whose live interval is the same at every S and whose size is
/// an expression of S.
struct ParametricBuffer {
  std::string id;
  int64_t start = 0;
  int64_t end = 0;
  int64_t alignment = 1;
  SizeExpr size;
  /// Buffers this one sits on (indices into ParametricPlan::buffers), each
  /// earlier in ParametricPlan::order and in the same region.
  std::vector<uint32_t> below;
  /// The region: -1 the heap, else an index into ParametricPlan::bins.
  int32_t bin = -1;
  /// A kernel's workspace, not a value (docs/WORKSPACE.md).
  bool workspace = false;
};

/// An output's storage lent to a parametric plan: its bytes an expression
/// of S, its time limit (the op position of its first write) the same at
/// every S.
struct ParametricBin {
  int64_t output = 0;
  SizeExpr capacity;
  int64_t availableUntil = 0;

  OutputBin at(int64_t s) const { return {output, capacity.at(s), availableUntil}; }
  bool operator==(const ParametricBin &other) const {
    return output == other.output && capacity == other.capacity &&
           availableUntil == other.availableUntil;
  }
};

struct ParametricPlan {
  int64_t lo = 0;
  int64_t hi = 0;
  /// Parallel to the buffer problem at every S (program order).
  std::vector<ParametricBuffer> buffers;
  /// The order to evaluate offsets in: every buffer after those below it.
  std::vector<uint32_t> order;
  /// Heap buffers that can be on top of the heap somewhere in the range.
  std::vector<uint32_t> heapTerms;
  /// Outputs lent to the plan (empty: every buffer is in the heap).
  std::vector<ParametricBin> bins;

  bool contains(int64_t s) const { return s >= lo && s <= hi; }
  /// Offsets at S (parallel to buffers, each relative to its region); S
  /// must be in the range.
  std::vector<int64_t> offsetsAt(int64_t s) const;
  int64_t heapAt(int64_t s) const;
  /// The buffer problem at S: the buffers with their sizes at S.
  BufferProblem problemAt(int64_t s) const;
  /// The bins with their capacities at S.
  std::vector<OutputBin> binsAt(int64_t s) const;
  /// Each buffer's region (Borrow.h's form); empty when there are no bins.
  BinAssignment binOf() const;
  /// borrowingLowerBound() of the problem and bins at S.
  int64_t lowerBoundAt(int64_t s) const;
  /// The largest S in the range whose heap fits in `budget`, if any.
  std::optional<int64_t> largestFitting(int64_t budget) const;
  /// The heap as a polynomial of degree at most two in S when it is one
  /// over the whole range (alignment rounding can make it otherwise).
  std::optional<SizeExpr> heapPolynomial() const;
  /// Number of max terms over all offsets (the expression's size).
  size_t termCount() const;
};

/// The buffers with their live intervals, alignments, size expressions and
/// regions (parallel to `referenceOffsets`, a verified placement of them at
/// S = `reference`, each offset relative to the buffer's region) turned
/// into one plan for [lo, hi]: each pair of buffers live together in the
/// same region keeps the vertical order it has in the reference placement.
/// At `reference` the heap is at most the reference heap. Fails on sizes or
/// capacities that are negative somewhere in the range or that overflow,
/// and on a region that names no bin. Does not check that borrowed buffers
/// fit their bins (highestOverflow).
llvm::Expected<ParametricPlan>
buildParametricPlan(int64_t lo, int64_t hi, std::vector<ParametricBuffer> buffers,
                    llvm::ArrayRef<int64_t> referenceOffsets,
                    std::vector<ParametricBin> bins = {});

/// The borrowed buffers that end beyond their bin's capacity at `s`.
std::vector<uint32_t> overflowingAt(const ParametricPlan &plan, int64_t s);

/// The highest S of the plan's range where some borrowed buffer ends
/// beyond its bin's capacity, if any (a bin that shrinks with S can hold
/// at the top what it cannot hold lower down).
std::optional<int64_t> highestOverflow(const ParametricPlan &plan);

/// Checks `plan` at one S against the buffer problem the graph has there
/// (same buffers, intervals, alignments, sizes) and, when given, the bins it
/// has there: the instantiated offsets pass verifyPlan (verifyBorrowedPlan
/// with bins: each region against its capacity, borrowed buffers ending in
/// time) and the heap is heapAt(S). Returns the violation, or success.
llvm::Error
verifyParametricAt(const ParametricPlan &plan, int64_t s,
                   const BufferProblem &actual,
                   const std::vector<OutputBin> *actualBins = nullptr);

/// Checks the plan's own invariants at every S of its range: evaluation
/// order, below lists within one region, bins (capacities, distinct
/// outputs), instantiated offsets pass verifyPlan or verifyBorrowedPlan.
/// Returns the violation, or success.
llvm::Error verifyParametricPlan(const ParametricPlan &plan);

} // namespace coreai

#endif // COREAI_PLAN_PARAMETRIC_H

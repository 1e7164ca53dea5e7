//===- Solve.h - Packing buffers into one heap ------------------*- C++ -*-===//
#ifndef COREAI_PLAN_SOLVE_H
#define COREAI_PLAN_SOLVE_H

#include "coreai-plan/Problem.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <chrono>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

enum class Algorithm {
  Naive,           ///< No reuse: buffers laid end to end.
  GreedyBySize,    ///< Largest first, lowest fitting offset (TFLite).
  GreedyByBreadth, ///< Busiest time step first, largest within it.
  BestFit,         ///< Best-fit decreasing, XLA heap-simulator style.
  Best,            ///< Portfolio of the above, then exact anytime search.
};

/// Every algorithm, in the order tools list them.
const std::vector<Algorithm> &allAlgorithms();
llvm::StringRef algorithmName(Algorithm algorithm);
std::optional<Algorithm> parseAlgorithm(llvm::StringRef name);
/// "naive, greedy-by-size, ..., best": for messages about a bad name.
std::string algorithmList();
/// The values of every `--algorithm` flag and `algorithm=` pass option:
/// each algorithm's name and a line of help, written once.
llvm::cl::ValuesClass algorithmValues();

struct SolveOptions {
  Algorithm algorithm = Algorithm::Best;
  /// Budget of `best` (heuristics and exact search); it stops earlier when
  /// it proves the heap optimal. A safety cap: runs that finish within it
  /// are deterministic.
  int64_t timeLimitMs = 1000;
  /// `best` calls it with each smaller heap it finds (after the heuristics,
  /// then during the exact search) and the lower bound, raised as the
  /// minimising search proves capacities infeasible: for progress displays. Called on the solving thread; may be empty.
  std::function<void(int64_t heap, int64_t lowerBound)> onImprovement{};
  /// When `best` minimises: the exact search's nodes, all probes together,
  /// a budget that does not depend on the machine (benchmarks).
  int64_t minimiseNodeLimit = std::numeric_limits<int64_t>::max();
  /// A heap the plan may use, when above the smallest one: the planner
  /// spends it on faster kernel variants (passes/Variants.h); 0: none.
  /// The packing itself still minimises.
  int64_t heapBudget = 0;
  /// A cap several solves share (a function's plan: its op orders, the
  /// heap and the lent outputs): a solve stops at the earlier of this and
  /// timeLimitMs after it starts.
  std::optional<std::chrono::steady_clock::time_point> deadline{};
};

/// `options` for a solve that may take `share` (0 < share <= 1) of the
/// time left before options.deadline (or of timeLimitMs, without one),
/// starting now: the later solves sharing the deadline keep the rest.
SolveOptions withShareOfBudget(SolveOptions options, double share);

/// Packs the problem. Without a capacity the heap is minimised; with one,
/// a packing within it is sought and std::nullopt means none was found
/// (for Best within the time limit: `infeasibleProven` tells whether the
/// search exhausted every packing). The returned plan always verifies.
struct SolveResult {
  std::optional<Plan> plan;
  bool infeasibleProven = false;
  /// No packing with a smaller heap exists: the lower bound of the problem,
  /// or higher where the minimising search proved it (Best only).
  int64_t provenLowerBound = 0;
  /// Set (and `plan` empty) when a solver produced a plan that failed
  /// verifyPlan: a bug, reported as an internal error, never output.
  std::string internalError;
};
SolveResult solve(const BufferProblem &problem, const SolveOptions &options);

} // namespace coreai

#endif // COREAI_PLAN_SOLVE_H

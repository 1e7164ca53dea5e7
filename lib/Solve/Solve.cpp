//===- Solve.cpp - Algorithm names, dispatch and the `best` driver --------===//
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Verify.h"

#include "Solvers.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace coreai {

namespace {

/// Every algorithm, in the order the help lists them: its name, its help
/// and, for the one-pass heuristics, the pass (`best` has its own driver).
struct AlgorithmInfo {
  Algorithm algorithm;
  const char *name;
  const char *help;
  solvers::Offsets (*pass)(const BufferProblem &);
};

const AlgorithmInfo algorithms[] = {
    {Algorithm::Naive, "naive", "no reuse: buffers end to end",
     solvers::placeNaive},
    {Algorithm::GreedyBySize, "greedy-by-size", "largest first, lowest offset",
     solvers::greedyBySize},
    {Algorithm::GreedyByBreadth, "greedy-by-breadth", "busiest time first",
     solvers::greedyByBreadth},
    {Algorithm::BestFit, "best-fit", "best-fit decreasing", solvers::bestFit},
    {Algorithm::Best, "best", "the heuristics, then the exact search", nullptr},
};

const AlgorithmInfo &infoOf(Algorithm algorithm) {
  for (const AlgorithmInfo &info : algorithms)
    if (info.algorithm == algorithm)
      return info;
  llvm_unreachable("unknown algorithm");
}

/// The command-line values of every algorithm (ValuesClass takes only an
/// initializer list).
template <size_t... I>
llvm::cl::ValuesClass valuesOf(std::index_sequence<I...>) {
  return llvm::cl::ValuesClass({llvm::cl::OptionEnumValue{
      algorithms[I].name, int(algorithms[I].algorithm),
      algorithms[I].help}...});
}

} // namespace

const std::vector<Algorithm> &allAlgorithms() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> list;
    for (const AlgorithmInfo &info : algorithms)
      list.push_back(info.algorithm);
    return list;
  }();
  return all;
}

llvm::StringRef algorithmName(Algorithm algorithm) {
  return infoOf(algorithm).name;
}

std::string algorithmList() {
  std::string list;
  for (Algorithm algorithm : allAlgorithms())
    list += (list.empty() ? "" : ", ") + algorithmName(algorithm).str();
  return list;
}

llvm::cl::ValuesClass algorithmValues() {
  return valuesOf(std::make_index_sequence<std::size(algorithms)>());
}

std::optional<Algorithm> parseAlgorithm(llvm::StringRef name) {
  for (Algorithm algorithm : allAlgorithms())
    if (algorithmName(algorithm) == name)
      return algorithm;
  return std::nullopt;
}

namespace {
using namespace solvers;

struct Outcome {
  std::optional<Offsets> offsets;
  bool optimal = false;
  bool infeasibleProven = false;
  /// The static lower bound, or higher where the exact search proved it.
  int64_t provenLowerBound = 0;
};

/// Portfolio, then the exact search: with a capacity, for any packing within
/// it; without, for ever smaller heaps down to the lower bound.
Outcome solveBest(const BufferProblem &problem, int64_t bound,
                  Clock::time_point begin, const SolveOptions &solveOptions) {
  int64_t timeLimitMs = solveOptions.timeLimitMs;
  auto improved = [&](int64_t heap) {
    if (solveOptions.onImprovement)
      solveOptions.onImprovement(heap, bound);
  };
  Clock::time_point deadline = begin + std::chrono::milliseconds(timeLimitMs);
  int64_t capacity = problem.capacity;
  Outcome outcome;
  if (capacity > 0 && bound > capacity) { // also handles sizes > capacity
    outcome.infeasibleProven = true;
    return outcome;
  }
  // Heuristics get a quarter of the budget when the exact search can follow,
  // all of it otherwise; they stop once they reach the capacity (or bound).
  bool exactFeasible = countTimeOverlaps(problem) <= maxExactOverlaps;
  int64_t target = capacity > 0 ? capacity : bound;
  // When minimising, peak sweeps first try to pack at the bound itself
  // (Portfolio.cpp, probeBound), with up to half of the budget.
  Clock::time_point boundProbeDeadline =
      capacity > 0 ? Clock::time_point::min()
                   : begin + std::chrono::milliseconds(timeLimitMs / 2);
  Offsets best = portfolio(
      problem, target,
      exactFeasible ? begin + std::chrono::milliseconds(timeLimitMs / 4)
                    : deadline,
      boundProbeDeadline);
  int64_t heap = heapOf(problem, best);
  improved(heap);
  if (heap <= target) {
    outcome.offsets = std::move(best);
    outcome.optimal = heap == bound;
    return outcome;
  }
  if (capacity > 0) {
    if (!exactFeasible)
      return outcome;
    // A tighter capacity prunes far harder: a packing at the lower bound is
    // often found much faster than one within the slack capacity (C of the
    // challenging set: 626 nodes against 31,631), but the bound may also be
    // infeasible (D: the search at the capacity packs after 25,156 nodes;
    // with equal turns the bound's took as many again, and dearer ones).
    // So the two searches take turns, restart by restart, the bound's only
    // while it has searched at most a quarter of the capacity's nodes:
    // where the bound is the one that packs, that costs at most five times
    // its nodes; where it is not, a quarter more (D: 0.44 s of CPU with
    // equal turns, 0.23 s).
    constexpr int64_t capacityNodesPerBoundNode = 4;
    ExactOptions options;
    options.deadline = deadline;
    ExactSearch atCapacity(problem, capacity, options);
    std::optional<ExactSearch> atBound;
    if (bound < capacity)
      atBound.emplace(problem, bound, options);
    bool capacityRunning = true;
    while (capacityRunning) {
      bool boundsTurn = atBound && atBound->result().nodes *
                                           capacityNodesPerBoundNode <=
                                       atCapacity.result().nodes;
      if (boundsTurn && !atBound->step()) {
        if (atBound->result().offsets) {
          outcome.offsets = atBound->result().offsets;
          outcome.optimal = true;
          return outcome;
        }
        atBound.reset();
      }
      capacityRunning = atCapacity.step();
    }
    const ExactResult &found = atCapacity.result();
    outcome.offsets = found.offsets;
    outcome.infeasibleProven = found.exhausted;
    outcome.optimal =
        outcome.offsets && heapOf(problem, *outcome.offsets) == bound;
    return outcome;
  }

  if (!exactFeasible) {
    outcome.offsets = std::move(best);
    return outcome;
  }
  MinimiseOptions options;
  options.deadline = deadline;
  options.nodeLimit = solveOptions.minimiseNodeLimit;
  options.onProgress = [&](int64_t heap, int64_t low) {
    outcome.provenLowerBound = low;
    if (solveOptions.onImprovement)
      solveOptions.onImprovement(heap, low);
  };
  MinimiseResult minimised =
      minimiseHeap(problem, std::move(best), bound, options);
  outcome.offsets = std::move(minimised.offsets);
  outcome.optimal = minimised.optimal;
  outcome.provenLowerBound = minimised.low;
  return outcome;
}

} // namespace

SolveOptions withShareOfBudget(SolveOptions options, double share) {
  auto now = Clock::now();
  Clock::time_point deadline =
      options.deadline.value_or(now + std::chrono::milliseconds(
                                          std::max<int64_t>(0, options.timeLimitMs)));
  options.deadline = deadline;
  double left = std::chrono::duration<double, std::milli>(deadline - now).count();
  options.timeLimitMs = std::max<int64_t>(0, int64_t(left * share));
  return options;
}

SolveResult solve(const BufferProblem &problem,
                  const SolveOptions &requested) {
  auto begin = Clock::now();
  // A shared deadline shortens this solve's own cap.
  SolveOptions options = requested;
  if (options.deadline)
    options.timeLimitMs = std::clamp<int64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(
            *options.deadline - begin)
            .count(),
        0, options.timeLimitMs);
  int64_t bound = lowerBound(problem);
  Outcome outcome;
  if (options.algorithm == Algorithm::Best)
    outcome = solveBest(problem, bound, begin, options);
  else
    outcome.offsets = infoOf(options.algorithm).pass(problem);

  SolveResult result;
  result.provenLowerBound = std::max(bound, outcome.provenLowerBound);
  if (!outcome.offsets) {
    result.infeasibleProven = outcome.infeasibleProven;
    return result;
  }
  Plan plan;
  plan.offsets = std::move(*outcome.offsets);
  plan.heap = heapOf(problem, plan.offsets);
  plan.lowerBound = bound;
  plan.optimal = outcome.optimal || plan.heap == bound;
  if (plan.optimal)
    result.provenLowerBound = plan.heap;
  plan.algorithm = algorithmName(options.algorithm).str();
  plan.seconds =
      std::chrono::duration<double>(Clock::now() - begin).count();
  // A heuristic that overflows the capacity has not found a packing.
  if (problem.capacity > 0 && plan.heap > problem.capacity)
    return result;
  if (llvm::Error violation = verifyPlan(problem, plan)) {
    result.internalError = plan.algorithm + " produced an invalid plan: " +
                           llvm::toString(std::move(violation));
    return result;
  }
  result.plan = std::move(plan);
  return result;
}

} // namespace coreai

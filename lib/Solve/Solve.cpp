//===- Solve.cpp - Algorithm names and dispatch ---------------------------===//
#include "coreai-plan/Solve.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/ErrorHandling.h"

#include <chrono>

namespace coreai {

const std::vector<Algorithm> &allAlgorithms() {
  static const std::vector<Algorithm> all = {
      Algorithm::Naive, Algorithm::GreedyBySize, Algorithm::GreedyByBreadth,
      Algorithm::BestFit, Algorithm::Best};
  return all;
}

llvm::StringRef algorithmName(Algorithm algorithm) {
  switch (algorithm) {
  case Algorithm::Naive:
    return "naive";
  case Algorithm::GreedyBySize:
    return "greedy-by-size";
  case Algorithm::GreedyByBreadth:
    return "greedy-by-breadth";
  case Algorithm::BestFit:
    return "best-fit";
  case Algorithm::Best:
    return "best";
  }
  llvm_unreachable("unknown algorithm");
}

std::optional<Algorithm> parseAlgorithm(llvm::StringRef name) {
  for (Algorithm algorithm : allAlgorithms())
    if (algorithmName(algorithm) == name)
      return algorithm;
  return std::nullopt;
}

namespace {
std::vector<int64_t> solveNaive(const BufferProblem &problem) {
  std::vector<int64_t> offsets;
  int64_t top = 0;
  for (const Buffer &b : problem.buffers) {
    top = alignTo(top, b.alignment);
    offsets.push_back(top);
    top += b.size;
  }
  return offsets;
}
} // namespace

// TODO(solvers): the heuristics and the exact search replace this.
SolveResult solve(const BufferProblem &problem, const SolveOptions &options) {
  auto begin = std::chrono::steady_clock::now();
  Plan plan;
  plan.offsets = solveNaive(problem);
  plan.heap = heapOf(problem, plan.offsets);
  plan.lowerBound = lowerBound(problem);
  plan.algorithm = algorithmName(Algorithm::Naive).str();
  plan.optimal = plan.heap == plan.lowerBound;
  plan.seconds = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - begin)
                     .count();
  SolveResult result;
  if (problem.capacity == 0 || plan.heap <= problem.capacity)
    result.plan = std::move(plan);
  return result;
}

} // namespace coreai

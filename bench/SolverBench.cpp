//===- SolverBench.cpp - Heap and time of every solver --------------------===//
//
//   coreai-plan-bench [--time-limit-ms T] [--capacity C] [--algorithm A]
//                     [--node-limit N] [--random N]... [--trace]
//                     [--save-random DIR] FILE.csv...
//
// Prints one markdown row per instance: buffers, lower bound, and for each
// algorithm the heap, its gap to the lower bound and the time taken. With
// --capacity, `best` looks for a packing within it instead and the row says
// whether one was found. --random N adds a seeded random instance of N
// buffers (same seed, same instance, on every machine). --trace prints each
// improvement of the heap or the proven lower bound to stderr as it happens.
// --node-limit N caps the nodes of `best`'s minimising search, so that its
// result does not depend on the machine's speed (the time limit should then
// be generous).
// --save-random DIR writes each --random instance to DIR/random-N.csv in
// MiniMalloc's format, so that command-line solvers (coreai-solve, an
// earlier commit's `coreai-plan solve`) can be timed on the same problem;
// with it nothing is solved.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Csv.h"
#include "coreai-plan/Solve/Solve.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace coreai;

namespace {

/// Lifetimes of log-uniform length (1 to 1024 steps) over a timeline of n
/// steps, sizes uniform in 64..16384 bytes: about a hundred buffers live at
/// any time, none dominating, so packings fragment as real ones do.
BufferProblem randomProblem(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BufferProblem problem;
  int64_t horizon = int64_t(n);
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.id = std::to_string(i);
    b.start = int64_t(rng() % uint64_t(horizon));
    int64_t length = int64_t(1) << (rng() % 11);
    b.end = b.start + 1 + int64_t(rng() % uint64_t(length));
    b.size = 64 * (1 + int64_t(rng() % 256));
    problem.buffers.push_back(b);
  }
  return problem;
}

struct Instance {
  std::string name;
  BufferProblem problem;
};

void runRow(const Instance &instance, const std::vector<Algorithm> &algorithms,
            int64_t capacity, int64_t timeLimitMs, int64_t nodeLimit,
            bool trace) {
  BufferProblem problem = instance.problem;
  problem.capacity = capacity;
  llvm::outs() << llvm::formatv("| {0} | {1} | {2} |", instance.name,
                                problem.buffers.size(), lowerBound(problem));
  for (Algorithm algorithm : algorithms) {
    auto begin = std::chrono::steady_clock::now();
    SolveOptions options;
    options.algorithm = algorithm;
    options.timeLimitMs = timeLimitMs;
    options.minimiseNodeLimit = nodeLimit;
    if (trace)
      options.onImprovement = [&](int64_t heap, int64_t bound) {
        llvm::errs() << llvm::formatv(
            "{0}: {1:F3} s heap {2} proven lower bound {3}\n", instance.name,
            std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                          begin)
                .count(),
            heap, bound);
      };
    SolveResult result = solve(problem, options);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - begin)
                         .count();
    if (!result.internalError.empty()) {
      llvm::errs() << "internal error: " << result.internalError << "\n";
      std::exit(3);
    }
    if (!result.plan)
      llvm::outs() << llvm::formatv(" {0} | {1:F3} s |",
                                    result.infeasibleProven ? "infeasible"
                                                            : "not found",
                                    seconds);
    else
      llvm::outs() << llvm::formatv(
          " {0} ({1:F2}%{2}) | {3:F3} s |", result.plan->heap,
          100.0 * gap(result.plan->heap, result.plan->lowerBound),
          result.plan->optimal ? ", opt" : "", seconds);
    llvm::outs().flush();
  }
  llvm::outs() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  int64_t timeLimitMs = 1000, capacity = 0,
          nodeLimit = std::numeric_limits<int64_t>::max();
  bool trace = false;
  std::string saveDir;
  std::vector<Algorithm> algorithms;
  std::vector<Instance> instances;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto next = [&]() -> llvm::StringRef {
      if (i + 1 >= argc) {
        llvm::errs() << "missing value after " << arg << "\n";
        std::exit(1);
      }
      return argv[++i];
    };
    if (arg == "--trace") {
      trace = true;
    } else if (arg == "--save-random") {
      saveDir = next().str();
    } else if (arg == "--time-limit-ms") {
      timeLimitMs = std::atoll(next().str().c_str());
    } else if (arg == "--node-limit") {
      nodeLimit = std::atoll(next().str().c_str());
    } else if (arg == "--capacity") {
      capacity = std::atoll(next().str().c_str());
    } else if (arg == "--algorithm") {
      auto algorithm = parseAlgorithm(next());
      if (!algorithm) {
        llvm::errs() << "unknown algorithm\n";
        return 1;
      }
      algorithms.push_back(*algorithm);
    } else if (arg == "--random") {
      size_t n = std::strtoull(next().str().c_str(), nullptr, 10);
      instances.push_back(
          {llvm::formatv("random-{0}", n).str(), randomProblem(n, 42 + n)});
    } else {
      auto file = llvm::MemoryBuffer::getFile(arg, /*IsText=*/true);
      if (!file) {
        llvm::errs() << "cannot read " << arg << "\n";
        return 1;
      }
      auto problem = readProblemCsv((*file)->getBuffer(), arg);
      if (!problem) {
        llvm::errs() << llvm::toString(problem.takeError()) << "\n";
        return 1;
      }
      instances.push_back(
          {llvm::sys::path::filename(arg).str(), std::move(*problem)});
    }
  }
  if (!saveDir.empty()) {
    for (const Instance &instance : instances) {
      if (!llvm::StringRef(instance.name).starts_with("random-"))
        continue;
      std::string path = saveDir + "/" + instance.name + ".csv";
      std::error_code error;
      llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_Text);
      if (error) {
        llvm::errs() << "cannot write " << path << ": " << error.message()
                     << "\n";
        return 1;
      }
      out << writeProblemCsv(instance.problem);
    }
    return 0;
  }
  if (algorithms.empty())
    algorithms = allAlgorithms();
  llvm::outs() << "| instance | buffers | lower bound |";
  for (Algorithm algorithm : algorithms)
    llvm::outs() << " " << algorithmName(algorithm) << " heap (gap) | time |";
  llvm::outs() << "\n|---|---:|---:|";
  for (size_t i = 0; i < algorithms.size(); ++i)
    llvm::outs() << "---:|---:|";
  llvm::outs() << "\n";
  for (const Instance &instance : instances)
    runRow(instance, algorithms, capacity, timeLimitMs, nodeLimit, trace);
  return 0;
}

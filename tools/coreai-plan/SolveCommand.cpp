//===- SolveCommand.cpp - coreai-plan solve -------------------------------===//
//
// Packs a MiniMalloc CSV problem: minimises the heap, or with --capacity
// looks for a packing that fits.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "coreai-plan/Csv.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Solve.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

llvm::cl::SubCommand solveCommand(
    "solve", "Pack the buffers of a MiniMalloc CSV problem into one heap");

namespace {
llvm::cl::opt<std::string> inputPath("input", llvm::cl::Required,
                                     llvm::cl::desc("Problem CSV "
                                                    "(id,lower,upper,size)"),
                                     llvm::cl::value_desc("P.csv"),
                                     llvm::cl::sub(solveCommand));
llvm::cl::opt<int64_t>
    capacity("capacity",
             llvm::cl::desc("Find a packing within N bytes instead of "
                            "minimising the heap"),
             llvm::cl::value_desc("N"), llvm::cl::init(0),
             llvm::cl::sub(solveCommand));
llvm::cl::opt<Algorithm>
    algorithm("algorithm",
              llvm::cl::desc("Packing algorithm (docs/SOLVERS.md)"),
              llvm::cl::init(Algorithm::Best), algorithmValues(),
              llvm::cl::sub(solveCommand));
llvm::cl::opt<int64_t> timeLimitMs(
    "time-limit-ms",
    llvm::cl::desc("Cap on the search (ms; it stops earlier once the heap "
                   "is proven minimal)"),
    llvm::cl::init(defaultTimeLimitMs), llvm::cl::sub(solveCommand));
// MiniMalloc's problems are byte-exact: no alignment unless asked for.
llvm::cl::opt<int64_t>
    alignment("alignment",
              llvm::cl::desc("Offset alignment in bytes (power of two; "
                             "default 1: MiniMalloc problems are byte-exact)"),
              llvm::cl::init(1), llvm::cl::sub(solveCommand));
llvm::cl::opt<std::string>
    outputPath("output",
               llvm::cl::desc("Write the problem with an offset column"),
               llvm::cl::value_desc("OUT.csv"), llvm::cl::sub(solveCommand));

void printSummary(const BufferProblem &problem, const Plan &plan) {
  llvm::outs() << llvm::formatv(
      "buffers      {0}\nlower bound  {1}\nheap         {2}\n"
      "heap/LB      {3:F4}\nalgorithm    {4}\noptimal      {5}\n"
      "time         {6:F3} s\n",
      problem.buffers.size(), plan.lowerBound, plan.heap,
      heapRatio(plan.heap, plan.lowerBound), plan.algorithm,
      plan.optimal ? "proven" : "not proven", plan.seconds);
}
} // namespace

int runSolve() {
  if (llvm::Error error = llvm::joinErrors(
          checkNotNegative("capacity", capacity),
          checkNotNegative("time-limit-ms", timeLimitMs)))
    return fail(InputError, std::move(error));
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputPath, /*IsText=*/true);
  if (!file)
    return fail(InputError, "cannot read '" + inputPath +
                                "': " + file.getError().message());
  auto problem =
      readProblemCsv((*file)->getBuffer(), inputPath, alignment.getValue());
  if (!problem)
    return fail(InputError, problem.takeError());
  problem->capacity = capacity;

  SolveResult result = solve(*problem, {algorithm, timeLimitMs, {}});
  if (!result.internalError.empty())
    return fail(InternalError, result.internalError);
  if (!result.plan) {
    llvm::outs() << llvm::formatv(
        "buffers      {0}\nlower bound  {1}\nno packing within capacity {2} "
        "{3}\n",
        problem->buffers.size(), lowerBound(*problem), capacity.getValue(),
        result.infeasibleProven ? "exists (proven)"
                                : "was found within the time limit");
    return AnswerNo;
  }
  if (auto violation = verifyPlan(*problem, *result.plan))
    return fail(InternalError, "plan failed verification: " + *violation);
  printSummary(*problem, *result.plan);
  if (!outputPath.empty()) {
    std::string csv = writeProblemCsv(*problem, &*result.plan);
    if (llvm::Error error = llvm::writeToOutput(
            outputPath, [&](llvm::raw_ostream &os) {
              os << csv;
              return llvm::Error::success();
            }))
      return fail(InputError, std::move(error));
  }
  return Success;
}

} // namespace coreai::cli

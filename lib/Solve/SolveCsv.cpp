//===- SolveCsv.cpp - The `solve` command over a MiniMalloc CSV -----------===//
#include "coreai-plan/SolveCsv.h"

#include "coreai-plan/Csv.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

namespace coreai {

namespace cl = llvm::cl;

SolveCsvFlags::SolveCsvFlags(cl::SubCommand &command)
    : inputPath("input", cl::Required,
                cl::desc("Problem CSV (id,lower,upper,size)"),
                cl::value_desc("P.csv"), cl::sub(command)),
      capacity("capacity",
               cl::desc("Find a packing within N bytes instead of "
                        "minimising the heap"),
               cl::value_desc("N"), cl::init(0), cl::sub(command)),
      algorithm("algorithm", cl::desc("Packing algorithm (docs/SOLVERS.md)"),
                cl::init(Algorithm::Best), algorithmValues(),
                cl::sub(command)),
      timeLimitMs("time-limit-ms",
                  cl::desc("Cap on the search (ms; it stops earlier once "
                           "the heap is proven minimal)"),
                  cl::init(defaultTimeLimitMs), cl::sub(command)),
      // MiniMalloc's problems are byte-exact: no alignment unless asked for.
      alignment("alignment",
                cl::desc("Offset alignment in bytes (power of two; default "
                         "1: MiniMalloc problems are byte-exact)"),
                cl::init(1), cl::sub(command)),
      outputPath("output",
                 cl::desc("Write the problem with an offset column"),
                 cl::value_desc("OUT.csv"), cl::sub(command)) {}

namespace {
SolveCsvOutcome failure(SolveCsvStatus status, std::string message) {
  return {status, std::move(message)};
}
} // namespace

SolveCsvOutcome runSolveCsv(const SolveCsvFlags &flags,
                            llvm::raw_ostream &out) {
  if (llvm::Error error = llvm::joinErrors(
          checkNotNegative("capacity", flags.capacity),
          checkNotNegative("time-limit-ms", flags.timeLimitMs)))
    return failure(SolveCsvStatus::BadInput, llvm::toString(std::move(error)));
  const std::string &inputPath = flags.inputPath;
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputPath, /*IsText=*/true);
  if (!file)
    return failure(SolveCsvStatus::BadInput,
                   "cannot read '" + inputPath +
                       "': " + file.getError().message());
  auto problem = readProblemCsv((*file)->getBuffer(), inputPath,
                                flags.alignment.getValue());
  if (!problem)
    return failure(SolveCsvStatus::BadInput,
                   llvm::toString(problem.takeError()));
  problem->capacity = flags.capacity;

  SolveResult result =
      solve(*problem, {flags.algorithm, flags.timeLimitMs, {}});
  if (!result.internalError.empty())
    return failure(SolveCsvStatus::Internal, result.internalError);
  if (!result.plan) {
    out << llvm::formatv(
        "buffers      {0}\nlower bound  {1}\nno packing within capacity {2} "
        "{3}\n",
        problem->buffers.size(), lowerBound(*problem),
        flags.capacity.getValue(),
        result.infeasibleProven ? "exists (proven)"
                                : "was found within the time limit");
    return {SolveCsvStatus::NoPacking, {}};
  }
  const Plan &plan = *result.plan;
  if (auto violation = verifyPlan(*problem, plan))
    return failure(SolveCsvStatus::Internal,
                   "plan failed verification: " + *violation);
  out << llvm::formatv(
      "buffers      {0}\nlower bound  {1}\nheap         {2}\n"
      "heap/LB      {3:F4}\nalgorithm    {4}\noptimal      {5}\n"
      "time         {6:F3} s\n",
      problem->buffers.size(), plan.lowerBound, plan.heap,
      heapRatio(plan.heap, plan.lowerBound), plan.algorithm,
      plan.optimal ? "proven" : "not proven", plan.seconds);
  if (!flags.outputPath.empty()) {
    std::string csv = writeProblemCsv(*problem, &plan);
    if (llvm::Error error = llvm::writeToOutput(
            flags.outputPath, [&](llvm::raw_ostream &os) {
              os << csv;
              return llvm::Error::success();
            }))
      return failure(SolveCsvStatus::BadInput,
                     llvm::toString(std::move(error)));
  }
  return {};
}

int reportSolveCsv(const SolveCsvOutcome &outcome, llvm::StringRef tool) {
  if (outcome.status == SolveCsvStatus::Solved)
    return 0;
  if (outcome.status == SolveCsvStatus::NoPacking)
    return 2;
  llvm::WithColor::error(llvm::errs(), tool) << outcome.error << "\n";
  return outcome.status == SolveCsvStatus::BadInput ? 1 : 3;
}

} // namespace coreai

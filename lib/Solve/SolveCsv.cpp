//===- SolveCsv.cpp - The `solve` command over a MiniMalloc CSV -----------===//
#include "coreai-plan/Solve/SolveCsv.h"

#include "coreai-plan/Csv.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace coreai {

char SolveInternalError::ID = 0;

namespace {
llvm::Error badInput(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `--json`: the summary as one object. `offsets` follows the CSV's rows;
/// `proven_lower_bound` is the bound the search proved (at least
/// `lower_bound`; the heap itself when `optimal`).
void printJson(llvm::raw_ostream &out, const BufferProblem &problem,
               const SolveResult &result, int64_t capacity) {
  llvm::json::Object summary{
      {"buffers", int64_t(problem.buffers.size())},
      {"lower_bound", lowerBound(problem)},
      {"proven_lower_bound", result.provenLowerBound},
      {"packed", result.plan.has_value()}};
  if (capacity > 0)
    summary["capacity"] = capacity;
  if (!result.plan) {
    summary["infeasible_proven"] = result.infeasibleProven;
  } else {
    const Plan &plan = *result.plan;
    summary["heap"] = plan.heap;
    summary["optimal"] = plan.optimal;
    summary["algorithm"] = plan.algorithm;
    summary["seconds"] = plan.seconds;
    summary["offsets"] = llvm::json::Array(plan.offsets);
  }
  out << llvm::formatv("{0}", llvm::json::Value(std::move(summary)))
      << "\n";
}
} // namespace

llvm::Expected<SolveCsvAnswer> runSolveCsv(const SolveCsvRequest &request,
                                           llvm::raw_ostream &out) {
  if (llvm::Error error = llvm::joinErrors(
          checkNotNegative("capacity", request.capacity),
          checkNotNegative("time-limit-ms", request.timeLimitMs)))
    return error;
  const std::string &inputPath = request.inputPath;
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputPath, /*IsText=*/true);
  if (!file)
    return badInput("cannot read '" + inputPath +
                    "': " + file.getError().message());
  auto problem =
      readProblemCsv((*file)->getBuffer(), inputPath, request.alignment);
  if (!problem)
    return problem.takeError();
  problem->capacity = request.capacity;

  SolveOptions options;
  options.algorithm = request.algorithm;
  options.timeLimitMs = request.timeLimitMs;
  SolveResult result = solve(*problem, options);
  if (!result.internalError.empty())
    return llvm::make_error<SolveInternalError>(result.internalError);
  if (!result.plan) {
    if (request.json) {
      printJson(out, *problem, result, request.capacity);
      return SolveCsvAnswer::NoPacking;
    }
    out << llvm::formatv(
        "buffers      {0}\nlower bound  {1}\nno packing within capacity {2} "
        "{3}\n",
        problem->buffers.size(), lowerBound(*problem), request.capacity,
        result.infeasibleProven ? "exists (proven)"
                                : "was found within the time limit");
    return SolveCsvAnswer::NoPacking;
  }
  const Plan &plan = *result.plan;
  if (llvm::Error violation = verifyPlan(*problem, plan))
    return llvm::make_error<SolveInternalError>(
        "plan failed verification: " + llvm::toString(std::move(violation)));
  if (request.json)
    printJson(out, *problem, result, request.capacity);
  else
    out << llvm::formatv(
        "buffers      {0}\nlower bound  {1}\nheap         {2}\n"
        "heap/LB      {3:F4}\nalgorithm    {4}\noptimal      {5}\n"
        "time         {6:F3} s\n",
        problem->buffers.size(), plan.lowerBound, plan.heap,
        heapRatio(plan.heap, plan.lowerBound), plan.algorithm,
        plan.optimal ? "proven" : "not proven", plan.seconds);
  if (!request.outputPath.empty()) {
    std::string csv = writeProblemCsv(*problem, &plan);
    if (llvm::Error error =
            llvm::writeToOutput(request.outputPath, [&](llvm::raw_ostream &os) {
              os << csv;
              return llvm::Error::success();
            }))
      return error;
  }
  return SolveCsvAnswer::Packed;
}

} // namespace coreai

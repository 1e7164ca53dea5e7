//===- CsvFuzzer.cpp - CSV reader + solvers + verifier under libFuzzer ----===//
//
// Any bytes go into the CSV reader; what it accepts is solved by every
// algorithm, and every plan must verify and be at least the lower bound.
// A rejected input must come with a message naming the source.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Csv.h"
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Verify.h"

#include "FuzzCheck.h"

using namespace coreai;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto problem = readProblemCsv(text, "fuzz.csv");
  if (!problem) {
    std::string message = llvm::toString(problem.takeError());
    check(llvm::StringRef(message).starts_with("fuzz.csv:"),
          "a CSV error names the source and line");
    return 0;
  }
  // Keep each run fast; the exact search gets a tiny budget.
  if (problem->buffers.size() > 64)
    return 0;
  int64_t bound = lowerBound(*problem);
  for (Algorithm algorithm : allAlgorithms()) {
    SolveResult result = solve(*problem, {algorithm, /*timeLimitMs=*/5});
    check(result.plan.has_value(), "minimising always yields a plan");
    check(!llvm::errorToBool(verifyPlan(*problem, *result.plan)),
          "every plan verifies");
    check(result.plan->heap >= bound, "no plan beats the lower bound");
    check(!result.plan->optimal || result.plan->heap <= bound ||
              algorithm == Algorithm::Best,
          "only the exact search proves optimality above the bound");
  }
  return 0;
}

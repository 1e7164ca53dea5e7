//===- coreai-solve.cpp - The solver without the MLIR front end -----------===//
//
//   coreai-solve --input P.csv [--capacity N] [--algorithm A]
//                [--time-limit-ms T] [--alignment A] [--output OUT.csv]
//
// The same command as `coreai-plan solve` (same options, output and exit
// codes), linked only against the IR-independent core, the solvers and a
// static LLVMSupport: no libMLIR/libLLVM to load, so a small problem is
// solved in about a millisecond.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Csv.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Solve.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace coreai;

namespace {

/// The exit codes of coreai-plan (docs/CLI.md).
enum ExitCode : int { Success = 0, InputError = 1, AnswerNo = 2, InternalError = 3 };

llvm::cl::opt<std::string> inputPath("input", llvm::cl::Required,
                                     llvm::cl::desc("Problem CSV "
                                                    "(id,lower,upper,size)"),
                                     llvm::cl::value_desc("P.csv"));
llvm::cl::opt<int64_t>
    capacity("capacity",
             llvm::cl::desc("Find a packing within N bytes instead of "
                            "minimising the heap"),
             llvm::cl::value_desc("N"), llvm::cl::init(0));
llvm::cl::opt<Algorithm>
    algorithm("algorithm",
              llvm::cl::desc("Packing algorithm (docs/SOLVERS.md)"),
              llvm::cl::init(Algorithm::Best), algorithmValues());
llvm::cl::opt<int64_t> timeLimitMs(
    "time-limit-ms",
    llvm::cl::desc("Cap on the search (ms; it stops earlier once the heap "
                   "is proven minimal)"),
    llvm::cl::init(defaultTimeLimitMs));
llvm::cl::opt<int64_t> alignment("alignment",
                                 llvm::cl::desc("Offset alignment in bytes"),
                                 llvm::cl::init(1));
llvm::cl::opt<std::string>
    outputPath("output",
               llvm::cl::desc("Write the problem with an offset column"),
               llvm::cl::value_desc("OUT.csv"));

int fail(ExitCode code, const llvm::Twine &message) {
  llvm::errs() << "coreai-solve: error: " << message << "\n";
  return code;
}

int fail(ExitCode code, llvm::Error error) {
  return fail(code, llvm::toString(std::move(error)));
}

} // namespace

int main(int argc, char **argv) {
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "Pack the buffers of a MiniMalloc CSV problem into one heap\n",
          &llvm::errs()))
    return InputError;
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

  SolveOptions options;
  options.algorithm = algorithm;
  options.timeLimitMs = timeLimitMs;
  SolveResult result = solve(*problem, options);
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
  const Plan &plan = *result.plan;
  if (auto violation = verifyPlan(*problem, plan))
    return fail(InternalError, "plan failed verification: " + *violation);
  llvm::outs() << llvm::formatv(
      "buffers      {0}\nlower bound  {1}\nheap         {2}\n"
      "heap/LB      {3:F4}\nalgorithm    {4}\noptimal      {5}\n"
      "time         {6:F3} s\n",
      problem->buffers.size(), plan.lowerBound, plan.heap,
      heapRatio(plan.heap, plan.lowerBound), plan.algorithm,
      plan.optimal ? "proven" : "not proven", plan.seconds);
  if (!outputPath.empty()) {
    std::string csv = writeProblemCsv(*problem, &plan);
    if (llvm::Error error = llvm::writeToOutput(
            outputPath, [&](llvm::raw_ostream &os) {
              os << csv;
              return llvm::Error::success();
            }))
      return fail(InputError, std::move(error));
  }
  return Success;
}

//===- SolveCsvFlags.cpp - The flags of `solve` ---------------------------===//
#include "SolveCsvFlags.h"
#include "ExitCode.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

namespace cl = llvm::cl;

// cl::location options take their defaults from `request`.
SolveCsvFlags::SolveCsvFlags(cl::SubCommand &command)
    : inputPath("input", cl::Required,
                cl::desc("Problem CSV (id,lower,upper,size)"),
                cl::value_desc("P.csv"), cl::location(request.inputPath),
                cl::sub(command)),
      capacity("capacity",
               cl::desc("Find a packing within N bytes instead of "
                        "minimising the heap"),
               cl::value_desc("N"), cl::location(request.capacity),
               cl::sub(command)),
      algorithm("algorithm", cl::desc("Packing algorithm (docs/SOLVERS.md)"),
                algorithmValues(), cl::location(request.algorithm),
                cl::sub(command)),
      timeLimitMs("time-limit-ms",
                  cl::desc("Cap on the search (ms; it stops earlier once "
                           "the heap is proven minimal)"),
                  cl::location(request.timeLimitMs), cl::sub(command)),
      alignment("alignment",
                cl::desc("Offset alignment in bytes (power of two; default "
                         "1: MiniMalloc problems are byte-exact)"),
                cl::location(request.alignment), cl::sub(command)),
      outputPath("output", cl::desc("Write the problem with an offset column"),
                 cl::value_desc("OUT.csv"), cl::location(request.outputPath),
                 cl::sub(command)),
      json("json",
           cl::desc("Print the summary as JSON, with every offset in the "
                    "order of the input's rows"),
           cl::location(request.json), cl::sub(command)) {}

int runSolveCsvCommand(const SolveCsvFlags &flags, llvm::StringRef tool) {
  llvm::Expected<SolveCsvAnswer> answer =
      runSolveCsv(flags.request, llvm::outs());
  if (answer)
    return *answer == SolveCsvAnswer::Packed ? Success : AnswerNo;
  llvm::Error error = answer.takeError();
  ExitCode code = error.isA<SolveInternalError>() ? InternalError : InputError;
  llvm::WithColor::error(llvm::errs(), tool)
      << llvm::toString(std::move(error)) << "\n";
  return code;
}

} // namespace coreai::cli

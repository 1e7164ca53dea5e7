//===- BuffersCommand.cpp - coreai-plan buffers ---------------------------===//
//
// Plans every function of a model at its static shapes and prints one row
// per function: the liveness and planning of the coreai-plan-buffers pass,
// without writing a bundle. Optionally writes the annotated module and each
// function's buffer problem as MiniMalloc CSV.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "InputCheck.h"
#include "PlanningOptions.h"

#include "coreai-plan/Csv.h"
#include "coreai-plan/Import/ExportArchive.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace coreai::cli {

int runBuffers();
Command
    buffersCommand("buffers",
                   "Plan every function of an MLIR model at its static shapes "
                   "and report buffers, lower bound and heap",
                   runBuffers);

namespace {
namespace cl = llvm::cl;

InputArgument inputPath(buffersCommand, "<MODEL.mlir or .mlirbc>");
// Every planning option under its pass name, defaults as the pass's (no
// target here; `plan` turns reuse on where the target allows). Checked
// once, by checkPlanOptions, before anything is read.
PlanningFlags planning(buffersCommand, OptionDefaults::Own);
cl::list<std::string> functionNames("function",
                                    cl::desc("Plan only this function "
                                             "(repeatable; default: all)"),
                                    cl::value_desc("NAME"),
                                    cl::sub(buffersCommand));
cl::opt<std::string> emitProblem(
    "emit-problem",
    cl::desc("Write each function's buffer problem as MiniMalloc CSV: to "
             "OUT.csv (one function) or to OUTDIR/<function>.csv"),
    cl::value_desc("OUT.csv|OUTDIR"), cl::sub(buffersCommand));
cl::opt<std::string> outputPath("o",
                                cl::desc("Write the annotated module (MLIR "
                                         "text)"),
                                cl::value_desc("annotated.mlir"),
                                cl::sub(buffersCommand));

using Clock = std::chrono::steady_clock;
double millisSince(Clock::time_point begin) {
  return std::chrono::duration<double, std::milli>(Clock::now() - begin)
      .count();
}

/// The functions to plan, in module order, or an error message.
llvm::Expected<std::vector<mlir::func::FuncOp>>
selectFunctions(mlir::ModuleOp module) {
  std::vector<mlir::func::FuncOp> all = functionsWithBodies(module);
  if (all.empty())
    return llvm::createStringError("'" + inputPath +
                                   "' has no function with a body to plan");
  if (functionNames.empty())
    return all;
  std::vector<mlir::func::FuncOp> selected;
  for (llvm::StringRef name : functionNames) {
    name = name.ltrim('@');
    auto it = llvm::find_if(
        all, [&](mlir::func::FuncOp f) { return f.getSymName() == name; });
    if (it == all.end())
      return llvm::createStringError("no function @" + name.str() + " in '" +
                                     inputPath + "'");
    selected.push_back(*it);
  }
  return selected;
}

struct Row {
  PlannedEntry entry;
  double millis = 0;
};

void printTable(llvm::ArrayRef<Row> rows, double parseMillis) {
  llvm::outs() << llvm::formatv("{0}: parsed in {1:F1} ms\n", inputPath,
                                parseMillis);
  llvm::outs() << llvm::formatv(
      "{0,-16} {1,5} {2,8} {3,12} {4,12} {5,8} {6,-17} {7,-7} {8,14} {9,9}\n",
      "function", "S", "buffers", "lower-bound", "heap", "heap/LB", "algorithm",
      "optimal", "in-place-saved", "ms");
  for (const Row &row : rows) {
    const PlannedEntry &e = row.entry;
    const LivenessOptions &liveness = planning.chosen.liveness;
    bool reuse =
        liveness.inPlace || liveness.inPlaceSoftmax || liveness.statePlacement;
    std::string saved =
        reuse ? std::to_string(e.inPlaceSavedBytes) : std::string("-");
    llvm::outs() << llvm::formatv(
        "{0,-16} {1,5} {2,8} {3,12} {4,12} {5,8:F4} {6,-17} {7,-7} {8,14} "
        "{9,9:F1}\n",
        "@" + e.entry, e.chunk, e.problem.buffers.size(), e.plan.lowerBound,
        e.plan.heap, heapRatio(e.plan.heap, e.plan.lowerBound),
        e.plan.algorithm, e.plan.optimal ? "yes" : "no", saved, row.millis);
  }
}

/// Writes `text` to `path` atomically.
llvm::Error writeFile(llvm::StringRef path, llvm::StringRef text) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  });
}

llvm::Error writeProblems(llvm::ArrayRef<Row> rows) {
  if (llvm::StringRef(emitProblem).ends_with(".csv")) {
    if (rows.size() != 1)
      return llvm::createStringError(
          "--emit-problem " + emitProblem + " names one file but " +
          std::to_string(rows.size()) +
          " functions were planned: pick one with --function or give a "
          "directory");
    return writeFile(emitProblem, writeProblemCsv(rows.front().entry.problem));
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(emitProblem))
    return llvm::createStringError("cannot create directory '" + emitProblem +
                                   "': " + ec.message());
  for (const Row &row : rows) {
    llvm::SmallString<128> path(emitProblem);
    llvm::sys::path::append(path, row.entry.entry + ".csv");
    if (llvm::Error error = writeFile(path, writeProblemCsv(row.entry.problem)))
      return error;
  }
  return llvm::Error::success();
}

} // namespace

int runBuffers() {
  const FunctionPlanOptions &options = planning.chosen;
  if (llvm::Error error = checkPlanOptions(options))
    return fail(InputError, std::move(error));

  // Single-threaded: planning is sequential and threads only cost startup.
  ContextOptions contextOptions;
  contextOptions.threading = false;
  std::unique_ptr<mlir::MLIRContext> context = makeContext(contextOptions);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());

  if (llvm::Error error = refuseProgramInput(
          inputPath, "coreai-plan buffers", "MLIR (text or bytecode)",
          "`coreai-plan inspect PROGRAM.pte --buffers` lists a program's "
          "buffers"))
    return fail(InputError, std::move(error));
  Clock::time_point parseBegin = Clock::now();
  std::string openError;
  auto file = mlir::openInputFile(inputPath, &openError);
  if (!file)
    return fail(InputError, "cannot read '" + inputPath + "': " + openError);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module = readModel(sourceMgr, context.get());
  if (!module)
    return InputError; // the parser reported where
  double parseMillis = millisSince(parseBegin);

  auto functions = selectFunctions(*module);
  if (!functions)
    return fail(InputError, functions.takeError());

  std::vector<Row> rows;
  int exitCode = Success;
  for (mlir::func::FuncOp func : *functions) {
    Clock::time_point begin = Clock::now();
    PlanFailure why = PlanFailure::BadInput;
    mlir::FailureOr<PlannedEntry> entry = planAtOwnChunk(func, options, &why);
    double millis = millisSince(begin);
    if (succeeded(entry)) {
      rows.push_back({std::move(*entry), millis});
      continue;
    }
    // An internal error outranks bad input, which outranks a heap above
    // --max-heap (the other functions are still reported then).
    if (why == PlanFailure::Internal)
      exitCode = InternalError;
    else if (why == PlanFailure::BadInput && exitCode != InternalError)
      exitCode = InputError;
    else if (exitCode == Success)
      exitCode = AnswerNo;
  }
  if (exitCode == InputError || exitCode == InternalError)
    return exitCode;
  printTable(rows, parseMillis);

  if (!emitProblem.empty())
    if (llvm::Error error = writeProblems(rows))
      return fail(InputError, std::move(error));
  if (!outputPath.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    os << "\n"; // as mlir-opt ends its output
    if (llvm::Error error = writeFile(outputPath, text))
      return fail(InputError, std::move(error));
  }
  return exitCode;
}

} // namespace coreai::cli

//===- PlanningOptions.cpp - Options of the planning subcommands ----------===//
#include "PlanningOptions.h"
#include "Progress.h"

#include "coreai-plan/Options.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

namespace cl = llvm::cl;

PlanningOptions::PlanningOptions(cl::SubCommand &command)
    : inputs(cl::Positional, cl::OneOrMore,
             cl::desc("<MODEL.mlir>... (the graphs of one bundle)"),
             cl::sub(command)),
      targetName("target", cl::Required,
                 cl::desc("Target description (targets/<name>.json): h18p, "
                          "generic, ..."),
                 cl::sub(command)),
      targetsDir("targets-dir", cl::desc("Read target descriptions from DIR"),
                 cl::value_desc("DIR"), cl::sub(command)),
      entryNames("entry",
                 cl::desc("Plan only this entry point (repeatable; default: "
                          "every public function)"),
                 cl::value_desc("NAME"), cl::sub(command)),
      bindOptions("bind",
                  cl::desc("SYMBOL=S: the symbol that is the chunk size; "
                           "SYMBOL=INTEGER: a fixed value (repeatable)"),
                  cl::value_desc("SYMBOL=S"), cl::sub(command)),
      algorithm("algorithm", cl::desc("Packing algorithm (docs/SOLVERS.md)"),
                cl::init(Algorithm::Best), algorithmValues(), cl::sub(command)),
      // A cap, not a target: the searches on the shared graphs prove their
      // heaps in well under a second, and a plan cut short by a loaded
      // machine would differ from one that was not.
      timeLimitMs("time-limit-ms",
                  cl::desc("Cap on the search per entry and chunk size "
                           "(ms; it stops earlier once the heap is proven "
                           "minimal)"),
                  cl::init(defaultTimeLimitMs), cl::sub(command)),
      // Reuse techniques are on where the target allows them; each can be
      // switched off to compare or to work around a runtime.
      noInPlace("no-in-place",
                cl::desc("Give every result its own buffer even where the "
                         "target runs the op in place"),
                cl::sub(command)),
      noOutputPlacement(
          "no-output-placement",
          cl::desc("Keep chains that end in a returned value in the heap"),
          cl::sub(command)),
      noStatePlacement(
          "no-state-placement",
          cl::desc("Do not write state updates into the state's own storage"),
          cl::sub(command)),
      noReorder("no-reorder", cl::desc("Keep the exported op order"),
                cl::sub(command)),
      noBorrowOutputs(
          "no-borrow-outputs",
          cl::desc("Keep every intermediate in the heap even where the "
                   "target lets the plan use outputs' storage before their "
                   "values are written"),
          cl::sub(command)) {}

llvm::Expected<PlanRequest>
PlanningOptions::request(std::vector<int64_t> chunks, bool chunksGiven) const {
  PlanRequest request;
  request.inputs.assign(inputs.begin(), inputs.end());
  request.chunks = std::move(chunks);
  request.chunksGiven = chunksGiven;
  request.entries.assign(entryNames.begin(), entryNames.end());
  std::vector<std::string> binds(bindOptions.begin(), bindOptions.end());
  llvm::Expected<Bindings> bindings = parseBindings(binds);
  if (!bindings)
    return bindings.takeError();
  request.bindings = std::move(*bindings);
  llvm::Expected<Target> target = loadTarget(
      targetName, targetsDir.empty() ? defaultTargetsDir() : targetsDir);
  if (!target)
    return target.takeError();
  request.target = std::move(*target);
  ReuseSwitches reuse{noInPlace, noOutputPlacement, noStatePlacement,
                      noReorder, noBorrowOutputs};
  request.options =
      planOptionsFor(request.target, reuse, {algorithm, timeLimitMs, {}});
  if (llvm::Error error = checkPlanOptions(request.options))
    return error;
  return request;
}

ReportingOptions::ReportingOptions(cl::SubCommand &command)
    : quiet("quiet",
            cl::desc("Print nothing on stdout (errors still go to stderr; "
                     "the exit code carries the answer)"),
            cl::sub(command)),
      json("json", cl::desc("Print a machine-readable summary on stdout"),
           cl::sub(command)),
      progress("progress",
               cl::desc("Progress on stderr (default: when stderr is a "
                        "terminal)"),
               cl::values(clEnumValN(ProgressMode::Auto, "auto",
                                     "when stderr is a terminal"),
                          clEnumValN(ProgressMode::Always, "always",
                                     "one line per stage"),
                          clEnumValN(ProgressMode::Never, "never", "silent")),
               cl::init(ProgressMode::Auto), cl::sub(command)) {}

std::unique_ptr<PlanObserver> ReportingOptions::makeProgress() const {
  bool terminal = llvm::sys::Process::StandardErrIsDisplayed();
  if (progress == ProgressMode::Never ||
      (progress == ProgressMode::Auto && !terminal))
    return nullptr;
  return std::make_unique<ProgressPrinter>(llvm::errs(), terminal);
}

} // namespace coreai::cli

//===- PlanningOptions.cpp - Options of the planning subcommands ----------===//
#include "PlanningOptions.h"
#include "InputCheck.h"
#include "Progress.h"

#include "coreai-plan/Bundle/Fit.h"
#include "coreai-plan/Options.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

namespace cl = llvm::cl;

PlanningFlags::PlanningFlags(cl::SubCommand &command, OptionDefaults defaults) {
  bool targetDecides = defaults == OptionDefaults::Target;
#define COREAI_PLANNING_OPTION(MEMBER, NAME, TYPE, DEFAULT, FLAG, HELP,        \
                               CL_MODIFIER, TARGET_DECIDES)                    \
  if (!(targetDecides && TARGET_DECIDES))                                      \
    flags.push_back(std::make_unique<cl::opt<TYPE, true>>(                     \
        FLAG, cl::desc(HELP), cl::location(chosen.MEMBER), cl::sub(command),   \
        CL_MODIFIER));
#include "coreai-plan/Passes/PlanningOptions.inc"
  if (!targetDecides)
    return;
#define COREAI_REUSE_OFF_SWITCH(NAME, FLAG, HELP)                              \
  flags.push_back(std::make_unique<cl::opt<bool, true>>(                       \
      FLAG, cl::desc(HELP), cl::location(reuse.NAME), cl::sub(command)));
#include "coreai-plan/Passes/PlanningOptions.inc"
}

PlanningOptions::PlanningOptions(cl::SubCommand &command,
                                 llvm::StringRef chunksHelp)
    : command(command.getName()),
      inputs(cl::Positional, cl::OneOrMore,
             cl::desc("<MODEL.mlir>... (the graphs of one bundle)"),
             cl::sub(command)),
      targetName("target",
                 cl::desc("Target description (targets/<name>.json): h18p, "
                          "generic, ... (default: generic, which fuses "
                          "nothing, runs nothing in place and lends no "
                          "output, and says so on stderr)"),
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
      chunksOption("chunks", cl::desc(chunksHelp),
                   cl::value_desc("S,S,...|A..B"), cl::init("1,16,32,64"),
                   cl::sub(command)),
      planning(command, OptionDefaults::Target) {}

llvm::Expected<PlanRequest> PlanningOptions::request(bool &chunksRange) const {
  llvm::Expected<ChunkChoice> chunks = parseChunkChoice(chunksOption);
  if (!chunks)
    return chunks.takeError();
  chunksRange = chunks->range;
  // A program (or a file that claims to be one, or binary) is refused in
  // one line before the MLIR parser could print its bytes.
  for (const std::string &input : inputs)
    if (llvm::Error error = refuseProgramInput(
            input, "coreai-plan " + command,
            "MLIR (text or bytecode) or torch.export archives (.pt2)",
            "`coreai-plan inspect | plan | check-heap PROGRAM.pte` read "
            "programs"))
      return error;
  PlanRequest request;
  request.inputs.assign(inputs.begin(), inputs.end());
  request.chunks = std::move(chunks->chunks);
  request.chunksGiven = chunksOption.getNumOccurrences() > 0;
  request.entries.assign(entryNames.begin(), entryNames.end());
  std::vector<std::string> binds(bindOptions.begin(), bindOptions.end());
  llvm::Expected<Bindings> bindings = parseBindings(binds);
  if (!bindings)
    return bindings.takeError();
  request.bindings = std::move(*bindings);
  bool defaulted = targetName.empty();
  llvm::Expected<Target> target =
      loadTarget(defaulted ? kDefaultTarget : targetName.getValue(),
                 targetsDir.empty() ? defaultTargetsDir() : targetsDir);
  if (!target)
    return target.takeError();
  if (defaulted)
    llvm::WithColor::note(llvm::errs(), "coreai-plan")
        << "no --target given: planning for '" << kDefaultTarget
        << "', the safe default (" << target->description << ")\n";
  request.target = std::move(*target);
  request.options =
      planOptionsFor(request.target, planning.reuse, planning.chosen.solve);
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

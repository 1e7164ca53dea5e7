//===- PlanProgram.cpp - coreai-plan plan PROGRAM.pte ---------------------===//
//
// An ExecuTorch program in, the same program with its memory re-planned
// out: every method's arenas packed by the solvers, one size for every
// method's arena, and (on request) the mutable buffers methods share at
// one offset. The new file is read back and verified before it is written.
//
//===----------------------------------------------------------------------===//
#include "PlanProgram.h"

#include "Commands.h"
#include "OutputSet.h"
#include "ReportInput.h"
#include "TextTable.h"

#include "coreai-plan/Pte/ProgramFile.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {
namespace {

std::string proof(const Plan &plan) {
  return plan.heap <= plan.lowerBound ? "meets-bound"
         : plan.optimal               ? "exact-search"
                                      : "none";
}

/// Where the new program goes: `-o FILE.pte`, or `-o DIR` (DIR/<input>).
std::string outputPath(const ProgramPlanRequest &request) {
  if (llvm::StringRef(request.output).ends_with(".pte"))
    return request.output;
  llvm::SmallString<256> path(request.output);
  llvm::sys::path::append(path, llvm::sys::path::filename(request.input));
  return path.str().str();
}

void printTable(const ReportInput &input, const pte::ReplanResult &replan,
                const ProgramPlanRequest &request, llvm::raw_ostream &os) {
  os << llvm::formatv("program {0} (ExecuTorch), alignment {1}\n",
                      input.manifest.inputs.front().file,
                      request.options.alignment);
  // before: the arena the program sized; after: the bytes the new plan
  // uses (every method's arena then gets the largest).
  TextTable table({"arena", "storages", "lower bound", "before", "after",
                   "after/LB", "solver", "optimal", "solver time"},
                  {false, true, true, true, true, true, false, false, true});
  for (size_t k = 0; k < replan.after.size(); ++k) {
    const PlannedEntry &after = replan.after[k].entry;
    table.add({"@" + after.entry, std::to_string(after.problem.buffers.size()),
               std::to_string(after.plan.lowerBound),
               std::to_string(replan.before[k].arenaBytes),
               std::to_string(after.plan.heap),
               llvm::formatv("{0:F4}", heapRatio(after.plan.heap,
                                                 after.plan.lowerBound)),
               after.plan.algorithm, after.plan.optimal ? "yes" : "no",
               llvm::formatv("{0:F3} s", after.plan.seconds)});
  }
  table.print(os);
  for (const auto &[memoryId, size] : replan.arenaSizes) {
    int64_t largest = 0;
    for (const pte::ArenaEntry &arena : replan.before)
      if (arena.memoryId == memoryId)
        largest = std::max(largest, arena.arenaBytes);
    os << llvm::formatv("memory id {0}: every method's arena {1} bytes (the "
                        "program's largest was {2})\n",
                        memoryId, size, largest);
  }
  for (int64_t memoryId : replan.kept)
    os << llvm::formatv("memory id {0}: the program's own plan is kept (a "
                        "new one would not be smaller)\n",
                        memoryId);
  if (!replan.shared.empty())
    os << llvm::formatv("{0} mutable buffers at one offset in every method "
                        "holding them\n",
                        replan.shared.size());
}

llvm::json::Value summaryJson(const ReportInput &input,
                              const pte::ReplanResult &replan,
                              const ProgramPlanRequest &request,
                              llvm::StringRef written) {
  llvm::json::Array arenas;
  for (size_t k = 0; k < replan.after.size(); ++k) {
    const pte::ArenaEntry &after = replan.after[k];
    const Plan &plan = after.entry.plan;
    arenas.push_back(llvm::json::Object{
        {"arena", after.entry.entry},
        {"method", input.program->methods[after.method].name},
        {"memory_id", after.memoryId},
        {"storages", int64_t(after.entry.problem.buffers.size())},
        {"lower_bound", plan.lowerBound},
        {"before", replan.before[k].arenaBytes},
        {"after", plan.heap},
        {"optimal", plan.optimal},
        {"proof", proof(plan)},
        {"algorithm", plan.algorithm},
        {"solver_seconds", plan.seconds},
    });
  }
  llvm::json::Object sizes;
  for (const auto &[memoryId, size] : replan.arenaSizes)
    sizes[std::to_string(memoryId)] = size;
  llvm::json::Object summary{
      {"program", input.manifest.inputs.front().file},
      {"alignment", request.options.alignment},
      {"arenas", std::move(arenas)},
      {"arena_sizes", std::move(sizes)},
      {"kept_memory_ids", llvm::json::Array(replan.kept)},
      {"shared_mutable_buffers", int64_t(replan.shared.size())},
      {"written", written},
  };
  if (request.explain) {
    std::vector<PlannedEntry> entries;
    for (const pte::ArenaEntry &arena : replan.after)
      entries.push_back(arena.entry);
    summary["explain"] = explainPlans(entries);
  }
  return summary;
}

} // namespace

int runPlanProgram(const ProgramPlanRequest &request) {
  // Only the program's bytes are read: the segments (the weights) are
  // copied file to file, never held (docs/PTE.md, "Programs of any size").
  llvm::Expected<pte::ProgramHead> head = pte::readProgramHead(request.input);
  if (!head)
    return fail(InputError, head.takeError());
  llvm::Expected<ReportInput> input =
      readProgramInput(head->bytes, request.input, head->fileSize);
  if (!input)
    return fail(InputError, input.takeError());
  std::vector<pte::PlanFinding> findings =
      pte::checkProgramPlan(*input->program, input->memories);
  if (!findings.empty())
    llvm::errs() << llvm::formatv(
        "coreai-plan: warning: the program's own plan is not sound ({0} "
        "finding{1}; `coreai-plan check {2}` lists them): the tensors it "
        "overlaps stay together in the re-plan, as they were\n",
        findings.size(), findings.size() == 1 ? "" : "s", request.input);
  for (const std::string &line : pte::mutableBufferAdvice(
           *input->program, input->memories,
           request.options.shareMutableBuffers))
    llvm::errs() << "coreai-plan: " << line << "\n";
  llvm::Expected<pte::ReplanResult> replan =
      pte::replanProgram(*input->program, input->memories, request.options);
  if (!replan)
    return fail(InternalError, replan.takeError());
  llvm::Expected<pte::RewrittenHead> rewritten = pte::rewriteProgramHead(
      head->bytes, head->fileSize, *input->program, replan->placements);
  if (!rewritten)
    return fail(InputError, rewritten.takeError());
  uint64_t newSize =
      rewritten->bytes.size() + (head->fileSize - rewritten->tailFrom);

  std::string path = outputPath(request);
  OutputSet outputs;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty())
    if (llvm::Error error = outputs.makeDirectory(dir))
      return fail(InputError, std::move(error));
  // The new file is checked as read back from the disk, before it takes
  // its name: a failed check is an internal error, and nothing is written.
  bool checkFailed = false;
  llvm::Error written =
      outputs.addWritten(path, [&](int fd, llvm::StringRef temp) {
        if (llvm::Expected<pte::CopyMethod> copied = pte::writeProgramFile(
                request.input, fd, temp, *rewritten);
            !copied)
          return copied.takeError();
        llvm::Expected<std::string> back =
            pte::readBack(fd, rewritten->bytes.size(), temp);
        if (!back)
          return back.takeError();
        llvm::Error error = pte::checkRewritten(
            *back, *input->program, input->memories, *replan, newSize);
        checkFailed = bool(error);
        return error;
      });
  if (written)
    return fail(checkFailed ? InternalError : InputError, std::move(written));
  if (llvm::Error error = outputs.commit())
    return fail(InputError, std::move(error));

  if (request.quiet)
    return Success;
  if (request.json) {
    llvm::outs() << llvm::formatv(
                        "{0:2}", summaryJson(*input, *replan, request, path))
                 << "\n";
    return Success;
  }
  printTable(*input, *replan, request, llvm::outs());
  llvm::outs() << "wrote " << path << "\n";
  if (request.explain) {
    std::vector<PlannedEntry> entries;
    for (const pte::ArenaEntry &arena : replan->after)
      entries.push_back(arena.entry);
    llvm::outs() << "\n" << explainPlans(entries);
  }
  return Success;
}

} // namespace coreai::cli

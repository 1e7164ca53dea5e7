//===- Progress.h - Planning progress on stderr -----------------*- C++ -*-===//
//
// Long plans (many entry points, many S, exact searches) say what they are
// doing: the input being read, the stage of each (entry point, S), then
// its heap, its gap to the lower bound and the time it took. On a
// terminal each stage overwrites the last; elsewhere every stage is a line.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_PROGRESS_H
#define COREAI_PLAN_TOOLS_PROGRESS_H


#include "coreai-plan/Bundle/Planner.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace coreai::cli {

class ProgressPrinter : public PlanObserver {
public:
  ProgressPrinter(llvm::raw_ostream &os, bool terminal);
  ~ProgressPrinter() override;

  void reading(llvm::StringRef path) override;
  void stage(const PlanJob &job, llvm::StringRef stage) override;
  void improved(const PlanJob &job, int64_t heap, int64_t bound) override;
  void planned(const ManifestEntry &entry, double seconds) override;
  void interrupt() override;

private:
  llvm::raw_ostream &os;
  bool terminal;
  bool lineOpen = false; ///< a transient line is on the terminal
  std::chrono::steady_clock::time_point started;

  void transient(const llvm::Twine &text);
  void permanent(const llvm::Twine &text);
  double elapsed() const;
};

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_PROGRESS_H

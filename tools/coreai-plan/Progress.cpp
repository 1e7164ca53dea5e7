//===- Progress.cpp - Planning progress on stderr -------------------------===//
#include "Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace coreai::cli {

ProgressPrinter::ProgressPrinter(llvm::raw_ostream &os, bool terminal)
    : os(os), terminal(terminal), started(std::chrono::steady_clock::now()) {}

ProgressPrinter::~ProgressPrinter() {
  // Leave the terminal clean for what the command prints next.
  interrupt();
}

void ProgressPrinter::interrupt() {
  if (lineOpen)
    os << "\r\x1b[K";
  os.flush();
  lineOpen = false;
}

double ProgressPrinter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       started)
      .count();
}

void ProgressPrinter::transient(const llvm::Twine &text) {
  if (!terminal) {
    permanent(text);
    return;
  }
  // Carriage return and erase-to-end: the next stage replaces this one.
  os << "\r\x1b[K" << text;
  os.flush();
  lineOpen = true;
}

void ProgressPrinter::permanent(const llvm::Twine &text) {
  if (lineOpen)
    os << "\r\x1b[K";
  os << text << "\n";
  os.flush();
  lineOpen = false;
}

void ProgressPrinter::reading(llvm::StringRef path) {
  transient(llvm::formatv("[{0,6:F1} s] reading {1}", elapsed(),
                          llvm::sys::path::filename(path)));
}

void ProgressPrinter::stage(const PlanJob &job, llvm::StringRef stage) {
  mlir::func::FuncOp source = job.source;
  transient(llvm::formatv("[{0,6:F1} s] @{1} S={2}: {3}", elapsed(),
                          source.getSymName(), job.chunk, stage));
}

void ProgressPrinter::improved(const PlanJob &job, int64_t heap,
                               int64_t bound) {
  mlir::func::FuncOp source = job.source;
  double gapPercent = 100.0 * gap(heap, bound);
  transient(llvm::formatv("[{0,6:F1} s] @{1} S={2}: searching, best heap {3} "
                          "bytes, gap {4:F2}%",
                          elapsed(), source.getSymName(), job.chunk, heap,
                          gapPercent));
}

void ProgressPrinter::planned(const ManifestEntry &entry, double seconds) {
  const PlannedEntry &e = entry.planned;
  double gapPercent = 100.0 * gap(e.plan.heap, e.plan.lowerBound);
  permanent(llvm::formatv("[{0,6:F1} s] @{1} S={2}: heap {3} bytes, gap "
                          "{4:F2}% over the lower bound{5}, {6:F3} s",
                          elapsed(), e.entry, e.chunk, e.plan.heap, gapPercent,
                          e.plan.optimal ? " (optimal)" : "", seconds));
}

} // namespace coreai::cli

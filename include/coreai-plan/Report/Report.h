//===- Report.h - Pictures and explanations of plans ------------*- C++ -*-===//
//
// Turns verified plans into what people read when they debug a heap: an SVG
// of the heap over time, a self-contained HTML page of a whole bundle, and
// an explanation of where the peak is and how it grows with S. Plain data
// in, text out; nothing here knows about MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_REPORT_H
#define COREAI_PLAN_REPORT_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Parametric.h"
#include "coreai-plan/Report/Regions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace coreai {

/// The time with the most live bytes (the earliest such) and those bytes.
struct Peak {
  int64_t time = 0;
  int64_t liveBytes = 0;
  /// Indices of the buffers live at `time`, largest first.
  std::vector<size_t> buffers;
};
/// Over the heap's buffers only: those `binOf` (if given and not empty)
/// puts in an output's storage are left out.
Peak findPeak(const BufferProblem &problem,
              const BinAssignment *binOf = nullptr);

struct HeapSvgOptions {
  /// A <title> per rectangle: the hover text of a standalone picture.
  bool titles = true;
  /// `data-b` (buffer index) and `data-p` (placed value index) on each
  /// rectangle, for the page's script.
  bool indices = false;
  /// The op kinds' legend at the right and the lines of what is live at
  /// the peak under the time axis (the page shows both beside the picture).
  bool captions = true;
};

/// Where one plan's bytes are, as a picture: op position on x shared by
/// every region (Regions.h), each region's addresses on y at the scale of
/// the bytes the plan uses in it, one rectangle per buffer coloured by
/// producing op; the heap's size and lower bound, each borrowed output's
/// capacity, the heap's peak across all regions with what is live there.
/// Standalone SVG 1.1.
std::string renderHeapSvg(const PlannedEntry &entry,
                          const HeapSvgOptions &options = {});

/// One piece of an entry point's parametric plan (one plan for every S of
/// its range).
struct ParametricPiece {
  std::string entry;
  const ParametricPlan *plan = nullptr;
  std::string symbol; ///< the shape symbol bound to S (`s58`)
  /// Why the planner cut the range below the piece (empty: the lowest).
  std::string cut;
};

/// An entry point's bytes against S on a true (proportional) S axis: the
/// heap and its lower bound, and the bytes the plan places (heap +
/// borrowed + states) with each part; the entries as points, the
/// parametric pieces at every S of their ranges with the cuts between
/// them marked. `entries` sorted by S. Standalone SVG.
std::string renderGrowthChart(llvm::ArrayRef<const PlannedEntry *> entries,
                              llvm::ArrayRef<const ParametricPiece *> pieces);

/// One offline HTML page (no network, no external script): per entry
/// point its growth chart, then per S where the bytes go (tables by region
/// and by op kind, what fusion kept out of memory) and the picture of
/// every region, which answers hovers and clicks (value, op, source
/// location, bytes, live range, region, offset; what is live at an op); a
/// search box finds values and ops by name. A picture is drawn when its
/// S is shown.
std::string renderBundleHtml(llvm::ArrayRef<PlannedEntry> entries,
                             llvm::StringRef title,
                             llvm::ArrayRef<ParametricPiece> pieces = {});

/// Where the peak is, what is live there, how each entry point's peak grows
/// with S, and how much of the heap is lost to fragmentation; with fused
/// kernels, what they keep out of memory and the kernel the peak op is in.
std::string explainPlans(llvm::ArrayRef<PlannedEntry> entries);

/// Per entry point with a parametric plan, its pieces: each one's range,
/// its heap there, and why the range is cut below it (no neighbour's plan
/// covers both within the tolerance, or a borrowed buffer stops fitting).
std::string explainPieces(llvm::ArrayRef<ParametricPiece> pieces);

/// What fusion kept out of memory in `entry`: "3 kernels keep 10 values
/// (3072 bytes) out of memory"; empty when it has no kernels.
std::string kernelSummary(const PlannedEntry &entry);

/// Where kernels came from, in words, for a PlannedEntry::kernelSource:
/// "marked in the input", "formed by the target's fusion rules"; empty
/// for none.
std::string kernelSourceText(llvm::StringRef source);

/// The kernel whose ops write buffer `buffer` (an index into
/// entry.problem.buffers), or nullptr when no kernel does.
const PlannedEntry::Kernel *kernelWriting(const PlannedEntry &entry,
                                          size_t buffer);

/// Escapes &, <, >, " and ' for XML text and attribute values.
std::string escapeXml(llvm::StringRef text);

} // namespace coreai

#endif // COREAI_PLAN_REPORT_H

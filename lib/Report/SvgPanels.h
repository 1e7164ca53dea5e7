//===- SvgPanels.h - The regions of one plan drawn on one time axis -*- C++ -*-===//
//
// The body of the heap picture (HeapSvg.cpp): a panel per region that
// holds planned buffers (the heap, each output the plan borrows), each at
// its own byte scale, and a lane per storage written in place, grouped by
// kind. Rectangles are coloured by op; a region with thousands of buffers
// too small to see merges them per few pixels.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_REPORT_SVGPANELS_H
#define COREAI_PLAN_LIB_REPORT_SVGPANELS_H

#include "coreai-plan/Report/Regions.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

namespace coreai::report::svg {

constexpr double plotLeft = 120, plotWidth = 880, legendWidth = 250;
constexpr double totalWidth = plotLeft + plotWidth + 24 + legendWidth;

/// Op positions to x, shared by every region.
struct TimeAxis {
  int64_t span = 1;
  double x(int64_t time) const {
    return plotLeft + plotWidth * double(std::clamp<int64_t>(time, 0, span)) /
                          double(span);
  }
};

/// One region's frame: addresses 0..scale to y, clamped to the frame (an
/// output's own value is larger than the bytes borrowed in it).
struct Frame {
  double top = 0, height = 0;
  int64_t scale = 1;
  double y(int64_t address) const {
    double clamped = std::min<double>(double(address), double(scale));
    return top + height - height * clamped / double(scale);
  }
};

class PanelWriter {
public:
  PanelWriter(llvm::raw_ostream &os, const PlannedEntry &entry,
              const std::vector<Region> &regions, const TimeAxis &axis,
              const HeapSvgOptions &options)
      : os(os), entry(entry), regions(regions), axis(axis), options(options) {}

  /// Every region from `top` down; returns the bottom of the last one.
  double writeAll(double top);

private:
  double writePanel(const Region &region, double top);
  double writeLanes(Region::Kind kind, double top);
  void writePanelHeading(const Region &region, const Frame &frame);
  void writeHeapLines(const Frame &frame);
  void writeCapacity(const Region &region, const Frame &frame);
  void writeBuffers(const Region &region, const Frame &frame);
  void writePlaced(const Region &region, const Frame &frame,
                   llvm::StringRef cssClass);
  void writeYTicks(const Frame &frame);
  void writeRect(double x0, double x1, double y0, double y1,
                 llvm::StringRef cssClass, llvm::StringRef fill,
                 const std::string &title, const std::string &data);
  std::string bufferTitle(size_t b, const Region &region) const;
  std::string placedTitle(size_t p, const Region &region,
                          std::pair<int64_t, int64_t> live) const;

  llvm::raw_ostream &os;
  const PlannedEntry &entry;
  const std::vector<Region> &regions;
  const TimeAxis &axis;
  const HeapSvgOptions &options;
};

} // namespace coreai::report::svg

#endif
